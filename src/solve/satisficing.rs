//! A plan fast, then shorter ones.
//!
//! A small instance first gets the least-horizon search for a moment
//! (its answer, when it finds one, is the least plan). Otherwise the first
//! plan is constructed without SAT, by the deadline (and within
//! [`CONSTRUCT_SECONDS`], or [`ODD_TOUR_SECONDS`] for the tours of an odd
//! full board, without one): along
//! Hamiltonian cycles of the board ([`tour_plan`]: the snake keeps its body
//! in the cycle's order, so it cannot get stuck; with shortcuts) and by
//! earliest-arrival paths to the apples ([`construct`]); then beams over
//! moves ([`super::beam::beams`], on two threads unless the planner allows one) within a quarter of the time left; the
//! shortest is kept. Then, within a third of the time left, a plan is built apple by
//! apple with SAT ([`greedy`]): from the current board, the least plan that
//! eats the next few apples (those on the board and a few of the spawn
//! chain: a safety lookahead) is found by the incremental search, and only
//! its moves up to the first few apples are kept; the shorter plan is kept
//! (if every one fails, one incremental session for a generous horizon is
//! asked at that horizon instead).
//!
//! Then the plan gets shorter in two ways, in an order set by the size of
//! the whole-horizon formula at its length. Shortening ([`shorten`]):
//! suffixes regrown by beams ([`super::beam::regrow`]), then by SAT
//! ([`regrow`]: the plan cut after an apple and the rest
//! rebuilt by the greedy with other lookaheads, commits and board
//! symmetries, on two threads unless the planner allows one), then windows of the plan between apples
//! re-planned by small SAT calls ([`super::window`]). The descent: one
//! session built for the best length asks for shorter plans, first by jumps
//! halfway to the lower bound, each within a slice of the time left, then
//! every horizon below the best, downwards (a SAT answer is a shorter plan),
//! until the lower bound (UNSAT everywhere below proves the best plan least).
//! A small formula (up to [`SMALL_CLAUSES`] clauses) gets windows, then the
//! descent, then shortening if the plan is not proven least; a large one,
//! where the descent rarely answers, gets shortening first (known large
//! without building it when its head cells alone exceed that count, and not
//! built at all when it could not be built before the deadline). The
//! deadline bounds every phase, the counting of head cells included (on a
//! 100x100 board at 3,658 moves it takes seconds; past the deadline the
//! formula counts as large and is not built), and the planner's
//! cancellation ([`Budget::cancel`]) stops every phase as the deadline does,
//! those without SAT too (through the [`Interrupt`] they are given).

use std::time::Instant;

use crate::encode::{EncodeError, Encoding};
use crate::instance::{Instance, Pos};
use crate::sim;

use super::beam::beams_until;
use super::construct::{construct, construct_detouring, needs_pair, tour_plan, tour_plan_free};
use super::incremental::{Session, head_cells, least_horizon_incremental};
use super::{Attempt, Budget, Interrupt, SearchResult, Status};
use crate::encode::full::ends_full;
use crate::encode::prune::lower_bound;
use crate::instance::{Start, TailRule};
use crate::planner::Undecided;
use crate::symmetry::Symmetry;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The symmetry that moves nothing.
const IDENTITY: Symmetry = Symmetry {
    transpose: false,
    flip_x: false,
    flip_y: false,
};

/// Apples of the spawn chain looked at beyond those on the board.
const LOOKAHEAD: usize = 3;
/// Search nodes of the constructive first plan.
const CONSTRUCT_NODES: usize = 200_000;
/// Seconds of the constructive first plan (at most the deadline).
const CONSTRUCT_SECONDS: std::time::Duration = std::time::Duration::from_secs(3);
/// Seconds of the tours on an odd full board without a deadline.
const ODD_TOUR_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);
/// Seconds of the beams without a deadline.
const BEAM_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);
/// Share of the time left (after the constructions) for the beams.
const BEAM_SHARE: f64 = 0.25;
/// Seconds of the SAT greedy, and of the windows, without a deadline.
const GREEDY_SECONDS: std::time::Duration = std::time::Duration::from_secs(20);
/// Seconds of one jump of the improvement without a deadline.
const JUMP_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);
/// Clauses of the whole-horizon formula at the first plan's length up to
/// which the descent goes before the regrowing of suffixes (problems 1, 2,
/// 5, 6, 7 and 11 of the IPC set; their plans are proven least that way).
const SMALL_CLAUSES: u64 = 50_000;
/// Head cells (summed over the times) of the whole-horizon formula built and
/// loaded into CaDiCaL per second: a 20x20 board at T = 2,779 (553,479 head
/// cells, 21 million clauses, 3 GB) took 11.8 s, about 47,000 a second. A
/// formula the deadline leaves no time to build is not started: building is
/// not interruptible, and overrunning the deadline loses the plan found.
const BUILD_HEAD_CELLS_PER_SECOND: f64 = 40_000.0;
/// Horizons above the lower bound that the brief least-horizon search of a
/// small instance climbs ([`satisficing`]).
const EXACT_MARGIN: usize = 32;
/// Seconds of that search (a tenth of the time left when that is less).
const EXACT_SECONDS: std::time::Duration = std::time::Duration::from_secs(1);
/// Share of the time left for that search on an odd full board of at most
/// [`EXACT_ODD_FULL_CELLS`] free cells (at least [`EXACT_SECONDS`]), where
/// the tours and constructions rarely give a first plan: the 20 generated
/// 5x5 full boards of seeds 11–30 take 0.4–1.3 s each to prove their least
/// plans, and with a second six of them got their plan only after 4–10 s of
/// the later phases at `--timeout 10`, two not proven least (with a third of
/// the time: all 20 proven least within 2.8 s).
const EXACT_SHARE_ODD_FULL: f64 = 1.0 / 3.0;
/// The free cells up to which an odd full board gets that share. On 7x7
/// (seeds 1–10) and 9x9 (1–6) the search proves nothing within a third of
/// 10 s, and the time taken from the other phases gave plans up to 14 moves
/// longer.
const EXACT_ODD_FULL_CELLS: usize = 25;
/// Seconds of that search on such a board without a deadline (5x5 seed 25
/// took 16.8 s to its proven least plan with 1 s, 2.3 s with a third of 10 s).
const EXACT_SECONDS_ODD_FULL: std::time::Duration = std::time::Duration::from_secs(5);
/// Share of the time left for the descent on a small formula.
const DESCENT_SHARE: f64 = 0.6;
/// Share of the time left for regrowing suffixes with beams (before the SAT greedy's).
const BEAM_REGROW_SHARE: f64 = 0.25;
/// Share of the time left for regrowing suffixes.
const REGROW_SHARE: f64 = 0.85;
/// The formula margin of the greedy's steps when regrowing (see [`Variant`]).
const STEP_MARGIN: usize = 12;
/// Apples eaten per kept segment.
const COMMIT: usize = 2;

/// The sub-problem from the end of `path`: the board's apples and the next
/// ones of the chain (at most `lookahead` of them), from the current body.
/// `None` when the game is over; `Err` when the board is not a valid start
/// (an apple under the body).
fn sub_instance(
    instance: &Instance,
    path: &[Pos],
    lookahead: usize,
) -> Result<Option<(Instance, bool)>, ()> {
    let n = instance.apples.len();
    let v = instance.visible_at_start();
    let mut last = None;
    sim::replay_each(instance, path, |m| {
        if m.time + 1 == path.len() {
            last = Some(m.state());
        }
    })
    .map_err(|_| ())?;
    let state = last.ok_or(())?;
    if state.eaten == n {
        return Ok(None);
    }
    let revealed = (v + state.eaten).min(n);
    let mut list: Vec<Pos> = state.apples_on_board.iter().map(|&(_, p)| p).collect();
    let on_board = list.len();
    list.extend(instance.apples[revealed..].iter().copied());
    let remaining = list.len();
    let m = (on_board + lookahead).min(remaining);
    list.truncate(m);
    let body = if path.len() == 1 {
        match &instance.start {
            Start::Body(b) => b.clone(),
            Start::Free { .. } => return Err(()),
        }
    } else {
        state.body.clone()
    };
    let sub = Instance {
        start: Start::Body(body),
        apples: list,
        visible: on_board.min(m).max(1),
        horizon: None,
        ..instance.clone()
    };
    // A spawned apple may lie under the body (it waits for the head, as in the
    // domain); only one under the head is not a valid start.
    match sub.validate() {
        Ok(()) => {}
        Err(crate::instance::InstanceError::AppleOnBody { x, y, .. })
            if state.body[0] != (x, y) => {}
        Err(_) => return Err(()),
    }
    Ok(Some((sub, m == remaining)))
}

/// The least plan of a greedy step's sub-problem (by the incremental search
/// from its lower bound, as in [`super::incremental`]), solved on the board
/// moved by `symmetry` and moved back (the same length, often another plan:
/// the solver's choices follow the variables' order); `None` at the
/// deadline or beyond `max_moves`.
fn least_plan(
    sub: &Instance,
    encoding: &dyn Encoding,
    max_moves: usize,
    budget: &Budget,
    symmetry: Symmetry,
    margin: usize,
) -> Option<Vec<Pos>> {
    let (w, h) = (sub.width, sub.height);
    let back: HashMap<Pos, Pos> = (0..w)
        .flat_map(|x| (0..h).map(move |y| (x, y)))
        .map(|p| (symmetry.apply_pos(w, h, p), p))
        .collect();
    let image;
    let sub = if symmetry == IDENTITY {
        sub
    } else {
        image = symmetry.apply(sub);
        &image
    };
    let lb = lower_bound(sub)?;
    let search =
        least_horizon_incremental(sub, encoding, lb, max_moves, lb, margin, budget, |_| {}).ok()?;
    let path = search.plan()?.path.as_ref()?;
    path.iter().map(|p| back.get(p).copied()).collect()
}

/// One way of building a plan apple by apple with SAT: how many apples of
/// the spawn chain each sub-problem looks at beyond those on the board, and
/// how many apples of its least plan are kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Variant {
    lookahead: usize,
    commit: usize,
    /// Horizons each step's formula reaches beyond the first one asked
    /// (doubled when exceeded); 0: as the incremental search (at least the
    /// board's cells). A short one is faster where the least plan is near
    /// the lower bound and makes other plans.
    margin: usize,
}

/// A [`Variant`] and the board symmetry its steps are solved under.
type Try = (Variant, Symmetry);

/// The variants of the greedy, the default first: the others make
/// different plans (some longer, some shorter) to regrow suffixes with.
const VARIANTS: [Variant; 6] = [
    Variant {
        lookahead: LOOKAHEAD,
        commit: COMMIT,
        margin: 0,
    },
    Variant {
        lookahead: 1,
        commit: 1,
        margin: 0,
    },
    Variant {
        lookahead: 5,
        commit: 2,
        margin: 0,
    },
    Variant {
        lookahead: 2,
        commit: 1,
        margin: 0,
    },
    Variant {
        lookahead: 4,
        commit: 3,
        margin: 0,
    },
    Variant {
        lookahead: 0,
        commit: 1,
        margin: 0,
    },
];

/// A plan apple by apple (see the module doc) that starts with `prefix`
/// (a legal plan, at least the start cell); `None` on a dead end, at the
/// deadline, or once it has more than `bound` cells (read at every step:
/// another thread may lower it).
fn greedy(
    instance: &Instance,
    encoding: &dyn Encoding,
    max_moves: usize,
    budget: &Budget,
    prefix: &[Pos],
    (variant, symmetry): Try,
    bound: &AtomicUsize,
) -> Option<Vec<Pos>> {
    if !matches!(instance.start, Start::Body(_)) || prefix.is_empty() {
        return None;
    }
    let mut path: Vec<Pos> = prefix.to_vec();
    let mut next = sub_instance(instance, &path, variant.lookahead).ok()?;
    while let Some((sub, last)) = next {
        if path.len() > bound.load(Ordering::Relaxed) {
            return None;
        }
        let plan = least_plan(&sub, encoding, max_moves, budget, symmetry, variant.margin)?;
        let replay = sim::simulate(&sub, &plan).ok()?;
        let mut times: Vec<usize> = replay.eaten.iter().map(|&(_, t)| t).collect();
        times.sort_unstable();
        times.dedup();
        // Keep up to the commit-th apple, else any other eating time whose board is a valid start.
        let first = variant.commit.clamp(1, times.len()) - 1;
        let mut keeps: Vec<usize> = vec![times[first]];
        keeps.extend(times[..first].iter().rev());
        keeps.extend(&times[first + 1..]);
        if last {
            keeps = vec![plan.len() - 1];
        }
        let mut chosen = None;
        for keep in keeps {
            let mut candidate = path.clone();
            candidate.extend_from_slice(&plan[1..=keep]);
            if let Ok(after) = sub_instance(instance, &candidate, variant.lookahead) {
                chosen = Some((candidate, after));
                break;
            }
        }
        let (candidate, after) = chosen?;
        path = candidate;
        next = after;
    }
    (path.len() <= bound.load(Ordering::Relaxed)).then_some(path)
}

/// The cuts and tries of [`regrow`], in order, and the plan they improve.
struct Queue {
    best: Vec<Pos>,
    /// The tries from the start not handed out yet.
    starts: Vec<Try>,
    /// The next cut (an index into the best plan's eating times).
    cut: usize,
    round: usize,
    /// Rounds over every cut since the last gain.
    since_gain: usize,
    gained: bool,
}

/// Shorter plans by regrowing suffixes: the plan is cut after one of its
/// apples and the rest rebuilt by [`greedy`] with one of the [`VARIANTS`]
/// under one of the board's symmetries (a candidate is dropped as soon as
/// it is no shorter than the best plan); a shorter legal plan becomes the
/// best. First every variant and symmetry from the start, then rounds of
/// cuts from the start to the end of the best plan, the try changing with
/// the cut and the round; stops at the deadline or after rounds of every
/// variant at every cut without a gain. Two workers take the next cut from a
/// shared queue, one per core (the second with its own copy of the encoding,
/// found by name; none with a budget of one thread); which of two shorter plans found at once is kept depends
/// on which finishes first.
fn regrow(
    instance: &Instance,
    encoding: &dyn Encoding,
    max_moves: usize,
    budget: &Budget,
    best: Vec<Pos>,
) -> Vec<Pos> {
    let out_of_time = || budget.expired();
    let group = Symmetry::group(instance.width, instance.height);
    let fast = |v: Variant| Variant {
        margin: STEP_MARGIN,
        ..v
    };
    let mut starts: Vec<Try> = VARIANTS[1..].iter().map(|&v| (fast(v), IDENTITY)).collect();
    starts.push((fast(VARIANTS[0]), IDENTITY));
    starts.extend(group[1..].iter().map(|&g| (fast(VARIANTS[0]), g)));
    starts.reverse();
    let bound = AtomicUsize::new(best.len().saturating_sub(1));
    let queue = Mutex::new(Queue {
        best,
        starts,
        cut: 1,
        round: 0,
        since_gain: 0,
        gained: false,
    });
    // The next try: a prefix of the best plan and how to regrow it.
    let next = || -> Option<(Vec<Pos>, Try)> {
        let mut q = queue.lock().ok()?;
        if out_of_time() {
            return None;
        }
        if let Some(t) = q.starts.pop() {
            return Some((q.best[..1].to_vec(), t));
        }
        let mut anchors: Vec<usize> = vec![0];
        if let Ok(replay) = sim::simulate(instance, &q.best) {
            anchors.extend(replay.eaten.iter().map(|&(_, t)| t));
        }
        anchors.pop();
        if q.cut >= anchors.len() {
            q.since_gain = if q.gained { 0 } else { q.since_gain + 1 };
            q.gained = false;
            q.round += 1;
            q.cut = 1;
        }
        if q.since_gain >= 2 * VARIANTS.len() || q.cut >= anchors.len() {
            return None;
        }
        let (k, round) = (q.cut, q.round);
        q.cut += 1;
        let variant = Variant {
            margin: STEP_MARGIN,
            ..VARIANTS[(k + round) % VARIANTS.len()]
        };
        let symmetry = group[(3 * k + 5 * round) % group.len()];
        Some((q.best[..=anchors[k]].to_vec(), (variant, symmetry)))
    };
    let work = |encoding: &dyn Encoding| {
        while let Some((prefix, t)) = next() {
            let Some(candidate) = greedy(instance, encoding, max_moves, budget, &prefix, t, &bound)
            else {
                continue;
            };
            let candidate = cut(instance, candidate);
            let Ok(mut q) = queue.lock() else {
                return;
            };
            if candidate.len() < q.best.len() && sim::simulate(instance, &candidate).is_ok() {
                bound.store(candidate.len() - 1, Ordering::Relaxed);
                budget.offer(&candidate);
                q.best = candidate;
                q.gained = true;
            }
        }
    };
    let name = encoding.name();
    std::thread::scope(|scope| {
        if budget.threads() > 1 {
            scope.spawn(|| {
                if let Ok(own) = crate::encode::by_name(&name) {
                    work(own.as_ref());
                }
            });
        }
        work(encoding);
    });
    match queue.into_inner() {
        Ok(q) => q.best,
        Err(poisoned) => poisoned.into_inner().best,
    }
}

/// The budget that ends at `share` of the time left before `deadline`
/// (without a deadline: [`GREEDY_SECONDS`] from now).
fn until(deadline: Option<Instant>, share: f64, budget: &Budget) -> Budget {
    let now = Instant::now();
    Budget {
        deadline: Some(match deadline {
            Some(d) => now + d.saturating_duration_since(now).mul_f64(share),
            None => now + GREEDY_SECONDS,
        }),
        ..budget.clone()
    }
}

/// A legal plan made shorter: suffixes regrown by beams within
/// [`BEAM_REGROW_SHARE`] of the time left, then by SAT ([`regrow`]) within
/// [`REGROW_SHARE`] of the time left, then windows re-planned
/// ([`super::window::improve`]) within half of the rest.
fn shorten(
    instance: &Instance,
    encoding: &dyn Encoding,
    max_moves: usize,
    deadline: Option<Instant>,
    budget: &Budget,
    path: Vec<Pos>,
) -> Vec<Pos> {
    let beam_stop = until(deadline, BEAM_REGROW_SHARE, budget).interrupt(None);
    let regrown = super::beam::regrow_until(instance, path.clone(), &beam_stop, budget.threads());
    let path = if regrown.len() < path.len() && sim::simulate(instance, &regrown).is_ok() {
        budget.offer(&regrown);
        regrown
    } else {
        path
    };
    let path = regrow(
        instance,
        encoding,
        max_moves,
        &until(deadline, REGROW_SHARE, budget),
        path,
    );
    super::window::improve(instance, encoding, path, &until(deadline, 0.5, budget))
}

/// The shorter of two plans, `a` on a tie, or whichever exists.
fn shorter(a: Option<Vec<Pos>>, b: Option<Vec<Pos>>) -> Option<Vec<Pos>> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if a.len() <= b.len() { a } else { b }),
        (a, b) => a.or(b),
    }
}

/// The path cut after its last apple (a legal plan stays legal when cut).
pub(crate) fn cut(instance: &Instance, path: Vec<Pos>) -> Vec<Pos> {
    match sim::simulate(instance, &path) {
        Ok(replay) => {
            let last = replay
                .eaten
                .iter()
                .map(|&(_, t)| t)
                .max()
                .unwrap_or(0)
                .max(1);
            path[..=last.min(path.len() - 1)].to_vec()
        }
        Err(_) => path,
    }
}

/// `instance` under the `strict` tail rule, the only one the tours know,
/// when its rule is `follow`: `strict` only forbids more (the cell the tail
/// leaves), so a plan under it is a plan under `follow` too.
fn with_strict_tail(instance: &Instance) -> Option<Instance> {
    (instance.tail == TailRule::Follow).then(|| Instance {
        tail: TailRule::Strict,
        ..instance.clone()
    })
}

/// Nodes of the search for a free start's body.
const BODY_NODES: usize = 10_000;

/// With a free start, the same instance with an explicit body: the head on
/// the apple-free cell nearest the first apple (the nearest that has room),
/// the body a simple path of apple-free cells behind it (or, when none fits,
/// of cells whose apples are hidden at the start). A plan of that
/// instance is a plan of the free start too, whose body before `t = 0` is
/// unconstrained (docs/DESIGN.md §1), so the constructions that need a body
/// (tours, the search apple by apple, beams) serve free starts as well.
/// `None` with an explicit body or when no body of that length fits.
fn with_concrete_start(instance: &Instance) -> Option<Instance> {
    concrete_starts(instance).next()
}

/// Nodes of the search apple by apple from each of a free start's other
/// bodies ([`other_starts_construct`]).
const OTHER_START_NODES: usize = CONSTRUCT_NODES / 20;

/// A free start whose first body got no plan from the search apple by apple:
/// the same search from its other bodies ([`concrete_starts`]), a small
/// budget each, until one gets a plan or `deadline` passes. A doomed body
/// usually fails at once (every first eat strands the snake), so many are
/// tried: on a 10x10 board with 6 walls and 50 apples in view (seed 7) the
/// first 27 of 31 bodies fail in all within 0.01 s and the 28th, beside a
/// pocket's apple that must be eaten first, gets a 145-move plan.
fn other_starts_construct(instance: &Instance, stop: &Interrupt) -> Option<Vec<Pos>> {
    concrete_starts(instance)
        .skip(1)
        .take_while(|_| !stop.fired())
        .find_map(|start| construct(&start, OTHER_START_NODES, stop))
}

/// Every body [`with_concrete_start`] could give a free start, its own
/// first, then one per other head cell in the same order (nearest the first
/// apple first), built lazily: a body from which the search apple by apple
/// gets nowhere (say its head is boxed in by apples, or a dead end's apple
/// must be eaten first, far from it) says nothing of the others. Nothing
/// with an explicit body.
fn concrete_starts(instance: &Instance) -> Box<dyn Iterator<Item = Instance> + '_> {
    let Start::Free { length } = instance.start else {
        return Box::new(std::iter::empty());
    };
    // Apple-free cells first; when no body fits there (a board the apples
    // nearly fill), the cells of apples hidden at the start too: the free
    // start forbids only the revealed ones, and an apple revealed under the
    // body waits until the head gets there.
    let mut beside_apples = bodies(instance, length, &instance.apples).peekable();
    if beside_apples.peek().is_some() {
        Box::new(beside_apples)
    } else {
        let visible = instance.visible_at_start();
        Box::new(bodies(instance, length, &instance.apples[..visible]))
    }
}

/// The bodies of `length` cells off the walls and `taken`, one per head
/// cell, heads nearest the first apple first (within [`BODY_NODES`] nodes in
/// all).
fn bodies<'a>(
    instance: &'a Instance,
    length: usize,
    taken: &'a [Pos],
) -> impl Iterator<Item = Instance> + 'a {
    let walls = instance.wall_map();
    let first = instance.apples.first().copied().unwrap_or((0, 0));
    let far = |p: Pos| p.0.abs_diff(first.0) + p.1.abs_diff(first.1);
    let open = move |p: Pos| !walls[instance.index(p)] && !taken.contains(&p);
    let mut heads: Vec<Pos> = (0..instance.cells())
        .map(|c| instance.pos(c))
        .filter(|&p| open(p))
        .collect();
    heads.sort_by_key(|&p| far(p));
    let mut nodes = 0;
    heads.into_iter().filter_map(move |head| {
        let body = simple_path(instance, head, length, &open, &mut nodes)?;
        Some(Instance {
            start: Start::Body(body),
            ..instance.clone()
        })
    })
}

/// A simple path of `length` cells from `head` through cells `open` accepts,
/// by depth-first search within [`BODY_NODES`] nodes in all (`nodes` counts
/// them across calls).
fn simple_path(
    instance: &Instance,
    head: Pos,
    length: usize,
    open: &impl Fn(Pos) -> bool,
    nodes: &mut usize,
) -> Option<Vec<Pos>> {
    let mut path = vec![head];
    let mut tried: Vec<Vec<Pos>> = vec![instance.neighbours(head).collect()];
    while path.len() < length {
        if *nodes >= BODY_NODES {
            return None;
        }
        *nodes += 1;
        let next = tried.last_mut().and_then(|options| {
            while let Some(p) = options.pop() {
                if open(p) && !path.contains(&p) {
                    return Some(p);
                }
            }
            None
        });
        match next {
            Some(p) => {
                path.push(p);
                tried.push(instance.neighbours(p).collect());
            }
            None => {
                path.pop();
                tried.pop();
                if path.is_empty() {
                    return None;
                }
            }
        }
    }
    Some(path)
}

/// The answer of a plan found without a solver: its attempt (heard by
/// `progress`) after `attempts`, with `lower_bound` as the proven bound.
fn unsolved_answer(
    path: Vec<Pos>,
    lower_bound: usize,
    budget: &Budget,
    mut attempts: Vec<Attempt>,
    progress: &mut impl FnMut(&Attempt),
) -> SearchResult {
    let a = Attempt {
        horizon: path.len() - 1,
        status: Status::Sat,
        stats: Default::default(),
        path: Some(path),
        config: budget.config,
        certificate: None,
    };
    progress(&a);
    attempts.push(a);
    SearchResult {
        status: Status::Sat,
        attempts,
        lower_bound,
        undecided: None,
    }
}

/// Satisficing search: every phase stops at the deadline or at the
/// budget's cancellation (status `unknown` when no plan was found by then;
/// else the best plan so far; `unsat` when no plan was constructed and the
/// formulas refute every horizon up to `max_moves`). `lower_bound` is a
/// proven bound; `max_moves` the largest horizon ever built. Every solver
/// uses the budget's configuration.
pub(crate) fn satisficing(
    instance: &Instance,
    encoding: &dyn Encoding,
    lower_bound: usize,
    max_moves: usize,
    budget: &Budget,
    mut progress: impl FnMut(&Attempt),
) -> Result<SearchResult, EncodeError> {
    let deadline = budget.deadline;
    // What stops the counting of head cells: the deadline or the cancellation.
    let stop = budget.interrupt(None);
    let lower_bound = lower_bound.max(1);
    let mut attempts: Vec<Attempt> = Vec::new();
    // A small instance: the least-horizon search first, briefly (where the
    // constructions find nothing, e.g. a free start whose final snake would
    // overfill the board, it answers in milliseconds).
    // A free start on a walled board with no room for a body has no
    // construction at all: the least-horizon search gets the whole time
    // (`--size 7 --apples 36 --visible all --walls 6 --seed 5`: 7 apple-free
    // cells, no 3-cell body among them; `unknown` at --timeout 10, now the
    // least plan, 40 moves, in 4.5 s).
    let concrete = with_concrete_start(instance);
    // (On a wall-free board the tours lay a body of their own, over apples.)
    let no_body = matches!(instance.start, Start::Free { .. })
        && concrete.is_none()
        && !instance.walls.is_empty();
    // The constructions need a body (a free start gets one), and the tours
    // the strict tail rule; each plan is checked against `instance`.
    let concrete_instance = concrete.as_ref().unwrap_or(instance);
    // An odd full board: the tours and the constructions rarely give a first plan.
    let odd_full = needs_pair(concrete_instance);
    if head_cells(instance, lower_bound + EXACT_MARGIN, &stop).is_some_and(|c| c <= SMALL_CLAUSES) {
        let now = Instant::now();
        let small_odd_full = odd_full && instance.free_cells() <= EXACT_ODD_FULL_CELLS;
        let exact = Budget {
            deadline: match deadline {
                Some(d) if no_body => Some(d),
                None if no_body => None,
                Some(d) if small_odd_full => {
                    let left = d.saturating_duration_since(now);
                    Some(
                        now + left
                            .mul_f64(EXACT_SHARE_ODD_FULL)
                            .max(EXACT_SECONDS.min(left)),
                    )
                }
                Some(d) => Some(now + EXACT_SECONDS.min(d.saturating_duration_since(now) / 10)),
                None if small_odd_full => Some(now + EXACT_SECONDS_ODD_FULL),
                None => Some(now + EXACT_SECONDS),
            },
            ..budget.clone()
        };
        let top = if no_body {
            max_moves
        } else {
            max_moves.min(lower_bound + EXACT_MARGIN)
        };
        // (Full boards: fresh formulas on every core, as the default search.)
        let search = if ends_full(instance) {
            super::parallel::least_horizon_parallel(
                instance,
                encoding,
                lower_bound,
                top,
                lower_bound,
                &exact,
                exact.threads(),
                None,
                &mut progress,
            )
            .ok()
        } else {
            least_horizon_incremental(
                instance,
                encoding,
                lower_bound,
                top,
                lower_bound,
                0,
                &exact,
                &mut progress,
            )
            .ok()
        };
        // (Without a body, every horizon refuted up to `max_moves` is the
        // answer too: nothing else could find a plan.)
        if let Some(search) =
            search.filter(|s| s.status == Status::Sat || (no_body && s.status == Status::Unsat))
        {
            return Ok(search);
        }
    }
    // First plan: apple by apple; else a horizon well above the lower bound, doubled margin on UNSAT.
    let started = Instant::now();
    let quick = started + CONSTRUCT_SECONDS;
    let quick = deadline.map_or(quick, |d| d.min(quick));
    let valid = |p: &Vec<Pos>| sim::simulate(instance, p).is_ok();
    let strict = with_strict_tail(concrete_instance);
    let toured = strict.as_ref().unwrap_or(concrete_instance);
    // The tours get two thirds of the window; on odd full boards (where the
    // SAT phases rarely find a first plan) two thirds of the time left.
    let window = quick.saturating_duration_since(started);
    let tour_deadline = if odd_full {
        deadline.map_or(started + ODD_TOUR_SECONDS, |d| {
            started + d.saturating_duration_since(started) * 2 / 3
        })
    } else {
        started + window * 2 / 3
    };
    let tour_stop = budget.stop_at(tour_deadline);
    // (Each plan kept is offered to the caller at once: `Budget::offer`.)
    let offered = |p: Vec<Pos>| {
        budget.offer(&p);
        p
    };
    let tour = tour_plan(toured, &tour_stop)
        .filter(valid)
        .map(|p| cut(instance, p))
        .map(offered);
    // A free start: also the tours from a body laid along each of them.
    let free_tour = with_strict_tail(instance)
        .as_ref()
        .map_or_else(
            || tour_plan_free(instance, &tour_stop),
            |strict| tour_plan_free(strict, &tour_stop),
        )
        .filter(valid)
        .map(|p| cut(instance, p))
        .map(offered);
    let tour = shorter(tour, free_tour);
    // The search apple by apple: the rest of the window, at least a third of it.
    let quick = quick.max(Instant::now() + window / 3);
    let quick = deadline.map_or(quick, |d| d.min(quick));
    let quick = budget.stop_at(quick);
    let constructed = construct(concrete_instance, CONSTRUCT_NODES, &quick)
        .or_else(|| other_starts_construct(instance, &quick))
        .or_else(|| construct_detouring(concrete_instance, CONSTRUCT_NODES, &quick))
        .filter(valid)
        .map(|p| cut(instance, p))
        .map(offered);
    let constructed = shorter(tour, constructed);
    // A plan no longer than the lower bound is least (below): nothing
    // shorter for the beams or the greedy to find (a beam ranks each state
    // by a search over the board: 10 s for 2 apples on 101x101).
    let least = |plan: &Option<Vec<Pos>>| plan.as_ref().is_some_and(|p| p.len() - 1 <= lower_bound);
    // Beams over moves on two threads, within a share of the time left.
    let now = Instant::now();
    let beam_deadline = deadline.map_or(now + BEAM_SECONDS, |d| {
        now + d.saturating_duration_since(now).mul_f64(BEAM_SHARE)
    });
    let beamed = if least(&constructed) {
        None
    } else {
        beams_until(
            concrete_instance,
            &budget.stop_at(beam_deadline),
            budget.threads(),
        )
        .filter(valid)
        .map(|p| cut(instance, p))
        .map(offered)
    };
    let constructed = shorter(constructed, beamed);
    // The SAT greedy, within a third of the time left (or GREEDY_SECONDS
    // without a deadline when a constructed plan exists): usually shorter.
    let now = Instant::now();
    let greedy_deadline = match (deadline, &constructed) {
        (Some(d), _) => Some(now + d.saturating_duration_since(now) / 3),
        (None, Some(_)) => Some(now + GREEDY_SECONDS),
        (None, None) => None,
    };
    let greedy_budget = Budget {
        deadline: greedy_deadline,
        ..budget.clone()
    };
    let start = match &concrete_instance.start {
        Start::Body(body) => vec![body[0]],
        Start::Free { .. } => Vec::new(),
    };
    let greedy_plan = if least(&constructed) {
        None
    } else {
        greedy(
            concrete_instance,
            encoding,
            max_moves,
            &greedy_budget,
            &start,
            (VARIANTS[0], IDENTITY),
            &AtomicUsize::new(usize::MAX),
        )
        .filter(valid)
        .map(|p| cut(instance, p))
        .map(offered)
    };
    let first_plan = shorter(constructed, greedy_plan);
    // A plan no longer than the lower bound is least: no shorter horizon to
    // ask (the session below is built from the lower bound up to the plan's
    // length; without apples, a constructed plan has no move, shorter than
    // the bound of one move).
    if least(&first_plan)
        && let Some(path) = &first_plan
    {
        let least = path.len() - 1;
        let path = path.clone();
        return Ok(unsolved_answer(
            path,
            least,
            budget,
            attempts,
            &mut progress,
        ));
    }
    // The whole-horizon formula of the first plan's length: when small, the
    // descent below (which can prove a plan least) goes first; else the
    // regrowing of suffixes, which is where the long plans get shorter.
    // It is built once, here, and kept for the descent; a formula that cannot
    // even be built by the deadline counts as large, and so does one whose
    // head cells cannot be counted by it.
    let mut descent_session = None;
    let small = match &first_plan {
        // Each head variable has a clause of its own: more head cells than
        // SMALL_CLAUSES means a large formula, known without building it.
        Some(p) if head_cells(instance, p.len() - 1, &stop).is_none_or(|c| c > SMALL_CLAUSES) => {
            false
        }
        Some(p) => {
            let top = p.len() - 1;
            match Session::new(instance, encoding, lower_bound, top, budget) {
                Ok(s) => {
                    let clauses = s.attempt(top, Status::Sat, None, 0.0).stats.clauses;
                    descent_session = Some(s);
                    clauses <= SMALL_CLAUSES
                }
                Err(_) => false,
            }
        }
        None => true,
    };
    let first_plan = match first_plan {
        Some(p) if !small => Some(shorten(instance, encoding, max_moves, deadline, budget, p)),
        Some(p) => Some(super::window::improve(
            instance,
            encoding,
            p,
            &until(deadline, 0.5, budget),
        )),
        None => None,
    }
    .map(offered);
    let best: Option<Attempt>;
    let mut session;
    if let Some(path) = first_plan {
        let top = path.len() - 1;
        // A formula that cannot be built in the time left is not started
        // (nor one whose head cells cannot be counted in it), nor any once
        // the search is cancelled (building is not interruptible: a 20x20
        // board at 3,198 moves takes seconds).
        let in_time = || {
            !budget.cancelled()
                && deadline.is_none_or(|d| {
                    head_cells(instance, top, &stop).is_some_and(|cells| {
                        let seconds = cells as f64 / BUILD_HEAD_CELLS_PER_SECOND;
                        d.saturating_duration_since(Instant::now()).as_secs_f64() > seconds
                    })
                })
        };
        let opened = match descent_session {
            Some(session) => Some(session),
            None if in_time() => Session::new(instance, encoding, lower_bound, top, budget).ok(),
            None => None,
        };
        let Some(opened) = opened else {
            // No formula by the deadline: the plan found is the answer.
            return Ok(unsolved_answer(
                path,
                lower_bound,
                budget,
                attempts,
                &mut progress,
            ));
        };
        session = opened;
        let a = session.attempt(
            top,
            Status::Sat,
            Some(path),
            started.elapsed().as_secs_f64(),
        );
        progress(&a);
        best = Some(a);
    } else {
        let mut margin = (lower_bound / 2).max(instance.cells() / 2).max(8);
        loop {
            // Cancelled: no formula is built (that is not interruptible),
            // the answer is the one its question would get.
            if budget.cancelled() {
                return Ok(SearchResult {
                    status: Status::Unknown,
                    attempts,
                    lower_bound,
                    undecided: None,
                });
            }
            let top = (lower_bound + margin).min(max_moves.max(lower_bound));
            session = match Session::new(instance, encoding, lower_bound, top, budget) {
                Ok(session) => session,
                // A formula beyond the encoding's limits is a limit reached
                // (no plan known), not bad input.
                Err(error @ EncodeError::TooBig { .. }) => {
                    return Ok(SearchResult {
                        status: Status::Unknown,
                        attempts,
                        lower_bound,
                        undecided: Some(Undecided::FormulaLimit {
                            horizon: top,
                            error,
                        }),
                    });
                }
                Err(e) => return Err(e),
            };
            let started = Instant::now();
            let (status, path) = session.ask(instance, top);
            let a = session.attempt(top, status, path, started.elapsed().as_secs_f64());
            progress(&a);
            match status {
                Status::Sat => {
                    best = Some(a);
                    break;
                }
                Status::Unsat if top < max_moves => {
                    attempts.push(a);
                    margin *= 2;
                }
                // UNSAT at the largest horizon built refutes only plans that
                // go on legally to it, not every shorter one (a snake with
                // no move left after its last apple): the horizons below it
                // in turn, from the lower bound, with the time left.
                Status::Unsat => {
                    attempts.push(a);
                    let climb = least_horizon_incremental(
                        instance,
                        encoding,
                        lower_bound,
                        top - 1,
                        lower_bound,
                        0,
                        budget,
                        &mut progress,
                    )?;
                    attempts.extend(climb.attempts);
                    // A plan found is the least one: nothing to descend to;
                    // UNSAT: every horizon up to `max_moves` is refuted.
                    return Ok(SearchResult {
                        status: climb.status,
                        attempts,
                        lower_bound,
                        undecided: climb.undecided,
                    });
                }
                Status::Unknown => {
                    attempts.push(a);
                    return Ok(SearchResult {
                        status: Status::Unknown,
                        attempts,
                        lower_bound,
                        undecided: None,
                    });
                }
            }
        }
    }
    let mut best = best.expect("a first plan");
    if let Some(path) = best.path.take() {
        let path = offered(cut(instance, path));
        best.horizon = path.len() - 1;
        best.path = Some(path);
    }
    // A small formula: the descent within DESCENT_SHARE of the time left,
    // then the suffixes regrown (below) when the plan is not proven least.
    let descent_deadline = if small {
        until(deadline, DESCENT_SHARE, budget).deadline
    } else {
        deadline
    };
    let deadline_all = deadline;
    let deadline = descent_deadline;
    let mut proven = false;
    session.set_deadline(deadline);
    // Improve: first jumps halfway to the lower bound, each asked within a
    // slice of the time left (SAT: a shorter plan; otherwise a shorter jump);
    // at jumps of one, every horizon below the best, downwards, until the
    // lower bound (all UNSAT: the best is least) or the deadline.
    let mut step = ((best.horizon - lower_bound) / 2).max(1);
    let mut below = best.horizon;
    while best.path.is_some() {
        let now = Instant::now();
        if deadline.is_some_and(|d| now >= d) || budget.expired() {
            break;
        }
        let t = if step > 1 {
            best.horizon - step
        } else {
            below.saturating_sub(1)
        };
        if t < lower_bound {
            proven = true;
            break;
        }
        if session.max > 2 * best.horizon {
            // A much shorter plan: a smaller formula for the horizons left.
            session = Session::new(instance, encoding, lower_bound, best.horizon, budget)?;
        }
        let slice = if step > 1 {
            let left = deadline.map_or(JUMP_SECONDS, |d| d.saturating_duration_since(now) / 8);
            Some(now + left.max(std::time::Duration::from_secs(1)))
        } else {
            None
        };
        session.set_deadline(match (deadline, slice) {
            (Some(d), Some(s)) => Some(d.min(s)),
            (d, s) => d.or(s),
        });
        let (status, path) = session.ask(instance, t);
        let mut a = session.attempt(t, status, path, now.elapsed().as_secs_f64());
        a.stats.build_seconds = 0.0;
        progress(&a);
        match status {
            Status::Sat => {
                if let Some(path) = a.path.take() {
                    let path = offered(cut(instance, path));
                    a.horizon = path.len() - 1;
                    a.path = Some(path);
                }
                below = a.horizon;
                attempts.push(std::mem::replace(&mut best, a));
                step = step.min(((best.horizon - lower_bound) / 2).max(1));
            }
            Status::Unsat if step == 1 => {
                below = t;
                attempts.push(a);
            }
            Status::Unsat => {
                step /= 2;
                attempts.push(a);
            }
            Status::Unknown if step > 1 => {
                step /= 2;
                attempts.push(a);
            }
            Status::Unknown => {
                attempts.push(a);
                break;
            }
        }
    }
    if small && !proven && best.path.is_some() {
        let now = Instant::now();
        let path = best.path.clone().expect("a plan");
        let shorter = shorten(instance, encoding, max_moves, deadline_all, budget, path);
        if shorter.len() < best.horizon + 1 {
            budget.offer(&shorter);
            let mut a = session.attempt(
                shorter.len() - 1,
                Status::Sat,
                Some(shorter),
                now.elapsed().as_secs_f64(),
            );
            a.stats.build_seconds = 0.0;
            progress(&a);
            attempts.push(std::mem::replace(&mut best, a));
        }
    }
    attempts.push(best);
    Ok(SearchResult {
        status: Status::Sat,
        attempts,
        lower_bound,
        undecided: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;

    fn board(apples: Vec<Pos>, visible: usize) -> Instance {
        Instance {
            width: 6,
            height: 6,
            walls: vec![],
            start: Start::Body(vec![(1, 0), (0, 0)]),
            apples,
            visible,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        }
    }

    /// A constructed plan no longer than the lower bound is returned as
    /// least: without apples (and the bound of one move the search keeps),
    /// the session for the descent was asked for horizons 1 to 0 and panicked.
    #[test]
    fn a_first_plan_at_the_lower_bound_is_least() {
        let stuck = Instance {
            width: 1,
            height: 2,
            start: Start::Body(vec![(0, 1), (0, 0)]),
            ..board(vec![], 1)
        };
        let encoding = crate::encode::by_name("direct").unwrap();
        let result = satisficing(&stuck, &*encoding, 1, 300, &Budget::default(), |_| {}).unwrap();
        assert_eq!(result.status, Status::Sat);
        assert_eq!(result.plan().map(|a| a.horizon), Some(0));
        assert!(result.optimal());
    }

    #[test]
    fn head_cells_beyond_the_head_slot_cap_are_not_counted() {
        // 1,000,000 cells: 49 moves (50 time points) reach the cap, 50 moves
        // exceed it (the table of bounds at 2,434 moves would take 2.4 GB).
        let big = Instance {
            width: 1000,
            height: 1000,
            ..board(vec![(999, 999)], 1)
        };
        let never = Interrupt::default();
        assert_eq!(head_cells(&big, 50, &never), Some(u64::MAX));
        assert_eq!(head_cells(&big, 2434, &never), Some(u64::MAX));
        let small = board(vec![(5, 5)], 1);
        let counted = head_cells(&small, 10, &never).expect("no deadline");
        assert!(counted > 0 && counted <= 36 * 11, "{counted}");
        // A deadline that has passed: not counted.
        assert_eq!(
            head_cells(&small, 10, &Interrupt::at(Some(Instant::now()))),
            None
        );
    }

    /// The phases without SAT stop at the planner's cancellation as at a
    /// deadline: with it raised (and no deadline) none finds a plan, where
    /// each finds one without it.
    #[test]
    fn a_raised_cancellation_stops_the_phases_without_sat() {
        // The board of the regrowing test below, with the strict tail rule.
        let inst = Instance {
            tail: TailRule::Strict,
            ..board(vec![(5, 0), (5, 5), (0, 5), (0, 2)], 1)
        };
        use crate::solve::beam::{beams_until, regrow_until};
        use std::sync::{Arc, atomic::AtomicBool};
        let raised = Interrupt {
            cancel: Some(Arc::new(AtomicBool::new(true))),
            ..Interrupt::default()
        };
        for stop in [Interrupt::default(), raised] {
            let going = stop.cancel.is_none();
            assert_eq!(head_cells(&inst, 10, &stop).is_some(), going);
            let constructed = construct(&inst, CONSTRUCT_NODES, &stop);
            assert_eq!(constructed.is_some(), going);
            assert_eq!(tour_plan(&inst, &stop).is_some(), going);
            assert_eq!(beams_until(&inst, &stop, 1).is_some(), going);
            // A detour of 2 moves after the first apple.
            let plan = crate::solve::window::tests::walk((1, 0), "RRRRUUUUULLDLLULDDD");
            assert_eq!(sim::simulate(&inst, &plan).unwrap().eaten.len(), 4);
            let regrown = regrow_until(&inst, plan.clone(), &stop, 1);
            assert_eq!(regrown.len() < plan.len(), going, "{regrown:?}");
        }
    }

    #[test]
    fn a_least_plan_solved_under_any_symmetry_is_legal_and_as_short() {
        let inst = board(vec![(5, 5), (0, 4), (4, 1)], 3);
        let encoding = crate::encode::by_name("direct").unwrap();
        let budget = Budget::default();
        let lengths: Vec<usize> = Symmetry::group(6, 6)
            .into_iter()
            .map(|g| {
                let plan = least_plan(&inst, encoding.as_ref(), 60, &budget, g, 0).expect("a plan");
                assert_eq!(sim::simulate(&inst, &plan).unwrap().eaten.len(), 3, "{g:?}");
                plan.len() - 1
            })
            .collect();
        assert_eq!(lengths.len(), 8);
        assert!(lengths.iter().all(|&l| l == lengths[0]), "{lengths:?}");
        assert!(lengths[0] >= lower_bound(&inst).unwrap());
    }

    #[test]
    fn regrowing_suffixes_shortens_a_plan_with_detours() {
        let inst = board(vec![(5, 0), (5, 5), (0, 5), (0, 2)], 1);
        // A detour of 10 moves to the first apple (4 suffice), then straight on.
        let path = crate::solve::window::tests::walk((1, 0), "UUURRRDDDRUUUUULLLLLDDD");
        assert_eq!(sim::simulate(&inst, &path).unwrap().eaten.len(), 4);
        let encoding = crate::encode::by_name("direct").unwrap();
        let budget = Budget {
            deadline: Some(Instant::now() + std::time::Duration::from_secs(120)),
            ..Budget::default()
        };
        let better = regrow(&inst, encoding.as_ref(), 60, &budget, path.clone());
        assert_eq!(sim::simulate(&inst, &better).unwrap().eaten.len(), 4);
        assert!(better.len() + 6 <= path.len(), "{} moves", better.len() - 1);
    }

    /// A free start gets a legal body of its length (distinct, adjacent,
    /// apple- and wall-free cells) whose plans are plans of the free start;
    /// too long a body for the board gives none.
    #[test]
    fn a_free_start_gets_a_body_whose_plans_it_accepts() {
        for (length, walls) in [(1, vec![]), (3, vec![(2, 2)]), (9, vec![(1, 1), (3, 3)])] {
            let inst = Instance {
                start: Start::Free { length },
                walls: walls.clone(),
                ..board(vec![(5, 5), (0, 4), (4, 1)], 1)
            };
            let concrete = with_concrete_start(&inst).expect("a body");
            // Every other start too, one per head, the first the same.
            let starts: Vec<Instance> = concrete_starts(&inst).collect();
            assert_eq!(starts[0].start, concrete.start);
            let mut heads = std::collections::HashSet::new();
            for start in &starts {
                let Start::Body(body) = &start.start else {
                    panic!("no body")
                };
                assert!(heads.insert(body[0]), "{body:?}");
                assert_eq!(body.len(), length);
                for (i, &p) in body.iter().enumerate() {
                    assert!(!walls.contains(&p) && !inst.apples.contains(&p), "{p:?}");
                    assert!(!body[..i].contains(&p), "{body:?}");
                    if i > 0 {
                        assert!(inst.neighbours(body[i - 1]).any(|q| q == p), "{body:?}");
                    }
                }
            }
            assert!(starts.len() > 1);
            let plan =
                construct(&concrete, CONSTRUCT_NODES, &Interrupt::default()).expect("a plan");
            assert_eq!(sim::simulate(&concrete, &plan).unwrap().eaten.len(), 3);
            assert_eq!(sim::simulate(&inst, &plan).unwrap().eaten.len(), 3);
        }
        let too_long = Instance {
            start: Start::Free { length: 40 },
            ..board(vec![(5, 5)], 1)
        };
        assert!(with_concrete_start(&too_long).is_none());
        assert!(with_concrete_start(&board(vec![(5, 5)], 1)).is_none());
    }

    /// A free start whose first body is doomed: on this walled 10x10 board
    /// with 50 apples in view the first body's head is boxed in by apples,
    /// any of which strands the snake (an apple in a pocket must be eaten
    /// first), and the satisficing search used to end `unknown` after 20 s;
    /// another body, beside that pocket, gets a plan.
    #[test]
    fn a_doomed_first_body_leaves_the_free_starts_other_bodies() {
        let spec = crate::instance::random::RandomSpec {
            apples: 50,
            visible: None,
            walls: 6,
            seed: 7,
            ..Default::default()
        };
        let inst = crate::instance::random::generate(&spec).unwrap();
        let first = with_concrete_start(&inst).expect("a body");
        assert!(construct(&first, CONSTRUCT_NODES, &Interrupt::default()).is_none());
        let later = Instant::now() + std::time::Duration::from_secs(600);
        let plan = other_starts_construct(&inst, &Interrupt::at(Some(later))).expect("a plan");
        assert_eq!(sim::simulate(&inst, &plan).unwrap().eaten.len(), 50);
    }

    /// A free start with no room for a body among the apple-free cells: no
    /// construction can start, so the least-horizon search gets the whole
    /// time and finds the least plan (5–12 s here, depending on the load;
    /// it got 1 s, and `--timeout 10` ended `unknown`, 30 s took 20 s). The
    /// deadline leaves room for a loaded machine: 15 s failed at a load
    /// average of 4.
    #[test]
    fn a_free_start_without_room_for_a_body_gets_the_least_plan_search() {
        let spec = crate::instance::random::RandomSpec {
            width: 7,
            height: 7,
            apples: 36,
            visible: None,
            walls: 6,
            seed: 5,
            ..Default::default()
        };
        let inst = crate::instance::random::generate(&spec).unwrap();
        assert!(with_concrete_start(&inst).is_none());
        let encoding = crate::encode::by_name("direct").unwrap();
        let budget = Budget {
            deadline: Some(Instant::now() + std::time::Duration::from_secs(60)),
            ..Budget::default()
        };
        let result = satisficing(
            &inst,
            &*encoding,
            lower_bound(&inst).unwrap(),
            300,
            &budget,
            |_| {},
        )
        .unwrap();
        assert_eq!(result.status, Status::Sat);
        assert_eq!(result.plan().map(|a| a.horizon), Some(40));
        assert!(result.optimal());
    }

    /// Two apples in view on a walled 9x9 board (one in a dead end, to be
    /// eaten last): the paths to the apples in view lead nowhere from any
    /// body (the satisficing search gave a 2,740-move plan after 10 s, or
    /// none), single moves between them get a plan at once.
    #[test]
    fn single_moves_get_a_plan_where_the_paths_to_the_apples_lead_nowhere() {
        let spec = crate::instance::random::RandomSpec {
            width: 9,
            height: 9,
            apples: 35,
            visible: Some(2),
            walls: 8,
            seed: 3,
            ..Default::default()
        };
        let inst = crate::instance::random::generate(&spec).unwrap();
        for start in concrete_starts(&inst).take(8) {
            assert!(construct(&start, CONSTRUCT_NODES, &Interrupt::default()).is_none());
        }
        let first = with_concrete_start(&inst).expect("a body");
        let plan =
            construct_detouring(&first, CONSTRUCT_NODES, &Interrupt::default()).expect("a plan");
        assert_eq!(sim::simulate(&inst, &plan).unwrap().eaten.len(), 35);
    }

    /// Ordered apples on walled boards: with one apple in view the search
    /// apple by apple has a single path per step, and when it leads nowhere
    /// the search tries single moves first (random 12x12 and 14x14 boards
    /// with walls, whose satisficing search answered unknown after 26 s).
    #[test]
    fn ordered_apples_on_walled_boards_get_constructed_plans() {
        for (size, apples, walls, seed) in [(12, 60, 4, 7), (14, 80, 6, 8)] {
            let spec = crate::instance::random::RandomSpec {
                width: size,
                height: size,
                apples,
                walls,
                seed,
                ..Default::default()
            };
            let inst = crate::instance::random::generate(&spec).unwrap();
            let concrete = with_concrete_start(&inst).expect("a body");
            let plan =
                construct(&concrete, CONSTRUCT_NODES, &Interrupt::default()).expect("a plan");
            assert_eq!(sim::simulate(&inst, &plan).unwrap().eaten.len(), apples);
        }
    }
}
