//! A fixed Hamiltonian cycle of the 16×16 grid, for long legal plans in
//! rendering tests and benchmarks.

use snakesat::instance::Pos;

/// A Hamiltonian cycle of a 16×16 grid: row 0 left to right, a zig-zag over
/// columns 1..16 of rows 1..16, and back up column 0.
pub fn cycle16() -> Vec<Pos> {
    let mut cells: Vec<Pos> = (0..16).map(|x| (x, 0)).collect();
    for y in 1..16 {
        if y % 2 == 1 {
            cells.extend((1..16).rev().map(|x| (x, y)));
        } else {
            cells.extend((1..16).map(|x| (x, y)));
        }
    }
    cells.extend((1..16).rev().map(|y| (0, y)));
    cells
}
