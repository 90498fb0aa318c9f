//! Hamiltonian cycles of an odd × odd board without a reserved segment: the
//! cells `x0..x0 + k` of row `y0` (`x0`, `y0` even, `k` odd, so both ends
//! lie on the majority colour and the other cells balance; or a single cell
//! with both coordinates odd). The first-plan
//! construction ([`super::construct`]) follows such a cycle and leaves the
//! reserved apples uneaten for the end game, which needs them (the last
//! apples of an odd full board are eaten along a path that alternates
//! colours and ends on the majority colour).
//!
//! Built from pieces: the rows above the segment and the rows below (each an
//! even number of rows, a boustrophedon with its full row next to the
//! segment's row), the rest of the segment's row absorbed two cells at a
//! time into the full row above or below, then the two cycles joined across
//! a unit square. A single cell with odd coordinates sits in a band of
//! three rows (top row left to right, the two below column by column back)
//! between the rows above and below. A general Hamiltonian-cycle search is
//! not needed for these shapes (and would need a budget); reserved paths of
//! other shapes ([`cycle_avoiding`]) get one, a depth-first search within a
//! node budget (no crate searches Hamiltonian cycles of grid graphs with a
//! given edge and a budget).

use crate::geometry::Grid;
use crate::instance::Pos;

/// No neighbour yet.
const NONE: usize = usize::MAX;

/// Cells linked into disjoint cycles: each cell's two neighbours.
struct Cover {
    w: usize,
    h: usize,
    adj: Vec<[usize; 2]>,
}

impl Cover {
    fn id(&self, (x, y): Pos) -> usize {
        y * self.w + x
    }

    fn has(&self, a: usize, b: usize) -> bool {
        self.adj[a].contains(&b)
    }

    fn link(&mut self, a: usize, b: usize) {
        for (p, q) in [(a, b), (b, a)] {
            let slot = self.adj[p].iter().position(|&n| n == NONE);
            self.adj[p][slot.expect("a cell has two links")] = q;
        }
    }

    fn unlink(&mut self, a: usize, b: usize) {
        for (p, q) in [(a, b), (b, a)] {
            for n in &mut self.adj[p] {
                if *n == q {
                    *n = NONE;
                }
            }
        }
    }

    /// Rows `y0..y0 + rows` (an even number, at least 2) as one cycle, its
    /// full row (every horizontal edge) the last one, or the first one when
    /// `flip`.
    fn rectangle(&mut self, y0: usize, rows: usize, flip: bool) {
        let Some((order, _)) = super::construct::base_order(self.w, rows) else {
            return;
        };
        let cell = |(x, y): Pos| {
            let y = if flip { rows - 1 - y } else { y };
            (x, y0 + y)
        };
        let cells: Vec<Pos> = order.into_iter().map(cell).collect();
        self.link_cycle(&cells);
    }

    /// Rows `y0 - 1..=y0 + 1` without the cell `(x0, y0)` (`x0` odd) as one
    /// cycle: the top row left to right, the two rows below column by column
    /// back to the left (up and down in turn), the cell below `(x0, y0)`
    /// stepping past it. Its top row is full.
    fn band(&mut self, x0: usize, y0: usize) {
        let (r0, r1, r2) = (y0 - 1, y0, y0 + 1);
        let mut order: Vec<Pos> = (0..self.w).map(|x| (x, r0)).collect();
        for (i, x) in (x0 + 1..self.w).rev().enumerate() {
            let column = if i % 2 == 0 { [r1, r2] } else { [r2, r1] };
            order.extend(column.map(|y| (x, y)));
        }
        order.push((x0, r2));
        for (i, x) in (0..x0).rev().enumerate() {
            let column = if i % 2 == 0 { [r2, r1] } else { [r1, r2] };
            order.extend(column.map(|y| (x, y)));
        }
        self.link_cycle(&order);
    }

    /// Links `cells` into one cycle, in order (the last back to the first).
    fn link_cycle(&mut self, cells: &[Pos]) {
        for (i, &c) in cells.iter().enumerate() {
            let (a, b) = (self.id(c), self.id(cells[(i + 1) % cells.len()]));
            self.link(a, b);
        }
    }

    /// The pair `r`, `s` (side by side, off every cycle) joins the cycle edge
    /// `p`–`q` next to it (`p` beside `r`, `q` beside `s`).
    fn absorb(&mut self, p: usize, q: usize, r: usize, s: usize) {
        self.unlink(p, q);
        self.link(p, r);
        self.link(r, s);
        self.link(s, q);
    }

    /// The cycle through each linked cell (`NONE` elsewhere), numbered.
    fn labels(&self) -> (Vec<usize>, usize) {
        let mut label = vec![NONE; self.adj.len()];
        let mut count = 0;
        for start in 0..self.adj.len() {
            if label[start] != NONE || self.adj[start][0] == NONE {
                continue;
            }
            let (mut prev, mut c) = (NONE, start);
            while label[c] == NONE {
                label[c] = count;
                let next = if self.adj[c][0] == prev {
                    self.adj[c][1]
                } else {
                    self.adj[c][0]
                };
                (prev, c) = (c, next);
            }
            count += 1;
        }
        (label, count)
    }

    /// Joins two cycles across a unit square with one edge of each on
    /// opposite sides; `false` when no square has that.
    fn join_once(&mut self) -> bool {
        let (label, _) = self.labels();
        for y in 0..self.h {
            for x in 0..self.w {
                let p = self.id((x, y));
                // Horizontal edges p–q over r–s, then vertical ones side by side.
                let squares = [
                    (x + 1 < self.w && y + 1 < self.h)
                        .then(|| (p, p + 1, p + self.w, p + self.w + 1)),
                    (x + 1 < self.w && y + 1 < self.h)
                        .then(|| (p, p + self.w, p + 1, p + self.w + 1)),
                ];
                for (p, q, r, s) in squares.into_iter().flatten() {
                    if self.has(p, q)
                        && self.has(r, s)
                        && label[p] != NONE
                        && label[r] != NONE
                        && label[p] != label[r]
                    {
                        self.unlink(p, q);
                        self.unlink(r, s);
                        self.link(p, r);
                        self.link(q, s);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The cycles joined into one, in order, if it has `len` cells.
    fn joined(mut self, len: usize) -> Option<Vec<usize>> {
        while self.labels().1 > 1 {
            if !self.join_once() {
                return None;
            }
        }
        self.order(len)
    }

    /// The cells in cycle order if they form one cycle of `len` cells.
    fn order(&self, len: usize) -> Option<Vec<usize>> {
        let start = (0..self.adj.len()).find(|&c| self.adj[c][0] != NONE)?;
        let (mut prev, mut c) = (NONE, start);
        let mut order = Vec::with_capacity(len);
        loop {
            if self.adj[c].contains(&NONE) || order.len() > len {
                return None;
            }
            order.push(c);
            let next = if self.adj[c][0] == prev {
                self.adj[c][1]
            } else {
                self.adj[c][0]
            };
            (prev, c) = (c, next);
            if c == start {
                break;
            }
        }
        (order.len() == len).then_some(order)
    }
}

/// A Hamiltonian cycle (cell indices `y * w + x`, in order) of the odd
/// `w × h` board without the `k` cells `x0..x0 + k` of row `y0`; `None`
/// unless both sides are odd and at least 3, `x0`, `y0` are even and `k` is
/// odd, or both odd and `k` is 1, and the segment fits.
pub(crate) fn cycle_without(w: usize, h: usize, (x0, y0): Pos, k: usize) -> Option<Vec<usize>> {
    if w < 3
        || h < 3
        || w.is_multiple_of(2)
        || h.is_multiple_of(2)
        || !(x0 + y0).is_multiple_of(2)
        || (!y0.is_multiple_of(2) && k != 1)
        || k.is_multiple_of(2)
        || x0 + k > w
        || y0 >= h
    {
        return None;
    }
    let mut cover = Cover {
        w,
        h,
        adj: vec![[NONE; 2]; w * h],
    };
    if !y0.is_multiple_of(2) {
        // A single cell with both coordinates odd: a band of three rows.
        cover.band(x0, y0);
        if y0 > 1 {
            cover.rectangle(0, y0 - 1, false);
        }
        if y0 + 2 < h {
            cover.rectangle(y0 + 2, h - y0 - 2, true);
        }
        return cover.joined(w * h - 1);
    }
    let (above, below) = (y0, h - 1 - y0);
    if above > 0 {
        cover.rectangle(0, above, false);
    }
    if below > 0 {
        cover.rectangle(y0 + 1, below, true);
    }
    // The rest of row y0, two cells at a time (each run has an even length).
    let rest = (0..x0).step_by(2).chain((x0 + k..w).step_by(2));
    for x in rest {
        let (r, s) = (cover.id((x, y0)), cover.id((x + 1, y0)));
        let sides = [
            (y0 > 0).then(|| (r - w, s - w)),
            (y0 + 1 < h).then(|| (r + w, s + w)),
        ];
        let (p, q) = sides
            .into_iter()
            .flatten()
            .find(|&(p, q)| cover.has(p, q))?;
        cover.absorb(p, q, r, s);
    }
    cover.joined(w * h - k)
}

/// A Hamiltonian cycle (cell indices `y * w + x`, in order) of the `w × h`
/// board without the `reserved` cells, through the edge `first → second`,
/// found by a depth-first search within `budget` nodes; `None` when there is
/// none or the budget runs out. For reserved shapes of any form (the
/// segments above have a construction); the search extends a path from
/// `first`, fewest onward moves first (Warnsdorff's rule), straight on
/// before turning, and prunes a path after which a cell left has fewer than
/// two ways in or the cells left are cut apart.
pub(crate) fn cycle_avoiding(
    w: usize,
    h: usize,
    reserved: &[bool],
    (first, second): (usize, usize),
    budget: usize,
) -> Option<Vec<usize>> {
    let open: Vec<bool> = reserved.iter().map(|&r| !r).collect();
    let len = open.iter().filter(|&&o| o).count();
    let grid = Grid::new(w, h);
    if !open[first] || !open[second] || !grid.neighbours(first).any(|n| n == second) {
        return None;
    }
    let mut search = PathSearch {
        grid,
        open,
        visited: vec![false; w * h],
        path: vec![first, second],
        len,
        nodes: 0,
        budget,
    };
    search.visited[first] = true;
    search.visited[second] = true;
    search.extend().then_some(search.path)
}

/// The search of [`cycle_avoiding`]: a path from its first cell.
struct PathSearch {
    grid: Grid,
    /// Cells the cycle must visit.
    open: Vec<bool>,
    visited: Vec<bool>,
    path: Vec<usize>,
    /// Cells on the cycle.
    len: usize,
    nodes: usize,
    budget: usize,
}

impl PathSearch {
    /// Open cells not on the path, beside `c`.
    fn unvisited(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        self.grid
            .neighbours(c)
            .filter(|&n| self.open[n] && !self.visited[n])
    }

    /// Extends the path to a cycle through every open cell.
    fn extend(&mut self) -> bool {
        let head = *self.path.last().expect("a path");
        let first = self.path[0];
        if self.path.len() == self.len {
            return self.grid.neighbours(head).any(|n| n == first);
        }
        if self.nodes >= self.budget {
            return false;
        }
        self.nodes += 1;
        let back = self.path[self.path.len() - 2];
        let mut moves: Vec<(usize, bool, usize)> = self
            .unvisited(head)
            .map(|n| {
                let onward = self.unvisited(n).count()
                    + usize::from(self.grid.neighbours(n).any(|m| m == first));
                (onward, n + back != 2 * head, n)
            })
            .collect();
        moves.sort_unstable();
        for (_, _, n) in moves {
            self.visited[n] = true;
            self.path.push(n);
            if self.feasible() && self.extend() {
                return true;
            }
            self.path.pop();
            self.visited[n] = false;
            if self.nodes >= self.budget {
                return false;
            }
        }
        false
    }

    /// Every cell left has two ways in (from cells left, the head or the
    /// first cell), the first cell one, and the cells left hang together
    /// with the head.
    fn feasible(&self) -> bool {
        let head = *self.path.last().expect("a path");
        let first = self.path[0];
        if self.path.len() == self.len {
            return true;
        }
        let end = |n: usize| n == head || n == first;
        let ways = |c: usize| {
            self.grid
                .neighbours(c)
                .filter(|&n| (self.open[n] && !self.visited[n]) || end(n))
                .count()
        };
        let left = (0..self.open.len()).filter(|&c| self.open[c] && !self.visited[c]);
        if left.clone().any(|c| ways(c) < 2) || self.unvisited(first).next().is_none() {
            return false;
        }
        // The cells left, reached from the head through cells left.
        let mut seen = vec![false; self.open.len()];
        let mut stack = vec![head];
        let mut reached = 0;
        while let Some(c) = stack.pop() {
            for n in self.unvisited(c) {
                if !seen[n] {
                    seen[n] = true;
                    reached += 1;
                    stack.push(n);
                }
            }
        }
        reached == left.count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cells a `w`×`h` cycle visits, checking that it visits each at most
    /// once and steps between grid neighbours (the last back to the first).
    fn visited(order: &[usize], w: usize, h: usize) -> Vec<bool> {
        let mut seen = vec![false; w * h];
        for (i, &c) in order.iter().enumerate() {
            let n = order[(i + 1) % order.len()];
            assert!(!seen[c]);
            seen[c] = true;
            let (a, b) = ((c % w, c / w), (n % w, n / w));
            assert_eq!(a.0.abs_diff(b.0) + a.1.abs_diff(b.1), 1);
        }
        seen
    }

    /// Every segment the construction accepts gives one cycle through every
    /// other cell, along grid edges.
    #[test]
    fn cycles_miss_exactly_the_segment() {
        let mut built = 0;
        for (w, h) in [(3, 3), (5, 5), (5, 7), (7, 5), (7, 7), (9, 9)] {
            for y0 in (0..h).step_by(2) {
                for x0 in (0..w).step_by(2) {
                    for k in [1, 3, 5] {
                        if x0 + k > w {
                            continue;
                        }
                        let cycle = cycle_without(w, h, (x0, y0), k);
                        // A whole middle row cuts the board in two.
                        if k == w && y0 > 0 && y0 + 1 < h {
                            assert_eq!(cycle, None);
                            continue;
                        }
                        let order = cycle.unwrap_or_else(|| panic!("{w}x{h} ({x0},{y0}) k={k}"));
                        let seen = visited(&order, w, h);
                        for x in 0..w {
                            for y in 0..h {
                                let reserved = y == y0 && (x0..x0 + k).contains(&x);
                                assert_eq!(seen[y * w + x], !reserved, "{w}x{h} ({x},{y})");
                            }
                        }
                        built += 1;
                    }
                }
            }
        }
        assert!(built > 100);
        // Single cells with both coordinates odd.
        for (w, h) in [(3, 3), (5, 5), (7, 5), (7, 7), (9, 9)] {
            for y0 in (1..h).step_by(2) {
                for x0 in (1..w).step_by(2) {
                    let order = cycle_without(w, h, (x0, y0), 1)
                        .unwrap_or_else(|| panic!("{w}x{h} ({x0},{y0})"));
                    let seen = visited(&order, w, h);
                    assert!(!seen[y0 * w + x0]);
                    assert_eq!(order.len(), w * h - 1);
                }
            }
        }
    }

    /// Reserved paths of other shapes: a cycle through every other cell and
    /// the given edge, or none when a cell is left with one neighbour.
    #[test]
    fn searched_cycles_avoid_any_shape() {
        let shapes: [(usize, &[Pos]); 4] = [
            (5, &[(2, 2), (3, 2), (3, 3)]),
            (7, &[(2, 2), (2, 3), (3, 3), (4, 3), (4, 4)]),
            (7, &[(6, 2), (6, 3), (5, 3), (4, 3), (4, 4)]),
            (9, &[(4, 4), (4, 5), (5, 5)]),
        ];
        for (n, shape) in shapes {
            let mut reserved = vec![false; n * n];
            for &(x, y) in shape {
                reserved[y * n + x] = true;
            }
            let edge = (n * n - 2, n * n - 1);
            let order = cycle_avoiding(n, n, &reserved, edge, 10_000)
                .unwrap_or_else(|| panic!("{n}x{n} {shape:?}"));
            let seen = visited(&order, n, n);
            assert_eq!(seen, reserved.iter().map(|&r| !r).collect::<Vec<_>>());
            assert_eq!((order[0], order[1]), edge);
        }
        // Around a corner: the corner keeps one neighbour.
        let mut reserved = vec![false; 25];
        for c in [1, 6, 5] {
            reserved[c] = true;
        }
        assert_eq!(cycle_avoiding(5, 5, &reserved, (23, 24), 10_000), None);
    }

    #[test]
    fn refuses_unbalanced_segments() {
        assert_eq!(cycle_without(7, 7, (1, 0), 3), None);
        assert_eq!(cycle_without(7, 7, (0, 0), 2), None);
        assert_eq!(cycle_without(7, 7, (1, 1), 3), None);
        assert_eq!(cycle_without(6, 7, (0, 0), 1), None);
    }
}
