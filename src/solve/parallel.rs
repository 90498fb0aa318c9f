//! The least horizon from fresh formulas, the horizons shared out over the
//! cores: each worker takes the next horizon not yet taken, encodes it and
//! solves it on its own; a plan at `T` stops the workers on horizons above
//! `T`, and the search ends when every horizon below the least plan found
//! has an answer.
//!
//! On full boards (docs/DESIGN.md §6) a fresh formula at a fixed horizon is
//! much easier than the incremental one under assumptions: its pruning and
//! its full-board facts are clauses of that horizon, not of the largest one
//! (IPC-2018 optimal 14, one solver each: 456 s fresh against 1,156 s
//! incremental), and fresh horizons are independent, so two cores answer two
//! of them at once. The answer does not depend on the scheduling: SAT and
//! UNSAT are facts of each horizon's formula, the plan returned is the one of
//! the least SAT horizon, whose solve is deterministic, and an error, or a
//! formula beyond the encoding's limits (`unknown`,
//! [`Undecided::FormulaLimit`]), is the answer only at the least horizon
//! that has one and below every plan, where the sequential search would
//! stop.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use crate::encode::{EncodeError, Encoding};
use crate::instance::Instance;
use crate::planner::Undecided;
use crate::proof::{self, ProofError};

use super::{Attempt, Budget, SearchResult, Status, solve_at_until, solve_at_with};

/// What the workers share.
struct Shared {
    /// The next horizon to hand out.
    next: usize,
    /// The least horizon found SAT so far (`usize::MAX`: none).
    least_sat: usize,
    /// The horizons being solved and their stop flags.
    running: Vec<(usize, Arc<AtomicBool>)>,
    /// The error (encoding, or writing a certificate) at the least horizon
    /// that had one, and that horizon: no horizon above it is handed out, as
    /// the sequential search would stop there. Horizons below it go on,
    /// since a plan there is the answer, whichever core finished first.
    error: Option<(usize, ProofError)>,
}

impl Shared {
    /// Stops the running horizons above `t` (a plan or an error at `t`
    /// decides the search before them).
    fn stop_above(&self, t: usize) {
        for (u, flag) in &self.running {
            if *u > t {
                flag.store(true, Ordering::Relaxed);
            }
        }
    }
}

/// The threads the machine runs at once (at least one): the workers of
/// [`least_horizon_parallel`] and of the certificates' re-solves.
pub(crate) fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The least horizon in `first..=max_moves` (stopping at the first SAT, at
/// `unknown`, or at the deadline or a cancellation) with `workers` threads
/// (at least one), each solving a fresh formula per horizon. `progress` hears every answered
/// horizon at or below the least plan, in the order they are answered. With
/// a plan found but a horizon below it undecided at the deadline, the plan
/// is returned without the claim that it is least. With `proof_dir`, every
/// horizon is solved by a CaDiCaL that traces a DRAT proof into that folder
/// ([`proof::solve_certified`]), and each refuted one carries its
/// certificate: the search is its own certification.
#[allow(clippy::too_many_arguments)]
pub(crate) fn least_horizon_parallel(
    instance: &Instance,
    encoding: &dyn Encoding,
    first: usize,
    max_moves: usize,
    lower_bound: usize,
    budget: &Budget,
    workers: usize,
    proof_dir: Option<&Path>,
    mut progress: impl FnMut(&Attempt),
) -> Result<SearchResult, ProofError> {
    let first = first.max(1);
    if let Some(dir) = proof_dir {
        proof::create_dir(dir)?;
    }
    let shared = Mutex::new(Shared {
        next: first,
        least_sat: usize::MAX,
        running: Vec::new(),
        error: None,
    });
    let (send, receive) = mpsc::channel::<Attempt>();
    let mut attempts = Vec::new();
    std::thread::scope(|scope| {
        // (No more workers than horizons: the others would find none to take.)
        let horizons = max_moves.saturating_sub(first) + 1;
        for _ in 0..workers.clamp(1, horizons) {
            let send = send.clone();
            let shared = &shared;
            scope.spawn(move || {
                work(
                    instance, encoding, max_moves, budget, proof_dir, shared, send,
                )
            });
        }
        drop(send);
        for attempt in receive {
            progress(&attempt);
            attempts.push(attempt);
        }
    });
    let shared = shared.into_inner().expect("no worker panics");
    let least_sat = shared.least_sat;
    // The horizons that count: up to the least plan, or below a formula limit.
    let mut last_counted = least_sat;
    let mut undecided = None;
    if let Some((t, error)) = shared.error {
        // Above the least plan an error says nothing either; what that
        // horizon wrote before it goes.
        if let Some(dir) = proof_dir {
            proof::remove_files(dir, t)?;
        }
        match error {
            _ if t > least_sat => {}
            // A formula beyond the encoding's limits: the climb stops there
            // (the horizons above it, larger still, say nothing).
            ProofError::Encode(error @ EncodeError::TooBig { .. }) => {
                undecided = Some(Undecided::FormulaLimit { horizon: t, error });
                last_counted = t - 1;
            }
            error => return Err(error),
        }
    }
    // Horizons above the least plan (or a formula limit) say nothing,
    // refuted or not: their certificates (answered before the plan was
    // found) go too.
    if let Some(dir) = proof_dir {
        let above = attempts.iter().filter(|a| a.horizon > last_counted);
        for certificate in above.filter_map(|a| a.certificate.as_ref()) {
            proof::remove_files(dir, certificate.horizon)?;
        }
    }
    attempts.retain(|a| a.horizon <= last_counted);
    attempts.sort_by_key(|a| a.horizon);
    let status = if undecided.is_some() {
        Status::Unknown
    } else if least_sat != usize::MAX {
        Status::Sat
    } else if attempts.iter().any(|a| a.status != Status::Unsat)
        || attempts.len() < (first..=max_moves).count()
    {
        // Undecided, or not asked before the deadline.
        Status::Unknown
    } else {
        Status::Unsat
    };
    Ok(SearchResult {
        status,
        attempts,
        lower_bound,
        undecided,
    })
}

/// One worker: takes horizons until none is left below the least plan, the
/// deadline passes or an error stops the search; sends every answer that
/// counts (not those of horizons stopped because a lower one was SAT).
fn work(
    instance: &Instance,
    encoding: &dyn Encoding,
    max_moves: usize,
    budget: &Budget,
    proof_dir: Option<&Path>,
    shared: &Mutex<Shared>,
    send: mpsc::Sender<Attempt>,
) {
    let lock = || shared.lock().expect("no worker panics");
    loop {
        let (t, stop) = {
            let mut s = lock();
            let t = s.next;
            let past_deadline = budget.expired();
            let stopped_at = s.error.as_ref().map_or(usize::MAX, |(u, _)| *u);
            if t > max_moves || t >= s.least_sat.min(stopped_at) || past_deadline {
                return;
            }
            s.next += 1;
            let stop = Arc::new(AtomicBool::new(false));
            s.running.push((t, stop.clone()));
            (t, stop)
        };
        let result = match proof_dir {
            None => solve_at_until(instance, encoding, t, budget, Some(&stop)).map_err(Into::into),
            Some(dir) => solve_at_with(instance, encoding, t, budget, |cnf| {
                proof::solve_certified(instance, encoding, t, cnf, dir, budget, Some(&stop))
            }),
        };
        let mut s = lock();
        s.running.retain(|(u, _)| *u != t);
        match result {
            Err(error) => {
                if s.error.as_ref().is_none_or(|(u, _)| t < *u) {
                    s.error = Some((t, error));
                }
                s.stop_above(t);
                return;
            }
            Ok(attempt) => {
                if attempt.status == Status::Sat && t < s.least_sat {
                    s.least_sat = t;
                    s.stop_above(t);
                }
                // A horizon stopped for a lower plan says nothing: dropped.
                let stopped = stop.load(Ordering::Relaxed) && attempt.status == Status::Unknown;
                if !stopped {
                    drop(s);
                    // The receiver lives until every worker is done.
                    let _ = send.send(attempt);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode;
    use crate::instance::random::{RandomSpec, generate};

    /// The parallel search gives the same answer, refuted horizons and plan
    /// length as the one-at-a-time search, with one, two and three workers,
    /// with a plan in range and without.
    #[test]
    fn agrees_with_the_sequential_search() {
        let encoding = encode::by_name("direct").unwrap();
        for seed in 0..12 {
            let spec = RandomSpec {
                width: 4,
                height: 4,
                apples: 4,
                length: 3,
                visible: Some(1),
                seed,
                ..RandomSpec::default()
            };
            let instance = generate(&spec).unwrap();
            let bound = crate::encode::prune::lower_bound(&instance).unwrap();
            let budget = Budget::default();
            let least = |max| {
                super::super::least_horizon(
                    &instance,
                    &*encoding,
                    bound,
                    max,
                    bound,
                    &budget,
                    |_| {},
                )
                .unwrap()
            };
            let plan = least(40).plan().expect("a plan within 40 moves").horizon;
            // Up to 40 moves (a plan), and up to just below the plan (no plan).
            for (max, workers) in [(40, 1), (40, 3), (plan - 1, 2)] {
                let one = least(max);
                let many = least_horizon_parallel(
                    &instance,
                    &*encoding,
                    bound,
                    max,
                    bound,
                    &budget,
                    workers,
                    None,
                    |_| {},
                )
                .unwrap();
                assert_eq!(many.status, one.status, "seed {seed}, {workers} workers");
                let horizons = |r: &SearchResult| {
                    r.attempts
                        .iter()
                        .map(|a| (a.horizon, a.status))
                        .collect::<Vec<_>>()
                };
                assert_eq!(horizons(&many), horizons(&one), "seed {seed}");
                assert_eq!(many.optimal(), one.optimal(), "seed {seed}");
                assert_eq!(
                    many.plan().map(|a| a.path.as_ref().map(Vec::len)),
                    one.plan().map(|a| a.path.as_ref().map(Vec::len)),
                    "seed {seed}"
                );
            }
        }
    }

    /// The direct encoding, except that from horizon `too_big` on the
    /// formula is refused as too big at once, while the horizon `slow` takes
    /// a moment to encode: a worker answers the horizons above it first.
    struct Limited {
        inner: Box<dyn Encoding>,
        slow: usize,
        too_big: usize,
    }

    impl Encoding for Limited {
        fn name(&self) -> String {
            self.inner.name()
        }
        fn capabilities(&self) -> encode::Capabilities {
            self.inner.capabilities()
        }
        fn encode(
            &self,
            instance: &Instance,
            moves: usize,
        ) -> Result<crate::cnf::Cnf, encode::EncodeError> {
            if moves == self.slow {
                std::thread::sleep(std::time::Duration::from_millis(300));
            }
            if moves >= self.too_big {
                return Err(encode::EncodeError::TooBig {
                    encoding: self.name(),
                    moves,
                    what: "head slots",
                    count: 2,
                    limit: 1,
                });
            }
            self.inner.encode(instance, moves)
        }
    }

    /// Which core answers first does not change the answer: a formula too
    /// big above the least plan does not hide the plan, and of two formulas
    /// too big the answer names the lower horizon, where the sequential
    /// search stops (tests/cli.rs once saw "at a horizon of 61" for 60).
    #[test]
    fn a_formula_limit_counts_only_at_the_least_horizon_that_has_one() {
        let spec = RandomSpec {
            width: 4,
            height: 4,
            apples: 3,
            length: 2,
            visible: Some(1),
            seed: 3,
            ..RandomSpec::default()
        };
        let instance = generate(&spec).unwrap();
        let bound = crate::encode::prune::lower_bound(&instance).unwrap();
        let budget = Budget::default();
        let search_certified = |slow, too_big, proof_dir| {
            let limited = Limited {
                inner: encode::by_name("direct").unwrap(),
                slow,
                too_big,
            };
            least_horizon_parallel(
                &instance,
                &limited,
                bound,
                40,
                bound,
                &budget,
                2,
                proof_dir,
                |_| {},
            )
        };
        let search = |slow, too_big| search_certified(slow, too_big, None);
        let plan = search(usize::MAX, usize::MAX)
            .unwrap()
            .plan()
            .expect("a plan within 40 moves")
            .horizon;
        // The plan's horizon slow, the one above it too big: the plan stands.
        let found = search(plan, plan + 1).expect("the plan, not the error above it");
        assert_eq!(found.plan().map(|a| a.horizon), Some(plan));
        assert!(found.optimal());
        // Both too big, the lower one slow: the search stops there, unknown,
        // every horizon below it refuted.
        let stopped = search(plan, plan).expect("an answer");
        assert_eq!(stopped.status, Status::Unknown);
        match &stopped.undecided {
            Some(Undecided::FormulaLimit { horizon, error }) => {
                assert_eq!(*horizon, plan);
                let expected = format!("at a horizon of {plan} moves");
                assert!(error.to_string().contains(&expected), "{error}");
            }
            other => panic!("{other:?}"),
        }
        let refuted: Vec<usize> = stopped.attempts.iter().map(|a| a.horizon).collect();
        assert_eq!(refuted, (bound..plan).collect::<Vec<_>>());
        assert!(stopped.attempts.iter().all(|a| a.status == Status::Unsat));
        // Certified, the plan stands too, and the folder holds exactly the
        // certificates of the horizons below it.
        let dir = tempfile::tempdir().unwrap();
        let found = search_certified(plan, plan + 1, Some(dir.path())).expect("the plan");
        assert_eq!(found.plan().map(|a| a.horizon), Some(plan));
        let mut files: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        files.sort();
        let mut expected: Vec<String> = (bound..plan)
            .flat_map(|t| [format!("horizon-{t}.cnf"), format!("horizon-{t}.drat")])
            .collect();
        expected.sort();
        assert_eq!(files, expected);
    }
}
