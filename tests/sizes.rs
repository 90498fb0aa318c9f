//! `snakesat sizes` as a user runs it: the JSON document, names that `solve`
//! accepts, per-family sums, charts, sweeps and bad input.

#[path = "support/cli.rs"]
mod support;
use support::{Run, assert_bad_input, snakesat, temp_dir};

use serde_json::Value;

fn json_of(run: &Run) -> Vec<Value> {
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let v: Value = serde_json::from_str(&run.stdout).expect("stdout is exactly one JSON document");
    v.as_array().expect("a JSON array").clone()
}

const SIZES: [&str; 3] = ["variables", "clauses", "literals"];

/// Checks one encoding object: its keys, and that its families add up to its totals.
fn check_entry(e: &Value) {
    let name = e["encoding"].as_str().expect("encoding is a string");
    assert!(e["default"].is_boolean(), "{name}");
    assert!(e["approximate"].is_boolean(), "{name}");
    if let Some(reason) = e.get("refused") {
        assert!(!reason.as_str().unwrap().is_empty(), "{name}");
        for k in SIZES.iter().chain(&["families"]) {
            assert!(e.get(*k).is_none(), "{name}: refused but has {k}");
        }
        return;
    }
    let families = e["families"].as_object().expect("families is an object");
    assert!(!families.is_empty(), "{name}");
    for k in SIZES {
        let total = e[k].as_u64().unwrap_or_else(|| panic!("{name}: {k}"));
        let sum: u64 = families.values().map(|f| f[k].as_u64().unwrap()).sum();
        assert_eq!(sum, total, "{name}: families' {k} add up to the total");
    }
}

#[test]
fn json_lists_every_default_encoding_and_solve_accepts_each_name() {
    // All apples visible: the MVP2 notebook encodings accept it, MVP1 and MVP3 refuse it.
    let base = [
        "--size",
        "6",
        "--apples",
        "3",
        "--visible",
        "all",
        "--horizon",
        "16",
    ];
    let mut args = vec!["sizes", "--json"];
    args.extend(base);
    let entries = json_of(&snakesat(&args));
    assert_eq!(
        entries.len(),
        18,
        "direct, 5 amo, 4 body, 2 position, growth, prune, 4 notebook"
    );
    let defaults: Vec<&str> = entries
        .iter()
        .filter(|e| e["default"] == true)
        .map(|e| e["encoding"].as_str().unwrap())
        .collect();
    assert_eq!(defaults, vec!["direct"]);
    for e in &entries {
        check_entry(e);
        assert_eq!(e["horizon"], 16, "the horizon measured at");
    }
    // Without a horizon, each entry names the least one the search found,
    // the one `solve` finds.
    let searched = json_of(&snakesat(&["sizes", "--json", "--encodings", "direct"]));
    let solve = snakesat(&["solve", "--json"]);
    let least = serde_json::from_str::<Value>(&solve.stdout).unwrap()["horizon"].clone();
    assert!(least.as_u64().is_some_and(|t| t > 0));
    assert_eq!(searched[0]["horizon"], least);
    let refused: Vec<&str> = entries
        .iter()
        .filter(|e| e.get("refused").is_some())
        .map(|e| e["encoding"].as_str().unwrap())
        .collect();
    assert_eq!(refused, vec!["notebook-mvp1", "notebook-ordered"]);
    for e in &entries {
        let name = e["encoding"].as_str().unwrap();
        let mut args = vec!["solve", "--encoding", name];
        args.extend(base);
        let run = snakesat(&args);
        if e.get("refused").is_some() {
            assert_eq!(
                run.code, 2,
                "{name} is refused by solve too: {}",
                run.stderr
            );
        } else if e["approximate"] == true {
            assert!([0, 1, 3].contains(&run.code), "{name}: {}", run.stderr);
        } else {
            assert!([0, 1].contains(&run.code), "{name}: {}", run.stderr);
        }
        assert!(
            !run.stderr.contains("unknown encoding"),
            "{name}: {}",
            run.stderr
        );
    }
}

#[test]
fn solve_adds_status_and_seconds() {
    let entries = json_of(&snakesat(&[
        "sizes",
        "--size",
        "5",
        "--apples",
        "2",
        "--horizon",
        "12",
        "--encodings",
        "direct,direct,amo=pairwise,notebook-ordered,notebook-mvp1",
        "--solve",
        "--timeout",
        "30",
        "--json",
    ]));
    let names: Vec<&str> = entries
        .iter()
        .map(|e| e["encoding"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec![
            "direct",
            "direct,amo=pairwise",
            "notebook-ordered",
            "notebook-mvp1"
        ]
    );
    for e in &entries {
        check_entry(e);
        if e.get("refused").is_some() {
            assert!(e.get("status").is_none());
            continue;
        }
        assert!(e["solve_seconds"].as_f64().unwrap() >= 0.0);
        let status = e["status"].as_str().unwrap();
        assert!(["sat", "unsat", "unknown"].contains(&status), "{status}");
    }
    // The sound encodings agree.
    assert_eq!(entries[0]["status"], entries[1]["status"]);
}

#[test]
fn an_encoding_spelled_twice_is_measured_once() {
    // `direct,prune=on` and `direct,amo=sequential` are `direct` (its
    // defaults): one row each for direct and notebook-ordered, a note names
    // the items dropped.
    let run = snakesat(&[
        "sizes",
        "--apples",
        "2",
        "--horizon",
        "8",
        "--json",
        "--encodings",
        "direct,direct,prune=on,notebook-ordered,direct,amo=sequential,notebook-ordered",
    ]);
    let names: Vec<String> = json_of(&run)
        .iter()
        .map(|e| e["encoding"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["direct", "notebook-ordered"]);
    assert!(
        run.stderr.contains(
            "--encodings: dropped `direct,prune=on` (direct), `direct,amo=sequential` (direct), \
             `notebook-ordered` (notebook-ordered): each spells an encoding listed before it"
        ),
        "{}",
        run.stderr
    );
    let swept = snakesat(&[
        "sizes",
        "--apples",
        "2",
        "--sweep",
        "horizon=7..8",
        "--json",
        "--encodings",
        "direct,direct",
    ]);
    for point in json_of(&swept) {
        assert_eq!(point["encodings"].as_array().unwrap().len(), 1, "{point}");
    }
}

#[test]
fn text_table_shows_families_on_request() {
    let args = [
        "sizes",
        "--size",
        "5",
        "--apples",
        "2",
        "--horizon",
        "12",
        "--encodings",
        "direct,notebook-counter",
    ];
    let plain = snakesat(&args);
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(
        plain.stdout.contains("direct (default)"),
        "{}",
        plain.stdout
    );
    assert!(plain.stdout.contains("refused:"), "{}", plain.stdout);
    assert!(
        !plain.stdout.contains("  head exactly-one"),
        "{}",
        plain.stdout
    );
    let mut with = args.to_vec();
    with.push("--families");
    let families = snakesat(&with);
    assert!(
        families.stdout.contains("  head exactly-one"),
        "{}",
        families.stdout
    );
}

#[test]
fn plot_writes_png_and_svg() {
    let dir = temp_dir("plot");
    for ext in ["png", "svg"] {
        let path = dir.join(format!("sizes.{ext}"));
        let run = snakesat(&[
            "sizes",
            "--size",
            "5",
            "--apples",
            "2",
            "--horizon",
            "12",
            "--encodings",
            "direct,direct,amo=pairwise,notebook-ordered",
            "--plot-clauses",
            path.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let bytes = std::fs::read(&path).expect("chart written");
        assert!(bytes.len() > 1000, "{ext}: {} bytes", bytes.len());
        if ext == "png" {
            assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        } else {
            let text = String::from_utf8(bytes).unwrap();
            assert!(text.starts_with("<svg"), "{}", &text[..40]);
            assert!(text.contains("notebook-ordered"));
        }
    }
    // A sweep chart.
    let path = dir.join("sweep.png");
    let run = snakesat(&[
        "sizes",
        "--sweep",
        "horizon=10..14:2",
        "--size",
        "5",
        "--apples",
        "2",
        "--encodings",
        "direct,notebook-ordered",
        "--plot-clauses",
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = std::fs::read(&path).expect("chart written");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sweeps_give_one_row_per_value() {
    let run = snakesat(&[
        "sizes",
        "--sweep",
        "horizon=10..14:2",
        "--size",
        "5",
        "--apples",
        "2",
        "--encodings",
        "direct,notebook-ordered",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    assert_eq!(rows.len(), 3, "{}", run.stdout);
    for (row, t) in rows.iter().zip(["10", "12", "14"]) {
        assert_eq!(row.split_whitespace().next(), Some(t));
        assert_eq!(row.split_whitespace().count(), 3, "{row}");
    }
    let doc = json_of(&snakesat(&[
        "sizes",
        "--sweep",
        "size=4..6",
        "--apples",
        "2",
        "--encodings",
        "direct,notebook-ordered",
        "--json",
    ]));
    assert_eq!(doc.len(), 3);
    for (point, size) in doc.iter().zip(4..) {
        assert_eq!(point["size"], size);
        assert!(point["horizon"].as_u64().unwrap() > 0);
        let encodings = point["encodings"].as_array().unwrap();
        assert_eq!(encodings.len(), 2);
        encodings.iter().for_each(check_entry);
    }
}

/// `--solve` with a sweep: the text shows each point's answer and seconds
/// per encoding, as the JSON does (and as the table without a sweep does).
#[test]
fn sweep_with_solve_shows_the_answers_in_text() {
    let run = snakesat(&[
        "sizes",
        "--sweep",
        "horizon=1..2",
        "--size",
        "4",
        "--apples",
        "2",
        "--encodings",
        "direct,notebook-mvp1",
        "--solve",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let (_, answers) = run
        .stdout
        .split_once("solver's answer and seconds per encoding; horizon swept\n")
        .unwrap_or_else(|| panic!("no table of answers: {}", run.stdout));
    let rows: Vec<Vec<&str>> = answers
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{}", run.stdout);
    for (row, t) in rows.iter().zip(["1", "2"]) {
        assert_eq!(row[0], t, "{row:?}");
        assert!(["sat", "unsat"].contains(&row[1]), "{row:?}");
        assert!(row[2].parse::<f64>().is_ok() && row[3] == "s", "{row:?}");
        assert_eq!(row[4], "refused", "{row:?}");
    }
    assert_eq!(rows[0][1], "unsat", "two apples are not eaten in one move");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for sweep in [
        "size",
        "size=6",
        "width=6..8",
        "size=8..6",
        "horizon=1..5:0",
        "size=a..b",
    ] {
        let run = snakesat(&["sizes", "--sweep", sweep]);
        assert_bad_input(&run, "--sweep");
    }
    assert_bad_input(
        &snakesat(&["sizes", "--encodings", "direct,nonsense"]),
        "nonsense",
    );
    assert_bad_input(
        &snakesat(&["sizes", "--encodings", "direct,amo=nope"]),
        "nope",
    );
    assert_bad_input(
        &snakesat(&["sizes", "--horizon", "20", "--plot-clauses", "chart.gif"]),
        ".svg or .png",
    );
    assert_bad_input(
        &snakesat(&["sizes", "--sweep", "horizon=10..12", "--horizon", "20"]),
        "--horizon",
    );
}

/// Without a least horizon to measure at because no plan exists within
/// `--max-horizon` (refuted, or below the lower bound), `sizes` exits 1 like
/// `solve` ("proven no plan within the horizon") and says so in `solve`'s
/// words, without `error:` (an answer, not an error).
#[test]
fn no_plan_within_the_max_horizon_exits_1() {
    let dir = temp_dir("sizes-no-plan");
    // The snake must wind out of its own coils: 2 moves by the lower bound,
    // 8 in fact, so the horizons 2 to 5 are refuted (an instance without
    // apples is no example: its least plan has no move).
    let one = dir.join("one.json");
    std::fs::write(
        &one,
        r#"{"width":4,"height":3,"snake":[[2,0],[1,0],[1,1],[2,1],[2,2],[3,2]],"apples":[[0,0]],"tail":"strict"}"#,
    )
    .unwrap();
    let run = snakesat(&[
        "sizes",
        one.to_str().unwrap(),
        "--max-horizon",
        "5",
        "--encodings",
        "direct",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .starts_with("no plan within 5 moves (encoding direct; 4 horizons refuted)"),
        "{}",
        run.stderr
    );
    // The snake's only move leads into a dead end away from the apple: its
    // few reachable states, listed, show no plan at any horizon.
    let stuck = dir.join("stuck.json");
    std::fs::write(
        &stuck,
        r#"{"width":3,"height":3,"snake":[[1,0],[1,1],[0,1],[0,0]],"walls":[[1,2],[2,1]],"apples":[[0,2]],"tail":"strict"}"#,
    )
    .unwrap();
    let run = snakesat(&["sizes", stuck.to_str().unwrap(), "--encodings", "direct"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("no plan at any horizon") && run.stderr.contains("reachable states"),
        "{}",
        run.stderr
    );
    let far = dir.join("far.json");
    std::fs::write(
        &far,
        r#"{"width":9,"height":1,"snake":[[0,0]],"apples":[[8,0]]}"#,
    )
    .unwrap();
    let run = snakesat(&["sizes", far.to_str().unwrap(), "--max-horizon", "3"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr == "no plan: at least 8 moves are needed, more than 3\n",
        "{}",
        run.stderr
    );
}

/// An apple that can never be eaten (the lower bound is infinite): `sizes`
/// says so in `solve`'s words (no `error:`, no 20-digit bound), exit 1, and
/// writes no chart; a sweep shows such a size as a row `no plan` (`null`
/// horizon in JSON) and goes on to the next, as it does for a size proven
/// to have no plan within `--max-horizon`.
#[test]
fn an_apple_that_can_never_be_eaten_is_no_plan_and_a_sweep_goes_on() {
    let dir = temp_dir("sizes-never-eaten");
    let pocket = dir.join("pocket.json");
    std::fs::write(
        &pocket,
        r#"{"width":5,"height":3,"walls":[[1,0],[1,2]],"snake":[[4,1],[3,1],[2,1]],"apples":[[0,0],[0,2],[4,0]],"tail":"strict"}"#,
    )
    .unwrap();
    let chart = dir.join("chart.svg");
    let solve = snakesat(&["solve", pocket.to_str().unwrap()]);
    for extra in [vec![], vec!["--json", "--max-horizon", "5"]] {
        let mut args = vec![
            "sizes",
            pocket.to_str().unwrap(),
            "--plot-clauses",
            chart.to_str().unwrap(),
        ];
        args.extend(extra);
        let run = snakesat(&args);
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(
            run.stderr.starts_with(
                "no plan at any horizon: an apple lies in a dead end, or in a pocket behind one cell"
            ),
            "{}",
            run.stderr
        );
        assert!(solve.stderr.contains(run.stderr.trim()), "{}", solve.stderr);
        assert!(!run.stderr.contains("18446744073709551615"));
        assert!(run.stdout.is_empty(), "{}", run.stdout);
    }
    // The answer is the failure's line, which -q keeps (a note was dropped).
    let quiet = snakesat(&["-q", "sizes", pocket.to_str().unwrap()]);
    assert_eq!(quiet.code, 1, "{}", quiet.stderr);
    assert!(
        quiet.stderr.starts_with("no plan at any horizon"),
        "{}",
        quiet.stderr
    );
    assert!(!chart.exists());
    // Seed 1 draws a 5x5 board that no plan solves, and 6x6 and 7x7 that one does.
    let sweep = [
        "sizes",
        "--sweep",
        "size=5..7",
        "--walls",
        "6",
        "--apples",
        "4",
        "--seed",
        "1",
        "--encodings",
        "direct",
    ];
    let run = snakesat(&sweep);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let rows: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{}", run.stdout);
    assert_eq!(rows[0], ["5", "no", "plan"], "{}", run.stdout);
    for (row, size) in rows[1..].iter().zip(["6", "7"]) {
        assert_eq!(row[0], size);
        assert!(row[1].parse::<usize>().is_ok() && row[2].parse::<usize>().is_ok());
    }
    let mut json = sweep.to_vec();
    json.push("--json");
    let run = snakesat(&json);
    let doc = json_of(&run);
    assert_eq!(doc.len(), 3);
    assert!(doc[0]["horizon"].is_null(), "{:?}", doc[0]);
    // Keys in the documented order, the measures' and families' as without
    // --sweep (they came out sorted: "encodings" first, "approximate" …).
    let at = |key: &str| run.stdout.find(&format!("\"{key}\":")).unwrap();
    assert!(at("size") < at("horizon") && at("horizon") < at("encodings"));
    let first = &run.stdout[run.stdout.find("\"encodings\": [\n").unwrap()..];
    let order: Vec<usize> = ["encoding", "horizon", "default", "variables", "families"]
        .iter()
        .map(|k| first.find(&format!("\"{k}\":")).unwrap())
        .collect();
    assert!(order.is_sorted(), "{first}");
    assert!(first.find("\"head\":") < first.find("\"apple eaten\":"));
    assert_eq!(doc[0]["encodings"].as_array().unwrap().len(), 0);
    assert!(doc[1]["horizon"].as_u64().is_some() && doc[2]["horizon"].as_u64().is_some());
    // The same for a size proven to have no plan within --max-horizon (here
    // its lower bound exceeds it): a row `no plan`, and on.
    let run = snakesat(&[
        "sizes",
        "--sweep",
        "size=3..5",
        "--apples",
        "4",
        "--max-horizon",
        "8",
        "--encodings",
        "direct",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("no plan of at most --max-horizon moves")
    );
    let rows: Vec<Vec<&str>> = run
        .stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 3, "{}", run.stdout);
    assert!(rows[0][1].parse::<usize>().is_ok(), "{}", run.stdout);
    assert_eq!(rows[1], ["4", "no", "plan"], "{}", run.stdout);
    assert_eq!(rows[2], ["5", "no", "plan"], "{}", run.stdout);
}

/// A size of the sweep that cannot hold the random instance is named in the
/// error (it read as a plain `--size` error: "do not fit on a 3x3 grid").
#[test]
fn a_sweep_value_that_cannot_hold_the_instance_is_named() {
    let run = snakesat(&["sizes", "--sweep", "size=3..6"]);
    assert_bad_input(&run, "--sweep size=3: ");
    assert!(
        run.stderr.contains("do not fit on a 3x3 grid"),
        "{}",
        run.stderr
    );
}

/// A log (stderr not a terminal) gets a line per encoding measured and per
/// horizon searched only when `SNAKESAT_PROGRESS` asks for progress, and
/// `--quiet` hides them even then.
#[test]
fn progress_lines_in_a_log_only_on_request() {
    let run = |progress: bool, quiet: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"));
        command.args(["sizes", "--size", "5", "--seed", "3", "--apples", "2"]);
        command.args(["--encodings", "direct,notebook-ordered"]);
        if quiet {
            command.arg("--quiet");
        }
        command.env_remove("SNAKESAT_PROGRESS");
        if progress {
            command.env("SNAKESAT_PROGRESS", "1");
        }
        let out = command.output().expect("binary runs");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let logged = run(true, false);
    for encoding in ["direct", "notebook-ordered"] {
        assert!(
            logged
                .lines()
                .any(|l| l.starts_with(&format!("{encoding}: ")) && l.ends_with(" clauses")),
            "no line for {encoding}: {logged}"
        );
    }
    assert!(
        logged.contains("searching the least horizon: T="),
        "{logged}"
    );
    for stderr in [run(false, false), run(true, true)] {
        assert!(
            !stderr.contains("clauses") && !stderr.contains("searching"),
            "{stderr}"
        );
    }
}

/// Both ends of a sweep are checked before any value is measured: a last
/// horizon or size past its limit was refused only once every value below it
/// had been measured (`horizon=99002..100001`: minutes of work, then exit 2).
/// With progress on, a value measured first would print its lines.
#[test]
fn a_sweep_past_a_limit_is_refused_before_any_value_is_measured() {
    for (board, sweep, needle) in [
        (
            &["--size", "5"][..],
            "horizon=99999..100001",
            "horizon 100001 is absurdly large",
        ),
        (
            &[],
            "size=999..1001",
            "--sweep size=1001: grid size 1001x1001",
        ),
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"))
            .arg("sizes")
            .args(board)
            .args(["--apples", "2", "--sweep", sweep])
            .args(["--encodings", "direct"])
            .env("SNAKESAT_PROGRESS", "1")
            .output()
            .expect("binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{sweep}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{sweep}: {stderr}");
        assert!(stderr.contains(needle), "{sweep}: {stderr}");
        assert!(out.stdout.is_empty(), "{sweep}");
    }
}

/// A least horizon whose formula is beyond the default encoding's limits is
/// named as such (exit 2): it read "status unknown after 0 attempts", exit 3.
#[test]
fn a_least_horizon_beyond_the_formula_limits_is_named() {
    let run = snakesat(&["sizes", "--size", "1000", "--apples", "2"]);
    assert_bad_input(
        &run,
        "the least horizon cannot be searched: encoding direct would need",
    );
    assert!(run.stderr.contains("give --horizon"), "{}", run.stderr);
}

/// `--max-horizon` bounds the least-horizon search only: given at a fixed
/// horizon (`--horizon`, or a sweep over horizons) a note says it is not
/// used (it was ignored without a word); not given, nothing is said.
#[test]
fn max_horizon_at_a_fixed_horizon_is_noted_as_unused() {
    let note = "--max-horizon bounds the search for the least horizon; the horizon is fixed (T=";
    for (args, noted) in [
        (&["--horizon", "45", "--max-horizon", "10"][..], true),
        (
            &["--sweep", "horizon=45..46", "--max-horizon", "10"][..],
            true,
        ),
        (&["--horizon", "45"][..], false),
        (&["--max-horizon", "100"][..], false),
    ] {
        let mut all = vec!["sizes", "--encodings", "direct"];
        all.extend_from_slice(args);
        let run = snakesat(&all);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.matches(note).count(),
            usize::from(noted),
            "{args:?}: {}",
            run.stderr
        );
    }
}
