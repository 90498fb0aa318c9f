//! A plan fast, then shorter ones: one incremental session
//! ([`super::incremental::Session`]) built for a generous horizon, asked
//! first at that horizon (no minimality), then below the best plan found
//! until UNSAT (which proves the best one least) or the deadline.

use std::time::Instant;

use crate::encode::EncodeError;
use crate::encode::direct::DirectOptions;
use crate::instance::{Instance, Pos};
use crate::sim;

use super::incremental::Session;
use super::{Attempt, Search, Status};

/// The path cut after its last apple (a legal plan stays legal when cut).
fn cut(instance: &Instance, path: Vec<Pos>) -> Vec<Pos> {
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

/// Satisficing search: the first plan ignores `deadline` (it is needed
/// anyway), the improvement stops at it. `lower_bound` is a proven bound;
/// `max_moves` the largest horizon ever built.
pub fn satisficing(
    instance: &Instance,
    options: &DirectOptions,
    lower_bound: usize,
    max_moves: usize,
    deadline: Option<Instant>,
    mut progress: impl FnMut(&Attempt),
) -> Result<Search, EncodeError> {
    let lower_bound = lower_bound.max(1);
    let mut attempts: Vec<Attempt> = Vec::new();
    // First plan: a horizon well above the lower bound, doubled margin on UNSAT.
    let mut margin = (lower_bound / 2).max(instance.cells() / 2).max(8);
    let best: Option<Attempt>;
    let mut session;
    loop {
        let top = (lower_bound + margin).min(max_moves.max(lower_bound));
        session = Session::new(instance, options, lower_bound, top, None, None)?;
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
                return Ok(Search {
                    status,
                    attempts,
                    lower_bound,
                });
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
    // Improve: ask one below the best until UNSAT or the deadline.
    while best.horizon > lower_bound && best.path.is_some() {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let t = best.horizon - 1;
        let started = Instant::now();
        let (status, path) = session.ask(instance, t);
        let mut a = session.attempt(t, status, path, started.elapsed().as_secs_f64());
        a.stats.build_seconds = 0.0;
        progress(&a);
        match status {
            Status::Sat => {
                if let Some(path) = a.path.take() {
                    let path = cut(instance, path);
                    a.horizon = path.len() - 1;
                    a.path = Some(path);
                }
                attempts.push(std::mem::replace(&mut best, a));
            }
            _ => {
                attempts.push(a);
                break;
            }
        }
    }
    attempts.push(best);
    Ok(Search {
        status: Status::Sat,
        attempts,
        lower_bound,
    })
}
