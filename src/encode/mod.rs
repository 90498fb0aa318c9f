//! Encodings of a game into CNF, one type per encoding family behind the
//! [`Encoding`] trait, chosen by name ([`by_name`]).
//!
//! - [`direct::Direct`]: snakesat's sound encoding of the full model, with
//!   options ([`direct::DirectOptions`]) that combine independently.
//! - [`notebook`]: the notebook's four encodings exactly as its code wrote
//!   them (approximations of the game; see docs/DESIGN.md §2).
//! - [`full`]: the facts of boards that the final snake fills, which the
//!   direct encoding and the incremental search add.
//! - [`prune`] and [`schedule`]: bounds that ignore the body, which let the
//!   encodings leave out what no legal plan uses.
//!
//! Every encoding records its head variables as [`VarKind::Head`] (`head x y
//! t`, time `t` counted in moves from 0) or per axis, which is all
//! `decode::path_from_model` needs to turn a model back into a path. What
//! an encoding can do beyond [`Encoding::encode`] (approximate or sound, an
//! open formula for the incremental search) it says in [`Capabilities`].
//!
//! [`VarKind::Head`]: crate::cnf::VarKind::Head

pub mod amo;
pub mod decode;
pub mod direct;
pub mod full;
pub mod notebook;
pub mod prune;
pub mod schedule;

use thiserror::Error;

use crate::cnf::{Cnf, Lit};
use crate::excerpt::excerpt;
use crate::instance::{Instance, InstanceError};

/// What an encoding can do, for the searches to choose from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Capabilities {
    /// The encoding only approximates the game: its models may not be legal plans.
    pub approximate: bool,
    /// The encoding builds an open formula ([`Encoding::encode_open`]), so
    /// the incremental and satisficing searches can use it.
    pub incremental: bool,
    /// The encoding models a start with an explicit body (`snake`), as
    /// every IPC-2018 problem has; without it, only a free start (a length).
    pub explicit_body: bool,
}

/// A formula open at every horizon up to its maximum: the clauses of every
/// time step, without "every apple eaten", for the incremental search.
#[derive(Clone, Debug)]
pub struct OpenFormula {
    /// The clauses (all local in time).
    pub cnf: Cnf,
    /// The literal "apple `i` eaten by `t`" at `[i * (max + 1) + t]` (may be a constant).
    pub eaten: Vec<Lit>,
    /// True when every head position is a `head x y t` variable or constant
    /// (false for per-axis positions).
    pub cell_heads: bool,
}

/// A way to turn an instance and a number of moves into CNF (`Sync`: the
/// certification of refuted horizons encodes them on several threads;
/// `Send`: a `Box<dyn Encoding>` and a [`Planner`](crate::planner::Planner)
/// over it can be moved into another thread to plan there).
pub trait Encoding: Send + Sync {
    /// The name `solve --encoding NAME` accepts.
    fn name(&self) -> String;
    /// What the encoding can do.
    fn capabilities(&self) -> Capabilities;
    /// True if the encoding only approximates the game (its models may not be
    /// legal plans).
    fn approximate(&self) -> bool {
        self.capabilities().approximate
    }
    /// Whether an UNSAT answer of the encoding's formula at `horizon` proves
    /// that no plan of that many moves exists: always for an exact encoding;
    /// for an approximate one, whose formula may exclude legal plans, only
    /// below the instance's proven `lower_bound` (where the bound alone
    /// excludes every plan), or when it is `None` (no plan at any horizon,
    /// [`prune::lower_bound`]).
    fn unsat_proves_no_plan(&self, horizon: usize, lower_bound: Option<usize>) -> bool {
        !self.approximate() || lower_bound.is_none_or(|bound| horizon < bound)
    }
    /// Whether the encoding models `instance` at all (at any horizon): an
    /// instance [`Instance::validate_game`] refuses, or one outside the
    /// encoding's setting, is refused as [`Encoding::encode`] would. The
    /// planner asks it before answering without a formula, so that flags the
    /// encoding refuses are refused whatever the instance's answer.
    fn accepts(&self, instance: &Instance) -> Result<(), EncodeError> {
        Ok(instance.validate_game()?)
    }
    /// Builds the formula "every apple eaten within `moves` moves"; an
    /// instance that [`Instance::validate_game`] refuses (`moves`, not its
    /// `horizon` field, is the horizon) is refused with
    /// [`EncodeError::Instance`].
    fn encode(&self, instance: &Instance, moves: usize) -> Result<Cnf, EncodeError>;
    /// Builds the open formula for every horizon up to `max` (see
    /// [`OpenFormula`]); refused unless [`Capabilities::incremental`], and
    /// (as by [`Encoding::encode`]) for an invalid instance.
    fn encode_open(&self, instance: &Instance, max: usize) -> Result<OpenFormula, EncodeError> {
        let _ = (instance, max);
        Err(EncodeError::NoOpenFormula {
            encoding: self.name(),
        })
    }
}

/// An encoding shows as its name ([`Encoding::name`]), e.g. in `{:?}` of a
/// `Box<dyn Encoding>` or of a [`Planner`](crate::planner::Planner).
impl std::fmt::Debug for dyn Encoding + '_ {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Encoding").field(&self.name()).finish()
    }
}

/// Why an encoding refuses an instance.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeError {
    /// The instance breaks a rule of the model ([`Instance::validate_game`]).
    /// (Its message holds the inner error's, so that is not also the `source()`.)
    #[error("invalid instance: {0}")]
    Instance(InstanceError),
    /// The encoding does not model this kind of instance.
    #[error("encoding {encoding} does not accept this instance: {reason}")]
    Unsupported {
        /// The encoding's name.
        encoding: String,
        /// Why, in words.
        reason: String,
    },
    /// [`Encoding::encode_open`] of an encoding that has no open formula
    /// (not [`Capabilities::incremental`], or `direct,body=block`): a limit
    /// of the encoding, not of the instance.
    #[error("encoding {encoding} has no open formula (the incremental search needs one)")]
    NoOpenFormula {
        /// The encoding's name.
        encoding: String,
    },
    /// Some part of the formula would be larger than the encoding allows.
    #[error(
        "encoding {encoding} would need {} {what}, beyond its limit of {limit} \
         (at a horizon of {})",
        size_in_words(*.count),
        crate::counted(*.moves, "move")
    )]
    TooBig {
        /// The encoding's name.
        encoding: String,
        /// The horizon asked for (a search asks up to its largest one).
        moves: usize,
        /// The part that is too big.
        what: &'static str,
        /// Its size; `u128::MAX` when counting it overflowed (said "more
        /// than 10^38" in words).
        count: u128,
        /// The largest size allowed.
        limit: u128,
    },
}

/// A count of [`EncodeError::TooBig`] in words: a count that saturated
/// at `u128::MAX` is no count.
fn size_in_words(count: u128) -> String {
    if count == u128::MAX {
        "more than 10^38".to_string()
    } else {
        count.to_string()
    }
}

impl From<InstanceError> for EncodeError {
    fn from(error: InstanceError) -> Self {
        EncodeError::Instance(error)
    }
}

/// All encoding names, with a one-line description each, for a program
/// that lists the choices ([`by_name`] reads them; `solve --help` says the
/// same in its own words).
pub const NAMES: &[(&str, &str)] = &[
    (
        "direct",
        "sound encoding of the full model (default); options direct,KEY=VALUE,...: position=projected|onehot|axis, amo=sequential|pairwise|commander|product|binary|bimander, body=auto|window|compare|block|tail, growth=auto|counter, prune=on|off",
    ),
    (
        "notebook-mvp1",
        "APPROXIMATE: the notebook's MVP1 (fixed length, no apples), constraints 1-4; square grid, free start",
    ),
    (
        "notebook-counter",
        "APPROXIMATE: the notebook's MVP2 approach 1 (apple counter), 1-3, 5-9, 10.a-g; all apples visible",
    ),
    (
        "notebook-combinations",
        "APPROXIMATE: the notebook's MVP2 approach 2 (subsets of apples), 1-3, 5-9, 11.a-b; exponential, refused beyond 20M clauses in 11.a",
    ),
    (
        "notebook-ordered",
        "APPROXIMATE: the notebook's MVP3 (ordered apples, visible = 1), 1-3, 5, 9, 12-16",
    ),
];

/// Why [`by_name`] (or [`direct::DirectOptions::parse`]) refuses an
/// encoding's name.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum NameError {
    /// An item that is neither a notebook encoding, `direct` nor `key=value`.
    #[error(
        "unknown encoding {:?} (the encodings: direct, its options as direct,KEY=VALUE,... \
         and {})",
        excerpt(.0),
        notebook::Notebook::ALL.map(notebook::Notebook::as_str).join(", ")
    )]
    Unknown(String),
    /// A `direct` option given twice.
    #[error("encoding option {:?} given twice in {:?}", excerpt(.key), excerpt(.name))]
    Repeated {
        /// The option.
        key: String,
        /// The whole name.
        name: String,
    },
    /// A key that is no option of `direct`.
    #[error("unknown encoding option {:?} in {:?}", excerpt(.key), excerpt(.name))]
    UnknownOption {
        /// The key.
        key: String,
        /// The whole name.
        name: String,
    },
    /// A value that the option (`amo`, `body`, `growth` or `position`) does not take.
    #[error("unknown {option} {:?} ({allowed})", excerpt(.value))]
    BadValue {
        /// The option.
        option: &'static str,
        /// The value given.
        value: String,
        /// The values it takes, separated by `|`.
        allowed: String,
    },
    /// `direct` after the first item of a name: one name is one encoding
    /// (a list of several, as `snakesat sizes --encodings` takes, is split
    /// at each name before it gets here).
    #[error(
        "{:?} names more than one encoding: `direct` may only begin it",
        excerpt(.0)
    )]
    SecondName(String),
    /// A value of `prune` other than `on` and `off`.
    #[error("prune must be on or off, not {:?}", excerpt(.0))]
    BadPrune(String),
}

/// The encoding called `name`: `direct`, `direct,key=value,...` (or just
/// `key=value,...`), or one of the notebook's. Empty items and the spaces
/// around items are skipped, so `""` and `" , "` name `direct` with its
/// defaults ([`direct::DirectOptions::parse`]).
pub fn by_name(name: &str) -> Result<Box<dyn Encoding>, NameError> {
    if let Some(nb) = notebook::Notebook::by_name(name) {
        return Ok(Box::new(nb));
    }
    let options = direct::DirectOptions::parse(name)?;
    Ok(Box::new(direct::Direct::new(options)))
}

/// Every encoding one option away from the default `direct` (the default
/// first), then the notebook's four: the list `snakesat sizes` compares when
/// none is given.
pub fn option_names() -> Vec<String> {
    use amo::Amo;
    use direct::{Body, DirectOptions, Growth, Position};
    use notebook::Notebook;
    let base = DirectOptions::default();
    let mut options = vec![base.clone()];
    for amo in Amo::ALL {
        if amo != base.amo {
            options.push(DirectOptions {
                amo,
                ..base.clone()
            });
        }
    }
    for body in Body::ALL {
        if body != base.body {
            options.push(DirectOptions {
                body,
                ..base.clone()
            });
        }
    }
    for position in [Position::OneHot, Position::Axis] {
        options.push(DirectOptions {
            position,
            ..base.clone()
        });
    }
    options.push(DirectOptions {
        growth: Growth::Counter,
        ..base.clone()
    });
    options.push(DirectOptions {
        prune: false,
        ..base.clone()
    });
    let mut names: Vec<String> = options.iter().map(DirectOptions::name).collect();
    names.dedup();
    names.extend(Notebook::ALL.iter().map(|nb| nb.as_str().to_string()));
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::refused_examples;

    /// A count that saturated is said as a bound, not as 2^128 − 1.
    #[test]
    fn a_saturated_size_is_not_printed_as_a_count() {
        let too_big = |count| EncodeError::TooBig {
            encoding: "e".into(),
            moves: 3,
            what: "clauses",
            count,
            limit: 10,
        };
        assert_eq!(
            too_big(u128::MAX).to_string(),
            "encoding e would need more than 10^38 clauses, beyond its limit of 10 (at a horizon of 3 moves)"
        );
        assert!(too_big(11).to_string().contains("would need 11 clauses"));
    }

    /// An encoding without an open formula says so as a limit of its own,
    /// named, not as a refusal of the instance ("does not accept this
    /// instance: it has no open formula", as it read).
    #[test]
    fn encodings_say_whether_they_model_an_explicit_body() {
        // A body-start instance, as every IPC-2018 problem is.
        let body = crate::instance::json::from_json(
            r#"{"width": 4, "height": 4, "snake": [[1, 0], [0, 0]], "apples": [[3, 3]]}"#,
        )
        .unwrap();
        for (name, _) in NAMES {
            let encoding = by_name(name).unwrap();
            assert_eq!(
                encoding.capabilities().explicit_body,
                encoding.accepts(&body).is_ok(),
                "{name}"
            );
        }
    }

    #[test]
    fn encodings_without_an_open_formula_say_so() {
        let instance =
            crate::instance::random::generate(&crate::instance::random::RandomSpec::default())
                .unwrap();
        for name in ["notebook-mvp1", "notebook-counter", "direct,body=block"] {
            let encoding = by_name(name).unwrap();
            assert!(!encoding.capabilities().incremental, "{name}");
            let error = encoding.encode_open(&instance, 10).expect_err(name);
            assert!(
                matches!(&error, EncodeError::NoOpenFormula { encoding } if encoding == name),
                "{name}: {error:?}"
            );
            assert_eq!(
                error.to_string(),
                format!("encoding {name} has no open formula (the incremental search needs one)")
            );
        }
        assert!(
            by_name("direct")
                .unwrap()
                .encode_open(&instance, 10)
                .is_ok()
        );
    }

    /// Empty items and spaces are skipped, as documented: an empty name is
    /// `direct` with its defaults.
    #[test]
    fn empty_items_name_the_defaults() {
        for name in ["", " , ", "direct, ,", " direct "] {
            assert_eq!(by_name(name).unwrap().name(), "direct", "{name:?}");
        }
        assert_eq!(
            by_name(" amo=pairwise, ").unwrap().name(),
            by_name("direct,amo=pairwise").unwrap().name()
        );
        // Around `=` too (`body ` was an unknown option).
        assert_eq!(
            by_name(" direct , body = tail ").unwrap().name(),
            by_name("direct,body=tail").unwrap().name()
        );
    }

    /// An exact encoding's UNSAT always refutes; an approximate one's only
    /// below the proven lower bound.
    #[test]
    fn only_exact_encodings_refute_at_or_above_the_lower_bound() {
        let direct = by_name("direct").unwrap();
        let notebook = by_name("notebook-ordered").unwrap();
        for horizon in [3, 7, 8] {
            assert!(direct.unsat_proves_no_plan(horizon, Some(7)));
            assert_eq!(notebook.unsat_proves_no_plan(horizon, Some(7)), horizon < 7);
            assert!(notebook.unsat_proves_no_plan(horizon, None));
        }
    }

    /// Every encoding refuses an invalid instance with its reason (it
    /// panicked on an index out of bounds, a capacity overflow...).
    #[test]
    fn an_invalid_instance_is_refused_not_a_panic() {
        let others = [
            "direct,body=tail",
            "direct,body=block",
            "direct,position=axis",
        ];
        let names = NAMES.iter().map(|(name, _)| *name).chain(others);
        for name in names {
            let encoding = by_name(name).unwrap();
            for instance in refused_examples() {
                let refused = Some(EncodeError::Instance(instance.validate_game().unwrap_err()));
                assert_eq!(encoding.encode(&instance, 5).err(), refused, "{name}");
                if encoding.capabilities().incremental {
                    let open = encoding.encode_open(&instance, 5).err();
                    assert_eq!(open, refused, "{name}");
                }
            }
        }
    }

    /// The errors were strings; a caller can now tell them apart (the
    /// texts are the ones the command line has always printed).
    #[test]
    fn bad_names_get_typed_errors() {
        let cases = [
            (
                "bogus",
                NameError::Unknown("bogus".into()),
                "unknown encoding \"bogus\" (the encodings: direct, its options as \
                 direct,KEY=VALUE,... and notebook-mvp1, notebook-counter, \
                 notebook-combinations, notebook-ordered)",
            ),
            (
                "direct,amo=zz",
                NameError::BadValue {
                    option: "amo",
                    value: "zz".into(),
                    allowed: "pairwise|sequential|commander|product|binary|bimander".into(),
                },
                "unknown amo \"zz\" (pairwise|sequential|commander|product|binary|bimander)",
            ),
            (
                "body=x",
                NameError::BadValue {
                    option: "body",
                    value: "x".into(),
                    allowed: "auto|window|compare|block|tail".into(),
                },
                "unknown body \"x\" (auto|window|compare|block|tail)",
            ),
            (
                "direct,prune=maybe",
                NameError::BadPrune("maybe".into()),
                "prune must be on or off, not \"maybe\"",
            ),
            (
                "direct,prune=on,prune=off",
                NameError::Repeated {
                    key: "prune".into(),
                    name: "direct,prune=on,prune=off".into(),
                },
                "encoding option \"prune\" given twice in \"direct,prune=on,prune=off\"",
            ),
            (
                "direct,amo=pairwise,direct",
                NameError::SecondName("direct,amo=pairwise,direct".into()),
                "\"direct,amo=pairwise,direct\" names more than one encoding: `direct` may only begin it",
            ),
            (
                "amo=binary, direct",
                NameError::SecondName("amo=binary, direct".into()),
                "\"amo=binary, direct\" names more than one encoding: `direct` may only begin it",
            ),
            (
                "direct,colour=red",
                NameError::UnknownOption {
                    key: "colour".into(),
                    name: "direct,colour=red".into(),
                },
                "unknown encoding option \"colour\" in \"direct,colour=red\"",
            ),
        ];
        for (name, error, text) in cases {
            let got = by_name(name).err().unwrap();
            assert_eq!(got, error, "{name}");
            assert_eq!(got.to_string(), text, "{name}");
        }
    }
}
