//! An external solver's answer for a formula `snakesat export` wrote, back
//! to a checked plan: [`model_to_plan`] is the library side of `snakesat
//! decode` (the command only reads the files and prints what it returns).
//!
//! The exported CNF describes itself (its [`Header`]: instance, encoding,
//! horizon, a name for every variable), so the CNF text and the solver's
//! output are all that is needed. The model is checked against every clause
//! before it is read as a path, and the path is replayed by the simulator
//! ([`crate::sim::simulate`]) before it is called a plan.
//!
//! ```
//! use snakesat::cnf::header;
//! use snakesat::decode::{Answer, model_to_plan};
//! use snakesat::encode;
//! use snakesat::instance::json::from_json;
//!
//! // A 2x1 board, the snake's head on the left, the apple on the right.
//! let instance = from_json(
//!     r#"{"width": 2, "height": 1, "snake": [[0, 0]], "apples": [[1, 0]]}"#,
//! )?;
//! let direct = encode::by_name("direct")?;
//! let cnf = direct.encode(&instance, 1)?;
//! let mut exported = Vec::new();
//! header::write(&cnf, &instance, &*direct, 1, None, &mut exported)?;
//! let exported = String::from_utf8(exported)?;
//!
//! // Any solver's model, as it prints it: here CaDiCaL's, through the `cadical`
//! // crate (snakesat's own solver; a program of yours adds it to its
//! // dependencies to do the same, or runs a solver binary on the exported file).
//! let mut solver: cadical::Solver = cadical::Solver::new();
//! for clause in cnf.clauses() {
//!     solver.add_clause(clause.iter().copied());
//! }
//! assert_eq!(solver.solve(), Some(true));
//! let literals: Vec<String> = (1..=cnf.num_vars() as i32)
//!     .map(|v| if solver.value(v) == Some(true) { v } else { -v }.to_string())
//!     .collect();
//! let model = format!("s SATISFIABLE\nv {} 0\n", literals.join(" "));
//!
//! let decoded = model_to_plan(&exported, &model)?;
//! assert_eq!(decoded.header.horizon, 1);
//! let Answer::Plan { path, .. } = &decoded.answer else {
//!     panic!("not a plan");
//! };
//! assert_eq!(path, &[(0, 0), (1, 0)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use thiserror::Error;

use crate::cnf::Size;
use crate::cnf::dimacs::{self, DimacsError, ModelFile};
use crate::cnf::header::{Header, HeaderError};
use crate::encode::decode::{DecodeError, check_model_horizon, path_from_model};
use crate::encode::prune::try_lower_bound;
use crate::instance::InstanceError;
use crate::sim::{self, Replay, Violation};
use crate::solve::fixed_heads;

/// An exported formula and what its solver answered.
#[derive(Debug)]
pub struct Decoded {
    /// The formula's header: the instance, the encoding and the horizon.
    pub header: Header,
    /// The formula's variables, clauses and literal occurrences.
    pub size: Size,
    /// The instance's proven lower bound on the moves of a plan
    /// ([`crate::encode::prune::lower_bound`]); `None` when some apple cannot
    /// be reached at all.
    pub lower_bound: Option<usize>,
    /// The solver's answer.
    pub answer: Answer,
}

/// What a solver's answer says about plans of exactly the formula's horizon.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Answer {
    /// A model: the plan it describes, which the simulator accepted.
    Plan {
        /// Head cells at `t = 0..=horizon`.
        path: Vec<(usize, usize)>,
        /// The simulator's replay of `path`.
        replay: Replay,
    },
    /// The solver proved the formula unsatisfiable. `proves_no_plan` says
    /// whether that proves there is no plan of `horizon` moves: always for an
    /// exact encoding, for an approximate one only below the lower bound
    /// ([`crate::encode::Encoding::unsat_proves_no_plan`]).
    Unsat {
        /// Whether no plan of exactly the horizon exists.
        proves_no_plan: bool,
    },
    /// The solver gave no answer (`s UNKNOWN`, `INDET`).
    Unknown,
}

/// Why a formula and a solver's answer do not give a checked [`Decoded`].
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// The CNF is not DIMACS.
    #[error("{0}")]
    Cnf(DimacsError),
    /// The CNF's header (its comments) is missing, or disagrees with the
    /// formula.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// The header's instance cannot be played ([`crate::instance::Instance::validate_game`]).
    #[error(transparent)]
    Instance(#[from] InstanceError),
    /// The solver's output is not a model of the formula's variables.
    #[error("{0}")]
    Model(DimacsError),
    /// The formula has too few variables for its horizon (a CNF that
    /// `export` did not write).
    #[error("{0}")]
    Horizon(DecodeError),
    /// The model falsifies a clause of the formula.
    #[error("the model does not satisfy clause {clause}")]
    Falsified {
        /// The clause's number (1-based, in file order).
        clause: usize,
    },
    /// The model satisfies the formula but is not a path of head cells (an
    /// approximate encoding's formula may allow that).
    #[error("the model of {} {encoding} at T={horizon} is not a path", kind(*.approximate))]
    NotAPath {
        /// The encoding's name.
        encoding: String,
        /// Whether the encoding is approximate.
        approximate: bool,
        /// The formula's horizon.
        horizon: usize,
    },
    /// The model's path is not a legal plan (an approximate encoding's
    /// formula may allow that).
    #[error("the model of {} {encoding} at T={horizon} is not a legal plan: {violation}", kind(*.approximate))]
    IllegalPlan {
        /// The encoding's name.
        encoding: String,
        /// Whether the encoding is approximate.
        approximate: bool,
        /// The formula's horizon.
        horizon: usize,
        /// The first rule the path breaks.
        violation: Violation,
    },
}

/// "encoding" or "approximate encoding".
fn kind(approximate: bool) -> &'static str {
    if approximate {
        "approximate encoding"
    } else {
        "encoding"
    }
}

/// Reads a CNF that `snakesat export` wrote (`cnf`, DIMACS with its header)
/// and a solver's output for it (`model`: SAT-competition `s`/`v` lines or
/// MiniSat's result file, [`dimacs::parse_model`]), checks that the model
/// satisfies every clause, rebuilds the head path (with the head cells the
/// encoding fixed as constants) and replays it with the simulator.
///
/// An unsatisfiable or unknown answer is not an error: it is
/// [`Answer::Unsat`] or [`Answer::Unknown`], with the header and sizes still
/// read. A model that is not a path or not a legal plan is an error
/// ([`ModelError::NotAPath`], [`ModelError::IllegalPlan`]).
pub fn model_to_plan(cnf: &str, model: &str) -> Result<Decoded, ModelError> {
    let formula = read_formula(cnf)?;
    let answer = formula.answer(model)?;
    Ok(Decoded {
        header: formula.header,
        size: formula.size,
        lower_bound: formula.lower_bound,
        answer,
    })
}

/// A CNF that `snakesat export` wrote, read and checked, before any model:
/// the first half of [`model_to_plan`], kept so that a caller still has the
/// formula's header and sizes when its model turns out not to be a plan.
#[derive(Debug)]
pub struct Formula {
    parsed: dimacs::ParsedCnf,
    /// The formula's header: the instance, the encoding and the horizon.
    pub header: Header,
    /// The formula's variables, clauses and literal occurrences.
    pub size: Size,
    /// The instance's proven lower bound, as in [`Decoded::lower_bound`].
    pub lower_bound: Option<usize>,
}

/// Reads and checks the CNF `cnf` (see [`model_to_plan`]).
pub fn read_formula(cnf: &str) -> Result<Formula, ModelError> {
    let parsed = dimacs::parse(cnf).map_err(ModelError::Cnf)?;
    let header = Header::read(&parsed)?;
    let lower_bound = try_lower_bound(&header.instance)?;
    let size = Size {
        variables: parsed.num_vars as u64,
        clauses: parsed.num_clauses as u64,
        literals: parsed.flat.iter().filter(|&&l| l != 0).count() as u64,
    };
    Ok(Formula {
        parsed,
        header,
        size,
        lower_bound,
    })
}

impl Formula {
    /// The second half of [`model_to_plan`]: a solver's answer `model` for
    /// this formula, checked and replayed.
    pub fn answer(&self, model: &str) -> Result<Answer, ModelError> {
        let (parsed, header, lower_bound) = (&self.parsed, &self.header, self.lower_bound);
        let model = dimacs::parse_model(model, parsed.num_vars).map_err(ModelError::Model)?;
        let (encoding, horizon) = (&header.encoding, header.horizon);
        Ok(match model {
            ModelFile::Unsat => Answer::Unsat {
                proves_no_plan: encoding.unsat_proves_no_plan(horizon, lower_bound),
            },
            ModelFile::Unknown => Answer::Unknown,
            ModelFile::Sat(values) => {
                // The model first: a formula refuted below the lower bound
                // (empty clauses, no variables) is snakesat's own, and a
                // "model" of it is what is wrong.
                if let Some(clause) = dimacs::first_falsified(&parsed.flat, &values) {
                    return Err(ModelError::Falsified { clause });
                }
                check_model_horizon(horizon, parsed.num_vars).map_err(ModelError::Horizon)?;
                let named = parsed
                    .names
                    .iter()
                    .zip(&values)
                    .filter_map(|(n, &v)| n.as_ref().map(|n| (n, v)));
                let fixed = fixed_heads(&header.instance);
                let Ok(path) = path_from_model(named, horizon, &fixed) else {
                    return Err(ModelError::NotAPath {
                        encoding: encoding.name(),
                        approximate: encoding.approximate(),
                        horizon,
                    });
                };
                match sim::simulate(&header.instance, &path) {
                    Ok(replay) => Answer::Plan { path, replay },
                    Err(violation) => {
                        return Err(ModelError::IllegalPlan {
                            encoding: encoding.name(),
                            approximate: encoding.approximate(),
                            horizon,
                            violation,
                        });
                    }
                }
            }
        })
    }
}
