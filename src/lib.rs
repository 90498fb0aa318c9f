//! snakesat: the Snake game as SAT.
//!
//! Data flows one way: an [`instance::Instance`] is encoded ([`encode`]) into
//! a [`cnf::Cnf`], solved by CaDiCaL ([`solve`]), turned back into a head path,
//! and checked by the independent simulator ([`sim`]) before anything is shown.
//! A formula exported with its header ([`cnf::header`]) and solved by another
//! solver comes back the same way through [`decode::model_to_plan`].
//!
//! [`planner::Planner`] is the way in: it picks the search the options and
//! the encoding's [`capabilities`](encode::Encoding::capabilities) call for
//! and returns a typed [`planner::Outcome`] whose plan the simulator has
//! already accepted. The names most programs need are also at the crate's
//! root: [`Instance`], [`Planner`], [`Verdict`], [`Outcome`], [`Plan`],
//! [`PlanError`], [`simulate`].
//!
//! The full game, a snake eating seeded random apples until it fills the
//! board, is [`game::play`] (stopped by a flag: [`game::play_until`]).
//!
//! Features: `render` builds the GIFs and charts ([`render`]'s `gif` and
//! `chart`); `cli` (the default) builds the `snakesat` binary and turns
//! `render` on. Without either, the crate plans, checks, exports and reads
//! every format.
//!
//! Platforms: Unix-like systems (Linux, macOS). The output files
//! ([`output`]) are created with Unix permissions and cleaned up on Unix
//! signals, and the proofs' folders are named by their bytes; elsewhere the
//! crate stops at compile time with that message.
//!
//! ```
//! use snakesat::encode;
//! use snakesat::instance::json::from_json;
//! use snakesat::planner::{CadicalConfig, Search};
//! use snakesat::report::PlanReport;
//! use snakesat::{Planner, Verdict};
//!
//! // A 3x3 board, a snake of three cells, two apples eaten in order.
//! let instance = from_json(
//!     r#"{"width": 3, "height": 3, "snake": [[0, 0], [1, 0], [2, 0]],
//!         "apples": [[1, 1], [0, 0]], "visible": 1, "tail": "strict"}"#,
//! )?;
//! let direct = encode::by_name("direct")?;
//! let outcome = Planner::new(&*direct)
//!     .search(Search::Optimal)
//!     .max_horizon(50)
//!     .cadical_config("sat".parse::<CadicalConfig>()?)
//!     .on_attempt(|a| eprintln!("T={}: {:?}", a.horizon, a.status))
//!     .plan(&instance)?;
//! let Verdict::Plan(plan) = &outcome.verdict else {
//!     panic!("no plan: {:?}", outcome.verdict);
//! };
//! assert!(plan.optimal);
//! // The planner checked the plan; the simulator agrees on its own.
//! let replay = snakesat::simulate(&instance, &plan.path)?;
//! assert_eq!(replay.eaten, plan.eaten());
//!
//! // The JSON answer of `solve --json` (docs/FORMATS.md), for any verdict.
//! let mut report = PlanReport::new(&outcome, &*direct);
//! report.cadical_config = Some(CadicalConfig::Sat.name());
//! println!("{}", serde_json::to_string(&report)?);
//! assert_eq!((report.horizon, report.lower_bound), (6, Some(4)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

#[cfg(not(unix))]
compile_error!(
    "snakesat builds on Unix-like systems only (Linux, macOS): its output files use Unix permissions and signals"
);

pub mod cnf;
pub mod decode;
pub mod encode;
pub mod excerpt;
pub mod family;
pub mod game;
pub mod geometry;
pub mod instance;
pub mod output;
pub mod pddl;
pub mod plan_file;
pub mod planner;
pub mod proof;
pub mod reachable;
pub mod render;
pub mod report;
pub mod sim;
pub mod solve;
pub mod symmetry;

// The names most programs need, at the crate's root as in their modules: an
// instance, the planner and its answer, and the simulator that checks a path.
pub use instance::{Instance, Pos, Start, TailRule};
pub use planner::{Outcome, Plan, PlanError, Planner, Verdict};
pub use sim::simulate;

/// `n` and `noun`, plural unless `n` is 1: `counted(1, "apple")` is
/// `1 apple`, `counted(3, "apple")` is `3 apples` (for nouns whose plural
/// adds an `s`).
pub fn counted(n: impl std::fmt::Display, noun: &str) -> String {
    let n = n.to_string();
    let s = if n == "1" { "" } else { "s" };
    format!("{n} {noun}{s}")
}
