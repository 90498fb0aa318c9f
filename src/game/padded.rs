//! The board with a closed border around it, for the searches that screen
//! the body a path leaves ([`super::route::Screen`], [`super::pieces::Pieces`]):
//! every neighbour of a board cell is a cell of the padded board, so those
//! searches need no bounds checks.

use super::Grid;

/// Which cells of the padded board are open.
pub(crate) struct Padded {
    pub(crate) grid: Grid,
    /// `grid.width + 2`: a row of the padded board.
    pub(crate) row: usize,
    /// Every board cell open and the border closed, until a user closes more.
    pub(crate) open: Vec<bool>,
}

impl Padded {
    /// The padded `grid`, every board cell open.
    pub(crate) fn new(grid: &Grid) -> Padded {
        let row = grid.width + 2;
        let mut padded = Padded {
            grid: *grid,
            row,
            open: vec![false; row * (grid.height + 2)],
        };
        padded.reset();
        padded
    }

    /// Every board cell open again, the border closed.
    pub(crate) fn reset(&mut self) {
        let (row, width) = (self.row, self.grid.width);
        self.open.fill(false);
        for y in 1..=self.grid.height {
            self.open[y * row + 1..y * row + 1 + width].fill(true);
        }
    }

    /// The padded board's number of board cell `c`.
    pub(crate) fn index(&self, c: usize) -> usize {
        (c / self.grid.width + 1) * self.row + c % self.grid.width + 1
    }

    /// The 8 neighbours of padded cell `p` (a board cell), row by row.
    pub(crate) fn around(&self, p: usize) -> [usize; 8] {
        let row = self.row;
        [
            p - row - 1,
            p - row,
            p - row + 1,
            p - 1,
            p + 1,
            p + row - 1,
            p + row,
            p + row + 1,
        ]
    }
}

/// A set of padded cells that empties in constant time: a cell is in it
/// when its mark is the current one, and emptying it takes a new mark.
pub(crate) struct Marks {
    marks: Vec<u32>,
    current: u32,
}

impl Marks {
    /// An empty set over the cells of `board`.
    pub(crate) fn new(board: &Padded) -> Marks {
        Marks {
            marks: vec![0; board.open.len()],
            current: 1,
        }
    }

    /// Empties the set.
    pub(crate) fn clear(&mut self) {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            // (After 2^32 clearings the marks start again from a clean slate.)
            self.marks.fill(0);
            self.current = 1;
        }
    }

    /// Puts padded cell `p` in the set.
    pub(crate) fn insert(&mut self, p: usize) {
        self.marks[p] = self.current;
    }

    /// Whether padded cell `p` is in the set.
    pub(crate) fn contains(&self, p: usize) -> bool {
        self.marks[p] == self.current
    }
}
