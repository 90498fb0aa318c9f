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
//! million states in all, about 1 s; the answer is kept for the next
//! formula of the same instance).
//!
//! Why it matters: the per-apple bounds of [`prune`](super::prune) allow one
//! apple per move once the first can be reached, so on IPC-2018 optimal 19
//! they put the least plan at 40 moves or more, while the schedule puts it
//! at 79 (the plan has 97); and the counter values it rules out (`count k
//! t` for `t` before the `k`-th eat can come) made single refutations near
//! the optimum 2.6 to 30 times faster (README, "The apples' schedule").
//!
//! The sweep gives up after [`MAX_SCHEDULE_STATES`] states in all or
//! [`MAX_SCHEDULE_MOVES`] moves out of one layer (many apples visible at
//! once); the times of the eats it has reached are kept, and each later eat
//! is taken to be at least one move after the one before.

use std::sync::{Arc, Mutex};

use crate::instance::Instance;

use super::prune::{Distances, first_visits, step};

/// The most states the sweep visits in all before it gives up on the later
/// eats (its time is about 0.3 µs per state).
pub const MAX_SCHEDULE_STATES: usize = 4_000_000;

/// The most moves out of one layer's states the sweep holds before merging
/// them into the next layer's states (32 bytes each: 64 MB at most);
/// beyond it the sweep gives up at that layer.
pub const MAX_SCHEDULE_MOVES: usize = 2_000_000;

/// The most apples the sweep handles (their set is a 128-bit mask); beyond
/// it only one move per eat is assumed.
const MAX_SCHEDULE_APPLES: usize = 128;

/// `earliest[k]`: no plan has eaten `k` apples before time `earliest[k]`
/// (`earliest[0] = 0`; `usize::MAX` when `k` apples can never be eaten).
/// The last entry is a lower bound on the plan's length.
pub fn earliest_eats(instance: &Instance) -> Arc<[usize]> {
    // The planner asks once per horizon for the same instance: the last
    // answer is kept.
    static LAST: Mutex<Option<(Instance, Arc<[usize]>)>> = Mutex::new(None);
    let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((seen, earliest)) = last.as_ref()
        && seen == instance
    {
        return Arc::clone(earliest);
    }
    let earliest: Arc<[usize]> = sweep(instance).into();
    *last = Some((instance.clone(), Arc::clone(&earliest)));
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
        // Moves between the eats of apples `a` and `b`, at `[a * n + b]`.
        let between: Vec<usize> = (0..n * n)
            .map(
                |ab| match dist.get(instance, apples[ab / n], apples[ab % n]) {
                    usize::MAX => usize::MAX,
                    d => step(d),
                },
            )
            .collect();
        // The states of one layer: (apples eaten as a bit mask, the last one
        // eaten, least time), sorted by mask and last; the start is "last = n".
        let mut layer: Vec<(u128, u8, usize)> = vec![(0, n as u8, 0)];
        let mut next: Vec<(u128, u8, usize)> = Vec::new();
        let mut states = 1usize;
        for k in 0..n {
            let revealed = (visible + k).min(n);
            next.clear();
            for &(eaten, last, time) in &layer {
                for i in (0..revealed).filter(|&i| eaten & (1u128 << i) == 0) {
                    let d = if last as usize == n {
                        first[i]
                    } else {
                        between[last as usize * n + i]
                    };
                    if d != usize::MAX {
                        next.push((eaten | (1u128 << i), i as u8, time + d));
                    }
                }
                if next.len() > MAX_SCHEDULE_MOVES {
                    break;
                }
            }
            if next.len() > MAX_SCHEDULE_MOVES {
                // Too many to sort: the eats from k + 1 on get one move each.
                break;
            }
            // One entry per state, its least time.
            next.sort_unstable();
            next.dedup_by(|later, kept| (later.0, later.1) == (kept.0, kept.1));
            let Some(least) = next.iter().map(|s| s.2).min() else {
                // No order eats k + 1 apples: no plan exists.
                return earliest;
            };
            earliest[k + 1] = least;
            reached = k + 1;
            states += next.len();
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
}
