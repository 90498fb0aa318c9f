//! The index of a family folder and how shards of a sweep are merged.
//!
//! `index.csv` and `index.jsonl` hold one [`IndexRow`] per file (instance
//! JSON, PDDL problem, CNF); `summary.json` holds the [`Summary`] (the
//! command that regenerates the family, what sampling rejected). Every column
//! is a function of the command line except `solve_seconds`, so two runs of
//! one command — on one machine, or as shards merged by [`merge`] — give
//! files that are identical once that column is blanked.
//!
//! A shard `I/K` (1-based, as `bench game --shard`) handles the positions
//! `p` (0-based) with `p % K == I − 1`; [`merge_tables`] interleaves the
//! tables of shards `1/K … K/K` back into the order of a single run.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use snakesat::excerpt::excerpt;
use thiserror::Error;

/// One file of a family. A key `generate` does not write is refused when a
/// shard's index is read (`merge`), since the merged index is rebuilt from
/// these fields and would drop it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexRow {
    /// The instance's id in the family (`i0007`), zero-padded so that ids sort.
    pub id: String,
    /// The file's name in the family folder.
    pub file: String,
    /// `instance` (JSON), `pddl` (IPC-2018 problem), `cnf` (DIMACS) or
    /// `proof` (the binary DRAT proof of the unsat CNF file of the same
    /// encoding and horizon, `generate --proof`).
    pub kind: String,
    /// Board width.
    pub width: usize,
    /// Board height.
    pub height: usize,
    /// Number of walls.
    pub walls: usize,
    /// `free` or `body`.
    pub start: String,
    /// Snake length at `t = 0`.
    pub length: usize,
    /// Number of apples.
    pub apples: usize,
    /// Apples visible at once.
    pub visible: usize,
    /// Tail rule: `follow` or `strict`.
    pub tail: String,
    /// The snake grows when it eats.
    pub grow: bool,
    /// The least number of moves of a plan (proven).
    pub t_star: usize,
    /// The lower bound the planner starts from.
    pub lower_bound: usize,
    /// The encoding of a CNF file.
    pub encoding: Option<String>,
    /// The horizon of a CNF file.
    pub horizon: Option<usize>,
    /// The answer for a CNF file: `sat` or `unsat` (an instance whose CNF a
    /// limit left unanswered is dropped, not listed).
    pub status: Option<String>,
    /// Variables of a CNF file.
    pub variables: Option<u64>,
    /// Clauses of a CNF file.
    pub clauses: Option<u64>,
    /// Literals of a CNF file.
    pub literals: Option<u64>,
    /// SHA-256 of the file's bytes, in hex.
    pub sha256: String,
    /// `snakesat <version>`.
    pub generator: String,
    /// The family's seed.
    pub seed: u64,
    /// The command that regenerates the family (without `-o` and `--shard`).
    pub command: String,
    /// CaDiCaL's time on the file (CNF), or the least-horizon search's
    /// (instance and PDDL rows), in seconds. Not reproducible.
    pub solve_seconds: f64,
}

/// What a family (or one shard of it) holds and what was rejected (an
/// unknown key is refused, as in [`IndexRow`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// `snakesat <version>`.
    pub generator: String,
    /// The command that regenerates the family.
    pub command: String,
    /// The seed.
    pub seed: u64,
    /// `sample` or `all`.
    pub mode: String,
    /// Distinct instances drawn (or enumerated).
    pub distinct: usize,
    /// Draws made.
    pub draws: usize,
    /// Draws rejected because their class was already drawn.
    pub duplicates: usize,
    /// Draws that were not valid instances.
    pub invalid: usize,
    /// Instances kept (written).
    pub instances: usize,
    /// Instances without any plan within the largest horizon (dropped).
    pub unsolvable: usize,
    /// Instances dropped because a solve reached the time limit.
    pub unknown: usize,
    /// Instances dropped by `--solve-seconds` (depends on timing).
    pub out_of_band: usize,
    /// CNF files of kept instances not written because their horizon
    /// `T*-K` is below 1 move (`T* <= K`).
    #[serde(default)]
    pub skipped_cnfs: usize,
    /// Files listed in the index.
    pub files: usize,
    /// `I/K` for one shard's summary; absent once merged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// Why shard outputs cannot be merged.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// A shard text that is not `I/K` with `1 <= I <= K`.
    #[error("shard must be I/K with 1 <= I <= K, not {:?}", excerpt(.0))]
    BadShard(String),
    /// Shards of different sweeps.
    #[error("the shards come from different commands: {}", {
        let (first, other) = differing_words(.0, .1);
        format!("{first} against {other}")
    })]
    DifferentCommands(String, String),
    /// Shards of one command whose summaries differ on the sampling they
    /// share (every shard's summary repeats it).
    #[error(
        "the summaries of shards {first} and {other} differ on `{field}`: {a} against {b} (a summary edited, or shards of different runs)"
    )]
    DifferentSampling {
        /// The first shard given (`I/K`, or its place).
        first: String,
        /// The shard that differs.
        other: String,
        /// The summary field.
        field: &'static str,
        /// The first shard's value.
        a: String,
        /// The other's.
        b: String,
    },
    /// A shard missing or given twice.
    #[error("expected shards 1/{count}..{count}/{count} once each, got {got}")]
    WrongShards {
        /// K.
        count: usize,
        /// The shards given.
        got: String,
    },
    /// Tables with different headers.
    #[error("table {0} does not have the header of the first table")]
    DifferentHeaders(usize),
    /// Row counts that no split `p % K` gives.
    #[error("row counts {0:?} are not those of shards 1/K..K/K given in order")]
    Uneven(Vec<usize>),
    /// Merged rows that a single run does not give in that order.
    #[error(
        "merged row {row} ({what}) is out of place: {why}; give every shard 1/K..K/K once, in that order"
    )]
    OutOfOrder {
        /// The row (1-based, after the header) where the order breaks.
        row: usize,
        /// The row's key columns.
        what: String,
        /// What is wrong.
        why: String,
    },
    /// A merged row whose cell is not what its column holds (a table edited
    /// by hand, or not written by `bench`).
    #[error("merged row {row}: column {column} holds {:?}, not {expected}", excerpt(.value))]
    BadCell {
        /// The row (1-based, after the header).
        row: usize,
        /// The column's name.
        column: String,
        /// The cell.
        value: String,
        /// What the column holds.
        expected: &'static str,
    },
    /// A row of table `table` (1-based) whose `shard` column is not `I/K`
    /// with `1 <= I <= K`, or not the one of the table's other rows.
    #[error(
        "table {table}: a row's shard {:?} is not I/K with 1 <= I <= K, or not its other rows' shard",
        excerpt(.text)
    )]
    ShardColumn {
        /// The table's number.
        table: usize,
        /// The column's text.
        text: String,
    },
    /// A row of table `table` (1-based) with other than the header's
    /// number of cells (a table cut short, or edited), found before its
    /// shard columns are read.
    #[error("table {table} line {line} has {got} cells, the header {expected}")]
    Cells {
        /// The table's number.
        table: usize,
        /// The line (1-based, the header being line 1).
        line: usize,
        /// The row's cells.
        got: usize,
        /// The header's.
        expected: usize,
    },
    /// A merged row that is not CSV, or whose cells are not as many as the
    /// header's.
    #[error("merged row {row} does not have the header's cells")]
    BadRow {
        /// The row (1-based, after the header).
        row: usize,
    },
    /// A table without a header line.
    #[error("table {0} is empty (no header)")]
    Empty(usize),
    /// Merged rows fewer or more than the shards' settings give: a table
    /// with no rows (which names neither its shard nor its settings) stands
    /// for a shard of this sweep that had rows.
    #[error(
        "the shards hold {got} rows where their settings give {expected}: a table without rows is not a shard of this sweep"
    )]
    RowCount {
        /// The rows the settings give.
        expected: usize,
        /// The rows the tables hold.
        got: usize,
    },
    /// No table has a row, so none tells its shard or settings (a sweep's
    /// first shard always has one).
    #[error(
        "no table has a row: they name no shard and no settings, so they are no sweep's shards"
    )]
    NoRows,
    /// A table whose header does not end in the columns of a shard.
    #[error("table {0} has no `settings` and `shard` columns: it is not the CSV of a shard")]
    NotShard(usize),
    /// Shards run with different settings.
    #[error(
        "table {} was run with other settings than table {}: {:?} against {:?}",
        other.0, first.0, excerpt(&other.1), excerpt(&first.1)
    )]
    DifferentSettings {
        /// The first table's number (1-based) and settings.
        first: (usize, String),
        /// Those of a table that differs.
        other: (usize, String),
    },
}

/// A shard `I/K` of a sweep (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// I, in `1..=K`.
    pub index: usize,
    /// K.
    pub count: usize,
}

impl Shard {
    /// Parses `I/K` with `1 <= I <= K`.
    pub fn parse(text: &str) -> Result<Shard, MergeError> {
        let bad = || MergeError::BadShard(text.to_string());
        let (i, k) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = k.trim().parse().map_err(|_| bad())?;
        if count == 0 || !(1..=count).contains(&index) {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// True when position `p` (0-based) belongs to this shard.
    pub fn owns(&self, p: usize) -> bool {
        p % self.count == self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// The SHA-256 of `bytes` in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// The SHA-256, in lowercase hex, of the bytes of `reader`, read a block at
/// a time (never whole in memory); each block is passed to `each` too, whose
/// error stops the read, as a read error does (told by `read_failed`).
pub fn sha256_blocks<E>(
    mut reader: impl std::io::Read,
    mut each: impl FnMut(&[u8]) -> Result<(), E>,
    read_failed: impl Fn(std::io::Error) -> E,
) -> Result<String, E> {
    let mut hasher = Sha256::new();
    let mut block = vec![0u8; 1 << 20];
    loop {
        match reader.read(&mut block) {
            Ok(0) => return Ok(hex(&hasher.finalize())),
            Ok(n) => {
                hasher.update(&block[..n]);
                each(&block[..n])?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(read_failed(e)),
        }
    }
}

/// The SHA-256 of the file `path` in lowercase hex ([`sha256_blocks`]).
pub fn sha256_file(path: &std::path::Path) -> std::io::Result<String> {
    sha256_blocks(std::fs::File::open(path)?, |_| Ok(()), |e| e)
}

/// `bytes` as lowercase hexadecimal, two digits a byte.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The rows as CSV with a header line.
pub fn to_csv(rows: &[IndexRow]) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    if rows.is_empty() {
        // The csv crate writes the header with the first row; write it alone.
        w.write_record(header()).expect("writing to memory");
    }
    for r in rows {
        w.serialize(r).expect("rows serialise");
    }
    String::from_utf8(w.into_inner().expect("writing to memory")).expect("CSV of UTF-8 fields")
}

/// The CSV header of [`IndexRow`].
fn header() -> Vec<&'static str> {
    vec![
        "id",
        "file",
        "kind",
        "width",
        "height",
        "walls",
        "start",
        "length",
        "apples",
        "visible",
        "tail",
        "grow",
        "t_star",
        "lower_bound",
        "encoding",
        "horizon",
        "status",
        "variables",
        "clauses",
        "literals",
        "sha256",
        "generator",
        "seed",
        "command",
        "solve_seconds",
    ]
}

/// The rows as JSON lines.
pub fn to_jsonl(rows: &[IndexRow]) -> String {
    rows.iter()
        .map(|r| serde_json::to_string(r).expect("rows serialise") + "\n")
        .collect()
}

/// Reads the rows of `index.jsonl` (blank lines skipped). An error names
/// the file's line and the column in it (each line is read on its own, so
/// serde's own position would always say line 1).
pub fn from_jsonl(text: &str) -> Result<Vec<IndexRow>, String> {
    snakesat::excerpt::lines(text)
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|e| {
                let message = snakesat::excerpt::json_message(l, &e);
                format!("line {} column {}: {message}", i + 1, e.column())
            })
        })
        .collect()
}

/// The words (split at spaces) of `a` that `b` lacks, and those of `b`
/// that `a` lacks, each cut to an [`excerpt`] (`(nothing more)` for none):
/// what differs between two shards' commands or settings, without repeating
/// what they share.
pub fn differing_words(a: &str, b: &str) -> (String, String) {
    // A flag and its value are one word (`--seed 2`), so that a value that
    // differs is shown with its flag, not alone.
    let words = |text: &str| {
        let mut words: Vec<String> = Vec::new();
        for word in text.split(' ') {
            match words.last_mut() {
                Some(flag)
                    if flag.starts_with("--") && !flag.contains(' ') && !word.starts_with("--") =>
                {
                    flag.push(' ');
                    flag.push_str(word);
                }
                _ => words.push(word.to_string()),
            }
        }
        words
    };
    let only = |x: &str, y: &str| {
        let theirs = words(y);
        let ours: Vec<String> = words(x)
            .into_iter()
            .filter(|w| !theirs.contains(w))
            .collect();
        match ours.is_empty() {
            true => "(nothing more)".to_string(),
            false => excerpt(&ours.join(" ")),
        }
    };
    (only(a, b), only(b, a))
}

/// The summary as pretty JSON with a final newline.
pub fn summary_json(summary: &Summary) -> String {
    serde_json::to_string_pretty(summary).expect("summary serialises") + "\n"
}

/// Joins the summaries and rows of shards `1/K..K/K` (in any order) into
/// those of one run: rows sorted by id (each shard's order kept within an
/// id), counts of kept and dropped instances summed.
pub fn merge(
    shards: Vec<(Summary, Vec<IndexRow>)>,
) -> Result<(Summary, Vec<IndexRow>), MergeError> {
    let first = shards.first().map(|s| s.0.clone()).unwrap_or_default();
    // What the merged summary takes from the first shard: every shard's
    // summary must repeat it.
    let shared = |s: &Summary| {
        [
            ("generator", s.generator.clone()),
            ("seed", s.seed.to_string()),
            ("mode", s.mode.clone()),
            ("distinct", s.distinct.to_string()),
            ("draws", s.draws.to_string()),
            ("duplicates", s.duplicates.to_string()),
            ("invalid", s.invalid.to_string()),
        ]
    };
    let name = |s: &Summary| s.shard.clone().unwrap_or_else(|| "unsharded".into());
    let first_sampling = shared(&first);
    let mut seen = Vec::new();
    for (s, _) in &shards {
        if s.command != first.command {
            return Err(MergeError::DifferentCommands(
                first.command.clone(),
                s.command.clone(),
            ));
        }
        seen.push(s.shard.as_deref().map(Shard::parse).transpose()?);
        if let Some(((field, a), (_, b))) = first_sampling
            .iter()
            .cloned()
            .zip(shared(s))
            .find(|(a, b)| a != b)
        {
            return Err(MergeError::DifferentSampling {
                first: name(&first),
                other: name(s),
                field,
                a,
                b,
            });
        }
    }
    // K: the shards' own when they agree, else the number given.
    let counts: Vec<usize> = seen.iter().flatten().map(|s| s.count).collect();
    let count = match counts.first() {
        Some(&k) if counts.len() == seen.len() && counts.iter().all(|&c| c == k) => k,
        _ => shards.len(),
    };
    let mut indices: Vec<usize> = seen
        .iter()
        .filter_map(|s| s.filter(|s| s.count == count).map(|s| s.index))
        .collect();
    indices.sort_unstable();
    if indices != (1..=count).collect::<Vec<_>>() {
        let mut got: Vec<String> = seen
            .iter()
            .map(|s| s.map_or("unsharded".to_string(), |s| s.to_string()))
            .collect();
        let missing: Vec<String> = (1..=count)
            .filter(|i| !indices.contains(i))
            .map(|i| format!("{i}/{count}"))
            .collect();
        let mut repeated: Vec<String> = indices
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| format!("{}/{count}", w[0]))
            .collect();
        repeated.dedup();
        if !missing.is_empty() {
            got.push(format!("missing {}", missing.join(", ")));
        }
        if !repeated.is_empty() {
            got.push(format!("repeated {}", repeated.join(", ")));
        }
        return Err(MergeError::WrongShards {
            count,
            got: got.join(", "),
        });
    }
    let mut summary = Summary {
        shard: None,
        instances: 0,
        unsolvable: 0,
        unknown: 0,
        out_of_band: 0,
        skipped_cnfs: 0,
        files: 0,
        ..first
    };
    let mut rows = Vec::new();
    for (s, r) in shards {
        summary.instances += s.instances;
        summary.unsolvable += s.unsolvable;
        summary.unknown += s.unknown;
        summary.out_of_band += s.out_of_band;
        summary.skipped_cnfs += s.skipped_cnfs;
        summary.files += s.files;
        rows.extend(r);
    }
    rows.sort_by(|a, b| a.id.cmp(&b.id));
    Ok((summary, rows))
}

/// The `I` and `K` of a shard's summary file name, `summary-I-of-K.json`,
/// as written there (unchecked); `None` for any other name.
pub fn summary_shard_name(name: &str) -> Option<(&str, &str)> {
    name.strip_prefix("summary-")?
        .strip_suffix(".json")?
        .split_once("-of-")
}

/// The last two columns of a shard's CSV table (see [`with_shard_column`]).
pub const SHARD_COLUMNS: &str = "settings,shard";

/// The CSV table of shard `shard` (when the run is one) with two last
/// columns on every line: `settings`, the run's settings that change its
/// rows (`settings`, which must hold no comma or quote), and `shard`
/// (`I/K`). [`merge_tables`] checks and drops them.
pub fn with_shard_column(table: &str, shard: Option<Shard>, settings: &str) -> String {
    let Some(shard) = shard else {
        return table.to_string();
    };
    debug_assert!(!settings.contains([',', '"', '\n', '\r']), "{settings:?}");
    let mut lines = table.lines();
    let mut out = String::with_capacity(table.len() + (settings.len() + 8) * table.lines().count());
    if let Some(header) = lines.next() {
        out.push_str(&format!("{header},{SHARD_COLUMNS}\n"));
    }
    for line in lines {
        out.push_str(&format!("{line},{settings},{shard}\n"));
    }
    out
}

/// Checks the `settings` and `shard` columns of shard tables (see
/// [`with_shard_column`]) and removes them: the tables must be shards
/// `1/K..K/K` of one `K`, once each and in that order, every row of a table
/// naming the same shard (a table without rows names none and is taken for
/// the shard at its place), and every row of every table the same settings,
/// which it returns with the tables.
fn strip_shard_column(tables: &[String]) -> Result<(Vec<String>, String), MergeError> {
    let count = tables.len();
    let mut got = Vec::with_capacity(count);
    let mut stripped = Vec::with_capacity(count);
    let mut first_settings: Option<(usize, String)> = None;
    for (i, t) in tables.iter().enumerate() {
        let mut lines = snakesat::excerpt::lines(t);
        let header = lines.next().ok_or(MergeError::Empty(i + 1))?;
        let Some(header) = header.strip_suffix(&format!(",{SHARD_COLUMNS}")) else {
            return Err(MergeError::NotShard(i + 1));
        };
        let cells = csv_cells(header) + csv_cells(SHARD_COLUMNS);
        let mut out = format!("{header}\n");
        let mut shard: Option<String> = None;
        for (number, line) in lines.enumerate() {
            let got = csv_cells(line);
            if got != cells {
                return Err(MergeError::Cells {
                    table: i + 1,
                    line: number + 2,
                    got,
                    expected: cells,
                });
            }
            let (rest, s) = line.rsplit_once(',').unwrap_or(("", line));
            let (row, settings) = rest.rsplit_once(',').unwrap_or(("", rest));
            let bad = || MergeError::ShardColumn {
                table: i + 1,
                text: s.to_string(),
            };
            if shard.as_deref().is_some_and(|x| x != s) {
                return Err(bad());
            }
            Shard::parse(s).map_err(|_| bad())?;
            match &first_settings {
                Some((j, first)) if first != settings => {
                    return Err(MergeError::DifferentSettings {
                        first: (*j, first.clone()),
                        other: (i + 1, settings.to_string()),
                    });
                }
                Some(_) => {}
                None => first_settings = Some((i + 1, settings.to_string())),
            }
            shard = Some(s.to_string());
            out.push_str(row);
            out.push('\n');
        }
        got.push(shard.unwrap_or_else(|| format!("{}/{count} (no rows)", i + 1)));
        stripped.push(out);
    }
    let expected: Vec<String> = (1..=count).map(|i| format!("{i}/{count}")).collect();
    let matches = got
        .iter()
        .zip(&expected)
        .all(|(g, e)| g == e || g.strip_suffix(" (no rows)") == Some(e.as_str()));
    if !matches {
        // K as the tables name it when they agree (shard 2/3 missing: 1/3..3/3
        // expected, not 1/2..2/2), else the number of tables.
        let named: Vec<usize> = got
            .iter()
            .filter_map(|g| Shard::parse(g).ok())
            .map(|s| s.count)
            .collect();
        let count = match named.first() {
            Some(&k) if named.iter().all(|&n| n == k) => k,
            _ => count,
        };
        return Err(MergeError::WrongShards {
            count,
            got: got.join(", ") + " (CSV tables go in shard order)",
        });
    }
    let (_, settings) = first_settings.ok_or(MergeError::NoRows)?;
    Ok((stripped, settings))
}

/// The rows of a whole sweep run with `settings` (the `settings` column of
/// [`with_shard_column`]): `bench game`'s sizes × reuse strategies × games,
/// `bench`'s problems; `None` for settings that do not tell.
fn sweep_rows(settings: &str) -> Option<usize> {
    let value = |key: &str| {
        settings
            .split(' ')
            .find_map(|pair| pair.strip_prefix(key)?.strip_prefix('='))
    };
    if let Some(problems) = value("problems") {
        return problems.parse().ok();
    }
    let listed = |key: &str| value(key).map(|v| v.split('+').count());
    let games: usize = value("games")?.parse().ok()?;
    listed("sizes")?
        .checked_mul(listed("reuse")?)?
        .checked_mul(games)
}

/// Interleaves the CSV tables of shards `1/K..K/K` (given in that order,
/// each with the same header ending in the `settings` and `shard` columns of
/// [`with_shard_column`]) into the table of a single run: row `j` of shard
/// `i` (0-based) goes to position `j·K + i`. The tables must name shards
/// `1/K..K/K` in order and the same settings; the merged rows are then
/// checked against the order of a single run (`check_run_order`).
pub fn merge_tables(tables: &[String]) -> Result<String, MergeError> {
    let (tables, settings) = strip_shard_column(tables)?;
    let mut split = Vec::with_capacity(tables.len());
    for t in &tables {
        let mut lines = snakesat::excerpt::lines(t);
        let header = lines.next().expect("a stripped table has its header");
        split.push((header, lines.collect::<Vec<&str>>()));
    }
    let Some(&(header, _)) = split.first() else {
        return Ok(String::new());
    };
    if let Some(i) = split.iter().position(|(h, _)| *h != header) {
        return Err(MergeError::DifferentHeaders(i + 1));
    }
    let counts: Vec<usize> = split.iter().map(|(_, rows)| rows.len()).collect();
    let total: usize = counts.iter().sum();
    if let Some(expected) = sweep_rows(&settings)
        && expected != total
    {
        return Err(MergeError::RowCount {
            expected,
            got: total,
        });
    }
    let k = counts.len();
    let expected: Vec<usize> = (0..k).map(|i| (total + k - 1 - i) / k).collect();
    if counts != expected {
        return Err(MergeError::Uneven(counts));
    }
    let mut out = String::with_capacity(tables.iter().map(String::len).sum());
    out.push_str(header);
    out.push('\n');
    for p in 0..total {
        let row = split[p % k].1[p / k];
        // (A row of only the shard columns is empty once they are gone; a
        // CSV reader would skip it.)
        if row.is_empty() {
            return Err(MergeError::BadRow { row: p + 1 });
        }
        out.push_str(row);
        out.push('\n');
    }
    // (The cells first: the order's check reads the key columns of rows
    // known to have every column.)
    check_cells(&out)?;
    check_run_order(&out)?;
    Ok(out)
}

/// Where row `row` (1-based, after the header) of the table that
/// [`merge_tables`] built from `tables` tables came from: the table (0-based)
/// and its line (1-based, the header being line 1).
pub fn merged_row_source(row: usize, tables: usize) -> (usize, usize) {
    let p = row - 1;
    (p % tables, p / tables + 2)
}

/// Whether a cell holds what its column does.
type CellTest = fn(&str) -> bool;

/// What a column of a `bench` or `bench game` table holds, by its name: a
/// description for the error, and the test a cell must pass (columns not
/// named here hold free text).
fn column_kind(name: &str) -> Option<(&'static str, CellTest)> {
    fn count(c: &str) -> bool {
        c.is_empty() || c.parse::<u64>().is_ok()
    }
    fn seconds(c: &str) -> bool {
        c.parse::<f64>().is_ok_and(|s| s.is_finite() && s >= 0.0)
    }
    fn grid(c: &str) -> bool {
        c.split_once('x').is_some_and(|(w, h)| {
            [w, h]
                .iter()
                .all(|n| n.parse::<usize>().is_ok_and(|n| n >= 1))
        })
    }
    Some(match name {
        "apples" | "plan_length" | "lower_bound" | "no_plan_below" | "variables" | "clauses"
        | "peak_memory_kb" | "certificates" | "proof_bytes" | "seed" | "steps" | "eaten"
        | "solver_calls" | "cuts" | "shortest_possible" | "least_safe" | "timeouts" => {
            ("a whole number or nothing", count)
        }
        "seconds" | "build_seconds" | "solve_seconds" => ("a number of seconds", seconds),
        "optimal" | "won" => ("true or false", |c| c == "true" || c == "false"),
        "certified" => ("true, false or nothing", |c| {
            matches!(c, "true" | "false" | "")
        }),
        "status" => ("sat, unsat, unknown, timeout, invalid or error", |c| {
            matches!(
                c,
                "sat" | "unsat" | "unknown" | "timeout" | "invalid" | "error"
            )
        }),
        "grid" => ("WxH or nothing", |c| c.is_empty() || grid(c)),
        "size" => ("WxH", grid),
        "reuse" => ("a --reuse strategy", |c| {
            snakesat::game::Reuse::ALL.iter().any(|r| r.name() == c)
        }),
        _ => return None,
    })
}

/// The cells of one CSV line, quoted cells (which may hold commas) counted
/// once, as the `csv` crate reads its first record (an empty line has none;
/// a CR outside quotes ends the record). Counted byte by byte without
/// keeping the cells: a shard's row of 20 million cells, read as a record,
/// took 1.2 GB before it was refused.
fn csv_cells(line: &str) -> usize {
    enum State {
        FieldStart,
        Unquoted,
        Quoted,
        QuoteInQuoted,
    }
    let mut state = State::FieldStart;
    let mut commas = 0;
    let mut started = false;
    for byte in line.bytes() {
        if !matches!(state, State::Quoted) && (byte == b'\r' || byte == b'\n') {
            if started {
                break;
            }
            // (Terminators before a record's first byte are skipped.)
            continue;
        }
        started = true;
        state = match (state, byte) {
            (State::Quoted, b'"') => State::QuoteInQuoted,
            (State::Quoted, _) => State::Quoted,
            (_, b',') => {
                commas += 1;
                State::FieldStart
            }
            (State::FieldStart, b'"') | (State::QuoteInQuoted, b'"') => State::Quoted,
            _ => State::Unquoted,
        };
    }
    if started { commas + 1 } else { 0 }
}

/// A merged table's header and a reader of its rows (`None` without a header).
fn read_table(table: &str) -> Option<(csv::StringRecord, csv::Reader<&[u8]>)> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_reader(table.as_bytes());
    let header = reader.headers().cloned().ok()?;
    Some((header, reader))
}

/// Checks every cell of a merged table against its column (see
/// [`column_kind`]): a shard's rows are only ever written by `bench`.
fn check_cells(table: &str) -> Result<(), MergeError> {
    let Some((header, mut reader)) = read_table(table) else {
        return Ok(());
    };
    let kinds: Vec<_> = header.iter().map(column_kind).collect();
    for (row, record) in reader.records().enumerate() {
        let bad = |column: &str, value: &str, expected: &'static str| MergeError::BadCell {
            row: row + 1,
            column: column.to_string(),
            value: value.to_string(),
            expected,
        };
        let record = record.map_err(|_| MergeError::BadRow { row: row + 1 })?;
        if record.len() != header.len() {
            return Err(MergeError::BadRow { row: row + 1 });
        }
        for ((name, value), kind) in header.iter().zip(record.iter()).zip(&kinds) {
            if let Some((expected, test)) = kind
                && !test(value)
            {
                return Err(bad(name, value, expected));
            }
        }
    }
    Ok(())
}

/// Checks that a merged table's rows are in the order of a single run, as
/// far as its key columns tell: a shard given twice, left out or out of
/// order puts rows out of place. `bench game` rows (`size`, `reuse`, `seed`)
/// come in groups of one (size, reuse), each with the seeds `s, s+1, …` of
/// the same `s` and count; `bench` rows (`instance`, `FOLDER/NAME.pddl`) in
/// groups of one folder, sorted by the number in the name then the name, as
/// `bench` lists them. Other tables are not checked. A missing shard whose
/// rows leave no gap (e.g. the last group's single game, or problems whose
/// numbers are not consecutive) cannot be told apart from a smaller run.
fn check_run_order(table: &str) -> Result<(), MergeError> {
    let Some((header, mut reader)) = read_table(table) else {
        return Ok(());
    };
    let column = |name: &str| header.iter().position(|h| h == name);
    let records: Vec<csv::StringRecord> = reader.records().filter_map(Result::ok).collect();
    let out_of_place = |row: usize, what: String, why: String| MergeError::OutOfOrder {
        row: row + 1,
        what,
        why,
    };
    if let (Some(size), Some(reuse), Some(seed)) = (column("size"), column("reuse"), column("seed"))
    {
        // (group, first seed, games so far) of each group, in order.
        let mut groups: Vec<(String, u64, u64)> = Vec::new();
        for (row, r) in records.iter().enumerate() {
            let group = format!("size {}, reuse {}", &r[size], &r[reuse]);
            let what = format!("{group}, seed {}", &r[seed]);
            let Ok(s) = r[seed].parse::<u64>() else {
                return Err(out_of_place(row, what, "the seed is not a number".into()));
            };
            match groups.last_mut() {
                Some((g, first, n)) if *g == group => {
                    let expected = first.wrapping_add(*n);
                    if s != expected {
                        return Err(out_of_place(
                            row,
                            what,
                            format!("a single run has seed {expected} here"),
                        ));
                    }
                    *n += 1;
                }
                _ => {
                    if groups.iter().any(|(g, _, _)| *g == group) {
                        return Err(out_of_place(
                            row,
                            what,
                            "its size and reuse already had their games".into(),
                        ));
                    }
                    if let Some(&(_, first, n)) = groups.first() {
                        let (_, _, last_n) = groups.last().expect("not empty");
                        if *last_n != n {
                            return Err(out_of_place(
                                row,
                                what,
                                format!(
                                    "the group before has {}, the first {n}",
                                    snakesat::counted(last_n, "game")
                                ),
                            ));
                        }
                        if s != first {
                            return Err(out_of_place(
                                row,
                                what,
                                format!("a single run starts every group at seed {first}"),
                            ));
                        }
                    }
                    groups.push((group, s, 1));
                }
            }
        }
        if let (Some((_, _, n)), Some((_, _, last))) = (groups.first(), groups.last())
            && n != last
        {
            return Err(out_of_place(
                records.len() - 1,
                "the last row".into(),
                format!(
                    "the last group has {}, the first {n}",
                    snakesat::counted(last, "game")
                ),
            ));
        }
    } else if let Some(instance) = column("instance") {
        let order = |name: &str| {
            let (folder, file) = name.rsplit_once('/').unwrap_or(("", name));
            let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
            let digits: String = stem.chars().filter(|c| c.is_ascii_digit()).collect();
            (
                folder.to_string(),
                (digits.parse::<u64>().unwrap_or(u64::MAX), stem.to_string()),
            )
        };
        let mut folders: Vec<String> = Vec::new();
        let mut last: Option<(u64, String)> = None;
        for (row, r) in records.iter().enumerate() {
            let what = format!("instance {}", &r[instance]);
            let (folder, key) = order(&r[instance]);
            if folders.last() == Some(&folder) {
                if last.as_ref().is_some_and(|l| *l >= key) {
                    return Err(out_of_place(
                        row,
                        what,
                        "a single run lists a folder's problems by number, each once".into(),
                    ));
                }
            } else if folders.contains(&folder) {
                return Err(out_of_place(
                    row,
                    what,
                    "its folder's problems came before".into(),
                ));
            } else {
                folders.push(folder);
            }
            last = Some(key);
        }
    }
    Ok(())
}

/// Per instance (in row order), the solve time of its first CNF at
/// `T* − 1`: the UNSAT proof that no shorter plan exists.
pub fn unsat_proof_seconds(rows: &[IndexRow]) -> Vec<f64> {
    let mut out = Vec::new();
    let mut last: Option<&str> = None;
    for r in rows {
        if r.kind == "cnf" && r.horizon.is_some_and(|h| h + 1 == r.t_star) && last != Some(&r.id) {
            out.push(r.solve_seconds);
            last = Some(&r.id);
        }
    }
    out
}

/// The hardness histogram: how many of `seconds` fall in each decade bin
/// (`< 1 ms`, `1–10 ms`, …, `≥ 10 s`), as `(label, count)` in order.
pub fn hardness_bins(seconds: &[f64]) -> Vec<(String, usize)> {
    const EDGES: [f64; 5] = [0.001, 0.01, 0.1, 1.0, 10.0];
    const LABELS: [&str; 6] = [
        "< 1 ms",
        "1-10 ms",
        "10-100 ms",
        "0.1-1 s",
        "1-10 s",
        ">= 10 s",
    ];
    let mut counts = [0usize; 6];
    for &s in seconds {
        counts[EDGES.iter().filter(|&&e| s >= e).count()] += 1;
    }
    LABELS
        .iter()
        .zip(counts)
        .map(|(l, c)| (l.to_string(), c))
        .collect()
}

#[cfg(test)]
mod tests {

    /// Two commands differ by their flags with their values (`--seed 1
    /// against --seed 2`: a bare `1 against 2`, or "(nothing more) against
    /// 2", named no flag); settings of `key=value` words as before.
    #[test]
    fn differing_words_keep_a_flag_with_its_value() {
        let a = "snakesat generate --size 3 --count 4 --seed 1 --proof --timeout 60";
        let b = "snakesat generate --size 3 --count 4 --seed 2 --timeout 60";
        assert_eq!(
            differing_words(a, b),
            ("--seed 1 --proof".to_string(), "--seed 2".to_string())
        );
        assert_eq!(
            differing_words("timeout=60 jobs=1", "timeout=5 jobs=1"),
            ("timeout=60".to_string(), "timeout=5".to_string())
        );
        assert_eq!(
            differing_words(a, a),
            ("(nothing more)".to_string(), "(nothing more)".to_string())
        );
    }

    /// A row's error names its line of the file, and a key `generate`
    /// does not write is refused (the merged index would drop it).
    #[test]
    fn jsonl_errors_name_the_line_and_unknown_keys_are_refused() {
        let row = to_jsonl(&[row("i0001", 0.5)]);
        let extra = row.replacen('{', "{\"extra\":[1,2],", 1);
        let text = format!("{row}\n{row}{extra}");
        let error = from_jsonl(&text).unwrap_err();
        assert!(error.starts_with("line 4 column "), "{error}");
        assert!(error.contains("unknown field `extra`"), "{error}");
        assert!(!error.contains("at line"), "{error}");
        assert_eq!(from_jsonl(&format!("{row}\n{row}")).unwrap().len(), 2);
        let error = from_jsonl(&format!("{row}{{\"id\": 7")).unwrap_err();
        assert!(error.starts_with("line 2 column "), "{error}");
        // A lone CR ends a line too (the extra row is the fourth).
        let error = from_jsonl(&text.replace('\n', "\r")).unwrap_err();
        assert!(error.starts_with("line 4 column "), "{error}");
        assert_eq!(from_jsonl(&format!("{row}\r{row}")).unwrap().len(), 2);
    }

    /// The cell count agrees with the `csv` crate's first record on lines
    /// made of commas, quotes, CRs, LFs and letters.
    #[test]
    fn csv_cells_count_as_the_csv_crate_reads() {
        use rand::{RngExt, SeedableRng};
        let reference = |line: &str| {
            csv::ReaderBuilder::new()
                .has_headers(false)
                .from_reader(line.as_bytes())
                .records()
                .next()
                .and_then(Result::ok)
                .map_or(0, |record| record.len())
        };
        let mut rng = rand::rngs::ChaCha8Rng::seed_from_u64(7);
        let alphabet = [',', '"', '\r', '\n', 'a', ' '];
        for _ in 0..20_000 {
            let length = rng.random_range(0..12);
            let line: String = (0..length)
                .map(|_| alphabet[rng.random_range(0..alphabet.len())])
                .collect();
            assert_eq!(csv_cells(&line), reference(&line), "{line:?}");
        }
    }
    use super::*;

    /// The rows with the timing column set to zero, for comparing runs.
    fn without_timing(rows: &[IndexRow]) -> Vec<IndexRow> {
        rows.iter()
            .map(|r| IndexRow {
                solve_seconds: 0.0,
                ..r.clone()
            })
            .collect()
    }

    fn row(id: &str, seconds: f64) -> IndexRow {
        IndexRow {
            id: id.into(),
            file: format!("{id}.json"),
            kind: "instance".into(),
            width: 4,
            height: 4,
            walls: 0,
            start: "free".into(),
            length: 3,
            apples: 2,
            visible: 1,
            tail: "follow".into(),
            grow: true,
            t_star: 7,
            lower_bound: 5,
            encoding: None,
            horizon: None,
            status: None,
            variables: None,
            clauses: None,
            literals: None,
            sha256: sha256_hex(id.as_bytes()),
            generator: "snakesat 0".into(),
            seed: 9,
            command: "snakesat generate".into(),
            solve_seconds: seconds,
        }
    }

    fn summary(shard: Option<&str>, instances: usize) -> Summary {
        Summary {
            command: "snakesat generate".into(),
            instances,
            files: instances,
            shard: shard.map(String::from),
            ..Summary::default()
        }
    }

    #[test]
    fn sha256_matches_the_standard_vector() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }

    #[test]
    fn rows_round_trip_and_csv_has_one_line_per_row() {
        let rows = vec![row("i0000", 0.5), row("i0001", 1.5)];
        assert_eq!(from_jsonl(&to_jsonl(&rows)).unwrap(), rows);
        let csv = to_csv(&rows);
        assert_eq!(csv.lines().count(), 3);
        assert_eq!(csv.lines().next().unwrap(), header().join(","));
        assert_eq!(to_csv(&[]).trim_end(), header().join(","));
    }

    #[test]
    fn merged_shards_equal_one_run_except_timing() {
        let single = vec![row("i0000", 0.1), row("i0001", 0.2), row("i0002", 0.3)];
        let shards = vec![
            (summary(Some("2/2"), 1), vec![row("i0001", 9.0)]),
            (
                summary(Some("1/2"), 2),
                vec![row("i0000", 8.0), row("i0002", 7.0)],
            ),
        ];
        let (s, rows) = merge(shards.clone()).unwrap();
        assert_eq!(s, summary(None, 3));
        assert_eq!(without_timing(&rows), without_timing(&single));
        assert_ne!(rows, single);
        // A shard missing, or a shard of another split.
        let missing = merge(shards[..1].to_vec()).unwrap_err();
        assert!(matches!(missing, MergeError::WrongShards { count: 2, .. }));
        assert!(
            missing.to_string().ends_with("got 2/2, missing 1/2"),
            "{missing}"
        );
        let twice = merge(vec![shards[0].clone(), shards[0].clone()]).unwrap_err();
        assert!(
            twice.to_string().contains("missing 1/2, repeated 2/2"),
            "{twice}"
        );
        let mut other = shards.clone();
        other[1].0.command = "snakesat generate --seed 2".into();
        assert!(matches!(
            merge(other),
            Err(MergeError::DifferentCommands(..))
        ));
        // A summary that disagrees on the sampling (it was merged, the
        // first shard's value kept).
        let mut edited = shards.clone();
        edited[1].0.distinct = 1_000_000_000;
        let error = merge(edited).unwrap_err();
        assert!(
            matches!(
                &error,
                MergeError::DifferentSampling {
                    field: "distinct",
                    ..
                }
            ),
            "{error}"
        );
        assert!(error.to_string().contains("1000000000"), "{error}");
    }

    /// The rows of shard `i/k` of the table `header` + `rows`, with its
    /// shard columns and the settings `settings`.
    fn shard_table(header: &str, rows: &[String], i: usize, k: usize, settings: &str) -> String {
        let s = Shard { index: i, count: k };
        let mine: String = (0..rows.len())
            .filter(|&p| s.owns(p))
            .map(|p| format!("{}\n", rows[p]))
            .collect();
        with_shard_column(&format!("{header}\n{mine}"), Some(s), settings)
    }

    /// A row cut short (or with a cell too many) names its table and line;
    /// a quoted cell holding commas is one cell.
    #[test]
    fn a_row_cut_short_is_named_by_table_and_line() {
        let rows: Vec<String> = (0..4).map(|p| format!("\"r, {p}\",{p}")).collect();
        let tables: Vec<String> = (1..=2)
            .map(|i| shard_table("h,n", &rows, i, 2, "x=1"))
            .collect();
        assert!(merge_tables(&tables).is_ok());
        let mut cut = tables.clone();
        cut[1] = cut[1].replacen("\"r, 3\",3,x=1,2/2", "\"r, 3\",3,x=1", 1);
        assert_eq!(
            merge_tables(&cut),
            Err(MergeError::Cells {
                table: 2,
                line: 3,
                got: 3,
                expected: 4
            })
        );
    }

    #[test]
    fn tables_interleave_back_in_order() {
        let rows: Vec<String> = (0..5).map(|p| format!("r{p}")).collect();
        let single = "h\nr0\nr1\nr2\nr3\nr4\n";
        let tables: Vec<String> = (1..=3)
            .map(|i| shard_table("h", &rows, i, 3, "x=1"))
            .collect();
        assert!(tables[0].starts_with("h,settings,shard\nr0,x=1,1/3\n"));
        assert_eq!(merge_tables(&tables).unwrap(), single);
        // Tables saved with CRLF or lone-CR line ends merge the same.
        for end in ["\r\n", "\r"] {
            let ended: Vec<String> = tables.iter().map(|t| t.replace('\n', end)).collect();
            assert_eq!(merge_tables(&ended).unwrap(), single, "{end:?}");
        }
        let swapped = vec![tables[2].clone(), tables[0].clone(), tables[1].clone()];
        assert!(matches!(
            merge_tables(&swapped),
            Err(MergeError::WrongShards { .. })
        ));
        let mut bad = tables.clone();
        bad[1] = shard_table("x", &rows, 2, 3, "x=1");
        assert_eq!(merge_tables(&bad), Err(MergeError::DifferentHeaders(2)));
        // Tables without the shard columns, or of other settings, are refused.
        let plain = vec!["h\nr0\nr2\n".to_string(), "h\nr1\n".to_string()];
        assert_eq!(merge_tables(&plain), Err(MergeError::NotShard(1)));
        let mut other = tables.clone();
        other[1] = shard_table("h", &rows, 2, 3, "x=2");
        assert_eq!(
            merge_tables(&other),
            Err(MergeError::DifferentSettings {
                first: (1, "x=1".into()),
                other: (2, "x=2".into())
            })
        );
    }

    #[test]
    fn game_tables_must_come_back_in_the_order_of_one_run() {
        // bench game --sizes 4,5 --games 3: seeds 1..=3 per size.
        let rows: Vec<String> = ["4x4", "5x5"]
            .iter()
            .flat_map(|s| (1..=3).map(move |seed| format!("{s},clauses,{seed},true")))
            .collect();
        let header = "size,reuse,seed,won";
        let single = format!("{header}\n{}\n", rows.join("\n"));
        let three: Vec<String> = (1..=3)
            .map(|i| shard_table(header, &rows, i, 3, "games=3"))
            .collect();
        assert_eq!(merge_tables(&three).unwrap(), single);
        for wrong in [
            [0, 1].as_slice(),
            &[0, 0, 0],
            &[1, 0, 2],
            &[0, 2],
            &[2, 1, 0],
        ] {
            let tables: Vec<String> = wrong.iter().map(|&i| three[i].clone()).collect();
            assert!(
                matches!(merge_tables(&tables), Err(MergeError::WrongShards { .. })),
                "{wrong:?}"
            );
        }
        // Rows out of the order of one run (the shard columns of a
        // well-formed split around rows that are not).
        let shuffled: Vec<String> = [1, 0, 2, 3, 4, 5]
            .iter()
            .map(|&p| rows[p].clone())
            .collect();
        let tables: Vec<String> = (1..=3)
            .map(|i| shard_table(header, &shuffled, i, 3, "games=3"))
            .collect();
        assert!(matches!(
            merge_tables(&tables),
            Err(MergeError::OutOfOrder { .. })
        ));
        // IPC tables: by folder, then by the number in the name.
        let ipc = |names: &[&str]| -> String {
            let rows: String = names.iter().map(|n| format!("{n},4x4\n")).collect();
            format!("instance,grid\n{rows}")
        };
        assert!(
            check_run_order(&ipc(&[
                "a/instance-2.pddl",
                "a/instance-10.pddl",
                "b/x-1.pddl"
            ]))
            .is_ok()
        );
        assert!(check_run_order(&ipc(&["a/instance-2.pddl", "a/instance-2.pddl"])).is_err());
        assert!(check_run_order(&ipc(&["a/instance-10.pddl", "a/instance-2.pddl"])).is_err());
        assert!(check_run_order(&ipc(&["a/i1.pddl", "b/i1.pddl", "a/i2.pddl"])).is_err());
    }

    #[test]
    fn shards_parse_and_split_positions() {
        let s = Shard::parse("2/3").unwrap();
        assert_eq!((0..7).filter(|&p| s.owns(p)).collect::<Vec<_>>(), [1, 4]);
        for bad in ["0/3", "4/3", "1/0", "x", "1-3"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    /// Every cell of a `bench` table is checked against its column; free
    /// text (`instance`, `error`) is not.
    #[test]
    fn bench_cells_are_checked_by_column() {
        let header = crate::cli::measure::ipc::rows_table(&[]).to_csv();
        let good = "p1.pddl,5x5,15,sat,24,true,23,24,0.040,2272,7342,9396,,,,";
        assert_eq!(check_cells(&format!("{header}{good}\n")), Ok(()));
        let timeout = "\"a, b.pddl\",,15,timeout,,false,,,1.5,,,,,,,\"ran out, twice\"";
        assert_eq!(check_cells(&format!("{header}{timeout}\n")), Ok(()));
        for (row, column) in [
            (
                "p1.pddl,5x5,15,bogus,24,true,23,24,0.040,2272,7342,9396,,,,",
                "status",
            ),
            (
                "p1.pddl,0x-1,15,sat,24,true,23,24,0.040,2272,7342,9396,,,,",
                "grid",
            ),
            (
                "p1.pddl,5x5,15,sat,abc,true,23,24,0.040,2272,7342,9396,,,,",
                "plan_length",
            ),
            (
                "p1.pddl,5x5,15,sat,24,maybe,23,24,0.040,2272,7342,9396,,,,",
                "optimal",
            ),
            (
                "p1.pddl,5x5,15,sat,24,true,23,x,0.040,2272,7342,9396,,,,",
                "no_plan_below",
            ),
            (
                "p1.pddl,5x5,15,sat,24,true,23,24,-5,2272,7342,9396,,,,",
                "seconds",
            ),
            (
                "p1.pddl,5x5,15,sat,24,true,23,24,0.040,2272,7342,9396,yes,,,",
                "certified",
            ),
        ] {
            match check_cells(&format!("{header}{good}\n{row}\n")) {
                Err(MergeError::BadCell {
                    row: 2, column: c, ..
                }) => assert_eq!(c, column),
                other => panic!("{row}: {other:?}"),
            }
        }
        assert_eq!(
            check_cells(&format!("{header}p1.pddl,5x5\n")),
            Err(MergeError::BadRow { row: 1 })
        );
    }

    #[test]
    fn the_unsat_proof_is_the_first_cnf_below_t_star() {
        let cnf = |id: &str, horizon: usize, seconds: f64| IndexRow {
            kind: "cnf".into(),
            horizon: Some(horizon),
            ..row(id, seconds)
        };
        let rows = vec![
            row("i0000", 9.0),
            cnf("i0000", 7, 1.0),
            cnf("i0000", 6, 2.0),
            cnf("i0000", 6, 3.0),
            cnf("i0001", 7, 4.0),
        ];
        assert_eq!(unsat_proof_seconds(&rows), [2.0]);
    }

    #[test]
    fn hardness_bins_count_by_decade() {
        let bins = hardness_bins(&[0.0001, 0.002, 0.005, 0.5, 20.0]);
        let counts: Vec<usize> = bins.iter().map(|b| b.1).collect();
        assert_eq!(counts, [1, 2, 0, 1, 0, 1]);
    }
}
