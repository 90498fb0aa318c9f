//! A first plan without SAT: eat the apples one at a time along shortest
//! paths that respect the moving body, keeping only moves after which the
//! head can still reach its tail, with backtracking over the choices.
//!
//! A state is the body (head first), the snake's length and the apples eaten.
//! From a state, a breadth-first search over the grid knows when each body
//! cell frees up (the tail leaves a cell `length − i` moves later, one more
//! under the strict rule), so it finds the earliest arrival at every cell
//! without eating on the way. Each reachable apple on the board is a choice,
//! nearest first; a choice is *safe* when, after it, the game is over or the
//! head can still reach the tail's cell. Safe choices come first, then the
//! others, depth first, within a node budget and a deadline. When the free
//! cells left are few (the end of a full board is a Hamiltonian-path
//! problem), the search goes one move at a time instead. Every plan it
//! returns is replayed by [`crate::sim`] by the caller; it only proposes.

use std::collections::{HashSet, VecDeque};
use std::time::Instant;

use crate::geometry::Direction;
use crate::instance::{Instance, Pos, Start, TailRule};

/// Free cells (not body) at or below which the search goes move by move.
const ENDGAME_FREE: usize = 12;

/// Stack of the search thread.
const STACK_BYTES: usize = 256 << 20;

/// The game state the search walks.
#[derive(Clone, PartialEq, Eq, Hash)]
struct State {
    /// Body cells, head first (`length` of them).
    body: VecDeque<Pos>,
    /// Apples eaten so far (a prefix count; the set is `taken`).
    taken: Vec<bool>,
    /// Apples revealed so far.
    revealed: usize,
}

/// The search: instance, budget and the states already found to dead-end.
struct Search<'a> {
    instance: &'a Instance,
    walls: Vec<bool>,
    deadline: Option<Instant>,
    nodes: usize,
    budget: usize,
    dead: HashSet<State>,
    /// States on the current search path (no cycles).
    open: HashSet<State>,
}

impl State {
    fn eaten(&self) -> usize {
        self.taken.iter().filter(|&&e| e).count()
    }

    /// The uneaten revealed apple on `cell`, if any.
    fn apple_at(&self, instance: &Instance, cell: Pos) -> Option<usize> {
        (0..self.revealed).find(|&i| !self.taken[i] && instance.apples[i] == cell)
    }

    /// Moves the head to the adjacent `next`, or `None` if that bites the
    /// body. Eating grows the snake and reveals the next apple.
    fn step(&self, instance: &Instance, walls: &[bool], next: Pos) -> Option<State> {
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
        let mut s = self.clone();
        s.body.push_front(next);
        s.body.truncate(new_length);
        if let Some(i) = apple {
            s.taken[i] = true;
            s.revealed = (s.revealed + 1).min(instance.apples.len());
        }
        Some(s)
    }

    /// Earliest arrival (moves) at every cell without eating on the way, and
    /// the cell each arrival came from; `avoid` cells (other apples) are not
    /// entered.
    fn arrivals(
        &self,
        instance: &Instance,
        walls: &[bool],
        avoid: &[bool],
    ) -> (Vec<usize>, Vec<usize>) {
        let cells = instance.cells();
        let length = self.body.len();
        let extra = usize::from(instance.tail == TailRule::Strict);
        // The first move at which each body cell may be entered.
        let mut free_at = vec![0usize; cells];
        for (i, &c) in self.body.iter().enumerate() {
            free_at[instance.index(c)] = length - i + extra;
        }
        let mut dist = vec![usize::MAX; cells];
        let mut from = vec![usize::MAX; cells];
        let head = instance.index(self.body[0]);
        dist[head] = 0;
        let mut queue = VecDeque::from([head]);
        while let Some(c) = queue.pop_front() {
            let d = dist[c];
            if d > 0 && avoid[c] {
                continue;
            }
            for q in instance.neighbours(instance.pos(c)) {
                let qi = instance.index(q);
                if walls[qi] || dist[qi] != usize::MAX || d + 1 < free_at[qi] {
                    continue;
                }
                dist[qi] = d + 1;
                from[qi] = c;
                queue.push_back(qi);
            }
        }
        (dist, from)
    }
}

impl Search<'_> {
    fn out_of_budget(&self) -> bool {
        self.nodes >= self.budget || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// A path (cells after the head) from `state` that eats every apple.
    /// `idle`: moves since the last apple (the move-by-move search gives up
    /// after as many moves as there are cells).
    fn solve(&mut self, state: &State, idle: usize) -> Option<Vec<Pos>> {
        let n = self.instance.apples.len();
        if state.eaten() == n {
            return Some(Vec::new());
        }
        if idle > self.instance.cells()
            || self.out_of_budget()
            || self.dead.contains(state)
            || self.open.contains(state)
        {
            return None;
        }
        self.nodes += 1;
        self.open.insert(state.clone());
        let free = self.walls.iter().filter(|&&w| !w).count();
        let found = if free - state.body.len() <= ENDGAME_FREE {
            self.by_moves(state, idle)
        } else {
            self.by_apples(state)
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
        let cells = inst.cells();
        let mut apple_cell = vec![false; cells];
        for i in (0..state.revealed).filter(|&i| !state.taken[i]) {
            apple_cell[inst.index(inst.apples[i])] = true;
        }
        let (dist, from) = state.arrivals(inst, &self.walls, &apple_cell);
        let mut targets: Vec<(usize, usize)> = (0..cells)
            .filter(|&c| apple_cell[c] && dist[c] != usize::MAX)
            .map(|c| (dist[c], c))
            .collect();
        targets.sort_unstable();
        let mut candidates = Vec::new();
        for &(_, target) in &targets {
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
        for (_, path, next) in candidates {
            if let Some(rest) = self.solve(&next, 0) {
                return Some(path.into_iter().chain(rest).collect());
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
                let (dist, _) = next.arrivals(inst, &self.walls, &none);
                let mut nearest = usize::MAX;
                for i in (0..next.revealed).filter(|&i| !next.taken[i]) {
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
        for (_, p, next) in moves {
            let idle = if next.eaten() > state.eaten() {
                0
            } else {
                idle + 1
            };
            if let Some(rest) = self.solve(&next, idle) {
                return Some(std::iter::once(p).chain(rest).collect());
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
        let none = vec![false; self.instance.cells()];
        let (dist, _) = state.arrivals(self.instance, &self.walls, &none);
        let tail = *state.body.back().expect("a body");
        dist[self.instance.index(tail)] != usize::MAX
    }
}

/// A plan (head cells from `t = 0`) that eats every apple, found within
/// `budget` search nodes and the deadline; `None` if the search gave up or
/// the start is not a fixed body. The caller checks it with the simulator.
pub fn construct(
    instance: &Instance,
    budget: usize,
    deadline: Option<Instant>,
) -> Option<Vec<Pos>> {
    let Start::Body(body) = &instance.start else {
        return None;
    };
    let state = State {
        body: body.iter().copied().collect(),
        taken: vec![false; instance.apples.len()],
        revealed: instance.visible_at_start(),
    };
    let mut search = Search {
        instance,
        walls: instance.wall_map(),
        deadline,
        nodes: 0,
        budget,
        dead: HashSet::new(),
        open: HashSet::new(),
    };
    // Deep searches (one frame per move at the end): a thread with a large stack.
    let rest = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(scope, || search.solve(&state, 0))
            .ok()?
            .join()
            .ok()?
    })?;
    Some(std::iter::once(body[0]).chain(rest).collect())
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
    fn eats_every_apple_legally() {
        let inst = instance(
            5,
            5,
            vec![(0, 0), (1, 0)],
            vec![(4, 4), (0, 4), (2, 2), (4, 0)],
            2,
        );
        let plan = construct(&inst, 10_000, None).expect("a plan");
        let replay = sim::simulate(&inst, &plan).expect("legal");
        assert_eq!(replay.eaten.len(), 4);
    }

    #[test]
    fn fills_a_small_board() {
        // 3x3, length 2 and 7 apples: the last apple fills the board.
        let apples = vec![(2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1), (1, 1)];
        let inst = instance(3, 3, vec![(0, 0), (1, 0)], apples, 1);
        let plan = construct(&inst, 10_000, None).expect("a plan");
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
            let plan = construct(&inst, 200_000, None).expect("a plan");
            let replay = sim::simulate(&inst, &plan).expect("legal");
            assert_eq!(replay.eaten.len(), inst.apples.len());
        }
    }

    #[test]
    fn gives_up_without_nodes() {
        let inst = instance(5, 5, vec![(0, 0), (1, 0)], vec![(4, 4)], 1);
        assert_eq!(construct(&inst, 0, None), None);
    }
}
