//! The `snakesat` command line: clap definitions, one file per command, and
//! the helpers they share (errors with exit codes, loading, printing).
//!
//! Exit codes come from one enum, [`Exit`]: 0 a plan (or what was asked), 1
//! proven no plan (of at most the largest horizon searched; at a fixed
//! horizon, of exactly that many moves), 2 bad input or usage, 3 a limit
//! reached or an approximate encoding's answer that proves nothing (an
//! illegal plan, or no model).
//!
//! One grammar across commands: `--json` prints JSON on standard output;
//! `--json-out FILE`, `--csv-out FILE` and every other file flag write files,
//! `-` naming standard output; an input file `-` is standard input (read
//! once); `--timeout SECONDS` limits the unit of work the command repeats;
//! `--plot-WHAT FILE` draws charts; `--quiet` silences notes and progress.

/// Writes a line on stderr. Unlike `eprintln!`, which panics when stderr is
/// a closed pipe (`snakesat … 2>&1 | head -1`), it ignores a failed write:
/// the command goes on and its exit code stands.
macro_rules! stderr_line {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

/// [`stderr_line!`] without the line break (a progress counter redrawn in place).
macro_rules! stderr_text {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// Prints a note on stderr (a file written, a horizon found) unless `--quiet`.
macro_rules! note {
    ($($arg:tt)*) => {
        if !$crate::cli::quiet() {
            stderr_line!($($arg)*);
        }
    };
}

mod anytime_plans;
mod bench;
mod bench_game;
mod certify;
mod charts;
mod check;
mod decode;
mod export;
mod generate;
mod index;
mod instance_args;
mod measure;
mod merge;
mod play;
mod progress;
mod render;
mod sizes;
mod solve;
mod table;
mod watchdog;

pub use progress::progress_bar;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use snakesat::encode::EncodeError;
use snakesat::game;
use snakesat::instance::{Instance, Pos};
use snakesat::output::{Output, OutputError};
use snakesat::render::GifOptions;
use snakesat::render::gif::write_gif;
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
    after_help = "Exit codes, alike in every command (each command's --help says what they mean \
there): 0 done (a plan found, a valid plan, every game won, the files written), 1 an answer that is \
not the one hoped for (solve: no plan, proven; check: an invalid plan; play: a game lost), 2 bad \
input or usage, 3 a limit reached before an answer, an answer that proves nothing, or a failed \
internal check (play, bench game: the simulator refused a plan; generate: a label disagreed with \
the planner)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// No notes or progress on stderr (errors and answers are still printed).
    #[arg(short, long, global = true)]
    quiet: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Solve an instance (default: the notebook's MVP3 setting) and print a checked plan.
    #[command(
        after_help = "Exit codes: 0 plan found, 1 proven no plan (none of at most --max-horizon moves; at a \
fixed horizon, none of exactly that many moves), 2 bad input or usage, 3 limit reached (--timeout, \
the largest formula a search builds: without --horizon, one beyond the encoding's limits; with \
--satisficing, also its 300 moves), or an approximate encoding's answer that proves nothing (an \
illegal plan, or no model: its formula may exclude legal plans).\n\n\
The IPC's calling convention works too: `snakesat solve DOMAIN PROBLEM [PLAN]`, where DOMAIN must \
be IPC-2018's snake domain (built in: the file is only compared with it, token by token) and PLAN \
is the --plan file."
    )]
    Solve(solve::SolveArgs),
    /// Write the CNF of an instance at a horizon as self-describing DIMACS (or, with
    /// --instance-json, the instance itself as JSON).
    #[command(
        after_help = "Exit codes: 0 the CNF (or the instance) written; 2 bad input (an unreadable instance, no horizon given, a \
formula beyond the encoding's limits, or an output that cannot be written)."
    )]
    Export(export::ExportArgs),
    /// Solve every IPC-2018 problem file of folders and tabulate the results
    /// (`bench game`: full games instead).
    #[command(
        after_help = "Exit codes: 0 every problem got a checked plan; 1 every problem was answered, some \
                      proven to have no plan of at most --max-horizon moves (rows `unsat`); 2 bad input (a flag \
                      every child would refuse too, before any problem runs); 3 some problem got no answer (its \
                      row says unknown, timeout, invalid or error; why an error, invalid or timeout row failed \
                      is printed on stderr and is the `error` column of --json, --json-out and --csv-out)."
    )]
    Bench(bench::BenchArgs),
    /// Read a solver's model for an exported CNF, rebuild the plan and check it.
    #[command(
        after_help = "Exit codes: 0 the model is a plan the simulator accepts; 1 the solver says UNSAT \
(no plan of exactly the CNF's horizon); 2 bad input (an unreadable or malformed CNF or model, a CNF \
without the header `snakesat export` writes: its `c instance`, `c encoding` and `c horizon` lines and a \
`c var` line for every variable, a model that does not fit the CNF or falsifies one of its clauses, a CNF \
changed since export so that its header does not describe its clauses, found when a model is no legal plan, \
or an output that cannot be written); 3 the solver gave up (UNKNOWN), or the model is not a legal plan (of \
the export's own formula of an approximate encoding; the first violated rule is named), or the solver says UNSAT to an approximate \
encoding's CNF (which may exclude legal plans: no answer) at a horizon the lower bound allows (below it: 1, \
the bound excludes every plan)."
    )]
    Decode(decode::DecodeArgs),
    /// Check a saved plan (the JSON of `solve --json`, or any planner's IPC plan for a .pddl problem)
    /// and draw it as a GIF and/or an HTML viewer.
    #[command(
        after_help = "Exit codes: 0 every requested output (--gif, --html) written; 2 bad input: an unreadable instance or plan file, \
a plan file that is neither the JSON of `solve --json` nor an IPC plan, a plan without a path (status \
unsat or unknown) or of more moves than the horizon limit (100000), a plan that breaks the rules on INSTANCE (the first violation is named) or whose \
`eaten` list is not the simulator's, or an output that cannot be written; 3 --timeout reached; \
on error nothing is written.\n\n\
As VAL's `validate DOMAIN PROBLEM PLAN`: `snakesat render DOMAIN INSTANCE PLAN` compares DOMAIN with \
IPC-2018's snake domain, built in, and goes on as without it."
    )]
    Render(render::RenderArgs),
    /// Check a plan from snakesat or any planner: an IPC plan against the domain, any plan in the simulator.
    #[command(
        after_help = "Of a JSON plan, only `path`, `horizon` and `eaten` are checked (`eaten` against the \
simulator's eating times); its other claims, such as `optimal` and `lower_bound`, are not.\n\n\
Exit codes: 0 the plan is valid (every apple eaten, every move legal); 1 it is not \
(the first violated precondition or rule is named, the number of moves when the instance fixes \
another horizon, or the first entry of a JSON plan's `eaten` that differs from the simulator's); \
2 a file cannot be read or parsed, or the plan has no path (status unsat or unknown), more moves than \
the horizon limit (100000) or a `horizon` other than its path's moves (the file contradicts itself); \
3 --timeout reached, no verdict.\n\n\
As VAL's `validate DOMAIN PROBLEM PLAN`: `snakesat check DOMAIN PROBLEM PLAN` compares DOMAIN with \
IPC-2018's snake domain, built in (token by token; another domain is refused, exit 2), and goes on \
as without it."
    )]
    Check(check::CheckArgs),
    /// Compare the sizes (and optionally solve times) of the encodings on an instance.
    #[command(
        after_help = "Exit codes: 0 the table written (a swept size whose instance has an apple that can \
never be eaten, or no plan within --max-horizon, is a row `no plan`); 1 without --horizon, proven no plan within --max-horizon, or \
some apple can never be eaten (no horizon to compare at); 2 bad input, or without --horizon a least-horizon search \
that reaches a formula beyond the default encoding's limits; 3 the problem not read, or without --horizon the least \
horizon not found, within --timeout (a solve past it is a row with status `unknown`)."
    )]
    Sizes(sizes::SizesArgs),
    /// Play full games: one random apple at a time until the snake fills the board.
    Play(play::PlayArgs),
    /// Write a benchmark family: distinct instances up to symmetry, their least
    /// horizon T*, labelled CNFs at T* and T*-1, and an index.
    Generate(generate::GenerateArgs),
    /// Join the outputs of the shards of a sweep (`generate`, `bench`, `bench game`
    /// with --shard) into those of one run.
    Merge(merge::MergeArgs),
    /// Print a completion script for SHELL on stdout, e.g.
    /// `snakesat completions bash > ~/.local/share/bash-completion/completions/snakesat`.
    #[command(
        after_help = "Exit codes: 0 the script printed; 2 bad input (a shell missing or unknown) or a \
standard output that cannot be written."
    )]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// Set by `--quiet`.
static QUIET: AtomicBool = AtomicBool::new(false);

/// True with `--quiet`: no notes, no progress.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A hint for the old spellings of `bench` and `bench game` on the
/// command line: a file after `--json` or `--csv`.
fn old_spelling_hint() -> String {
    // `args_os`: an argument that is not UTF-8 (a Latin-1 file name) must
    // not turn a usage error into a panic.
    let args: Vec<String> = std::env::args_os()
        .map(|arg| arg.to_string_lossy().into_owned())
        .collect();
    let mut hint = String::new();
    let file_after = |flag: &str| {
        args.windows(2)
            .any(|w| w[0] == flag && (w[1].ends_with(".json") || w[1].ends_with(".csv")))
    };
    if file_after("--json") {
        hint += "; --json prints JSON on stdout and takes no file: write files with --json-out FILE and --csv-out FILE";
    } else if file_after("--csv") {
        hint += "; a CSV table is written with --csv-out FILE";
    }
    hint
}

/// The answer when the lower bound is infinite (`solve`, `sizes`), with the
/// argument that made it so: the apples' (the bound of
/// [`snakesat::encode::prune::lower_bound`]) or the listed states'
/// ([`snakesat::reachable`]).
pub fn no_plan_at_any_horizon(instance: &Instance) -> String {
    let reason = match snakesat::encode::prune::no_plan_reason(instance) {
        Some(reason) => reason.to_string(),
        None => "the snake's reachable states, few enough to list, include none with every apple \
                 eaten"
            .to_string(),
    };
    format!("no plan at any horizon: {reason}")
}

/// The longest time limit a flag accepts, in seconds (about 11.6 days).
pub const MAX_TIMEOUT_SECONDS: f64 = 1e6;

/// The shortest time limit a flag accepts, in seconds. (A limit below a
/// nanosecond was a zero `Duration`, which `bench` passed on to its children
/// as `--timeout 0`, refused by every one of them.)
pub const MIN_TIMEOUT_SECONDS: f64 = 1e-6;

/// The one parser of every time-limit flag (`--timeout`, also spelt
/// `--timeout-per-instance` / `--timeout-per-apple`): a finite number of
/// seconds from [`MIN_TIMEOUT_SECONDS`] to [`MAX_TIMEOUT_SECONDS`].
/// Negative, zero, NaN, infinite, smaller and larger values are refused
/// (exit 2), never saturated.
pub fn seconds(text: &str) -> Result<Duration, String> {
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && (MIN_TIMEOUT_SECONDS..=MAX_TIMEOUT_SECONDS).contains(&s) => {
            Ok(Duration::from_secs_f64(s))
        }
        _ => Err(format!(
            "must be a number of seconds from {MIN_TIMEOUT_SECONDS} to {MAX_TIMEOUT_SECONDS}"
        )),
    }
}

/// Parses `--gif FILE`: `-` (standard output), a name without an
/// extension, or one ending in `.gif` (any case); another extension
/// (`x.svg`, `x.png`) is refused, as the charts refuse one they do not draw.
pub fn gif_path(text: &str) -> Result<PathBuf, String> {
    picture_path(text, "a GIF's", &["gif"])
}

/// Parses `--html FILE` as [`gif_path`] does `--gif`'s, with `.html` or
/// `.htm` (a page named `x.gif` was written).
pub fn html_path(text: &str) -> Result<PathBuf, String> {
    picture_path(text, "an HTML page's", &["html", "htm"])
}

/// Parses a chart's `FILE` (`--plot-…`): its name ends in .svg or .png,
/// which picks the format, so that the error names the flag.
pub fn chart_path(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    snakesat::render::chart::ChartFormat::of(&path)
        .map(|_| path)
        .map_err(|e| e.to_string())
}

/// `text` as the name of a picture file whose names end in one of
/// `extensions` (any case) or have none; `kind` names it in the error.
fn picture_path(text: &str, kind: &str, extensions: &[&str]) -> Result<PathBuf, String> {
    if text.is_empty() {
        return Err("a file name is needed, not an empty one".into());
    }
    let path = PathBuf::from(text);
    match path.extension() {
        Some(e) if !extensions.iter().any(|x| e.eq_ignore_ascii_case(x)) => Err(format!(
            "{kind} file name ends in .{}, not .{}",
            extensions.join(" or ."),
            snakesat::excerpt::excerpt(&e.to_string_lossy())
        )),
        _ => Ok(path),
    }
}

/// Parses a seed (`--seed`): a whole number from 0 to `u64::MAX` (a
/// negative one was "invalid digit found in string").
pub fn seed(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| format!("a seed is a whole number from 0 to {}", u64::MAX))
}

/// Parses a largest horizon (`--max-horizon`): a whole number of moves in
/// `1..=`[`snakesat::instance::MAX_HORIZON`], the limit `--horizon` has too.
pub fn max_horizon(text: &str) -> Result<usize, String> {
    let max = snakesat::instance::MAX_HORIZON;
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("must be a whole number of moves in 1..={max}")),
    }
}

/// What a command's exit code says (every command's `--help` lists the
/// codes it uses): the one place the numbers are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// 0: the command did what was asked (a plan, a file written, every
    /// problem solved).
    Done = 0,
    /// 1: an answer, and not the one hoped for: no plan, proven (at a fixed
    /// horizon, of exactly that many moves; in a sweep, every problem
    /// answered and some have none), a plan that is not valid (`check`), a
    /// game lost (`play`).
    NoPlan = 1,
    /// 2: bad input or usage.
    BadInput = 2,
    /// 3: a limit reached before an answer, or an answer that proves
    /// nothing (an approximate encoding's illegal plan).
    Unknown = 3,
}

impl Exit {
    /// The process's exit status.
    pub fn code(self) -> u8 {
        self as u8
    }
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit.code())
    }
}

/// An error with the exit code it maps to.
pub struct Failure {
    pub code: Exit,
    pub message: String,
}

pub fn bad_input(message: impl std::fmt::Display) -> Failure {
    Failure {
        code: Exit::BadInput,
        message: message.to_string(),
    }
}

impl From<OutputError> for Failure {
    fn from(e: OutputError) -> Failure {
        bad_input(e)
    }
}

pub fn encode_failure(e: EncodeError) -> Failure {
    bad_input(e)
}

/// The command line, parsed. Every command takes a negative number as a
/// value (`--timeout -1` is then refused by the value's own check, which
/// says why, not as an unknown argument `-1`).
fn parse_args() -> Result<Cli, clap::Error> {
    fn negatives(command: clap::Command) -> clap::Command {
        command
            .allow_negative_numbers(true)
            .mut_subcommands(negatives)
    }
    let matches = negatives(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

/// Parses the command line, runs the command and maps its outcome to an exit code.
pub fn main() -> ExitCode {
    // clap drops the control characters of an argument it quotes (so
    // `fr\u{7}esh` would read as an invalid value 'fresh'); none belongs in
    // a command line, so such an argument is refused first, spelt out.
    if let Some((i, arg)) = std::env::args_os()
        .enumerate()
        .skip(1)
        .find(|(_, a)| a.to_string_lossy().chars().any(char::is_control))
    {
        stderr_line!(
            "error: argument {i} (\"{}\") holds a control character",
            one_line(&arg.to_string_lossy())
        );
        return ExitCode::from(Exit::BadInput);
    }
    let cli = match parse_args() {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            stderr_line!("error: no command given (see `snakesat --help`)");
            return ExitCode::from(Exit::BadInput);
        }
        // `--help` and `--version`: on stdout, whose failures count as elsewhere.
        Err(e) if !e.use_stderr() => {
            note_stdout(e.print().and_then(|()| std::io::stdout().lock().flush()));
            return match STDOUT_FAILURE.get() {
                Some(e) => {
                    stderr_line!("error: cannot write standard output: {e}");
                    ExitCode::from(Exit::BadInput)
                }
                None => ExitCode::SUCCESS,
            };
        }
        Err(e) => {
            // One line: clap's message up to its first blank line.
            let text = e.render().to_string();
            let message: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty())
                .map(str::trim)
                .collect();
            stderr_line!("{}{}", message.join(" "), old_spelling_hint());
            return ExitCode::from(Exit::BadInput);
        }
    };
    QUIET.store(cli.quiet, Ordering::Relaxed);
    let result = match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Export(args) => export::run(args),
        Command::Decode(args) => decode::run(args),
        Command::Render(args) => render::run(args),
        Command::Check(args) => check::run(args),
        Command::Sizes(args) => sizes::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Play(args) => play::run(args),
        Command::Generate(args) => generate::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Completions { shell } => completions(shell),
    };
    if std::env::var_os("SNAKESAT_REPORT_MEMORY").is_some()
        && let Some(kb) = crate::cli::measure::ipc::peak_memory_kb()
    {
        stderr_line!("{}{kb}", crate::cli::measure::ipc::MEMORY_LINE);
    }
    let result = result.and_then(|code| stdout_written().map(|()| code));
    match result {
        Ok(code) => ExitCode::from(code),
        Err(f) => {
            // What the command made in place (a proof folder, say) is
            // unfinished: an error leaves nothing behind.
            snakesat::output::discard_unfinished();
            // Exit 1 is an answer (proven: no plan), worded as `solve`
            // words it, not an error.
            let label = if f.code == Exit::NoPlan {
                ""
            } else {
                "error: "
            };
            stderr_line!("{label}{}", one_line(&f.message));
            ExitCode::from(f.code)
        }
    }
}

/// `message` as one printable line: line breaks become spaces and other
/// control characters (an escape sequence or a carriage return echoed from a
/// malformed input file) are spelt as Rust escapes (`\u{1b}`, `\r`), so an
/// error can neither split into lines nor drive the terminal.
pub fn one_line(message: &str) -> String {
    let mut line = String::with_capacity(message.len());
    for c in message.chars() {
        match c {
            '\n' => line.push(' '),
            c if c.is_control() => line.extend(c.escape_default()),
            c => line.push(c),
        }
    }
    line
}

/// Prints the completion script for `shell` on stdout, through the writer of
/// every output `-`: a reader that stops early (`| head`) is not an error;
/// another failure to write is.
fn completions(shell: clap_complete::Shell) -> Result<Exit, Failure> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "snakesat", &mut script);
    let mut out = Output::stdout();
    out.write_with(|w| w.write_all(&script))?;
    snakesat::output::commit([Some(out)])?;
    Ok(Exit::Done)
}

/// Notes the items of the encoding list `flag` dropped because they spell
/// an encoding listed before them ([`crate::cli::measure::sizes::distinct`]).
pub fn note_dropped_encodings(flag: &str, dropped: &[(String, String)]) {
    if !dropped.is_empty() {
        let items: Vec<String> = dropped
            .iter()
            .map(|(item, name)| format!("`{item}` ({name})"))
            .collect();
        note!(
            "{flag}: dropped {}: each spells an encoding listed before it",
            items.join(", ")
        );
    }
}

/// The `--shard I/K` flag of `generate`, `bench` and `bench game`.
pub fn shard_flag(text: Option<&str>) -> Result<Option<crate::cli::index::Shard>, Failure> {
    text.map(crate::cli::index::Shard::parse)
        .transpose()
        .map_err(|e| bad_input(format!("--{e}")))
}

/// What an input file holds, which sets the most bytes read of it (checked
/// while reading, so an endless input such as `/dev/zero` ends with an error
/// instead of filling the memory).
#[derive(Clone, Copy)]
pub enum Input {
    /// An instance: JSON or IPC-2018 PDDL (a 1000x1000 board's PDDL is
    /// about 165 MB).
    Problem,
    /// A plan: an IPC plan or the JSON of `solve --json`.
    Plan,
    /// A DIMACS formula.
    Formula,
    /// A solver's model for a formula of this many variables.
    Model {
        /// The `p cnf` variable count of the formula.
        variables: usize,
    },
    /// A family's index or summary (`merge`).
    Index,
    /// A shard's CSV table of `bench` or `bench game` (`merge`).
    Table,
}

impl Input {
    /// The most bytes read of such a file.
    pub const fn max_bytes(self) -> u64 {
        const MB: u64 = 1 << 20;
        match self {
            Input::Problem | Input::Plan => 256 * MB,
            Input::Formula => 2048 * MB,
            // Its values (at most 16 bytes each, with a sign and a blank)
            // and up to 64 MB of the solver's comments and statistics.
            Input::Model { variables } => {
                let values = (variables as u64).saturating_mul(16);
                let most = 64 * MB + values;
                if most < 2048 * MB { most } else { 2048 * MB }
            }
            Input::Index | Input::Table => 1024 * MB,
        }
    }

    fn what(self) -> &'static str {
        match self {
            Input::Problem => "a problem",
            Input::Plan => "a plan",
            Input::Formula => "a formula",
            Input::Model { .. } => "a model of the formula's variables",
            Input::Index => "a family's index",
            Input::Table => "a shard's table",
        }
    }
}

/// The bytes of `reader`, or an error naming `name` past `kind`'s limit;
/// with `text`, also at the first byte that is not UTF-8 or is NUL, found
/// while reading (binary data given as a formula, or `/dev/zero`, is refused
/// at once, not after its 2 GB limit).
fn read_bounded(
    reader: impl Read,
    name: &str,
    kind: Input,
    text: bool,
) -> Result<Vec<u8>, Failure> {
    let limit = kind.max_bytes();
    let mut reader = reader.take(limit + 1);
    let mut bytes = Vec::new();
    // Bytes known to be UTF-8 (a character cut at the end of a block waits
    // for the next one).
    let mut checked = 0;
    let mut block = vec![0u8; 1 << 16];
    loop {
        // What has arrived (not a whole block: a pipe that stays open after
        // a bad byte is refused then).
        let read = match reader.read(&mut block) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(bad_input(format!("cannot read {name}: {e}"))),
        };
        bytes.extend_from_slice(&block[..read]);
        if text {
            match std::str::from_utf8(&bytes[checked..]) {
                Ok(_) => checked = bytes.len(),
                Err(e) if e.error_len().is_none() => checked += e.valid_up_to(),
                Err(e) => return Err(not_utf8(name, checked + e.valid_up_to())),
            }
            // No text format read here holds a NUL byte (valid UTF-8):
            // `/dev/zero` is refused at its first block.
            let start = bytes.len() - read;
            if let Some(at) = bytes[start..].iter().position(|&byte| byte == 0) {
                return Err(bad_input(format!(
                    "cannot read {name}: it is not text (a NUL byte at byte {})",
                    start + at + 1
                )));
            }
        }
    }
    if bytes.len() as u64 > limit {
        return Err(too_large(name, kind));
    }
    Ok(bytes)
}

/// The error for an input past `kind`'s limit.
fn too_large(name: &str, kind: Input) -> Failure {
    bad_input(format!(
        "{name} is larger than {} MB, the most read of {}",
        kind.max_bytes() >> 20,
        kind.what()
    ))
}

/// The domain file of the IPC's `DOMAIN PROBLEM PLAN` convention: refused
/// (exit 2) unless it is IPC-2018's snake domain, which is built in, so
/// that a command given one plans or checks by the rules it names.
pub fn check_domain_file(path: &Path) -> Result<(), Failure> {
    let text = read_file(path, Input::Problem)?;
    snakesat::pddl::domain::check_snake_domain(&text)
        .map_err(|e| bad_input(format!("{} is not the snake domain: {e}", path.display())))
}

/// VAL's `DOMAIN PROBLEM PLAN`, given as `problem`, `plan` and `third`:
/// shifts the problem and the plan into their places and returns the
/// domain's path, to be checked ([`check_domain_file`]); `None` (nothing
/// moved) with two paths only.
pub fn val_convention(
    problem: &mut PathBuf,
    plan: &mut PathBuf,
    third: Option<PathBuf>,
) -> Option<PathBuf> {
    let third = third?;
    let second = std::mem::replace(plan, third);
    Some(std::mem::replace(problem, second))
}

/// Refuses two inputs that are both `-` before either is read (the second
/// read found standard input used up, and the first was parsed as the wrong
/// kind of file): each is `(what it is, its path)`.
pub fn one_stdin(first: (&str, &Path), second: (&str, &Path)) -> Result<(), Failure> {
    if first.1.as_os_str() == "-" && second.1.as_os_str() == "-" {
        return Err(bad_input(format!(
            "the {} and the {} cannot both be `-`: standard input can be read once",
            first.0, second.0
        )));
    }
    Ok(())
}

/// Set once standard input has been read (as the file `-`).
static STDIN_READ: AtomicBool = AtomicBool::new(false);

/// The text of an input file, without a leading UTF-8 byte-order mark
/// (which some editors write; see [`utf8`]); `-` reads standard input (once
/// per run).
pub fn read_file(path: &Path, kind: Input) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        if STDIN_READ.swap(true, Ordering::Relaxed) {
            return Err(bad_input(
                "standard input can be read once: only one input can be `-`",
            ));
        }
        let name = "standard input";
        return utf8(
            read_bounded(std::io::stdin().lock(), name, kind, true)?,
            name,
        );
    }
    snakesat::output::note_input(path)?;
    read_text(path, kind)
}

/// The bytes of the file `path`, up to `kind`'s limit (not noted as an
/// input of the command: see [`read_file`]).
pub fn read_path_bounded(path: &Path, kind: Input) -> Result<Vec<u8>, Failure> {
    read_path(path, kind, false)
}

/// The file `path` read as [`read_bounded`] does.
fn read_path(path: &Path, kind: Input, text: bool) -> Result<Vec<u8>, Failure> {
    let name = path.display().to_string();
    let file =
        std::fs::File::open(path).map_err(|e| bad_input(format!("cannot read {name}: {e}")))?;
    // A regular file past the limit is refused by its size, before a byte
    // is read into memory (pipes and devices are counted as they are read).
    if let Ok(metadata) = file.metadata()
        && metadata.is_file()
        && metadata.len() > kind.max_bytes()
    {
        return Err(too_large(&name, kind));
    }
    read_bounded(file, &name, kind, text)
}

/// [`read_path_bounded`] as text.
pub fn read_text(path: &Path, kind: Input) -> Result<String, Failure> {
    utf8(read_path(path, kind, true)?, &path.display().to_string())
}

/// The error for a byte that is not UTF-8 at `offset` (0-based; said 1-based
/// as the NUL byte's place is).
fn not_utf8(name: &str, offset: usize) -> Failure {
    bad_input(format!(
        "cannot read {name}: it is not UTF-8 text (at byte {})",
        offset + 1
    ))
}

/// `bytes` as text without a leading UTF-8 byte-order mark (every command
/// reads its text inputs through here, `bench`'s problems too).
fn utf8(bytes: Vec<u8>, name: &str) -> Result<String, Failure> {
    let mut text =
        String::from_utf8(bytes).map_err(|e| not_utf8(name, e.utf8_error().valid_up_to()))?;
    if text.starts_with('\u{feff}') {
        text.drain(..'\u{feff}'.len_utf8());
    }
    Ok(text)
}

/// Prints a bench's Markdown table on stdout, or on stderr when a file took
/// stdout (`--csv-out -`), as `play`'s summary goes beside a picture.
pub fn print_table(markdown: &str) {
    if snakesat::output::stdout_taken() {
        stderr_text!("{markdown}");
    } else {
        print_report(markdown);
    }
}

/// Prints a command's report on stdout, unless an output file took stdout (`-`).
/// A reader that went away (a closed pipe, as after `| head`) is not an error;
/// any other failure to write (a full disk) is kept for [`main`] to report.
pub fn print_report(text: &str) {
    if !snakesat::output::stdout_taken() {
        let mut out = std::io::stdout().lock();
        note_stdout(out.write_all(text.as_bytes()).and_then(|()| out.flush()));
    }
}

/// Lands `outputs` ([`snakesat::output::commit_after`]) with `print`'s text
/// printed on standard output just before the renames: a file that cannot
/// land is found before anything is printed, and a standard output that
/// cannot be written (a full disk) lands none of them, so that exit 2 leaves
/// nothing on disk.
pub fn commit_then_print(
    outputs: impl IntoIterator<Item = Option<Output>>,
    print: impl FnOnce(),
) -> Result<(), Failure> {
    snakesat::output::commit_after(outputs, || {
        print();
        stdout_written()
    })
}

/// Flushes standard output; an error if any write to it failed (other than
/// to a closed pipe).
fn stdout_written() -> Result<(), Failure> {
    note_stdout(std::io::stdout().lock().flush());
    match STDOUT_FAILURE.get() {
        Some(e) => Err(bad_input(format!("cannot write standard output: {e}"))),
        None => Ok(()),
    }
}

/// The first failure to write standard output, other than a closed pipe.
static STDOUT_FAILURE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

fn note_stdout(written: std::io::Result<()>) {
    if let Err(e) = written
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        let _ = STDOUT_FAILURE.set(e.to_string());
    }
}

/// What an `unsat` answer rules out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refuted {
    /// Every plan of at most the horizon: a least-horizon search refuted each
    /// one, or the lower bound exceeds it.
    AtMost,
    /// Only plans of exactly the horizon: the formula at a fixed horizon, whose
    /// snake must still move legally after its last apple (a shorter plan may
    /// exist where it cannot).
    Exactly,
    /// Nothing: an approximate encoding's `unsat`, whose formula may exclude
    /// legal plans (the answer is printed as `unknown`).
    Nothing,
}

impl Refuted {
    /// What an `unsat` answer of the formula at the fixed horizon `t` rules
    /// out, given the proven `lower_bound` (`None`: the apples can never all
    /// be eaten): below the bound, every plan of at most `t` moves.
    pub fn at_fixed_horizon(t: usize, lower_bound: Option<usize>) -> Self {
        if lower_bound.is_none_or(|b| t < b) {
            Refuted::AtMost
        } else {
            Refuted::Exactly
        }
    }
}

/// The largest side of a board that an answer draws (a 1000x1000 board's
/// two pictures are 2 MB of text): a plan on a larger one is its moves and
/// eating times, an answer without a plan a line.
const DRAWN_BOARD_SIDE: usize = 100;

/// Prints the answer on stdout: JSON, or a line (the plan's picture with a
/// plan, the start board without one) and the formula's sizes; `refuted`
/// words an `unsat` answer, and `interrupted` an `unknown` one that a
/// Ctrl-C or SIGTERM gave before any plan (its JSON `reason` is `timeout`).
pub fn print_plan(
    instance: &Instance,
    report: &PlanReport,
    replay: Option<&sim::Replay>,
    refuted: Refuted,
    interrupted: bool,
    as_json: bool,
) {
    if as_json {
        print_report(&(serde_json::to_string(report).expect("report serialises") + "\n"));
        return;
    }
    use std::fmt::Write as _;
    let mut out = String::new();
    match (report.status, replay) {
        (Status::Sat, Some(replay)) => {
            let optimal = if report.optimal {
                " (proven least)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "plan: {}{optimal}, {}, encoding {}",
                snakesat::counted(report.horizon, "move"),
                snakesat::counted(instance.apples.len(), "apple"),
                report.encoding
            );
            if instance.width.max(instance.height) <= DRAWN_BOARD_SIDE {
                out.push_str(&picture(instance, &report.path, replay));
            } else {
                let _ = writeln!(
                    out,
                    "(boards of sides over {DRAWN_BOARD_SIDE} are not drawn here: --gif or --html draws the plan)"
                );
                out.push_str(&snakesat::report::plan_lines(&report.path, replay));
            }
        }
        (Status::Unsat, _) if report.lower_bound.is_none() => {
            let _ = writeln!(out, "no plan at any horizon");
        }
        (Status::Unsat, _) => {
            let scope = match refuted {
                Refuted::AtMost => "within",
                Refuted::Exactly | Refuted::Nothing => "of exactly",
            };
            let _ = writeln!(
                out,
                "no plan {scope} {} (encoding {})",
                snakesat::counted(report.horizon, "move"),
                report.encoding
            );
        }
        _ if refuted == Refuted::Nothing => {
            let _ = writeln!(
                out,
                "unknown: the approximate encoding {} has no model at T={}, which proves nothing about the game",
                report.encoding, report.horizon
            );
        }
        // (Without a reason: `decode` of a solver's `s UNKNOWN`; no limit of ours.)
        _ if report.reason.is_none() => {
            let _ = writeln!(
                out,
                "unknown: the solver gave no answer at T={} (encoding {})",
                report.horizon, report.encoding
            );
        }
        // (In words, the `reason` of the JSON.)
        _ => {
            let why = match report.reason {
                Some("timeout") if interrupted => {
                    "a signal (Ctrl-C or SIGTERM) stopped the search first".to_string()
                }
                Some("timeout") => "the time limit (--timeout) came first".to_string(),
                Some("formula_limit") => format!(
                    "the formula of {} is beyond the encoding's limits",
                    snakesat::counted(report.horizon, "move")
                ),
                Some("formulas_exhausted") => format!(
                    "no plan was constructed, and the whole-plan formulas up to {} have none",
                    snakesat::counted(report.horizon, "move")
                ),
                other => format!("limit reached ({})", other.unwrap_or("no reason")),
            };
            // No formula at all: the time went before the first one (the
            // bound, the reachable states, building it), at T=horizon next.
            let at = if report.stats.variables == 0 && report.stats.clauses == 0 {
                format!(
                    "before any horizon was answered (the search starts at T={})",
                    report.horizon
                )
            } else {
                format!("at T={}", report.horizon)
            };
            let _ = writeln!(out, "unknown: {why}, {at} (encoding {})", report.encoding);
        }
    }
    // Without a plan, the board the question was about (not a thousand
    // lines of a large board that an answer with no plan says little about).
    if report.status != Status::Sat && instance.width.max(instance.height) <= DRAWN_BOARD_SIDE {
        out.push_str(&snakesat::report::board(instance));
    }
    let s = &report.stats;
    if s.variables == 0 && s.clauses == 0 {
        // (A plan constructed without SAT, or an answer the bounds gave.)
        let _ = writeln!(out, "cnf: none built");
    } else {
        let _ = writeln!(
            out,
            "cnf: {} variables, {} clauses, {} literals; build {:.3} s, solve {:.3} s",
            s.variables, s.clauses, s.literals, s.build_seconds, s.solve_seconds
        );
    }
    // With a file on standard output (`--plan -`, `--gif -`), the answer's
    // line goes to stderr, as `play` does with its summary.
    if snakesat::output::stdout_taken() {
        stderr_line!("{}", out.lines().next().unwrap_or_default());
        return;
    }
    print_report(&out);
}

/// How a GIF looks and runs (`--cell`, `--delay`, `--pause`, `--skip`); each
/// needs `--gif`, which every command that flattens this struct defines.
#[derive(Args, Clone)]
pub struct GifLook {
    /// GIF: pixels per cell, at least 4 [default: about 400 pixels across
    /// the board's longer side, e.g. 40 on 10x10, 25 on 16x16]
    #[arg(long, value_name = "PIXELS",
          value_parser = clap::value_parser!(u16).range(4..), help_heading = "GIF", requires = "gif")]
    pub cell: Option<u16>,
    /// GIF: delay of each frame, in centiseconds.
    #[arg(
        long,
        value_name = "CS",
        default_value_t = 15,
        value_parser = count::<u16>,
        help_heading = "GIF",
        requires = "gif"
    )]
    pub delay: u16,
    /// GIF: pause on the last frame before the animation loops, in centiseconds.
    #[arg(
        long,
        value_name = "CS",
        default_value_t = 150,
        value_parser = count::<u16>,
        help_heading = "GIF",
        requires = "gif"
    )]
    pub pause: u16,
    /// GIF: draw only every N-th time point (always keeping the last) [default:
    /// every one if the animation lasts at most 45 s at --delay, else the least
    /// N that keeps it under 45 s with, for each apple eaten between two drawn
    /// time points, the step before it is eaten (so every apple is seen, when
    /// that fits); larger if needed to draw at most 1,000 million pixels in all
    /// (frames × pixels of a frame), a limit that a given N, or --cell, must
    /// keep too]
    #[arg(long, value_name = "N",
          value_parser = at_least_one::<u64>, help_heading = "GIF", requires = "gif")]
    pub skip: Option<u64>,
}

impl GifLook {
    pub fn options(&self) -> GifOptions {
        GifOptions {
            cell: self.cell,
            delay_cs: self.delay,
            pause_frames: 0,
            last_frame_delay_cs: self.pause,
            skip: self.skip.map(|n| usize::try_from(n).unwrap_or(usize::MAX)),
            ..GifOptions::default()
        }
    }

    /// Refuses, before the search or game that makes the path, a GIF to
    /// `gif` (when asked for) whose `width` × `height` board alone is too
    /// large to draw ([`snakesat::render::gif::check_board_size`]).
    pub fn check_board(
        &self,
        gif: Option<&Path>,
        width: usize,
        height: usize,
    ) -> Result<(), Failure> {
        let Some(gif) = gif else { return Ok(()) };
        snakesat::render::gif::check_board_size(width, height, self.cell)
            .map_err(|e| bad_input(format!("cannot write {}: {e}", gif.display())))
    }

    /// [`GifLook::check_board`], and with a `--skip` given, refuses an
    /// animation too large to draw for any path of at least `least_moves`
    /// moves ([`snakesat::render::gif::check_least_animation`]).
    pub fn check_least_path(
        &self,
        gif: Option<&Path>,
        width: usize,
        height: usize,
        least_moves: usize,
    ) -> Result<(), Failure> {
        let Some(gif) = gif else { return Ok(()) };
        let skip = self.options().skip;
        snakesat::render::gif::check_least_animation(width, height, self.cell, least_moves, skip)
            .map_err(|e| bad_input(format!("cannot write {}: {e}", gif.display())))
    }
}

/// The most problems or games `bench` and `bench game` run at once (`--jobs`):
/// each is a child process or a thread with its own solver.
pub const MAX_JOBS: usize = 256;

/// Refuses a `--jobs` of 0 or above [`MAX_JOBS`] (a thread that could not be
/// started panicked).
pub fn check_jobs(jobs: usize) -> Result<(), Failure> {
    if jobs == 0 {
        return Err(bad_input("--jobs must be at least 1"));
    }
    if jobs > MAX_JOBS {
        return Err(bad_input(format!(
            "--jobs {jobs} is larger than the limit {MAX_JOBS}"
        )));
    }
    Ok(())
}

/// The unsigned integer types of count flags, with the most each holds.
pub trait Count:
    Copy + PartialOrd + From<u8> + TryFrom<u128> + std::fmt::Display + Send + Sync + 'static
{
    /// The largest value of the type.
    const MAX: Self;
}

macro_rules! count_types {
    ($($t:ty),*) => { $(impl Count for $t { const MAX: Self = <$t>::MAX; })* };
}
count_types!(u16, u32, u64, usize);

/// Parses a count flag: a whole number from 0 to its type's largest, in one
/// wording whatever the type (clap's own parsers said "invalid digit found
/// in string", "number too large to fit in target type" or "70000 is not in
/// 0..=65535", by type and size).
pub fn count<T: Count>(text: &str) -> Result<T, String> {
    at_least(text, 0)
}

/// Parses a count that has no upper limit but its type's: at least 1 (clap's
/// own range said "0 is not in 1..18446744073709551615").
pub fn at_least_one<T: Count>(text: &str) -> Result<T, String> {
    at_least(text, 1)
}

/// A whole number from `least` to `T`'s largest.
fn at_least<T: Count>(text: &str, least: u8) -> Result<T, String> {
    let too_large = || format!("it is larger than {}, the most it can be", T::MAX);
    let n = match text.trim().parse::<u128>() {
        Ok(n) => T::try_from(n).map_err(|_| too_large())?,
        Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => return Err(too_large()),
        Err(_) => return Err(format!("it is not a whole number of {least} or more")),
    };
    if n < T::from(least) {
        return Err(format!("it must be at least {least}"));
    }
    Ok(n)
}

/// Parses `--threads`: 1 to [`game::MAX_THREADS`].
pub fn threads() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=game::MAX_THREADS as u64)
}

/// The threads per game: `given`, or the machine's cores shared by `jobs`
/// games at once (at least 1, at most [`game::MAX_THREADS`]).
pub fn search_threads(given: Option<usize>, jobs: usize) -> usize {
    given.unwrap_or_else(|| {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        (cores / jobs.max(1)).clamp(1, game::MAX_THREADS)
    })
}

/// Refuses `games` seeds from `seed` on that pass the largest seed (they
/// wrapped round to 0).
pub fn check_seeds(seed: u64, games: u64) -> Result<(), Failure> {
    match seed.checked_add(games.saturating_sub(1)) {
        Some(_) => Ok(()),
        None => Err(bad_input(format!(
            "--seed {seed} with --games {games} goes past the largest seed, {}",
            u64::MAX
        ))),
    }
}

/// Refuses `--json` (printed on standard output) with a file flag `-` that
/// also writes there.
pub fn check_json_beside(json: bool, flag: &str, file: Option<&Path>) -> Result<(), Failure> {
    if json && file.is_some_and(snakesat::output::is_stdout) {
        return Err(bad_input(format!(
            "--json and {flag} - both write to standard output; give {flag} a file name"
        )));
    }
    Ok(())
}

/// `n` as an English ordinal: 2nd, 3rd, 11th, 23rd, …
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// Writes the HTML viewer of a checked plan of `instance` (its apples to
/// come drawn, as an ordered list's are known in advance) into `out`; `name`
/// names the plan in the error of a path that breaks a rule.
pub fn write_plan_viewer(
    instance: &Instance,
    path: &[Pos],
    title: &str,
    out: &mut Output,
    name: &str,
) -> Result<(), Failure> {
    let page = snakesat::render::html::Page {
        title,
        apples_to_come: true,
        ..Default::default()
    };
    let text = snakesat::render::html::viewer(instance, path, &page)
        .map_err(|v| bad_input(format!("{name}: illegal plan: {v}")))?;
    out.write_with(|w| w.write_all(text.as_bytes()))?;
    Ok(())
}

/// Draws the animation of a checked `path` into `out`; returns the line
/// to print once it has landed.
pub fn write_gif_file(
    instance: &Instance,
    path: &[Pos],
    out: &mut Output,
    options: &GifOptions,
) -> Result<String, Failure> {
    let mut summary = None;
    out.write_with(|w| write_gif(instance, path, options, w).map(|s| summary = Some(s)))?;
    let summary = summary.expect("written above");
    let bytes = out.written_bytes();
    let every = match (summary.skip, summary.apple_frames) {
        (1, _) => String::new(),
        (n, 0) => format!(", every {} time point", ordinal(n)),
        (n, k) => format!(
            ", every {} time point, plus the step before each of {} eaten between two",
            ordinal(n),
            snakesat::counted(k, "apple")
        ),
    };
    Ok(format!(
        "wrote {}: {}x{} pixels, {}{every}, {bytes} bytes",
        out.name(),
        summary.width,
        summary.height,
        snakesat::counted(summary.frames, "frame"),
    ))
}

/// Says on stderr, for each output asked for (what it is and its path),
/// that it is not written because the run has no plan: `why`, as
/// [`no_plan`] or [`ILLEGAL_MODEL`] words it.
pub fn note_not_written(outputs: &[(&str, Option<&PathBuf>)], why: &str) {
    for (what, file) in outputs {
        if let Some(file) = file {
            note!("no {what} written to {}: {why}", file.display());
        }
    }
}

/// Why [`note_not_written`]: an answer without a plan.
pub fn no_plan(status: Status) -> String {
    format!("no plan (status {})", status.name())
}

/// Why [`note_not_written`]: an approximate encoding's model that the
/// simulator rejects.
pub const ILLEGAL_MODEL: &str = "the model is no legal plan";
