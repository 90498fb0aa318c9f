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
