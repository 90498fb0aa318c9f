//! A brute-force oracle for the full game's safety, written from the game's
//! documentation alone (docs/FORMATS.md, `least`; `snakesat::game`'s module
//! docs): it shares no logic with `src/game`'s cycle model or routes.
//!
//! A plan for an apple is a simple head path (no cell entered twice, the
//! apple only on the last move) that enters the body cell `body[j]` (head
//! first, `len` cells) only from move `len − j` on, once the tail has left
//! it. It is *safe* when the body it leaves (the snake grows by one on the
//! last move) admits a Hamiltonian cycle that runs from the head through
//! every free cell to the tail and then along the body back to the head. (A
//! board with an odd number of cells has no Hamiltonian cycle: there the
//! cycle may skip one free cell.)

use snakesat::instance::Pos;

/// A `width` x `height` board; cells are numbered row by row.
#[derive(Clone, Copy, Debug)]
pub struct Board {
    pub width: usize,
    pub height: usize,
}

impl Board {
    pub fn cells(self) -> usize {
        self.width * self.height
    }

    pub fn cell(self, (x, y): Pos) -> usize {
        y * self.width + x
    }

    fn neighbours(self, c: usize) -> impl Iterator<Item = usize> {
        let (x, y) = (c % self.width, c / self.width);
        let w = self.width;
        [
            (x > 0).then(|| c - 1),
            (x + 1 < w).then(|| c + 1),
            (y > 0).then(|| c - w),
            (y + 1 < self.height).then(|| c + w),
        ]
        .into_iter()
        .flatten()
    }

    fn adjacent(self, a: usize, b: usize) -> bool {
        self.neighbours(a).any(|n| n == b)
    }

    fn distance(self, a: usize, b: usize) -> usize {
        let (ax, ay) = (a % self.width, a / self.width);
        let (bx, by) = (b % self.width, b / self.width);
        ax.abs_diff(bx) + ay.abs_diff(by)
    }
}

/// The body (head first) after `moves` (the last of which eats) from `body`.
pub fn body_after(body: &[usize], moves: &[usize]) -> Vec<usize> {
    let mut after: Vec<usize> = moves.iter().rev().copied().collect();
    after.extend_from_slice(body);
    after.truncate(body.len() + 1);
    after
}

/// Whether a Hamiltonian cycle runs head → every free cell → tail → along
/// `body` (head first, at least two cells) → head, by depth-first search
/// for the part through the free cells; on a board with an odd number of
/// cells, through every free cell but one.
pub fn admits_cycle(board: Board, body: &[usize]) -> bool {
    let mut blocked = vec![false; board.cells()];
    for &c in body {
        blocked[c] = true;
    }
    let (head, tail) = (body[0], body[body.len() - 1]);
    let free = board.cells() - body.len();
    if free == 0 {
        return board.adjacent(head, tail);
    }
    if board.cells().is_multiple_of(2) {
        return hamiltonian_path(board, &mut blocked, head, tail, free);
    }
    (0..board.cells()).any(|skipped| {
        if blocked[skipped] {
            return false;
        }
        blocked[skipped] = true;
        let found = hamiltonian_path(board, &mut blocked, head, tail, free - 1);
        blocked[skipped] = false;
        found
    })
}

/// A path from `at` through the `left` unblocked cells, each once, and then
/// into `end`.
fn hamiltonian_path(
    board: Board,
    blocked: &mut [bool],
    at: usize,
    end: usize,
    left: usize,
) -> bool {
    if left == 0 {
        return board.adjacent(at, end);
    }
    // Every unvisited cell needs two ways in and out (one if it is next
    // to an end of the path), else no path covers it.
    for c in 0..board.cells() {
        if !blocked[c] {
            let open = board.neighbours(c).filter(|&n| !blocked[n]).count();
            let ends = usize::from(board.adjacent(c, at)) + usize::from(board.adjacent(c, end));
            if open + ends < 2 {
                return false;
            }
        }
    }
    let next: Vec<usize> = board.neighbours(at).filter(|&n| !blocked[n]).collect();
    for n in next {
        blocked[n] = true;
        let found = hamiltonian_path(board, blocked, n, end, left - 1);
        blocked[n] = false;
        if found {
            return true;
        }
    }
    false
}

/// A safe plan of fewer than `below` moves from `body` (head first) to
/// `apple`, if there is one; without `safe_only`, any plan (the apple that
/// fills the board needs no cycle after it).
pub fn shorter_plan(
    board: Board,
    body: &[usize],
    apple: usize,
    below: usize,
    safe_only: bool,
) -> Option<Vec<usize>> {
    let len = body.len();
    // The first move at which each cell may be entered.
    let mut opens_at = vec![0; board.cells()];
    for (j, &c) in body.iter().enumerate() {
        opens_at[c] = len - j;
    }
    let mut search = Search {
        board,
        body,
        apple,
        below,
        safe_only,
        opens_at,
        entered: vec![false; board.cells()],
        moves: vec![],
    };
    search.from(body[0]).then_some(search.moves)
}

struct Search<'a> {
    board: Board,
    body: &'a [usize],
    apple: usize,
    below: usize,
    safe_only: bool,
    opens_at: Vec<usize>,
    entered: Vec<bool>,
    moves: Vec<usize>,
}

impl Search<'_> {
    /// Extends `moves` (ending at `at`) to a plan; on success `moves` is it.
    fn from(&mut self, at: usize) -> bool {
        let t = self.moves.len() + 1;
        if t >= self.below {
            return false;
        }
        let next: Vec<usize> = self.board.neighbours(at).collect();
        for n in next {
            if self.entered[n] || self.opens_at[n] > t {
                continue;
            }
            self.moves.push(n);
            if n == self.apple {
                if !self.safe_only || admits_cycle(self.board, &body_after(self.body, &self.moves))
                {
                    return true;
                }
            } else if t + self.board.distance(n, self.apple) < self.below {
                self.entered[n] = true;
                let found = self.from(n);
                self.entered[n] = false;
                if found {
                    return true;
                }
            }
            self.moves.pop();
        }
        false
    }
}
