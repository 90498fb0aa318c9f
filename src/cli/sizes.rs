//! `snakesat sizes`: the flags and the printing of [`crate::cli::measure::sizes`]
//! (the size of every encoding, or a chosen list, on one instance at one
//! horizon, per clause family, optionally solved; or how the sizes grow over
//! a sweep of grid sizes or horizons; optionally charted).

use crate::cli::Exit;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use crate::cli::measure::sizes::{
    self, Measure, Param, Point, describe, horizon_for, measure, parse_sweep, sizes_table,
    sweep_solve_table, sweep_table,
};
use snakesat::encode::Encoding;
use snakesat::instance::Instance;
use snakesat::instance::random::RandomSpec;
use snakesat::output::{self, Output};
use snakesat::render::chart::{self, ChartFormat};
use snakesat::solve::Status;

use super::instance_args::{InstanceArgs, load_instance};
use super::watchdog::{self, Answer};
use super::{Failure, bad_input, print_report, progress, seconds};

#[derive(Args)]
pub struct SizesArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    /// Encodings to compare, comma-separated; a `key=value` item adds an
    /// option to the `direct` before it (after a notebook encoding, or first,
    /// it starts a `direct` of its own), e.g.
    /// `direct,direct,amo=pairwise,notebook-ordered` (three encodings); an
    /// option given twice to one `direct` is refused, an item that spells an
    /// encoding listed before it (`direct,prune=on` after `direct`) dropped.
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
    /// Also solve each encoding at the horizon with CaDiCaL (with --sweep, at
    /// each value: a second table gives the answers and seconds).
    #[arg(long)]
    pub solve: bool,
    /// Seconds allowed to reading the problem, to each solve and to each
    /// search for the least horizon (reading or a search past them: exit 3;
    /// a solve past them: its row's status `unknown`), not to the whole
    /// run: building the formulas is not timed (a build cannot
    /// be stopped midway; each is bounded by the encodings' size limits instead,
    /// and a sweep by 1000 values, so the sizes never depend on the machine's
    /// speed), and a sweep over large boards or horizons can take minutes. A
    /// solve's seconds include loading the formula into CaDiCaL, which cannot
    /// be stopped midway either: on a formula of millions of clauses they can
    /// exceed the limit by a second or more.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub timeout: Duration,
    /// Largest horizon tried when searching the least one (at most 100000;
    /// not used at a fixed horizon, which a note says) [default: 300].
    #[arg(long, value_parser = super::max_horizon)]
    pub max_horizon: Option<usize>,
    /// Vary a parameter: `size=A..B[:STEP]` (square grids) or `horizon=A..B[:STEP]` (inclusive).
    #[arg(long, value_name = "PARAM=A..B[:STEP]")]
    pub sweep: Option<String>,
    /// Chart the clause counts (.svg or .png): bars per encoding, or with
    /// --sweep a line per encoding.
    #[arg(long, value_parser = super::chart_path, value_name = "FILE", help_heading = "Charts")]
    pub plot_clauses: Option<PathBuf>,
}

/// The largest horizon the least-horizon search tries unless `--max-horizon` says.
const DEFAULT_MAX_HORIZON: usize = 300;

/// The horizon to measure at (see [`horizon_for`]), its search shown on a
/// terminal; `None` when some apple can never be eaten (no plan).
fn horizon(
    instance: &Instance,
    timeout: Duration,
    max_horizon: usize,
    verbose: bool,
) -> Result<(usize, bool), Failure> {
    // (The lower bound's analysis, seconds on a large board, cannot be
    // stopped midway: past the limit and the grace the watchdog ends the run,
    // exit 3. The reason for no plan is found again below, also under it.)
    let watchdog = watchdog::start(Some(timeout), Answer::Nothing);
    watchdog.doing("searching the least horizon");
    let found = horizon_for(instance, timeout, max_horizon, |a| {
        if verbose {
            stderr_line!(
                "searching the least horizon: T={} {}",
                a.horizon,
                a.status.name()
            );
        }
    });
    found.map_err(|e| match e {
        // Proven: no plan at any horizon (exit 1, as `solve` says).
        sizes::HorizonError::NeverEaten => Failure {
            code: Exit::NoPlan,
            message: super::no_plan_at_any_horizon(instance),
        },
        // Proven: no plan within --max-horizon (exit 1, as `solve` says).
        sizes::HorizonError::NotFound {
            status: Status::Unsat,
            ..
        }
        | sizes::HorizonError::BelowBound { .. } => Failure {
            code: Exit::NoPlan,
            message: e.to_string(),
        },
        sizes::HorizonError::NotFound { .. } => Failure {
            code: Exit::Unknown,
            message: e.to_string(),
        },
        other => bad_input(other),
    })
}

/// The instance of the flags, read within `timeout` like `solve`'s problem:
/// past it (and the grace) the watchdog ends the run, exit 3, e.g. on a
/// FIFO that no one writes.
fn read_instance(args: &InstanceArgs, timeout: Duration) -> Result<Instance, Failure> {
    let watchdog = watchdog::start(Some(timeout), Answer::Nothing);
    watchdog.doing("reading the problem");
    load_instance(args)
}

/// One value of a `--sweep` in `--json`: the size swept (none for a
/// horizon sweep), the horizon measured at, and the encodings' measures, in
/// this order (`serde_json::json!` sorted the keys, the measures' too).
#[derive(serde::Serialize)]
struct SweepPoint<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    size: Option<usize>,
    horizon: Option<usize>,
    encodings: &'a [Measure],
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
                stderr_line!("{tag}{}: {what}{solved}", m.encoding);
            }
            m
        })
        .collect()
}

/// Draws the chart into `plot` (if asked) and lands it, then notes the
/// `dropped` items of --encodings and prints `text`: nothing is printed
/// unless the chart is written.
fn finish(
    plot: Option<Output>,
    dropped: &[(String, String)],
    text: &[u8],
    draw: impl FnOnce(ChartFormat, &mut dyn Write) -> Result<(), chart::ChartError>,
) -> Result<Exit, Failure> {
    let mut plot = plot;
    let name = plot.as_ref().map(Output::name);
    if let Some(plot) = &mut plot {
        let format = ChartFormat::of(plot.path()).map_err(bad_input)?;
        plot.write_with(|w| draw(format, w))?;
    }
    super::commit_then_print([plot], || {
        super::note_dropped_encodings("--encodings", dropped);
        print_report(&String::from_utf8_lossy(text));
    })?;
    if let Some(name) = name
        && std::io::stderr().is_terminal()
    {
        note!("wrote {name}");
    }
    Ok(Exit::Done)
}

pub fn run(args: SizesArgs) -> Result<Exit, Failure> {
    if let Some(p) = &args.plot_clauses {
        ChartFormat::of(p).map_err(bad_input)?;
    }
    let [plot] = output::claim([args.plot_clauses.as_deref()])?;
    let sweep = args
        .sweep
        .as_deref()
        .map(parse_sweep)
        .transpose()
        .map_err(bad_input)?;
    let listed = sizes::encodings(args.encodings.as_deref()).map_err(bad_input)?;
    let (encodings, dropped) = (listed.encodings, listed.dropped);
    let timeout = args.timeout;
    let solve_timeout = args.solve.then_some(timeout);
    let max_horizon = args.max_horizon.unwrap_or(DEFAULT_MAX_HORIZON);
    // --max-horizon given where no least horizon is searched: said once.
    let unused_max_horizon = |fixed: usize| {
        if args.max_horizon.is_some() {
            note!(
                "--max-horizon bounds the search for the least horizon; the horizon is fixed (T={fixed}), so it is not used"
            );
        }
    };
    // A line per measure and per horizon searched: on a terminal, or in a
    // log when `SNAKESAT_PROGRESS` asks for progress.
    let verbose =
        (std::io::stderr().is_terminal() || progress::log_interval().is_some()) && !super::quiet();
    // Printed once the chart is written.
    let mut out: Vec<u8> = Vec::new();

    let Some((param, values)) = sweep else {
        let instance = read_instance(&args.instance, timeout)?;
        let (moves, searched) = horizon(&instance, timeout, max_horizon, verbose)?;
        if !searched {
            unused_max_horizon(moves);
        }
        let measures = measure_all(&instance, &encodings, moves, solve_timeout, verbose, "");
        if args.json {
            let _ = writeln!(
                out,
                "{}",
                serde_json::to_string_pretty(&measures).expect("serialises")
            );
            if searched {
                note!("T={moves}: the least horizon found with the default encoding");
            }
        } else {
            let how = if searched {
                "the least horizon found with the default encoding"
            } else {
                "given"
            };
            let context = [
                format!("instance: {}", describe(&instance)),
                format!("horizon: T={} ({how})", snakesat::counted(moves, "move")),
            ];
            write_context(&mut out, &context, args.markdown);
            let _ = writeln!(out);
            let _ = write!(
                out,
                "{}",
                table_text(
                    &sizes_table(&measures, args.families, args.solve, args.markdown),
                    args.markdown
                )
            );
        }
        return finish(plot, &dropped, &out, |format, w| {
            let rows = sizes::size_rows(&measures);
            let title = format!(
                "Clauses per encoding, {}x{}, {}, T={moves}",
                instance.width,
                instance.height,
                snakesat::counted(instance.apples.len(), "apple")
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
    let mut points: Vec<Point> = Vec::new();
    let base = if param == Param::Horizon {
        Some(read_instance(&args.instance, timeout)?)
    } else {
        None
    };
    // The instance of one size, its error naming the sweep's value (the
    // flags alone hold).
    let sized = |v: usize| {
        let mut flags = args.instance.clone();
        flags.size = Some(v.to_string());
        load_instance(&flags).map_err(|f| Failure {
            message: format!("--sweep size={v}: {}", f.message),
            ..f
        })
    };
    let at_horizon = |v: usize| {
        let mut instance = base.clone().expect("loaded above");
        instance.horizon = Some(v);
        instance.validate().map_err(bad_input)?;
        Ok::<_, Failure>(instance)
    };
    // Both ends of the sweep checked before any work: a value past a limit
    // (a board or horizon too large, apples that do not fit the smallest
    // board) is refused before the values below it are measured.
    if let (Some(&first), Some(&last)) = (values.first(), values.last()) {
        for v in [first, last] {
            match param {
                Param::Size => {
                    let instance = sized(v)?;
                    if let Some(fixed) = instance.horizon
                        && v == last
                    {
                        unused_max_horizon(fixed);
                    }
                }
                Param::Horizon => {
                    drop(at_horizon(v)?);
                    if v == last {
                        unused_max_horizon(v);
                    }
                }
            }
        }
    }
    for &v in &values {
        let (instance, moves, searched) = match param {
            Param::Size => {
                let instance = sized(v)?;
                // No plan at this size (proven, exit 1 on its own): a row
                // that says so, and on.
                let found = match horizon(&instance, timeout, max_horizon, verbose) {
                    Ok(found) => Ok(found),
                    Err(f) if f.code == Exit::NoPlan => Err(f.message),
                    Err(f) => return Err(f),
                };
                match found {
                    Ok((moves, searched)) => (instance, moves, searched),
                    Err(why) => {
                        if verbose {
                            stderr_line!("size {v}: {why}");
                        }
                        points.push((v, None, Vec::new()));
                        continue;
                    }
                }
            }
            Param::Horizon => (at_horizon(v)?, v, false),
        };
        if verbose && searched {
            stderr_line!("size {v}: least horizon T={moves}");
        }
        let tag = format!("{}={v} T={moves}: ", param.name());
        let measures = measure_all(&instance, &encodings, moves, solve_timeout, verbose, &tag);
        points.push((v, Some(moves), measures));
    }
    if args.json {
        let doc: Vec<SweepPoint> = points
            .iter()
            .map(|(v, moves, measures)| SweepPoint {
                size: (param == Param::Size).then_some(*v),
                horizon: *moves,
                encodings: measures,
            })
            .collect();
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&doc).expect("serialises")
        );
    } else {
        let mut context = vec![format!(
            "clauses per encoding; {} swept (\"refused\": the encoding does not model the instance, or it is too large)",
            param.name()
        )];
        if points.iter().any(|(_, moves, _)| moves.is_none()) {
            context.push(
                "(\"no plan\": that size's instance has no plan of at most --max-horizon moves, or some apple can never be eaten)"
                    .to_string(),
            );
        }
        write_context(&mut out, &context, args.markdown);
        if args.markdown {
            let _ = writeln!(out);
        }
        let _ = write!(
            out,
            "{}",
            table_text(
                &sweep_table(param, &encodings, &points, args.markdown),
                args.markdown
            )
        );
        if args.solve {
            let _ = writeln!(out);
            let caption = format!(
                "solver's answer and seconds per encoding; {} swept",
                param.name()
            );
            write_context(&mut out, &[caption], args.markdown);
            if args.markdown {
                let _ = writeln!(out);
            }
            let _ = write!(
                out,
                "{}",
                table_text(
                    &sweep_solve_table(param, &encodings, &points, args.markdown),
                    args.markdown
                )
            );
        }
    }
    finish(plot, &dropped, &out, |format, w| {
        let series = sizes::sweep_series(&encodings, &points);
        let x_label = match param {
            Param::Size if args.instance.horizon.is_some() => "grid side N (N×N cells)".to_string(),
            Param::Size => "grid side N (N×N cells; T = least horizon per size)".to_string(),
            Param::Horizon => "horizon T (moves)".to_string(),
        };
        let title = match (param, &base) {
            (Param::Horizon, Some(inst)) => format!(
                "Clauses per encoding, {}x{}, {}, horizon swept",
                inst.width,
                inst.height,
                snakesat::counted(inst.apples.len(), "apple")
            ),
            _ => format!(
                "Clauses per encoding, N×N grids, {}, {}",
                snakesat::counted(
                    args.instance.apples.unwrap_or(RandomSpec::default().apples),
                    "apple"
                ),
                match args.instance.horizon {
                    Some(t) => format!("T={t}"),
                    None => "at the least horizon".to_string(),
                }
            ),
        };
        chart::encoding_growth_chart(&title, &x_label, series, format, w)
    })
}

/// The lines above a table, one per line: in Markdown an item each, which
/// a renderer keeps apart (plain lines would join into one paragraph).
fn write_context(out: &mut Vec<u8>, lines: &[String], markdown: bool) {
    for line in lines {
        let bullet = if markdown { "- " } else { "" };
        let _ = writeln!(out, "{bullet}{line}");
    }
}

/// A table as Markdown or as aligned text.
fn table_text(table: &crate::cli::table::Table, markdown: bool) -> String {
    if markdown {
        table.to_markdown()
    } else {
        table.to_text()
    }
}
