//! The notebook's MVP3 model is not a legal plan (docs/DESIGN.md §2): on its own
//! setting (10×10, 9 ordered apples, L0 = 3, notebook T = 70, i.e. 69 moves)
//! CaDiCaL finds a model, and the simulator rejects the path it describes.
//!
//! On seed 1 the model's head re-enters (1, 2) at step 53, a cell it left at
//! step 45 (8 steps before). By step 53 the snake has eaten 7 apples (the
//! simulator eats them at steps 21, 26, 33, 36, 42, 48, 52), so its length is
//! 10 and the cell is still body. Constraint 16 only forbids a return after
//! `L0 + p = 8` steps when apple `p = 5` was eaten by the *earlier* visit
//! (t = 45); apple 5 is eaten at step 48, so the clause does not apply: the
//! quirk docs/DESIGN.md §2 describes.

#[path = "support/cli.rs"]
mod support;
use support::{snakesat, temp_dir};

use snakesat::cnf::header;
use snakesat::encode::Encoding;
use snakesat::encode::notebook::Notebook;
use snakesat::instance::random::{RandomSpec, generate};
use snakesat::planner::{Planner, Search, Verdict};
use snakesat::sim::{Rule, simulate};
use snakesat::solve::Status;

#[test]
fn ordered_model_on_mvp3_seed_1_is_not_a_legal_plan() {
    let inst = generate(&RandomSpec::default()).unwrap();
    let outcome = Planner::new(&Notebook::Ordered)
        .search(Search::FixedHorizon(69))
        .plan(&inst)
        .unwrap();
    assert_eq!(outcome.status(), Status::Sat);
    let path = match outcome.verdict {
        Verdict::IllegalModel { path, .. } => path,
        Verdict::Plan(plan) => Some(plan.path),
        other => panic!("no model: {other:?}"),
    };
    let path = path.expect("a SAT model describes a head path");
    assert_eq!(path.len(), 70);
    let verdict = simulate(&inst, &path);
    eprintln!("apples {:?}", inst.apples);
    eprintln!("path {path:?}");
    eprintln!("verdict {verdict:?}");
    let violation = verdict.expect_err("the notebook's MVP3 model should not be a legal plan");
    assert!(
        matches!(violation.rule, Rule::BitesBody(_)),
        "unexpected violation: {violation}"
    );
}

/// `solve --json` and `decode --json` printed nothing for that model (only
/// the error line, exit 3): a JSON reader got no answer. They print one now,
/// `unknown` (an approximate encoding's model proves nothing), with the
/// simulator's reason in `illegal_model`.
#[test]
fn the_illegal_model_is_an_unknown_json_answer_that_says_why() {
    let dir = temp_dir("illegal-json");
    let inst = generate(&RandomSpec::default()).unwrap();
    let cnf = Notebook::Ordered.encode(&inst, 69).unwrap();
    let mut exported = Vec::new();
    header::write(&cnf, &inst, &Notebook::Ordered, 69, None, &mut exported).unwrap();
    let mut solver: cadical::Solver = cadical::Solver::new();
    for clause in cnf.clauses() {
        solver.add_clause(clause.iter().copied());
    }
    assert_eq!(solver.solve(), Some(true));
    let values: Vec<String> = (1..=cnf.num_vars() as i32)
        .map(|v| if solver.value(v) == Some(true) { v } else { -v }.to_string())
        .collect();
    let (cnf_file, model_file) = (dir.join("f.cnf"), dir.join("f.model"));
    std::fs::write(&cnf_file, exported).unwrap();
    std::fs::write(
        &model_file,
        format!("s SATISFIABLE\nv {} 0\n", values.join(" ")),
    )
    .unwrap();
    let solved = [
        "solve",
        "--json",
        "--horizon",
        "69",
        "--encoding",
        "notebook-ordered",
    ];
    let decoded = [
        "decode",
        "--json",
        cnf_file.to_str().unwrap(),
        model_file.to_str().unwrap(),
    ];
    for args in [&solved[..], &decoded[..]] {
        let run = snakesat(args);
        assert_eq!(run.code, 3, "{args:?}: {}", run.stderr);
        let answer: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(answer["status"], "unknown", "{args:?}");
        assert_eq!(answer["horizon"], 69, "{args:?}");
        assert_eq!(answer["path"], serde_json::json!([]), "{args:?}");
        let why = answer["illegal_model"].as_str().unwrap();
        assert!(why.contains("is not a legal plan: step 53"), "{why}");
        assert_eq!(run.stderr.trim(), format!("error: {why}"), "{args:?}");
    }
    // The same model for the same clauses under a changed header (its first
    // two apples swapped): the header no longer describes the clauses, so
    // the file is bad input (exit 2, naming it), not a model that proves
    // nothing.
    let text = std::fs::read_to_string(&cnf_file).unwrap();
    let apples = format!(
        "\"apples\":[[{},{}],[{},{}]",
        inst.apples[0].0, inst.apples[0].1, inst.apples[1].0, inst.apples[1].1
    );
    let swapped = format!(
        "\"apples\":[[{},{}],[{},{}]",
        inst.apples[1].0, inst.apples[1].1, inst.apples[0].0, inst.apples[0].1
    );
    assert!(text.contains(&apples), "{apples}");
    let changed = dir.join("changed.cnf");
    std::fs::write(&changed, text.replacen(&apples, &swapped, 1)).unwrap();
    let run = snakesat(&[
        "decode",
        "--json",
        changed.to_str().unwrap(),
        model_file.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(&format!(
            "error: {}: it is not what `snakesat export` writes",
            changed.display()
        )) && run
            .stderr
            .contains("was the file changed after export, or written by another version"),
        "{}",
        run.stderr
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's instances where MVP2's two approximations admit an illegal
/// plan (the model CaDiCaL finds re-enters the body): each `solve` names the
/// violation and exits 3, as `notebook-ordered`'s does above.
#[test]
fn the_mvp2_approximations_admit_the_readmes_illegal_plans() {
    for (args, step) in [
        (
            "--size 5 --length 1 --seed 474 --apples 5 --visible all --horizon 15 --encoding notebook-counter",
            15,
        ),
        (
            "--size 4 --length 6 --seed 778 --apples 2 --visible all --horizon 6 --encoding notebook-combinations",
            6,
        ),
    ] {
        // The GIF asked for is not written, and stderr says why.
        let gif = temp_dir("mvp2-illegal").join("plan.gif");
        let gif = gif.to_str().unwrap();
        let command: Vec<&str> = std::iter::once("solve")
            .chain(args.split(' '))
            .chain(["--gif", gif])
            .collect();
        let run = snakesat(&command);
        assert_eq!(run.code, 3, "{args}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("is not a legal plan: step {step},")),
            "{args}: {}",
            run.stderr
        );
        assert!(
            run.stderr.contains(&format!(
                "no GIF written to {gif}: the model is no legal plan"
            )),
            "{args}: {}",
            run.stderr
        );
        assert!(!std::path::Path::new(gif).exists());
    }
}
