//! A brute-force breadth-first search over game states, written from
//! DESIGN.md §1 alone (it shares no logic with `sim.rs` or the encoders), used
//! as an oracle.
//!
//! A state is the known body (head first), the current length and the set of
//! eaten apples. On a free start the body before `t = 0` is unconstrained, so
//! only the cells the head has visited since `t = 0` are known; they are kept
//! truncated to the current length. The number of revealed apples follows
//! from the number eaten: `min(n, visible + eaten)`.
//!
//! It answers both "the least number of moves" ([`least_moves`]) and "is
//! there a plan of exactly `T` moves" for every `T` ([`plans_by_horizon`]).

#![allow(dead_code)]

use std::collections::HashSet;

use snakesat::instance::{Instance, Pos, Start, TailRule};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct State {
    /// Known body cells, head first (never more than `length`).
    body: Vec<Pos>,
    length: usize,
    /// Bit `i` set: apple `i` has been eaten.
    eaten: u64,
}

fn is_wall(instance: &Instance, p: Pos) -> bool {
    instance.walls.contains(&p)
}

fn neighbours(instance: &Instance, p: Pos) -> Vec<Pos> {
    let (x, y) = p;
    let mut out = Vec::new();
    if x > 0 {
        out.push((x - 1, y));
    }
    if x + 1 < instance.width {
        out.push((x + 1, y));
    }
    if y > 0 {
        out.push((x, y - 1));
    }
    if y + 1 < instance.height {
        out.push((x, y + 1));
    }
    out.retain(|&q| !is_wall(instance, q));
    out
}

fn revealed(instance: &Instance, eaten: u64) -> usize {
    let n = instance.apples.len();
    let visible = instance.visible.min(n);
    (visible + eaten.count_ones() as usize).min(n)
}

/// The state after moving the head to `next`, or `None` if the move is illegal.
fn step(instance: &Instance, state: &State, next: Pos) -> Option<State> {
    let shown = revealed(instance, state.eaten);
    // The revealed, uneaten apple on `next` (at most one: visible apples never share a cell).
    let apple = (0..shown).find(|&i| state.eaten & (1 << i) == 0 && instance.apples[i] == next);
    let grows = apple.is_some() && instance.grow;
    // Cells of the body before the move that block the head.
    let blocking = match instance.tail {
        // May not enter any cell of the body before the move.
        TailRule::Strict => state.length,
        // May enter the cell the tail leaves, unless the tail stays put (growth).
        TailRule::Follow => {
            if grows {
                state.length
            } else {
                state.length - 1
            }
        }
    };
    if state.body.iter().take(blocking).any(|&c| c == next) {
        return None;
    }
    let length = state.length + usize::from(grows);
    let mut body = Vec::with_capacity(state.body.len() + 1);
    body.push(next);
    body.extend_from_slice(&state.body);
    body.truncate(length);
    let eaten = match apple {
        Some(i) => state.eaten | (1 << i),
        None => state.eaten,
    };
    Some(State {
        body,
        length,
        eaten,
    })
}

/// The initial states: the explicit body, or for a free start one state per
/// non-wall cell that holds no apple visible at `t = 0`.
fn initial_states(instance: &Instance) -> Vec<State> {
    match &instance.start {
        Start::Body(body) => vec![State {
            body: body.clone(),
            length: body.len(),
            eaten: 0,
        }],
        Start::Free { length } => {
            let visible = &instance.apples[..instance.visible.min(instance.apples.len())];
            let mut out = Vec::new();
            for y in 0..instance.height {
                for x in 0..instance.width {
                    let p = (x, y);
                    if !is_wall(instance, p) && !visible.contains(&p) {
                        out.push(State {
                            body: vec![p],
                            length: *length,
                            eaten: 0,
                        });
                    }
                }
            }
            out
        }
    }
}

/// Every state one legal move after a state of `layer`.
fn next_layer(instance: &Instance, layer: &HashSet<State>) -> HashSet<State> {
    let mut next = HashSet::new();
    for state in layer {
        for q in neighbours(instance, state.body[0]) {
            if let Some(s) = step(instance, state, q) {
                next.insert(s);
            }
        }
    }
    next
}

/// The bit set of all apples.
fn all_apples(instance: &Instance) -> u64 {
    let n = instance.apples.len();
    assert!(n < 64, "the oracle keeps eaten apples in a u64");
    if n == 0 { 0 } else { (1u64 << n) - 1 }
}

/// The least number of moves (at least 1) after which every apple can have
/// been eaten, or `None` if no plan of at most `max_moves` moves exists.
pub fn least_moves(instance: &Instance, max_moves: usize) -> Option<usize> {
    let all = all_apples(instance);
    let mut layer: HashSet<State> = initial_states(instance).into_iter().collect();
    for moves in 1..=max_moves {
        let next_layer = next_layer(instance, &layer);
        if next_layer.iter().any(|s| s.eaten == all) {
            return Some(moves);
        }
        if next_layer.is_empty() {
            return None;
        }
        layer = next_layer;
    }
    None
}

/// For every `T` in `0..=max_moves`: whether a plan of exactly `T` moves
/// exists, the snake moving legally at every step and every apple eaten by
/// `T` (horizons are not monotone: a snake may finish and then be stuck).
pub fn plans_by_horizon(instance: &Instance, max_moves: usize) -> Vec<bool> {
    let all = all_apples(instance);
    let mut layer: HashSet<State> = initial_states(instance).into_iter().collect();
    let mut out = Vec::with_capacity(max_moves + 1);
    for moves in 0..=max_moves {
        out.push(layer.iter().any(|s| s.eaten == all));
        if moves < max_moves {
            layer = next_layer(instance, &layer);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corridor(start: Start, apples: Vec<Pos>, tail: TailRule) -> Instance {
        Instance {
            width: 5,
            height: 1,
            walls: vec![],
            start,
            visible: apples.len(),
            apples,
            grow: true,
            tail,
            horizon: None,
        }
    }

    #[test]
    fn corridor_runs_to_the_end() {
        let i = corridor(
            Start::Body(vec![(0, 0)]),
            vec![(4, 0), (2, 0)],
            TailRule::Follow,
        );
        assert_eq!(least_moves(&i, 10), Some(4));
        assert_eq!(least_moves(&i, 3), None);
    }

    #[test]
    fn a_two_cell_snake_reverses_only_under_follow() {
        // Apples on both sides of a one-cell head: 2 -> 3 (eat, length 2) -> 2 -> 1.
        // Re-entering (2,0) two steps later is legal under follow (the tail leaves
        // it in that step) but not under strict.
        let follow = corridor(
            Start::Body(vec![(2, 0)]),
            vec![(3, 0), (1, 0)],
            TailRule::Follow,
        );
        assert_eq!(least_moves(&follow, 10), Some(3));
        let mut strict = follow.clone();
        strict.tail = TailRule::Strict;
        assert_eq!(least_moves(&strict, 10), None);
        // Without growth the snake stays one cell long and turns freely under both rules.
        strict.grow = false;
        assert_eq!(least_moves(&strict, 10), Some(3));
    }

    #[test]
    fn growth_keeps_the_tail_in_place() {
        // Apple 1 is hidden under the head at t = 0 and revealed when apple 0 is eaten.
        // Under follow the head may re-enter the cell its tail leaves, but not when
        // that step eats (and so grows: the tail stays put).
        let i = Instance {
            visible: 1,
            ..corridor(
                Start::Body(vec![(2, 0), (3, 0)]),
                vec![(1, 0), (2, 0)],
                TailRule::Follow,
            )
        };
        // 2 -> 1 (eat, length 3, body 1,2,3) -> 2 would bite (2 < 3): no way back.
        assert_eq!(least_moves(&i, 10), None);
        let no_grow = Instance { grow: false, ..i };
        // Length 2: 2 -> 1 (eat) -> 2 (the tail leaves it) eats apple 1.
        assert_eq!(least_moves(&no_grow, 10), Some(2));
    }

    #[test]
    fn free_start_picks_the_best_cell_and_needs_a_move() {
        let i = corridor(Start::Free { length: 3 }, vec![], TailRule::Follow);
        assert_eq!(least_moves(&i, 5), Some(1));
        let i = corridor(Start::Free { length: 3 }, vec![(4, 0)], TailRule::Follow);
        assert_eq!(least_moves(&i, 5), Some(1));
    }

    #[test]
    fn tail_rules_differ_on_a_loop() {
        // A 2x2 ring filled by a length-4 snake: follow may chase its tail, strict may not.
        let mut i = Instance {
            width: 2,
            height: 2,
            walls: vec![],
            start: Start::Body(vec![(0, 0), (0, 1), (1, 1), (1, 0)]),
            apples: vec![],
            visible: 0,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        };
        assert_eq!(least_moves(&i, 5), Some(1));
        i.tail = TailRule::Strict;
        assert_eq!(least_moves(&i, 5), None);
    }

    #[test]
    fn exact_horizons_include_zero_and_stop_when_stuck() {
        // No apples: zero moves do; a one-cell corridor admits no move at all.
        let cell = Instance {
            width: 1,
            ..corridor(Start::Body(vec![(0, 0)]), vec![], TailRule::Follow)
        };
        assert_eq!(plans_by_horizon(&cell, 2), vec![true, false, false]);
        // Strict tail, the snake grows to fill the 1x3 corridor at t = 2 and is stuck.
        let full = Instance {
            width: 3,
            ..corridor(
                Start::Body(vec![(0, 0)]),
                vec![(1, 0), (2, 0)],
                TailRule::Strict,
            )
        };
        assert_eq!(
            plans_by_horizon(&full, 4),
            vec![false, false, true, false, false]
        );
        // Without growth the one-cell snake goes back and forth: every T >= 2.
        let bouncing = Instance {
            grow: false,
            ..full
        };
        assert_eq!(
            plans_by_horizon(&bouncing, 4),
            vec![false, false, true, true, true]
        );
    }

    #[test]
    fn ordered_apples_reveal_one_at_a_time() {
        // Apple 1 at (1,0) is passed over before it is revealed, so the head comes back.
        let mut i = corridor(
            Start::Body(vec![(0, 0)]),
            vec![(2, 0), (1, 0)],
            TailRule::Follow,
        );
        i.grow = false;
        i.visible = 1;
        assert_eq!(least_moves(&i, 10), Some(3));
        i.visible = 2;
        assert_eq!(least_moves(&i, 10), Some(2));
    }
}
