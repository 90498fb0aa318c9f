//! `snakesat generate` and `snakesat merge` as a user runs them: families
//! free of symmetric duplicates, `--all` against Burnside's lemma (counted
//! here by brute force), labels checked by minisat and by a breadth-first
//! search, reproducible indexes, and shards merged into the single run.

#[path = "support/bfs.rs"]
mod bfs;
#[path = "support/index.rs"]
mod index;
#[path = "support/cli.rs"]
mod support;
use bfs::least_moves;
use index::{IndexRow, Summary, from_jsonl, sha256_hex, to_csv, to_jsonl, without_timing};
use support::{assert_bad_input, have_checker, snakesat, temp_dir};

use std::collections::HashSet;
use std::path::Path;
use std::process::Command;

use snakesat::instance::json::from_json;
use snakesat::symmetry::canonical;

type Pos = (usize, usize);

fn rows(dir: &Path, name: &str) -> Vec<IndexRow> {
    from_jsonl(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn summary(dir: &Path, name: &str) -> Summary {
    serde_json::from_str(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap()
}

fn generate(dir: &Path, args: &[&str]) -> support::Run {
    let mut all = vec!["generate", "-o", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    let run = snakesat(&all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    run
}

/// The 8 maps of a square `n × n` board, written out one by one.
fn square_symmetries(n: usize) -> Vec<Box<dyn Fn(Pos) -> Pos>> {
    let m = n - 1;
    vec![
        Box::new(|p| p),
        Box::new(move |(x, y)| (m - x, y)),
        Box::new(move |(x, y)| (x, m - y)),
        Box::new(move |(x, y)| (m - x, m - y)),
        Box::new(|(x, y)| (y, x)),
        Box::new(move |(x, y)| (m - y, m - x)),
        Box::new(move |(x, y)| (m - y, x)),
        Box::new(move |(x, y)| (y, m - x)),
    ]
}

/// Burnside's lemma by brute force on an `n × n` board: placements of a
/// snake body of `length` cells (head first) and `apples` ordered apples
/// (one visible at a time), averaged fixed points over the 8 symmetries.
fn burnside(n: usize, length: usize, apples: usize) -> usize {
    let cells: Vec<Pos> = (0..n).flat_map(|x| (0..n).map(move |y| (x, y))).collect();
    let mut bodies: Vec<Vec<Pos>> = cells.iter().map(|&c| vec![c]).collect();
    for _ in 1..length {
        bodies = bodies
            .into_iter()
            .flat_map(|b| {
                let (x, y) = *b.last().unwrap();
                cells
                    .iter()
                    .filter(|&&c| x.abs_diff(c.0) + y.abs_diff(c.1) == 1 && !b.contains(&c))
                    .map(|&c| {
                        let mut next = b.clone();
                        next.push(c);
                        next
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let mut placements: Vec<Vec<Pos>> = bodies;
    for _ in 0..apples {
        placements = placements
            .into_iter()
            .flat_map(|p| {
                cells
                    .iter()
                    .filter(|c| !p.contains(c))
                    .map(|&c| {
                        let mut next = p.clone();
                        next.push(c);
                        next
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
    }
    let group = square_symmetries(n);
    let fixed: usize = group
        .iter()
        .map(|g| {
            placements
                .iter()
                .filter(|p| p.iter().map(|&c| g(c)).collect::<Vec<_>>() == **p)
                .count()
        })
        .sum();
    assert_eq!(fixed % 8, 0);
    fixed / 8
}

#[test]
fn all_enumerates_one_instance_per_class_as_burnside_counts() {
    // A 3×3 board, a two-cell snake, one apple: 22 classes (by hand: 168
    // placements, 8 fixed by the two mid-line mirrors, (168 + 8) / 8).
    assert_eq!(burnside(3, 2, 1), 22);
    for (length, apples) in [(2, 1), (1, 2)] {
        let dir = temp_dir(&format!("all-{length}-{apples}"));
        let (l, a) = (length.to_string(), apples.to_string());
        let run = generate(
            &dir,
            &[
                "--all",
                "--size",
                "3",
                "--length",
                &l,
                "--apples",
                &a,
                "--start",
                "body",
                "--horizons",
                "T*",
            ],
        );
        let expected = burnside(3, length, apples);
        // Enumerated, not drawn: the note says so.
        assert!(
            run.stderr
                .contains(&format!("of {expected} distinct instances enumerated;")),
            "{}",
            run.stderr
        );
        let s = summary(&dir, "summary.json");
        assert_eq!(
            (s.distinct, s.duplicates, s.mode.as_str()),
            (expected, 0, "all")
        );
        assert_eq!(s.instances + s.unsolvable, expected);
        let instances: Vec<IndexRow> = rows(&dir, "index.jsonl")
            .into_iter()
            .filter(|r| r.kind == "instance")
            .collect();
        assert_eq!(instances.len(), s.instances);
        assert_no_symmetric_pair(&dir, &instances);
    }
}

#[test]
fn ranges_of_size_and_visible_keep_every_class() {
    // Two apples on 3×3 behind a two-cell snake: 126 classes with one
    // visible, 66 with both (each counted by --all). One apple: 2 classes on
    // 2×2, 22 on 3×3. A range holds their sum: instances on another board or
    // with another `visible` are not duplicates, even with the same cells.
    for (name, args, singles) in [
        (
            "visible-range",
            [
                "--size",
                "3",
                "--apples",
                "2",
                "--visible",
                "1..2",
                "--count",
                "192",
            ],
            [
                ["--size", "3", "--visible", "1"],
                ["--size", "3", "--visible", "2"],
            ],
        ),
        (
            "size-range",
            [
                "--size",
                "2..3",
                "--apples",
                "1",
                "--visible",
                "1",
                "--count",
                "24",
            ],
            [
                ["--size", "2", "--visible", "1"],
                ["--size", "3", "--visible", "1"],
            ],
        ),
    ] {
        let common = [
            "--length",
            "2",
            "--start",
            "body",
            "--horizons",
            "T*",
            "--seed",
            "1",
        ];
        let mut expected = 0;
        for single in singles {
            let dir = temp_dir(&format!("{name}-all"));
            let apples = &args[2..4];
            generate(
                &dir,
                &[&["--all"], &single[..], apples, &common[..]].concat(),
            );
            expected += summary(&dir, "summary.json").distinct;
        }
        let count: usize = args[7].parse().unwrap();
        assert_eq!(expected, count);
        let dir = temp_dir(name);
        generate(&dir, &[&args[..], &common[..]].concat());
        let s = summary(&dir, "summary.json");
        assert_eq!(s.distinct, count);
        assert_eq!(s.draws, count + s.duplicates + s.invalid);
        let instances: Vec<IndexRow> = rows(&dir, "index.jsonl")
            .into_iter()
            .filter(|r| r.kind == "instance")
            .collect();
        assert_eq!(instances.len() + s.unsolvable, count);
        assert_no_symmetric_pair(&dir, &instances);
    }
}

fn assert_no_symmetric_pair(dir: &Path, instances: &[IndexRow]) {
    let mut classes = HashSet::new();
    for r in instances {
        let text = std::fs::read_to_string(dir.join(&r.file)).unwrap();
        let instance = from_json(&text).unwrap();
        assert_eq!(canonical(&instance), instance, "{} is canonical", r.file);
        assert!(
            classes.insert(format!("{:?}", canonical(&instance))),
            "{} repeats a class",
            r.file
        );
    }
}

#[test]
fn a_family_is_labelled_checked_and_reproducible() {
    let dir = temp_dir("family");
    let args = [
        "--size", "3x3..4x4", "--apples", "1..3", "--length", "1..3", "--count", "12", "--seed",
        "4",
    ];
    generate(&dir, &args);
    let index = rows(&dir, "index.jsonl");
    let s = summary(&dir, "summary.json");
    assert_eq!(s.distinct, 12);
    assert_eq!(s.draws, 12 + s.duplicates + s.invalid);
    assert_eq!(s.instances + s.unsolvable, 12);
    assert_eq!(s.files, index.len());
    let instances: Vec<IndexRow> = index
        .iter()
        .filter(|r| r.kind == "instance")
        .cloned()
        .collect();
    assert_eq!(instances.len(), s.instances);
    assert_no_symmetric_pair(&dir, &instances);
    // The CSV lists the same files.
    let csv = std::fs::read_to_string(dir.join("index.csv")).unwrap();
    assert_eq!(csv.lines().count(), index.len() + 1);
    for r in &instances {
        // T* from an independent breadth-first search.
        let instance = from_json(&std::fs::read_to_string(dir.join(&r.file)).unwrap()).unwrap();
        assert_eq!(least_moves(&instance, 40), Some(r.t_star), "{}", r.file);
        assert!(r.lower_bound <= r.t_star);
        assert!(
            r.command
                .starts_with("snakesat generate --size 3x3..4x4 --apples 1..3")
        );
    }
    for r in &index {
        let bytes = std::fs::read(dir.join(&r.file)).unwrap();
        assert_eq!(sha256_hex(&bytes), r.sha256, "{}", r.file);
        if r.kind == "cnf" {
            let h = r.horizon.unwrap();
            let expected = if h == r.t_star { "sat" } else { "unsat" };
            assert_eq!(r.status.as_deref(), Some(expected), "{}", r.file);
            assert!(h == r.t_star || h + 1 == r.t_star);
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.contains(&format!("c status {expected}\n")));
            assert!(text.contains(&format!(
                "p cnf {} {}\n",
                r.variables.unwrap(),
                r.clauses.unwrap()
            )));
        }
    }
    // Every CNF has its T* and T*-1 file (T* = 1 has no T*-1 = 0 file).
    for r in &instances {
        let cnfs = index
            .iter()
            .filter(|c| c.id == r.id && c.kind == "cnf")
            .count();
        assert_eq!(cnfs, if r.t_star == 1 { 1 } else { 2 }, "{}", r.id);
    }
    // The same command, again: the same bytes, timing aside.
    let again = temp_dir("family-again");
    generate(&again, &args);
    assert_eq!(
        without_timing(&rows(&again, "index.jsonl")),
        without_timing(&index)
    );
    assert_eq!(summary(&again, "summary.json"), s);
    agree_with_minisat(&dir, &index);
}

/// The command recorded in the index and the summary, run as it is
/// written (split at spaces), writes the same family: it left out the seed
/// of `--all` (the rows said 5, the rerun wrote 1) and kept the spaces of a
/// value (`--solve-seconds "0 ..10"` became two arguments, exit 2).
#[test]
fn the_recorded_command_regenerates_the_family() {
    let dir = temp_dir("recorded");
    let settings: [&[&str]; 2] = [
        &[
            "--all", "--size", "3", "--apples", "1", "--length", "2", "--seed", "5",
        ],
        &[
            "--size",
            "4",
            "--apples",
            "2",
            "--count",
            "3",
            "--seed",
            "7",
            "--solve-seconds",
            "0 ..10",
            "--timeout",
            " 30",
        ],
    ];
    for (n, args) in settings.iter().enumerate() {
        let first = dir.join(format!("first-{n}"));
        generate(&first, args);
        let s = summary(&first, "summary.json");
        let recorded: Vec<&str> = s.command.split(' ').collect();
        assert_eq!(&recorded[..2], ["snakesat", "generate"], "{}", s.command);
        let again = dir.join(format!("again-{n}"));
        generate(&again, &recorded[2..]);
        assert_eq!(
            without_timing(&rows(&again, "index.jsonl")),
            without_timing(&rows(&first, "index.jsonl")),
            "{}",
            s.command
        );
        assert_eq!(summary(&again, "summary.json"), s, "{}", s.command);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/slurm-sweep.sh` with a stand-in `sbatch` that runs the array's
/// tasks here, one after the other (the real cluster is `tests/slurm/run.sh`,
/// CI only). A task that reached a limit (exit 3, `unknown` rows) but wrote
/// its table no longer fails the sweep: the shards are merged, the unknown
/// rows kept, and the script exits 3 (it exited 3 with nothing merged). An
/// `OUT` holding an earlier sweep is refused before any task runs (it was
/// refused by `merge` after the whole array).
#[test]
fn the_sweep_script_merges_limits_and_refuses_an_earlier_sweep() {
    let dir = temp_dir("sweep-script");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let sbatch = bin.join("sbatch");
    std::fs::write(
        &sbatch,
        r#"#!/usr/bin/env bash
array=""; log=""
while [ $# -gt 1 ]; do
  case "$1" in
    --array=*) array="${1#--array=}"; shift ;;
    -o) log="$2"; shift 2 ;;
    *) shift ;;
  esac
done
echo "$array" >> "$(dirname "$0")/submitted"
failed=0
for t in $(seq "${array%-*}" "${array#*-}"); do
  SLURM_ARRAY_TASK_ID=$t bash "$1" > "${log//%a/$t}" 2>&1 || failed=1
done
exit $failed
"#,
    )
    .unwrap();
    let status = Command::new("chmod")
        .arg("+x")
        .arg(&sbatch)
        .status()
        .unwrap();
    assert!(status.success());
    let problems = dir.join("problems");
    std::fs::create_dir_all(&problems).unwrap();
    let ipc = Path::new(env!("CARGO_MANIFEST_DIR")).join("benchmarks/ipc2018-snake/optimal");
    // Problem 1 is proven at once; 19 is left unknown within a second (with
    // `body=block`, whose least-horizon search has no satisficing fallback).
    for n in [1, 19] {
        let name = format!("instance-{n}.pddl");
        std::fs::copy(ipc.join(&name), problems.join(&name)).unwrap();
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    // (bash found on the test's PATH: the child's PATH would be searched.)
    let bash = std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|folder| folder.join("bash"))
        .find(|candidate| candidate.is_file())
        .expect("bash on the PATH");
    let sweep_on = |path: &std::ffi::OsStr, out: &Path, command: &[&str]| {
        let done = Command::new(&bash)
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm-sweep.sh"))
            .args(["-k", "2", "-o", out.to_str().unwrap(), "--"])
            .args(command)
            .env("PATH", path)
            .env("SNAKESAT", env!("CARGO_BIN_EXE_snakesat"))
            .output()
            .unwrap();
        (
            done.status.code().unwrap(),
            String::from_utf8_lossy(&done.stderr).into_owned(),
        )
    };
    let sweep = |out: &Path, command: &[&str]| sweep_on(path.as_ref(), out, command);
    let submitted = || {
        std::fs::read_to_string(bin.join("submitted"))
            .unwrap_or_default()
            .lines()
            .count()
    };
    let out = dir.join("bench");
    let bench = [
        "bench",
        problems.to_str().unwrap(),
        "--timeout",
        "1",
        "--encoding",
        "direct,body=block",
    ];
    let (code, stderr) = sweep(&out, &bench);
    assert_eq!(code, 3, "{stderr}");
    assert!(stderr.contains("reached a limit"), "{stderr}");
    let table = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let statuses: Vec<&str> = table
        .lines()
        .skip(1)
        .map(|line| line.split(',').nth(3).unwrap())
        .collect();
    assert_eq!(statuses, ["sat", "unknown"], "{table}");
    assert_eq!(submitted(), 1);
    let (code, stderr) = sweep(&out, &bench);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("an earlier sweep"), "{stderr}");
    assert_eq!(submitted(), 1, "refused before submitting");

    let family = dir.join("family");
    let generate = ["generate", "--size", "4", "--apples", "2", "--count", "4"];
    let (code, stderr) = sweep(&family, &generate);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(summary(&family.join("family"), "summary.json").instances, 4);
    let (code, stderr) = sweep(&family, &generate);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(submitted(), 2);

    // Without sbatch on the PATH: refused at once, and no OUT made (the
    // array "failed", exit 3, leaving empty folders).
    let empty = dir.join("no-slurm");
    std::fs::create_dir_all(&empty).unwrap();
    let lone = dir.join("lone");
    let (code, stderr) = sweep_on(empty.as_os_str(), &lone, &generate);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.starts_with("error: sbatch not found"), "{stderr}");
    assert!(!lone.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every CNF label against an independent solver (CI installs minisat).
fn agree_with_minisat(dir: &Path, index: &[IndexRow]) {
    if Command::new("minisat").arg("--help").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "minisat is required in CI (.ci/run installs it)"
        );
        eprintln!("minisat not installed: labels not cross-checked");
        return;
    }
    let mut checked = 0;
    for r in index.iter().filter(|r| r.kind == "cnf") {
        let out = Command::new("minisat")
            .arg(dir.join(&r.file))
            .output()
            .unwrap();
        let code = match r.status.as_deref() {
            Some("sat") => 10,
            Some("unsat") => 20,
            other => panic!("label {other:?}"),
        };
        assert_eq!(out.status.code(), Some(code), "minisat on {}", r.file);
        checked += 1;
    }
    assert!(checked >= 12);
}

/// `generate -o DIR` never mixes two families: a folder holding anything is
/// refused (nothing in it changes), except that shards of one command share
/// a folder; a shard of another command, another shard count, or beside a
/// whole family is refused.
#[test]
fn an_earlier_family_is_not_mixed_with_a_new_one() {
    let dir = temp_dir("earlier");
    let first = dir.join("first");
    generate(
        &first,
        &[
            "--size", "4", "--apples", "2", "--count", "3", "--seed", "3",
        ],
    );
    let listing = |d: &Path| {
        let mut names: Vec<(String, Vec<u8>)> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                (
                    e.file_name().to_string_lossy().into_owned(),
                    std::fs::read(e.path()).unwrap(),
                )
            })
            .collect();
        names.sort();
        names
    };
    let before = listing(&first);
    let run = |out: &Path, extra: &[&str]| {
        let mut all = vec![
            "generate",
            "-o",
            out.to_str().unwrap(),
            "--size",
            "4",
            "--apples",
            "2",
        ];
        all.extend_from_slice(extra);
        snakesat(&all)
    };
    let again = run(&first, &["--count", "2", "--seed", "5"]);
    assert_bad_input(&again, "is not empty");
    assert!(
        again.stderr.contains(first.to_str().unwrap()),
        "{}",
        again.stderr
    );
    assert_eq!(listing(&first), before, "nothing written");

    let shards = dir.join("shards");
    let x = ["--count", "4", "--seed", "3"];
    for shard in ["1/2", "2/2", "1/2"] {
        let mut a = x.to_vec();
        a.extend(["--shard", shard]);
        assert_eq!(run(&shards, &a).code, 0, "{shard}");
    }
    for (extra, needle) in [
        (
            &["--count", "4", "--seed", "4", "--shard", "1/2"][..],
            "another command",
        ),
        (&["--count", "4", "--seed", "3", "--shard", "1/3"], "not 3"),
    ] {
        assert_bad_input(&run(&shards, extra), needle);
    }
    assert_bad_input(
        &run(&first, &["--count", "3", "--seed", "3", "--shard", "1/2"]),
        "a whole family",
    );
    assert_eq!(listing(&first), before, "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two runs into one new folder: the check that the folder is empty comes
/// before the work, so both passed it and both wrote, and the folder held
/// one run's index beside the other's files (both exited 0). Now the folder
/// is claimed by a lock file created exclusively: exactly one run writes,
/// the other fails with exit 2, and the folder holds exactly the files its
/// index lists. A folder holding a lock (a run in progress, or one killed
/// outright) is refused by `generate`, a shard and `merge`, naming it.
#[test]
fn two_runs_into_one_folder_do_not_mix() {
    let dir = temp_dir("two-runs");
    for round in 0..3 {
        let out = dir.join(format!("family-{round}"));
        let start = |seed: &str| {
            Command::new(env!("CARGO_BIN_EXE_snakesat"))
                .args(["generate", "-q", "-o", out.to_str().unwrap()])
                .args(["--size", "5..7", "--apples", "3..6", "--count", "60"])
                .args(["--seed", seed])
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        };
        let runs = [start("1"), start("2")];
        let mut codes: Vec<(i32, String)> = runs
            .into_iter()
            .map(|child| {
                let done = child.wait_with_output().unwrap();
                (
                    done.status.code().unwrap(),
                    String::from_utf8_lossy(&done.stderr).into_owned(),
                )
            })
            .collect();
        codes.sort();
        assert_eq!(codes[0].0, 0, "{codes:?}");
        assert_eq!(codes[1].0, 2, "{codes:?}");
        assert!(
            codes[1].1.contains("being written by another") || codes[1].1.contains("is not empty"),
            "{codes:?}"
        );
        let index = rows(&out, "index.jsonl");
        let mut listed: Vec<String> = index.iter().map(|r| r.file.clone()).collect();
        listed.extend(["index.csv", "index.jsonl", "summary.json"].map(String::from));
        if names_in(&out).contains(&"hardness.svg".to_string()) {
            listed.push("hardness.svg".into());
        }
        listed.sort();
        assert_eq!(names_in(&out), listed, "round {round}");
        for row in &index {
            let bytes = std::fs::read(out.join(&row.file)).unwrap();
            assert_eq!(sha256_hex(&bytes), row.sha256, "{}", row.file);
        }
    }
    // A lock left in a folder (a run in progress, or killed outright).
    let locked = dir.join("locked");
    std::fs::create_dir(&locked).unwrap();
    std::fs::write(locked.join(".snakesat-generate.lock"), "").unwrap();
    let small = ["--size", "4", "--apples", "2", "--count", "2"];
    for extra in [&[][..], &["--shard", "1/2"]] {
        let mut args = vec!["generate", "-o", locked.to_str().unwrap()];
        args.extend(small);
        args.extend(extra);
        assert_bad_input(&snakesat(&args), ".snakesat-generate.lock");
    }
    let shards = dir.join("shards");
    two_shards(&shards);
    assert!(
        !names_in(&shards).iter().any(|n| n.ends_with(".lock")),
        "{:?}",
        names_in(&shards)
    );
    let merged = snakesat(&[
        "merge",
        shards.to_str().unwrap(),
        "-o",
        locked.to_str().unwrap(),
    ]);
    assert_bad_input(&merged, "being written by another");
    assert_eq!(names_in(&locked), [".snakesat-generate.lock"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--proof` writes a DRAT proof beside every unsat CNF file and none beside
/// a sat one, each listed in the index with its hash; `rate` verifies them
/// all through the shipped script, which fails once a proof is cut; a
/// second run writes the same proofs.
#[test]
fn proofs_certify_every_unsat_file() {
    let dir = temp_dir("proofs");
    let again = temp_dir("proofs-again");
    let args = [
        "--size",
        "5",
        "--count",
        "4",
        "--seed",
        "3",
        "--walls",
        "0..2",
        "--horizons",
        "T*,T*-1,T*-2,T*+1",
        "--encoding",
        "direct,direct,prune=off",
        "--proof",
    ];
    generate(&dir, &args);
    generate(&again, &args);
    let index = rows(&dir, "index.jsonl");
    let proofs: Vec<&IndexRow> = index.iter().filter(|r| r.kind == "proof").collect();
    let unsat: Vec<&IndexRow> = index
        .iter()
        .filter(|r| r.kind == "cnf" && r.status.as_deref() == Some("unsat"))
        .collect();
    assert!(unsat.len() >= 8, "{} unsat files", unsat.len());
    assert_eq!(proofs.len(), unsat.len());
    for cnf in &unsat {
        let name = format!("{}.drat", cnf.file.strip_suffix(".cnf").unwrap());
        let proof = proofs
            .iter()
            .find(|p| p.file == name)
            .unwrap_or_else(|| panic!("no proof row for {}", cnf.file));
        assert_eq!(
            (&proof.encoding, proof.horizon, proof.status.as_deref()),
            (&cnf.encoding, cnf.horizon, Some("unsat"))
        );
        let bytes = std::fs::read(dir.join(&name)).unwrap();
        assert!(!bytes.is_empty());
        assert_eq!(sha256_hex(&bytes), proof.sha256, "{name}");
    }
    let drat_files = names_in(&dir)
        .into_iter()
        .filter(|n| n.ends_with(".drat"))
        .count();
    assert_eq!(drat_files, proofs.len(), "a proof file without its row");
    assert_eq!(
        without_timing(&index),
        without_timing(&rows(&again, "index.jsonl"))
    );
    assert!(summary(&dir, "summary.json").command.ends_with(" --proof"));
    if !have_checker() {
        return;
    }
    let script = format!("{}/scripts/check-proofs.sh", env!("CARGO_MANIFEST_DIR"));
    let check = || {
        Command::new("bash")
            .arg(&script)
            .arg(&dir)
            .output()
            .unwrap()
    };
    let ok = check();
    let stdout = String::from_utf8_lossy(&ok.stdout);
    assert!(ok.status.success(), "{stdout}");
    assert!(
        stdout.contains(&format!("checked {} proof(s)", proofs.len()))
            && stdout.contains(" 0 failed"),
        "{stdout}"
    );
    // (The largest proof: a formula refuted by unit propagation alone, as a
    // pruned one below the lower bound, is verified whatever its proof.)
    let largest = proofs
        .iter()
        .max_by_key(|p| std::fs::metadata(dir.join(&p.file)).unwrap().len())
        .unwrap();
    let cut = dir.join(&largest.file);
    let bytes = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let bad = check();
    let stdout = String::from_utf8_lossy(&bad.stdout);
    assert_eq!(bad.status.code(), Some(1), "{stdout}");
    let cnf = dir.join(largest.file.replace(".drat", ".cnf"));
    assert!(
        stdout.contains(&format!("FAILED     {}", cnf.display())),
        "{stdout}"
    );
}

#[test]
fn shards_merge_into_the_single_run() {
    let single = temp_dir("single");
    let shards = temp_dir("shards");
    let merged = temp_dir("merged");
    // (With the proofs of `--proof`, which are files of the family too.)
    let args = [
        "--size", "4", "--apples", "2..3", "--count", "7", "--seed", "2", "--proof",
    ];
    generate(&single, &args);
    for i in 1..=3 {
        let shard = format!("{i}/3");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard]);
        generate(&shards, &a);
    }
    assert!(!shards.join("index.csv").exists());
    // A shard missing is refused.
    let partial = temp_dir("partial");
    for f in [
        "summary-1-of-3.json",
        "index-1-of-3.jsonl",
        "index-1-of-3.csv",
    ] {
        std::fs::copy(shards.join(f), partial.join(f)).unwrap();
    }
    let run = snakesat(&[
        "merge",
        "-o",
        merged.to_str().unwrap(),
        partial.to_str().unwrap(),
    ]);
    assert_bad_input(&run, "shards 1/3..3/3 once each, got 1/3, missing 2/3, 3/3");
    let run = snakesat(&[
        "merge",
        "-o",
        merged.to_str().unwrap(),
        shards.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let strip = |dir: &Path| -> Vec<String> {
        std::fs::read_to_string(dir.join("index.csv"))
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(strip(&merged), strip(&single));
    assert_eq!(
        std::fs::read(merged.join("summary.json")).unwrap(),
        std::fs::read(single.join("summary.json")).unwrap()
    );
    for r in rows(&single, "index.jsonl") {
        assert_eq!(
            std::fs::read(merged.join(&r.file)).unwrap(),
            std::fs::read(single.join(&r.file)).unwrap(),
            "{}",
            r.file
        );
    }
    assert!(merged.join("hardness.svg").exists());
}

/// The names in folder `dir`, sorted; empty when it does not exist.
fn names_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// `generate --shard 1/2` and `2/2` of a small family into `dir`.
fn two_shards(dir: &Path) {
    for shard in ["1/2", "2/2"] {
        generate(
            dir,
            &[
                "--size", "4", "--apples", "2", "--count", "4", "--shard", shard,
            ],
        );
    }
}

/// The shards 1/3..3/3 of a small family in one folder `dir`.
fn three_shards(dir: &Path) {
    for i in 1..=3 {
        let shard = format!("{i}/3");
        generate(
            dir,
            &[
                "--size", "4", "--apples", "2..3", "--count", "7", "--seed", "2", "--shard", &shard,
            ],
        );
    }
}

/// A folder that holds no shard (a whole family, an empty folder), a
/// folder given twice and a path that does not exist were merged with exit
/// 0 (the first three silently skipped) or refused for the wrong reason:
/// each is refused now, naming it, and nothing is written.
#[test]
fn merge_refuses_folders_that_are_not_shards_and_folders_given_twice() {
    let dir = temp_dir("merge-not-shards");
    let shards = dir.join("shards");
    two_shards(&shards);
    let whole = dir.join("whole");
    generate(&whole, &["--size", "4", "--apples", "2", "--count", "4"]);
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    let out = dir.join("out");
    let (shards, whole, empty) = (
        shards.to_str().unwrap(),
        whole.to_str().unwrap(),
        empty.to_str().unwrap(),
    );
    let missing = format!("{shards}-missing");
    let index = format!("{shards}/index-1-of-2.csv");
    for (inputs, needle) in [
        // A shard's index for the shard: the message names its folder.
        (
            vec![index.as_str()],
            format!("a shard of `generate --shard` is given as its folder, {shards}"),
        ),
        (
            vec![whole, shards],
            format!("{whole} holds no summary-I-of-K.json"),
        ),
        (
            vec![shards, empty],
            format!("{empty} holds no summary-I-of-K.json"),
        ),
        (vec![shards, shards], format!("{shards} is given twice")),
        (
            vec![shards, missing.as_str()],
            format!("cannot read {missing}: no such file or folder"),
        ),
    ] {
        let mut args = vec!["merge", "-o", out.to_str().unwrap()];
        args.extend(&inputs);
        assert_bad_input(&snakesat(&args), &needle);
        assert!(!out.exists(), "{inputs:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_merge_that_fails_leaves_nothing_behind() {
    let dir = temp_dir("merge-fails");
    let shards = dir.join("shards");
    three_shards(&shards);
    // The last file of shard 3's index no longer matches its hash: nothing
    // is copied, whether the output folder is new (also its missing parent)
    // or exists empty (it stays, empty).
    let last = rows(&shards, "index-3-of-3.jsonl").pop().unwrap();
    let mut bytes = std::fs::read(shards.join(&last.file)).unwrap();
    bytes.extend_from_slice(b"c x\n");
    std::fs::write(shards.join(&last.file), &bytes).unwrap();
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    for out in [dir.join("new/merged"), empty.clone()] {
        let run = snakesat(&[
            "merge",
            "-o",
            out.to_str().unwrap(),
            shards.to_str().unwrap(),
        ]);
        assert_bad_input(&run, "does not match the SHA-256 of its index");
        assert_eq!(names_in(&dir), ["empty", "shards"], "{}", out.display());
        assert!(names_in(&empty).is_empty());
    }
    bytes.truncate(bytes.len() - 4);
    std::fs::write(shards.join(&last.file), &bytes).unwrap();

    // A file that cannot be written once others are: its name (a long one,
    // as the shard's index says) makes its path too long in the output
    // folder but not in the shard's. The files copied before it, the output
    // folder and its parents created are removed again.
    let single = dir.join("single");
    generate(
        &single,
        &[
            "--size", "4", "--apples", "2", "--count", "3", "--shard", "1/1",
        ],
    );
    let mut index = rows(&single, "index-1-of-1.jsonl");
    let long = format!("{}.cnf", "x".repeat(250));
    let renamed = index.last_mut().unwrap();
    std::fs::rename(single.join(&renamed.file), single.join(&long)).unwrap();
    renamed.file = long.clone();
    std::fs::write(single.join("index-1-of-1.jsonl"), to_jsonl(&index)).unwrap();
    std::fs::write(single.join("index-1-of-1.csv"), to_csv(&index)).unwrap();
    // Deep enough that the output folder's path is 3,900 bytes long.
    let base = dir.join("deep");
    let mut out = base.clone();
    while out.as_os_str().len() < 3_700 {
        out = out.join("d".repeat(200));
    }
    let out = out.join("d".repeat(3_900 - out.as_os_str().len() - 1));
    let run = snakesat(&[
        "merge",
        "-o",
        out.to_str().unwrap(),
        single.to_str().unwrap(),
    ]);
    assert_bad_input(&run, &long);
    assert!(!base.exists(), "{}", run.stderr);
    // An index naming a file outside its folder, or one file twice, is
    // refused before anything is written.
    let merged = dir.join("merged");
    let last = index.len() - 1;
    for (name, needle) in [
        ("../escape.cnf", "is not a file name in its folder"),
        (index[0].file.as_str(), "is listed twice"),
    ] {
        let mut bad = index.clone();
        bad[last].file = name.to_string();
        std::fs::write(single.join("index-1-of-1.jsonl"), to_jsonl(&bad)).unwrap();
        std::fs::write(single.join("index-1-of-1.csv"), to_csv(&bad)).unwrap();
        let run = snakesat(&[
            "merge",
            "-o",
            merged.to_str().unwrap(),
            single.to_str().unwrap(),
        ]);
        assert_bad_input(&run, needle);
        assert!(!merged.exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A shard whose index was emptied, cut short or lost its CSV twin was
/// merged (exit 0) into a family whose summary counted the files it lost;
/// a corrupt `index-I-of-K.csv` went unnoticed. Each shard's index must now
/// list what its summary counts, and its CSV index be its JSON Lines index
/// as `generate` writes it: otherwise exit 2 naming the shard's file, and
/// no output folder.
#[test]
fn a_shard_index_that_disagrees_with_its_summary_or_csv_is_refused() {
    let dir = temp_dir("merge-damaged");
    let shards = dir.join("shards");
    two_shards(&shards);
    let out = dir.join("out");
    let merge = || {
        snakesat(&[
            "merge",
            "-o",
            out.to_str().unwrap(),
            shards.to_str().unwrap(),
        ])
    };
    let jsonl = shards.join("index-1-of-2.jsonl");
    let csv = shards.join("index-1-of-2.csv");
    let (good_jsonl, good_csv) = (std::fs::read(&jsonl).unwrap(), std::fs::read(&csv).unwrap());
    let rows = from_jsonl(&String::from_utf8(good_jsonl.clone()).unwrap()).unwrap();
    let counts = summary(&shards, "summary-1-of-2.json");
    assert!(counts.files > 1 && counts.instances > 0);
    let counted = format!(
        "summary-1-of-2.json counts {} files and {} instances",
        counts.files, counts.instances
    );
    // An emptied index, then one without its last file.
    std::fs::write(&jsonl, "").unwrap();
    let run = merge();
    assert_bad_input(
        &run,
        "index-1-of-2.jsonl lists 0 files and 0 instances, but ",
    );
    assert!(run.stderr.contains(&counted), "{}", run.stderr);
    assert!(!out.exists());
    let short = &rows[..rows.len() - 1];
    std::fs::write(&jsonl, to_jsonl(short)).unwrap();
    std::fs::write(&csv, to_csv(short)).unwrap();
    assert_bad_input(&merge(), &counted);
    assert!(!out.exists());
    std::fs::write(&jsonl, &good_jsonl).unwrap();
    // A corrupt, emptied, edited or missing CSV index.
    let mut edited = good_csv.clone();
    let at = edited.len() / 2;
    edited[at] = if edited[at] == b'7' { b'8' } else { b'7' };
    for bytes in [
        b"\x00\xff\xfeGIF89a binary".to_vec(),
        Vec::new(),
        edited,
        good_csv[..good_csv.len() - 1].to_vec(),
    ] {
        std::fs::write(&csv, &bytes).unwrap();
        assert_bad_input(&merge(), "index-1-of-2.csv does not agree with");
        assert!(!out.exists());
    }
    std::fs::remove_file(&csv).unwrap();
    assert_bad_input(&merge(), "cannot read");
    assert!(!out.exists());
    std::fs::write(&csv, &good_csv).unwrap();
    // A count beyond 64 bits in the summary is named as written, with its
    // line, not as serde's floating-point `1e+23`.
    let summary_path = shards.join("summary-1-of-2.json");
    let good_summary = std::fs::read_to_string(&summary_path).unwrap();
    let huge = good_summary.replacen(
        &format!("\"draws\": {}", counts.draws),
        "\"draws\": 99999999999999999999999",
        1,
    );
    assert_ne!(huge, good_summary);
    std::fs::write(&summary_path, huge).unwrap();
    let run = merge();
    assert_bad_input(
        &run,
        "the number 99999999999999999999999 is too large (at most ",
    );
    assert!(
        run.stderr.contains("summary-1-of-2.json: line "),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("1e+23"), "{}", run.stderr);
    assert!(!out.exists());
    std::fs::write(&summary_path, &good_summary).unwrap();
    // Restored, the shards merge.
    let run = merge();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(summary(&out, "summary.json").instances, 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A FIFO in place of a shard's file (an instance, or its index) is refused
/// naming it: merge opened it and waited for a writer forever.
#[test]
fn merge_refuses_a_fifo_in_a_shard_folder() {
    let dir = temp_dir("merge-fifo");
    let shards = dir.join("shards");
    two_shards(&shards);
    let out = dir.join("out");
    let listed = rows(&shards, "index-1-of-2.jsonl").pop().unwrap().file;
    for name in [listed.as_str(), "index-1-of-2.csv"] {
        let path = shards.join(name);
        let bytes = std::fs::read(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let made = Command::new("mkfifo").arg(&path).status().unwrap();
        assert!(made.success());
        let run = support::snakesat_within(
            &[
                "merge",
                "-o",
                out.to_str().unwrap(),
                shards.to_str().unwrap(),
            ],
            std::time::Duration::from_secs(30),
        );
        assert_bad_input(&run, &format!("{name} is not a regular file"));
        assert!(!out.exists());
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, bytes).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merge_writes_into_a_new_or_empty_folder_only() {
    let dir = temp_dir("merge-out");
    let shards = dir.join("shards");
    three_shards(&shards);
    let shard_files = names_in(&shards);
    // An unrelated family, and the shards' own folder: refused, untouched.
    let old = dir.join("old");
    generate(
        &old,
        &[
            "--size", "4", "--apples", "2", "--count", "3", "--seed", "9",
        ],
    );
    let old_files = names_in(&old);
    let merge = |out: &Path| {
        snakesat(&[
            "merge",
            "-o",
            out.to_str().unwrap(),
            shards.to_str().unwrap(),
        ])
    };
    assert_bad_input(
        &merge(&old),
        "is not empty (it holds hardness.svg): merge writes a family into a new or empty folder",
    );
    assert_eq!(names_in(&old), old_files);
    for own in [shards.clone(), shards.join(".")] {
        assert_bad_input(&merge(&own), "it is also an input of this command");
    }
    assert_eq!(names_in(&shards), shard_files);
    // A file is not a folder.
    let file = dir.join("file");
    std::fs::write(&file, "").unwrap();
    assert_bad_input(&merge(&file), "exists and is not a folder");
    // A new folder, or an empty one, takes the family.
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    for out in [dir.join("new"), empty] {
        let run = merge(&out);
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(
            names_in(&out).len(),
            summary(&out, "summary.json").files + 4,
            "the files of the index, the index, the summary and the chart"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The settings of a family that takes seconds to write (thousands of files).
const LONG: [&str; 8] = [
    "--size", "6", "--apples", "3..5", "--count", "3000", "--seed", "3",
];

/// Starts `generate -o out` on [`LONG`] (with `extra` flags), sends `signal`
/// once `out` holds 30 files more than `before` and checks that the process
/// dies of it.
fn interrupted_generate(out: &Path, extra: &[&str], before: usize, signal: &str, number: i32) {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(["generate", "-q", "-o", out.to_str().unwrap()])
        .args(LONG)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    let status = support::interrupt_when(
        &mut child,
        || names_in(out).len() >= before + 30,
        "30 files written",
        std::time::Duration::from_secs(600),
        signal,
    );
    assert_eq!(status.signal(), Some(number), "{status:?}");
}

/// An interrupted `generate` removes the files it wrote (they had no index,
/// and the rerun refused the folder they filled) and the folders it created;
/// an existing folder stays, and so do the files of a finished shard in it.
#[test]
fn an_interrupted_generate_leaves_the_folder_as_it_found_it() {
    let dir = temp_dir("gen-interrupted");
    let new = dir.join("new");
    // (With `--proof`: its proofs are removed too.)
    interrupted_generate(&new.join("family"), &["--proof"], 0, "-INT", 2);
    assert!(!new.exists(), "left: {:?}", names_in(&new));
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    interrupted_generate(&empty, &[], 0, "-TERM", 15);
    assert_eq!(names_in(&empty), Vec::<String>::new());
    generate(
        &empty,
        &[
            "--size", "4", "--apples", "2", "--count", "3", "--seed", "9",
        ],
    );
    assert_eq!(summary(&empty, "summary.json").instances, 3);
    // Shard 1/2 finished, shard 2/2 interrupted in the same folder.
    let shared = dir.join("shared");
    let mut first = vec!["--shard", "1/2"];
    first.extend_from_slice(&LONG);
    generate(&shared, &first);
    let finished = names_in(&shared);
    interrupted_generate(&shared, &["--shard", "2/2"], finished.len(), "-HUP", 1);
    assert_eq!(names_in(&shared), finished);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_encoding_spelled_twice_is_written_once() {
    // Three spellings of `direct` (its defaults given or not) and
    // `direct,prune=off` twice: two encodings, each CNF written and indexed
    // once, the summary's count true, in one run and merged from shards.
    let dir = temp_dir("encodings-once");
    let list = "direct,direct,prune=on,direct,prune=off,direct,amo=sequential,body=auto,prune=off";
    let args = [
        "--size",
        "4",
        "--apples",
        "2",
        "--count",
        "3",
        "--encoding",
        list,
    ];
    let single = dir.join("single");
    let mut all = vec!["generate", "-o", single.to_str().unwrap()];
    all.extend(args);
    let run = snakesat(&all);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "--encoding: dropped `direct,prune=on` (direct), `direct,amo=sequential,body=auto,prune=off` \
             (direct,prune=off): each spells an encoding listed before it"
        ),
        "{}",
        run.stderr
    );
    let shards = dir.join("shards");
    for i in 1..=2 {
        let shard = format!("{i}/2");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard]);
        generate(&shards, &a);
    }
    let merged = dir.join("merged");
    let run = snakesat(&[
        "merge",
        "-o",
        merged.to_str().unwrap(),
        shards.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for family in [&single, &merged] {
        let index = rows(family, "index.jsonl");
        let files: HashSet<&str> = index.iter().map(|r| r.file.as_str()).collect();
        assert_eq!(files.len(), index.len(), "each file listed once");
        let s = summary(family, "summary.json");
        assert_eq!(s.files, index.len());
        // Per instance: its JSON, and each encoding at T* and T*-1.
        assert_eq!(s.files, s.instances * 5);
        assert_eq!(names_in(family).len(), s.files + 4);
        assert!(
            s.command
                .contains("--encoding direct,direct,prune=off --horizons"),
            "{}",
            s.command
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pddl_problems_read_back_and_solve_to_t_star() {
    let dir = temp_dir("pddl");
    generate(
        &dir,
        &[
            "--format",
            "pddl",
            "--size",
            "4x3..5x4",
            "--fill",
            "50..60",
            "--count",
            "3",
            "--horizons",
            "T*",
        ],
    );
    let index = rows(&dir, "index.jsonl");
    let problems: Vec<&IndexRow> = index.iter().filter(|r| r.kind == "pddl").collect();
    assert_eq!(problems.len(), summary(&dir, "summary.json").instances);
    assert!(!problems.is_empty());
    for r in problems {
        assert_eq!(
            (r.tail.as_str(), r.start.as_str(), r.length),
            ("strict", "body", 2)
        );
        let file = dir.join(&r.file);
        let run = snakesat(&["solve", file.to_str().unwrap(), "--json"]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(report["horizon"], r.t_star, "{}", r.file);
    }
}

/// Walls that shut a free cell in cannot be written as a problem file (a
/// cell without `ISADJACENT` links reads back as a wall): `--format pddl`
/// redraws them. Seed 2 of this setting drew walls at (0,1) and (1,0) around
/// the free corner (0,0), and the run ended with exit 3 ("reads back to
/// another instance"), writing nothing; 10 of 40 seeds did. With `--all`
/// such instances are left out.
#[test]
fn pddl_families_redraw_walls_that_shut_a_cell_in() {
    let shut_in = |instance: &serde_json::Value| {
        let (w, h) = (
            instance["width"].as_i64().unwrap(),
            instance["height"].as_i64().unwrap(),
        );
        let walls: Vec<(i64, i64)> = instance["walls"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_i64().unwrap(), p[1].as_i64().unwrap()))
            .collect();
        (0..w).any(|x| {
            (0..h).any(|y| {
                !walls.contains(&(x, y))
                    && [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().all(|(dx, dy)| {
                        let n = (x + dx, y + dy);
                        n.0 < 0 || n.1 < 0 || n.0 >= w || n.1 >= h || walls.contains(&n)
                    })
            })
        })
    };
    for (i, seed) in ["2", "3", "4", "5", "6"].into_iter().enumerate() {
        let dir = temp_dir(&format!("pddl-shut-in-{i}"));
        generate(
            &dir,
            &[
                "--format",
                "pddl",
                "--size",
                "4",
                "--apples",
                "3",
                "--walls",
                "3",
                "--count",
                "5",
                "--seed",
                seed,
                "--horizons",
                "T*",
            ],
        );
        let s = summary(&dir, "summary.json");
        assert!(s.instances > 0);
        for r in rows(&dir, "index.jsonl")
            .iter()
            .filter(|r| r.kind == "json")
        {
            let text = std::fs::read_to_string(dir.join(&r.file)).unwrap();
            let instance: serde_json::Value = serde_json::from_str(&text).unwrap();
            assert!(!shut_in(&instance), "{}: {text}", r.file);
        }
    }
    // Every 3x3 instance with two walls and a 2-cell body, once: those whose
    // walls shut a corner in are invalid, the rest written.
    let dir = temp_dir("pddl-shut-in-all");
    generate(
        &dir,
        &[
            "--format",
            "pddl",
            "--size",
            "3",
            "--apples",
            "1",
            "--walls",
            "2",
            "--length",
            "2",
            "--all",
            "--horizons",
            "T*",
        ],
    );
    let s = summary(&dir, "summary.json");
    assert!(s.invalid > 0 && s.instances > 0, "{s:?}");
}

#[test]
fn bad_parameters_are_one_line_errors() {
    let dir = temp_dir("bad");
    let out = dir.to_str().unwrap();
    const MAX: &str = "18446744073709551615";
    let cases: &[(&[&str], &str)] = &[
        (
            &["--max-horizon", "0"],
            "'0' for '--max-horizon <MAX_HORIZON>': must be a whole number of moves in 1..=100000",
        ),
        (
            &["--max-horizon", "abc"],
            "'abc' for '--max-horizon <MAX_HORIZON>': must be a whole number of moves in 1..=100000",
        ),
        // A horizon is at least 1 move; K is digits after one sign.
        (&["--horizons", "T*,0"], "0 is not a horizon"),
        (
            &["--horizons", "T*+-1"],
            "is not T*, T*-K, T*+K or a number",
        ),
        (&["--horizons", "T*5"], "is not T*, T*-K, T*+K or a number"),
        // Sums of huge values do not wrap (they panicked); settings that
        // cannot fit are named, not reported as too few classes.
        (
            &["--walls", MAX],
            "--walls 18446744073709551615, --apples 3 and --length 3 do not fit on 6x6, the largest board of --size",
        ),
        (&["--apples", MAX], "--apples 18446744073709551615 and"),
        (
            &["--length", MAX],
            "--length 18446744073709551615 do not fit",
        ),
        (&["--walls", MAX, "--fill", "50"], "--fill 50 and"),
        // Walls beside a full board: no draw could fit (it was 100,000
        // rejected draws and "try --all", which refuses --fill).
        (
            &["--size", "5", "--walls", "2", "--fill", "100"],
            "--walls 2, --fill 100 and --length 3 do not fit on 5x5",
        ),
        // The fill is what the grown snake covers.
        (&["--fill", "50", "--no-grow"], "it needs growth"),
        // A family with no CNF file at all (it was written, exit 0).
        (&["--encoding", ""], "names no encoding"),
        (&["--encoding", " , "], "names no encoding"),
        // So is the top of a range (it was 100,000 rejected draws, then
        // "try --all", which ranges refuse).
        (
            &["--apples", &format!("1..{MAX}")],
            "--apples 1..18446744073709551615: its top, 18446744073709551615, does not fit on 6x6",
        ),
        (
            &["--size", "4", "--walls", &format!("0..{MAX}")],
            "--walls 0..18446744073709551615: its top",
        ),
        (
            &["--size", "4..5", "--length", "1..30"],
            "--length 1..30: its top, 30, does not fit on 5x5",
        ),
        (&["--size", "2"], "do not fit on 2x2"),
        (
            &["--all", "--size", "3", "--apples", "1", "--walls", MAX],
            "do not fit on 3x3",
        ),
        (
            &["--all", "--size", "3", "--apples", MAX],
            "do not fit on 3x3",
        ),
        // Above instance::MAX_HORIZON (100,000): refused before any solve.
        (
            &["--horizons", "T*+100000"],
            "above the horizon cap of 100000",
        ),
        (
            &["--horizons", "T*,100001"],
            "above the horizon cap of 100000",
        ),
        // Counted in closed form before anything is built (this setting
        // took 7 GB and 22 s to be refused).
        (
            &["--all", "--size", "6", "--apples", "5"],
            "more than 5000000 instances",
        ),
        // Rules no instance may break are named at once, as `solve` names
        // them (they were 100,000 rejected draws, then "fewer classes").
        (
            &["--visible", "0"],
            "visible must be at least 1 when there are apples",
        ),
        (
            &["--visible", "0..2", "--apples", "0..2"],
            "visible must be at least 1 when there are apples",
        ),
        (
            &["--all", "--size", "4", "--apples", "2", "--visible", "0"],
            "visible must be at least 1 when there are apples",
        ),
        (&["--length", "0"], "snake length must be at least 1"),
        (&["--length", "0..2"], "snake length must be at least 1"),
        (
            &["--all", "--size", "3", "--length", "0", "--apples", "1"],
            "snake length must be at least 1",
        ),
        (&["--size", "5..3"], "size range"),
        (&["--apples", "3..x"], "--apples"),
        (&["--count", "2000000"], "larger than the limit"),
        (&["--encoding", "notebook-mvp1"], "approximate"),
        (&["--format", "pddl", "--tail", "follow"], "IPC-2018"),
        (&["--all", "--size", "3..4"], "single value for --size"),
        // Beyond the encoding's limits: no timeout, whatever --timeout says.
        (
            &["--size", "1000", "--count", "1", "--apples", "2"],
            "a 1000x1000 instance does not fit: encoding direct",
        ),
        // More apples than an instance may have, by count or by fill (every
        // draw was rejected, and sampling gave up after seconds, saying the
        // setting may have too few classes).
        (
            &["--size", "400", "--count", "1", "--apples", "150000"],
            "150000 apples is beyond the limit of 100000",
        ),
        (
            &["--size", "400", "--count", "1", "--fill", "100"],
            "159997 apples is beyond the limit of 100000",
        ),
        (
            &["--size", "400", "--all", "--apples", "150000"],
            "150000 apples is beyond the limit of 100000",
        ),
        // --all enumerates every class: a count would be ignored.
        (
            &["--all", "--count", "5", "--size", "3", "--apples", "1"],
            "'--all' cannot be used with '--count <COUNT>'",
        ),
    ];
    for (args, needle) in cases {
        let mut all = vec!["generate", "-o", out];
        all.extend_from_slice(args);
        let started = std::time::Instant::now();
        assert_bad_input(&snakesat(&all), needle);
        assert!(
            started.elapsed().as_secs_f64() < 5.0,
            "{args:?} is refused at once"
        );
    }
    // No apple needs none visible: fine, and written as FORMATS.md allows.
    let none = temp_dir("no-apples");
    for visible in ["0", "all"] {
        generate(
            &none,
            &[
                "--size",
                "3",
                "--apples",
                "0",
                "--visible",
                visible,
                "--count",
                "1",
                "--horizons",
                "T*",
            ],
        );
        let file = &rows(&none, "index.jsonl")[0].file;
        let text = std::fs::read_to_string(none.join(file)).unwrap();
        assert!(text.contains(r#""visible":"all""#), "{text}");
        std::fs::remove_dir_all(&none).unwrap();
    }
    let run = snakesat(&[
        "generate", "-o", out, "--size", "2", "--apples", "1", "--length", "1", "--count", "5",
    ]);
    assert_bad_input(&run, "fewer than 5 classes");
    // The domain cannot move a one-cell snake (no nextsnake fact).
    let run = snakesat(&[
        "generate", "-o", out, "--format", "pddl", "--length", "1", "--size", "4",
    ]);
    assert_bad_input(&run, "at least two cells");
}

/// The CSV without the given (0-based) columns; no field holds a comma.
fn drop_columns(text: &str, timing: &[usize]) -> Vec<String> {
    text.lines()
        .map(|l| {
            let fields: Vec<&str> = l
                .split(',')
                .enumerate()
                .filter(|(i, _)| !timing.contains(i))
                .map(|(_, f)| f)
                .collect();
            fields.join(",")
        })
        .collect()
}

#[test]
fn bench_shards_merge_into_the_single_table() {
    let dir = temp_dir("bench-shards");
    let d = |name: &str| dir.join(name).to_str().unwrap().to_string();
    // bench game: seconds, build_seconds and solve_seconds are the timing columns.
    let game = [
        "bench",
        "game",
        "--sizes",
        "4,5",
        "--games",
        "2",
        "--reuse",
        "clauses,fresh",
    ];
    let mut single = game.to_vec();
    let all = d("game-all.csv");
    single.extend(["--csv-out", &all]);
    assert_eq!(snakesat(&single).code, 0);
    let mut shards = Vec::new();
    for i in 1..=3 {
        let (shard, csv) = (format!("{i}/3"), d(&format!("game-{i}.csv")));
        let mut a = game.to_vec();
        a.extend(["--shard", &shard, "--csv-out", &csv]);
        assert_eq!(snakesat(&a).code, 0);
        shards.push(csv);
    }
    let merged = d("game-merged.csv");
    let mut m = vec!["merge", "-o", &merged];
    m.extend(shards.iter().map(String::as_str));
    assert_eq!(snakesat(&m).code, 0);
    let read = |p: &str| std::fs::read_to_string(p).unwrap();
    assert_eq!(read(&merged).lines().count(), 9);
    assert_eq!(
        drop_columns(&read(&merged), &[6, 7, 8]),
        drop_columns(&read(&all), &[6, 7, 8])
    );
    // Every row of a shard's table names its settings and its shard (two
    // last columns `settings` and `shard`, dropped by merge): shards in the
    // wrong order, repeated or missing are refused, whether or not their row
    // counts would fit.
    let shard_csv = read(&shards[0]);
    assert!(
        shard_csv
            .lines()
            .next()
            .unwrap()
            .ends_with(",settings,shard")
    );
    assert!(shard_csv.lines().skip(1).all(|l| l.ends_with(",1/3")));
    for given in [
        [2, 0, 1].as_slice(),
        &[0, 0, 0],
        &[1, 0, 2],
        &[0, 1],
        &[0, 2],
    ] {
        let mut wrong = vec!["merge", "-o", &merged];
        wrong.extend(given.iter().map(|&i| shards[i].as_str()));
        assert_bad_input(&snakesat(&wrong), "expected shards 1/3..3/3 once each");
    }
    // A shard of the same sweep played with other settings that the rows do
    // not show (here --timeout) is refused, naming the flag.
    let other = d("game-2-timeout.csv");
    let mut a = game.to_vec();
    a.extend(["--shard", "2/3", "--timeout", "30", "--csv-out", &other]);
    assert_eq!(snakesat(&a).code, 0);
    let mut mixed = vec!["merge", "-o", &merged, &shards[0], &other, &shards[2]];
    let run = snakesat(&mixed);
    assert_bad_input(&run, "was run with other settings than");
    assert!(
        run.stderr.contains("timeout=30 against timeout=60"),
        "{}",
        run.stderr
    );
    mixed[4] = &shards[1];
    assert_eq!(snakesat(&mixed).code, 0);
    // Cells a bench never writes (a table edited by hand) are refused,
    // naming the row and column; so is a bad `shard` cell, naming the file.
    // (Both were merged with exit 0.)
    let first = read(&shards[0]);
    let row: Vec<&str> = first.lines().nth(1).unwrap().split(',').collect();
    for (column, value, expected) in [
        (3, "maybe", "column won holds \"maybe\", not true or false"),
        (
            4,
            "-7",
            "column steps holds \"-7\", not a whole number or nothing",
        ),
        (
            6,
            "NaN",
            "column seconds holds \"NaN\", not a number of seconds",
        ),
        (
            10,
            "1.5",
            "column cuts holds \"1.5\", not a whole number or nothing",
        ),
        (12, "x/3", "a row's shard \"x/3\" is not I/K"),
    ] {
        let mut cells = row.clone();
        let column = if column == 12 {
            cells.len() - 1
        } else {
            column
        };
        cells[column] = value;
        let edited = first.replacen(&row.join(","), &cells.join(","), 1);
        let file = d("edited-1.csv");
        std::fs::write(&file, edited).unwrap();
        let run = snakesat(&["merge", "-o", &merged, &file, &shards[1], &shards[2]]);
        assert_bad_input(&run, expected);
        // The file and its line, not the row's place among the merged rows
        // (which left the user to work out the shard).
        if value == "x/3" {
            assert!(run.stderr.contains("edited-1.csv"), "{}", run.stderr);
        } else {
            assert!(
                run.stderr.contains("edited-1.csv line 2: column"),
                "{}",
                run.stderr
            );
        }
    }
    // A row cut short (only its key columns, or only the shard columns) or
    // broken by an unclosed quote is refused, naming it (the first panicked
    // in the check of the seeds' order; the second was merged as an empty
    // line).
    let settings_and_shard = row[row.len() - 2..].join(",");
    for short in [
        format!("{},{},{settings_and_shard}", row[0], row[1]),
        settings_and_shard.clone(),
        format!("\"{}", row.join(",")),
    ] {
        let edited = first.replacen(&row.join(","), &short, 1);
        let file = d("short-1.csv");
        std::fs::write(&file, edited).unwrap();
        let run = snakesat(&["merge", "-o", &merged, &file, &shards[1], &shards[2]]);
        assert!(
            run.code == 2 && run.stderr.lines().count() == 1,
            "{short}: {}",
            run.stderr
        );
        assert!(run.stderr.contains("short-1.csv line 2"), "{}", run.stderr);
    }
    // A table without rows names no shard and no settings: one from another
    // sweep (here an empty shard 3/3 of a one-game sweep) standing for a
    // shard with rows was merged, losing that shard's games. The settings
    // give the sweep's rows (sizes × strategies × games), so it is refused;
    // so are tables none of which has a row.
    let empty = d("other-3.csv");
    let a = [
        "bench",
        "game",
        "--sizes",
        "6",
        "--games",
        "1",
        "--shard",
        "3/3",
        "--csv-out",
        &empty,
    ];
    assert_eq!(snakesat(&a).code, 0);
    assert_eq!(read(&empty).lines().count(), 1);
    let lost = vec!["merge", "-o", &merged, &shards[0], &shards[1], &empty];
    assert_bad_input(
        &snakesat(&lost),
        "the shards hold 6 rows where their settings give 8",
    );
    assert_bad_input(
        &snakesat(&["merge", "-o", &merged, &empty, &empty]),
        "no table has a row",
    );
    // Files that are not shard tables are refused, naming the file, and
    // nothing is written: tables without the shard columns, the JSON of a
    // shard (`--json-out`), any text whose first lines agree.
    std::fs::remove_file(&merged).unwrap();
    let untagged: Vec<String> = shards
        .iter()
        .map(|p| {
            let text: String = read(p)
                .lines()
                .map(|l| format!("{}\n", l.rsplitn(3, ',').nth(2).unwrap()))
                .collect();
            let out = format!("{p}.plain.csv");
            std::fs::write(&out, text).unwrap();
            out
        })
        .collect();
    let mut jsons = Vec::new();
    for i in 1..=3 {
        let (shard, json) = (format!("{i}/3"), d(&format!("game-{i}.json")));
        let mut a = game.to_vec();
        a.extend(["--shard", &shard, "--json-out", &json]);
        assert_eq!(snakesat(&a).code, 0);
        jsons.push(json);
    }
    let (t1, t2) = (d("t1.txt"), d("t2.txt"));
    std::fs::write(&t1, "h\n1\n2\n").unwrap();
    std::fs::write(&t2, "h\n3\n").unwrap();
    for (inputs, bad) in [
        (&untagged[..], &untagged[0]),
        (&jsons[..], &jsons[0]),
        (&[t1.clone(), t2][..], &t1),
        (
            &[shards[0].clone(), jsons[1].clone(), shards[2].clone()][..],
            &jsons[1],
        ),
    ] {
        let mut m = vec!["merge", "-o", &merged];
        m.extend(inputs.iter().map(String::as_str));
        let run = snakesat(&m);
        assert_bad_input(
            &run,
            &format!("{bad} is not a CSV file of `bench --shard` or `bench game --shard`"),
        );
        assert!(!Path::new(&merged).exists(), "{inputs:?}");
    }

    // bench on IPC problems (a generated PDDL family): seconds and peak memory vary.
    let problems = dir.join("problems");
    generate(
        &problems,
        &[
            "--format",
            "pddl",
            "--size",
            "3x3..4x3",
            "--fill",
            "50",
            "--count",
            "3",
            "--horizons",
            "T*",
        ],
    );
    for f in std::fs::read_dir(&problems).unwrap().flatten() {
        if !f.file_name().to_string_lossy().ends_with(".pddl") {
            std::fs::remove_file(f.path()).unwrap();
        }
    }
    let p = problems.to_str().unwrap();
    let all = d("ipc-all.csv");
    assert_eq!(snakesat(&["bench", p, "--csv-out", &all]).code, 0);
    let (one, two) = (d("ipc-1.csv"), d("ipc-2.csv"));
    assert_eq!(
        snakesat(&["bench", p, "--shard", "1/2", "--csv-out", &one]).code,
        0
    );
    assert_eq!(
        snakesat(&["bench", p, "--shard", "2/2", "--csv-out", &two]).code,
        0
    );
    let merged = d("ipc-merged.csv");
    assert_bad_input(
        &snakesat(&["merge", "-o", &merged, &one, &one]),
        "expected shards 1/2..2/2 once each, got 1/2, 1/2",
    );
    assert_bad_input(
        &snakesat(&["merge", "-o", &merged, &two, &one]),
        "expected shards",
    );
    assert_bad_input(
        &snakesat(&["merge", "-o", &merged, &one]),
        "expected shards",
    );
    // Another encoding (its name's comma kept out of the CSV) is refused.
    let tail = d("ipc-2-tail.csv");
    let a = [
        "bench",
        p,
        "--shard",
        "2/2",
        "--encoding",
        "direct,body=tail",
    ];
    assert_eq!(snakesat(&[&a[..], &["--csv-out", &tail]].concat()).code, 0);
    assert!(read(&tail).lines().skip(1).all(|l| l.ends_with(",2/2")));
    assert_bad_input(
        &snakesat(&["merge", "-o", &merged, &one, &tail]),
        "encoding=direct;body=tail against encoding=direct",
    );
    // A table of `bench game` among them: named as another command's (it
    // was "run with other settings").
    assert_bad_input(
        &snakesat(&["merge", "-o", &merged, &one, &shards[1]]),
        "ipc-1.csv is a table of `bench` and",
    );
    assert_eq!(snakesat(&["merge", "-o", &merged, &one, &two]).code, 0);
    assert_eq!(read(&merged).lines().count(), 4);
    assert_eq!(
        drop_columns(&read(&merged), &[8, 11]),
        drop_columns(&read(&all), &[8, 11])
    );
}

/// `T*-K` below 1 move on some instance writes no CNF for it, and says so:
/// counted in `skipped_cnfs` of the summary (per encoding) and in a note.
#[test]
fn horizons_below_one_move_are_counted_and_noted() {
    let dir = temp_dir("below-one");
    let run = snakesat(&[
        "generate",
        "-o",
        dir.to_str().unwrap(),
        "--size",
        "4",
        "--apples",
        "2",
        "--count",
        "3",
        "--horizons",
        "T*,T*-100,T*-100,T*-200",
        "--encoding",
        "direct,direct,prune=off",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let s = summary(&dir, "summary.json");
    assert_eq!(s.instances, 3);
    // Two distinct horizons below 1 move, two encodings, three instances.
    assert_eq!(s.skipped_cnfs, 12);
    assert_eq!(s.files, 3 + 3 * 2);
    assert!(
        run.stderr
            .contains("skipped 12 CNF file(s) whose horizon T*-K is below 1 move"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hardness_bands_keep_what_the_timeout_allows() {
    let dir = temp_dir("band");
    let args = [
        "--size", "4", "--apples", "2", "--count", "4", "--seed", "3",
    ];
    // Every solve ends within --timeout 60, so a band from 0 to 60 s keeps
    // every instance and a band from 61 s keeps none.
    for (band, kept) in [("0..60", 4), ("61..100", 0)] {
        let mut a = args.to_vec();
        a.extend(["--solve-seconds", band]);
        let out = dir.join(band);
        generate(&out, &a);
        let s = summary(&out, "summary.json");
        assert_eq!((s.instances, s.out_of_band), (kept, 4 - kept), "{band}");
        assert!(s.command.ends_with(&format!(
            "--solve-seconds {band} --timeout 60 --max-horizon 300"
        )));
    }
    let mut a = args.to_vec();
    a.extend(["--solve-seconds", "0..60", "--horizons", "T*"]);
    let mut all = vec!["generate", "-o", dir.to_str().unwrap()];
    all.extend(a);
    assert_bad_input(&snakesat(&all), "T*-1 among --horizons");
}

/// A family of no instance is refused (it was written, empty, with exit 0).
#[test]
fn a_family_of_no_instance_is_refused() {
    let dir = temp_dir("count-0");
    let out = dir.join("family");
    let run = snakesat(&["generate", "-o", out.to_str().unwrap(), "--count", "0"]);
    assert_bad_input(
        &run,
        "--count 0 draws no instance: a family needs at least one",
    );
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's sample of the index ("Benchmark families") is what its
/// command writes: every row shown, column for column (the SHA-256 cut
/// short, the solve times left out: they vary).
#[test]
fn the_readmes_index_sample_is_what_the_command_writes() {
    let dir = temp_dir("readme-family");
    let out = dir.join("fam");
    generate(
        &out,
        &[
            "--size", "4..6", "--apples", "2..5", "--count", "200", "--seed", "9",
        ],
    );
    let index = std::fs::read_to_string(out.join("index.csv")).unwrap();
    let mut lines = index.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let table: Vec<Vec<&str>> = readme
        .lines()
        .skip_while(|l| !l.starts_with("| id | file | kind |"))
        .take_while(|l| l.starts_with('|'))
        .map(|l| l.trim_matches('|').split('|').map(str::trim).collect())
        .collect();
    assert!(table.len() > 3, "the README has the sample");
    let columns = &table[0];
    for (shown, line) in table[2..].iter().zip(lines) {
        // (No field before `command` holds a comma.)
        let fields: Vec<&str> = line.split(',').collect();
        for (name, value) in columns.iter().zip(shown) {
            let at = header.iter().position(|h| h == name).unwrap();
            match *name {
                "solve_seconds" => {}
                "sha256" => assert!(
                    fields[at].starts_with(value.trim_end_matches('…')),
                    "{line}"
                ),
                _ => assert_eq!(fields[at], *value, "{name} of {line}"),
            }
        }
    }
    let summary = summary(&out, "summary.json");
    let shown = format!(
        "\"draws\": {}, \"duplicates\": {}, \"invalid\": {}, \"instances\":\n{}, ",
        summary.draws, summary.duplicates, summary.invalid, summary.instances
    );
    assert!(readme.contains(&shown), "the README's summary: {shown}");
    assert!(readme.contains(&format!("\"files\": {}}}", summary.files)));
}
