//! Encodings of a game into CNF, one type per encoding family behind the
//! [`Encoding`] trait, chosen by name ([`by_name`]).
//!
//! - [`direct::Direct`]: snakesat's sound encoding of the full model, with
//!   options ([`direct::DirectOptions`]) that combine independently.
//! - [`notebook`]: the notebook's four encodings exactly as its code wrote
//!   them (approximations of the game; see DESIGN.md §2).
//!
//! Every encoding names its head variables `head x y t` (time `t` counted in
//! moves from 0), which is all [`decode::path_from_model`] needs to turn a
//! model back into a path.

pub mod amo;
pub mod decode;
pub mod direct;
pub mod notebook;
pub mod prune;

use thiserror::Error;

use crate::cnf::Cnf;
use crate::instance::Instance;

/// A way to turn an instance and a number of moves into CNF.
pub trait Encoding {
    /// The name `solve --encoding NAME` accepts.
    fn name(&self) -> String;
    /// True if the encoding only approximates the game (its models may not be
    /// legal plans).
    fn approximate(&self) -> bool;
    /// Builds the formula "every apple eaten within `moves` moves".
    fn encode(&self, instance: &Instance, moves: usize) -> Result<Cnf, EncodeError>;
}

/// Why an encoding refuses an instance.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EncodeError {
    #[error("encoding {encoding} does not accept this instance: {reason}")]
    Unsupported { encoding: String, reason: String },
    #[error("encoding {encoding} would need {clauses} clauses, beyond its limit of {limit}")]
    TooLarge {
        encoding: String,
        clauses: u128,
        limit: u128,
    },
    #[error("encoding {encoding} would need {count} {what}, beyond its limit of {limit}")]
    TooBig {
        encoding: String,
        what: &'static str,
        count: u128,
        limit: u128,
    },
}

/// All encoding names, with a one-line description each (for `--help`).
pub const NAMES: &[(&str, &str)] = &[
    (
        "direct",
        "sound encoding of the full model (default); options: amo=pairwise|sequential|commander|product|binary|bimander, prune=on|off",
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

/// The encoding called `name`: `direct`, `direct,key=value,...` (or just
/// `key=value,...`), or one of the notebook's.
pub fn by_name(name: &str) -> Result<Box<dyn Encoding>, String> {
    if let Some(nb) = notebook::Notebook::by_name(name) {
        return Ok(Box::new(nb));
    }
    let options = direct::DirectOptions::parse(name)?;
    Ok(Box::new(direct::Direct::new(options)))
}
