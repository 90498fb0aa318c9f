//! External solvers on exported formulas: a few hundred random tiny
//! instances (tests/support/tiny.rs) are exported with `snakesat export`
//! at a horizon and with an option combination of the direct encoding, then
//! solved by `minisat` and by the `cadical` command-line solver. Both must
//! answer (exit 10 SAT, 20 UNSAT) as the brute force (tests/support/bfs.rs)
//! and `snakesat solve` do, and every answer read back by `snakesat decode`
//! must give a checked plan (exit 0) or "no plan" (exit 1).
//!
//! In CI (`CI=true`) a missing solver fails the test; elsewhere it is
//! skipped with a message. `SNAKESAT_EXTERNAL_CASES` sets the number of
//! formulas.

#[path = "support/bfs.rs"]
mod bfs;
#[path = "support/cli.rs"]
mod cli;
#[path = "support/tiny.rs"]
mod tiny;

use std::path::Path;
use std::process::Command;

use snakesat::instance::json::to_json;

/// Formulas exported and solved by default.
const CASES: usize = 240;

/// True if `solver` runs; panics in CI when it does not.
fn available(solver: &str) -> bool {
    if Command::new(solver).arg("--help").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{solver} is required in CI (.ci/run installs it)"
    );
    eprintln!("{solver} not installed: skipping the external-solver comparison");
    false
}

/// Runs `cmd`, returning its exit code and stdout.
fn run(cmd: &mut Command) -> (i32, String) {
    let out = cmd.output().expect("solver runs");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// `snakesat decode CNF MODEL`: a checked plan of `moves` moves (exit 0) if
/// `sat`, else "no plan" (exit 1).
fn check_decode(cnf: &Path, model: &Path, sat: bool, moves: usize, what: &str) {
    let r = cli::snakesat(&[
        "decode",
        cnf.to_str().unwrap(),
        model.to_str().unwrap(),
        "--json",
    ]);
    let want = if sat { 0 } else { 1 };
    assert_eq!(r.code, want, "decode of {what}: {}{}", r.stdout, r.stderr);
    if sat {
        let plan: serde_json::Value = serde_json::from_str(&r.stdout).expect("plan JSON");
        assert_eq!(plan["horizon"], moves, "decode of {what}: {}", r.stdout);
        let path = plan["path"].as_array().expect("path");
        assert_eq!(path.len(), moves + 1, "decode of {what}: {}", r.stdout);
    }
}

/// MiniSat's result file `minisat_out` rewritten as the result JSON of
/// Mallob's job interface (its "Executing Mallob" page): result code
/// 10 or 20, and for SAT the solution `[0, ±1, ±2, …, ±n]`.
fn mallob_result(minisat_out: &Path) -> String {
    let text = std::fs::read_to_string(minisat_out).unwrap();
    let mut words = text.split_whitespace();
    let sat = words.next() == Some("SAT");
    let mut solution: Vec<i64> = words
        .map(|w| w.parse().unwrap())
        .filter(|&l: &i64| l != 0)
        .collect();
    solution.sort_by_key(|l| l.abs());
    solution.insert(0, 0);
    serde_json::json!({
        "application": "SAT",
        "user": "admin",
        "name": "snakesat",
        "result": {
            "resultcode": if sat { 10 } else { 20 },
            "resultstring": if sat { "SAT" } else { "UNSAT" },
            "solution": if sat { solution } else { Vec::new() },
        },
    })
    .to_string()
}

#[test]
fn minisat_and_cadical_agree_with_snakesat_and_brute_force() {
    if !available("minisat") || !available("cadical") {
        return;
    }
    let cases = tiny::env_number("SNAKESAT_EXTERNAL_CASES").unwrap_or(CASES);
    let options = tiny::all_options();
    let dir = cli::temp_dir("external");
    let (mut sat, mut unsat) = (0, 0);
    for (k, inst) in tiny::instances(0xe47e_2026, cases, 8).iter().enumerate() {
        let plans = bfs::plans_by_horizon(inst, 12);
        // The least horizon, one below it, or one to three above (the CLI asks T >= 1).
        let moves = match plans.iter().skip(1).position(|&p| p).map(|i| i + 1) {
            Some(least) => [least, least.saturating_sub(1), least + 1 + k % 3][k % 3],
            None => 1 + k % 6,
        }
        .clamp(1, 12);
        let expected = plans[moves];
        let encoding = options[(k * 97) % options.len()].name();
        let horizon = moves.to_string();
        let what = format!("{encoding} at T={moves} on {}", to_json(inst));
        let json = dir.join(format!("{k}.json"));
        std::fs::write(&json, to_json(inst)).unwrap();
        let cnf = dir.join(format!("{k}.cnf"));
        let (json_s, cnf_s) = (json.to_str().unwrap(), cnf.to_str().unwrap());
        let export = cli::snakesat(&[
            "export",
            json_s,
            "--horizon",
            &horizon,
            "--encoding",
            &encoding,
            "-o",
            cnf_s,
        ]);
        assert_eq!(export.code, 0, "export {what}: {}", export.stderr);
        let own = cli::snakesat(&[
            "solve",
            json_s,
            "--horizon",
            &horizon,
            "--encoding",
            &encoding,
        ]);
        let want = if expected { 0 } else { 1 };
        assert_eq!(own.code, want, "snakesat solve {what}: {}", own.stderr);

        let want = if expected { 10 } else { 20 };
        let minisat_out = dir.join(format!("{k}.minisat"));
        let (code, _) = run(Command::new("minisat")
            .arg("-verb=0")
            .arg(&cnf)
            .arg(&minisat_out));
        assert_eq!(code, want, "minisat on {what}");
        check_decode(
            &cnf,
            &minisat_out,
            expected,
            moves,
            &format!("minisat {what}"),
        );

        // The same answer as Mallob's job interface writes it (its result
        // JSON: a code, and the model as `[0, ±1, ±2, …]`).
        let mallob_out = dir.join(format!("{k}.mallob.json"));
        std::fs::write(&mallob_out, mallob_result(&minisat_out)).unwrap();
        check_decode(
            &cnf,
            &mallob_out,
            expected,
            moves,
            &format!("mallob-shaped {what}"),
        );

        let (code, stdout) = run(Command::new("cadical").arg("-q").arg(&cnf));
        assert_eq!(code, want, "cadical on {what}: {stdout}");
        let status = if expected {
            "s SATISFIABLE"
        } else {
            "s UNSATISFIABLE"
        };
        assert!(
            stdout.lines().any(|l| l == status),
            "cadical on {what}: {stdout}"
        );
        let cadical_out = dir.join(format!("{k}.cadical"));
        std::fs::write(&cadical_out, &stdout).unwrap();
        check_decode(
            &cnf,
            &cadical_out,
            expected,
            moves,
            &format!("cadical {what}"),
        );
        if expected {
            sat += 1;
        } else {
            unsat += 1;
        }
    }
    eprintln!("{cases} formulas: {sat} SAT, {unsat} UNSAT, every solver agreeing");
    assert!(
        sat >= cases / 5 && unsat >= cases / 5,
        "{sat} SAT, {unsat} UNSAT"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
