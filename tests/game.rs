//! The full game (`snakesat play` and `snakesat::game`): every reuse strategy
//! plays complete games with legal moves only, the same seed gives the same
//! game, odd boards report how full they got, bad input is refused, and an
//! apple's `least` claim holds against a brute force.

#[path = "support/safe.rs"]
mod safe;
#[path = "support/cli.rs"]
mod support;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use snakesat::game::{
    self, DEFAULT_CONFLICTS, DEFAULT_ROUNDS, DEFAULT_UNDECIDED, GameConfig, GameRecord, Reuse,
};
use snakesat::sim;
use support::{assert_bad_input, snakesat, temp_dir};

fn config(width: usize, height: usize, seed: u64, reuse: Reuse) -> GameConfig {
    GameConfig {
        width,
        height,
        seed,
        reuse,
        timeout_per_apple: None,
        conflicts: Some(1000),
        rounds: 10,
        undecided_per_apple: 4,
        lengths_per_apple: u32::MAX,
        detours_per_apple: 8,
        threads: 1,
    }
}

/// Checks the game move by move, independently of the player: adjacent
/// moves, no bite (follow tail rule), apples eaten in order, one per apple
/// record; and that the record's instance is valid.
fn check_legal(record: &GameRecord) {
    // The record's instance is a valid one (a 1x1 game's had horizon 0).
    record.instance().validate().expect("a valid instance");
    let replay = sim::simulate(&record.instance(), &record.path).expect("legal game");
    assert_eq!(replay.eaten.len(), record.stats.eaten);
    assert_eq!(replay.final_length, record.stats.final_length);
    let mut time = 0;
    for (apple, &(index, eaten_at)) in record.apples.iter().zip(&replay.eaten) {
        time += apple.steps;
        assert_eq!(index, apple.index);
        assert_eq!(eaten_at, time, "apple {index} eaten when its record says");
        assert!(apple.steps >= apple.lower_bound);
    }
    assert_eq!(time, record.stats.steps);
    assert_eq!(record.path.len(), record.stats.steps + 1);
    // Where the moves go: every apple eaten one of three ways.
    let b = record.stats.breakdown;
    assert_eq!(
        b.shortest_apples + b.route_apples + b.cycle_apples,
        record.stats.eaten
    );
    assert_eq!(
        b.shortest_steps + b.route_steps + b.cycle_steps,
        record.stats.steps
    );
    let on_shortest = record.apples[..record.stats.eaten]
        .iter()
        .filter(|a| a.method == game::AppleMethod::Shortest);
    assert_eq!(on_shortest.clone().count(), b.shortest_apples);
    assert!(on_shortest.clone().all(|a| a.steps == a.lower_bound));
}

#[test]
fn every_strategy_wins_small_boards_with_legal_moves() {
    for reuse in Reuse::ALL {
        for (size, seeds) in [(4, 1..=5), (6, 1..=3)] {
            for seed in seeds {
                let record = game::play(&config(size, size, seed, reuse), |_| {}).unwrap();
                assert!(
                    record.stats.won,
                    "{reuse:?} {size}x{size} seed {seed}: {:?}",
                    record.stats.loss
                );
                assert_eq!(record.stats.final_length, size * size);
                assert_eq!(record.stats.eaten, size * size - 1);
                check_legal(&record);
            }
        }
    }
}

#[test]
fn the_large_board_player_wins_with_every_strategy() {
    // No joint search (as above 14x14): candidate paths certified by
    // repairing the cycle near them, detours from the cells along the cycle.
    for reuse in Reuse::ALL {
        for (size, seed) in [(6, 1), (8, 2)] {
            let mut cfg = config(size, size, seed, reuse);
            cfg.lengths_per_apple = 0;
            cfg.detours_per_apple = 200;
            let record = game::play(&cfg, |_| {}).unwrap();
            assert!(
                record.stats.won,
                "{reuse:?} {size}x{size}: {:?}",
                record.stats.loss
            );
            check_legal(&record);
            let b = record.stats.breakdown;
            assert!(b.shortest_apples > 0 && b.route_apples + b.cycle_apples > 0);
            // The same seed, the same game.
            let again = game::play(&cfg, |_| {}).unwrap();
            assert_eq!(again.path, record.path, "{reuse:?} {size}x{size}");
        }
    }
}

/// The path searches along the cycle run on several threads, the next
/// steps at once: the game must be the one a single thread plays, with every
/// strategy (the solver certifies in the walk's order), with detours cut
/// short by their budget (the steps searched ahead stop there) and after a
/// joint search (the first step's lower bound is known, the others' not).
#[test]
fn more_threads_play_the_same_game() {
    let cases = [
        (16, 16, 1, Reuse::Clauses, 0, 200),
        (12, 10, 3, Reuse::Nogoods, 0, 200),
        (10, 10, 2, Reuse::Fresh, 0, 5),
        (8, 8, 4, Reuse::Activation, 0, 1),
        (10, 10, 5, Reuse::Assumptions, 1, 200),
    ];
    for (w, h, seed, reuse, lengths, detours) in cases {
        let mut cfg = config(w, h, seed, reuse);
        cfg.lengths_per_apple = lengths;
        cfg.detours_per_apple = detours;
        let one = game::play(&cfg, |_| {}).unwrap();
        assert!(one.stats.won, "{w}x{h}: {:?}", one.stats.loss);
        assert!(
            one.stats.breakdown.route_apples > 0,
            "{w}x{h}: no detour taken"
        );
        for threads in [2, 3] {
            let many = game::play(&GameConfig { threads, ..cfg }, |_| {}).unwrap();
            assert_eq!(
                many.path, one.path,
                "{w}x{h} seed {seed}, {threads} threads"
            );
            assert_eq!(many.stats.breakdown, one.stats.breakdown);
        }
    }
}

/// `play_until` stops before the next apple once its flag is raised (here
/// by the callback after the third apple); a flag never raised plays the
/// same game as `play`.
#[test]
fn a_raised_flag_stops_the_game_before_the_next_apple() {
    let cfg = config(6, 6, 3, Reuse::Clauses);
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let stopped = game::play_until(&cfg, &stop, |apple| {
        seen += 1;
        if apple.index == 2 {
            stop.store(true, Ordering::Relaxed);
        }
    });
    assert_eq!(stopped.unwrap_err(), game::GameError::Stopped { eaten: 3 });
    assert_eq!(seen, 3);
    let whole = game::play_until(&cfg, &AtomicBool::new(false), |_| {}).unwrap();
    assert!(whole.stats.won);
    assert_eq!(whole.path, game::play(&cfg, |_| {}).unwrap().path);
}

/// A game lost because the time per apple ran out says so: it was reported
/// as "no safe plan" (7x7 seed 1202, where a snake of length 2 has one).
#[test]
fn a_game_out_of_time_is_not_called_without_a_safe_plan() {
    let mut hurried = config(7, 7, 1202, Reuse::Clauses);
    hurried.timeout_per_apple = Some(std::time::Duration::from_nanos(1));
    let record = game::play(&hurried, |_| {}).unwrap();
    check_legal(&record);
    assert!(!record.stats.won);
    let loss = record.stats.loss.expect("a loss");
    assert!(
        loss.starts_with("the time per apple ran out before a safe plan was found to apple"),
        "{loss}"
    );
    // Without the limit the same seed is won.
    let record = game::play(&config(7, 7, 1202, Reuse::Clauses), |_| {}).unwrap();
    assert!(record.stats.won, "{:?}", record.stats.loss);
}

#[test]
fn rectangles_and_odd_boards() {
    for (w, h) in [(2, 2), (2, 3), (4, 6), (3, 5), (5, 5), (1, 1)] {
        let record = game::play(&config(w, h, 7, Reuse::Assumptions), |_| {}).unwrap();
        check_legal(&record);
        if (w * h) % 2 == 0 {
            assert!(record.stats.won, "{w}x{h}: {:?}", record.stats.loss);
        } else {
            // No Hamiltonian cycle: the game may end early, but says so.
            assert_eq!(record.stats.won, record.stats.final_length == w * h);
            assert_eq!(record.stats.won, record.stats.loss.is_none(), "{w}x{h}");
        }
    }
    // An apple on the cell an odd board's cycle skips is still reached (by the
    // joint search): these 5x5 and 7x7 games fill the board.
    for (size, seed) in [(5, 1), (5, 2), (5, 3), (7, 1)] {
        let record = game::play(&config(size, size, seed, Reuse::Clauses), |_| {}).unwrap();
        check_legal(&record);
        assert!(
            record.stats.won,
            "{size}x{size} seed {seed}: {:?}",
            record.stats.loss
        );
    }
    // A single row or column longer than 2 has no cycle at all: refused
    // before any move (every reuse strategy used to panic or loop in the
    // cycle edits on one-column boards).
    for (w, h) in [(5, 1), (1, 4), (1, 6), (3, 1)] {
        for reuse in Reuse::ALL {
            let refused = game::play(&config(w, h, 1, reuse), |_| {});
            assert!(
                matches!(refused, Err(game::GameError::NoCycle(..))),
                "{w}x{h} {reuse:?}"
            );
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for reuse in [Reuse::Fresh, Reuse::Nogoods] {
        let a = game::play(&config(6, 6, 11, reuse), |_| {}).unwrap();
        let b = game::play(&config(6, 6, 11, reuse), |_| {}).unwrap();
        assert_eq!(a.path, b.path);
        let apples = |r: &GameRecord| r.apples.iter().map(|a| a.cell).collect::<Vec<_>>();
        assert_eq!(apples(&a), apples(&b));
        let c = game::play(&config(6, 6, 12, reuse), |_| {}).unwrap();
        assert_ne!(apples(&a), apples(&c), "another seed, other apples");
    }
}

#[test]
fn a_timeout_still_gives_a_safe_game() {
    // With (almost) no time the snake follows its certified cycle: slower, never lost.
    let mut cfg = config(6, 6, 3, Reuse::Assumptions);
    cfg.timeout_per_apple = Some(Duration::from_nanos(1));
    let record = game::play(&cfg, |_| {}).unwrap();
    assert!(record.stats.won, "{:?}", record.stats.loss);
    check_legal(&record);
}

/// A timeout too long to add to the clock is no limit (it panicked).
#[test]
fn an_endless_timeout_is_no_limit() {
    let mut cfg = config(4, 4, 1, Reuse::Assumptions);
    cfg.timeout_per_apple = Some(Duration::MAX);
    let record = game::play(&cfg, |_| {}).unwrap();
    assert!(record.stats.won, "{:?}", record.stats.loss);
    check_legal(&record);
}

#[test]
fn play_command_prints_checked_games() {
    let dir = temp_dir("play");
    let gif = dir.join("game.gif");
    let run = snakesat(&[
        "play",
        "--size",
        "4x6",
        "--seed",
        "3",
        "--games",
        "2",
        "--reuse",
        "nogoods",
        "--json",
        "--gif",
        gif.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let games: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2);
    for (g, seed) in games.iter().zip([3, 4]) {
        assert_eq!(g["seed"], seed);
        assert_eq!(g["won"], true);
        assert_eq!(g["reuse"], "nogoods");
        assert_eq!(g["apples"].as_array().unwrap().len(), 23);
    }
    let bytes = std::fs::read(&gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));

    let text = snakesat(&["play", "--size", "4", "--seed", "3"]);
    assert_eq!(text.code, 0);
    assert!(
        text.stdout.contains("won with length 16/16"),
        "{}",
        text.stdout
    );
}

#[test]
fn play_refuses_bad_input() {
    for (args, needle) in [
        (vec!["--size", "0"], "out of range"),
        (vec!["--size", "65"], "out of range"),
        (vec!["--size", "4x"], "not a board side"),
        // One row or column: no Hamiltonian cycle (this used to panic in the cycle edits).
        (vec!["--size", "1x4"], "no Hamiltonian cycle"),
        (vec!["--size", "6x1"], "no Hamiltonian cycle"),
        (
            vec!["--size", "1x3", "--reuse", "fresh"],
            "no Hamiltonian cycle",
        ),
        (vec!["--size", "axb"], "not a board side"),
        // A whole number too large for a side is out of range, not "not a
        // whole number"; an open-ended count's least value is said plainly
        // (it was "0 is not in 1..18446744073709551615").
        (
            vec!["--size", "99999999999999999999"],
            "board side 99999999999999999999 is out of range 1..=64",
        ),
        (
            vec!["--rounds", "0"],
            "--rounds <N>': it must be at least 1",
        ),
        (
            vec!["--gif", "g.gif", "--skip", "0"],
            "it must be at least 1",
        ),
        (
            vec!["--rounds", "99999999999"],
            "it is larger than 4294967295, the most it can be",
        ),
        // An animation too large for any game of the board is refused before
        // the game (a 64x64 game plays for minutes first).
        (
            vec![
                "--size", "64", "--gif", "g.gif", "--skip", "1", "--cell", "20",
            ],
            "would draw at least 4096 frames of at least 1281x1281 pixels",
        ),
        // A GIF under another format's name (it was written, exit 0).
        (
            vec!["--gif", "game.svg"],
            "a GIF's file name ends in .gif, not .svg",
        ),
        // A page under a GIF's name (it was written, exit 0), and empty
        // names (the two flags worded them differently).
        (
            vec!["--html", "game.gif"],
            "an HTML page's file name ends in .html or .htm, not .gif",
        ),
        (
            vec!["--html", ""],
            "a file name is needed, not an empty one",
        ),
        (vec!["--gif", ""], "a file name is needed, not an empty one"),
        // A negative seed was "invalid digit found in string".
        (
            vec!["--seed", "-1"],
            "a seed is a whole number from 0 to 18446744073709551615",
        ),
        (
            vec!["--timeout", "0"],
            "must be a number of seconds from 0.000001",
        ),
        (
            vec!["--timeout", "nan"],
            "must be a number of seconds from 0.000001",
        ),
        (vec!["--games", "0"], "--games"),
        // Unbounded games ran until killed; bench game's cap applies.
        (vec!["--games", "1000001"], "1000001 is not in 1..=1000000"),
        (vec!["--threads", "0"], "not in 1..=64"),
        (vec!["--threads", "65"], "not in 1..=64"),
        (vec!["--threads", "two"], "invalid digit"),
        (vec!["--reuse", "sometimes"], "sometimes"),
        (vec!["--gif", "/no/such/dir/g.gif"], "no directory"),
    ] {
        let mut all = vec!["play"];
        all.extend(args);
        assert_bad_input(&snakesat(&all), needle);
    }
}

/// For logs (stderr not a terminal), `SNAKESAT_PROGRESS=SECONDS` writes the
/// progress bar's line as plain text at most every SECONDS; `--quiet`
/// silences it, and without the variable nothing is written.
#[test]
fn play_writes_progress_lines_for_logs() {
    let run = |progress: Option<&str>, quiet: bool| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_snakesat"));
        command.args(["play", "--size", "16", "--seed", "1", "--threads", "1"]);
        if quiet {
            command.arg("--quiet");
        }
        match progress {
            Some(seconds) => command.env("SNAKESAT_PROGRESS", seconds),
            None => command.env_remove("SNAKESAT_PROGRESS"),
        };
        let out = command.output().unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stdout).contains("16x16 seed 1 (clauses): won"));
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let log = run(Some("0.01"), false);
    let lines: Vec<&str> = log.lines().collect();
    assert!(!lines.is_empty(), "no progress line");
    for line in &lines {
        assert!(line.ends_with("/255 apples seed 1"), "{line:?}");
        assert!(
            !line.contains(['\x1b', '\r']),
            "terminal codes in a log: {line:?}"
        );
    }
    assert_eq!(run(Some("0.01"), true), "");
    assert_eq!(run(None, false), "");
}

/// A lost game's last apple record is the apple it never reached, marked
/// `lost` (it was listed as followed along the cycle with 0 steps), so the
/// per-apple methods add up to the summary; the loss names it from 1.
#[test]
fn a_lost_game_marks_the_apple_it_never_reached() {
    let run = snakesat(&["play", "--size", "5", "--seed", "62", "--json"]);
    assert_eq!(run.code, 1, "the README's lost 5x5 game: {}", run.stderr);
    let game: serde_json::Value = serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    let apples = game["apples"].as_array().unwrap();
    let eaten = game["eaten"].as_u64().unwrap() as usize;
    assert_eq!(apples.len(), eaten + 1);
    assert_eq!(apples[eaten]["method"], "lost");
    for method in ["shortest", "route", "cycle"] {
        let listed = apples.iter().filter(|a| a["method"] == method).count();
        let key = format!("{method}_apples");
        assert_eq!(
            listed as u64,
            game[key.as_str()].as_u64().unwrap(),
            "{method}"
        );
    }
    let loss = game["loss"].as_str().unwrap();
    assert!(
        loss.starts_with(&format!("no safe plan to apple {} at", eaten + 1)),
        "{loss}"
    );
}

/// Seeds past the largest one (they wrapped round to 0), JSON and a GIF both
/// on standard output, and charts of boards without apples (drawn only after
/// every game, then refused) are refused before any game.
#[test]
fn impossible_output_and_seed_requests_are_refused_up_front() {
    let max = u64::MAX.to_string();
    assert_bad_input(
        &snakesat(&["play", "--size", "4", "--seed", &max, "--games", "2"]),
        "goes past the largest seed",
    );
    assert_bad_input(
        &snakesat(&[
            "bench", "game", "--sizes", "4", "--seed", &max, "--games", "2",
        ]),
        "goes past the largest seed",
    );
    assert_bad_input(
        &snakesat(&["play", "--size", "4", "--json", "--gif", "-"]),
        "--json and --gif - both write to standard output",
    );
    assert_bad_input(
        &snakesat(&["solve", "--json", "--gif", "-"]),
        "--json and --gif - both write to standard output",
    );
    let dir = temp_dir("one-cell-chart");
    let chart = dir.join("steps.svg");
    let json = dir.join("games.json");
    let run = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "1",
        "--games",
        "2",
        "--plot-steps",
        chart.to_str().unwrap(),
        "--json-out",
        json.to_str().unwrap(),
    ]);
    assert_bad_input(&run, "nothing to draw, a board of one cell has no apples");
    assert!(!chart.exists() && !json.exists());
    // One seed at the very end is fine.
    let run = snakesat(&["play", "--size", "4", "--seed", &max, "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// `play --html` writes the viewer of the first game with each apple's
/// method in its "how" column (the column existed but nothing filled it).
#[test]
fn play_writes_an_html_viewer_with_how_each_apple_was_reached() {
    let dir = temp_dir("play-html");
    let page = dir.join("game.html");
    let run = snakesat(&[
        "play",
        "--size",
        "6",
        "--seed",
        "2",
        "--json",
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let game: serde_json::Value = serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    let start = html.find("\"methods\":[").expect("methods in the page") + "\"methods\":[".len();
    let list = &html[start..start + html[start..].find(']').unwrap()];
    let methods: Vec<&str> = list.split(',').map(|m| m.trim_matches('"')).collect();
    let expected: Vec<&str> = game["apples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| match a["method"].as_str().unwrap() {
            "shortest" => "shortest path",
            "route" => "longer certified path",
            _ => "following the cycle",
        })
        .collect();
    assert_eq!(methods, expected);
    assert!(html.contains("6x6 seed 2"), "title");
}

/// On a board with an odd number of cells the last apple, on the last free
/// cell, needs no cycle after it: any legal path to it is safe. The player
/// used to ask for one anyway and lost (review 12a: `--size 7x5 --seed 1`
/// stopped at 34/35 "no safe plan" though a 14-move legal path, the lower
/// bound, eats it); now it takes the least legal path and wins.
#[test]
fn the_apple_that_fills_an_odd_board_is_eaten_without_a_certificate() {
    for (w, h, seed) in [(7, 5, 1), (5, 5, 4), (7, 7, 6), (3, 7, 1)] {
        let record = game::play(&config(w, h, seed, Reuse::Clauses), |_| {}).unwrap();
        check_legal(&record);
        assert!(
            record.stats.won,
            "{w}x{h} seed {seed}: {:?}",
            record.stats.loss
        );
        let last = record.apples.last().unwrap();
        assert_eq!(last.length, w * h - 1);
        assert!(last.least && last.steps == last.lower_bound, "{last:?}");
    }
    let run = snakesat(&["play", "--size", "7x5", "--seed", "1"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("won with length 35/35"),
        "{}",
        run.stdout
    );
}

/// An apple on the cell an odd board's cycle skips, walled in by the body
/// (9x9 seed 1004, apple 51 in the corner (0, 0), its two neighbours near
/// the head of a 51-cell body): the joint search from the head ran for the
/// whole minute per apple and the game was lost at 51/81. Asked again from
/// each cell of a lap along the cycle (with the solver's limits), it is
/// reached once the tail has freed a neighbour, and the game is won (about
/// 2 s here).
#[test]
fn an_apple_off_an_odd_boards_cycle_is_asked_again_along_it() {
    let cfg = GameConfig {
        timeout_per_apple: Some(Duration::from_secs(30)),
        threads: 1,
        ..GameConfig::new(9, 9, 1004)
    };
    let record = game::play(&cfg, |_| {}).unwrap();
    check_legal(&record);
    assert!(record.stats.won, "{:?}", record.stats.loss);
    let corner = &record.apples[50];
    assert_eq!((corner.cell, corner.length), ((0, 0), 51));
    assert!(corner.steps > corner.lower_bound, "{corner:?}");
}

/// The GIF and the viewer of a lost game show the apple it was lost on
/// (revealed at the last step) and say it was lost; a won game's pictures
/// have no such apple.
#[test]
fn pictures_of_a_lost_game_show_the_apple_it_was_lost_on() {
    // `play`'s defaults, as the command below plays it.
    let cfg = GameConfig::new(5, 5, 62);
    let lost = game::play(&cfg, |_| {}).unwrap();
    assert!(!lost.stats.won, "the README's lost 5x5 game");
    let eaten = lost.stats.eaten;
    let shown = lost.picture_instance();
    assert_eq!(shown.apples.len(), eaten + 1);
    assert_eq!(shown.apples[eaten], lost.apples[eaten].cell);
    let won = game::play(&config(4, 4, 1, Reuse::Clauses), |_| {}).unwrap();
    assert_eq!(won.picture_instance(), won.instance());

    let dir = temp_dir("play-lost");
    let (gif, page) = (dir.join("lost.gif"), dir.join("lost.html"));
    let run = snakesat(&[
        "play",
        "--size",
        "5",
        "--seed",
        "62",
        "--gif",
        gif.to_str().unwrap(),
        "--html",
        page.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
    let html = std::fs::read_to_string(&page).unwrap();
    let moves = lost.stats.steps;
    assert!(
        html.contains(&format!("<title>5x5 seed 62 — {moves} moves, lost</title>")),
        "title"
    );
    let start = html.find("id=\"plan-data\">").unwrap() + "id=\"plan-data\">".len();
    let end = start + html[start..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&html[start..end]).unwrap();
    let apples = data["apples"].as_array().unwrap();
    assert_eq!(apples.len(), eaten + 1);
    // Revealed by the last eat, never eaten (`T + 1`), "not reached".
    assert_eq!(apples[eaten]["reveal"], moves);
    assert_eq!(apples[eaten]["eat"], moves + 1);
    assert_eq!(data["methods"][eaten], "not reached");
}

/// No legal plan is shorter than an apple's lower bound, so a certified plan
/// that long is a least safe plan. Above 196 cells, paths found from a cell
/// along the cycle (detours) were marked not least even then (review 12a:
/// 16x16 seed 2, 123 apples on a shortest path but 121 by a least safe plan).
#[test]
fn a_plan_as_short_as_the_lower_bound_is_a_least_safe_plan() {
    let run = snakesat(&["play", "--size", "16", "--seed", "2", "--json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let game: serde_json::Value = serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap();
    let apples = game["apples"].as_array().unwrap();
    for a in apples.iter().filter(|a| a["steps"] == a["lower_bound"]) {
        assert_eq!(a["least"], true, "{a}");
    }
    assert!(game["least_safe"].as_u64() >= game["shortest_possible"].as_u64());
}

/// `rounds: 0` and `conflicts: Some(0)` made the player report a 4x4 game
/// lost at its first apple ("no safe plan") and a negative limit meant no
/// limit: a configuration out of range is refused before playing.
#[test]
fn a_bad_game_config_is_refused_not_lost() {
    let base = GameConfig {
        reuse: Reuse::Nogoods,
        ..GameConfig::new(4, 4, 1)
    };
    let cases = [
        (GameConfig { rounds: 0, ..base }, "rounds", 0),
        (
            GameConfig {
                undecided_per_apple: 0,
                ..base
            },
            "undecided_per_apple",
            0,
        ),
        (
            GameConfig {
                conflicts: Some(0),
                ..base
            },
            "conflicts",
            0,
        ),
        (
            GameConfig {
                conflicts: Some(-1),
                ..base
            },
            "conflicts",
            -1,
        ),
        (GameConfig { threads: 0, ..base }, "threads", 0),
        (
            GameConfig {
                threads: game::MAX_THREADS + 1,
                ..base
            },
            "threads",
            game::MAX_THREADS as i64 + 1,
        ),
    ];
    for (cfg, name, bad) in cases {
        match game::play(&cfg, |_| {}) {
            Err(e @ game::GameError::BadSetting { setting, value, .. }) => {
                assert_eq!((setting, value), (name, bad));
                assert!(e.to_string().contains(&format!("{name} = {bad}")), "{e}");
            }
            other => panic!("{name} = {bad}: {:?}", other.map(|r| r.stats.loss)),
        }
        assert!(cfg.check().is_err());
    }
    // The defaults (the CLI's), and no conflict limit, win.
    assert_eq!(base.conflicts, Some(DEFAULT_CONFLICTS));
    assert_eq!(
        (base.rounds, base.undecided_per_apple),
        (DEFAULT_ROUNDS, DEFAULT_UNDECIDED)
    );
    for cfg in [
        base,
        GameConfig {
            conflicts: None,
            ..base
        },
    ] {
        let record = game::play(&cfg, |_| {}).unwrap();
        assert!(record.stats.won, "{:?}", record.stats.loss);
        check_legal(&record);
    }
}

/// The body (head first) before each eaten apple and the moves that ate it,
/// replayed from the record's head path (the snake starts with one cell).
fn bodies_and_moves(record: &GameRecord, board: safe::Board) -> Vec<(Vec<usize>, Vec<usize>)> {
    let path: Vec<usize> = record.path.iter().map(|&p| board.cell(p)).collect();
    let mut body = vec![path[0]];
    let mut time = 0;
    let mut out = vec![];
    for apple in &record.apples[..record.stats.eaten] {
        let moves = path[time + 1..=time + apple.steps].to_vec();
        time += apple.steps;
        let after = safe::body_after(&body, &moves);
        out.push((std::mem::replace(&mut body, after), moves));
    }
    out
}

/// Checks every eaten apple of `record` against the brute force of
/// tests/support/safe.rs: the plan taken is safe (the apple that fills the
/// board needs no cycle), and when its record says `least`, no safe plan
/// (any legal plan, for the filling apple) is shorter. Returns how many
/// apples not called least a shorter safe plan would have eaten, and how
/// many called least a shorter legal but unsafe plan would have eaten.
fn check_least_by_brute_force(record: &GameRecord) -> (usize, usize) {
    let board = safe::Board {
        width: record.stats.width,
        height: record.stats.height,
    };
    let (mut beaten, mut unsafe_shorter) = (0, 0);
    for ((body, moves), apple) in bodies_and_moves(record, board).iter().zip(&record.apples) {
        let what = format!(
            "{}x{} seed {} {:?} apple {}",
            board.width, board.height, record.stats.seed, record.stats.reuse, apple.index
        );
        assert_eq!(body.len(), apple.length, "{what}");
        let target = board.cell(apple.cell);
        assert_eq!(moves.last(), Some(&target), "{what}");
        let fills = apple.length + 1 == board.cells();
        assert!(
            fills || safe::admits_cycle(board, &safe::body_after(body, moves)),
            "{what}: the plan taken is not safe"
        );
        let shorter = safe::shorter_plan(board, body, target, apple.steps, !fills);
        if apple.least {
            assert_eq!(shorter, None, "{what}: called least, {} moves", apple.steps);
            if safe::shorter_plan(board, body, target, apple.steps, false).is_some() {
                unsafe_shorter += 1;
            }
        } else if shorter.is_some() {
            beaten += 1;
        }
    }
    (beaten, unsafe_shorter)
}

/// `least` ("no safe plan is shorter", docs/FORMATS.md) against a brute
/// force on small boards (review 14b: nothing checked it, and calling a plan
/// least after a shorter length was left undecided passed every test). With
/// a limit of one conflict some lengths are left undecided, and some apples
/// that a shorter safe plan would have eaten must not be called least.
#[test]
fn least_means_no_shorter_safe_plan_by_brute_force() {
    for conflicts in [Some(1), Some(1000), None] {
        let (mut beaten, mut unsafe_shorter) = (0, 0);
        for (w, h, seeds) in [(4, 4, 1..=6), (4, 6, 1..=3), (5, 5, 1..=3), (6, 6, 1..=3)] {
            for reuse in Reuse::ALL {
                for seed in seeds.clone() {
                    let cfg = GameConfig {
                        conflicts,
                        // (Enough that a limit of one conflict does not end
                        // the search before a longer length is found.)
                        undecided_per_apple: 1000,
                        ..config(w, h, seed, reuse)
                    };
                    let record = game::play(&cfg, |_| {}).unwrap();
                    // (An odd board's game may be lost: its eaten apples are checked.)
                    assert!(
                        record.stats.won || !(w * h).is_multiple_of(2),
                        "{w}x{h} seed {seed}"
                    );
                    let (b, u) = check_least_by_brute_force(&record);
                    (beaten, unsafe_shorter) = (beaten + b, unsafe_shorter + u);
                }
            }
        }
        // The safety check decides: some least plans are longer than a legal one.
        assert!(unsafe_shorter > 0, "{conflicts:?}");
        // A shorter safe plan's length was neither refuted nor found (the
        // shorter plan would have been taken): it was left undecided.
        if conflicts == Some(1) {
            assert!(beaten > 0, "no length left undecided had a safe plan");
        }
    }
}

/// A query undecided within `conflicts` proves nothing, so it does not lose
/// a game: the first cycle is found without the limit (every odd-board game
/// at `--conflicts` below about 60 was lost at length 1, before its first
/// move), and a search that would end the game is tried again without it.
#[test]
fn a_low_conflict_limit_does_not_lose_odd_games() {
    for seed in 1..=10 {
        for (side, must_win) in [(5, true), (7, false)] {
            let cfg = GameConfig {
                conflicts: Some(1),
                ..GameConfig::new(side, side, seed)
            };
            let record = game::play(&cfg, |_| {}).unwrap();
            assert!(record.stats.eaten > 0, "{side}x{side} seed {seed}");
            if must_win {
                assert!(record.stats.won, "{side}x{side} seed {seed}");
            }
        }
    }
}

/// `play` played the whole game before refusing a GIF too large to draw,
/// and had printed its summary by then (exit 2 with output on stdout); a
/// picture on standard output swallowed the summary, won or lost.
#[test]
fn pictures_are_refused_before_the_summary_and_a_picture_on_stdout_keeps_it() {
    let dir = temp_dir("play-pictures");
    let gif = dir.join("x.gif").to_string_lossy().into_owned();
    // The board alone is too large: refused before the game, and before
    // `solve`'s search (it answered first: here "no plan", exit 1).
    let run = snakesat(&["play", "--size", "16", "--gif", &gif, "--cell", "5000"]);
    assert_bad_input(&run, "more than a GIF allows");
    let solve = [
        "solve", "--size", "16", "--apples", "30", "--gif", &gif, "--cell", "5000",
    ];
    assert_bad_input(&snakesat(&solve), "more than a GIF allows");
    // Too much to draw, known once the game's length is: refused before
    // anything is printed.
    let run = snakesat(&[
        "play", "--size", "8", "--json", "--gif", &gif, "--cell", "200", "--skip", "1",
    ]);
    assert_bad_input(&run, "more than the 1000 million pixels");
    assert!(!std::path::Path::new(&gif).exists());
    // The viewer on stdout, the summary on stderr.
    let run = snakesat(&["play", "--size", "4", "--html", "-"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("<!DOCTYPE html>"),
        "{}",
        &run.stdout[..40]
    );
    assert!(
        run.stderr
            .contains("4x4 seed 1 (clauses): won with length 16/16"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game in which the time per apple stopped a search says so (it said
/// nothing: a won game looked like any other, though another run may play
/// another one), per apple and in all; a game that never reached it says 0.
#[test]
fn apples_that_reach_the_time_per_apple_are_counted() {
    let json = |args: &[&str]| -> serde_json::Value {
        let run = snakesat(args);
        assert_eq!(run.code, 0, "{}", run.stderr);
        serde_json::from_str(run.stdout.lines().next().unwrap()).unwrap()
    };
    let rushed_game = [
        "play",
        "--size",
        "8",
        "--seed",
        "1",
        "--timeout",
        "0.000001",
    ];
    let rushed = json(&[&rushed_game[..], &["--json"]].concat());
    let timed_out = rushed["apples"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["timed_out"] == true)
        .count();
    assert!(timed_out > 0, "{rushed}");
    assert_eq!(rushed["timeouts"], timed_out);
    let text = snakesat(&rushed_game);
    assert!(
        text.stdout
            .contains("reached the time per apple (--timeout)"),
        "{}",
        text.stdout
    );
    let bench = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "6",
        "--games",
        "2",
        "--timeout",
        "0.000001",
        "--csv-out",
        "-",
    ]);
    assert_eq!(bench.code, 0, "{}", bench.stderr);
    assert!(
        bench
            .stderr
            .contains("2 games reached the time per apple (--timeout)"),
        "{}",
        bench.stderr
    );
    // The Markdown table went to stderr, beside the CSV on stdout.
    assert!(
        bench.stderr.contains("| grid | reuse |"),
        "{}",
        bench.stderr
    );
    let mut rows = bench.stdout.lines();
    assert!(rows.next().unwrap().ends_with(",timeouts"));
    assert!(rows.all(|r| r.rsplit(',').next().unwrap().parse::<u64>().unwrap() > 0));
    let calm = json(&["play", "--size", "8", "--seed", "1", "--json"]);
    assert_eq!(calm["timeouts"], 0);
    assert!(
        calm["apples"]
            .as_array()
            .unwrap()
            .iter()
            .all(|a| a["timed_out"] == false)
    );
}
