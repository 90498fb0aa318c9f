//! `snakesat solve`: a checked plan at a horizon, or at the least horizon.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

use snakesat::planner::{CadicalConfig, Method, Outcome, PlanError, Planner, Search, Verdict};
use snakesat::report::PlanReport;
use snakesat::solve::{self, Status};

use super::charts;
use super::instance_args::{EncodingArgs, InstanceArgs, load_encoding, load_instance};
use super::{
    Failure, GifLook, bad_input, check_output_dir, encode_failure, finite, illegal_model,
    note_no_gif, print_plan, write_atomically, write_gif_file,
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
    /// `--satisficing`, the best plan found by then (the first plan included).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Least-horizon search [default: incremental when the encoding allows it, else fresh].
    #[arg(long, value_enum)]
    pub search: Option<SearchMode>,
    /// A plan fast (any length), then shorter ones while time remains; `optimal` only if proven.
    #[arg(long)]
    pub satisficing: bool,
    /// CaDiCaL configuration of every solver (`default`, `plain`, `sat`, `unsat`).
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

/// The planner's refusal as the command line words it.
fn plan_failure(e: PlanError) -> Failure {
    match e {
        PlanError::NotIncremental { search, .. } => bad_input(format!(
            "{} needs a direct encoding without body=block",
            if search == "satisficing" {
                "--satisficing"
            } else {
                "--search incremental"
            }
        )),
        PlanError::Encode(e) => encode_failure(e),
        other => bad_input(other),
    }
}

pub fn run(args: SolveArgs) -> Result<u8, Failure> {
    let instance = load_instance(&args.instance)?;
    let encoding = load_encoding(&args.encoding.encoding)?;
    let config: CadicalConfig = match &args.cadical_config {
        Some(name) => name.parse().map_err(plan_failure)?,
        None => CadicalConfig::Default,
    };
    if args.plan.is_some() && !args.instance.is_pddl() {
        return Err(bad_input(
            "--plan writes IPC plans, which need an instance read from a .pddl file",
        ));
    }
    if let Some(t) = args.timeout
        && !(t.is_finite() && t > 0.0)
    {
        return Err(bad_input(format!(
            "--timeout must be a positive number of seconds, not {t}"
        )));
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
    let timeout = args.timeout.map(Duration::from_secs_f64);
    let verbose =
        std::io::stderr().is_terminal() || std::env::var_os("SNAKESAT_PROGRESS").is_some();
    let search = match (args.satisficing, instance.horizon) {
        (true, _) => Search::Satisficing,
        (false, Some(t)) => Search::FixedHorizon(t),
        (false, None) => Search::Optimal,
    };
    let method = match args.search {
        None => Method::Auto,
        Some(SearchMode::Incremental) => Method::Incremental,
        Some(SearchMode::Fresh) => Method::Fresh,
    };
    let outcome: Outcome = Planner::new(&*encoding)
        .search(search)
        .method(method)
        .max_horizon(instance.horizon.unwrap_or(args.max_horizon))
        .timeout(timeout)
        .cadical_config(config)
        .on_attempt(|a: &solve::Attempt| {
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
        .plan(&instance)
        .map_err(plan_failure)?;
    let horizon = match &outcome.verdict {
        Verdict::Plan(plan) => plan.horizon,
        Verdict::IllegalModel { horizon, .. } => *horizon,
        Verdict::NoPlan { within } if outcome.attempts.is_empty() => {
            // Proven without solving: the bound exceeds every horizon allowed.
            if outcome.lower_bound == usize::MAX {
                eprintln!("no plan: some apple can never be reached from the start");
            } else {
                eprintln!(
                    "no plan: at least {} moves are needed, more than {within}",
                    outcome.lower_bound
                );
            }
            *within
        }
        Verdict::NoPlan { .. } | Verdict::Unknown => outcome
            .attempts
            .last()
            .map_or(instance.horizon.unwrap_or(args.max_horizon), |a| a.horizon),
    };
    let used_config = outcome.attempts.last().map_or(config, |a| a.config);
    let mut report = PlanReport {
        status: outcome.status(),
        horizon,
        path: vec![],
        eaten: vec![],
        optimal: outcome.plan().is_some_and(|p| p.optimal),
        lower_bound: finite(outcome.lower_bound),
        encoding: encoding.name(),
        stats: outcome.stats(),
        cadical_config: args.cadical_config.is_some().then(|| used_config.name()),
    };
    match outcome.verdict {
        Verdict::IllegalModel {
            horizon, violation, ..
        } => Err(illegal_model(&*encoding, horizon, violation.as_ref())),
        Verdict::Plan(plan) => {
            let path = plan.path;
            let replay = plan.replay;
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
                    outcome.lower_bound,
                    plan.horizon,
                    file,
                )?;
            }
            report.path = path;
            report.eaten = replay.eaten.clone();
            print_plan(&instance, &report, Some(&replay), args.json);
            Ok(0)
        }
        Verdict::NoPlan { .. } => {
            note_no_gif(args.gif.as_ref(), Status::Unsat);
            print_plan(&instance, &report, None, args.json);
            Ok(1)
        }
        Verdict::Unknown => {
            note_no_gif(args.gif.as_ref(), Status::Unknown);
            print_plan(&instance, &report, None, args.json);
            Ok(3)
        }
    }
}
