//! One apple's plan: the cheapest safe plan the player can find, cheapest
//! first (see the [module documentation](super)): a searched path from the head
//! certified by repairing the edited cycle near it, the joint "path of `k`
//! moves + cycle" search on small boards, and the walk along the edited cycle
//! with detours searched from its cells (on several threads, the next cells
//! at once). On a board with an odd number of cells an apple on the cell the
//! cycle skips is for the joint search only, asked again from the cells of a
//! lap along the cycle when it fails from the head.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use super::cycle::{self, CycleSolver, Outcome};
use super::{AppleMethod, Grid, body_after, route};

/// How much [`plan_apple`] may ask the solver for one apple.
pub(super) struct Effort {
    pub(super) undecided: u32,
    pub(super) lengths: u32,
    pub(super) detours: u32,
    pub(super) threads: usize,
}

/// A plan for one apple.
pub(super) struct Plan {
    pub(super) moves: Vec<usize>,
    pub(super) method: AppleMethod,
    /// The certified cycle after eating (`None` once the board is full).
    pub(super) cycle: Option<Vec<u32>>,
    /// Every shorter length was refuted: no shorter safe plan exists.
    pub(super) least: bool,
}

/// The safe plan for one apple (see the [game module](super)), or `None`.
/// `shortest` is the moving snake's shortest path to the apple ([`route::shortest`]).
pub(super) fn plan_apple(
    solver: &mut CycleSolver,
    snake: &[usize],
    apple: usize,
    shortest: Option<Vec<usize>>,
    cycle: Option<&[u32]>,
    deadline: Option<Instant>,
    effort: &Effort,
) -> Option<Plan> {
    let grid = &solver.grid();
    let lower = shortest.as_ref().map(Vec::len);
    let shortest = shortest.filter(|m| route::is_legal(grid, snake, m));
    if snake.len() + 1 == grid.cells() {
        // This apple fills the board: nothing comes after it, so every legal
        // path is safe and no certificate is needed (on a board with an odd
        // number of cells none exists). Take the least one.
        let moves = shortest.or_else(|| route::filling_path(grid, snake, apple))?;
        return Some(Plan {
            method: AppleMethod::at_bound(moves.len(), lower, AppleMethod::Route),
            moves,
            cycle: None,
            least: true,
        });
    }
    // The old cycle, edited to bring the apple closer (boards with an even
    // number of cells, where it runs through every cell).
    let mut cycle = cycle?.to_vec();
    let mut order = Vec::new();
    let editable = grid.cells().is_multiple_of(2);
    let mut along = |cycle: &mut Vec<u32>, head: usize, length: usize| {
        if editable {
            Some(cycle::shorten(
                *grid,
                cycle,
                head,
                apple,
                grid.cells() - length,
                &mut order,
            ))
        } else {
            walk(cycle, head, apple).map(|m| m.len())
        }
    };
    // On a board with an odd number of cells the cycle skips one cell; an
    // apple there is off the cycle, and only the joint search reaches it.
    let on_cycle = along(&mut cycle, snake[0], snake.len());
    let upper = on_cycle.unwrap_or(grid.cells() + 1);
    let lengths = if on_cycle.is_some() {
        effort.lengths
    } else {
        u32::MAX
    };
    // 1. The shortest plausible path shorter than the way along the edited
    // cycle, with a certificate for the body it leaves, found near that cycle.
    // (With the joint search on, which finds a least plan itself, it is skipped.)
    if effort.lengths == 0
        && let Some(bound) = lower
        && let Some(moves) = plausible_path(grid, snake, apple, bound, upper)
        && let Some(cycle) = certify_path(solver, snake, &moves, &cycle, deadline)
    {
        return Some(Plan {
            method: AppleMethod::at_bound(moves.len(), lower, AppleMethod::Route),
            least: Some(moves.len()) == lower,
            moves,
            cycle: Some(cycle),
        });
    }
    let Some(lower) = lower else {
        let moves = walk(&cycle, snake[0], apple)?;
        return Some(Plan {
            moves,
            method: AppleMethod::Cycle,
            cycle: Some(cycle),
            least: false,
        });
    };
    let found = |f: cycle::Found, least: bool| Plan {
        least,
        method: AppleMethod::at_bound(f.moves.len(), Some(lower), AppleMethod::Route),
        moves: f.moves,
        cycle: Some(f.cycle),
    };
    // 2. Every path to the apple has the parity of the lower bound (the grid
    // is bipartite): up from the lower bound, two moves at a time, to the
    // first length with a certified path. A length left undecided (conflict
    // or round limit) is skipped, so that plan may be longer than optimal;
    // after `undecided` of them, or `lengths` lengths asked, the search stops.
    let mut k = lower;
    let mut refuted = true;
    let mut unknowns = 0;
    let mut asked = 0;
    while k < upper && asked < lengths && deadline.is_none_or(|d| Instant::now() < d) {
        asked += 1;
        match solver.plan(snake, apple, k, deadline) {
            Outcome::Found(f) => return Some(found(f, refuted)),
            Outcome::Unsat => k += 2,
            Outcome::Unknown => {
                refuted = false;
                unknowns += 1;
                if unknowns >= effort.undecided {
                    break;
                }
                k += 2;
            }
        }
    }
    let least = refuted && k >= upper;
    if on_cycle.is_none() {
        return around_the_cycle(solver, snake, apple, &cycle, lower, deadline);
    }
    // 3. Along the cycle (safe at every step), edited at every step, trying
    // from each cell a path from there while that saves moves.
    let mut moves = Vec::new();
    let mut body: VecDeque<usize> = snake.iter().copied().collect();
    let mut tries = 0;
    let mut left = upper;
    // The next steps, walked and searched ahead with this one (more than one
    // thread), and this step's path if it was.
    let mut ahead: VecDeque<Ahead> = VecDeque::new();
    let mut searched_here: Option<Option<Vec<usize>>> = None;
    loop {
        // (From the head itself the search ran in step 1.)
        let again = !moves.is_empty() || effort.lengths > 0;
        let searched = searched_here.take();
        if again && tries < effort.detours && deadline.is_none_or(|d| Instant::now() < d) {
            tries += 1;
            // (At the head the lower bound is known; past it, the body moved.)
            let known = moves.is_empty().then_some(lower);
            // With more than one thread, this step and the next ones as far
            // as tries are left ([`STOPS_PER_THREAD`] per thread) are
            // searched at once.
            let batch = match effort.threads {
                1 => 1,
                n => (n * STOPS_PER_THREAD).min((effort.detours - tries) as usize + 1),
            };
            let path = match searched {
                Some(path) => path,
                None if batch == 1 => search_from(grid, body.make_contiguous(), apple, known, left),
                None => {
                    let mut stops = vec![Stop {
                        body: body.iter().copied().collect(),
                        lower: known,
                        limit: left,
                    }];
                    let cycles =
                        walk_ahead(&body, &cycle, apple, batch - 1, &mut along, &mut stops);
                    let mut found =
                        search_stops(grid, apple, &stops, effort.threads, deadline).into_iter();
                    let path = found.next().flatten();
                    ahead.extend(cycles.into_iter().zip(&stops[1..]).zip(found).map(
                        |((cycle, stop), path)| Ahead {
                            cycle,
                            left: stop.limit,
                            path,
                        },
                    ));
                    path
                }
            };
            let here = body.make_contiguous();
            if let Some(path) = path
                && let Some(certified) = certify_path(solver, here, &path, &cycle, deadline)
            {
                moves.extend(path);
                // (No legal plan is shorter than the lower bound: a plan
                // that long is a least safe one.)
                let shortest = moves.len() == lower;
                return Some(Plan {
                    method: AppleMethod::at_bound(moves.len(), Some(lower), AppleMethod::Route),
                    moves,
                    cycle: Some(certified),
                    least: shortest,
                });
            }
        }
        let Some(cell) = step_along(&mut body, &cycle, apple) else {
            moves.push(apple);
            // (A walk as short as the lower bound is a shortest path.)
            let shortest = moves.len() == lower;
            return Some(Plan {
                method: AppleMethod::at_bound(moves.len(), Some(lower), AppleMethod::Cycle),
                moves,
                cycle: Some(cycle),
                least: least || shortest,
            });
        };
        moves.push(cell);
        match ahead.pop_front() {
            Some(next) => {
                cycle = next.cycle;
                left = next.left;
                searched_here = Some(next.path);
            }
            // Past the deadline no path is searched any more, and the cycle
            // is followed as it is (a certificate at every step): editing it
            // at every step costs time in proportion to the board, so a long
            // walk overran the limit (40x40 with 1 ms: by 0.1 s an apple).
            None if deadline.is_some_and(|d| Instant::now() >= d) => {}
            None => left = along(&mut cycle, cell, body.len())?,
        }
    }
}

/// An apple on the cell the cycle skips (a board with an odd number of
/// cells) that the joint search did not reach from the head within the
/// solver's limits: the snake follows the cycle, safe at every step, and the
/// joint search asks again from each cell, for the two least lengths, up to
/// one lap or the deadline. The body moves and the tail frees cells, so a
/// state the solver answers quickly often comes (9x9 seed 1004, an apple in
/// a corner walled in by the body: a plan after 52 moves, where the query
/// from the head ran for the whole minute per apple and the game was lost).
/// `None` when the solver has no limits (the query from the head had all the
/// time there was) or no step gives a plan.
fn around_the_cycle(
    solver: &mut CycleSolver,
    snake: &[usize],
    apple: usize,
    cycle: &[u32],
    lower: usize,
    deadline: Option<Instant>,
) -> Option<Plan> {
    if solver.conflict_limit.is_none() && solver.round_limit == u32::MAX {
        return None;
    }
    let grid = solver.grid();
    let mut body: VecDeque<usize> = snake.iter().copied().collect();
    let mut moves = Vec::new();
    while moves.len() < grid.cells() && deadline.is_none_or(|d| Instant::now() < d) {
        // (The apple is off the cycle: the step never eats it.)
        moves.push(step_along(&mut body, cycle, apple)?);
        let here = body.make_contiguous();
        let Some(bound) = route::shortest(&grid, here, apple, true).map(|m| m.len()) else {
            continue;
        };
        for k in [bound, bound + 2] {
            if let Outcome::Found(f) = solver.plan(here, apple, k, deadline) {
                moves.extend(f.moves);
                return Some(Plan {
                    method: AppleMethod::at_bound(moves.len(), Some(lower), AppleMethod::Route),
                    moves,
                    cycle: Some(f.cycle),
                    least: false,
                });
            }
        }
    }
    None
}

/// Walks `steps` steps along `cycle` (edited by `along` at every step, as
/// [`plan_apple`] does) from `body`, or up to the step that would eat the
/// apple: adds a [`Stop`] for each step to `stops` and returns the cycle
/// edited there.
fn walk_ahead(
    body: &VecDeque<usize>,
    cycle: &[u32],
    apple: usize,
    steps: usize,
    mut along: impl FnMut(&mut Vec<u32>, usize, usize) -> Option<usize>,
    stops: &mut Vec<Stop>,
) -> Vec<Vec<u32>> {
    let mut cycles = Vec::with_capacity(steps);
    let mut body = body.clone();
    let mut cycle = cycle.to_vec();
    while cycles.len() < steps {
        let Some(cell) = step_along(&mut body, &cycle, apple) else {
            break;
        };
        let Some(limit) = along(&mut cycle, cell, body.len()) else {
            break;
        };
        cycles.push(cycle.clone());
        stops.push(Stop {
            body: body.iter().copied().collect(),
            lower: None,
            limit,
        });
    }
    cycles
}

/// One step of the walk along `cycle`: the cell after the head of `body`,
/// which moves onto it (its tail cell freed), or `None`, the body unchanged,
/// when that cell is the apple.
fn step_along(body: &mut VecDeque<usize>, cycle: &[u32], apple: usize) -> Option<usize> {
    let cell = cycle[body[0]] as usize;
    if cell == apple {
        return None;
    }
    body.pop_back();
    body.push_front(cell);
    Some(cell)
}

/// A step of the walk along the edited cycle walked ahead in [`plan_apple`]:
/// the cycle edited there, the moves left along it, and the path searched
/// from there.
struct Ahead {
    cycle: Vec<u32>,
    left: usize,
    path: Option<Vec<usize>>,
}

/// How far from the path a certificate may differ from the old cycle in
/// [`certify_path`] (Manhattan distance; measured on 30x30, 2 gave
/// fewer moves than 3 at less time).
const REPAIR_RADIUS: usize = 2;

/// The search nodes per try in [`plausible_path`] ([`route::enumerate`]).
/// Measured on 20x20 seeds 1–3: 500 nodes gave 11,261 mean moves, 2,000
/// gave 9,944 at about twice the time of the fixed candidates the search
/// replaced (11,006); 20,000 (after those candidates) gave 10,751 at 60
/// times the time.
const SEARCH_NODES: usize = 2_000;

/// The shortest legal path to the apple shorter than `limit` whose body
/// passes the [`route::Screen`] ([`route::plausible_paths`], at most
/// [`SEARCH_NODES`] nodes, from `lower`, the length of the moving snake's
/// shortest path [`route::shortest`] from `snake`); [`certify_path`] then
/// asks the solver for its certificate.
fn plausible_path(
    grid: &Grid,
    snake: &[usize],
    apple: usize,
    lower: usize,
    limit: usize,
) -> Option<Vec<usize>> {
    route::plausible_paths(grid, snake, apple, lower, limit, SEARCH_NODES, 1).pop()
}

/// A step of the walk along the edited cycle from which [`plausible_path`]
/// searches: the body there, the lower bound if known (else
/// [`route::shortest`] gives it) and the moves left along the cycle.
struct Stop {
    body: Vec<usize>,
    lower: Option<usize>,
    limit: usize,
}

impl Stop {
    fn search(&self, grid: &Grid, apple: usize) -> Option<Vec<usize>> {
        search_from(grid, &self.body, apple, self.lower, self.limit)
    }
}

/// [`plausible_path`] from `snake`, from the lower bound `lower` if known,
/// else from the length of [`route::shortest`].
fn search_from(
    grid: &Grid,
    snake: &[usize],
    apple: usize,
    lower: Option<usize>,
    limit: usize,
) -> Option<Vec<usize>> {
    let lower = match lower {
        Some(lower) => lower,
        None => route::shortest(grid, snake, apple, true)?.len(),
    };
    plausible_path(grid, snake, apple, lower, limit)
}

/// The steps of the walk searched at once per thread when
/// [`super::GameConfig::threads`] is above 1. Searches differ a lot in length, so
/// with one step per thread a pair of searches waited for the longer one
/// (30x30 seed 3: 1.5 times a single search per pair); with several, each
/// thread takes the next step as it finishes one. The steps past a
/// certified path are searched for nothing (about 8 % more searches). 30x30
/// seeds 1–2 on two threads: 3, 6, 12 and 24 steps per thread took 16.5,
/// 15.9, 15.4 and 15.8 s, one thread 22.4 s.
const STOPS_PER_THREAD: usize = 12;

/// [`Stop::search`] for every stop on up to `threads` threads (this one
/// and others), each taking the next stop not yet taken; the paths in the
/// stops' order, the same as one thread would find. A stop taken after
/// `deadline` is not searched (`None`), so a batch ends soon after it.
fn search_stops(
    grid: &Grid,
    apple: usize,
    stops: &[Stop],
    threads: usize,
    deadline: Option<Instant>,
) -> Vec<Option<Vec<usize>>> {
    let search = |stop: &Stop| {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            None
        } else {
            stop.search(grid, apple)
        }
    };
    let helpers = threads.min(stops.len()).saturating_sub(1);
    if helpers == 0 {
        return stops.iter().map(search).collect();
    }
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(stop) = stops.get(i) else {
                return done;
            };
            done.push((i, search(stop)));
        }
    };
    let mut found: Vec<Option<Vec<usize>>> = vec![None; stops.len()];
    std::thread::scope(|scope| {
        // (A thread the system refuses is one helper fewer: this thread
        // takes the stops it would have taken.)
        let others: Vec<_> = (0..helpers)
            .map_while(|_| std::thread::Builder::new().spawn_scoped(scope, work).ok())
            .collect();
        let mut done = work();
        for other in others {
            done.extend(
                other
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e)),
            );
        }
        for (i, path) in done {
            found[i] = path;
        }
    });
    found
}

/// A certificate for the body `moves` leave, if the old cycle can be
/// repaired around them: [`CycleSolver::certify_near`] with every arc of
/// `cycle` farther than [`REPAIR_RADIUS`] from the path kept (on odd boards
/// the whole board). One solver call at most. A certificate searched on the
/// whole board gives about as many moves at 8–20 times the solver time
/// (20x20 seeds 1–50: 10,427 mean moves against 10,426; 30x30 seeds 1–10:
/// 45,301 against 45,147).
fn certify_path(
    solver: &mut CycleSolver,
    snake: &[usize],
    moves: &[usize],
    cycle: &[u32],
    deadline: Option<Instant>,
) -> Option<Vec<u32>> {
    let grid = solver.grid();
    let after = body_after(snake, moves);
    // (On a board with an odd number of cells the old cycle skips a cell
    // that the repair might need: there the whole board may change.)
    let outcome = if grid.cells().is_multiple_of(2) {
        let window = route::band(&grid, snake[0], moves, REPAIR_RADIUS);
        solver.certify_near(&after, cycle, &window, deadline)
    } else {
        solver.certify(&after, deadline)
    };
    match outcome {
        Outcome::Found(f) => Some(f.cycle),
        _ => None,
    }
}

/// The cells after `from` along `cycle` up to `to`, or `None` if `to` is not on `from`'s cycle.
fn walk(cycle: &[u32], from: usize, to: usize) -> Option<Vec<usize>> {
    let mut moves = Vec::new();
    let mut cell = from;
    while cell != to {
        cell = *cycle.get(cell)? as usize;
        if cell >= cycle.len() || moves.len() >= cycle.len() {
            return None;
        }
        moves.push(cell);
    }
    Some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Reuse;

    /// Past the deadline the walk follows the cycle as it was when the
    /// apple came (after its one edit toward the apple), unedited at every
    /// step: editing costs time in proportion to the board, and long walks
    /// on 40x40 overran a 1 ms limit by a tenth of a second. With time
    /// left, some of the same walks are edited on the way and end on
    /// another cycle, so the test tells the two apart.
    #[test]
    fn past_the_deadline_the_cycle_is_followed_unedited() {
        let grid = Grid::new(16, 16);
        let mut solver = CycleSolver::new(grid, Reuse::Clauses);
        let Outcome::Found(first) = solver.certify(&[0], None) else {
            panic!("no first cycle");
        };
        let effort = Effort {
            undecided: 16,
            lengths: 0,
            detours: 0,
            threads: 1,
        };
        let mut predecessor = vec![0; grid.cells()];
        for (cell, &next) in first.cycle.iter().enumerate() {
            predecessor[next as usize] = cell;
        }
        let (mut walked, mut edited) = (0, 0);
        let cases = (0..40).map(|i| ((i * 37) % 256, 30 + (i * 11) % 150, 40 + (i * 23) % 160));
        for (head, length, ahead) in cases {
            // A body laid along the cycle into `head`, the apple `ahead`
            // cells after it along the cycle.
            let mut snake = vec![head];
            while snake.len() < length {
                snake.push(predecessor[*snake.last().unwrap()]);
            }
            let mut apple = head;
            for _ in 0..ahead {
                apple = first.cycle[apple] as usize;
            }
            let mut at_start = first.cycle.clone();
            cycle::shorten(
                grid,
                &mut at_start,
                head,
                apple,
                grid.cells() - length,
                &mut Vec::new(),
            );
            let shortest = route::shortest(&grid, &snake, apple, true);
            let mut plan_by = |deadline| {
                let cycle = Some(&first.cycle[..]);
                plan_apple(
                    &mut solver,
                    &snake,
                    apple,
                    shortest.clone(),
                    cycle,
                    deadline,
                    &effort,
                )
                .expect("a plan along the cycle")
            };
            let plan = plan_by(Some(Instant::now()));
            if plan.method != AppleMethod::Cycle {
                // (A path the solver certified at once: no walk.)
                continue;
            }
            assert_eq!(Some(plan.moves), walk(&at_start, head, apple));
            assert_eq!(plan.cycle.as_ref(), Some(&at_start));
            walked += 1;
            let timely = plan_by(None);
            if timely.method == AppleMethod::Cycle && timely.cycle.as_ref() != Some(&at_start) {
                edited += 1;
            }
        }
        assert!(walked >= 10, "only {walked} of the cases walked the cycle");
        assert!(
            edited > 0,
            "no walk was edited on the way: the test tells nothing"
        );
    }
}
