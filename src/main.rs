//! The `snakesat` command line: a thin clap layer over the library.
//!
//! Exit codes: 0 a plan, 1 proven no plan within the horizon, 2 bad input or
//! usage, 3 a limit reached or an illegal plan from an approximate encoding.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use snakesat::cnf::dimacs;
use snakesat::encode::{self, EncodeError, Encoding};
use snakesat::instance::random::{RandomSpec, generate};
use snakesat::instance::{Instance, TailRule, json};
use snakesat::report::{PlanReport, picture};
use snakesat::sim;
use snakesat::solve::{self, Stats, Status};

#[derive(Parser)]
#[command(
    name = "snakesat",
    version,
    about = "Plans the Snake game with SAT (CaDiCaL)"
)]
#[command(
    after_help = "Exit codes: 0 plan found, 1 proven no plan within the horizon, 2 bad input or usage, \
3 limit reached or illegal plan from an approximate encoding."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve an instance (default: the notebook's MVP3 setting) and print a checked plan.
    Solve(SolveArgs),
    /// Write the CNF of an instance at a horizon as self-describing DIMACS.
    Export(ExportArgs),
    /// Read a solver's model for an exported CNF, rebuild the plan and check it.
    Decode(DecodeArgs),
}

/// Where the instance comes from: a file, or seeded random parameters.
#[derive(Args, Clone)]
struct InstanceArgs {
    /// Instance file (.json); without it a random instance is drawn from the flags below.
    instance: Option<PathBuf>,
    /// Random instance: grid size, `N` or `WxH` [default: 10].
    #[arg(long, value_name = "N|WxH")]
    size: Option<String>,
    /// Random instance: number of apples [default: 9].
    #[arg(long)]
    apples: Option<usize>,
    /// Random instance: snake length of the free start [default: 3].
    #[arg(long)]
    length: Option<usize>,
    /// Random instance: apples visible at once, a number or `all` [default: 1].
    #[arg(long)]
    visible: Option<String>,
    /// Random instance: number of random walls [default: 0].
    #[arg(long)]
    walls: Option<usize>,
    /// Random instance: the seed [default: 1].
    #[arg(long)]
    seed: Option<u64>,
    /// Random instance: tail rule, `follow` or `strict` [default: follow].
    #[arg(long)]
    tail: Option<String>,
    /// Random instance: the snake does not grow when it eats.
    #[arg(long)]
    no_grow: bool,
    /// Number of moves T (overrides the instance's); without it the least T is searched.
    #[arg(long)]
    horizon: Option<usize>,
}

#[derive(Args)]
struct EncodingArgs {
    /// Encoding: `direct` (sound, default; options as `direct,amo=pairwise,prune=off`),
    /// or the notebook's approximations `notebook-mvp1`, `notebook-counter`,
    /// `notebook-combinations`, `notebook-ordered` (their models may be illegal plans).
    #[arg(long, default_value = "direct")]
    encoding: String,
}

#[derive(Args)]
struct SolveArgs {
    #[command(flatten)]
    instance: InstanceArgs,
    #[command(flatten)]
    encoding: EncodingArgs,
    /// Largest horizon tried when searching the least one.
    #[arg(long, default_value_t = 300)]
    max_horizon: usize,
    /// Give up after this many seconds (status `unknown`, exit 3).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct ExportArgs {
    #[command(flatten)]
    instance: InstanceArgs,
    #[command(flatten)]
    encoding: EncodingArgs,
    /// Output file.
    #[arg(short, long, value_name = "FILE.cnf")]
    output: PathBuf,
}

#[derive(Args)]
struct DecodeArgs {
    /// A CNF written by `snakesat export`.
    cnf: PathBuf,
    /// The solver's output: SAT-competition form (`s`/`v` lines) or MiniSat's result file.
    model: PathBuf,
    /// Print the plan as JSON.
    #[arg(long)]
    json: bool,
}

/// An error with the exit code it maps to.
struct Failure {
    code: u8,
    message: String,
}

fn bad_input(message: impl std::fmt::Display) -> Failure {
    Failure {
        code: 2,
        message: message.to_string(),
    }
}

fn encode_failure(e: EncodeError) -> Failure {
    bad_input(e)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => run_solve(args),
        Command::Export(args) => run_export(args),
        Command::Decode(args) => run_decode(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            let message = f.message.replace('\n', " ");
            eprintln!("error: {message}");
            ExitCode::from(f.code)
        }
    }
}

fn read_file(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))
}

fn parse_size(text: &str) -> Result<(usize, usize), Failure> {
    let bad = || bad_input(format!("--size must be N or WxH, not {text:?}"));
    let (w, h) = match text.split_once(['x', 'X']) {
        Some((w, h)) => (
            w.trim().parse().map_err(|_| bad())?,
            h.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = text.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    Ok((w, h))
}

fn parse_tail(text: &str) -> Result<TailRule, Failure> {
    match text {
        "follow" => Ok(TailRule::Follow),
        "strict" => Ok(TailRule::Strict),
        _ => Err(bad_input(format!(
            "--tail must be follow or strict, not {text:?}"
        ))),
    }
}

/// The instance the flags describe, with `--horizon` applied.
fn load_instance(args: &InstanceArgs) -> Result<Instance, Failure> {
    let mut instance = match &args.instance {
        Some(path) => {
            let generation_flags = args.size.is_some()
                || args.apples.is_some()
                || args.length.is_some()
                || args.visible.is_some()
                || args.walls.is_some()
                || args.seed.is_some()
                || args.tail.is_some()
                || args.no_grow;
            if generation_flags {
                return Err(bad_input(
                    "random-instance flags (--size, --apples, --length, --visible, --walls, --seed, --tail, --no-grow) cannot be combined with an instance file",
                ));
            }
            let text = read_file(path)?;
            json::from_json(&text).map_err(|e| bad_input(format!("{}: {e}", path.display())))?
        }
        None => {
            let default = RandomSpec::default();
            let (width, height) = match &args.size {
                Some(s) => parse_size(s)?,
                None => (default.width, default.height),
            };
            let apples = args.apples.unwrap_or(default.apples);
            let visible = match args.visible.as_deref() {
                None => default.visible,
                Some("all") => None,
                Some(v) => Some(v.parse().map_err(|_| {
                    bad_input(format!("--visible must be a number or `all`, not {v:?}"))
                })?),
            };
            let spec = RandomSpec {
                width,
                height,
                apples,
                length: args.length.unwrap_or(default.length),
                visible,
                walls: args.walls.unwrap_or(0),
                grow: !args.no_grow,
                tail: match &args.tail {
                    Some(t) => parse_tail(t)?,
                    None => TailRule::Follow,
                },
                horizon: None,
                seed: args.seed.unwrap_or(default.seed),
            };
            generate(&spec).map_err(bad_input)?
        }
    };
    if let Some(h) = args.horizon {
        instance.horizon = Some(h);
        instance.validate().map_err(bad_input)?;
    }
    Ok(instance)
}

fn load_encoding(name: &str) -> Result<Box<dyn Encoding>, Failure> {
    encode::by_name(name).map_err(bad_input)
}

/// Replays a solver's path; on success the report, else the exit-3 failure.
fn checked_report(
    instance: &Instance,
    encoding: &dyn Encoding,
    path: Option<Vec<(usize, usize)>>,
    horizon: usize,
) -> Result<(Vec<(usize, usize)>, sim::Replay), Failure> {
    let kind = if encoding.approximate() {
        "approximate encoding"
    } else {
        "encoding"
    };
    let Some(path) = path else {
        return Err(Failure {
            code: 3,
            message: format!(
                "the model of {kind} {} at T={horizon} is not a path",
                encoding.name()
            ),
        });
    };
    match sim::simulate(instance, &path) {
        Ok(replay) => Ok((path, replay)),
        Err(v) => Err(Failure {
            code: 3,
            message: format!(
                "the model of {kind} {} at T={horizon} is not a legal plan: {v}",
                encoding.name()
            ),
        }),
    }
}

fn print_plan(
    instance: &Instance,
    report: &PlanReport,
    replay: Option<&sim::Replay>,
    as_json: bool,
) {
    let mut out = std::io::stdout().lock();
    if as_json {
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(report).expect("report serialises")
        );
        return;
    }
    match (report.status, replay) {
        (Status::Sat, Some(replay)) => {
            let optimal = if report.optimal {
                " (proven least)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "plan: {} moves{optimal}, {} apples, encoding {}",
                report.horizon,
                instance.apples.len(),
                report.encoding
            );
            let _ = write!(out, "{}", picture(instance, &report.path, replay));
        }
        (Status::Unsat, _) => {
            let _ = writeln!(
                out,
                "no plan within {} moves (encoding {})",
                report.horizon, report.encoding
            );
        }
        _ => {
            let _ = writeln!(
                out,
                "unknown: limit reached at T={} (encoding {})",
                report.horizon, report.encoding
            );
        }
    }
    let s = &report.stats;
    let _ = writeln!(
        out,
        "cnf: {} variables, {} clauses, {} literals; build {:.3} s, solve {:.3} s",
        s.variables, s.clauses, s.literals, s.build_seconds, s.solve_seconds
    );
}

fn run_solve(args: SolveArgs) -> Result<u8, Failure> {
    let instance = load_instance(&args.instance)?;
    let encoding = load_encoding(&args.encoding.encoding)?;
    if let Some(t) = args.timeout
        && !(t.is_finite() && t > 0.0)
    {
        return Err(bad_input(format!(
            "--timeout must be a positive number of seconds, not {t}"
        )));
    }
    let timeout = args.timeout.map(Duration::from_secs_f64);
    let verbose = std::io::stderr().is_terminal();
    let (lower, upper) = match instance.horizon {
        Some(t) => (t, t),
        None => (encode::prune::lower_bound(&instance), args.max_horizon),
    };
    if lower > upper {
        return Err(bad_input(format!(
            "--max-horizon {upper} is below the lower bound {lower} on the moves needed"
        )));
    }
    let proven = encode::prune::lower_bound(&instance);
    let search = solve::least_horizon(&instance, &*encoding, lower, upper, proven, timeout, |a| {
        if verbose {
            eprintln!(
                "T={}: {:?} ({} clauses, {:.2} s)",
                a.horizon,
                a.status,
                a.stats.clauses,
                a.stats.build_seconds + a.stats.solve_seconds
            );
        }
    })
    .map_err(encode_failure)?;
    let mut stats = search
        .attempts
        .last()
        .map(|a| a.stats.clone())
        .unwrap_or_default();
    stats.build_seconds = search.attempts.iter().map(|a| a.stats.build_seconds).sum();
    stats.solve_seconds = search.attempts.iter().map(|a| a.stats.solve_seconds).sum();
    let mut report = PlanReport {
        status: search.status,
        horizon: search.attempts.last().map_or(lower, |a| a.horizon),
        path: vec![],
        eaten: vec![],
        optimal: search.optimal(),
        lower_bound: search.lower_bound,
        encoding: encoding.name(),
        stats,
    };
    match search.status {
        Status::Sat => {
            let attempt = search.plan().expect("sat search has a plan");
            let (path, replay) =
                checked_report(&instance, &*encoding, attempt.path.clone(), attempt.horizon)?;
            report.path = path;
            report.eaten = replay.eaten.clone();
            print_plan(&instance, &report, Some(&replay), args.json);
            Ok(0)
        }
        Status::Unsat => {
            report.optimal = false;
            print_plan(&instance, &report, None, args.json);
            Ok(1)
        }
        Status::Unknown => {
            print_plan(&instance, &report, None, args.json);
            Ok(3)
        }
    }
}

/// Writes `bytes` to `path` through a temporary file, so that a failure leaves nothing half-written.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), Failure> {
    let tmp = path.with_extension("cnf.partial");
    let result = (|| {
        let file = std::fs::File::create(&tmp)?;
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        write(&mut w)?;
        w.flush()?;
        drop(w);
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        bad_input(format!("cannot write {}: {e}", path.display()))
    })
}

fn run_export(args: ExportArgs) -> Result<u8, Failure> {
    let instance = load_instance(&args.instance)?;
    let encoding = load_encoding(&args.encoding.encoding)?;
    let Some(horizon) = instance.horizon else {
        return Err(bad_input(
            "export needs a horizon: give --horizon T or a `horizon` in the instance",
        ));
    };
    let cnf = encoding
        .encode(&instance, horizon)
        .map_err(encode_failure)?;
    let meta = [
        ("instance", json::to_json(&instance)),
        ("encoding", encoding.name()),
        ("horizon", horizon.to_string()),
        ("approximate", encoding.approximate().to_string()),
    ];
    write_atomically(&args.output, |w| dimacs::write(&cnf, &meta, w))?;
    let size = cnf.size();
    eprintln!(
        "wrote {}: {} variables, {} clauses, {} literals (encoding {}, T={horizon})",
        args.output.display(),
        size.variables,
        size.clauses,
        size.literals,
        encoding.name()
    );
    Ok(0)
}

fn run_decode(args: DecodeArgs) -> Result<u8, Failure> {
    let cnf_text = read_file(&args.cnf)?;
    let parsed =
        dimacs::parse(&cnf_text).map_err(|e| bad_input(format!("{}: {e}", args.cnf.display())))?;
    let meta = |key: &str| {
        parsed.meta.get(key).ok_or_else(|| {
            bad_input(format!(
                "{}: no `c {key}` line (not written by snakesat export)",
                args.cnf.display()
            ))
        })
    };
    let instance = json::from_json(meta("instance")?)
        .map_err(|e| bad_input(format!("{}: {e}", args.cnf.display())))?;
    let encoding = load_encoding(meta("encoding")?)?;
    let horizon: usize = meta("horizon")?
        .parse()
        .map_err(|_| bad_input(format!("{}: bad `c horizon` line", args.cnf.display())))?;
    let model_text = read_file(&args.model)?;
    let model = dimacs::parse_model(&model_text, parsed.num_vars)
        .map_err(|e| bad_input(format!("{}: {e}", args.model.display())))?;
    let mut report = PlanReport {
        status: Status::Unknown,
        horizon,
        path: vec![],
        eaten: vec![],
        optimal: false,
        lower_bound: encode::prune::lower_bound(&instance),
        encoding: encoding.name(),
        stats: Stats {
            variables: parsed.num_vars as u64,
            clauses: parsed.num_clauses as u64,
            literals: parsed.flat.iter().filter(|&&l| l != 0).count() as u64,
            ..Stats::default()
        },
    };
    let values = match model {
        dimacs::ModelFile::Sat(values) => values,
        dimacs::ModelFile::Unsat => {
            report.status = Status::Unsat;
            print_plan(&instance, &report, None, args.json);
            return Ok(1);
        }
        dimacs::ModelFile::Unknown => {
            print_plan(&instance, &report, None, args.json);
            return Ok(3);
        }
    };
    if let Some(clause) = dimacs::first_falsified(&parsed.flat, &values) {
        return Err(bad_input(format!(
            "{}: the model does not satisfy clause {clause} of {}",
            args.model.display(),
            args.cnf.display()
        )));
    }
    let named = parsed.names.iter().zip(&values).filter_map(|(n, &v)| {
        n.as_ref()
            .map(|n| (n.kind.as_str(), n.coords.as_slice(), v))
    });
    let path = encode::decode::path_from_model(named, horizon, &solve::fixed_heads(&instance)).ok();
    let (path, replay) = checked_report(&instance, &*encoding, path, horizon)?;
    report.status = Status::Sat;
    report.optimal = horizon == report.lower_bound;
    report.path = path;
    report.eaten = replay.eaten.clone();
    print_plan(&instance, &report, Some(&replay), args.json);
    Ok(0)
}
