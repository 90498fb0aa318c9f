//! The direct encoding's formula has *exactly the legal plans* at every
//! horizon (docs/DESIGN.md §6): on random tiny instances, for each horizon `T`
//! from 0 to `T* + 3` (at most [`MAX_MOVES`]; 0 to [`NO_PLAN_HORIZONS`] when
//! no plan exists), the set of plans of `encode(instance, T)` equals the set
//! of legal plans of exactly `T` moves. tests/exact.rs asks only whether each
//! formula is satisfiable and whether the models it finds are legal, so a
//! formula that lost some but not all of the legal plans passes it; this test
//! owns the other inclusion: every legal plan is a model.
//!
//! - The legal plans: every sequence of `T + 1` cells, each step to a grid
//!   neighbour, that `sim::simulate` accepts (the rest of the game, start cell
//!   and walls included, is the simulator's alone).
//! - The formula's plans: CaDiCaL enumerates its models; each one's path
//!   (read from its head variables) is blocked by a clause that every model
//!   with that path falsifies, until the formula is UNSAT. The first model of
//!   each formula with `T >= 1` (`export` writes none of 0 moves) is also
//!   read by the library's own decoder (`decode::model_to_plan`), which must
//!   give the same path.
//!
//! A plan is its path, the head's `T + 1` cells, on both sides: on a free
//! start the body before `t = 0` is unconstrained (docs/DESIGN.md §1), so
//! the formula has no variable for it and the simulator replays the path
//! alone; the start cell is the path's first cell, chosen by the enumeration
//! on one side and by the solver on the other.
//!
//! Horizons with more than [`MAX_PLANS`] legal plans, or whose enumeration
//! visits more than [`MAX_PREFIXES`] prefixes, are left out with every later
//! one of their instance. All 360 option combinations of `DirectOptions`
//! are cycled through, [`PER_INSTANCE`] per instance. `SNAKESAT_PLAN_SETS_CASES`
//! sets the number of instances, `SNAKESAT_PLAN_SETS_SEED` the seed; the full
//! count is
//!
//! ```sh
//! SNAKESAT_PLAN_SETS_CASES=10000 cargo test --release --test plan_sets -- --nocapture
//! ```

#[path = "support/bfs.rs"]
mod bfs;
#[path = "support/tiny.rs"]
mod tiny;

use std::collections::BTreeSet;

use snakesat::cnf::{Lit, VarKind, header};
use snakesat::decode::{Answer, model_to_plan};
use snakesat::encode::Encoding;
use snakesat::encode::direct::{Direct, DirectOptions};
use snakesat::instance::json::to_json;
use snakesat::instance::{Instance, Pos, Start};
use snakesat::sim::{replay_partial, simulate};

/// Instances checked by default (CI).
const CASES: usize = 1000;
/// Option combinations tried on each instance, at every horizon.
const PER_INSTANCE: usize = 3;
/// Horizons checked above the least one.
const ABOVE: usize = 3;
/// The largest horizon checked.
const MAX_MOVES: usize = 12;
/// Horizons `0..=NO_PLAN_HORIZONS` checked when no plan exists up to `MAX_MOVES`.
const NO_PLAN_HORIZONS: usize = 4;
/// The most legal plans of one horizon compared.
const MAX_PLANS: usize = 500;
/// The most path prefixes the enumeration of one horizon's legal plans visits.
const MAX_PREFIXES: usize = 200_000;

/// A plan: the head's cell at `t = 0..=T`.
type Plan = Vec<Pos>;

/// The legal plans of exactly `moves` moves, or `None` when there are more
/// than [`MAX_PLANS`] or the enumeration visits more than [`MAX_PREFIXES`]
/// prefixes. Only steps to grid neighbours are enumerated: the simulator
/// would refuse any other.
fn legal_plans(inst: &Instance, moves: usize) -> Option<BTreeSet<Plan>> {
    let mut plans = BTreeSet::new();
    let mut prefixes = 0;
    let mut path = Vec::with_capacity(moves + 1);
    for y in 0..inst.height {
        for x in 0..inst.width {
            path.push((x, y));
            extend(inst, moves, &mut path, &mut plans, &mut prefixes)?;
            path.pop();
        }
    }
    Some(plans)
}

/// Adds to `plans` the legal plans of `moves` moves that begin with `path`.
fn extend(
    inst: &Instance,
    moves: usize,
    path: &mut Plan,
    plans: &mut BTreeSet<Plan>,
    prefixes: &mut usize,
) -> Option<()> {
    *prefixes += 1;
    if *prefixes > MAX_PREFIXES {
        return None;
    }
    // An illegal prefix has no legal extension; each move eats at most one apple.
    let Ok(replay) = replay_partial(inst, path) else {
        return Some(());
    };
    let left = moves + 1 - path.len();
    if inst.apples.len() - replay.eaten.len() > left {
        return Some(());
    }
    if left == 0 {
        if simulate(inst, path).is_ok() {
            plans.insert(path.clone());
        }
        return (plans.len() <= MAX_PLANS).then_some(());
    }
    let (x, y) = *path.last().unwrap();
    for next in [
        (x.wrapping_sub(1), y),
        (x + 1, y),
        (x, y.wrapping_sub(1)),
        (x, y + 1),
    ] {
        if next.0 < inst.width && next.1 < inst.height {
            path.push(next);
            let more = extend(inst, moves, path, plans, prefixes);
            path.pop();
            more?;
        }
    }
    Some(())
}

/// The path that a model's true head variables describe (`head x y t`, or
/// `head-x x t` and `head-y y t`), as `encode::decode` reads it: an explicit
/// start's first cell is a constant, not a variable. `None` unless every
/// time has exactly one cell.
fn decode(inst: &Instance, moves: usize, on: &[VarKind]) -> Option<Plan> {
    let mut cells = vec![BTreeSet::new(); moves + 1];
    let mut columns = vec![BTreeSet::new(); moves + 1];
    let mut rows = vec![BTreeSet::new(); moves + 1];
    if let Start::Body(body) = &inst.start {
        cells[0].insert(body[0]);
    }
    for kind in on {
        match *kind {
            VarKind::Head { x, y, t } => cells[t as usize].insert((x as usize, y as usize)),
            VarKind::HeadX { x, t } => columns[t as usize].insert(x as usize),
            VarKind::HeadY { y, t } => rows[t as usize].insert(y as usize),
            _ => unreachable!("not a head variable: {kind:?}"),
        };
    }
    let mut path = Vec::with_capacity(moves + 1);
    for t in 0..=moves {
        match (columns[t].len(), rows[t].len()) {
            (0, 0) => {}
            (1, 1) => {
                cells[t].insert((*columns[t].first()?, *rows[t].first()?));
            }
            _ => return None,
        }
        if cells[t].len() != 1 {
            return None;
        }
        path.push(*cells[t].first()?);
    }
    Some(path)
}

/// The path the library's decoder reads from `model` (a literal of every
/// variable) of the formula exported at `moves >= 1`.
fn library_path(inst: &Instance, encoding: &Direct, moves: usize, model: &[Lit]) -> Plan {
    let cnf = encoding.encode(inst, moves).unwrap();
    let mut exported = Vec::new();
    header::write(&cnf, inst, encoding, moves, None, &mut exported).unwrap();
    let literals: Vec<String> = model.iter().map(Lit::to_string).collect();
    let model = format!("s SATISFIABLE\nv {} 0\n", literals.join(" "));
    match model_to_plan(&String::from_utf8(exported).unwrap(), &model) {
        Ok(decoded) => match decoded.answer {
            Answer::Plan { path, .. } => path,
            other => panic!("decoder answered {other:?}"),
        },
        Err(e) => panic!("decoder refused the model: {e}"),
    }
}

/// The plans the formula at `moves` allows, enumerated until UNSAT or until
/// there are more than `limit` (then the first `limit + 1`).
fn formula_plans(
    inst: &Instance,
    options: &DirectOptions,
    moves: usize,
    limit: usize,
) -> BTreeSet<Plan> {
    let encoding = Direct::new(options.clone());
    let what = || format!("{} at T={moves} on {}", options.name(), to_json(inst));
    let cnf = encoding
        .encode(inst, moves)
        .unwrap_or_else(|e| panic!("{} refused: {e}", what()));
    let mut solver: cadical::Solver = cadical::Solver::new();
    for clause in cnf.clauses() {
        solver.add_clause(clause.iter().copied());
    }
    let heads: Vec<(Lit, VarKind)> = (1..)
        .zip(cnf.names().iter().copied())
        .filter(|(_, kind)| {
            matches!(
                kind,
                VarKind::Head { .. } | VarKind::HeadX { .. } | VarKind::HeadY { .. }
            )
        })
        .collect();
    let mut plans = BTreeSet::new();
    while plans.len() <= limit {
        match solver.solve() {
            Some(true) => {}
            Some(false) => break,
            None => panic!("CaDiCaL gave up on {}", what()),
        }
        let (on, kinds): (Vec<Lit>, Vec<VarKind>) = heads
            .iter()
            .filter(|&&(v, _)| solver.value(v) == Some(true))
            .copied()
            .unzip();
        let path = decode(inst, moves, &kinds)
            .unwrap_or_else(|| panic!("a model of {} is no path: {kinds:?}", what()));
        if plans.is_empty() && moves > 0 {
            let model: Vec<Lit> = (1..=cnf.num_vars() as Lit)
                .map(|v| if solver.value(v) == Some(true) { v } else { -v })
                .collect();
            let library = library_path(inst, &encoding, moves, &model);
            assert_eq!(library, path, "the decoders differ on {}", what());
        }
        // A model with this path sets every one of these (its cell, or its
        // column and row, at each time); one with another path clears the
        // one of a time where they differ (one cell, column and row per time).
        solver.add_clause(on.iter().map(|&v| -v));
        assert!(
            plans.insert(path.clone()),
            "blocked plan {path:?} came back: {}",
            what()
        );
    }
    plans
}

#[test]
fn every_legal_plan_is_a_model_and_every_model_a_legal_plan() {
    let cases = tiny::env_number("SNAKESAT_PLAN_SETS_CASES").unwrap_or(CASES);
    let seed = tiny::env_number("SNAKESAT_PLAN_SETS_SEED").unwrap_or(0x91a2_5e75);
    let options = tiny::all_options();
    let (mut solvable, mut several, mut cut) = (0usize, 0usize, 0usize);
    let (mut formulas, mut sat, mut plans) = (0usize, 0usize, 0usize);
    for (k, inst) in tiny::instances(seed as u64, cases, 8).iter().enumerate() {
        let json = to_json(inst);
        let by_horizon = bfs::plans_by_horizon(inst, MAX_MOVES);
        let last = match by_horizon.iter().position(|&p| p) {
            Some(least) => {
                solvable += 1;
                (least + ABOVE).min(MAX_MOVES)
            }
            None => NO_PLAN_HORIZONS,
        };
        let mut most = 0;
        for (t, &exists) in by_horizon[..=last].iter().enumerate() {
            let Some(legal) = legal_plans(inst, t) else {
                cut += 1;
                break;
            };
            assert_eq!(
                !legal.is_empty(),
                exists,
                "the enumeration and tests/support/bfs.rs differ at T={t} on {json}"
            );
            for j in 0..PER_INSTANCE {
                let options = tiny::pick(&options, k * PER_INSTANCE + j);
                let found = formula_plans(inst, options, t, legal.len());
                let missing = legal.difference(&found).next();
                let extra = found.difference(&legal).next();
                let more = if found.len() > legal.len() {
                    " or more"
                } else {
                    ""
                };
                assert!(
                    missing.is_none() && extra.is_none(),
                    "{} at T={t} on {json}: {} legal plans, {}{more} in the formula; \
                     legal but not a model: {missing:?}; a model but not legal: {extra:?}",
                    options.name(),
                    legal.len(),
                    found.len(),
                );
                formulas += 1;
                sat += usize::from(!legal.is_empty());
                plans += legal.len();
            }
            most = most.max(legal.len());
        }
        several += usize::from(most >= 2);
    }
    eprintln!(
        "{cases} instances ({solvable} solvable, {several} with several plans at one horizon, \
         {cut} cut short), {formulas} formulas ({sat} SAT) over {} option combinations, \
         {plans} plans",
        options.len()
    );
    // Most instances solvable, most of those with several plans at one
    // horizon, and many plans per formula, or a missing plan could hide.
    assert!(
        solvable >= cases / 2 && several >= solvable * 3 / 4,
        "{solvable} of {cases} instances solvable, {several} with several plans"
    );
    assert!(plans >= 5 * sat, "{plans} plans in {sat} SAT formulas");
}
