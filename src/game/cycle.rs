//! Hamiltonian cycles that continue the snake's body, found by CaDiCaL: the
//! full game's safety certificate, and the five ways ([`Reuse`]) of reusing
//! a solver from one apple to the next.
//!
//! The model has one variable per directed grid arc `u → v` ("the cycle goes
//! from `u` to `v`"): every cell has exactly one arc out and one in, no edge
//! is used both ways and no 2x2 square is a cycle. That is a 2-factor; it
//! becomes one cycle lazily: cycles running side by side are merged by
//! `patch`, and when that fails each small cycle `S` gets the clause "some
//! arc leaves `S`", which holds for every Hamiltonian cycle of the grid, so
//! cuts are kept for the whole game. On a board with an odd number of cells
//! (no Hamiltonian cycle exists) one cell may be skipped.
//!
//! A query fixes the body arcs that stay (the *facts*) and, for
//! [`CycleSolver::plan`], adds a path of exactly `k` moves to the apple whose
//! final body the cycle must run along.

use std::time::Instant;

use super::{Grid, Reuse};
use crate::solve::Interrupt;

/// Selector variables per solver (a query uses one; the solver is renewed when they run out).
const SELECTORS: i32 = 1 << 14;

/// A query's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A path and its certificate.
    Found(Found),
    /// No legal path of this length has a certificate.
    Unsat,
    /// The deadline passed first.
    Unknown,
}

/// Work done by the solver, summed over queries.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct Work {
    /// Seconds spent building clauses and handing them to CaDiCaL.
    pub build_seconds: f64,
    /// Seconds inside CaDiCaL's `solve`.
    pub solve_seconds: f64,
    /// Calls to `solve` (one per refinement round).
    pub solver_calls: u64,
    /// Subtour cuts added.
    pub cuts: u64,
}

/// A CaDiCaL instance with the cycle model, used the way [`Reuse`] says.
pub struct CycleSolver {
    grid: Grid,
    reuse: Reuse,
    /// `arcs[4 u + d]`: the variable of the arc from `u` in direction `d`, or 0.
    arcs: Vec<i32>,
    /// The skip variable of each cell (odd boards only).
    skips: Vec<i32>,
    /// `activation[4 u + d]`: the switch of that arc's fact (`Reuse::Activation`).
    activation: Vec<i32>,
    /// The model's clauses without cuts, 0-terminated (rebuilt into each fresh solver).
    base: Vec<i32>,
    base_vars: i32,
    /// Selectors used in the current solver (they live in a block of
    /// [`SELECTORS`] variables after the model's).
    /// Every cut found, 0-terminated.
    cuts: Vec<i32>,
    solver: cadical::Solver<Interrupt>,
    selectors_used: i32,
    /// Conflicts allowed per call to `solve` (`None`: no limit); a call
    /// that reaches it answers [`Outcome::Unknown`]. Deterministic, unlike a deadline.
    pub conflict_limit: Option<i32>,
    /// Solver calls per query (each model that is not one cycle adds cuts and
    /// calls again) before the query counts as undecided.
    pub round_limit: u32,
    /// Totals over all queries.
    pub work: Work,
}

impl CycleSolver {
    /// The model for `grid`, ready for queries.
    pub fn new(grid: Grid, reuse: Reuse) -> Self {
        let cells = grid.cells();
        let mut next_var = 0;
        let mut fresh = || {
            next_var += 1;
            next_var
        };
        let mut arcs = vec![0; 4 * cells];
        for u in 0..cells {
            for (d, v) in grid.neighbours_by_direction(u) {
                if v.is_some() {
                    arcs[4 * u + d] = fresh();
                }
            }
        }
        let skips: Vec<i32> = if cells % 2 == 1 {
            (0..cells).map(|_| fresh()).collect()
        } else {
            vec![]
        };
        let activation: Vec<i32> = if reuse == Reuse::Activation {
            arcs.iter()
                .map(|&a| if a == 0 { 0 } else { fresh() })
                .collect()
        } else {
            vec![]
        };
        let mut base = Vec::new();
        let mut clause = |lits: &[i32]| {
            base.extend_from_slice(lits);
            base.push(0);
        };
        for u in 0..cells {
            let outgoing: Vec<i32> = (0..4)
                .map(|d| arcs[4 * u + d])
                .filter(|&a| a != 0)
                .collect();
            let incoming: Vec<i32> = grid
                .neighbours(u)
                .map(|v| arcs[4 * v + grid.direction(v, u)])
                .collect();
            for group in [&outgoing, &incoming] {
                let mut at_least_one = group.clone();
                if let Some(&skip) = skips.get(u) {
                    at_least_one.push(skip);
                    for &a in group.iter() {
                        clause(&[-skip, -a]);
                    }
                }
                clause(&at_least_one);
                for (i, &a) in group.iter().enumerate() {
                    for &b in &group[i + 1..] {
                        clause(&[-a, -b]);
                    }
                }
            }
            if cells > 2 {
                for v in grid.neighbours(u).filter(|&v| v > u) {
                    clause(&[
                        -arcs[4 * u + grid.direction(u, v)],
                        -arcs[4 * v + grid.direction(v, u)],
                    ]);
                }
            }
        }
        // No 2x2 square is a cycle of its own (on boards with more than 5 cells).
        if cells > 5 {
            for y in 0..grid.height.saturating_sub(1) {
                for x in 0..grid.width - 1 {
                    let square =
                        [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)].map(|p| grid.index(p));
                    for turn in [[0, 1, 2, 3], [0, 3, 2, 1]] {
                        let around: [i32; 4] = std::array::from_fn(|i| {
                            let (u, v) = (square[turn[i]], square[turn[(i + 1) % 4]]);
                            -arcs[4 * u + grid.direction(u, v)]
                        });
                        clause(&around);
                    }
                }
            }
        }
        // At most one skipped cell: a sequential counter.
        let mut previous = 0;
        for &skip in &skips {
            let seen = fresh();
            clause(&[-skip, seen]);
            if previous != 0 {
                clause(&[-previous, seen]);
                clause(&[-previous, -skip]);
            }
            previous = seen;
        }
        for (u, &switch) in activation.iter().enumerate() {
            if switch != 0 {
                clause(&[-switch, arcs[u]]);
            }
        }
        let base_vars = next_var;
        let mut solver = CycleSolver {
            grid,
            reuse,
            arcs,
            skips,
            activation,
            base,
            base_vars,
            cuts: Vec::new(),
            solver: cadical::Solver::new(),
            selectors_used: 0,
            conflict_limit: None,
            round_limit: u32::MAX,
            work: Work::default(),
        };
        solver.rebuild();
        solver
    }

    /// The board the model is on.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The variable of the arc `from → to` (adjacent cells).
    fn arc(&self, from: usize, to: usize) -> i32 {
        self.arcs[4 * from + self.grid.direction(from, to)]
    }

    /// Replaces the solver by a new one holding the model and every cut so far.
    fn rebuild(&mut self) {
        let started = Instant::now();
        self.solver = cadical::Solver::new();
        self.solver.reserve(self.base_vars);
        for clause in self.base.split(|&l| l == 0).filter(|c| !c.is_empty()) {
            self.solver.add_clause(clause.iter().copied());
        }
        for cut in self.cuts.split(|&l| l == 0).filter(|c| !c.is_empty()) {
            self.solver.add_clause(cut.iter().copied());
        }
        self.selectors_used = 0;
        self.work.build_seconds += started.elapsed().as_secs_f64();
    }

    /// A selector never used before in this solver (a new solver when the block runs out).
    fn selector(&mut self) -> i32 {
        if self.selectors_used == SELECTORS {
            self.rebuild();
        }
        self.selectors_used += 1;
        self.base_vars + self.selectors_used
    }

    /// The variable "the head is at `cell` after `t` moves" (`t ≥ 1`), and
    /// its "`cell` seen by move `t`" companion. Every query uses the same
    /// numbers: a query's clauses all carry its selector, so once it is
    /// released nothing (learnt clauses included) constrains them, and the
    /// solver does not grow with the game.
    fn position_vars(&self, t: usize, cell: usize) -> (i32, i32) {
        let slot = 2 * ((t - 1) * self.grid.cells() + cell) as i32;
        let first = self.base_vars + SELECTORS + slot + 1;
        (first, first + 1)
    }

    /// A Hamiltonian cycle (all but at most one cell on odd boards) that runs
    /// along `body` (head first) from its tail to its head.
    pub fn certify(&mut self, body: &[usize], deadline: Option<Instant>) -> Outcome {
        self.query(body, None, &[], deadline)
    }

    /// Like [`CycleSolver::certify`], but only the cells of `window` may
    /// change: every arc `u → hint[u]` of the old cycle `hint` with both ends
    /// outside the window is assumed. The answer is then close to `hint` and
    /// quick to find (most arcs are fixed); [`Outcome::Unsat`] only means that
    /// no cycle differs from `hint` inside the window alone.
    pub fn certify_near(
        &mut self,
        body: &[usize],
        hint: &[u32],
        window: &[bool],
        deadline: Option<Instant>,
    ) -> Outcome {
        let hinted: Vec<i32> = (0..self.grid.cells())
            .filter(|&u| {
                let v = hint[u] as usize;
                !window[u] && v < window.len() && !window[v]
            })
            .map(|u| self.arc(u, hint[u] as usize))
            .collect();
        self.query(body, None, &hinted, deadline)
    }

    /// A legal path of exactly `k` moves from the head of `body` to `apple`
    /// (a simple path, entering old body cells only once the tail has left
    /// them, eating on the last move) together with a certified cycle along
    /// the body it leaves.
    pub fn plan(
        &mut self,
        body: &[usize],
        apple: usize,
        k: usize,
        deadline: Option<Instant>,
    ) -> Outcome {
        self.query(body, Some((apple, k)), &[], deadline)
    }

    fn query(
        &mut self,
        body: &[usize],
        bound: Option<(usize, usize)>,
        hinted: &[i32],
        deadline: Option<Instant>,
    ) -> Outcome {
        if self.reuse == Reuse::Fresh {
            self.rebuild();
        }
        // After the rebuild, which counts its own time.
        let started = Instant::now();
        // The body arcs that stay in the body: all of them, or after a path
        // of k moves (eating on the last) the head-side len + 1 − k cells.
        let kept = match bound {
            None => body.len(),
            Some((_, k)) => (body.len() + 1).saturating_sub(k),
        };
        let slots: Vec<usize> = body[..kept]
            .windows(2)
            .map(|w| 4 * w[1] + self.grid.direction(w[1], w[0]))
            .collect();
        let facts: Vec<i32> = slots.iter().map(|&s| self.arcs[s]).collect();
        // Everything per query is switched on by one selector (released after),
        // except under Fresh, where the solver is thrown away anyway.
        let selector = if self.reuse == Reuse::Fresh {
            None
        } else {
            Some(self.selector())
        };
        let mut added = Vec::new();
        let layers = match bound {
            Some((apple, k)) => self.path_clauses(body, apple, k, &mut added),
            None => vec![],
        };
        let mut assumptions: Vec<i32> =
            selector.into_iter().chain(hinted.iter().copied()).collect();
        // On an odd board the cycle may skip a cell, but not the head the
        // walk starts from: a body of one cell has no arc that keeps it on
        // the cycle (the game's first certificate lost 5x5 games at once
        // when its walk was needed; longer bodies hold arcs at every cell).
        if bound.is_none()
            && let Some(&skip) = self.skips.get(body[0])
        {
            assumptions.push(-skip);
        }
        match self.reuse {
            Reuse::Fresh | Reuse::Clauses => {
                for &f in &facts {
                    added.push(f);
                    added.push(0);
                }
            }
            Reuse::Activation => assumptions.extend(slots.iter().map(|&s| self.activation[s])),
            Reuse::Assumptions => assumptions.extend(&facts),
            Reuse::Nogoods => {}
        }
        // (An empty clause here, a path with no first move, refutes the query.)
        for clause in added
            .split(|&l| l == 0)
            .take(added.iter().filter(|&&l| l == 0).count())
        {
            self.solver
                .add_clause(clause.iter().copied().chain(selector.map(|s| -s)));
        }
        self.work.build_seconds += started.elapsed().as_secs_f64();

        let outcome = self.refine(body, &facts, &layers, &assumptions, selector, deadline);
        if let Some(s) = selector {
            self.solver.add_clause([-s]);
        }
        outcome
    }

    /// Solves, adding cuts (and, under `Nogoods`, violated facts) until the
    /// model's 2-factor, patched where two cycles meet, is one cycle that
    /// holds the facts.
    fn refine(
        &mut self,
        body: &[usize],
        facts: &[i32],
        layers: &[Vec<(usize, i32)>],
        assumptions: &[i32],
        selector: Option<i32>,
        deadline: Option<Instant>,
    ) -> Outcome {
        for _ in 0..self.round_limit {
            let started = Instant::now();
            self.solver.set_callbacks(Some(Interrupt {
                deadline,
                flag: None,
                cancel: None,
            }));
            if let Some(limit) = self.conflict_limit {
                self.solver
                    .set_limit("conflicts", limit)
                    .expect("CaDiCaL knows the conflicts limit");
            }
            let answer = self.solver.solve_with(assumptions.iter().copied());
            self.work.solve_seconds += started.elapsed().as_secs_f64();
            self.work.solver_calls += 1;
            match answer {
                Some(false) => return Outcome::Unsat,
                None => return Outcome::Unknown,
                Some(true) => {}
            }
            let started = Instant::now();
            // Read the whole model before adding any clause (which ends the SAT state).
            let successors = self.successors();
            let moves = self.path_of(body[0], layers);
            let broken: Vec<i32> = if self.reuse == Reuse::Nogoods {
                facts
                    .iter()
                    .copied()
                    .filter(|&f| self.solver.value(f) != Some(true))
                    .collect()
            } else {
                vec![]
            };
            if !broken.is_empty() {
                for f in broken {
                    self.solver
                        .add_clause([f].into_iter().chain(selector.map(|s| -s)));
                }
                self.work.build_seconds += started.elapsed().as_secs_f64();
                continue;
            }
            let after = super::body_after(body, &moves);
            let kept = if moves.is_empty() { body } else { &after };
            let cycles = cycles_of(&successors);
            let found = if cycles.len() == 1 {
                Some(successors)
            } else {
                let patched = patch(self.grid, &successors, kept);
                if patched.is_none() {
                    for cycle in &cycles {
                        self.add_cut(cycle);
                    }
                }
                patched
            };
            self.work.build_seconds += started.elapsed().as_secs_f64();
            if let Some(cycle) = found {
                return Outcome::Found(Found { moves, cycle });
            }
        }
        Outcome::Unknown
    }

    /// "Some arc leaves `cycle`" (or one of its cells is the skipped one).
    fn add_cut(&mut self, cycle: &[usize]) {
        let mut inside = vec![false; self.grid.cells()];
        for &c in cycle {
            inside[c] = true;
        }
        let mut cut = Vec::new();
        for &u in cycle {
            for v in self.grid.neighbours(u) {
                if !inside[v] {
                    cut.push(self.arc(u, v));
                }
            }
            if let Some(&skip) = self.skips.get(u) {
                cut.push(skip);
            }
        }
        self.solver.add_clause(cut.iter().copied());
        self.cuts.extend_from_slice(&cut);
        self.cuts.push(0);
        self.work.cuts += 1;
    }

    /// The successor of each cell in the current model.
    fn successors(&self) -> Vec<u32> {
        (0..self.grid.cells())
            .map(|u| {
                (0..4)
                    .map(|d| self.arcs[4 * u + d])
                    .zip(self.grid.neighbours_by_direction(u).map(|(_, v)| v))
                    .find(|&(a, _)| a != 0 && self.solver.value(a) == Some(true))
                    .and_then(|(_, v)| v)
                    .map_or(u32::MAX, |v| v as u32)
            })
            .collect()
    }

    /// The path in the current model: from `head`, a true position variable
    /// next to the previous cell at every layer.
    fn path_of(&self, head: usize, layers: &[Vec<(usize, i32)>]) -> Vec<usize> {
        let mut cell = head;
        let mut moves = Vec::with_capacity(layers.len());
        for layer in layers {
            cell = layer
                .iter()
                .find(|&&(c, var)| {
                    self.grid.adjacent(cell, c) && self.solver.value(var) == Some(true)
                })
                .expect("a model moves the head at every layer")
                .0;
            moves.push(cell);
        }
        moves
    }

    /// Clauses (0-terminated, into `out`) for a path of exactly `k` moves to
    /// `apple` whose last `len + 1` cells are the body that the cycle must run
    /// along. Position variables `q(c, t)` ("the head is at `c` after `t`
    /// moves") exist only where `c` is open by then (a body cell once the
    /// tail has left it), reachable from the head and with the apple still
    /// reachable; each true `q` has a true successor, no cell is used twice,
    /// and consecutive cells of the final body are arcs of the cycle.
    /// Returns each layer's `(cell, variable)` pairs.
    fn path_clauses(
        &mut self,
        body: &[usize],
        apple: usize,
        k: usize,
        out: &mut Vec<i32>,
    ) -> Vec<Vec<(usize, i32)>> {
        let grid = self.grid;
        let (head, len) = (body[0], body.len());
        let mut opens_at = vec![0; grid.cells()];
        for (j, &c) in body.iter().enumerate() {
            opens_at[c] = len - j;
        }
        let mut var_at: Vec<Vec<i32>> = Vec::with_capacity(k + 1);
        var_at.push(vec![0; grid.cells()]);
        let mut layers = Vec::with_capacity(k);
        for t in 1..=k {
            let mut layer = vec![0; grid.cells()];
            let mut cells = Vec::new();
            for c in 0..grid.cells() {
                let from_head = grid.distance(head, c);
                if opens_at[c] <= t
                    && from_head <= t
                    && (t - from_head).is_multiple_of(2)
                    && grid.distance(c, apple) <= k - t
                    && (c != apple || t == k)
                {
                    layer[c] = self.position_vars(t, c).0;
                    cells.push((c, layer[c]));
                }
            }
            var_at.push(layer);
            layers.push(cells);
        }
        let mut clause = |lits: &[i32]| {
            out.extend_from_slice(lits);
            out.push(0);
        };
        // Moves: the head's first step, then a successor for every position.
        let first: Vec<i32> = grid
            .neighbours(head)
            .map(|v| var_at[1][v])
            .filter(|&q| q != 0)
            .collect();
        clause(&first);
        let mut next = Vec::with_capacity(5);
        for t in 2..=k {
            for &(u, q) in &layers[t - 2] {
                next.clear();
                next.push(-q);
                next.extend(grid.neighbours(u).map(|v| var_at[t][v]).filter(|&q| q != 0));
                clause(&next);
            }
        }
        // No cell twice: a sequential counter per cell over its layers.
        let mut last_seen = vec![0i32; grid.cells()];
        for (t, layer) in layers.iter().enumerate() {
            for &(c, q) in layer {
                let seen = self.position_vars(t + 1, c).1;
                clause(&[-q, seen]);
                if last_seen[c] != 0 {
                    clause(&[-last_seen[c], seen]);
                    clause(&[-last_seen[c], -q]);
                }
                last_seen[c] = seen;
            }
        }
        // The final body's arcs: old head to the first move (if the old head
        // stays in the body), then between consecutive moves in the last len steps.
        if k <= len {
            for &(v, q) in &layers[0] {
                clause(&[-q, self.arc(head, v)]);
            }
        }
        for t in k.saturating_sub(len).max(1)..k {
            for &(u, q) in &layers[t - 1] {
                for v in grid.neighbours(u) {
                    let next = var_at[t + 1][v];
                    if next != 0 {
                        clause(&[-q, -next, self.arc(u, v)]);
                    }
                }
            }
        }
        layers
    }
}

/// A query's path and certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The cells the head enters (empty for [`CycleSolver::certify`]).
    pub moves: Vec<usize>,
    /// The successor of every cell on the cycle (`u32::MAX` for a skipped cell).
    pub cycle: Vec<u32>,
}

/// Merges the cycles of a 2-factor into one where two of them run side by
/// side along a 2×2 square (drop both sides, add the two others), never
/// touching an edge of `body` (head first). Returns the cycle, directed tail
/// to head along the body, or `None` if cycles remain that cannot be merged.
fn patch(grid: Grid, successors: &[u32], body: &[usize]) -> Option<Vec<u32>> {
    let cells = grid.cells();
    const NONE: usize = usize::MAX;
    // Undirected: the two cycle neighbours of every cell.
    let mut ends = vec![[NONE; 2]; cells];
    for (u, &v) in successors.iter().enumerate() {
        if v != u32::MAX {
            ends[u][1] = v as usize;
            ends[v as usize][0] = u;
        }
    }
    let mut fixed = vec![[NONE; 2]; cells];
    for w in body.windows(2) {
        let (a, b) = (w[0], w[1]);
        for (from, to) in [(a, b), (b, a)] {
            let slot = usize::from(fixed[from][0] != NONE);
            fixed[from][slot] = to;
        }
    }
    let has_edge = |ends: &[[usize; 2]], a: usize, b: usize| ends[a].contains(&b);
    let is_fixed = |a: usize, b: usize| fixed[a].contains(&b);
    let mut label = vec![NONE; cells];
    let mut count = 0;
    for (i, cycle) in cycles_of(successors).iter().enumerate() {
        for &c in cycle {
            label[c] = i;
        }
        count += 1;
    }
    let relabel = |ends: &[[usize; 2]], label: &mut [usize], start: usize, to: usize| {
        let (mut previous, mut c) = (NONE, start);
        loop {
            label[c] = to;
            let next = if ends[c][0] != previous {
                ends[c][0]
            } else {
                ends[c][1]
            };
            previous = c;
            c = next;
            if c == start {
                break;
            }
        }
    };
    let replace = |ends: &mut [[usize; 2]], a: usize, old: usize, new: usize| {
        let slot = usize::from(ends[a][0] != old);
        ends[a][slot] = new;
    };
    while count > 1 {
        let mut merged = false;
        for y in 0..grid.height.saturating_sub(1) {
            for x in 0..grid.width.saturating_sub(1) {
                let [p, q, r, s] =
                    [(x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)].map(|c| grid.index(c));
                // Sides p–q and s–r, or q–r and p–s.
                for [a, b, c, d] in [[p, q, s, r], [q, r, p, s]] {
                    if label[a] != NONE
                        && label[c] != NONE
                        && label[a] != label[c]
                        && has_edge(&ends, a, b)
                        && has_edge(&ends, c, d)
                        && !is_fixed(a, b)
                        && !is_fixed(c, d)
                    {
                        // Drop a–b and c–d, add a–c and b–d.
                        replace(&mut ends, a, b, c);
                        replace(&mut ends, b, a, d);
                        replace(&mut ends, c, d, a);
                        replace(&mut ends, d, c, b);
                        let to = label[a];
                        relabel(&ends, &mut label, c, to);
                        count -= 1;
                        merged = true;
                        break;
                    }
                }
            }
        }
        if !merged {
            return None;
        }
    }
    // Direct the cycle along the body (tail to head), or either way.
    let start = (0..cells).find(|&c| ends[c][0] != NONE)?;
    let (mut previous, mut c) = match body {
        [head, neck, ..] => (*neck, *head),
        _ => (ends[start][0], start),
    };
    let mut out = vec![u32::MAX; cells];
    loop {
        let next = if ends[c][0] != previous {
            ends[c][0]
        } else {
            ends[c][1]
        };
        out[c] = next as u32;
        previous = c;
        c = next;
        if out[c] != u32::MAX {
            break;
        }
    }
    Some(out)
}

/// Shortens the way along `cycle` from `head` to `apple` by moving pieces
/// of the cycle from before the apple to after it, without touching the
/// body; returns the distance left. The snake's body runs along the cycle
/// into `head`, and the `free` cells after `head` are the free ones (the
/// apple among them). One edit *splits* the cycle on a 2×2 square whose
/// opposite sides it runs in opposite directions (`p → q`, `r → s`, both
/// before the apple: the piece from `q` to `r` becomes a cycle of its own)
/// and *merges* the piece back on another such square with an arc `x → y`
/// of the free cells after the apple (`x → piece → y`); the result is again
/// one cycle through every cell, with the body's arcs unchanged. Edits are
/// made largest piece first while one applies. `order` is scratch space.
pub fn shorten(
    grid: Grid,
    cycle: &mut [u32],
    head: usize,
    apple: usize,
    free: usize,
    order: &mut Vec<u32>,
) -> usize {
    let cells = grid.cells();
    order.clear();
    order.resize(cells, u32::MAX);
    let perpendicular = |from: usize, to: usize| -> [Option<isize>; 2] {
        let w = grid.width as isize;
        let (x, y) = grid.pos(from);
        // A move along a row (on a one-column board, `to` and `from` also
        // differ by 1 for a move along the column).
        if grid.pos(to).1 == y {
            [(y > 0).then_some(-w), (y + 1 < grid.height).then_some(w)]
        } else {
            [(x > 0).then_some(-1), (x + 1 < grid.width).then_some(1)]
        }
    };
    let shift = |c: usize, by: isize| (c as isize + by) as usize;
    let mut splits: Vec<(u32, usize, usize)> = Vec::new();
    loop {
        // Positions along the cycle from the head.
        let mut c = head;
        for i in 0..=free as u32 {
            order[c] = i;
            c = cycle[c] as usize;
        }
        let distance = order[apple] as usize;
        // Splits p → q, r → s before the apple (s may be the apple).
        splits.clear();
        let mut p = head;
        while p != apple {
            let q = cycle[p] as usize;
            for by in perpendicular(p, q).into_iter().flatten() {
                let (s, r) = (shift(p, by), shift(q, by));
                let (pr, ps) = (order[r], order[s]);
                // (`ps > pr`: with a one-cell snake the arc into the head closes the cycle.)
                if cycle[r] as usize == s
                    && ps as usize <= distance
                    && pr != u32::MAX
                    && pr > order[q]
                    && ps > pr
                {
                    splits.push((pr - order[q] + 1, p, r));
                }
            }
            p = q;
        }
        splits.sort_unstable_by(|a, b| b.cmp(a));
        let mut edited = false;
        'splits: for &(_, p, r) in &splits {
            let q = cycle[p] as usize;
            // The piece's arcs u → v: the cycle's from q to r, then r → q.
            let mut u = q;
            loop {
                let v = if u == r { q } else { cycle[u] as usize };
                for by in perpendicular(u, v).into_iter().flatten() {
                    let (x, y) = (shift(v, by), shift(u, by));
                    let px = order[x];
                    if px != u32::MAX
                        && px as usize >= distance
                        && px as usize <= free
                        && cycle[x] as usize == y
                    {
                        let s = cycle[r] as usize;
                        let saved = [(p, q), (r, s), (x, y), (u, v)].map(|(a, b)| (a, b as u32));
                        cycle[p] = s as u32;
                        cycle[r] = q as u32;
                        cycle[x] = v as u32;
                        cycle[u] = y as u32;
                        if is_one_cycle(cycle, head) {
                            edited = true;
                            break 'splits;
                        }
                        // A guard: an edit that does not give one cycle is undone.
                        for &(a, b) in saved.iter().rev() {
                            cycle[a] = b;
                        }
                    }
                }
                if u == r {
                    break;
                }
                u = v;
            }
        }
        // Clear the positions for the next round (only free cells and the head were set).
        let mut c = head;
        for _ in 0..=free {
            order[c] = u32::MAX;
            c = cycle[c] as usize;
        }
        if !edited {
            return distance;
        }
    }
}

/// Whether `successors`, from `start`, runs through every cell once and back.
fn is_one_cycle(successors: &[u32], start: usize) -> bool {
    let mut c = start;
    for _ in 1..successors.len() {
        c = successors[c] as usize;
        if c == start || c >= successors.len() {
            return false;
        }
    }
    successors[c] as usize == start
}

/// The cycles of a successor map (skipped cells belong to none).
fn cycles_of(successors: &[u32]) -> Vec<Vec<usize>> {
    let mut seen = vec![false; successors.len()];
    let mut cycles = Vec::new();
    for start in 0..successors.len() {
        if seen[start] || successors[start] == u32::MAX {
            continue;
        }
        let mut cycle = Vec::new();
        let mut c = start;
        while !seen[c] {
            seen[c] = true;
            cycle.push(c);
            c = successors[c] as usize;
        }
        cycles.push(cycle);
    }
    cycles
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On odd boards the cycle may skip a cell, but never the head of a
    /// one-cell snake: the game's first certificate skipped (0, 0) on 5x5,
    /// so a game that had to walk it was lost at once.
    #[test]
    fn a_one_cell_body_is_never_the_skipped_cell() {
        for (w, h) in [(3, 3), (5, 5), (7, 5), (5, 3), (9, 9)] {
            let grid = Grid::new(w, h);
            for reuse in Reuse::ALL {
                let mut solver = CycleSolver::new(grid, reuse);
                for head in [0, grid.cells() / 2, grid.cells() - 1] {
                    let Outcome::Found(f) = solver.certify(&[head], None) else {
                        panic!("{w}x{h} {reuse:?}: no cycle");
                    };
                    check_cycle(grid, &f.cycle, &[head]);
                    assert_ne!(f.cycle[head], u32::MAX, "{w}x{h} {reuse:?} head {head}");
                }
            }
        }
    }

    fn check_cycle(grid: Grid, successors: &[u32], body: &[usize]) {
        let cycles = cycles_of(successors);
        assert_eq!(cycles.len(), 1);
        let skipped = successors.iter().filter(|&&s| s == u32::MAX).count();
        assert_eq!(skipped, grid.cells() % 2);
        for (u, &v) in successors.iter().enumerate() {
            if v != u32::MAX {
                assert!(grid.adjacent(u, v as usize));
            }
        }
        for w in body.windows(2) {
            assert_eq!(
                successors[w[1]], w[0] as u32,
                "body arc {} -> {}",
                w[1], w[0]
            );
        }
    }

    #[test]
    fn every_strategy_finds_a_cycle_along_the_body() {
        for reuse in Reuse::ALL {
            for (w, h) in [(4, 4), (6, 6), (5, 5), (3, 4)] {
                let grid = Grid::new(w, h);
                let mut solver = CycleSolver::new(grid, reuse);
                // A body along the bottom row, head at (2, 0).
                let body = [2, 1, 0];
                let Outcome::Found(Found { cycle: s, .. }) = solver.certify(&body, None) else {
                    panic!("{reuse:?} {w}x{h}: no cycle");
                };
                check_cycle(grid, &s, &body);
                // Twice, so that incremental strategies reuse the solver.
                let body = [grid.index((0, 2)), grid.index((0, 1)), 0];
                let Outcome::Found(Found { cycle: s, .. }) = solver.certify(&body, None) else {
                    panic!("{reuse:?} {w}x{h}: no second cycle");
                };
                check_cycle(grid, &s, &body);
            }
        }
    }

    #[test]
    fn a_trapped_corner_has_no_cycle() {
        // On 4x4, a body (1,0) (1,1) (0,1) leaves the corner (0,0) with one free neighbour.
        for reuse in Reuse::ALL {
            let grid = Grid::new(4, 4);
            let mut solver = CycleSolver::new(grid, reuse);
            let body = [grid.index((1, 0)), grid.index((1, 1)), grid.index((0, 1))];
            assert_eq!(solver.certify(&body, None), Outcome::Unsat, "{reuse:?}");
            // The solver stays usable after a refused query.
            assert!(matches!(solver.certify(&[0], None), Outcome::Found(_)));
        }
    }

    #[test]
    fn path_lengths_are_exact() {
        // 4x4, one-cell snake at (0,0), apple at (3,3): 6 moves, not 4.
        for reuse in Reuse::ALL {
            let grid = Grid::new(4, 4);
            let mut solver = CycleSolver::new(grid, reuse);
            assert_eq!(solver.plan(&[0], 15, 4, None), Outcome::Unsat, "{reuse:?}");
            let Outcome::Found(f) = solver.plan(&[0], 15, 6, None) else {
                panic!("{reuse:?}: no path");
            };
            assert_eq!(f.moves.len(), 6);
            assert_eq!(f.moves.last(), Some(&15));
            let body = crate::game::body_after(&[0], &f.moves);
            check_cycle(grid, &f.cycle, &body);
        }
    }

    #[test]
    fn shortening_moves_pieces_behind_the_apple() {
        // 6x6: along the top row, snaking back over columns 1..5, up column 0.
        let grid = Grid::new(6, 6);
        let mut order: Vec<usize> = (0..6).collect();
        for y in 1..6 {
            let row: Vec<usize> = (1..6).map(|x| grid.index((x, y))).collect();
            if y % 2 == 1 {
                order.extend(row.iter().rev());
            } else {
                order.extend(&row);
            }
        }
        order.extend((1..6).rev().map(|y| grid.index((0, y))));
        let mut cycle = vec![0u32; 36];
        for (i, &c) in order.iter().enumerate() {
            cycle[c] = order[(i + 1) % 36] as u32;
        }
        check_cycle(grid, &cycle, &[]);
        // A body of 3 up column 0 into the head (0,3): the apple (3,3) is far along the cycle.
        let body = [grid.index((0, 3)), grid.index((0, 4)), grid.index((0, 5))];
        let apple = grid.index((3, 3));
        let mut cycle_around = cycle.clone();
        let head = body[0];
        let far = {
            let mut c = head;
            let mut n = 0;
            while c != apple {
                c = cycle_around[c] as usize;
                n += 1;
            }
            n
        };
        let mut scratch = Vec::new();
        let near = shorten(grid, &mut cycle_around, head, apple, 33, &mut scratch);
        assert!(near < far, "{near} < {far}");
        check_cycle(grid, &cycle_around, &body);
        let mut c = head;
        for _ in 0..near {
            c = cycle_around[c] as usize;
        }
        assert_eq!(c, apple);
        // Nothing to gain when the apple is next.
        let next = cycle_around[head] as usize;
        assert_eq!(
            shorten(grid, &mut cycle_around, head, next, 33, &mut scratch),
            1
        );
    }

    #[test]
    fn patching_merges_side_by_side_cycles() {
        // 4x2: two 2x2 squares, each its own cycle; merged into the boundary.
        let grid = Grid::new(4, 2);
        let [a, b, c, d, e, f, g, h] = [0u32, 1, 2, 3, 4, 5, 6, 7];
        let mut successors = vec![0; 8];
        for (from, to) in [
            (a, b),
            (b, f),
            (f, e),
            (e, a),
            (c, d),
            (d, h),
            (h, g),
            (g, c),
        ] {
            successors[from as usize] = to;
        }
        let merged = patch(grid, &successors, &[0]).expect("mergeable");
        check_cycle(grid, &merged, &[]);
        // The only square between them is b, c, g, f: with b–f fixed as body, no merge.
        assert_eq!(patch(grid, &successors, &[1, 5]), None);
    }
    /// 6x6: along the top row, snaking back over columns 1..5, up column 0.
    fn serpentine(grid: Grid) -> Vec<u32> {
        let mut order: Vec<usize> = (0..grid.width).collect();
        for y in 1..grid.height {
            let row: Vec<usize> = (1..grid.width).map(|x| grid.index((x, y))).collect();
            if y % 2 == 1 {
                order.extend(row.iter().rev());
            } else {
                order.extend(&row);
            }
        }
        order.extend((1..grid.height).rev().map(|y| grid.index((0, y))));
        let mut cycle = vec![0u32; grid.cells()];
        for (i, &c) in order.iter().enumerate() {
            cycle[c] = order[(i + 1) % order.len()] as u32;
        }
        cycle
    }

    #[test]
    fn repairs_change_only_the_window() {
        let grid = Grid::new(6, 6);
        let hint = serpentine(grid);
        check_cycle(grid, &hint, &[]);
        for reuse in Reuse::ALL {
            let mut solver = CycleSolver::new(grid, reuse);
            // Head (1,1), then (2,1), tail (2,2): the hint runs (1,2) → (2,2)
            // → (3,2), not up from (2,2), so it must change near the body.
            let body = [7, 8, 14];
            let near = |c: usize| grid.pos(c).1 <= 4 && grid.pos(c).0 <= 3;
            let window: Vec<bool> = (0..36).map(near).collect();
            let Outcome::Found(f) = solver.certify_near(&body, &hint, &window, None) else {
                panic!("{reuse:?}: no repair");
            };
            check_cycle(grid, &f.cycle, &body);
            for u in (0..36).filter(|&u| !near(u) && !near(hint[u] as usize)) {
                assert_eq!(f.cycle[u], hint[u], "{reuse:?}: arc from {u} kept");
            }
            // Nothing may change: a body against the hint has no repair…
            let nothing = vec![false; 36];
            assert_eq!(
                solver.certify_near(&body, &hint, &nothing, None),
                Outcome::Unsat,
                "{reuse:?}"
            );
            // …and one along it is certified by the hint itself.
            let along = [2, 1, 0];
            let Outcome::Found(f) = solver.certify_near(&along, &hint, &nothing, None) else {
                panic!("{reuse:?}: the hint is a certificate");
            };
            assert_eq!(f.cycle, hint);
        }
    }
}
