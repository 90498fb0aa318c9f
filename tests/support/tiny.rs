//! Random tiny instances and every option combination of the direct
//! encoding, for the brute-force comparisons (tests/exact.rs,
//! tests/plan_sets.rs, tests/external_solvers.rs). Instances: grids up to 5×5 with walls, explicit or free
//! starts of length 1–4, 0–4 apples (visible 1, 2 or all; ordered apples may
//! repeat a cell), both tail rules, growth on or off; and full-board
//! instances (strict tail, growth, apples on every free cell off the body).
//! Also the instances of tests/soundness.rs.

#![allow(dead_code)]

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use snakesat::encode::amo::Amo;
use snakesat::encode::direct::{Body, DirectOptions, Growth, Position};
use snakesat::instance::{Instance, Pos, Start, TailRule};

pub fn random_cell(rng: &mut ChaCha8Rng, width: usize, height: usize) -> Pos {
    (rng.random_range(0..width), rng.random_range(0..height))
}

/// A random self-avoiding walk of up to `length` cells off the walls, head
/// first; shorter if it gets stuck, `None` if it cannot start.
pub fn random_body(
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
pub fn random_instance(rng: &mut ChaCha8Rng) -> Option<Instance> {
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

pub fn env_number(name: &str) -> Option<usize> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|_| panic!("{name} must be a number, not {v:?}"))
    })
}

/// A random instance whose apples fill every free cell off the initial body
/// (strict tail, growth): eating the last apple ends the game with a full
/// board, where the incremental search adds its full-board assumptions.
pub fn random_full_board(rng: &mut ChaCha8Rng) -> Option<Instance> {
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

/// `count` valid instances from `seed`, one in `full_every` a full-board one
/// (0: none).
pub fn instances(seed: u64, count: usize, full_every: usize) -> Vec<Instance> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        assert!(tries < 100 * count.max(1), "too few valid random instances");
        let full = full_every > 0 && out.len() % full_every == full_every - 1;
        let inst = if full {
            random_full_board(&mut rng)
        } else {
            random_instance(&mut rng)
        };
        if let Some(inst) = inst.filter(|i| i.validate().is_ok()) {
            out.push(inst);
        }
    }
    out
}

/// The `i`-th pick from `options` (those of [`all_options`]): a permutation
/// of them (97 is prime to their count, 360), so each one is met once every
/// `options.len()` picks.
pub fn pick(options: &[DirectOptions], i: usize) -> &DirectOptions {
    &options[(i * 97) % options.len()]
}

/// Every combination of the direct encoding's options.
pub fn all_options() -> Vec<DirectOptions> {
    let mut out = Vec::new();
    for amo in Amo::ALL {
        for body in Body::ALL {
            for growth in [Growth::Auto, Growth::Counter] {
                for position in [Position::Projected, Position::OneHot, Position::Axis] {
                    for prune in [true, false] {
                        out.push(DirectOptions {
                            amo,
                            body,
                            growth,
                            position,
                            prune,
                        });
                    }
                }
            }
        }
    }
    out
}
