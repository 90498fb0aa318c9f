//! Shorter plans by re-planning windows: the moves between the eating of
//! apple `i` and of apple `i + w` (in eating order) are asked again of a
//! small SAT formula, from the board at the window's start, with fewer moves.
//!
//! The window's formula is the encoding of a sub-instance: the body at the
//! window's start and the apples the window eats (those on the board first,
//! then those the spawn chain reveals); the head may never enter the cell of
//! any other apple visible by the window's end (entering it would eat it):
//! clauses on the head variables rather than walls, since such an apple may
//! lie under the body (the window would otherwise be skipped). When the window
//! does not end the plan, its new moves must also leave the rest of the plan
//! legal: the head ends on the old window's last cell (so the window keeps
//! the parity of its length, and shrinks two moves at a time), and no later
//! move may enter a cell the new window's moves still occupy with the body
//! (unit and binary clauses on the head variables). The same apples are
//! eaten, so the lengths and the spawn chain after the window are unchanged.
//! Every candidate plan is replayed by [`crate::sim`] before it is kept.
//! Windows are tried in rounds (see [`improve`]) with a longer time limit
//! per call each round, until a round in which every call answered.

use std::time::{Duration, Instant};

use crate::cnf::{Cnf, Lit, VarKind};
use crate::encode::Encoding;
use crate::encode::prune::lower_bound;
use crate::instance::{Instance, Pos, Start};
use crate::sim;

use super::{Budget, Status, path_of, run_cadical};

/// Wall-clock limit of one window's solver call in the first round.
const CALL_SECONDS: Duration = Duration::from_secs(2);
/// The largest limit of one call (doubled from [`CALL_SECONDS`] per round).
const MAX_CALL_SECONDS: Duration = Duration::from_secs(16);
/// Apples per window, tried in turn (the next size after a pass without gain).
const SIZES: [usize; 5] = [3, 5, 8, 12, 18];

/// The literals meaning "the head is on `cell` at `t`": one `head`
/// variable, or the pair of axis variables; empty when the encoding has no
/// such variable (the head cannot be there at `t`).
fn head_at(index: &HeadIndex, cell: Pos, t: usize) -> Vec<Lit> {
    if let Some(&v) = index.cell.get(&(cell.0, cell.1, t)) {
        return vec![v];
    }
    match (index.x.get(&(cell.0, t)), index.y.get(&(cell.1, t))) {
        (Some(&x), Some(&y)) => vec![x, y],
        _ => Vec::new(),
    }
}

/// The head variables of a formula by meaning.
struct HeadIndex {
    cell: std::collections::HashMap<(usize, usize, usize), Lit>,
    x: std::collections::HashMap<(usize, usize), Lit>,
    y: std::collections::HashMap<(usize, usize), Lit>,
}

impl HeadIndex {
    fn of(cnf: &Cnf) -> HeadIndex {
        let mut index = HeadIndex {
            cell: Default::default(),
            x: Default::default(),
            y: Default::default(),
        };
        for (i, kind) in cnf.names().iter().enumerate() {
            let v = (i + 1) as Lit;
            match *kind {
                VarKind::Head { x, y, t } => {
                    index.cell.insert((x as usize, y as usize, t as usize), v);
                }
                VarKind::HeadX { x, t } => {
                    index.x.insert((x as usize, t as usize), v);
                }
                VarKind::HeadY { y, t } => {
                    index.y.insert((y as usize, t as usize), v);
                }
                _ => {}
            }
        }
        index
    }
}

/// One window of a plan, ready to be asked at any horizon.
struct Window {
    /// Time of the window's first state in the plan.
    a: usize,
    /// Time of its last state.
    b: usize,
    sub: Instance,
    /// Cells the head must not enter: the apples visible by the window's
    /// end that it does not eat (clauses, not walls: such an apple may lie
    /// under the body).
    avoid: Vec<Pos>,
    /// The window ends the plan (no end condition).
    last: bool,
}

/// What asking a window at a horizon gave.
enum Answer {
    /// A legal window of that many moves: its head cells.
    Shorter(Vec<Pos>),
    /// None of that many moves (or the encoding refused it).
    Unsat,
    /// The call's time ran out.
    Unknown,
}

/// The window of `path` from time `a` to time `b` (see the module doc);
/// `None` when its board is not a valid start.
fn window(instance: &Instance, states: &[sim::State], a: usize, b: usize) -> Option<Window> {
    let start = &states[a];
    let end = &states[b];
    let eaten = end.eaten - start.eaten;
    let on_board: Vec<(usize, Pos)> = start.apples_on_board.clone();
    let left_at_end: Vec<usize> = end.apples_on_board.iter().map(|&(i, _)| i).collect();
    let revealed_at_start = (instance.visible_at_start() + start.eaten).min(instance.apples.len());
    let chain_end = (revealed_at_start + eaten).min(instance.apples.len());
    let mut apples = Vec::new();
    let mut visible = 0;
    let mut avoid = Vec::new();
    for &(i, p) in &on_board {
        if left_at_end.contains(&i) {
            avoid.push(p);
        } else {
            apples.push(p);
            visible += 1;
        }
    }
    for i in revealed_at_start..chain_end {
        let p = instance.apples[i];
        if left_at_end.contains(&i) {
            avoid.push(p);
        } else {
            apples.push(p);
        }
    }
    if apples.len() != eaten || visible == 0 {
        return None;
    }
    let body = if a == 0 {
        match &instance.start {
            Start::Body(b) => b.clone(),
            Start::Free { .. } => return None,
        }
    } else {
        start.body.clone()
    };
    let sub = Instance {
        start: Start::Body(body),
        apples,
        visible,
        horizon: None,
        ..instance.clone()
    };
    // A spawned apple may wait under the body, not under the head.
    match sub.validate() {
        Ok(()) => {}
        Err(crate::instance::InstanceError::AppleOnBody { x, y, .. })
            if start.body[0] != (x, y) => {}
        Err(_) => return None,
    }
    Some(Window {
        a,
        b,
        sub,
        avoid,
        last: b + 1 == states.len(),
    })
}

/// Asks the window at `h` moves.
fn ask(
    window: &Window,
    path: &[Pos],
    states: &[sim::State],
    encoding: &dyn Encoding,
    h: usize,
    budget: &Budget,
) -> Answer {
    let Ok(mut cnf) = encoding.encode(&window.sub, h) else {
        return Answer::Unsat;
    };
    let index = HeadIndex::of(&cnf);
    for &cell in &window.avoid {
        for t in 1..=h {
            let lits = head_at(&index, cell, t);
            if !lits.is_empty() {
                cnf.add_iter(lits.iter().map(|&l| -l));
            }
        }
    }
    if !window.last {
        let start_head = path[window.a];
        // The cell of the new plan's head `j` moves before the window's end.
        let cell_before_end = |j: usize| -> Option<Pos> {
            if j <= h {
                None
            } else {
                // Before the window: the old plan's cells.
                window.a.checked_sub(j - h).map(|t| path[t])
            }
        };
        let force = |cnf: &mut Cnf, cell: Pos, t: usize| -> bool {
            if t == 0 {
                return start_head == cell;
            }
            let lits = head_at(&index, cell, t);
            if lits.is_empty() {
                return false;
            }
            for l in lits {
                cnf.add(&[l]);
            }
            true
        };
        if !force(&mut cnf, path[window.b], h) {
            return Answer::Unsat;
        }
        // Move `s` after the window enters `path[b + s]`; the body before it
        // holds the heads of the last `length(b + s - 1)` times.
        for s in 1..path.len() - window.b {
            let length = states[window.b + s - 1].length;
            if length < s {
                break;
            }
            let cell = path[window.b + s];
            for j in 0..=length + 1 - s {
                if j <= h {
                    let t = h - j;
                    if t == 0 {
                        if start_head == cell {
                            return Answer::Unsat;
                        }
                        continue;
                    }
                    let lits = head_at(&index, cell, t);
                    if !lits.is_empty() {
                        cnf.add_iter(lits.iter().map(|&l| -l));
                    }
                } else if cell_before_end(j) == Some(cell) {
                    return Answer::Unsat;
                }
            }
        }
    }
    match run_cadical(&cnf, budget) {
        (Status::Sat, Some(values)) => match path_of(&window.sub, &cnf, &values, h) {
            Ok(new) => Answer::Shorter(new),
            Err(_) => Answer::Unsat,
        },
        (Status::Unsat, _) => Answer::Unsat,
        _ => Answer::Unknown,
    }
}

/// Re-plans windows of `path` (a legal plan of `instance`) until the
/// deadline or a fixpoint; returns the shortest legal plan found (`path`
/// itself when nothing is shorter). A round tries every size of [`SIZES`]
/// in turn (the same size again after a pass with a gain); when a round
/// ends with a call cut short by its time limit, the next round doubles
/// the limit (up to [`MAX_CALL_SECONDS`]); a round without such a call is a
/// fixpoint.
pub(crate) fn improve(
    instance: &Instance,
    encoding: &dyn Encoding,
    mut path: Vec<Pos>,
    budget: &Budget,
) -> Vec<Pos> {
    let out_of_time = || budget.expired();
    let mut call = CALL_SECONDS;
    while !out_of_time() {
        let mut cut_short = false;
        for &w in &SIZES {
            loop {
                let (gained, short) = pass(instance, encoding, &mut path, w, call, budget);
                cut_short |= short;
                if !gained || out_of_time() {
                    break;
                }
            }
        }
        if !cut_short || call >= MAX_CALL_SECONDS {
            break;
        }
        call *= 2;
    }
    path
}

/// One pass of windows of `w` apples over `path` (starts `w / 2` apples
/// apart), each call limited to `call`: whether the plan got shorter, and
/// whether a call was cut short by its limit.
fn pass(
    instance: &Instance,
    encoding: &dyn Encoding,
    path: &mut Vec<Pos>,
    w: usize,
    call: Duration,
    budget: &Budget,
) -> (bool, bool) {
    let deadline = budget.deadline;
    let out_of_time = || budget.expired();
    let mut gained = false;
    let mut cut_short = false;
    let mut first = 0;
    loop {
        if out_of_time() {
            return (gained, true);
        }
        let (Ok(states), Ok(replay)) = (sim::states(instance, path), sim::simulate(instance, path))
        else {
            return (gained, cut_short);
        };
        let mut anchors: Vec<usize> = vec![0];
        anchors.extend(replay.eaten.iter().map(|&(_, t)| t));
        anchors.dedup();
        if first + 1 >= anchors.len() {
            return (gained, cut_short);
        }
        let last = (first + w).min(anchors.len() - 1);
        let (a, b) = (anchors[first], anchors[last]);
        first += w.div_ceil(2);
        let Some(win) = window(instance, &states, a, b) else {
            continue;
        };
        let old = b - a;
        let step = if win.last { 1 } else { 2 };
        let lb = lower_bound(&win.sub).unwrap_or(usize::MAX);
        let mut h = old.saturating_sub(step);
        let mut better: Option<Vec<Pos>> = None;
        while h >= lb.max(1) && !out_of_time() {
            let until = Instant::now() + call;
            let limit = Budget {
                deadline: Some(deadline.map_or(until, |d| d.min(until))),
                ..budget.clone()
            };
            let new = match ask(&win, path, &states, encoding, h, &limit) {
                Answer::Shorter(new) => new,
                Answer::Unsat => break,
                Answer::Unknown => {
                    cut_short = true;
                    break;
                }
            };
            let candidate: Vec<Pos> = path[..a]
                .iter()
                .chain(&new)
                .chain(&path[b + 1..])
                .copied()
                .collect();
            if sim::simulate(instance, &candidate).is_err() {
                break;
            }
            better = Some(candidate);
            h = h.saturating_sub(step);
            if h == 0 {
                break;
            }
        }
        if let Some(better) = better {
            *path = super::satisficing::cut(instance, better);
            budget.offer(path);
            gained = true;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::instance::TailRule;

    /// The cells from `from` along `moves` (`U` is `y + 1`); also used by
    /// the satisficing tests.
    pub(in crate::solve) fn walk(from: Pos, moves: &str) -> Vec<Pos> {
        let mut path = vec![from];
        for m in moves.chars() {
            let (x, y) = *path.last().unwrap();
            path.push(match m {
                'U' => (x, y + 1),
                'D' => (x, y - 1),
                'R' => (x + 1, y),
                _ => (x - 1, y),
            });
        }
        path
    }

    #[test]
    fn an_apple_waiting_under_the_body_is_avoided_and_its_window_kept() {
        // Eating (2, 0) reveals (1, 0) under the body; it waits there while
        // the snake detours to (5, 5) (12 moves, 8 suffice).
        let inst = Instance {
            width: 6,
            height: 6,
            walls: vec![],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples: vec![(2, 0), (5, 5), (1, 0), (0, 5)],
            visible: 2,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        };
        let path = walk((1, 0), "RUULLURRRRRUULLLLDDDDDLUUUUU");
        let replay = sim::simulate(&inst, &path).unwrap();
        assert_eq!(replay.eaten.len(), 4);
        assert_eq!(replay.eaten[1], (1, 13));
        let states = sim::states(&inst, &path).unwrap();
        assert!(states[1].body.contains(&(1, 0)));
        // The window eating (5, 5) leaves (1, 0) on the board, under the body.
        let win = window(&inst, &states, 1, 13).expect("a window despite the apple under the body");
        assert!(win.avoid.contains(&(1, 0)), "{:?}", win.avoid);
        let encoding = crate::encode::by_name("direct").unwrap();
        let better = improve(&inst, encoding.as_ref(), path.clone(), &Budget::default());
        assert_eq!(sim::simulate(&inst, &better).unwrap().eaten.len(), 4);
        assert!(better.len() + 4 <= path.len(), "{} moves", better.len() - 1);
    }

    #[test]
    fn a_detour_inside_the_plan_is_cut_and_the_rest_kept_legal() {
        let inst = Instance {
            width: 6,
            height: 6,
            walls: vec![],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples: vec![(5, 0), (5, 5), (0, 5), (0, 2)],
            visible: 1,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        };
        // A detour of 10 moves to the first apple (4 suffice), then straight on.
        let path = walk((1, 0), "UUURRRDDDRUUUUULLLLLDDD");
        assert_eq!(sim::simulate(&inst, &path).unwrap().eaten.len(), 4);
        let encoding = crate::encode::by_name("direct").unwrap();
        let budget = Budget::default();
        // The first window (three apples) does not end the plan: its end is constrained.
        let states = sim::states(&inst, &path).unwrap();
        let first = window(&inst, &states, 0, 20).expect("a window");
        assert!(!first.last);
        let better = improve(&inst, encoding.as_ref(), path.clone(), &budget);
        assert!(sim::simulate(&inst, &better).is_ok());
        assert!(better.len() + 6 <= path.len(), "{} moves", better.len() - 1);
    }
}
