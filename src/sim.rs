//! The independent simulator: replays a path under the game rules of
//! docs/DESIGN.md §1 and either accepts it (with the apples eaten and when) or
//! names the first violation.
//!
//! It shares the [`Instance`] type with the encoder but no logic: it keeps the
//! body as a queue of cells and moves it step by step, as the game does, in
//! constant time per move. [`replay_each`] shows each time point's board to a
//! caller (the GIF's frames, the timeline chart) without keeping them.

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
#[non_exhaustive]
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

/// The board at one time point of a replay, as [`replay_each`] shows it to
/// its observer. It borrows the replay's own tables: [`Moment::state`] copies
/// out what a caller keeps.
#[derive(Debug)]
pub struct Moment<'a> {
    /// The time point, `0..=T`.
    pub time: usize,
    /// The snake's length at this time point.
    pub length: usize,
    /// Number of apples eaten up to and including this time point.
    pub eaten: usize,
    apples: &'a [Pos],
    body: &'a VecDeque<Pos>,
    revealed: usize,
    eaten_flags: &'a [bool],
}

impl Moment<'_> {
    /// Apples revealed so far: apples `0..revealed` have been on the board
    /// (those not yet eaten are on it now).
    pub fn revealed(&self) -> usize {
        self.revealed
    }

    /// A copy of the board: the body and the apples on it (linear in the
    /// body and the apples revealed so far).
    pub fn state(&self) -> State {
        State {
            body: self.body.iter().copied().collect(),
            length: self.length,
            apples_on_board: (0..self.revealed)
                .filter(|&i| !self.eaten_flags[i])
                .map(|i| (i, self.apples[i]))
                .collect(),
            eaten: self.eaten,
        }
    }
}

/// The board at one time point, as [`Moment::state`] copies it.
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

/// [`replay_partial`] that shows every time point `0..=T` of `path`, in
/// order, to `observe` once its board is known; it stops at the first broken
/// rule (with the same [`Violation`] as [`simulate`]), after showing the
/// time points before it.
///
/// The replay itself keeps only the current board, so a caller that keeps
/// what it needs of a few time points (a GIF's frames, the last board)
/// replays a long plan in memory linear in the board, not in the plan.
pub fn replay_each(
    instance: &Instance,
    path: &[Pos],
    observe: impl FnMut(&Moment<'_>),
) -> Result<Replay, Violation> {
    let end = run(instance, path, observe)?;
    Ok(Replay {
        eaten: end.eaten,
        final_length: end.length,
    })
}

/// The board state at every time point `0..=T` of `path` (`path.len()`
/// states), by [`replay_each`]: it fails with the same [`Violation`] on an
/// illegal move but returns a legal plan that leaves apples in full. It
/// holds every body and every board's apples at once: memory grows with
/// `T` times the body and the apples, so for a long plan keep only what is
/// needed from [`replay_each`].
pub fn states(instance: &Instance, path: &[Pos]) -> Result<Vec<State>, Violation> {
    let mut out = Vec::with_capacity(path.len());
    replay_each(instance, path, |m| out.push(m.state()))?;
    Ok(out)
}

/// Where a legal run of moves ends.
struct RunEnd {
    eaten: Vec<(usize, usize)>,
    head: Pos,
    length: usize,
}

/// The step logic shared by [`simulate`] and [`replay_each`]: replays every
/// move of `path`, calling `observe` at each time point `0..=T` once its
/// state is known, and stops at the first broken rule. It does not check the
/// goal (every apple eaten); [`simulate`] does.
///
/// Each move takes constant time: the body's cells are marked on a map of
/// the grid, and each cell holds the revealed, uneaten apple on it, if any.
/// At most one can be: with one apple visible at a time only one is revealed
/// and uneaten, and with more no two apples share a cell
/// ([`Instance::validate_game`]).
fn run(
    instance: &Instance,
    path: &[Pos],
    mut observe: impl FnMut(&Moment<'_>),
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
    let apples = &instance.apples[..];
    let n = apples.len();
    let mut revealed = instance.visible_at_start();
    let mut eaten_flags = vec![false; n];
    let mut eaten = Vec::new();
    // The revealed, uneaten apple on each cell.
    let mut apple_at: Vec<Option<usize>> = vec![None; instance.cells()];
    for (i, &a) in apples[..revealed].iter().enumerate() {
        apple_at[instance.index(a)] = Some(i);
    }
    // Whether each cell holds a known body cell (they are all distinct).
    let mut in_body = vec![false; instance.cells()];

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
            if apple_at[instance.index(first)].is_some() {
                return fail(0, first, Rule::StartOnApple);
            }
            (VecDeque::from([first]), *length)
        }
    };
    for &c in &body {
        in_body[instance.index(c)] = true;
    }
    observe(&Moment {
        time: 0,
        length,
        eaten: 0,
        apples,
        body: &body,
        revealed,
        eaten_flags: &eaten_flags,
    });

    for (step, &next) in path.iter().enumerate().skip(1) {
        let head = body[0];
        if !on_board(next) {
            return fail(step, next, Rule::OffGrid);
        }
        let cell = instance.index(next);
        if walls[cell] {
            return fail(step, next, Rule::Wall);
        }
        if Direction::from_to(head, next).is_none() {
            return fail(step, next, Rule::NotAdjacent);
        }
        let apple = apple_at[cell];
        let new_length = length + usize::from(apple.is_some() && instance.grow);
        // The head may not enter the whole old body (strict), or the cells
        // that stay in the body once the tail has moved (follow): the tail
        // cells beyond the first `new_length - 1` leave as the head enters.
        let leave = |body: &mut VecDeque<Pos>, in_body: &mut [bool]| {
            while body.len() > new_length - 1 {
                if let Some(tail) = body.pop_back() {
                    in_body[instance.index(tail)] = false;
                }
            }
        };
        if instance.tail == TailRule::Follow {
            leave(&mut body, &mut in_body);
        }
        if in_body[cell] {
            return fail(step, next, Rule::BitesBody(instance.tail));
        }
        leave(&mut body, &mut in_body);
        body.push_front(next);
        in_body[cell] = true;
        length = new_length;
        if let Some(i) = apple {
            apple_at[cell] = None;
            eaten_flags[i] = true;
            eaten.push((i, step));
            if revealed < n {
                let at = instance.index(apples[revealed]);
                debug_assert!(apple_at[at].is_none(), "two revealed apples share a cell");
                apple_at[at] = Some(revealed);
                revealed += 1;
            }
        }
        observe(&Moment {
            time: step,
            length,
            eaten: eaten.len(),
            apples,
            body: &body,
            revealed,
            eaten_flags: &eaten_flags,
        });
    }
    Ok(RunEnd {
        eaten,
        head: body[0],
        length,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// The replay as it was before each move took constant time: every
    /// move scans the revealed apples and the body. The reference for
    /// [`the_replay_agrees_with_the_scanning_one`].
    fn scanning_states(instance: &Instance, path: &[Pos]) -> Result<Vec<State>, Violation> {
        let fail = |step, cell, rule| Err(Violation { step, cell, rule });
        if let Err(e) = instance.validate_game() {
            return fail(0, (0, 0), Rule::InvalidInstance(e));
        }
        let Some(&first) = path.first() else {
            return fail(0, (0, 0), Rule::EmptyPath);
        };
        let walls = instance.wall_map();
        let n = instance.apples.len();
        let mut revealed = instance.visible_at_start();
        let mut eaten_flags = vec![false; n];
        let mut eaten = 0;
        let (mut body, mut length): (VecDeque<Pos>, usize) = match &instance.start {
            Start::Body(cells) if cells[0] != first => return fail(0, first, Rule::StartCell),
            Start::Body(cells) => (cells.iter().copied().collect(), cells.len()),
            Start::Free { .. } if !instance.on_grid(first) => {
                return fail(0, first, Rule::OffGrid);
            }
            Start::Free { .. } if walls[instance.index(first)] => {
                return fail(0, first, Rule::Wall);
            }
            Start::Free { .. } if instance.apples[..revealed].contains(&first) => {
                return fail(0, first, Rule::StartOnApple);
            }
            Start::Free { length } => (VecDeque::from([first]), *length),
        };
        let state = |body: &VecDeque<Pos>, length, revealed, flags: &[bool], eaten| State {
            body: body.iter().copied().collect(),
            length,
            apples_on_board: (0..revealed)
                .filter(|&i| !flags[i])
                .map(|i| (i, instance.apples[i]))
                .collect(),
            eaten,
        };
        let mut out = vec![state(&body, length, revealed, &eaten_flags, 0)];
        for (step, &next) in path.iter().enumerate().skip(1) {
            if !instance.on_grid(next) {
                return fail(step, next, Rule::OffGrid);
            }
            if walls[instance.index(next)] {
                return fail(step, next, Rule::Wall);
            }
            if Direction::from_to(body[0], next).is_none() {
                return fail(step, next, Rule::NotAdjacent);
            }
            let apple = (0..revealed).find(|&i| !eaten_flags[i] && instance.apples[i] == next);
            let new_length = length + usize::from(apple.is_some() && instance.grow);
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
                eaten += 1;
                revealed = (revealed + 1).min(n);
            }
            out.push(state(&body, length, revealed, &eaten_flags, eaten));
        }
        Ok(out)
    }

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

    /// On random small boards (every tail rule, growth, visibility and
    /// start, apples under the body and sharing cells) and random walks
    /// that mostly stay legal, the replay shows exactly the boards of the
    /// scanning replay and stops at the same violation; [`simulate`] and
    /// [`replay_partial`] agree with it.
    #[test]
    fn the_replay_agrees_with_the_scanning_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(14);
        let (mut legal, mut eaten, mut broken) = (0, 0, 0);
        for _ in 0..20_000 {
            let (w, h) = (rng.random_range(1..6), rng.random_range(1..6));
            let grid = crate::geometry::Grid::new(w, h);
            let cell = |rng: &mut ChaCha8Rng| (rng.random_range(0..w), rng.random_range(0..h));
            let walls: Vec<Pos> = (0..rng.random_range(0..3))
                .map(|_| cell(&mut rng))
                .collect();
            let start = if rng.random_bool(0.3) {
                Start::Free {
                    length: rng.random_range(1..5),
                }
            } else {
                // A random self-avoiding walk from a random cell.
                let mut body = vec![cell(&mut rng)];
                for _ in 0..rng.random_range(0..6) {
                    let last = *body.last().unwrap();
                    let step = Direction::ALL[rng.random_range(0..4)];
                    match grid.step(last, step) {
                        Some(p) if !body.contains(&p) => body.push(p),
                        _ => break,
                    }
                }
                Start::Body(body)
            };
            let apples = (0..rng.random_range(0..12))
                .map(|_| cell(&mut rng))
                .collect();
            let instance = Instance {
                width: w,
                height: h,
                walls,
                start,
                visible: rng.random_range(1..4),
                apples,
                grow: rng.random_bool(0.7),
                tail: if rng.random_bool(0.5) {
                    TailRule::Follow
                } else {
                    TailRule::Strict
                },
                horizon: None,
            };
            // Most refused instances are drawn again, a few are replayed.
            if instance.validate_game().is_err() && rng.random_bool(0.95) {
                continue;
            }
            let mut path = match &instance.start {
                Start::Body(b) if rng.random_bool(0.95) => vec![b[0]],
                _ => vec![cell(&mut rng)],
            };
            // Extend by a legal move while one is found, then maybe one
            // random (often illegal) cell.
            for _ in 0..rng.random_range(0..60) {
                let head = *path.last().unwrap();
                let mut moves: Vec<Pos> = grid.neighbours_of(head).collect();
                let k = rng.random_range(0..moves.len().max(1)) % moves.len().max(1);
                moves.rotate_left(k);
                let found = moves.into_iter().find(|&p| {
                    path.push(p);
                    let ok = scanning_states(&instance, &path).is_ok();
                    path.pop();
                    ok
                });
                match found {
                    Some(p) => path.push(p),
                    None => break,
                }
            }
            if rng.random_bool(0.3) {
                // Off the grid now and then.
                path.push((rng.random_range(0..=w), rng.random_range(0..h)));
            }
            let want = scanning_states(&instance, &path);
            assert_eq!(states(&instance, &path), want, "{instance:?} {path:?}");
            let mut times = Vec::new();
            let _ = replay_each(&instance, &path, |m| times.push(m.time));
            let shown = want.as_ref().map_or_else(|v| v.step, |all| all.len());
            assert!(times.iter().copied().eq(0..shown), "{times:?}");
            let partial = replay_partial(&instance, &path);
            match &want {
                Ok(all) => {
                    legal += 1;
                    eaten += all.last().unwrap().eaten;
                    let r = partial.unwrap();
                    assert_eq!(r.eaten.len(), all.last().unwrap().eaten);
                    assert_eq!(r.final_length, all.last().unwrap().length);
                    for &(i, t) in &r.eaten {
                        assert!(all[t].eaten > all[t - 1].eaten);
                        assert!(all[t - 1].apples_on_board.iter().any(|a| a.0 == i));
                    }
                    let left = instance.apples.len() - r.eaten.len();
                    match simulate(&instance, &path) {
                        Ok(s) => assert_eq!((s, left), (r, 0)),
                        Err(v) => assert_eq!(v.rule, Rule::ApplesLeft(left)),
                    }
                }
                Err(v) => {
                    broken += 1;
                    assert_eq!(partial.as_ref().unwrap_err(), v);
                    assert_eq!(simulate(&instance, &path).as_ref().unwrap_err(), v);
                }
            }
        }
        // The walks cover both outcomes and eat apples.
        assert!(
            legal > 2000 && broken > 1500 && eaten > 3000,
            "{legal} {broken} {eaten}"
        );
    }
}
