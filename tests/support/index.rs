//! The files `snakesat generate` writes into a family folder, as
//! docs/FORMATS.md describes them: one `IndexRow` per line of `index.jsonl`
//! and the `Summary` of `summary.json`. Both refuse unknown fields, so a
//! column the CLI adds or renames fails these tests until the format is
//! written down here too.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One file of a family (a line of `index.jsonl`), fields in the CLI's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexRow {
    pub id: String,
    pub file: String,
    pub kind: String,
    pub width: usize,
    pub height: usize,
    pub walls: usize,
    pub start: String,
    pub length: usize,
    pub apples: usize,
    pub visible: usize,
    pub tail: String,
    pub grow: bool,
    pub t_star: usize,
    pub lower_bound: usize,
    pub encoding: Option<String>,
    pub horizon: Option<usize>,
    pub status: Option<String>,
    pub variables: Option<u64>,
    pub clauses: Option<u64>,
    pub literals: Option<u64>,
    pub sha256: String,
    pub generator: String,
    pub seed: u64,
    pub command: String,
    pub solve_seconds: f64,
}

/// `summary.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    pub generator: String,
    pub command: String,
    pub seed: u64,
    pub mode: String,
    pub distinct: usize,
    pub draws: usize,
    pub duplicates: usize,
    pub invalid: usize,
    pub instances: usize,
    pub unsolvable: usize,
    pub unknown: usize,
    pub out_of_band: usize,
    #[serde(default)]
    pub skipped_cnfs: usize,
    pub files: usize,
    #[serde(default)]
    pub shard: Option<String>,
}

/// Reads the rows of `index.jsonl`.
pub fn from_jsonl(text: &str) -> Result<Vec<IndexRow>, serde_json::Error> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect()
}

/// The rows as JSON lines, as `generate` writes them.
pub fn to_jsonl(rows: &[IndexRow]) -> String {
    rows.iter()
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .collect()
}

/// The rows as the CSV table `generate` writes beside the JSON lines.
pub fn to_csv(rows: &[IndexRow]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// The SHA-256 of `bytes` in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The rows with the timing column (`solve_seconds`) set to zero, for
/// comparing runs.
pub fn without_timing(rows: &[IndexRow]) -> Vec<IndexRow> {
    rows.iter()
        .map(|r| IndexRow {
            solve_seconds: 0.0,
            ..r.clone()
        })
        .collect()
}
