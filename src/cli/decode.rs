//! `snakesat decode`: a solver's model for an exported CNF back to a checked
//! plan ([`snakesat::decode::read_formula`], then [`snakesat::decode::Formula::answer`],
//! the two halves of `model_to_plan`); the flags, the files and the printing.

use crate::cli::Exit;
use std::path::PathBuf;

use clap::Args;

use snakesat::cnf::header::Header;
use snakesat::decode::{Answer, Formula, ModelError, read_formula};
use snakesat::output;
use snakesat::report::PlanReport;
use snakesat::solve::{Stats, Status};

use super::{
    Failure, GifLook, ILLEGAL_MODEL, Input, Refuted, bad_input, no_plan, note_not_written,
    print_plan, read_file, write_gif_file,
};

#[derive(Args)]
pub struct DecodeArgs {
    /// A CNF written by `snakesat export` (`-`: stdin).
    pub cnf: PathBuf,
    /// The solver's output: SAT-competition form (`s`/`v` lines), MiniSat's
    /// result file, or Mallob's result JSON (`-`: stdin, e.g. `cadical f.cnf | snakesat decode f.cnf -`).
    pub model: PathBuf,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the animation of the checked plan as a GIF (nothing is written without a plan). FILE ends in .gif (any case) or has no extension; `-` is stdout.
    #[arg(long, value_parser = super::gif_path, value_name = "FILE", help_heading = "GIF")]
    pub gif: Option<PathBuf>,
    #[command(flatten)]
    pub look: GifLook,
}

pub fn run(args: DecodeArgs) -> Result<Exit, Failure> {
    super::one_stdin(("CNF", &args.cnf), ("model", &args.model))?;
    super::check_json_beside(args.json, "--gif", args.gif.as_deref())?;
    let [mut gif] = output::claim([args.gif.as_deref()])?;
    let cnf_text = read_file(&args.cnf, Input::Formula)?;
    let failure = |e: ModelError| match e {
        ModelError::Model(e) => bad_input(format!("{}: {e}", args.model.display())),
        ModelError::Falsified { clause } => bad_input(format!(
            "{}: the model does not satisfy clause {clause} of {}",
            args.model.display(),
            args.cnf.display()
        )),
        e @ (ModelError::NotAPath { .. } | ModelError::IllegalPlan { .. }) => Failure {
            code: Exit::Unknown,
            message: e.to_string(),
        },
        e => bad_input(format!("{}: {e}", args.cnf.display())),
    };
    // The formula first, so that its header and sizes answer for a model
    // that is no plan too.
    let formula = read_formula(&cnf_text).map_err(failure)?;
    // (Then the model, read up to what a model of the formula can need.)
    let variables = formula.size.variables as usize;
    let model_text = read_file(&args.model, Input::Model { variables })?;
    let mut report = formula_report(&formula);
    let answer = match formula.answer(&model_text) {
        Ok(answer) => answer,
        Err(e) => {
            let failure = failure(e);
            if failure.code == Exit::Unknown {
                note_not_written(&[("GIF", args.gif.as_ref())], ILLEGAL_MODEL);
                if args.json {
                    report.illegal_model = Some(failure.message.clone());
                    print_plan(
                        &formula.header.instance,
                        &report,
                        None,
                        Refuted::Nothing,
                        false,
                        true,
                    );
                }
            }
            return Err(failure);
        }
    };
    let Formula {
        header: Header {
            instance, horizon, ..
        },
        lower_bound,
        ..
    } = formula;
    let refuted = Refuted::at_fixed_horizon(horizon, lower_bound);
    let (path, replay) = match answer {
        Answer::Plan { path, replay } => (path, replay),
        Answer::Unsat {
            proves_no_plan: false,
        } => {
            note_not_written(&[("GIF", args.gif.as_ref())], &no_plan(Status::Unknown));
            print_plan(&instance, &report, None, Refuted::Nothing, false, args.json);
            return Ok(Exit::Unknown);
        }
        Answer::Unsat {
            proves_no_plan: true,
        } => {
            report.status = Status::Unsat;
            // Refuted at the lower bound: no plan of that length either.
            if report.lower_bound == Some(horizon) {
                report.no_plan_below = Some(horizon + 1);
            }
            note_not_written(&[("GIF", args.gif.as_ref())], &no_plan(Status::Unsat));
            print_plan(&instance, &report, None, refuted, false, args.json);
            return Ok(Exit::NoPlan);
        }
        // The solver's `s UNKNOWN`.
        _ => {
            note_not_written(&[("GIF", args.gif.as_ref())], &no_plan(Status::Unknown));
            print_plan(&instance, &report, None, refuted, false, args.json);
            return Ok(Exit::Unknown);
        }
    };
    let note = match &mut gif {
        Some(out) => Some(write_gif_file(&instance, &path, out, &args.look.options())?),
        None => None,
    };
    report.status = Status::Sat;
    report.optimal = Some(horizon) == report.lower_bound;
    report.path = path;
    report.eaten = replay.eaten.clone();
    super::commit_then_print([gif], || {
        print_plan(&instance, &report, Some(&replay), refuted, false, args.json)
    })?;
    if let Some(note) = note {
        note!("{note}");
    }
    Ok(Exit::Done)
}

/// The JSON answer for a formula before its model is looked at: `unknown`,
/// no plan, the formula's horizon, encoding and sizes.
fn formula_report(formula: &Formula) -> PlanReport {
    let Formula {
        header,
        size,
        lower_bound,
        ..
    } = formula;
    PlanReport {
        status: Status::Unknown,
        horizon: header.horizon,
        path: vec![],
        eaten: vec![],
        optimal: false,
        lower_bound: *lower_bound,
        no_plan_below: *lower_bound,
        encoding: header.encoding.name(),
        stats: Stats {
            variables: size.variables,
            clauses: size.clauses,
            literals: size.literals,
            ..Stats::default()
        },
        cadical_config: None,
        reason: None,
        illegal_model: None,
        certification: None,
    }
}
