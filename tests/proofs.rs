//! Certified answers (`solve --proof DIR`, `bench --proof DIR`): the manifest
//! lists exactly the refuted horizons, every CNF is the one `snakesat export`
//! writes at its claim's horizon, every DRAT proof passes the independent
//! checker `rate`, a tampered CNF or a truncated proof does not, and a
//! certification cut short by its time limit is not `certified`.

#[path = "support/cli.rs"]
mod support;
use support::{Run, assert_bad_input, have_checker, interrupt_when, snakesat, temp_dir};

use std::path::{Path, PathBuf};
use std::process::Command;

fn ipc(n: usize) -> String {
    format!(
        "{}/benchmarks/ipc2018-snake/optimal/instance-{n}.pddl",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn json_of(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("bad JSON {e}: {}", run.stdout))
}

fn manifest(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("manifest.json")).expect("manifest written");
    serde_json::from_str(&text).expect("manifest is JSON")
}

/// Horizons of the claims with `reason`.
fn horizons(claims: &serde_json::Value, reason: &str) -> Vec<u64> {
    claims
        .as_array()
        .expect("claims")
        .iter()
        .filter(|c| c["reason"] == reason)
        .map(|c| c["horizon"].as_u64().unwrap())
        .collect()
}

/// `rate`'s verdict on one CNF and proof: true for `s VERIFIED`.
fn verified(cnf: &Path, proof: &Path) -> bool {
    let out = Command::new("rate").arg(cnf).arg(proof).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let ok = text.lines().any(|l| l == "s VERIFIED");
    assert_eq!(
        ok,
        out.status.success(),
        "rate's exit code and verdict agree"
    );
    ok
}

/// Checks every claim of the manifest in `dir` with `rate`; returns the files.
fn check_all(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let m = manifest(dir);
    let mut files = vec![];
    for c in m["claims"].as_array().unwrap() {
        assert_eq!(c["format"], "drat-binary");
        assert_eq!(c["refuted"], true, "{c}");
        let cnf = dir.join(c["cnf"].as_str().unwrap());
        let proof = dir.join(c["proof"].as_str().unwrap());
        assert!(verified(&cnf, &proof), "{} not verified", cnf.display());
        files.push((cnf, proof));
    }
    files
}

/// Asserts that every claim's CNF in `dir` is, byte for byte, what
/// `snakesat export INSTANCE… --encoding E --horizon T` writes for the
/// manifest's encoding `E` and the claim's horizon `T` (`instance`: the
/// arguments naming the instance). `rate` checks a proof against the file
/// only, whatever formula it holds (horizon T−1's formula under T's name
/// and header passes it): this ties the file to its claim.
fn assert_exported(dir: &Path, instance: &[&str]) {
    let m = manifest(dir);
    let encoding = m["encoding"].as_str().unwrap();
    let p_line = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("p cnf "))
            .map(String::from)
    };
    for c in m["claims"].as_array().unwrap() {
        let horizon = c["horizon"].to_string();
        let mut args = vec!["export"];
        args.extend_from_slice(instance);
        args.extend(["--encoding", encoding, "--horizon", &horizon, "-o", "-"]);
        let export = snakesat(&args);
        assert_eq!(export.code, 0, "stderr: {}", export.stderr);
        let cnf = std::fs::read_to_string(dir.join(c["cnf"].as_str().unwrap())).unwrap();
        assert_eq!(p_line(&cnf), p_line(&export.stdout), "{c}");
        assert!(cnf == export.stdout, "{c}: not the exported formula");
    }
}

/// `solve F --proof DIR --json` for an instance with a plan: certified, and
/// the refuted claims are exactly the lower bound up to the plan's horizon − 1.
fn solve_certified(file: &str, dir: &Path) -> serde_json::Value {
    let d = dir.to_str().unwrap();
    let run = snakesat(&["solve", file, "--json", "--proof", d]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let plan = json_of(&run);
    assert_eq!(plan["optimal"], true);
    assert_eq!(plan["certified"], true);
    assert_eq!(plan["no_plan_below"], plan["horizon"]);
    let bound = plan["lower_bound"].as_u64().unwrap();
    let horizon = plan["horizon"].as_u64().unwrap();
    let refuted: Vec<u64> = (bound..horizon).collect();
    let m = manifest(dir);
    assert_eq!(horizons(&m["claims"], "refuted"), refuted);
    assert_eq!(horizons(&plan["certificates"], "refuted"), refuted);
    assert_eq!(horizons(&m["claims"], "below-bound"), vec![bound - 1]);
    assert_eq!(m["lower_bound"].as_u64(), Some(bound));
    assert!(
        m["below_lower_bound"]
            .as_str()
            .unwrap()
            .contains("not a proof")
    );
    plan
}

#[test]
fn ipc_optimal_answers_are_certified_and_check() {
    let checker = have_checker();
    for n in [1, 4, 5] {
        let dir = temp_dir(&format!("ipc{n}"));
        let plan = solve_certified(&ipc(n), &dir);
        if checker {
            let files = check_all(&dir);
            assert_eq!(files.len(), plan["certificates"].as_array().unwrap().len());
        }
        assert_exported(&dir, &[&ipc(n)]);
        // The CNFs are self-describing: they carry the instance, encoding and horizon.
        for c in plan["certificates"].as_array().unwrap() {
            let text = std::fs::read_to_string(dir.join(c["cnf"].as_str().unwrap())).unwrap();
            assert!(text.contains(&format!("c horizon {}\n", c["horizon"])));
            assert!(text.contains("c encoding direct\n"));
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A 3×2 full board (one cell of snake, five apples): least plan 13 moves,
/// lower bound 7.
const FULL: &str = r#"{ "width": 3, "height": 2, "snake": [[0, 0]],
  "apples": [[0, 1], [1, 0], [2, 0], [1, 1], [2, 1]], "visible": 1, "tail": "strict" }"#;

#[test]
fn full_board_refutations_carry_their_facts_and_check() {
    let checker = have_checker();
    let dir = temp_dir("full");
    let file = dir.join("full.json");
    std::fs::write(&file, FULL).unwrap();
    let proofs = dir.join("proofs");
    let plan = solve_certified(file.to_str().unwrap(), &proofs);
    assert_eq!(plan["horizon"], 13);
    let certificates = plan["certificates"].as_array().unwrap();
    assert_eq!(certificates.len(), 7, "horizons 6 (below the bound) to 12");
    // The facts of src/encode/full.rs are in the CNFs that the proofs refute
    // (from T = 9: below it a fact is the empty clause and they are left out).
    for c in certificates {
        let text = std::fs::read_to_string(proofs.join(c["cnf"].as_str().unwrap())).unwrap();
        let facts = text.contains("c family full board variables 0 clauses ");
        assert_eq!(facts, c["horizon"].as_u64().unwrap() >= 9, "{c}");
    }
    if checker {
        assert_eq!(check_all(&proofs).len(), certificates.len());
    }
    assert_exported(&proofs, &[file.to_str().unwrap()]);
    // Full boards are searched with fresh formulas that trace their proofs
    // as they go: the SAT horizon's files and those of horizons stopped
    // above it are removed, so the folder holds exactly the claims.
    assert_eq!(folder_files(&proofs), claim_files(certificates));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Instances whose refuted horizon's formula holds an empty clause (pruning
/// leaves the goal false) after a unit clause: rate 0.3.0 panicked on those
/// certificate CNFs ("no verdict", so check-proofs.sh failed) although
/// `certified` was true. Empty clauses now come first in every CNF.
#[test]
fn certificates_with_an_empty_clause_check() {
    let checker = have_checker();
    let dir = temp_dir("empty-clause");
    for (name, instance, extra) in [
        (
            "walls",
            r#"{"width": 4, "height": 3, "walls": [[0, 2], [3, 0]], "apples": [[0, 1], [1, 1]],
                "visible": "all", "snake": [[2, 0], [2, 1], [3, 1], [3, 2]], "tail": "follow"}"#,
            &[][..],
        ),
        (
            "fixed",
            r#"{"width": 3, "height": 5, "walls": [[2, 1], [2, 3], [1, 0]],
                "apples": [[2, 4], [0, 3]], "visible": 2,
                "snake": [[2, 2], [1, 2], [1, 1]], "tail": "strict"}"#,
            &["--horizon", "3"][..],
        ),
        (
            "column",
            r#"{"width": 1, "height": 4, "snake": [[0, 3]],
                "apples": [[0, 0], [0, 1], [0, 2]], "tail": "follow"}"#,
            &[][..],
        ),
    ] {
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, instance).unwrap();
        let proofs = dir.join(name);
        let mut args = vec![
            "solve",
            file.to_str().unwrap(),
            "--json",
            "--proof",
            proofs.to_str().unwrap(),
        ];
        args.extend(extra);
        let run = snakesat(&args);
        assert_eq!(json_of(&run)["certified"], true, "{name}: {}", run.stderr);
        // Some claim's formula is refuted by an empty clause, its first.
        let empty_first = manifest(&proofs)["claims"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| {
                let text = std::fs::read_to_string(proofs.join(c["cnf"].as_str().unwrap()));
                let text = text.unwrap();
                let mut clauses = text.lines().skip_while(|l| !l.starts_with("p cnf"));
                clauses.nth(1) == Some("0")
            });
        assert!(empty_first, "{name}");
        if checker {
            check_all(&proofs);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The files in `dir`.
fn folder_files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    files.sort();
    files
}

/// The manifest and the CNF and proof of every certificate.
fn claim_files(certificates: &[serde_json::Value]) -> Vec<String> {
    let mut files = vec!["manifest.json".to_string()];
    for c in certificates {
        files.push(c["cnf"].as_str().unwrap().to_string());
        files.push(c["proof"].as_str().unwrap().to_string());
    }
    files.sort();
    files
}

/// `--search fresh` certifies each refuted horizon with the search's own
/// solve, on every core: the same claims as the incremental search (which
/// re-solves them afterwards), every proof checks, nothing else is left.
#[test]
fn the_fresh_search_certifies_as_it_goes() {
    let checker = have_checker();
    for n in [2, 6] {
        let dir = temp_dir(&format!("fresh{n}"));
        let (incremental, fresh) = (dir.join("incremental"), dir.join("fresh"));
        let by_default = solve_certified(&ipc(n), &incremental);
        let d = fresh.to_str().unwrap();
        let run = snakesat(&[
            "solve",
            &ipc(n),
            "--json",
            "--proof",
            d,
            "--search",
            "fresh",
        ]);
        assert_eq!(run.code, 0, "stderr: {}", run.stderr);
        let plan = json_of(&run);
        assert_eq!(plan["certified"], true);
        assert_eq!(plan["horizon"], by_default["horizon"]);
        let claims = |p: &serde_json::Value| {
            ["refuted", "below-bound"].map(|r| horizons(&p["certificates"], r))
        };
        assert_eq!(claims(&plan), claims(&by_default));
        let certificates = plan["certificates"].as_array().unwrap();
        assert_eq!(folder_files(&fresh), claim_files(certificates));
        if checker {
            assert_eq!(check_all(&fresh).len(), certificates.len());
        }
        // The search's own formulas, written as it goes, are the exported ones too.
        assert_exported(&fresh, &[&ipc(n)]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A snake that must wind out of its own coils: 2 moves by the lower bound,
/// 8 in fact, so there is no plan within 7 moves and each horizon from 2 to 7
/// is refuted by solving it.
const COILED: &str = r#"{ "width": 4, "height": 3,
  "snake": [[2, 0], [1, 0], [1, 1], [2, 1], [2, 2], [3, 2]], "apples": [[0, 0]], "tail": "strict" }"#;

/// An apple in a corner the snake's own body walls off for good: its few
/// reachable states, listed, have none with the apples eaten, though the
/// lower bound is finite (the corner has two open neighbours, so the
/// dead-end rule does not exclude it).
const STUCK: &str = r#"{ "width": 5, "height": 2, "snake": [[0, 1], [1, 1], [1, 0]],
  "apples": [[0, 0], [2, 0]], "visible": 1, "tail": "strict" }"#;

#[test]
fn no_plan_answers_are_certified_for_every_horizon_tried() {
    let dir = temp_dir("noplan");
    let file = dir.join("coiled.json");
    std::fs::write(&file, COILED).unwrap();
    let out = dir.join("proofs");
    let run = snakesat(&[
        "solve",
        file.to_str().unwrap(),
        "--json",
        "--max-horizon",
        "7",
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let report = json_of(&run);
    assert_eq!(report["status"], "unsat");
    assert_eq!(report["certified"], true);
    assert_eq!(report["lower_bound"], 2);
    let m = manifest(&out);
    assert_eq!(horizons(&m["claims"], "refuted"), vec![2, 3, 4, 5, 6, 7]);
    assert_eq!(horizons(&m["claims"], "below-bound"), vec![1]);
    if have_checker() {
        assert_eq!(check_all(&out).len(), 7);
    }
    assert_exported(&out, &[file.to_str().unwrap()]);

    // A fixed horizon rests on that horizon alone: no below-bound claim or
    // note, but the manifest gives the bound as --json does (it said null,
    // which means "an apple can never be eaten").
    let fixed = dir.join("fixed");
    let run = snakesat(&[
        "solve",
        file.to_str().unwrap(),
        "--horizon",
        "5",
        "--proof",
        fixed.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let m = manifest(&fixed);
    assert_eq!(horizons(&m["claims"], "refuted"), vec![5]);
    assert_eq!(m["claims"].as_array().unwrap().len(), 1);
    assert_eq!(m["lower_bound"], 2);
    assert!(m.get("below_lower_bound").is_none());
    if have_checker() {
        check_all(&fixed);
    }
    assert_exported(&fixed, &[file.to_str().unwrap()]);

    // A fixed horizon below the bound: its pruned formula is refuted by the
    // bound argument it holds as clauses, and the manifest says so (it said
    // nothing, and the claim read as a refutation from the rules).
    let below = dir.join("fixed-below");
    let run = snakesat(&[
        "solve",
        file.to_str().unwrap(),
        "--horizon",
        "1",
        "--proof",
        below.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let m = manifest(&below);
    assert_eq!(horizons(&m["claims"], "refuted"), vec![1]);
    let note = m["below_lower_bound"].as_str().unwrap();
    assert!(
        note.contains("fixed horizon lies below the lower bound"),
        "{note}"
    );

    // An apple behind walls: no claim to certify, and the manifest says
    // which argument excludes every horizon (it said nothing).
    let walled = dir.join("walled.json");
    std::fs::write(
        &walled,
        r#"{"width": 4, "height": 4, "snake": [[0, 0]], "walls": [[2, 3], [3, 2]], "apples": [[3, 3]]}"#,
    )
    .unwrap();
    let out = dir.join("walled");
    let run = snakesat(&[
        "solve",
        walled.to_str().unwrap(),
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let m = manifest(&out);
    assert!(m["claims"].as_array().unwrap().is_empty());
    let note = m["below_lower_bound"].as_str().unwrap();
    assert!(note.contains("some apple can never be eaten"), "{note}");

    // The same when the listed reachable states settle it: no claim, and
    // the note names that argument too.
    let stuck = dir.join("stuck.json");
    std::fs::write(&stuck, STUCK).unwrap();
    let out = dir.join("stuck");
    let run = snakesat(&[
        "solve",
        stuck.to_str().unwrap(),
        "--json",
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert!(json_of(&run)["lower_bound"].is_null());
    let m = manifest(&out);
    assert!(m["claims"].as_array().unwrap().is_empty());
    let note = m["below_lower_bound"].as_str().unwrap();
    assert!(note.contains("reachable states"), "{note}");

    // The same at a fixed horizon: that one horizon is certified as any
    // fixed horizon is (it had no certificate, no note, yet "certified": true).
    for search in ["incremental", "fresh"] {
        let out = dir.join(format!("walled-fixed-{search}"));
        let run = snakesat(&[
            "solve",
            walled.to_str().unwrap(),
            "--horizon",
            "10",
            "--search",
            search,
            "--json",
            "--proof",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "stderr: {}", run.stderr);
        let report = json_of(&run);
        assert_eq!(report["status"], "unsat");
        assert_eq!(report["certified"], true);
        assert_eq!(horizons(&report["certificates"], "refuted"), vec![10]);
        let m = manifest(&out);
        assert_eq!(horizons(&m["claims"], "refuted"), vec![10]);
        assert_eq!(m["claims"].as_array().unwrap().len(), 1);
        assert!(m["lower_bound"].is_null());
        // Its formula holds the argument as clauses: the note says so.
        let note = m["below_lower_bound"].as_str().unwrap();
        assert!(note.contains("prune=off"), "{note}");
        if have_checker() {
            check_all(&out);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A plan not proven least at the time limit reports how far its answer
/// proves (`no_plan_below`, the note's "no plan has fewer than N moves"):
/// every horizon from the lower bound up to it has a refuted claim. It was
/// only on stderr, and `lower_bound` was the search's starting bound.
#[test]
fn no_plan_below_rests_on_the_refuted_claims() {
    let dir = temp_dir("no-plan-below");
    let run = snakesat(&[
        "solve",
        &ipc(13),
        "--timeout",
        "3",
        "--json",
        "--proof",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let plan = json_of(&run);
    let (lower, below, horizon) = (
        plan["lower_bound"].as_u64().unwrap(),
        plan["no_plan_below"].as_u64().unwrap(),
        plan["horizon"].as_u64().unwrap(),
    );
    assert!(lower <= below && below <= horizon, "{plan}");
    if plan["optimal"] == true {
        // (A fast machine proved it within the time.)
        assert_eq!(below, horizon);
    } else {
        assert!(
            run.stderr
                .contains(&format!("no plan has fewer than {below} moves")),
            "{}",
            run.stderr
        );
    }
    let refuted = horizons(&plan["certificates"], "refuted");
    assert!((lower..below).all(|t| refuted.contains(&t)), "{refuted:?}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An `unknown` answer claims nothing, so it is not `certified` (null; it was
/// `true`, vacuously, and `bench` showed "certified yes" on unknown rows),
/// though the certificates of the horizons refuted by then are kept; the
/// manifest of a fixed horizon gives the bound.
#[test]
fn an_unknown_answer_is_not_certified() {
    let dir = temp_dir("unknown");
    let out = dir.join("fixed");
    let run = snakesat(&[
        "solve",
        &ipc(14),
        "--horizon",
        "84",
        "--timeout",
        "1",
        "--json",
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 3, "stderr: {}", run.stderr);
    let report = json_of(&run);
    assert_eq!(report["status"], "unknown");
    assert!(report["certified"].is_null(), "{report}");
    assert!(
        run.stderr.contains("nothing is certified"),
        "{}",
        run.stderr
    );
    assert_eq!(manifest(&out)["lower_bound"], 66);
    // bench: the full board's fresh search refutes horizons as it goes, and
    // the row's certified is null ("-" in the table) beside its certificates.
    // (With `body=block`, which has no incremental formula, the least-horizon
    // search has no satisficing fallback, so the answer stays unknown.)
    let problems = dir.join("probs");
    std::fs::create_dir(&problems).unwrap();
    std::fs::copy(ipc(14), problems.join("instance-14.pddl")).unwrap();
    let proofs = dir.join("proofs");
    let p = proofs.to_str().unwrap();
    let run = snakesat(&[
        "bench",
        problems.to_str().unwrap(),
        "--timeout",
        "1",
        "--encoding",
        "direct,body=block",
        "--json",
        "--proof",
        p,
    ]);
    assert_eq!(run.code, 3, "stderr: {}", run.stderr);
    let row = &json_of(&run)[0];
    assert_eq!(row["status"], "unknown");
    assert!(row["certified"].is_null(), "{row}");
    let table = dir.join("table");
    let t = table.to_str().unwrap();
    let run = snakesat(&[
        "bench",
        problems.to_str().unwrap(),
        "--timeout",
        "1",
        "--encoding",
        "direct,body=block",
        "--proof",
        t,
    ]);
    assert_eq!(run.code, 3, "stderr: {}", run.stderr);
    let line = run.stdout.lines().last().unwrap();
    // (The lower bound, 66, is "-" when a loaded machine spends the second
    // before it is known.)
    assert!(
        line.contains("| unknown | - | 66 |") || line.contains("| unknown | - | - |"),
        "{line}"
    );
    // The certified column.
    assert_eq!(line.split('|').nth(12), Some(" - "), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An apple in a dead end (a corner beside a wall) that another apple must
/// follow: no plan at any horizon, by the bound alone (nothing is solved),
/// while CaDiCaL needs a search to refute a horizon's formula.
const DEAD_END: &str = r#"{"width": 5, "height": 5, "snake": [[4, 4], [4, 3]], "walls": [[1, 0]],
  "apples": [[0, 0], [4, 0]], "visible": 1, "tail": "strict"}"#;

/// Asserts that each claim of the manifest in `dir` says `refuted` exactly
/// when `rate` verifies its proof (when `rate` is installed).
fn refuted_as_checked(dir: &Path) {
    if !have_checker() {
        return;
    }
    for c in manifest(dir)["claims"].as_array().unwrap() {
        let cnf = dir.join(c["cnf"].as_str().unwrap());
        let proof = dir.join(c["proof"].as_str().unwrap());
        assert_eq!(c["refuted"], verified(&cnf, &proof), "{c}");
    }
}

/// Certificates whose time limit passes before CaDiCaL refutes their formula
/// are `refuted: false` (their cut proofs fail the checker), and the answer
/// is not certified: in the library (`certify_search` with a deadline
/// already passed) and with `solve --proof --timeout`. The deadline has
/// passed when each re-solve starts, so CaDiCaL stops at its first check
/// whatever the load; only formulas it refutes before that (by unit
/// propagation) can be `refuted`.
#[test]
fn certificates_cut_by_the_time_limit_are_not_certified() {
    use snakesat::encode::by_name;
    use snakesat::planner::Planner;
    use snakesat::proof::{Reason, certify_search};
    use std::time::Instant;
    let dir = temp_dir("cut");
    let direct = by_name("direct").unwrap();
    let instance = snakesat::instance::json::from_json(FULL).unwrap();
    let outcome = Planner::new(&*direct).plan(&instance).unwrap();
    assert_eq!(outcome.plan().map(|p| p.horizon), Some(13));
    let library = dir.join("library");
    let passed = Some(Instant::now());
    let m = certify_search(&instance, &*direct, &outcome, &library, passed).unwrap();
    let claims: Vec<(usize, Reason)> = m.claims.iter().map(|c| (c.horizon, c.reason)).collect();
    let refuted = (7..13).map(|t| (t, Reason::Refuted));
    let expected: Vec<(usize, Reason)> = [(6, Reason::BelowBound)]
        .into_iter()
        .chain(refuted)
        .collect();
    assert_eq!(claims, expected);
    assert!(!m.certified());
    assert!(
        m.claims
            .iter()
            .any(|c| c.reason == Reason::Refuted && !c.refuted),
        "{:?}",
        m.claims
    );
    // manifest.json says the same.
    let written: Vec<bool> = manifest(&library)["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["refuted"].as_bool().unwrap())
        .collect();
    assert_eq!(
        written,
        m.claims.iter().map(|c| c.refuted).collect::<Vec<_>>()
    );
    refuted_as_checked(&library);

    // The CLI: the bound answers at once, then the certificate's re-solve
    // gets the same (tiny) time limit.
    let file = dir.join("dead-end.json");
    std::fs::write(&file, DEAD_END).unwrap();
    let f = file.to_str().unwrap();
    let complete = dir.join("complete");
    let run = snakesat(&[
        "solve",
        f,
        "--horizon",
        "20",
        "--json",
        "--proof",
        complete.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    assert_eq!(
        json_of(&run)["certified"],
        true,
        "without a limit: {}",
        run.stdout
    );
    refuted_as_checked(&complete);
    let out = dir.join("cut");
    let o = out.to_str().unwrap();
    let run = snakesat(&[
        "solve",
        f,
        "--horizon",
        "20",
        "--timeout",
        "0.000001",
        "--json",
        "--proof",
        o,
    ]);
    assert_eq!(run.code, 1, "stderr: {}", run.stderr);
    let report = json_of(&run);
    assert_eq!(report["status"], "unsat");
    assert_eq!(report["certified"], false, "{report}");
    assert_eq!(report["certificates"][0]["refuted"], false, "{report}");
    assert!(
        run.stderr
            .contains("some re-solve reached the time limit: not certified"),
        "{}",
        run.stderr
    );
    let m = manifest(&out);
    assert_eq!(horizons(&m["claims"], "refuted"), vec![20]);
    assert_eq!(m["claims"][0]["refuted"], false);
    refuted_as_checked(&out);
    assert_exported(&out, &[f]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Rewrites `cnf` without clause `skip` (0-based), fixing the `p cnf` count.
fn without_clause(cnf: &str, skip: usize) -> String {
    let mut out = String::new();
    let mut index = 0;
    for line in cnf.lines() {
        if line.starts_with('c') {
            out += line;
        } else if let Some(rest) = line.strip_prefix("p cnf ") {
            let (vars, clauses) = rest.split_once(' ').unwrap();
            let clauses: usize = clauses.trim().parse().unwrap();
            out += &format!("p cnf {vars} {}", clauses - 1);
        } else {
            index += 1;
            if index - 1 == skip {
                continue;
            }
            out += line;
        }
        out.push('\n');
    }
    out
}

/// The first clause whose removal makes the formula satisfiable: without it,
/// no refutation can exist, so any proof must fail.
fn essential_clause(flat: &[i32]) -> usize {
    let clauses: Vec<&[i32]> = flat.split(|&l| l == 0).filter(|c| !c.is_empty()).collect();
    (0..clauses.len())
        .rev()
        .find(|&skip| {
            let mut solver: cadical::Solver = cadical::Solver::new();
            for (i, c) in clauses.iter().enumerate() {
                if i != skip {
                    solver.add_clause(c.iter().copied());
                }
            }
            solver.solve() == Some(true)
        })
        .expect("some clause is essential")
}

#[test]
fn tampered_cnfs_and_truncated_proofs_fail_the_check() {
    if !have_checker() {
        return;
    }
    let dir = temp_dir("tamper");
    let out = dir.join("proofs");
    let run = snakesat(&["solve", &ipc(4), "--proof", out.to_str().unwrap(), "--json"]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    let files = check_all(&out);
    let (cnf, proof) = files.last().unwrap();
    let text = std::fs::read_to_string(cnf).unwrap();
    let parsed = snakesat::cnf::dimacs::parse(&text).unwrap();
    let skip = essential_clause(&parsed.flat);
    let tampered = dir.join("tampered.cnf");
    std::fs::write(&tampered, without_clause(&text, skip)).unwrap();
    let reparsed = snakesat::cnf::dimacs::parse(&std::fs::read_to_string(&tampered).unwrap());
    assert_eq!(reparsed.unwrap().num_clauses + 1, parsed.num_clauses);
    assert!(!verified(&tampered, proof), "a clause removed must fail");

    let bytes = std::fs::read(proof).unwrap();
    let truncated = dir.join("truncated.drat");
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    assert!(!verified(cnf, &truncated), "half a proof must fail");

    // The shipped script checks the whole folder, and fails once a proof is cut.
    let script = format!("{}/scripts/check-proofs.sh", env!("CARGO_MANIFEST_DIR"));
    let ok = Command::new("bash")
        .arg(&script)
        .arg(&out)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stdout)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).contains(" 0 failed"));
    std::fs::write(proof, &bytes[..bytes.len() / 2]).unwrap();
    let bad = Command::new("bash")
        .arg(&script)
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&bad.stdout).contains("FAILED"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_writes_one_certified_folder_per_instance() {
    let dir = temp_dir("bench");
    let problems = dir.join("problems");
    std::fs::create_dir_all(&problems).unwrap();
    for n in [1, 2] {
        std::fs::copy(ipc(n), problems.join(format!("instance-{n}.pddl"))).unwrap();
    }
    let out = dir.join("proofs");
    let run = snakesat(&[
        "bench",
        problems.to_str().unwrap(),
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(run.stdout.contains("| certified | certificates |"));
    // Named as `--plans` names plans: FOLDER-instance-K.
    for n in [1, 2] {
        let m = manifest(&out.join(format!("problems-instance-{n}")));
        assert!(!horizons(&m["claims"], "refuted").is_empty());
        if have_checker() {
            check_all(&out.join(format!("problems-instance-{n}")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn proofs_of_approximate_encodings_are_refused() {
    let dir = temp_dir("approx");
    let out = dir.join("proofs");
    let run = snakesat(&[
        "solve",
        "--encoding",
        "notebook-ordered",
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_bad_input(&run, "approximation");
    assert!(!out.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A certificate folder of an earlier run is refused (exit 2, nothing
/// changed in it): its certificates would stay beside the new manifest.
/// `bench --proof OUT` checks every problem's folder before any problem runs.
#[test]
fn a_folder_with_earlier_certificates_is_refused() {
    let dir = temp_dir("earlier");
    let out = dir.join("proofs");
    let d = out.to_str().unwrap();
    let first = snakesat(&["solve", &ipc(4), "--proof", d, "-q"]);
    assert_eq!(first.code, 0, "stderr: {}", first.stderr);
    let manifest = std::fs::read(out.join("manifest.json")).unwrap();
    let again = snakesat(&["solve", &ipc(5), "--proof", d]);
    assert_bad_input(&again, "holds the certificates of an earlier run");
    assert_eq!(std::fs::read(out.join("manifest.json")).unwrap(), manifest);

    let problems = dir.join("problems");
    std::fs::create_dir_all(&problems).unwrap();
    for n in [4, 5] {
        std::fs::copy(ipc(n), problems.join(format!("instance-{n}.pddl"))).unwrap();
    }
    let bench_out = dir.join("bench");
    let p = problems.to_str().unwrap();
    let b = bench_out.to_str().unwrap();
    assert_eq!(snakesat(&["bench", p, "--proof", b, "-q"]).code, 0);
    let again = snakesat(&["bench", p, "--proof", b, "-q"]);
    assert_bad_input(
        &again,
        "instance-4 holds the certificates of an earlier run",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An instance whose least plan (54 moves) rests on 33 refuted horizons
/// from its lower bound of 22 (about 12 s with their certificates): they are
/// still being written when the signal comes. (The lower bound and the
/// listing of reachable states must not settle it at once, as they now do
/// the no-plan instances used before, e.g. `--size 5 --apples 7 --walls 4
/// --seed 21 --length 4 --tail strict`.)
const MANY_REFUTED: [&str; 14] = [
    "solve", "--size", "6", "--apples", "7", "--walls", "5", "--seed", "9", "--length", "12",
    "--tail", "strict", "-q",
];

/// The certificate files in `dir` (none when it is missing).
fn certificate_files(dir: &Path) -> Vec<String> {
    if !dir.exists() {
        return Vec::new();
    }
    folder_files(dir)
        .into_iter()
        .filter(|n| n.starts_with("horizon-"))
        .collect()
}

/// Starts `solve --proof out` on [`MANY_REFUTED`] (with `extra` flags), sends
/// `signal` once a DRAT proof holds data and checks that the process dies of
/// it, leaving `out` as it found it: gone when it did not exist, else empty.
fn interrupted(out: &Path, extra: &[&str], signal: &str, number: i32) {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    use std::time::Duration;
    let existed = out.exists();
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(MANY_REFUTED)
        .args(extra)
        .arg("--proof")
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    let proving = || {
        certificate_files(out).iter().any(|n| {
            n.ends_with(".drat") && std::fs::metadata(out.join(n)).is_ok_and(|m| m.len() > 0)
        })
    };
    let status = interrupt_when(
        &mut child,
        proving,
        "a proof",
        Duration::from_secs(600),
        signal,
    );
    assert_eq!(status.signal(), Some(number), "{status:?}");
    if existed {
        assert_eq!(folder_files(out), Vec::<String>::new(), "left in {out:?}");
    } else {
        assert!(!out.exists(), "left: {:?}", folder_files(out));
    }
}

/// An interrupted `bench --plans P --proof R` removes what it wrote: the
/// finished problem's plan and certificates, the running child's (the signal
/// is passed on to it), and P (with the folder above it) and R when it
/// created them; an R that existed is left empty. The finished problem's
/// certificates stayed, and the same command was then refused.
#[test]
fn an_interrupted_bench_removes_its_plans_and_certificates() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    use std::time::Duration;
    let dir = temp_dir("bench-interrupted");
    let problems = dir.join("probs");
    std::fs::create_dir(&problems).unwrap();
    for n in [1, 14] {
        std::fs::copy(ipc(n), problems.join(format!("instance-{n}.pddl"))).unwrap();
    }
    let existing = dir.join("existing");
    std::fs::create_dir(&existing).unwrap();
    // (A satisficing child, which answers a first signal with its best plan
    // when run alone, ends at once under `bench`: its answer landed its
    // certificates after `bench` had removed the rest.)
    for (proof, signal, number, satisficing) in [
        (dir.join("new"), "-INT", 2, false),
        (existing, "-TERM", 15, false),
        (dir.join("satisficing"), "-TERM", 15, true),
    ] {
        let plans = dir.join("up").join("plans");
        let existed = proof.exists();
        let mut child = Command::new(env!("CARGO_BIN_EXE_snakesat"))
            .args(["bench", problems.to_str().unwrap(), "--timeout", "100"])
            .args(satisficing.then_some("--satisficing"))
            .arg("--plans")
            .arg(&plans)
            .arg("--proof")
            .arg(&proof)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("binary runs");
        // The first problem finished, the second one's child at work.
        let second = || {
            plans.join("probs-instance-1.plan").is_file()
                && proof
                    .join("probs-instance-1")
                    .join("manifest.json")
                    .is_file()
                && proof.join("probs-instance-14").is_dir()
        };
        let status = interrupt_when(
            &mut child,
            second,
            "the second problem",
            Duration::from_secs(300),
            signal,
        );
        assert_eq!(status.signal(), Some(number), "{status:?}");
        // Nothing comes back later either (the child ended first).
        std::thread::sleep(Duration::from_millis(500));
        assert!(
            !dir.join("up").exists(),
            "left: {:?}",
            folder_files(&dir.join("up"))
        );
        if existed {
            assert_eq!(folder_files(&proof), Vec::<String>::new());
        } else {
            assert!(!proof.exists(), "left: {:?}", folder_files(&proof));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An interrupted `solve --proof DIR` leaves no certificates behind (they
/// went without a manifest, and a later run into DIR was accepted and
/// mixed them with its own): SIGINT while the fresh search writes its
/// certificates as it goes, SIGTERM while the incremental search's answer is
/// certified afterwards. The folder is then accepted again.
#[test]
fn an_interrupted_proof_leaves_the_folder_as_it_found_it() {
    let dir = temp_dir("interrupted");
    let new = dir.join("new");
    interrupted(&new, &["--search", "fresh"], "-INT", 2);
    let empty = dir.join("empty");
    std::fs::create_dir(&empty).unwrap();
    interrupted(&empty, &[], "-TERM", 15);
    let e = empty.to_str().unwrap();
    let run = snakesat(&[
        "solve", "--size", "5", "--apples", "3", "--seed", "2", "--proof", e,
    ]);
    assert_eq!(run.code, 0, "stderr: {}", run.stderr);
    assert!(folder_files(&empty).contains(&"manifest.json".to_string()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `--proof` folder made by a run that then fails (exit 2: here the
/// formula, or the certificate's, is beyond the encoding's limits) is
/// removed again.
#[test]
fn a_failed_run_removes_the_proof_folder_it_made() {
    let dir = temp_dir("failed");
    let out = dir.join("proofs");
    // (The horizon is above the lower bound, 957: it needs its formula.)
    let run = snakesat(&[
        "solve",
        "--size",
        "1000",
        "--apples",
        "3",
        "--horizon",
        "1000",
        "--proof",
        out.to_str().unwrap(),
    ]);
    assert_bad_input(&run, "beyond its limit");
    assert!(!out.exists(), "left: {:?}", folder_files(&out));
    // Where only the certificate would be beyond the limits, the answer
    // rests on the lower bound and is not certified (it was refused, exit 2):
    // the bound answers "no plan" at once (a walled-in apple), and horizon
    // 100's formula on 1000x1000 cells is too big to certify.
    let walled = dir.join("walled.json");
    std::fs::write(
        &walled,
        r#"{"width":1000,"height":1000,"walls":[[1,0],[0,1]],"snake":[[5,5]],
            "apples":[[0,0],[9,9]],"tail":"strict"}"#,
    )
    .unwrap();
    let run = snakesat(&[
        "solve",
        walled.to_str().unwrap(),
        "--horizon",
        "100",
        "--proof",
        out.to_str().unwrap(),
        "-q",
        "--json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert_eq!(json_of(&run)["certified"], false);
    assert_eq!(folder_files(&out), ["manifest.json"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Certificates without a manifest (a run killed by SIGKILL, or whose
/// certification failed) are refused like an earlier run's manifest.
#[test]
fn a_folder_with_certificates_but_no_manifest_is_refused() {
    let dir = temp_dir("leftover");
    let left = dir.join("horizon-12.drat");
    std::fs::write(&left, b"a").unwrap();
    let d = dir.to_str().unwrap();
    let run = snakesat(&[
        "solve", "--size", "5", "--apples", "3", "--seed", "2", "--proof", d,
    ]);
    assert_bad_input(&run, "holds the certificates of an earlier run");
    assert!(run.stderr.contains("horizon-12.drat"), "{}", run.stderr);
    assert_eq!(folder_files(&dir), ["horizon-12.drat"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A lower bound of 0 (no apples) or 1 (an apple beside the head) leaves
/// nothing below it to exclude: no below-bound claim, and no note about one.
#[test]
fn small_lower_bounds_have_no_below_bound_note() {
    let dir = temp_dir("smallbound");
    for (name, text, bound) in [
        (
            "none",
            r#"{"width": 3, "height": 3, "snake": [[0, 0]], "apples": []}"#,
            0,
        ),
        (
            "beside",
            r#"{"width": 3, "height": 3, "snake": [[0, 0]], "apples": [[1, 0]]}"#,
            1,
        ),
    ] {
        let file = dir.join(format!("{name}.json"));
        std::fs::write(&file, text).unwrap();
        let out = dir.join(format!("{name}-proofs"));
        let run = snakesat(&[
            "solve",
            file.to_str().unwrap(),
            "--json",
            "--proof",
            out.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "stderr: {}", run.stderr);
        let m = manifest(&out);
        assert_eq!(m["lower_bound"], bound, "{name}");
        assert!(m.get("below_lower_bound").is_none(), "{name}: {m}");
        assert!(horizons(&m["claims"], "below-bound").is_empty(), "{name}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An answer that rests on the lower bound alone keeps its exit code when
/// the formula just below the bound is beyond the encoding's limits: the
/// below-bound certificate, which is extra, is left out and the manifest
/// says why. It was an error (exit 2, the answer not printed): `solve
/// --size 100 --apples 30 --proof` (no plan within 300 moves, bound 1,731)
/// and a 1,000x1,000 plan proven least by its bound of 1,998.
#[test]
fn a_below_bound_formula_beyond_the_limits_does_not_take_the_answer() {
    let dir = temp_dir("below-bound-too-big");
    let big = dir.join("big.json");
    std::fs::write(
        &big,
        r#"{"width":1000,"height":1000,"apples":[[999,999]],"snake":[[0,0]]}"#,
    )
    .unwrap();
    let cases: [(Vec<&str>, i32, u64); 2] = [
        (vec!["--size", "100", "--apples", "30"], 1, 1731),
        (
            vec![
                big.to_str().unwrap(),
                "--satisficing",
                "--max-horizon",
                "5000",
            ],
            0,
            1998,
        ),
    ];
    for (n, (args, code, bound)) in cases.into_iter().enumerate() {
        let proof = dir.join(format!("proof-{n}"));
        let mut all = vec!["solve", "--json", "--proof", proof.to_str().unwrap()];
        all.extend(args);
        let run = snakesat(&all);
        assert_eq!(run.code, code, "{}", run.stderr);
        let answer = json_of(&run);
        assert_eq!(answer["lower_bound"], bound);
        assert_eq!(answer["certified"], true);
        let manifest = manifest(&proof);
        assert_eq!(manifest["claims"], serde_json::json!([]));
        let note = manifest["below_lower_bound"].as_str().unwrap();
        assert!(note.contains("beyond the encoding's limits"), "{note}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An existing output folder that takes no files (here /sys, read-only in
/// a container even for root) is refused with exit 2 before any search: the
/// search ran to the end, then the first certificate failed with exit 3
/// (and `bench` solved every problem, then failed every row).
#[test]
fn an_existing_folder_that_takes_no_files_is_refused_before_the_search() {
    let folder = Path::new("/sys");
    if !folder.is_dir() || std::fs::File::create(folder.join("snakesat-probe")).is_ok() {
        let _ = std::fs::remove_file(folder.join("snakesat-probe"));
        eprintln!("skipped: no existing folder that refuses files");
        return;
    }
    let problems = temp_dir("unwritable");
    std::fs::copy(ipc(8), problems.join("instance-8.pddl")).unwrap();
    let problems = problems.to_str().unwrap();
    for (args, needle) in [
        (
            &["solve", &ipc(8), "--proof", "/sys"][..],
            "cannot write /sys: ",
        ),
        (
            &["bench", problems, "--proof", "/sys"],
            "cannot write /sys: ",
        ),
        (
            &["bench", problems, "--plans", "/sys"],
            "cannot write in /sys: ",
        ),
    ] {
        assert_bad_input(&snakesat(args), needle);
    }
}
