//! Reading back a plan saved as the JSON of `solve --json` (docs/FORMATS.md,
//! "Plan (JSON)") and checking it on its instance: what `snakesat check` and
//! `snakesat render` do with a JSON plan, for programs that keep plans in
//! files.
//!
//! ```
//! use snakesat::instance::json::from_json;
//! use snakesat::plan_file;
//!
//! let instance = from_json(r#"{"width": 3, "height": 1, "snake": [[0, 0]], "apples": [[2, 0]]}"#)?;
//! let saved = plan_file::read(r#"{"status": "sat", "horizon": 2, "path": [[0, 0], [1, 0], [2, 0]]}"#)?;
//! let replay = saved.check(&instance)?;
//! assert_eq!(replay.eaten, vec![(0, 2)]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Only `status`, `horizon`, `path` and `eaten` are read; every other field
//! is skipped without being held, so a plan from another planner needs no
//! more than a `path`. The path is held up to the horizon limit's cells and
//! only counted beyond them, so a file of a billion cells is refused without
//! a billion cells in memory.

use serde::Deserialize;
use serde::de::IgnoredAny;
use thiserror::Error;

use crate::excerpt::{excerpt, json_message};
use crate::instance::json::{PairList, PairsRead, deserialize_pairs, present};
use crate::instance::{Instance, MAX_APPLES, MAX_HORIZON, Pos};
use crate::sim::{self, Replay, Violation};

/// A plan read from the JSON of `solve --json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanFile {
    /// The file's `status`, when it has one (`read` accepts only `sat`).
    pub status: Option<String>,
    /// The file's `horizon`, when it has one (`read` checks it against `path`).
    pub horizon: Option<usize>,
    /// The head's cells at `t = 0..=moves`.
    pub path: Vec<Pos>,
    /// The file's `eaten` list (`[apple index, time]`), when it has one;
    /// [`PlanFile::check`] requires it to be the simulator's.
    pub eaten: Option<Vec<(usize, usize)>>,
}

/// Why a text is not a plan of `solve --json`.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// A JSON array where a plan (an object) is expected.
    #[error("a plan is a JSON object ({{\"path\": ...}}), not an array")]
    Array,
    /// The first record of `play --json`: a game, which holds no moves.
    #[error("a game record of `play --json`, not a plan: it carries no moves")]
    GameRecord,
    /// Not JSON, or JSON of another shape (a field of the wrong type, a
    /// `null`, a cell that is not `[x, y]`).
    #[error("{message}{}", at(*line, *column))]
    Json {
        /// What is wrong, in serde's words (a number beyond a field's range
        /// named as written).
        message: String,
        /// Line of the fault, from 1; 0 when none applies.
        line: usize,
        /// Column of the fault, from 1.
        column: usize,
    },
    /// A `status` other than `sat`: the answer has no path.
    #[error("status {0}: only a plan with status sat has a path")]
    NotSat(String),
    /// No `path`, or an empty one.
    #[error("no `path`")]
    NoPath,
    /// More moves than [`MAX_HORIZON`].
    #[error("the plan has {moves} moves, beyond the horizon limit of {MAX_HORIZON}")]
    TooLong {
        /// Moves of the path.
        moves: usize,
    },
    /// `horizon` and the length of `path` disagree.
    #[error("`horizon` is {horizon} but `path` has {} ({})", crate::counted(*cells, "cell"), crate::counted(*cells - 1, "move"))]
    Horizon {
        /// The file's `horizon`.
        horizon: usize,
        /// Cells of its `path`.
        cells: usize,
    },
}

/// ` at line L column C`, or nothing for line 0.
fn at(line: usize, column: usize) -> String {
    match line {
        0 => String::new(),
        _ => format!(" at line {line} column {column}"),
    }
}

/// Why a plan read from a file is not a legal plan of an instance.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum CheckError {
    /// The instance fixes a horizon the plan does not have.
    #[error("the plan has {} but the instance fixes the horizon at {horizon}", crate::counted(*moves, "move"))]
    Horizon {
        /// Moves of the plan.
        moves: usize,
        /// The instance's horizon.
        horizon: usize,
    },
    /// The simulator refuses the path.
    #[error("illegal plan: {0}")]
    Illegal(Violation),
    /// The path is legal but the file's `eaten` list is not what it eats.
    #[error("`eaten` does not match the path: {0}")]
    Eaten(EatenMismatch),
}

/// The fields read; the others are skipped. Each may be left out, but one
/// that is present holds a value (`null` is refused, as in an instance).
#[derive(Deserialize)]
struct Fields {
    #[serde(default, deserialize_with = "present")]
    status: Option<String>,
    #[serde(default, deserialize_with = "present")]
    horizon: Option<usize>,
    #[serde(default, deserialize_with = "deserialize_path")]
    path: Option<PairsRead>,
    #[serde(default, deserialize_with = "deserialize_eaten")]
    eaten: Option<Vec<(usize, usize)>>,
}

/// Reads `path` (`[[x, y], ...]`): its cells up to the horizon limit's last
/// time point, and how many it has (a longer plan is refused by [`read`]
/// without being held).
fn deserialize_path<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<PairsRead>, D::Error> {
    const PATH: PairList = PairList {
        item: "cell",
        shape: "a cell is [x, y]",
        max: MAX_HORIZON + 1,
    };
    deserialize_pairs(d, &PATH).map(Some)
}

/// Reads `eaten` (`[[apple, time], ...]`), naming an entry of another length
/// and refusing more entries than an instance may have apples.
fn deserialize_eaten<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Option<Vec<(usize, usize)>>, D::Error> {
    const EATEN: PairList = PairList {
        item: "`eaten` entry",
        shape: "an entry is [apple, time]",
        max: MAX_APPLES,
    };
    let PairsRead { pairs, total } = deserialize_pairs(d, &EATEN)?;
    if total > EATEN.max {
        return Err(serde::de::Error::custom(format!(
            "{total} `eaten` entries, beyond the limit of {MAX_APPLES} apples"
        )));
    }
    Ok(Some(pairs))
}

/// Whether `text` is the first record of `play --json` (one JSON object per
/// line, with the keys only a game's record has).
fn is_game_record(text: &str) -> bool {
    /// The keys only a game's record has; their values are skipped without
    /// being held (a generic JSON value of a 66 MB plan file of nested lists
    /// took 3.8 GB and aborted).
    #[derive(Deserialize)]
    struct GameKeys {
        #[serde(rename = "won")]
        _won: IgnoredAny,
        #[serde(rename = "final_length")]
        _final_length: IgnoredAny,
        #[serde(rename = "cells")]
        _cells: IgnoredAny,
        #[serde(rename = "apples")]
        _apples: IgnoredAny,
    }
    let first = crate::excerpt::lines(text.trim_start())
        .next()
        .unwrap_or_default();
    serde_json::from_str::<GameKeys>(first).is_ok()
}

/// Reads the plan of `solve --json` in `text`, with the checks that need no
/// instance: `status`, when present, is `sat`; `path` has at least one cell
/// and at most [`MAX_HORIZON`] moves; `horizon`, when present, is its moves.
pub fn read(text: &str) -> Result<PlanFile, ReadError> {
    if text.trim_start().starts_with('[') {
        return Err(ReadError::Array);
    }
    let fields: Fields = serde_json::from_str(text).map_err(|e| {
        // A game's record holds no moves: said so (a bare parse error named
        // its `eaten` count, or there was no `path`).
        if is_game_record(text) {
            return ReadError::GameRecord;
        }
        ReadError::Json {
            message: json_message(text, &e),
            line: e.line(),
            column: e.column(),
        }
    })?;
    if let Some(status) = fields.status.as_deref()
        && status != "sat"
    {
        return Err(ReadError::NotSat(excerpt(status)));
    }
    let (path, cells) = match fields.path {
        Some(PairsRead { pairs, total }) if total > 0 => (pairs, total),
        _ if is_game_record(text) => return Err(ReadError::GameRecord),
        _ => return Err(ReadError::NoPath),
    };
    let moves = cells - 1;
    if moves > MAX_HORIZON {
        return Err(ReadError::TooLong { moves });
    }
    if let Some(horizon) = fields.horizon
        && horizon != moves
    {
        return Err(ReadError::Horizon { horizon, cells });
    }
    Ok(PlanFile {
        status: fields.status,
        horizon: fields.horizon,
        path,
        eaten: fields.eaten,
    })
}

impl PlanFile {
    /// Moves of the plan: the path's cells less one (0 for an empty path,
    /// which [`read`] never gives and [`PlanFile::check`] refuses).
    pub fn moves(&self) -> usize {
        self.path.len().saturating_sub(1)
    }

    /// Replays the plan on `instance` in the simulator: its moves are the
    /// instance's fixed horizon when it has one, the path is legal and eats
    /// every apple, and the file's `eaten`, when present, is what it eats.
    pub fn check(&self, instance: &Instance) -> Result<Replay, CheckError> {
        if let Some(horizon) = instance.horizon
            && horizon != self.moves()
        {
            return Err(CheckError::Horizon {
                moves: self.moves(),
                horizon,
            });
        }
        let replay = sim::simulate(instance, &self.path).map_err(CheckError::Illegal)?;
        if let Some(difference) = self
            .eaten
            .as_deref()
            .and_then(|claimed| EatenMismatch::between(claimed, &replay.eaten))
        {
            return Err(CheckError::Eaten(difference));
        }
        Ok(replay)
    }
}

/// The first difference between a plan file's `eaten` list and what the
/// simulator eats, at entry `index` of each (`[apple index, time]` pairs).
/// In words, the file's entry is quoted as JSON (indices from 0) and glossed,
/// and apples are named from 1, as the picture of `solve` draws them.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum EatenMismatch {
    /// The entries differ.
    #[error("{}, but the simulator eats apple {} at t = {}", entry(*.index, *.claimed), .replayed.0 + 1, .replayed.1)]
    Differs {
        /// The first entry where the lists differ.
        index: usize,
        /// The file's entry.
        claimed: (usize, usize),
        /// The simulator's entry.
        replayed: (usize, usize),
    },
    /// The file lists more apples than the simulator eats.
    #[error("{}, but the simulator eats only {}", entry(*.index, *.claimed), crate::counted(*.index, "apple"))]
    Extra {
        /// The first entry the simulator does not have (the apples it eats).
        index: usize,
        /// The file's entry there.
        claimed: (usize, usize),
    },
    /// The simulator eats more apples than the file lists.
    #[error("it lists {}, but the simulator also eats apple {} at t = {}", crate::counted(*.index, "apple"), .replayed.0 + 1, .replayed.1)]
    Missing {
        /// The first entry the file does not have (the apples it lists).
        index: usize,
        /// The simulator's entry there.
        replayed: (usize, usize),
    },
}

/// Entry `k` of a file's `eaten` list, quoted and glossed.
fn entry(k: usize, (i, t): (usize, usize)) -> String {
    format!("`eaten[{k}]` is [{i}, {t}] (apple {} at t = {t})", i + 1)
}

impl EatenMismatch {
    /// The first difference between `claimed` and `replayed`; `None` when
    /// they agree.
    fn between(claimed: &[(usize, usize)], replayed: &[(usize, usize)]) -> Option<Self> {
        let index = claimed
            .iter()
            .zip(replayed)
            .position(|(c, r)| c != r)
            .unwrap_or(claimed.len().min(replayed.len()));
        match (claimed.get(index).copied(), replayed.get(index).copied()) {
            (None, None) => None,
            (Some(claimed), Some(replayed)) => Some(Self::Differs {
                index,
                claimed,
                replayed,
            }),
            (Some(claimed), None) => Some(Self::Extra { index, claimed }),
            (None, Some(replayed)) => Some(Self::Missing { index, replayed }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::json::from_json;

    fn line() -> Instance {
        from_json(r#"{"width": 4, "height": 1, "snake": [[0, 0]], "apples": [[2, 0], [3, 0]]}"#)
            .unwrap()
    }

    #[test]
    fn reads_and_checks_a_plan_of_solve() {
        let saved = read(
            r#"{"status": "sat", "horizon": 3, "path": [[0, 0], [1, 0], [2, 0], [3, 0]],
                "eaten": [[0, 2], [1, 3]], "optimal": true, "stats": {"variables": 1}}"#,
        )
        .unwrap();
        assert_eq!(saved.moves(), 3);
        assert_eq!(saved.check(&line()).unwrap().eaten, vec![(0, 2), (1, 3)]);
    }

    /// A `PlanFile` built in code (its fields are public) with an empty path
    /// is refused by `check`, not a panic (`moves` subtracted 1 from 0).
    #[test]
    fn an_empty_path_built_in_code_is_refused() {
        let empty = PlanFile {
            status: None,
            horizon: None,
            path: Vec::new(),
            eaten: None,
        };
        assert_eq!(empty.moves(), 0);
        assert!(matches!(empty.check(&line()), Err(CheckError::Illegal(_))));
        let fixed = Instance {
            horizon: Some(3),
            ..line()
        };
        assert!(matches!(
            empty.check(&fixed),
            Err(CheckError::Horizon {
                moves: 0,
                horizon: 3
            })
        ));
    }

    #[test]
    fn refuses_what_is_not_a_plan() {
        assert_eq!(read("[[0, 0]]"), Err(ReadError::Array));
        assert_eq!(
            read(r#"{"status": "unsat", "path": []}"#),
            Err(ReadError::NotSat("unsat".into()))
        );
        assert_eq!(
            read(r#"{"status": "sat", "path": []}"#),
            Err(ReadError::NoPath)
        );
        assert_eq!(read(r#"{"horizon": 2}"#), Err(ReadError::NoPath));
        assert_eq!(
            read(r#"{"horizon": 2, "path": [[0, 0], [1, 0]]}"#)
                .unwrap_err()
                .to_string(),
            "`horizon` is 2 but `path` has 2 cells (1 move)"
        );
        let Err(ReadError::Json { line, .. }) = read("{\n\"path\": null}") else {
            panic!("null is refused");
        };
        assert_eq!(line, 2);
        assert_eq!(
            read(r#"{"won": true, "final_length": 9, "cells": 9, "apples": 8, "seed": 1}"#),
            Err(ReadError::GameRecord)
        );
    }

    #[test]
    fn refuses_a_path_beyond_the_horizon_limit_without_holding_it() {
        let cells = MAX_HORIZON + 2;
        let text = format!("{{\"path\": [{}[0, 0]]}}", "[0, 0], ".repeat(cells - 1));
        assert_eq!(read(&text), Err(ReadError::TooLong { moves: cells - 1 }));
    }

    #[test]
    fn check_names_what_the_simulator_refuses() {
        let instance = line();
        let short = read(r#"{"path": [[0, 0], [1, 0], [2, 0]]}"#).unwrap();
        assert!(matches!(
            short.check(&instance),
            Err(CheckError::Illegal(_))
        ));
        let wrong =
            read(r#"{"path": [[0, 0], [1, 0], [2, 0], [3, 0]], "eaten": [[0, 2], [1, 4]]}"#)
                .unwrap();
        assert_eq!(
            wrong.check(&instance).unwrap_err().to_string(),
            "`eaten` does not match the path: `eaten[1]` is [1, 4] (apple 2 at t = 4), \
             but the simulator eats apple 2 at t = 3"
        );
        let fixed = Instance {
            horizon: Some(5),
            ..instance
        };
        let saved = read(r#"{"path": [[0, 0], [1, 0], [2, 0], [3, 0]]}"#).unwrap();
        assert_eq!(
            saved.check(&fixed),
            Err(CheckError::Horizon {
                moves: 3,
                horizon: 5
            })
        );
    }
}
