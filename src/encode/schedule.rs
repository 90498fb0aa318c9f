//! The apples' schedule ignoring the body: the least time by which `k`
//! apples can have been eaten, for every `k`, from a search over the order
//! in which the apples are eaten.
//!
//! Under the spawn chain (docs/DESIGN.md §1) apple `i` is revealed once
//! `i − visible + 1` apples have been eaten, and between two eats the head
//! moves at least the grid distance between their cells (walls respected,
//! the body ignored; two apples on one cell need a step out and back). So
//! the `k`-th eat of any legal plan comes no earlier than the least sum of
//! distances over the orders that eat `k` apples in turn, each one revealed
//! when it is eaten. That least sum is found by a breadth-first sweep over
//! the states *(apples eaten, the last one)*, one layer per eat, keeping the
//! least time of each state: exact for this relaxation. The states are
//! subsets of the revealed apples, so their number grows with the apples
//! visible at once (IPC-2018 optimal 19, 40 apples with 5 visible: 3.7
//! million states in all, 0.13 s; the answer is kept for the next formula
//! of the same instance).
//!
//! Why it matters: the per-apple bounds of [`prune`](super::prune) allow one
//! apple per move once the first can be reached, so on IPC-2018 optimal 19
//! they put the least plan at 40 moves or more, while the schedule puts it
//! at 79 (the plan has 97); and the counter values it rules out (`count k
//! t` for `t` before the `k`-th eat can come) made single refutations near
//! the optimum 2.6 to 30 times faster (docs/ipc2018.md, "The apples' schedule").
//!
//! A state *(eaten, last)* of layer `k + 1` is reached from exactly one set
//! of layer `k` (`eaten` without `last`), so the sweep takes, for each such
//! set, the least time over its states' last apples before it moves on: no
//! state of the next layer is made twice, and each layer is sorted once, by
//! set, to group it.
//!
//! The sweep gives up after [`MAX_SCHEDULE_STATES`] states in all or
//! [`MAX_SCHEDULE_LAYER`] states in one layer (many apples visible at once);
//! the times of the eats it has reached are kept, and each later eat is
//! taken to be at least one move after the one before.

use std::sync::{Arc, Mutex};

use crate::instance::Instance;

use super::prune::{Distances, first_visits, step};

/// The most states the sweep visits in all before it gives up on the later
/// eats (about 35 ns per state).
pub const MAX_SCHEDULE_STATES: usize = 4_000_000;

/// The most states of one layer the sweep holds (32 bytes each: 64 MB at
/// most); beyond it the sweep gives up at that layer.
pub const MAX_SCHEDULE_LAYER: usize = 2_000_000;

/// The most apples the sweep handles (their set is a 128-bit mask); beyond
/// it only one move per eat is assumed.
const MAX_SCHEDULE_APPLES: usize = 128;

/// How many instances' answers are kept: the planner asks once per horizon,
/// and the satisficing search asks for its sub-problems in between.
const KEPT_ANSWERS: usize = 8;

/// The answers kept, the latest last.
type Kept = Vec<(Instance, Arc<[usize]>)>;

/// `earliest[k]`: no plan has eaten `k` apples before time `earliest[k]`
/// (`earliest[0] = 0`; `usize::MAX` when `k` apples can never be eaten).
/// The last entry is a lower bound on the plan's length.
///
/// # Panics
///
/// May panic when `instance` does not pass
/// [`Instance::validate_game`](crate::instance::Instance::validate_game) (a
/// cell off the board, an empty body, an absurd size).
pub fn earliest_eats(instance: &Instance) -> Arc<[usize]> {
    static KEPT: Mutex<Kept> = Mutex::new(Vec::new());
    let kept = |kept: &Kept| {
        kept.iter()
            .find(|(seen, _)| seen == instance)
            .map(|(_, earliest)| Arc::clone(earliest))
    };
    if let Some(earliest) = kept(&KEPT.lock().unwrap_or_else(|p| p.into_inner())) {
        return earliest;
    }
    // (Not under the lock: another thread may sweep another instance meanwhile.)
    let earliest: Arc<[usize]> = sweep(instance).into();
    let mut all = KEPT.lock().unwrap_or_else(|p| p.into_inner());
    if kept(&all).is_none() {
        if all.len() == KEPT_ANSWERS {
            all.remove(0);
        }
        all.push((instance.clone(), Arc::clone(&earliest)));
    }
    earliest
}

/// The sweep itself (see the module documentation).
fn sweep(instance: &Instance) -> Vec<usize> {
    let n = instance.apples.len();
    let mut earliest = vec![usize::MAX; n + 1];
    earliest[0] = 0;
    if n == 0 {
        return earliest;
    }
    let walls = instance.wall_map();
    let dist = Distances::new(instance, &walls);
    let first = first_visits(instance, &walls, &dist);
    let apples = &instance.apples;
    let visible = instance.visible_at_start();
    let mut reached = 0;
    if n <= MAX_SCHEDULE_APPLES {
        // Moves from eating apple `a` (or from the start, `a = n`) to eating
        // apple `b`, at `[a * n + b]`.
        let between: Vec<usize> = (0..(n + 1) * n)
            .map(|ab| {
                let (a, b) = (ab / n, ab % n);
                if a == n {
                    return first[b];
                }
                match dist.get(instance, apples[a], apples[b]) {
                    usize::MAX => usize::MAX,
                    d => step(d),
                }
            })
            .collect();
        // The states of one layer: (apples eaten as a bit mask, the last one
        // eaten, least time), sorted by mask; the start is "last = n".
        let mut layer: Vec<(u128, u8, usize)> = vec![(0, n as u8, 0)];
        let mut next: Vec<(u128, u8, usize)> = Vec::new();
        let mut states = 1usize;
        for k in 0..n {
            let revealed = (visible + k).min(n);
            let revealed_mask = if revealed == 128 {
                u128::MAX
            } else {
                (1u128 << revealed) - 1
            };
            next.clear();
            for group in layer.chunk_by(|a, b| a.0 == b.0) {
                let eaten = group[0].0;
                let mut open = revealed_mask & !eaten;
                while open != 0 {
                    let i = open.trailing_zeros() as usize;
                    open &= open - 1;
                    let least = group
                        .iter()
                        .filter_map(|&(_, last, time)| match between[last as usize * n + i] {
                            usize::MAX => None,
                            d => Some(time + d),
                        })
                        .min();
                    if let Some(least) = least {
                        next.push((eaten | (1u128 << i), i as u8, least));
                    }
                }
                if next.len() > MAX_SCHEDULE_LAYER {
                    break;
                }
            }
            if next.len() > MAX_SCHEDULE_LAYER {
                // Too many to hold: the eats from k + 1 on get one move each.
                break;
            }
            let Some(least) = next.iter().map(|s| s.2).min() else {
                // No order eats k + 1 apples: no plan exists.
                return earliest;
            };
            earliest[k + 1] = least;
            reached = k + 1;
            states += next.len();
            // (Each state is made once: grouping by mask is enough.)
            next.sort_unstable_by_key(|s| s.0);
            std::mem::swap(&mut layer, &mut next);
            if states > MAX_SCHEDULE_STATES {
                break;
            }
        }
    } else {
        // One move per eat, the first one at its distance.
        earliest[1] = first
            .iter()
            .take(visible)
            .copied()
            .min()
            .unwrap_or(usize::MAX);
        reached = 1;
    }
    for k in reached + 1..=n {
        earliest[k] = earliest[k - 1].saturating_add(1);
    }
    earliest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::{Start, TailRule};

    fn corridor(apples: Vec<(usize, usize)>, visible: usize) -> Instance {
        Instance {
            width: 7,
            height: 1,
            walls: vec![],
            start: Start::Body(vec![(3, 0)]),
            apples,
            visible,
            grow: false,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    #[test]
    fn the_best_order_is_found() {
        // From x = 3: the apple at 4 first (1), then 6 (2 more), then 0 (6 more);
        // or 0 first (3), then 4 (4), then 6 (2): 1, 3, 9 is least.
        let inst = corridor(vec![(0, 0), (4, 0), (6, 0)], 3);
        assert_eq!(&*earliest_eats(&inst), &[0, 1, 3, 9]);
    }

    #[test]
    fn an_apple_waits_until_it_is_revealed() {
        // One visible at a time: 0 (3 moves), then 6 (6 more), then 4 (2 more).
        let inst = corridor(vec![(0, 0), (6, 0), (4, 0)], 1);
        assert_eq!(&*earliest_eats(&inst), &[0, 3, 9, 11]);
    }

    #[test]
    fn an_unreachable_apple_leaves_the_later_eats_impossible() {
        let mut inst = corridor(vec![(0, 0), (6, 0)], 2);
        inst.walls = vec![(5, 0)];
        assert_eq!(&*earliest_eats(&inst), &[0, 3, usize::MAX]);
    }

    /// The least time of `k` eats over every order of the apples (each
    /// revealed when eaten), by trying them all.
    fn every_order(instance: &Instance) -> Vec<usize> {
        let n = instance.apples.len();
        let walls = instance.wall_map();
        let dist = Distances::new(instance, &walls);
        let first = first_visits(instance, &walls, &dist);
        let visible = instance.visible_at_start();
        let mut earliest = vec![usize::MAX; n + 1];
        earliest[0] = 0;
        fn extend(
            order: &mut Vec<usize>,
            time: usize,
            earliest: &mut [usize],
            moves: &dyn Fn(Option<usize>, usize) -> usize,
            visible: usize,
        ) {
            let k = order.len();
            earliest[k] = earliest[k].min(time);
            for i in 0..(visible + k).min(earliest.len() - 1) {
                let d = moves(order.last().copied(), i);
                if order.contains(&i) || d == usize::MAX {
                    continue;
                }
                order.push(i);
                extend(order, time + d, earliest, moves, visible);
                order.pop();
            }
        }
        let moves = |from: Option<usize>, to: usize| match from {
            None => first[to],
            Some(a) => match dist.get(instance, instance.apples[a], instance.apples[to]) {
                usize::MAX => usize::MAX,
                d => step(d),
            },
        };
        extend(&mut Vec::new(), 0, &mut earliest, &moves, visible);
        earliest
    }

    #[test]
    fn the_sweep_agrees_with_every_order_on_random_boards() {
        use rand::{RngExt, SeedableRng};
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(13);
        for _ in 0..300 {
            let (w, h) = (rng.random_range(2..6), rng.random_range(1..6));
            let cell =
                |rng: &mut rand::rngs::ChaCha8Rng| (rng.random_range(0..w), rng.random_range(0..h));
            let start = cell(&mut rng);
            let walls: Vec<_> = (0..rng.random_range(0..4))
                .map(|_| cell(&mut rng))
                .filter(|&c| c != start)
                .collect();
            let apples: Vec<_> = (0..rng.random_range(1..7))
                .map(|_| cell(&mut rng))
                .filter(|c| !walls.contains(c))
                .collect();
            let visible = rng.random_range(1..=apples.len().max(1));
            let mut inst = corridor(apples, visible);
            (inst.width, inst.height) = (w, h);
            inst.walls = walls;
            inst.start = Start::Body(vec![start]);
            assert_eq!(sweep(&inst), every_order(&inst), "{inst:?}");
        }
    }
}
