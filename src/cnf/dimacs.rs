//! Self-describing DIMACS: writing a [`Cnf`] with its metadata and variable
//! names as comments, reading such a file back, and reading solver models.
//!
//! Comment lines written before the `p cnf` line, in this order:
//! ```text
//! c snakesat <version>
//! c <key> <value>                      e.g. `c instance {...}`, `c encoding direct`, `c horizon 12`
//! c family <name> variables V clauses C literals L
//! c var <id> <kind> <coord>...         one line per variable, e.g. `c var 17 head 3 4 5`
//! ```
//! Family names may contain spaces; the `variables` keyword ends them.

use std::collections::HashMap;
use std::io::Write;

use thiserror::Error;

use crate::excerpt::excerpt;

use super::{Cnf, Lit, VarKind, VarKindError};

/// Writes `cnf` in DIMACS with `meta` as `c key value` lines. A key that
/// is empty or holds white space, and a value or family name that holds a
/// line break, is refused (`InvalidInput`) before anything is written: the
/// file would not read back.
pub fn write(cnf: &Cnf, meta: &[(&str, String)], out: &mut impl Write) -> std::io::Result<()> {
    let breaks = |text: &str| text.contains(['\n', '\r']);
    let refused = meta
        .iter()
        .find_map(|(k, v)| {
            if k.is_empty() || k.contains(char::is_whitespace) {
                Some(format!(
                    "the comment key {k:?} is empty or holds white space"
                ))
            } else {
                breaks(v).then(|| format!("the `c {k}` value holds a line break"))
            }
        })
        .or_else(|| {
            cnf.families()
                .find(|(name, _)| breaks(name))
                .map(|(name, _)| format!("the family name {name:?} holds a line break"))
        });
    if let Some(why) = refused {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("cannot write DIMACS: {why}"),
        ));
    }
    let mut buf: Vec<u8> = Vec::with_capacity(1 << 20);
    let mut num = itoa::Buffer::new();
    writeln!(buf, "c snakesat {}", env!("CARGO_PKG_VERSION"))?;
    for (k, v) in meta {
        writeln!(buf, "c {k} {v}")?;
    }
    for (name, size) in cnf.families() {
        writeln!(
            buf,
            "c family {name} variables {} clauses {} literals {}",
            size.variables, size.clauses, size.literals
        )?;
    }
    for (i, name) in cnf.names().iter().enumerate() {
        buf.extend_from_slice(b"c var ");
        buf.extend_from_slice(num.format(i + 1).as_bytes());
        buf.push(b' ');
        buf.extend_from_slice(name.name().as_bytes());
        for &c in name.coords().iter() {
            buf.push(b' ');
            buf.extend_from_slice(num.format(c).as_bytes());
        }
        buf.push(b'\n');
        if buf.len() > 1 << 20 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    writeln!(buf, "p cnf {} {}", cnf.num_vars(), cnf.num_clauses())?;
    write_clauses(cnf.flat(), &mut buf, out)?;
    out.write_all(&buf)?;
    out.flush()
}

/// Writes the flat clause buffer as DIMACS clause lines, in large chunks.
fn write_clauses(flat: &[Lit], buf: &mut Vec<u8>, out: &mut impl Write) -> std::io::Result<()> {
    let mut num = itoa::Buffer::new();
    for &l in flat {
        if l == 0 {
            buf.extend_from_slice(b"0\n");
            if buf.len() > 1 << 20 {
                out.write_all(buf)?;
                buf.clear();
            }
        } else {
            buf.extend_from_slice(num.format(l).as_bytes());
            buf.push(b' ');
        }
    }
    Ok(())
}

/// The most variables a file may declare (the reader keeps a table per
/// variable). A file may also declare no more variables than it has bytes:
/// snakesat's own files name every variable on a comment line, and the cap
/// keeps a short file from making the reader allocate gigabytes.
pub const MAX_VARIABLES: usize = 1 << 28;

/// Why a DIMACS file or a model could not be read; `line` is 1-based.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum DimacsError {
    /// A token is not what its place requires (a number, a known variable kind).
    #[error("line {line}: bad {what} {token:?}")]
    BadToken {
        /// Line of the problem, from 1.
        line: usize,
        /// What was expected, e.g. `"literal"` or `"variable number"`.
        what: &'static str,
        /// The token, shortened to an excerpt.
        token: String,
    },
    #[error("line {line}: variable 0 does not exist")]
    /// A `c var` comment names variable 0.
    VariableZero {
        /// Line of the problem, from 1.
        line: usize,
    },
    #[error("line {line}: {what} {count} is beyond the {limit} this reader accepts")]
    /// A declared or named variable number exceeds [`MAX_VARIABLES`].
    TooMany {
        /// Line of the problem, from 1.
        line: usize,
        /// What was counted: `"variable"` or `"variable count"`.
        what: &'static str,
        /// The number given.
        count: usize,
        /// The limit, [`MAX_VARIABLES`].
        limit: usize,
    },
    #[error("a model of {count} variables is beyond the {limit} this reader accepts")]
    /// [`parse_model`] was asked for more variables than [`MAX_VARIABLES`]
    /// (its tables would be allocated before a line is read).
    ModelTooLarge {
        /// The variable count asked for.
        count: usize,
        /// The limit, [`MAX_VARIABLES`].
        limit: usize,
    },
    #[error("line {line}: {what} {count} is more than a file of {bytes} bytes can use")]
    /// A declared or named variable number exceeds the file's length in bytes.
    BeyondFile {
        /// Line of the problem, from 1.
        line: usize,
        /// What was counted: `"variable"` or `"variable count"`.
        what: &'static str,
        /// The number given.
        count: usize,
        /// The file's length in bytes.
        bytes: usize,
    },
    #[error("line {line}: malformed header {header:?}")]
    /// A `p` line is not `p cnf <variables> <clauses>`.
    BadHeader {
        /// Line of the problem, from 1.
        line: usize,
        /// The line, shortened to an excerpt.
        header: String,
    },
    /// A second `p` line (a file has one header).
    #[error("line {line}: a second `p cnf` header (the first is on line {first})")]
    TwoHeaders {
        /// Line of the second header, from 1.
        line: usize,
        /// Line of the first.
        first: usize,
    },
    /// A header comment that snakesat reads (`c instance`, `c encoding`,
    /// `c horizon`, `c approximate`, `c status`) given twice.
    #[error("line {line}: a second `c {key}` line (the first is on line {first})")]
    RepeatedComment {
        /// Line of the second comment, from 1.
        line: usize,
        /// Its key.
        key: &'static str,
        /// Line of the first.
        first: usize,
    },
    #[error("line {line}: clause before the `p cnf` header")]
    /// A clause line comes before the `p cnf` line.
    ClauseBeforeHeader {
        /// Line of the problem, from 1.
        line: usize,
    },
    #[error("line {line}: literal {literal} exceeds the {declared} declared variables")]
    /// A clause literal's variable exceeds the header's variable count.
    LiteralOutOfRange {
        /// Line of the problem, from 1.
        line: usize,
        /// The literal.
        literal: Lit,
        /// Variables declared by the header.
        declared: usize,
    },
    /// The file has no `p cnf` line.
    #[error("no `p cnf` header")]
    NoHeader,
    #[error("header declares {} but the file has {found}", crate::counted(.declared, "clause"))]
    /// The number of clauses differs from the header's.
    ClauseCount {
        /// Clauses declared by the header.
        declared: usize,
        /// Clauses in the file.
        found: usize,
    },
    /// The last clause does not end in `0` (a truncated file: its last
    /// literal may be cut too).
    #[error("the last clause does not end in 0 (is the file cut short?)")]
    UnendedClause,
    #[error(
        "line {line}: a variable comment names variable {named} beyond the {declared} declared"
    )]
    /// A `c var` comment names a variable beyond the header's count.
    NamedBeyond {
        /// Line of the comment that names the highest variable, from 1.
        line: usize,
        /// The highest variable named.
        named: usize,
        /// Variables declared by the header.
        declared: usize,
    },
    #[error("line {line}: model has no status line (`s SATISFIABLE` or `SAT`) before values")]
    /// A model has a value line before any status line.
    ValuesBeforeStatus {
        /// Line of the problem, from 1.
        line: usize,
    },
    /// A model has no status line at all.
    #[error("model is empty or has no status line")]
    NoStatus,
    /// A Mallob result JSON that does not hold a model.
    #[error("Mallob result: {0}")]
    Mallob(String),
    /// A model has a second status line: one answer per model.
    #[error(
        "line {line}: a second status line {status:?} (the first is on line {first}): a model has one answer"
    )]
    TwoStatuses {
        /// Line of the second status, from 1.
        line: usize,
        /// The second status line.
        status: String,
        /// Line of the first status, from 1.
        first: usize,
    },
    /// A model gives values after saying the formula is unsatisfiable.
    #[error(
        "line {line}: values after the UNSATISFIABLE status on line {status}: an unsatisfiable formula has no model"
    )]
    ValuesAfterUnsat {
        /// Line of the values, from 1.
        line: usize,
        /// Line of the status, from 1.
        status: usize,
    },
    /// A satisfiable model whose values never end in `0` (a truncated file).
    #[error("the model's values do not end in 0 (is the file cut short?)")]
    NoEnd,
    /// A literal after the `0` that ends the model's values.
    #[error("line {line}: a value after the 0 that ended the model on line {end}")]
    ValuesAfterEnd {
        /// Line of the value, from 1.
        line: usize,
        /// Line of the ending `0`, from 1.
        end: usize,
    },
    #[error("model literal {literal} does not fit the CNF's {}", crate::counted(.declared, "variable"))]
    /// A model literal's variable exceeds the CNF's variable count.
    ModelOutOfRange {
        /// The literal.
        literal: Lit,
        /// Variables of the CNF.
        declared: usize,
    },
    /// Two `c var` comments name one variable.
    #[error("line {line}: variable {var} already has a `c var` line (every variable has one)")]
    NamedTwice {
        /// Line of the second comment, from 1.
        line: usize,
        /// The variable.
        var: usize,
    },
    /// Two `c var` comments give two variables one name: a model's value
    /// for it could not be read back.
    #[error(
        "line {line}: variable {var} has the name of variable {first} (each name belongs to one variable)"
    )]
    SameName {
        /// Line of the second comment, from 1.
        line: usize,
        /// The variable it names.
        var: usize,
        /// The variable named so before.
        first: usize,
    },
    /// A model gives the variable (the field) both signs.
    #[error("model gives variable {0} both values")]
    BothValues(usize),
    #[error("line {line}: {source}")]
    /// A `c var` comment's kind and coordinates do not make a [`VarKind`].
    BadVariable {
        /// Line of the problem, from 1.
        line: usize,
        /// Why the name was rejected.
        source: VarKindError,
    },
}

/// What a snakesat DIMACS file says about itself, and its clauses.
#[derive(Clone, Debug, Default)]
pub struct ParsedCnf {
    /// The `c <key> <value>` comments; the first value of a key is kept.
    pub meta: HashMap<String, String>,
    /// The line (1-based) of each key's comment in [`Self::meta`].
    pub meta_lines: HashMap<String, usize>,
    /// Index `v - 1` holds the name of variable `v`, if the file named it,
    /// up to the highest variable named (a file that names none of its
    /// millions of variables costs no table).
    pub names: Vec<Option<VarKind>>,
    /// Variable count of the `p cnf` header.
    pub num_vars: usize,
    /// The line number (1-based) of the `p cnf` header.
    pub header_line: usize,
    /// Clauses, each followed by `0`.
    pub flat: Vec<Lit>,
    /// Number of clauses in `flat`.
    pub num_clauses: usize,
}

/// A token that should have parsed as a number.
fn bad(line: usize, what: &'static str, token: &str) -> DimacsError {
    DimacsError::BadToken {
        line,
        what,
        token: excerpt(token),
    }
}

/// The `c KEY VALUE` comments of the header that snakesat reads
/// ([`super::header`]): each at most once in a file.
const HEADER_KEYS: [&str; 5] = ["instance", "encoding", "horizon", "approximate", "status"];

/// Parses a DIMACS file, keeping snakesat's comments.
pub fn parse(text: &str) -> Result<ParsedCnf, DimacsError> {
    let mut parsed = ParsedCnf::default();
    let mut header: Option<(usize, usize)> = None;
    // The line of the `c var` comment that names the highest variable.
    let mut highest_named_on = 0;
    // Each name's variable, to refuse a name given twice.
    let mut named: HashMap<VarKind, usize> = HashMap::new();
    // The line of each header comment read so far, by its place in HEADER_KEYS.
    let mut first_lines: [Option<usize>; HEADER_KEYS.len()] = [None; HEADER_KEYS.len()];
    // No table may outgrow the file: see [`MAX_VARIABLES`].
    let check = |line: usize, what: &'static str, count: usize| {
        if count > MAX_VARIABLES {
            Err(DimacsError::TooMany {
                line,
                what,
                count,
                limit: MAX_VARIABLES,
            })
        } else if count > text.len() {
            Err(DimacsError::BeyondFile {
                line,
                what,
                count,
                bytes: text.len(),
            })
        } else {
            Ok(())
        }
    };
    for (lineno, line) in crate::excerpt::lines(text).enumerate() {
        let lineno = lineno + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('c') {
            let rest = rest.trim_start();
            if let Some(var) = rest.strip_prefix("var ") {
                let mut parts = var.split_whitespace();
                let first = parts.next().unwrap_or("");
                let id: usize = first
                    .parse()
                    .map_err(|_| bad(lineno, "variable number", first))?;
                let kind = parts.next().unwrap_or("");
                let coords = parts
                    .map(|s| s.parse::<u32>().map_err(|_| bad(lineno, "coordinate", s)))
                    .collect::<Result<Vec<_>, _>>()?;
                if id == 0 {
                    return Err(DimacsError::VariableZero { line: lineno });
                }
                check(lineno, "variable", id)?;
                let name = match VarKind::parse(kind, &coords) {
                    Ok(name) => name,
                    // A long unknown kind is echoed shortened, as every token is.
                    Err(VarKindError::Unknown(_)) if kind.chars().count() > 40 => {
                        return Err(bad(lineno, "variable kind", kind));
                    }
                    Err(source) => {
                        return Err(DimacsError::BadVariable {
                            line: lineno,
                            source,
                        });
                    }
                };
                if parsed.names.len() < id {
                    parsed.names.resize(id, None);
                    highest_named_on = lineno;
                }
                if parsed.names[id - 1].is_some() {
                    return Err(DimacsError::NamedTwice {
                        line: lineno,
                        var: id,
                    });
                }
                if let Some(first) = named.insert(name, id) {
                    return Err(DimacsError::SameName {
                        line: lineno,
                        var: id,
                        first,
                    });
                }
                parsed.names[id - 1] = Some(name);
            } else if let Some((k, v)) = rest.split_once(' ') {
                if let Some(i) = HEADER_KEYS.iter().position(|&key| key == k) {
                    if let Some(first) = first_lines[i] {
                        return Err(DimacsError::RepeatedComment {
                            line: lineno,
                            key: HEADER_KEYS[i],
                            first,
                        });
                    }
                    first_lines[i] = Some(lineno);
                }
                if !parsed.meta.contains_key(k) {
                    parsed.meta.insert(k.to_string(), v.to_string());
                    parsed.meta_lines.insert(k.to_string(), lineno);
                }
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix("p ") {
            if header.is_some() {
                return Err(DimacsError::TwoHeaders {
                    line: lineno,
                    first: parsed.header_line,
                });
            }
            let f: Vec<&str> = rest.split_whitespace().collect();
            if f.len() != 3 || f[0] != "cnf" {
                return Err(DimacsError::BadHeader {
                    line: lineno,
                    header: excerpt(line),
                });
            }
            let v: usize = f[1]
                .parse()
                .map_err(|_| bad(lineno, "variable count", f[1]))?;
            let c: usize = f[2]
                .parse()
                .map_err(|_| bad(lineno, "clause count", f[2]))?;
            check(lineno, "variable count", v)?;
            header = Some((v, c));
            parsed.header_line = lineno;
            continue;
        }
        let Some((num_vars, _)) = header else {
            return Err(DimacsError::ClauseBeforeHeader { line: lineno });
        };
        for tok in line.split_whitespace() {
            let l: Lit = tok.parse().map_err(|_| bad(lineno, "literal", tok))?;
            if l.unsigned_abs() as usize > num_vars {
                return Err(DimacsError::LiteralOutOfRange {
                    line: lineno,
                    literal: l,
                    declared: num_vars,
                });
            }
            parsed.flat.push(l);
            if l == 0 {
                parsed.num_clauses += 1;
            }
        }
    }
    let (v, c) = header.ok_or(DimacsError::NoHeader)?;
    if parsed.flat.last().is_some_and(|&l| l != 0) {
        return Err(DimacsError::UnendedClause);
    }
    if parsed.num_clauses != c {
        return Err(DimacsError::ClauseCount {
            declared: c,
            found: parsed.num_clauses,
        });
    }
    if parsed.names.len() > v {
        return Err(DimacsError::NamedBeyond {
            line: highest_named_on,
            named: parsed.names.len(),
            declared: v,
        });
    }
    parsed.num_vars = v;
    Ok(parsed)
}

/// A solver's answer as read from its output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelFile {
    /// Values of variables `1..`: index `v - 1` is variable `v`.
    Sat(Vec<bool>),
    /// The solver proved the formula unsatisfiable.
    Unsat,
    /// The solver gave up (`s UNKNOWN`, `s INDETERMINATE`, `INDET`, `UNKNOWN`).
    Unknown,
}

/// Reads a model in SAT-competition form (`s SATISFIABLE`, `v ... 0`), in
/// MiniSat's result-file form (`SAT` then a line of literals), or as the
/// result JSON of [Mallob](https://github.com/domschrei/mallob)'s job
/// interface (a text starting with `{`: `result.resultcode` 10, 20 or 0,
/// and for 10 `result.solution`, a `0` then one literal per variable). A
/// model in the other forms has exactly one status line, before its
/// values, and no values after an unsatisfiable one, values that end in `0`
/// and nothing after it; literals must fit `num_vars`; a variable given
/// both signs is an error. A `num_vars` above [`MAX_VARIABLES`] is refused
/// ([`DimacsError::ModelTooLarge`]), as a formula declaring it would be.
pub fn parse_model(text: &str, num_vars: usize) -> Result<ModelFile, DimacsError> {
    if num_vars > MAX_VARIABLES {
        return Err(DimacsError::ModelTooLarge {
            count: num_vars,
            limit: MAX_VARIABLES,
        });
    }
    if text.trim_start().starts_with('{') {
        return mallob_model(text, num_vars);
    }
    let mut status: Option<bool> = None;
    let mut lits: Vec<Lit> = Vec::new();
    // The line of the status, once read.
    let mut status_line: Option<usize> = None;
    // The line of the `0` that ends the values, once read.
    let mut end_line: Option<usize> = None;
    for (lineno, line) in crate::excerpt::lines(text).enumerate() {
        let lineno = lineno + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('c') {
            continue;
        }
        let answer = match line {
            "s SATISFIABLE" | "SAT" | "SATISFIABLE" => Some(Some(true)),
            "s UNSATISFIABLE" | "UNSAT" | "UNSATISFIABLE" => Some(Some(false)),
            "s UNKNOWN" | "s INDETERMINATE" | "INDET" | "UNKNOWN" => Some(None),
            // (A status line this reader does not know is named as such,
            // not taken for values before a status.)
            _ if line.starts_with("s ") => return Err(bad(lineno, "status line", line)),
            _ => None,
        };
        if let Some(answer) = answer {
            if let Some(first) = status_line {
                return Err(DimacsError::TwoStatuses {
                    line: lineno,
                    status: line.to_string(),
                    first,
                });
            }
            status = answer;
            status_line = Some(lineno);
            continue;
        }
        let body = line.strip_prefix("v ").unwrap_or(line);
        match (status_line, status) {
            (None, _) => return Err(DimacsError::ValuesBeforeStatus { line: lineno }),
            (Some(unsat), Some(false)) => {
                return Err(DimacsError::ValuesAfterUnsat {
                    line: lineno,
                    status: unsat,
                });
            }
            _ => {}
        }
        for tok in body.split_whitespace() {
            let l: Lit = tok
                .parse()
                .map_err(|_| bad(lineno, "literal in model", tok))?;
            if let Some(end) = end_line {
                return Err(DimacsError::ValuesAfterEnd { line: lineno, end });
            }
            if l == 0 {
                end_line = Some(lineno);
            }
            lits.push(l);
        }
    }
    match status {
        None if status_line.is_some() => Ok(ModelFile::Unknown),
        None => Err(DimacsError::NoStatus),
        Some(false) => Ok(ModelFile::Unsat),
        Some(true) if end_line.is_none() => Err(DimacsError::NoEnd),
        Some(true) => {
            let mut values = vec![false; num_vars];
            let mut set = vec![false; num_vars];
            for l in lits {
                if l == 0 {
                    continue;
                }
                let v = l.unsigned_abs() as usize;
                if v > num_vars {
                    return Err(DimacsError::ModelOutOfRange {
                        literal: l,
                        declared: num_vars,
                    });
                }
                if set[v - 1] && values[v - 1] != (l > 0) {
                    return Err(DimacsError::BothValues(v));
                }
                set[v - 1] = true;
                values[v - 1] = l > 0;
            }
            Ok(ModelFile::Sat(values))
        }
    }
}

/// A model from Mallob's result JSON (`.api/jobs.0/out/USER.NAME.json`):
/// `result.resultcode` 10 (SAT), 20 (UNSAT) or 0 (unknown), and for SAT
/// `result.solution`, a `0` and then one literal per variable (`solution[v]`
/// is `v` or `-v`). Read as the competition form would be: the values
/// checked against `num_vars`, and a variable without a value is false.
fn mallob_model(text: &str, num_vars: usize) -> Result<ModelFile, DimacsError> {
    let bad = |what: &str| DimacsError::Mallob(what.to_string());
    // Read into typed fields, every other value skipped without being held
    // (a generic JSON value of a 64 MB file of nested lists took 3.8 GB and
    // aborted).
    let file: MallobFile = serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => bad(&format!("not a Mallob result ({e})")),
        _ => bad(&format!("not JSON ({e})")),
    })?;
    let result = file.result.unwrap_or_default();
    let solution = result.solution;
    let values_after = |code: &str| {
        bad(&format!(
            "result.solution has values after result code {code}: a model only comes with 10 (SAT)"
        ))
    };
    match result.resultcode {
        Some(JsonInt::Int(20)) if solution.as_ref().is_some_and(Solution::has_values) => {
            Err(values_after("20 (UNSAT)"))
        }
        Some(JsonInt::Int(0)) if solution.as_ref().is_some_and(Solution::has_values) => {
            Err(values_after("0 (unknown)"))
        }
        Some(JsonInt::Int(20)) => Ok(ModelFile::Unsat),
        Some(JsonInt::Int(0)) => Ok(ModelFile::Unknown),
        Some(JsonInt::Int(10)) => {
            let solution = solution.ok_or_else(|| {
                bad("result.solution is missing (a model passed by -pls through a pipe cannot be read from the file)")
            })?;
            // A literal past the formula's variables comes before any entry
            // off the pattern after it.
            if let Some(&positive) = solution.signs.get(num_vars) {
                let variable = num_vars as i64 + 1;
                let literal = if positive { variable } else { -variable };
                return Err(DimacsError::ModelOutOfRange {
                    literal: Lit::try_from(literal).unwrap_or(Lit::MAX),
                    declared: num_vars,
                });
            }
            match solution.broken {
                None => {}
                Some((0, Some(first))) => {
                    return Err(bad(&format!("result.solution[0] is {first}, not 0")));
                }
                Some((0, None)) => return Err(bad("result.solution[0] is not 0")),
                Some((index, Some(l))) => {
                    return Err(bad(&format!(
                        "result.solution[{index}] is {l}, not {index} or -{index}"
                    )));
                }
                Some((index, None)) => {
                    return Err(bad(&format!(
                        "result.solution[{index}] is not a whole number {index} or -{index}"
                    )));
                }
            }
            let mut values = solution.signs;
            values.resize(num_vars, false);
            Ok(ModelFile::Sat(values))
        }
        _ => Err(bad(
            "no result.resultcode of 10 (SAT), 20 (UNSAT) or 0 (unknown)",
        )),
    }
}

/// The fields of Mallob's result JSON that a model needs.
#[derive(serde::Deserialize)]
struct MallobFile {
    result: Option<MallobResult>,
}

#[derive(Default, serde::Deserialize)]
struct MallobResult {
    resultcode: Option<JsonInt>,
    solution: Option<Solution>,
}

/// Mallob's `result.solution`, `[0, ±1, ±2, …]`, read one entry at a time
/// into a sign per variable (one byte, where a list of JSON values took 16
/// per entry before its length could be checked): the entries that follow
/// the pattern, and the first one that breaks it (those after it are
/// skipped without being held).
struct Solution {
    /// `signs[v - 1]`: whether `solution[v]` is `v` rather than `-v`.
    signs: Vec<bool>,
    /// The first entry off the pattern: its index, and its value if it is
    /// a whole number.
    broken: Option<(usize, Option<i64>)>,
}

impl Solution {
    /// Whether it holds anything but an empty list or the leading `0`.
    fn has_values(&self) -> bool {
        !self.signs.is_empty() || self.broken.is_some()
    }
}

impl<'de> serde::Deserialize<'de> for Solution {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Solution, D::Error> {
        use serde::de::{SeqAccess, Visitor};
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Solution;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of literals")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Solution, A::Error> {
                let mut solution = Solution {
                    signs: Vec::new(),
                    broken: None,
                };
                let mut index = 0usize;
                while let Some(entry) = seq.next_element::<JsonInt>()? {
                    if solution.broken.is_none() {
                        match entry {
                            JsonInt::Int(0) if index == 0 => {}
                            JsonInt::Int(l) if index > 0 && l.unsigned_abs() == index as u64 => {
                                solution.signs.push(l > 0);
                            }
                            JsonInt::Int(l) => solution.broken = Some((index, Some(l))),
                            JsonInt::Other => solution.broken = Some((index, None)),
                        }
                    }
                    index += 1;
                }
                Ok(solution)
            }
        }
        d.deserialize_seq(Entries)
    }
}

/// A JSON value read as a whole number if it is one, and skipped without
/// being held otherwise (a list, an object, a string, a fraction).
enum JsonInt {
    Int(i64),
    Other,
}

impl<'de> serde::Deserialize<'de> for JsonInt {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<JsonInt, D::Error> {
        use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
        struct Whole;
        impl<'de> Visitor<'de> for Whole {
            type Value = JsonInt;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_i64<E>(self, v: i64) -> Result<JsonInt, E> {
                Ok(JsonInt::Int(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<JsonInt, E> {
                Ok(i64::try_from(v).map_or(JsonInt::Other, JsonInt::Int))
            }
            fn visit_f64<E>(self, _: f64) -> Result<JsonInt, E> {
                Ok(JsonInt::Other)
            }
            fn visit_bool<E>(self, _: bool) -> Result<JsonInt, E> {
                Ok(JsonInt::Other)
            }
            fn visit_str<E>(self, _: &str) -> Result<JsonInt, E> {
                Ok(JsonInt::Other)
            }
            fn visit_unit<E>(self) -> Result<JsonInt, E> {
                Ok(JsonInt::Other)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<JsonInt, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(JsonInt::Other)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<JsonInt, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(JsonInt::Other)
            }
        }
        d.deserialize_any(Whole)
    }
}

/// The first clause (1-based) that `values` falsifies, if any.
pub(crate) fn first_falsified(flat: &[Lit], values: &[bool]) -> Option<usize> {
    let mut clause = 1;
    let mut satisfied = false;
    for &l in flat {
        if l == 0 {
            if !satisfied {
                return Some(clause);
            }
            clause += 1;
            satisfied = false;
        } else if !satisfied {
            let v = values
                .get(l.unsigned_abs() as usize - 1)
                .copied()
                .unwrap_or(false);
            satisfied = v == (l > 0);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two named variables in the family "two words", clauses `1 -2` and
    /// `2`, written with `c horizon 7`.
    fn two_variables() -> String {
        let mut cnf = Cnf::new();
        cnf.family("two words");
        let a = cnf.var(VarKind::Head { x: 1, y: 2, t: 3 });
        let b = cnf.var(VarKind::Count { count: 4, t: 5 });
        cnf.add(&[a, -b]);
        cnf.add(&[b]);
        let mut out = Vec::new();
        write(&cnf, &[("horizon", "7".into())], &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn round_trip_names_meta_and_clauses() {
        let text = two_variables();
        assert!(text.contains("c family two words variables 2 clauses 2 literals 3"));
        assert!(text.contains("c var 1 head 1 2 3\nc var 2 count 4 5\n"));
        let p = parse(&text).unwrap();
        assert_eq!(p.meta["horizon"], "7");
        assert_eq!(p.num_vars, 2);
        assert_eq!(p.flat, vec![1, -2, 0, 2, 0]);
        assert_eq!(p.names[0], Some(VarKind::Head { x: 1, y: 2, t: 3 }));
        assert_eq!(p.names[1], Some(VarKind::Count { count: 4, t: 5 }));
    }

    /// LF, CRLF and a lone CR (old Mac files) end lines alike: the same
    /// formula and model are read, and an error names the same line.
    #[test]
    fn every_line_end_reads_the_same() {
        let lf = two_variables();
        let model = "c x\ns SATISFIABLE\nv 1 -2\nv 0\n";
        let broken = "c x\nc y\nx 1 0\n";
        for end in ["\r\n", "\r"] {
            let text = lf.replace('\n', end);
            let p = parse(&text).unwrap();
            assert_eq!(p.meta["horizon"], "7", "{end:?}");
            assert_eq!(p.flat, vec![1, -2, 0, 2, 0], "{end:?}");
            assert_eq!(p.names[0], Some(VarKind::Head { x: 1, y: 2, t: 3 }));
            assert_eq!(
                parse_model(&model.replace('\n', end), 2).unwrap(),
                ModelFile::Sat(vec![true, false]),
                "{end:?}"
            );
            assert_eq!(
                parse(&broken.replace('\n', end)).unwrap_err().to_string(),
                parse(broken).unwrap_err().to_string(),
                "{end:?}"
            );
        }
        assert!(parse(broken).unwrap_err().to_string().starts_with("line 3"));
    }

    /// What would not read back is refused before a byte is written.
    #[test]
    fn keys_values_and_families_that_break_lines_are_refused() {
        let mut cnf = Cnf::new();
        let a = cnf.var(VarKind::Head { x: 0, y: 0, t: 0 });
        cnf.add(&[a]);
        for (key, value, why) in [
            (
                "instance",
                "a\nb",
                "the `c instance` value holds a line break",
            ),
            ("status", "sat\r", "the `c status` value holds a line break"),
            (
                "two words",
                "1",
                "the comment key \"two words\" is empty or holds white space",
            ),
            (
                "",
                "1",
                "the comment key \"\" is empty or holds white space",
            ),
        ] {
            let mut out = Vec::new();
            let e = write(&cnf, &[(key, value.into())], &mut out).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
            assert_eq!(e.to_string(), format!("cannot write DIMACS: {why}"));
            assert!(out.is_empty());
        }
        cnf.family("one\ntwo");
        cnf.var(VarKind::Head { x: 1, y: 0, t: 0 });
        let mut out = Vec::new();
        let e = write(&cnf, &[], &mut out).unwrap_err();
        assert!(
            e.to_string()
                .contains("family name \"one\\ntwo\" holds a line break"),
            "{e}"
        );
        assert!(out.is_empty());
    }

    #[test]
    fn unknown_variable_kinds_are_errors() {
        let twice = parse("c var 1 head 3 0 1\nc var 1 head 4 1 1\np cnf 1 1\n1 0\n").unwrap_err();
        assert!(
            matches!(twice, DimacsError::NamedTwice { line: 2, var: 1 }),
            "{twice}"
        );
        // One name for two variables.
        let same = parse("c var 1 head 3 0 1\nc var 2 head 3 0 1\np cnf 2 1\n1 0\n").unwrap_err();
        assert_eq!(
            same.to_string(),
            "line 2: variable 2 has the name of variable 1 (each name belongs to one variable)"
        );
        // A name beyond the header's count: the line of the highest one.
        let beyond = parse("c var 3 head 0 0 1\nc var 1 head 0 0 0\np cnf 2 1\n1 0\n").unwrap_err();
        assert_eq!(
            beyond.to_string(),
            "line 1: a variable comment names variable 3 beyond the 2 declared"
        );
        let text = "c var 1 snake 1 2\np cnf 1 1\n1 0\n";
        let e = parse(text).unwrap_err();
        assert_eq!(e.to_string(), "line 1: unknown variable kind \"snake\"");
        let long = "x".repeat(10_000);
        let e = parse(&format!("c var 1 {long} 1\np cnf 1 1\n1 0\n")).unwrap_err();
        assert!(e.to_string().len() < 100, "{e}");
        let text = "c var 1 head 1 2\np cnf 1 1\n1 0\n";
        assert_eq!(
            parse(text).unwrap_err().to_string(),
            "line 1: head variable with 2 coordinates instead of 3"
        );
    }

    /// Mallob's result JSON (the shape its "Executing Mallob" page gives): it was
    /// refused ("model has no status line"), so its models could not be
    /// decoded as the README said.
    #[test]
    fn mallob_results_are_read() {
        let result = |code: i64, solution: &str| {
            format!(
                r#"{{"application": "SAT", "name": "i0001", "user": "admin",
                "result": {{"resultcode": {code}, "resultstring": "?", "solution": {solution}}}}}"#
            )
        };
        assert_eq!(
            parse_model(&result(10, "[0, 1, -2, 3]"), 3).unwrap(),
            ModelFile::Sat(vec![true, false, true])
        );
        assert_eq!(parse_model(&result(20, "[]"), 3).unwrap(), ModelFile::Unsat);
        assert_eq!(
            parse_model(&result(20, "[0]"), 3).unwrap(),
            ModelFile::Unsat
        );
        // A shorter solution leaves the other variables false.
        assert_eq!(
            parse_model(&result(10, "[0, 1]"), 3).unwrap(),
            ModelFile::Sat(vec![true, false, false])
        );
        assert_eq!(
            parse_model(&result(0, "[]"), 3).unwrap(),
            ModelFile::Unknown
        );
        for (text, needle) in [
            (
                result(10, "[0, 1, 3]"),
                "result.solution[2] is 3, not 2 or -2",
            ),
            (result(10, "[0, 1, -2, 3, 4]"), "does not fit"),
            // The literal past the variables is named before an entry off
            // the pattern after it.
            (result(10, r#"[0, 1, -2, 3, -4, "x"]"#), "does not fit"),
            (
                result(10, r#"[0, 1, "x", 3]"#),
                "result.solution[2] is not a whole number 2 or -2",
            ),
            // Values with UNSAT or unknown are malformed, as after
            // `s UNSATISFIABLE`: never a "no plan".
            (result(20, "[0, 1, -2, 3]"), "values after result code 20"),
            (result(0, "[0, -1]"), "values after result code 0"),
            (result(10, "7"), "not a Mallob result"),
            (result(10, "[1, -2, 3]"), "result.solution[0] is 1, not 0"),
            (result(7, "[]"), "no result.resultcode"),
            (result(10, "null"), "result.solution is missing"),
            ("{ not json".to_string(), "Mallob result: not JSON"),
        ] {
            let error = parse_model(&text, 3).unwrap_err().to_string();
            assert!(error.contains(needle), "{error}");
        }
    }

    /// One `p cnf` header and one of each comment the header reads: a
    /// second one was read as if it were the only one (the last `p cnf`,
    /// the first `c instance`), so a file with two instances decoded as
    /// one of them, and cadical refuses such a file.
    #[test]
    fn a_header_line_given_twice_is_refused() {
        assert_eq!(
            parse("p cnf 1 1\np cnf 2 1\n1 0\n")
                .unwrap_err()
                .to_string(),
            "line 2: a second `p cnf` header (the first is on line 1)"
        );
        let twice = "c horizon 3\nc x\nc horizon 4\np cnf 1 1\n1 0\n";
        assert_eq!(
            parse(twice).unwrap_err().to_string(),
            "line 3: a second `c horizon` line (the first is on line 1)"
        );
        // Other comments may repeat.
        assert!(parse("c solver says hi\nc solver says hi\np cnf 1 1\n1 0\n").is_ok());
    }

    /// A variable count past the cap is refused before its tables are
    /// allocated (`usize::MAX` was a capacity overflow), in both forms.
    #[test]
    fn a_model_of_too_many_variables_is_refused() {
        for text in [
            "s SATISFIABLE\nv 1 0\n",
            r#"{"result":{"resultcode":10,"solution":[0,1]}}"#,
        ] {
            assert_eq!(
                parse_model(text, usize::MAX),
                Err(DimacsError::ModelTooLarge {
                    count: usize::MAX,
                    limit: MAX_VARIABLES
                })
            );
        }
        assert!(parse_model("s SATISFIABLE\nv 1 0\n", MAX_VARIABLES).is_ok());
    }

    #[test]
    fn both_model_forms_are_read() {
        let comp = "c x\ns SATISFIABLE\nv 1 -2\nv 3 0\n";
        assert_eq!(
            parse_model(comp, 3).unwrap(),
            ModelFile::Sat(vec![true, false, true])
        );
        let minisat = "SAT\n-1 2 -3 0\n";
        assert_eq!(
            parse_model(minisat, 3).unwrap(),
            ModelFile::Sat(vec![false, true, false])
        );
        assert_eq!(parse_model("UNSAT\n", 3).unwrap(), ModelFile::Unsat);
        assert_eq!(
            parse_model("s INDETERMINATE\n", 3).unwrap(),
            ModelFile::Unknown
        );
        assert_eq!(
            parse_model("s MAYBE\n", 3).unwrap_err().to_string(),
            "line 1: bad status line \"s MAYBE\""
        );
        assert!(
            parse_model("SAT\n1 4 0\n", 3)
                .unwrap_err()
                .to_string()
                .contains("does not fit")
        );
        assert!(parse_model("", 3).is_err());
        // One status line, and no values after an unsatisfiable one.
        assert_eq!(
            parse_model("s SATISFIABLE\nc x\ns UNSATISFIABLE\nv 1 2 3 0\n", 3)
                .unwrap_err()
                .to_string(),
            "line 3: a second status line \"s UNSATISFIABLE\" (the first is on line 1): a model has one answer"
        );
        assert!(matches!(
            parse_model("SAT\nSAT\n1 2 3 0\n", 3),
            Err(DimacsError::TwoStatuses { line: 2, .. })
        ));
        assert_eq!(
            parse_model("s UNSATISFIABLE\nv 1 -2 3 0\n", 3)
                .unwrap_err()
                .to_string(),
            "line 2: values after the UNSATISFIABLE status on line 1: an unsatisfiable formula has no model"
        );
        assert!(matches!(
            parse_model("UNSAT\n0\n", 3),
            Err(DimacsError::ValuesAfterUnsat { line: 2, status: 1 })
        ));
        // Nothing after the 0 that ends the values (on its line or later).
        assert!(matches!(
            parse_model("s SATISFIABLE\nv 1 -2 0\nv 3 0\n", 3),
            Err(DimacsError::ValuesAfterEnd { line: 3, end: 2 })
        ));
        assert!(matches!(
            parse_model("SAT\n1 0 -2\n", 3),
            Err(DimacsError::ValuesAfterEnd { line: 2, end: 2 })
        ));
        assert!(parse_model("s SATISFIABLE\nv 1 -2\nv 3 0\nc done\n", 3).is_ok());
        // ... and the values end in 0.
        assert!(matches!(
            parse_model("s SATISFIABLE\nv 1 -2 3\n", 3),
            Err(DimacsError::NoEnd)
        ));
        let huge = format!("SAT\n{}\n", "9".repeat(100_000));
        let e = parse_model(&huge, 3).unwrap_err().to_string();
        assert!(e.len() < 100 && e.contains("line 2"), "{e}");
    }

    #[test]
    fn declared_counts_are_checked_before_allocating() {
        let e = parse("p cnf 268435457 0\n").unwrap_err();
        assert!(matches!(e, DimacsError::TooMany { line: 1, .. }), "{e}");
        let e = parse("p cnf 1 0\nc var 99999999 head 0 0 0\n").unwrap_err();
        assert!(matches!(e, DimacsError::BeyondFile { line: 2, .. }), "{e}");
        assert_eq!(parse("p cnf 2 1\n1 -2 0\n").unwrap().num_vars, 2);
    }

    #[test]
    fn a_file_cut_inside_its_last_clause_is_refused() {
        let whole = "p cnf 12 2\n1 -2 0\n-3 -12 0\n";
        assert!(parse(whole).is_ok());
        // Cut by four bytes, the last clause reads `-3 -1`: a clause of
        // the right count, but not the file's.
        let cut = &whole[..whole.len() - 4];
        assert_eq!(parse(cut).unwrap_err(), DimacsError::UnendedClause);
        assert_eq!(
            parse("p cnf 2 1\n1 -2").unwrap_err(),
            DimacsError::UnendedClause
        );
    }

    #[test]
    fn falsified_clause_is_found() {
        let flat = [1, 2, 0, -1, 0];
        assert_eq!(first_falsified(&flat, &[false, true]), None);
        assert_eq!(first_falsified(&flat, &[true, false]), Some(2));
    }
}
