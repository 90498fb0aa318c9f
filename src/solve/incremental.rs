//! One CaDiCaL instance for many horizons.
//!
//! The direct encoding is built once for an upper horizon `Tmax`, without its
//! `goal` clauses. Every clause gets a *time*: the latest time of its
//! variables (from their kinds: `head x y t` is at `t`, `move d t` at `t + 1`,
//! …). A clause whose time `s` lies above the first horizon asked is guarded
//! by an activation literal, `clause ∨ ¬act(s)`, with `act(s) → act(s − 1)`.
//! The question "all apples eaten by `T`?" is then the assumptions
//! `act(T)`, `¬act(T + 1)` and `eaten i T` for every apple: the clauses up to
//! time `T` are exactly those of the formula at horizon `T` (any body encoding
//! but `block`: `window`, `compare` or `tail`, whose clauses are local in
//! time), and the steps
//! after `T` are free, so they never make the formula unsatisfiable. The
//! pruning bounds computed for `Tmax` only admit more than those for `T`
//! (`latest` grows with the horizon), so they stay valid for every `T ≤ Tmax`.
//! Learnt clauses carry over from one horizon to the next; when the horizon
//! passes `Tmax`, the formula is rebuilt for a larger one.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::cnf::{Cnf, FALSE, Lit, TRUE, VarKind};
use crate::encode::direct::MAX_HEAD_SLOTS;
use crate::encode::full::{FullBoard, MAX_ONCE_CLAUSES};
use crate::encode::prune::Bounds;
use crate::encode::{EncodeError, Encoding};
use crate::instance::{Instance, Pos};

use super::{Attempt, Budget, Interrupt, SearchResult, Stats, Status, fixed_heads};
use crate::encode::decode::path_from_model;
use crate::planner::{CadicalConfig, Undecided};

/// The time of a variable: the latest time step its clauses speak of.
fn var_time(kind: &VarKind, initial_length: usize) -> usize {
    use VarKind::*;
    match *kind {
        Head { t, .. }
        | HeadX { t, .. }
        | HeadY { t, .. }
        | Column { t, .. }
        | Row { t, .. }
        | Tail { t, .. }
        | Occupied { t, .. }
        | Eaten { t, .. }
        | Count { t, .. }
        | Eat { t, .. }
        | TailPhantom { t, .. }
        | TailMove { t, .. }
        | Ate { t }
        | Active { t, .. }
        | Counter { t, .. }
        | Visited { t, .. } => t as usize,
        // The move from `t` to `t + 1`.
        Move { t, .. } | MovedX { t } => t as usize + 1,
        // Comparisons of the positions at `s` and an earlier time.
        SameColumn { s, .. } | SameRow { s, .. } => s as usize,
        BlockPrefix { t, .. } | BlockSuffix { t, .. } => {
            (t as usize).saturating_sub(initial_length)
        }
        AmoHead { group, .. }
        | AmoHeadX { group, .. }
        | AmoHeadY { group, .. }
        | AmoColumn { group, .. }
        | AmoRow { group, .. }
        | AmoTail { group, .. } => group as usize,
    }
}

/// A formula open at every horizon up to `max`, loaded into CaDiCaL.
pub(crate) struct Session {
    solver: cadical::Solver<Interrupt>,
    cnf: Cnf,
    /// `eaten[i * (max + 1) + t]`.
    eaten: Vec<Lit>,
    apples: usize,
    /// Horizons `first..=max` can be asked.
    pub first: usize,
    /// The largest horizon that can be asked.
    pub max: usize,
    /// `act(s)` for `s` in `first + 1..=max`, at `[s - first - 1]`.
    act: Vec<Lit>,
    /// With [`crate::encode::full::ends_full`]: `not_done[t - 1]` implies some apple is still
    /// uneaten at `t` (for `t` in `1..=max`), asked at `T − 1`.
    not_done: Vec<Lit>,
    /// With [`crate::encode::full::ends_full`]: `cover[t]` (0: none) implies every free cell holds
    /// the head at some time in `t − L + 1..=t`, `L` the number of free cells:
    /// the body that fills the board at the last eat.
    cover: Vec<Lit>,
    stats: Stats,
    config: CadicalConfig,
    /// The search's cancellation ([`Budget::cancel`]), kept by [`Session::set_deadline`].
    cancel: Option<Arc<AtomicBool>>,
}

impl Session {
    /// Builds the formula for horizons `first..=max` and loads it.
    pub fn new(
        instance: &Instance,
        encoding: &dyn Encoding,
        first: usize,
        max: usize,
        budget: &Budget,
    ) -> Result<Session, EncodeError> {
        let started = Instant::now();
        let open = encoding.encode_open(instance, max)?;
        let (cnf, eaten) = (open.cnf, open.eaten);
        let l0 = instance.initial_length();
        let times: Vec<usize> = cnf.names().iter().map(|n| var_time(n, l0)).collect();
        let mut solver: cadical::Solver<Interrupt> = budget.config.solver();
        let base = cnf.num_vars() as Lit;
        let act: Vec<Lit> = (first + 1..=max)
            .map(|s| base + (s - first) as Lit)
            .collect();
        solver.reserve(base + act.len() as Lit + 3 * (max as Lit + 1));
        for w in act.windows(2) {
            solver.add_clause([-w[1], w[0]]);
        }
        let mut buf: Vec<Lit> = Vec::with_capacity(64);
        // (The chain's clauses above, two literals each, count too.)
        let mut literals = 2 * act.len().saturating_sub(1) as u64;
        for clause in cnf.clauses() {
            let s = clause
                .iter()
                .map(|&l| times[l.unsigned_abs() as usize - 1])
                .max()
                .unwrap_or(0);
            buf.clear();
            buf.extend_from_slice(clause);
            if s > first {
                buf.push(-act[s - first - 1]);
            }
            literals += buf.len() as u64;
            solver.add_clause(buf.iter().copied());
        }
        let board = FullBoard::of(instance);
        // Variables after `act`: `not_done`, then `cover`, then `window`.
        let mut next = base + act.len() as Lit;
        let mut extra = 0u64;
        let mut add = |solver: &mut cadical::Solver<Interrupt>, clause: &[Lit]| {
            literals += clause.len() as u64;
            extra += 1;
            solver.add_clause(clause.iter().copied());
        };
        let mut not_done = Vec::new();
        if board.is_some() {
            for t in 1..=max {
                next += 1;
                not_done.push(next);
                buf.clear();
                buf.push(-next);
                let mut satisfied = false;
                for i in 0..instance.apples.len() {
                    match eaten[i * (max + 1) + t] {
                        TRUE => {}
                        FALSE => satisfied = true,
                        l => buf.push(-l),
                    }
                }
                if !satisfied {
                    add(&mut solver, &buf);
                }
            }
        }
        let mut cover = vec![0; max + 1];
        // Only with `head x y t` variables (not with the axis position).
        if let Some(board) = board.as_ref().filter(|_| open.cell_heads) {
            let cells = instance.cells();
            let free = board.length();
            // `head x y t` literals (0: the head is never there), and the fixed head at t = 0.
            let mut head = vec![0 as Lit; cells * (max + 1)];
            for (v, n) in cnf.names().iter().enumerate() {
                if let VarKind::Head { x, y, t } = *n {
                    let cell = instance.index((x as usize, y as usize));
                    head[t as usize * cells + cell] = v as Lit + 1;
                }
            }
            for (t, p) in fixed_heads(instance) {
                head[t * cells + instance.index(p)] = TRUE;
            }
            let lit = |s: usize, c: usize| match head[s * cells + c] {
                0 => FALSE,
                l => l,
            };
            for (t, slot) in cover.iter_mut().enumerate() {
                if t + 1 < free || t < first {
                    continue;
                }
                next += 1;
                *slot = next;
                for &c in board.free() {
                    buf.clear();
                    buf.push(-next);
                    buf.extend((t + 1 - free..=t).map(|s| lit(s, c)));
                    if !buf.contains(&TRUE) {
                        buf.retain(|&l| l != FALSE);
                        add(&mut solver, &buf);
                    }
                }
            }
            // Once: `window[s]` means "time s lies in the last `free` steps";
            // `cover[T]` implies `window[T + 1 − free]`, which implies every
            // later one, and no cell holds the head twice at two times `s < s'`
            // within `free` steps of each other when `window[s]` holds. A pair
            // with `s'` past the horizon asked is switched off with `act(s')`.
            let pairs = board.free().len() * (max + 1) * free.saturating_sub(1);
            if pairs <= MAX_ONCE_CLAUSES {
                let window: Vec<Lit> = (0..=max).map(|s| next + 1 + s as Lit).collect();
                next += window.len() as Lit;
                for (t, &c) in cover.iter().enumerate() {
                    if c != 0 {
                        add(&mut solver, &[-c, window[t + 1 - free]]);
                    }
                }
                for w in window.windows(2) {
                    add(&mut solver, &[-w[0], w[1]]);
                }
                for &c in board.free() {
                    for (s, &w) in window.iter().enumerate().take(max) {
                        let a = lit(s, c);
                        if a == FALSE {
                            continue;
                        }
                        for later in s + 1..=(s + free - 1).min(max) {
                            let b = lit(later, c);
                            if b == FALSE {
                                continue;
                            }
                            buf.clear();
                            buf.extend([-w, -a, -b]);
                            if later > first {
                                buf.push(-act[later - first - 1]);
                            }
                            buf.retain(|&l| l != FALSE);
                            add(&mut solver, &buf);
                        }
                    }
                }
            }
        }
        solver.set_callbacks(Some(budget.interrupt(None)));
        let stats = Stats {
            variables: next as u64,
            clauses: cnf.num_clauses() + act.len().saturating_sub(1) as u64 + extra,
            literals,
            build_seconds: started.elapsed().as_secs_f64(),
            solve_seconds: 0.0,
        };
        Ok(Session {
            solver,
            cnf,
            eaten,
            apples: instance.apples.len(),
            first,
            max,
            act,
            not_done,
            cover,
            stats,
            config: budget.config,
            cancel: budget.cancel.clone(),
        })
    }

    /// Asks "every apple eaten by `t`, legal moves up to `t`?" (`first <= t <= max`).
    /// Returns the status and, if SAT, the head path `0..=t`. Not for `t` =
    /// 0: when no cell can hold the head at time 1 (a start without an open
    /// neighbour), pruning leaves the formula an empty clause, whose literals
    /// (and so its time) are gone, so it cannot be switched off at 0 and the
    /// answer reads unsatisfiable ([`crate::planner::Planner::each_horizon`]
    /// asks 0 of a fresh formula; the searches start at a lower bound of at
    /// least 1).
    pub fn ask(&mut self, instance: &Instance, t: usize) -> (Status, Option<Vec<Pos>>) {
        assert!(self.first <= t && t <= self.max);
        let started = Instant::now();
        let width = self.max + 1;
        let mut assumptions = Vec::new();
        if t > self.first {
            assumptions.push(self.act[t - self.first - 1]);
        }
        if t < self.max {
            assumptions.push(-self.act[t - self.first]);
        }
        let mut impossible = false;
        if t >= 2 && !self.not_done.is_empty() {
            assumptions.push(self.not_done[t - 2]);
        }
        if self.cover[t] != 0 {
            assumptions.push(self.cover[t]);
        }
        for i in 0..self.apples {
            match self.eaten[i * width + t] {
                TRUE => {}
                FALSE => impossible = true,
                l => assumptions.push(l),
            }
        }
        let result = if impossible {
            Some(false)
        } else {
            self.solver.solve_with(assumptions.iter().copied())
        };
        let out = match result {
            Some(true) => {
                let values: Vec<bool> = (1..=self.cnf.num_vars() as i32)
                    .map(|v| self.solver.value(v).unwrap_or(false))
                    .collect();
                let named =
                    self.cnf.names().iter().zip(values.iter().copied()).filter(
                        |(n, _)| match **n {
                            VarKind::Head { t: time, .. }
                            | VarKind::HeadX { t: time, .. }
                            | VarKind::HeadY { t: time, .. } => time as usize <= t,
                            _ => false,
                        },
                    );
                let path = path_from_model(named, t, &fixed_heads(instance)).ok();
                (Status::Sat, path)
            }
            Some(false) => (Status::Unsat, None),
            None => (Status::Unknown, None),
        };
        self.stats.solve_seconds += started.elapsed().as_secs_f64();
        out
    }

    /// Changes the deadline of later questions (the cancellation stays).
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.solver.set_callbacks(Some(Interrupt {
            deadline,
            flag: None,
            cancel: self.cancel.clone(),
        }));
    }

    /// An attempt at `horizon` with this session's sizes.
    pub fn attempt(
        &self,
        horizon: usize,
        status: Status,
        path: Option<Vec<Pos>>,
        secs: f64,
    ) -> Attempt {
        Attempt {
            horizon,
            status,
            stats: Stats {
                solve_seconds: secs,
                ..self.stats.clone()
            },
            path,
            config: self.config,
            certificate: None,
        }
    }
}

/// The head cells of the pruned formula at horizon `top`, summed over its
/// times ([`Bounds`]): a lower bound on its clauses and a measure of its
/// build time, computed without building it. `u64::MAX` beyond
/// [`MAX_HEAD_SLOTS`] head slots (cells × time points), checked first: no
/// formula that large is built, and the table of [`Bounds`] alone would
/// take a byte per slot. `None` when `stop` fires first (the table of a
/// large board and horizon takes seconds).
pub(crate) fn head_cells(instance: &Instance, top: usize, stop: &Interrupt) -> Option<u64> {
    if instance.cells() as u128 * (top as u128 + 1) > MAX_HEAD_SLOTS {
        return Some(u64::MAX);
    }
    let bounds = Bounds::compute_until(instance, top, true, || stop.fired())?;
    Some(
        bounds
            .head
            .iter()
            .map(|cells| cells.iter().filter(|&&on| on).count() as u64)
            .sum(),
    )
}

/// How many horizons past `first` the first open formula of a least-horizon
/// search reaches (doubled at each rebuild, unless [`rebuilt_max`] keeps it
/// smaller). Small, because the pruning of an
/// open formula is that of its largest horizon: with ordered apples and a
/// least plan near the lower bound, a formula open far beyond it lets the
/// head be almost anywhere at every time. With the earlier margin of
/// `max(lower bound, cells)`, 16×16 with 30 ordered apples (least plan 348,
/// bound 346) had 556,314 clauses and took 38 s; with 8, 121,583 clauses and
/// 0.28 s (20×20, 40 apples, seed 5: over 100 s against 0.63 s), while the
/// IPC-2018 problems, whose least plans lie far above their bounds, take
/// the same time either way (README, "Incremental least-horizon search").
const FIRST_MARGIN: usize = 8;

/// How many times the head cells of the exact formula at the horizon a
/// rebuilt formula starts at ([`head_cells`]) its open formula may have
/// before its margin is halved (down to [`FIRST_MARGIN`]; see
/// [`rebuilt_max`]).
const REBUILT_CELLS_RATIO: u64 = 2;

/// The largest horizon a formula rebuilt at `t` is opened to: `max`, or
/// half as far from `t` while its head cells exceed [`REBUILT_CELLS_RATIO`]
/// times those of the formula at `t` alone, but at least `t` +
/// [`FIRST_MARGIN`]. The pruning of an open formula is that of its largest
/// horizon. With ordered apples on a large board, a least plan just past
/// the first formula met a rebuilt formula open 16 horizons further with
/// 3.0–3.6 times the head cells (16×16, 25 apples, seed 3: 47,431 against
/// 13,097 at T=203), whose first horizon took 30 s against 1.4 s fresh. On
/// small boards and long climbs, where the learnt clauses of one formula
/// are worth its looser pruning, the ratio stays at 1.3–1.5 (6×6, 25
/// apples; IPC-2018 optimal 3) and the margin doubles as before.
fn rebuilt_max(instance: &Instance, t: usize, max: usize, budget: &Budget) -> usize {
    let stop = budget.interrupt(None);
    let Some(exact) = head_cells(instance, t, &stop) else {
        return max;
    };
    let mut max = max;
    while max > t + FIRST_MARGIN {
        match head_cells(instance, max, &stop) {
            Some(open) if open > exact.saturating_mul(REBUILT_CELLS_RATIO) => {
                max = (t + (max - t) / 2).max(t + FIRST_MARGIN);
            }
            _ => break,
        }
    }
    max
}

/// The least horizon in `first..=max_moves`, climbing one step at a time in
/// one solver (rebuilt with a doubled margin when the horizon passes its
/// maximum, or a smaller one, see [`rebuilt_max`]). `margin` is how many horizons past `first` the first formula
/// reaches (0: [`FIRST_MARGIN`]); a formula that would be beyond the
/// encoding's limits is opened less far instead, down to one horizon; beyond
/// them at that one, the climb stops there: `unknown`, with
/// [`Undecided::FormulaLimit`]. Same contract as
/// [`super::parallel::least_horizon_parallel`].
#[allow(clippy::too_many_arguments)]
pub(crate) fn least_horizon_incremental(
    instance: &Instance,
    encoding: &dyn Encoding,
    first: usize,
    max_moves: usize,
    lower_bound: usize,
    margin: usize,
    budget: &Budget,
    mut progress: impl FnMut(&Attempt),
) -> Result<SearchResult, EncodeError> {
    let mut margin = if margin == 0 { FIRST_MARGIN } else { margin };
    let mut attempts: Vec<Attempt> = Vec::new();
    let mut status = Status::Unsat;
    let mut session: Option<Session> = None;
    let mut t = first.max(1);
    while t <= max_moves {
        if budget.expired() {
            status = Status::Unknown;
            break;
        }
        let mut built = false;
        if session.as_ref().is_none_or(|s| s.max < t) {
            let mut max = (t + margin).min(max_moves);
            // A rebuild: open no further than the pruning stays tight.
            if session.is_some() {
                max = rebuilt_max(instance, t, max, budget);
            }
            margin = 2 * (max - t).max(FIRST_MARGIN);
            let opened = loop {
                match Session::new(instance, encoding, t, max, budget) {
                    // Open too far for the encoding's limits (a large board):
                    // half the margin, down to the horizon `t` alone.
                    Err(EncodeError::TooBig { .. }) if max > t => {
                        max = t + (max - t) / 2;
                    }
                    opened => break opened,
                }
            };
            session = Some(match opened {
                // Beyond the limits at `t` alone: the climb stops there.
                Err(error @ EncodeError::TooBig { .. }) => {
                    return Ok(SearchResult {
                        status: Status::Unknown,
                        attempts,
                        lower_bound,
                        undecided: Some(Undecided::FormulaLimit { horizon: t, error }),
                    });
                }
                opened => opened?,
            });
            built = true;
        }
        let s = session.as_mut().expect("session built");
        let started = Instant::now();
        let (st, path) = s.ask(instance, t);
        let mut attempt = s.attempt(t, st, path, started.elapsed().as_secs_f64());
        // A session's build time counts once, with the first horizon asked of it.
        if !built {
            attempt.stats.build_seconds = 0.0;
        }
        progress(&attempt);
        attempts.push(attempt);
        if st != Status::Unsat {
            status = st;
            break;
        }
        t += 1;
    }
    Ok(SearchResult {
        status,
        attempts,
        lower_bound,
        undecided: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::random::{RandomSpec, generate};

    fn board(size: usize, apples: usize, seed: u64) -> Instance {
        generate(&RandomSpec {
            width: size,
            height: size,
            apples,
            seed,
            ..RandomSpec::default()
        })
        .unwrap()
    }

    /// A rebuild keeps the doubled margin where the open formula's pruning
    /// stays near the exact one's (6×6 with 25 apples, seed 1, rebuilt at
    /// T=112 to 128: 4,643 head cells against 3,425), and halves it, down to
    /// the first margin, where it would not (16×16 with 25 apples, seed 3,
    /// rebuilt at T=203: 47,431 head cells at 219 against 13,097).
    #[test]
    fn a_rebuild_opens_no_further_than_the_pruning_stays_tight() {
        let budget = Budget::default();
        let small = board(6, 25, 1);
        assert_eq!(rebuilt_max(&small, 112, 128, &budget), 128);
        let large = board(16, 25, 3);
        let never = Interrupt::default();
        let exact = head_cells(&large, 203, &never).unwrap();
        let open = head_cells(&large, 219, &never).unwrap();
        assert!(open > REBUILT_CELLS_RATIO * exact, "{open} against {exact}");
        let max = rebuilt_max(&large, 203, 219, &budget);
        assert!((203 + FIRST_MARGIN..219).contains(&max), "{max}");
        // Never below the first margin, nor above the margin asked.
        assert_eq!(
            rebuilt_max(&large, 203, 203 + FIRST_MARGIN, &budget),
            203 + FIRST_MARGIN
        );
        assert_eq!(rebuilt_max(&large, 203, 205, &budget), 205);
    }
}
