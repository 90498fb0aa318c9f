//! GIFs from the command line: `solve --gif`, `render` of a saved plan, and
//! the errors of `render` (exit 2, one line naming what is wrong).

#[path = "support/cli.rs"]
mod support;
use support::{assert_bad_input, export_cnf, snakesat, snakesat_within, temp_dir};

use std::path::{Path, PathBuf};
use std::process::Command;

fn s(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// 6×6, a free start of length 3, three ordered apples.
const INSTANCE: &str = r#"{ "width": 6, "height": 6, "length": 3,
  "apples": [[4, 1], [1, 4], [5, 5]], "visible": 1 }"#;

/// The number of frames of a GIF file, read with the `gif` crate.
fn frames(path: &Path) -> usize {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut decoder = gif::DecodeOptions::new()
        .read_info(bytes.as_slice())
        .expect("a GIF header");
    let mut n = 0;
    while decoder.read_next_frame().expect("a frame").is_some() {
        n += 1;
    }
    n
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Solves the instance with `--json --gif`; returns (instance file, plan file, GIF, horizon).
fn solved(dir: &Path) -> (PathBuf, PathBuf, PathBuf, usize) {
    let instance = dir.join("instance.json");
    std::fs::write(&instance, INSTANCE).unwrap();
    let gif = dir.join("solve.gif");
    let run = snakesat(&["solve", s(&instance), "--json", "--gif", s(&gif)]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let plan: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON on stdout");
    assert_eq!(plan["status"], "sat");
    let horizon = plan["horizon"].as_u64().unwrap() as usize;
    assert_eq!(plan["path"].as_array().unwrap().len(), horizon + 1);
    assert!(run.stderr.contains("wrote"), "{}", run.stderr);
    let plan_file = dir.join("plan.json");
    std::fs::write(&plan_file, &run.stdout).unwrap();
    (instance, plan_file, gif, horizon)
}

#[test]
fn solve_gif_has_one_frame_per_time_point_and_render_redraws_it() {
    let dir = temp_dir("frames");
    let (instance, plan, gif, horizon) = solved(&dir);
    assert!(horizon > 5);
    assert_eq!(frames(&gif), horizon + 1);

    let again = dir.join("render.gif");
    let run = snakesat(&["render", s(&instance), s(&plan), "--gif", s(&again)]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(frames(&again), horizon + 1);
    // Same plan, same options: the same file.
    assert_eq!(std::fs::read(&gif).unwrap(), std::fs::read(&again).unwrap());
    assert!(!listing(&dir).iter().any(|n| n.ends_with(".partial")));
    assert!(run.stderr.contains("wrote"), "{}", run.stderr);
    // "wrote FILE" is a note: -q silences it, as it does for the other commands.
    let page = dir.join("quiet.html");
    let quiet = [
        "render",
        s(&instance),
        s(&plan),
        "--gif",
        s(&again),
        "--html",
        s(&page),
        "-q",
    ];
    let run = snakesat(&quiet);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(run.stderr, "");
    assert!(page.exists());
}

#[test]
fn skip_draws_fewer_frames_and_keeps_the_last() {
    let dir = temp_dir("skip");
    let (instance, plan, _, horizon) = solved(&dir);
    let gif = dir.join("skip.gif");
    let run = snakesat(&[
        "render",
        s(&instance),
        s(&plan),
        "--gif",
        s(&gif),
        "--skip",
        "3",
        "--cell",
        "10",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    // Time points 0, 3, 6, ... and the last one.
    let expected = horizon / 3 + 1 + usize::from(horizon % 3 != 0);
    assert_eq!(frames(&gif), expected);
    assert!(expected < horizon + 1);
    // The same option on solve.
    let solve_gif = dir.join("solve-skip.gif");
    let run = snakesat(&[
        "solve",
        s(&instance),
        "--gif",
        s(&solve_gif),
        "--skip",
        "3",
        "--cell",
        "10",
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert_eq!(
        std::fs::read(&gif).unwrap(),
        std::fs::read(&solve_gif).unwrap()
    );
}

#[test]
fn a_tampered_plan_is_refused_naming_the_violation() {
    let dir = temp_dir("tampered");
    let (instance, plan_file, _, _) = solved(&dir);
    let mut plan: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&plan_file).unwrap()).unwrap();
    // Move the head at t = 3 to a cell two or more steps from where it was at t = 2.
    let at = |t: usize| {
        let c = &plan["path"][t];
        (c[0].as_i64().unwrap(), c[1].as_i64().unwrap())
    };
    let (x2, y2) = at(2);
    let far = (0..6)
        .flat_map(|x| (0..6).map(move |y| (x, y)))
        .find(|&(x, y)| (x - x2).abs() + (y - y2).abs() >= 2)
        .unwrap();
    plan["path"][3] = serde_json::json!([far.0, far.1]);
    let tampered = dir.join("tampered.json");
    std::fs::write(&tampered, plan.to_string()).unwrap();
    let gif = dir.join("tampered.gif");
    let before = listing(&dir);
    let run = snakesat(&["render", s(&instance), s(&tampered), "--gif", s(&gif)]);
    assert_bad_input(&run, "illegal plan: step 3");
    assert!(run.stderr.contains("not adjacent"), "{}", run.stderr);
    assert_eq!(listing(&dir), before, "nothing written");
}

#[test]
fn bad_plan_files_are_refused_with_one_line() {
    let dir = temp_dir("bad");
    let (instance, plan_file, _, horizon) = solved(&dir);
    let good = std::fs::read_to_string(&plan_file).unwrap();
    let gif = dir.join("out.gif");
    let cases = [
        ("{ \"path\": ", "not a plan of `solve --json`"),
        (
            "[1, 2]",
            "not a plan of `solve --json`: a plan is a JSON object ({\"path\": ...}), not an array",
        ),
        (
            "{\"path\": [[0, 0]], \"eaten\": [[0, 1, 2]]}",
            "`eaten` entry 0 has 3 numbers; an entry is [apple, time]",
        ),
        (
            "{\"status\": \"unsat\", \"horizon\": 3, \"path\": []}",
            "status unsat",
        ),
        ("{\"status\": \"sat\"}", "no `path`"),
        (
            "{\"status\": null, \"path\": [[0, 0]]}",
            "invalid type: null, expected a string",
        ),
        (
            "{\"horizon\": null, \"path\": [[0, 0]]}",
            "invalid type: null, expected a whole number, 0 or more",
        ),
        (
            "{\"path\": [[0, 300000000000000000000]]}",
            "the number 300000000000000000000 is too large (at most 18446744073709551615) at line 1 column 35",
        ),
        (
            &good.replace(
                &format!("\"horizon\":{horizon}"),
                &format!("\"horizon\":{}", horizon + 1),
            ),
            "`horizon` is",
        ),
    ];
    for (i, (text, needle)) in cases.iter().enumerate() {
        let file = dir.join(format!("bad{i}.json"));
        std::fs::write(&file, text).unwrap();
        let run = snakesat(&["render", s(&instance), s(&file), "--gif", s(&gif)]);
        assert_bad_input(&run, needle);
        assert!(!gif.exists());
    }
    // A plan that stops short of the last apple.
    let mut plan: serde_json::Value = serde_json::from_str(&good).unwrap();
    let path = plan["path"].as_array_mut().unwrap();
    path.pop();
    plan["horizon"] = serde_json::json!(horizon - 1);
    let short = dir.join("short.json");
    std::fs::write(&short, plan.to_string()).unwrap();
    let run = snakesat(&["render", s(&instance), s(&short), "--gif", s(&gif)]);
    assert_bad_input(&run, "not eaten");
    // A missing plan file, an unwritable GIF, too small a cell.
    let run = snakesat(&[
        "render",
        s(&instance),
        "/nonexistent/plan.json",
        "--gif",
        s(&gif),
    ]);
    assert_bad_input(&run, "cannot read");
    let run = snakesat(&[
        "render",
        s(&instance),
        s(&plan_file),
        "--gif",
        "/nonexistent/dir/out.gif",
    ]);
    assert_bad_input(&run, "cannot write");
    let run = snakesat(&[
        "render",
        s(&instance),
        s(&plan_file),
        "--gif",
        s(&gif),
        "--cell",
        "3",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(!gif.exists());
}

#[test]
fn no_plan_no_gif() {
    let dir = temp_dir("noplan");
    let instance = dir.join("instance.json");
    std::fs::write(&instance, INSTANCE).unwrap();
    let gif = dir.join("none.gif");
    let chart = dir.join("none.svg");
    let run = snakesat(&[
        "solve",
        s(&instance),
        "--horizon",
        "2",
        "--gif",
        s(&gif),
        "--plot-horizon",
        s(&chart),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert!(run.stderr.contains("no GIF written"), "{}", run.stderr);
    // Every output that needs a plan says so, not only the GIF.
    assert!(
        run.stderr.contains("no horizon chart written"),
        "{}",
        run.stderr
    );
    assert!(!gif.exists() && !chart.exists());
    // An unwritable GIF is refused before solving.
    let run = snakesat(&["solve", s(&instance), "--gif", "/nonexistent/dir/out.gif"]);
    assert_bad_input(&run, "cannot write");
    // GIF options without `--gif` are a usage error, not silently ignored.
    let run = snakesat(&["solve", s(&instance), "--cell", "10"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--gif"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn render_help_documents_exit_code_2() {
    let run = snakesat(&["render", "--help"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("--skip"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("Exit codes: 0 every requested output (--gif, --html) written; 2 bad input"),
        "{}",
        run.stdout
    );
}

#[test]
fn decode_gif_animates_the_model_or_says_there_is_none() {
    let dir = temp_dir("decode");
    let cnf = dir.join("plan.cnf");
    export_cnf(&["--size", "6", "--apples", "3", "--horizon", "12"], &cnf);
    // An UNSAT answer: no plan, no GIF, and stderr says so.
    let unsat = dir.join("unsat.out");
    std::fs::write(&unsat, "s UNSATISFIABLE\n").unwrap();
    let gif = dir.join("decode.gif");
    let run = snakesat(&["decode", s(&cnf), s(&unsat), "--gif", s(&gif)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("no GIF written"), "{}", run.stderr);
    assert!(!gif.exists());
    // A model from an independent solver, when there is one (CI installs minisat).
    if Command::new("minisat").arg("--help").output().is_err() {
        assert!(
            std::env::var_os("CI").is_none(),
            "minisat is required in CI (.ci/run installs it)"
        );
        eprintln!("minisat not installed: skipping decode --gif of a model");
        return;
    }
    let model = dir.join("plan.out");
    let status = Command::new("minisat")
        .args([&cnf, &model])
        .output()
        .unwrap();
    assert_eq!(status.status.code(), Some(10), "minisat says SAT");
    let run = snakesat(&["decode", s(&cnf), s(&model), "--gif", s(&gif)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(frames(&gif), 13);
}

/// `decode --json --gif -` printed only the GIF on standard output (the
/// JSON was lost) and exited with the answer's code; like `solve` and
/// `play`, it is refused before anything is read, in the same words.
#[test]
fn decode_refuses_json_beside_gif_dash() {
    let dir = temp_dir("decode-json-dash");
    let cnf = dir.join("plan.cnf");
    export_cnf(&["--size", "4", "--apples", "1", "--horizon", "6"], &cnf);
    let unsat = dir.join("unsat.out");
    std::fs::write(&unsat, "s UNSATISFIABLE\n").unwrap();
    let run = snakesat(&["decode", s(&cnf), s(&unsat), "--json", "--gif", "-"]);
    assert_bad_input(&run, "--json and --gif - both write to standard output");
    let solve = snakesat(&[
        "solve", "--size", "4", "--apples", "1", "--json", "--gif", "-",
    ]);
    assert_eq!(solve.stderr, run.stderr, "the same refusal as solve's");
    assert_eq!(listing(&dir), ["plan.cnf", "unsat.out"]);
}

/// A 3-cell snake going round a Hamiltonian cycle of 10x10 for `moves`
/// moves (no apples), written as an instance and a plan file in `dir`.
fn round_and_round(dir: &Path, moves: usize) -> (PathBuf, PathBuf) {
    // Row 0 rightwards, rows 1..9 zig-zag over columns 1..9, column 0 up.
    let mut cycle: Vec<[usize; 2]> = (0..10).map(|x| [x, 0]).collect();
    for y in 1..10 {
        let xs: Vec<usize> = if y % 2 == 1 {
            (1..10).rev().collect()
        } else {
            (1..10).collect()
        };
        cycle.extend(xs.into_iter().map(|x| [x, y]));
    }
    cycle.extend((1..10).rev().map(|y| [0, y]));
    assert_eq!(cycle.len(), 100);
    let path: Vec<[usize; 2]> = (0..=moves).map(|k| cycle[(k + 2) % 100]).collect();
    let instance = serde_json::json!({
        "width": 10, "height": 10, "snake": [cycle[2], cycle[1], cycle[0]], "apples": [],
    });
    let (instance_file, plan_file) = (dir.join("cycle.json"), dir.join("cycle-plan.json"));
    std::fs::write(&instance_file, instance.to_string()).unwrap();
    std::fs::write(&plan_file, serde_json::json!({ "path": path }).to_string()).unwrap();
    (instance_file, plan_file)
}

/// Only a frame's pixels were capped, not frames × pixels: `--cell 200
/// --skip 1` of a 2,000-move plan (8.2 billion pixels) ran past a minute.
/// Beyond the pixels an animation may draw in all it is refused before any
/// drawing, naming the numbers and both flags; the automatic skip stays
/// within the limit by itself.
#[test]
fn too_many_pixels_in_all_are_refused_before_drawing() {
    let dir = temp_dir("animation-pixels");
    let (instance, plan) = round_and_round(&dir, 2000);
    let gif = dir.join("x.gif");
    let run = snakesat_within(
        &[
            "render",
            s(&instance),
            s(&plan),
            "--gif",
            s(&gif),
            "--cell",
            "200",
            "--skip",
            "1",
        ],
        std::time::Duration::from_secs(15),
    );
    assert_bad_input(
        &run,
        "the animation would draw 2001 frames of 2001x2039 pixels (8164158039 pixels), more than \
         the 1000 million pixels an animation may draw (choose a larger skip, --skip, or a smaller \
         cell size, --cell)",
    );
    assert_eq!(listing(&dir), ["cycle-plan.json", "cycle.json"]);
    // Within the limit (every 10th time point) it is drawn.
    let run = snakesat(&[
        "render",
        s(&instance),
        s(&plan),
        "--gif",
        s(&gif),
        "--cell",
        "40",
        "--skip",
        "10",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(frames(&gif), 201);
}

#[test]
fn gif_help_states_the_automatic_defaults() {
    for command in ["solve", "decode", "render", "play"] {
        let run = snakesat(&[command, "--help"]);
        assert_eq!(run.code, 0, "{command}");
        // The text of one flag: from its name to the next flag.
        let section = |flag: &str| {
            let start = run.stdout.find(&format!("{flag} <")).expect(flag);
            let rest = &run.stdout[start + flag.len()..];
            rest[..rest.find("\n      -").unwrap_or(rest.len())].to_string()
        };
        let skip = section("--skip");
        assert!(skip.contains("45 s"), "{command}: {skip}");
        assert!(!skip.contains("[default: 1]"), "{command}: {skip}");
        let cell = section("--cell");
        assert!(cell.contains("400 pixels"), "{command}: {cell}");
        assert!(!cell.contains("[default: 24]"), "{command}: {cell}");
    }
}

/// A long legal plan is checked and drawn in memory linear in the board:
/// a boustrophedon walk of a 200×125 board, one cell long at the start,
/// eating an apple at every one of its 24,999 moves (every apple visible).
/// Replaying it kept every time point's body and apples (about 4 GB, an
/// abort on allocation failure); both runs get a 2 GB address space here.
#[test]
fn a_long_plan_is_checked_and_drawn_in_bounded_memory() {
    let dir = temp_dir("long-plan");
    let (w, h) = (200usize, 125usize);
    let path: Vec<[usize; 2]> = (0..h)
        .flat_map(|y| {
            let xs: Vec<usize> = if y % 2 == 0 {
                (0..w).collect()
            } else {
                (0..w).rev().collect()
            };
            xs.into_iter().map(move |x| [x, y])
        })
        .collect();
    let moves = path.len() - 1;
    let instance = serde_json::json!({
        "width": w, "height": h, "snake": [path[0]], "apples": path[1..],
        "visible": "all", "tail": "follow",
    });
    let plan = serde_json::json!({
        "status": "sat", "horizon": moves, "path": path,
        "eaten": (0..moves).map(|i| [i, i + 1]).collect::<Vec<_>>(),
    });
    let (instance_file, plan_file) = (dir.join("long.json"), dir.join("plan.json"));
    std::fs::write(&instance_file, instance.to_string()).unwrap();
    std::fs::write(&plan_file, plan.to_string()).unwrap();
    let gif = dir.join("long.gif");
    let limited = |args: &[&str]| {
        let run = support::snakesat_within_memory(args, 2_000_000);
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        (run.stdout, run.stderr)
    };
    let (stdout, _) = limited(&["check", s(&instance_file), s(&plan_file)]);
    assert!(
        stdout.contains("valid: 24999 moves, all 24999 apples eaten"),
        "{stdout}"
    );
    let (_, stderr) = limited(&["render", "--gif", s(&gif), s(&instance_file), s(&plan_file)]);
    // The automatic skip: every 84th time point and the last.
    assert!(stderr.contains("299 frames, every 84th"), "{stderr}");
    assert_eq!(frames(&gif), 299);
    let _ = std::fs::remove_dir_all(&dir);
}
