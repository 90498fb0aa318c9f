//! An external solver's answer for a formula `snakesat export` wrote, back
//! to a checked plan: [`model_to_plan`] is the library side of `snakesat
//! decode` (the command only reads the files and prints what it returns).
//!
//! The exported CNF describes itself (its [`Header`]: instance, encoding,
//! horizon, a name for every variable), so the CNF text and the solver's
//! output are all that is needed. The model is checked against every clause
//! before it is read as a path, and the path is replayed by the simulator
//! ([`crate::sim::simulate`]) before it is called a plan. A model of the
//! clauses that is no plan blames the encoding only if the formula is the
//! one `export` writes for its header; otherwise the file was changed.
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
    /// The model satisfies the formula but is no legal plan, or the solver
    /// refuted a formula whose refutation would prove that no plan exists,
    /// and the formula is not the one `snakesat export` writes for its header's instance,
    /// encoding and horizon: the file was changed after export (its header
    /// or its clauses), so the header does not describe its clauses.
    #[error(
        "it is not what `snakesat export` writes for its header's instance, encoding and horizon ({0}), so the header does not describe its clauses: was the file changed after export, or written by another version of snakesat?"
    )]
    NotExported(String),
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
/// ([`ModelError::NotAPath`], [`ModelError::IllegalPlan`]), or, when the
/// formula is not what `export` writes for its header (encoded again to
/// see), [`ModelError::NotExported`]: the header does not describe it. An
/// unsatisfiable answer that would prove no plan exists is checked the same
/// way, so that a refutation is never claimed for an instance whose
/// formula it did not refute.
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
            ModelFile::Unsat => {
                let proves_no_plan = encoding.unsat_proves_no_plan(horizon, lower_bound);
                // A refutation speaks for the header's instance only when
                // the clauses are the ones `export` writes for it: a header
                // edited after export (an apple or a wall changed) would
                // otherwise turn the refutation of one instance into a
                // claim about another.
                if proves_no_plan && let Some(difference) = self.export_difference() {
                    return Err(ModelError::NotExported(difference));
                }
                Answer::Unsat { proves_no_plan }
            }
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
                    return Err(self.unless_changed(ModelError::NotAPath {
                        encoding: encoding.name(),
                        approximate: encoding.approximate(),
                        horizon,
                    }));
                };
                match sim::simulate(&header.instance, &path) {
                    Ok(replay) => Answer::Plan { path, replay },
                    Err(violation) => {
                        return Err(self.unless_changed(ModelError::IllegalPlan {
                            encoding: encoding.name(),
                            approximate: encoding.approximate(),
                            horizon,
                            violation,
                        }));
                    }
                }
            }
        })
    }

    /// `error`, a model of this formula that is no plan, unless the formula
    /// is not what `snakesat export` writes for its header: then
    /// [`ModelError::NotExported`], naming the first difference. Only on
    /// this path and on a refutation: a plan's replay already vouches for
    /// the header, and the formula is encoded again here.
    fn unless_changed(&self, error: ModelError) -> ModelError {
        match self.export_difference() {
            Some(difference) => ModelError::NotExported(difference),
            None => error,
        }
    }

    /// The first difference between this formula and the one `export`
    /// writes for its header (variable count, a `c var` line, a clause), or
    /// `None` when they are the same.
    fn export_difference(&self) -> Option<String> {
        let (parsed, header) = (&self.parsed, &self.header);
        let cnf = match header.encoding.encode(&header.instance, header.horizon) {
            Ok(cnf) => cnf,
            Err(e) => return Some(format!("its encoding refuses its instance: {e}")),
        };
        if cnf.num_vars() != parsed.num_vars {
            return Some(format!(
                "the export has {} variables, the file {}",
                cnf.num_vars(),
                parsed.num_vars
            ));
        }
        let named = |kind: &crate::cnf::VarKind| {
            let coords: Vec<String> = kind.coords().iter().map(u32::to_string).collect();
            format!("{} {}", kind.name(), coords.join(" "))
        };
        for (i, (given, exported)) in parsed.names.iter().zip(cnf.names()).enumerate() {
            if given.as_ref() != Some(exported) {
                return Some(format!(
                    "the export's variable {} is `{}`",
                    i + 1,
                    named(exported)
                ));
            }
        }
        if cnf.num_clauses() != parsed.num_clauses as u64 {
            return Some(format!(
                "the export has {} clauses, the file {}",
                cnf.num_clauses(),
                parsed.num_clauses
            ));
        }
        let given = parsed.flat.split(|&l| l == 0);
        let exported = cnf.flat().split(|&l| l == 0);
        given
            .zip(exported)
            .position(|(a, b)| a != b)
            .map(|i| format!("its clause {} differs", i + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::header;
    use crate::encode;
    use crate::instance::json::from_json;

    /// Every encoding's export, as `export` writes it.
    fn exports(instance_json: &str, horizon: usize) -> Vec<(String, String)> {
        let instance = from_json(instance_json).unwrap();
        encode::option_names()
            .into_iter()
            .filter_map(|name| {
                let encoding = encode::by_name(&name).unwrap();
                let cnf = encoding.encode(&instance, horizon).ok()?;
                let mut bytes = Vec::new();
                header::write(&cnf, &instance, &*encoding, horizon, None, &mut bytes).unwrap();
                Some((name, String::from_utf8(bytes).unwrap()))
            })
            .collect()
    }

    const WALLED: &str = r#"{"width": 5, "height": 4, "snake": [[0, 0], [1, 0], [2, 0]],
        "walls": [[2, 2], [3, 2]], "apples": [[4, 3], [0, 3], [4, 0]], "visible": 1}"#;
    const FREE: &str = r#"{"width": 4, "height": 4, "apples": [[3, 3], [0, 2]], "visible": 2}"#;

    /// The export itself is recognised as such by every encoding (otherwise
    /// a model that is no plan would be blamed on the file, exit 2, instead
    /// of on the encoding); and a change to the header's instance, to a
    /// `c var` line or to a clause is named.
    #[test]
    fn an_export_is_its_own_and_a_changed_file_is_not() {
        let mut checked = 0;
        for (instance, horizons) in [(WALLED, [17, 18, 21]), (FREE, [4, 5, 8])] {
            for horizon in horizons {
                for (name, text) in exports(instance, horizon) {
                    let formula = read_formula(&text).unwrap();
                    assert_eq!(formula.export_difference(), None, "{name} at T={horizon}");
                    checked += 1;
                }
            }
        }
        assert!(checked >= 90, "{checked}");

        let (_, direct) = exports(WALLED, 18)
            .into_iter()
            .find(|(name, _)| name == "direct")
            .unwrap();
        let changed = |from: &str, to: &str| {
            assert!(direct.contains(from), "{from}");
            let text = direct.replacen(from, to, 1);
            read_formula(&text).unwrap().export_difference()
        };
        // The apples in another order: another formula.
        let swapped = changed("[[4,3],[0,3],[4,0]]", "[[0,3],[4,3],[4,0]]").unwrap();
        assert!(swapped.starts_with("the export has "), "{swapped}");
        // Two variables' names swapped.
        let line_of = |v: usize| {
            let start = direct.find(&format!("\nc var {v} ")).unwrap() + 1;
            let end = direct[start..].find('\n').unwrap() + start;
            direct[start..end].to_string()
        };
        let (third, fourth) = (line_of(3), line_of(4));
        let swapped_names = direct
            .replacen(&third, "PLACEHOLDER", 1)
            .replacen(&fourth, &third.replacen("c var 3 ", "c var 4 ", 1), 1)
            .replacen(
                "PLACEHOLDER",
                &fourth.replacen("c var 4 ", "c var 3 ", 1),
                1,
            );
        let renamed = read_formula(&swapped_names).unwrap().export_difference();
        let expected = format!(
            "the export's variable 3 is `{}`",
            third.trim_start_matches("c var 3 ")
        );
        assert_eq!(renamed, Some(expected));
        // A clause's literal negated (the first clause after the header).
        let p_line = direct.find("\np cnf").unwrap() + 1;
        let first_clause_at = direct[p_line..].find('\n').unwrap() + p_line + 1;
        let first_clause = direct[first_clause_at..].lines().next().unwrap();
        let literal = first_clause.split(' ').next().unwrap();
        let negated = match literal.strip_prefix('-') {
            Some(positive) => positive.to_string(),
            None => format!("-{literal}"),
        };
        let mut text = direct.clone();
        text.replace_range(first_clause_at..first_clause_at + literal.len(), &negated);
        assert_eq!(
            read_formula(&text).unwrap().export_difference(),
            Some("its clause 1 differs".to_string())
        );
    }

    /// A refutation proves that no plan exists only for the formula `export`
    /// writes: for its own export an exact encoding's UNSAT is a proof, and
    /// under a header changed after export (the apples in another order,
    /// a wall removed) it is refused as not describing the clauses, never
    /// reported as a proof about the header's instance.
    #[test]
    fn a_refutation_speaks_only_for_the_exported_instance() {
        let direct_at = |horizon| {
            exports(WALLED, horizon)
                .into_iter()
                .find(|(name, _)| name == "direct")
                .unwrap()
                .1
        };
        let unsat = "s UNSATISFIABLE\n";
        let refuted = Answer::Unsat {
            proves_no_plan: true,
        };
        // At T=17, below the lower bound (18), the export is refuted by
        // empty clauses, and so is the formula of the instance without the
        // wall at (3, 2): the same formula, so the refutation holds for it.
        let below = direct_at(17);
        assert_eq!(
            read_formula(&below).unwrap().answer(unsat).unwrap(),
            refuted
        );
        let unwalled = below.replacen("[[2,2],[3,2]]", "[[2,2]]", 1);
        assert_eq!(
            read_formula(&unwalled).unwrap().answer(unsat).unwrap(),
            refuted
        );
        // At T=18 the two instances' formulas differ.
        let direct = direct_at(18);
        for (from, to) in [
            ("[[4,3],[0,3],[4,0]]", "[[0,3],[4,3],[4,0]]"),
            ("[[2,2],[3,2]]", "[[2,2]]"),
        ] {
            assert!(direct.contains(from), "{from}");
            let text = direct.replacen(from, to, 1);
            match read_formula(&text).unwrap().answer(unsat) {
                Err(ModelError::NotExported(difference)) => {
                    assert!(!difference.is_empty())
                }
                other => panic!("{from} -> {to}: {other:?}"),
            }
        }
        // An unknown answer claims nothing, so it is not checked.
        let text = direct.replacen("[[2,2],[3,2]]", "[[2,2]]", 1);
        assert_eq!(
            read_formula(&text).unwrap().answer("s UNKNOWN\n").unwrap(),
            Answer::Unknown
        );
    }
}
