//! Full boards: instances where eating every apple fills every free cell
//! (a fixed start, growth, the strict tail rule, and the starting length plus
//! the apples equal to the free cells). This module owns that test
//! ([`ends_full`]) and the facts it implies for a plan of exactly `T` moves
//! ([`FullBoard::facts`]), which the direct encoding adds to its formula at a
//! fixed horizon. The incremental search writes its own *cover* and *once*
//! clauses for full boards, under per-horizon assumptions (no *degree*
//! facts; `crate::solve::incremental`).
//!
//! Why they hold: the body at any time is its last `len` head cells, all
//! distinct (the initial body is valid, and each new head avoids the previous
//! body). With every apple eaten, `len` is the number `L` of free cells, so
//! the body covers them all and the next head would enter a cell the body held
//! at most `L` steps ago, which the strict rule forbids: no move follows the
//! last eat. So in a plan of exactly `T` moves
//!
//! - the last apple is eaten exactly at `T` (not every apple at `T − 1`);
//! - *cover*: every free cell holds the head at some time in `T − L + 1..=T`
//!   (times below 0 standing for the initial body: `−k` is its cell `k`);
//! - *once*: no free cell holds the head twice in that window (those `L`
//!   heads are the final body, all distinct).
//!
//! The last two say that the end of the plan is a Hamiltonian path of the free
//! cells. The solver could derive *once* from *cover* only by counting (a
//! pigeonhole argument, exponential for resolution), so it is given directly.
//!
//! *Degree* ([`FullBoard::degree_facts`]): at a time `s` of that window, the
//! heads still to come (`s + 1..=T`) are a path through exactly the free cells
//! not yet visited in the window, entered from the head at `s`. On that path
//! every cell but the last (the head at `T`) has two path neighbours, each a
//! grid neighbour that is unvisited or the head at `s`. So an unvisited cell
//! that is not the head at `T` has at least two such neighbours. With
//! `visited(s, c)` meaning "the head was on `c` at some time of the window up
//! to `s`" (defined by clauses both ways), that is, for every set `S` of all
//! but one of `c`'s free neighbours:
//! `visited(s, c) ∨ head(T, c) ∨ ⋁_{n ∈ S} (¬visited(s, n) ∨ head(s, n))`.
//! The rule cuts the dead ends a Hamiltonian path cannot leave; measured with
//! the external `cadical` on IPC-2018 optimal problems 14 and 8 at refuted
//! horizons, it takes 1.2–2.4 times less time (docs/ipc2018.md, "Full boards").

use crate::cnf::{FALSE, Lit, TRUE};
use crate::geometry::Grid;
use crate::instance::{Instance, Start, TailRule};

/// True when eating every apple fills every free cell with a body that can
/// no longer move (see the module documentation).
pub fn ends_full(instance: &Instance) -> bool {
    FullBoard::of(instance).is_some()
}

/// True when eating every apple makes the snake as long as the free cells
/// are many, whatever the tail rule and the start: the final snake fills the
/// board (under `follow` it can still move, into the cell its tail leaves,
/// so [`ends_full`] does not hold; its SAT refutations are as slow).
pub fn fills_board(instance: &Instance) -> bool {
    instance.grow
        && !instance.apples.is_empty()
        && instance.initial_length() + instance.apples.len() == instance.free_cells()
}

/// True when the snake, starting from an explicit body and growing at every
/// apple, would grow longer than the free cells: at its last eat its body
/// covers its initial length plus one cell per apple, all distinct under
/// either tail rule (the tail stays where it is when the snake eats), so no
/// plan exists at any horizon (the formulas would refute each horizon by a
/// pigeonhole count, up to the largest one). A free start is left out, as
/// in [`colours_forbid`]: its body before `t = 0` is not on the board.
pub fn overfills(instance: &Instance) -> bool {
    matches!(instance.start, Start::Body(_))
        && instance.grow
        && instance.initial_length() + instance.apples.len() > instance.free_cells()
}

/// True when the instance fills the board ([`fills_board`]) from an
/// explicit body and its free cells cannot hold the final body: at the last
/// eat that body is the last `L` heads (the initial body's cells counting as
/// heads before `t = 0`), `L` the number of free cells, all distinct under
/// either tail rule, so a Hamiltonian path of the free cells, whose
/// chessboard colours alternate along it: the counts of the two colours
/// differ by at most one. When they differ by more, no plan exists at any
/// horizon (the formulas would refute each by a pigeonhole count, which
/// resolution cannot do briefly). A free start is left out: its cells
/// before `t = 0` are unknown, so its final body need not cover the board.
pub fn colours_forbid(instance: &Instance) -> bool {
    if !matches!(instance.start, Start::Body(_)) || !fills_board(instance) {
        return false;
    }
    let grid = instance.grid();
    let walls = instance.wall_map();
    let (mut dark, mut free) = (0usize, 0usize);
    for c in (0..instance.cells()).filter(|&c| !walls[c]) {
        free += 1;
        dark += usize::from(grid.colour(c) == 1);
    }
    dark.abs_diff(free - dark) > 1
}

/// The most clauses [`FullBoard::facts`] writes for *once* (pairs of times in
/// the window, times the free cells); beyond it *once* is left out (the other
/// facts and the rules still make the formula exact).
pub const MAX_ONCE_CLAUSES: usize = 5_000_000;

/// A full-board instance's free cells and initial body.
#[derive(Clone, Debug)]
pub struct FullBoard {
    /// Cell indices that are not walls.
    free: Vec<usize>,
    /// The initial body's cells, head first (the cell at time `−k` is `body[k]`).
    body: Vec<usize>,
    /// The grid and its walls (for the free neighbours of *degree*).
    grid: Grid,
    walls: Vec<bool>,
}

impl FullBoard {
    /// The full board of `instance`, if it is one.
    pub fn of(instance: &Instance) -> Option<FullBoard> {
        let Start::Body(body) = &instance.start else {
            return None;
        };
        if instance.tail != TailRule::Strict || !fills_board(instance) {
            return None;
        }
        let walls = instance.wall_map();
        let free: Vec<usize> = (0..instance.cells()).filter(|&c| !walls[c]).collect();
        Some(FullBoard {
            free,
            body: body.iter().map(|&p| instance.index(p)).collect(),
            grid: instance.grid(),
            walls,
        })
    }

    /// `L`, the number of free cells: the final length.
    pub fn length(&self) -> usize {
        self.free.len()
    }

    /// The free cells (indices).
    pub fn free(&self) -> &[usize] {
        &self.free
    }

    /// Whether *once* fits in [`MAX_ONCE_CLAUSES`] (pairs of the window's
    /// times, per free cell).
    fn once_fits(&self) -> bool {
        let l = self.length();
        l.saturating_mul(l.saturating_sub(1)) / 2 * l <= MAX_ONCE_CLAUSES
    }

    /// The facts of a plan of exactly `t` moves (see the module
    /// documentation): `head(s, c)` is the literal "the head is on cell `c`
    /// at time `s`" for `s` in `0..=t` (constants allowed), `eaten(i, s)`
    /// "apple `i` eaten by `s`", `apples` their number; every clause goes to
    /// `add` (it may hold the constants [`TRUE`] and [`FALSE`]).
    pub fn facts(
        &self,
        t: usize,
        apples: usize,
        mut head: impl FnMut(usize, usize) -> Lit,
        eaten: impl Fn(usize, usize) -> Lit,
        mut add: impl FnMut(&[Lit]),
    ) {
        if t == 0 {
            // Zero moves eat nothing: the apples' clauses already refute it.
            return;
        }
        let l = self.length();
        let not_done: Vec<Lit> = (0..apples).map(|i| -eaten(i, t - 1)).collect();
        add(&not_done);
        // The window's times `t + 1 - l ..= t`, shifted by `l` to stay unsigned:
        // `u` stands for time `u - l`.
        let first = t + 1;
        let window: Vec<usize> = (first..=t + l).collect();
        let mut clause = Vec::with_capacity(l);
        for &c in &self.free {
            clause.clear();
            clause.extend(window.iter().map(|&u| self.at(u, c, &mut head)));
            add(&clause);
        }
        if !self.once_fits() {
            return;
        }
        for &c in &self.free {
            let lits: Vec<Lit> = window.iter().map(|&u| self.at(u, c, &mut head)).collect();
            for (i, &a) in lits.iter().enumerate() {
                if a == FALSE {
                    continue;
                }
                for &b in &lits[i + 1..] {
                    if b != FALSE {
                        add(&[-a, -b]);
                    }
                }
            }
        }
    }

    /// The literal "the head is on `c` at time `u − L`": window times are
    /// shifted by `L` to stay unsigned; below time 0 (time `−k`, `k = L − u`)
    /// the initial body's cell `k` is a constant.
    fn at(&self, u: usize, c: usize, head: &mut impl FnMut(usize, usize) -> Lit) -> Lit {
        let l = self.length();
        if u >= l {
            head(u - l, c)
        } else {
            match self.body.get(l - u) {
                Some(&b) if b == c => TRUE,
                _ => FALSE,
            }
        }
    }

    /// The times `s` of a plan of exactly `t` moves that carry *degree*
    /// facts: the window's times from `max(t + 1 − L, 0)` to `t − 2` (at `t − 1`
    /// one cell is left, the last head). Empty when the window is too short.
    pub fn degree_times(&self, t: usize) -> std::ops::Range<usize> {
        (t + 1).saturating_sub(self.length())..t.saturating_sub(1)
    }

    /// The *degree* facts of a plan of exactly `t` moves (see the module
    /// documentation): `head(s, c)` as for [`facts`](FullBoard::facts),
    /// `visited(s, c)` a fresh variable for every `s` of
    /// [`degree_times`](FullBoard::degree_times) and free cell `c`, which
    /// these clauses define. Writes nothing when those times are empty.
    pub fn degree_facts(
        &self,
        t: usize,
        mut head: impl FnMut(usize, usize) -> Lit,
        visited: impl Fn(usize, usize) -> Lit,
        mut add: impl FnMut(&[Lit]),
    ) {
        let times = self.degree_times(t);
        if times.is_empty() {
            return;
        }
        let l = self.length();
        let mut clause: Vec<Lit> = Vec::with_capacity(2 + 2 * 4);
        // `visited(first, c)`: the head on `c` at a time of the window up to
        // `first` (times below 0: the initial body's cells).
        let first = times.start;
        for &c in &self.free {
            let v = visited(first, c);
            clause.clear();
            clause.push(-v);
            // Window times `t + 1 − l ..= first`, as `u − l` for `u` in `t + 1..=first + l`.
            for u in t + 1..=first + l {
                let at = self.at(u, c, &mut head);
                add(&[-at, v]);
                clause.push(at);
            }
            add(&clause);
        }
        for s in first + 1..times.end {
            for &c in &self.free {
                let (v, before, now) = (visited(s, c), visited(s - 1, c), head(s, c));
                add(&[-before, v]);
                add(&[-now, v]);
                add(&[-v, before, now]);
            }
        }
        let neighbours: Vec<Vec<usize>> = self
            .free
            .iter()
            .map(|&c| {
                self.grid
                    .neighbours(c)
                    .filter(|&n| !self.walls[n])
                    .collect()
            })
            .collect();
        for s in times {
            for (&c, neighbours) in self.free.iter().zip(&neighbours) {
                // Every set of all but one neighbour holds an available one.
                for skip in 0..neighbours.len() {
                    clause.clear();
                    clause.push(visited(s, c));
                    clause.push(head(t, c));
                    for (k, &n) in neighbours.iter().enumerate() {
                        if k != skip {
                            clause.push(-visited(s, n));
                            clause.push(head(s, n));
                        }
                    }
                    add(&clause);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::json::from_json;

    #[test]
    fn only_boards_that_fill_up_are_full() {
        // 3x1, body of one, two apples: 1 + 2 = 3 free cells.
        let full = r#"{"width": 3, "height": 1, "snake": [[0, 0]], "apples": [[1, 0], [2, 0]],
            "tail": "strict"}"#;
        let board = FullBoard::of(&from_json(full).unwrap()).expect("full");
        assert_eq!(board.length(), 3);
        assert_eq!(board.free(), &[0, 1, 2]);
        let follow = full.replace("strict", "follow");
        assert!(!ends_full(&from_json(&follow).unwrap()));
        let one_apple = r#"{"width": 3, "height": 1, "snake": [[0, 0]], "apples": [[1, 0]],
            "tail": "strict"}"#;
        assert!(!ends_full(&from_json(one_apple).unwrap()));
    }

    /// 3x1, body (1,0),(0,0), one apple at (2,0): L = 3.
    const LINE: &str = r#"{"width": 3, "height": 1, "snake": [[1, 0], [0, 0]],
        "apples": [[2, 0]], "tail": "strict"}"#;

    #[test]
    fn degree_facts_speak_of_the_window_only() {
        // 3x1, body (1,0),(0,0), one apple at (2,0): L = 3.
        let inst = from_json(LINE).unwrap();
        let board = FullBoard::of(&inst).expect("full");
        let head = |s: usize, c: usize| (10 * s + c + 1) as Lit;
        let visited = |s: usize, c: usize| (100 + 10 * s + c) as Lit;
        let facts = |t: usize| {
            let mut clauses = Vec::new();
            board.degree_facts(t, head, visited, |cl| clauses.push(cl.to_vec()));
            clauses
        };
        // T = 4: the window is times 2..=4, degree facts at s = 2 only.
        assert_eq!(board.degree_times(4), 2..3);
        let mut expected = Vec::new();
        for c in 0..3 {
            // visited(2, c) <-> head(2, c): the head at 1 is outside the window.
            expected.push(vec![-head(2, c), visited(2, c)]);
            expected.push(vec![-visited(2, c), head(2, c)]);
        }
        // Cell 0 has one neighbour, so it is visited or the last head; cell 1
        // needs both neighbours available (unvisited, or the head at 2).
        expected.push(vec![visited(2, 0), head(4, 0)]);
        expected.push(vec![visited(2, 1), head(4, 1), -visited(2, 2), head(2, 2)]);
        expected.push(vec![visited(2, 1), head(4, 1), -visited(2, 0), head(2, 0)]);
        expected.push(vec![visited(2, 2), head(4, 2)]);
        let mut got = facts(4);
        got.sort();
        expected.sort();
        assert_eq!(got, expected);
        // T = 3: the window is times 1..=3, degree facts at s = 1, defined by the head at 1.
        assert_eq!(board.degree_times(3), 1..2);
        assert!(facts(3).contains(&vec![-visited(1, 0), head(1, 0)]));
        // T = 2: the window is times 0..=2 and s = 0 starts it.
        assert_eq!(board.degree_times(2), 0..1);
        assert!(facts(2).contains(&vec![-visited(0, 1), head(0, 1)]));
        // T = 1: the window starts at time −1 (the body's cell 0) and
        // reaches the last move: no degree facts.
        assert!(board.degree_times(1).is_empty());
        assert!(facts(1).is_empty());
    }

    #[test]
    fn facts_of_a_short_horizon_use_the_initial_body() {
        // 3x1, body (1,0),(0,0), one apple at (2,0): the plan is one move.
        let inst = from_json(LINE).unwrap();
        let board = FullBoard::of(&inst).expect("full");
        let mut clauses = Vec::new();
        // head(s, c) = 10 * s + c + 1, eaten(0, 0) = FALSE.
        board.facts(
            1,
            1,
            |s, c| (10 * s + c + 1) as Lit,
            |_, s| if s == 0 { FALSE } else { 100 },
            |cl| clauses.push(cl.to_vec()),
        );
        // Not done at 0; cover of cells 0 (the body's cell at −1), 1, 2 over times −1..=1.
        assert_eq!(clauses[0], vec![TRUE]);
        assert_eq!(clauses[1], vec![TRUE, 1, 11]);
        assert_eq!(clauses[2], vec![FALSE, 2, 12]);
        assert_eq!(clauses[3], vec![FALSE, 3, 13]);
        // Once: cell 0 is the body's at −1, so the head is never there at 0 or 1.
        assert!(clauses.contains(&vec![FALSE, -1]));
        assert!(clauses.contains(&vec![FALSE, -11]));
        assert!(clauses.contains(&vec![-2, -12]));
    }
}
