//! How many pieces the cells off a body fall into, for the many paths of
//! one length that the path search ([`super::route::enumerate`]) finds for one
//! apple, in time linear in the path instead of the board.
//!
//! Most of those paths fail the [`super::route::Screen`], almost half of them
//! because the body they leave splits the free cells (30x30 seed 3: 1.6 of
//! 3.4 million paths), which the screen's search only finds after visiting a
//! few hundred cells. Here the count comes from two numbers that a path
//! changes only near its own cells:
//!
//! - the Euler number of the open cells under 4-adjacency (pieces minus
//!   holes), a sum over all 2×2 windows of the board (Gray's bit-quad count:
//!   a quarter of the windows with one open cell, minus those with three,
//!   plus twice those with two open cells on a diagonal);
//! - the holes: the pieces of the closed cells (the body's interior and
//!   the border around the board) under 8-adjacency, but for the one that
//!   holds the border. The path's closed cells are one such piece, which
//!   merges with every piece of the rest of the body it touches.
//!
//! For each length, the closed cells that every path shares (the rest of the
//! body, the border) are counted once; each path then costs a look at the 8
//! neighbours of each of its cells (a table gives the change in the Euler
//! number from them), and only of the cells after the part it shares with
//! the path before it (the search's paths come in depth-first order, so on
//! 30x30 a path of 40 cells shares its first 33 with the one before). The
//! player plays the same games with it, about three times faster on 16x16
//! to 30x30 (README, "Large boards").

use super::Grid;
use super::padded::Padded;

/// The pieces of the open cells after paths of one length from one snake
/// (see the module documentation).
pub(crate) struct Pieces {
    /// Open: every board cell but the part of the body that every path of
    /// length `moves` leaves closed.
    board: Padded,
    /// Which 8-connected piece of the closed cells each closed cell is in
    /// (from 1), 0 for an open cell.
    piece: Vec<u32>,
    /// The pieces of the closed cells.
    pieces: u32,
    /// Four times the open cells' Euler number.
    euler4: i64,
    /// The path length counted for, if any.
    moves: Option<usize>,
    /// The cells of the last path that are closed on `board`, in order,
    /// and after each, four times the Euler number and the closed pieces
    /// the path's cells have joined so far.
    path: Vec<usize>,
    euler4_after: Vec<i64>,
    joined_after: Vec<i64>,
    /// For each closed piece, the place in `path` of the first cell that
    /// joined it, or `NOT_JOINED`.
    joined_at: Vec<usize>,
}

/// [`Pieces::joined_at`] of a piece no cell of the path touches.
const NOT_JOINED: usize = usize::MAX;

impl Pieces {
    /// Counts for bodies on `grid`.
    pub(crate) fn new(grid: &Grid) -> Pieces {
        let board = Padded::new(grid);
        let size = board.open.len();
        Pieces {
            board,
            piece: vec![0; size],
            pieces: 0,
            euler4: 0,
            moves: None,
            path: Vec::new(),
            euler4_after: Vec::new(),
            joined_after: Vec::new(),
            joined_at: Vec::new(),
        }
    }

    /// The 4-connected pieces of the cells off the interior of the body
    /// that `snake` leaves after `path` (the last move eats, as in
    /// the player's paths; its head and tail count as off it). `snake`
    /// must be the same from call to call, and `path` a legal one (distinct
    /// cells, none entered while the body is still there, as
    /// [`super::route::enumerate`] gives); the counts shared by every path
    /// of one length are made when the length changes.
    pub(crate) fn count(&mut self, snake: &[usize], path: &[usize]) -> usize {
        let k = path.len();
        if self.moves != Some(k) {
            self.share(&snake[..snake.len().saturating_sub(k)]);
            self.moves = Some(k);
        }
        // The path's cells inside the body left: all but the last (the new
        // head), and, on a path longer than the snake, none past the tail.
        let inside = &path[k.saturating_sub(snake.len())..k.saturating_sub(1)];
        // Open again the last path's cells after the part it shares with
        // this one, and forget the pieces they were the first to join.
        let shared = super::shared_prefix(&self.path, inside);
        for (i, &c) in self.path.iter().enumerate().skip(shared).rev() {
            let p = self.board.index(c);
            self.board.open[p] = true;
            for n in self.board.around(p) {
                let piece = self.piece[n] as usize;
                if piece != 0 && self.joined_at[piece] == i {
                    self.joined_at[piece] = NOT_JOINED;
                }
            }
        }
        self.path.truncate(shared);
        self.euler4_after.truncate(shared);
        self.joined_after.truncate(shared);
        // Close this path's cells after that part.
        let mut euler4 = self.euler4_after.last().copied().unwrap_or(self.euler4);
        let mut joined = self.joined_after.last().copied().unwrap_or(0);
        for (i, &c) in inside.iter().enumerate().skip(shared) {
            let p = self.board.index(c);
            for n in self.board.around(p) {
                let piece = self.piece[n] as usize;
                if piece != 0 && self.joined_at[piece] == NOT_JOINED {
                    self.joined_at[piece] = i;
                    joined += 1;
                }
            }
            euler4 -= i64::from(CLOSING[self.openness_around(p)]);
            self.board.open[p] = false;
            self.path.push(c);
            self.euler4_after.push(euler4);
            self.joined_after.push(joined);
        }
        // The path's cells are one closed piece, with all it joins.
        let closed_pieces = if inside.is_empty() {
            self.pieces as i64
        } else {
            self.pieces as i64 - joined + 1
        };
        // Pieces = Euler number + holes; every closed piece but the
        // border's is a hole.
        (euler4 / 4 + closed_pieces - 1) as usize
    }

    /// Counts the board with `closed` (and the border) closed: the Euler
    /// number and the closed cells' 8-connected pieces.
    fn share(&mut self, closed: &[usize]) {
        self.board.reset();
        // (The open board, one piece without holes, has Euler number 1.)
        self.euler4 = 4;
        for &c in closed {
            let p = self.board.index(c);
            self.euler4 -= i64::from(CLOSING[self.openness_around(p)]);
            self.board.open[p] = false;
        }
        let (row, size) = (self.board.row, self.board.open.len());
        self.piece.fill(0);
        self.pieces = 0;
        let mut stack = Vec::new();
        for start in 0..size {
            if self.board.open[start] || self.piece[start] != 0 {
                continue;
            }
            self.pieces += 1;
            self.piece[start] = self.pieces;
            stack.push(start);
            while let Some(p) = stack.pop() {
                let (x, y) = (p % row, p / row);
                for ny in y.saturating_sub(1)..=(y + 1).min(size / row - 1) {
                    for nx in x.saturating_sub(1)..=(x + 1).min(row - 1) {
                        let n = ny * row + nx;
                        if !self.board.open[n] && self.piece[n] == 0 {
                            self.piece[n] = self.pieces;
                            stack.push(n);
                        }
                    }
                }
            }
        }
        self.joined_at.clear();
        self.joined_at.resize(self.pieces as usize + 1, NOT_JOINED);
        self.path.clear();
        self.euler4_after.clear();
        self.joined_after.clear();
    }

    /// Which of the 8 neighbours of padded cell `p` are open (bit `i` for
    /// the `i`th of [`Padded::around`]).
    fn openness_around(&self, p: usize) -> usize {
        let around = self.board.around(p).into_iter().enumerate();
        around.fold(0, |m, (bit, n)| m | usize::from(self.board.open[n]) << bit)
    }
}

/// Four times a 2×2 window's share of the Euler number (its cells row by
/// row, `true` for open): 1 for one open cell, −1 for three, 2 for two on a
/// diagonal.
const fn window(a: bool, b: bool, c: bool, d: bool) -> i8 {
    match a as u8 + b as u8 + c as u8 + d as u8 {
        1 => 1,
        3 => -1,
        2 if a == d => 2,
        _ => 0,
    }
}

/// The four windows around a cell whose 8 neighbours' openness is `m`
/// (bit `i` for the `i`th of [`Padded::around`]) and whose own is `centre`.
const fn around_centre(m: usize, centre: bool) -> i8 {
    let mut n = [false; 8];
    let mut i = 0;
    while i < 8 {
        n[i] = m >> i & 1 == 1;
        i += 1;
    }
    window(n[0], n[1], n[3], centre)
        + window(n[1], n[2], centre, n[4])
        + window(n[3], centre, n[5], n[6])
        + window(centre, n[4], n[6], n[7])
}

/// How much closing an open cell lowers four times the Euler number, by its
/// 8 neighbours' openness (bit `i` for the `i`th of [`Padded::around`]):
/// the four windows that hold it, before less after.
const CLOSING: [i8; 256] = {
    let mut table = [0; 256];
    let mut m = 0;
    while m < 256 {
        table[m] = around_centre(m, true) - around_centre(m, false);
        m += 1;
    }
    table
};

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::game::{body_after, route};
    use rand::rngs::ChaCha8Rng;
    use rand::{RngExt, SeedableRng};

    /// The 4-connected pieces of the cells off `body`'s interior, by flood fill.
    fn flood_pieces(grid: &Grid, body: &[usize]) -> usize {
        let mut closed = vec![false; grid.cells()];
        for &c in &body[1..body.len() - 1] {
            closed[c] = true;
        }
        let mut pieces = 0;
        for start in 0..grid.cells() {
            if closed[start] {
                continue;
            }
            pieces += 1;
            closed[start] = true;
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                for n in grid.neighbours(c) {
                    if !closed[n] {
                        closed[n] = true;
                        stack.push(n);
                    }
                }
            }
        }
        pieces
    }

    #[test]
    fn counts_agree_with_a_flood_fill_on_the_searchs_paths() {
        // The search's paths of one length come in depth-first order, each
        // sharing a prefix with the one before, which the count reuses.
        let (mut checked, mut split) = (0, 0);
        for (grid, snake, paths) in searched_paths(3, 300) {
            let mut pieces = Pieces::new(&grid);
            for path in &paths {
                let count = pieces.count(&snake, path);
                let body = body_after(&snake, path);
                assert_eq!(count, flood_pieces(&grid, &body), "{path:?}");
                checked += 1;
                split += usize::from(count > 1);
            }
        }
        assert!(checked > 10_000 && split > 1_000, "{checked} {split}");
    }

    /// For up to `snakes` random snakes ([`snakes_and_paths`]) and up to
    /// three free cells of each, the paths [`route::enumerate`] finds to the
    /// cell (up to 7 moves above the least, 400 nodes), in its order.
    pub(crate) fn searched_paths(
        seed: u64,
        snakes: usize,
    ) -> Vec<(Grid, Vec<usize>, Vec<Vec<usize>>)> {
        let mut cases = Vec::new();
        for (grid, snake, _) in snakes_and_paths(seed, snakes, 0) {
            let free = (0..grid.cells()).filter(|c| !snake.contains(c));
            for target in free.take(3) {
                let Some(lower) = route::shortest(&grid, &snake, target, true) else {
                    continue;
                };
                let (least, mut paths) = (lower.len(), Vec::new());
                route::enumerate(&grid, &snake, target, least, least + 7, 400, |path| {
                    paths.push(path.to_vec());
                    false
                });
                cases.push((grid, snake.clone(), paths));
            }
        }
        cases
    }

    /// A random self-avoiding walk of up to `len` cells from a random cell.
    fn random_walk(grid: &Grid, rng: &mut ChaCha8Rng, len: usize) -> Vec<usize> {
        let mut walk = vec![rng.random_range(0..grid.cells())];
        while walk.len() < len {
            let head = walk[walk.len() - 1];
            let free: Vec<usize> = grid
                .neighbours(head)
                .filter(|n| !walk.contains(n))
                .collect();
            if free.is_empty() {
                break;
            }
            walk.push(free[rng.random_range(0..free.len())]);
        }
        walk
    }

    /// Up to `snakes` random snakes (head first) on boards from 2x2 to 8x8,
    /// each with `paths` paths of random lengths from its head: a random
    /// walk read backwards up to the head, then on from there (distinct
    /// cells, but not always legal moves, which the screens do not need).
    pub(crate) fn snakes_and_paths(
        seed: u64,
        snakes: usize,
        paths: usize,
    ) -> Vec<(Grid, Vec<usize>, Vec<Vec<usize>>)> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cases = Vec::new();
        for _ in 0..snakes {
            let grid = Grid::new(rng.random_range(2..9), rng.random_range(2..9));
            let whole = random_walk(&grid, &mut rng, grid.cells());
            if whole.len() < 3 {
                continue;
            }
            let cut = rng.random_range(2..whole.len());
            let snake = whole[..cut].iter().rev().copied().collect();
            let paths = (0..paths)
                .map(|_| whole[cut..rng.random_range(cut + 1..=whole.len())].to_vec())
                .collect();
            cases.push((grid, snake, paths));
        }
        cases
    }

    #[test]
    fn counts_agree_with_a_flood_fill() {
        let (mut checked, mut split) = (0, 0);
        for (grid, snake, paths) in snakes_and_paths(7, 400, 4) {
            let mut pieces = Pieces::new(&grid);
            for path in &paths {
                let body = body_after(&snake, path);
                let count = pieces.count(&snake, path);
                split += usize::from(count > 1);
                assert_eq!(
                    count,
                    flood_pieces(&grid, &body),
                    "{grid:?} snake {snake:?} path {path:?}"
                );
                checked += 1;
            }
        }
        assert!(
            checked > 1000 && split > 100 && checked - split > 100,
            "{checked} {split}"
        );
    }
}
