//! Routes for a moving snake: the shortest head path to a cell when body
//! cells free up as the tail moves on (breadth first; a lower bound on any
//! legal path, and usually a legal path itself), the legal paths to it
//! length by length (depth first, within a node budget), and a quick
//! screen of the body a path leaves before the solver is asked to certify it.

use super::Grid;
use super::padded::{Marks, Padded};
use super::pieces::Pieces;
use crate::geometry::NeighbourTable;

/// A shortest head path from the snake's head to `target`, as the cells
/// entered (the target last), or `None` if no path reaches it.
///
/// `body` is head first. Under the follow tail rule the cell `body[j]` can be
/// entered from step `len − j` on, when the tail has left it; with
/// `vacating` off, body cells stay blocked for good. The search does not see
/// the cells the path itself occupies, so its length is a lower bound on every
/// legal path; [`is_legal`] tells whether the path found is one.
pub fn shortest(grid: &Grid, body: &[usize], target: usize, vacating: bool) -> Option<Vec<usize>> {
    let len = body.len();
    let mut opens_at = vec![0usize; grid.cells()];
    for (j, &cell) in body.iter().enumerate() {
        opens_at[cell] = if vacating { len - j } else { usize::MAX };
    }
    // The cells reached at each step, with the cell of the step before that
    // reached them first: `(cell, parent)` pairs, step `t`'s from
    // `levels[t - 1]` on (one buffer, no table of every cell per step).
    let mut links: Vec<(u32, u32)> = Vec::new();
    let mut levels: Vec<usize> = Vec::new();
    let mut frontier = vec![body[0]];
    let mut next = Vec::new();
    let mut reached_before: [Vec<usize>; 2] = [vec![], vec![]];
    let mut on_level = vec![usize::MAX; grid.cells()];
    for step in 1.. {
        levels.push(links.len());
        for &from in &frontier {
            for to in grid.neighbours(from) {
                if opens_at[to] > step {
                    continue;
                }
                if on_level[to] != step {
                    on_level[to] = step;
                    links.push((to as u32, from as u32));
                    next.push(to);
                }
            }
        }
        if on_level[target] == step {
            let mut path = vec![target];
            let mut cell = target as u32;
            for t in (1..step).rev() {
                let level = &links[levels[t]..levels.get(t + 1).copied().unwrap_or(links.len())];
                cell = level
                    .iter()
                    .find(|&&(to, _)| to == cell)
                    .expect("a reached cell has a parent")
                    .1;
                path.push(cell as usize);
            }
            path.reverse();
            return Some(path);
        }
        // Any cell reached at step t is reached again at t + 2 (back and
        // forth), so the same parity's set only grows; once it stops growing
        // and every body cell is open, the target is out of reach.
        next.sort_unstable();
        let same_parity = &mut reached_before[step % 2];
        if next.is_empty() || (*same_parity == next && step > len) {
            return None;
        }
        same_parity.clone_from(&next);
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    unreachable!("the loop returns")
}

/// Whether the head path `path` (cells entered, the apple last) is legal for
/// a snake with `body` (head first) that grows only on the last step: the
/// head never enters a cell it left fewer than `len` steps before.
pub fn is_legal(grid: &Grid, body: &[usize], path: &[usize]) -> bool {
    let len = body.len();
    // last[cell] = the time the head was last there (body[j] at time −j).
    let mut last = vec![i64::MIN / 2; grid.cells()];
    for (j, &cell) in body.iter().enumerate() {
        last[cell] = -(j as i64);
    }
    let mut head = body[0];
    for (t, &cell) in path.iter().enumerate() {
        let t = t as i64 + 1;
        if !grid.adjacent(head, cell) || t - last[cell] < len as i64 {
            return false;
        }
        last[cell] = t;
        head = cell;
    }
    true
}

/// The least legal head path to `target` for a snake whose `body` (head
/// first) fills every cell but `target`, or `None` if it has none. Only
/// `target` and the tail's cell (left as the head enters it) can be entered,
/// so the head follows its own body, if its tail is next to it, until
/// `target` is next to the head; after `body.len()` such moves the snake is
/// back where it started.
pub fn filling_path(grid: &Grid, body: &[usize], target: usize) -> Option<Vec<usize>> {
    let len = body.len();
    let mut path = Vec::new();
    for step in 0..len {
        // After `step` moves the head is at `body[len − step]` (the start
        // for 0) and the tail at `body[len − 1 − step]`.
        let head = body[(len - step) % len];
        if grid.adjacent(head, target) {
            path.push(target);
            return Some(path);
        }
        let tail = body[len - 1 - step];
        if !grid.adjacent(head, tail) {
            return None;
        }
        path.push(tail);
    }
    None
}

/// The quick screen: a necessary condition for a certificate of a body
/// (head first), which the body is then called *plausible*: the cells off
/// the body (its head and tail count as off it) are connected, each free
/// cell has two neighbours among them, and no one of them splits the others
/// when taken away, with the head and the tail joined (the body between
/// them): the certificate is a Hamiltonian cycle through them and that
/// edge, so they must be 2-connected. (Without the last test most searched
/// paths passing it could not be certified: on 20x20 seed 1, 43 of 49 from
/// the snake's head.) Always true on boards with an odd number of cells,
/// where the certificate may skip a cell.
///
/// The padded board and the search's arrays are allocated once, for many
/// bodies on one board, and each call only closes the body's cells (and
/// opens them again), so a call costs the search alone, not a pass over the
/// whole board.
pub(crate) struct Screen {
    /// Open: every board cell, but during a call the body's.
    board: Padded,
    /// The cells reached in this call.
    reached_in: Marks,
    /// Tarjan's order and low point of each cell reached in this call.
    order: Vec<u32>,
    low: Vec<u32>,
    /// (cell, its parent, the index of its next neighbour to look at)
    stack: Vec<(usize, usize, u8)>,
    /// The cells reached in this call, in the order reached (a cell's
    /// place here is its order).
    reached: Vec<usize>,
    /// After a refusal for a cut vertex: that vertex, and where in
    /// `reached` the cells it cuts off from the head begin (they run to the end).
    cut: Option<(usize, usize)>,
}

impl Screen {
    /// A screen for bodies on `grid`.
    pub(crate) fn new(grid: &Grid) -> Screen {
        let board = Padded::new(grid);
        let size = board.open.len();
        Screen {
            reached_in: Marks::new(&board),
            board,
            order: vec![0; size],
            low: vec![0; size],
            stack: Vec::new(),
            reached: Vec::new(),
            cut: None,
        }
    }

    /// Whether `body` (head first) is plausible on this screen's board.
    pub(crate) fn passes(&mut self, body: &[usize]) -> bool {
        self.cut = None;
        if self.board.grid.cells() % 2 == 1 || body.len() < 2 {
            return true;
        }
        let interior = &body[1..body.len() - 1];
        for &c in interior {
            let p = self.board.index(c);
            self.board.open[p] = false;
        }
        let verdict = self.two_connected(body);
        for &c in interior {
            let p = self.board.index(c);
            self.board.open[p] = true;
        }
        verdict
    }

    /// Whether the open cells, with the head and the tail of `body` joined,
    /// are connected and have no cut vertex (the body's interior closed).
    fn two_connected(&mut self, body: &[usize]) -> bool {
        self.reached_in.clear();
        let Screen {
            board,
            reached_in,
            order,
            low,
            stack,
            reached,
            cut,
        } = self;
        let (head, tail) = (board.index(body[0]), board.index(body[body.len() - 1]));
        let row = board.row;
        let steps = [1, row.wrapping_neg(), 1usize.wrapping_neg(), row];
        // The `i`th neighbour of `c` (the four sides, then the body's edge), if open.
        let neighbour = |c: usize, i: u8| match i {
            0..4 => Some(c.wrapping_add(steps[i as usize])).filter(|&n| board.open[n]),
            _ if c == head => Some(tail),
            _ => Some(head).filter(|_| c == tail),
        };
        // Tarjan's low points from the head, with an explicit stack (a 64x64
        // board is too deep for recursion): the open cells must all be reached
        // and none may be a cut vertex (which a free cell with one open
        // neighbour also makes of that neighbour).
        reached_in.insert(head);
        order[head] = 0;
        low[head] = 0;
        reached.clear();
        reached.push(head);
        let mut root_children = 0;
        stack.clear();
        stack.push((head, usize::MAX, 0));
        while let Some(top) = stack.last_mut() {
            let (c, parent) = (top.0, top.1);
            if top.2 <= 4 {
                top.2 += 1;
                let Some(n) = neighbour(c, top.2 - 1) else {
                    continue;
                };
                if !reached_in.contains(n) {
                    reached_in.insert(n);
                    order[n] = reached.len() as u32;
                    low[n] = order[n];
                    reached.push(n);
                    stack.push((n, c, 0));
                } else if n != parent {
                    low[c] = low[c].min(order[n]);
                }
                continue;
            }
            stack.pop();
            if parent == usize::MAX {
                continue;
            }
            low[parent] = low[parent].min(low[c]);
            if parent == head {
                root_children += 1;
            } else if low[c] >= order[parent] {
                // (`c` has just finished: every cell reached after it is
                // below it, and none of them reaches above `parent`.)
                *cut = Some((parent, order[c] as usize));
                return false;
            }
        }
        root_children < 2 && reached.len() == board.grid.cells() + 2 - body.len()
    }
}

/// The [`Screen`] for the bodies that many paths leave from one snake: a
/// body whose free cells fall into two pieces or more fails it (its graph,
/// those cells with the head and the tail joined, is not 2-connected then),
/// which [`Pieces`] finds in a fraction of the [`Screen`]'s time; the others
/// go to the screen. When the screen refuses a body for a cut vertex, the
/// next paths are refused without it while no cell they change lies among
/// the cells that vertex cut off, their neighbours or the vertex itself:
/// the vertex then still cuts those cells off (from the head, and from the
/// tail, which is not among them). On 30x30 that saves about a quarter of
/// the screen's time; the games are the same.
struct PathScreen<'a> {
    snake: &'a [usize],
    /// Whether the count applies: on a board with an even number of cells
    /// (on others every body passes), and with more than two cells off the
    /// body (two pieces can pass: the head and the tail, joined by the
    /// body's edge).
    count: bool,
    pieces: Pieces,
    screen: Screen,
    /// The body a path leaves.
    after: Vec<usize>,
    /// The path asked about before.
    previous: Vec<usize>,
    /// The length of the paths for which the last cut vertex the screen
    /// found still cuts the free cells, while no cell in `guard` changes.
    cut_length: Option<usize>,
    /// That vertex, the cells it cut off and their neighbours.
    guard: Marks,
}

impl<'a> PathScreen<'a> {
    fn new(grid: &Grid, snake: &'a [usize]) -> Self {
        let screen = Screen::new(grid);
        PathScreen {
            snake,
            count: grid.cells().is_multiple_of(2) && snake.len() + 1 < grid.cells(),
            pieces: Pieces::new(grid),
            guard: Marks::new(&screen.board),
            screen,
            after: Vec::with_capacity(snake.len() + 1),
            previous: Vec::new(),
            cut_length: None,
        }
    }

    /// Whether the body the snake leaves after `path` is plausible ([`Screen`]).
    fn passes(&mut self, path: &[usize]) -> bool {
        // The screen's last cut vertex still cuts the same cells off from the
        // head if no cell near them has changed since (the search's paths
        // differ from the one before only after a shared prefix).
        let shared = super::shared_prefix(&self.previous, path);
        if let Some(k) = self.cut_length
            && (k != path.len()
                || (self.previous[shared..].iter().chain(&path[shared..]))
                    .any(|&c| self.guard.contains(self.screen.board.index(c))))
        {
            self.cut_length = None;
        }
        self.previous.clear();
        self.previous.extend_from_slice(path);
        if self.cut_length.is_some() {
            return false;
        }
        if self.count && self.pieces.count(self.snake, path) > 1 {
            return false;
        }
        super::body_after_into(self.snake, path, &mut self.after);
        let passes = self.screen.passes(&self.after);
        if let Some((vertex, from)) = self.screen.cut {
            self.mark_guard(vertex, from);
            self.cut_length = Some(path.len());
        }
        passes
    }

    /// Marks `vertex` and the cells the screen last reached from place
    /// `from` on (those it cut off), with their neighbours, as the guard.
    fn mark_guard(&mut self, vertex: usize, from: usize) {
        self.guard.clear();
        let row = self.screen.board.row;
        self.guard.insert(vertex);
        for &c in &self.screen.reached[from..] {
            for n in [c, c - 1, c + 1, c - row, c + row] {
                self.guard.insert(n);
            }
        }
    }
}

/// Legal head paths from the snake's head to `target` (the [`is_legal`]
/// rules: the body frees up as the tail moves, the apple is entered only by
/// the last move), found by a depth-first search for each length from
/// `lower` up, two moves at a time, below `limit`. `lower` is the length of
/// the moving snake's shortest path to `target` ([`shortest`], which the
/// caller has already run: no legal path is shorter, and every one has its
/// parity). Each
/// complete path goes to `visit` (lengths ascending), which returns `true`
/// to stop. The search expands at most `budget` nodes in all and a quarter
/// of them per length, so one crowded length does not starve the longer
/// ones; it returns the nodes expanded.
///
/// A branch is cut when the apple is farther than the moves left (the
/// distance over the cells that can be open in time), and, where
/// the [`Screen`] judges the body the path leaves, when the path walls off a
/// free cell: a free neighbour of the head with no other open neighbour
/// would be a dead end, and one with a single other open neighbour must be
/// entered next. Moves that keep to walls, the body and the path itself
/// are tried first (they leave the free cells in one piece).
pub fn enumerate(
    grid: &Grid,
    body: &[usize],
    target: usize,
    lower: usize,
    limit: usize,
    budget: usize,
    mut visit: impl FnMut(&[usize]) -> bool,
) -> usize {
    let mut spent = 0;
    let mut k = lower;
    let around = NeighbourTable::new(*grid);
    while k < limit && spent < budget {
        let share = (budget / 4).max(1).min(budget - spent);
        let mut dfs = Dfs::new(&around, body, target, k, share);
        let stop = dfs.extend(body[0], &mut visit);
        spent += dfs.nodes;
        if stop {
            break;
        }
        k += 2;
    }
    spent
}

/// Up to `want` paths from [`enumerate`] that pass the [`Screen`], shortest
/// first (`lower` and the budget as there).
pub fn plausible_paths(
    grid: &Grid,
    body: &[usize],
    target: usize,
    lower: usize,
    limit: usize,
    budget: usize,
    want: usize,
) -> Vec<Vec<usize>> {
    let mut found = Vec::new();
    let mut screen = PathScreen::new(grid, body);
    enumerate(grid, body, target, lower, limit, budget, |path| {
        if screen.passes(path) {
            found.push(path.to_vec());
        }
        found.len() >= want
    });
    found
}

/// One length's depth-first search in [`enumerate`].
struct Dfs<'a> {
    around: &'a NeighbourTable,
    len: usize,
    target: usize,
    /// The path's length.
    k: usize,
    /// Nodes this search may expand.
    budget: usize,
    nodes: usize,
    /// When the head was last at each cell (`body[j]` at time `−j`).
    last: Vec<i64>,
    /// Moves from each cell to the target over the cells that can be open
    /// before the last move (a lower bound).
    distance: Vec<usize>,
    /// The cells inside the body the path leaves (the [`Screen`]'s closed
    /// cells: neither its head nor its tail), as far as known.
    closed: Vec<bool>,
    /// Whether dead ends cut branches (see [`enumerate`]).
    prune: bool,
    /// The tail of the body the path leaves (open, and no dead end).
    tail: Option<usize>,
    path: Vec<usize>,
}

impl<'a> Dfs<'a> {
    fn new(
        around: &'a NeighbourTable,
        body: &[usize],
        target: usize,
        k: usize,
        budget: usize,
    ) -> Self {
        let (cells, len) = (around.cells(), body.len());
        let mut last = vec![i64::MIN / 2; cells];
        let mut open_from = vec![0; cells];
        for (j, &cell) in body.iter().enumerate() {
            last[cell] = -(j as i64);
            open_from[cell] = len - j;
        }
        let mut distance = vec![usize::MAX; cells];
        distance[target] = 0;
        let mut queue = std::collections::VecDeque::from([target]);
        while let Some(c) = queue.pop_front() {
            for &n in around.around(c) {
                if distance[n] == usize::MAX && open_from[n] < k {
                    distance[n] = distance[c] + 1;
                    queue.push_back(n);
                }
            }
        }
        // The body left after k < len moves is the path (the target its
        // head) and body[..=len − k] (body[len − k] its tail).
        let prune = cells.is_multiple_of(2) && k < len;
        let mut closed = vec![false; cells];
        for &c in &body[..len.saturating_sub(k)] {
            closed[c] = true;
        }
        Dfs {
            around,
            len,
            target,
            k,
            budget,
            nodes: 0,
            last,
            distance,
            closed,
            prune,
            tail: prune.then(|| body[len - k]),
            path: Vec::with_capacity(k),
        }
    }

    /// Extends the path from `head`; `true` once `visit` asks to stop.
    fn extend(&mut self, head: usize, visit: &mut impl FnMut(&[usize]) -> bool) -> bool {
        if self.nodes >= self.budget {
            return false;
        }
        self.nodes += 1;
        let t = self.path.len();
        if t == self.k {
            return head == self.target && visit(&self.path);
        }
        let around = self.around;
        // A free neighbour of the head left with one open neighbour must be
        // entered now; with none, it is a dead end whatever comes next.
        let mut forced = None;
        if self.prune {
            for &m in around.around(head) {
                if self.closed[m] || m == self.target || Some(m) == self.tail {
                    continue;
                }
                let open = around
                    .around(m)
                    .iter()
                    .filter(|&&n| n != head && !self.closed[n]);
                match open.count() {
                    0 => return false,
                    1 if forced.is_some() => return false,
                    1 => forced = Some(m),
                    _ => {}
                }
            }
        }
        let step = t as i64 + 1;
        let moves_left = self.k - t - 1;
        // (At most four moves: a fixed array, no allocation per node.)
        let mut next = [(0, 0); 4];
        let mut count = 0;
        for &n in around.around(head).iter().filter(|&&n| {
            forced.is_none_or(|f| f == n)
                && (n == self.target) == (moves_left == 0)
                && step - self.last[n] >= self.len as i64
                && self.distance[n] <= moves_left
        }) {
            let open = around
                .around(n)
                .iter()
                .filter(|&&m| m != head && !self.closed[m]);
            next[count] = (open.count(), n);
            count += 1;
        }
        // Fewest open neighbours first: along walls, the body and the path.
        let next = &mut next[..count];
        next.sort_by_key(|&(open, _)| open);
        for &(_, n) in next.iter() {
            let (last, closed) = (self.last[n], self.closed[n]);
            self.last[n] = step;
            self.closed[n] = n != self.target;
            self.path.push(n);
            let stop = self.extend(n, visit);
            self.path.pop();
            self.last[n] = last;
            self.closed[n] = closed;
            if stop {
                return true;
            }
        }
        false
    }
}

/// The cells within Manhattan distance `radius` of `head` or of a cell of `path`.
pub fn band(grid: &Grid, head: usize, path: &[usize], radius: usize) -> Vec<bool> {
    let mut inside = vec![false; grid.cells()];
    for &c in std::iter::once(&head).chain(path) {
        let (x, y) = grid.pos(c);
        for ny in y.saturating_sub(radius)..=(y + radius).min(grid.height - 1) {
            let dy = ny.abs_diff(y);
            let rx = radius - dy;
            for nx in x.saturating_sub(rx)..=(x + rx).min(grid.width - 1) {
                inside[grid.index((nx, ny))] = true;
            }
        }
    }
    inside
}

#[cfg(test)]
mod tests {
    /// Whether `body` (head first) passes a fresh [`Screen`].
    fn plausible(grid: &Grid, body: &[usize]) -> bool {
        Screen::new(grid).passes(body)
    }

    use super::*;

    #[test]
    fn straight_line_on_an_empty_board() {
        let grid = Grid::new(5, 5);
        let path = shortest(&grid, &[0], 24, true).unwrap();
        assert_eq!(path.len(), 8);
        assert!(is_legal(&grid, &[0], &path));
    }

    #[test]
    fn a_vacated_tail_cell_is_a_shortcut() {
        // 3x3, body head first: (0,1) (0,0) (1,0) (2,0) (2,1); the apple at (2,2).
        let grid = Grid::new(3, 3);
        let body = [3, 0, 1, 2, 5];
        let through_free = shortest(&grid, &body, 8, false).unwrap();
        assert_eq!(through_free.len(), 3);
        let moving = shortest(&grid, &body, 8, true).unwrap();
        assert_eq!(moving.len(), 3);
        // Blocked for good: the apple at (2,0) is behind the body.
        assert_eq!(shortest(&grid, &body, 2, false), None);
        // Moving, (2,0) opens when the tail has left it.
        let opened = shortest(&grid, &body, 2, true).unwrap();
        assert!(is_legal(&grid, &body, &opened));
    }

    #[test]
    fn a_board_filling_snake_follows_its_body_to_the_last_cell() {
        // Review 12a's 7x5 position: 34 cells of 35, the apple on the free
        // cell (0,4); the breadth-first path is no legal one, and the least
        // legal path follows the body round for 13 moves, then eats.
        let grid = Grid::new(7, 5);
        let body: Vec<usize> = [
            (5, 3),
            (5, 2),
            (5, 1),
            (4, 1),
            (4, 2),
            (3, 2),
            (3, 1),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (6, 1),
            (6, 2),
            (6, 3),
            (6, 4),
            (5, 4),
            (4, 4),
            (3, 4),
            (2, 4),
            (1, 4),
            (1, 3),
            (0, 3),
            (0, 2),
            (1, 2),
            (1, 1),
            (0, 1),
            (0, 0),
            (1, 0),
            (2, 0),
            (2, 1),
            (2, 2),
            (2, 3),
            (3, 3),
            (4, 3),
        ]
        .iter()
        .map(|&p| grid.index(p))
        .collect();
        let apple = grid.index((0, 4));
        let lower = shortest(&grid, &body, apple, true).unwrap();
        assert_eq!(lower.len(), 14);
        assert!(!is_legal(&grid, &body, &lower));
        let path = filling_path(&grid, &body, apple).unwrap();
        assert_eq!(path.len(), 14);
        assert!(is_legal(&grid, &body, &path));
        assert_eq!(path[12], grid.index((0, 3)));
        // On 3x3 with the apple at (2,2): the head next to it eats at once;
        // the head at (0,0), next to neither the apple nor the tail, is stuck.
        let grid = Grid::new(3, 3);
        assert_eq!(
            filling_path(&grid, &[7, 6, 3, 0, 1, 2, 5, 4], 8),
            Some(vec![8])
        );
        assert_eq!(filling_path(&grid, &[0, 1, 2, 5, 4, 3, 6, 7], 8), None);
    }

    #[test]
    fn illegal_paths_are_refused() {
        let grid = Grid::new(3, 3);
        // Length 4 body in an L; re-entering the neck is illegal.
        let body = [4, 1, 0, 3];
        assert!(!is_legal(&grid, &body, &[1]));
        assert!(!is_legal(&grid, &body, &[8]));
        assert!(is_legal(&grid, &body, &[5, 2]));
    }
    #[test]
    fn plausible_refuses_dead_ends_and_cut_off_regions() {
        let grid = Grid::new(4, 4);
        assert!(plausible(&grid, &[2, 1, 0]));
        // Head (1,1), neck (1,0), tail (2,0): the corner (0,0) has one open neighbour.
        assert!(!plausible(&grid, &[5, 1, 2]));
        // On 6x6 a wall down column 2, head (3,0) and tail (3,5) right of it:
        // columns 0 and 1 are cut off although every cell there has two open neighbours.
        let grid = Grid::new(6, 6);
        let mut wall = vec![grid.index((3, 0))];
        wall.extend((0..6).map(|y| grid.index((2, y))));
        wall.push(grid.index((3, 5)));
        assert!(!plausible(&grid, &wall));
        // Odd boards: always (their certificate may skip a cell).
        assert!(plausible(&Grid::new(3, 3), &[4, 1, 0]));
    }

    #[test]
    fn the_reused_screen_agrees_with_a_fresh_one() {
        // Many paths of several lengths from one snake, as the search asks:
        // the count and the screen's reused arrays give what a fresh
        // screen gives for the body each path leaves.
        use crate::game::pieces::tests::{searched_paths, snakes_and_paths};
        // (How many bodies passed and how many were refused.)
        let agree = |cases: Vec<(Grid, Vec<usize>, Vec<Vec<usize>>)>| {
            let (mut passed, mut refused) = (0, 0);
            for (grid, snake, paths) in cases {
                let mut screen = PathScreen::new(&grid, &snake);
                for path in &paths {
                    let fresh = plausible(&grid, &crate::game::body_after(&snake, path));
                    assert_eq!(screen.passes(path), fresh, "{grid:?} {snake:?} {path:?}");
                    if fresh { passed += 1 } else { refused += 1 }
                }
            }
            (passed, refused)
        };
        let (passed, refused) = agree(snakes_and_paths(11, 300, 6));
        assert!(passed > 100 && refused > 100, "{passed} {refused}");
        // The search's own paths, which share prefixes and so let the
        // screen keep a cut vertex from one path to the next.
        let (passed, refused) = agree(searched_paths(5, 300));
        assert!(passed > 1_000 && refused > 10_000, "{passed} {refused}");
        // A path that fills the board: off the body are only its head and
        // tail, apart but joined by the body's edge, which passes.
        let grid = Grid::new(4, 4);
        let serpentine = [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12];
        let snake: Vec<usize> = serpentine[..15].iter().rev().copied().collect();
        assert!(plausible(&grid, &crate::game::body_after(&snake, &[12])));
        assert!(PathScreen::new(&grid, &snake).passes(&[12]));
    }

    #[test]
    fn plausible_refuses_a_free_cell_that_splits_the_others() {
        // 6x6, a wall down column 2 from (2,0) to (2,4), the head (3,1) and
        // the tail (3,3) right of it: every free cell has two open
        // neighbours and all are connected, but only through (2,5).
        let grid = Grid::new(6, 6);
        let body = [9, 3, 2, 8, 14, 20, 26, 27, 21];
        assert!(!plausible(&grid, &body));
        // Leave (2,4) free as well and the two sides meet twice.
        let shorter = [9, 3, 2, 8, 14, 20];
        assert!(plausible(&grid, &shorter));
    }

    /// Every legal path from the head of `body` to `target` of `k` moves.
    fn all_paths(grid: &Grid, body: &[usize], target: usize, k: usize) -> Vec<Vec<usize>> {
        let mut done = vec![];
        let mut open = vec![vec![]];
        while let Some(path) = open.pop() {
            if path.len() == k {
                done.push(path);
                continue;
            }
            let head = path.last().copied().unwrap_or(body[0]);
            for n in grid.neighbours(head) {
                let mut next = path.clone();
                next.push(n);
                if (n == target) == (next.len() == k) && is_legal(grid, body, &next) {
                    open.push(next);
                }
            }
        }
        done
    }

    #[test]
    fn enumerated_paths_are_legal_shortest_first_and_end_at_the_apple() {
        let grid = Grid::new(6, 6);
        // A body along the bottom row, the head at (3,0).
        let body = [3, 2, 1, 0];
        let target = grid.index((3, 4));
        let least = shortest(&grid, &body, target, true).unwrap().len();
        let mut seen: Vec<Vec<usize>> = vec![];
        enumerate(&grid, &body, target, least, least + 5, usize::MAX, |path| {
            seen.push(path.to_vec());
            false
        });
        assert_eq!(seen[0].len(), least);
        assert!(seen.windows(2).all(|w| w[0].len() <= w[1].len()));
        for path in &seen {
            assert!(is_legal(&grid, &body, path), "{path:?}");
            assert_eq!(path.iter().position(|&c| c == target), Some(path.len() - 1));
            assert!([least, least + 2, least + 4].contains(&path.len()));
        }
        // Without a budget, every legal path of each length, once.
        for k in [least, least + 2, least + 4] {
            let mut all = all_paths(&grid, &body, target, k);
            let mut found: Vec<_> = seen.iter().filter(|p| p.len() == k).cloned().collect();
            all.sort();
            found.sort();
            assert_eq!(found, all, "length {k}");
        }
    }

    #[test]
    fn pruning_keeps_every_plausible_path() {
        // A long snake on 6x6 (so the dead-end cuts apply): the plausible
        // paths found are those of all legal paths.
        let grid = Grid::new(6, 6);
        let body = [11, 5, 4, 3, 9, 8, 2, 1, 0, 6, 12, 18];
        let target = grid.index((3, 3));
        let passes = |p: &Vec<usize>| plausible(&grid, &crate::game::body_after(&body, p));
        let least = shortest(&grid, &body, target, true).unwrap().len();
        assert_eq!(least, 4);
        let mut found = plausible_paths(&grid, &body, target, least, 11, usize::MAX, usize::MAX);
        let mut all: Vec<Vec<usize>> = [4, 6, 8, 10]
            .into_iter()
            .flat_map(|k| all_paths(&grid, &body, target, k))
            .filter(passes)
            .collect();
        assert!(!all.is_empty());
        found.sort();
        all.sort();
        assert_eq!(found, all);
    }

    #[test]
    fn the_search_respects_its_budget_and_stops_when_told() {
        // From (0,0) to (5,5) on an empty 6x6 board: 252 shortest paths.
        let grid = Grid::new(6, 6);
        assert_eq!(shortest(&grid, &[0], 35, true).unwrap().len(), 10);
        let mut count = 0;
        let spent = enumerate(&grid, &[0], 35, 10, 11, 50, |_| {
            count += 1;
            false
        });
        assert!(spent <= 50 && count < 50, "{spent} nodes, {count} paths");
        let mut all = 0;
        let spent = enumerate(&grid, &[0], 35, 10, 11, usize::MAX, |_| {
            all += 1;
            false
        });
        assert_eq!(all, 252);
        assert!(spent > 252);
        assert_eq!(
            plausible_paths(&grid, &[0], 35, 10, 11, usize::MAX, 3).len(),
            3
        );
        // Nothing below the lower bound.
        assert_eq!(enumerate(&grid, &[0], 35, 10, 10, usize::MAX, |_| true), 0);
    }

    #[test]
    fn the_search_finds_a_plausible_path_the_fixed_shortest_paths_miss() {
        // 6x6, the body head first (5,1) (5,0) (4,0) (3,0) (3,1) (2,1) (2,0)
        // (1,0); the apple at (3,3), four moves away.
        let grid = Grid::new(6, 6);
        let body = [11, 5, 4, 3, 9, 8, 2, 1];
        let apple = grid.index((3, 3));
        let passes = |p: &[usize]| plausible(&grid, &crate::game::body_after(&body, p));
        // The player's fixed candidates before the search (the first shortest
        // path found and the same after the other first move) leave a dead
        // end at (5,2) or (4,1).
        let first = shortest(&grid, &body, apple, true).unwrap();
        assert_eq!(first, [10, 16, 15, 21]);
        for fixed in [first, vec![17, 16, 15, 21]] {
            assert!(is_legal(&grid, &body, &fixed) && !passes(&fixed));
        }
        // Down the wall, as short, is plausible.
        let found = plausible_paths(&grid, &body, apple, 4, 36, 10_000, 1);
        assert_eq!(found, [vec![17, 23, 22, 21]]);
        assert!(passes(&found[0]));
    }

    #[test]
    fn band_is_a_manhattan_ball_around_the_path() {
        let grid = Grid::new(5, 5);
        let count = |b: Vec<bool>| b.iter().filter(|&&x| x).count();
        assert_eq!(count(band(&grid, 12, &[], 1)), 5);
        assert_eq!(count(band(&grid, 12, &[], 2)), 13);
        assert_eq!(count(band(&grid, 0, &[], 1)), 3);
        // Head (0,0) and path (1,0) (2,0), radius 1: rows 0 and 1 of columns 0..3.
        let b = band(&grid, 0, &[1, 2], 1);
        assert_eq!(count(b.clone()), 7);
        assert!(b[3] && b[7] && !b[8]);
    }
}
