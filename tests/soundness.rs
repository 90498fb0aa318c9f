//! Soundness of the direct encoding against an independent brute-force BFS
//! (`tests/support/bfs.rs`) on thousands of random tiny instances: the least
//! horizon found by SAT must equal the BFS's least number of moves, every SAT
//! plan must pass the simulator, and "no plan up to the maximum" must agree.

#[path = "support/bfs.rs"]
mod bfs;

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use snakesat::encode::by_name;
use snakesat::encode::prune::lower_bound;
use snakesat::instance::json::to_json;
use snakesat::instance::{Instance, Pos, Start, TailRule};
use snakesat::planner::{Method, Outcome, Planner, Search as Question, Verdict};
use snakesat::sim::simulate;
use snakesat::solve::Status;
use snakesat::solve::incremental::ends_full;

/// An outcome as the raw search saw it: the status and, when SAT, the
/// horizon and path of the model (legal or not: the caller checks it).
struct Search {
    status: Status,
    plan: Option<(usize, Option<Vec<Pos>>)>,
}

impl Search {
    fn of(outcome: Outcome) -> Search {
        let status = outcome.status();
        let plan = match outcome.verdict {
            Verdict::Plan(p) => Some((p.horizon, Some(p.path))),
            Verdict::IllegalModel { horizon, path, .. } => Some((horizon, path)),
            Verdict::NoPlan { .. } | Verdict::Unknown => None,
        };
        Search { status, plan }
    }
}

/// The least-horizon search with `method` and no time limit.
fn least(inst: &Instance, name: &str, method: Method) -> Search {
    let encoding = by_name(name).unwrap();
    let outcome = Planner::new(encoding.as_ref())
        .method(method)
        .max_horizon(MAX_MOVES)
        .plan(inst)
        .unwrap_or_else(|e| panic!("{name} refused {}: {e}", to_json(inst)));
    Search::of(outcome)
}

/// The largest horizon searched, by both the BFS and the SAT search.
const MAX_MOVES: usize = 14;
/// Valid instances to check (fewer in unoptimised builds, where the BFS is slow).
const INSTANCES: usize = if cfg!(debug_assertions) { 2000 } else { 5000 };
const ENCODINGS: &[&str] = &[
    "direct",
    "direct,prune=off",
    "direct,amo=pairwise",
    "direct,amo=commander",
    "direct,amo=product",
    "direct,amo=binary",
    "direct,amo=bimander",
    "direct,body=window",
    "direct,body=block",
    "direct,body=tail",
    "direct,body=tail,prune=off",
    "direct,growth=counter",
    "direct,body=tail,growth=counter",
    "direct,body=compare",
    "direct,position=onehot",
    "direct,position=onehot,body=block",
    "direct,position=axis",
    "direct,position=axis,body=block",
    "direct,position=axis,body=tail",
    "direct,position=axis,amo=pairwise,prune=off",
];
/// Encodings also checked with the incremental search (one solver, every horizon).
const INCREMENTAL: &[&str] = &[
    "direct",
    "direct,prune=off",
    "direct,amo=commander",
    "direct,body=window",
    "direct,body=tail",
    "direct,body=tail,prune=off",
    "direct,body=tail,growth=counter",
    "direct,body=compare",
    "direct,position=onehot",
    "direct,position=axis",
];

fn random_cell(rng: &mut ChaCha8Rng, width: usize, height: usize) -> Pos {
    (rng.random_range(0..width), rng.random_range(0..height))
}

/// A random self-avoiding walk of up to `length` cells off the walls, head
/// first; shorter if it gets stuck, `None` if it cannot start.
fn random_body(
    rng: &mut ChaCha8Rng,
    width: usize,
    height: usize,
    walls: &[Pos],
    length: usize,
) -> Option<Vec<Pos>> {
    let head = random_cell(rng, width, height);
    if walls.contains(&head) {
        return None;
    }
    let mut body = vec![head];
    while body.len() < length {
        let (x, y) = *body.last().unwrap();
        let mut options: Vec<Pos> = [
            (x.wrapping_sub(1), y),
            (x + 1, y),
            (x, y.wrapping_sub(1)),
            (x, y + 1),
        ]
        .into_iter()
        .filter(|&(a, b)| a < width && b < height)
        .filter(|p| !walls.contains(p) && !body.contains(p))
        .collect();
        if options.is_empty() {
            break;
        }
        let k = rng.random_range(0..options.len());
        body.push(options.swap_remove(k));
    }
    Some(body)
}

/// A random instance; it may be invalid (the caller skips those).
fn random_instance(rng: &mut ChaCha8Rng) -> Option<Instance> {
    let width = rng.random_range(1..=5);
    // Mostly two-dimensional grids; corridors (one row) now and then.
    let low = if rng.random_bool(0.2) { 1 } else { 2 };
    let height = rng.random_range(low..=5);
    let walls: Vec<Pos> = (0..rng.random_range(0..=3))
        .map(|_| random_cell(rng, width, height))
        .collect();
    let start = if rng.random_bool(0.5) {
        let length = rng.random_range(1..=4);
        Start::Body(random_body(rng, width, height, &walls, length)?)
    } else {
        Start::Free {
            length: rng.random_range(1..=4),
        }
    };
    // Few apple-less instances: they are all solved in one move.
    let n = if rng.random_bool(0.1) {
        0
    } else {
        rng.random_range(1..=4)
    };
    let visible = match rng.random_range(0..3) {
        0 => 1,
        1 => 2,
        _ => n,
    };
    // Draw apples off the walls, the visible ones off the body, and distinct
    // unless they are ordered (visible = 1 allows repeats); give up after a few tries.
    let body: &[Pos] = match &start {
        Start::Body(b) => b,
        Start::Free { .. } => &[],
    };
    let mut apples: Vec<Pos> = Vec::new();
    for i in 0..n {
        // Ordered apples sometimes repeat a cell on purpose (eaten, then back).
        if visible == 1 && i > 0 && rng.random_bool(0.2) {
            let k = rng.random_range(0..i);
            apples.push(apples[k]);
            continue;
        }
        let mut cell = random_cell(rng, width, height);
        for _ in 0..20 {
            let clash = walls.contains(&cell)
                || (i < visible && body.contains(&cell))
                || (visible > 1 && apples.contains(&cell));
            if !clash {
                break;
            }
            cell = random_cell(rng, width, height);
        }
        apples.push(cell);
    }
    let tail = if rng.random_bool(0.5) {
        TailRule::Follow
    } else {
        TailRule::Strict
    };
    let mut walls = walls;
    walls.sort();
    walls.dedup();
    Some(Instance {
        width,
        height,
        walls,
        start,
        apples,
        visible,
        grow: rng.random_bool(0.5),
        tail,
        horizon: None,
    })
}

/// Checks one instance against the oracle; returns the BFS answer.
fn check(inst: &Instance) -> Option<usize> {
    let json = to_json(inst);
    let expected = bfs::least_moves(inst, MAX_MOVES);
    let bound = lower_bound(inst);
    if let Some(k) = expected {
        assert!(
            bound <= k,
            "lower bound {bound} exceeds the BFS optimum {k} on {json}"
        );
    }
    let fresh = ENCODINGS
        .iter()
        .map(|&name| (name.to_string(), least(inst, name, Method::Fresh)));
    let incremental = INCREMENTAL.iter().map(|&name| {
        (
            format!("incremental {name}"),
            least(inst, name, Method::Incremental),
        )
    });
    let all: Vec<(String, Search)> = fresh.chain(incremental).collect();
    for (name, search) in all {
        match expected {
            Some(k) => {
                assert_eq!(
                    search.status,
                    Status::Sat,
                    "{name}: no plan up to {MAX_MOVES} moves, BFS finds one of {k} on {json}"
                );
                let (horizon, path) = search.plan.as_ref().unwrap();
                assert_eq!(
                    *horizon, k,
                    "{name}: least horizon {horizon} but BFS optimum {k} on {json}"
                );
                let path = path
                    .as_ref()
                    .unwrap_or_else(|| panic!("{name}: SAT model without a path on {json}"));
                assert_eq!(path.len(), k + 1, "{name}: path length on {json}");
                if let Err(v) = simulate(inst, path) {
                    panic!("{name}: plan {path:?} fails the simulator ({v}) on {json}");
                }
            }
            None => {
                let found = search.plan;
                assert_eq!(
                    search.status,
                    Status::Unsat,
                    "{name}: found {found:?} but BFS finds no plan up to {MAX_MOVES} moves on {json}"
                );
            }
        }
    }
    if let Some(k) = expected {
        // A fixed horizon above the optimum: the shortcut (plan at the lower
        // bound plus a continuation) must agree with the full formula.
        let encoding = by_name("direct").unwrap();
        let moves = k + 3;
        let at = |shortcut| {
            Search::of(
                Planner::new(encoding.as_ref())
                    .search(Question::FixedHorizon(moves))
                    .shortcut(shortcut)
                    .plan(inst)
                    .unwrap(),
            )
        };
        let fixed = at(true);
        let full = at(false);
        assert_eq!(
            fixed.status, full.status,
            "solve_fixed vs solve_at at T={moves} on {json}"
        );
        if let Some((_, Some(path))) = &fixed.plan {
            assert_eq!(path.len(), moves + 1, "fixed-horizon path length on {json}");
            if let Err(v) = simulate(inst, path) {
                panic!("fixed-horizon plan {path:?} fails the simulator ({v}) on {json}");
            }
        }
    }
    expected
}

fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}"))
    })
}

#[test]
fn direct_encoding_agrees_with_bfs_on_random_tiny_instances() {
    // `SNAKESAT_SOUNDNESS_INSTANCES` and `SNAKESAT_SOUNDNESS_SEED` widen the search.
    let instances = env_number("SNAKESAT_SOUNDNESS_INSTANCES").unwrap_or(INSTANCES);
    let seed = env_number("SNAKESAT_SOUNDNESS_SEED").unwrap_or(0x5eed_2026);
    let mut rng = ChaCha8Rng::seed_from_u64(seed as u64);
    let mut checked = 0;
    let mut solvable = 0;
    let mut tries = 0;
    while checked < instances {
        tries += 1;
        assert!(tries < 100 * instances, "too few valid random instances");
        let Some(inst) = random_instance(&mut rng) else {
            continue;
        };
        if inst.validate().is_err() {
            continue;
        }
        if check(&inst).is_some() {
            solvable += 1;
        }
        checked += 1;
    }
    // Both outcomes must be well represented, or the test proves little.
    assert!(
        solvable >= instances / 4 && solvable <= instances * 9 / 10,
        "{solvable} of {checked} instances solvable"
    );
}

/// A random instance whose apples fill every free cell off the initial body
/// (strict tail, growth): eating the last apple ends the game with a full
/// board, where the incremental search adds its full-board assumptions.
fn random_full_board(rng: &mut ChaCha8Rng) -> Option<Instance> {
    let width = rng.random_range(1..=4);
    let height = rng.random_range(1..=3);
    let walls: Vec<Pos> = (0..rng.random_range(0..=2))
        .map(|_| random_cell(rng, width, height))
        .collect();
    let length = rng.random_range(1..=3);
    let body = random_body(rng, width, height, &walls, length)?;
    let mut apples: Vec<Pos> = (0..width)
        .flat_map(|x| (0..height).map(move |y| (x, y)))
        .filter(|p| !walls.contains(p) && !body.contains(p))
        .collect();
    if apples.is_empty() || apples.len() > 7 {
        return None;
    }
    for i in (1..apples.len()).rev() {
        apples.swap(i, rng.random_range(0..=i));
    }
    let n = apples.len();
    let visible = match rng.random_range(0..3) {
        0 => 1,
        1 => 2.min(n),
        _ => n,
    };
    let mut walls = walls;
    walls.sort();
    walls.dedup();
    Some(Instance {
        width,
        height,
        walls,
        start: Start::Body(body),
        apples,
        visible,
        grow: true,
        tail: TailRule::Strict,
        horizon: None,
    })
}

#[test]
fn full_board_instances_agree_with_bfs() {
    let instances = env_number("SNAKESAT_SOUNDNESS_INSTANCES").map_or(600, |n| n / 4);
    let seed = env_number("SNAKESAT_SOUNDNESS_SEED").unwrap_or(0xf011_2026);
    let mut rng = ChaCha8Rng::seed_from_u64(seed as u64);
    let (mut checked, mut solvable, mut tries) = (0, 0, 0);
    while checked < instances {
        tries += 1;
        assert!(
            tries < 100 * instances,
            "too few valid full-board instances"
        );
        let Some(inst) = random_full_board(&mut rng) else {
            continue;
        };
        if inst.validate().is_err() {
            continue;
        }
        assert!(
            ends_full(&inst),
            "not a full-board instance: {}",
            to_json(&inst)
        );
        if check(&inst).is_some() {
            solvable += 1;
        }
        checked += 1;
    }
    assert!(
        solvable >= instances / 10 && solvable <= instances * 9 / 10,
        "{solvable} of {checked} full-board instances solvable"
    );
}
