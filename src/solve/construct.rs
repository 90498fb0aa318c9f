//! First plans without SAT. [`tour_plan`]: along a Hamiltonian cycle of a
//! wall-free board (all cells but a corner on an odd board), with shortcuts
//! that keep the body in the cycle's order, so the snake never gets stuck;
//! when its end game fails on an odd full board, tours that skip a segment
//! of apples kept for the end (`super::reserve`), or a path of any shape
//! next to a late apple of the spawn chain, searched over their shortcuts
//! until the reserved apples are the last ones ([`Steer`]);
//! the tours are built here rather than with the full game's certified cycles
//! (`crate::game::cycle`) because those follow the game's rules (follow
//! tail, one apple at a time), not the IPC's strict tail and spawn chain.
//! [`construct`]: eat the apples one at a time along shortest
//! paths that respect the moving body, keeping only moves after which the
//! head can still reach its tail, with backtracking over the choices.
//!
//! A state is the body (head first), the snake's length and the apples eaten.
//! From a state, a breadth-first search over the grid knows when each body
//! cell frees up (the tail leaves a cell `length − i` moves later, one more
//! under the strict rule), so it finds the earliest arrival at every cell
//! without eating on the way (stopping once it has reached the cells it
//! looks for: the apples in view, or the tail). Each reachable apple on the
//! board is a choice, nearest first; a choice is *safe* when, after it, the
//! game is over or the head can still reach the tail's cell. Safe choices
//! come first, then the others, depth first, within a node budget and a
//! deadline (or until the planner's cancellation). When the free cells left are few (the end of a
//! full board is a Hamiltonian-path problem), the search goes one move at a
//! time instead. Every plan it returns is replayed by [`crate::sim`] by the
//! caller; it only proposes.

use std::collections::{HashSet, VecDeque};
use std::time::Instant;

use crate::geometry::Direction;
use crate::instance::{Instance, Pos, Start, TailRule};

use super::Interrupt;
use super::reserve::{cycle_avoiding, cycle_without};
use crate::encode::full::fills_board;
use crate::encode::prune::Pockets;

/// Free cells (not body) at or below which the search goes move by move.
const ENDGAME_FREE: usize = 12;

/// Stack of the search thread.
const STACK_BYTES: usize = 256 << 20;

/// The game state the search walks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct State {
    /// Body cells, head first (`length` of them).
    pub(super) body: VecDeque<Pos>,
    /// The apples revealed and not eaten yet, in order (at most `visible`
    /// of them): a state's size and hash do not grow with the apples. With
    /// a flag per apple every node cost as much as the apples: 20,000
    /// apples alternating between two cells took the constructions 30 s
    /// and 290 MB and gave no plan; now 0.3 s, and 99,998 take 5 s.
    pub(super) waiting: Vec<usize>,
    /// Apples revealed so far.
    pub(super) revealed: usize,
}

/// The search: instance, budget and the states already found to dead-end.
struct Search<'a> {
    instance: &'a Instance,
    walls: Vec<bool>,
    /// Stops the search (its deadline, the planner's cancellation).
    stop: Interrupt,
    nodes: usize,
    budget: usize,
    dead: HashSet<State>,
    /// States on the current search path (no cycles).
    open: HashSet<State>,
    /// Prune states without two uneaten apples side by side
    /// ([`State::pair_left`]; [`needs_pair`]).
    pair_rule: bool,
    /// Prune states that an apple left in a dead end or a pocket strands
    /// ([`Pockets::strands`]): only boards with walls have them.
    pockets: Option<Pockets>,
    /// Single moves when the paths to the apples lead nowhere, whatever the
    /// apples in view ([`construct_detouring`]); else only with one in view.
    detour_always: bool,
}

/// Whether [`State::pair_left`] must hold all game: the strict tail rule,
/// growth, and an odd number of free cells that the final snake fills (an
/// odd full board).
pub(super) fn needs_pair(instance: &Instance) -> bool {
    instance.tail == TailRule::Strict
        && !instance.free_cells().is_multiple_of(2)
        && fills_board(instance)
}

impl State {
    /// The state before the first move: `body`, the apples in view at the start.
    pub(super) fn start(instance: &Instance, body: &[Pos]) -> State {
        let revealed = instance.visible_at_start();
        State {
            body: body.iter().copied().collect(),
            waiting: (0..revealed).collect(),
            revealed,
        }
    }

    pub(super) fn eaten(&self) -> usize {
        self.revealed - self.waiting.len()
    }

    /// Whether apple `i` has been eaten.
    fn is_eaten(&self, i: usize) -> bool {
        i < self.revealed && !self.waiting.contains(&i)
    }

    /// The apples not eaten yet, revealed or not, in order.
    fn uneaten(&self, instance: &Instance) -> impl Iterator<Item = usize> {
        let revealed = self.revealed;
        self.waiting
            .iter()
            .copied()
            .chain(revealed..instance.apples.len())
    }

    /// Two uneaten apples (revealed or not) lie side by side, or fewer than
    /// two are left. On a board whose free cells are odd in number and that
    /// the final snake fills (strict tail), this must hold until the end: at
    /// one cell short of full the snake cannot move without eating (the body
    /// and the free cell would make a cycle through an odd number of cells,
    /// and the grid has none), so the last apple is eaten on the move after
    /// the one before it, next to it.
    pub(super) fn pair_left(&self, instance: &Instance) -> bool {
        let left: Vec<Pos> = self.uneaten(instance).map(|i| instance.apples[i]).collect();
        if left.len() < 2 {
            return true;
        }
        let mut marked = vec![false; instance.cells()];
        for &c in &left {
            marked[instance.index(c)] = true;
        }
        left.iter()
            .any(|&c| instance.neighbours(c).any(|n| marked[instance.index(n)]))
    }

    /// The game left from this state: its body as the start, the uneaten
    /// apples in their order, as many in view as now.
    fn rest(&self, instance: &Instance) -> Instance {
        let apples: Vec<Pos> = self.uneaten(instance).map(|i| instance.apples[i]).collect();
        Instance {
            start: Start::Body(self.body.iter().copied().collect()),
            visible: self.revealed - self.eaten(),
            apples,
            horizon: None,
            ..instance.clone()
        }
    }

    /// The uneaten revealed apple on `cell`, if any.
    fn apple_at(&self, instance: &Instance, cell: Pos) -> Option<usize> {
        self.waiting
            .iter()
            .copied()
            .find(|&i| instance.apples[i] == cell)
    }

    /// Moves the head to the adjacent `next`, or `None` if that bites the
    /// body. Eating grows the snake and reveals the next apple.
    fn step(&self, instance: &Instance, walls: &[bool], next: Pos) -> Option<State> {
        let mut s = self.clone();
        s.advance(instance, walls, next).then_some(s)
    }

    /// [`State::step`] in place; `false` (and no change) if the move bites
    /// the body or leaves the board.
    pub(super) fn advance(&mut self, instance: &Instance, walls: &[bool], next: Pos) -> bool {
        match self.entry(instance, walls, next) {
            Some(apple) => {
                self.enter(instance, next, apple);
                true
            }
            None => false,
        }
    }

    /// Whether the head may move to the adjacent `next` (`None`: it bites
    /// the body or leaves the board), and the apple it eats there.
    pub(super) fn entry(
        &self,
        instance: &Instance,
        walls: &[bool],
        next: Pos,
    ) -> Option<Option<usize>> {
        if !instance.on_grid(next) || walls[instance.index(next)] {
            return None;
        }
        let length = self.body.len();
        let apple = self.apple_at(instance, next);
        let new_length = length + usize::from(apple.is_some() && instance.grow);
        let blocking = match instance.tail {
            TailRule::Strict => length,
            TailRule::Follow => new_length - 1,
        };
        if self.body.iter().take(blocking).any(|&c| c == next) {
            return None;
        }
        Some(apple)
    }

    /// Makes the move [`State::entry`] allowed, eating `apple`.
    pub(super) fn enter(&mut self, instance: &Instance, next: Pos, apple: Option<usize>) {
        let new_length = self.body.len() + usize::from(apple.is_some() && instance.grow);
        self.body.push_front(next);
        self.body.truncate(new_length);
        if let Some(i) = apple {
            self.waiting.retain(|&w| w != i);
            if self.revealed < instance.apples.len() {
                self.waiting.push(self.revealed);
                self.revealed += 1;
            }
        }
    }

    /// Earliest arrival (moves) without eating on the way, and the cell each
    /// arrival came from; `avoid` cells (other apples) are not entered. It
    /// stops once the `wanted` cells (ascending, distinct) are all reached:
    /// cells not reached by then read `usize::MAX` (with none wanted, the
    /// whole board is searched).
    pub(super) fn arrivals(
        &self,
        instance: &Instance,
        walls: &[bool],
        avoid: &[bool],
        wanted: &[usize],
    ) -> (Vec<usize>, Vec<usize>) {
        let mut arrivals = Arrivals::default();
        // (The head's cell is reached at the start, with no move.)
        let head = instance.index(self.body[0]);
        let mut left = wanted.len() - usize::from(wanted.binary_search(&head).is_ok());
        let whole_board = wanted.is_empty();
        arrivals.fill(self, instance, walls, avoid, |cell, _| {
            if left > 0 && wanted.binary_search(&cell).is_ok() {
                left -= 1;
            }
            left == 0 && !whole_board
        });
        (arrivals.dist, arrivals.from)
    }

    /// The cells of the revealed apples not eaten yet, ascending, each once.
    fn waiting_cells(&self, instance: &Instance) -> Vec<usize> {
        let mut cells: Vec<usize> = self
            .waiting
            .iter()
            .map(|&i| instance.index(instance.apples[i]))
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }
}

/// [`State::arrivals`] in buffers kept between calls (the beam ranks
/// thousands of states per move with one of these).
#[derive(Default)]
pub(super) struct Arrivals {
    /// Earliest arrival at each cell (`usize::MAX`: not reached).
    pub(super) dist: Vec<usize>,
    /// The cell each arrival came from.
    pub(super) from: Vec<usize>,
    /// The first move at which each body cell may be entered.
    free_at: Vec<usize>,
    queue: VecDeque<usize>,
}

impl Arrivals {
    /// Fills `dist` and `from` for `state`, cells in order of arrival;
    /// stops early once `reached(cell, moves)` returns true for a newly
    /// reached cell (cells not reached by then read `usize::MAX`).
    pub(super) fn fill(
        &mut self,
        state: &State,
        instance: &Instance,
        walls: &[bool],
        avoid: &[bool],
        mut reached: impl FnMut(usize, usize) -> bool,
    ) {
        let cells = instance.cells();
        let length = state.body.len();
        let extra = usize::from(instance.tail == TailRule::Strict);
        self.free_at.clear();
        self.free_at.resize(cells, 0);
        for (i, &c) in state.body.iter().enumerate() {
            self.free_at[instance.index(c)] = length - i + extra;
        }
        self.dist.clear();
        self.dist.resize(cells, usize::MAX);
        self.from.clear();
        self.from.resize(cells, usize::MAX);
        self.queue.clear();
        let head = instance.index(state.body[0]);
        self.dist[head] = 0;
        self.queue.push_back(head);
        while let Some(c) = self.queue.pop_front() {
            let d = self.dist[c];
            if d > 0 && avoid[c] {
                continue;
            }
            for q in instance.neighbours(instance.pos(c)) {
                let qi = instance.index(q);
                if walls[qi] || self.dist[qi] != usize::MAX || d + 1 < self.free_at[qi] {
                    continue;
                }
                self.dist[qi] = d + 1;
                self.from[qi] = c;
                if reached(qi, d + 1) {
                    return;
                }
                self.queue.push_back(qi);
            }
        }
    }
}

impl Search<'_> {
    fn out_of_budget(&self) -> bool {
        self.nodes >= self.budget || self.stop.fired()
    }

    /// A path (cells after the head) from `state` that eats every apple.
    fn solve(&mut self, state: &State) -> Option<Vec<Pos>> {
        let mut path = self.solve_reversed(state, 0)?;
        path.reverse();
        Some(path)
    }

    /// [`Search::solve`]'s path *last cell first*: each level of the search
    /// adds its own cells at the end without copying the rest (copied at
    /// every level, 99,998 apples took seconds). `idle`: moves since the
    /// last apple (the move-by-move search gives up after as many moves as
    /// there are cells).
    fn solve_reversed(&mut self, state: &State, idle: usize) -> Option<Vec<Pos>> {
        let n = self.instance.apples.len();
        if state.eaten() == n {
            return Some(Vec::new());
        }
        if idle > self.instance.cells()
            || (self.pair_rule && !state.pair_left(self.instance))
            || self.out_of_budget()
            || self.dead.contains(state)
            || self.open.contains(state)
        {
            return None;
        }
        if let Some(pockets) = &self.pockets
            && pockets.strands(&state.rest(self.instance))
        {
            self.dead.insert(state.clone());
            return None;
        }
        self.nodes += 1;
        self.open.insert(state.clone());
        let free = self.walls.iter().filter(|&&w| !w).count();
        let found = if free - state.body.len() <= ENDGAME_FREE {
            self.by_moves(state, idle)
        } else {
            // With one apple in view there is one earliest-arrival path: when
            // it leads nowhere, single moves (a detour before the next path).
            // (With more in view the paths to each are the choices; detours
            // there cost the IPC problems time and gained nothing.)
            let detours =
                (self.detour_always || self.instance.visible == 1) && !self.out_of_budget();
            self.by_apples(state)
                .or_else(|| detours.then(|| self.by_moves(state, idle))?)
        };
        self.open.remove(state);
        if found.is_none() && !self.out_of_budget() && idle == 0 {
            self.dead.insert(state.clone());
        }
        found
    }

    /// One apple at a time along earliest-arrival paths.
    fn by_apples(&mut self, state: &State) -> Option<Vec<Pos>> {
        let inst = self.instance;
        let wanted = state.waiting_cells(inst);
        let mut apple_cell = vec![false; inst.cells()];
        for &c in &wanted {
            apple_cell[c] = true;
        }
        let (dist, from) = state.arrivals(inst, &self.walls, &apple_cell, &wanted);
        let mut targets: Vec<(usize, usize)> = wanted
            .iter()
            .filter(|&&c| dist[c] != usize::MAX)
            .map(|&c| (dist[c], c))
            .collect();
        targets.sort_unstable();
        let mut candidates = Vec::new();
        for &(_, target) in &targets {
            // Each candidate is replayed and screened (board-sized work):
            // with 100,000 apples in view on 1000x1000, the loop alone took
            // 70 s past a 20 s limit before the clock was looked at.
            if self.stop.fired() {
                return None;
            }
            let mut cells_back = vec![target];
            while from[*cells_back.last().expect("nonempty")] != usize::MAX {
                cells_back.push(from[*cells_back.last().expect("nonempty")]);
            }
            cells_back.pop();
            let path: Vec<Pos> = cells_back.iter().rev().map(|&c| inst.pos(c)).collect();
            let mut s = state.clone();
            let mut legal = true;
            for &p in &path {
                match s.step(inst, &self.walls, p) {
                    Some(next) => s = next,
                    None => {
                        legal = false;
                        break;
                    }
                }
            }
            if legal {
                let safe = self.safe(&s);
                candidates.push((!safe, path, s));
            }
        }
        // Safe first, each group nearest first (a stable sort keeps the distance order).
        candidates.sort_by_key(|c| c.0);
        // (The board-sized tables go before the search goes deeper: kept
        // at every level, they took memory in cells × apples eaten, 1 GB
        // in 8 s on 100x100.)
        drop((apple_cell, dist, from, targets));
        for (_, path, next) in candidates {
            if let Some(mut rest) = self.solve_reversed(&next, 0) {
                rest.extend(path.into_iter().rev());
                return Some(rest);
            }
            if self.out_of_budget() {
                return None;
            }
        }
        None
    }

    /// One move at a time (the end of a nearly full board), moves towards
    /// the nearest apple first.
    fn by_moves(&mut self, state: &State, idle: usize) -> Option<Vec<Pos>> {
        let inst = self.instance;
        let none = vec![false; inst.cells()];
        let head = state.body[0];
        // Down, right, up, left: ties between equally near moves have always
        // been broken in this order, so the plans found stay the same.
        let order = [
            Direction::Down,
            Direction::Right,
            Direction::Up,
            Direction::Left,
        ];
        let mut moves: Vec<(usize, Pos, State)> = order
            .iter()
            .filter_map(|&d| {
                let p = inst.grid().step(head, d)?;
                let next = state.step(inst, &self.walls, p)?;
                if next.eaten() == inst.apples.len() {
                    return Some((0, p, next));
                }
                // Every apple left must stay reachable.
                let wanted = next.waiting_cells(inst);
                let (dist, _) = next.arrivals(inst, &self.walls, &none, &wanted);
                let mut nearest = usize::MAX;
                for i in next.waiting.iter().copied() {
                    let d = dist[inst.index(inst.apples[i])];
                    if d == usize::MAX {
                        return None;
                    }
                    nearest = nearest.min(d);
                }
                Some((nearest, p, next))
            })
            .collect();
        moves.sort_by_key(|m| m.0);
        drop(none);
        for (_, p, next) in moves {
            let idle = if next.eaten() > state.eaten() {
                0
            } else {
                idle + 1
            };
            if let Some(mut rest) = self.solve_reversed(&next, idle) {
                rest.push(p);
                return Some(rest);
            }
            if self.out_of_budget() {
                return None;
            }
        }
        None
    }

    /// The game is over, or the head can still reach the tail's cell.
    fn safe(&self, state: &State) -> bool {
        if state.eaten() == self.instance.apples.len() {
            return true;
        }
        let tail = self.instance.index(*state.body.back().expect("a body"));
        let none = vec![false; self.instance.cells()];
        let (dist, _) = state.arrivals(self.instance, &self.walls, &none, &[tail]);
        dist[tail] != usize::MAX
    }
}

/// A plan (head cells from `t = 0`) that eats every apple, found within
/// `budget` search nodes and before `stop` fires (its deadline, the
/// planner's cancellation); `None` if the search gave up or the start is
/// not a fixed body. The caller checks it with the simulator.
pub fn construct(instance: &Instance, budget: usize, stop: &Interrupt) -> Option<Vec<Pos>> {
    search_apples(instance, budget, stop, false)
}

/// [`construct`] trying single moves wherever the paths to the apples in
/// view lead nowhere, not only with one apple in view: slower and longer
/// where [`construct`] finds a plan (walled boards with every apple in view
/// lost plans within the same window), but a plan where the paths alone
/// find none (a walled 9x9 board, 35 apples, two in view, seed 3: no plan
/// from any body within 0.02 s; a 410-move plan with single moves).
pub fn construct_detouring(
    instance: &Instance,
    budget: usize,
    stop: &Interrupt,
) -> Option<Vec<Pos>> {
    search_apples(instance, budget, stop, true)
}

/// The search of [`construct`] and [`construct_detouring`].
fn search_apples(
    instance: &Instance,
    budget: usize,
    stop: &Interrupt,
    detour_always: bool,
) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    let state = State::start(instance, body);
    let mut search = Search {
        instance,
        walls: instance.wall_map(),
        stop: stop.clone(),
        nodes: 0,
        budget,
        dead: HashSet::new(),
        open: HashSet::new(),
        pair_rule: needs_pair(instance),
        pockets: (!instance.walls.is_empty()).then(|| Pockets::find(instance)),
        detour_always,
    };
    // Deep searches (one frame per move at the end): a thread with a large stack.
    let rest = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || search.solve(&state))
            .ok()?
            .join()
            // A panic is a bug: passed on, not taken for "no plan".
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })?;
    Some(std::iter::once(body[0]).chain(rest).collect())
}

/// A cycle along which the snake can always go on: through every cell of a
/// wall-free board with an even number of cells; on an odd board (no
/// Hamiltonian cycle: one colour has a cell more) through all cells but a
/// corner, with the alternative that trades the corner for its diagonal
/// neighbour (both of the majority colour).
#[derive(Clone)]
struct Tour {
    /// The successor of each cell, `usize::MAX` off the cycle.
    next: Vec<usize>,
    /// The place of each cell along the cycle, `usize::MAX` off the cycle.
    ord: Vec<usize>,
    /// Cells on the cycle.
    len: usize,
    /// Odd boards: `[a, on, b, off]` with `a → on → b` on the cycle and
    /// `a → off → b` the alternative ([`Tour::swap`]).
    alt: Option<[usize; 4]>,
}

/// The cycle of a `w × h` board in its canonical orientation, as cells in
/// order, with the odd board's alternative `[a, on, b, off]`; `None` for a
/// board with a side below 2.
pub(super) fn base_order(w: usize, h: usize) -> Option<(Vec<Pos>, Option<[Pos; 4]>)> {
    if w < 2 || h < 2 {
        return None;
    }
    if h.is_multiple_of(2) {
        // Rows over columns 1.., boustrophedon, back up column 0.
        let mut order = vec![(0, 0)];
        for y in 0..h {
            if y % 2 == 0 {
                order.extend((1..w).map(|x| (x, y)));
            } else {
                order.extend((1..w).rev().map(|x| (x, y)));
            }
        }
        order.extend((1..h).rev().map(|y| (0, y)));
        return Some((order, None));
    }
    if w.is_multiple_of(2) {
        let (order, _) = base_order(h, w)?;
        return Some((order.into_iter().map(|(x, y)| (y, x)).collect(), None));
    }
    // Both odd: rows 1.. as above, row 0 (but the corner) folded into row 1.
    let mut order = Vec::new();
    for x in (1..w).step_by(2) {
        order.extend([(x, 1), (x, 0), (x + 1, 0), (x + 1, 1)]);
    }
    for y in 2..h {
        if y % 2 == 0 {
            order.extend((1..w).rev().map(|x| (x, y)));
        } else {
            order.extend((1..w).map(|x| (x, y)));
        }
    }
    order.extend((1..h).rev().map(|y| (0, y)));
    Some((order, Some([(0, 1), (1, 1), (1, 0), (0, 0)])))
}

impl Tour {
    /// The cycles of a wall-free `w × h` board: each symmetry of the board
    /// applied to the canonical one, both directions.
    fn all(w: usize, h: usize) -> Vec<Tour> {
        let mut tours = Vec::new();
        for symmetry in 0..8u8 {
            let transpose = symmetry & 4 != 0;
            let (bw, bh) = if transpose { (h, w) } else { (w, h) };
            let Some((order, alt)) = base_order(bw, bh) else {
                continue;
            };
            let map = |(x, y): Pos| {
                let (x, y) = if transpose { (y, x) } else { (x, y) };
                let x = if symmetry & 1 != 0 { w - 1 - x } else { x };
                let y = if symmetry & 2 != 0 { h - 1 - y } else { y };
                y * w + x
            };
            let cells: Vec<usize> = order.into_iter().map(map).collect();
            let alt = alt.map(|a| a.map(map));
            for reverse in [false, true] {
                let mut cells = cells.clone();
                let mut alt = alt;
                if reverse {
                    cells.reverse();
                    alt = alt.map(|[a, on, b, off]| [b, on, a, off]);
                }
                let mut tour = Tour::along(&cells, w * h);
                tour.alt = alt;
                tours.push(tour);
            }
        }
        tours
    }

    /// The cycle through `cells` in order, on a board of `total` cells.
    fn along(cells: &[usize], total: usize) -> Tour {
        let mut next = vec![usize::MAX; total];
        let mut ord = vec![usize::MAX; total];
        for (i, &c) in cells.iter().enumerate() {
            next[c] = cells[(i + 1) % cells.len()];
            ord[c] = i;
        }
        Tour {
            next,
            ord,
            len: cells.len(),
            alt: None,
        }
    }

    /// Odd boards: cycles through all cells but a reserved segment of 1, 3
    /// or 5 cells along a row or column, its ends on the majority colour
    /// ([`cycle_without`]), each with the segment, in every symmetric
    /// variant and both directions, one of each length in turn.
    fn reserving(w: usize, h: usize) -> Vec<(Tour, Vec<usize>)> {
        let mut by_length: Vec<Vec<(Tour, Vec<usize>)>> = Vec::new();
        for k in RESERVED {
            let mut tours = Vec::new();
            for symmetry in 0..8u8 {
                let transpose = symmetry & 4 != 0;
                let (bw, bh) = if transpose { (h, w) } else { (w, h) };
                let map = |c: usize| {
                    let (x, y) = (c % bw, c / bw);
                    let (x, y) = if transpose { (y, x) } else { (x, y) };
                    let x = if symmetry & 1 != 0 { w - 1 - x } else { x };
                    let y = if symmetry & 2 != 0 { h - 1 - y } else { y };
                    y * w + x
                };
                for y0 in 0..bh {
                    for x0 in 0..bw {
                        let Some(cells) = cycle_without(bw, bh, (x0, y0), k) else {
                            continue;
                        };
                        let cells: Vec<usize> = cells.into_iter().map(map).collect();
                        let kept: Vec<usize> = (x0..x0 + k).map(|x| map(y0 * bw + x)).collect();
                        for reverse in [false, true] {
                            let mut cells = cells.clone();
                            if reverse {
                                cells.reverse();
                            }
                            tours.push((Tour::along(&cells, w * h), kept.clone()));
                        }
                    }
                }
            }
            by_length.push(tours);
        }
        // One of each length in turn.
        let most = by_length.iter().map(Vec::len).max().unwrap_or(0);
        let mut lists: Vec<_> = by_length.into_iter().map(Vec::into_iter).collect();
        let mut tours = Vec::new();
        for _ in 0..most {
            tours.extend(lists.iter_mut().filter_map(Iterator::next));
        }
        tours
    }

    /// Odd full boards: cycles through all cells but a reserved path of 1,
    /// 3 or 5 cells of any shape, fitted to the spawn chain: one end beside a
    /// late apple `c` on the minority colour (which the snake eats last
    /// before the reserved cells), the path's cells not under the body, and
    /// as few apples as possible to eat while `c` waits ([`waiting`]; best
    /// first, then the path's earliest-revealed cell latest). Each cycle
    /// ([`cycle_avoiding`]) runs from the tail to the head, so the body
    /// starts along it. L-shapes, zigzags and hooks included: the segments of
    /// [`Tour::reserving`] sit at fixed places and rarely next to the last
    /// apples.
    fn fitted(instance: &Instance, body: &[Pos]) -> Vec<(Tour, Vec<usize>)> {
        let (w, h, cells) = (instance.width, instance.height, instance.cells());
        let n = instance.apples.len();
        // Moves from the end of the spawn chain (0: the last apple).
        let mut rank = vec![usize::MAX; cells];
        for (i, &a) in instance.apples.iter().enumerate() {
            rank[instance.index(a)] = n - 1 - i;
        }
        let mut allowed: Vec<bool> = rank.iter().map(|&r| r != usize::MAX).collect();
        for &b in body {
            allowed[instance.index(b)] = false;
        }
        let majority = |c: usize| (c % w + c / w).is_multiple_of(2);
        let mut lasts: Vec<usize> = (0..cells).filter(|&c| allowed[c] && !majority(c)).collect();
        lasts.sort_by_key(|&c| rank[c]);
        lasts.truncate(FITTED_LASTS);
        let mut shapes: Vec<((usize, usize), Vec<usize>)> = Vec::new();
        for &c in &lasts {
            allowed[c] = false;
            for e in instance.neighbours(instance.pos(c)) {
                let e = instance.index(e);
                if !allowed[e] {
                    continue;
                }
                for k in RESERVED {
                    let mut found = Vec::new();
                    paths(instance, &allowed, &mut vec![e], k, &mut found);
                    for path in found {
                        if !eats_in_time(instance, &mask(cells, &path), c) {
                            continue;
                        }
                        let latest = path.iter().map(|&p| rank[p]).max().unwrap_or(0);
                        shapes.push(((waiting(instance, rank[c], k), latest), path));
                    }
                }
            }
            allowed[c] = true;
        }
        shapes.sort_by_key(|s| s.0);
        let mut seen: HashSet<Vec<usize>> = HashSet::new();
        let (head, tail) = (
            instance.index(body[0]),
            instance.index(body[body.len() - 1]),
        );
        let mut tours = Vec::new();
        for (_, path) in shapes {
            if tours.len() == FITTED_SHAPES {
                break;
            }
            let mut set = path.clone();
            set.sort_unstable();
            if !seen.insert(set) {
                continue;
            }
            if let Some(cycle) =
                cycle_avoiding(w, h, &mask(cells, &path), (tail, head), CYCLE_NODES)
            {
                tours.push((Tour::along(&cycle, cells), path));
            }
        }
        tours
    }

    /// Forward distance along the cycle from `a` to `b` (both on it).
    fn ahead(&self, a: usize, b: usize) -> usize {
        (self.ord[b] + self.len - self.ord[a]) % self.len
    }

    /// Forward distance along the cycle from the head to the tail: the moves
    /// ahead before the head would overtake its tail. A one-cell snake (head
    /// on its tail) has the whole cycle ahead.
    fn to_tail(&self, head: usize, tail: usize) -> usize {
        match self.ahead(head, tail) {
            0 => self.len,
            d => d,
        }
    }

    /// Odd boards: the corner and its diagonal neighbour trade places.
    fn swap(&mut self) {
        if let Some([a, on, b, off]) = self.alt {
            self.next[a] = off;
            self.next[off] = b;
            self.next[on] = usize::MAX;
            self.ord[off] = self.ord[on];
            self.ord[on] = usize::MAX;
            self.alt = Some([a, off, b, on]);
        }
    }

    /// Whether the body spans exactly its own length along the cycle, from
    /// the tail to the head: no free cell between its ends, so it lies along
    /// the cycle. A body laid along another cycle may span fewer cells than
    /// it has (its ends close together on this one): it does not lie along it.
    fn lies_along(&self, instance: &Instance, state: &State) -> bool {
        let head = instance.index(state.body[0]);
        let tail = instance.index(*state.body.back().expect("a body"));
        self.ahead(tail, head) + 1 == state.body.len()
    }
}

/// Follows a tour with shortcuts (see [`tour_plan`]).
struct Follow<'a> {
    instance: &'a Instance,
    walls: Vec<bool>,
    /// Stop when the free cells are this few (the odd board's end).
    stop_free: usize,
    /// Stop also before a move after which [`State::pair_left`] fails
    /// ([`needs_pair`]): the end game must then choose another apple.
    pair_rule: bool,
    free_cells: usize,
}

impl Follow<'_> {
    fn done(&self, state: &State) -> bool {
        state.eaten() == self.instance.apples.len()
            || self.free_cells - state.body.len() <= self.stop_free
    }

    /// Following the tour without shortcuts from `state` never gets stuck
    /// until the game or this phase is over or the body lies along the tour.
    fn safe(&self, tour: &Tour, state: &State) -> bool {
        let mut s = state.clone();
        for _ in 0..4 * self.free_cells {
            if self.done(&s) || tour.lies_along(self.instance, &s) {
                return true;
            }
            let next = tour.next[self.instance.index(s.body[0])];
            if !s.advance(self.instance, &self.walls, self.instance.pos(next)) {
                return false;
            }
        }
        false
    }

    /// The moves along `tour` from `state` until [`Follow::done`], with the
    /// state reached; `None` if stuck or once `stop` fires.
    fn run(&self, mut tour: Tour, mut state: State, stop: &Interrupt) -> Option<(Vec<Pos>, State)> {
        let inst = self.instance;
        let mut path = Vec::new();
        if !self.safe(&tour, &state) {
            return None;
        }
        // Every lap of the tour eats an apple unless one waits off it.
        let cap = (inst.apples.len() + 2) * 2 * self.free_cells;
        while !self.done(&state) {
            if path.len() > cap || (path.len() % 64 == 0 && stop.fired()) {
                return None;
            }
            let in_body = |s: &State, c: usize| s.body.iter().any(|&b| inst.index(b) == c);
            if let Some([_, on, _, off]) = tour.alt
                && state.apple_at(inst, inst.pos(off)).is_some()
                && !in_body(&state, on)
                && !in_body(&state, off)
            {
                tour.swap();
            }
            let head = inst.index(state.body[0]);
            let tail = inst.index(*state.body.back().expect("a body"));
            let to_tail = tour.to_tail(head, tail);
            // Near an odd board's end game, no shortcuts: the body it
            // starts from lies along the tour.
            let calm = self.free_cells - state.body.len() <= self.stop_free + CALM_FREE;
            let target = state
                .waiting
                .iter()
                .copied()
                .map(|i| inst.index(inst.apples[i]))
                .filter(|&c| tour.ord[c] != usize::MAX && !in_body(&state, c))
                .map(|c| tour.ahead(head, c))
                .min()
                .unwrap_or(1);
            let mut moves: Vec<(usize, Pos)> = inst
                .neighbours(state.body[0])
                .filter(|&n| tour.ord[inst.index(n)] != usize::MAX)
                .map(|n| (tour.ahead(head, inst.index(n)), n))
                .filter(|&(d, _)| d >= 1 && d < to_tail && d <= target.max(1) && (d == 1 || !calm))
                .collect();
            moves.sort_unstable_by(|a, b| b.cmp(a));
            let chosen = moves.into_iter().find_map(|(d, n)| {
                let next = state.step(inst, &self.walls, n)?;
                (d == 1 || self.safe(&tour, &next)).then_some((n, next))
            });
            let (n, next) = chosen?;
            if self.pair_rule && !next.pair_left(inst) {
                return Some((path, state));
            }
            path.push(n);
            state = next;
        }
        Some((path, state))
    }
}

/// A depth-first search over the ways of following a tour that skips a
/// reserved segment (each move: the tour's next cell, or a shortcut ahead
/// after which following the tour cannot get stuck), until the body fills
/// the tour, the apples left are the segment's, and the head is beside one
/// of its ends: the segment is then eaten end to end. Backtracking starts
/// at the end of the game, where the choice of the last apples is made.
struct Steer<'a> {
    follow: &'a Follow<'a>,
    tour: &'a Tour,
    /// The reserved segment, end to end.
    kept: &'a [usize],
    /// The tour's [`last_apples`]: once all are eaten, the search stops.
    lasts: &'a [usize],
    /// Stops the search (its deadline, the planner's cancellation).
    stop: Interrupt,
    nodes: usize,
    budget: usize,
    /// Moves allowed in one line of play (every lap eats an apple).
    cap: usize,
    dead: HashSet<State>,
}

impl Steer<'_> {
    fn out_of_budget(&self) -> bool {
        self.nodes >= self.budget || (self.nodes.is_multiple_of(64) && self.stop.fired())
    }

    /// The moves from `state` that end the game, if any.
    fn solve(&mut self, state: &State, depth: usize) -> Option<Vec<Pos>> {
        let inst = self.follow.instance;
        if self.follow.free_cells - state.body.len() <= self.kept.len() {
            return self.finish(state);
        }
        if depth > self.cap
            || self.lasts.iter().all(|&i| state.is_eaten(i))
            || self.out_of_budget()
            || self.dead.contains(state)
        {
            return None;
        }
        self.nodes += 1;
        let tour = self.tour;
        let head = inst.index(state.body[0]);
        let tail = inst.index(*state.body.back().expect("a body"));
        let to_tail = tour.to_tail(head, tail);
        let in_body = |c: usize| state.body.iter().any(|&b| inst.index(b) == c);
        let target = state
            .waiting
            .iter()
            .copied()
            .map(|i| inst.index(inst.apples[i]))
            .filter(|&c| tour.ord[c] != usize::MAX && !in_body(c))
            .map(|c| tour.ahead(head, c))
            .min()
            .unwrap_or(1);
        let mut moves: Vec<(usize, Pos, State)> = inst
            .neighbours(state.body[0])
            .filter(|&n| tour.ord[inst.index(n)] != usize::MAX)
            .map(|n| (tour.ahead(head, inst.index(n)), n))
            .filter(|&(d, _)| d >= 1 && d < to_tail)
            .filter_map(|(d, n)| {
                let next = state.step(inst, &self.follow.walls, n)?;
                (d == 1 || self.follow.safe(tour, &next)).then_some((d, n, next))
            })
            .collect();
        // The follower's choice first (the longest shortcut up to the
        // nearest apple ahead), then the others, longest first.
        moves.sort_unstable_by_key(|m| (m.0 > target.max(1), std::cmp::Reverse(m.0)));
        for (_, n, next) in moves {
            if let Some(rest) = self.solve(&next, depth + 1) {
                return Some(std::iter::once(n).chain(rest).collect());
            }
            if self.out_of_budget() {
                return None;
            }
        }
        self.dead.insert(state.clone());
        None
    }

    /// The body fills the tour: the segment end to end, from the end
    /// beside the head, when its apples are all that is left.
    fn finish(&self, state: &State) -> Option<Vec<Pos>> {
        let inst = self.follow.instance;
        let left: Vec<usize> = state
            .uneaten(inst)
            .map(|i| inst.index(inst.apples[i]))
            .collect();
        if left.len() != self.kept.len() || left.iter().any(|c| !self.kept.contains(c)) {
            return None;
        }
        let head = state.body[0];
        let beside = |c: usize| inst.neighbours(head).any(|n| inst.index(n) == c);
        let mut order: Vec<usize> = self.kept.to_vec();
        if !beside(order[0]) {
            order.reverse();
        }
        if !beside(order[0]) {
            return None;
        }
        let mut s = state.clone();
        let mut path = Vec::new();
        for c in order {
            let p = inst.pos(c);
            if !s.advance(inst, &self.follow.walls, p) {
                return None;
            }
            path.push(p);
        }
        (s.eaten() == inst.apples.len()).then_some(path)
    }
}

/// Search nodes of each [`Steer`] search, one round of tours each (when
/// both rounds fail early, the time left goes to the other searches).
const STEER_NODES: [usize; 2] = [2_000, 20_000];

/// Cells of the boards on which [`reserved_plan`] makes one round only: on
/// 50 generated 5×5 full boards, the 3 plans it found came from the first
/// round (within 0.3 s), the second one took the rest of the tours' time
/// without a plan, and the SAT phases after it find one there (5–8 s).
const SMALL_BOARD: usize = 25;

/// Free cells at which an odd board's end game begins, tried in turn.
const ODD_STOPS: [usize; 8] = [0, 8, 12, 16, 20, 24, 28, 32];

/// Search nodes of each end game's depth-first search.
const ENDGAME_NODES: usize = 2_000;

/// Free cells above an odd board's end game below which the tour is
/// followed without shortcuts.
const CALM_FREE: usize = 8;

/// Plans along Hamiltonian cycles of a wall-free board (every symmetric
/// variant, the shortest plan kept): the snake keeps its body in the
/// cycle's order, so following the cycle is always possible, and takes a
/// shortcut towards the nearest apple ahead when following the cycle from
/// there still cannot get stuck (simulated). On an odd board an apple on
/// the skipped corner is reached by trading the corner for its diagonal
/// neighbour while both are free, and when the apples fill the board the
/// last free cells are left to the depth-first search of [`construct`]
/// (the end is a Hamiltonian path), from earlier states when that fails.
/// These corner tours get half the time on an odd board; when none gives a
/// plan, tours that reserve a segment of apples for the end game follow
/// ([`reserved_plan`]). `None` when the board has walls, the start is not a
/// body, the rules are not the IPC's (strict tail, growth), or no variant
/// gives a plan before `stop` fires (its deadline, the planner's
/// cancellation). The caller checks the plan with the simulator.
pub fn tour_plan(instance: &Instance, stop: &Interrupt) -> Option<Vec<Pos>> {
    tour_plan_on(
        instance,
        Tour::all(instance.width, instance.height),
        true,
        stop,
    )
}

/// [`tour_plan`] along the given tours only; the reserved tours of an odd
/// board only when `reserve` is set.
fn tour_plan_on(
    instance: &Instance,
    tours: Vec<Tour>,
    reserve: bool,
    stop: &Interrupt,
) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    if !instance.walls.is_empty() || instance.tail != TailRule::Strict || !instance.grow {
        return None;
    }
    let start = State::start(instance, body);
    let free_cells = instance.cells();
    let on_tour = |tour: &Tour| {
        body.iter()
            .all(|&c| tour.ord[instance.index(c)] != usize::MAX)
    };
    let tours: Vec<Tour> = tours.into_iter().filter(on_tour).collect();
    let odd = tours.first().is_some_and(|t| t.alt.is_some());
    // The plan along `tour`: followed until `stop_free` free cells are left
    // (each stop in turn), the rest by the end-game search.
    let attempt = |tour: &Tour, stops: &[usize], stop: &Interrupt| {
        for &stop_free in stops {
            let follow = Follow {
                instance,
                walls: instance.wall_map(),
                stop_free,
                pair_rule: needs_pair(instance),
                free_cells,
            };
            let Some((path, state)) = follow.run(tour.clone(), start.clone(), stop) else {
                continue;
            };
            let mut path: Vec<Pos> = std::iter::once(body[0]).chain(path).collect();
            if state.eaten() < instance.apples.len() {
                let mut search = Search {
                    instance,
                    walls: instance.wall_map(),
                    stop: stop.clone(),
                    nodes: 0,
                    budget: ENDGAME_NODES,
                    dead: HashSet::new(),
                    open: HashSet::new(),
                    pair_rule: needs_pair(instance),
                    pockets: (!instance.walls.is_empty()).then(|| Pockets::find(instance)),
                    detour_always: false,
                };
                match search.solve(&state) {
                    Some(rest) => path.extend(rest),
                    None => continue,
                }
            }
            return Some(path);
        }
        None
    };
    let run = || {
        let mut found: Option<Vec<Pos>> = None;
        let stops: &[usize] = if odd { &ODD_STOPS } else { &[0] };
        // On an odd board, half the time at most: the reserved tours follow.
        let corner = if odd && reserve {
            stop.until(stop.deadline.map(|d| {
                let now = Instant::now();
                now + d.saturating_duration_since(now) / 2
            }))
        } else {
            stop.clone()
        };
        for tour in &tours {
            if corner.fired() {
                break;
            }
            if let Some(path) = attempt(tour, stops, &corner)
                && found.as_ref().is_none_or(|b| path.len() < b.len())
            {
                found = Some(path);
            }
        }
        if found.is_some() || !odd || !reserve {
            return found;
        }
        // Odd boards where no corner tour's end game worked.
        reserved_plan(instance, stop)
    };
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, run)
            .ok()?
            .join()
            // A panic is a bug: passed on, not taken for "no plan" (an
            // overflow in a build with overflow checks went unseen so).
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// [`tour_plan`] for a free start (a body before `t = 0` is unconstrained):
/// for each tour, the head on the free cell nearest the first apple that is
/// not a visible apple, and the body the cells behind it along that tour,
/// apples under it or not (they wait until the body leaves them). Moving
/// with that body is moving with fewer constraints than it, so every plan
/// is a plan of the free start. Each body is followed along its own tour
/// first (a sixteenth of the work: 0.5 s against 5–7 s for a random 20x20
/// board with 200 ordered apples), then, while time remains, along every
/// tour as [`tour_plan`] does; the shortest plan is returned, `None` when
/// the start is a body or no tour gives a plan before `stop` fires. The
/// caller checks the plan with the simulator against the free start.
pub fn tour_plan_free(instance: &Instance, stop: &Interrupt) -> Option<Vec<Pos>> {
    let Start::Free { length } = instance.start else {
        return None;
    };
    if !instance.walls.is_empty() || length > instance.cells() {
        return None;
    }
    let visible = &instance.apples[..instance.visible_at_start()];
    let first = instance.apples.first().copied().unwrap_or((0, 0));
    let head = (0..instance.cells())
        .map(|c| instance.pos(c))
        .filter(|p| !visible.contains(p))
        .min_by_key(|p| p.0.abs_diff(first.0) + p.1.abs_diff(first.1))?;
    let h = instance.index(head);
    let along = |tour: &Tour| {
        let mut before = vec![usize::MAX; instance.cells()];
        for (c, &n) in tour.next.iter().enumerate() {
            if n != usize::MAX {
                before[n] = c;
            }
        }
        let body: Vec<Pos> = std::iter::successors(Some(h), |&c| Some(before[c]))
            .take(length)
            .map(|c| instance.pos(c))
            .collect();
        Instance {
            start: Start::Body(body),
            ..instance.clone()
        }
    };
    let tours: Vec<Tour> = Tour::all(instance.width, instance.height)
        .into_iter()
        .filter(|tour| tour.ord[h] != usize::MAX && tour.len >= length)
        .collect();
    let not_late = || !stop.fired();
    // Each body along its own tour first (the plan it was laid for: a
    // sixteenth of the work), then, while time remains, each body along
    // every tour and, on an odd board, the reserved tours. The shortest plan
    // is kept, the earliest found of equal ones.
    let own = tours
        .iter()
        .take_while(|_| not_late())
        .map(|tour| tour_plan_on(&along(tour), vec![tour.clone()], false, stop));
    let any = tours
        .iter()
        .take_while(|_| not_late())
        .map(|tour| tour_plan(&along(tour), stop));
    own.chain(any).flatten().min_by_key(Vec::len)
}

/// Odd full boards: plans along tours that reserve a segment of apples for
/// the end game ([`Tour::reserving`]) or a path fitted to the spawn chain
/// ([`Tour::fitted`]), searched with [`Steer`]; the tours ordered by
/// [`least_waiting`] (those whose end game cannot work left out), every
/// tour with a small search first, then with a larger one; after the first
/// plan, as long again as it took, keeping the shortest plan.
/// Called by [`tour_plan`] on its large stack.
fn reserved_plan(instance: &Instance, stop: &Interrupt) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    let start = State::start(instance, body);
    let free_cells = instance.cells();
    let walls = instance.wall_map();
    // Each tour with its reserved cells and the follower that stops there,
    // kept when the cells are off the body, the start is safe and the end
    // game can work ([`least_waiting`]), the least waiting first.
    let mut reserving: Vec<_> = Tour::fitted(instance, body)
        .into_iter()
        .chain(Tour::reserving(instance.width, instance.height))
        .filter(|(_, kept)| {
            !kept
                .iter()
                .any(|&c| body.iter().any(|&b| instance.index(b) == c))
        })
        .filter_map(|(tour, kept)| {
            let follow = Follow {
                instance,
                walls: walls.clone(),
                stop_free: kept.len(),
                pair_rule: false,
                free_cells,
            };
            if !follow.safe(&tour, &start) {
                return None;
            }
            let lasts = last_apples(instance, &tour, &kept);
            let wait = least_waiting(instance, &lasts, kept.len())?;
            Some((wait, tour, kept, lasts, follow))
        })
        .collect();
    reserving.sort_by_key(|t| t.0);
    // Small boards: one round, the time left goes to the SAT phases.
    let rounds = if free_cells <= SMALL_BOARD {
        &STEER_NODES[..1]
    } else {
        &STEER_NODES[..]
    };
    // After the first plan, as long again for shorter ones.
    let started = Instant::now();
    let mut best: Option<Vec<Pos>> = None;
    let mut until = stop.clone();
    for &budget in rounds {
        for (_, tour, kept, lasts, follow) in &reserving {
            if until.fired() {
                return best;
            }
            let mut steer = Steer {
                follow,
                tour,
                kept,
                lasts,
                stop: until.clone(),
                nodes: 0,
                budget,
                cap: (instance.apples.len() + 2) * 2 * free_cells,
                dead: HashSet::new(),
            };
            if let Some(rest) = steer.solve(&start, 0) {
                let plan: Vec<Pos> = std::iter::once(body[0]).chain(rest).collect();
                if best.is_none() {
                    let again = Instant::now() + started.elapsed();
                    until = stop.until(Some(stop.deadline.map_or(again, |d| d.min(again))));
                }
                if best.as_ref().is_none_or(|b| plan.len() < b.len()) {
                    best = Some(plan);
                }
            }
        }
        if best.is_some() {
            return best;
        }
    }
    best
}

/// Lengths of the segments an odd board's tours reserve for the end game.
const RESERVED: [usize; 3] = [3, 1, 5];

/// Late minority-colour apples beside which [`Tour::fitted`] tries shapes.
const FITTED_LASTS: usize = 6;

/// Shapes [`Tour::fitted`] builds cycles for, best first.
const FITTED_SHAPES: usize = 24;

/// Search nodes of each [`cycle_avoiding`] call.
const CYCLE_NODES: usize = 5_000;

/// Extends `path` (cells, from one end) by neighbours in `allowed` to every
/// simple path of `k` cells, into `out`.
fn paths(
    instance: &Instance,
    allowed: &[bool],
    path: &mut Vec<usize>,
    k: usize,
    out: &mut Vec<Vec<usize>>,
) {
    if path.len() == k {
        out.push(path.clone());
        return;
    }
    let last = *path.last().expect("a path");
    for next in instance.neighbours(instance.pos(last)) {
        let next = instance.index(next);
        if allowed[next] && !path.contains(&next) {
            path.push(next);
            paths(instance, allowed, path, k, out);
            path.pop();
        }
    }
}

/// Apples the snake eats while the apple it eats last before `k` reserved
/// ones, `rank` moves from the end of the spawn chain, waits on the tour (in
/// the chain's order, the others first).
fn waiting(instance: &Instance, rank: usize, k: usize) -> usize {
    (rank + instance.visible_at_start()).saturating_sub(k + 1)
}

/// The apples (indices) that can be the last one eaten before the reserved
/// `kept` (end to end): on the tour, beside an end of `kept`, and able to
/// wait for the others ([`eats_in_time`]). Eating the last of them early
/// ends every hope of the tour's end game.
fn last_apples(instance: &Instance, tour: &Tour, kept: &[usize]) -> Vec<usize> {
    let mask = mask(instance.cells(), kept);
    let ends = [kept[0], kept[kept.len() - 1]];
    (0..instance.apples.len())
        .filter(|&i| {
            let c = instance.index(instance.apples[i]);
            tour.ord[c] != usize::MAX
                && ends.iter().any(|&e| {
                    instance
                        .neighbours(instance.pos(e))
                        .any(|p| instance.index(p) == c)
                })
                && eats_in_time(instance, &mask, c)
        })
        .collect()
}

/// The least [`waiting`] over a tour's [`last_apples`] `lasts` (before `k`
/// reserved cells); `None` when there are none, so its end game cannot work.
fn least_waiting(instance: &Instance, lasts: &[usize], k: usize) -> Option<usize> {
    let n = instance.apples.len();
    lasts.iter().map(|&i| waiting(instance, n - 1 - i, k)).min()
}

/// The `cells` cells as flags, those of `marked` set.
fn mask(cells: usize, marked: &[usize]) -> Vec<bool> {
    let mut mask = vec![false; cells];
    for &c in marked {
        mask[c] = true;
    }
    mask
}

/// Whether the apples off `kept` can all be eaten, `last` after the others,
/// with each one eaten after it appears (in the chain's order but `last`,
/// the order that reveals apples soonest).
fn eats_in_time(instance: &Instance, kept: &[bool], last: usize) -> bool {
    let visible = instance.visible_at_start();
    let mut eaten = 0;
    let mut last_at = None;
    for (i, &a) in instance.apples.iter().enumerate() {
        let a = instance.index(a);
        if kept[a] {
            continue;
        }
        if a == last {
            last_at = Some(i);
            continue;
        }
        if i >= visible + eaten {
            return false;
        }
        eaten += 1;
    }
    last_at.is_some_and(|i| i < visible + eaten)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim;

    fn instance(
        width: usize,
        height: usize,
        body: Vec<Pos>,
        apples: Vec<Pos>,
        visible: usize,
    ) -> Instance {
        Instance {
            width,
            height,
            walls: vec![],
            start: Start::Body(body),
            apples,
            visible,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        }
    }

    #[test]
    fn a_body_lies_along_a_cycle_only_when_it_spans_its_length() {
        // 4x2: the cycle (0,0) (1,0) (2,0) (3,0) (3,1) (2,1) (1,1) (0,1).
        let inst = instance(4, 2, vec![(1, 0), (0, 0)], vec![(3, 1)], 1);
        let order = [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (3, 1),
            (2, 1),
            (1, 1),
            (0, 1),
        ];
        let cells: Vec<usize> = order.iter().map(|&p| inst.index(p)).collect();
        let tour = Tour::along(&cells, 8);
        let state = |body: &[Pos]| State {
            body: body.iter().copied().collect(),
            waiting: vec![0],
            revealed: 1,
        };
        // Head (1,0), tail (0,0): along the cycle.
        assert!(tour.lies_along(&inst, &state(&[(1, 0), (0, 0)])));
        // Head (2,0), tail (0,0) with (1,0) skipped: a free cell between the ends.
        assert!(!tour.lies_along(&inst, &state(&[(2, 0), (1, 1), (0, 1), (0, 0)])));
        // Head (1,0) just after its tail (0,0) on the cycle, the body going
        // round through (1,1) and (0,1): its ends span two cells of the cycle
        // but it has four (in a debug build the span minus the length used
        // to overflow).
        assert!(!tour.lies_along(&inst, &state(&[(1, 0), (1, 1), (0, 1), (0, 0)])));
    }

    #[test]
    fn eats_every_apple_legally() {
        let inst = instance(
            5,
            5,
            vec![(0, 0), (1, 0)],
            vec![(4, 4), (0, 4), (2, 2), (4, 0)],
            2,
        );
        let plan = construct(&inst, 10_000, &Interrupt::default()).expect("a plan");
        let replay = sim::simulate(&inst, &plan).expect("legal");
        assert_eq!(replay.eaten.len(), 4);
    }

    #[test]
    fn fills_a_small_board() {
        // 3x3, length 2 and 7 apples: the last apple fills the board.
        let apples = vec![(2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (1, 1)];
        let inst = instance(3, 3, vec![(0, 0), (1, 0)], apples, 1);
        let plan = construct(&inst, 10_000, &Interrupt::default()).expect("a plan");
        let replay = sim::simulate(&inst, &plan).expect("legal");
        assert_eq!(replay.final_length, 9);
    }

    #[test]
    fn fills_the_ipc_full_boards() {
        // Satisficing problems 4 (6x6) and 19 (8x8): the last apple fills the board.
        for text in [
            include_str!("../../benchmarks/ipc2018-snake/satisficing/instance-4.pddl"),
            include_str!("../../benchmarks/ipc2018-snake/satisficing/instance-19.pddl"),
        ] {
            let inst = crate::pddl::from_pddl(text).unwrap();
            let plan = construct(&inst, 200_000, &Interrupt::default()).expect("a plan");
            let replay = sim::simulate(&inst, &plan).expect("legal");
            assert_eq!(replay.eaten.len(), inst.apples.len());
        }
    }

    #[test]
    fn a_one_cell_snake_follows_the_tours_to_a_full_board() {
        // Ordered apples on every other cell of 6x6, in a seeded shuffle:
        // a one-cell snake's head is its tail, with the whole tour ahead.
        let mut apples: Vec<Pos> = (0..36).map(|c| (c % 6, c / 6)).skip(1).collect();
        let mut seed = 7u64;
        for i in (1..apples.len()).rev() {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            apples.swap(i, (seed >> 33) as usize % (i + 1));
        }
        let inst = instance(6, 6, vec![(0, 0)], apples, 1);
        let plan = tour_plan(&inst, &Interrupt::default()).expect("a plan");
        let replay = sim::simulate(&inst, &plan).expect("legal");
        assert_eq!(replay.final_length, 36);
    }

    #[test]
    fn apples_in_a_pocket_are_eaten_while_the_snake_fits() {
        // 7x5; walls (4,0), (4,1), (6,2), (4,3), (4,4) leave two pockets of
        // 2x2 cells behind (5,2), an apple in the far corner of each. A
        // one-cell snake far left can eat one of them last, but must eat the
        // other early: once longer than four cells it could not leave a
        // pocket. The states that strand it are cut at once, so few nodes
        // suffice.
        let apples = vec![
            (0, 0),
            (0, 4),
            (1, 0),
            (1, 4),
            (2, 0),
            (2, 4),
            (6, 0),
            (6, 4),
        ];
        let mut inst = instance(7, 5, vec![(0, 2)], apples, 8);
        inst.walls = vec![(4, 0), (4, 1), (6, 2), (4, 3), (4, 4)];
        let plan = construct(&inst, 60, &Interrupt::default()).expect("a plan");
        let replay = sim::simulate(&inst, &plan).expect("legal");
        assert_eq!(replay.eaten.len(), 8);
        let pocket = replay.eaten.iter().position(|&(i, _)| i >= 6).unwrap();
        assert!(
            pocket < 3,
            "a pocket's apple among the first three: {:?}",
            replay.eaten
        );
    }

    #[test]
    fn gives_up_without_nodes() {
        let inst = instance(5, 5, vec![(0, 0), (1, 0)], vec![(4, 4)], 1);
        assert_eq!(construct(&inst, 0, &Interrupt::default()), None);
    }

    /// Every tour visits each cell once (all but one on an odd board), along
    /// grid edges, and the odd board's trade gives such a cycle too.
    #[test]
    fn tours_are_cycles_through_the_board() {
        fn check(tour: &Tour, w: usize, h: usize) {
            let cells = w * h;
            assert_eq!(
                tour.len,
                if cells.is_multiple_of(2) {
                    cells
                } else {
                    cells - 1
                }
            );
            let start = (0..cells).find(|&c| tour.next[c] != usize::MAX).unwrap();
            let (mut c, mut seen) = (start, vec![false; cells]);
            for _ in 0..tour.len {
                assert!(!seen[c], "{w}x{h}: cell {c} twice");
                seen[c] = true;
                let n = tour.next[c];
                let (a, b) = ((c % w, c / w), (n % w, n / w));
                assert_eq!(
                    a.0.abs_diff(b.0) + a.1.abs_diff(b.1),
                    1,
                    "{w}x{h}: {a:?}->{b:?}"
                );
                assert_eq!(tour.ord[n], (tour.ord[c] + 1) % tour.len);
                c = n;
            }
            assert_eq!(c, start);
        }
        for w in 2..=7 {
            for h in 2..=7 {
                let tours = Tour::all(w, h);
                assert_eq!(tours.len(), 16, "{w}x{h}");
                for tour in tours {
                    check(&tour, w, h);
                    let mut traded = tour.clone();
                    traded.swap();
                    check(&traded, w, h);
                }
            }
        }
    }

    #[test]
    fn tour_eats_every_apple_on_even_and_odd_boards() {
        // The IPC's 6x6 full board and its 9x9 problem 19, and odd 5x5 full boards.
        for text in [
            include_str!("../../benchmarks/ipc2018-snake/satisficing/instance-4.pddl"),
            include_str!("../../benchmarks/ipc2018-snake/satisficing/instance-19.pddl"),
        ] {
            let inst = crate::pddl::from_pddl(text).unwrap();
            let plan = tour_plan(&inst, &Interrupt::default()).expect("a plan");
            let length = inst.initial_length() + inst.apples.len();
            assert_eq!(sim::simulate(&inst, &plan).unwrap().final_length, length);
        }
        let mut solved = 0;
        for seed in 0..10u64 {
            // All 23 free cells in a seeded order, 5 visible.
            let mut apples: Vec<Pos> = (0..25).map(|c| (c % 5, c / 5)).skip(2).collect();
            let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            for i in (1..apples.len()).rev() {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                apples.swap(i, (state >> 33) as usize % (i + 1));
            }
            let inst = instance(5, 5, vec![(0, 0), (1, 0)], apples, 5);
            if let Some(plan) = tour_plan(&inst, &Interrupt::default()) {
                assert_eq!(sim::simulate(&inst, &plan).unwrap().final_length, 25);
                solved += 1;
            }
        }
        assert_eq!(solved, 10, "{solved} of 10 odd full boards");
    }

    /// Odd full boards from `scripts/gen_snake.py` on which every corner
    /// tour's end game fails (before the reserved tours, no first plan):
    /// the reserved tours give a plan that fills the board, found without a
    /// deadline (the first plan does not depend on the machine; the shorter
    /// ones tried after it, for as long again, may).
    #[test]
    fn reserved_tours_fill_odd_boards_the_corner_tours_cannot() {
        for text in [
            include_str!("../../tests/data/full-boards/5x5-seed10.pddl"),
            include_str!("../../tests/data/full-boards/7x7-seed24.pddl"),
            include_str!("../../tests/data/full-boards/9x9-seed1.pddl"),
        ] {
            let inst = crate::pddl::from_pddl(text).unwrap();
            let plan = std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(STACK_BYTES)
                    .spawn_scoped(scope, || reserved_plan(&inst, &Interrupt::default()))
                    .unwrap()
                    .join()
                    .unwrap()
            })
            .expect("a plan");
            let replay = sim::simulate(&inst, &plan).unwrap();
            assert_eq!(replay.final_length, inst.cells());
        }
    }

    /// A reserved path fitted to the spawn chain that no segment gives: on
    /// the 7×7 full board of seed 34 the best fitted tour reserves five
    /// cells with a turn (an L) beside a late apple, and the search along it
    /// fills the board within the first round's nodes.
    #[test]
    fn fitted_l_shape_fills_a_board() {
        let text = include_str!("../../tests/data/full-boards/7x7-seed34.pddl");
        let inst = crate::pddl::from_pddl(text).unwrap();
        let Start::Body(body) = &inst.start else {
            panic!("a body")
        };
        let tours = Tour::fitted(&inst, body);
        let (tour, kept) = &tours[0];
        assert_eq!(kept.len(), 5);
        for pair in kept.windows(2) {
            let (a, b) = (inst.pos(pair[0]), inst.pos(pair[1]));
            assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1, "{kept:?}");
        }
        let straight =
            |f: fn(Pos) -> usize| kept.iter().all(|&c| f(inst.pos(c)) == f(inst.pos(kept[0])));
        assert!(!straight(|p| p.0) && !straight(|p| p.1), "{kept:?}");
        assert_eq!(tour.len, 49 - 5);
        let follow = Follow {
            instance: &inst,
            walls: inst.wall_map(),
            stop_free: kept.len(),
            pair_rule: false,
            free_cells: inst.cells(),
        };
        let start = State::start(&inst, body);
        let lasts = last_apples(&inst, tour, kept);
        let mut steer = Steer {
            follow: &follow,
            tour,
            kept,
            lasts: &lasts,
            stop: Interrupt::default(),
            nodes: 0,
            budget: STEER_NODES[0],
            cap: (inst.apples.len() + 2) * 2 * inst.cells(),
            dead: HashSet::new(),
        };
        let rest = std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(STACK_BYTES)
                .spawn_scoped(scope, || steer.solve(&start, 0))
                .unwrap()
                .join()
                .unwrap()
        })
        .expect("a plan");
        let plan: Vec<Pos> = std::iter::once(body[0]).chain(rest).collect();
        assert_eq!(sim::simulate(&inst, &plan).unwrap().final_length, 49);
    }

    /// The search along a reserved tour ends by eating the segment from the
    /// end beside the head: on a 5×5 board with one apple left on the
    /// reserved corner, the head beside it eats it.
    #[test]
    fn steer_finishes_on_the_reserved_segment() {
        // The tour through every cell but the corner (0, 0); the body fills it.
        let order = cycle_without(5, 5, (0, 0), 1).unwrap();
        let tour = Tour::along(&order, 25);
        let head = [(1, 0), (0, 1)]
            .into_iter()
            .find(|&(x, y)| {
                let c = y * 5 + x;
                tour.next[c] != usize::MAX
            })
            .unwrap();
        // Body: from `head` backwards along the tour, 24 cells.
        let mut body = vec![head];
        let mut prev = [usize::MAX; 25];
        for &c in &order {
            prev[tour.next[c]] = c;
        }
        while body.len() < 24 {
            let (x, y) = *body.last().unwrap();
            let p = prev[y * 5 + x];
            body.push((p % 5, p / 5));
        }
        let inst = instance(5, 5, body.clone(), vec![(0, 0)], 1);
        let follow = Follow {
            instance: &inst,
            walls: inst.wall_map(),
            stop_free: 1,
            pair_rule: false,
            free_cells: 25,
        };
        // A small search along `tour` keeping the corner for the end.
        fn steer<'a>(follow: &'a Follow<'a>, tour: &'a Tour, lasts: &'a [usize]) -> Steer<'a> {
            Steer {
                follow,
                tour,
                kept: &[0],
                lasts,
                stop: Interrupt::default(),
                nodes: 0,
                budget: 10,
                cap: 100,
                dead: HashSet::new(),
            }
        }
        let state = State {
            body: body.iter().copied().collect(),
            waiting: vec![0],
            revealed: 1,
        };
        let lasts = last_apples(&inst, &tour, &[0]);
        assert_eq!(
            steer(&follow, &tour, &lasts).solve(&state, 0),
            Some(vec![(0, 0)])
        );
        // With the apple elsewhere (under the body), the segment is not all that is left.
        let inst = instance(5, 5, body.clone(), vec![body[5]], 1);
        let follow = Follow {
            instance: &inst,
            ..follow
        };
        let lasts = last_apples(&inst, &tour, &[0]);
        assert_eq!(steer(&follow, &tour, &lasts).solve(&state, 0), None);
    }
}
