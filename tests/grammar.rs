//! One command-line grammar across commands: `--json` prints JSON on stdout
//! and `--json-out` / `--csv-out` write files (the old `--json FILE` is a
//! clear error), `-` for stdin and stdout, `--quiet`, shell completions, one
//! `--timeout`, and help texts that tell the truth (export's horizon, play's
//! `--skip`, a folder named `game`, `--size`'s default).

#[path = "support/cli.rs"]
mod support;
use support::{Run, assert_bad_input, snakesat, temp_dir};

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

const TINY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny-3x2.pddl");

/// Runs `snakesat ARGS...` in `dir` with `input` on stdin.
fn snakesat_with(dir: &Path, input: &[u8], args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // The command may exit before reading everything.
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs a shell pipeline with `$S` set to the binary.
fn shell(dir: &Path, script: &str) -> std::process::Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("S", env!("CARGO_BIN_EXE_snakesat"))
        .current_dir(dir)
        .output()
        .unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn bench_json_goes_to_stdout_and_files_to_json_out_and_csv_out() {
    let dir = temp_dir("bench-json");
    let problems = dir.join("p");
    std::fs::create_dir(&problems).unwrap();
    std::fs::copy(TINY, problems.join("tiny-3x2.pddl")).unwrap();
    let (json, csv) = (dir.join("b.json"), dir.join("b.csv"));
    let run = snakesat(&[
        "bench",
        s(&problems),
        "--json",
        "--json-out",
        s(&json),
        "--csv-out",
        s(&csv),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let printed: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(printed[0]["instance"], "p/tiny-3x2.pddl");
    assert_eq!(printed[0]["status"], "sat");
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(written[0]["plan_length"], printed[0]["plan_length"]);
    let csv = std::fs::read_to_string(&csv).unwrap();
    assert!(csv.starts_with("instance,grid,apples,status,"), "{csv}");
    assert_eq!(csv.lines().count(), 2);

    // `--csv-out -`: the CSV alone on stdout.
    let run = snakesat(&["bench", s(&problems), "--csv-out", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("instance,grid,"), "{}", run.stdout);
    assert!(!run.stdout.contains('|'), "{}", run.stdout);

    // The old spellings are a clear error.
    let old = snakesat(&["bench", s(&problems), "--json", s(&dir.join("x.json"))]);
    assert_bad_input(&old, "--json-out FILE");
    let old = snakesat(&["bench", "game", "--games", "1", "--json", "g.json"]);
    assert_eq!(old.code, 2);
    assert!(old.stderr.contains("--json-out FILE"), "{}", old.stderr);
    let old = snakesat(&["bench", s(&problems), "--csv", "x.csv"]);
    assert_eq!(old.code, 2);
    assert!(
        old.stderr
            .contains("a CSV table is written with --csv-out FILE"),
        "{}",
        old.stderr
    );
    assert!(!old.stderr.contains("--json prints"), "{}", old.stderr);
    assert!(!old.stderr.contains("--timeout"), "{}", old.stderr);
    // The older per-unit timeout spellings are still accepted as `--timeout`.
    let old = snakesat(&["bench", s(&problems), "--timeout-per-instance", "5"]);
    assert_eq!(old.code, 0, "{}", old.stderr);
    let old = snakesat(&["play", "--size", "4", "--timeout-per-apple", "5"]);
    assert_eq!(old.code, 0, "{}", old.stderr);
    assert!(!dir.join("x.json").exists() && !dir.join("x.csv").exists());
}

#[test]
fn bench_game_prints_json_and_its_table_ends_with_its_last_row() {
    let run = snakesat(&["bench", "game", "--sizes", "3", "--games", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("| grid |"), "{}", run.stdout);
    assert!(run.stdout.ends_with("|\n"), "{:?}", run.stdout);
    assert_eq!(run.stdout.lines().count(), 3);

    let run = snakesat(&["bench", "game", "--sizes", "3", "--games", "1", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(doc["rows"][0]["grid"], "3x3");
    assert_eq!(doc["games"].as_array().unwrap().len(), 1);
}

/// `--json` beside an output `-` of `bench` or `bench game` is refused
/// before anything runs, as `solve` and `play` refuse it (only one of them
/// was printed, exit 0).
#[test]
fn bench_refuses_json_beside_an_output_dash() {
    let dir = temp_dir("bench-json-dash");
    let problems = dir.join("p");
    std::fs::create_dir(&problems).unwrap();
    std::fs::copy(TINY, problems.join("tiny-3x2.pddl")).unwrap();
    for flag in ["--json-out", "--csv-out"] {
        let run = snakesat(&["bench", s(&problems), "--json", flag, "-"]);
        assert_bad_input(
            &run,
            &format!("--json and {flag} - both write to standard output"),
        );
        let run = snakesat(&[
            "bench", "game", "--sizes", "3", "--games", "1", "--json", flag, "-",
        ]);
        assert_bad_input(
            &run,
            &format!("--json and {flag} - both write to standard output"),
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_folder_named_game_is_benchmarked_as_dot_slash_game() {
    let dir = temp_dir("game-folder");
    std::fs::create_dir(dir.join("game")).unwrap();
    std::fs::copy(TINY, dir.join("game").join("tiny-3x2.pddl")).unwrap();
    let run = snakesat_with(&dir, b"", &["bench", "./game", "--timeout", "30"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("| game/tiny-3x2.pddl | 3x2 |"),
        "{}",
        run.stdout
    );
    let help = snakesat(&["bench", "--help"]);
    assert!(help.stdout.contains("./game"), "{}", help.stdout);
}

#[test]
fn export_to_stdout_pipes_into_solvers_and_decode_reads_the_model_from_stdin() {
    let dir = temp_dir("pipes");
    let flags = "--size 4 --apples 2 --seed 3 --horizon 12";
    // export -o - | minisat /dev/stdin: the formula on stdout, nothing else.
    let out = shell(
        &dir,
        &format!(
            "\"$S\" export {flags} -o - | tee f.cnf | minisat /dev/stdin m.txt >/dev/null; echo $?"
        ),
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "10",
        "minisat: SAT"
    );
    let file = dir.join("g.cnf");
    let run = snakesat(
        &[
            vec!["export", "-o", s(&file)],
            flags.split(' ').collect::<Vec<_>>(),
        ]
        .concat(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read(dir.join("f.cnf")).unwrap(),
        std::fs::read(&file).unwrap(),
        "export -o - writes what export -o FILE writes"
    );
    // cadical f.cnf | snakesat decode f.cnf -
    let out = shell(&dir, "cadical -q f.cnf | \"$S\" decode f.cnf - --json");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let plan: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(plan["status"], "sat");
    assert_eq!(plan["horizon"], 12);
    // The same model from a file gives the same plan.
    let file_run = snakesat(&[
        "decode",
        s(&dir.join("f.cnf")),
        s(&dir.join("m.txt")),
        "--json",
    ]);
    assert_eq!(file_run.code, 0, "{}", file_run.stderr);
}

#[test]
fn an_instance_file_dash_is_read_from_stdin_in_either_format() {
    let dir = temp_dir("stdin");
    let from_file = snakesat(&["solve", TINY, "--json"]);
    assert_eq!(from_file.code, 0, "{}", from_file.stderr);
    let pddl = std::fs::read(TINY).unwrap();
    let from_stdin = snakesat_with(&dir, &pddl, &["solve", "-", "--json"]);
    assert_eq!(from_stdin.code, 0, "{}", from_stdin.stderr);
    let a: serde_json::Value = serde_json::from_str(&from_file.stdout).unwrap();
    let b: serde_json::Value = serde_json::from_str(&from_stdin.stdout).unwrap();
    assert_eq!(a["path"], b["path"]);
    let json = br#"{"width": 3, "height": 3, "snake": [[0, 0], [1, 0], [2, 0]],
                    "apples": [[1, 1], [0, 0]], "visible": 1, "tail": "strict"}"#;
    let run = snakesat_with(&dir, json, &["solve", "-", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("\"horizon\":6"), "{}", run.stdout);
    // Standard input is read once (refused before either input is read).
    let twice = snakesat_with(&dir, &pddl, &["check", "-", "-"]);
    assert_bad_input(
        &twice,
        "cannot both be `-`: standard input can be read once",
    );
    // Two outputs cannot both be stdout.
    let run = snakesat(&["solve", TINY, "--gif", "-", "--plan", "-"]);
    assert_bad_input(&run, "only one output");
}

#[test]
fn quiet_silences_notes_but_not_answers_or_errors() {
    let dir = temp_dir("quiet");
    let cnf = dir.join("q.cnf");
    let args = ["export", "--size", "4", "--horizon", "5", "-o", s(&cnf)];
    let loud = snakesat(&args);
    assert_eq!(loud.code, 0);
    assert!(loud.stderr.contains("wrote"), "{}", loud.stderr);
    let quiet = snakesat(&[&args[..], &["--quiet"]].concat());
    assert_eq!(quiet.code, 0);
    assert_eq!(quiet.stderr, "");
    let quiet = snakesat(&["-q", "solve", TINY]);
    assert_eq!(quiet.code, 0);
    assert!(quiet.stdout.starts_with("plan: "), "{}", quiet.stdout);
    assert_bad_input(
        &snakesat(&["--quiet", "solve", "no-such.json"]),
        "cannot read",
    );
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = snakesat(&["completions", shell]);
        assert_eq!(run.code, 0, "{shell}: {}", run.stderr);
        assert!(run.stdout.contains("snakesat"), "{shell}");
        assert!(run.stdout.contains("json-out"), "{shell}");
    }
    assert_eq!(snakesat(&["completions", "tcsh"]).code, 2);
}

#[test]
fn help_texts_tell_the_truth() {
    let export = snakesat(&["export", "--help"]).stdout;
    assert!(export.contains("export needs it"), "{export}");
    // And it does.
    assert_bad_input(
        &snakesat(&["export", "--size", "4", "-o", "-"]),
        "needs a horizon",
    );

    let play = snakesat(&["play", "--help"]).stdout;
    let skip = &play[play.find("--skip <N>").unwrap()..];
    let skip = &skip[..skip.find("\n  -").unwrap_or(skip.len())];
    assert!(!skip.contains("[default: 1]"), "{skip}");
    assert!(skip.contains("under 45 s"), "{skip}");

    // One --size default and one --timeout flag.
    let solve = snakesat(&["solve", "--help"]).stdout;
    assert!(solve.contains("[default: 10]"), "{solve}");
    assert!(play.contains("[default: 10]"), "{play}");
    for command in [
        vec!["solve"],
        vec!["sizes"],
        vec!["bench"],
        vec!["bench", "game"],
        vec!["play"],
        vec!["generate"],
    ] {
        let help = snakesat(&[command.clone(), vec!["--help"]].concat()).stdout;
        assert!(help.contains("--timeout <SECONDS>"), "{command:?}: {help}");
        assert!(!help.contains("--timeout-per"), "{command:?}");
        assert!(!help.contains("--json <FILE>"), "{command:?}");
    }
    let sizes = snakesat(&["sizes", "--help"]).stdout;
    assert!(sizes.contains("--plot-clauses <FILE>"), "{sizes}");
    // sizes --timeout bounds each solve and search, not the building of the
    // formulas: a sweep of --timeout 1 ran for minutes while the help said
    // nothing of it.
    let timeout = &sizes[sizes.find("--timeout <SECONDS>").unwrap()..];
    let timeout = &timeout[..timeout.find("\n      -").unwrap_or(timeout.len())];
    for needle in [
        "each solve",
        "not to the whole run",
        "building the formulas is not timed",
        "can take minutes",
    ] {
        assert!(timeout.contains(needle), "{needle:?}: {timeout}");
    }
}

/// Counts of one take the singular: `solve`'s plan line, `check`'s verdict,
/// `play`'s summary, `bench game`'s chart title and `generate`'s shortfall
/// (they said "1 apples", "all 1 apples eaten", "1 games per line", "1
/// distinct instances").
#[test]
fn counts_of_one_are_singular() {
    let dir = temp_dir("singular");
    let instance = dir.join("one.json");
    std::fs::write(
        &instance,
        r#"{"width":3,"height":1,"snake":[[0,0]],"apples":[[1,0]]}"#,
    )
    .unwrap();
    let solve = snakesat(&["solve", s(&instance)]);
    assert_eq!(solve.code, 0, "{}", solve.stderr);
    assert!(
        solve
            .stdout
            .contains("plan: 1 move (proven least), 1 apple, encoding direct"),
        "{}",
        solve.stdout
    );
    let plan = dir.join("one.plan.json");
    let json = snakesat(&["solve", s(&instance), "--json"]);
    std::fs::write(&plan, &json.stdout).unwrap();
    let check = snakesat(&["check", s(&instance), s(&plan)]);
    assert_eq!(check.stdout.trim(), "valid: 1 move, the apple eaten");
    let play = snakesat(&["play", "--size", "1x2"]);
    assert_eq!(play.code, 0, "{}", play.stderr);
    for part in ["1 apple in 1 step (", "1 solver call, 0 cuts"] {
        assert!(play.stdout.contains(part), "{part}: {}", play.stdout);
    }
    let chart = dir.join("steps.svg");
    let bench = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "4",
        "--games",
        "1",
        "--plot-steps",
        s(&chart),
    ]);
    assert_eq!(bench.code, 0, "{}", bench.stderr);
    let svg = std::fs::read_to_string(&chart).unwrap();
    assert!(svg.contains("Mean steps per apple (1 game per line)"));
    // A 2x2 board with a one-cell snake and one apple has one class.
    let family = snakesat(&[
        "generate",
        "-o",
        s(&dir.join("family")),
        "--size",
        "2",
        "--apples",
        "1",
        "--length",
        "1",
        "--count",
        "5",
    ]);
    assert_eq!(family.code, 2, "{}", family.stderr);
    assert!(
        family
            .stderr
            .contains("error: only 1 distinct instance after "),
        "{}",
        family.stderr
    );
}

/// `-` is standard output, so an output that is a folder (a family, the
/// plans, the certificates) refuses it: it made a folder named `-`.
#[test]
fn a_folder_output_refuses_the_dash() {
    let dir = temp_dir("dash-folder");
    let shard = dir.join("shard");
    let made = snakesat_with(
        &dir,
        b"",
        &["generate", "--count", "1", "--shard", "1/1", "-o", "shard"],
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    let shard = shard.to_str().unwrap();
    let problems = dir.join("problems");
    std::fs::create_dir(&problems).unwrap();
    std::fs::copy(TINY, problems.join("tiny.pddl")).unwrap();
    let problems = problems.to_str().unwrap();
    for args in [
        vec!["generate", "-o", "-"],
        vec!["merge", "-o", "-", shard],
        vec!["solve", "--proof", "-"],
        vec!["bench", problems, "--plans", "-"],
        vec!["bench", problems, "--proof", "-"],
    ] {
        let run = snakesat_with(&dir, b"", &args);
        assert_bad_input(&run, "- is standard output, where no folder can go");
        assert!(!dir.join("-").exists(), "{args:?} made a folder named -");
    }
}
