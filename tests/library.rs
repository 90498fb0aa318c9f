//! The library as a program using it sees it (review 13b): an instance's
//! horizon is the planner's fixed horizon, certificates follow the search
//! that answered, certificate errors keep their reason, and horizons beyond
//! the cap are refused by every entry point alike; an external solver's
//! model of an exported formula decodes in one call; the JSON answer of a
//! plan reads back as a plan that checks.

#[path = "support/cli.rs"]
mod support;
use support::temp_dir;

use std::error::Error;

use snakesat::cnf::header;
use snakesat::decode::{Answer, ModelError, model_to_plan};
use snakesat::encode::{self, Encoding, by_name};
use snakesat::instance::json::from_json;
use snakesat::instance::{Instance, InstanceError, MAX_HORIZON, Start};
use snakesat::plan_file;
use snakesat::planner::{Method, PlanError, Planner, Search, Status, Verdict};
use snakesat::proof::{ProofError, Reason, certify_search};
use snakesat::report::PlanReport;

/// Lower bound 4, least plan 6 moves.
fn small() -> Instance {
    from_json(
        r#"{"width": 3, "height": 3, "snake": [[0, 0], [1, 0], [2, 0]],
            "apples": [[1, 1], [0, 0]], "visible": 1, "tail": "strict"}"#,
    )
    .unwrap()
}

/// `Planner::plan` ignored `Instance::horizon` (the CLI alone turned it into
/// a fixed horizon): it is the planner's fixed horizon now, unless the caller
/// asks another search, and the outcome says which search answered.
#[test]
fn an_instances_horizon_is_a_fixed_horizon_unless_another_search_is_asked() {
    let direct = by_name("direct").unwrap();
    let free = small();
    let at = |t| Instance {
        horizon: Some(t),
        ..small()
    };
    let outcome = Planner::new(&*direct).plan(&at(8)).unwrap();
    assert_eq!(outcome.search, Search::FixedHorizon(8));
    let plan = outcome.plan().expect("a plan of exactly 8 moves");
    assert_eq!((plan.horizon, plan.optimal), (8, false));
    let outcome = Planner::new(&*direct).plan(&at(3)).unwrap();
    assert_eq!(outcome.search, Search::FixedHorizon(3));
    assert!(
        matches!(outcome.verdict, Verdict::NoPlan { within: 3 }),
        "{:?}",
        outcome.verdict
    );
    for (instance, asked, moves) in [
        (&free, None, 6),
        (&at(8), Some(Search::Optimal), 6),
        (&free, Some(Search::FixedHorizon(7)), 7),
    ] {
        let mut planner = Planner::new(&*direct);
        if let Some(search) = asked {
            planner = planner.search(search);
        }
        let search = planner.search_for(instance);
        assert_eq!(search, asked.unwrap_or(Search::Optimal));
        let outcome = planner.plan(instance).unwrap();
        assert_eq!(outcome.search, search);
        assert_eq!(outcome.plan().map(|p| p.horizon), Some(moves), "{asked:?}");
    }
}

/// The horizons and reasons of a certificate folder's claims.
fn claims(
    instance: &Instance,
    encoding: &dyn Encoding,
    planner: Planner,
    name: &str,
) -> Vec<(usize, Reason)> {
    let mut planner = planner;
    let outcome = planner.plan(instance).unwrap();
    let dir = temp_dir(name);
    let manifest = certify_search(instance, encoding, &outcome, &dir, None).unwrap();
    assert!(manifest.certified());
    let claims = manifest
        .claims
        .iter()
        .map(|c| (c.horizon, c.reason))
        .collect();
    std::fs::remove_dir_all(&dir).unwrap();
    claims
}

/// `certify_search` guessed the search from `Instance::horizon`: a fixed
/// horizon asked of the planner got an extra "below the bound" refutation
/// (the answer does not rest on the bound), and a least-horizon search of an
/// instance with a horizon missed the one its answer rests on.
#[test]
fn certificates_follow_the_search_that_answered() {
    let direct = by_name("direct").unwrap();
    let free = small();
    let fixed = Planner::new(&*direct).search(Search::FixedHorizon(2));
    assert_eq!(
        claims(&free, &*direct, fixed, "fixed"),
        [(2, Reason::Refuted)]
    );
    let at = Instance {
        horizon: Some(3),
        ..small()
    };
    let least = Planner::new(&*direct).search(Search::Optimal);
    assert_eq!(
        claims(&at, &*direct, least, "least"),
        [
            (3, Reason::BelowBound),
            (4, Reason::Refuted),
            (5, Reason::Refuted)
        ]
    );
}

/// `PlanError::Certificate` kept only "cannot create DIR": the reason is in
/// its message now, and not repeated by a `source()`.
#[test]
fn a_certificate_error_says_why() {
    let direct = by_name("direct").unwrap();
    let dir = temp_dir("certificate-error");
    let file = dir.join("afile");
    std::fs::write(&file, "").unwrap();
    for (target, reason) in [
        (file.clone(), "it exists and is not a folder"),
        (file.join("below"), "Not a directory"),
    ] {
        let e = Planner::new(&*direct)
            .method(Method::Fresh)
            .certify_into(Some(&target))
            .plan(&small())
            .unwrap_err();
        let text = e.to_string();
        let expected = format!("certificates: cannot create {}: {reason}", target.display());
        assert!(text.starts_with(&expected), "{text}");
        assert!(
            matches!(
                e,
                PlanError::Certificate(ProofError::Create { .. } | ProofError::NotAFolder { .. })
            ),
            "{e:?}"
        );
        assert_said_once(&e);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `each_horizon` and `solve_formula` solved a horizon beyond the cap and
/// answered "SAT, not a path" (a walk of that many moves exists): refused
/// now, with `plan`'s error. An invalid instance is refused alike too.
#[test]
fn horizons_beyond_the_cap_are_refused_by_every_entry_point() {
    let direct = by_name("direct").unwrap();
    let instance = small();
    let huge = MAX_HORIZON + 1;
    let is_huge = |r: Result<(), PlanError>| matches!(r, Err(PlanError::Instance(InstanceError::HugeHorizon(t))) if t == huge);
    let planner = Planner::new(&*direct);
    let planned = Planner::new(&*direct)
        .search(Search::FixedHorizon(huge))
        .plan(&instance)
        .map(|_| ());
    assert!(is_huge(planned));
    for method in [Method::Fresh, Method::Incremental] {
        let answered = Planner::new(&*direct).method(method).each_horizon(
            &instance,
            MAX_HORIZON - 1..=huge,
            |t, status, _| panic!("T={t} answered {status:?}"),
        );
        assert!(is_huge(answered), "{method:?}");
    }
    let cnf = encode::by_name("direct")
        .unwrap()
        .encode(&instance, huge)
        .unwrap();
    assert!(is_huge(
        planner.solve_formula(&instance, &cnf, huge).map(|_| ())
    ));
    let off_grid = Instance {
        apples: vec![(9, 9)],
        ..small()
    };
    let refused = planner.each_horizon(&off_grid, 1..=2, |t, status, _| {
        panic!("T={t} answered {status:?}")
    });
    assert!(
        matches!(refused, Err(PlanError::Instance(_))),
        "{refused:?}"
    );
    // solve_formula checks the instance too (a body-less one panicked).
    let cnf = direct.encode(&small(), 4).unwrap();
    for bad in [
        off_grid,
        Instance {
            start: Start::Body(vec![]),
            ..small()
        },
    ] {
        let solved = planner.solve_formula(&bad, &cnf, 4).map(|_| ());
        assert!(matches!(solved, Err(PlanError::Instance(_))), "{solved:?}");
    }
    // A formula of a larger board gives no path of this one (its cells
    // beyond this board were returned), nor one of another horizon.
    let larger = Instance {
        width: 5,
        height: 5,
        apples: vec![(4, 4)],
        ..small()
    };
    let (status, path) = planner
        .solve_formula(&small(), &direct.encode(&larger, 8).unwrap(), 8)
        .unwrap();
    assert_eq!((status, path), (Status::Sat, None));
    let (status, path) = planner
        .solve_formula(&larger, &direct.encode(&larger, 8).unwrap(), 8)
        .unwrap();
    assert_eq!(status, Status::Sat);
    assert_eq!(path.expect("its own board's path").last(), Some(&(4, 4)));
    assert_eq!(
        planner
            .solve_formula(&larger, &direct.encode(&larger, 8).unwrap(), 3)
            .unwrap(),
        (Status::Sat, None)
    );
    // A literal of no variable made CaDiCaL end the process.
    for literal in [i32::MIN, 1 << 20, 0] {
        let mut cnf = direct.encode(&small(), 4).unwrap();
        cnf.add(&[literal]);
        let solved = planner.solve_formula(&small(), &cnf, 4).map(|_| ());
        assert!(
            matches!(solved, Err(PlanError::BadLiteral { literal: l, .. }) if l == literal),
            "{solved:?}"
        );
        let variables = cnf.num_vars();
        assert_eq!(
            solved.unwrap_err().to_string(),
            format!("the formula's literal {literal} names none of its {variables} variables")
        );
    }
}

/// The formula of `instance` at `horizon` as `snakesat export` writes it,
/// and CaDiCaL's answer (through its crate) as a solver prints it.
fn export_and_solve(instance: &Instance, encoding: &str, horizon: usize) -> (String, String) {
    let encoding = by_name(encoding).unwrap();
    let cnf = encoding.encode(instance, horizon).unwrap();
    let mut exported = Vec::new();
    header::write(&cnf, instance, &*encoding, horizon, None, &mut exported).unwrap();
    let mut solver: cadical::Solver = cadical::Solver::new();
    for clause in cnf.clauses() {
        solver.add_clause(clause.iter().copied());
    }
    let answer = match solver.solve() {
        Some(true) => {
            let literals: Vec<String> = (1..=cnf.num_vars() as i32)
                .map(|v| if solver.value(v) == Some(true) { v } else { -v }.to_string())
                .collect();
            format!("s SATISFIABLE\nv {} 0\n", literals.join(" "))
        }
        Some(false) => "s UNSATISFIABLE\n".to_string(),
        None => "s UNKNOWN\n".to_string(),
    };
    (String::from_utf8(exported).unwrap(), answer)
}

/// `export` → any solver → `decode::model_to_plan`: the plan of a model,
/// checked by the simulator; UNSAT below the lower bound proves no plan; a
/// model that falsifies a clause, or comes from another formula, is refused.
#[test]
fn an_external_model_decodes_in_one_call() {
    let instance = small();
    for encoding in ["direct", "direct,body=compare", "direct,amo=sequential"] {
        let (cnf, model) = export_and_solve(&instance, encoding, 6);
        let decoded = model_to_plan(&cnf, &model).unwrap();
        assert_eq!(decoded.header.horizon, 6, "{encoding}");
        assert_eq!(decoded.header.instance.apples, instance.apples);
        assert_eq!(decoded.lower_bound, Some(4));
        assert!(decoded.size.variables > 0 && decoded.size.clauses > 0);
        let Answer::Plan { path, replay } = &decoded.answer else {
            panic!("{encoding}: {:?}", decoded.answer);
        };
        assert_eq!(path.len(), 7);
        assert_eq!(
            snakesat::sim::simulate(&instance, path).as_ref(),
            Ok(replay)
        );
        assert_eq!(replay.eaten.len(), 2);
    }
    // Below the least plan (6 moves): UNSAT, which an exact encoding's
    // formula proves.
    let (cnf, unsat) = export_and_solve(&instance, "direct", 5);
    assert_eq!(unsat, "s UNSATISFIABLE\n");
    let decoded = model_to_plan(&cnf, &unsat).unwrap();
    assert_eq!(
        decoded.answer,
        Answer::Unsat {
            proves_no_plan: true
        }
    );
    let decoded = model_to_plan(&cnf, "s UNKNOWN\n").unwrap();
    assert_eq!(decoded.answer, Answer::Unknown);

    // Every variable false falsifies some clause.
    let (cnf, _) = export_and_solve(&instance, "direct", 6);
    let vars = snakesat::cnf::dimacs::parse(&cnf).unwrap().num_vars;
    let all_false: Vec<String> = (1..=vars).map(|v| format!("-{v}")).collect();
    let all_false = format!("s SATISFIABLE\nv {} 0\n", all_false.join(" "));
    let Err(err) = model_to_plan(&cnf, &all_false) else {
        panic!("a model of every variable false decoded");
    };
    assert!(matches!(err, ModelError::Falsified { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("the model does not satisfy clause ")
    );
    // A model with a literal beyond the formula's variables, a CNF without
    // the export header.
    let beyond = format!("s SATISFIABLE\nv {} 0\n", vars + 1);
    assert!(matches!(
        model_to_plan(&cnf, &beyond),
        Err(ModelError::Model(_))
    ));
    assert!(matches!(
        model_to_plan("p cnf 1 1\n1 0\n", "s SATISFIABLE\nv 1 0\n"),
        Err(ModelError::Header(_))
    ));
}

/// Walks `error`'s chain: no message holds its source's message, so a
/// reporter that prints the chain (`anyhow`'s `{:#}`) says each thing once.
fn assert_said_once(error: &dyn Error) {
    let mut current = error;
    while let Some(source) = current.source() {
        let (outer, inner) = (current.to_string(), source.to_string());
        assert!(
            !outer.contains(&inner),
            "{outer:?} repeats its source {inner:?}"
        );
        current = source;
    }
}

#[test]
fn error_chains_say_each_thing_once() {
    let direct = by_name("direct").unwrap();
    let no_grid = Instance {
        width: 0,
        ..small()
    };
    // Planning, encoding and reading a problem that is no game.
    let planned = Planner::new(&*direct).plan(&no_grid).unwrap_err();
    assert!(
        planned
            .to_string()
            .starts_with("invalid instance: grid size 0x3")
    );
    assert_said_once(&planned);
    let encoded = direct.encode(&no_grid, 3).unwrap_err();
    assert!(
        encoded
            .to_string()
            .starts_with("invalid instance: grid size 0x3")
    );
    assert_said_once(&encoded);
    let pddl = snakesat::pddl::read_problem(
        "(define (problem p) (:domain snake) (:objects pos0-0 pos1-0)
           (:init (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0)
                  (headsnake pos0-0) (tailsnake pos0-0) (blocked pos0-0)
                  (ispoint pos0-0) (NEXTSPAWN dummypoint dummypoint))
           (:goal (and (not (ispoint pos0-0)))))",
    )
    .unwrap_err();
    assert_said_once(&pddl);
    // Decoding a formula whose header's instance is cut.
    let cnf = "c instance {\"width\": 3}\nc encoding direct\nc horizon 2\np cnf 0 0\n";
    let decoded = model_to_plan(cnf, "s UNSATISFIABLE\n").unwrap_err();
    assert!(decoded.to_string().contains("missing field"), "{decoded}");
    assert_said_once(&decoded);
}

/// The JSON answer a program writes for a plan ([`PlanReport`]) reads back
/// ([`plan_file::read`]) as the same path, which checks on the instance; the
/// same file edited to claim another eating order, or another horizon, does
/// not.
#[test]
fn a_saved_plan_reads_back_and_checks() {
    let instance = small();
    let direct = by_name("direct").unwrap();
    let outcome = Planner::new(&*direct)
        .search(Search::Optimal)
        .plan(&instance)
        .unwrap();
    let Verdict::Plan(plan) = &outcome.verdict else {
        panic!("small() has a plan");
    };
    let json = serde_json::to_string(&PlanReport::new(&outcome, &*direct)).unwrap();
    let saved = plan_file::read(&json).unwrap();
    assert_eq!(saved.path, plan.path);
    assert_eq!(saved.check(&instance).unwrap().eaten, plan.eaten());

    let mut report: serde_json::Value = serde_json::from_str(&json).unwrap();
    report["eaten"][0][1] = serde_json::json!(1);
    let edited = plan_file::read(&report.to_string()).unwrap();
    let first = plan.eaten()[0];
    assert_eq!(
        edited.check(&instance),
        Err(plan_file::CheckError::Eaten(
            plan_file::EatenMismatch::Differs {
                index: 0,
                claimed: (first.0, 1),
                replayed: first,
            }
        ))
    );
    report["horizon"] = serde_json::json!(plan.path.len());
    assert!(matches!(
        plan_file::read(&report.to_string()),
        Err(plan_file::ReadError::Horizon { .. })
    ));
}

/// The README's library example is `examples/library.rs` (which `cargo test`
/// compiles), word for word: a snippet kept by hand went stale once
/// (`report::moves_string` had become private).
#[test]
fn the_readme_shows_the_library_example() {
    let readme = include_str!("../README.md");
    let example = include_str!("../examples/library.rs");
    let code = &example[example.find("use snakesat").expect("the example's code")..];
    assert!(
        readme.contains(&format!("```rust\n{code}```\n")),
        "README's ```rust block differs from examples/library.rs"
    );
}

/// Every file or folder of the repository that the README, the docs and the
/// sources name (`docs/…`, `src/…`, `tests/…`, `benchmarks/…`, `scripts/…`,
/// `examples/…`, `fuzz/…`) exists, and none names the source documents'
/// folder outside the repository (`seeds/…`, or the `shared` folder beside
/// the repository, spelt in pieces below so that this file does not name it
/// either): the README and a module doc once sent readers to "seeds/001" for
/// the vector representation, which a clone does not have. A name with a capital placeholder
/// (`instance-K.pddl`) stands for a family of files and is not checked.
#[test]
fn the_docs_name_only_files_of_the_repository() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts = vec![root.join("README.md")];
    let mut folders = vec![root.join("docs"), root.join("src")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                // (docs/sources holds the source documents themselves.)
                if !path.ends_with("docs/sources") {
                    folders.push(path);
                }
            } else if path.extension().is_some_and(|e| e == "md" || e == "rs") {
                texts.push(path);
            }
        }
    }
    let path_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut missing = Vec::new();
    for file in &texts {
        let text = std::fs::read_to_string(file).unwrap();
        let name = file.strip_prefix(root).unwrap().display();
        for outside in [concat!("..", "/", "shared"), "seeds/"] {
            for (at, _) in text.match_indices(outside) {
                if !text[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '/') {
                    missing.push(format!("{name}: names {outside}"));
                }
            }
        }
        for top in [
            "docs/",
            "src/",
            "tests/",
            "benchmarks/",
            "scripts/",
            "examples/",
            "fuzz/",
        ] {
            for (at, _) in text.match_indices(top) {
                if text[..at].ends_with(path_char) {
                    continue;
                }
                let named: String = text[at..].chars().take_while(|&c| path_char(c)).collect();
                let named = named.trim_end_matches(['.', '-']);
                if named.chars().any(|c| c.is_ascii_uppercase()) && named.contains('-') {
                    continue;
                }
                if !root.join(named).exists() {
                    missing.push(format!("{name}: {named}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "{missing:#?}");
}
