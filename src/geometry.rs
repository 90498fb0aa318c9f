//! The board's geometry, one copy for the whole crate: the cell type
//! [`Pos`] (column, row), the numbering of cells row by row ([`Grid`]), the
//! four [`Direction`]s in one documented order with their offsets and
//! letters, neighbours, adjacency, Manhattan distance and the chessboard
//! 2-colouring. The instance, the simulator, the encoders, the full game,
//! the constructive search, the report and the PDDL reader and writer all
//! read the board through it.
//!
//! [`Direction::ALL`] is the one order: left, right, up, down (`x − 1`,
//! `x + 1`, `y − 1`, `y + 1`). A few outputs fixed before this module
//! existed list directions in another order, and that order is part of what
//! they write: the `move d t` and `tail-move d t` variables of `body=tail`
//! number `d` right, left, down, up (docs/FORMATS.md), the PDDL writer lists
//! `ISADJACENT` facts right, down, left, up, the family generator shuffles
//! candidate cells listed in that order, and the constructive search breaks
//! ties down, right, up, left. Each of those keeps its order as an explicit
//! array of [`Direction`]s beside its use, so the files they write stay
//! byte-identical.
//!
//! Hand-written rather than taken from a grid crate (`grid`, `pathfinding`'s
//! `Grid`): the crate needs only these few functions on `(usize, usize)`
//! cells, and the direction order must be ours, since it shows in the
//! DIMACS and PDDL files.

/// A cell as `(x, y)`: column then row, both from 0; `y` grows downwards.
pub type Pos = (usize, usize);

/// One of the four moves on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// `x − 1`.
    Left,
    /// `x + 1`.
    Right,
    /// `y − 1` (towards row 0).
    Up,
    /// `y + 1`.
    Down,
}

impl Direction {
    /// Every direction in the crate's one order: left, right, up, down.
    /// [`Direction::index`] is the position in this array.
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    /// The position of the direction in [`Direction::ALL`] (`0..4`).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The step `(dx, dy)` the direction makes.
    pub fn offset(self) -> (isize, isize) {
        match self {
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
        }
    }

    /// The letter of the move: `L`, `R`, `U`, `D`.
    pub fn letter(self) -> char {
        match self {
            Direction::Left => 'L',
            Direction::Right => 'R',
            Direction::Up => 'U',
            Direction::Down => 'D',
        }
    }

    /// The direction back.
    pub fn opposite(self) -> Direction {
        match self {
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }

    /// The direction of the move from `from` to `to`, or `None` when the two
    /// cells do not share a side.
    pub fn from_to(from: Pos, to: Pos) -> Option<Direction> {
        // (Not through `isize`: cells a whole `usize` apart looked adjacent.)
        match (from.0.abs_diff(to.0), from.1.abs_diff(to.1)) {
            (1, 0) if to.0 > from.0 => Some(Direction::Right),
            (1, 0) => Some(Direction::Left),
            (0, 1) if to.1 > from.1 => Some(Direction::Down),
            (0, 1) => Some(Direction::Up),
            _ => None,
        }
    }
}

/// A rectangular `width × height` board; cell `(x, y)` is numbered
/// `y * width + x` (row by row), so `width × height` must fit in a `usize`
/// (every board an [`crate::instance::Instance`] validates does: a side is
/// at most [`crate::instance::MAX_SIDE`]).
///
/// # Panics
///
/// The methods that take a cell number ([`Grid::pos`], [`Grid::neighbours`],
/// [`Grid::neighbours_by_direction`], [`Grid::distance`], [`Grid::colour`])
/// divide by `width`: they panic on a board without columns, which numbers
/// no cell. [`Grid::index`] overflows (a panic in a debug build) for a cell
/// whose number does not fit in a `usize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
}

impl Grid {
    /// A `width × height` board.
    pub fn new(width: usize, height: usize) -> Self {
        Grid { width, height }
    }

    /// Number of cells (`usize::MAX` for a board of more, which no
    /// validated instance has: its sides are at most
    /// [`MAX_SIDE`](crate::instance::MAX_SIDE)).
    pub fn cells(&self) -> usize {
        self.width.saturating_mul(self.height)
    }

    /// The number of cell `(x, y)`: `y * width + x`, for a cell of the board.
    /// A cell off it gives a number that is not its own: another cell's, or
    /// one past the last cell or far beyond it (check with
    /// [`Grid::on_grid`] first).
    pub fn index(&self, (x, y): Pos) -> usize {
        y * self.width + x
    }

    /// The cell `(x, y)` numbered `cell`.
    ///
    /// # Panics
    ///
    /// On a board without columns (`width` 0), which numbers no cell.
    pub fn pos(&self, cell: usize) -> Pos {
        (cell % self.width, cell / self.width)
    }

    /// Whether `p` lies on the board.
    pub fn on_grid(&self, (x, y): Pos) -> bool {
        x < self.width && y < self.height
    }

    /// The cell one step from `p` in direction `d`, if on the board.
    pub fn step(&self, (x, y): Pos, d: Direction) -> Option<Pos> {
        let (dx, dy) = d.offset();
        let p = (x.checked_add_signed(dx)?, y.checked_add_signed(dy)?);
        self.on_grid(p).then_some(p)
    }

    /// The cells next to `p` on the board, in [`Direction::ALL`] order.
    pub fn neighbours_of(&self, p: Pos) -> impl Iterator<Item = Pos> + use<> {
        let grid = *self;
        Direction::ALL
            .into_iter()
            .filter_map(move |d| grid.step(p, d))
    }

    /// The neighbour of `cell` in each direction, as
    /// `(`[`Direction::index`]`, neighbour)` in [`Direction::ALL`] order;
    /// `None` off the board.
    pub fn neighbours_by_direction(
        &self,
        cell: usize,
    ) -> impl Iterator<Item = (usize, Option<usize>)> + use<> {
        let (x, y) = self.pos(cell);
        let (w, h) = (self.width, self.height);
        Direction::ALL.into_iter().map(move |d| {
            let n = match d {
                Direction::Left => (x > 0).then(|| cell - 1),
                Direction::Right => (x + 1 < w).then(|| cell + 1),
                Direction::Up => (y > 0).then(|| cell - w),
                Direction::Down => (y + 1 < h).then(|| cell + w),
            };
            (d.index(), n)
        })
    }

    /// The neighbours of `cell` on the board, in [`Direction::ALL`] order.
    pub fn neighbours(&self, cell: usize) -> impl Iterator<Item = usize> + use<> {
        self.neighbours_by_direction(cell).filter_map(|(_, n)| n)
    }

    /// The [`Direction::index`] of the move from `cell` to its neighbour
    /// `to` (which must be one: other cells give a meaningless answer).
    pub fn direction(&self, from: usize, to: usize) -> usize {
        // Rows first: on a one-column board a step up is also a difference of -1.
        let width = self.width as isize;
        let d = match to as isize - from as isize {
            d if d == -width => Direction::Up,
            d if d == width => Direction::Down,
            d if d < 0 => Direction::Left,
            _ => Direction::Right,
        };
        d.index()
    }

    /// True when `a` and `b` share a side.
    pub fn adjacent(&self, a: usize, b: usize) -> bool {
        self.distance(a, b) == 1
    }

    /// Manhattan distance between two cells.
    pub fn distance(&self, a: usize, b: usize) -> usize {
        let ((ax, ay), (bx, by)) = (self.pos(a), self.pos(b));
        ax.abs_diff(bx) + ay.abs_diff(by)
    }

    /// The chessboard colour of `cell`, `(x + y) mod 2`: every move changes
    /// it, so the board is bipartite and every walk between two cells has
    /// the parity of their distance.
    pub fn colour(&self, cell: usize) -> usize {
        let (x, y) = self.pos(cell);
        (x + y) % 2
    }
}

/// Every cell's neighbours on a board (cell numbers, in [`Direction::ALL`]
/// order, as [`Grid::neighbours`] gives them), listed once for loops that
/// ask at every time point or search node, where [`Grid::neighbours`] would
/// divide by the width each time.
#[derive(Clone, Debug)]
pub(crate) struct NeighbourTable {
    /// The neighbours of cell `c`: `cells[c].0[..cells[c].1]`.
    cells: Vec<([usize; 4], usize)>,
}

impl NeighbourTable {
    /// The table of `grid`.
    pub(crate) fn new(grid: Grid) -> NeighbourTable {
        let cells = (0..grid.cells())
            .map(|c| {
                let mut entry = ([0; 4], 0);
                for n in grid.neighbours(c) {
                    entry.0[entry.1] = n;
                    entry.1 += 1;
                }
                entry
            })
            .collect();
        NeighbourTable { cells }
    }

    /// The board's cells.
    pub(crate) fn cells(&self) -> usize {
        self.cells.len()
    }

    /// The neighbours of `cell`.
    #[inline]
    pub(crate) fn around(&self, cell: usize) -> &[usize] {
        let (neighbours, count) = &self.cells[cell];
        &neighbours[..*count]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn direction_names_every_step_on_every_board_shape() {
        // One column (a step up was read as a step left), one row, 2x2, 5x3.
        for (w, h) in [(1, 4), (4, 1), (2, 2), (5, 3), (2, 5)] {
            let grid = Grid::new(w, h);
            for cell in 0..grid.cells() {
                for (index, next) in grid.neighbours_by_direction(cell) {
                    if let Some(next) = next {
                        assert_eq!(grid.direction(cell, next), index, "{w}x{h} {cell}->{next}");
                    }
                }
            }
        }
    }

    #[test]
    fn index_and_pos_round_trip() {
        let grid = Grid::new(5, 3);
        assert_eq!(grid.cells(), 15);
        for cell in 0..grid.cells() {
            let p = grid.pos(cell);
            assert!(grid.on_grid(p));
            assert_eq!(grid.index(p), cell);
        }
        assert_eq!(grid.pos(7), (2, 1));
        assert!(!grid.on_grid((5, 0)));
        assert!(!grid.on_grid((0, 3)));
    }

    #[test]
    fn neighbours_come_left_right_up_down() {
        let grid = Grid::new(4, 3);
        let centre = grid.index((1, 1));
        let by_direction: Vec<_> = grid.neighbours_by_direction(centre).collect();
        assert_eq!(
            by_direction,
            vec![
                (0, Some(grid.index((0, 1)))),
                (1, Some(grid.index((2, 1)))),
                (2, Some(grid.index((1, 0)))),
                (3, Some(grid.index((1, 2)))),
            ]
        );
        assert_eq!(
            grid.neighbours_of((1, 1)).collect::<Vec<_>>(),
            [(0, 1), (2, 1), (1, 0), (1, 2)]
        );
        // A corner has two, in the same order.
        assert_eq!(
            grid.neighbours_of((0, 0)).collect::<Vec<_>>(),
            [(1, 0), (0, 1)]
        );
        assert_eq!(grid.neighbours(0).collect::<Vec<_>>(), [1, 4]);
        assert_eq!(
            grid.neighbours_by_direction(grid.index((3, 2)))
                .collect::<Vec<_>>(),
            [(0, Some(10)), (1, None), (2, Some(7)), (3, None)]
        );
    }

    #[test]
    fn cell_and_position_neighbours_agree_with_steps_and_adjacency() {
        let grid = Grid::new(4, 3);
        for cell in 0..grid.cells() {
            let p = grid.pos(cell);
            let by_cell: Vec<Pos> = grid.neighbours(cell).map(|n| grid.pos(n)).collect();
            let by_pos: Vec<Pos> = grid.neighbours_of(p).collect();
            assert_eq!(by_cell, by_pos);
            for (d, n) in grid.neighbours_by_direction(cell) {
                let dir = Direction::ALL[d];
                assert_eq!(n.map(|n| grid.pos(n)), grid.step(p, dir));
                if let Some(n) = n {
                    assert_eq!(grid.direction(cell, n), d);
                    assert_eq!(Direction::from_to(p, grid.pos(n)), Some(dir));
                    assert!(grid.adjacent(cell, n));
                    assert_eq!(grid.distance(cell, n), 1);
                }
            }
            let adjacent = (0..grid.cells())
                .filter(|&o| grid.adjacent(cell, o))
                .count();
            assert_eq!(adjacent, by_cell.len());
        }
    }

    #[test]
    fn directions_invert_and_are_lettered() {
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            assert_eq!(d.index(), i);
            assert_ne!(d.opposite(), d);
            assert_eq!(d.opposite().opposite(), d);
            let (dx, dy) = d.offset();
            assert_eq!(d.opposite().offset(), (-dx, -dy));
            let (a, b) = ((5, 5), ((5 + dx) as usize, (5 + dy) as usize));
            assert_eq!(Direction::from_to(a, b), Some(d));
            assert_eq!(Direction::from_to(b, a), Some(d.opposite()));
        }
        let letters: String = Direction::ALL.iter().map(|d| d.letter()).collect();
        assert_eq!(letters, "LRUD");
        assert_eq!(Direction::from_to((1, 1), (1, 1)), None);
        assert_eq!(Direction::from_to((1, 1), (2, 2)), None);
        assert_eq!(Direction::from_to((0, 0), (2, 0)), None);
        // Cells a whole `usize` apart (through `isize`, this was `Right`).
        assert_eq!(Direction::from_to((usize::MAX, 0), (0, 0)), None);
        assert_eq!(Direction::from_to((0, 0), (usize::MAX, 0)), None);
        assert_eq!(
            Direction::from_to((usize::MAX - 1, 3), (usize::MAX, 3)),
            Some(Direction::Right)
        );
    }

    #[test]
    fn steps_stop_at_every_edge() {
        let grid = Grid::new(2, 2);
        assert_eq!(grid.step((0, 0), Direction::Left), None);
        assert_eq!(grid.step((0, 0), Direction::Up), None);
        assert_eq!(grid.step((1, 1), Direction::Right), None);
        assert_eq!(grid.step((1, 1), Direction::Down), None);
        assert_eq!(grid.step((0, 0), Direction::Down), Some((0, 1)));
    }

    #[test]
    fn colouring_is_proper_and_balanced() {
        for (w, h) in [(1, 1), (3, 3), (4, 5), (6, 2)] {
            let grid = Grid::new(w, h);
            for cell in 0..grid.cells() {
                for n in grid.neighbours(cell) {
                    assert_ne!(grid.colour(cell), grid.colour(n));
                }
                assert_eq!(grid.colour(cell), grid.distance(0, cell) % 2);
            }
            let dark = (0..grid.cells()).filter(|&c| grid.colour(c) == 1).count();
            assert_eq!(grid.cells() - 2 * dark, grid.cells() % 2);
        }
    }
}
