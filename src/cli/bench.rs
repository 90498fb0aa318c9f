//! `snakesat bench DIR…`: every `.pddl` problem of the folders (not
//! `domain.pddl`), each solved by a child process of this binary (so that its
//! peak memory is its own), every plan checked by the simulator and turned
//! into an IPC plan; a table on stdout, optionally JSON and CSV files.
//! `snakesat bench game` (full games) lives in [`super::bench_game`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use snakesat::output;
use snakesat::pddl;
use snakesat::sim;

use super::bench_game::{self, BenchGameArgs};
use super::{Failure, bad_input, read_file, seconds, shard_flag};

#[derive(Args)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub command: Option<BenchCommand>,
    /// Folders holding IPC-2018 snake problem files (`*.pddl`, `domain.pddl` skipped;
    /// a folder named `game` is given as `./game`).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Time limit per instance in seconds (every phase, the first plan too).
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = seconds)]
    pub timeout_per_instance: Duration,
    /// Passed to `solve`: a plan fast, then shorter ones.
    #[arg(long)]
    pub satisficing: bool,
    /// Passed to `solve --encoding`.
    #[arg(long, default_value = "direct")]
    pub encoding: String,
    /// Write the table as JSON.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write the table as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Problems solved at once (each in its own child process).
    #[arg(long, default_value_t = 1, value_name = "N")]
    pub jobs: usize,
    /// Keep every checked IPC plan in DIR, as `FOLDER-instance-K.plan`.
    #[arg(long, value_name = "DIR")]
    pub plans: Option<PathBuf>,
    /// Solve only shard I of K (1 <= I <= K): the problems at positions p
    /// (0-based, in the listed order) with p % K == I-1; `snakesat merge`
    /// joins the shards' CSV files.
    #[arg(long, value_name = "I/K")]
    pub shard: Option<String>,
    /// Passed to `solve --proof`: certificates of each instance into DIR/<instance name>/.
    #[arg(long, value_name = "DIR")]
    pub proof: Option<PathBuf>,
}

/// `bench`'s subcommands; without one, `bench DIR…` benchmarks IPC folders.
#[derive(Subcommand)]
pub enum BenchCommand {
    /// Play many full games per board size and reuse strategy and tabulate them.
    Game(BenchGameArgs),
}

/// One row of the table.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub instance: String,
    pub grid: String,
    pub apples: usize,
    /// `sat`, `unsat`, `unknown`, `timeout`, `invalid` or `error`.
    pub status: String,
    pub plan_length: Option<usize>,
    pub optimal: bool,
    pub lower_bound: Option<usize>,
    pub seconds: f64,
    pub variables: Option<u64>,
    pub clauses: Option<u64>,
    pub peak_memory_kb: Option<u64>,
    /// With `--proof`: whether every refuted horizon has a proof, how many
    /// certificates (refuted and below-bound) and their proofs' total size.
    pub certified: Option<bool>,
    pub certificates: Option<usize>,
    pub proof_bytes: Option<u64>,
}

fn problems(dirs: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| bad_input(format!("cannot read {}: {e}", dir.display())))?;
        let mut here: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| pddl::is_pddl_path(p))
            .filter(|p| {
                p.file_name()
                    .is_none_or(|n| !n.eq_ignore_ascii_case("domain.pddl"))
            })
            .collect();
        // instance-2 before instance-10.
        here.sort_by_key(|p| {
            let name = p
                .file_stem()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let digits: String = name.chars().filter(|c| c.is_ascii_digit()).collect();
            (digits.parse::<u64>().unwrap_or(u64::MAX), name)
        });
        files.extend(here);
    }
    if files.is_empty() {
        return Err(bad_input("no .pddl problem files in the folders given"));
    }
    Ok(files)
}

/// Peak resident memory of this process (`VmHWM`), in kB.
pub fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

fn run_one(file: &Path, args: &BenchArgs) -> Row {
    let label = file
        .parent()
        .and_then(|p| p.file_name())
        .map(|d| format!("{}/", d.to_string_lossy()))
        .unwrap_or_default()
        + &file.file_name().unwrap_or_default().to_string_lossy();
    let mut row = Row {
        instance: label,
        grid: String::new(),
        apples: 0,
        status: "error".into(),
        plan_length: None,
        optimal: false,
        lower_bound: None,
        seconds: 0.0,
        variables: None,
        clauses: None,
        peak_memory_kb: None,
        certified: None,
        certificates: None,
        proof_bytes: None,
    };
    let instance = match read_file(file)
        .map_err(|f| f.message)
        .and_then(|t| pddl::from_pddl(&t).map_err(|e| format!("{e:#}")))
    {
        Ok(i) => i,
        Err(_) => return row,
    };
    row.grid = format!("{}x{}", instance.width, instance.height);
    row.apples = instance.apples.len();
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("snakesat"));
    let mut cmd = Command::new(exe);
    cmd.arg("solve")
        .arg(file)
        .arg("--json")
        .arg("--encoding")
        .arg(&args.encoding)
        .arg("--timeout")
        .arg(args.timeout_per_instance.as_secs_f64().to_string())
        .env("SNAKESAT_REPORT_MEMORY", "1")
        .env_remove("SNAKESAT_PROGRESS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if args.satisficing {
        cmd.arg("--satisficing");
    }
    if let Some(dir) = &args.proof {
        cmd.arg("--proof")
            .arg(dir.join(file.file_stem().unwrap_or_default()));
    }
    let started = Instant::now();
    let Ok(mut child) = cmd.spawn() else {
        return row;
    };
    // A hard stop well after the limit (which bounds every phase of the search).
    let hard = Duration::from_secs_f64(args.timeout_per_instance.as_secs_f64() * 5.0 + 30.0);
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
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if started.elapsed() > hard => {
                let _ = child.kill();
                let _ = child.wait();
                killed = true;
                break;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => break,
        }
    }
    row.seconds = started.elapsed().as_secs_f64();
    let out = out_reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    row.peak_memory_kb = err
        .lines()
        .find_map(|l| l.strip_prefix("peak-memory-kb: "))
        .and_then(|v| v.trim().parse().ok());
    if killed {
        row.status = "timeout".into();
        return row;
    }
    let Some(report) = out
        .lines()
        .find_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
    else {
        return row;
    };
    row.status = report["status"].as_str().unwrap_or("error").to_string();
    row.optimal = report["optimal"].as_bool().unwrap_or(false);
    row.lower_bound = report["lower_bound"].as_u64().map(|v| v as usize);
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
        let path: Option<Vec<(usize, usize)>> = serde_json::from_value(report["path"].clone()).ok();
        let valid = path.as_ref().is_some_and(|p| {
            sim::simulate(&instance, p).is_ok_and(|r| r.eaten.len() == instance.apples.len())
                && pddl::plan::ipc_plan(&instance, p).is_ok()
        });
        if valid {
            if let (Some(dir), Some(p)) = (&args.plans, &path) {
                let name = row.instance.replace('/', "-").replace(".pddl", ".plan");
                let text = pddl::plan::ipc_plan(&instance, p).unwrap_or_default();
                if std::fs::write(dir.join(name), text).is_err() {
                    row.status = "error".into();
                    return row;
                }
            }
            row.plan_length = path.map(|p| p.len() - 1);
        } else {
            row.status = "invalid".into();
            row.optimal = false;
        }
    } else {
        row.optimal = false;
    }
    row
}

fn table(rows: &[Row], proofs: bool) -> String {
    let mut out = String::from(
        "| instance | grid | apples | plan length | optimal | lower bound | time (s) | variables | clauses | peak memory (MB) |",
    );
    out += if proofs {
        " certified | certificates | proofs (MB) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
    } else {
        "\n|---|---|---|---|---|---|---|---|---|---|\n"
    };
    let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
    for r in rows {
        out += &format!(
            "| {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {} |",
            r.instance,
            r.grid,
            r.apples,
            r.plan_length.map_or(r.status.clone(), |l| l.to_string()),
            if r.optimal { "yes" } else { "no" },
            opt(r.lower_bound.map(|v| v as u64)),
            r.seconds,
            opt(r.variables),
            opt(r.clauses),
            r.peak_memory_kb
                .map_or("-".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
        );
        if proofs {
            out += &format!(
                " {} | {} | {} |",
                match r.certified {
                    Some(true) => "yes",
                    Some(false) => "no",
                    None => "-",
                },
                opt(r.certificates.map(|c| c as u64)),
                r.proof_bytes
                    .map_or("-".to_string(), |b| format!("{:.2}", b as f64 / 1e6)),
            );
        }
        out.push('\n');
    }
    out
}

fn csv(rows: &[Row]) -> String {
    let mut out = String::from(
        "instance,grid,apples,status,plan_length,optimal,lower_bound,seconds,variables,clauses,peak_memory_kb,certified,certificates,proof_bytes\n",
    );
    let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
    for r in rows {
        out += &format!(
            "{},{},{},{},{},{},{},{:.3},{},{},{},{},{},{}\n",
            r.instance,
            r.grid,
            r.apples,
            r.status,
            opt(r.plan_length.map(|v| v as u64)),
            r.optimal,
            opt(r.lower_bound.map(|v| v as u64)),
            r.seconds,
            opt(r.variables),
            opt(r.clauses),
            opt(r.peak_memory_kb),
            r.certified.map_or(String::new(), |c| c.to_string()),
            opt(r.certificates.map(|c| c as u64)),
            opt(r.proof_bytes),
        );
    }
    out
}

pub fn run(args: BenchArgs) -> Result<u8, Failure> {
    if let Some(BenchCommand::Game(game)) = args.command {
        return bench_game::run(game);
    }
    if args.jobs == 0 {
        return Err(bad_input("--jobs must be at least 1"));
    }
    if let Some(dir) = &args.plans {
        std::fs::create_dir_all(dir)
            .map_err(|e| bad_input(format!("cannot create {}: {e}", dir.display())))?;
    }
    let shard = shard_flag(args.shard.as_deref())?;
    let files: Vec<PathBuf> = problems(&args.dirs)?
        .into_iter()
        .enumerate()
        .filter(|(p, _)| shard.is_none_or(|s| s.owns(*p)))
        .map(|(_, f)| f)
        .collect();
    let [mut json_out, mut csv_out] = output::claim([args.json.as_deref(), args.csv.as_deref()])?;
    let bar = ProgressBar::new(files.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // `jobs` workers take the next problem; the rows keep the files' order.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<Row>>> =
        files.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(files.len()) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(file) = files.get(i) else { break };
                    bar.set_message(file.display().to_string());
                    let row = run_one(file, &args);
                    *slots[i].lock().expect("unpoisoned") = Some(row);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let rows: Vec<Row> = slots
        .into_iter()
        .filter_map(|m| m.into_inner().expect("unpoisoned"))
        .collect();
    if let Some(out) = &mut json_out {
        let text = serde_json::to_string_pretty(&rows).expect("rows serialise");
        out.write_with(|w| w.write_all(text.as_bytes()))?;
    }
    if let Some(out) = &mut csv_out {
        out.write_with(|w| w.write_all(csv(&rows).as_bytes()))?;
    }
    output::commit([json_out, csv_out])?;
    print!("{}", table(&rows, args.proof.is_some()));
    let all_ok = rows.iter().all(|r| r.status == "sat");
    Ok(if all_ok { 0 } else { 3 })
}
