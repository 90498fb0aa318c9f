//! The searches behind [`crate::planner`]: CaDiCaL on one horizon, or the
//! least horizon found by going up from a proven lower bound (a fresh formula
//! per horizon here, on every core in `parallel`, one solver in
//! `incremental`), or a plan fast and then
//! shorter ones (`satisficing`, whose first plans include the move-level
//! beam search); a wall-clock deadline turns into `unknown`. Only the types
//! they report in are public (also re-exported by [`crate::planner`]): the
//! planner is the way in.

// Public for its tests and benchmark (tests/beam.rs, benches/throughput.rs),
// not for programs: they plan with `Planner`, whose satisficing search runs
// the beams; hidden from the documentation so that it shows one way to plan.
pub(crate) mod anytime;
#[doc(hidden)]
pub mod beam;
pub(crate) mod construct;
pub(crate) mod continuation;
pub(crate) mod incremental;
pub(crate) mod parallel;
pub(crate) mod reserve;
pub(crate) mod satisficing;
pub(crate) mod window;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::cnf::{Cnf, Size};
use crate::encode::decode::path_from_model;
use crate::encode::{EncodeError, Encoding};
use crate::instance::{Instance, Pos, Start};
use crate::planner::{CadicalConfig, Undecided};
use crate::proof::Certificate;

/// The solver's verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Satisfiable: a model (a plan, if the encoding is sound).
    Sat,
    /// Unsatisfiable: proven that there is no plan.
    Unsat,
    /// Neither proven: the deadline came first, the search was stopped, or
    /// no formula could be asked (an outcome's [`Undecided`] says which).
    Unknown,
}

impl Status {
    /// Its name in output: `sat`, `unsat` or `unknown` (as in JSON).
    pub fn name(self) -> &'static str {
        match self {
            Status::Sat => "sat",
            Status::Unsat => "unsat",
            Status::Unknown => "unknown",
        }
    }
}

/// Sizes and times of one solver call.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Variables of the formula.
    pub variables: u64,
    /// Clauses of the formula.
    pub clauses: u64,
    /// Literal occurrences of the formula.
    pub literals: u64,
    /// Seconds spent building the formula.
    pub build_seconds: f64,
    /// Seconds spent in CaDiCaL.
    pub solve_seconds: f64,
}

/// One horizon tried.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    /// Moves asked for.
    pub horizon: usize,
    /// The solver's answer.
    pub status: Status,
    /// Sizes and times.
    pub stats: Stats,
    /// The head path when `status` is `Sat` (`None` if the model is not a path).
    pub path: Option<Vec<Pos>>,
    /// The CaDiCaL configuration the solver ran with.
    pub config: CadicalConfig,
    /// The certificate of this horizon's UNSAT, when the search wrote it as
    /// it went ([`crate::planner::Planner::certify_into`]).
    pub certificate: Option<Certificate>,
}

/// A solver's answer on one formula: its status, the model when SAT, and the
/// certificate when it refuted the formula tracing a proof.
pub(crate) type Answer = (Status, Option<Vec<bool>>, Option<Certificate>);

/// What every solver call of a search shares: when to stop, how CaDiCaL is
/// set up, and how many threads a phase may run at once.
#[derive(Clone, Debug, Default)]
pub(crate) struct Budget {
    /// Stop (status `unknown`) at this instant.
    pub deadline: Option<Instant>,
    /// The configuration of every solver.
    pub config: CadicalConfig,
    /// Stop (status `unknown`, as at the deadline) once this is raised
    /// ([`crate::planner::Planner::cancel_flag`]).
    pub cancel: Option<Arc<AtomicBool>>,
    /// The threads a parallel phase runs at once (`None`: one per core,
    /// [`parallel::cores`]; see [`Budget::threads`]).
    pub threads: Option<usize>,
    /// Where a satisficing search reports each better plan as it finds it
    /// ([`Budget::offer`]; `None`: nowhere).
    pub anytime: Option<Arc<anytime::Anytime>>,
}

impl Budget {
    /// Whether the search should stop now: the deadline has passed or the
    /// search was cancelled.
    pub(crate) fn expired(&self) -> bool {
        self.interrupt(None).fired()
    }

    /// Offers a plan the search keeps to the caller's anytime callback
    /// ([`anytime::Anytime::offer`]: reported only if shorter than every
    /// plan reported before).
    pub(crate) fn offer(&self, path: &[Pos]) {
        if let Some(anytime) = &self.anytime {
            anytime.offer(path);
        }
    }

    /// Whether the search was cancelled (its deadline aside).
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// What stops a solver of this budget, also stopped by `stop` if given.
    pub(crate) fn interrupt(&self, stop: Option<&Arc<AtomicBool>>) -> Interrupt {
        Interrupt {
            deadline: self.deadline,
            flag: stop.cloned(),
            cancel: self.cancel.clone(),
        }
    }

    /// What stops a phase of this budget that ends at `deadline` (before
    /// the budget's own): that instant or the search's cancellation.
    pub(crate) fn stop_at(&self, deadline: Instant) -> Interrupt {
        Interrupt {
            deadline: Some(deadline),
            flag: None,
            cancel: self.cancel.clone(),
        }
    }

    /// The threads a parallel phase runs at once (at least one).
    pub(crate) fn threads(&self) -> usize {
        self.threads.unwrap_or_else(parallel::cores).max(1)
    }
}

/// Stops CaDiCaL, or a phase that runs without it (the satisficing search's
/// constructions, tours and beams, [`construct`] and [`beam`]), at a
/// deadline, when another thread raises a flag (a lower horizon was found
/// SAT by another thread), or when the search is cancelled. The default
/// never stops.
#[derive(Clone, Default)]
pub(crate) struct Interrupt {
    /// Stop at this instant.
    pub(crate) deadline: Option<Instant>,
    /// Stop once this is set.
    pub(crate) flag: Option<Arc<AtomicBool>>,
    /// Stop once this is set too (the search's cancellation, [`Budget::cancel`]).
    pub(crate) cancel: Option<Arc<AtomicBool>>,
}

impl Interrupt {
    /// What stops at `deadline` only (never without one).
    pub(crate) fn at(deadline: Option<Instant>) -> Self {
        Interrupt {
            deadline,
            ..Interrupt::default()
        }
    }

    /// The same flags, with `deadline` instead of this one's.
    pub(crate) fn until(&self, deadline: Option<Instant>) -> Self {
        Interrupt {
            deadline,
            ..self.clone()
        }
    }

    /// Whether the solve should stop now.
    pub(crate) fn fired(&self) -> bool {
        let raised =
            |f: &Option<Arc<AtomicBool>>| f.as_ref().is_some_and(|f| f.load(Ordering::Relaxed));
        raised(&self.flag)
            || raised(&self.cancel)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether anything can stop the solve (else no callback is needed).
    pub(crate) fn can_fire(&self) -> bool {
        self.deadline.is_some() || self.flag.is_some() || self.cancel.is_some()
    }
}

impl cadical::Callbacks for Interrupt {
    fn terminate(&mut self) -> bool {
        self.fired()
    }
}

/// Runs CaDiCaL on `cnf` with the budget's configuration until its
/// deadline or cancellation; returns the status and, if SAT, the value of
/// every variable.
pub(crate) fn run_cadical(cnf: &Cnf, budget: &Budget) -> (Status, Option<Vec<bool>>) {
    run_cadical_until(cnf, budget, None)
}

/// [`run_cadical`], also stopped (`Unknown`) when `stop` is raised.
fn run_cadical_until(
    cnf: &Cnf,
    budget: &Budget,
    stop: Option<&Arc<AtomicBool>>,
) -> (Status, Option<Vec<bool>>) {
    // Through CaDiCaL's C API, whatever the configuration: the `unsat` one
    // forces phases, which the `cadical` crate cannot set, and one path
    // serves every fresh formula. Loading tens of millions of clauses takes
    // seconds: the deadline (and the cancellation) is checked while loading.
    crate::proof::solve_raw(cnf, budget.config, &budget.interrupt(stop))
}

/// Head cells that an encoding may fix as constants instead of variables
/// (what [`crate::encode::decode::path_from_model`] needs besides the model).
pub(crate) fn fixed_heads(instance: &Instance) -> Vec<(usize, Pos)> {
    match &instance.start {
        Start::Body(body) => vec![(0, body[0])],
        Start::Free { .. } => vec![],
    }
}

/// The head path a model describes.
pub(crate) fn path_of(
    instance: &Instance,
    cnf: &Cnf,
    values: &[bool],
    moves: usize,
) -> Result<Vec<Pos>, crate::encode::decode::DecodeError> {
    let named = cnf.names().iter().zip(values.iter().copied());
    path_from_model(named, moves, &fixed_heads(instance))
}

/// Encodes and solves at exactly `moves` moves.
pub(crate) fn solve_at(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    budget: &Budget,
) -> Result<Attempt, EncodeError> {
    solve_at_until(instance, encoding, moves, budget, None)
}

/// [`solve_at`], also stopped (`Unknown`) when `stop` is raised.
pub(crate) fn solve_at_until(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    budget: &Budget,
    stop: Option<&Arc<AtomicBool>>,
) -> Result<Attempt, EncodeError> {
    solve_at_with(instance, encoding, moves, budget, |cnf| {
        let (status, values) = run_cadical_until(cnf, budget, stop);
        Ok((status, values, None))
    })
}

/// Encodes at exactly `moves` moves and hands the formula to `run`, which
/// answers with a status, the model when SAT, and perhaps a certificate.
pub(crate) fn solve_at_with<E: From<EncodeError>>(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    budget: &Budget,
    run: impl FnOnce(&Cnf) -> Result<Answer, E>,
) -> Result<Attempt, E> {
    let started = Instant::now();
    let cnf = encoding.encode(instance, moves)?;
    let build = started.elapsed();
    let solving = Instant::now();
    let (status, values, certificate) = run(&cnf)?;
    let size: Size = cnf.size();
    let stats = Stats {
        variables: size.variables,
        clauses: size.clauses,
        literals: size.literals,
        build_seconds: build.as_secs_f64(),
        solve_seconds: solving.elapsed().as_secs_f64(),
    };
    let path = match values {
        // A model with no readable path is reported as a path-less SAT; the caller rejects it.
        Some(values) => path_of(instance, &cnf, &values, moves).ok(),
        None => None,
    };
    Ok(Attempt {
        horizon: moves,
        status,
        stats,
        path,
        config: budget.config,
        certificate,
    })
}

/// Solves at exactly `moves` moves, trying a shortcut first: the least plan
/// of fewer moves (horizons from the proven lower bound up, each formula
/// small after pruning; only the bound when `moves` is at most
/// [`FEW_MOVES`] above it) followed by a legal continuation from its final body
/// with no apples left, found by a short search ([`continuation::walk`]) or
/// by one more small formula. Any plan for fewer
/// moves that can go on moving is a plan for `moves`. When the shortcut does
/// not apply (approximate encoding, lower bound 0 or not below `moves`, a
/// board the last apple fills, no plan of fewer moves found within a second,
/// a free start whose body is not yet all on the path, or no continuation) the full formula at `moves` is
/// solved, so the answer is the same as [`solve_at`]'s.
pub(crate) fn solve_fixed(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    budget: &Budget,
) -> Result<Attempt, EncodeError> {
    if let Some(attempt) = shortcut(instance, encoding, moves, budget) {
        return Ok(attempt);
    }
    // The time limit cut the shortcut short: unknown, as the full formula
    // would answer once built. It went on to build it, or to refuse it as
    // beyond the limits, where the shortcut answers given the time (exit 0
    // or 2 by the clock).
    if budget.deadline.is_some_and(|d| Instant::now() >= d) {
        return Ok(Attempt {
            horizon: moves,
            status: Status::Unknown,
            stats: Stats::default(),
            path: None,
            config: budget.config,
            certificate: None,
        });
    }
    solve_at(instance, encoding, moves, budget)
}

/// Search nodes of the walk that continues the shortcut's plan, beyond one
/// per move, before a formula is asked instead ([`continuation::walk`]).
const WALK_NODES: usize = 20_000;

/// Up to this many moves above the lower bound, the shortcut tries only the
/// bound before the full formula (measured on the notebook's MVP3 setting,
/// README "Targets, measured").
const FEW_MOVES: usize = 4;

/// The least shorter plan plus a continuation, if both exist (see
/// [`solve_fixed`]); `None` also when a formula it asks for is refused.
fn shortcut(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    budget: &Budget,
) -> Option<Attempt> {
    let bound = crate::encode::prune::lower_bound(instance).unwrap_or(usize::MAX);
    // (No apple, bound 0: the continuation alone is the whole question. A
    // board the last apple fills leaves a body that cannot move on.)
    if encoding.approximate()
        || bound == 0
        || bound >= moves
        || crate::encode::full::ends_full(instance)
    {
        return None;
    }
    // The shortcut may spend at most a second before the full formula is tried.
    let second = Instant::now() + Duration::from_secs(1);
    let budget = &Budget {
        deadline: Some(budget.deadline.map_or(second, |d| d.min(second))),
        ..budget.clone()
    };
    // The least horizon below `moves` with a plan: a refuted one says
    // nothing about `moves`, so the search goes on; a limit ends the shortcut.
    // Within a few moves of the bound the full formula leaves little slack
    // and costs about what one shorter horizon does: only the bound is tried.
    let end = if moves - bound <= FEW_MOVES {
        bound + 1
    } else {
        moves
    };
    // The answer's times count the refuted shorter horizons too.
    let (mut build_seconds, mut solve_seconds) = (0.0, 0.0);
    let mut found = None;
    for h in bound..end {
        // A formula the encoding refuses (too large) ends the shortcut: the
        // full formula is refused as well, and its error names the horizon
        // asked for, not this one (nor the continuation's, below).
        let Ok(attempt) = solve_at(instance, encoding, h, budget) else {
            return None;
        };
        build_seconds += attempt.stats.build_seconds;
        solve_seconds += attempt.stats.solve_seconds;
        match (attempt.status, attempt.path) {
            (Status::Unsat, _) => {}
            (Status::Sat, Some(path)) => {
                found = Some((h, path, attempt.stats));
                break;
            }
            _ => return None,
        }
    }
    let (least, prefix, mut stats) = found?;
    stats.build_seconds = build_seconds;
    stats.solve_seconds = solve_seconds;
    let mut end = None;
    let replayed = crate::sim::replay_each(instance, &prefix, |m| {
        if m.time + 1 == prefix.len() {
            end = Some(m.state());
        }
    });
    let (Ok(_), Some(last)) = (replayed, end) else {
        return None;
    };
    // (The body may still grow: a free start's not yet unrolled, or the
    // last apple's growth to come.)
    let pending = last.length.saturating_sub(last.body.len());
    // The continuation: a walk found by a short depth-first search, checked
    // with the prefix by the simulator, else a second small formula.
    let joined = |suffix: &[Pos]| {
        let mut path = prefix.clone();
        path.extend_from_slice(&suffix[1..]);
        path
    };
    let at_moves = Instance {
        horizon: Some(moves),
        ..instance.clone()
    };
    let walked = continuation::walk(
        instance,
        &last.body,
        moves - least,
        pending,
        moves - least + WALK_NODES,
    )
    .map(|walk| joined(&walk))
    .filter(|path| crate::sim::simulate(&at_moves, path).is_ok());
    let path = match walked {
        Some(path) => path,
        // (A body that still grows is not a start the formula can take.)
        None if pending > 0 => return None,
        None => {
            let rest = Instance {
                start: Start::Body(last.body.clone()),
                apples: vec![],
                visible: 0,
                horizon: Some(moves - least),
                ..instance.clone()
            };
            let Ok(second) = solve_at(&rest, encoding, moves - least, budget) else {
                return None;
            };
            let suffix = second.path.as_ref()?;
            // Both formulas' sizes: the answer rests on both.
            stats.variables += second.stats.variables;
            stats.clauses += second.stats.clauses;
            stats.literals += second.stats.literals;
            stats.build_seconds += second.stats.build_seconds;
            stats.solve_seconds += second.stats.solve_seconds;
            joined(suffix)
        }
    };
    Some(Attempt {
        horizon: moves,
        status: Status::Sat,
        stats,
        path: Some(path),
        config: budget.config,
        certificate: None,
    })
}

/// The result of a search, before the planner checks its plan.
#[derive(Clone, Debug)]
pub(crate) struct SearchResult {
    /// `Sat` at the last attempt, `Unsat` if no plan up to the maximum, or `Unknown`.
    pub status: Status,
    /// Every horizon tried; a SAT search ends with its plan.
    pub attempts: Vec<Attempt>,
    /// The proven lower bound the search started from.
    pub lower_bound: usize,
    /// Why a search ended `Unknown`, when it knows better than "interrupted"
    /// (the planner's reading of a `None`).
    pub undecided: Option<Undecided>,
}

impl SearchResult {
    /// The result of solving one horizon.
    pub fn from_attempts(attempts: Vec<Attempt>, lower_bound: usize) -> Self {
        SearchResult {
            status: attempts.last().map_or(Status::Unsat, |a| a.status),
            attempts,
            lower_bound,
            undecided: None,
        }
    }

    /// The satisfiable attempt, if any.
    pub fn plan(&self) -> Option<&Attempt> {
        self.attempts.last().filter(|a| a.status == Status::Sat)
    }

    /// True when the found horizon is proven least: UNSAT at every horizon
    /// from the lower bound up to just below it (UNSAT at `T` alone does not
    /// exclude a shorter plan that cannot go on legally to `T` moves).
    pub fn optimal(&self) -> bool {
        self.plan()
            .is_some_and(|a| first_unrefuted(&self.attempts, self.lower_bound) >= a.horizon)
    }
}

/// The least horizon from `from` up that no attempt refuted: every horizon
/// from `from` to just below it has an `Unsat` attempt.
pub(crate) fn first_unrefuted(attempts: &[Attempt], from: usize) -> usize {
    let refuted = |t: &usize| {
        attempts
            .iter()
            .any(|a| a.status == Status::Unsat && a.horizon == *t)
    };
    // (An inclusive range: `from..` overflows past `usize::MAX`, which a
    // hand-built `Outcome` can hold as its bound.)
    (from..=usize::MAX)
        .find(|t| !refuted(t))
        .unwrap_or(usize::MAX)
}

/// Tries `first, first + 1, ...` up to `max_moves`, stopping at the first
/// SAT, at `unknown`, or at the deadline (or cancellation). `progress` hears each attempt.
/// `lower_bound` is a proven bound on the least horizon (used to report optimality);
/// `first` is usually the same. The one-at-a-time reference the tests hold
/// the parallel and incremental searches to (the planner uses those).
#[cfg(test)]
pub(crate) fn least_horizon(
    instance: &Instance,
    encoding: &dyn Encoding,
    first: usize,
    max_moves: usize,
    lower_bound: usize,
    budget: &Budget,
    mut progress: impl FnMut(&Attempt),
) -> Result<SearchResult, EncodeError> {
    let mut attempts = Vec::new();
    let mut status = Status::Unsat;
    for moves in first.max(1)..=max_moves {
        if budget.expired() {
            status = Status::Unknown;
            break;
        }
        let attempt = solve_at(instance, encoding, moves, budget)?;
        progress(&attempt);
        let s = attempt.status;
        attempts.push(attempt);
        if s != Status::Unsat {
            status = s;
            break;
        }
    }
    Ok(SearchResult {
        status,
        attempts,
        lower_bound,
        undecided: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;
    use crate::instance::random::{RandomSpec, generate};

    /// A bound at the last horizon there is (a hand-built `Outcome` can
    /// hold one) is its own first unrefuted horizon: `from..` overflowed.
    #[test]
    fn the_first_unrefuted_horizon_stops_at_the_last_there_is() {
        assert_eq!(first_unrefuted(&[], usize::MAX), usize::MAX);
        assert_eq!(first_unrefuted(&[], 7), 7);
    }

    /// MVP3 seed 5: the least plan (39 moves) lies 4 moves above the lower
    /// bound (35), 30 below the notebook's horizon. The shortcut finds it
    /// and walks on to exactly 69 moves; the result is a legal plan of 69
    /// moves, and so is the full formula's.
    #[test]
    fn the_shortcut_reaches_a_least_plan_above_the_bound_and_walks_on() {
        let instance = generate(&RandomSpec {
            seed: 5,
            ..RandomSpec::default()
        })
        .unwrap();
        assert_eq!(crate::encode::prune::lower_bound(&instance), Some(35));
        let direct = crate::encode::by_name("direct").unwrap();
        let budget = Budget::default();
        let at = |moves| Instance {
            horizon: Some(moves),
            ..instance.clone()
        };
        let short =
            shortcut(&instance, &*direct, 69, &budget).expect("a plan of 39 moves walks on");
        let path = short.path.expect("a path");
        assert_eq!(path.len(), 70);
        let replay = crate::sim::simulate(&at(69), &path).expect("legal at 69 moves");
        assert_eq!(
            replay.eaten.last().map(|&(_, t)| t),
            Some(39),
            "the least plan's last apple"
        );
        let full = solve_at(&instance, &*direct, 69, &budget).unwrap();
        crate::sim::simulate(&at(69), &full.path.expect("SAT")).expect("legal");
        // At the least horizon itself there is nothing shorter to walk on from.
        assert!(shortcut(&instance, &*direct, 39, &budget).is_none());
    }

    /// A walk of more moves than the search's spare nodes (review 13c: the
    /// node budget counted the walk's own moves, so horizons more than
    /// 20,000 moves above the least plan fell back to a formula of gigabytes).
    #[test]
    fn the_walk_reaches_horizons_far_above_the_plan() {
        let instance = generate(&RandomSpec::default()).unwrap();
        let direct = crate::encode::by_name("direct").unwrap();
        let moves = 45 + WALK_NODES + 5_000;
        let attempt = shortcut(&instance, &*direct, moves, &Budget::default())
            .expect("the least plan walked on");
        let at = Instance {
            horizon: Some(moves),
            ..instance.clone()
        };
        crate::sim::simulate(&at, &attempt.path.expect("a path")).expect("legal");
    }

    /// A plan that ends with the body still growing (a free start's body
    /// not yet unrolled, the last apple's growth to come) walks on too, the
    /// tail held for the growth: it fell back to the full formula, so `solve
    /// --size 10 --apples 1 --horizon 5000` (a 1-move least plan) took 101 s
    /// and 1.3 GB. Under either tail rule, with growth, the walk is legal.
    #[test]
    fn a_plan_ending_with_growth_to_come_walks_on() {
        let direct = crate::encode::by_name("direct").unwrap();
        for (seed, tail) in [
            (1, TailRule::Follow),
            (2, TailRule::Strict),
            (3, TailRule::Follow),
        ] {
            let instance = generate(&RandomSpec {
                width: 10,
                height: 10,
                apples: 1,
                tail,
                seed,
                ..RandomSpec::default()
            })
            .unwrap();
            assert!(matches!(instance.start, Start::Free { .. }));
            for moves in [7, 60, 2_000] {
                let attempt = shortcut(&instance, &*direct, moves, &Budget::default())
                    .expect("the least plan walked on");
                assert!(
                    attempt.stats.variables < 1_000,
                    "{}",
                    attempt.stats.variables
                );
                let at = Instance {
                    horizon: Some(moves),
                    ..instance.clone()
                };
                let path = attempt.path.expect("a path");
                assert_eq!(path.len(), moves + 1);
                crate::sim::simulate(&at, &path).expect("legal");
            }
        }
    }
}
