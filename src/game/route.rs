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

/// Paths to `target` worth certifying, shortest first (ties: in the order
/// found): the moving snake's shortest path as [`shortest`] finds it, the
/// one that follows `cycle` (successors) most, the one that keeps closest to
/// walls and the body (leaving no narrow gaps), and the same two after each
/// other first move (as long or two moves longer). Only legal paths, no
/// duplicates; none if the shortest path is not shorter than `limit`.
pub fn candidates(
    grid: &Grid,
    body: &[usize],
    target: usize,
    cycle: &[u32],
    limit: usize,
) -> Vec<Vec<usize>> {
    let Some(first_found) = shortest(grid, body, target, true).filter(|p| p.len() < limit) else {
        return vec![];
    };
    let mut blocked = vec![false; grid.cells()];
    for &c in body {
        blocked[c] = true;
    }
    let hugs = |_: usize, to: usize| {
        grid.neighbours(to).count() < 4 || grid.neighbours(to).any(|n| blocked[n])
    };
    let along = |from: usize, to: usize| cycle.get(from).is_some_and(|&s| s as usize == to);
    let mut found: Vec<Vec<usize>> = Vec::new();
    let mut push = |path: Option<Vec<usize>>| {
        if let Some(path) = path
            && is_legal(grid, body, &path)
            && !found.contains(&path)
        {
            found.push(path);
        }
    };
    push(Some(first_found));
    push(shortest_preferring(grid, body, target, true, along));
    push(shortest_preferring(grid, body, target, true, hugs));
    for first in grid.neighbours(body[0]) {
        if first == target || !is_legal(grid, body, &[first]) {
            continue;
        }
        let moved: Vec<usize> = std::iter::once(first)
            .chain(body[..body.len() - 1].iter().copied())
            .collect();
        let then = |rest: Option<Vec<usize>>| {
            rest.map(|rest| std::iter::once(first).chain(rest).collect::<Vec<_>>())
        };
        push(then(shortest_preferring(grid, &moved, target, true, along)));
        push(then(shortest_preferring(grid, &moved, target, true, hugs)));
    }
    found.sort_by_key(Vec::len);
    found
}

/// A quick necessary condition for a certificate of `body` (head first):
/// the cells off the body (its head and tail count as off it) are
/// connected, and each free cell has two neighbours among them. Always true
/// on boards with an odd number of cells, where the certificate may skip a cell.
pub fn plausible(grid: &Grid, body: &[usize]) -> bool {
    let cells = grid.cells();
    if cells % 2 == 1 || body.len() < 2 {
        return true;
    }
    let mut open = vec![true; cells];
    for &c in &body[1..body.len() - 1] {
        open[c] = false;
    }
    let (head, tail) = (body[0], body[body.len() - 1]);
    for c in 0..cells {
        if open[c] && c != head && c != tail && grid.neighbours(c).filter(|&n| open[n]).count() < 2
        {
            return false;
        }
    }
    let mut seen = vec![false; cells];
    seen[head] = true;
    let mut stack = vec![head];
    let mut reached = 1;
    while let Some(c) = stack.pop() {
        for n in grid.neighbours(c) {
            if open[n] && !seen[n] {
                seen[n] = true;
                reached += 1;
                stack.push(n);
            }
        }
    }
    reached == cells + 2 - body.len()
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
    #[test]
    fn candidates_are_legal_and_shortest_first() {
        let grid = Grid::new(6, 6);
        // A body along the bottom row, the head at (3,0).
        let body = [3, 2, 1, 0];
        let target = grid.index((3, 4));
        let least = shortest(&grid, &body, target, true).unwrap().len();
        let found = candidates(&grid, &body, target, &[], usize::MAX);
        assert!(found.len() > 1, "{found:?}");
        assert_eq!(found[0].len(), least);
        assert!(found.windows(2).all(|w| w[0].len() <= w[1].len()));
        for (i, path) in found.iter().enumerate() {
            assert!(is_legal(&grid, &body, path));
            assert_eq!(path.last(), Some(&target));
            assert!(path.len() == least || path.len() == least + 2);
            assert!(!found[..i].contains(path), "no duplicates");
        }
        // Nothing when the shortest path is not shorter than the limit.
        assert!(candidates(&grid, &body, target, &[], least).is_empty());
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
