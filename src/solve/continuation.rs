//! Keeping a snake moving once every apple is eaten: a depth-first search
//! for a legal walk of a given number of moves from a body, with no apples
//! left. It serves the fixed-horizon shortcut ([`super::solve_fixed`]): a
//! plan of fewer moves followed by such a walk is a plan of exactly the
//! horizon. Open space makes the walk easy (the first branch almost always
//! succeeds), so a small node budget is spent before the caller falls back to
//! a formula for the walk; the caller replays the joined plan in the
//! simulator in any case.

use std::collections::VecDeque;

use crate::instance::{Instance, Pos, TailRule};

/// The moves left to try from one cell of the walk, ranked by how many open
/// neighbours they lead to; the best is taken first.
struct Choices {
    ranked: [(usize, Pos); 4],
    len: usize,
}

impl Choices {
    /// The best move not yet tried.
    fn pop(&mut self) -> Option<Pos> {
        self.len = self.len.checked_sub(1)?;
        Some(self.ranked[self.len].1)
    }
}

/// A legal walk of `moves` moves for a snake whose body is `body` (head
/// first) on `instance`'s board with no apples: the head's cells, `moves +
/// 1` of them starting at the head. The body still grows by `pending` cells
/// (a free start's body not yet unrolled, or an apple eaten on the last
/// move): its tail stays put for that many moves, as if the tail cell were
/// in the body `pending` more times, and the snake no longer grows after.
/// `None` when `nodes` search nodes (one per move tried; a walk takes at
/// least `moves`) found none (there may still be one). Each move enters a
/// free cell or, under the `follow` tail rule, the cell the tail leaves;
/// moves into cells with more open neighbours are tried first.
pub(crate) fn walk(
    instance: &Instance,
    body: &[Pos],
    moves: usize,
    pending: usize,
    nodes: usize,
) -> Option<Vec<Pos>> {
    let head = *body.first()?;
    let tail = *body.last()?;
    // The body, head first, the tail cell repeated for the growth to come.
    let mut snake: VecDeque<Pos> = body
        .iter()
        .copied()
        .chain(std::iter::repeat_n(tail, pending))
        .collect();
    // How many of the snake's entries lie on each cell (a wall counts as one).
    let mut occupied: Vec<usize> = instance.wall_map().into_iter().map(usize::from).collect();
    for &p in &snake {
        occupied[instance.index(p)] += 1;
    }
    let follow = instance.tail == TailRule::Follow;
    let mut path = vec![head];
    // Per depth: the moves not yet tried, best last (at most four: no
    // allocation per node).
    let mut choices: Vec<Choices> = Vec::with_capacity(moves);
    let mut spent = 0;
    // The tail cells vacated by each move, to undo it.
    let mut vacated: Vec<Pos> = Vec::with_capacity(moves);
    let options = |snake: &VecDeque<Pos>, occupied: &[usize]| {
        let tail = *snake.back().expect("a body has a cell");
        // (The tail's cell is free next only if it is its last entry.)
        let count = |p: Pos| occupied[instance.index(p)];
        let open = |p: Pos| count(p) == 0 || (follow && p == tail && count(p) == 1);
        let mut ranked = [(0, (0, 0)); 4];
        let mut len = 0;
        for p in instance.neighbours(snake[0]).filter(|&p| open(p)) {
            ranked[len] = (instance.neighbours(p).filter(|&q| open(q)).count(), p);
            len += 1;
        }
        ranked[..len].sort_unstable();
        Choices { ranked, len }
    };
    if moves > 0 {
        choices.push(options(&snake, &occupied));
    }
    while path.len() <= moves {
        let Some(next) = choices.last_mut().and_then(Choices::pop) else {
            // Every move from here failed: undo the move that led here.
            choices.pop();
            let tail = vacated.pop()?;
            path.pop();
            let head = snake.pop_front().expect("a moved snake has a head");
            occupied[instance.index(head)] -= 1;
            snake.push_back(tail);
            occupied[instance.index(tail)] += 1;
            continue;
        };
        spent += 1;
        if spent > nodes {
            return None;
        }
        let tail = snake.pop_back().expect("a body has a cell");
        occupied[instance.index(tail)] -= 1;
        snake.push_front(next);
        occupied[instance.index(next)] += 1;
        vacated.push(tail);
        path.push(next);
        if path.len() <= moves {
            choices.push(options(&snake, &occupied));
        }
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Start;

    fn board(width: usize, height: usize, body: Vec<Pos>, tail: TailRule) -> Instance {
        Instance {
            width,
            height,
            walls: vec![],
            start: Start::Body(body),
            apples: vec![],
            visible: 0,
            grow: true,
            tail,
            horizon: None,
        }
    }

    /// Every walk found is legal (the simulator replays it) and as long as asked.
    #[test]
    fn walks_are_legal_and_of_the_length_asked() {
        for tail in [TailRule::Follow, TailRule::Strict] {
            let body = vec![(1, 1), (1, 0), (0, 0), (0, 1), (0, 2)];
            let instance = board(4, 4, body.clone(), tail);
            for moves in [0, 1, 7, 40, 200] {
                let path = walk(&instance, &body, moves, 0, 100_000).expect("open board");
                assert_eq!(path.len(), moves + 1);
                let at = Instance {
                    horizon: Some(moves),
                    ..instance.clone()
                };
                crate::sim::simulate(&at, &path).expect("a legal walk");
            }
        }
    }

    /// A snake filling a 2x2 square walks in circles only by entering the
    /// cell its tail leaves: under `strict` it has no move.
    #[test]
    fn a_strict_tail_can_block_every_walk() {
        let body = vec![(0, 0), (1, 0), (1, 1), (0, 1)];
        let follow = board(2, 2, body.clone(), TailRule::Follow);
        assert_eq!(walk(&follow, &body, 9, 0, 1000).map(|p| p.len()), Some(10));
        let strict = board(2, 2, body.clone(), TailRule::Strict);
        assert_eq!(walk(&strict, &body, 9, 0, 1000), None);
        assert_eq!(walk(&strict, &body, 0, 0, 1000), Some(vec![(0, 0)]));
    }
}
