//! Encoding sizes (`snakesat sizes`): the default list of encodings to
//! compare, encoding lists with options, sweeps over grid sizes or horizons,
//! each encoding measured (variables, clauses, literals per clause family)
//! and optionally solved on one instance, and the results as tables.

use std::time::{Duration, Instant};

use serde::Serialize;
use serde::ser::SerializeMap;
use thiserror::Error;

use crate::cli::table::{Align, Cell, Table};
use snakesat::cnf::Size;
use snakesat::encode::direct::{Direct, DirectOptions};
use snakesat::encode::{self, Encoding, NameError};
use snakesat::instance::{Instance, Start, TailRule};
use snakesat::planner::{Method, Outcome, PlanError, Planner, Undecided, Verdict};
use snakesat::render::chart::{Series, SizeRow};
use snakesat::solve::{Attempt, Status};

/// The parameter a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// Square grids of side N.
    Size,
    /// The horizon T.
    Horizon,
}

impl Param {
    /// `size` or `horizon`.
    pub fn name(self) -> &'static str {
        match self {
            Param::Size => "size",
            Param::Horizon => "horizon",
        }
    }
}

/// The most values a sweep takes.
const MAX_SWEEP_VALUES: usize = 1000;

/// Why [`parse_sweep`] refuses a sweep.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("--sweep must be size=A..B[:STEP] or horizon=A..B[:STEP] ({problem}), not {text:?}")]
pub struct SweepError {
    /// The sweep as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: SweepProblem,
}

/// What is wrong with a sweep ([`SweepError`]).
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
pub enum SweepProblem {
    /// No `=` between the parameter and the range.
    #[error("no `=`")]
    NoEquals,
    /// A parameter other than `size` and `horizon`.
    #[error("unknown parameter")]
    UnknownParameter,
    /// The step is not a number.
    #[error("bad step")]
    BadStep,
    /// No `..` in the range.
    #[error("no `..`")]
    NoRange,
    /// The start is not a number.
    #[error("bad start")]
    BadStart,
    /// The end is not a number.
    #[error("bad end")]
    BadEnd,
    /// A step of 0.
    #[error("step must be positive")]
    ZeroStep,
    /// The start is above the end.
    #[error("start above end")]
    StartAboveEnd,
    /// A size of 0.
    #[error("sizes start at 1")]
    ZeroSize,
    /// More values than a sweep may have.
    #[error("more than {} values", MAX_SWEEP_VALUES)]
    TooMany,
}

/// Parses `size=6..16`, `horizon=40..100:10` (inclusive) into the values swept.
pub fn parse_sweep(text: &str) -> Result<(Param, Vec<usize>), SweepError> {
    let bad = |problem| SweepError {
        text: text.to_string(),
        problem,
    };
    let (key, range) = text
        .split_once('=')
        .ok_or_else(|| bad(SweepProblem::NoEquals))?;
    let param = match key.trim() {
        "size" => Param::Size,
        "horizon" => Param::Horizon,
        _ => return Err(bad(SweepProblem::UnknownParameter)),
    };
    let (range, step) = match range.split_once(':') {
        Some((r, s)) => (
            r,
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(SweepProblem::BadStep))?,
        ),
        None => (range, 1),
    };
    let (a, b) = range
        .split_once("..")
        .ok_or_else(|| bad(SweepProblem::NoRange))?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let a: usize = a.trim().parse().map_err(|_| bad(SweepProblem::BadStart))?;
    let b: usize = b.trim().parse().map_err(|_| bad(SweepProblem::BadEnd))?;
    if step == 0 {
        return Err(bad(SweepProblem::ZeroStep));
    }
    if a > b {
        return Err(bad(SweepProblem::StartAboveEnd));
    }
    if param == Param::Size && a == 0 {
        return Err(bad(SweepProblem::ZeroSize));
    }
    // Counted before the list is built: a range of 2^64 values would not fit.
    if (b - a) / step >= MAX_SWEEP_VALUES {
        return Err(bad(SweepProblem::TooMany));
    }
    Ok((param, (a..=b).step_by(step).collect()))
}

/// Splits a comma-separated list into encoding names: `key=value` items
/// belong to the `direct` (or `key=value` run) before them.
pub fn split_list(list: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut open_direct = false;
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if item.contains('=') && open_direct {
            let last = names.last_mut().expect("an open direct exists");
            last.push(',');
            last.push_str(item);
        } else {
            open_direct = item == "direct" || item.contains('=');
            names.push(item.to_string());
        }
    }
    names
}

/// Why [`encodings`] refuses a list.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum ListError {
    /// The list names no encoding.
    #[error("--encodings lists no encoding")]
    Empty,
    /// An item names no encoding.
    #[error(transparent)]
    Name(#[from] NameError),
}

/// The encodings of a list (`None`: [`encode::option_names`]), checked, each
/// once ([`distinct`]), and the spellings dropped.
pub fn encodings(list: Option<&str>) -> Result<Distinct, ListError> {
    let names = match list {
        Some(l) => split_list(l),
        None => encode::option_names(),
    };
    if names.is_empty() {
        return Err(ListError::Empty);
    }
    Ok(distinct(&names)?)
}

/// The encodings of a list, each once.
pub struct Distinct {
    /// The encodings, in the order first listed.
    pub encodings: Vec<Box<dyn Encoding>>,
    /// Each item dropped and the encoding it spells ([`Encoding::name`]).
    pub dropped: Vec<(String, String)>,
}

/// The encodings called `names` ([`encode::by_name`]), each once: an item
/// that spells an encoding listed before it (the same [`Encoding::name`],
/// e.g. `direct,prune=on` or `direct,amo=sequential` after `direct`, whose
/// defaults they are) is dropped.
pub fn distinct(names: &[String]) -> Result<Distinct, NameError> {
    let mut out = Distinct {
        encodings: Vec::new(),
        dropped: Vec::new(),
    };
    for item in names {
        let e = encode::by_name(item)?;
        let name = e.name();
        if out.encodings.iter().any(|kept| kept.name() == name) {
            out.dropped.push((item.clone(), name));
        } else {
            out.encodings.push(e);
        }
    }
    Ok(out)
}

/// A clause family's name and size, serialised as a JSON map in order.
pub struct Families(pub Vec<(String, Size)>);

impl Serialize for Families {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, size) in &self.0 {
            map.serialize_entry(name, size)?;
        }
        map.end()
    }
}

/// One encoding measured (and perhaps solved) on one instance.
#[derive(Serialize)]
pub struct Measure {
    /// The encoding's name.
    pub encoding: String,
    /// The horizon (moves) measured at.
    pub horizon: usize,
    /// It is the default encoding.
    pub default: bool,
    /// It only approximates the game.
    pub approximate: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Why the encoding does not model the instance.
    pub refused: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Variables of the formula.
    pub variables: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Clauses of the formula.
    pub clauses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Literals of the formula.
    pub literals: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The sizes per clause family.
    pub families: Option<Families>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Seconds to build the formula.
    pub build_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// Seconds to solve it.
    pub solve_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    /// The solver's answer.
    pub status: Option<Status>,
    /// With `--solve` and `sat`: whether the simulator accepts the model's plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal_plan: Option<bool>,
}

/// Measures `encoding` on `instance` at `moves`; with `solve_timeout`, solves
/// it too (up to [`snakesat::instance::MAX_HORIZON`] moves, the planner's limit).
pub fn measure(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    solve_timeout: Option<Duration>,
) -> Measure {
    let name = encoding.name();
    let mut m = Measure {
        default: name == DirectOptions::default().name(),
        encoding: name,
        horizon: moves,
        approximate: encoding.approximate(),
        refused: None,
        variables: None,
        clauses: None,
        literals: None,
        families: None,
        build_seconds: None,
        solve_seconds: None,
        status: None,
        legal_plan: None,
    };
    let started = Instant::now();
    let cnf = match encoding.encode(instance, moves) {
        Ok(cnf) => cnf,
        Err(e) => {
            m.refused = Some(match e {
                encode::EncodeError::Unsupported { reason, .. } => reason,
                other => other.to_string(),
            });
            return m;
        }
    };
    m.build_seconds = Some(started.elapsed().as_secs_f64());
    let size = cnf.size();
    m.variables = Some(size.variables);
    m.clauses = Some(size.clauses);
    m.literals = Some(size.literals);
    m.families = Some(Families(
        cnf.families()
            .map(|(n, s)| (n.to_string(), s.clone()))
            .collect(),
    ));
    let solving = Instant::now();
    let solver = Planner::new(encoding).timeout(solve_timeout);
    // Beyond the horizon cap the planner refuses to solve: measured only.
    if solve_timeout.is_some()
        && let Ok((status, path)) = solver.solve_formula(instance, &cnf, moves)
    {
        m.solve_seconds = Some(solving.elapsed().as_secs_f64());
        m.status = Some(status);
        if status == Status::Sat {
            let legal = path.is_some_and(|path| snakesat::sim::simulate(instance, &path).is_ok());
            m.legal_plan = Some(legal);
        }
    }
    m
}

/// One line about an instance: size, walls, apples, start, tail rule, growth.
pub fn describe(instance: &Instance) -> String {
    let start = match &instance.start {
        Start::Free { length } => format!("free start, length {length}"),
        Start::Body(body) => format!("fixed start, length {}", body.len()),
    };
    let visible = if instance.visible >= instance.apples.len() {
        "all visible".to_string()
    } else {
        format!("{} visible", instance.visible)
    };
    format!(
        "{}x{}, {}, {} ({visible}), {start}, tail {}, {}",
        instance.width,
        instance.height,
        snakesat::counted(instance.walls.len(), "wall"),
        snakesat::counted(instance.apples.len(), "apple"),
        match instance.tail {
            TailRule::Follow => "follow",
            TailRule::Strict => "strict",
        },
        if instance.grow { "grows" } else { "no growth" }
    )
}

/// [`HorizonError::NotFound`] in words: refuted up to `last` is `solve`'s
/// "no plan within", an undecided search asks for a horizon.
fn not_found(encoding: &str, status: Status, attempts: usize, last: usize) -> String {
    if status == Status::Unsat {
        format!(
            "no plan within {last} moves (encoding {encoding}; {attempts} horizons refuted), so no least horizon to measure at"
        )
    } else {
        format!(
            "no least horizon found with {encoding} (status {} after {attempts} attempts, up to T={last}); give --horizon",
            status.name()
        )
    }
}

/// Why no least horizon could be found to measure at.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum HorizonError {
    /// The apples can never all be eaten (the lower bound is infinite, or the
    /// reachable states, listed, include none with every apple eaten): no
    /// plan at any horizon.
    #[error("no plan at any horizon: the apples can never all be eaten")]
    NeverEaten,
    /// The lower bound exceeds the largest horizon allowed (`solve`'s words).
    #[error("no plan: at least {lower} moves are needed, more than {max_horizon}")]
    BelowBound {
        /// The largest horizon allowed.
        max_horizon: usize,
        /// The lower bound.
        lower: usize,
    },
    /// The planner refused.
    #[error("{0}")]
    Plan(#[from] PlanError),
    /// The least-horizon search reached a formula beyond the default
    /// encoding's limits (every horizon below it refuted, or none tried).
    #[error(
        "the least horizon cannot be searched: {error}; give --horizon to measure at a horizon of your choice"
    )]
    FormulaLimit {
        /// The encoding's refusal, which names the horizon.
        error: snakesat::encode::EncodeError,
    },
    /// The search ended without a plan: every horizon up to `last` refuted
    /// (`solve`'s words), or the search stopped undecided.
    #[error("{}", not_found(encoding, *status, *attempts, *last))]
    NotFound {
        /// The encoding searched with.
        encoding: String,
        /// How the search ended.
        status: Status,
        /// Horizons tried.
        attempts: usize,
        /// The last horizon tried.
        last: usize,
    },
}

/// The horizon to measure at: the instance's (`false`), or the least one the
/// default encoding finds (`true`); `on_attempt` sees each horizon tried.
pub fn horizon_for(
    instance: &Instance,
    timeout: Duration,
    max_horizon: usize,
    on_attempt: impl FnMut(&Attempt) + Send,
) -> Result<(usize, bool), HorizonError> {
    if let Some(t) = instance.horizon {
        return Ok((t, false));
    }
    let Some(lower) = encode::prune::lower_bound(instance) else {
        return Err(HorizonError::NeverEaten);
    };
    if lower > max_horizon {
        return Err(HorizonError::BelowBound { max_horizon, lower });
    }
    let direct = Direct::default();
    let outcome: Outcome = Planner::new(&direct)
        .method(Method::Fresh)
        .max_horizon(max_horizon)
        .timeout(Some(timeout))
        .fallback_plan(false)
        .on_attempt(on_attempt)
        .plan(instance)?;
    if let Verdict::Unknown(Undecided::FormulaLimit { error, .. }) = &outcome.verdict {
        return Err(HorizonError::FormulaLimit {
            error: error.clone(),
        });
    }
    match outcome.plan() {
        Some(plan) if plan.optimal => Ok((plan.horizon, true)),
        // (The planner listed the reachable states: none eats every apple.)
        None if outcome.lower_bound.is_none() => Err(HorizonError::NeverEaten),
        // A plan not proven least (the fresh search's, at a horizon above
        // one still undecided at the timeout) leaves the least one unknown.
        plan => Err(HorizonError::NotFound {
            encoding: direct.name(),
            status: match plan {
                Some(_) => Status::Unknown,
                None => outcome.status(),
            },
            attempts: outcome.attempts.len(),
            last: outcome.attempts.last().map_or(lower, |a| a.horizon),
        }),
    }
}

/// One row per encoding (and with `families` one per clause family beneath
/// it); with `solved` the solve time and status. `markdown` marks names up.
pub fn sizes_table(measures: &[Measure], families: bool, solved: bool, markdown: bool) -> Table {
    let mut columns = vec![
        ("encoding", Align::Left),
        ("approximate", Align::Left),
        ("variables", Align::Right),
        ("clauses", Align::Right),
        ("literals", Align::Right),
    ];
    if solved {
        columns.extend([("solve s", Align::Right), ("status", Align::Left)]);
    }
    let mut table = Table::new(columns);
    for m in measures {
        let name = if m.default && !markdown {
            format!("{} (default)", m.encoding)
        } else if m.default {
            format!("**{}** (default)", m.encoding)
        } else if markdown {
            format!("`{}`", m.encoding)
        } else {
            m.encoding.clone()
        };
        let approx = if m.approximate { "yes" } else { "no" };
        if let Some(reason) = &m.refused {
            table.push(vec![
                name.into(),
                approx.into(),
                format!("refused: {reason}").into(),
            ]);
            continue;
        }
        let mut row = vec![
            name.into(),
            approx.into(),
            Cell::int(m.variables),
            Cell::int(m.clauses),
            Cell::int(m.literals),
        ];
        if solved {
            row.push(m.solve_seconds.map_or(Cell::Empty, |s| Cell::Float(s, 2)));
            row.push(status_text(m).into());
        }
        table.push(row);
        if families && let Some(Families(fams)) = &m.families {
            for (f, s) in fams {
                let mut row = vec![
                    format!("  {f}").into(),
                    Cell::Empty,
                    Cell::Int(s.variables),
                    Cell::Int(s.clauses),
                    Cell::Int(s.literals),
                ];
                if solved {
                    row.extend([Cell::Empty, Cell::Empty]);
                }
                table.push(row);
            }
        }
    }
    table
}

/// One point of a sweep: the value, the horizon, the measures. A swept size
/// whose instance has an apple that can never be eaten, or is proven to have
/// no plan within the largest horizon, has no horizon (`None`) and no
/// measures: its row says `no plan`.
pub type Point = (usize, Option<usize>, Vec<Measure>);

/// The solver's answer to a measure (empty if not solved), with
/// ` (illegal plan)` when the simulator refuses the model's plan.
fn status_text(m: &Measure) -> String {
    let mut status = m.status.map_or(String::new(), |s| s.name().to_string());
    if m.legal_plan == Some(false) {
        status.push_str(" (illegal plan)");
    }
    status
}

/// The clauses of each encoding at each value of a sweep (`refused` where
/// an encoding does not model the instance); `markdown` marks names up.
pub fn sweep_table(
    param: Param,
    encodings: &[Box<dyn Encoding>],
    points: &[Point],
    markdown: bool,
) -> Table {
    sweep_grid(param, encodings, points, markdown, |m| match m.clauses {
        Some(c) => Cell::Int(c),
        None => "refused".into(),
    })
}

/// With `--solve`, the solver's answer and seconds for each encoding at each
/// value of a sweep (`unsat 0.01 s`; `refused` where an encoding does not
/// model the instance), as [`sizes_table`] shows them for one point.
pub fn sweep_solve_table(
    param: Param,
    encodings: &[Box<dyn Encoding>],
    points: &[Point],
    markdown: bool,
) -> Table {
    sweep_grid(param, encodings, points, markdown, |m| {
        match (m.refused.is_some(), m.solve_seconds) {
            (true, _) => "refused".into(),
            (false, Some(s)) => format!("{} {s:.2} s", status_text(m)).into(),
            (false, None) => status_text(m).into(),
        }
    })
}

/// A row per value of a sweep (with its horizon when the size is swept) and
/// a column per encoding, each cell `cell` of that encoding's measure.
fn sweep_grid(
    param: Param,
    encodings: &[Box<dyn Encoding>],
    points: &[Point],
    markdown: bool,
    cell: impl Fn(&Measure) -> Cell,
) -> Table {
    let mut columns = vec![(param.name().to_string(), Align::Right)];
    if param == Param::Size {
        columns.push(("T".to_string(), Align::Right));
    }
    for e in encodings {
        let name = if markdown {
            format!("`{}`", e.name())
        } else {
            e.name()
        };
        columns.push((name, Align::Right));
    }
    let mut table = Table::new(columns);
    for (v, moves, measures) in points {
        let mut row = vec![Cell::count(Some(*v))];
        if param == Param::Size {
            row.push(moves.map_or_else(|| "no plan".into(), |t| Cell::count(Some(t))));
        }
        row.extend(measures.iter().map(&cell));
        table.push(row);
    }
    table
}

/// The bars of the size chart: the encodings with a formula.
pub fn size_rows(measures: &[Measure]) -> Vec<SizeRow> {
    measures
        .iter()
        .filter_map(|m| {
            Some(SizeRow {
                encoding: m.encoding.clone(),
                approximate: m.approximate,
                clauses: m.clauses?,
            })
        })
        .collect()
}

/// The lines of the sweep chart: clauses against the swept value, one per
/// encoding with at least one formula.
pub fn sweep_series(encodings: &[Box<dyn Encoding>], points: &[Point]) -> Vec<Series> {
    encodings
        .iter()
        .enumerate()
        .map(|(i, e)| Series {
            name: e.name(),
            points: points
                .iter()
                .filter_map(|(v, _, ms)| ms.get(i)?.clauses.map(|c| (*v as f64, c as f64)))
                .collect(),
            steps: false,
        })
        .filter(|s| !s.points.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_on_encodings_not_options() {
        assert_eq!(
            split_list("direct,direct,amo=pairwise,body=tail,notebook-ordered,prune=off"),
            vec![
                "direct",
                "direct,amo=pairwise,body=tail",
                "notebook-ordered",
                "prune=off"
            ]
        );
    }

    #[test]
    fn an_encoding_spelled_twice_counts_once() {
        let list = "direct,direct,prune=on,notebook-ordered,direct,amo=sequential,body=auto,direct,prune=off,notebook-ordered";
        let d = distinct(&split_list(list)).unwrap();
        let names: Vec<String> = d.encodings.iter().map(|e| e.name()).collect();
        assert_eq!(names, ["direct", "notebook-ordered", "direct,prune=off"]);
        let dropped = |item: &str, name: &str| (item.to_string(), name.to_string());
        assert_eq!(
            d.dropped,
            [
                dropped("direct,prune=on", "direct"),
                dropped("direct,amo=sequential,body=auto", "direct"),
                dropped("notebook-ordered", "notebook-ordered"),
            ]
        );
    }

    #[test]
    fn sweeps_parse() {
        assert_eq!(
            parse_sweep("size=6..8").ok().unwrap(),
            (Param::Size, vec![6, 7, 8])
        );
        assert_eq!(
            parse_sweep("horizon=40..60:10").ok().unwrap(),
            (Param::Horizon, vec![40, 50, 60])
        );
        for (bad, problem) in [
            ("size", SweepProblem::NoEquals),
            ("size=6", SweepProblem::NoRange),
            ("width=1..2", SweepProblem::UnknownParameter),
            ("size=8..6", SweepProblem::StartAboveEnd),
            ("size=1..3:0", SweepProblem::ZeroStep),
            ("size=1..3:x", SweepProblem::BadStep),
            ("size=a..b", SweepProblem::BadStart),
            ("size=1..b", SweepProblem::BadEnd),
            ("size=0..3", SweepProblem::ZeroSize),
        ] {
            let e = parse_sweep(bad).unwrap_err();
            assert_eq!(e.problem, problem, "{bad}");
            assert_eq!(e.text, bad);
        }
        assert_eq!(
            parse_sweep("size=8..6").unwrap_err().to_string(),
            "--sweep must be size=A..B[:STEP] or horizon=A..B[:STEP] (start above end), not \"size=8..6\""
        );
        // Exactly the cap is fine; one more, or a range too long to list
        // (it overflowed the vector's capacity), is refused.
        assert_eq!(parse_sweep("horizon=1..1000").unwrap().1.len(), 1000);
        assert_eq!(parse_sweep("horizon=0..1998:2").unwrap().1.len(), 1000);
        for long in [
            "horizon=1..1001",
            "horizon=0..2000:2",
            "horizon=1..18446744073709551615",
            "size=1..4294967296",
        ] {
            let e = parse_sweep(long).unwrap_err();
            assert_eq!(e.problem, SweepProblem::TooMany);
            assert!(e.to_string().contains("(more than 1000 values)"), "{e}");
        }
    }

    #[test]
    fn lists_get_typed_errors() {
        assert_eq!(encodings(Some(" , ")).err(), Some(ListError::Empty));
        assert_eq!(
            encodings(Some("direct,bogus")).err(),
            Some(ListError::Name(NameError::Unknown("bogus".into())))
        );
        assert_eq!(
            ListError::Empty.to_string(),
            "--encodings lists no encoding"
        );
    }

    #[test]
    fn default_names_are_accepted() {
        let names = encode::option_names();
        assert_eq!(names[0], "direct");
        for n in &names {
            assert_eq!(&encode::by_name(n).unwrap().name(), n);
        }
    }
}
