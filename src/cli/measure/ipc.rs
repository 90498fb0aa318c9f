//! IPC-2018 benchmarks (`snakesat bench DIR…`): the problem files of
//! folders, each solved by a child process of the `snakesat` binary (so that
//! its peak memory is its own, reported on its stderr), every plan checked by
//! the simulator and turned into an IPC plan, and the rows as tables.

use std::collections::HashMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::cli::table::{Align, Cell, Table};
use snakesat::instance::{Instance, Pos};
use snakesat::output;
use snakesat::pddl;
use snakesat::sim;

/// Set in the environment of `bench`'s `solve` children: a signal ends a
/// `--satisficing` child (removing its unfinished files) instead of making
/// it answer with its best plan, since `bench` passes a signal on only to
/// end the run.
pub const SIGNAL_ENDS_CHILD: &str = "SNAKESAT_SIGNAL_ENDS";

/// The stderr line of a child run with `SNAKESAT_REPORT_MEMORY` set.
pub const MEMORY_LINE: &str = "peak-memory-kb: ";

/// How each problem is solved.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The `snakesat` binary run for each problem (`solve FILE --json`).
    pub solver: PathBuf,
    /// Time limit per problem (`solve --timeout`).
    pub timeout: Duration,
    /// `solve --satisficing`.
    pub satisficing: bool,
    /// `solve --max-horizon`.
    pub max_horizon: usize,
    /// `solve --encoding`.
    pub encoding: String,
    /// Keep every checked IPC plan in this folder, as `FOLDER-instance-K.plan`.
    pub plans: Option<PathBuf>,
    /// `solve --proof DIR/<problem name>`.
    pub proof: Option<PathBuf>,
}

/// One row of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// `FOLDER/FILE.pddl`.
    pub instance: String,
    /// `WxH` (`None`: the problem cannot be read).
    pub grid: Option<String>,
    /// Apples of the problem (`None`: the problem cannot be read).
    pub apples: Option<usize>,
    /// `sat`, `unsat`, `unknown`, `timeout`, `invalid` or `error`.
    pub status: String,
    /// Moves of the checked plan.
    pub plan_length: Option<usize>,
    /// The plan is proven shortest.
    pub optimal: bool,
    /// The lower bound on the moves.
    pub lower_bound: Option<usize>,
    /// No plan has fewer moves, as far as the answer proves: the lower
    /// bound raised past every horizon refuted (`solve --json`'s).
    pub no_plan_below: Option<usize>,
    /// Wall-clock seconds of the child.
    pub seconds: f64,
    /// Variables of the last formula.
    pub variables: Option<u64>,
    /// Clauses of the last formula.
    pub clauses: Option<u64>,
    /// The child's peak resident memory.
    pub peak_memory_kb: Option<u64>,
    /// With `proof`: whether every refuted horizon has a proof (`None` also
    /// for an `unknown` answer, which claims nothing).
    pub certified: Option<bool>,
    /// With `proof`: how many certificates (refuted and below-bound).
    pub certificates: Option<usize>,
    /// With `proof`: the proofs' total size.
    pub proof_bytes: Option<u64>,
    /// What went wrong, when something did: the child's `error:` line, or
    /// why the problem could not be read, the child gave no report, its plan
    /// failed the check or it was stopped.
    pub error: Option<String>,
}

/// Why the problems cannot be listed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum BenchError {
    /// A folder cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// No problem file at all; what was skipped, if anything.
    #[error(
        "no .pddl problem files in the folders given{}",
        if .0.is_empty() { String::new() } else { format!(" ({})", .0.join("; ")) }
    )]
    NoProblems(Vec<String>),
}

/// The problem files of `bench`'s folders, and what was left out of them.
#[derive(Debug, Default)]
pub struct Listing {
    /// The problems, each folder's in numeric order.
    pub files: Vec<PathBuf>,
    /// One line per thing skipped: a folder given twice, a subfolder (not
    /// searched), a domain file not named `domain.pddl`, a `.pddl` that is
    /// not a regular file (a FIFO) or whose name holds a control character.
    pub notes: Vec<String>,
}

/// True when the file at `path` begins with `(define (domain ...`: a domain
/// file, whatever its name (`p01-domain.pddl`, `domain_p01.pddl`). Only its
/// head is read.
fn is_domain_file(path: &Path) -> bool {
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(64 * 1024).read_to_end(&mut head));
    read.is_ok() && pddl::is_domain_text(&String::from_utf8_lossy(&head))
}

/// The `.pddl` problem files of the folders (not `domain.pddl` nor any other
/// domain file), each folder's in numeric order (`instance-2` before
/// `instance-10`). A folder given twice is listed once; subfolders,
/// entries that are not regular files (a FIFO could block the run) and
/// names with control characters (a line break would split the row) are
/// not searched. The notes say what was skipped.
pub fn problems(dirs: &[PathBuf]) -> Result<Listing, BenchError> {
    let mut listing = Listing::default();
    let mut seen: Vec<PathBuf> = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|source| BenchError::Read {
            path: dir.display().to_string(),
            source,
        })?;
        let same = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.clone());
        if seen.contains(&same) {
            listing.notes.push(format!(
                "{} is given twice: its problems run once",
                dir.display()
            ));
            continue;
        }
        seen.push(same);
        let mut here: Vec<PathBuf> = Vec::new();
        let mut subfolders: Vec<PathBuf> = Vec::new();
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.is_dir() {
                subfolders.push(path);
            } else if !pddl::is_pddl_path(&path)
                || path
                    .file_name()
                    .is_some_and(|n| n.eq_ignore_ascii_case("domain.pddl"))
            {
                continue;
            } else if path.to_string_lossy().chars().any(char::is_control) {
                // (Its row and its child's arguments would break lines.)
                listing.notes.push(format!(
                    "skipped {:?}: its name holds a control character",
                    path.display().to_string()
                ));
            } else if !path.is_file() {
                // A FIFO or a device: reading it may never end.
                listing
                    .notes
                    .push(format!("skipped {}: not a regular file", path.display()));
            } else if is_domain_file(&path) {
                listing.notes.push(format!(
                    "skipped {}: a domain file, not a problem",
                    path.display()
                ));
            } else {
                here.push(path);
            }
        }
        subfolders.sort();
        for sub in subfolders {
            listing.notes.push(format!(
                "skipped the subfolder {}: bench reads only the folders given (give it as one)",
                sub.display()
            ));
        }
        here.sort_by_key(|p| {
            let name = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let digits: String = name.chars().filter(|c| c.is_ascii_digit()).collect();
            (digits.parse::<u64>().unwrap_or(u64::MAX), name)
        });
        listing.files.extend(here);
    }
    if listing.files.is_empty() {
        return Err(BenchError::NoProblems(listing.notes));
    }
    Ok(listing)
}

/// Peak resident memory of this process (`VmHWM`), in kB.
pub fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

/// Solves `files` in `jobs` threads (each problem in its own child process);
/// `started` and `done` are called around each. The rows keep the files' order.
pub fn solve_all(
    files: &[PathBuf],
    settings: &Settings,
    jobs: usize,
    started: impl Fn(&Path) + Sync,
    done: impl Fn(&Path) + Sync,
) -> Vec<Row> {
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<Row>>> = files.iter().map(|_| Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, files.len().max(1)) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(file) = files.get(i) else { break };
                    started(file);
                    let row = solve_one(file, settings);
                    *slots[i].lock().expect("unpoisoned") = Some(row);
                    done(file);
                }
            });
        }
    });
    slots
        .into_iter()
        .filter_map(|m| m.into_inner().expect("unpoisoned"))
        .collect()
}

/// A problem's name in the tables: its folder's name and its file name.
fn label(file: &Path) -> String {
    file.parent()
        .and_then(|p| p.file_name())
        .map(|d| format!("{}/", d.to_string_lossy()))
        .unwrap_or_default()
        + &file.file_name().unwrap_or_default().to_string_lossy()
}

/// A problem's name in the files `bench` writes for it: its folder's name,
/// `-`, and its file name without the extension (`FOLDER-instance-K` for
/// `FOLDER/instance-K.pddl`, whatever the extension's case).
fn output_stem(file: &Path) -> String {
    let folder = file
        .parent()
        .and_then(|p| p.file_name())
        .map(|d| format!("{}-", d.to_string_lossy()))
        .unwrap_or_default();
    folder + &file.file_stem().unwrap_or_default().to_string_lossy()
}

/// The file `--plans` keeps a problem's plan in: `FOLDER-instance-K.plan`.
fn plan_file_name(file: &Path) -> String {
    output_stem(file) + ".plan"
}

/// The folder `--proof OUT` gives a problem's certificates:
/// `OUT/FOLDER-instance-K`, named as `--plans` names its plans.
pub fn proof_folder(dir: &Path, file: &Path) -> PathBuf {
    dir.join(output_stem(file))
}

/// Two problems that the table would name alike (`FOLDER/FILE`: the same
/// file name in two folders named alike), the first such pair; `None` when
/// every row's name differs.
pub fn alike_labels(files: &[PathBuf]) -> Option<(&Path, &Path, String)> {
    let mut taken: HashMap<String, &Path> = HashMap::new();
    for file in files {
        let name = label(file);
        if let Some(first) = taken.insert(name.clone(), file) {
            return Some((first, file, name));
        }
    }
    None
}

/// Two problems whose plans (with `plans`) or certificates (with `proof`)
/// would go to the same place, e.g. `instance-1.pddl` of two folders named
/// alike; `None` when all differ.
pub fn clashing_outputs(
    files: &[PathBuf],
    plans: Option<&Path>,
    proof: Option<&Path>,
) -> Option<String> {
    let mut taken: HashMap<PathBuf, &Path> = HashMap::new();
    for file in files {
        let mut places = Vec::new();
        if let Some(dir) = plans {
            places.push(dir.join(plan_file_name(file)));
        }
        if let Some(dir) = proof {
            places.push(proof_folder(dir, file));
        }
        for place in places {
            if let Some(first) = taken.insert(place.clone(), file) {
                return Some(format!(
                    "{} and {} would both write {}; bench them in separate runs",
                    first.display(),
                    file.display(),
                    place.display()
                ));
            }
        }
    }
    None
}

/// The first plan file of `files` (in their order) that is already in `dir`,
/// left by an earlier run (anything by that name, a link too): `bench
/// --plans` refuses it rather than replace it, or remove it on a signal.
pub fn earlier_plan(files: &[PathBuf], dir: &Path) -> Option<PathBuf> {
    files
        .iter()
        .map(|file| dir.join(plan_file_name(file)))
        .find(|kept| std::fs::symlink_metadata(kept).is_ok())
}

/// Solves one problem file in a child process and checks its plan.
pub fn solve_one(file: &Path, settings: &Settings) -> Row {
    let mut row = Row {
        instance: label(file),
        grid: None,
        apples: None,
        status: "error".into(),
        plan_length: None,
        optimal: false,
        lower_bound: None,
        no_plan_below: None,
        seconds: 0.0,
        variables: None,
        clauses: None,
        peak_memory_kb: None,
        certified: None,
        certificates: None,
        proof_bytes: None,
        error: None,
    };
    let problem = match crate::cli::read_text(file, crate::cli::Input::Problem) {
        Err(failure) => Err(failure.message),
        Ok(text) => pddl::read_problem(&text).map_err(|e| e.to_string()),
    };
    let pddl::Problem { instance, objects } = match problem {
        Ok(problem) => problem,
        Err(e) => {
            row.error = Some(e);
            return row;
        }
    };
    row.grid = Some(format!("{}x{}", instance.width, instance.height));
    row.apples = Some(instance.apples.len());
    let mut cmd = Command::new(&settings.solver);
    cmd.arg("solve")
        .arg("--json")
        .arg("--encoding")
        .arg(&settings.encoding)
        .arg("--timeout")
        .arg(settings.timeout.as_secs_f64().to_string())
        .arg("--max-horizon")
        .arg(settings.max_horizon.to_string())
        .env("SNAKESAT_REPORT_MEMORY", "1")
        .env(SIGNAL_ENDS_CHILD, "1")
        .env_remove("SNAKESAT_PROGRESS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if settings.satisficing {
        cmd.arg("--satisficing");
    }
    // The problem's certificate folder, and whether this run makes it.
    let proof = settings.proof.as_ref().map(|dir| {
        let folder = proof_folder(dir, file);
        let made = !folder.exists();
        (folder, made)
    });
    if let Some((folder, _)) = &proof {
        let mut flag = std::ffi::OsString::from("--proof=");
        flag.push(folder);
        cmd.arg(flag);
    }
    // Last, after `--`: a problem's path may start with `-`.
    cmd.arg("--").arg(file);
    let started = Instant::now();
    let mut child = match output::spawn_watched(&mut cmd) {
        Ok(child) => child,
        Err(e) => {
            row.error = Some(format!("cannot run {}: {e}", settings.solver.display()));
            return row;
        }
    };
    // A hard stop well after the limit (which bounds every phase of the search).
    let hard = Duration::from_secs_f64(settings.timeout.as_secs_f64() * 5.0 + 30.0);
    let mut stdout = child.stdout.take().expect("piped stdout");
    let mut stderr = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let mut killed = false;
    let mut exit = None;
    loop {
        match output::try_wait_watched(&mut child) {
            Ok(Some(status)) => {
                exit = Some(status);
                break;
            }
            Ok(None) if started.elapsed() > hard => {
                output::kill_watched(&mut child);
                killed = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break,
        }
    }
    row.seconds = started.elapsed().as_secs_f64();
    if let Some((folder, made)) = &proof {
        adopt_certificates(folder, *made);
    }
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    row.peak_memory_kb = err
        .lines()
        .find_map(|l| l.strip_prefix(MEMORY_LINE))
        .and_then(|v| v.trim().parse().ok());
    row.error = err
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .map(str::to_string);
    if killed {
        row.status = "timeout".into();
        row.error = Some(format!(
            "stopped after {:.0} s without an answer",
            hard.as_secs_f64()
        ));
        return row;
    }
    let Some(report) = out
        .lines()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    else {
        if row.error.is_none() {
            row.error = Some(no_report(exit, &err));
        }
        return row;
    };
    row.status = report["status"].as_str().unwrap_or("error").to_string();
    row.optimal = report["optimal"].as_bool().unwrap_or(false);
    row.lower_bound = report["lower_bound"].as_u64().map(|v| v as usize);
    row.no_plan_below = report["no_plan_below"].as_u64().map(|v| v as usize);
    row.variables = report["stats"]["variables"].as_u64();
    row.clauses = report["stats"]["clauses"].as_u64();
    if let Some(certificates) = report["certificates"].as_array() {
        row.certified = report["certified"].as_bool();
        row.certificates = Some(certificates.len());
        row.proof_bytes = Some(
            certificates
                .iter()
                .filter_map(|c| c["proof_bytes"].as_u64())
                .sum(),
        );
    }
    if row.status == "sat" {
        let path: Option<Vec<Pos>> = serde_json::from_value(report["path"].clone()).ok();
        match path.as_ref().map_or_else(
            || Err("the report has no path".to_string()),
            |p| check_plan(&instance, &objects, p),
        ) {
            Ok(ipc) => {
                if let Some(dir) = &settings.plans {
                    let kept = dir.join(plan_file_name(file));
                    // Created new (no file of another run is replaced) and
                    // removed by a signal or an error until the run is complete;
                    // one that cannot be written whole is removed at once.
                    let written =
                        output::create_unfinished(&kept, || std::fs::File::create_new(&kept))
                            .and_then(|mut f| {
                                f.write_all(ipc.as_bytes()).inspect_err(|_| {
                                    let _ = std::fs::remove_file(&kept);
                                })
                            });
                    if let Err(e) = written {
                        // (An error row claims nothing, as an invalid one.)
                        row.status = "error".into();
                        row.error = Some(format!("cannot write {}: {e}", kept.display()));
                        row.optimal = false;
                        return row;
                    }
                }
                row.plan_length = path.map(|p| p.len() - 1);
            }
            Err(e) => {
                row.status = "invalid".into();
                row.error = Some(e);
                row.optimal = false;
            }
        }
    } else {
        row.optimal = false;
    }
    row
}

/// Takes over the certificates and manifest that a finished child wrote
/// into `folder` (none were there before: `bench` refuses an earlier run's),
/// and the folder when this run `made` it, as unfinished files of this run:
/// a signal or an error removes them, as `solve --proof` removes its own,
/// until the run is complete.
fn adopt_certificates(folder: &Path, made: bool) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    if made {
        output::adopt_unfinished(folder);
    }
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name == snakesat::proof::MANIFEST || snakesat::proof::is_certificate_file(&name) {
            output::adopt_unfinished(&entry.path());
        }
    }
}

/// The plan `path` of `instance` checked by the simulator (every apple
/// eaten) and written as an IPC plan, its cells named by `objects`; why not,
/// if it fails.
fn check_plan(
    instance: &Instance,
    objects: &pddl::Objects,
    path: &[Pos],
) -> Result<String, String> {
    sim::simulate(instance, path).map_err(|e| format!("the plan fails the simulator: {e}"))?;
    pddl::plan::ipc_plan(instance, objects, path).map_err(|e| format!("no IPC plan: {e}"))
}

/// Why a child gave no report, when it printed no `error:` line: how it
/// ended and its last line on stderr (a panic's, say).
fn no_report(exit: Option<std::process::ExitStatus>, stderr: &str) -> String {
    let how = match exit {
        Some(status) => format!("solve ended ({status}) without a report"),
        None => "solve ended without a report".to_string(),
    };
    match stderr
        .lines()
        .map(str::trim)
        .rfind(|l| !l.is_empty() && !l.starts_with(MEMORY_LINE))
    {
        Some(last) => format!("{how}; its last line: {last}"),
        None => how,
    }
}

/// The table printed (as Markdown): plan length or status, sizes in MB;
/// with `proofs` the certification columns too.
pub fn summary_table(rows: &[Row], proofs: bool) -> Table {
    let mut columns = vec![
        "instance",
        "grid",
        "apples",
        "plan length",
        "optimal",
        "lower bound",
        "no plan below",
        "time (s)",
        "variables",
        "clauses",
        "peak memory (MB)",
    ];
    if proofs {
        columns.extend(["certified", "certificates", "proofs (MB)"]);
    }
    let mut table = Table::new(columns.into_iter().map(|c| (c, Align::Left)));
    let opt = |v: Option<u64>| Cell::from(v.map_or("-".to_string(), |v| v.to_string()));
    let megabytes = |v: Option<u64>, unit: f64, decimals: usize| {
        Cell::from(v.map_or("-".to_string(), |v| {
            format!("{:.decimals$}", v as f64 / unit)
        }))
    };
    for r in rows {
        let mut row = vec![
            r.instance.clone().into(),
            r.grid.clone().unwrap_or_else(|| "-".into()).into(),
            opt(r.apples.map(|a| a as u64)),
            r.plan_length
                .map_or(r.status.clone(), |l| l.to_string())
                .into(),
            // (Only a plan is optimal or not.)
            match (r.plan_length, r.optimal) {
                (None, _) => "-",
                (Some(_), true) => "yes",
                (Some(_), false) => "no",
            }
            .into(),
            opt(r.lower_bound.map(|v| v as u64)),
            opt(r.no_plan_below.map(|v| v as u64)),
            Cell::Float(r.seconds, 2),
            opt(r.variables),
            opt(r.clauses),
            megabytes(r.peak_memory_kb, 1024.0, 1),
        ];
        if proofs {
            row.extend([
                match r.certified {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "-",
                }
                .into(),
                opt(r.certificates.map(|c| c as u64)),
                megabytes(r.proof_bytes, 1e6, 2),
            ]);
        }
        table.push(row);
    }
    table
}

/// Every field of every row (written as CSV, or as JSON with full-precision seconds).
pub fn rows_table(rows: &[Row]) -> Table {
    let mut table = Table::new([
        ("instance", Align::Left),
        ("grid", Align::Left),
        ("apples", Align::Right),
        ("status", Align::Left),
        ("plan_length", Align::Right),
        ("optimal", Align::Left),
        ("lower_bound", Align::Right),
        ("no_plan_below", Align::Right),
        ("seconds", Align::Right),
        ("variables", Align::Right),
        ("clauses", Align::Right),
        ("peak_memory_kb", Align::Right),
        ("certified", Align::Left),
        ("certificates", Align::Right),
        ("proof_bytes", Align::Right),
        ("error", Align::Left),
    ]);
    for r in rows {
        table.push(vec![
            r.instance.clone().into(),
            r.grid.clone().map_or(Cell::Empty, Cell::Text),
            Cell::count(r.apples),
            r.status.clone().into(),
            Cell::count(r.plan_length),
            Cell::Bool(r.optimal),
            Cell::count(r.lower_bound),
            Cell::count(r.no_plan_below),
            Cell::Float(r.seconds, 3),
            Cell::int(r.variables),
            Cell::int(r.clauses),
            Cell::int(r.peak_memory_kb),
            r.certified.map_or(Cell::Empty, Cell::Bool),
            Cell::count(r.certificates),
            Cell::int(r.proof_bytes),
            r.error.clone().map_or(Cell::Empty, Cell::Text),
        ]);
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plan of `probs/instance-1.PDDL` was kept as
    /// `probs-instance-1.PDDL` (a case-sensitive replace of `.pddl`), which a
    /// later `bench` of that folder read as a problem; a folder named
    /// `x.pddl` gave `x.plan-instance-1.plan`.
    #[test]
    fn plan_files_are_named_by_folder_and_stem_whatever_the_case() {
        for (problem, plan) in [
            ("probs/instance-1.pddl", "probs-instance-1.plan"),
            ("probs/instance-1.PDDL", "probs-instance-1.plan"),
            ("x.pddl/instance-1.pddl", "x.pddl-instance-1.plan"),
            ("instance-2.pddl", "instance-2.plan"),
        ] {
            assert_eq!(plan_file_name(Path::new(problem)), plan, "{problem}");
        }
        assert_eq!(
            proof_folder(Path::new("out"), Path::new("probs/instance-1.PDDL")),
            Path::new("out/probs-instance-1")
        );
    }

    fn row() -> Row {
        Row {
            instance: "optimal/instance-1.pddl".into(),
            grid: Some("5x5".into()),
            apples: Some(3),
            status: "sat".into(),
            plan_length: Some(12),
            optimal: true,
            lower_bound: Some(10),
            no_plan_below: Some(12),
            seconds: 1.23456,
            variables: Some(100),
            clauses: None,
            peak_memory_kb: Some(2048),
            certified: None,
            certificates: None,
            proof_bytes: None,
            error: None,
        }
    }

    #[test]
    fn csv_json_and_markdown_of_the_same_rows() {
        let rows = [row()];
        assert_eq!(
            rows_table(&rows).to_csv(),
            "instance,grid,apples,status,plan_length,optimal,lower_bound,no_plan_below,seconds,variables,clauses,peak_memory_kb,certified,certificates,proof_bytes,error\n\
             optimal/instance-1.pddl,5x5,3,sat,12,true,10,12,1.235,100,,2048,,,,\n"
        );
        let json: serde_json::Value = serde_json::from_str(&rows_table(&rows).to_json()).unwrap();
        assert_eq!(json, serde_json::to_value(&rows).unwrap());
        assert_eq!(
            summary_table(&rows, false).to_markdown().lines().nth(2),
            Some(
                "| optimal/instance-1.pddl | 5x5 | 3 | 12 | yes | 10 | 12 | 1.23 | 100 | - | 2.0 |"
            )
        );
        // A problem without a plan is neither optimal nor not.
        let unsat = Row {
            status: "unsat".into(),
            plan_length: None,
            optimal: false,
            ..row()
        };
        assert_eq!(
            summary_table(&[unsat], false).to_markdown().lines().nth(2),
            Some(
                "| optimal/instance-1.pddl | 5x5 | 3 | unsat | - | 10 | 12 | 1.23 | 100 | - | 2.0 |"
            )
        );
    }

    #[test]
    fn an_unreadable_problem_has_no_grid_or_apples_and_says_why() {
        let dir = std::env::temp_dir().join(format!("snakesat-bench-unit-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("broken.pddl");
        std::fs::write(&file, "(define (problem p)").unwrap();
        let settings = Settings {
            solver: PathBuf::from("snakesat"),
            timeout: Duration::from_secs(1),
            satisficing: false,
            max_horizon: 10,
            encoding: "direct".into(),
            plans: None,
            proof: None,
        };
        let rows = [solve_one(&file, &settings)];
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(rows[0].status, "error");
        let error = rows[0].error.as_deref().unwrap_or_default();
        assert!(!error.is_empty(), "{:?}", rows[0]);
        let json: serde_json::Value = serde_json::from_str(&rows_table(&rows).to_json()).unwrap();
        assert_eq!(json[0]["grid"], serde_json::Value::Null);
        assert_eq!(json[0]["apples"], serde_json::Value::Null);
        assert_eq!(json[0]["error"], error);
        let csv = rows_table(&rows).to_csv();
        let line = csv.lines().nth(1).unwrap();
        assert!(
            line.starts_with(&format!("{},,,error,", rows[0].instance)),
            "{line}"
        );
        assert!(line.contains(error), "{line}");
        let markdown = summary_table(&rows, false).to_markdown();
        assert!(
            markdown
                .lines()
                .nth(2)
                .unwrap()
                .contains("| - | - | error |"),
            "{markdown}"
        );
    }
}
