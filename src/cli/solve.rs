//! `snakesat solve`: a checked plan at a horizon, or at the least horizon.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};

use snakesat::encode::direct::{Body, DirectOptions};
use snakesat::encode::{self, Encoding};
use snakesat::instance::Instance;
use snakesat::report::PlanReport;
use snakesat::solve::incremental::least_horizon_incremental;
use snakesat::solve::satisficing::satisficing;
use snakesat::solve::{self, Search, Status};

use super::charts;
use super::instance_args::{EncodingArgs, InstanceArgs, load_encoding, load_instance};
use super::{
    Failure, GifLook, bad_input, check_output_dir, checked_report, encode_failure, finite,
    note_no_gif, print_plan, seconds, write_atomically, write_gif_file,
};

/// How the least horizon is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SearchMode {
    /// One CaDiCaL instance for every horizon (assumptions); needs a direct encoding without body=block.
    Incremental,
    /// A fresh formula and solver per horizon.
    Fresh,
}

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Largest horizon tried when searching the least one.
    #[arg(long, default_value_t = 300)]
    pub max_horizon: usize,
    /// Give up after this many seconds (status `unknown`, exit 3); with
    /// `--satisficing`, the time spent improving the first plan.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub timeout: Option<Duration>,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Least-horizon search [default: incremental when the encoding allows it, else fresh].
    #[arg(long, value_enum)]
    pub search: Option<SearchMode>,
    /// A plan fast (any length), then shorter ones while time remains; `optimal` only if proven.
    #[arg(long)]
    pub satisficing: bool,
    /// CaDiCaL configuration of the incremental and satisficing searches (`default`, `plain`, `sat`, `unsat`).
    #[arg(long, value_name = "NAME")]
    pub cadical_config: Option<String>,
    /// Write the IPC plan (the domain's actions) of the checked path to FILE (PDDL instances only).
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Write the animation of the checked plan as a GIF (nothing is written without a plan).
    #[arg(long, value_name = "FILE", help_heading = "GIF")]
    pub gif: Option<PathBuf>,
    #[command(flatten)]
    pub look: GifLook,
    /// Chart clauses and solve time against the horizon, from the lower bound to
    /// 10 past the plan's (each horizon solved afresh, at most 10 s each); .svg or .png.
    #[arg(long, value_name = "FILE", help_heading = "Charts")]
    pub plot_horizon: Option<PathBuf>,
    /// Chart the plan's timeline: apples eaten and snake length at every time; .svg or .png.
    #[arg(long, value_name = "FILE", help_heading = "Charts")]
    pub plot_timeline: Option<PathBuf>,
}

/// Everything a solve produces, for `solve` and `bench`.
pub struct Outcome {
    pub search: Search,
    pub encoding: String,
}

/// The direct options of `name` if the incremental search can use them.
pub fn incremental_options(name: &str) -> Option<DirectOptions> {
    if encode::notebook::Notebook::by_name(name).is_some() {
        return None;
    }
    DirectOptions::parse(name)
        .ok()
        .filter(|o| o.body != Body::Block)
}

/// Runs the search the flags ask for.
#[allow(clippy::too_many_arguments)]
pub fn search(
    instance: &Instance,
    encoding: &dyn Encoding,
    encoding_name: &str,
    mode: Option<SearchMode>,
    satisficing_mode: bool,
    max_horizon: usize,
    timeout: Option<Duration>,
    config: Option<&str>,
    verbose: bool,
) -> Result<Outcome, Failure> {
    let progress = |a: &solve::Attempt| {
        if verbose {
            eprintln!(
                "T={}: {:?} ({} clauses, {:.2} s)",
                a.horizon,
                a.status,
                a.stats.clauses,
                a.stats.build_seconds + a.stats.solve_seconds
            );
        }
    };
    let proven = encode::prune::lower_bound(instance);
    let (lower, upper) = match instance.horizon {
        Some(t) => (t, t),
        None => (proven, max_horizon),
    };
    if lower > upper {
        // Proven without solving: the bound exceeds every horizon allowed.
        if lower == usize::MAX {
            eprintln!("no plan: some apple can never be reached from the start");
        } else {
            eprintln!("no plan: at least {lower} moves are needed, more than {upper}");
        }
        return Ok(Outcome {
            search: Search {
                status: Status::Unsat,
                attempts: vec![],
                lower_bound: proven,
            },
            encoding: encoding.name(),
        });
    }
    let options = incremental_options(encoding_name);
    if satisficing_mode {
        let Some(options) = options else {
            return Err(bad_input(
                "--satisficing needs a direct encoding without body=block",
            ));
        };
        let deadline = timeout.map(|d| Instant::now() + d);
        let search = satisficing(instance, &options, proven, upper, deadline, progress)
            .map_err(encode_failure)?;
        return Ok(Outcome {
            search,
            encoding: encoding.name(),
        });
    }
    let mode = match (mode, &options, instance.horizon) {
        (Some(SearchMode::Incremental), None, _) => {
            return Err(bad_input(
                "--search incremental needs a direct encoding without body=block",
            ));
        }
        (_, _, Some(_)) => SearchMode::Fresh,
        (Some(m), _, _) => m,
        (None, Some(_), _) => SearchMode::Incremental,
        (None, None, _) => SearchMode::Fresh,
    };
    let search = match mode {
        SearchMode::Fresh => {
            solve::least_horizon(instance, encoding, lower, upper, proven, timeout, progress)
        }
        SearchMode::Incremental => least_horizon_incremental(
            instance,
            options.as_ref().expect("incremental options"),
            lower,
            upper,
            proven,
            timeout.map(|d| Instant::now() + d),
            config,
            progress,
        ),
    }
    .map_err(encode_failure)?;
    Ok(Outcome {
        search,
        encoding: encoding.name(),
    })
}

pub fn run(args: SolveArgs) -> Result<u8, Failure> {
    let instance = load_instance(&args.instance)?;
    let encoding = load_encoding(&args.encoding.encoding)?;
    if args.plan.is_some() && !args.instance.is_pddl() {
        return Err(bad_input(
            "--plan writes IPC plans, which need an instance read from a .pddl file",
        ));
    }
    if let Some(file) = &args.gif {
        check_output_dir(file)?;
    }
    for file in [&args.plot_horizon, &args.plot_timeline]
        .into_iter()
        .flatten()
    {
        charts::check_chart_path(file)?;
    }
    let timeout = args.timeout;
    let verbose =
        std::io::stderr().is_terminal() || std::env::var_os("SNAKESAT_PROGRESS").is_some();
    let outcome = search(
        &instance,
        &*encoding,
        &args.encoding.encoding,
        args.search,
        args.satisficing,
        args.max_horizon,
        timeout,
        args.cadical_config.as_deref(),
        verbose,
    )?;
    let search = outcome.search;
    let mut stats = search
        .attempts
        .last()
        .map(|a| a.stats.clone())
        .unwrap_or_default();
    stats.build_seconds = search
        .attempts
        .iter()
        .fold(0.0, |s, a| s + a.stats.build_seconds);
    stats.solve_seconds = search
        .attempts
        .iter()
        .fold(0.0, |s, a| s + a.stats.solve_seconds);
    let horizon = match search.plan() {
        Some(a) => a.horizon,
        None => search
            .attempts
            .last()
            .map_or(instance.horizon.unwrap_or(args.max_horizon), |a| a.horizon),
    };
    let mut report = PlanReport {
        status: search.status,
        horizon,
        path: vec![],
        eaten: vec![],
        optimal: search.optimal(),
        lower_bound: finite(search.lower_bound),
        encoding: outcome.encoding,
        stats,
    };
    match search.status {
        Status::Sat => {
            let attempt = search.plan().expect("sat search has a plan");
            let (path, replay) =
                checked_report(&instance, &*encoding, attempt.path.clone(), attempt.horizon)?;
            if let Some(file) = &args.plan {
                let text = snakesat::pddl::plan::ipc_plan(&instance, &path)
                    .map_err(|e| bad_input(format!("cannot write an IPC plan: {e:#}")))?;
                write_atomically(file, |w| std::io::Write::write_all(w, text.as_bytes()))?;
            }
            if let Some(file) = &args.gif {
                write_gif_file(&instance, &path, file, &args.look)?;
            }
            if let Some(file) = &args.plot_timeline {
                charts::plot_timeline(&instance, &path, file)?;
            }
            if let Some(file) = &args.plot_horizon {
                charts::plot_horizon(
                    &instance,
                    &*encoding,
                    search.lower_bound,
                    attempt.horizon,
                    file,
                )?;
            }
            report.path = path;
            report.eaten = replay.eaten.clone();
            print_plan(&instance, &report, Some(&replay), args.json);
            Ok(0)
        }
        Status::Unsat => {
            report.optimal = false;
            note_no_gif(args.gif.as_ref(), Status::Unsat);
            print_plan(&instance, &report, None, args.json);
            Ok(1)
        }
        Status::Unknown => {
            note_no_gif(args.gif.as_ref(), Status::Unknown);
            print_plan(&instance, &report, None, args.json);
            Ok(3)
        }
    }
}
