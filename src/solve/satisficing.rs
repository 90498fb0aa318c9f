//! A plan fast, then shorter ones.
//!
//! The first plan is constructed without SAT, within seconds: along
//! Hamiltonian cycles of the board ([`tour_plan`]: the snake keeps its body
//! in the cycle's order, so it cannot get stuck; with shortcuts) and by
//! earliest-arrival paths to the apples ([`construct`]); the shorter is
//! kept. Then, within a third of the time left, a plan is built apple by
//! apple with SAT ([`greedy`]): from the current board, the least plan that
//! eats the next few apples (those on the board and a few of the spawn
//! chain: a safety lookahead) is found by the incremental search, and only
//! its moves up to the first few apples are kept; the shorter plan is kept
//! (if every one fails, one incremental session for a generous horizon is
//! asked at that horizon instead). Within half of the time left, windows of
//! the plan between apples are re-planned by small SAT calls
//! ([`super::window`]). Then one session built for the best length improves
//! it: first by jumps halfway to the lower bound, each within a slice of the
//! time left, then asking every horizon below the best, downwards (a SAT
//! answer is a shorter plan), until the lower bound (UNSAT everywhere below
//! proves the best plan least) or the deadline, which bounds every phase.

use std::time::Instant;

use crate::encode::{EncodeError, Encoding};
use crate::instance::{Instance, Pos};
use crate::sim;

use super::construct::{construct, tour_plan};
use super::incremental::{Session, least_horizon_incremental};
use super::{Attempt, Budget, SearchResult, Status};
use crate::encode::prune::lower_bound;
use crate::instance::Start;

/// Apples of the spawn chain looked at beyond those on the board.
const LOOKAHEAD: usize = 3;
/// Search nodes of the constructive first plan.
const CONSTRUCT_NODES: usize = 200_000;
/// Seconds of the constructive first plan (at most the deadline).
const CONSTRUCT_SECONDS: std::time::Duration = std::time::Duration::from_secs(3);
/// Seconds of the SAT greedy, and of the windows, without a deadline.
const GREEDY_SECONDS: std::time::Duration = std::time::Duration::from_secs(20);
/// Seconds of one jump of the improvement without a deadline.
const JUMP_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);
/// Apples eaten per kept segment.
const COMMIT: usize = 2;

/// The sub-problem from the end of `path`: the board's apples and the next
/// ones of the chain (at most `lookahead` of them), from the current body.
/// `None` when the game is over; `Err` when the board is not a valid start
/// (an apple under the body).
fn sub_instance(
    instance: &Instance,
    path: &[Pos],
    lookahead: usize,
) -> Result<Option<(Instance, bool)>, ()> {
    let n = instance.apples.len();
    let v = instance.visible_at_start();
    let states = sim::states(instance, path).map_err(|_| ())?;
    let state = states.last().ok_or(())?;
    if state.eaten == n {
        return Ok(None);
    }
    let revealed = (v + state.eaten).min(n);
    let mut list: Vec<Pos> = state.apples_on_board.iter().map(|&(_, p)| p).collect();
    let on_board = list.len();
    list.extend(instance.apples[revealed..].iter().copied());
    let remaining = list.len();
    let m = (on_board + lookahead).min(remaining);
    list.truncate(m);
    let body = if path.len() == 1 {
        match &instance.start {
            Start::Body(b) => b.clone(),
            Start::Free { .. } => return Err(()),
        }
    } else {
        state.body.clone()
    };
    let sub = Instance {
        start: Start::Body(body),
        apples: list,
        visible: on_board.min(m).max(1),
        horizon: None,
        ..instance.clone()
    };
    // A spawned apple may lie under the body (it waits for the head, as in the
    // domain); only one under the head is not a valid start.
    match sub.validate() {
        Ok(()) => {}
        Err(crate::instance::InstanceError::AppleOnBody { x, y, .. })
            if state.body[0] != (x, y) => {}
        Err(_) => return Err(()),
    }
    Ok(Some((sub, m == remaining)))
}

/// The first plan, apple by apple (see the module doc), with no deadline;
/// `None` on a dead end.
fn greedy(
    instance: &Instance,
    encoding: &dyn Encoding,
    max_moves: usize,
    budget: &Budget,
) -> Option<Vec<Pos>> {
    if !matches!(instance.start, Start::Body(_)) {
        return None;
    }
    let mut path: Vec<Pos> = match &instance.start {
        Start::Body(body) => vec![body[0]],
        Start::Free { .. } => return None,
    };
    let mut next = sub_instance(instance, &path, LOOKAHEAD).ok()?;
    while let Some((sub, last)) = next {
        let lb = lower_bound(&sub);
        let search =
            least_horizon_incremental(&sub, encoding, lb, max_moves, lb, budget, |_| {}).ok()?;
        let plan = search.plan()?.path.clone()?;
        let replay = sim::simulate(&sub, &plan).ok()?;
        let mut times: Vec<usize> = replay.eaten.iter().map(|&(_, t)| t).collect();
        times.sort_unstable();
        times.dedup();
        // Keep up to the COMMIT-th apple, else any other eating time whose board is a valid start.
        let first = COMMIT.min(times.len()) - 1;
        let mut keeps: Vec<usize> = vec![times[first]];
        keeps.extend(times[..first].iter().rev());
        keeps.extend(&times[first + 1..]);
        if last {
            keeps = vec![plan.len() - 1];
        }
        let mut chosen = None;
        for keep in keeps {
            let mut candidate = path.clone();
            candidate.extend_from_slice(&plan[1..=keep]);
            if let Ok(after) = sub_instance(instance, &candidate, LOOKAHEAD) {
                chosen = Some((candidate, after));
                break;
            }
        }
        let (candidate, after) = chosen?;
        path = candidate;
        next = after;
    }
    Some(path)
}

/// The path cut after its last apple (a legal plan stays legal when cut).
pub(crate) fn cut(instance: &Instance, path: Vec<Pos>) -> Vec<Pos> {
    match sim::simulate(instance, &path) {
        Ok(replay) => {
            let last = replay
                .eaten
                .iter()
                .map(|&(_, t)| t)
                .max()
                .unwrap_or(0)
                .max(1);
            path[..=last.min(path.len() - 1)].to_vec()
        }
        Err(_) => path,
    }
}

/// Satisficing search: every phase stops at the deadline (status `unknown`
/// when no plan was found by then; else the best plan so far). `lower_bound` is a proven bound;
/// `max_moves` the largest horizon ever built. Every solver uses the
/// budget's configuration.
pub(crate) fn satisficing(
    instance: &Instance,
    encoding: &dyn Encoding,
    lower_bound: usize,
    max_moves: usize,
    budget: &Budget,
    mut progress: impl FnMut(&Attempt),
) -> Result<SearchResult, EncodeError> {
    let deadline = budget.deadline;
    let lower_bound = lower_bound.max(1);
    let mut attempts: Vec<Attempt> = Vec::new();
    // First plan: apple by apple; else a horizon well above the lower bound, doubled margin on UNSAT.
    let started = Instant::now();
    let quick = Instant::now() + CONSTRUCT_SECONDS;
    let quick = deadline.map_or(quick, |d| d.min(quick));
    let valid = |p: &Vec<Pos>| sim::simulate(instance, p).is_ok();
    let tour = tour_plan(instance, Some(quick))
        .filter(valid)
        .map(|p| cut(instance, p));
    let constructed = construct(instance, CONSTRUCT_NODES, Some(quick))
        .filter(valid)
        .map(|p| cut(instance, p));
    let constructed = match (tour, constructed) {
        (Some(a), Some(b)) => Some(if a.len() <= b.len() { a } else { b }),
        (a, b) => a.or(b),
    };
    // The SAT greedy, within a third of the time left (or GREEDY_SECONDS
    // without a deadline when a constructed plan exists): usually shorter.
    let now = Instant::now();
    let greedy_deadline = match (deadline, &constructed) {
        (Some(d), _) => Some(now + d.saturating_duration_since(now) / 3),
        (None, Some(_)) => Some(now + GREEDY_SECONDS),
        (None, None) => None,
    };
    let greedy_budget = Budget {
        deadline: greedy_deadline,
        config: budget.config,
    };
    let greedy_plan = greedy(instance, encoding, max_moves, &greedy_budget)
        .filter(valid)
        .map(|p| cut(instance, p));
    let first_plan = match (constructed, greedy_plan) {
        (Some(c), Some(g)) => Some(if g.len() < c.len() { g } else { c }),
        (c, g) => c.or(g),
    };
    let now = Instant::now();
    let window_budget = Budget {
        deadline: Some(match deadline {
            Some(d) => now + d.saturating_duration_since(now) / 2,
            None => now + GREEDY_SECONDS,
        }),
        config: budget.config,
    };
    let first_plan =
        first_plan.map(|p| super::window::improve(instance, encoding, p, &window_budget));
    let best: Option<Attempt>;
    let mut session;
    if let Some(path) = first_plan {
        let top = path.len() - 1;
        session = Session::new(instance, encoding, lower_bound, top, budget)?;
        let a = session.attempt(
            top,
            Status::Sat,
            Some(path),
            started.elapsed().as_secs_f64(),
        );
        progress(&a);
        best = Some(a);
    } else {
        let mut margin = (lower_bound / 2).max(instance.cells() / 2).max(8);
        loop {
            let top = (lower_bound + margin).min(max_moves.max(lower_bound));
            session = Session::new(instance, encoding, lower_bound, top, budget)?;
            let started = Instant::now();
            let (status, path) = session.ask(instance, top);
            let a = session.attempt(top, status, path, started.elapsed().as_secs_f64());
            progress(&a);
            match status {
                Status::Sat => {
                    best = Some(a);
                    break;
                }
                Status::Unsat if top < max_moves => {
                    attempts.push(a);
                    margin *= 2;
                }
                _ => {
                    attempts.push(a);
                    return Ok(SearchResult {
                        status,
                        attempts,
                        lower_bound,
                    });
                }
            }
        }
    }
    let mut best = best.expect("a first plan");
    if let Some(path) = best.path.take() {
        let path = cut(instance, path);
        best.horizon = path.len() - 1;
        best.path = Some(path);
    }
    session.set_deadline(deadline);
    // Improve: first jumps halfway to the lower bound, each asked within a
    // slice of the time left (SAT: a shorter plan; otherwise a shorter jump);
    // at jumps of one, every horizon below the best, downwards, until the
    // lower bound (all UNSAT: the best is least) or the deadline.
    let mut step = ((best.horizon - lower_bound) / 2).max(1);
    let mut below = best.horizon;
    while best.path.is_some() {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) {
            break;
        }
        let t = if step > 1 {
            best.horizon - step
        } else {
            below.saturating_sub(1)
        };
        if t < lower_bound {
            break;
        }
        if session.max > 2 * best.horizon {
            // A much shorter plan: a smaller formula for the horizons left.
            session = Session::new(instance, encoding, lower_bound, best.horizon, budget)?;
        }
        let slice = if step > 1 {
            let left = deadline.map_or(JUMP_SECONDS, |d| d.saturating_duration_since(now) / 8);
            Some(now + left.max(std::time::Duration::from_secs(1)))
        } else {
            None
        };
        session.set_deadline(match (deadline, slice) {
            (Some(d), Some(s)) => Some(d.min(s)),
            (d, s) => d.or(s),
        });
        let (status, path) = session.ask(instance, t);
        let mut a = session.attempt(t, status, path, now.elapsed().as_secs_f64());
        a.stats.build_seconds = 0.0;
        progress(&a);
        match status {
            Status::Sat => {
                if let Some(path) = a.path.take() {
                    let path = cut(instance, path);
                    a.horizon = path.len() - 1;
                    a.path = Some(path);
                }
                below = a.horizon;
                attempts.push(std::mem::replace(&mut best, a));
                step = step.min(((best.horizon - lower_bound) / 2).max(1));
            }
            Status::Unsat if step == 1 => {
                below = t;
                attempts.push(a);
            }
            Status::Unsat => {
                step /= 2;
                attempts.push(a);
            }
            Status::Unknown if step > 1 => {
                step /= 2;
                attempts.push(a);
            }
            Status::Unknown => {
                attempts.push(a);
                break;
            }
        }
    }
    attempts.push(best);
    Ok(SearchResult {
        status: Status::Sat,
        attempts,
        lower_bound,
    })
}
