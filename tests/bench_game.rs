//! `snakesat bench game` on 4x4 boards (fast): the table, JSON, CSV and
//! chart files, shards that add up to the whole sweep, threads that change
//! nothing but the times, one-line errors for bad flags, and `bench DIR…`
//! still parsing beside the subcommand.

#[path = "support/cli.rs"]
mod support;
use support::{Run, assert_bad_input, snakesat, temp_dir};

use std::collections::BTreeSet;
use std::path::Path;

/// Runs `snakesat bench game ARGS...` and asserts exit 0.
fn bench_game(args: &[&str]) -> Run {
    let mut all = vec!["bench", "game"];
    all.extend_from_slice(args);
    let run = snakesat(&all);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    run
}

fn path(dir: &Path, name: &str) -> String {
    dir.join(name).to_string_lossy().into_owned()
}

/// The data lines of a CSV file, after checking its header; a shard's
/// table has two last columns `settings` and `shard` (`I/K` on every
/// line), dropped here.
fn csv_lines(file: &str) -> Vec<String> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let shard = header.ends_with(",settings,shard");
    assert_eq!(
        header.strip_suffix(",settings,shard").unwrap_or(header),
        "size,reuse,seed,won,steps,eaten,seconds,build_seconds,solve_seconds,solver_calls,cuts,shortest_possible,least_safe,timeouts"
    );
    lines
        .map(|l| match shard {
            true => l.rsplitn(3, ',').nth(2).unwrap().to_string(),
            false => l.to_string(),
        })
        .collect()
}

/// A CSV line without its time columns (seconds, build_seconds, solve_seconds).
fn without_times(line: &str) -> String {
    let fields: Vec<&str> = line.split(',').collect();
    assert_eq!(fields.len(), 14, "{line}");
    [&fields[..6], &fields[9..]].concat().join(",")
}

#[test]
fn all_strategies_write_table_json_csv_and_chart() {
    let dir = temp_dir("all");
    let (json, csv, plot) = (
        path(&dir, "g.json"),
        path(&dir, "g.csv"),
        path(&dir, "steps.svg"),
    );
    let run = bench_game(&[
        "--sizes",
        "4",
        "--games",
        "3",
        "--reuse",
        "all",
        "--json-out",
        &json,
        "--csv-out",
        &csv,
        "--plot-steps",
        &plot,
    ]);
    // The Markdown table: a header, a rule and one row per strategy.
    let table: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(table.len(), 2 + 5, "{}", run.stdout);
    assert!(table[0].starts_with("| grid | reuse | games | won |"));
    for name in ["fresh", "clauses", "activation", "assumptions", "nogoods"] {
        assert!(
            table
                .iter()
                .any(|l| l.starts_with(&format!("| 4x4 | {name} | 3 | 3 |"))),
            "{name}: {}",
            run.stdout
        );
    }

    let text = std::fs::read_to_string(&json).unwrap();
    // (A file ends with a newline, as `--json` on stdout does.)
    assert!(text.ends_with("}\n"), "{text:?}");
    let report: serde_json::Value = serde_json::from_str(&text).unwrap();
    let rows = report["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    for row in rows {
        assert_eq!(row["grid"], "4x4");
        assert_eq!(row["games"], 3);
        assert_eq!(row["won"], 3, "{row}");
        assert!(row["mean_steps"].as_f64().unwrap() >= 15.0);
        let pct = row["mean_shortest_percent"].as_f64().unwrap();
        assert!((0.0..=100.0).contains(&pct));
    }
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 15);
    for game in games {
        assert_eq!(game["won"], true);
        assert_eq!(game["eaten"], 15);
        assert!(game.get("apples").is_none(), "no per-apple list: {game}");
    }
    assert_eq!(report["settings"]["reuse"].as_array().unwrap().len(), 5);

    let lines = csv_lines(&csv);
    assert_eq!(lines.len(), 15);
    assert!(lines.iter().all(|l| l.starts_with("4x4,")));
    assert!(lines.iter().all(|l| l.split(',').nth(3) == Some("true")));

    let svg = std::fs::read_to_string(&plot).unwrap();
    assert!(svg.contains("<svg"));
    assert!(svg.contains("4x4, reuse=nogoods"), "one line per strategy");
}

#[test]
fn shards_together_are_the_whole_sweep() {
    let dir = temp_dir("shards");
    let sweep = [
        "--sizes",
        "4,3x4",
        "--games",
        "3",
        "--reuse",
        "fresh,nogoods",
    ];
    let run_csv = |name: &str, extra: &[&str]| {
        let file = path(&dir, name);
        let mut args = sweep.to_vec();
        args.extend_from_slice(&["--csv-out", &file]);
        args.extend_from_slice(extra);
        bench_game(&args);
        csv_lines(&file)
            .iter()
            .map(|l| without_times(l))
            .collect::<Vec<_>>()
    };
    let whole = run_csv("whole.csv", &[]);
    let first = run_csv("first.csv", &["--shard", "1/2"]);
    assert!(
        std::fs::read_to_string(path(&dir, "first.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .all(|l| l.ends_with(",1/2"))
    );
    let second = run_csv("second.csv", &["--shard", "2/2"]);
    assert_eq!(whole.len(), 12);
    assert_eq!(first.len() + second.len(), whole.len());
    let union: BTreeSet<&String> = first.iter().chain(&second).collect();
    assert_eq!(union.len(), whole.len(), "the shards do not overlap");
    assert_eq!(union, whole.iter().collect::<BTreeSet<_>>());
    // A shard past the end of a short list plays nothing, and says so with an empty CSV.
    let empty = run_csv("empty.csv", &["--shard", "13/13"]);
    assert!(empty.is_empty());
}

/// A shard with no games (more shards than games) still writes its CSV and
/// JSON when charts are asked for: the charts, with nothing to draw, are
/// left out with a note, and the run exits 0.
#[test]
fn an_empty_shard_writes_its_tables_and_skips_its_charts() {
    let dir = temp_dir("empty-shard");
    let (csv, json, steps, time) = (
        path(&dir, "e.csv"),
        path(&dir, "e.json"),
        path(&dir, "e.svg"),
        path(&dir, "e.png"),
    );
    let run = bench_game(&[
        "--sizes",
        "4",
        "--games",
        "2",
        "--shard",
        "3/3",
        "--csv-out",
        &csv,
        "--json-out",
        &json,
        "--plot-steps",
        &steps,
        "--plot-time",
        &time,
    ]);
    assert!(csv_lines(&csv).is_empty());
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(doc["games"].as_array().unwrap().len(), 0);
    for chart in [&steps, &time] {
        assert!(!Path::new(chart).exists(), "{chart}");
        assert!(
            run.stderr.contains(&format!(
                "no games in this run, so no chart: {chart} not written"
            )),
            "{}",
            run.stderr
        );
    }
}

/// A size or strategy given twice (also through `all`) plays once, and a
/// note says so.
#[test]
fn repeated_sizes_and_strategies_play_once_with_a_note() {
    let run = bench_game(&[
        "--sizes",
        "4,4x4,3x4",
        "--games",
        "1",
        "--reuse",
        "all,fresh",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["games"].as_array().unwrap().len(), 2 * 5);
    for note in [
        "bench game: --sizes gives 4x4 twice: its games are played once",
        "bench game: --reuse gives fresh twice: its games are played once",
    ] {
        assert!(run.stderr.contains(note), "{}", run.stderr);
    }
    assert_eq!(run.stderr.lines().count(), 2, "{}", run.stderr);
    // Without repeats, no note.
    let run = bench_game(&["--sizes", "4", "--games", "1", "--reuse", "all", "--json"]);
    assert_eq!(run.stderr, "");
    // Bad input gets one line, its error, and no note before it.
    let run = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "4,4",
        "--reuse",
        "fresh,fresh",
        "--games",
        "0",
    ]);
    assert_bad_input(&run, "--games must be at least 1");
}

#[test]
fn threads_change_no_game() {
    let dir = temp_dir("jobs");
    let steps = |jobs: &str| {
        let file = path(&dir, &format!("jobs{jobs}.csv"));
        bench_game(&[
            "--sizes",
            "4",
            "--games",
            "4",
            "--reuse",
            "assumptions,clauses",
            "--jobs",
            jobs,
            "--csv-out",
            &file,
        ]);
        csv_lines(&file)
            .iter()
            .map(|l| without_times(l))
            .collect::<Vec<_>>()
    };
    let one = steps("1");
    assert_eq!(one.len(), 8);
    assert_eq!(steps("2"), one, "same games, same order");
}

#[test]
fn time_chart_and_png() {
    let dir = temp_dir("png");
    let (steps, time) = (path(&dir, "s.png"), path(&dir, "t.svg"));
    bench_game(&[
        "--sizes",
        "4",
        "--games",
        "2",
        "--plot-steps",
        &steps,
        "--plot-time",
        &time,
    ]);
    let png = std::fs::read(&steps).unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    assert!(std::fs::read_to_string(&time).unwrap().contains("seconds"));
}

#[test]
fn bad_flags_are_refused_with_one_line_before_any_game() {
    let dir = temp_dir("bad");
    let missing = path(&dir, "no-such-dir/g.csv");
    let cases: [(&[&str], &str); 15] = [
        (&["--sizes", "0"], "--sizes: board side 0 is out of range"),
        (&["--sizes", "4x"], "--sizes: '' is not a board side"),
        (&["--sizes", "4,65"], "board side 65 is out of range"),
        (&["--shard", "3/2"], "--shard must be I/K"),
        (&["--shard", "0/2"], "--shard must be I/K"),
        (&["--shard", "1/0"], "--shard must be I/K"),
        (&["--jobs", "0"], "--jobs must be at least 1"),
        // One thread per job: 20,000 panicked, a thread failing to start.
        (
            &["--jobs", "20000"],
            "--jobs 20000 is larger than the limit 256",
        ),
        (&["--games", "0"], "--games must be at least 1"),
        // Refused before the list of games is built (it aborted out of memory).
        (&["--games", "100000000"], "more than the limit 1000000"),
        (
            &["--games", "400000", "--reuse", "all"],
            "with 5 reuse strategies is 2000000 games",
        ),
        (&["--reuse", "bogus"], "unknown --reuse 'bogus'"),
        (&["--timeout", "0"], "--timeout"),
        (&["--csv-out", &missing], "cannot write"),
        (&["--plot-steps", "steps.gif"], ".svg or .png"),
    ];
    for (flags, needle) in cases {
        // A tiny sweep, should a bad flag pass unnoticed.
        let mut args = vec!["bench", "game"];
        for (flag, value) in [("--sizes", "4"), ("--games", "1")] {
            if !flags.contains(&flag) {
                args.extend_from_slice(&[flag, value]);
            }
        }
        args.extend_from_slice(flags);
        assert_bad_input(&snakesat(&args), needle);
    }
    assert!(!dir.join("no-such-dir").exists());
}

#[test]
fn bench_folders_still_parse_beside_the_subcommand() {
    let help = snakesat(&["bench", "--help"]);
    assert_eq!(help.code, 0);
    assert!(help.stdout.contains("<DIRS>..."), "{}", help.stdout);
    assert!(help.stdout.contains("game"), "{}", help.stdout);
    let help = snakesat(&["bench", "some-folder", "--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    let help = snakesat(&["bench", "game", "--help"]);
    assert_eq!(help.code, 0, "{}", help.stderr);
    assert!(help.stdout.contains("--shard <I/K>"), "{}", help.stdout);
    // DIR… mode: a folder without problems, and a missing one, are bad input.
    let empty = temp_dir("empty");
    assert_bad_input(
        &snakesat(&["bench", &empty.to_string_lossy()]),
        "no .pddl problem files",
    );
    assert_bad_input(
        &snakesat(&["bench", "no-such-folder", "--timeout", "5"]),
        "cannot read no-such-folder",
    );
    // A FIFO named like a problem blocked the run forever, before any row
    // (its `--timeout` not yet running), and a name with a line break split
    // its row: both are skipped, with a note (here, in the error: nothing else).
    let odd = temp_dir("odd-names");
    let fifo = odd.join("instance-2.pddl");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    std::fs::copy("tests/data/tiny-3x2.pddl", odd.join("instance-\n1.pddl")).unwrap();
    let run = snakesat(&["bench", &odd.to_string_lossy(), "--timeout", "5"]);
    assert_bad_input(
        &run,
        "no .pddl problem files in the folders given (skipped ",
    );
    assert!(
        run.stderr.contains("instance-2.pddl: not a regular file"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("instance-\\n1.pddl\": its name holds a control character"),
        "{}",
        run.stderr
    );
    std::fs::copy("tests/data/tiny-3x2.pddl", odd.join("instance-3.pddl")).unwrap();
    let run = snakesat(&["bench", &odd.to_string_lossy(), "--timeout", "5"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout.lines().filter(|l| l.contains(".pddl")).count(),
        1,
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    // Folders and the subcommand do not mix; no folder at all is a usage error.
    assert_eq!(snakesat(&["bench"]).code, 2);
    assert_eq!(snakesat(&["bench", "game", "--games", "1", "x"]).code, 2);
}

#[test]
fn bench_exits_1_when_every_problem_is_answered_and_some_unsat() {
    // A cluster task that answers succeeds (exit 0 or 1), as for `solve`;
    // only a problem without an answer fails it (3). tiny-3x2 needs 2 moves.
    let dir = temp_dir("bench-unsat");
    std::fs::copy("tests/data/tiny-3x2.pddl", dir.join("a.pddl")).unwrap();
    let folder = dir.to_string_lossy().to_string();
    let code = |horizon: &str| snakesat(&["bench", &folder, "--max-horizon", horizon, "-q"]).code;
    assert_eq!(code("2"), 0);
    assert_eq!(code("1"), 1);
    std::fs::write(dir.join("b.pddl"), "(define (problem broken)").unwrap();
    assert_eq!(code("2"), 3);
    assert_eq!(code("1"), 3);
}

#[test]
fn a_lost_game_exits_1_and_a_one_cell_board_is_won_at_once() {
    // 5x5 is odd: no Hamiltonian cycle, and some games stop short of a full
    // board (seed 62 at 23/25; 5x5 seed 4, lost at 24/25 before the last
    // apple needed no certificate, and 9x9 seed 3, lost at 68/81 before a
    // search undecided within --conflicts was tried again without them,
    // are now won).
    let dir = temp_dir("lost");
    let csv = path(&dir, "g.csv");
    let run = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "1,5",
        "--games",
        "1",
        "--seed",
        "62",
        "--csv-out",
        &csv,
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert!(run.stdout.contains("| 1x1 | clauses | 1 | 1 |"));
    assert!(run.stdout.contains("| 5x5 | clauses | 1 | 0 |"));
    let lines = csv_lines(&csv);
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("1x1,clauses,62,true,0,0,"));
    assert!(lines[1].starts_with("5x5,clauses,62,false,"));
    // Exit 1 says which game was lost, and why (it said nothing).
    assert!(
        run.stderr
            .contains("lost: 5x5 seed 62 (clauses): no safe plan to apple 23 at (2, 2)"),
        "{}",
        run.stderr
    );
}
