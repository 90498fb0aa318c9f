//! Reachability bounds that let encodings skip variables that cannot be true:
//! head cells the snake cannot be on at time `t`, and apple eating times that
//! are too early (or, with ordered apples, too late).
//!
//! The bounds ignore the body, so they only remove what no legal plan uses.

use std::collections::VecDeque;

use crate::instance::{Instance, Pos, Start};

/// Distances on the grid (walls respected, body ignored); `usize::MAX` where unreachable.
pub fn distances_from(instance: &Instance, walls: &[bool], from: Pos) -> Vec<usize> {
    let mut dist = vec![usize::MAX; instance.cells()];
    let start = instance.index(from);
    dist[start] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(p) = queue.pop_front() {
        let d = dist[instance.index(p)];
        for q in instance.neighbours(p) {
            let qi = instance.index(q);
            if !walls[qi] && dist[qi] == usize::MAX {
                dist[qi] = d + 1;
                queue.push_back(q);
            }
        }
    }
    dist
}

/// Which head cells and eating times can occur within `moves` moves.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// `head[t][cell]`: the head can be on `cell` at time `t`.
    pub head: Vec<Vec<bool>>,
    /// Earliest time apple `i` can be eaten (`usize::MAX`: never).
    pub earliest: Vec<usize>,
    /// Latest time apple `i` can be eaten if all are eaten by `moves`.
    pub latest: Vec<usize>,
}

/// Earliest possible eating time of every apple, ignoring the body.
fn earliest_times(instance: &Instance, walls: &[bool]) -> Vec<usize> {
    let n = instance.apples.len();
    let starts = start_cells(instance, walls);
    // Earliest time the head can first stand on cell `c` after t = 0.
    let first_visit = |target: Pos| -> usize {
        let d = distances_from(instance, walls, target);
        starts
            .iter()
            .map(|&s| match d[instance.index(s)] {
                usize::MAX => usize::MAX,
                0 => 2,
                k => k,
            })
            .min()
            .unwrap_or(usize::MAX)
    };
    let mut earliest: Vec<usize> = instance.apples.iter().map(|&a| first_visit(a)).collect();
    let v = instance.visible_at_start();
    if v == 1 {
        // Ordered apples: each one after the previous, at its distance (2 to re-enter a cell).
        for j in 1..n {
            let d = distances_from(instance, walls, instance.apples[j - 1])
                [instance.index(instance.apples[j])];
            let step = if d == 0 { 2 } else { d };
            earliest[j] = earliest[j - 1].saturating_add(step);
        }
    } else {
        // Apple i is revealed after i - v + 1 others have been eaten, one per step at best.
        for (i, e) in earliest.iter_mut().enumerate().skip(v) {
            *e = (*e).max(i - v + 2);
        }
    }
    earliest
}

/// Cells the head may occupy at `t = 0`.
pub fn start_cells(instance: &Instance, walls: &[bool]) -> Vec<Pos> {
    match &instance.start {
        Start::Body(body) => vec![body[0]],
        Start::Free { .. } => {
            let visible = &instance.apples[..instance.visible_at_start()];
            (0..instance.cells())
                .map(|i| instance.pos(i))
                .filter(|&p| !walls[instance.index(p)] && !visible.contains(&p))
                .collect()
        }
    }
}

/// A proven lower bound on the number of moves needed to eat every apple
/// (at least 1: a plan has at least one move).
pub fn lower_bound(instance: &Instance) -> usize {
    let walls = instance.wall_map();
    let earliest = earliest_times(instance, &walls);
    let n = instance.apples.len();
    earliest
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .max(n)
        .max(tree_bound(instance, &walls))
        .max(1)
}

/// The head visits every apple: its walk from the start through all apples
/// in eating order is a spanning path, so it is at least as long as a minimum
/// spanning tree over the start and the apples, with the moves between two
/// eats as weights (the distance: two apples on one cell may go in one step;
/// from the start, 2 when the head already stands on the apple). With a free
/// start: the cheapest first apple plus a spanning tree of the apples.
fn tree_bound(instance: &Instance, walls: &[bool]) -> usize {
    let n = instance.apples.len();
    if n == 0 {
        return 0;
    }
    let step = |d: usize| if d == 0 { 2 } else { d };
    let dist: Vec<Vec<usize>> = instance
        .apples
        .iter()
        .map(|&a| distances_from(instance, walls, a))
        .collect();
    let starts = start_cells(instance, walls);
    let first = |i: usize| {
        starts
            .iter()
            .map(|&s| step(dist[i][instance.index(s)]))
            .min()
            .unwrap_or(usize::MAX)
    };
    // Prim's algorithm over the apples, seeded by the start (fixed) or the cheapest first apple (free).
    let mut in_tree = vec![false; n];
    let mut best: Vec<usize>;
    let mut total: usize;
    match &instance.start {
        Start::Body(_) => {
            best = (0..n).map(first).collect();
            total = 0;
        }
        Start::Free { .. } => {
            let (i0, cost) = (0..n)
                .map(|i| (i, first(i)))
                .min_by_key(|&(_, c)| c)
                .unwrap();
            total = cost;
            in_tree[i0] = true;
            best = (0..n)
                .map(|j| dist[i0][instance.index(instance.apples[j])])
                .collect();
        }
    }
    while let Some(next) = (0..n).filter(|&i| !in_tree[i]).min_by_key(|&i| best[i]) {
        total = total.saturating_add(best[next]);
        in_tree[next] = true;
        for j in 0..n {
            if !in_tree[j] {
                best[j] = best[j].min(dist[next][instance.index(instance.apples[j])]);
            }
        }
    }
    total
}

impl Bounds {
    /// Computes the bounds for `moves` moves.
    pub fn compute(instance: &Instance, moves: usize) -> Bounds {
        let walls = instance.wall_map();
        let cells = instance.cells();
        let n = instance.apples.len();
        let earliest = earliest_times(instance, &walls);
        let mut latest = vec![moves; n];
        let ordered = instance.visible_at_start() == 1;
        if ordered {
            for j in (1..n).rev() {
                let d = distances_from(instance, &walls, instance.apples[j - 1])
                    [instance.index(instance.apples[j])];
                let step = if d == 0 { 2 } else { d };
                latest[j - 1] = latest[j].saturating_sub(step);
            }
        }

        // Forward reachability from the start cells.
        let mut head = vec![vec![false; cells]; moves + 1];
        for p in start_cells(instance, &walls) {
            head[0][instance.index(p)] = true;
        }
        for t in 1..=moves {
            let (before, after) = head.split_at_mut(t);
            let prev = &before[t - 1];
            let next = &mut after[0];
            for (i, &on) in prev.iter().enumerate() {
                if on {
                    for q in instance.neighbours(instance.pos(i)) {
                        let qi = instance.index(q);
                        if !walls[qi] {
                            next[qi] = true;
                        }
                    }
                }
            }
        }

        // Ordered apples: the head must be on its way between consecutive apples.
        if ordered && n > 0 {
            let dist: Vec<Vec<usize>> = instance
                .apples
                .iter()
                .map(|&a| distances_from(instance, &walls, a))
                .collect();
            for (t, row) in head.iter_mut().enumerate() {
                for (c, on) in row.iter_mut().enumerate() {
                    if !*on {
                        continue;
                    }
                    // Phase j: apples before j eaten, apple j not yet (j = n: all eaten).
                    let fits = (0..=n).any(|j| {
                        let after_prev = j == 0 || {
                            let e = earliest[j - 1];
                            e <= t && dist[j - 1][c] != usize::MAX && dist[j - 1][c] <= t - e
                        };
                        let before_next = j == n || {
                            let l = latest[j];
                            l > t && dist[j][c] != usize::MAX && dist[j][c] <= l - t
                        };
                        after_prev && before_next
                    });
                    *on = fits;
                }
            }
        }
        Bounds {
            head,
            earliest,
            latest,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::TailRule;

    #[test]
    fn ordered_apples_bound_the_head() {
        let inst = Instance {
            width: 5,
            height: 1,
            walls: vec![],
            start: Start::Body(vec![(0, 0)]),
            apples: vec![(2, 0), (4, 0)],
            visible: 1,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        };
        assert_eq!(lower_bound(&inst), 4);
        let b = Bounds::compute(&inst, 4);
        assert_eq!(b.earliest, vec![2, 4]);
        assert_eq!(b.latest, vec![2, 4]);
        for t in 0..=4 {
            let on: Vec<usize> = (0..5).filter(|&c| b.head[t][c]).collect();
            assert_eq!(on, vec![t], "t={t}");
        }
    }
}
