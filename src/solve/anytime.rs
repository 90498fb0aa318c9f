//! Anytime plans: the shortest plan a satisficing search has found so far,
//! handed to the caller ([`crate::planner::Planner::on_plan`]) as soon as it
//! is found, so that a process killed before it answers has already passed
//! on its best plan (`solve --satisficing --plan FILE` writes `FILE.1`,
//! `FILE.2`, … this way, as anytime planners do).
//!
//! The search offers every plan it keeps, from any phase and any thread
//! ([`Budget::offer`](super::Budget::offer)); only a plan shorter than every
//! one reported before, legal by the simulator and within the search's
//! largest horizon is reported, so the reports get strictly shorter. The
//! answer itself is offered last ([`Anytime::conclude`]) and reported unless
//! it is the plan reported last: the last report is always the answer.

use std::sync::{Arc, Mutex, PoisonError};

use crate::instance::{Instance, Pos};
use crate::sim;

/// The caller's callback: a checked plan (its cells, one per time point).
pub(crate) type OnPlan = Arc<dyn Fn(&[Pos]) + Send + Sync>;

/// The plans reported so far and where to report the next.
pub(crate) struct Anytime {
    instance: Instance,
    /// The largest horizon a reported plan may have.
    max_moves: usize,
    /// The plan reported last (empty: none yet).
    last: Mutex<Vec<Pos>>,
    report: OnPlan,
}

impl std::fmt::Debug for Anytime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Anytime")
            .field("max_moves", &self.max_moves)
            .field("last_moves", &self.lock().len().checked_sub(1))
            .finish_non_exhaustive()
    }
}

impl Anytime {
    /// Reports the plans of `instance` of at most `max_moves` moves to `report`.
    pub(crate) fn new(instance: &Instance, max_moves: usize, report: OnPlan) -> Self {
        Anytime {
            instance: instance.clone(),
            max_moves,
            last: Mutex::new(Vec::new()),
            report,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Pos>> {
        self.last.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Reports `path` if it is shorter than every plan reported so far (or
    /// the first), legal, and within the largest horizon. Under the lock, so
    /// that reports from several threads come in order.
    pub(crate) fn offer(&self, path: &[Pos]) {
        let mut last = self.lock();
        let shorter = last.is_empty() || path.len() < last.len();
        if !path.is_empty()
            && shorter
            && path.len() - 1 <= self.max_moves
            && sim::simulate(&self.instance, path).is_ok()
        {
            (self.report)(path);
            *last = path.to_vec();
        }
    }

    /// Reports the search's answer unless it is the plan reported last
    /// (it may differ from it only when a plan of the same length was
    /// reported first). The planner has checked it already.
    pub(crate) fn conclude(&self, answer: &[Pos]) {
        let mut last = self.lock();
        if *last != answer {
            (self.report)(answer);
            *last = answer.to_vec();
        }
    }
}
