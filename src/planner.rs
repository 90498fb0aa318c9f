//! The one way to plan: a [`Planner`] holds an encoding and the options of
//! the search (which search, how long, the largest horizon, the CaDiCaL
//! configuration, a progress callback) and turns an instance into a typed
//! [`Outcome`]: a plan checked by the simulator ([`crate::sim`]), a proof that
//! there is none, an unknown answer, or an illegal model of an approximate
//! encoding.
//!
//! The searches behind it ([`crate::solve`]) are its implementation: the
//! least horizon climbed with a fresh formula per horizon or with one
//! incremental solver, one fixed horizon, and the satisficing search (a plan
//! fast, then shorter ones). Which of them applies follows from the
//! encoding's [`Capabilities`](crate::encode::Capabilities).

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use thiserror::Error;

use crate::cnf::Cnf;
use crate::decode::ModelError;
use crate::encode::full::ends_full;
use crate::encode::{EncodeError, Encoding, prune};
use crate::instance::{Instance, InstanceError, MAX_HORIZON, Pos};
use crate::proof::ProofError;
use crate::reachable::{self, Reachable};
use crate::sim::{self, Replay, Violation};
use crate::solve::anytime::{Anytime, OnPlan};
use crate::solve::{self, Budget, SearchResult};
/// The types the planner reports in ([`Outcome::attempts`],
/// [`Planner::on_attempt`], [`Outcome::status`], [`Outcome::stats`]), here
/// beside the planner that is the way in.
pub use crate::solve::{Attempt, Stats, Status};

/// Which question the planner asks: the one given to [`Planner::search`],
/// else the instance's own ([`Planner::search_for`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Search {
    /// The least number of moves (up to [`Planner::max_horizon`]), climbing
    /// from a proven lower bound.
    #[default]
    Optimal,
    /// A plan of exactly this many moves. 0 is asked too (the start alone:
    /// a plan only when no apple is left to eat), although an instance's
    /// own `horizon` must be at least 1 ([`InstanceError::ZeroHorizon`]).
    FixedHorizon(usize),
    /// A plan fast (of any length up to [`Planner::max_horizon`]), then
    /// shorter ones until the timeout; least only if proven. Every phase, the
    /// first plan included, stops at the timeout (then no plan if none was
    /// found by it). Needs an incremental encoding.
    Satisficing,
}

/// How [`Search::Optimal`] climbs the horizons.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// Fresh on full boards (see [`crate::encode::full`]: their formulas
    /// at a fixed horizon are much easier than the incremental one), else
    /// incremental when the encoding allows it, else fresh.
    #[default]
    Auto,
    /// One CaDiCaL instance for every horizon (assumptions); needs an
    /// incremental encoding (refused otherwise, whatever the search).
    Incremental,
    /// A fresh formula and solver per horizon, the horizons shared out over
    /// the cores.
    Fresh,
}

/// A CaDiCaL configuration (its predefined sets of internal options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum CadicalConfig {
    /// CaDiCaL's defaults.
    #[default]
    Default,
    /// No preprocessing or inprocessing.
    Plain,
    /// Tuned for satisfiable formulas.
    Sat,
    /// Tuned for unsatisfiable formulas; a fresh formula is also solved
    /// with CaDiCaL's phases forced to false (`--forcephase=1 --phase=0`).
    Unsat,
}

impl CadicalConfig {
    /// Every configuration, in the order of [`CadicalConfig::name`]'s list.
    pub const ALL: [CadicalConfig; 4] = [
        CadicalConfig::Default,
        CadicalConfig::Plain,
        CadicalConfig::Sat,
        CadicalConfig::Unsat,
    ];

    /// CaDiCaL's name of the configuration: `default`, `plain`, `sat` or `unsat`.
    pub fn name(self) -> &'static str {
        match self {
            CadicalConfig::Default => "default",
            CadicalConfig::Plain => "plain",
            CadicalConfig::Sat => "sat",
            CadicalConfig::Unsat => "unsat",
        }
    }

    /// A solver set up with this configuration.
    pub(crate) fn solver<C: cadical::Callbacks>(self) -> cadical::Solver<C> {
        match self {
            CadicalConfig::Default => cadical::Solver::new(),
            other => cadical::Solver::with_config(other.name())
                .expect("CaDiCaL knows its predefined configurations"),
        }
    }
}

impl FromStr for CadicalConfig {
    type Err = PlanError;

    fn from_str(s: &str) -> Result<Self, PlanError> {
        CadicalConfig::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| PlanError::UnknownConfig(s.to_string()))
    }
}

/// Why the planner refuses to plan.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum PlanError {
    /// A CaDiCaL configuration name that does not exist.
    #[error("unknown CaDiCaL configuration {0:?} (expected one of: default, plain, sat, unsat)")]
    UnknownConfig(String),
    /// A formula given to [`Planner::solve_formula`] holds a literal of no
    /// variable it declares (CaDiCaL would end the process on it).
    #[error("the formula's literal {literal} names none of its {}", crate::counted(.variables, "variable"))]
    BadLiteral {
        /// The literal.
        literal: crate::cnf::Lit,
        /// The variables the formula declares.
        variables: usize,
    },
    /// The search needs an incremental encoding and this one is not.
    #[error(
        "the {search} search needs an incremental encoding (direct without body=block), not {encoding}"
    )]
    NotIncremental {
        /// The search asked for: `incremental` or `satisficing`.
        search: &'static str,
        /// The encoding's name.
        encoding: String,
    },
    /// The instance breaks a rule of the model ([`Instance::validate`]), or
    /// the fixed horizon asked exceeds [`MAX_HORIZON`].
    /// (The message holds the inner error's, so it is not also the
    /// `source()`: a reporter printing the chain would repeat it.)
    #[error("invalid instance: {0}")]
    Instance(InstanceError),
    /// The encoding refuses the instance, or a formula a fixed horizon asks
    /// for is beyond its limits (a least-horizon or satisficing search that
    /// reaches such a formula answers [`Undecided::FormulaLimit`] instead).
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// A certificate could not be written ([`Planner::certify_into`]). The
    /// message ends with the [`ProofError`]'s whole chain
    /// (`certificates: cannot create DIR: File exists (os error 17)`), so,
    /// like [`PlanError::Instance`], it is not also the `source()`.
    #[error("certificates: {}", crate::output::chain(.0))]
    Certificate(ProofError),
}

impl From<InstanceError> for PlanError {
    fn from(error: InstanceError) -> Self {
        PlanError::Instance(error)
    }
}

impl From<ProofError> for PlanError {
    fn from(error: ProofError) -> Self {
        match error {
            ProofError::Encode(e) => PlanError::Encode(e),
            other => PlanError::Certificate(other),
        }
    }
}

/// A plan the simulator accepted.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Head cells at `t = 0..=horizon`.
    pub path: Vec<Pos>,
    /// Moves of the plan.
    pub horizon: usize,
    /// True when no plan has fewer moves (proven by UNSAT answers down to
    /// the lower bound; with an approximate encoding, whose UNSAT proves
    /// nothing, only a plan as short as the lower bound).
    pub optimal: bool,
    /// The simulator's replay: eating times and final length.
    pub replay: Replay,
}

impl Plan {
    /// `(apple index, time)` pairs, in eating order.
    pub fn eaten(&self) -> &[(usize, usize)] {
        &self.replay.eaten
    }
}

/// What the search concluded.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Verdict {
    /// A checked plan.
    Plan(Plan),
    /// Proven: no plan of at most `within` moves (of exactly `within` moves
    /// for [`Search::FixedHorizon`]); with [`Outcome::lower_bound`] `None`,
    /// none of any length.
    NoPlan {
        /// The largest horizon excluded.
        within: usize,
    },
    /// No answer, for the reason given.
    Unknown(Undecided),
    /// The solver found a model that is not a legal plan (an approximate
    /// encoding's, or a bug): `path` is `None` when the model is not even a path.
    IllegalModel {
        /// The horizon of the model.
        horizon: usize,
        /// The head path the model describes, if it describes one.
        path: Option<Vec<Pos>>,
        /// The first rule the path breaks, if it is a path.
        violation: Option<Violation>,
    },
}

/// Why a search answered [`Verdict::Unknown`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Undecided {
    /// The timeout or the cancel flag came first.
    Interrupted,
    /// The formula of `horizon` moves is beyond the encoding's limits, so the
    /// search stopped there: a least-horizon search climbing to it (every
    /// horizon below it refuted), or the satisficing search's whole-plan
    /// formula up to `horizon` moves, with no plan constructed. (A fixed
    /// horizon beyond the limits is a request refused: [`PlanError::Encode`].)
    FormulaLimit {
        /// The horizon whose formula was not built.
        horizon: usize,
        /// The limit, as the encoding reports it.
        error: EncodeError,
    },
    /// An approximate encoding has no model at the last horizon tried (that
    /// attempt is `unsat`), which proves nothing about the game: its formula
    /// may exclude legal plans.
    ApproximateRefutation,
    /// [`Search::Satisficing`]: no plan was constructed, and the whole-plan
    /// formulas the search builds, up to `moves` moves (fewer than the
    /// largest horizon allowed), have none.
    FormulasExhausted {
        /// The largest horizon the search's formulas reach.
        moves: usize,
    },
}

impl Undecided {
    /// A short name for machine-readable output (the `reason` key of
    /// `solve --json`, as its watchdog's `{"status":"unknown","reason":"timeout"}`):
    /// `timeout` (the timeout or the cancel flag), `formula_limit`,
    /// `approximate_refutation` or `formulas_exhausted`.
    pub fn key(&self) -> &'static str {
        match self {
            Undecided::Interrupted => "timeout",
            Undecided::FormulaLimit { .. } => "formula_limit",
            Undecided::ApproximateRefutation => "approximate_refutation",
            Undecided::FormulasExhausted { .. } => "formulas_exhausted",
        }
    }
}

/// The answer of [`Planner::plan`].
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// The conclusion.
    pub verdict: Verdict,
    /// The proven lower bound on the moves; `None` when the apples can never
    /// all be eaten (some apple never, see [`crate::encode::prune::lower_bound`],
    /// or, for a search of any length, no reachable state has them all, see
    /// [`crate::reachable`]): then there is no plan at any horizon. The
    /// JSON's `lower_bound`.
    pub lower_bound: Option<usize>,
    /// Every horizon tried, in order.
    pub attempts: Vec<Attempt>,
    /// The search that answered ([`Planner::search_for`]): what "no plan"
    /// speaks of, and what [`crate::proof::certify_search`] certifies.
    pub search: Search,
}

impl Outcome {
    /// The solver's verdict: `Sat` for a plan or an illegal model.
    pub fn status(&self) -> Status {
        match self.verdict {
            Verdict::Plan(_) | Verdict::IllegalModel { .. } => Status::Sat,
            Verdict::NoPlan { .. } => Status::Unsat,
            Verdict::Unknown(_) => Status::Unknown,
        }
    }

    /// The horizon an answer speaks of: the plan's (or the illegal model's)
    /// moves; the horizon whose formula is beyond the limits
    /// ([`Undecided::FormulaLimit`]) or up to which the formulas were built
    /// ([`Undecided::FormulasExhausted`]); else, without a plan, the largest
    /// horizon tried or, when none was (an answer without a formula), the
    /// largest allowed for "no plan" and the lower bound for "unknown"
    /// (where the search would have started).
    pub fn horizon(&self) -> usize {
        match &self.verdict {
            Verdict::Plan(plan) => plan.horizon,
            Verdict::IllegalModel { horizon, .. } => *horizon,
            Verdict::NoPlan { within } => *within,
            Verdict::Unknown(Undecided::FormulaLimit { horizon, .. }) => *horizon,
            Verdict::Unknown(Undecided::FormulasExhausted { moves }) => *moves,
            // (An unknown answer has a finite bound: an infinite one is "no plan".)
            Verdict::Unknown(_) => self
                .attempts
                .last()
                .map(|a| a.horizon)
                .or(self.lower_bound)
                .unwrap_or(usize::MAX),
        }
    }

    /// For [`Verdict::IllegalModel`], why the model proves nothing (the
    /// error `solve` prints), given the encoding that answered; `None` for
    /// every other verdict.
    pub fn model_error(&self, encoding: &dyn Encoding) -> Option<ModelError> {
        let Verdict::IllegalModel {
            horizon, violation, ..
        } = &self.verdict
        else {
            return None;
        };
        let (encoding, approximate, horizon) = (encoding.name(), encoding.approximate(), *horizon);
        Some(match violation {
            None => ModelError::NotAPath {
                encoding,
                approximate,
                horizon,
            },
            Some(violation) => ModelError::IllegalPlan {
                encoding,
                approximate,
                horizon,
                violation: violation.clone(),
            },
        })
    }

    /// The least number of moves a plan can have, as far as this answer
    /// proves: the lower bound, raised past every horizon the search refuted
    /// from it (`None` when no plan exists at any horizon).
    pub fn no_plan_below(&self) -> Option<usize> {
        self.lower_bound
            .map(|bound| solve::first_unrefuted(&self.attempts, bound))
    }

    /// The checked plan, if any.
    pub fn plan(&self) -> Option<&Plan> {
        match &self.verdict {
            Verdict::Plan(plan) => Some(plan),
            _ => None,
        }
    }

    /// The sizes of the last formula tried, with build and solve times summed
    /// over every attempt.
    pub fn stats(&self) -> Stats {
        let mut stats = self
            .attempts
            .last()
            .map(|a| a.stats.clone())
            .unwrap_or_default();
        // A fold from 0.0: the float `sum` of no attempts is −0.0, printed "-0.000".
        let total = |f: fn(&Stats) -> f64| self.attempts.iter().fold(0.0, |t, a| t + f(&a.stats));
        stats.build_seconds = total(|s| s.build_seconds);
        stats.solve_seconds = total(|s| s.solve_seconds);
        stats
    }
}

/// The planner: an encoding and the options of one search (see the crate
/// documentation for an example). It is `Send`: a planner (or a boxed
/// encoding from [`crate::encode::by_name`]) can be moved into a worker
/// thread to plan there.
///
/// An instance with a [`horizon`](Instance::horizon) asks for a plan of
/// exactly that many moves ([`Search::FixedHorizon`]), as `snakesat solve`
/// does; without one, for the least ([`Search::Optimal`]). A search given
/// with [`Planner::search`] is asked instead, whatever the instance's
/// horizon: [`Planner::search_for`] is the rule.
pub struct Planner<'a> {
    encoding: &'a dyn Encoding,
    /// `None`: the instance's own ([`Planner::search_for`]).
    search: Option<Search>,
    method: Method,
    timeout: Option<Duration>,
    /// `None`: the search's own ([`Planner::max_horizon`]).
    max_horizon: Option<usize>,
    config: Option<CadicalConfig>,
    shortcut: bool,
    fallback_plan: bool,
    proof_dir: Option<&'a Path>,
    progress: Option<Progress<'a>>,
    on_plan: Option<OnPlan>,
    cancel: Option<Arc<AtomicBool>>,
    threads: Option<usize>,
}

/// Every option, and whether a callback is set.
impl std::fmt::Debug for Planner<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Planner")
            .field("encoding", &self.encoding)
            .field("search", &self.search)
            .field("method", &self.method)
            .field("timeout", &self.timeout)
            .field("max_horizon", &self.max_horizon)
            .field("config", &self.config)
            .field("shortcut", &self.shortcut)
            .field("fallback_plan", &self.fallback_plan)
            .field("proof_dir", &self.proof_dir)
            .field("on_attempt", &self.progress.is_some())
            .field("on_plan", &self.on_plan.is_some())
            .field("cancel_flag", &self.cancel)
            .field("threads", &self.threads)
            .finish()
    }
}

/// The largest horizon [`Search::Optimal`] tries unless told otherwise
/// ([`Planner::max_horizon`]; `solve --max-horizon`'s default for the
/// least-horizon search). [`Search::Satisficing`] tries up to
/// [`MAX_HORIZON`], as `solve --satisficing` does.
pub const DEFAULT_MAX_HORIZON: usize = 300;

/// The callback of [`Planner::on_attempt`] (`Send`, as the planner is).
type Progress<'a> = Box<dyn FnMut(&Attempt) + Send + 'a>;

impl<'a> Planner<'a> {
    /// A planner for `encoding`: the instance's own search
    /// ([`Planner::search_for`]: [`Search::Optimal`] unless it has a horizon)
    /// with [`Method::Auto`], no timeout, each search's own largest horizon
    /// ([`Planner::max_horizon`]) and each search's
    /// own CaDiCaL configuration ([`Planner::cadical_config`]).
    pub fn new(encoding: &'a dyn Encoding) -> Self {
        Planner {
            encoding,
            search: None,
            method: Method::Auto,
            timeout: None,
            max_horizon: None,
            config: None,
            shortcut: true,
            fallback_plan: true,
            proof_dir: None,
            progress: None,
            on_plan: None,
            cancel: None,
            threads: None,
        }
    }

    /// Which question to ask, whatever the instance's
    /// [`horizon`](Instance::horizon) (without it, [`Planner::search_for`]
    /// decides from the instance).
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn search(mut self, search: Search) -> Self {
        self.search = Some(search);
        self
    }

    /// The search [`Planner::plan`] runs on `instance`: the one given to
    /// [`Planner::search`]; else [`Search::FixedHorizon`] of the instance's
    /// [`horizon`](Instance::horizon) when it has one, and
    /// [`Search::Optimal`] when not.
    pub fn search_for(&self, instance: &Instance) -> Search {
        match (self.search, instance.horizon) {
            (Some(search), _) => search,
            (None, Some(t)) => Search::FixedHorizon(t),
            (None, None) => Search::Optimal,
        }
    }

    /// How [`Search::Optimal`] climbs the horizons.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn method(mut self, method: Method) -> Self {
        self.method = method;
        self
    }

    /// Gives up after `timeout` from the start of [`Planner::plan`] (verdict
    /// `Unknown`); with [`Search::Satisficing`], the best plan found by then (every phase, the
    /// first plan included, stops at it). [`Search::Optimal`] with an
    /// incremental, exact encoding keeps the last tenth of the timeout
    /// (at most 5 s) for the satisficing search: when the
    /// climb has found no plan by then, that search's best plan is the
    /// answer, proven least only if every horizon below it was refuted
    /// ([`Planner::fallback_plan`] turns this off).
    ///
    /// The searches look at the clock between solver calls and CaDiCaL
    /// inside its search, but building a formula and loading it into the
    /// solver cannot be interrupted: a formula of millions of clauses begun
    /// just before the deadline can overrun it by seconds (the `snakesat`
    /// binary adds a watchdog for that; a program that needs a hard bound
    /// caps the horizon or the board, or runs the planner in a process of
    /// its own).
    ///
    /// A timeout too long for the clock (such as [`Duration::MAX`]) is no limit.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn timeout(mut self, timeout: Option<Duration>) -> Self {
        self.timeout = timeout;
        self
    }

    /// Stops the search once `flag` is raised, from any thread (a "Stop"
    /// button, a client gone, a signal): the answer is then the one at a
    /// timeout (verdict `Unknown`; with [`Search::Satisficing`], the best
    /// plan found by then). The solvers and the searches' steps, the
    /// satisficing search's phases without SAT included (its constructions,
    /// tours and beams), look at the flag as they look at the clock, so the
    /// plan returns within a moment; only a formula being built when it is
    /// raised is finished first (the satisficing search starts none after
    /// it). A flag already raised stops the search before its first
    /// formula. The flag is not lowered: use a new one for the next plan.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn cancel_flag(mut self, flag: Arc<AtomicBool>) -> Self {
        self.cancel = Some(flag);
        self
    }

    /// Runs at most `threads` threads at once (0 counts as 1, more than
    /// [`crate::game::MAX_THREADS`] as that many) in every parallel phase
    /// the planner starts: the fresh-formula search's workers, one per
    /// horizon at most (with [`Planner::certify_into`], its certificates
    /// too), and the satisficing search's beams and workers. The default is
    /// one per core. The answers do not depend on it, only how fast they
    /// come (and, for [`Search::Satisficing`] or at a timeout, what is found
    /// by then).
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads.clamp(1, crate::game::MAX_THREADS));
        self
    }

    /// What the searches share: the deadline of the timeout set now (`None`
    /// without one, or when it lies beyond what the clock can count), the
    /// configuration given or `default`, the cancel flag and the threads.
    fn budget(&self, default: CadicalConfig) -> Budget {
        Budget {
            deadline: self.timeout.and_then(|d| Instant::now().checked_add(d)),
            config: self.config.unwrap_or(default),
            cancel: self.cancel.clone(),
            threads: self.threads,
            anytime: None,
        }
    }

    /// The largest horizon [`Search::Optimal`] and [`Search::Satisficing`]
    /// try, at most [`MAX_HORIZON`] (larger values count as it). Without
    /// it, [`DEFAULT_MAX_HORIZON`] for the least plan (it climbs horizon by
    /// horizon, so its default is modest) and [`MAX_HORIZON`] for a
    /// satisficing one (a plan fast, however long: it was 300 for both, and
    /// a satisficing search of an instance whose least plan is longer
    /// answered "no plan"), as `solve` and `solve --satisficing` do. The
    /// satisficing plan a least-horizon search falls back on when its
    /// deadline stops the climb ([`Planner::fallback_plan`]) is held to this
    /// horizon when it is given, else to [`MAX_HORIZON`] (it was held to
    /// [`DEFAULT_MAX_HORIZON`], and IPC-2018 satisficing 19 and 20 lost
    /// their 304- and 457-move plans to "unknown").
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn max_horizon(mut self, max_horizon: usize) -> Self {
        self.max_horizon = Some(max_horizon.min(MAX_HORIZON));
        self
    }

    /// The CaDiCaL configuration of every solver. Without it, each search
    /// uses its own: [`CadicalConfig::Unsat`] for the incremental
    /// least-horizon search (it refutes horizon after horizon; 1.5–2 times
    /// faster than the default one on IPC-2018 optimal 7, 13, 17 and 18, see
    /// docs/ipc2018.md, "Other boards") and for the least-horizon search of a full board (fresh
    /// formulas, mostly refuted), CaDiCaL's default elsewhere.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn cadical_config(mut self, config: CadicalConfig) -> Self {
        self.config = Some(config);
        self
    }

    /// With `false`, [`Search::FixedHorizon`] solves only the full formula at
    /// its horizon. With `true` (the default) it first tries, for at most a
    /// second, the least plan of fewer moves (horizons from the lower bound
    /// up, small formulas; only the bound when the horizon is within a few
    /// moves of it) followed by a legal continuation (a short search, or one
    /// more small formula); failing that, the full formula.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn shortcut(mut self, shortcut: bool) -> Self {
        self.shortcut = shortcut;
        self
    }

    /// With `false`, [`Search::Optimal`] under a timeout gets the whole time
    /// and answers `Unknown` when it runs out. With `true` (the default) it
    /// keeps the end of the time for the satisficing search's plan (see
    /// [`Planner::timeout`]). A caller that wants the least horizon or
    /// nothing, such as a benchmark generator labelling its formulas, turns
    /// it off.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn fallback_plan(mut self, fallback_plan: bool) -> Self {
        self.fallback_plan = fallback_plan;
        self
    }

    /// Writes certificates into `dir` as the search goes, where it can: the
    /// fresh-formula search ([`Method::Fresh`], and full boards by default)
    /// solves every horizon with a CaDiCaL that traces a DRAT proof, so each
    /// refuted horizon's [`Attempt::certificate`] is set without a second
    /// solve. Other searches leave it to [`crate::proof::certify_search`],
    /// which completes the certification in both cases.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn certify_into(mut self, dir: Option<&'a Path>) -> Self {
        self.proof_dir = dir;
        self
    }

    /// Calls `progress` after every horizon tried. The callback is `Send`,
    /// so that the planner is: it can be moved into another thread.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn on_attempt(mut self, progress: impl FnMut(&Attempt) + Send + 'a) -> Self {
        self.progress = Some(Box::new(progress));
        self
    }

    /// Calls `on_plan` with each plan [`Search::Satisficing`] finds that is
    /// shorter than every one before it, as soon as it is found (the cells
    /// of the head's path, one per time point, legal by the simulator and
    /// within the largest horizon), so that a caller killed before the
    /// answer has the best plan so far: `solve --satisficing --plan FILE`
    /// writes each to `FILE.1`, `FILE.2`, …. The answer's plan is always
    /// the last one passed. Other searches do not call it. It may be called
    /// from any of the search's threads, one call at a time.
    #[must_use = "a Planner is a builder: the planner with this option is returned"]
    pub fn on_plan(mut self, on_plan: impl Fn(&[Pos]) + Send + Sync + 'static) -> Self {
        self.on_plan = Some(Arc::new(on_plan));
        self
    }

    /// What [`Planner::plan`] refuses before any work, without planning: an
    /// instance that breaks a rule of the model ([`Instance::validate`]), a
    /// fixed horizon beyond [`MAX_HORIZON`], an instance the encoding does
    /// not accept, or a search or method the encoding cannot run. A caller
    /// that prepares something before planning (`solve` removes an earlier
    /// run's plan files) asks first.
    pub fn check(&self, instance: &Instance) -> Result<(), PlanError> {
        instance.validate()?;
        let search = self.search_for(instance);
        if let Search::FixedHorizon(t) = search {
            check_horizon(t)?;
        }
        // Whether the flags fit the encoding and the instance does not
        // depend on the answer (which may need no formula).
        let encoding = self.encoding;
        encoding.accepts(instance)?;
        let incremental = encoding.capabilities().incremental;
        let refuse = |search| PlanError::NotIncremental {
            search,
            encoding: encoding.name(),
        };
        if self.method == Method::Incremental && !incremental {
            return Err(refuse("incremental"));
        }
        if search == Search::Satisficing && !incremental {
            return Err(refuse("satisficing"));
        }
        Ok(())
    }

    /// Plans `instance` with the search [`Planner::search_for`] gives and
    /// checks the plan with the simulator. An instance
    /// that breaks a rule of the model ([`Instance::validate`]), or a fixed
    /// horizon beyond [`MAX_HORIZON`], is refused ([`PlanError::Instance`]).
    /// It takes `&mut self` for the [`Planner::on_attempt`] callback, an
    /// `FnMut`; one planner plans any number of instances in turn.
    pub fn plan(&mut self, instance: &Instance) -> Result<Outcome, PlanError> {
        self.check(instance)?;
        let search = self.search_for(instance);
        let encoding = self.encoding;
        let incremental = encoding.capabilities().incremental;
        let budget = self.budget(CadicalConfig::Default);
        // `usize::MAX` below: no apple-eating plan at any horizon.
        let mut proven = prune::lower_bound(instance).unwrap_or(usize::MAX);
        let any_length = matches!(search, Search::Optimal | Search::Satisficing);
        // No apple: the goal holds at once, so the least plan has no move (a
        // fixed horizon still asks for a legal walk of exactly its moves).
        if instance.apples.is_empty() && any_length {
            let outcome = no_move_plan(instance, search);
            // (The satisficing search's one plan is passed on too.)
            if let (Search::Satisficing, Some(on_plan), Some(plan)) =
                (search, &self.on_plan, outcome.plan())
            {
                on_plan(&plan.path);
            }
            return Ok(outcome);
        }
        // A state space small enough to list may show that no plan of any
        // length exists, which no horizon's formula can say.
        if any_length
            && proven != usize::MAX
            && reachable::explore_within(instance, listing_room(instance), &budget)
                == Ok(Reachable::Never)
        {
            proven = usize::MAX;
        }
        let (lower, upper) = match search {
            Search::FixedHorizon(t) => (t, t),
            Search::Optimal => (proven, self.max_horizon.unwrap_or(DEFAULT_MAX_HORIZON)),
            Search::Satisficing => (proven, self.max_horizon.unwrap_or(MAX_HORIZON)),
        };
        if lower > upper || proven == usize::MAX {
            // Proven without solving: the bound exceeds every horizon allowed.
            return Ok(refuted_by_bound(search, upper, proven));
        }
        let mut progress = |a: &Attempt| {
            if let Some(p) = self.progress.as_mut() {
                p(a)
            }
        };
        // A least-horizon search under a deadline leaves the end of its time
        // to a satisficing plan, the answer (not proven least) when the
        // deadline stops the climb with no plan (see [`with_fallback`]).
        let reserve = (self.fallback_plan
            && search == Search::Optimal
            && incremental
            && !encoding.approximate())
        .then(|| budget.deadline.map(fallback_reserve))
        .flatten();
        let climb = match (budget.deadline, reserve) {
            (Some(deadline), Some(reserve)) => Budget {
                deadline: Some(deadline - reserve),
                ..budget.clone()
            },
            _ => budget.clone(),
        };
        // Where the satisficing search reports each better plan.
        let anytime = match (search, &self.on_plan) {
            (Search::Satisficing, Some(on_plan)) => {
                Some(Arc::new(Anytime::new(instance, upper, on_plan.clone())))
            }
            _ => None,
        };
        let result = match search {
            Search::Satisficing => {
                let formula_moves = upper.min(SATISFICING_FORMULA_MOVES);
                let mut result = solve::satisficing::satisficing(
                    instance,
                    encoding,
                    proven,
                    formula_moves,
                    &Budget {
                        anytime: anytime.clone(),
                        ..budget.clone()
                    },
                    &mut progress,
                )?;
                // Every horizon refuted up to the largest formula built is
                // "no plan" only when that is the largest horizon allowed.
                if result.status == Status::Unsat && formula_moves < upper {
                    result.status = Status::Unknown;
                    result.undecided = Some(Undecided::FormulasExhausted {
                        moves: formula_moves,
                    });
                    // The answer speaks of the largest horizon tried.
                    result.attempts.sort_by_key(|a| a.horizon);
                }
                within(result, upper)
            }
            // The shortcut of a shorter plan walked on to the horizon, out of time.
            Search::FixedHorizon(t) if self.shortcut && t > 0 && budget.expired() => SearchResult {
                status: Status::Unknown,
                attempts: vec![],
                lower_bound: proven,
                undecided: None,
            },
            Search::FixedHorizon(t) => {
                // The least-horizon route starts at one move: zero moves is
                // asked directly; else the shortcut (a shorter plan walked on).
                let solved = if !self.shortcut || t == 0 {
                    solve::solve_at(instance, encoding, t, &budget)
                } else {
                    solve::solve_fixed(instance, encoding, t, &budget)
                };
                match below_bound(solved, t, proven)? {
                    Some(attempt) => {
                        progress(&attempt);
                        SearchResult::from_attempts(vec![attempt], proven)
                    }
                    None => return Ok(refuted_by_bound(search, t, proven)),
                }
            }
            // Fresh formulas on every core: asked for, the only way for the
            // encoding, or (by default) a full board, whose fixed-horizon
            // formulas are much easier than the incremental one.
            Search::Optimal
                if self.method == Method::Fresh
                    || !incremental
                    || (self.method == Method::Auto && ends_full(instance)) =>
            {
                // Full boards: CaDiCaL's `unsat` configuration, as for the
                // incremental search (their refutations are most of the
                // work; docs/ipc2018.md, "Full boards: windows and the `unsat`
                // configuration").
                let climb = if ends_full(instance) {
                    Budget {
                        config: self.config.unwrap_or(CadicalConfig::Unsat),
                        ..climb
                    }
                } else {
                    climb
                };
                solve::parallel::least_horizon_parallel(
                    instance,
                    encoding,
                    lower,
                    upper,
                    proven,
                    &climb,
                    climb.threads(),
                    self.proof_dir,
                    &mut progress,
                )?
            }
            Search::Optimal => {
                let climb = Budget {
                    config: self.config.unwrap_or(CadicalConfig::Unsat),
                    ..climb
                };
                solve::incremental::least_horizon_incremental(
                    instance,
                    encoding,
                    lower,
                    upper,
                    proven,
                    0,
                    &climb,
                    &mut progress,
                )?
            }
        };
        // The fallback is a satisficing search: its plan may be as long as
        // one of `Search::Satisficing`, unless a largest horizon was given.
        let fallback_upper = self.max_horizon.unwrap_or(MAX_HORIZON);
        let result = if reserve.is_some() {
            with_fallback(
                instance,
                encoding,
                result,
                fallback_upper,
                &budget,
                &mut progress,
            )?
        } else {
            result
        };
        let outcome = conclude(instance, search, result, upper, encoding);
        if let (Some(anytime), Verdict::Plan(plan)) = (&anytime, &outcome.verdict) {
            anytime.conclude(&plan.path);
        }
        Ok(outcome)
    }

    /// Answers "is there a plan of exactly `t` moves?" for every `t` of
    /// `horizons`, in increasing order, calling `answer(t, status, path)`:
    /// with one incremental solver for the whole range when
    /// [`Method::Incremental`] is chosen (the encoding must allow it), else
    /// with a fresh formula per horizon. Paths are not checked: callers that
    /// print them replay them in the simulator. The timeout bounds the whole
    /// range: a horizon the solver has not decided by then is answered
    /// `Unknown` (one decided without search, e.g. by unit propagation, may
    /// still be `Unsat` or `Sat`). Refused before any work, as by
    /// [`Planner::plan`] ([`PlanError::Instance`]): an instance that breaks a
    /// rule of the model, and a range reaching beyond [`MAX_HORIZON`].
    pub fn each_horizon(
        &self,
        instance: &Instance,
        horizons: std::ops::RangeInclusive<usize>,
        mut answer: impl FnMut(usize, Status, Option<Vec<Pos>>),
    ) -> Result<(), PlanError> {
        instance.validate()?;
        let budget = self.budget(CadicalConfig::Default);
        let (first, last) = (*horizons.start(), *horizons.end());
        if first > last {
            return Ok(());
        }
        check_horizon(last)?;
        if self.method == Method::Incremental {
            if !self.encoding.capabilities().incremental {
                return Err(PlanError::NotIncremental {
                    search: "incremental",
                    encoding: self.encoding.name(),
                });
            }
            // T = 0 from a fresh formula: when no cell can hold the head at
            // time 1 (a start with no open neighbour), pruning leaves the
            // open formula an empty clause, which has no time to be switched
            // off by, so the session would answer no plan of 0 moves.
            if first == 0 {
                let attempt = solve::solve_at(instance, self.encoding, 0, &budget)?;
                answer(0, attempt.status, attempt.path);
                if last == 0 {
                    return Ok(());
                }
            }
            let first = first.max(1);
            let mut session =
                solve::incremental::Session::new(instance, self.encoding, first, last, &budget)?;
            for t in first..=last {
                let (status, path) = session.ask(instance, t);
                answer(t, status, path);
            }
        } else {
            for t in horizons {
                let attempt = solve::solve_at(instance, self.encoding, t, &budget)?;
                answer(t, attempt.status, attempt.path);
            }
        }
        Ok(())
    }

    /// Solves `cnf`, a formula of this planner's encoding for `instance` at
    /// exactly `moves` moves, with the planner's timeout and configuration:
    /// the status and, if SAT, the head path of the model (`None` when the
    /// model is not a path of `moves` moves on `instance`'s board, e.g. a
    /// formula of another horizon or a larger board). The path is not
    /// replayed: [`crate::sim::simulate`] checks it. More `moves` than
    /// [`MAX_HORIZON`] are refused before solving, as is an invalid
    /// instance, as by [`Planner::plan`] ([`PlanError::Instance`]).
    pub fn solve_formula(
        &self,
        instance: &Instance,
        cnf: &Cnf,
        moves: usize,
    ) -> Result<(Status, Option<Vec<Pos>>), PlanError> {
        instance.validate()?;
        check_horizon(moves)?;
        let variables = cnf.num_vars();
        let bad = cnf
            .flat()
            .iter()
            .find(|&&l| l.unsigned_abs() as usize > variables);
        // A `0` added as a literal ends its clause early: one end too many.
        let ends = cnf.flat().iter().filter(|&&l| l == 0).count() as u64;
        if let Some(&literal) = bad.or((ends != cnf.num_clauses()).then_some(&0)) {
            return Err(PlanError::BadLiteral { literal, variables });
        }
        let (status, values) = solve::run_cadical(cnf, &self.budget(CadicalConfig::Default));
        let on_board = |p: &Vec<Pos>| {
            p.iter()
                .all(|&(x, y)| x < instance.width && y < instance.height)
        };
        let path = values
            .and_then(|v| solve::path_of(instance, cnf, &v, moves).ok())
            .filter(on_board);
        Ok((status, path))
    }
}

/// Refuses a horizon beyond [`MAX_HORIZON`], which no path decodes at.
fn check_horizon(t: usize) -> Result<(), PlanError> {
    if t > MAX_HORIZON {
        return Err(InstanceError::HugeHorizon(t).into());
    }
    Ok(())
}

/// A fixed horizon's attempt, or `None` when its formula exceeds the
/// encoding's limits below the proven lower bound `proven`: the bound
/// alone refutes that horizon, so the limit does not stand in the way of
/// the answer ([`refuted_by_bound`]). Other errors pass on.
fn below_bound(
    solved: Result<Attempt, EncodeError>,
    t: usize,
    proven: usize,
) -> Result<Option<Attempt>, PlanError> {
    match solved {
        Ok(attempt) => Ok(Some(attempt)),
        Err(EncodeError::TooBig { .. }) if t < proven => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// "No plan within `within` moves", proven without solving by the lower
/// bound `proven` (`usize::MAX`: the apples can never all be eaten).
fn refuted_by_bound(search: Search, within: usize, proven: usize) -> Outcome {
    Outcome {
        search,
        verdict: Verdict::NoPlan { within },
        lower_bound: (proven != usize::MAX).then_some(proven),
        attempts: vec![],
    }
}

/// The largest horizon of a formula the satisficing search builds (its
/// plans may be longer: they come from constructions and beams, and from
/// formulas over parts of the plan). Building a formula cannot be stopped
/// at the deadline, and the search doubles its horizon while no plan is
/// known, so the horizon is capped apart from the longest plan returned.
const SATISFICING_FORMULA_MOVES: usize = 300;

/// The share of the time left that a least-horizon search under a deadline
/// keeps for its fallback plan ([`with_fallback`]), at most
/// [`FALLBACK_MAX_SECONDS`]. There is no minimum: a short limit keeps a
/// short share (the first plan of a 12x12 board with 40 apples takes about
/// 0.02 s), and a limit of exactly some value must not fall below a minimum
/// because reading the problem took a few milliseconds of it.
const FALLBACK_SHARE: f64 = 0.1;

/// See [`FALLBACK_SHARE`]. (IPC-2018's full boards get a first satisficing
/// plan within about 0.1–0.2 s, 12x12 boards with 40 apples within 0.02 s.)
const FALLBACK_MAX_SECONDS: f64 = 5.0;

/// The end of the time left before `deadline` that [`with_fallback`] keeps.
fn fallback_reserve(deadline: Instant) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .mul_f64(FALLBACK_SHARE)
        .min(Duration::from_secs_f64(FALLBACK_MAX_SECONDS))
}

/// A least-horizon search that its deadline stopped with no plan gets the
/// satisficing search's best plan within the time kept for it (until the
/// planner's deadline). The horizons the climb refuted stay in the answer,
/// so the plan is proven least when every horizon below it was refuted, by
/// either search. A cancelled search, one stopped by a formula limit, and
/// one that found a plan or refuted every horizon are left as they are.
fn with_fallback(
    instance: &Instance,
    encoding: &dyn Encoding,
    climb: SearchResult,
    upper: usize,
    budget: &Budget,
    progress: &mut impl FnMut(&Attempt),
) -> Result<SearchResult, PlanError> {
    if climb.status != Status::Unknown
        || !matches!(climb.undecided, None | Some(Undecided::Interrupted))
        || budget.cancelled()
    {
        return Ok(climb);
    }
    let formula_moves = upper.min(SATISFICING_FORMULA_MOVES);
    // The climb's refutations raise the bound the satisficing search's
    // descent goes down to (within the formulas it builds).
    let bound = Some(solve::first_unrefuted(&climb.attempts, climb.lower_bound))
        .filter(|&b| b <= formula_moves)
        .unwrap_or(climb.lower_bound);
    let found = within(
        solve::satisficing::satisficing(
            instance,
            encoding,
            bound,
            formula_moves,
            budget,
            progress,
        )?,
        upper,
    );
    Ok(joined(climb, found))
}

/// The climb's answer with the fallback's plan, if it has one: the attempts
/// below the plan, one per horizon (a refutation if either search has one),
/// then the plan, so that [`SearchResult::optimal`] sees both searches'
/// refutations.
fn joined(climb: SearchResult, found: SearchResult) -> SearchResult {
    let Some(plan) = found.plan().cloned() else {
        return climb;
    };
    let mut attempts: Vec<Attempt> = climb
        .attempts
        .into_iter()
        .chain(found.attempts)
        .filter(|a| a.horizon < plan.horizon)
        .collect();
    attempts.sort_by_key(|a| (a.horizon, a.status != Status::Unsat));
    attempts.dedup_by_key(|a| a.horizon);
    attempts.push(plan);
    SearchResult {
        status: Status::Sat,
        attempts,
        lower_bound: climb.lower_bound,
        undecided: None,
    }
}

/// A satisficing result held to the largest horizon allowed: its first
/// plans come from constructions that know no horizon, so a plan longer than
/// `upper` is dropped. The answer is then "no plan within `upper`" if every
/// shorter horizon was refuted, else unknown.
fn within(mut result: SearchResult, upper: usize) -> SearchResult {
    if result.plan().is_some_and(|a| a.horizon > upper) {
        let proven = result.optimal();
        result.attempts.retain(|a| a.horizon <= upper);
        // The answer speaks of the largest horizon tried.
        result.attempts.sort_by_key(|a| a.horizon);
        result.status = if proven {
            Status::Unsat
        } else {
            Status::Unknown
        };
    }
    result
}

/// The least plan of an instance without apples: no move, from the start
/// cell (a free start's first one), proven least without solving (lower
/// bound 0, no attempt).
fn no_move_plan(instance: &Instance, search: Search) -> Outcome {
    let path = prune::start_cells(instance, &instance.wall_map())[..1].to_vec();
    let replay = sim::simulate(instance, &path).expect("the start holds with no apple to eat");
    Outcome {
        search,
        verdict: Verdict::Plan(Plan {
            path,
            horizon: 0,
            optimal: true,
            replay,
        }),
        lower_bound: Some(0),
        attempts: vec![],
    }
}

/// The room of the planner's listing of reachable states: more where the
/// final snake fills the board (either tail rule), where each refuted
/// horizon costs seconds ([`reachable::MAX_KEPT_CELLS_FULL_BOARD`]).
fn listing_room(instance: &Instance) -> usize {
    if crate::encode::full::fills_board(instance) {
        reachable::MAX_KEPT_CELLS_FULL_BOARD
    } else {
        reachable::MAX_KEPT_CELLS
    }
}

/// The verdict of a finished search: its plan checked by the simulator.
/// An `approximate` encoding's refutations prove nothing about the game
/// (its formula may exclude legal plans): its "no model" is no answer unless
/// the lower bound exceeds every horizon asked, and its plan is least only
/// when no longer than the bound.
fn conclude(
    instance: &Instance,
    search: Search,
    result: SearchResult,
    upper: usize,
    encoding: &dyn Encoding,
) -> Outcome {
    let optimal = if encoding.approximate() {
        result
            .plan()
            .is_some_and(|a| a.horizon <= result.lower_bound)
    } else {
        result.optimal()
    };
    let verdict = match result.status {
        Status::Unsat
            if !encoding.unsat_proves_no_plan(
                upper,
                (result.lower_bound != usize::MAX).then_some(result.lower_bound),
            ) =>
        {
            Verdict::Unknown(Undecided::ApproximateRefutation)
        }
        Status::Unsat => Verdict::NoPlan { within: upper },
        Status::Unknown => Verdict::Unknown(result.undecided.unwrap_or(Undecided::Interrupted)),
        Status::Sat => {
            let attempt = result.plan().expect("a SAT search ends with its plan");
            let horizon = attempt.horizon;
            match attempt.path.clone() {
                None => Verdict::IllegalModel {
                    horizon,
                    path: None,
                    violation: None,
                },
                Some(path) => match sim::simulate(instance, &path) {
                    Ok(replay) => Verdict::Plan(Plan {
                        path,
                        horizon,
                        optimal,
                        replay,
                    }),
                    Err(v) => Verdict::IllegalModel {
                        horizon,
                        path: Some(path),
                        violation: Some(v),
                    },
                },
            }
        }
    };
    Outcome {
        search,
        verdict,
        // (Finite: an infinite bound is answered before any search.)
        lower_bound: Some(result.lower_bound),
        attempts: result.attempts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::by_name;
    use crate::instance::json::from_json;

    /// Lower bound 4, least plan 6 moves.
    const SMALL: &str = r#"{"width": 3, "height": 3, "snake": [[0, 0], [1, 0], [2, 0]],
        "apples": [[1, 1], [0, 0]], "visible": 1, "tail": "strict"}"#;

    /// An attempt at `horizon` with `status` (a one-cell path when SAT).
    fn attempt(horizon: usize, status: Status) -> Attempt {
        Attempt {
            horizon,
            status,
            stats: Stats::default(),
            path: (status == Status::Sat).then(|| vec![(0, 0)]),
            config: CadicalConfig::Default,
            certificate: None,
        }
    }

    fn result(status: Status, attempts: Vec<Attempt>) -> SearchResult {
        SearchResult {
            status,
            attempts,
            lower_bound: 4,
            undecided: None,
        }
    }

    /// The fallback keeps a tenth of the time left, at most 5 s, with no
    /// minimum: a limit of 1 s less the milliseconds of reading the problem
    /// still keeps about 0.1 s (it kept nothing below 1 s left).
    #[test]
    fn the_fallback_keeps_a_tenth_of_any_time_left() {
        let now = Instant::now();
        for (left, most, least) in [
            (0.99, 0.099, 0.09),
            (0.3, 0.03, 0.025),
            (20.0, 2.0, 1.99),
            (600.0, 5.0, 5.0),
        ] {
            let kept = fallback_reserve(now + Duration::from_secs_f64(left)).as_secs_f64();
            assert!(least <= kept && kept <= most, "{left} s left: {kept}");
        }
        assert_eq!(fallback_reserve(now), Duration::ZERO);
    }

    #[test]
    fn a_fallback_plan_is_least_only_when_every_horizon_below_it_is_refuted() {
        use Status::{Sat, Unknown, Unsat};
        // The climb refuted 4 and 5 and was stopped at 6.
        let climb = || {
            result(
                Unknown,
                vec![attempt(4, Unsat), attempt(5, Unsat), attempt(6, Unknown)],
            )
        };
        // A plan of 6 moves (the satisficing search's best after one of 9):
        // least, since the climb refuted 4 and 5.
        let found = result(Sat, vec![attempt(9, Sat), attempt(6, Sat)]);
        let both = joined(climb(), found);
        assert_eq!(both.status, Sat);
        assert_eq!(both.plan().map(|a| a.horizon), Some(6));
        assert!(both.optimal());
        // A plan of 7 moves whose search refuted 6: least, by both searches.
        let found = result(Sat, vec![attempt(6, Unsat), attempt(7, Sat)]);
        let both = joined(climb(), found);
        let horizons: Vec<_> = both
            .attempts
            .iter()
            .map(|a| (a.horizon, a.status))
            .collect();
        assert_eq!(horizons, [(4, Unsat), (5, Unsat), (6, Unsat), (7, Sat)]);
        assert!(both.optimal());
        // A plan of 9 moves: 7 and 8 were never asked.
        let found = result(Sat, vec![attempt(9, Sat)]);
        assert!(!joined(climb(), found).optimal());
        // No plan: the climb's answer as it was.
        let found = result(Unknown, vec![attempt(8, Unknown)]);
        let kept = joined(climb(), found);
        assert_eq!(kept.status, Unknown);
        assert_eq!(kept.attempts.len(), 3);
    }

    #[test]
    fn configuration_names_parse_in_one_place() {
        for c in CadicalConfig::ALL {
            assert_eq!(c.name().parse::<CadicalConfig>().ok(), Some(c));
        }
        assert!(matches!(
            "nosuch".parse::<CadicalConfig>(),
            Err(PlanError::UnknownConfig(name)) if name == "nosuch"
        ));
    }

    #[test]
    fn every_search_uses_the_configuration_given() {
        let instance = from_json(SMALL).unwrap();
        let direct = by_name("direct").unwrap();
        for search in [
            Search::Satisficing,
            Search::Optimal,
            Search::FixedHorizon(8),
        ] {
            for method in [Method::Incremental, Method::Fresh] {
                let outcome = Planner::new(&*direct)
                    .search(search)
                    .method(method)
                    .cadical_config(CadicalConfig::Unsat)
                    .plan(&instance)
                    .unwrap();
                assert!(outcome.plan().is_some(), "{search:?} {method:?}");
                assert!(!outcome.attempts.is_empty());
                for a in &outcome.attempts {
                    assert_eq!(a.config, CadicalConfig::Unsat, "{search:?} {method:?}");
                }
            }
        }
    }

    /// Without a configuration given, the incremental least-horizon search
    /// runs CaDiCaL's `unsat` one and every other search the default one.
    #[test]
    fn each_search_has_its_own_default_configuration() {
        let instance = from_json(SMALL).unwrap();
        let direct = by_name("direct").unwrap();
        for (search, method, expected) in [
            (Search::Optimal, Method::Incremental, CadicalConfig::Unsat),
            (Search::Optimal, Method::Auto, CadicalConfig::Unsat),
            (Search::Optimal, Method::Fresh, CadicalConfig::Default),
            (Search::Satisficing, Method::Auto, CadicalConfig::Default),
            (
                Search::FixedHorizon(8),
                Method::Auto,
                CadicalConfig::Default,
            ),
        ] {
            let outcome = Planner::new(&*direct)
                .search(search)
                .method(method)
                .plan(&instance)
                .unwrap();
            assert!(outcome.plan().is_some(), "{search:?} {method:?}");
            for a in &outcome.attempts {
                assert_eq!(a.config, expected, "{search:?} {method:?}");
            }
        }
    }

    #[test]
    fn least_plan_is_proven_and_checked() {
        let instance = from_json(SMALL).unwrap();
        let direct = by_name("direct").unwrap();
        let mut seen = Vec::new();
        let outcome = Planner::new(&*direct)
            .on_attempt(|a| seen.push(a.horizon))
            .plan(&instance)
            .unwrap();
        let plan = outcome.plan().expect("a plan");
        assert_eq!(plan.horizon, 6);
        assert!(plan.optimal);
        assert_eq!(plan.path.len(), 7);
        assert_eq!(plan.eaten().len(), 2);
        assert_eq!(outcome.lower_bound, Some(4));
        assert_eq!(seen, [4, 5, 6]);
    }

    /// Every search of plans of any length: the least-horizon one by its
    /// default route and by fresh formulas, and the satisficing one.
    const ANY_LENGTH: [(Search, Method); 3] = [
        (Search::Optimal, Method::Auto),
        (Search::Optimal, Method::Fresh),
        (Search::Satisficing, Method::Auto),
    ];

    /// An apple behind walls is "no plan" in every search, even without a
    /// limit on the horizon (the incremental search panicked, the fresh one
    /// said unknown, the satisficing one built a formula of 2^63 moves).
    #[test]
    fn an_unreachable_apple_is_no_plan_at_any_max_horizon() {
        let instance = from_json(
            r#"{"width": 4, "height": 4, "snake": [[0, 0]], "walls": [[2, 3], [3, 2]], "apples": [[3, 3]]}"#,
        )
        .unwrap();
        let direct = by_name("direct").unwrap();
        for (search, method) in ANY_LENGTH {
            let outcome = Planner::new(&*direct)
                .search(search)
                .method(method)
                .max_horizon(usize::MAX)
                .plan(&instance)
                .unwrap();
            assert_eq!(outcome.lower_bound, None);
            assert!(
                matches!(
                    outcome.verdict,
                    Verdict::NoPlan {
                        within: MAX_HORIZON
                    }
                ),
                "{search:?} {method:?}: {:?}",
                outcome.verdict
            );
        }
    }

    /// A satisficing search looks beyond the least-plan search's default
    /// largest horizon, as `solve --satisficing` does: an instance whose
    /// least plan has over 300 moves was "no plan within 300" from the
    /// library and a plan from the command line.
    #[test]
    fn a_satisficing_search_finds_plans_longer_than_the_optimal_default() {
        // Apples near opposite corners of a 20x20 board: at least 338 moves.
        let instance = from_json(
            r#"{"width": 20, "height": 20, "snake": [[10, 10]], "visible": 1,
                "apples": [[19, 19], [0, 0], [19, 18], [0, 1], [18, 19], [1, 0], [19, 17], [0, 2], [17, 19], [2, 0]]}"#,
        )
        .unwrap();
        let direct = by_name("direct").unwrap();
        let satisficing = Planner::new(&*direct)
            .search(Search::Satisficing)
            .plan(&instance)
            .unwrap();
        let Verdict::Plan(plan) = &satisficing.verdict else {
            panic!("{:?}", satisficing.verdict);
        };
        assert!(plan.horizon >= 338, "{}", plan.horizon);
        assert!(crate::sim::simulate(&instance, &plan.path).is_ok());
        // The least-plan search keeps its own default, which it says.
        let optimal = Planner::new(&*direct).plan(&instance).unwrap();
        assert!(
            matches!(
                optimal.verdict,
                Verdict::NoPlan {
                    within: DEFAULT_MAX_HORIZON
                }
            ),
            "{:?}",
            optimal.verdict
        );
    }

    /// Without apples the least plan has no move, whether the snake can move
    /// or not, in every search (the satisficing one panicked on a snake that
    /// cannot move, the others said 1 move or no plan); a fixed horizon is a
    /// walk of exactly its moves, not proven least.
    #[test]
    fn no_apples_is_a_plan_of_no_move() {
        let direct = by_name("direct").unwrap();
        for text in [
            r#"{"width": 1, "height": 2, "snake": [[0, 1], [0, 0]], "apples": [], "tail": "strict"}"#,
            r#"{"width": 4, "height": 3, "snake": [[0, 1], [0, 0]], "apples": []}"#,
            r#"{"width": 3, "height": 3, "length": 2, "walls": [[0, 0]], "apples": []}"#,
        ] {
            let instance = from_json(text).unwrap();
            assert_eq!(prune::lower_bound(&instance), Some(0));
            for (search, method) in ANY_LENGTH {
                let outcome = Planner::new(&*direct)
                    .search(search)
                    .method(method)
                    .plan(&instance)
                    .unwrap();
                let plan = outcome.plan().expect("a plan");
                assert_eq!((plan.horizon, plan.optimal), (0, true), "{text} {search:?}");
                assert_eq!(plan.path.len(), 1);
                assert_eq!(outcome.lower_bound, Some(0));
            }
        }
        let walk =
            from_json(r#"{"width": 4, "height": 3, "snake": [[0, 1], [0, 0]], "apples": []}"#)
                .unwrap();
        let outcome = Planner::new(&*direct)
            .search(Search::FixedHorizon(1))
            .plan(&walk)
            .unwrap();
        let plan = outcome.plan().expect("a walk of one move");
        assert_eq!((plan.horizon, plan.optimal), (1, false));
    }

    /// A satisficing search whose formulas refute every horizon up to the
    /// largest one allowed proves "no plan" within it (it said unknown).
    #[test]
    fn satisficing_refuting_every_horizon_is_no_plan() {
        // The snake must wind out of its own coils: 2 moves by the lower
        // bound, 8 in fact (its few states, listed, have a plan).
        let instance = from_json(
            r#"{"width": 4, "height": 3, "snake": [[2, 0], [1, 0], [1, 1], [2, 1], [2, 2], [3, 2]],
                "apples": [[0, 0]], "tail": "strict"}"#,
        )
        .unwrap();
        let direct = by_name("direct").unwrap();
        let within = |max| {
            Planner::new(&*direct)
                .search(Search::Satisficing)
                .max_horizon(max)
                .plan(&instance)
                .unwrap()
        };
        let outcome = within(5);
        assert!(
            matches!(outcome.verdict, Verdict::NoPlan { within: 5 }),
            "{:?}",
            outcome.verdict
        );
        assert_eq!(outcome.lower_bound, Some(2));
        assert_eq!(within(8).plan().map(|p| p.horizon), Some(8));
    }

    /// A search of any length on an instance whose few reachable states have
    /// none with every apple eaten says "no plan" without a formula, with an
    /// infinite lower bound; a fixed horizon is still solved.
    #[test]
    fn listed_states_without_a_plan_need_no_formula() {
        // The snake's only move leads into a dead end away from the apple.
        let instance = from_json(
            r#"{"width": 3, "height": 3, "snake": [[1, 0], [1, 1], [0, 1], [0, 0]],
                "walls": [[1, 2], [2, 1]], "apples": [[0, 2]], "tail": "strict"}"#,
        )
        .unwrap();
        let direct = by_name("direct").unwrap();
        for (search, method) in ANY_LENGTH {
            let outcome = Planner::new(&*direct)
                .search(search)
                .method(method)
                .max_horizon(12)
                .plan(&instance)
                .unwrap();
            assert!(matches!(outcome.verdict, Verdict::NoPlan { within: 12 }));
            assert_eq!(outcome.lower_bound, None);
            assert!(outcome.attempts.is_empty());
        }
        let fixed = Planner::new(&*direct)
            .search(Search::FixedHorizon(3))
            .plan(&instance)
            .unwrap();
        assert!(matches!(fixed.verdict, Verdict::NoPlan { within: 3 }));
        assert_eq!(fixed.attempts.len(), 1);
    }

    /// Refused whatever the answer: also where the lower bound (here past
    /// `max_horizon`) answers without a formula.
    #[test]
    fn incremental_searches_need_an_incremental_encoding() {
        let instance = from_json(SMALL).unwrap();
        let block = by_name("direct,body=block").unwrap();
        assert!(!block.capabilities().incremental);
        for max_horizon in [300, 3] {
            let satisficing = Planner::new(&*block).search(Search::Satisficing);
            let incremental = Planner::new(&*block).method(Method::Incremental);
            for (planner, name) in [(satisficing, "satisficing"), (incremental, "incremental")] {
                let e = planner
                    .max_horizon(max_horizon)
                    .plan(&instance)
                    .unwrap_err();
                assert!(
                    matches!(e, PlanError::NotIncremental { search, .. } if search == name),
                    "{e:?}"
                );
            }
        }
        let fresh = Planner::new(&*block).plan(&instance).unwrap();
        assert_eq!(fresh.plan().map(|p| p.horizon), Some(6));
    }

    #[test]
    fn unreachable_bounds_are_proven_without_solving() {
        let instance = from_json(SMALL).unwrap();
        let direct = by_name("direct").unwrap();
        let outcome = Planner::new(&*direct)
            .max_horizon(3)
            .plan(&instance)
            .unwrap();
        assert!(matches!(outcome.verdict, Verdict::NoPlan { within: 3 }));
        assert!(outcome.attempts.is_empty());
    }

    /// The library checks what the command line checks: an instance that
    /// breaks the model (it panicked or got a "checked" plan) and a fixed
    /// horizon beyond the cap (a 1.5 GB formula) are refused before any work.
    #[test]
    fn invalid_instances_and_huge_fixed_horizons_are_refused() {
        let direct = by_name("direct").unwrap();
        let valid = from_json(SMALL).unwrap();
        for broken in [
            Instance {
                apples: vec![(99, 0)],
                ..valid.clone()
            },
            Instance {
                width: 0,
                ..valid.clone()
            },
        ] {
            let refused = Planner::new(&*direct).plan(&broken);
            assert!(
                matches!(refused, Err(PlanError::Instance(_))),
                "{refused:?}"
            );
        }
        let refused = Planner::new(&*direct)
            .search(Search::FixedHorizon(MAX_HORIZON + 1))
            .plan(&valid);
        assert!(
            matches!(
                refused,
                Err(PlanError::Instance(InstanceError::HugeHorizon(t))) if t == MAX_HORIZON + 1
            ),
            "{refused:?}"
        );
    }

    /// `Duration::MAX` (beyond what the clock can add) is no limit: it
    /// panicked on "overflow when adding duration to instant".
    #[test]
    fn a_timeout_beyond_the_clock_is_no_limit() {
        let instance = from_json(SMALL).unwrap();
        let direct = by_name("direct").unwrap();
        for search in [
            Search::Satisficing,
            Search::Optimal,
            Search::FixedHorizon(6),
        ] {
            let mut planner = Planner::new(&*direct)
                .search(search)
                .timeout(Some(Duration::MAX));
            match planner.plan(&instance).map(|o| o.verdict) {
                // The least plan has 6 moves; the satisficing search may stop above.
                Ok(Verdict::Plan(plan)) => assert!(
                    plan.horizon == 6 || matches!(search, Search::Satisficing) && plan.horizon > 6,
                    "{search:?}: {} moves",
                    plan.horizon
                ),
                other => panic!("{search:?}: {other:?}"),
            }
        }
    }
}
