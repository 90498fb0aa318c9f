//! The documented caps (README "Limits"): absurd requests and hostile file
//! headers are refused up front with exit 2 and one `error:` line, and
//! nothing is written; time limits are parsed by one rule for every flag.

#[path = "support/cli.rs"]
mod support;

use std::time::{Duration, Instant};

use support::{assert_bad_input, snakesat, snakesat_within, temp_dir};

/// Writes `text` to `dir/name` and returns the path.
fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn decode_checks_the_horizon_header_before_allocating() {
    let dir = temp_dir("horizon");
    let model = write(&dir, "m.out", "s SATISFIABLE\nv 0\n");
    for horizon in ["18446744073709551615", "99999999999", "100000000", "5"] {
        let cnf = write(
            &dir,
            &format!("h{horizon}.cnf"),
            &format!(
                "c instance {{\"width\":1,\"height\":1,\"snake\":[[0,0]],\"apples\":[]}}\n\
                 c encoding direct\nc horizon {horizon}\np cnf 0 0\n"
            ),
        );
        assert_bad_input(&snakesat(&["decode", &cnf, &model]), "horizon");
    }
}

#[test]
fn every_timeout_flag_refuses_absurd_values() {
    let dir = temp_dir("timeouts");
    // (Below a nanosecond, 1e-300 was a zero limit that `bench` passed on as
    // `--timeout 0`, refused by each child: every row an error.)
    for value in [
        "1e19",
        "1e20",
        "-1",
        "nan",
        "inf",
        "0",
        "1000001",
        "1e-300",
        "0.0000009",
    ] {
        // As `--timeout=V` and as `--timeout V` (where `-1` was taken for an
        // unknown flag: "unexpected argument '-1' found").
        for spelling in [
            vec![format!("--timeout={value}")],
            vec!["--timeout".to_string(), value.to_string()],
        ] {
            let flag: Vec<&str> = spelling.iter().map(String::as_str).collect();
            for args in [
                [&["solve", "--size", "4"][..], &flag].concat(),
                [&["sizes", "--size", "4", "--solve"][..], &flag].concat(),
                [&["bench"][..], &flag, &["no-such-dir"]].concat(),
                [&["play", "--size", "4"][..], &flag].concat(),
                [&["bench", "game"][..], &flag].concat(),
            ] {
                let run = snakesat(&args);
                assert_bad_input(&run, "must be a number of seconds from 0.000001 to 1000000");
            }
        }
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn absurd_encodings_are_refused_before_any_allocation() {
    let dir = temp_dir("encodings");
    let out = dir.join("big.cnf").to_string_lossy().into_owned();
    for option in [
        "body=window",
        "body=tail",
        "body=compare",
        "body=block",
        "position=onehot",
        "position=axis",
        "amo=pairwise",
        "body=tail,amo=pairwise,position=axis",
    ] {
        let encoding = format!("direct,{option}");
        let started = Instant::now();
        let run = snakesat(&[
            "export",
            "--size",
            "30",
            "--length",
            "800",
            "--apples",
            "0",
            "--horizon",
            "50000",
            "--encoding",
            &encoding,
            "-o",
            &out,
        ]);
        assert_bad_input(&run, "beyond its limit");
        // Gross-hang guard: a refusal is an estimate, not an attempt.
        assert!(started.elapsed() < Duration::from_secs(20));
    }
    // No apples: the fixed-horizon shortcut (a shorter plan walked on to the
    // horizon) does not apply, and the full formula is beyond the limit.
    let run = snakesat(&[
        "solve",
        "--size",
        "10",
        "--apples",
        "0",
        "--horizon",
        "100000",
        "--timeout",
        "10",
    ]);
    assert_bad_input(&run, "beyond its limit");
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    // With apples the least plan, walked on, answers without that formula.
    let run = snakesat(&[
        "solve",
        "--size",
        "10",
        "--horizon",
        "100000",
        "--timeout",
        "10",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("plan: 100000 moves"),
        "{}",
        &run.stdout[..run.stdout.len().min(200)]
    );
}

#[test]
fn many_ordered_apples_are_bounded_fast_and_too_many_refused() {
    let dir = temp_dir("apples");
    // Without growth: a growing snake could not hold so many apples on 25
    // cells, which the lower bound says at once (the last case below).
    let apples = |n: usize, grow: bool| -> String {
        let cells: Vec<String> = (0..n)
            .map(|i| format!("[{},{}]", (i * 7) % 5, (i * 3 + 1) % 5))
            .collect();
        format!(
            "{{\"width\":5,\"height\":5,\"snake\":[[0,0]],\"visible\":1,\"grow\":{grow},\"apples\":[{}]}}",
            cells.join(",")
        )
    };
    let ok = write(&dir, "100k.json", &apples(100_000, false));
    let started = Instant::now();
    let run = snakesat(&["solve", &ok, "--timeout", "5"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let said = format!("{}{}", run.stdout, run.stderr);
    assert!(said.contains("at least 479996 moves"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(30), "gross hang");
    let too_many = write(&dir, "too-many.json", &apples(100_001, false));
    assert_bad_input(
        &snakesat(&["solve", &too_many]),
        "beyond the limit of 100000",
    );
    let growing = write(&dir, "growing.json", &apples(100_000, true));
    let run = snakesat(&["solve", &growing, "--timeout", "5"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the snake would grow longer than the free cells"),
        "{}",
        run.stderr
    );
}

/// `generate --count 1000000 --size 1000 --apples 100000` passed every
/// flag's own cap and then drew for minutes, growing by about 110 MB/s,
/// whatever `--timeout`. The products of count and board, and of count and
/// the cells an instance lists, are capped before any draw; a large
/// realistic family stays within both.
#[test]
fn a_family_too_large_to_sample_is_refused_up_front() {
    let dir = temp_dir("family-size");
    let out = dir.join("fam").to_string_lossy().into_owned();
    let huge = ["--count", "1000000", "--size", "1000", "--apples", "100000"];
    for timeout in [None, Some("1")] {
        let mut args = vec!["generate", "-o", &out];
        args.extend(huge);
        args.extend(timeout.iter().flat_map(|t| ["--timeout", t]));
        let run = snakesat_within(&args, Duration::from_secs(10));
        assert_bad_input(
            &run,
            "--count 1000000 × 1000000 cells (1000x1000, the largest board of --size) = \
             1000000000000 board cells to draw, above the limit of 100000000",
        );
    }
    // Boards small enough, but many cells listed per instance.
    let run = snakesat_within(
        &[
            "generate", "-o", &out, "--count", "1000000", "--size", "10", "--apples", "30",
        ],
        Duration::from_secs(10),
    );
    assert_bad_input(
        &run,
        "--count 1000000 × up to 33 cells per instance (--walls 0, --apples 30, --length 3) = \
         33000000 cells to keep, above the limit of 20000000",
    );
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    // A large realistic family is drawn (here without solving it).
    use snakesat::family::{AppleCount, FamilySpec, SizeSpan, Span, sample};
    let spec = FamilySpec {
        size: SizeSpan::parse("4..12").unwrap(),
        apples: AppleCount::Count(Span::parse("2..30").unwrap()),
        length: Span::one(3),
        walls: Span::one(0),
        visible: Some(Span::one(1)),
        tail: snakesat::instance::TailRule::Follow,
        grow: true,
        body: false,
        linked: false,
        count: 10_000,
        seed: 1,
    };
    assert_eq!(sample(&spec).unwrap().instances.len(), 10_000);
}

/// A body that never fits its board was drawn again and again: 100,000
/// rejected draws in a row, each shuffling the whole board (and searching a
/// long body cell by cell), before sampling gave up — minutes on 300x300,
/// hours on 1000x1000. On large boards sampling now gives up once the
/// rejected draws have shuffled the drawn-cells limit, within seconds.
#[test]
fn sampling_gives_up_on_a_body_that_never_fits_in_bounded_time() {
    let dir = temp_dir("family-rejections");
    let out = dir.join("fam").to_string_lossy().into_owned();
    for (size, length, draws) in [("300", "3000", "1111"), ("1000", "500000", "100")] {
        let run = snakesat_within(
            &[
                "generate", "-o", &out, "--count", "1", "--size", size, "--start", "body",
                "--length", length, "--apples", "1",
            ],
            Duration::from_secs(15),
        );
        assert_bad_input(
            &run,
            &format!("only 0 distinct instances after {draws} draws ({draws} rejected in a row)"),
        );
        // The cause is the body that never fits, not a setting of few classes.
        assert!(
            run.stderr
                .contains("none of those draws was a valid instance"),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("try --all"), "{}", run.stderr);
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn deep_pddl_nesting_is_refused() {
    let dir = temp_dir("nesting");
    let deep = write(
        &dir,
        "deep.pddl",
        &format!("(define {}", "(".repeat(44_000)),
    );
    assert_bad_input(&snakesat(&["solve", &deep]), "nest deeper than 64");
    let long = write(
        &dir,
        "long.pddl",
        &format!("(define (problem p) (:domain {}))", "x".repeat(10_000_000)),
    );
    let run = snakesat(&["solve", &long]);
    assert_bad_input(&run, "not \"snake\"");
    assert!(run.stderr.len() < 300, "{} bytes", run.stderr.len());
}

/// A PDDL file of one-item lists up to the expression cap (16 million
/// `(a)`, 48 MB) is refused within 2 GB of address space: each list is held
/// in exactly its items' room (a growing `Vec` per list left holes that took
/// the reader to 3.5 GB, which aborted here).
#[test]
fn pddl_lists_up_to_the_expression_cap_fit_in_bounded_memory() {
    let dir = temp_dir("lists");
    let lists = snakesat::pddl::MAX_EXPRESSIONS / 2;
    let file = write(
        &dir,
        "lists.pddl",
        &format!("(define (problem p) (:init {}))", "(a)".repeat(lists)),
    );
    assert_bad_input(
        &support::snakesat_within_memory(&["solve", &file], 2_000_000),
        "more than 32000000 lists and atoms",
    );
}

#[test]
fn the_timeout_bounds_building_and_loading_a_huge_formula() {
    // Millions of clauses: encoding and loading them take about the limit.
    // No apples, so the fixed-horizon shortcut (a shorter plan walked on to
    // the horizon, which answers at once with apples) does not apply.
    let dir = temp_dir("huge-timeout");
    let plan = dir.join("plan.gif").to_string_lossy().into_owned();
    let started = Instant::now();
    let run = snakesat(&[
        "solve",
        "--size",
        "30",
        "--length",
        "50",
        "--apples",
        "0",
        "--horizon",
        "2000",
        "--timeout",
        "1",
        "--json",
        "--gif",
        &plan,
    ]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stdout.contains(r#""status":"unknown""#),
        "{}",
        run.stdout
    );
    // Either the search stops at the deadline by itself or the watchdog ends it.
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    assert!(started.elapsed() < Duration::from_secs(40), "gross hang");
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "a file was left"
    );
}

/// `--satisficing` on the largest board: nothing of cells × horizon size is
/// computed beyond the head-slot cap (the bounds' reachability table took
/// 2.4 GB and a minute here, and no plan came by the deadline); the
/// constructions give the plan (on a quiet machine in 3.5 s, of the lower
/// bound's length, proven least; not asserted: with less CPU time the
/// constructions' windows may close before the shortest one).
#[test]
fn satisficing_on_the_largest_board_skips_tables_beyond_the_head_slot_cap() {
    let started = Instant::now();
    let run = snakesat(&[
        "solve",
        "--size",
        "1000",
        "--apples",
        "5",
        "--satisficing",
        "--timeout",
        "30",
        "--json",
        "-q",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(r#""status":"sat""#), "{}", run.stderr);
    assert!(started.elapsed() < Duration::from_secs(30), "gross hang");
}

/// `check` and `render` refuse a plan of more moves than the horizon cap up
/// front (exit 2), JSON and IPC alike; a plan of exactly the cap is checked.
#[test]
fn plans_beyond_the_horizon_cap_are_refused() {
    let dir = temp_dir("long-plans");
    let instance = write(
        &dir,
        "two.json",
        r#"{"width":2,"height":1,"snake":[[0,0]],"apples":[[1,0]]}"#,
    );
    let plan = |moves: usize| -> String {
        let cells: Vec<&str> = (0..=moves)
            .map(|t| if t % 2 == 0 { "[0,0]" } else { "[1,0]" })
            .collect();
        format!("{{\"path\":[{}]}}", cells.join(","))
    };
    let at_cap = write(&dir, "cap.json", &plan(100_000));
    let run = snakesat(&["check", &instance, &at_cap]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "valid: 100000 moves, the apple eaten");
    let beyond = write(&dir, "beyond.json", &plan(100_001));
    let message = "beyond.json: the plan has 100001 moves, beyond the horizon limit of 100000";
    assert_bad_input(&snakesat(&["check", &instance, &beyond]), message);
    let gif = dir.join("beyond.gif").to_string_lossy().into_owned();
    assert_bad_input(
        &snakesat(&["render", &instance, &beyond, "--gif", &gif]),
        message,
    );
    let problem = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tiny-3x2.pddl");
    let ipc = write(
        &dir,
        "beyond.plan",
        &"(move pos1-0 pos1-1 pos0-0 pos1-0)\n".repeat(100_001),
    );
    assert_bad_input(
        &snakesat(&["check", problem, &ipc]),
        "beyond.plan: line 100001: more than 100000 actions, beyond the horizon limit of 100000 moves",
    );
    assert!(!std::path::Path::new(&gif).exists());
}

/// Lists of cells longer than anything they may hold are refused with their
/// length, read without being held (40 million apples took 3 GB before the
/// limit was checked): walls beyond a 1000x1000 board's cells, a plan's
/// `eaten` beyond the apple limit.
#[test]
fn cell_lists_beyond_their_limits_are_refused_with_their_length() {
    let dir = temp_dir("long-lists");
    let cells = |n: usize| vec!["[0,0]"; n].join(",");
    let walls = write(
        &dir,
        "walls.json",
        &format!(
            r#"{{"width":2,"height":1,"snake":[[0,0]],"apples":[[1,0]],"walls":[{}]}}"#,
            cells(1_000_001)
        ),
    );
    assert_bad_input(
        &snakesat(&["solve", &walls]),
        "1000001 cells: more than a board has (at most 1000x1000)",
    );
    let instance = write(
        &dir,
        "two.json",
        r#"{"width":2,"height":1,"snake":[[0,0]],"apples":[[1,0]]}"#,
    );
    let plan = write(
        &dir,
        "plan.json",
        &format!(r#"{{"path":[[0,0],[1,0]],"eaten":[{}]}}"#, cells(100_001)),
    );
    assert_bad_input(
        &snakesat(&["check", &instance, &plan]),
        "100001 `eaten` entries, beyond the limit of 100000 apples",
    );
}

/// Review 10: writing the plan's files after the search (a GIF of every
/// time point, the horizon chart's formulas) ran on past `--timeout` and
/// exited 0. The watchdog covers them as it covers the search: a plan of
/// about 900 moves drawn frame by frame at 110 pixels a cell (within the
/// pixels an animation may draw: up to 1,234 frames of 881x919) takes about
/// 5 s, far past the 0.2 s limit and its 1 s grace, so the run ends with status
/// `unknown`, exit 3, one `error:` line, and neither file left.
#[test]
fn the_timeout_bounds_writing_the_plans_files() {
    let dir = temp_dir("outputs-timeout");
    let gif = dir.join("plan.gif").to_string_lossy().into_owned();
    let chart = dir.join("horizon.svg").to_string_lossy().into_owned();
    let run = snakesat(&[
        "solve",
        "--size",
        "8",
        "--apples",
        "60",
        "--satisficing",
        "--timeout",
        "0.2",
        "--json",
        "--gif",
        &gif,
        "--skip",
        "1",
        "--delay",
        "1",
        "--cell",
        "110",
        "--plot-horizon",
        &chart,
    ]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(
        run.stdout.trim(),
        r#"{"status":"unknown","reason":"timeout"}"#
    );
    let errors: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.starts_with("error:"))
        .collect();
    assert_eq!(
        errors,
        ["error: --timeout 0.2 s reached while writing the GIF"],
        "{}",
        run.stderr
    );
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "a file was left"
    );
}

/// The numbered plan files of `--satisficing --plan FILE` are finished,
/// checked plans and stay when the watchdog ends the run while it writes
/// the GIF; its error line names the last of them, and `check` accepts it.
/// (The board and the GIF of the test above, as an IPC problem: a snake of
/// two cells, 60 apples.)
#[test]
fn a_timeout_after_a_satisficing_plan_names_its_numbered_file() {
    let dir = temp_dir("anytime-timeout");
    let snake = [(1, 0), (0, 0)];
    let apples: Vec<String> = (0..64)
        .map(|i| (i * 37 + 11) % 64)
        .map(|c| (c % 8, c / 8))
        .filter(|cell| !snake.contains(cell))
        .take(60)
        .map(|(x, y)| format!("[{x},{y}]"))
        .collect();
    let json = format!(
        r#"{{"width":8,"height":8,"snake":[[1,0],[0,0]],"apples":[{}],"visible":1,"tail":"strict"}}"#,
        apples.join(",")
    );
    let instance = snakesat::instance::json::from_json(&json).unwrap();
    let problem = write(
        &dir,
        "p.pddl",
        &snakesat::pddl::write::to_pddl(&instance, "timeout-sixty").unwrap(),
    );
    let plan = dir.join("p.plan").to_string_lossy().into_owned();
    let gif = dir.join("p.gif").to_string_lossy().into_owned();
    let run = snakesat(&[
        "solve",
        &problem,
        "--satisficing",
        "--timeout",
        "0.5",
        "--plan",
        &plan,
        "--gif",
        &gif,
        "--skip",
        "1",
        "--delay",
        "1",
        "--cell",
        "110",
    ]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "unknown: the time limit was reached");
    let error = run
        .stderr
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let (before, kept) = error
        .split_once("; the best plan found is in ")
        .unwrap_or_else(|| panic!("{error}"));
    assert_eq!(
        before,
        "error: --timeout 0.5 s reached while writing the GIF"
    );
    assert!(kept.starts_with(&format!("{plan}.")), "{kept}");
    // The GIF and FILE itself are gone; the numbered files are checked plans.
    assert!(!std::path::Path::new(&gif).exists());
    assert!(!std::path::Path::new(&plan).exists());
    let check = snakesat(&["check", &problem, kept]);
    assert_eq!(check.code, 0, "{}", check.stderr);
}

/// The horizon chart draws the horizons whose formulas fit the encoding's
/// limits and stops, with a note, at the first that does not: on 1000x1000
/// the 1-move plan is found, and the formula at 3 moves is beyond the
/// literal limit (the run was refused, exit 2, after the plan was found).
#[test]
fn the_horizon_chart_stops_at_the_formula_limits() {
    let dir = temp_dir("chart-limits");
    let chart = dir.join("h.svg");
    let run = snakesat(&[
        "solve",
        "--size",
        "1000",
        "--apples",
        "1",
        "--json",
        "--plot-horizon",
        chart.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the horizon chart stops at T=2: encoding direct would need"),
        "{}",
        run.stderr
    );
    assert!(std::fs::read_to_string(&chart).unwrap().contains("<svg"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The 100x100 board with 60 ordered apples of `--size 100 --apples 60`
/// (seed 1): its first plans come in a fraction of a second, but counting
/// the head cells of their formula (10,000 cells × 3,659 time points) took
/// seconds and did not look at the deadline.
fn hundred_by_hundred() -> snakesat::instance::Instance {
    use snakesat::instance::random::{RandomSpec, generate};
    generate(&RandomSpec {
        width: 100,
        height: 100,
        apples: 60,
        length: 3,
        visible: Some(1),
        seed: 1,
        ..Default::default()
    })
    .unwrap()
}

/// `Search::Satisficing` with a 1 s timeout on a large board returned after
/// 4.8 s (6.4 s with 3 s): every phase, the counting of the formula's head
/// cells included, stops at the timeout, and the answer is the best plan
/// found by then (a legal one) or none. (With 2 s the first plan comes
/// before the deadline even on a busy machine, and counting its formula's
/// head cells then overran it.)
#[test]
fn satisficing_stops_at_the_timeout_on_a_large_board() {
    use snakesat::planner::{Planner, Search, Verdict};
    let instance = hundred_by_hundred();
    let direct = snakesat::encode::by_name("direct").unwrap();
    let started = Instant::now();
    let outcome = Planner::new(&*direct)
        .search(Search::Satisficing)
        .timeout(Some(Duration::from_secs(2)))
        .max_horizon(100_000)
        .plan(&instance)
        .unwrap();
    let seconds = started.elapsed().as_secs_f64();
    assert!(seconds < 5.0, "returned after {seconds:.2} s (timeout 2 s)");
    match &outcome.verdict {
        Verdict::Plan(plan) => {
            snakesat::sim::simulate(&instance, &plan.path).expect("a legal plan");
            assert!(outcome.lower_bound.is_some_and(|b| plan.horizon >= b));
        }
        Verdict::Unknown(_) => {}
        other => panic!("{other:?}"),
    }
}

/// The same from the command line: before, the watchdog ended the run
/// (`--timeout 1`: "--timeout 1 s reached while building or loading the
/// formula", exit 3, at 2 s) although a plan had been found.
#[test]
fn solve_satisficing_stops_at_the_timeout_on_a_large_board() {
    let started = Instant::now();
    let run = snakesat(&[
        "solve",
        "--size",
        "100",
        "--apples",
        "60",
        "--satisficing",
        "--timeout",
        "2",
        "--json",
        "-q",
    ]);
    assert!(!run.stderr.contains("reached while"), "{}", run.stderr);
    if run.code == 0 {
        assert!(run.stdout.contains(r#""status":"sat""#), "{}", run.stdout);
    } else {
        assert!(
            run.stdout.contains(r#""status":"unknown""#),
            "{}",
            run.stderr
        );
    }
    let seconds = started.elapsed().as_secs_f64();
    assert!(seconds < 5.0, "ended after {seconds:.2} s (timeout 2 s)");
}

/// Runs `snakesat ARGS...` with `stdout` as its standard output.
fn run_with_stdout(args: &[&str], stdout: std::process::Stdio) -> support::Run {
    run_with(args, std::process::Stdio::null(), stdout)
}

/// Runs `snakesat ARGS...` with standard input fed by `yes` (endless text
/// lines) until the binary exits.
fn snakesat_on_endless_text(args: &[&str]) -> support::Run {
    let mut yes = std::process::Command::new("yes")
        .arg("c endless")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("`yes` runs");
    let stdin = yes.stdout.take().unwrap().into();
    let run = run_with(args, stdin, std::process::Stdio::piped());
    yes.kill().unwrap();
    yes.wait().unwrap();
    run
}

/// Runs `snakesat ARGS...` with `stdin` and `stdout` as its standard input
/// and output.
fn run_with(
    args: &[&str],
    stdin: std::process::Stdio,
    stdout: std::process::Stdio,
) -> support::Run {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(args)
        .stdin(stdin)
        .stdout(stdout)
        .output()
        .expect("binary runs");
    support::Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[test]
fn endless_inputs_stop_at_the_size_limit() {
    // An endless text never ends: without a limit the reader filled the
    // memory.
    let run = snakesat_on_endless_text(&["solve", "-", "--timeout", "5"]);
    assert_bad_input(&run, "larger than 256 MB, the most read of a problem");
    let run = snakesat_on_endless_text(&["check", "tests/data/tiny-3x2.pddl", "-"]);
    assert_bad_input(&run, "larger than 256 MB, the most read of a plan");
    let dir = temp_dir("endless");
    let model = write(&dir, "m.out", "s SATISFIABLE\nv 0\n");
    let run = snakesat_on_endless_text(&["decode", "-", &model]);
    assert_bad_input(&run, "larger than 2048 MB, the most read of a formula");
    // A model is read up to what one of the formula's variables can need
    // (it was 2048 MB whatever the formula).
    let cnf = dir.join("f.cnf");
    let cnf = cnf.to_str().unwrap();
    assert_eq!(snakesat(&["export", "--horizon", "45", "-o", cnf]).code, 0);
    let run = snakesat_on_endless_text(&["decode", cnf, "-"]);
    assert_bad_input(
        &run,
        "standard input is larger than 64 MB, the most read of a model of the formula's variables",
    );
}

/// A file past its limit is refused by its size before it is read: a
/// 70 MB model of a small formula (limit 64 MB) was read into memory
/// first, and within 100 MB of address space the run aborted instead.
#[test]
fn a_file_past_its_limit_is_refused_before_it_is_read() {
    let dir = temp_dir("large-file");
    let cnf = dir.join("f.cnf");
    let cnf = cnf.to_str().unwrap();
    assert_eq!(snakesat(&["export", "--horizon", "45", "-o", cnf]).code, 0);
    let model = dir.join("m.out");
    std::fs::write(&model, "v 1 -2\n".repeat((70 << 20) / 7)).unwrap();
    let run = support::snakesat_within_memory(&["decode", cnf, model.to_str().unwrap()], 100_000);
    assert_bad_input(
        &run,
        "m.out is larger than 64 MB, the most read of a model of the formula's variables",
    );
}

#[test]
fn nul_bytes_are_refused_at_once() {
    // `/dev/zero` is valid UTF-8 without end: it was read up to each input's
    // limit (2 GB and 4.6 s for a formula) before being refused.
    let dir = temp_dir("nul");
    let model = write(&dir, "m.out", "s SATISFIABLE\nv 0\n");
    let cnf = dir.join("f.cnf");
    let cnf = cnf.to_str().unwrap();
    assert_eq!(snakesat(&["export", "--horizon", "5", "-o", cnf]).code, 0);
    let nul_in_line_3 = write(&dir, "nul.pddl", "(define\n(problem p)\n\0)");
    let gif = dir.join("never.gif");
    let gif = gif.to_str().unwrap();
    for args in [
        vec!["solve", "/dev/zero"],
        vec!["check", "tests/data/tiny-3x2.pddl", "/dev/zero"],
        vec!["decode", "/dev/zero", &model],
        vec!["decode", cnf, "/dev/zero"],
        vec![
            "render",
            "tests/data/tiny-3x2.pddl",
            "/dev/zero",
            "--gif",
            gif,
        ],
    ] {
        let run = snakesat(&args);
        assert_bad_input(
            &run,
            "cannot read /dev/zero: it is not text (a NUL byte at byte 1)",
        );
    }
    assert!(!dir.join("never.gif").exists());
    let run = snakesat(&["solve", &nul_in_line_3]);
    assert_bad_input(&run, "it is not text (a NUL byte at byte 21)");
}

#[test]
fn binary_input_is_refused_as_it_is_read_not_at_its_end() {
    // Standard input that starts with bytes that are not UTF-8 and stays
    // open: the reader refuses it at once (it read to the end, or the 2 GB
    // limit, before looking).
    use std::io::Write as _;
    let dir = temp_dir("binary");
    let model = write(&dir, "m.out", "s SATISFIABLE\nv 0\n");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(["decode", "-", &model])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"c snakesat\n\xff\xfe\x00binary").unwrap();
    stdin.flush().unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let hung = child.try_wait().unwrap().is_none();
    if hung {
        child.kill().unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(
        !hung,
        "still reading an open input after its first bad byte"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cannot read standard input: it is not UTF-8 text (at byte 12)"),
        "{stderr}"
    );
    // A file cut inside a character is refused at that character's first byte.
    std::fs::write(dir.join("cut.json"), b"{\"width\": 3 \xc3").unwrap();
    let cut = snakesat(&["solve", dir.join("cut.json").to_str().unwrap()]);
    assert_bad_input(&cut, "cut.json: it is not UTF-8 text (at byte 13)");
}

/// Runs the binary with `args` on a standard input that never ends nor
/// closes, so that only the watchdog ends the run; fails on a gross hang.
fn run_on_open_stdin(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    let stdin = child.stdin.take();
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    drop(stdin);
    assert!(started.elapsed() < Duration::from_secs(30), "gross hang");
    out
}

#[test]
fn the_timeout_covers_reading_the_problem() {
    let out = run_on_open_stdin(&["solve", "-", "--timeout", "0.2", "--json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("--timeout 0.2 s reached while reading the problem"),
        "{stderr}"
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        r#"{"status":"unknown","reason":"timeout"}"#
    );
}

/// `sizes --timeout` bounds reading its problem too (its other phases have
/// limits of their own): an input that never ends is cut off, exit 3, with
/// no table on stdout.
#[test]
fn the_timeout_of_sizes_covers_reading_the_problem() {
    let out = run_on_open_stdin(&["sizes", "-", "--timeout", "0.2"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("--timeout 0.2 s reached while reading the problem"),
        "{stderr}"
    );
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// `check` and `render` are bounded by `--timeout` too: a plan on a standard
/// input that never ends is cut off with no verdict (stdout empty, with or
/// without `--json`), exit 3, and no file written; so is a domain read first
/// in VAL's `DOMAIN PROBLEM PLAN` order.
#[test]
fn the_timeout_of_check_and_render_covers_reading_the_plan() {
    let problem = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/instances/walls-5x5.json"
    );
    let dir = std::env::temp_dir().join(format!("snakesat-check-timeout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let gif = dir.join("never.gif");
    let gif = gif.to_str().unwrap();
    for args in [
        vec!["check", problem, "-", "--timeout", "0.2"],
        vec!["check", problem, "-", "--timeout", "0.2", "--json"],
        vec!["render", problem, "-", "--timeout", "0.2", "--gif", gif],
    ] {
        let out = run_on_open_stdin(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: --timeout 0.2 s reached while reading and checking the plan"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: no verdict");
        assert!(!std::path::Path::new(gif).exists(), "{args:?}: no GIF");
    }
    // VAL's `DOMAIN PROBLEM PLAN`, the domain on a standard input that never
    // ends: the line names reading the domain.
    let plan = dir.join("p.plan");
    std::fs::write(&plan, "").unwrap();
    let plan = plan.to_str().unwrap();
    for args in [
        vec!["check", "-", problem, plan, "--timeout", "0.2"],
        vec![
            "render",
            "-",
            problem,
            plan,
            "--timeout",
            "0.2",
            "--gif",
            gif,
        ],
    ] {
        let out = run_on_open_stdin(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: --timeout 0.2 s reached while reading the domain"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: no verdict");
        assert!(!std::path::Path::new(gif).exists(), "{args:?}: no GIF");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_standard_output_is_an_error_and_a_closed_one_is_not() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        vec!["solve", "--size", "4", "--apples", "2"],
        vec!["solve", "--size", "4", "--apples", "2", "--json"],
        vec!["play", "--size", "4", "-q"],
        vec!["sizes", "--size", "4", "--encodings", "direct"],
        vec![
            "check",
            "tests/data/tiny-3x2.pddl",
            "tests/data/tiny-3x2-valid.plan",
        ],
        // Outputs named `-` said "cannot write -".
        vec!["export", "--size", "4", "--horizon", "3", "-o", "-", "-q"],
        vec!["completions", "bash"],
        // Help and version said nothing and exited 0.
        vec!["--help"],
        vec!["--version"],
        vec!["solve", "--help"],
        // The GIF encoder's error said the reason twice.
        vec!["play", "--size", "12", "-q", "--gif", "-"],
    ] {
        let run = run_with_stdout(&args, full().into());
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(
            run.stderr.trim(),
            "error: cannot write standard output: No space left on device (os error 28)",
            "{args:?}"
        );
    }
    // A reader gone (`| head` that stopped reading) is not an error: the
    // command's own exit code, and no panic (`check` panicked here).
    let solve_json = ["solve", "--size", "4", "--apples", "2", "--json"];
    for args in [
        vec![
            "check",
            "tests/data/tiny-3x2.pddl",
            "tests/data/tiny-3x2-valid.plan",
        ],
        vec![
            "check",
            "--json",
            "tests/data/tiny-3x2.pddl",
            "tests/data/tiny-3x2-valid.plan",
        ],
        solve_json.to_vec(),
    ] {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"))
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("binary runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
}

/// An error repeats at most 40 characters of any input token (README,
/// "Limits"): a plan's `status`, an encoding's name and a shard's `shard`
/// cell were echoed whole (100 KB lines); `--proof` on a file said "File
/// exists (os error 17)".
#[test]
fn errors_echo_long_input_cut_short() {
    let dir = temp_dir("long-echo");
    let long = "Q".repeat(100_000);
    let instance = dir.join("i.json");
    std::fs::write(
        &instance,
        r#"{"width":3,"height":2,"snake":[[0,0]],"apples":[[2,0]]}"#,
    )
    .unwrap();
    let plan = dir.join("p.json");
    std::fs::write(
        &plan,
        format!(r#"{{"status":"{long}","path":[[0,0],[1,0],[2,0]]}}"#),
    )
    .unwrap();
    let typed = dir.join("t.json");
    std::fs::write(
        &typed,
        format!(r#"{{"path":[[0,0],[1,0],[2,0]],"eaten":"{long}"}}"#),
    )
    .unwrap();
    let shard = dir.join("s.csv");
    let header = "size,reuse,seed,won,steps,eaten,seconds,build_seconds,solve_seconds,solver_calls,cuts,shortest_possible,least_safe,timeouts,settings,shard";
    std::fs::write(
        &shard,
        format!("{header}\n4x4,clauses,1,true,47,15,0.1,0.1,0.1,9,0,12,15,0,games=1,{long}\n"),
    )
    .unwrap();
    let s = |p: &std::path::Path| p.to_str().unwrap().to_string();
    for args in [
        vec!["check".to_string(), s(&instance), s(&plan)],
        vec!["check".to_string(), s(&instance), s(&typed)],
        vec!["solve".to_string(), "--encoding".to_string(), long.clone()],
        vec![
            "merge".into(),
            "-o".into(),
            s(&dir.join("m.csv")),
            s(&shard),
            s(&shard),
        ],
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let run = snakesat(&args);
        assert_eq!(run.code, 2, "{}", &run.stderr[..run.stderr.len().min(300)]);
        assert!(
            run.stderr.len() < 400,
            "{} bytes: {}",
            run.stderr.len(),
            &run.stderr[..300]
        );
        assert!(
            run.stderr.contains(&format!("{}…", "Q".repeat(40))),
            "{}",
            run.stderr
        );
    }
    let run = snakesat(&[
        "solve",
        "--size",
        "4",
        "--apples",
        "2",
        "--proof",
        &s(&instance),
    ]);
    assert_bad_input(&run, "it exists and is not a folder");
}

/// Files of nested lists a few tens of MB long are refused with one line,
/// within 1 GB of address space: a plan file that is not a plan (its first
/// line was parsed again as a generic JSON value, to tell a game record) and
/// a Mallob result (read as a generic JSON value) took 3.8 GB and aborted.
#[test]
fn nested_lists_are_refused_without_holding_them() {
    let dir = temp_dir("nested-lists");
    let nested = "[[[[[[[[[[0]]]]]]]]]],".repeat(1_500_000);
    let plan = write(
        &dir,
        "plan.json",
        &format!(r#"{{"status": "sat", "eaten": [{nested}[0]]}}"#),
    );
    let instance = write(
        &dir,
        "i.json",
        r#"{"width": 3, "height": 1, "snake": [[0, 0]], "apples": [[2, 0]]}"#,
    );
    let mallob = write(
        &dir,
        "m.json",
        &format!(r#"{{"result": {{"resultcode": 10, "solution": [0, {nested}1]}}}}"#),
    );
    let cnf = dir.join("f.cnf").to_string_lossy().into_owned();
    let export = snakesat(&["export", &instance, "--horizon", "2", "-o", &cnf, "-q"]);
    assert_eq!(export.code, 0, "{}", export.stderr);
    let limited = |args: &[&str]| support::snakesat_within_memory(args, 1_000_000);
    assert_bad_input(
        &limited(&["check", &instance, &plan]),
        "not a plan of `solve --json`",
    );
    assert_bad_input(
        &limited(&["render", &instance, &plan, "--html", "-"]),
        "not a plan of `solve --json`",
    );
    assert_bad_input(
        &limited(&["decode", &cnf, &mallob]),
        "result.solution[1] is not a whole number 1 or -1",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fixed horizon below the lower bound is answered by the bound alone:
/// "no plan" (exit 1) even when its formula is beyond the encoding's limits
/// (it was refused, exit 2, on the large board and answered on the small
/// one); at or above the bound such a formula is still refused. With
/// `--proof`, the manifest says that the horizon has no certificate and the
/// answer is not certified.
#[test]
fn a_fixed_horizon_below_the_bound_needs_no_formula() {
    for size in ["100", "1000"] {
        let run = snakesat(&["solve", "--size", size, "--apples", "3", "--horizon", "60"]);
        assert_eq!(run.code, 1, "{size}: {}", run.stderr);
        assert!(
            run.stdout.starts_with("no plan within 60 moves"),
            "{}",
            run.stdout
        );
    }
    assert_bad_input(
        &snakesat(&[
            "solve",
            "--size",
            "1000",
            "--apples",
            "3",
            "--horizon",
            "1000",
        ]),
        "head slots",
    );
    let dir = temp_dir("below-bound-proof");
    let proof = dir.join("p");
    let proof = proof.to_str().unwrap();
    let run = snakesat(&[
        "solve",
        "--size",
        "1000",
        "--apples",
        "3",
        "--horizon",
        "60",
        "--proof",
        proof,
        "--json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let answer: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(answer["status"], "unsat");
    assert_eq!(answer["certified"], false);
    assert!(run.stderr.contains("not certified"), "{}", run.stderr);
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("p/manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["claims"], serde_json::json!([]));
    assert!(
        manifest["below_lower_bound"]
            .as_str()
            .is_some_and(|note| note.contains("has no certificate")),
        "{manifest}"
    );
}

/// The apple-by-apple construction of `--satisficing`'s first plan recurses
/// once per apple eaten. Its board-sized tables (arrivals, apple cells) were
/// kept at every level, so 20,000 apples on 100x100 needed gigabytes: the
/// run aborted within 1.5 GB of address space. Now each level keeps only
/// its candidate paths, and the search for arrivals stops once it has
/// reached what it looks for.
#[test]
fn the_first_plan_of_many_apples_on_a_large_board_fits_in_little_memory() {
    let dir = temp_dir("many-apples-memory");
    let apples: Vec<String> = (0..20_000)
        .map(|i| if i % 2 == 0 { "[1,0]" } else { "[0,0]" }.to_string())
        .collect();
    let instance = dir.join("alternating.json");
    std::fs::write(
        &instance,
        format!(
            r#"{{"width": 100, "height": 100, "snake": [[0, 0]], "apples": [{}], "visible": 1, "grow": false}}"#,
            apples.join(",")
        ),
    )
    .unwrap();
    let instance = instance.to_string_lossy().into_owned();
    let run = support::snakesat_within_memory(
        &["solve", &instance, "--satisficing", "--timeout", "120"],
        1_500_000,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .starts_with("plan: 20000 moves (proven least), 20000 apples"),
        "{}",
        &run.stdout[..run.stdout.len().min(200)]
    );
}
