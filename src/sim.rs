//! The independent simulator: replays a path under the game rules of
//! docs/DESIGN.md §1 and either accepts it (with the apples eaten and when) or
//! names the first violation.
//!
//! It shares the [`Instance`] type with the encoder but no logic: it keeps the
//! body as a queue of cells and moves it step by step, as the game does.

use std::collections::VecDeque;
use std::fmt;

use crate::geometry::Direction;
use crate::instance::{Instance, InstanceError, Pos, Start, TailRule};

/// A legal replay: which apple was eaten at which time, in eating order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// `(apple index, time)` pairs.
    pub eaten: Vec<(usize, usize)>,
    /// The snake's length at the last time point.
    pub final_length: usize,
}

/// The first rule a path breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Time point at which the rule is broken (0 = the start, and for
    /// [`Rule::InvalidInstance`]).
    pub step: usize,
    /// The head's cell `(x, y)` at that time point (`(0, 0)` for
    /// [`Rule::EmptyPath`] and [`Rule::InvalidInstance`]).
    pub cell: Pos,
    /// The rule broken.
    pub rule: Rule,
}

/// The rules of the game the simulator checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The instance itself breaks a rule of the model
    /// ([`Instance::validate_game`]): no path is replayed on it.
    InvalidInstance(InstanceError),
    /// The path has no cells.
    EmptyPath,
    /// The path does not start at the head of the explicit start body.
    StartCell,
    /// The head starts on an apple visible at `t = 0`.
    StartOnApple,
    /// The head is off the grid.
    OffGrid,
    /// The head is on a wall.
    Wall,
    /// The head moves to a cell that is not a 4-neighbour.
    NotAdjacent,
    /// The head enters the snake's body under the given tail rule.
    BitesBody(TailRule),
    /// The path ends with this many apples not eaten.
    ApplesLeft(usize),
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (x, y) = self.cell;
        match &self.rule {
            // Not a step of the path: the instance alone is wrong.
            Rule::InvalidInstance(_) => write!(f, "{}", self.rule),
            rule => write!(f, "step {}, cell ({x}, {y}): {rule}", self.step),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::InvalidInstance(e) => write!(f, "invalid instance: {e}"),
            Rule::EmptyPath => write!(f, "the path is empty"),
            Rule::StartCell => write!(f, "the path does not start at the snake's head"),
            Rule::StartOnApple => write!(f, "the head starts on a visible apple"),
            Rule::OffGrid => write!(f, "the head leaves the grid"),
            Rule::Wall => write!(f, "the head enters a wall"),
            Rule::NotAdjacent => write!(f, "the head jumps to a cell that is not adjacent"),
            Rule::BitesBody(rule) => write!(
                f,
                "the head enters its own body ({} tail rule)",
                rule.name()
            ),
            Rule::ApplesLeft(n) => write!(f, "{n} apple(s) not eaten by the end"),
        }
    }
}

impl std::error::Error for Violation {}

/// Replays `path` (the head cell at every time point) on `instance`; an
/// instance that [`Instance::validate_game`] refuses (every rule but the
/// horizon, which the replay does not read) is a [`Rule::InvalidInstance`].
pub fn simulate(instance: &Instance, path: &[Pos]) -> Result<Replay, Violation> {
    let end = run(instance, path, |_| {})?;
    let left = instance.apples.len() - end.eaten.len();
    if left > 0 {
        return Err(Violation {
            step: path.len() - 1,
            cell: end.head,
            rule: Rule::ApplesLeft(left),
        });
    }
    Ok(Replay {
        eaten: end.eaten,
        final_length: end.length,
    })
}

/// [`simulate`] without the goal: a legal path that leaves apples uneaten
/// is replayed too (its [`Replay::eaten`] lists the apples it did eat).
pub fn replay_partial(instance: &Instance, path: &[Pos]) -> Result<Replay, Violation> {
    let end = run(instance, path, |_| {})?;
    Ok(Replay {
        eaten: end.eaten,
        final_length: end.length,
    })
}

/// What [`run`] shows its observer at every time point.
struct Snapshot<'a> {
    body: &'a VecDeque<Pos>,
    length: usize,
    revealed: usize,
    eaten_flags: &'a [bool],
    eaten: usize,
}

/// Where a legal run of moves ends.
struct RunEnd {
    eaten: Vec<(usize, usize)>,
    head: Pos,
    length: usize,
}

/// The step logic shared by [`simulate`] and [`states`]: replays every move of
/// `path`, calling `observe` at each time point `0..=T` once its state is
/// known, and stops at the first broken rule. It does not check the goal
/// (every apple eaten); [`simulate`] does.
fn run(
    instance: &Instance,
    path: &[Pos],
    mut observe: impl FnMut(Snapshot<'_>),
) -> Result<RunEnd, Violation> {
    // Linear in the cells, walls, body and apples: the order of the
    // replay's own tables, and far below the solving of the plans it checks.
    instance.validate_game().map_err(|e| Violation {
        step: 0,
        cell: (0, 0),
        rule: Rule::InvalidInstance(e),
    })?;
    let Some(&first) = path.first() else {
        return Err(Violation {
            step: 0,
            cell: (0, 0),
            rule: Rule::EmptyPath,
        });
    };
    let fail = |step, cell, rule| Err(Violation { step, cell, rule });
    let walls = instance.wall_map();
    let on_board = |p: Pos| instance.on_grid(p);
    let n = instance.apples.len();
    let mut revealed = instance.visible_at_start();
    let mut eaten_flags = vec![false; n];
    let mut eaten = Vec::new();

    // Known body cells, head first; `length` may exceed them on a free start.
    let (mut body, mut length): (VecDeque<Pos>, usize) = match &instance.start {
        Start::Body(cells) => {
            if cells[0] != first {
                return fail(0, first, Rule::StartCell);
            }
            (cells.iter().copied().collect(), cells.len())
        }
        Start::Free { length } => {
            if !on_board(first) {
                return fail(0, first, Rule::OffGrid);
            }
            if walls[instance.index(first)] {
                return fail(0, first, Rule::Wall);
            }
            if instance.apples[..revealed].contains(&first) {
                return fail(0, first, Rule::StartOnApple);
            }
            (VecDeque::from([first]), *length)
        }
    };
    observe(Snapshot {
        body: &body,
        length,
        revealed,
        eaten_flags: &eaten_flags,
        eaten: 0,
    });

    for (step, &next) in path.iter().enumerate().skip(1) {
        let head = body[0];
        if !on_board(next) {
            return fail(step, next, Rule::OffGrid);
        }
        if walls[instance.index(next)] {
            return fail(step, next, Rule::Wall);
        }
        if Direction::from_to(head, next).is_none() {
            return fail(step, next, Rule::NotAdjacent);
        }
        let apple = (0..revealed).find(|&i| !eaten_flags[i] && instance.apples[i] == next);
        let new_length = length + usize::from(apple.is_some() && instance.grow);
        // Cells the head may not enter: the whole old body (strict), or the
        // cells that stay in the body once the tail has moved (follow).
        let blocking = match instance.tail {
            TailRule::Strict => length,
            TailRule::Follow => new_length - 1,
        };
        if body.iter().take(blocking).any(|&c| c == next) {
            return fail(step, next, Rule::BitesBody(instance.tail));
        }
        body.push_front(next);
        body.truncate(new_length);
        length = new_length;
        if let Some(i) = apple {
            eaten_flags[i] = true;
            eaten.push((i, step));
            if revealed < n {
                revealed += 1;
            }
        }
        observe(Snapshot {
            body: &body,
            length,
            revealed,
            eaten_flags: &eaten_flags,
            eaten: eaten.len(),
        });
    }
    Ok(RunEnd {
        eaten,
        head: body[0],
        length,
    })
}

/// The board at one time point, as [`states`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// Known body cells, head first. On a free start the body before `t = 0`
    /// is unknown, so this may hold fewer than `length` cells early on.
    pub body: Vec<Pos>,
    /// The snake's length at this time point.
    pub length: usize,
    /// Revealed apples not yet eaten, as `(apple index, cell)`, by index.
    pub apples_on_board: Vec<(usize, Pos)>,
    /// Number of apples eaten up to and including this time point.
    pub eaten: usize,
}

/// The board state at every time point `0..=T` of `path` (`path.len()` states).
///
/// It applies the same rules as [`simulate`] (the same step logic) and fails
/// with the same [`Violation`] on an illegal move, but it does not require
/// every apple to be eaten by the end: a legal plan that leaves apples is
/// returned in full, so that it can still be shown.
pub fn states(instance: &Instance, path: &[Pos]) -> Result<Vec<State>, Violation> {
    let mut out = Vec::with_capacity(path.len());
    run(instance, path, |s| {
        let apples_on_board = (0..s.revealed)
            .filter(|&i| !s.eaten_flags[i])
            .map(|i| (i, instance.apples[i]))
            .collect();
        out.push(State {
            body: s.body.iter().copied().collect(),
            length: s.length,
            apples_on_board,
            eaten: s.eaten,
        });
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;

    fn inst(tail: TailRule, body: Vec<Pos>, apples: Vec<Pos>) -> Instance {
        Instance {
            width: 4,
            height: 4,
            walls: vec![(3, 3)],
            start: Start::Body(body),
            visible: 1,
            apples,
            grow: true,
            tail,
            horizon: None,
        }
    }

    #[test]
    fn eats_in_order_and_grows() {
        let i = inst(TailRule::Follow, vec![(0, 0)], vec![(1, 0), (1, 1)]);
        let r = simulate(&i, &[(0, 0), (1, 0), (1, 1)]).unwrap();
        assert_eq!(r.eaten, vec![(0, 1), (1, 2)]);
        assert_eq!(r.final_length, 3);
    }

    #[test]
    fn apple_not_revealed_is_not_eaten() {
        let i = inst(TailRule::Follow, vec![(0, 0)], vec![(2, 0), (1, 0)]);
        let v = simulate(&i, &[(0, 0), (1, 0), (2, 0)]).unwrap_err();
        assert_eq!(v.rule, Rule::ApplesLeft(1));
    }

    #[test]
    fn follow_allows_entering_the_leaving_tail_but_strict_does_not() {
        // A 2x2 loop with a snake of length 4 needs the head to enter the tail cell.
        let body = vec![(0, 0), (0, 1), (1, 1), (1, 0)];
        let path = [(0, 0), (1, 0)];
        let follow = inst(TailRule::Follow, body.clone(), vec![]);
        assert!(simulate(&follow, &path).is_ok());
        let strict = inst(TailRule::Strict, body, vec![]);
        let v = simulate(&strict, &path).unwrap_err();
        assert_eq!(v.rule, Rule::BitesBody(TailRule::Strict));
        assert_eq!(v.step, 1);
    }

    #[test]
    fn growing_tail_stays_put() {
        // Eating at the tail's cell step: the tail does not move, so the head bites.
        let body = vec![(2, 1), (1, 1), (1, 0)];
        let i = inst(TailRule::Follow, body, vec![(2, 0), (1, 0)]);
        // The first apple reveals the second under the tail (no apple visible
        // at the start may lie on the body); the head enters as the tail
        // leaves, eating it, and the tail stays, so this is a bite.
        let v = simulate(&i, &[(2, 1), (2, 0), (1, 0)]).unwrap_err();
        assert_eq!((v.step, v.rule), (2, Rule::BitesBody(TailRule::Follow)));
    }

    #[test]
    fn walls_and_jumps_are_caught() {
        let i = inst(TailRule::Follow, vec![(2, 3)], vec![]);
        assert_eq!(
            simulate(&i, &[(2, 3), (3, 3)]).unwrap_err().rule,
            Rule::Wall
        );
        assert_eq!(
            simulate(&i, &[(2, 3), (0, 3)]).unwrap_err().rule,
            Rule::NotAdjacent
        );
        assert_eq!(simulate(&i, &[(1, 3)]).unwrap_err().rule, Rule::StartCell);
    }

    /// An instance that `validate_game` refuses is a violation naming its
    /// reason (it panicked on an empty body, a length of 0, a huge board);
    /// a horizon of 0 (the whole game of a 1x1 board, won at once) is not read.
    #[test]
    fn an_invalid_instance_is_a_violation_not_a_panic() {
        for i in crate::instance::refused_examples() {
            let reason = i.validate_game().unwrap_err();
            let path = [(0, 0), (1, 0)];
            let v = simulate(&i, &path).unwrap_err();
            assert_eq!(v.rule, Rule::InvalidInstance(reason.clone()));
            assert_eq!(v.to_string(), format!("invalid instance: {reason}"));
            assert_eq!(states(&i, &path).unwrap_err(), v);
        }
        let one = Instance {
            width: 1,
            height: 1,
            walls: vec![],
            start: Start::Body(vec![(0, 0)]),
            apples: vec![],
            visible: 1,
            grow: true,
            tail: TailRule::Follow,
            horizon: Some(0),
        };
        assert!(one.validate().is_err());
        assert_eq!(simulate(&one, &[(0, 0)]).map(|r| r.final_length), Ok(1));
    }
}
