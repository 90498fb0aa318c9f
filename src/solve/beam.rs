//! Beam search over moves: a first plan (or a shorter one) without SAT.
//!
//! Every layer holds the states reachable after `t` moves (deduplicated,
//! a state seen at an earlier layer is not kept again), each expanded by its
//! legal moves; the `width` best of the next layer are kept, ranked by the
//! apples left (each weighted by `apple_weight` moves) plus the earliest
//! arrival of the head at the nearest revealed apple around the moving body
//! (the constructions' `Arrivals`, in buffers reused from state to state and
//! stopped once the nearest apple and the tail are reached), with a penalty
//! when the head can no longer reach its tail. The first layer with a state that has eaten every apple gives
//! the plan. With an unbounded width this is a breadth-first search over
//! states, so the plan is a least one (`tests/beam.rs` checks it against a
//! brute force). [`beams`] runs beams of doubling widths from the start and
//! [`regrow`] from cuts along a plan, two at a time (one rank per core); the
//! satisficing search uses both. Every plan is replayed by the caller's
//! simulator. States are deduplicated by a 64-bit hash of the state
//! (`rustc-hash`'s `FxHasher`: deterministic; the beam runs about 1.4 times
//! as fast as with the standard library's SipHash): a collision only drops a state, which
//! narrows the beam but cannot make a plan illegal.

use std::hash::{Hash, Hasher};
use std::time::Instant;

use rustc_hash::{FxHashSet, FxHasher};

use crate::geometry::Direction;
use crate::instance::{Instance, Pos, Start};

use super::Interrupt;
use super::construct::{Arrivals, State, needs_pair};

/// Rank penalty of a state whose head cannot reach its tail's cell.
const TRAPPED: usize = 1_000;

/// Width of the first beams of [`beams`].
const FIRST_WIDTH: usize = 250;

/// Widest beam of [`beams`] (memory: about 100 MB per thread on the IPC's
/// 9×9 boards at this width).
const MAX_WIDTH: usize = 16_000;

/// Bytes of states one beam of [`beams`] may hold in a layer (its kept
/// states and their successors); larger boards get narrower beams.
const LAYER_BYTES: usize = 256 << 20;

/// Moves per apple left in the ranks of [`beams`]' two beams (one per thread).
const APPLE_WEIGHTS: [usize; 2] = [4, 3];

/// Where [`regrow`] cuts the plan: after this share of its apples.
const REGROW_CUTS: [f64; 3] = [0.125, 0.25, 0.5];

/// Width of the first beams of [`regrow`].
const REGROW_FIRST_WIDTH: usize = 1_000;

/// `plan` (a legal plan eating every apple) with suffixes regrown by beams:
/// cut after each share of its apples in 1/8, 1/4 and 1/2, the rest is
/// searched by the two beams of apple weights 4 and 3 (one per thread, when
/// `threads` allows two; else one after the other) from the board there; a shorter plan replaces the best, and the next cuts are
/// taken along it. Widths double from 1,000 while the next
/// round can end by `deadline` (as in [`beams`]). Every plan is replayed by
/// the caller's simulator.
pub fn regrow(instance: &Instance, plan: Vec<Pos>, deadline: Instant, threads: usize) -> Vec<Pos> {
    regrow_until(instance, plan, &Interrupt::at(Some(deadline)), threads)
}

/// [`regrow`] until `stop` fires (its deadline, the planner's cancellation).
pub(crate) fn regrow_until(
    instance: &Instance,
    plan: Vec<Pos>,
    stop: &Interrupt,
    threads: usize,
) -> Vec<Pos> {
    let mut best = plan;
    doubling_rounds(instance, REGROW_FIRST_WIDTH, stop, |width| {
        for share in REGROW_CUTS {
            if stop.fired() {
                return false;
            }
            let Some(cut) = eat_time(instance, &best, share) else {
                return false;
            };
            let prefix = &best[..=cut];
            let plans = both_weights(instance, prefix, width, stop, threads);
            for plan in plans.into_iter().flatten() {
                if plan.len() < best.len() {
                    best = plan;
                }
            }
        }
        true
    });
    best
}

/// Calls `round` with widths doubling from `first` up to [`widest`], while
/// `stop` has not fired and the next round (about twice as long as the
/// last) can end by its deadline, until `round` returns `false`.
fn doubling_rounds(
    instance: &Instance,
    first: usize,
    stop: &Interrupt,
    mut round: impl FnMut(usize) -> bool,
) {
    let mut width = first;
    while width <= widest(instance) {
        let started = Instant::now();
        if stop.fired() || !round(width) {
            break;
        }
        let next_ends = Instant::now() + started.elapsed() * 2;
        if stop.deadline.is_some_and(|d| next_ends > d) {
            break;
        }
        width *= 2;
    }
}

/// The plans of the beams of [`APPLE_WEIGHTS`] after `prefix`
/// ([`beam_after`]), in the order of the weights: one thread each, or one
/// after the other on this thread when `threads` is less than two.
fn both_weights(
    instance: &Instance,
    prefix: &[Pos],
    width: usize,
    stop: &Interrupt,
    threads: usize,
) -> Vec<Option<Vec<Pos>>> {
    let beam = |weight| beam_after_until(instance, prefix, width, weight, stop);
    if threads < 2 {
        return APPLE_WEIGHTS.iter().map(|&weight| beam(weight)).collect();
    }
    std::thread::scope(|scope| {
        let handles: Vec<_> = APPLE_WEIGHTS
            .iter()
            .map(|&weight| scope.spawn(move || beam(weight)))
            .collect();
        handles
            .into_iter()
            // A panic is a bug: passed on, not taken for "no plan".
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

/// The time at which `plan` eats its apple number `share × apples` (in the
/// order eaten), if that is before its last apple and the plan replays.
fn eat_time(instance: &Instance, plan: &[Pos], share: f64) -> Option<usize> {
    let replay = crate::sim::simulate(instance, plan).ok()?;
    let mut times: Vec<usize> = replay.eaten.iter().map(|&(_, t)| t).collect();
    times.sort_unstable();
    let k = (times.len() as f64 * share) as usize;
    (k + 1 < times.len()).then(|| times[k])
}

/// The widest beam on `instance`: [`MAX_WIDTH`], less when a layer of
/// states would exceed [`LAYER_BYTES`] (a state: its body, at most every
/// cell, and its apple flags; a layer: the kept states and up to three
/// successors of each).
fn widest(instance: &Instance) -> usize {
    let state_bytes = instance.cells() * std::mem::size_of::<Pos>() + instance.apples.len();
    MAX_WIDTH.min(LAYER_BYTES / (4 * state_bytes.max(1)))
}

/// The shortest plan of beams of doubling widths, two at a time (one per
/// apple weight, 4 and 3, each in its own thread when `threads`
/// allows two), until
/// 16,000 (less on large boards: a layer holds at most 256 MiB), until the next
/// round would not end by `deadline`, or
/// after two rounds in a row in which every beam died out (on nearly full
/// boards wider beams rarely survive, and the time is the SAT phases').
/// Ties go to the first weight, so the answer does not depend on the
/// threads' timing, only on how many rounds end by the deadline. `None`
/// without a plan, as for [`beam_plan`] (an invalid instance included).
pub fn beams(instance: &Instance, deadline: Instant, threads: usize) -> Option<Vec<Pos>> {
    beams_until(instance, &Interrupt::at(Some(deadline)), threads)
}

/// [`beams`] until `stop` fires (its deadline, the planner's cancellation).
pub(crate) fn beams_until(
    instance: &Instance,
    stop: &Interrupt,
    threads: usize,
) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    let start = body.get(..1)?;
    let mut best: Option<Vec<Pos>> = None;
    let mut dead_rounds = 0;
    doubling_rounds(instance, FIRST_WIDTH, stop, |width| {
        let plans = both_weights(instance, start, width, stop, threads);
        if plans.iter().all(Option::is_none) {
            dead_rounds += 1;
        } else {
            dead_rounds = 0;
        }
        for plan in plans.into_iter().flatten() {
            if best.as_ref().is_none_or(|b| plan.len() < b.len()) {
                best = Some(plan);
            }
        }
        dead_rounds < 2
    });
    best
}

/// A plan (head cells from `t = 0`) eating every apple, by a beam of
/// `width` states ranked with `apple_weight` moves per apple left; `None`
/// when the beam dies out, the start is not a fixed body, `instance` is not
/// a valid game ([`Instance::validate_game`] refuses it), or the deadline
/// passes.
pub fn beam_plan(
    instance: &Instance,
    width: usize,
    apple_weight: usize,
    deadline: Option<Instant>,
) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    beam_after(instance, body.get(..1)?, width, apple_weight, deadline)
}

/// [`beam_plan`] from the end of `prefix` (head cells from `t = 0`, a legal
/// start of a plan): the prefix followed by the beam's moves; `None` also
/// when the prefix is not legal or eats the last apple.
pub fn beam_after(
    instance: &Instance,
    prefix: &[Pos],
    width: usize,
    apple_weight: usize,
    deadline: Option<Instant>,
) -> Option<Vec<Pos>> {
    beam_after_until(
        instance,
        prefix,
        width,
        apple_weight,
        &Interrupt::at(deadline),
    )
}

/// [`beam_after`] until `stop` fires (its deadline, the planner's
/// cancellation): checked before every layer.
fn beam_after_until(
    instance: &Instance,
    prefix: &[Pos],
    width: usize,
    apple_weight: usize,
    stop: &Interrupt,
) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    if instance.validate_game().is_err() || prefix.first() != Some(&body[0]) {
        return None;
    }
    let walls = instance.wall_map();
    let n = instance.apples.len();
    let pair_rule = needs_pair(instance);
    let none = vec![false; instance.cells()];
    let mut start = State::start(instance, body);
    // Arena of (parent, head cell) for the paths, the prefix first.
    let mut arena: Vec<(u32, Pos)> = vec![(u32::MAX, body[0])];
    for &p in &prefix[1..] {
        if start.eaten() == n || !start.advance(instance, &walls, p) {
            return None;
        }
        arena.push(((arena.len() - 1) as u32, p));
    }
    if prefix.len() > 1 && start.eaten() == n {
        return None;
    }
    let first = (arena.len() - 1) as u32;
    let mut seen: FxHashSet<u64> = FxHashSet::default();
    seen.insert(fingerprint(&start));
    let mut layer: Vec<(State, u32)> = vec![(start, first)];
    let limit = 4 * instance.cells() * (n + 1);
    let mut scratch = RankScratch::default();
    for _ in 0..limit {
        if stop.fired() {
            return None;
        }
        let mut next: Vec<(usize, State, u32, Pos)> = Vec::new();
        for (state, node) in &layer {
            let head = state.body[0];
            for d in Direction::ALL {
                let Some(p) = instance.grid().step(head, d) else {
                    continue;
                };
                // Checked before the clone: most moves bite the body.
                let Some(apple) = state.entry(instance, &walls, p) else {
                    continue;
                };
                let mut s = state.clone();
                s.enter(instance, p, apple);
                if pair_rule && !s.pair_left(instance) {
                    continue;
                }
                if !seen.insert(fingerprint(&s)) {
                    continue;
                }
                if s.eaten() == n {
                    let mut path = vec![p];
                    let mut at = *node;
                    while at != u32::MAX {
                        path.push(arena[at as usize].1);
                        at = arena[at as usize].0;
                    }
                    path.reverse();
                    return Some(path);
                }
                next.push((
                    rank(instance, &walls, &none, &s, apple_weight, &mut scratch),
                    s,
                    *node,
                    p,
                ));
            }
        }
        if next.is_empty() {
            return None;
        }
        next.sort_by_key(|e| e.0);
        next.truncate(width);
        layer = next
            .into_iter()
            .map(|(_, s, parent, p)| {
                arena.push((parent, p));
                (s, (arena.len() - 1) as u32)
            })
            .collect();
    }
    None
}

/// A state's hash: the beam keeps a state only the first time it is reached
/// (a collision drops a state, which only narrows the beam).
fn fingerprint(state: &State) -> u64 {
    let mut hasher = FxHasher::default();
    state.hash(&mut hasher);
    hasher.finish()
}

/// The beam's rank of a state (lower is better): the apples left, each
/// worth `apple_weight` moves, the earliest arrival at the nearest revealed
/// apple, and [`TRAPPED`] when the head cannot reach the tail's cell.
fn rank(
    instance: &Instance,
    walls: &[bool],
    none: &[bool],
    s: &State,
    apple_weight: usize,
    scratch: &mut RankScratch,
) -> usize {
    let apple_cells = &mut scratch.apple_cells;
    apple_cells.clear();
    apple_cells.resize(instance.cells(), false);
    for &i in &s.waiting {
        apple_cells[instance.index(instance.apples[i])] = true;
    }
    let waiting = s.waiting.len();
    let tail = instance.index(*s.body.back().expect("a body"));
    let mut reached_tail = tail == instance.index(s.body[0]);
    let mut nearest = None;
    // Cells come in order of arrival: the first apple reached is the nearest.
    scratch
        .arrivals
        .fill(s, instance, walls, none, |cell, moves| {
            if nearest.is_none() && apple_cells[cell] {
                nearest = Some(moves);
            }
            reached_tail |= cell == tail;
            reached_tail && (nearest.is_some() || waiting == 0)
        });
    let nearest = if waiting == 0 {
        0
    } else {
        nearest.unwrap_or(instance.cells())
    };
    let trapped = if reached_tail { 0 } else { TRAPPED };
    (instance.apples.len() - s.eaten()) * apple_weight + nearest + trapped
}

/// The buffers [`rank`] reuses from one state to the next.
#[derive(Default)]
struct RankScratch {
    arrivals: Arrivals,
    /// The revealed apples' cells of the state being ranked.
    apple_cells: Vec<bool>,
}
