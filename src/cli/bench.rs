//! `snakesat bench DIR…`: the flags and the printing of
//! [`crate::cli::measure::ipc`] (every `.pddl` problem of the folders solved by a
//! child process of this binary, every plan checked); a Markdown table (or
//! with `--json` the rows as JSON) on stdout, optionally JSON and CSV files. `snakesat bench game` (full games) lives in
//! [`super::bench_game`].

use crate::cli::Exit;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::{Args, Subcommand};

use crate::cli::index;
use crate::cli::measure::ipc::{self, Settings};
use snakesat::output;
use snakesat::planner::PlanError;

use super::bench_game::{self, BenchGameArgs};
use super::certify;
use super::instance_args::load_encoding;
use super::{Failure, bad_input, print_report, progress_bar, seconds, shard_flag};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub command: Option<BenchCommand>,
    /// Folders holding IPC-2018 snake problem files (`*.pddl`; `domain.pddl`
    /// is skipped silently, other domain files and subfolders with a note:
    /// give each subfolder as a folder of its own; a folder given twice runs once).
    /// `bench game` and `bench help` are always subcommands: give a folder named `game` or `help` as `./game` or `./help`.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Time limit per problem in seconds (every phase of its `solve`, the first plan too; with
    /// --proof the certificates' re-solves get up to as long again). `bench` itself also reads
    /// each problem, untimed, for its row's grid and to check the plan: seconds more for a
    /// problem of a hundred megabytes.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds,
          alias = "timeout-per-instance")]
    pub timeout: Duration,
    /// Passed to `solve`: a plan fast, then shorter ones.
    #[arg(long)]
    pub satisficing: bool,
    /// Passed to `solve --max-horizon`: the longest plan looked for. An
    /// `unsat` row means no plan of at most this many moves.
    #[arg(long, default_value_t = snakesat::instance::MAX_HORIZON, value_parser = super::max_horizon)]
    pub max_horizon: usize,
    /// Passed to `solve --encoding`.
    #[arg(long, default_value = "direct")]
    pub encoding: String,
    /// Print the rows as JSON on stdout instead of the Markdown table.
    #[arg(long)]
    pub json: bool,
    /// Write the rows as JSON to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub json_out: Option<PathBuf>,
    /// Write the rows as CSV to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE")]
    pub csv_out: Option<PathBuf>,
    /// Problems solved at once (each in its own child process; at most 256).
    #[arg(long, default_value_t = 1, value_name = "N", value_parser = super::count::<usize>)]
    pub jobs: usize,
    /// Keep every checked IPC plan in DIR, as `FOLDER-instance-K.plan` (a DIR
    /// already holding one of them is refused; an interrupted run removes
    /// them, and DIR if it created it, as does a run that kept no plan).
    #[arg(long, value_name = "DIR")]
    pub plans: Option<PathBuf>,
    /// Solve only shard I of K (1 <= I <= K): the problems at positions p
    /// (0-based, in the listed order) with p % K == I-1; `snakesat merge`
    /// joins the shards' CSV files.
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Passed to `solve --proof`: certificates of each instance into
    /// DIR/FOLDER-instance-K/ (named as --plans names plans; an interrupted
    /// run removes them all, and DIR if it created it, as does a run that
    /// certified nothing).
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
}

/// `bench`'s subcommands; without one, `bench DIR…` benchmarks IPC folders.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Play many full games per board size and reuse strategy and tabulate them.
    Game(BenchGameArgs),
}

pub fn run(args: BenchArgs) -> Result<Exit, Failure> {
    if let Some(BenchCommand::Game(game)) = args.command {
        return bench_game::run(game);
    }
    super::check_jobs(args.jobs)?;
    if args.json
        && let Some(file) = args
            .dirs
            .iter()
            .find(|d| d.extension().is_some_and(|e| e == "json") && !d.is_dir())
    {
        return Err(bad_input(format!(
            "{} is not a folder: --json prints JSON on stdout and takes no file; write it with --json-out FILE",
            file.display()
        )));
    }
    for (flag, file) in [("--json-out", &args.json_out), ("--csv-out", &args.csv_out)] {
        super::check_json_beside(args.json, flag, file.as_deref())?;
    }
    let shard = shard_flag(args.shard.as_deref())?;
    // What each child would refuse alike is refused here, before any problem runs.
    let encoding = load_encoding(&args.encoding)?;
    if args.satisficing && !encoding.capabilities().incremental {
        return Err(super::solve::plan_failure(PlanError::NotIncremental {
            search: "satisficing",
            encoding: encoding.name(),
        }));
    }
    if !encoding.capabilities().explicit_body {
        return Err(bad_input(format!(
            "--encoding {} models only a free start, and every IPC-2018 problem gives the snake's body",
            encoding.name()
        )));
    }
    let listing = ipc::problems(&args.dirs).map_err(bad_input)?;
    // (All the sweep's problems, every shard's: `merge` checks its rows against it.)
    let problems = listing.files.len();
    let files: Vec<PathBuf> = listing
        .files
        .into_iter()
        .enumerate()
        .filter(|(p, _)| shard.is_none_or(|s| s.owns(*p)))
        .map(|(_, f)| f)
        .collect();
    if let Some(clash) = ipc::clashing_outputs(&files, args.plans.as_deref(), args.proof.as_deref())
    {
        return Err(bad_input(clash));
    }
    if let Some(dir) = &args.plans
        && let Some(earlier) = ipc::earlier_plan(&files, dir)
    {
        return Err(bad_input(format!(
            "{} holds a plan of an earlier run ({}); give --plans a new folder or remove its plans",
            dir.display(),
            earlier.display()
        )));
    }
    for file in &files {
        output::note_input(file)?;
    }
    // The plans and certificates of this run, and the folders it creates for
    // them, are removed by a signal or an error until the run is complete.
    // (The output files first: a folder --plans creates is no parent for them.)
    let [mut json_out, mut csv_out] =
        output::claim([args.json_out.as_deref(), args.csv_out.as_deref()])?;
    let plans_top = args
        .plans
        .as_deref()
        .map(super::generate::create_folder)
        .transpose()?;
    if let Some(dir) = &args.proof {
        certify::check(dir, &*encoding)?;
        for file in &files {
            let folder = ipc::proof_folder(dir, file);
            super::generate::refuse_non_folder(&folder)?;
            certify::refuse_earlier(&folder)?;
        }
    }
    // (After the refusals: a refused run says only why.)
    for line in &listing.notes {
        note!("bench: {line}");
    }
    if let Some((first, other, name)) = ipc::alike_labels(&files) {
        note!(
            "bench: {} and {} are both named {name} in the table (their rows are in the order of the folders given)",
            first.display(),
            other.display()
        );
    }
    let bar = progress_bar(
        files.len() as u64,
        "{bar:30} {pos}/{len} {elapsed_precise} {msg}",
    );
    let settings = Settings {
        solver: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("snakesat")),
        timeout: args.timeout,
        satisficing: args.satisficing,
        max_horizon: args.max_horizon,
        encoding: args.encoding.clone(),
        plans: args.plans.clone(),
        proof: args.proof.clone(),
    };
    let rows = ipc::solve_all(
        &files,
        &settings,
        args.jobs,
        |file| bar.set_message(file.display().to_string()),
        |_| bar.inc(1),
    );
    bar.finish_and_clear();
    for row in &rows {
        if let Some(error) = &row.error {
            stderr_line!(
                "{}: {}: {}",
                row.instance,
                row.status,
                super::one_line(error)
            );
        }
    }
    if let Some(out) = &mut json_out {
        let text = ipc::rows_table(&rows).to_json() + "\n";
        out.write_with(|w| w.write_all(text.as_bytes()))?;
    }
    if let Some(out) = &mut csv_out {
        // The flags that change the rows (the folders are in the rows; the
        // commas of an encoding's name become semicolons), and the number of
        // problems of the whole sweep.
        let settings = format!(
            "problems={problems} timeout={} satisficing={} max-horizon={} encoding={} proof={}",
            args.timeout.as_secs_f64(),
            args.satisficing,
            args.max_horizon,
            encoding.name().replace(',', ";"),
            args.proof.is_some()
        );
        let csv = index::with_shard_column(&ipc::rows_table(&rows).to_csv(), shard, &settings);
        out.write_with(|w| w.write_all(csv.as_bytes()))?;
    }
    // (The folders of plans and proofs stay unfinished until the table is
    // printed: a standard output that could not be written removes them.)
    super::commit_then_print([json_out, csv_out], || {
        if args.json {
            print_report(&(ipc::rows_table(&rows).to_json() + "\n"));
        } else {
            super::print_table(&ipc::summary_table(&rows, args.proof.is_some()).to_markdown());
        }
    })?;
    // A folder that got no plan or certificate (every problem malformed or
    // unanswered) is removed if this run created it, as `solve --proof`
    // removes its own; the others are kept.
    let outputs = [(&args.plans, &plans_top), (&args.proof, &args.proof)];
    for (dir, top) in outputs {
        if let (Some(dir), Some(top)) = (dir, top)
            && !is_empty_folder(dir)
        {
            output::settle(top);
        }
    }
    output::discard_unfinished();
    Ok(exit_code(&rows))
}

/// Whether `dir` is a folder with nothing in it (an unreadable one counts as
/// not empty: it is kept).
fn is_empty_folder(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_none())
}

/// 0 when every problem got a checked plan, 1 when every one was answered
/// but some proven to have none (within `--max-horizon`), 3 when some got no
/// answer: an answer either way is a success for a sweep's task, as for
/// `solve`.
fn exit_code(rows: &[ipc::Row]) -> Exit {
    if rows.iter().all(|r| r.status == "sat") {
        Exit::Done
    } else if rows
        .iter()
        .all(|r| r.status == "sat" || r.status == "unsat")
    {
        Exit::NoPlan
    } else {
        Exit::Unknown
    }
}
