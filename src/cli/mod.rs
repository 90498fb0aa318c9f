//! The `snakesat` command line: clap definitions, one file per command, and
//! the helpers they share (errors with exit codes, loading, printing).
//!
//! Exit codes: 0 a plan, 1 proven no plan within the horizon, 2 bad input or
//! usage, 3 a limit reached or an illegal plan from an approximate encoding.

mod bench;
mod decode;
mod export;
mod instance_args;
mod solve;

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use snakesat::encode::{EncodeError, Encoding};
use snakesat::instance::Instance;
use snakesat::report::{PlanReport, picture};
use snakesat::sim;
use snakesat::solve::Status;

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
    Solve(solve::SolveArgs),
    /// Write the CNF of an instance at a horizon as self-describing DIMACS.
    Export(export::ExportArgs),
    /// Solve every IPC-2018 problem file of folders and tabulate the results.
    Bench(bench::BenchArgs),
    /// Read a solver's model for an exported CNF, rebuild the plan and check it.
    Decode(decode::DecodeArgs),
}

/// An error with the exit code it maps to.
pub struct Failure {
    pub code: u8,
    pub message: String,
}

pub fn bad_input(message: impl std::fmt::Display) -> Failure {
    Failure {
        code: 2,
        message: message.to_string(),
    }
}

pub fn encode_failure(e: EncodeError) -> Failure {
    bad_input(e)
}

/// Parses the command line, runs the command and maps its outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Export(args) => export::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Bench(args) => bench::run(args),
    };
    if std::env::var_os("SNAKESAT_REPORT_MEMORY").is_some()
        && let Some(kb) = bench::peak_memory_kb()
    {
        eprintln!("peak-memory-kb: {kb}");
    }
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            let message = f.message.replace('\n', " ");
            eprintln!("error: {message}");
            ExitCode::from(f.code)
        }
    }
}

pub fn read_file(path: &Path) -> Result<String, Failure> {
    std::fs::read_to_string(path)
        .map_err(|e| bad_input(format!("cannot read {}: {e}", path.display())))
}

/// Replays a solver's path; on success the report, else the exit-3 failure.
pub fn checked_report(
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

pub fn print_plan(
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

/// Writes `bytes` to `path` through a temporary file, so that a failure leaves nothing half-written.
pub fn write_atomically(
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
