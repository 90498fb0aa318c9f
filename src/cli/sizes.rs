//! `snakesat sizes`: the size of every encoding (or a chosen list) on one
//! instance at one horizon, per clause family, optionally solved; or how the
//! sizes grow over a sweep of grid sizes or horizons; optionally charted.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use serde::Serialize;
use serde::ser::SerializeMap;

use snakesat::cnf::Size;
use snakesat::encode::amo::Amo;
use snakesat::encode::direct::{Body, Direct, DirectOptions, Growth, Position};
use snakesat::encode::notebook::Notebook;
use snakesat::encode::{self, Encoding};
use snakesat::instance::random::RandomSpec;
use snakesat::instance::{Instance, Start};
use snakesat::output::{self, Output};
use snakesat::planner::{Method, Planner};
use snakesat::render::chart::{self, ChartFormat, Series, SizeRow};
use snakesat::solve::Status;

use super::instance_args::{InstanceArgs, load_instance};
use super::{Failure, bad_input, seconds};

#[derive(Args)]
pub struct SizesArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    /// Encodings to compare, comma-separated; a `key=value` item adds an
    /// option to the `direct` before it, e.g.
    /// `direct,direct,amo=pairwise,notebook-ordered` (three encodings).
    /// [default: direct, each amo=, body=, position=, growth=counter, prune=off, and the four notebook encodings]
    #[arg(long, value_name = "LIST")]
    pub encodings: Option<String>,
    /// Print JSON: an array with one object per encoding (per sweep value with --sweep).
    #[arg(long)]
    pub json: bool,
    /// Print the table as Markdown.
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// Show the clause families beneath each encoding in the text table.
    #[arg(long)]
    pub families: bool,
    /// Also solve each encoding at the horizon with CaDiCaL.
    #[arg(long)]
    pub solve: bool,
    /// Seconds allowed to each solve (and to the search for the least horizon).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub timeout: Duration,
    /// Largest horizon tried when searching the least one.
    #[arg(long, default_value_t = 300)]
    pub max_horizon: usize,
    /// Vary a parameter: `size=A..B[:STEP]` (square grids) or `horizon=A..B[:STEP]` (inclusive).
    #[arg(long, value_name = "PARAM=A..B[:STEP]")]
    pub sweep: Option<String>,
    /// Draw a chart of the clause counts (.svg or .png).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
}

/// The parameter a sweep varies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Param {
    Size,
    Horizon,
}

impl Param {
    fn name(self) -> &'static str {
        match self {
            Param::Size => "size",
            Param::Horizon => "horizon",
        }
    }
}

/// Parses `size=6..16`, `horizon=40..100:10`.
fn parse_sweep(text: &str) -> Result<(Param, Vec<usize>), Failure> {
    let bad = |why: &str| {
        bad_input(format!(
            "--sweep must be size=A..B[:STEP] or horizon=A..B[:STEP] ({why}), not {text:?}"
        ))
    };
    let (key, range) = text.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let param = match key.trim() {
        "size" => Param::Size,
        "horizon" => Param::Horizon,
        _ => return Err(bad("unknown parameter")),
    };
    let (range, step) = match range.split_once(':') {
        Some((r, s)) => (r, s.trim().parse::<usize>().map_err(|_| bad("bad step"))?),
        None => (range, 1),
    };
    let (a, b) = range.split_once("..").ok_or_else(|| bad("no `..`"))?;
    let b = b.strip_prefix('=').unwrap_or(b);
    let a: usize = a.trim().parse().map_err(|_| bad("bad start"))?;
    let b: usize = b.trim().parse().map_err(|_| bad("bad end"))?;
    if step == 0 {
        return Err(bad("step must be positive"));
    }
    if a > b {
        return Err(bad("start above end"));
    }
    if param == Param::Size && a == 0 {
        return Err(bad("sizes start at 1"));
    }
    let values: Vec<usize> = (a..=b).step_by(step).collect();
    if values.len() > 1000 {
        return Err(bad("more than 1000 values"));
    }
    Ok((param, values))
}

/// The default list: every meaningful option of `direct`, then the notebook's four.
pub fn default_encodings() -> Vec<String> {
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

/// Splits a comma-separated list into encoding names: `key=value` items
/// belong to the `direct` (or `key=value` run) before them.
fn split_list(list: &str) -> Vec<String> {
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

/// The encodings to measure, checked.
fn encodings(list: Option<&str>) -> Result<Vec<Box<dyn Encoding>>, Failure> {
    let names = match list {
        Some(l) => split_list(l),
        None => default_encodings(),
    };
    if names.is_empty() {
        return Err(bad_input("--encodings lists no encoding"));
    }
    names
        .iter()
        .map(|n| encode::by_name(n).map_err(bad_input))
        .collect()
}

/// A clause family's name and size, serialised as a JSON map in order.
struct Families(Vec<(String, Size)>);

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
struct Measure {
    encoding: String,
    default: bool,
    approximate: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    refused: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    variables: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    clauses: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    literals: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    families: Option<Families>,
    #[serde(skip_serializing_if = "Option::is_none")]
    build_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solve_seconds: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<Status>,
    /// With `--solve` and `sat`: whether the simulator accepts the model's plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_plan: Option<bool>,
}

fn measure(
    instance: &Instance,
    encoding: &dyn Encoding,
    moves: usize,
    solve_timeout: Option<Duration>,
) -> Measure {
    let name = encoding.name();
    let mut m = Measure {
        default: name == DirectOptions::default().name(),
        encoding: name,
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
    if let Some(timeout) = solve_timeout {
        let solving = Instant::now();
        let (status, path) = Planner::new(encoding)
            .timeout(Some(timeout))
            .solve_formula(instance, &cnf, moves);
        m.solve_seconds = Some(solving.elapsed().as_secs_f64());
        m.status = Some(status);
        if status == Status::Sat {
            let legal = path.is_some_and(|path| snakesat::sim::simulate(instance, &path).is_ok());
            m.legal_plan = Some(legal);
        }
    }
    m
}

fn describe(instance: &Instance) -> String {
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
        "{}x{}, {} walls, {} apples ({visible}), {start}, tail {}, {}",
        instance.width,
        instance.height,
        instance.walls.len(),
        instance.apples.len(),
        match instance.tail {
            snakesat::instance::TailRule::Follow => "follow",
            snakesat::instance::TailRule::Strict => "strict",
        },
        if instance.grow { "grows" } else { "no growth" }
    )
}

/// The horizon to measure at: the instance's, or the least one the default encoding finds.
fn horizon_for(
    instance: &Instance,
    timeout: Duration,
    max_horizon: usize,
    verbose: bool,
) -> Result<(usize, bool), Failure> {
    if let Some(t) = instance.horizon {
        return Ok((t, false));
    }
    let lower = encode::prune::lower_bound(instance);
    if lower > max_horizon {
        return Err(bad_input(format!(
            "--max-horizon {max_horizon} is below the lower bound {lower} on the moves needed"
        )));
    }
    let direct = Direct::default();
    let outcome = Planner::new(&direct)
        .method(Method::Fresh)
        .max_horizon(max_horizon)
        .timeout(Some(timeout))
        .on_attempt(|a| {
            if verbose {
                eprintln!(
                    "searching the least horizon: T={} {:?}",
                    a.horizon, a.status
                );
            }
        })
        .plan(instance)
        .map_err(bad_input)?;
    match outcome.plan() {
        Some(plan) => Ok((plan.horizon, true)),
        None => Err(Failure {
            code: 3,
            message: format!(
                "no least horizon found with {} (status {:?} after {} attempts, up to T={}); give --horizon",
                direct.name(),
                outcome.status(),
                outcome.attempts.len(),
                outcome.attempts.last().map_or(lower, |a| a.horizon)
            ),
        }),
    }
}

fn measure_all(
    instance: &Instance,
    encodings: &[Box<dyn Encoding>],
    moves: usize,
    solve_timeout: Option<Duration>,
    verbose: bool,
    tag: &str,
) -> Vec<Measure> {
    encodings
        .iter()
        .map(|e| {
            let m = measure(instance, &**e, moves, solve_timeout);
            if verbose {
                let what = match (&m.refused, m.clauses) {
                    (Some(r), _) => format!("refused: {r}"),
                    (None, Some(c)) => format!("{c} clauses"),
                    _ => String::new(),
                };
                let solved = match (m.status, m.solve_seconds) {
                    (Some(s), Some(t)) => format!(", {s:?} in {t:.2} s"),
                    _ => String::new(),
                };
                eprintln!("{tag}{}: {what}{solved}", m.encoding);
            }
            m
        })
        .collect()
}

fn num(v: Option<u64>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Sat => "sat",
        Status::Unsat => "unsat",
        Status::Unknown => "unknown",
    }
}

/// Renders rows as an aligned text table (numbers right-aligned) or Markdown.
fn table(header: &[String], rows: &[Vec<String>], numeric: &[bool], markdown: bool) -> String {
    let mut out = String::new();
    if markdown {
        out.push_str(&format!("| {} |\n", header.join(" | ")));
        let rule: Vec<&str> = numeric
            .iter()
            .map(|&n| if n { "---:" } else { "---" })
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for row in rows {
            let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        return out;
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .filter(|r| r.len() == header.len())
                .map(|r| r[i].chars().count())
                .chain([header[i].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = widths[i].saturating_sub(c.chars().count());
            if i > 0 {
                s.push_str("  ");
            }
            if numeric[i] {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                if i + 1 < cells.len() {
                    s.push_str(&" ".repeat(pad));
                }
            }
        }
        s.trim_end().to_string()
    };
    out.push_str(&line(header));
    out.push('\n');
    for row in rows {
        if row.len() == header.len() {
            out.push_str(&line(row));
        } else {
            // A note spanning the rest of the row (a refusal).
            let lead: Vec<String> = row.iter().take(row.len() - 1).cloned().collect();
            let mut s = line(&lead);
            let pad = widths[..lead.len()].iter().sum::<usize>() + 2 * lead.len();
            s.push_str(&" ".repeat(pad.saturating_sub(s.chars().count())));
            s.push_str(row.last().map_or("", String::as_str));
            out.push_str(&s);
        }
        out.push('\n');
    }
    out
}

fn sizes_table(measures: &[Measure], families: bool, solved: bool, markdown: bool) -> String {
    let mut header: Vec<String> = [
        "encoding",
        "approximate",
        "variables",
        "clauses",
        "literals",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut numeric = vec![false, false, true, true, true];
    if solved {
        header.extend(["solve s".to_string(), "status".to_string()]);
        numeric.extend([true, false]);
    }
    let mut rows = Vec::new();
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
        let approx = if m.approximate { "yes" } else { "no" }.to_string();
        if let Some(reason) = &m.refused {
            let mut row = vec![name, approx, format!("refused: {reason}")];
            if markdown {
                row.extend(std::iter::repeat_n(String::new(), header.len() - 3));
            }
            rows.push(row);
            continue;
        }
        let mut row = vec![
            name,
            approx,
            num(m.variables),
            num(m.clauses),
            num(m.literals),
        ];
        if solved {
            row.push(m.solve_seconds.map_or(String::new(), |s| format!("{s:.2}")));
            let mut status = m
                .status
                .map_or(String::new(), |s| status_name(s).to_string());
            if m.legal_plan == Some(false) {
                status.push_str(" (illegal plan)");
            }
            row.push(status);
        }
        rows.push(row);
        if families && let Some(Families(fams)) = &m.families {
            for (f, s) in fams {
                let mut row = vec![
                    format!("  {f}"),
                    String::new(),
                    s.variables.to_string(),
                    s.clauses.to_string(),
                    s.literals.to_string(),
                ];
                if solved {
                    row.extend([String::new(), String::new()]);
                }
                rows.push(row);
            }
        }
    }
    table(&header, &rows, &numeric, markdown)
}

/// Draws the chart into `plot` (if asked) and lands it, then prints `text`:
/// nothing is printed unless the chart is written.
fn finish(
    plot: Option<Output>,
    text: &[u8],
    draw: impl FnOnce(ChartFormat, &mut dyn Write) -> Result<(), chart::ChartError>,
) -> Result<u8, Failure> {
    if let Some(mut plot) = plot {
        let format = ChartFormat::of(plot.path()).map_err(bad_input)?;
        plot.write_with(|w| draw(format, w))?;
        let name = plot.name();
        output::commit([Some(plot)])?;
        if std::io::stderr().is_terminal() {
            eprintln!("wrote {name}");
        }
    }
    let _ = std::io::stdout().write_all(text);
    Ok(0)
}

pub fn run(args: SizesArgs) -> Result<u8, Failure> {
    if let Some(p) = &args.plot {
        ChartFormat::of(p).map_err(bad_input)?;
    }
    let [plot] = output::claim([args.plot.as_deref()])?;
    let sweep = args.sweep.as_deref().map(parse_sweep).transpose()?;
    let encodings = encodings(args.encodings.as_deref())?;
    let timeout = args.timeout;
    let solve_timeout = args.solve.then_some(timeout);
    let verbose = std::io::stderr().is_terminal();
    // Printed once the chart is written.
    let mut out: Vec<u8> = Vec::new();

    let Some((param, values)) = sweep else {
        let instance = load_instance(&args.instance)?;
        let (moves, searched) = horizon_for(&instance, timeout, args.max_horizon, verbose)?;
        let measures = measure_all(&instance, &encodings, moves, solve_timeout, verbose, "");
        if args.json {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&measures).expect("serialises")
            );
            if searched {
                eprintln!("T={moves}: the least horizon found with the default encoding");
            }
        } else {
            let how = if searched {
                "the least horizon found with the default encoding"
            } else {
                "given"
            };
            let _ = writeln!(out, "instance: {}", describe(&instance));
            let _ = writeln!(out, "horizon: T={moves} moves ({how})");
            let _ = writeln!(out);
            let _ = write!(
                out,
                "{}",
                sizes_table(&measures, args.families, args.solve, args.markdown)
            );
        }
        return finish(plot, &out, |format, w| {
            let rows: Vec<SizeRow> = measures
                .iter()
                .filter_map(|m| {
                    Some(SizeRow {
                        encoding: m.encoding.clone(),
                        approximate: m.approximate,
                        clauses: m.clauses?,
                    })
                })
                .collect();
            let title = format!(
                "Clauses per encoding, {}x{}, {} apples, T={moves}",
                instance.width,
                instance.height,
                instance.apples.len()
            );
            chart::encoding_sizes_chart(&title, &rows, format, w)
        });
    };

    if param == Param::Size && args.instance.instance.is_some() {
        return Err(bad_input(
            "--sweep size=... draws random square instances; it cannot take an instance file",
        ));
    }
    if param == Param::Size && args.instance.size.is_some() {
        return Err(bad_input("--sweep size=... cannot be combined with --size"));
    }
    if param == Param::Horizon && args.instance.horizon.is_some() {
        return Err(bad_input(
            "--sweep horizon=... cannot be combined with --horizon",
        ));
    }
    let mut points: Vec<(usize, usize, Vec<Measure>)> = Vec::new();
    let base = if param == Param::Horizon {
        Some(load_instance(&args.instance)?)
    } else {
        None
    };
    for &v in &values {
        let (instance, moves, searched) = match param {
            Param::Size => {
                let mut flags = args.instance.clone();
                flags.size = Some(v.to_string());
                let instance = load_instance(&flags)?;
                let (moves, searched) = horizon_for(&instance, timeout, args.max_horizon, verbose)?;
                (instance, moves, searched)
            }
            Param::Horizon => {
                let mut instance = base.clone().expect("loaded above");
                instance.horizon = Some(v);
                instance.validate().map_err(bad_input)?;
                (instance, v, false)
            }
        };
        if verbose && searched {
            eprintln!("size {v}: least horizon T={moves}");
        }
        let tag = format!("{}={v} T={moves}: ", param.name());
        let measures = measure_all(&instance, &encodings, moves, solve_timeout, verbose, &tag);
        points.push((v, moves, measures));
    }
    if args.json {
        let doc: Vec<serde_json::Value> = points
            .iter()
            .map(|(v, moves, measures)| {
                serde_json::json!({
                    param.name(): v,
                    "horizon": moves,
                    "encodings": measures,
                })
            })
            .collect();
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).expect("serialises")
        );
    } else {
        let mut header = vec![param.name().to_string()];
        let mut numeric = vec![true];
        if param == Param::Size {
            header.push("T".to_string());
            numeric.push(true);
        }
        for e in &encodings {
            header.push(if args.markdown {
                format!("`{}`", e.name())
            } else {
                e.name()
            });
            numeric.push(true);
        }
        let rows: Vec<Vec<String>> = points
            .iter()
            .map(|(v, moves, measures)| {
                let mut row = vec![v.to_string()];
                if param == Param::Size {
                    row.push(moves.to_string());
                }
                row.extend(measures.iter().map(|m| match m.clauses {
                    Some(c) => c.to_string(),
                    None => "refused".to_string(),
                }));
                row
            })
            .collect();
        let _ = writeln!(
            out,
            "clauses per encoding; {} swept (\"refused\": the encoding does not model the instance, or it is too large)",
            param.name()
        );
        let _ = write!(out, "{}", table(&header, &rows, &numeric, args.markdown));
    }
    finish(plot, &out, |format, w| {
        let series: Vec<Series> = encodings
            .iter()
            .enumerate()
            .map(|(i, e)| Series {
                name: e.name(),
                points: points
                    .iter()
                    .filter_map(|(v, _, ms)| ms[i].clauses.map(|c| (*v as f64, c as f64)))
                    .collect(),
            })
            .filter(|s| !s.points.is_empty())
            .collect();
        let x_label = match param {
            Param::Size if args.instance.horizon.is_some() => "grid side N (N×N cells)".to_string(),
            Param::Size => "grid side N (N×N cells; T = least horizon per size)".to_string(),
            Param::Horizon => "horizon T (moves)".to_string(),
        };
        let title = match (param, &base) {
            (Param::Horizon, Some(inst)) => format!(
                "Clauses per encoding, {}x{}, {} apples, horizon swept",
                inst.width,
                inst.height,
                inst.apples.len()
            ),
            _ => format!(
                "Clauses per encoding, N×N grids, {} apples, {}",
                args.instance.apples.unwrap_or(RandomSpec::default().apples),
                match args.instance.horizon {
                    Some(t) => format!("T={t}"),
                    None => "at the least horizon".to_string(),
                }
            ),
        };
        chart::encoding_growth_chart(&title, &x_label, series, format, w)
    })
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
    fn sweeps_parse() {
        assert_eq!(
            parse_sweep("size=6..8").ok().unwrap(),
            (Param::Size, vec![6, 7, 8])
        );
        assert_eq!(
            parse_sweep("horizon=40..60:10").ok().unwrap(),
            (Param::Horizon, vec![40, 50, 60])
        );
        for bad in [
            "size",
            "size=6",
            "width=1..2",
            "size=8..6",
            "size=1..3:0",
            "size=a..b",
        ] {
            assert!(parse_sweep(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn default_names_are_accepted() {
        let names = default_encodings();
        assert_eq!(names[0], "direct");
        for n in &names {
            assert_eq!(&encode::by_name(n).unwrap().name(), n);
        }
    }
}
