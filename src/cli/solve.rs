//! `snakesat solve`: a checked plan at a horizon, or at the least horizon; the
//! flags become [`Planner`] options, and the outcome is printed.

use crate::cli::Exit;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::{Args, ValueEnum};
use indicatif::ProgressBar;

use snakesat::output;
use snakesat::planner::{
    CadicalConfig, Method, Outcome, PlanError, Planner, Search, Undecided, Verdict,
};
use snakesat::report::PlanReport;
use snakesat::solve::{self, Status};

use super::anytime_plans::{self, AnytimePlans};
use super::instance_args::{EncodingArgs, InstanceArgs, load_encoding, load_problem};
use super::watchdog::{self, Answer};
use super::{
    Failure, GifLook, ILLEGAL_MODEL, Refuted, bad_input, encode_failure, no_plan, note_not_written,
    print_plan, progress_bar, seconds, write_gif_file,
};
use super::{certify, charts};

/// How the least horizon is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SearchMode {
    /// One CaDiCaL instance for every horizon (assumptions); needs a direct encoding without body=block.
    Incremental,
    /// A fresh formula and solver per horizon, the horizons shared out over the cores.
    Fresh,
}

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub instance: InstanceArgs,
    #[command(flatten)]
    pub encoding: EncodingArgs,
    /// Largest horizon tried when searching the least one, and the longest
    /// plan `--satisficing` returns, or the least-horizon search's fallback
    /// plan at --timeout (at most 100000; refused at a fixed horizon,
    /// --horizon's or the instance's) [default: 300 for the least-horizon
    /// climb; 100000 for --satisficing and the fallback plan].
    #[arg(long, value_parser = super::max_horizon)]
    pub max_horizon: Option<usize>,
    /// Give up after this many seconds (status `unknown`, exit 3); with
    /// `--satisficing`, the best plan found by then (the first plan included).
    /// The least-horizon search of an encoding with an incremental formula keeps
    /// the last tenth of the limit (at most 5 s) for a satisficing
    /// plan, the answer (exit 0; proven least only if every horizon below it was
    /// refuted) when the climb has none.
    /// Reading the problem and writing the plan's files (--gif, --plot-horizon) count too: past the
    /// limit by 1 s + 5 %, the run ends `unknown` without them. With --proof, the certificates'
    /// re-solves get up to as long again after the answer (CaDiCaL's first steps on a large
    /// formula can overrun that by seconds; README, "Certified answers") [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub timeout: Option<Duration>,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Least-horizon search [default: fresh on full boards, else incremental when the encoding allows it, else fresh].
    #[arg(long, value_enum)]
    pub search: Option<SearchMode>,
    /// A plan fast (any length up to --max-horizon, or up to the instance's `horizon` when it has one), then shorter ones while time remains; `optimal` only if proven. Needs a `direct` encoding without `body=block` (the default's is one). Ctrl-C (SIGINT), or SIGTERM as planning harnesses send at their time limit, stops it with the best plan found so far, printed and written (a second signal, or one after the search has ended, while the plan's files are written, ends the process).
    #[arg(long)]
    pub satisficing: bool,
    /// CaDiCaL configuration of every solver (`default`, `plain`, `sat`, `unsat`) [default: `unsat` for the least-horizon search when incremental or on a full board, `default` for every other]
    #[arg(long, value_name = "NAME")]
    pub cadical_config: Option<String>,
    /// Write the IPC plan (the domain's actions) of the checked path to FILE (PDDL instances only). With --satisficing, also each better plan as it is found, to FILE.1, FILE.2, … (the last is the answer's; an earlier run's FILE and FILE.N are removed first), so that a harness that kills the process still has its best plan.
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// The IPC's `DOMAIN PROBLEM [PLAN]`: the problem and the plan file after
    /// the domain, which the instance's place then holds (see the end of --help).
    #[arg(hide = true, num_args = 0..=2, value_name = "PLAN")]
    pub ipc: Vec<PathBuf>,
    /// Write a CNF and a DRAT proof for every refuted horizon behind the answer,
    /// and manifest.json, into DIR (not one holding an earlier run's manifest.json or certificates; an
    /// interrupted run removes its own; see README, "Certified answers").
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
    /// Write the animation of the checked plan as a GIF (nothing is written without a plan). FILE ends in .gif (any case) or has no extension; `-` is stdout.
    #[arg(long, value_parser = super::gif_path, value_name = "FILE", help_heading = "GIF")]
    pub gif: Option<PathBuf>,
    /// Write a self-contained HTML viewer of the checked plan (board, play/pause, step slider,
    /// keys; nothing is written without a plan). FILE ends in .html or .htm (any case) or has no
    /// extension; `-` is stdout.
    #[arg(long, value_parser = super::html_path, value_name = "FILE")]
    pub html: Option<PathBuf>,
    #[command(flatten)]
    pub look: GifLook,
    /// Chart clauses and solve time against the horizon, from the lower bound (at
    /// least 1) to 10 past the plan's (each horizon solved afresh, at most 10 s each; stopping
    /// short, with a note, at the deadline, after 60 s without --timeout, or at a formula beyond
    /// the limits); .svg or .png.
    #[arg(long, value_parser = super::chart_path, value_name = "FILE", help_heading = "Charts")]
    pub plot_horizon: Option<PathBuf>,
    /// Chart the plan's timeline: apples eaten and snake length at every time; .svg or .png.
    #[arg(long, value_parser = super::chart_path, value_name = "FILE", help_heading = "Charts")]
    pub plot_timeline: Option<PathBuf>,
}

/// The planner's refusal as the command line words it.
pub fn plan_failure(e: PlanError) -> Failure {
    match e {
        PlanError::NotIncremental { search, encoding } => bad_input(format!(
            "{} needs a direct encoding without body=block, not {encoding}",
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

pub fn run(mut args: SolveArgs) -> Result<Exit, Failure> {
    let domain = ipc_convention(&mut args)?;
    // The time limit covers reading the problem too (a 1000x1000 board's
    // PDDL takes seconds): the watchdog starts first, the search gets what is left.
    let timeout = args.timeout;
    let watchdog = watchdog::start(timeout, Answer::Unknown { json: args.json });
    let deadline = watchdog.deadline();
    watchdog.doing("reading the problem");
    if let Some(domain) = &domain {
        super::check_domain_file(domain)?;
    }
    let (problem, read_as_pddl) = load_problem(&args.instance)?;
    watchdog.doing("searching (building, loading or solving a formula)");
    let instance = problem.instance;
    let encoding = load_encoding(&args.encoding.encoding)?;
    encoding.accepts(&instance).map_err(encode_failure)?;
    let config: Option<CadicalConfig> = match &args.cadical_config {
        Some(name) => Some(name.parse().map_err(plan_failure)?),
        None => None,
    };
    if args.satisficing && args.instance.horizon.is_some() {
        return Err(bad_input(
            "--satisficing looks for plans of any length up to --max-horizon; it cannot be combined with --horizon",
        ));
    }
    if args.max_horizon.is_some()
        && let Some(h) = instance.horizon
    {
        return Err(bad_input(if args.satisficing {
            format!(
                "--max-horizon bounds the plans --satisficing looks for; this instance's `horizon` already does ({h} moves): give one or the other"
            )
        } else {
            format!(
                "--max-horizon bounds a search over horizons; this instance's horizon is fixed at {h} moves (by --horizon or its `horizon`)"
            )
        }));
    }
    if args.plan.is_some() && !read_as_pddl {
        return Err(bad_input(
            "--plan writes IPC plans, which need an IPC-2018 PDDL problem (a .pddl file, or PDDL on standard input)",
        ));
    }
    for file in [&args.plot_horizon, &args.plot_timeline]
        .into_iter()
        .flatten()
    {
        charts::chart_format(file)?;
    }
    args.look
        .check_board(args.gif.as_deref(), instance.width, instance.height)?;
    if let Some(dir) = &args.proof {
        certify::check(dir, &*encoding)?;
    }
    for (flag, _, file) in plan_outputs(&args) {
        super::check_json_beside(args.json, flag, file.map(PathBuf::as_path))?;
    }
    // `--satisficing --plan FILE` also writes FILE.1, FILE.2, …: no other
    // output may be one of them.
    let anytime_file = args
        .plan
        .as_deref()
        .filter(|file| args.satisficing && !output::is_stdout(file));
    if let Some(file) = anytime_file {
        let others = plan_outputs(&args)
            .into_iter()
            .skip(1)
            .filter_map(|(flag, _, other)| Some((flag, other?.as_path())))
            .chain(args.proof.as_deref().map(|dir| ("--proof", dir)));
        anytime_plans::refuse_numbered_outputs(file, others)?;
    }
    let [
        mut plan_out,
        mut gif_out,
        mut page_out,
        mut horizon_out,
        mut timeline_out,
    ] = output::claim([
        args.plan.as_deref(),
        args.gif.as_deref(),
        args.html.as_deref(),
        args.plot_horizon.as_deref(),
        args.plot_timeline.as_deref(),
    ])?;
    // Notes come after every check of the input, so that bad input gets
    // one line, its error.
    if args.search.is_some()
        && !args.satisficing
        && let Some(h) = instance.horizon
    {
        note!(
            "--search picks how the least horizon is searched; this instance's horizon is fixed at {h} moves (by --horizon or its `horizon`), so it is not used"
        );
    }
    // Each horizon tried: a line per attempt with SNAKESAT_PROGRESS (logs),
    // else a spinner on a terminal (hidden otherwise, and with --quiet).
    let lines = super::progress::log_interval().is_some() && !super::quiet();
    let bar = if lines {
        ProgressBar::hidden()
    } else {
        progress_bar(0, "{spinner} {elapsed_precise} {msg}")
    };
    bar.set_message(format!("solving {}", encoding.name()));
    bar.enable_steady_tick(Duration::from_millis(200));
    let method = match args.search {
        None => Method::Auto,
        Some(SearchMode::Incremental) => Method::Incremental,
        Some(SearchMode::Fresh) => Method::Fresh,
    };
    let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let mut planner = Planner::new(&*encoding);
    if let Some(config) = config {
        planner = planner.cadical_config(config);
    }
    // A satisficing search runs until its plan is proven least or the
    // timeout: the first Ctrl-C (or SIGTERM) stops it with the best plan found so far (a
    // second one ends the process). Not in a child of `bench`, which passes
    // a signal on to end its children: an answer then would land
    // certificates after `bench` had removed what its run made.
    let stop = args.satisficing.then(|| Arc::new(AtomicBool::new(false)));
    if let Some(stop) = &stop {
        planner = planner
            .search(Search::Satisficing)
            .cancel_flag(stop.clone());
        if std::env::var_os(super::measure::ipc::SIGNAL_ENDS_CHILD).is_none() {
            snakesat::output::interrupt_raises(Some(stop.clone()));
        }
    }
    // An instance's horizon caps a satisficing search; the other searches
    // take it as their fixed horizon (`search_for`). Without either, each
    // search's own default (`Planner::max_horizon`).
    if let Some(max_horizon) = instance.horizon.or(args.max_horizon) {
        planner = planner.max_horizon(max_horizon);
    }
    // Else the instance's: a fixed horizon when it has one, else the least.
    let search = planner.search_for(&instance);
    let mut planner = planner.method(method);
    // Each better plan to FILE.1, FILE.2, … as it is found; the earlier
    // run's numbered files go first.
    let anytime = match anytime_file {
        Some(file) => {
            // (Not for a run that is refused.)
            planner.check(&instance).map_err(plan_failure)?;
            if let Some(removed) = anytime_plans::remove_earlier(file)? {
                note!("{removed}");
            }
            let plans = Arc::new(AnytimePlans::new(file, &instance, &problem.objects));
            let writer = plans.clone();
            planner = planner.on_plan(move |path| writer.write(path));
            Some(plans)
        }
        None => None,
    };
    let outcome = planner
        .timeout(left)
        .certify_into(args.proof.as_deref())
        .on_attempt(|a: &solve::Attempt| {
            let line = format!(
                "T={}: {:?} ({} clauses, {:.2} s)",
                a.horizon,
                a.status,
                a.stats.clauses,
                a.stats.build_seconds + a.stats.solve_seconds
            );
            if lines {
                stderr_line!("{line}");
            }
            bar.set_message(line);
        })
        .plan(&instance);
    // Proven without solving that no horizon has a plan: why, found while the
    // watchdog still bounds the run (it repeats the lower bound's analysis,
    // seconds on a large board).
    let never = match &outcome {
        Ok(o) if o.attempts.is_empty() && o.lower_bound.is_none() && !super::quiet() => {
            matches!(o.verdict, Verdict::NoPlan { .. })
                .then(|| super::no_plan_at_any_horizon(&instance))
        }
        _ => None,
    };
    snakesat::output::interrupt_raises(None);
    drop(watchdog);
    bar.finish_and_clear();
    let interrupted = stop.is_some_and(|s| s.load(Ordering::SeqCst));
    let outcome: Outcome = outcome.map_err(plan_failure)?;
    if interrupted {
        if matches!(outcome.verdict, Verdict::Plan(_)) {
            note!("interrupted: the answer is the best plan found so far");
        } else {
            note!("interrupted before the first plan was found");
        }
    }
    // Proven without solving: say why.
    if let Verdict::NoPlan { within } = outcome.verdict
        && outcome.attempts.is_empty()
    {
        match outcome.lower_bound {
            None => {
                if let Some(reason) = &never {
                    note!("{reason}");
                }
            }
            Some(bound) => {
                // A search of any length was bounded by --max-horizon: say so.
                // (A --max-horizon given bounds --satisficing too.)
                // Beyond the horizon cap (also --satisficing's largest
                // horizon), no search can plan it: say that instead of a
                // value --max-horizon refuses.
                let cap = snakesat::instance::MAX_HORIZON;
                let hint = match (instance.horizon, args.max_horizon) {
                    (Some(_), _) => String::new(),
                    _ if bound > cap => format!(
                        " (no search plans more than {cap} moves, the largest --max-horizon)"
                    ),
                    (None, Some(_)) => format!(" (--max-horizon; raise it to at least {bound})"),
                    (None, None) => format!(
                        " (the default --max-horizon; raise it to at least {bound}, or use \
                         --satisficing)"
                    ),
                };
                note!("no plan: at least {bound} moves are needed, more than {within}{hint}")
            }
        }
    }
    let horizon = outcome.horizon();
    // Unknown for a reason other than the clock: say which.
    match &outcome.verdict {
        Verdict::Unknown(Undecided::FormulaLimit { error, .. }) if search == Search::Optimal => {
            // (--satisficing needs an encoding with an open formula.)
            let hint = if encoding.capabilities().incremental {
                " (--satisficing finds plans without formulas of the whole horizon)"
            } else {
                " (--satisficing, with a direct encoding, finds plans without formulas of the \
                 whole horizon)"
            };
            note!("{error}: the least-horizon search stops there, no plan known{hint}")
        }
        Verdict::Unknown(Undecided::FormulaLimit { horizon, error }) => note!(
            "no plan found: the constructions gave none, and the whole-plan formula of \
             {horizon} moves exceeds the encoding's limits ({error})"
        ),
        Verdict::Unknown(Undecided::FormulasExhausted { moves }) => note!(
            "no plan found: the constructions gave none, and the whole-plan formulas \
             --satisficing builds have none up to {moves} moves"
        ),
        _ => {}
    }
    let refuted = match search {
        // The planner answers `unknown` for an approximate encoding's refutation.
        _ if matches!(
            outcome.verdict,
            Verdict::Unknown(Undecided::ApproximateRefutation)
        ) =>
        {
            Refuted::Nothing
        }
        Search::FixedHorizon(t) => Refuted::at_fixed_horizon(t, outcome.lower_bound),
        // The least-horizon and satisficing searches (and any added later)
        // search up to a largest horizon.
        _ => Refuted::AtMost,
    };
    if matches!(search, Search::Optimal | Search::Satisficing)
        && !encoding.approximate()
        && !interrupted
        && let Verdict::Plan(plan) = &outcome.verdict
        && !plan.optimal
    {
        let below = snakesat::counted(outcome.no_plan_below().unwrap_or(plan.horizon), "move");
        // The least-horizon search stops short of a proof only at its time
        // limit; a satisficing one may end before it, with nothing left to
        // try (it ended silently, seconds early).
        let left = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if search == Search::Satisficing && left.is_none_or(|l| l >= Duration::from_secs(1)) {
            note!(
                "not proven least: no plan has fewer than {below}; the search ended{}: its \
                 phases (the descent toward the lower bound, within its share of the time; \
                 regrowing the plan's suffixes) had nothing left to try",
                left.map_or(String::new(), |l| format!(
                    " {:.1} s before --timeout",
                    l.as_secs_f64()
                ))
            );
        } else {
            note!("not proven least: the time limit came first; no plan has fewer than {below}");
        }
    }
    let mut report = PlanReport::new(&outcome, &*encoding);
    report.cadical_config = config.map(|c| c.name());
    // A model the simulator rejected is an error, not an answer: nothing to certify.
    if let Some(dir) = &args.proof
        && !matches!(outcome.verdict, Verdict::IllegalModel { .. })
    {
        report.certification = Some(certify::write(
            dir, &instance, &*encoding, &outcome, timeout,
        )?);
    }
    match outcome.verdict {
        Verdict::IllegalModel { .. } => {
            note_not_written(&not_written(&args), ILLEGAL_MODEL);
            if args.json {
                print_plan(&instance, &report, None, Refuted::Nothing, false, true);
            }
            Err(Failure {
                code: Exit::Unknown,
                message: report.illegal_model.unwrap_or_default(),
            })
        }
        Verdict::Plan(plan) => {
            let path = plan.path;
            let replay = plan.replay;
            // The plan's files are bounded by the search's deadline too (after
            // a proof, which has a limit of its own, from its end).
            let deadline = match report.certification {
                Some(_) => deadline.map(|d| d.max(Instant::now())),
                None => deadline,
            };
            let watchdog = watchdog::arm(deadline, timeout, Answer::Unknown { json: args.json });
            watchdog.doing("writing the plan's files");
            if let Some(out) = &mut plan_out {
                let text = snakesat::pddl::plan::ipc_plan(&instance, &problem.objects, &path)
                    .map_err(|e| bad_input(format!("cannot write an IPC plan: {e}")))?;
                out.write_with(|w| w.write_all(text.as_bytes()))?;
            }
            let gif_note = match &mut gif_out {
                Some(out) => {
                    watchdog.doing("writing the GIF");
                    Some(write_gif_file(&instance, &path, out, &args.look.options())?)
                }
                None => None,
            };
            watchdog.doing("writing the plan's files");
            if let Some(out) = &mut page_out {
                // Named after the problem's file, or the random instance's settings.
                let source = match &args.instance.instance {
                    Some(file) if !output::is_stdout(file) => file.file_name().map_or_else(
                        || file.display().to_string(),
                        |n| n.to_string_lossy().into(),
                    ),
                    Some(_) => "standard input".to_string(),
                    None => format!(
                        "random {}x{} seed {}",
                        instance.width,
                        instance.height,
                        args.instance
                            .seed
                            .unwrap_or(snakesat::instance::random::RandomSpec::default().seed)
                    ),
                };
                let title = format!("{source} — {}", snakesat::counted(plan.horizon, "move"));
                super::write_plan_viewer(&instance, &path, &title, out, "the plan")?;
            }
            if let Some(out) = &mut timeline_out {
                charts::plot_timeline(&instance, &path, out)?;
            }
            if let Some(out) = &mut horizon_out {
                watchdog.doing("building the horizon chart's formulas");
                let short = charts::plot_horizon(
                    &instance,
                    &*encoding,
                    // (Finite: there is a plan.)
                    outcome.lower_bound.unwrap_or(plan.horizon),
                    plan.horizon,
                    deadline,
                    out,
                )?;
                if let Some(why) = short {
                    note!("{why}");
                }
            }
            let charts: Vec<String> = [&page_out, &horizon_out, &timeline_out]
                .into_iter()
                .flatten()
                .map(|out| out.name())
                .collect();
            report.path = path;
            report.eaten = replay.eaten.clone();
            let outputs = [plan_out, gif_out, page_out, horizon_out, timeline_out];
            super::commit_then_print(outputs, || {
                print_plan(&instance, &report, Some(&replay), refuted, false, args.json)
            })?;
            drop(watchdog);
            if let Some(note) = gif_note {
                note!("{note}");
            }
            for name in charts {
                note!("wrote {name}");
            }
            if let Some(summary) = anytime.as_ref().and_then(|plans| plans.summary()) {
                note!("{summary}");
            }
            Ok(Exit::Done)
        }
        Verdict::NoPlan { .. } => {
            note_not_written(&not_written(&args), &no_plan(Status::Unsat));
            if refuted == Refuted::Exactly {
                note!(
                    "a plan of another length may exist: a fixed horizon asks for exactly \
                     {}, the snake still moving legally after its last apple; \
                     without one, solve searches the least",
                    snakesat::counted(horizon, "move")
                );
            }
            print_plan(&instance, &report, None, refuted, false, args.json);
            Ok(Exit::NoPlan)
        }
        // `Unknown`, and any answer `Verdict` may gain.
        _ => {
            note_not_written(&not_written(&args), &no_plan(Status::Unknown));
            print_plan(&instance, &report, None, refuted, interrupted, args.json);
            Ok(Exit::Unknown)
        }
    }
}

/// The outputs `solve` writes only with a plan: flag, what it is, path.
fn plan_outputs(args: &SolveArgs) -> [(&'static str, &'static str, Option<&PathBuf>); 5] {
    [
        ("--plan", "IPC plan", args.plan.as_ref()),
        ("--gif", "GIF", args.gif.as_ref()),
        ("--html", "HTML viewer", args.html.as_ref()),
        (
            "--plot-horizon",
            "horizon chart",
            args.plot_horizon.as_ref(),
        ),
        (
            "--plot-timeline",
            "timeline chart",
            args.plot_timeline.as_ref(),
        ),
    ]
}

/// What [`note_not_written`] says of `solve`'s outputs.
fn not_written(args: &SolveArgs) -> Vec<(&'static str, Option<&PathBuf>)> {
    plan_outputs(args)
        .into_iter()
        .map(|(_, what, file)| (what, file))
        .collect()
}

/// `solve DOMAIN PROBLEM [PLAN]`: moves the problem into the instance's
/// place, where the domain was, and the plan file to `--plan`; returns the
/// domain's path, to be checked (`None` without the convention).
fn ipc_convention(args: &mut SolveArgs) -> Result<Option<PathBuf>, Failure> {
    let mut rest = std::mem::take(&mut args.ipc).into_iter();
    let Some(problem) = rest.next() else {
        return Ok(None);
    };
    let domain = args.instance.instance.replace(problem);
    if let Some(plan) = rest.next() {
        if args.plan.is_some() {
            return Err(bad_input(
                "the plan file is given twice: after the problem and as --plan",
            ));
        }
        args.plan = Some(plan);
    }
    Ok(domain)
}
