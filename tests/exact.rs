//! Exactness of every sound option of the direct encoding at every horizon
//! (docs/DESIGN.md §6): on random tiny instances, for each horizon `T` from 0 to
//! `T* + 3` (or up to [`NO_PLAN_HORIZONS`] when no plan exists), the formula
//! `encode(instance, T)` is SAT under CaDiCaL exactly when the brute force
//! (tests/support/bfs.rs) finds a plan of exactly `T` moves, and every model
//! decodes to a plan the simulator accepts. The same per-horizon answers are
//! asked of the planner's fixed-horizon search (the CLI's route, with its
//! shortcut) and of one incremental solver over every horizon
//! (`Planner::each_horizon` with `Method::Incremental`).
//!
//! Full boards, whose formulas carry the facts of src/encode/full.rs, are
//! checked the same way on their own ([`FULL_CASES`] of them).
//!
//! All 360 option combinations (amo × body × growth × position × prune) are
//! cycled through, a few per instance. `SNAKESAT_EXACT_CASES` sets the number
//! of instances (the README gives the full count), `SNAKESAT_EXACT_SEED` the seed.

#[path = "support/bfs.rs"]
mod bfs;
#[path = "support/tiny.rs"]
mod tiny;

use snakesat::encode::Encoding;
use snakesat::encode::direct::{Body, Direct, DirectOptions};
use snakesat::encode::full::ends_full;
use snakesat::encode::prune::lower_bound;
use snakesat::instance::Instance;
use snakesat::instance::json::to_json;
use snakesat::planner::{Method, PlanError, Planner, Search, Verdict};
use snakesat::sim::simulate;
use snakesat::solve::Status;

/// Instances checked by default (CI): a few minutes on one loaded core.
const CASES: usize = 1000;
/// Option combinations tried on each instance, besides the one also
/// checked through the fixed-horizon search and the incremental solver.
const PER_INSTANCE: usize = 3;
/// The least horizon the brute force looks for.
const MAX_LEAST: usize = 12;
/// Horizons checked above the least one.
const ABOVE: usize = 3;
/// Horizons `0..=NO_PLAN_HORIZONS` checked when no plan exists up to `MAX_LEAST + ABOVE`.
const NO_PLAN_HORIZONS: usize = 8;

/// Checks a SAT answer's path: `T + 1` cells, legal, every apple eaten.
fn check_path(what: &str, inst: &Instance, path: Option<&Vec<(usize, usize)>>, t: usize) {
    let json = to_json(inst);
    let path = path.unwrap_or_else(|| panic!("{what}: SAT at T={t} without a path on {json}"));
    assert_eq!(path.len(), t + 1, "{what}: path length at T={t} on {json}");
    if let Err(v) = simulate(inst, path) {
        panic!("{what}: plan {path:?} at T={t} fails the simulator ({v}) on {json}");
    }
}

/// The fresh formula at every horizon, then (with `fixed`) the planner's
/// fixed-horizon search.
fn check_fresh(inst: &Instance, options: &DirectOptions, expected: &[bool], fixed: bool) {
    let encoding = Direct::new(options.clone());
    let name = encoding.name();
    let json = to_json(inst);
    assert!(
        !encoding.capabilities().approximate,
        "{name} calls itself approximate"
    );
    let want = |plan: bool| if plan { Status::Sat } else { Status::Unsat };
    Planner::new(&encoding)
        .method(Method::Fresh)
        .each_horizon(inst, 0..=expected.len() - 1, |t, status, path| {
            assert_eq!(status, want(expected[t]), "{name} at T={t} on {json}");
            if status == Status::Sat {
                check_path(&name, inst, path.as_ref(), t);
            }
        })
        .unwrap_or_else(|e| panic!("{name} refused {json}: {e}"));
    if fixed {
        let what = format!("fixed horizon {name}");
        for (t, &plan) in expected.iter().enumerate() {
            let outcome = Planner::new(&encoding)
                .search(Search::FixedHorizon(t))
                .plan(inst)
                .unwrap_or_else(|e| panic!("{what} refused T={t} on {json}: {e}"));
            assert_eq!(outcome.status(), want(plan), "{what} at T={t} on {json}");
            if plan {
                let Verdict::Plan(p) = &outcome.verdict else {
                    panic!("{what}: SAT at T={t} without a legal plan on {json}")
                };
                check_path(&what, inst, Some(&p.path), t);
            }
        }
    }
}

/// One incremental solver from `first` to the last horizon, asked at each.
fn check_incremental(inst: &Instance, options: &DirectOptions, expected: &[bool], first: usize) {
    let name = format!("incremental {}", options.name());
    let json = to_json(inst);
    let encoding = Direct::new(options.clone());
    let result = Planner::new(&encoding)
        .method(Method::Incremental)
        .each_horizon(inst, first..=expected.len() - 1, |t, status, path| {
            let want = if expected[t] {
                Status::Sat
            } else {
                Status::Unsat
            };
            assert_eq!(status, want, "{name} from {first} at T={t} on {json}");
            if expected[t] {
                check_path(&name, inst, path.as_ref(), t);
            }
        });
    match result {
        Err(PlanError::NotIncremental { .. }) if options.body == Body::Block => {}
        Err(e) => panic!("{name} refused {json}: {e}"),
        Ok(()) => assert_ne!(options.body, Body::Block, "{name} accepted body=block"),
    }
}

#[test]
fn every_option_is_exact_at_every_horizon() {
    let cases = tiny::env_number("SNAKESAT_EXACT_CASES").unwrap_or(CASES);
    let seed = tiny::env_number("SNAKESAT_EXACT_SEED").unwrap_or(0xe8ac_2026);
    let options = tiny::all_options();
    let (mut sat, mut unsat, mut solvable) = (0usize, 0usize, 0usize);
    for (k, inst) in tiny::instances(seed as u64, cases, 8).iter().enumerate() {
        let plans = bfs::plans_by_horizon(inst, MAX_LEAST + ABOVE);
        let last = match plans.iter().position(|&p| p) {
            Some(least) => {
                solvable += 1;
                (least + ABOVE).min(MAX_LEAST + ABOVE)
            }
            None => NO_PLAN_HORIZONS,
        };
        let expected = &plans[..=last];
        for j in 0..PER_INSTANCE {
            check_fresh(
                inst,
                tiny::pick(&options, k * PER_INSTANCE + j),
                expected,
                false,
            );
        }
        // The fixed-horizon route and the incremental solver, from 0, 1, 2
        // or the lower bound (where the search starts). At T = 0 the open
        // formula's clause "the head at 0 has a successor" is not switched
        // off, so `each_horizon` asks 0 of a fresh formula: the incremental
        // route answered "no plan" for a start without an open neighbour
        // (found at 1,500 cases and more, when T = 0 was asked only through
        // a lower bound of 0).
        check_fresh(inst, tiny::pick(&options, k), expected, true);
        let first = [0, 1, 2, lower_bound(inst).unwrap_or(usize::MAX)][k % 4].min(last);
        check_incremental(inst, tiny::pick(&options, k), expected, first);
        let yes = expected.iter().filter(|&&p| p).count();
        sat += yes;
        unsat += expected.len() - yes;
    }
    eprintln!(
        "{cases} instances ({solvable} solvable), {sat} SAT and {unsat} UNSAT horizons, \
         {} of {} option combinations each (one also at a fixed horizon and incrementally)",
        PER_INSTANCE + 1,
        options.len()
    );
    // Both answers must be well represented, or the test proves little.
    assert!(
        solvable >= cases / 4 && solvable <= cases * 9 / 10,
        "{solvable} of {cases} instances solvable"
    );
    assert!(
        sat >= cases && unsat >= cases,
        "{sat} SAT, {unsat} UNSAT horizons"
    );
}

/// Full-board instances checked by default: the direct encoding adds their
/// facts (src/encode/full.rs), which must keep every legal plan.
const FULL_CASES: usize = 300;

/// Full boards checked at horizons past their free cells: there the final
/// window (the last `L` heads) starts after time 0, and the *degree* facts
/// (src/encode/full.rs) speak of heads the plan chose, not the initial body.
const LONG_FULL_CASES: usize = 400;

#[test]
fn full_boards_are_exact_past_their_size() {
    let cases = tiny::env_number("SNAKESAT_EXACT_FULL_CASES").unwrap_or(LONG_FULL_CASES);
    let seed = tiny::env_number("SNAKESAT_EXACT_SEED").unwrap_or(0x10a6_f011);
    let options = tiny::all_options();
    let mut late_plans = 0;
    for (k, inst) in tiny::instances(seed as u64, cases, 1).iter().enumerate() {
        let free = inst.cells() - inst.walls.len();
        let last = free + 10;
        let expected = bfs::plans_by_horizon(inst, last);
        late_plans += expected[free..].iter().filter(|&&p| p).count();
        check_fresh(inst, &options[(k * 31) % options.len()], &expected, false);
    }
    // Enough plans whose window starts after time 0 for the facts to matter.
    assert!(
        late_plans >= cases / 4,
        "{late_plans} late plans in {cases} boards"
    );
}

#[test]
fn full_boards_are_exact_at_every_horizon() {
    let cases = tiny::env_number("SNAKESAT_EXACT_FULL_CASES").unwrap_or(FULL_CASES);
    let seed = tiny::env_number("SNAKESAT_EXACT_SEED").unwrap_or(0xf011_b0a4);
    let options = tiny::all_options();
    let mut solvable = 0;
    for (k, inst) in tiny::instances(seed as u64, cases, 1).iter().enumerate() {
        assert!(ends_full(inst), "not a full board: {}", to_json(inst));
        let plans = bfs::plans_by_horizon(inst, MAX_LEAST + ABOVE);
        let last = match plans.iter().position(|&p| p) {
            Some(least) => {
                solvable += 1;
                (least + ABOVE).min(MAX_LEAST + ABOVE)
            }
            None => NO_PLAN_HORIZONS,
        };
        let expected = &plans[..=last];
        let options = tiny::pick(&options, k);
        // The facts are in the formula at the least horizon (left out only
        // where one of them is the empty clause, at horizons with no plan).
        if let Some(least) = plans.iter().position(|&p| p) {
            let facts = Direct::new(options.clone())
                .encode(inst, least)
                .unwrap()
                .families()
                .any(|(name, size)| name == "full board" && size.clauses > 0);
            assert!(
                facts,
                "no full-board facts in {} at T={least} on {}",
                options.name(),
                to_json(inst)
            );
        }
        check_fresh(inst, options, expected, k % 4 == 0);
        let first = [1, 2, lower_bound(inst).unwrap_or(usize::MAX)][k % 3]
            .min(last)
            .max(1);
        check_incremental(inst, options, expected, first);
    }
    assert!(
        solvable >= cases / 10 && solvable <= cases * 9 / 10,
        "{solvable} of {cases} full boards solvable"
    );
}

#[test]
fn an_explicit_body_with_no_plan_at_the_horizon_is_unsat() {
    // The regression: without pruning the formula lacked the first move, and
    // a one-move "plan" jumped two cells to the apple.
    let inst = snakesat::instance::json::from_json(
        r#"{"width":3,"height":1,"snake":[[0,0]],"apples":[[2,0]]}"#,
    )
    .unwrap();
    let expected = bfs::plans_by_horizon(&inst, 3);
    assert!(!expected[1] && expected[2], "{expected:?}");
    for options in tiny::all_options() {
        check_fresh(&inst, &options, &expected, false);
    }
}
