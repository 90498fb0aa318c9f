//! The move-level beam search (`snakesat::solve::beam`) against the
//! brute force of tests/support/bfs.rs (written from docs/DESIGN.md alone):
//! with an unbounded width the beam is a breadth-first search over states,
//! so on random tiny instances with a fixed start its plan must pass the
//! simulator and have exactly the least number of moves, and it must find
//! no plan exactly when none exists. With a narrow width every plan it
//! returns must still pass the simulator, and suffixes regrown by beams
//! shorten a narrow beam's plan on IPC problem 8. `SNAKESAT_BEAM_CASES` sets the
//! number of instances.

#[path = "support/bfs.rs"]
mod bfs;
#[path = "support/tiny.rs"]
mod tiny;

use snakesat::instance::Start;
use snakesat::sim::simulate;
use snakesat::solve::beam::{beam_plan, regrow};

/// Instances checked by default.
const CASES: usize = 1500;
/// Moves the brute force looks up to (tiny boards: every plan is far shorter).
const MAX_MOVES: usize = 60;

#[test]
fn an_unbounded_beam_finds_exactly_the_least_plans() {
    let count = tiny::env_number("SNAKESAT_BEAM_CASES").unwrap_or(CASES);
    let instances = tiny::instances(0xbea7, count * 2, 5);
    let mut checked = 0;
    let mut without_plan = 0;
    for inst in instances
        .iter()
        .filter(|i| matches!(i.start, Start::Body(_)))
        .take(count)
    {
        let json = snakesat::instance::json::to_json(inst);
        let least = bfs::least_moves(inst, MAX_MOVES);
        let plan = beam_plan(inst, usize::MAX, 4, None);
        match (&plan, least) {
            (Some(plan), Some(least)) => {
                if let Err(v) = simulate(inst, plan) {
                    panic!("beam plan {plan:?} fails the simulator ({v}) on {json}");
                }
                assert_eq!(plan.len() - 1, least, "beam plan length on {json}");
            }
            (None, None) => without_plan += 1,
            _ => panic!(
                "beam {:?} against brute force {least:?} on {json}",
                plan.map(|p| p.len() - 1)
            ),
        }
        checked += 1;
    }
    assert!(checked >= count / 2, "only {checked} fixed-start instances");
    assert!(without_plan > 0, "no instance without a plan was checked");
}

#[test]
fn narrow_beams_give_legal_plans_or_none() {
    let mut plans = 0;
    for inst in tiny::instances(0xbea8, 600, 3)
        .iter()
        .filter(|i| matches!(i.start, Start::Body(_)))
    {
        for (width, weight) in [(1, 4), (2, 3), (8, 1)] {
            if let Some(plan) = beam_plan(inst, width, weight, None) {
                let json = snakesat::instance::json::to_json(inst);
                if let Err(v) = simulate(inst, &plan) {
                    panic!("beam ({width}, {weight}) plan {plan:?} fails ({v}) on {json}");
                }
                plans += 1;
            }
        }
    }
    assert!(plans > 100, "only {plans} plans from narrow beams");
}

#[test]
fn regrowing_suffixes_with_beams_shortens_a_poor_plan() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/benchmarks/ipc2018-snake/satisficing/instance-8.pddl"
    ))
    .unwrap();
    let inst = snakesat::pddl::from_pddl(&text).unwrap();
    let poor = beam_plan(&inst, 1, 4, None).expect("a narrow beam's plan");
    simulate(&inst, &poor).expect("the narrow beam's plan is legal");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let regrown = regrow(&inst, poor.clone(), deadline, 2);
    if let Err(v) = simulate(&inst, &regrown) {
        panic!("regrown plan {regrown:?} fails the simulator ({v})");
    }
    assert!(
        regrown.len() < poor.len(),
        "regrown {} moves, the narrow beam's {}",
        regrown.len() - 1,
        poor.len() - 1
    );
    assert_eq!(
        regrown[..1],
        poor[..1],
        "the regrown plan starts where the snake is"
    );
}

/// An apple off the grid made `beam_plan` panic (index out of bounds), and
/// an empty body made it slice past the end: an invalid instance has no
/// plan, from `beam_plan`, `beam_after` or `beams`, and `regrow` keeps the
/// plan it was given.
#[test]
fn an_invalid_instance_gets_no_beam_plan() {
    let good = snakesat::instance::Instance {
        width: 3,
        height: 3,
        walls: vec![],
        start: Start::Body(vec![(0, 0), (1, 0)]),
        apples: vec![(2, 2)],
        visible: 1,
        grow: true,
        tail: snakesat::instance::TailRule::Strict,
        horizon: None,
    };
    assert!(beam_plan(&good, 16, 4, None).is_some());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    for bad in [
        snakesat::instance::Instance {
            apples: vec![(50, 50)],
            ..good.clone()
        },
        snakesat::instance::Instance {
            start: Start::Body(vec![]),
            ..good.clone()
        },
        snakesat::instance::Instance {
            width: 0,
            ..good.clone()
        },
    ] {
        assert!(bad.validate_game().is_err());
        assert_eq!(beam_plan(&bad, 16, 4, None), None, "{bad:?}");
        assert_eq!(
            snakesat::solve::beam::beam_after(&bad, &[(0, 0)], 16, 4, None),
            None,
            "{bad:?}"
        );
        assert_eq!(
            snakesat::solve::beam::beams(&bad, deadline, 1),
            None,
            "{bad:?}"
        );
        let plan = vec![(0, 0), (0, 1)];
        assert_eq!(regrow(&bad, plan.clone(), deadline, 1), plan, "{bad:?}");
    }
}
