//! Breadth-first routes for a moving snake: the shortest head path to a cell
//! when body cells free up as the tail moves on (a lower bound on any legal
//! path, and usually a legal path itself).

use super::Grid;

/// A shortest head path from the snake's head to `target`, as the cells
/// entered (the target last), or `None` if no path reaches it.
///
/// `body` is head first. Under the follow tail rule the cell `body[j]` can be
/// entered from step `len − j` on, when the tail has left it; with
/// `vacating` off, body cells stay blocked for good. The search does not see
/// the cells the path itself occupies, so its length is a lower bound on every
/// legal path; [`is_legal`] tells whether the path found is one.
pub fn shortest(grid: &Grid, body: &[usize], target: usize, vacating: bool) -> Option<Vec<usize>> {
    shortest_preferring(grid, body, target, vacating, |_, _| false)
}

/// Like [`shortest`], but of the shortest head paths one with the most
/// moves `from → to` that `prefer` likes (ties: the first found).
pub fn shortest_preferring(
    grid: &Grid,
    body: &[usize],
    target: usize,
    vacating: bool,
    prefer: impl Fn(usize, usize) -> bool,
) -> Option<Vec<usize>> {
    let len = body.len();
    let mut opens_at = vec![0usize; grid.cells()];
    for (j, &cell) in body.iter().enumerate() {
        opens_at[cell] = if vacating { len - j } else { usize::MAX };
    }
    // parents[t][cell]: the cell at step t − 1 on a path reaching `cell` at step t.
    let mut parents: Vec<Vec<u32>> = vec![];
    let mut frontier = vec![body[0]];
    let mut reached_before: Vec<Vec<usize>> = vec![vec![], vec![]];
    let mut on_level = vec![usize::MAX; grid.cells()];
    // Preferred moves on the best path to each cell of the last and this step.
    let (mut score, mut next_score) = (vec![0u32; grid.cells()], vec![0u32; grid.cells()]);
    for step in 1.. {
        let mut parent = vec![u32::MAX; grid.cells()];
        let mut next = Vec::new();
        for &from in &frontier {
            for to in grid.neighbours(from) {
                if opens_at[to] > step {
                    continue;
                }
                let s = score[from] + u32::from(prefer(from, to));
                if on_level[to] != step {
                    on_level[to] = step;
                    parent[to] = from as u32;
                    next_score[to] = s;
                    next.push(to);
                } else if s > next_score[to] {
                    parent[to] = from as u32;
                    next_score[to] = s;
                }
            }
        }
        parents.push(parent);
        std::mem::swap(&mut score, &mut next_score);
        if on_level[target] == step {
            let mut path = vec![target];
            let mut cell = target;
            for t in (1..step).rev() {
                cell = parents[t][cell] as usize;
                path.push(cell);
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
        *same_parity = next.clone();
        frontier = next;
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

#[cfg(test)]
mod tests {
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
    fn preferred_moves_pick_among_shortest_paths() {
        // 3x3 empty but the head at (0,0): to (2,2), four moves either way.
        let grid = Grid::new(3, 3);
        let down_first = |from: usize, to: usize| to == from + 3 && from.is_multiple_of(3);
        let path = shortest_preferring(&grid, &[0], 8, true, down_first).unwrap();
        assert_eq!(path, [3, 6, 7, 8]);
        let plain = shortest(&grid, &[0], 8, true).unwrap();
        assert_eq!(plain.len(), 4);
        assert_ne!(plain, path, "the first found goes right first");
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
}
