//! Reachability bounds that let encodings skip variables that cannot be true:
//! head cells the snake cannot be on at time `t`, and apple eating times that
//! are too early (or, with ordered apples, too late).
//!
//! Of the body they know only the start's: a cell under an explicit start
//! body is closed to the head until its tail can have left it
//! ([`Bounds::compute`]); the body laid later is ignored. So they only
//! remove what no legal plan uses.

use std::collections::{HashMap, HashSet, VecDeque};

use crate::geometry::NeighbourTable;
use crate::instance::{Instance, InstanceError, Pos, Start, TailRule};

/// Distances on the grid (walls respected, body ignored); `usize::MAX` where unreachable.
///
/// # Panics
///
/// When `from` is off the board or `walls` is shorter than the board's
/// cells (it is [`Instance::wall_map`]'s, of a valid instance).
pub fn distances_from(instance: &Instance, walls: &[bool], from: Pos) -> Vec<usize> {
    let mut dist = vec![usize::MAX; instance.cells()];
    let start = instance.index(from);
    dist[start] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        let d = dist[instance.index(p)];
        for q in instance.neighbours(p) {
            let qi = instance.index(q);
            if !walls[qi] && dist[qi] == usize::MAX {
                dist[qi] = d + 1;
                queue.push_back(q);
            }
        }
    }
    dist
}

/// The most distance-table entries (cells times distinct apple cells) the
/// bounds compute; beyond it they fall back to Manhattan distances, which
/// are weaker but still lower bounds.
pub(crate) const MAX_DISTANCE_ENTRIES: usize = 8_000_000;

/// The most apple cells the spanning-tree bound connects (Prim's algorithm is
/// quadratic in them); beyond it that bound is skipped.
pub(crate) const MAX_TREE_CELLS: usize = 2_000;

/// The most head-cell/phase checks the ordered-apple pruning of
/// [`Bounds::compute`] makes; beyond it that pruning is skipped.
pub(crate) const MAX_PHASE_CHECKS: usize = 50_000_000;

/// Grid distances from the distinct apple cells, computed once per cell, or
/// Manhattan distances when the table would exceed [`MAX_DISTANCE_ENTRIES`].
/// The rows are one flat table found by cell index: the pruning asks for a
/// distance per head slot and apple, and hashing there took a third of the
/// direct encoder's time on the MVP3 setting.
pub(crate) struct Distances {
    /// Row number of each cell that holds an apple (`u32::MAX`: none).
    row_of: Vec<u32>,
    /// The rows, one per distinct apple cell, `cells` entries each.
    rows: Vec<usize>,
    exact: bool,
}

impl Distances {
    pub(crate) fn new(instance: &Instance, walls: &[bool]) -> Distances {
        let cells = instance.cells();
        let mut row_of = Vec::new();
        let mut rows = Vec::new();
        let mut distinct = 0usize;
        let mut seen = vec![false; cells];
        for &a in &instance.apples {
            let c = instance.index(a);
            if !seen[c] {
                seen[c] = true;
                distinct += 1;
            }
        }
        let exact = distinct.saturating_mul(cells) <= MAX_DISTANCE_ENTRIES;
        if exact {
            row_of = vec![u32::MAX; cells];
            rows.reserve(distinct * cells);
            for &a in &instance.apples {
                let c = instance.index(a);
                if row_of[c] == u32::MAX {
                    row_of[c] = (rows.len() / cells.max(1)) as u32;
                    rows.extend(distances_from(instance, walls, a));
                }
            }
        }
        Distances {
            row_of,
            rows,
            exact,
        }
    }

    /// Distance from apple cell `from` to any cell `to` (a lower bound when not exact).
    pub(crate) fn get(&self, instance: &Instance, from: Pos, to: Pos) -> usize {
        if self.exact {
            let row = self.row_of[instance.index(from)] as usize;
            self.rows[row * instance.cells() + instance.index(to)]
        } else {
            from.0.abs_diff(to.0) + from.1.abs_diff(to.1)
        }
    }
}

/// Moves between two eats at distance `d`: two apples on one cell need a step
/// out and back.
pub(crate) fn step(d: usize) -> usize {
    if d == 0 { 2 } else { d }
}

/// Which head cells and eating times can occur within `moves` moves.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// `head[t][cell]`: the head can be on `cell` at time `t`.
    pub head: Vec<Vec<bool>>,
    /// Earliest time apple `i` can be eaten (`usize::MAX`: never).
    pub earliest: Vec<usize>,
    /// Latest time apple `i` can be eaten if all are eaten by `moves`.
    pub latest: Vec<usize>,
}

/// Earliest time the head can stand on each apple's cell after `t = 0`
/// (ignoring the body and when the apple is revealed; `usize::MAX`:
/// unreachable).
pub(crate) fn first_visits(instance: &Instance, walls: &[bool], dist: &Distances) -> Vec<usize> {
    let starts = start_cells(instance, walls);
    let mut first: HashMap<Pos, usize> = HashMap::new();
    instance
        .apples
        .iter()
        .map(|&target| {
            *first
                .entry(target)
                .or_insert_with(|| match (&instance.start, dist.exact) {
                    // A free start can be next to the apple (or on it: two moves).
                    (Start::Free { .. }, false) => 1,
                    _ => starts
                        .iter()
                        .map(|&s| match dist.get(instance, target, s) {
                            usize::MAX => usize::MAX,
                            d => step(d),
                        })
                        .min()
                        .unwrap_or(usize::MAX),
                })
        })
        .collect()
}

/// Earliest possible eating time of every apple, ignoring the body.
fn earliest_times(instance: &Instance, walls: &[bool], dist: &Distances) -> Vec<usize> {
    let n = instance.apples.len();
    let mut earliest = first_visits(instance, walls, dist);
    let v = instance.visible_at_start();
    if v == 1 {
        // Ordered apples: each one after the previous, at its distance.
        for j in 1..n {
            let d = dist.get(instance, instance.apples[j - 1], instance.apples[j]);
            earliest[j] = earliest[j - 1].saturating_add(step(d));
        }
    } else {
        // Apple i is revealed after i - v + 1 others have been eaten, one per step at best.
        for (i, e) in earliest.iter_mut().enumerate().skip(v) {
            *e = (*e).max(i - v + 2);
        }
    }
    earliest
}

/// Cells the head may occupy at `t = 0`.
pub(crate) fn start_cells(instance: &Instance, walls: &[bool]) -> Vec<Pos> {
    match &instance.start {
        Start::Body(body) => vec![body[0]],
        Start::Free { .. } => {
            let visible: HashSet<Pos> = instance.apples[..instance.visible_at_start()]
                .iter()
                .copied()
                .collect();
            (0..instance.cells())
                .map(|i| instance.pos(i))
                .filter(|&p| !walls[instance.index(p)] && !visible.contains(&p))
                .collect()
        }
    }
}

/// A proven lower bound on the number of moves needed to eat every apple:
/// the largest of the per-apple distances, the apples' spanning tree and
/// their schedule ([`earliest_eats`](crate::encode::schedule::earliest_eats))
/// (0 only without apples, whose goal holds at once; `None` when some apple
/// can never be eaten: unreachable, or in a dead end or a pocket, see [`strands`], or the last
/// apple of a full board whose free cells' colours cannot hold the final body, see
/// [`colours_forbid`](crate::encode::full::colours_forbid), or more apples than
/// the free cells can hold, see [`overfills`](crate::encode::full::overfills)). Its work is bounded
/// (distance tables of at most 8,000,000 entries, a spanning tree of at most
/// 2,000 apple cells, a schedule of at most 4,000,000 states).
///
/// # Panics
///
/// May panic, or return a meaningless bound, when `instance` does not pass
/// [`Instance::validate_game`] (the planner and the searches validate
/// first); [`try_lower_bound`] checks it.
pub fn lower_bound(instance: &Instance) -> Option<usize> {
    bound_or_reason(instance).ok()
}

/// [`lower_bound`], or why there is none ([`no_plan_reason`]).
fn bound_or_reason(instance: &Instance) -> Result<usize, NoPlanReason> {
    if strands(instance) {
        return Err(NoPlanReason::Stranded);
    }
    if crate::encode::full::colours_forbid(instance) {
        return Err(NoPlanReason::Colours);
    }
    if crate::encode::full::overfills(instance) {
        return Err(NoPlanReason::Overfills);
    }
    let walls = instance.wall_map();
    let dist = Distances::new(instance, &walls);
    let earliest = earliest_times(instance, &walls, &dist);
    let n = instance.apples.len();
    let bound = earliest
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(n)
        .max(tree_bound(instance, &walls, &dist))
        .max(
            *crate::encode::schedule::earliest_eats(instance)
                .last()
                .unwrap_or(&0),
        );
    if bound != usize::MAX {
        return Ok(bound);
    }
    Err(match earliest.iter().position(|&t| t == usize::MAX) {
        Some(apple) => NoPlanReason::CutOff {
            apple,
            at: instance.apples[apple],
            ordered: apple > 0 && instance.visible_at_start() == 1,
        },
        None => NoPlanReason::Order,
    })
}

/// Why [`lower_bound`] finds that no plan exists at any horizon.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NoPlanReason {
    /// Apple `apple` (from 0) at `at` can never be reached: walls cut it off
    /// from the snake, or, when the apples are eaten in order, from the one
    /// before it.
    CutOff {
        /// The apple's index, from 0.
        apple: usize,
        /// Its cell.
        at: Pos,
        /// The apples are eaten in order (one visible at a time) and this is
        /// not the first.
        ordered: bool,
    },
    /// An apple lies in a dead end or a pocket behind one cell that the
    /// snake, once too long, could not leave before the last apple
    /// ([`strands`]).
    Stranded,
    /// The apples fill the board and its free cells' two colours differ by
    /// more than one, so no body can cover them
    /// ([`colours_forbid`](crate::encode::full::colours_forbid)).
    Colours,
    /// The snake would grow longer than the free cells
    /// ([`overfills`](crate::encode::full::overfills)).
    Overfills,
    /// Every apple can be reached, but not in an order that respects when
    /// each is revealed (the spanning tree or the schedule of the apples).
    Order,
}

impl std::fmt::Display for NoPlanReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NoPlanReason::CutOff { apple, at, ordered } => write!(
                f,
                "apple {} at ({}, {}) can never be reached: walls cut it off from the snake{}",
                apple + 1,
                at.0,
                at.1,
                if *ordered {
                    " or from the apple before it"
                } else {
                    ""
                }
            ),
            NoPlanReason::Stranded => f.write_str(
                "an apple lies in a dead end, or in a pocket behind one cell, that the snake, \
                 once too long, could not leave before the last apple",
            ),
            NoPlanReason::Colours => f.write_str(
                "the apples fill the board and its free cells' two colours differ by more than \
                 one, so no body can cover them",
            ),
            NoPlanReason::Overfills => {
                f.write_str("the snake would grow longer than the free cells")
            }
            NoPlanReason::Order => f.write_str(
                "the apples cannot all be reached in an order that respects when each is revealed",
            ),
        }
    }
}

/// Why no plan exists at any horizon, when [`lower_bound`] is `None`; else
/// `None`.
///
/// # Panics
///
/// May panic when `instance` does not pass [`Instance::validate_game`], as
/// [`lower_bound`] may.
pub fn no_plan_reason(instance: &Instance) -> Option<NoPlanReason> {
    bound_or_reason(instance).err()
}

/// [`lower_bound`] of an instance not known to be valid: one that
/// [`Instance::validate_game`] refuses is refused with its reason, not
/// bounded.
pub fn try_lower_bound(instance: &Instance) -> Result<Option<usize>, InstanceError> {
    instance.validate_game()?;
    Ok(lower_bound(instance))
}

/// Whether an apple lies in a dead end (a cell with one open neighbour) or a
/// pocket ([`Pockets`]) that strands the snake before the last apple: no
/// plan exists.
///
/// # Panics
///
/// May panic when `instance` does not pass [`Instance::validate_game`] (an
/// absurd size, a cell off the board).
pub fn strands(instance: &Instance) -> bool {
    Pockets::find(instance).strands(instance)
}

/// `usize::MAX` when some apple lies in a dead end the snake could not leave
/// after eating it although another apple must follow, else 0. A dead end
/// is a cell with at most one neighbour that is on the grid and not a wall:
/// the head enters it from that neighbour, which is then the body's second
/// cell, so leaving means moving onto it. That cell is blocked under the
/// strict tail rule when the snake is at least two cells long after the eat,
/// and under `follow` when it is at least three (the starting length, plus
/// one with growth). So an apple there can only be the last one eaten: with
/// ordered apples (one visible at a time), the last of the list; otherwise
/// one apple at most.
fn dead_end_bound(instance: &Instance, walls: &[bool]) -> usize {
    // The shortest the snake can be after an eat.
    let length = instance.initial_length() + usize::from(instance.grow);
    let stuck_after_eating = match instance.tail {
        TailRule::Strict => length >= 2,
        TailRule::Follow => length >= 3,
    };
    if !stuck_after_eating {
        return 0;
    }
    let dead_end = |p: Pos| {
        instance
            .neighbours(p)
            .filter(|&q| !walls[instance.index(q)])
            .count()
            <= 1
    };
    let n = instance.apples.len();
    let mut dead: Vec<usize> = (0..n).filter(|&i| dead_end(instance.apples[i])).collect();
    if instance.visible_at_start() == 1 {
        dead.retain(|&i| i + 1 < n);
        if dead.is_empty() { 0 } else { usize::MAX }
    } else if dead.len() >= 2 {
        usize::MAX
    } else {
        0
    }
}

/// The most cells [`Pockets::find`] visits while looking for pockets (each
/// search from a cell's neighbours stops at the longest snake); beyond it
/// none is used, which only weakens the bound.
pub(crate) const MAX_POCKET_VISITS: usize = 20_000_000;

/// The most pockets holding an inevitably trapping apple that
/// [`Pockets::strands`] compares pairwise.
const MAX_TRAP_POCKETS: usize = 200;

/// The *pockets* of a board, found once for the tests of many states of one
/// game ([`Pockets::strands`]): an apple in a pocket strands the snake when
/// the snake cannot leave after eating it although an apple outside must
/// follow. A pocket `R` is a component of the open cells without one cell
/// `e` (its only way out; a dead end is a pocket of one cell).
///
/// Why a long snake cannot leave: say it eats in `R` at time `t` and its head
/// first leaves `R` at `t'`, onto `e`. If the head was on `e` at some time `s`
/// (the initial body counts), it last was there before `t`, and its heads from
/// `s + 1` to `t' − 1` lie in `R`. Coming back to `e` after `t' − s` steps
/// needs `t' − s ≥ len(t')` under `follow` and `t' − s > len(t' − 1)` under
/// `strict`, so the body at `t' − 1` (its last `len(t' − 1)` heads, all
/// distinct) lies in `R`, plus `e` as the tail under `follow`: `len(t − 1) ≤
/// |R|` (strict) or `|R| + 1` (follow), the *capacity* of `R`, and the length
/// never shrinks. With a free start the head may have been in `R` since `t =
/// 0` and its unseen body blocks nothing; then its `t'` heads up to `t' − 1`
/// lie in `R` and are distinct (the body at `t' − 1` holds `min(len, t')` of
/// them), so `t' ≤ |R|`; but the `k`-th eat happens at `t ≥ k` and the way
/// out from the apple's cell takes at least `d` more moves, its distance
/// inside `R` to a neighbour of `e`, so `t' ≥ k + 1 + d`. So the `k`-th eat in
/// `R` traps the snake when the length after it exceeds the capacity (and
/// `k + 1 + d > |R|` on a free start), and then every apple left must lie in
/// `R`.
///
/// Apple `j` can be eaten no earlier than as eat number `j − visible + 2` (it
/// is revealed after `j − visible + 1` eats). An apple of `R` that traps even
/// then is *late*: it belongs to a final run of eats inside `R`. Every apple
/// eaten before that run is eaten while the run's apples are already in
/// view, and at most `visible` apples are, so an apple outside `R` whose index
/// exceeds that of `visible` such held apples of `R` can never be eaten (the
/// other apples of `R` are held only when they must be). And two late apples
/// in disjoint pockets each need every apple after them in their own pocket.
/// Looking for pockets is bounded (20,000,000 cell visits).
#[derive(Debug)]
pub struct Pockets {
    walls: Vec<bool>,
    /// Each pocket's cells, ascending, and the moves from each of them to
    /// the pocket's way out (`e`'s neighbours in the pocket: 0).
    pockets: Vec<(Vec<usize>, Vec<usize>)>,
    /// The pockets holding each cell (indices into `pockets`).
    of_cell: Vec<Vec<usize>>,
}

impl Pockets {
    /// The pockets of `instance`'s board small enough to trap its longest
    /// snake (none when looking would exceed 20,000,000 cell visits).
    ///
    /// # Panics
    ///
    /// May panic when `instance` does not pass [`Instance::validate_game`]
    /// (an absurd size, a cell off the board), as [`strands`] may.
    pub fn find(instance: &Instance) -> Pockets {
        let walls = instance.wall_map();
        let cells = instance.cells();
        let slack = usize::from(instance.tail == TailRule::Follow);
        let longest = if instance.grow {
            instance
                .initial_length()
                .saturating_add(instance.apples.len())
        } else {
            instance.initial_length()
        };
        // A pocket holds at most this many cells to trap the longest snake.
        let largest = longest.saturating_sub(1 + slack);
        let mut found = Pockets {
            pockets: Vec::new(),
            of_cell: Vec::new(),
            walls,
        };
        // A grid without walls, two cells wide or more, has no cut cell.
        let open_grid = instance.walls.is_empty() && instance.width >= 2 && instance.height >= 2;
        if largest == 0 || instance.apples.is_empty() || open_grid {
            return found;
        }
        let walls = &found.walls;
        let adjacent: Vec<Vec<usize>> = (0..cells)
            .map(|c| {
                instance
                    .neighbours(instance.pos(c))
                    .map(|q| instance.index(q))
                    .filter(|&q| !walls[q] && !walls[c])
                    .collect()
            })
            .collect();
        // `mark[c] == stamp`: `c` is in the region searched now.
        let mut mark = vec![0usize; cells];
        let mut stamp = 0;
        let mut visits = 0usize;
        let mut queue = Vec::new();
        let mut exit = vec![usize::MAX; cells];
        let mut pockets = Vec::new();
        for e in cut_cells(&adjacent) {
            let first_stamp = stamp + 1;
            for &q in &adjacent[e] {
                if mark[q] >= first_stamp {
                    continue; // already in a region searched from `e`
                }
                stamp += 1;
                mark[e] = stamp;
                mark[q] = stamp;
                queue.clear();
                queue.push(q);
                let mut head = 0;
                while head < queue.len() && queue.len() <= largest {
                    let c = queue[head];
                    head += 1;
                    for &r in &adjacent[c] {
                        if mark[r] != stamp {
                            mark[r] = stamp;
                            queue.push(r);
                        }
                    }
                }
                visits += queue.len();
                if visits > MAX_POCKET_VISITS {
                    return found;
                }
                if queue.len() > largest {
                    continue; // too large to trap, or not cut off by `e`
                }
                // Breadth first inside the pocket from its cells next to `e`.
                let mut order: Vec<usize> = queue
                    .iter()
                    .copied()
                    .filter(|&c| adjacent[c].contains(&e))
                    .collect();
                for &c in &order {
                    exit[c] = 0;
                }
                let mut head = 0;
                while head < order.len() {
                    let c = order[head];
                    head += 1;
                    for &r in &adjacent[c] {
                        if r != e && exit[r] == usize::MAX {
                            exit[r] = exit[c] + 1;
                            order.push(r);
                        }
                    }
                }
                let mut pocket = queue.clone();
                pocket.sort_unstable();
                let moves_out = pocket.iter().map(|&c| exit[c]).collect();
                for &c in &pocket {
                    exit[c] = usize::MAX;
                }
                pockets.push((pocket, moves_out));
            }
        }
        if !pockets.is_empty() {
            found.of_cell = vec![Vec::new(); cells];
            for (i, (pocket, _)) in pockets.iter().enumerate() {
                for &c in pocket {
                    found.of_cell[c].push(i);
                }
            }
        }
        found.pockets = pockets;
        found
    }

    /// Whether an apple of `instance` lies in a dead end (a cell with one open
    /// neighbour, under the rules of the crate's `dead_end_bound`) or a pocket that strands the snake before the last apple: then it has
    /// no plan. `instance` is the game these pockets were found for or one
    /// on its board with fewer apples and a longer snake (a state of it).
    pub fn strands(&self, instance: &Instance) -> bool {
        let n = instance.apples.len();
        if n == 0 {
            return false;
        }
        if dead_end_bound(instance, &self.walls) == usize::MAX {
            return true;
        }
        if self.pockets.is_empty() {
            return false;
        }
        let v = instance.visible_at_start();
        let start_length = instance.initial_length();
        let free_start = matches!(instance.start, Start::Free { .. });
        let slack = usize::from(instance.tail == TailRule::Follow);
        let length_after = |k: usize| {
            if instance.grow {
                start_length.saturating_add(k)
            } else {
                start_length
            }
        };
        // Whether the `k`-th eat, `exit` moves inside a pocket of `size`
        // cells away from its way out, traps the snake.
        let traps = |size: usize, k: usize, exit: usize| {
            length_after(k) > size + slack && (!free_start || k + 1 + exit > size)
        };
        let earliest_eat = |j: usize| (j + 2).saturating_sub(v).max(1);
        // Each pocket's apples, in index order, with their moves out.
        let mut inside: Vec<Vec<(usize, usize)>> = vec![Vec::new(); self.pockets.len()];
        for (j, &a) in instance.apples.iter().enumerate() {
            if !instance.on_grid(a) {
                continue;
            }
            let c = instance.index(a);
            for &p in &self.of_cell[c] {
                let (cells, moves_out) = &self.pockets[p];
                let at = cells.binary_search(&c).expect("a pocket's cell");
                inside[p].push((j, moves_out[at]));
            }
        }
        let mut trap_pockets: Vec<&[usize]> = Vec::new();
        for (p, apples) in inside.iter().enumerate() {
            if apples.is_empty() {
                continue;
            }
            let size = self.pockets[p].0.len();
            // The held apples of the pocket, in index order: late ones
            // always, the others once `v` are held.
            let mut held = 0;
            let mut any_late = false;
            let mut limit = None;
            for &(j, exit) in apples {
                let late = traps(size, earliest_eat(j), exit);
                any_late |= late;
                if late || held >= v {
                    held += 1;
                    if held == v && limit.is_none() {
                        limit = Some(j);
                    }
                }
            }
            if let Some(j) = limit {
                // Every apple after the `v`-th held one must lie in the pocket.
                let after_in_pocket = apples.iter().filter(|&&(i, _)| i > j).count();
                if n - 1 - j > after_in_pocket {
                    return true;
                }
            }
            if any_late && trap_pockets.len() < MAX_TRAP_POCKETS {
                trap_pockets.push(&self.pockets[p].0);
            }
        }
        let disjoint = |a: &[usize], b: &[usize]| {
            let (mut i, mut j) = (0, 0);
            while i < a.len() && j < b.len() {
                match a[i].cmp(&b[j]) {
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                    std::cmp::Ordering::Equal => return false,
                }
            }
            true
        };
        trap_pockets
            .iter()
            .enumerate()
            .any(|(i, a)| trap_pockets[i + 1..].iter().any(|b| disjoint(a, b)))
    }
}

/// The cells whose removal splits their part of the graph `adjacent` (its
/// articulation points), by Tarjan's depth-first search, without recursion.
fn cut_cells(adjacent: &[Vec<usize>]) -> Vec<usize> {
    let n = adjacent.len();
    // `order[c]`: 1 + the visiting order of `c` (0: not visited yet).
    let mut order = vec![0usize; n];
    let mut low = vec![0usize; n];
    let mut cut = vec![false; n];
    let mut visited = 0;
    // Frames: the cell and the index of its next neighbour to try.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if order[root] != 0 || adjacent[root].is_empty() {
            continue;
        }
        visited += 1;
        order[root] = visited;
        low[root] = visited;
        let mut root_children = 0;
        stack.push((root, 0));
        while let Some(&mut (c, ref mut next)) = stack.last_mut() {
            if let Some(&q) = adjacent[c].get(*next) {
                *next += 1;
                if order[q] == 0 {
                    visited += 1;
                    order[q] = visited;
                    low[q] = visited;
                    if c == root {
                        root_children += 1;
                    }
                    stack.push((q, 0));
                } else {
                    low[c] = low[c].min(order[q]);
                }
            } else {
                stack.pop();
                if let Some(&(parent, _)) = stack.last() {
                    low[parent] = low[parent].min(low[c]);
                    if parent != root && low[c] >= order[parent] {
                        cut[parent] = true;
                    }
                }
            }
        }
        cut[root] = root_children >= 2;
    }
    (0..n).filter(|&c| cut[c]).collect()
}

/// The head visits every apple: its walk from the start through all apples
/// in eating order is a spanning path, so it is at least as long as a minimum
/// spanning tree over the start and the apple cells, with the moves between
/// two eats as weights (the distance; two apples on one cell add nothing to
/// the tree; from the start, 2 when the head already stands on the apple).
/// With a free start: the cheapest first apple plus a spanning tree of the
/// apple cells. Skipped (0) beyond [`MAX_TREE_CELLS`] distinct cells.
fn tree_bound(instance: &Instance, walls: &[bool], dist: &Distances) -> usize {
    let mut cells: Vec<Pos> = instance.apples.clone();
    cells.sort_unstable();
    cells.dedup();
    let n = cells.len();
    if n == 0 || n > MAX_TREE_CELLS || !dist.exact {
        return 0;
    }
    let starts = start_cells(instance, walls);
    let first = |i: usize| {
        starts
            .iter()
            .map(|&s| step(dist.get(instance, cells[i], s)))
            .min()
            .unwrap_or(usize::MAX)
    };
    // Prim's algorithm over the apple cells, seeded by the start (fixed) or the cheapest first apple (free).
    let mut in_tree = vec![false; n];
    let mut best: Vec<usize>;
    let mut total: usize;
    match &instance.start {
        Start::Body(_) => {
            best = (0..n).map(first).collect();
            total = 0;
        }
        Start::Free { .. } => {
            let (i0, cost) = (0..n)
                .map(|i| (i, first(i)))
                .min_by_key(|&(_, c)| c)
                .unwrap();
            total = cost;
            in_tree[i0] = true;
            best = (0..n)
                .map(|j| dist.get(instance, cells[i0], cells[j]))
                .collect();
        }
    }
    while let Some(next) = (0..n).filter(|&i| !in_tree[i]).min_by_key(|&i| best[i]) {
        total = total.saturating_add(best[next]);
        in_tree[next] = true;
        for j in 0..n {
            if !in_tree[j] {
                best[j] = best[j].min(dist.get(instance, cells[next], cells[j]));
            }
        }
    }
    total
}

/// The earliest time the head may enter each cell, given the start: 0 but
/// under an explicit start body, where the cell `k` steps behind the head of
/// a body of length `L` opens at `L − k` (follow) or `L − k + 1` (strict).
/// The head may not enter a cell it left `l` steps before while
/// `l < len` (follow) or `l ≤ len` (strict), DESIGN's tail rule, and the
/// length never falls below `L`: growth only keeps cells closed longer.
fn opening_times(instance: &Instance) -> Vec<usize> {
    let mut opens = vec![0; instance.cells()];
    if let Start::Body(body) = &instance.start {
        let strict = usize::from(instance.tail == TailRule::Strict);
        for (k, &cell) in body.iter().enumerate() {
            opens[instance.index(cell)] = body.len() - k + strict;
        }
    }
    opens
}

impl Bounds {
    /// Computes the bounds of the formula at exactly `moves` moves, the
    /// start body's cells closed until they open (the cell `k` behind the
    /// head of a body of length `L` after `L − k` moves under the follow
    /// rule, `L − k + 1` under the strict one).
    /// `instance` must pass [`Instance::validate_game`] (or
    /// [`Instance::validate`]); it panics otherwise. The table holds
    /// `(moves + 1) × cells` booleans: callers check that against their
    /// head-slot cap first.
    pub fn compute(instance: &Instance, moves: usize) -> Bounds {
        Bounds::compute_until(instance, moves, true, || false).expect("nothing to stop it")
    }

    /// [`Bounds::compute`] for a formula open at every horizon up to `moves`
    /// (the incremental search's), which ignores the start body. Around it
    /// the head can be cornered: a cell with no open neighbour at `t + 1`
    /// would leave its clause "the head moves on from here" only the
    /// literals of time `t`, so that clause would bind horizon `t` too,
    /// where the plan may end on that cell. Without the body every cell the
    /// head can reach at `t` has the one it came from open at `t + 1`.
    pub fn compute_open(instance: &Instance, moves: usize) -> Bounds {
        Bounds::compute_until(instance, moves, false, || false).expect("nothing to stop it")
    }

    /// [`Bounds::compute`] that gives up once `passed` says so (its
    /// deadline has passed or its search was cancelled; asked at every time
    /// point of both passes over the table): `None` then. On a large board
    /// and horizon the table takes seconds (a 100x100 board at 3,658
    /// moves), which a search with a deadline cannot wait for.
    pub(crate) fn compute_until(
        instance: &Instance,
        moves: usize,
        around_start_body: bool,
        passed: impl Fn() -> bool,
    ) -> Option<Bounds> {
        let walls = instance.wall_map();
        let cells = instance.cells();
        let n = instance.apples.len();
        let dist = Distances::new(instance, &walls);
        let earliest = earliest_times(instance, &walls, &dist);
        let mut latest = vec![moves; n];
        let ordered = instance.visible_at_start() == 1;
        if ordered {
            for j in (1..n).rev() {
                let d = dist.get(instance, instance.apples[j - 1], instance.apples[j]);
                latest[j - 1] = latest[j].saturating_sub(step(d));
            }
        }

        // Forward reachability from the start cells.
        let opens = if around_start_body {
            opening_times(instance)
        } else {
            vec![0; cells]
        };
        let mut head = vec![vec![false; cells]; moves + 1];
        for p in start_cells(instance, &walls) {
            head[0][instance.index(p)] = true;
        }
        let grid = instance.grid();
        let table = NeighbourTable::new(grid);
        for t in 1..=moves {
            if passed() {
                return None;
            }
            let (before, after) = head.split_at_mut(t);
            let prev = &before[t - 1];
            let next = &mut after[0];
            for (i, &on) in prev.iter().enumerate() {
                if on {
                    for &qi in table.around(i) {
                        if !walls[qi] && t >= opens[qi] {
                            next[qi] = true;
                        }
                    }
                }
            }
        }

        // Ordered apples: the head must be on its way between consecutive
        // apples. Phase j (apples before j eaten, apple j not yet; j = n: all
        // eaten) is possible at time t only for j in phases(t): earliest and
        // latest grow with j, so that is a window moving forward with t.
        if ordered && n > 0 && dist.exact {
            let phases = |t: usize| {
                let from = latest.partition_point(|&l| l <= t);
                let to = earliest.partition_point(|&e| e <= t);
                from..to + 1
            };
            let checks = (0..=moves).fold(0usize, |sum, t| {
                sum.saturating_add(phases(t).len().saturating_mul(cells))
            });
            if checks <= MAX_PHASE_CHECKS {
                let apples = &instance.apples;
                let positions: Vec<Pos> = (0..cells).map(|c| grid.pos(c)).collect();
                for (t, row) in head.iter_mut().enumerate() {
                    if passed() {
                        return None;
                    }
                    let window = phases(t);
                    for (c, on) in row.iter_mut().enumerate() {
                        if !*on {
                            continue;
                        }
                        let cell = positions[c];
                        let d = |j: usize| dist.get(instance, apples[j], cell);
                        *on = window.clone().any(|j| {
                            let after_prev = j == 0 || {
                                let e = earliest[j - 1];
                                e <= t && d(j - 1) != usize::MAX && d(j - 1) <= t - e
                            };
                            let before_next = j == n || {
                                let l = latest[j];
                                l > t && d(j) != usize::MAX && d(j) <= l - t
                            };
                            after_prev && before_next
                        });
                    }
                }
            }
        }
        Some(Bounds {
            head,
            earliest,
            latest,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;

    /// Each argument that leaves no plan at any horizon is named, and the
    /// instances with a bound have no reason.
    #[test]
    fn no_plan_reasons_name_the_argument() {
        let read = |json: &str| crate::instance::json::from_json(json).unwrap();
        // The second apple lies behind a wall line across a 5x3 board.
        let cut = read(
            r#"{"width":5,"height":3,"walls":[[2,0],[2,1],[2,2]],"snake":[[0,0]],"apples":[[1,1],[4,1]],"visible":1}"#,
        );
        assert_eq!(
            no_plan_reason(&cut),
            Some(NoPlanReason::CutOff {
                apple: 1,
                at: (4, 1),
                ordered: true
            })
        );
        assert!(
            no_plan_reason(&cut)
                .unwrap()
                .to_string()
                .starts_with("apple 2 at (4, 1)")
        );
        let pocket = read(
            r#"{"width":5,"height":3,"walls":[[1,0],[1,2]],"snake":[[4,1],[3,1],[2,1]],"apples":[[0,0],[0,2],[4,0]],"tail":"strict"}"#,
        );
        assert_eq!(no_plan_reason(&pocket), Some(NoPlanReason::Stranded));
        // A 3x3 board filled from a body: 5 cells of one colour, 4 of the
        // other, fine; a wall on a corner leaves 4 and 4, fine; on an edge's
        // middle 5 and 3, which no path covers.
        let colours = read(
            r#"{"width":3,"height":3,"walls":[[1,0]],"snake":[[0,0]],"apples":[[0,1],[0,2],[1,2],[2,2],[2,1],[1,1],[2,0]]}"#,
        );
        assert_eq!(no_plan_reason(&colours), Some(NoPlanReason::Colours));
        let overfills = read(
            r#"{"width":2,"height":2,"snake":[[0,0],[1,0]],"apples":[[1,1],[0,1],[0,0]],"visible":1}"#,
        );
        assert_eq!(no_plan_reason(&overfills), Some(NoPlanReason::Overfills));
        let fine = read(r#"{"width":3,"height":1,"snake":[[0,0]],"apples":[[2,0]]}"#);
        assert_eq!(no_plan_reason(&fine), None);
    }

    #[test]
    fn cut_cells_split_the_board() {
        // A 5x1 corridor: every inner cell splits it.
        let corridor: Vec<Vec<usize>> = (0..5usize)
            .map(|c| {
                [c.wrapping_sub(1), c + 1]
                    .into_iter()
                    .filter(|&q| q < 5)
                    .collect()
            })
            .collect();
        assert_eq!(cut_cells(&corridor), vec![1, 2, 3]);
        // A 4-cycle with a tail 3 -> 4 -> 5: only the cycle's cell 3 and the tail's 4 split it.
        let graph = vec![
            vec![1, 2],
            vec![0, 3],
            vec![0, 3],
            vec![1, 2, 4],
            vec![3, 5],
            vec![4],
        ];
        assert_eq!(cut_cells(&graph), vec![3, 4]);
        // No edges, no cut cells.
        assert!(cut_cells(&[vec![], vec![]]).is_empty());
    }

    /// A 5x1 corridor, the snake's one cell at its end, two ordered apples
    /// ahead of it (least plan 4 moves).
    fn corridor_with_two_apples() -> Instance {
        Instance {
            width: 5,
            height: 1,
            walls: vec![],
            start: Start::Body(vec![(0, 0)]),
            apples: vec![(2, 0), (4, 0)],
            visible: 1,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    #[test]
    fn ordered_apples_bound_the_head() {
        let inst = corridor_with_two_apples();
        assert_eq!(lower_bound(&inst), Some(4));
        let b = Bounds::compute(&inst, 4);
        assert_eq!(b.earliest, vec![2, 4]);
        assert_eq!(b.latest, vec![2, 4]);
        for t in 0..=4 {
            let on: Vec<usize> = (0..5).filter(|&c| b.head[t][c]).collect();
            assert_eq!(on, vec![t], "t={t}");
        }
    }

    /// The start body's cells open to the head only once its tail can have
    /// left them: `L − k` moves for the cell `k` behind the head (follow),
    /// one more (strict); the open formula's bounds ignore the body.
    #[test]
    fn the_start_body_closes_its_cells_until_the_tail_leaves() {
        // 5x2, a body of 4 bent round (1, 0): head (0, 1).
        let mut inst = Instance {
            width: 5,
            height: 2,
            walls: vec![],
            start: Start::Body(vec![(0, 1), (1, 1), (1, 0), (2, 0)]),
            apples: vec![],
            visible: 0,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        };
        // (Cell `c` of the 5x2 board is (c % 5, c / 5).)
        let cells = |b: &Bounds, t: usize| -> Vec<Pos> {
            (0..10)
                .filter(|&c| b.head[t][c])
                .map(|c| (c % 5, c / 5))
                .collect()
        };
        let b = Bounds::compute(&inst, 4);
        assert_eq!(cells(&b, 1), vec![(0, 0)]);
        assert_eq!(cells(&b, 2), vec![(1, 0)]);
        assert_eq!(cells(&b, 3), vec![(0, 0), (2, 0), (1, 1)]);
        let open = Bounds::compute_open(&inst, 4);
        assert_eq!(cells(&open, 1), vec![(0, 0), (1, 1)]);
        inst.tail = TailRule::Strict;
        let b = Bounds::compute(&inst, 4);
        assert_eq!(cells(&b, 1), vec![(0, 0)]);
        assert!(cells(&b, 2).is_empty(), "cornered: (1, 0) opens at 3");
    }

    /// An apple off the grid made `lower_bound` panic (index out of bounds).
    #[test]
    fn an_invalid_instance_is_refused_by_try_lower_bound() {
        for bad in crate::instance::refused_examples() {
            let reason = bad.validate_game().unwrap_err();
            assert_eq!(try_lower_bound(&bad), Err(reason));
        }
        assert_eq!(try_lower_bound(&corridor_with_two_apples()), Ok(Some(4)));
    }
}
