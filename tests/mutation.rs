//! Mutation testing of every reader: seeded, deterministic mutations (byte
//! flips, insertions, deletions, splices, truncations, huge numbers, deep
//! nesting) of valid samples of each format must give errors, never panics
//! (library readers), and through the binary an exit code 0–3 with a
//! one-line error (CLI). `SNAKESAT_MUTATIONS=N` sets the count per reader
//! in the library (default 1000); `SNAKESAT_CLI_MUTATIONS=N` the count per
//! reader through the binary (default a tenth of the library count, at most
//! 100), so a full campaign is
//! `SNAKESAT_MUTATIONS=10000 SNAKESAT_CLI_MUTATIONS=10000 cargo test --release --test mutation`.

#[path = "support/cli.rs"]
mod support;

use std::panic::catch_unwind;
use std::time::{Duration, Instant};

use rand::rngs::ChaCha8Rng;
use rand::{RngExt, SeedableRng};

use snakesat::cnf::dimacs;
use snakesat::instance::json;
use snakesat::pddl::{self, validate};
use support::{snakesat, temp_dir};

const JSON: &str = r#"{"width":5,"height":5,"walls":[[2,2]],"snake":[[4,0],[3,0]],"apples":[[0,4],[3,1],[1,3]],"visible":1,"grow":true,"tail":"follow","horizon":20}"#;

const PDDL: &str = "(define (problem snake-3x2) (:domain snake)
  (:objects pos0-0 pos1-0 pos2-0 pos0-1 pos1-1 pos2-1)
  (:init (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0)
    (ISADJACENT pos1-0 pos2-0) (ISADJACENT pos2-0 pos1-0)
    (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
    (ISADJACENT pos1-1 pos2-1) (ISADJACENT pos2-1 pos1-1)
    (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0)
    (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
    (ISADJACENT pos2-0 pos2-1) (ISADJACENT pos2-1 pos2-0)
    (headsnake pos1-0) (tailsnake pos0-0) (nextsnake pos1-0 pos0-0)
    (blocked pos1-0) (blocked pos0-0)
    (ispoint pos2-1) (spawn pos1-1) (NEXTSPAWN pos1-1 dummypoint))
  (:goal (and (not (ispoint pos2-1)) (not (ispoint pos1-1)))))
";

const CNF: &str = "c snakesat 0.1.0
c instance {\"width\":2,\"height\":1,\"snake\":[[0,0]],\"apples\":[[1,0]]}
c encoding direct
c horizon 1
c var 1 head 1 0 1
p cnf 1 1
1 0
";

const MODEL: &str = "c comment\ns SATISFIABLE\nv 1 -2 3\nv 0\n";

/// An IPC problem with a plain move available, and plans for it (the first
/// legal and winning, the second breaking a precondition).
const PLAN_PROBLEM: &str = include_str!("data/tiny-3x2.pddl");
const PLAN: &str = include_str!("data/tiny-3x2-valid.plan");
const PLAN_BAD: &str = include_str!("data/tiny-3x2-invalid.plan");

/// A plan in the JSON of `solve --json`, for `render`.
const PLAN_JSON: &str = r#"{"status":"sat","horizon":2,"path":[[4,0],[4,1],[3,1]]}"#;

/// Mutations per reader in the library: `SNAKESAT_MUTATIONS`, else 1000.
fn count() -> usize {
    std::env::var("SNAKESAT_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000)
}

/// Mutations per reader through the binary: `SNAKESAT_CLI_MUTATIONS`, else a
/// tenth of [`count`], at most 100.
fn cli_count() -> usize {
    std::env::var("SNAKESAT_CLI_MUTATIONS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or((count() / 10).min(100))
}

/// One seeded mutation of `samples[..]` (a few edits stacked).
fn mutate(rng: &mut ChaCha8Rng, samples: &[&str]) -> Vec<u8> {
    let mut data = samples[rng.random_range(0..samples.len())]
        .as_bytes()
        .to_vec();
    for _ in 0..rng.random_range(1..4) {
        let at = rng.random_range(0..=data.len());
        match rng.random_range(0..9) {
            0 if at < data.len() => data[at] ^= 1 << rng.random_range(0..8),
            1 => data.insert(at, rng.random()),
            2 if at < data.len() => {
                let end = (at + rng.random_range(1..20)).min(data.len());
                data.drain(at..end);
            }
            3 => {
                let other = samples[rng.random_range(0..samples.len())].as_bytes();
                let from = rng.random_range(0..other.len());
                let to = rng.random_range(from..=other.len());
                data.splice(at..at, other[from..to].iter().copied());
            }
            4 => data.truncate(at),
            5 => {
                let huge = [
                    "18446744073709551615",
                    "99999999999999999999999",
                    "-1",
                    "1e308",
                ];
                let n = huge[rng.random_range(0..huge.len())].as_bytes();
                data.splice(at..at, n.iter().copied());
            }
            6 => {
                let depth = rng.random_range(1..5000);
                let open = [b'(', b'['][rng.random_range(0..2)];
                data.splice(at..at, std::iter::repeat_n(open, depth));
            }
            7 => {
                let digits = rng.random_range(1..50);
                data.splice(at..at, std::iter::repeat_n(b'9', digits));
            }
            _ => {
                // Duplicate a slice: repeated facts, keys and lines.
                let from = rng.random_range(0..=data.len());
                let to = (from + rng.random_range(0..200)).min(data.len());
                let copy = data[from..to].to_vec();
                data.splice(at..at, copy);
            }
        }
    }
    data
}

/// Feeds `reader` `count()` mutations; fails on any panic.
fn no_panics(name: &str, samples: &[&str], reader: fn(&str)) {
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(name.len() as u64 * 7919);
    for i in 0..count() {
        let data = mutate(&mut rng, samples);
        let text = String::from_utf8_lossy(&data).into_owned();
        let outcome = catch_unwind(|| reader(&text));
        assert!(outcome.is_ok(), "{name}: mutation {i} panics on {text:?}");
    }
    assert!(
        started.elapsed() < Duration::from_secs(30 * count() as u64 / 100 + 60),
        "{name}: gross hang"
    );
}

#[test]
fn json_reader_never_panics() {
    no_panics("json", &[JSON], |t| {
        let _ = json::from_json(t);
    });
}

#[test]
fn pddl_reader_never_panics() {
    no_panics("pddl", &[PDDL], |t| {
        let _ = pddl::from_pddl(t);
    });
}

#[test]
fn dimacs_reader_never_panics() {
    no_panics("dimacs", &[CNF], |t| {
        let _ = dimacs::parse(t);
    });
}

#[test]
fn plan_reader_never_panics() {
    no_panics("plan", &[PLAN, PLAN_BAD], |t| {
        let pddl::Problem { instance, objects } = pddl::read_problem(PLAN_PROBLEM).unwrap();
        if let Ok(actions) = validate::read_plan(t, &objects) {
            let _ = validate::validate(&instance, &objects, &actions);
        }
    });
}

#[test]
fn model_reader_never_panics() {
    no_panics("model", &[MODEL, "SAT\n1 -2 3 0\n", "UNSAT\n"], |t| {
        let _ = dimacs::parse_model(t, 3);
    });
}

/// Exit code of a CLI run on a mutated file: 0–3, never a signal or 101,
/// and a failure says one line.
fn check_cli(args: &[&str], what: &str) {
    let run = snakesat(args);
    assert!(
        (0..=3).contains(&run.code),
        "{what}: exit {}: {}",
        run.code,
        run.stderr
    );
    if run.code == 2 {
        assert_eq!(run.stderr.lines().count(), 1, "{what}: {:?}", run.stderr);
        assert!(
            run.stderr.starts_with("error: "),
            "{what}: {:?}",
            run.stderr
        );
    }
}

#[test]
fn cli_survives_mutated_files() {
    let dir = temp_dir("mutants");
    let n = cli_count();
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let started = Instant::now();
    let keep = |name: &str, text: &str| {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        file.to_string_lossy().into_owned()
    };
    let model = keep("model.out", MODEL);
    let problem = keep("problem.pddl", PLAN_PROBLEM);
    let instance = keep("instance.json", JSON);
    let cnf = keep("formula.cnf", CNF);
    // Every reader the binary has, `n` mutants each.
    let readers: [(&str, &[&str]); 6] = [
        ("json", &[JSON]),
        ("pddl", &[PDDL]),
        ("cnf", &[CNF]),
        ("model", &[MODEL]),
        ("plan", &[PLAN, PLAN_BAD]),
        ("plan.json", &[PLAN_JSON]),
    ];
    for i in 0..n * readers.len() {
        let (ext, samples) = readers[i % readers.len()];
        let data = mutate(&mut rng, samples);
        let file = dir.join(format!("m{i}.{ext}"));
        std::fs::write(&file, &data).unwrap();
        let file = file.to_string_lossy().into_owned();
        let what = format!("mutant {i} ({ext})");
        let gif = dir.join(format!("m{i}.gif")).to_string_lossy().into_owned();
        match ext {
            "cnf" => check_cli(&["decode", &file, &model], &what),
            "model" => check_cli(&["decode", &cnf, &file], &what),
            "plan" if i % 2 == 0 => check_cli(&["check", &problem, &file], &what),
            "plan" => check_cli(&["render", &problem, &file, "--gif", &gif], &what),
            "plan.json" => check_cli(&["render", &instance, &file, "--gif", &gif], &what),
            _ if i % 2 == 0 => check_cli(&["solve", &file, "--timeout", "2"], &what),
            _ => {
                let out = dir.join(format!("m{i}.out.cnf"));
                let out = out.to_string_lossy().into_owned();
                check_cli(&["export", &file, "--horizon", "6", "-o", &out], &what);
            }
        }
    }
    assert!(
        started.elapsed() < Duration::from_secs(20 * (n * readers.len()) as u64 + 60),
        "gross hang"
    );
}

#[test]
fn samples_are_valid() {
    assert!(json::from_json(JSON).is_ok());
    assert_eq!(pddl::from_pddl(PDDL).unwrap().apples.len(), 2);
    assert_eq!(dimacs::parse(CNF).unwrap().num_vars, 1);
    let pddl::Problem { instance, objects } = pddl::read_problem(PLAN_PROBLEM).unwrap();
    let check = |plan: &str| {
        validate::validate(
            &instance,
            &objects,
            &validate::read_plan(plan, &objects).unwrap(),
        )
    };
    assert!(check(PLAN).is_ok());
    assert!(check(PLAN_BAD).is_err());
    assert!(matches!(
        dimacs::parse_model(MODEL, 3),
        Ok(dimacs::ModelFile::Sat(_))
    ));
}
