//! Soundness of the direct encoding against an independent brute-force BFS
//! (`tests/support/bfs.rs`) on thousands of random tiny instances: the least
//! horizon found by SAT must equal the BFS's least number of moves, every SAT
//! plan must pass the simulator, and "no plan up to the maximum" must agree.
//! The instances come from `tests/support/tiny.rs`, shared with tests/exact.rs.

#[path = "support/bfs.rs"]
mod bfs;
#[path = "support/tiny.rs"]
mod tiny;
use tiny::{env_number, random_body, random_cell, random_full_board, random_instance};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use snakesat::encode::by_name;
use snakesat::encode::full::colours_forbid;
use snakesat::encode::full::ends_full;
use snakesat::encode::full::overfills;
use snakesat::encode::prune::{distances_from, lower_bound};
use snakesat::instance::json::to_json;
use snakesat::instance::{Instance, Pos, Start, TailRule};
use snakesat::planner::{CadicalConfig, Method, Outcome, Planner, Search as Question, Verdict};
use snakesat::reachable::{Reachable, explore};
use snakesat::sim::simulate;
use snakesat::solve::Status;

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
            // No plan, unknown (`Verdict` is non-exhaustive).
            _ => None,
        };
        Search { status, plan }
    }
}

/// The least-horizon search with `method`, its own CaDiCaL configuration
/// (`None`) or `config`, and no time limit.
fn least(inst: &Instance, name: &str, method: Method, config: Option<CadicalConfig>) -> Search {
    let encoding = by_name(name).unwrap();
    let mut planner = Planner::new(encoding.as_ref())
        .method(method)
        .max_horizon(MAX_MOVES);
    if let Some(config) = config {
        planner = planner.cadical_config(config);
    }
    let outcome = planner
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

/// Checks one instance against the oracle; returns the BFS answer.
fn check(inst: &Instance) -> Option<usize> {
    let json = to_json(inst);
    // (The oracle counts moves from 1; without apples the goal holds at once.)
    let expected = if inst.apples.is_empty() {
        Some(0)
    } else {
        bfs::least_moves(inst, MAX_MOVES)
    };
    let bound = lower_bound(inst);
    if let Some(k) = expected {
        assert!(
            bound.is_some_and(|b| b <= k),
            "lower bound {bound:?} exceeds the BFS optimum {k} on {json}"
        );
    }
    let fresh = ENCODINGS
        .iter()
        .map(|&name| (name.to_string(), least(inst, name, Method::Fresh, None)));
    let incremental = INCREMENTAL.iter().map(|&name| {
        (
            format!("incremental {name}"),
            least(inst, name, Method::Incremental, None),
        )
    });
    // The default search (incremental with CaDiCaL's `unsat` configuration,
    // fresh formulas on every core on full boards), and the incremental one
    // with the other configurations.
    let default = [(
        "default search".to_string(),
        least(inst, "direct", Method::Auto, None),
    )];
    let configs = [CadicalConfig::Default, CadicalConfig::Sat].map(|config| {
        (
            format!("incremental direct, {}", config.name()),
            least(inst, "direct", Method::Incremental, Some(config)),
        )
    });
    let all: Vec<(String, Search)> = fresh
        .chain(incremental)
        .chain(default)
        .chain(configs)
        .collect();
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

/// The dead-end rule of the lower bound (an apple in a cell with one open
/// neighbour, eaten before another, strands a snake of two cells, or three
/// under `follow`, growing or not): wherever the
/// bound is infinite although the head can reach every apple, the brute
/// force finds no plan within twice the moves of the other tests; the rule
/// fires often enough to be tested.
#[test]
fn dead_end_bounds_agree_with_bfs() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xdead_0e4d);
    let (mut dead_ends, mut fixed_length, mut tries) = (0, 0, 0);
    while dead_ends < 40 || fixed_length < 5 {
        tries += 1;
        assert!(tries < 500_000, "only {dead_ends} dead-end bounds");
        let Some(inst) = random_instance(&mut rng) else {
            continue;
        };
        let Start::Body(body) = &inst.start else {
            continue;
        };
        if inst.validate().is_err() || lower_bound(&inst).is_some() {
            continue;
        }
        let dist = distances_from(&inst, &inst.wall_map(), body[0]);
        if inst
            .apples
            .iter()
            .any(|&a| dist[inst.index(a)] == usize::MAX)
        {
            continue;
        }
        dead_ends += 1;
        fixed_length += usize::from(!inst.grow);
        assert_eq!(
            bfs::least_moves(&inst, 2 * MAX_MOVES),
            None,
            "infinite bound on a solvable instance: {}",
            to_json(&inst)
        );
    }
}

/// The colour rule of full boards (the final body, a path along which the
/// chessboard colours alternate, covers every free cell, so the two colours'
/// counts differ by at most one): wherever it answers "no plan", the brute
/// force finds none either, under both tail rules, and it fires often enough
/// to be tested.
#[test]
fn colour_bounds_agree_with_bfs() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc010_0a25);
    let (mut forbidden, mut tries) = (0, 0);
    while forbidden < 40 {
        tries += 1;
        assert!(tries < 500_000, "only {forbidden} colour bounds");
        let Some(inst) = random_full_board(&mut rng) else {
            continue;
        };
        if inst.validate().is_err() || !colours_forbid(&inst) {
            continue;
        }
        forbidden += 1;
        // The rule holds under either tail rule: the last heads are distinct
        // under `follow` too.
        let follow = Instance {
            tail: TailRule::Follow,
            ..inst.clone()
        };
        assert!(colours_forbid(&follow), "{}", to_json(&follow));
        for inst in [inst, follow] {
            assert_eq!(lower_bound(&inst), None, "{}", to_json(&inst));
            assert_eq!(
                bfs::least_moves(&inst, 2 * MAX_MOVES),
                None,
                "colour rule on a solvable instance: {}",
                to_json(&inst)
            );
        }
    }
}

/// The over-full rule (a snake that starts from a placed body and grows at
/// every apple cannot eat more apples than its free cells can then hold):
/// wherever it answers "no plan", the brute force finds none either, under
/// both tail rules; one apple fewer (a board that fills up) and a free start
/// are left to the search.
#[test]
fn overfull_bounds_agree_with_bfs() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x0f11_2026);
    let mut checked = 0;
    while checked < 40 {
        let Some(full) = random_full_board(&mut rng) else {
            continue;
        };
        if full.validate().is_err() {
            continue;
        }
        let mut apples = full.apples.clone();
        for _ in 0..rng.random_range(1..=2) {
            apples.push(apples[rng.random_range(0..apples.len())]);
        }
        let over = Instance {
            apples,
            visible: 1,
            ..full.clone()
        };
        if over.validate().is_err() {
            continue;
        }
        checked += 1;
        assert!(!overfills(&full), "{}", to_json(&full));
        let follow = Instance {
            tail: TailRule::Follow,
            ..over.clone()
        };
        for inst in [over, follow] {
            assert!(overfills(&inst), "{}", to_json(&inst));
            assert_eq!(lower_bound(&inst), None, "{}", to_json(&inst));
            assert_eq!(
                bfs::least_moves(&inst, 2 * MAX_MOVES),
                None,
                "over-full rule on a solvable instance: {}",
                to_json(&inst)
            );
            let free = Instance {
                start: Start::Free {
                    length: inst.initial_length(),
                },
                ..inst.clone()
            };
            assert!(!overfills(&free), "{}", to_json(&free));
        }
    }
}

/// A tiny instance with many walls (so that pockets, parts of the board
/// behind one cell, are common), a snake of up to 5 cells, free or placed,
/// and 2 to 5 distinct apples; `None` when the draw fails.
fn walled_instance(rng: &mut ChaCha8Rng) -> Option<Instance> {
    let width = rng.random_range(3..=5);
    let height = rng.random_range(2..=5);
    let mut walls: Vec<Pos> = (0..rng.random_range(2..=6))
        .map(|_| random_cell(rng, width, height))
        .collect();
    walls.sort();
    walls.dedup();
    let length = rng.random_range(1..=5);
    let start = if rng.random_bool(0.5) {
        Start::Body(random_body(rng, width, height, &walls, length)?)
    } else {
        Start::Free { length }
    };
    let n = rng.random_range(2..=5);
    let visible = match rng.random_range(0..3) {
        0 => 1,
        1 => 2,
        _ => n,
    };
    let body: &[Pos] = match &start {
        Start::Body(b) => b,
        Start::Free { .. } => &[],
    };
    let mut apples: Vec<Pos> = Vec::new();
    while apples.len() < n {
        let cell = random_cell(rng, width, height);
        let clash = walls.contains(&cell)
            || apples.contains(&cell)
            || (apples.len() < visible && body.contains(&cell));
        if !clash {
            apples.push(cell);
        } else if rng.random_bool(0.1) {
            return None;
        }
    }
    let tail = if rng.random_bool(0.5) {
        TailRule::Follow
    } else {
        TailRule::Strict
    };
    Some(Instance {
        width,
        height,
        walls,
        start,
        apples,
        visible,
        grow: rng.random_bool(0.8),
        tail,
        horizon: None,
    })
}

/// The pocket rule of the lower bound (an apple behind a single cell, eaten
/// by a snake longer than that part of the board, strands it unless the
/// apples left are all there too): wherever the bound is infinite although
/// the head can reach every apple, the brute force finds no plan within
/// twice the moves of the other tests. The rule must fire where no apple is
/// in a one-cell dead end (the older rule), with free and placed starts.
#[test]
fn pocket_bounds_agree_with_bfs() {
    let wanted = env_number("SNAKESAT_POCKET_CASES").unwrap_or(40);
    let seed = env_number("SNAKESAT_POCKET_SEED").unwrap_or(0x90c4e7);
    let mut rng = ChaCha8Rng::seed_from_u64(seed as u64);
    let (mut pockets, mut free, mut placed, mut tries) = (0, 0, 0, 0);
    while pockets < wanted || free < wanted / 4 || placed < wanted / 4 {
        tries += 1;
        assert!(
            tries < 1_000 * wanted.max(1_000),
            "only {pockets} pocket bounds"
        );
        let Some(inst) = walled_instance(&mut rng) else {
            continue;
        };
        if inst.validate().is_err() || lower_bound(&inst).is_some() {
            continue;
        }
        let walls = inst.wall_map();
        let from = match &inst.start {
            Start::Body(body) => body[0],
            Start::Free { .. } => inst.apples[0],
        };
        let dist = distances_from(&inst, &walls, from);
        if inst
            .apples
            .iter()
            .any(|&a| dist[inst.index(a)] == usize::MAX)
        {
            continue;
        }
        let in_dead_end = inst.apples.iter().any(|&a| {
            inst.neighbours(a)
                .filter(|&q| !walls[inst.index(q)])
                .count()
                <= 1
        });
        if !in_dead_end {
            pockets += 1;
        }
        match inst.start {
            Start::Free { .. } => free += 1,
            Start::Body(_) => placed += 1,
        }
        assert_eq!(
            bfs::least_moves(&inst, 2 * MAX_MOVES),
            None,
            "infinite bound on a solvable instance: {}",
            to_json(&inst)
        );
    }
}

/// The listing of reachable states (src/reachable.rs) against the brute
/// force: its least number of moves is the brute force's, and where it finds
/// no state with every apple eaten, the brute force finds no plan within twice
/// the moves of the other tests. Random tiny and walled instances, free and
/// placed starts, both tail rules, with and without growth; the no-plan
/// answers must come up.
#[test]
fn reachable_states_agree_with_bfs() {
    let wanted = env_number("SNAKESAT_REACHABLE_CASES").unwrap_or(2_000);
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eac4ab1e);
    let (mut cases, mut never, mut tries) = (0, 0, 0);
    while cases < wanted || never < wanted / 10 {
        tries += 1;
        assert!(
            tries < 1_000 * wanted.max(100),
            "only {never} no-plan answers"
        );
        let drawn = if rng.random_bool(0.5) {
            random_instance(&mut rng)
        } else {
            walled_instance(&mut rng)
        };
        let Some(inst) = drawn else {
            continue;
        };
        if inst.validate().is_err() || inst.apples.is_empty() {
            continue;
        }
        cases += 1;
        let least = bfs::least_moves(&inst, 2 * MAX_MOVES);
        match explore(&inst).expect("a valid instance") {
            Reachable::EveryApple { moves } => assert_eq!(
                least,
                (moves <= 2 * MAX_MOVES).then_some(moves),
                "{}",
                to_json(&inst)
            ),
            Reachable::Never => {
                never += 1;
                assert_eq!(least, None, "no plan claimed: {}", to_json(&inst));
            }
            Reachable::TooMany => panic!("a tiny instance not listed: {}", to_json(&inst)),
        }
    }
}
