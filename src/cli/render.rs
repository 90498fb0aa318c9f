//! `snakesat render`: a saved plan — the JSON of `solve --json`, or an IPC
//! plan file of any planner for a `.pddl` problem — checked on its instance
//! and drawn as a GIF animation and/or a self-contained HTML viewer.

use crate::cli::Exit;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;

use snakesat::instance::{Instance, Pos};
use snakesat::output;
use snakesat::pddl::{Objects, validate};
use snakesat::plan_file::{self, CheckError, PlanFile, ReadError};
use snakesat::sim;

use super::instance_args::load_problem_file;
use super::watchdog::{self, Answer};
use super::{Failure, GifLook, Input, bad_input, read_file, write_gif_file};

#[derive(Args)]
#[command(group(clap::ArgGroup::new("outputs").required(true).multiple(true).args(["gif", "html"])))]
pub struct RenderArgs {
    /// The instance the plan was made for (.json, or an IPC-2018 .pddl problem; `-`: stdin).
    pub instance: PathBuf,
    /// The plan: the JSON of `snakesat solve --json`, or, for a .pddl problem,
    /// an IPC plan file (one action per line, from any planner); `-`: stdin.
    pub plan: PathBuf,
    /// VAL's `DOMAIN INSTANCE PLAN`: the plan, after the domain and the
    /// instance (which INSTANCE and PLAN then hold; see the end of --help).
    #[arg(hide = true)]
    pub val_plan: Option<PathBuf>,
    /// Write a GIF animation. FILE ends in .gif (any case) or has no extension; `-` is stdout.
    #[arg(
        value_parser = super::gif_path,
        long,
        value_name = "FILE",
        help_heading = "GIF",
        required_unless_present = "html"
    )]
    pub gif: Option<PathBuf>,
    /// Write a self-contained HTML viewer (SVG board, play/pause, step slider, keys).
    /// FILE ends in .html or .htm (any case) or has no extension; `-` is stdout.
    #[arg(long, value_parser = super::html_path, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Read the instance's `horizon` as `solve --satisficing` does: the
    /// longest plan allowed, not its exact number of moves (a satisficing
    /// plan may be shorter).
    #[arg(long)]
    pub satisficing: bool,
    #[command(flatten)]
    pub look: GifLook,
    /// Give up after this many seconds: reading the problem and the plan,
    /// checking it and writing the files count. Past the limit by 1 s + 5 %,
    /// the run ends with one `error:` line and exit 3, no file written
    /// [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds)]
    pub timeout: Option<Duration>,
}

/// Why a plan cannot be drawn or accepted.
pub enum PlanProblem {
    /// The file cannot be read as a plan.
    Unreadable(Failure),
    /// The plan is read but breaks the rules (the message names the first violation).
    Illegal(String),
}

/// The head path of the plan file at `plan` for `instance` (read from
/// `problem`, an IPC-2018 PDDL problem when `pddl`, its cells named by
/// `objects`) and the simulator's replay of it: a plan for a PDDL problem that
/// is not JSON is an IPC plan, read through the problem's object names and
/// checked action by action against the domain first; a JSON plan's `eaten`,
/// when present, must be the simulator's. `verb` says what the caller does
/// with the path ("draw", "check"), for the message about a plan without one.
/// With `horizon_is_cap`, the instance's horizon is the longest plan allowed
/// (as `solve --satisficing` reads it) rather than the plan's exact length.
pub fn checked_path(
    problem: &Path,
    pddl: bool,
    instance: &Instance,
    objects: &Objects,
    plan: &Path,
    verb: &str,
    horizon_is_cap: bool,
) -> Result<(Vec<Pos>, sim::Replay), PlanProblem> {
    let name = plan.display();
    let text = read_file(plan, Input::Plan).map_err(PlanProblem::Unreadable)?;
    let json = text.trim_start().starts_with('{');
    let saved = if pddl && !json {
        let actions = validate::read_plan(&text, objects).map_err(|e| {
            // Not one action: no IPC plan at all, rather than a faulty one.
            let kind = if text.contains('(') {
                ""
            } else {
                ": neither an IPC plan nor the JSON of `solve --json`, the plans a .pddl problem takes"
            };
            PlanProblem::Unreadable(bad_input(format!("{name}{kind}: {e}")))
        })?;
        if let Some((line, cost)) = validate::stated_cost(&text)
            && cost != actions.len() as f64
        {
            note!(
                "{name}: line {line} states a cost of {cost}, but the plan has {} (each \
                 costs 1 in the snake domain); the comment is not checked",
                snakesat::counted(actions.len(), "action")
            );
        }
        // (The violation names the problem's objects as spelt: cut, so that a
        // megabyte-long name is not a megabyte-long line, for `check` and `render` alike.)
        let path = validate::validate(instance, objects, &actions).map_err(|e| {
            PlanProblem::Illegal(format!(
                "{name}: {}",
                snakesat::excerpt::excerpt_words(&e.to_string())
            ))
        })?;
        PlanFile {
            status: None,
            horizon: None,
            path,
            eaten: None,
        }
    } else {
        read_json_plan(&text, plan, verb)?
    };
    // Both kinds are replayed by one check (the simulator, and the horizon a
    // problem may fix; a PDDL problem fixes none).
    let capped;
    let instance = match instance.horizon {
        Some(horizon) if horizon_is_cap => {
            if saved.moves() > horizon {
                return Err(PlanProblem::Illegal(format!(
                    "{name}: the plan has {}, more than the horizon of {}, {horizon}",
                    snakesat::counted(saved.moves(), "move"),
                    problem.display()
                )));
            }
            capped = Instance {
                horizon: None,
                ..instance.clone()
            };
            &capped
        }
        _ => instance,
    };
    let replay = saved.check(instance).map_err(|e| {
        PlanProblem::Illegal(match e {
            CheckError::Horizon { moves, horizon } => format!(
                "{name}: the plan has {} but {} fixes the horizon at {horizon}{}",
                snakesat::counted(moves, "move"),
                problem.display(),
                if moves < horizon {
                    " (a plan of `solve --satisficing`, which reads the horizon as the \
                     longest plan, is checked with --satisficing)"
                } else {
                    ""
                }
            ),
            e => format!("{name}: {e}"),
        })
    })?;
    Ok((saved.path, replay))
}

/// The plan of `solve --json` in `text` (the file `plan`), read by
/// [`plan_file::read`], its faults told as the file's: text that is not JSON
/// at all is told that IPC plans go with a .pddl problem, and a plan without
/// a path that it has none to `verb` ("draw", "check").
fn read_json_plan(text: &str, plan: &Path, verb: &str) -> Result<PlanFile, PlanProblem> {
    let name = plan.display();
    plan_file::read(text).map_err(|e| {
        let message = match e {
            ReadError::Array => format!("{name}: not a plan of `solve --json`: {e}"),
            ReadError::GameRecord => {
                format!("{name}: {e} (`play --gif` and `--html` draw a game)")
            }
            ReadError::NotSat(_) | ReadError::NoPath => format!("{name}: {e} to {verb}"),
            ReadError::Json { .. } => {
                // Text that is not even meant as JSON is only read here for a
                // JSON instance: perhaps an IPC plan, which needs the .pddl problem.
                let kind = if text.trim_start().starts_with('{') {
                    ""
                } else {
                    ", the plan a JSON instance takes (IPC plan files go with a .pddl problem)"
                };
                format!("{name}: not a plan of `solve --json`{kind}: {e}")
            }
            e => format!("{name}: {e}"),
        };
        PlanProblem::Unreadable(bad_input(message))
    })
}

pub fn run(mut args: RenderArgs) -> Result<Exit, Failure> {
    let domain = super::val_convention(&mut args.instance, &mut args.plan, args.val_plan.take());
    super::one_stdin(("instance", &args.instance), ("plan", &args.plan))?;
    let [mut gif, mut page] = output::claim([args.gif.as_deref(), args.html.as_deref()])?;
    let watchdog = watchdog::start(args.timeout, Answer::Nothing);
    if let Some(domain) = &domain {
        watchdog.doing("reading the domain");
        super::check_domain_file(domain)?;
    }
    watchdog.doing("reading the problem");
    let (problem, pddl) = load_problem_file(&args.instance)?;
    watchdog.doing("reading and checking the plan");
    let instance = problem.instance;
    let path = match checked_path(
        &args.instance,
        pddl,
        &instance,
        &problem.objects,
        &args.plan,
        "draw",
        args.satisficing,
    ) {
        Ok((path, _)) => path,
        Err(PlanProblem::Unreadable(failure)) => return Err(failure),
        Err(PlanProblem::Illegal(message)) => return Err(bad_input(message)),
    };
    let mut notes = Vec::new();
    if let Some(gif) = gif.as_mut() {
        watchdog.doing("writing the GIF");
        notes.push(write_gif_file(&instance, &path, gif, &args.look.options())?);
    }
    if let Some(page) = page.as_mut() {
        watchdog.doing("writing the HTML viewer");
        let title = format!(
            "{} — {}",
            match args.plan.file_name() {
                Some(n) if !output::is_stdout(&args.plan) => n.to_string_lossy(),
                _ => "plan".into(),
            },
            snakesat::counted(path.len() - 1, "move")
        );
        let name = args.plan.display().to_string();
        super::write_plan_viewer(&instance, &path, &title, page, &name)?;
        notes.push(format!("wrote {}", page.name()));
    }
    output::commit([gif, page])?;
    drop(watchdog);
    for line in notes {
        note!("{line}");
    }
    Ok(Exit::Done)
}
