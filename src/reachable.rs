//! The game's reachable states, listed when they are few. This module owns
//! [`explore`], which decides whether a plan exists at all for instances
//! whose state space is tiny: a snake in a corridor it cannot turn back in,
//! one walled into a pocket, one with no legal first move. The SAT searches
//! refute one horizon at a time, so on such an instance they could only say
//! "no plan within `--max-horizon` moves", after building ever larger
//! formulas (a 10×1 corridor under `bench`'s limit of 100,000 moves: 3.4 s
//! and 1.2 GB); [`explore`] says "no plan at any horizon" in microseconds.
//!
//! A state is the known body (head first, as cell numbers; on a free start
//! only the cells entered since `t = 0`, at most the length) and the set of
//! eaten apples: the length and the revealed apples follow from that set
//! (docs/DESIGN.md §1). A breadth-first search from the initial states, each
//! state kept once, either meets a state with every apple eaten (after the
//! least number of moves), or runs out of new states. Then no plan of any
//! length exists, since every plan is a walk through reachable states. The
//! search gives up once the states it keeps hold more than 2^16 body
//! cells, which bounds its time and memory (a few milliseconds and
//! megabytes) whatever the instance. The planner's own calls take another
//! bound and a deadline: boards the final snake fills, whose SAT
//! refutations are the slow ones, get 2^22 body cells.
//!
//! It shares no code with the simulator ([`crate::sim`]), which replays one
//! path; the tests compare both with a third, brute-force search.

use std::collections::HashSet;
use std::time::Instant;

use crate::instance::{Instance, InstanceError, Start, TailRule};

/// The most body cells the kept states may hold before [`explore`] gives up.
pub(crate) const MAX_KEPT_CELLS: usize = 1 << 16;

/// The room the planner gives the listing where the final snake fills every
/// free cell (either tail rule): about 0.4–1.0 s and 100 MB where it gives
/// up (IPC-2018 optimal 3 and 14, satisficing 20: 0.37–0.62 s on a quiet
/// machine; 6x6 to 8x7 full boards up to 1.0 s under load), against hours
/// of refuted horizons where it does not (a 5×3 full board with no plan,
/// `scripts/gen_snake.py --size 5x3 --fill 100 --seeds 3`, instance 2:
/// "unknown" after 90 s of SAT; listed in 3 ms, more than [`MAX_KEPT_CELLS`]
/// but fewer than 2^20 cells).
pub(crate) const MAX_KEPT_CELLS_FULL_BOARD: usize = 1 << 22;

/// The most apples [`explore`] tracks (the eaten set is a 128-bit mask).
const MAX_APPLES: usize = 128;

/// What [`explore`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reachable {
    /// A state with every apple eaten is reached after this many moves, and
    /// none sooner (0 without apples).
    EveryApple {
        /// The least number of moves.
        moves: usize,
    },
    /// Every reachable state was listed and none has every apple eaten: no
    /// plan exists at any horizon.
    Never,
    /// Too many states to list in the room given, or the deadline came
    /// first (or more than 128 apples): no answer.
    TooMany,
}

/// A state: the known body (cell numbers, head first) and the eaten apples.
type State = (Box<[u32]>, u128);

/// Lists the states reachable from the start of `instance` until one has
/// every apple eaten or none is new (see the module documentation). An
/// instance that [`Instance::validate_game`] refuses is refused with its
/// reason: no answer, not even [`Reachable::Never`], is given about it.
pub fn explore(instance: &Instance) -> Result<Reachable, InstanceError> {
    explore_with_room(instance, MAX_KEPT_CELLS, None)
}

/// [`explore`] with room for `max_cells` kept body cells (its time and
/// memory grow in proportion where it gives up), giving up
/// ([`Reachable::TooMany`]) at `deadline` too.
fn explore_with_room(
    instance: &Instance,
    max_cells: usize,
    deadline: Option<Instant>,
) -> Result<Reachable, InstanceError> {
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    instance.validate_game()?;
    Ok(list_states(instance, max_cells, late))
}

/// [`explore_with_room`] that gives up when `budget` expires: at its
/// deadline or when the planner's search is cancelled.
pub(crate) fn explore_within(
    instance: &Instance,
    max_cells: usize,
    budget: &crate::solve::Budget,
) -> Result<Reachable, InstanceError> {
    instance.validate_game()?;
    Ok(list_states(instance, max_cells, || budget.expired()))
}

/// States listed between two looks at the clock.
const STATES_PER_CLOCK_LOOK: usize = 4096;

/// [`explore_with_room`] of an instance that passes [`Instance::validate_game`],
/// giving up when `late` says so (asked every [`STATES_PER_CLOCK_LOOK`] states).
fn list_states(instance: &Instance, max_cells: usize, late: impl Fn() -> bool) -> Reachable {
    let apples = instance.apples.len();
    if apples == 0 {
        return Reachable::EveryApple { moves: 0 };
    }
    // The initial states alone: the body, or one cell per free cell.
    let initial_cells = match &instance.start {
        Start::Body(body) => body.len(),
        Start::Free { .. } => instance.cells(),
    };
    if apples > MAX_APPLES || initial_cells > max_cells || instance.cells() > u32::MAX as usize {
        return Reachable::TooMany;
    }
    let game = Game::of(instance);
    let mut seen: HashSet<State> = HashSet::new();
    let mut kept = 0;
    let mut layer: Vec<State> = Vec::new();
    for state in game.initial_states() {
        kept += state.0.len();
        if seen.insert(state.clone()) {
            layer.push(state);
        }
    }
    let mut moves = 0;
    let mut body = Vec::new();
    while !layer.is_empty() {
        moves += 1;
        let mut next = Vec::new();
        for (listed, (old, eaten)) in layer.iter().enumerate() {
            if listed % STATES_PER_CLOCK_LOOK == 0 && late() {
                return Reachable::TooMany;
            }
            for to in game.grid.neighbours(old[0] as usize) {
                let Some(now_eaten) = game.step(old, *eaten, to, &mut body) else {
                    continue;
                };
                if now_eaten == game.every_apple {
                    return Reachable::EveryApple { moves };
                }
                let state = (body.as_slice().into(), now_eaten);
                if !seen.contains(&state) {
                    kept += body.len();
                    if kept > max_cells {
                        return Reachable::TooMany;
                    }
                    seen.insert(state.clone());
                    next.push(state);
                }
            }
        }
        layer = next;
    }
    Reachable::Never
}

/// The rules of one instance, by cell number.
struct Game<'a> {
    grid: crate::geometry::Grid,
    walls: Vec<bool>,
    /// The apples' cells, in spawn order.
    apples: Vec<u32>,
    /// The mask of every apple.
    every_apple: u128,
    instance: &'a Instance,
}

impl<'a> Game<'a> {
    fn of(instance: &'a Instance) -> Self {
        let n = instance.apples.len();
        Game {
            grid: instance.grid(),
            walls: instance.wall_map(),
            apples: instance
                .apples
                .iter()
                .map(|&p| instance.index(p) as u32)
                .collect(),
            every_apple: if n == MAX_APPLES {
                u128::MAX
            } else {
                (1u128 << n) - 1
            },
            instance,
        }
    }

    /// The explicit body, or on a free start one single-cell state per cell
    /// that is neither a wall nor an apple visible at `t = 0`.
    fn initial_states(&self) -> Vec<State> {
        let instance = self.instance;
        match &instance.start {
            Start::Body(cells) => {
                let body: Box<[u32]> = cells.iter().map(|&p| instance.index(p) as u32).collect();
                vec![(body, 0)]
            }
            Start::Free { .. } => {
                let visible = &self.apples[..instance.visible_at_start()];
                (0..instance.cells() as u32)
                    .filter(|&c| !self.walls[c as usize] && !visible.contains(&c))
                    .map(|c| (Box::from([c]), 0))
                    .collect()
            }
        }
    }

    /// The head moved from `body[0]` to its neighbour `to`: the new eaten set
    /// with the new body in `out`, or `None` when the move is illegal.
    fn step(&self, body: &[u32], eaten: u128, to: usize, out: &mut Vec<u32>) -> Option<u128> {
        if self.walls[to] {
            return None;
        }
        let to = to as u32;
        let instance = self.instance;
        let count = eaten.count_ones() as usize;
        let revealed = (instance.visible_at_start() + count).min(self.apples.len());
        let apple = (0..revealed).find(|&i| eaten & (1 << i) == 0 && self.apples[i] == to);
        let length = instance.initial_length() + if instance.grow { count } else { 0 };
        let new_length = length + usize::from(apple.is_some() && instance.grow);
        // The cells the head may not enter: the whole body before the move
        // (strict), or those that stay once the tail has moved (follow).
        let blocking = match instance.tail {
            TailRule::Strict => length,
            TailRule::Follow => new_length - 1,
        };
        if body.iter().take(blocking).any(|&c| c == to) {
            return None;
        }
        out.clear();
        out.push(to);
        out.extend(body.iter().take(new_length - 1));
        Some(apple.map_or(eaten, |i| eaten | (1 << i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::json::from_json;

    fn explore(instance: &Instance) -> Reachable {
        super::explore(instance).unwrap()
    }

    fn explore_within(instance: &Instance, max_cells: usize) -> Reachable {
        super::explore_with_room(instance, max_cells, None).unwrap()
    }

    fn instance(text: &str) -> Instance {
        let instance = from_json(text).unwrap();
        instance.validate().unwrap();
        instance
    }

    #[test]
    fn a_snake_cannot_turn_back_in_a_corridor() {
        let behind = instance(
            r#"{"width": 10, "height": 1, "snake": [[5, 0], [4, 0], [3, 0]],
                "apples": [[1, 0]], "tail": "follow"}"#,
        );
        assert_eq!(explore(&behind), Reachable::Never);
        // Two cells long, it may follow its own tail back.
        let short = instance(
            r#"{"width": 10, "height": 1, "snake": [[5, 0], [4, 0]],
                "apples": [[1, 0]], "tail": "follow"}"#,
        );
        assert_eq!(explore(&short), Reachable::EveryApple { moves: 4 });
        // Under the strict rule it may not.
        let strict = instance(
            r#"{"width": 10, "height": 1, "snake": [[5, 0], [4, 0]],
                "apples": [[1, 0]], "tail": "strict"}"#,
        );
        assert_eq!(explore(&strict), Reachable::Never);
    }

    #[test]
    fn a_second_apple_behind_the_grown_snake_is_never_eaten() {
        // After the first apple the snake is three cells long at the end of
        // the corridor, and the second apple lies behind it.
        let corridor = instance(
            r#"{"width": 4, "height": 1, "snake": [[1, 0], [0, 0]],
                "apples": [[3, 0], [0, 0]], "visible": 1, "tail": "follow"}"#,
        );
        assert_eq!(explore(&corridor), Reachable::Never);
        let no_grow = instance(
            r#"{"width": 4, "height": 1, "snake": [[1, 0], [0, 0]],
                "apples": [[3, 0], [0, 0]], "visible": 1, "tail": "follow", "grow": false}"#,
        );
        assert_eq!(explore(&no_grow), Reachable::EveryApple { moves: 5 });
    }

    #[test]
    fn large_state_spaces_are_not_listed() {
        let open = instance(
            r#"{"width": 8, "height": 8, "snake": [[0, 0], [0, 1], [0, 2], [0, 3]],
                "apples": [[7, 7]]}"#,
        );
        assert_eq!(explore_within(&open, 1_000), Reachable::TooMany);
        assert_eq!(explore(&open), Reachable::EveryApple { moves: 14 });
        // Too many from the start: a free start's cells, a long body.
        let free = instance(r#"{"width": 40, "height": 40, "length": 3, "apples": [[0, 0]]}"#);
        assert_eq!(explore_within(&free, 1_000), Reachable::TooMany);
        assert_eq!(explore_within(&open, 3), Reachable::TooMany);
    }

    /// An invalid instance got `Never` (an apple off the grid, `visible` 0:
    /// "no plan at any horizon") or a panic (a side of 0, an empty body);
    /// it is refused with the reason `validate_game` gives.
    #[test]
    fn an_invalid_instance_is_refused_not_answered() {
        let mut refused = crate::instance::refused_examples();
        let mut none_visible = instance(r#"{"width": 3, "height": 3, "apples": [[2, 2]]}"#);
        none_visible.visible = 0;
        refused.push(none_visible);
        for bad in refused {
            let reason = bad.validate_game().unwrap_err();
            assert_eq!(super::explore(&bad), Err(reason));
        }
    }

    /// A full 5x3 board with no plan (`scripts/gen_snake.py --size 5x3
    /// --fill 100 --seeds 3`, instance 2; the SAT search refuted horizons
    /// for 90 s without an answer): its states need more than the default
    /// room and fit in a full board's, which the planner gives it, so the
    /// answer is "no plan at any horizon" without a formula.
    #[test]
    fn full_boards_get_more_room() {
        let full = instance(
            r#"{"width": 5, "height": 3, "snake": [[0, 0], [1, 0]], "apples": [[4, 2], [3, 2],
                [3, 1], [2, 1], [1, 1], [4, 1], [3, 0], [0, 2], [1, 2], [0, 1], [2, 0], [2, 2],
                [4, 0]], "visible": 5, "tail": "strict"}"#,
        );
        assert!(crate::encode::full::ends_full(&full));
        assert_eq!(explore(&full), Reachable::TooMany);
        assert_eq!(
            explore_within(&full, MAX_KEPT_CELLS_FULL_BOARD),
            Reachable::Never
        );
        let direct = crate::encode::by_name("direct").unwrap();
        let outcome = crate::planner::Planner::new(&*direct).plan(&full).unwrap();
        assert_eq!(outcome.lower_bound, None);
        assert!(outcome.attempts.is_empty());
        // Under `follow` too (review 11c: a 5x4 board the apples fill, no
        // plan; 312,619 body cells; 15 s of SAT for "no plan within 300").
        let follow = instance(
            r#"{"width": 5, "height": 4, "walls": [[2, 0], [1, 0]], "snake": [[0, 0]],
                "apples": [[2, 2], [0, 3], [4, 3], [1, 2], [1, 1], [3, 2], [3, 3], [2, 1], [0, 1],
                [4, 0], [2, 3], [1, 3], [0, 2], [3, 0], [4, 2], [4, 1], [3, 1]],
                "visible": 2, "tail": "follow"}"#,
        );
        assert!(!crate::encode::full::ends_full(&follow));
        assert!(crate::encode::full::fills_board(&follow));
        assert_eq!(explore(&follow), Reachable::TooMany);
        let outcome = crate::planner::Planner::new(&*direct)
            .plan(&follow)
            .unwrap();
        assert_eq!(outcome.lower_bound, None);
        assert!(outcome.attempts.is_empty());
        // A deadline already past: no answer, whatever the room.
        let past = Some(Instant::now());
        assert_eq!(
            super::explore_with_room(&follow, MAX_KEPT_CELLS_FULL_BOARD, past),
            Ok(Reachable::TooMany)
        );
    }
}
