//! `snakesat check PROBLEM PLAN`: is a plan — from snakesat or any other
//! planner — a valid solution? An IPC plan for a `.pddl` problem is checked
//! action by action against the domain's preconditions, then replayed by the
//! simulator; the JSON of `solve --json` is replayed by the simulator.

use crate::cli::Exit;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use serde::Serialize;

use super::Failure;
use super::instance_args::load_problem_file;
use super::render::{PlanProblem, checked_path};
use super::watchdog::{self, Answer};

#[derive(Args)]
pub struct CheckArgs {
    /// The problem (.json instance, or an IPC-2018 .pddl problem; `-`: stdin).
    pub problem: PathBuf,
    /// The plan: an IPC plan file for a .pddl problem, or the JSON of `solve --json` (`-`: stdin, e.g. `snakesat solve p.pddl --plan - | snakesat check p.pddl -`).
    pub plan: PathBuf,
    /// VAL's `DOMAIN PROBLEM PLAN`: the plan, after the domain and the
    /// problem (which PROBLEM and PLAN then hold; see the end of --help).
    #[arg(hide = true)]
    pub val_plan: Option<PathBuf>,
    /// Print the verdict as JSON on stdout.
    #[arg(long)]
    pub json: bool,
    /// Read the instance's `horizon` as `solve --satisficing` does: the
    /// longest plan allowed, not its exact number of moves (a satisficing
    /// plan may be shorter).
    #[arg(long)]
    pub satisficing: bool,
    /// Give up after this many seconds: reading the problem and the plan and
    /// checking it count. Past the limit by 1 s + 5 %, the run ends with no
    /// verdict, one `error:` line and exit 3 [default: no limit].
    #[arg(long, value_name = "SECONDS", value_parser = super::seconds)]
    pub timeout: Option<Duration>,
}

/// The verdict as `--json` prints it.
#[derive(Serialize)]
struct Verdict {
    valid: bool,
    /// Moves of a valid plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<usize>,
    /// `[apple index, time]` of a valid plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    eaten: Option<Vec<(usize, usize)>>,
    /// The first rule or precondition an invalid plan breaks.
    #[serde(skip_serializing_if = "Option::is_none")]
    violation: Option<String>,
}

pub fn run(mut args: CheckArgs) -> Result<Exit, Failure> {
    let domain = super::val_convention(&mut args.problem, &mut args.plan, args.val_plan.take());
    super::one_stdin(("problem", &args.problem), ("plan", &args.plan))?;
    let watchdog = watchdog::start(args.timeout, Answer::Nothing);
    if let Some(domain) = &domain {
        watchdog.doing("reading the domain");
        super::check_domain_file(domain)?;
    }
    watchdog.doing("reading the problem");
    let (problem, pddl) = load_problem_file(&args.problem)?;
    watchdog.doing("reading and checking the plan");
    let verdict = match checked_path(
        &args.problem,
        pddl,
        &problem.instance,
        &problem.objects,
        &args.plan,
        "check",
        args.satisficing,
    ) {
        Ok((path, replay)) => Verdict {
            valid: true,
            moves: Some(path.len() - 1),
            eaten: Some(replay.eaten),
            violation: None,
        },
        Err(PlanProblem::Unreadable(failure)) => return Err(failure),
        Err(PlanProblem::Illegal(message)) => Verdict {
            valid: false,
            moves: None,
            eaten: None,
            violation: Some(message),
        },
    };
    drop(watchdog);
    if args.json {
        super::print_report(
            &(serde_json::to_string(&verdict).expect("plain data serialises") + "\n"),
        );
    } else if verdict.valid {
        let apples = match problem.instance.apples.len() {
            1 => "the apple eaten".to_string(),
            n => format!("all {n} apples eaten"),
        };
        super::print_report(&format!(
            "valid: {}, {apples}\n",
            snakesat::counted(verdict.moves.unwrap_or(0), "move")
        ));
    } else {
        stderr_line!(
            "invalid: {}",
            super::one_line(verdict.violation.as_deref().unwrap_or(""))
        );
    }
    Ok(if verdict.valid {
        Exit::Done
    } else {
        Exit::NoPlan
    })
}
