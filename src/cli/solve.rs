//! `snakesat solve`: a checked plan at a horizon, or at the least horizon.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use snakesat::encode;
use snakesat::report::PlanReport;
use snakesat::solve::{self, Status};

use super::charts;
use super::instance_args::{EncodingArgs, InstanceArgs, load_encoding, load_instance};
use super::{
    Failure, GifLook, bad_input, check_output_dir, checked_report, encode_failure, note_no_gif,
    print_plan, write_gif_file,
};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Largest horizon tried when searching the least one.
    #[arg(long, default_value_t = 300)]
    pub max_horizon: usize,
    /// Give up after this many seconds (status `unknown`, exit 3).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
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

pub fn run(args: SolveArgs) -> Result<u8, Failure> {
    let instance = load_instance(&args.instance)?;
    let encoding = load_encoding(&args.encoding.encoding)?;
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
            if let Some(file) = &args.gif {
                write_gif_file(&instance, &path, file, &args.look)?;
            }
            if let Some(file) = &args.plot_timeline {
                charts::plot_timeline(&instance, &path, file)?;
            }
            if let Some(file) = &args.plot_horizon {
                charts::plot_horizon(&instance, &*encoding, proven, attempt.horizon, file)?;
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
