//! `snakesat decode`: a solver's model for an exported CNF back to a checked plan.

use std::path::PathBuf;

use clap::Args;

use snakesat::cnf::dimacs;
use snakesat::cnf::header::Header;
use snakesat::encode;
use snakesat::output;
use snakesat::report::PlanReport;
use snakesat::solve::{self, Stats, Status};

use super::{
    Failure, GifLook, Refuted, bad_input, checked_report, finite, note_not_written, print_plan,
    read_file, write_gif_file,
};

#[derive(Args)]
pub struct DecodeArgs {
    /// A CNF written by `snakesat export` (`-`: stdin).
    pub cnf: PathBuf,
    /// The solver's output: SAT-competition form (`s`/`v` lines) or MiniSat's
    /// result file (`-`: stdin, e.g. `cadical f.cnf | snakesat decode f.cnf -`).
    pub model: PathBuf,
    /// Print the plan as JSON.
    #[arg(long)]
    pub json: bool,
    /// Write the animation of the checked plan as a GIF (nothing is written without a plan).
    #[arg(long, value_name = "FILE", help_heading = "GIF")]
    pub gif: Option<PathBuf>,
    #[command(flatten)]
    pub look: GifLook,
}

pub fn run(args: DecodeArgs) -> Result<u8, Failure> {
    if args.cnf.as_os_str() == "-" && args.model.as_os_str() == "-" {
        return Err(bad_input(
            "the CNF and the model cannot both be `-`: standard input can be read once",
        ));
    }
    let [mut gif] = output::claim([args.gif.as_deref()])?;
    let cnf_text = read_file(&args.cnf)?;
    let parsed =
        dimacs::parse(&cnf_text).map_err(|e| bad_input(format!("{}: {e}", args.cnf.display())))?;
    let Header {
        instance,
        encoding,
        horizon,
    } = Header::read(&parsed).map_err(|e| bad_input(format!("{}: {e}", args.cnf.display())))?;
    let model_text = read_file(&args.model)?;
    let model = dimacs::parse_model(&model_text, parsed.num_vars)
        .map_err(|e| bad_input(format!("{}: {e}", args.model.display())))?;
    let lower_bound = encode::prune::lower_bound(&instance);
    let refuted = Refuted::at_fixed_horizon(horizon, finite(lower_bound));
    let mut report = PlanReport {
        status: Status::Unknown,
        horizon,
        path: vec![],
        eaten: vec![],
        optimal: false,
        lower_bound: finite(lower_bound),
        encoding: encoding.name(),
        stats: Stats {
            variables: parsed.num_vars as u64,
            clauses: parsed.num_clauses as u64,
            literals: parsed.flat.iter().filter(|&&l| l != 0).count() as u64,
            ..Stats::default()
        },
        cadical_config: None,
        certification: None,
    };
    let values = match model {
        dimacs::ModelFile::Sat(values) => values,
        dimacs::ModelFile::Unsat if !encoding.unsat_proves_no_plan(horizon, lower_bound) => {
            note_not_written(&[("GIF", args.gif.as_ref())], Status::Unknown);
            print_plan(&instance, &report, None, Refuted::Nothing, args.json);
            return Ok(3);
        }
        dimacs::ModelFile::Unsat => {
            report.status = Status::Unsat;
            note_not_written(&[("GIF", args.gif.as_ref())], Status::Unsat);
            print_plan(&instance, &report, None, refuted, args.json);
            return Ok(1);
        }
        dimacs::ModelFile::Unknown => {
            note_not_written(&[("GIF", args.gif.as_ref())], Status::Unknown);
            print_plan(&instance, &report, None, refuted, args.json);
            return Ok(3);
        }
    };
    encode::decode::check_model_horizon(horizon, parsed.num_vars)
        .map_err(|e| bad_input(format!("{}: {e}", args.cnf.display())))?;
    if let Some(clause) = dimacs::first_falsified(&parsed.flat, &values) {
        return Err(bad_input(format!(
            "{}: the model does not satisfy clause {clause} of {}",
            args.model.display(),
            args.cnf.display()
        )));
    }
    let named = parsed
        .names
        .iter()
        .zip(&values)
        .filter_map(|(n, &v)| n.as_ref().map(|n| (n, v)));
    let path = encode::decode::path_from_model(named, horizon, &solve::fixed_heads(&instance)).ok();
    let (path, replay) = checked_report(&instance, &*encoding, path, horizon)?;
    let note = match &mut gif {
        Some(out) => Some(write_gif_file(&instance, &path, out, &args.look.options())?),
        None => None,
    };
    output::commit([gif])?;
    if let Some(note) = note {
        note!("{note}");
    }
    report.status = Status::Sat;
    report.optimal = Some(horizon) == report.lower_bound;
    report.path = path;
    report.eaten = replay.eaten.clone();
    print_plan(&instance, &report, Some(&replay), refuted, args.json);
    Ok(0)
}
