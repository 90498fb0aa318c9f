//! "Don't bite your body": three sound encodings and a size-based choice.
//!
//! The rule (docs/DESIGN.md §1): the head may not be at time `s` where it was at
//! `s - l` for `1 <= l < len(s)` (follow) or `1 <= l <= len(s-1)` (strict),
//! where `len(t) = L0 + apples eaten by t` (with growth). Odd `l` never
//! collide (the grid is bipartite), so only even `l` are encoded.
//!
//! - [`Body::Window`] (`body window`): one clause `¬head(c,s) ∨ ¬head(c,s-l)`
//!   per cell, time and even `l`, guarded by `count` when `l` needs growth:
//!   about `cells · T · Lmax / 2` clauses. Best for short snakes.
//! - [`Body::Compare`] (`body window` with `same-column`/`same-row`
//!   variables; needs `position=projected`, else it is `window`): the same
//!   pairs of times, but "same cell at `s` and `s - l`" is one clause over
//!   two variables implied by equal columns and equal rows, so a pair of
//!   times costs `width + height + 1` clauses instead of `width * height`.
//! - [`Body::Block`] (`body block` + `body window`): the pairs closer than the
//!   initial length are an at-most-one over every sliding window of each
//!   cell's head variables, encoded by splitting time into blocks of the
//!   window's width with prefix/suffix OR chains (about 6 binary clauses and
//!   2 variables per cell and time, whatever the length); only the pairs that
//!   need growth stay windows, guarded by `count` (`cells · T · apples / 2`).
//!   Its size does not grow with the snake's initial length.
//! - [`Body::Tail`] (`body tail …`): state variables, as the IPC domain does:
//!   the move direction `move d t`, the tail's move `tail-move d t` read from
//!   the head's moves through a delay selected by the apple count, the tail
//!   cell `tail x y t`, and occupancy `occupied x y t`; the head may not enter
//!   an occupied cell (follow: unless it is the tail cell and the snake does
//!   not grow in that step). About 16 clauses per cell and time, independent
//!   of the length and of the number of apples.
//! - [`Body::Auto`] (default) picks the one with the smallest estimated size
//!   per cell and time: windows (`compare` with projections) for short
//!   snakes, `block` for long snakes with few apples, `tail` for long snakes
//!   with many apples; on full boards up to 7×7, `window` (faster to refute
//!   there, see [`Body::resolve`]).

use crate::cnf::{FALSE, Lit, TRUE, VarKind};
use crate::encode::amo::AmoOf;
use crate::encode::full::ends_full;
use crate::geometry::Direction;
use crate::instance::{Instance, Start, TailRule};

use super::{Builder, Position};

/// The body-constraint encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body {
    /// Picks one of the others by estimated clause count (see the module docs).
    Auto,
    /// One clause per cell, time and forbidden length.
    Window,
    /// Windows compared through `same-column`/`same-row` variables.
    Compare,
    /// Sliding-window at-most-one in blocks, plus windows for growth.
    Block,
    /// Tail and occupancy state variables, as the IPC domain does.
    Tail,
}

/// Clauses per cell and time of the `block` base part (prefix, suffix, AMO, cross).
const BLOCK_COST: usize = 6;
/// Estimated clauses per cell and time of the `tail` encoding.
const TAIL_COST: usize = 16;
/// Upper estimates of the literals per cell and time of the `tail`
/// encoding (its clauses are wider than the windows'), and with
/// `position=axis`, where a head's cell is two literals; measured on 5×5
/// to 12×12 boards.
const TAIL_LITERALS: u128 = 64;
/// See [`TAIL_LITERALS`].
const TAIL_AXIS_LITERALS: u128 = 84;

/// Number of even `l` in `lo..=hi` with `l >= 2`.
fn evens(lo: usize, hi: usize) -> usize {
    let lo = lo.max(2);
    if hi < lo {
        return 0;
    }
    let first = lo + lo % 2;
    if first > hi { 0 } else { (hi - first) / 2 + 1 }
}

/// The even lengths `lo..=hi` a time point of a formula of `moves` moves
/// compares with earlier ones, on average over its times `1..=moves` (time
/// `s` reaches back at most `s` steps).
fn pairs_per_time(lo: usize, hi: usize, moves: usize) -> f64 {
    let full = moves.saturating_sub(hi);
    let ramp: usize = (1..=moves.min(hi)).map(|s| evens(lo, s)).sum();
    (ramp + full * evens(lo, hi)) as f64 / moves.max(1) as f64
}

/// The lengths `l` that are always forbidden (`1..base`), and the largest
/// one that growth can make forbidden.
fn ranges(inst: &Instance) -> (usize, usize) {
    let l0 = inst.initial_length();
    let n = if inst.grow { inst.apples.len() } else { 0 };
    match inst.tail {
        // follow: l < L0 + k(s); strict: l <= L0 + k(s-1).
        TailRule::Follow => (l0, l0 + n - 1),
        TailRule::Strict => (l0 + 1, l0 + n),
    }
}

impl Body {
    /// Every choice.
    pub const ALL: [Body; 5] = [
        Body::Auto,
        Body::Window,
        Body::Compare,
        Body::Block,
        Body::Tail,
    ];

    /// The option's name in an encoding string, e.g. `"window"`.
    pub fn name(self) -> &'static str {
        match self {
            Body::Auto => "auto",
            Body::Window => "window",
            Body::Compare => "compare",
            Body::Block => "block",
            Body::Tail => "tail",
        }
    }

    /// Reads a name given by [`Body::name`]; `None` for anything else.
    pub fn parse(s: &str) -> Option<Body> {
        Body::ALL.into_iter().find(|b| b.name() == s)
    }

    /// The concrete encoding used for `inst`: `Auto` resolved by estimated
    /// size, except that small full boards take `window` over `compare`.
    ///
    /// On a full board ([`ends_full`]) the refutations near the least
    /// horizon are most of the work, and there one clause per cell and pair
    /// of times serves the solver better than `compare`'s
    /// `same-column`/`same-row` variables: on IPC-2018 optimal 14 at `T` = 80
    /// and 84 and on generated 6×6 full boards at their last refuted
    /// horizon, the refutation takes 0.6–0.85 times as long, although the
    /// formula has about 9 % more clauses (docs/ipc2018.md, "Full boards: windows and
    /// the `unsat` configuration"). The windows cost `cells / (width +
    /// height + 3)` times `compare`'s clauses; measured on boards up to 6×7
    /// (a factor up to 2.6), the rule stops at a factor of 3 (7×7), beyond
    /// which the size rule decides.
    ///
    /// The size rule counts the pairs of times a formula of `moves` moves
    /// compares, per time point: the windows' reach is the snake's length,
    /// but a time `s` has only `s` earlier ones, so on a horizon shorter
    /// than the snake the windows are fewer than the length says (a length
    /// of 80 at 51 moves took `block`, 1.4 times `compare`'s clauses).
    pub fn resolve(self, inst: &Instance, position: Position, moves: usize) -> Body {
        if self != Body::Auto {
            return self;
        }
        if position == Position::Projected
            && ends_full(inst)
            && inst.cells() <= 3 * (inst.width + inst.height + 3)
        {
            return Body::Window;
        }
        let (base, max_l) = ranges(inst);
        let pairs = |lo: usize| pairs_per_time(lo, max_l, moves);
        let (window, windows) = if position == Position::Projected {
            // One comparison of columns and rows per time pair instead of one clause per cell.
            let per_pair = (inst.width + inst.height + 3) as f64 / inst.cells() as f64;
            ((pairs(2) * per_pair).ceil() as usize, Body::Compare)
        } else {
            (pairs(2).ceil() as usize, Body::Window)
        };
        let block = BLOCK_COST + pairs(base).ceil() as usize;
        if window <= block.min(TAIL_COST) {
            windows
        } else if block <= TAIL_COST {
            Body::Block
        } else {
            Body::Tail
        }
    }
}

impl Body {
    /// An upper estimate of the literals per cell and time point of this
    /// (resolved) body encoding with heads represented by `position`, for
    /// the size limits checked before encoding.
    pub(super) fn literals_per_slot(self, inst: &Instance, position: Position) -> u128 {
        let (base, max_l) = ranges(inst);
        let windows = evens(2, max_l) as u128;
        // A window clause: the head's cell at two times (two literals each
        // with `position=axis`) and a growth guard.
        let window = if position == Position::Axis { 5 } else { 3 };
        match self {
            Body::Compare if position == Position::Projected => {
                let per_pair = (inst.width + inst.height + 3) as u128;
                3 * ((windows * per_pair).div_ceil(inst.cells() as u128) + 1)
            }
            // `compare` needs projections: elsewhere it is `window`.
            Body::Auto | Body::Window | Body::Compare => window * windows,
            Body::Block => 3 * BLOCK_COST as u128 + window * evens(base, max_l) as u128,
            Body::Tail => match position {
                Position::Axis => TAIL_AXIS_LITERALS,
                Position::OneHot | Position::Projected => TAIL_LITERALS,
            },
        }
    }

    /// Like [`Body::resolve`] among `window` and `tail` only (for the
    /// incremental search, whose formula, open up to `moves`, must be local
    /// in time).
    pub fn resolve_open(self, inst: &Instance, position: Position, moves: usize) -> Body {
        match self.resolve(inst, position, moves) {
            // Block chains link times across the horizon: the cheaper of windows and tail instead.
            Body::Block => {
                let (_, max_l) = ranges(inst);
                if pairs_per_time(2, max_l, moves) <= TAIL_COST as f64 {
                    if position == Position::Projected {
                        Body::Compare
                    } else {
                        Body::Window
                    }
                } else {
                    Body::Tail
                }
            }
            b => b,
        }
    }
}

/// Adds the body constraints with the chosen (resolved) encoding.
pub(super) fn encode(b: &mut Builder, body: Body) {
    let (base, max_l) = ranges(b.inst);
    let compare = b.options.position == Position::Projected;
    match body {
        Body::Window | Body::Auto => windows(b, 2, max_l, false),
        Body::Compare => windows(b, 2, max_l, compare),
        Body::Block => {
            block(b, base);
            windows(b, base, max_l, false);
        }
        Body::Tail => tail(b),
    }
}

/// The guard under which the head may not return after `l` steps at time `s`.
fn guard(b: &Builder, l: usize, s: usize) -> Lit {
    let l0 = b.inst.initial_length();
    match (b.inst.tail, b.inst.grow) {
        (TailRule::Follow, true) => b.k((l + 1).saturating_sub(l0), s),
        (TailRule::Strict, true) => b.k(l.saturating_sub(l0), s - 1),
        (TailRule::Follow, false) => {
            if l < l0 {
                TRUE
            } else {
                FALSE
            }
        }
        (TailRule::Strict, false) => {
            if l <= l0 {
                TRUE
            } else {
                FALSE
            }
        }
    }
}

/// Window clauses for the even `l` in `lo..=hi`, per cell or (with
/// `compare`) through the column and row projections.
fn windows(b: &mut Builder, lo: usize, hi: usize, compare: bool) {
    if evens(lo, hi) == 0 {
        return;
    }
    b.cnf.family("body window");
    let inst = b.inst;
    let cells = inst.cells();
    let body: &[_] = match &inst.start {
        Start::Body(cells) => cells,
        Start::Free { .. } => &[],
    };
    let first = lo.max(2) + lo.max(2) % 2;
    for s in 1..=b.moves {
        for l in (first..=hi).step_by(2) {
            let cond = guard(b, l, s);
            if cond == FALSE {
                continue;
            }
            // Through the projections only where that is smaller than one clause per shared cell.
            if l <= s && compare && projected_cost(b, s, s - l) < shared_cells(b, s, s - l) {
                same_place(b, cond, s, s - l);
            } else if l <= s {
                let tau = s - l;
                for c in 0..cells {
                    let ([nx, ny], [tx, ty]) = (b.hp(s, c), b.hp(tau, c));
                    // (`never` of both, without looking them up again.)
                    if [nx, ny, tx, ty].contains(&FALSE) {
                        continue;
                    }
                    b.cnf.add(&[-cond, -nx, -ny, -tx, -ty]);
                }
            } else if let Some(&cell) = body.get(l - s) {
                let [nx, ny] = b.hp(s, inst.index(cell));
                b.cnf.add(&[-cond, -nx, -ny]);
            }
        }
    }
}

/// Cells the head can be on both at `s` and at `tau`.
fn shared_cells(b: &Builder, s: usize, tau: usize) -> usize {
    (0..b.inst.cells())
        .filter(|&c| !b.never(s, c) && !b.never(tau, c))
        .count()
}

/// Clauses of [`same_place`] for `s` and `tau`: shared columns, shared rows, and one.
fn projected_cost(b: &Builder, s: usize, tau: usize) -> usize {
    let shared = |table: &[Lit], size: usize| {
        (0..size)
            .filter(|&i| table[s * size + i] != FALSE && table[tau * size + i] != FALSE)
            .count()
    };
    shared(&b.column, b.inst.width) + shared(&b.row, b.inst.height) + 1
}

/// "Not on the same cell at `s` and `tau` while `cond`", through the column
/// and row projections: `same-column s tau` is implied by equal columns,
/// `same-row s tau` by equal rows, and the two may not hold together.
fn same_place(b: &mut Builder, cond: Lit, s: usize, tau: usize) {
    let mut same = [FALSE; 2];
    for (k, (table, size, kind)) in [
        (
            &b.column,
            b.inst.width,
            VarKind::same_column as fn(_, _) -> _,
        ),
        (&b.row, b.inst.height, VarKind::same_row),
    ]
    .into_iter()
    .enumerate()
    {
        let pairs: Vec<(Lit, Lit)> = (0..size)
            .map(|i| (table[s * size + i], table[tau * size + i]))
            .filter(|&(a, z)| a != FALSE && z != FALSE)
            .collect();
        if pairs.is_empty() {
            return;
        }
        let v = b.cnf.var(kind(s, tau));
        for (a, z) in pairs {
            b.cnf.add(&[-a, -z, v]);
        }
        same[k] = v;
    }
    b.cnf.add(&[-cond, -same[0], -same[1]]);
}

/// At most one head visit of each cell within every `width` consecutive
/// time points (initial body cells count at negative times).
fn block(b: &mut Builder, width: usize) {
    if width < 3 {
        // Pairs closer than 3 steps never collide (adjacent moves, bipartite grid).
        return;
    }
    b.cnf.family("body block");
    let inst = b.inst;
    let earlier = start_visits(inst);
    let offset = inst.initial_length() as i64;
    let mut points: Vec<(i64, Lit)> = Vec::new();
    let mut next = earlier.iter().peekable();
    for c in 0..inst.cells() {
        points.clear();
        while let Some(&(_, t)) = next.next_if(|&&(cell, _)| cell == c) {
            points.push((t, TRUE));
        }
        for t in 0..=b.moves {
            let l = b.h(t, c);
            if l != FALSE {
                points.push((t as i64, l));
            }
        }
        if points.len() < 2 {
            continue;
        }
        sliding_at_most_one(b, &points, width as i64, c, offset);
    }
}

/// The initial body's cells behind the head as `(cell, time)` pairs, the
/// cell `i` places behind the head at time `-i`, sorted by cell and then
/// time: one pass over the body and a sort, so that [`block`] reads each
/// cell's earlier visits without scanning the body once per cell.
fn start_visits(inst: &Instance) -> Vec<(usize, i64)> {
    let mut visits: Vec<(usize, i64)> = match &inst.start {
        Start::Body(cells) => cells
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, &p)| (inst.index(p), -(i as i64)))
            .collect(),
        Start::Free { .. } => vec![],
    };
    visits.sort_unstable();
    visits
}

/// OR of two literals as a literal, with a fresh variable only when needed
/// (one-directional: `a -> or`, `b -> or`, enough where `or` only forbids).
fn or_lit(b: &mut Builder, a: Lit, x: Lit, name: VarKind) -> Lit {
    if a == TRUE || x == TRUE {
        return TRUE;
    }
    if a == FALSE {
        return x;
    }
    if x == FALSE {
        return a;
    }
    let v = b.cnf.var(name);
    b.cnf.add(&[-a, v]);
    b.cnf.add(&[-x, v]);
    v
}

/// The block decomposition of "at most one `points` within any `width`
/// consecutive times" for one cell.
fn sliding_at_most_one(
    b: &mut Builder,
    points: &[(i64, Lit)],
    width: i64,
    cell: usize,
    offset: i64,
) {
    let (x, y) = b.inst.pos(cell);
    let base = points[0].0;
    let block_of = |t: i64| (t - base) / width;
    let name = |kind: fn(_, _, _) -> _, t: i64| kind(x, y, (t + offset) as usize);
    // prefix[i]: some point of i's block at or before i; suffix[i]: at or after i.
    let mut prefix = vec![FALSE; points.len()];
    let mut suffix = vec![FALSE; points.len()];
    for i in 0..points.len() {
        let (t, lit) = points[i];
        let before = if i > 0 && block_of(points[i - 1].0) == block_of(t) {
            prefix[i - 1]
        } else {
            FALSE
        };
        b.cnf.add(&[-before, -lit]);
        prefix[i] = or_lit(b, before, lit, name(VarKind::block_prefix, t));
    }
    for i in (0..points.len()).rev() {
        let (t, lit) = points[i];
        let after = if i + 1 < points.len() && block_of(points[i + 1].0) == block_of(t) {
            suffix[i + 1]
        } else {
            FALSE
        };
        suffix[i] = or_lit(b, after, lit, name(VarKind::block_suffix, t));
    }
    // Across neighbouring blocks: a suffix from u and a prefix up to the last point before u + width.
    let mut v = 0;
    for u in 0..points.len() {
        let (tu, _) = points[u];
        let next_block = block_of(tu) + 1;
        while v + 1 < points.len()
            && (block_of(points[v + 1].0) < next_block || points[v + 1].0 < tu + width)
        {
            if block_of(points[v + 1].0) > next_block {
                break;
            }
            v += 1;
        }
        if block_of(points[v].0) == next_block && points[v].0 < tu + width {
            b.cnf.add(&[-suffix[u], -prefix[v]]);
        }
    }
}

/// The direction of index `d` in `move d t` and `tail-move d t`: right,
/// left, down, up (docs/FORMATS.md). This numbering predates
/// [`Direction::ALL`]'s order and is kept, mapped here explicitly, so that
/// the variables and clauses of `body=tail` keep their numbers and order.
const STEPS: [Direction; 4] = [
    Direction::Right,
    Direction::Left,
    Direction::Down,
    Direction::Up,
];

fn step(inst: &Instance, c: usize, d: usize) -> Option<usize> {
    let grid = inst.grid();
    grid.step(grid.pos(c), STEPS[d]).map(|p| grid.index(p))
}

/// Whether the tail can be on `c` at `t`: the tail is where the head was at
/// `tailtime(t) = t - L0 + 1 - k(t)` for some apple count `k(t)`, so some such
/// time must allow the head there (or, before `t = 0`, the initial body holds `c`).
fn tail_possible(b: &Builder, body: &[(usize, usize)], t: usize, c: usize) -> bool {
    let l0 = b.inst.initial_length() as i64;
    let n = if b.inst.grow {
        b.inst.apples.len() as i64
    } else {
        0
    };
    (0..=n).any(|j| {
        let tau = t as i64 - l0 + 1 - j;
        if tau >= 0 {
            !b.never(tau as usize, c)
        } else {
            body.get((-tau) as usize)
                .is_some_and(|&p| b.inst.index(p) == c)
        }
    })
}

/// The tail-tracking encoding (state variables).
fn tail(b: &mut Builder) {
    let inst = b.inst;
    let cells = inst.cells();
    let moves = b.moves;
    let l0 = inst.initial_length();
    let n = if inst.grow { inst.apples.len() } else { 0 };
    let walls = b.walls.clone();
    // Eating only holds the tail back when the snake grows.
    let grows: Vec<Lit> = if inst.grow {
        b.ate.clone()
    } else {
        vec![FALSE; moves + 1]
    };

    // Head moves: exactly one direction per step, and the head follows it.
    b.cnf.family("body tail: moves");
    let mut mv: Vec<[Lit; 4]> = Vec::with_capacity(moves);
    for t in 0..moves {
        let dirs: [Lit; 4] = std::array::from_fn(|d| b.cnf.var(VarKind::step(d, t)));
        b.cnf.add(&dirs);
        for i in 0..4 {
            for j in i + 1..4 {
                b.cnf.add(&[-dirs[i], -dirs[j]]);
            }
        }
        for c in 0..cells {
            if b.never(t, c) {
                continue;
            }
            let [hx, hy] = b.hp(t, c);
            for (d, &dir) in dirs.iter().enumerate() {
                match step(inst, c, d) {
                    Some(q) if !walls[q] => {
                        for there in b.hp(t + 1, q) {
                            b.cnf.add(&[-hx, -hy, -dir, there]);
                        }
                    }
                    _ => b.cnf.add(&[-hx, -hy, -dir]),
                }
            }
        }
        mv.push(dirs);
    }
    // Moves before t = 0 along an explicit body: from b_i to b_(i-1).
    let body: Vec<(usize, usize)> = match &inst.start {
        Start::Body(cells) => cells.clone(),
        Start::Free { .. } => vec![],
    };
    let move_at = |tau: i64| -> Option<[Lit; 4]> {
        if tau >= 0 {
            return mv.get(tau as usize).copied();
        }
        let i = (-tau) as usize;
        let (from, to) = (*body.get(i)?, body[i - 1]);
        let dir = Direction::from_to(from, to);
        Some(STEPS.map(|s| if Some(s) == dir { TRUE } else { FALSE }))
    };

    // The tail's move into step t + 1: the head's move at tailtime(t) = t - L0 + 1 - k(t).
    b.cnf.family("body tail: delay");
    let mut tail_move: Vec<[Lit; 4]> = vec![[FALSE; 4]; moves + 1];
    for t in 0..moves {
        let candidates: Vec<(Lit, [Lit; 4])> = (0..=n)
            .filter_map(|j| {
                // The candidate is certain only without growth (k(t) = 0).
                let selected = if n == 0 {
                    TRUE
                } else {
                    let (at_least, more) = (b.k(j, t), b.k(j + 1, t));
                    if at_least == FALSE || more == TRUE {
                        return None;
                    }
                    FALSE
                };
                let tau = t as i64 - l0 as i64 + 1 - j as i64;
                let dirs = move_at(tau)?;
                Some((selected, dirs))
            })
            .collect();
        if candidates.len() == 1 && candidates[0].0 == TRUE {
            tail_move[t + 1] = candidates[0].1;
            continue;
        }
        let dirs: [Lit; 4] = std::array::from_fn(|d| b.cnf.var(VarKind::tail_move(d, t + 1)));
        for j in 0..=n {
            let (at_least, more) = (b.k(j, t), b.k(j + 1, t));
            if at_least == FALSE || more == TRUE {
                continue;
            }
            let tau = t as i64 - l0 as i64 + 1 - j as i64;
            let Some(src) = move_at(tau) else { continue };
            for d in 0..4 {
                b.cnf.add(&[-at_least, more, -src[d], dirs[d]]);
                b.cnf.add(&[-at_least, more, src[d], -dirs[d]]);
            }
        }
        tail_move[t + 1] = dirs;
    }

    // Tail cell per time (t < moves), with a phantom chain for a free start's unknown cells.
    b.cnf.family("body tail: tail");
    let mut tail_at = vec![FALSE; cells * moves.max(1)];
    let mut phantom: Vec<Vec<Lit>> = vec![vec![FALSE; l0]; moves.max(1)];
    for t in 0..moves {
        for c in 0..cells {
            if walls[c] {
                continue;
            }
            tail_at[t * cells + c] = match (&inst.start, t) {
                (Start::Body(cells_), 0) => {
                    if inst.index(cells_[l0 - 1]) == c {
                        TRUE
                    } else {
                        FALSE
                    }
                }
                (Start::Free { .. }, 0) if l0 == 1 => b.h(0, c),
                (Start::Free { .. }, 0) => FALSE,
                _ if !tail_possible(b, &body, t, c) => FALSE,
                _ => {
                    let (x, y) = inst.pos(c);
                    b.cnf.var(VarKind::tail(x, y, t))
                }
            };
        }
        if let Start::Free { .. } = inst.start {
            for j in 1..l0 {
                phantom[t][j] = if t == 0 {
                    if j == l0 - 1 { TRUE } else { FALSE }
                } else if (inst.grow && j + t >= l0 - 1) || j + t == l0 - 1 {
                    b.cnf.var(VarKind::tail_phantom(j, t))
                } else {
                    FALSE
                };
            }
        }
    }
    for t in 0..moves.saturating_sub(1) {
        let ate = grows[t + 1];
        for c in 0..cells {
            let now = tail_at[t * cells + c];
            if now == FALSE {
                continue;
            }
            let stay = tail_at[(t + 1) * cells + c];
            b.cnf.add(&[-now, -ate, stay]);
            for d in 0..4 {
                if let Some(q) = step(inst, c, d) {
                    let next = tail_at[(t + 1) * cells + q];
                    b.cnf.add(&[-now, ate, -tail_move[t + 1][d], next]);
                }
            }
        }
        for j in 1..l0 {
            let now = phantom[t][j];
            if now == FALSE {
                continue;
            }
            b.cnf.add(&[-now, -ate, phantom[t + 1][j]]);
            if j > 1 {
                b.cnf.add(&[-now, ate, phantom[t + 1][j - 1]]);
            } else {
                for c in 0..cells {
                    let start = b.h(0, c);
                    if start != FALSE {
                        b.cnf
                            .add(&[-now, ate, -start, tail_at[(t + 1) * cells + c]]);
                    }
                }
            }
        }
    }
    for t in 0..moves {
        let mut row: Vec<Lit> = tail_at[t * cells..(t + 1) * cells].to_vec();
        row.extend(phantom[t].iter().copied());
        b.options.amo.encode(&mut b.cnf, &row, AmoOf::Tail, t);
    }

    // Occupancy, and the head never entering an occupied cell.
    b.cnf.family("body tail: occupancy");
    let mut occupied = vec![FALSE; cells * moves.max(1)];
    match &inst.start {
        Start::Body(cells_) => {
            for &p in cells_ {
                occupied[inst.index(p)] = TRUE;
            }
        }
        Start::Free { .. } => {
            for c in 0..cells {
                occupied[c] = b.h(0, c);
            }
        }
    }
    for t in 1..moves {
        for c in 0..cells {
            if walls[c] {
                continue;
            }
            let (before, head, gone) = (
                occupied[(t - 1) * cells + c],
                b.h(t, c),
                tail_at[(t - 1) * cells + c],
            );
            if before == FALSE && head == FALSE {
                continue;
            }
            let (x, y) = inst.pos(c);
            let occ = b.cnf.var(VarKind::occupied(x, y, t));
            b.cnf.add(&[-head, occ]);
            b.cnf.add(&[-before, gone, occ]);
            b.cnf.add(&[-before, -grows[t], occ]);
            occupied[t * cells + c] = occ;
        }
    }
    b.cnf.family("body tail: collision");
    for t in 0..moves {
        for c in 0..cells {
            let (occ, [hx, hy]) = (occupied[t * cells + c], b.hp(t + 1, c));
            if occ == FALSE || b.never(t + 1, c) {
                continue;
            }
            match inst.tail {
                TailRule::Strict => b.cnf.add(&[-hx, -hy, -occ]),
                TailRule::Follow => {
                    b.cnf.add(&[-hx, -hy, -occ, tail_at[t * cells + c]]);
                    b.cnf.add(&[-hx, -hy, -occ, -grows[t + 1]]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::Encoding;
    use crate::encode::direct::{Direct, DirectOptions};

    /// A `side` x `side` board filled by a serpentine snake but for its last
    /// cell, the head in the corner `(0, 0)` and no apples (review 10).
    fn serpentine(side: usize) -> Instance {
        let body: Vec<(usize, usize)> = (0..side)
            .flat_map(|y| {
                (0..side).map(move |i| {
                    if y % 2 == 0 {
                        (i, y)
                    } else {
                        (side - 1 - i, y)
                    }
                })
            })
            .take(side * side - 1)
            .collect();
        Instance {
            width: side,
            height: side,
            walls: vec![],
            start: Start::Body(body),
            apples: vec![],
            visible: 0,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        }
    }

    /// A `side` x `side` board with a snake of two cells in a corner and an
    /// apple on every other cell, one visible at a time, under `tail`.
    fn apples_everywhere(side: usize, tail: TailRule) -> Instance {
        let apples = (0..side)
            .flat_map(|y| (0..side).map(move |x| (x, y)))
            .filter(|&(x, y)| y > 0 || x > 1)
            .collect();
        Instance {
            start: Start::Body(vec![(0, 0), (1, 0)]),
            apples,
            visible: 1,
            tail,
            ..serpentine(side)
        }
    }

    /// The windows' size rule counts the pairs of times the horizon has: a
    /// snake longer than the horizon compares fewer pairs than its length
    /// (`block` was taken at 51 moves, 1.4 times `compare`'s clauses); on a
    /// long horizon `block` wins.
    #[test]
    fn auto_counts_the_pairs_the_horizon_has() {
        let long = Instance {
            width: 11,
            height: 11,
            walls: vec![],
            start: Start::Free { length: 80 },
            apples: vec![(1, 1), (5, 5), (9, 9)],
            visible: 3,
            grow: true,
            tail: TailRule::Strict,
            horizon: None,
        };
        assert_eq!(
            Body::Auto.resolve(&long, Position::Projected, 51),
            Body::Compare
        );
        assert_eq!(
            Body::Auto.resolve(&long, Position::Projected, 1000),
            Body::Block
        );
        // Times 1..=4 compare 0, 1, 1 and 2 even lengths; from 5 on, 2.
        assert_eq!(pairs_per_time(2, 11, 4), 4.0 / 4.0);
        assert_eq!(pairs_per_time(2, 5, 10), (4.0 + 2.0 * 6.0) / 10.0);
    }

    #[test]
    fn auto_takes_windows_on_small_full_boards_only() {
        let full = apples_everywhere(6, TailRule::Strict);
        assert!(crate::encode::full::ends_full(&full));
        assert_eq!(
            Body::Auto.resolve(&full, Position::Projected, 100),
            Body::Window
        );
        // The same board under `follow` does not end full: the size rule.
        let follow = apples_everywhere(6, TailRule::Follow);
        assert_eq!(
            Body::Auto.resolve(&follow, Position::Projected, 100),
            Body::Compare
        );
        // 8x8: windows would cost more than three times `compare`'s clauses.
        let large = apples_everywhere(8, TailRule::Strict);
        assert!(crate::encode::full::ends_full(&large));
        assert_ne!(
            Body::Auto.resolve(&large, Position::Projected, 100),
            Body::Window
        );
        // An explicit choice stands.
        assert_eq!(
            Body::Compare.resolve(&full, Position::Projected, 100),
            Body::Compare
        );
    }

    #[test]
    fn start_visits_lists_the_body_behind_the_head_by_cell_then_time() {
        // Body (0,0) (1,0) (1,1) (0,1) on a 2x2 board: cells 0, 1, 3, 2.
        let inst = serpentine(2);
        let mut long = serpentine(2);
        long.start = Start::Body(vec![(0, 0), (1, 0), (1, 1), (0, 1)]);
        assert_eq!(start_visits(&inst), vec![(1, -1), (3, -2)]);
        assert_eq!(start_visits(&long), vec![(1, -1), (2, -3), (3, -2)]);
        long.start = Start::Free { length: 3 };
        assert_eq!(start_visits(&long), vec![]);
    }

    /// Review 10: `block` scanned the whole start body once per cell and
    /// `tail` once per cell for the start's occupancy, so a 400x400
    /// serpentine took 14 s (1000x1000: minutes) for a formula of a few
    /// clauses. Both are built here for a 600x600 serpentine (359,999 cells;
    /// well under a second in a release build, minutes with the per-cell
    /// scans), and the formula stays small: at most 2 clauses per cell.
    /// (`window` and `compare`
    /// are refused at this length by the literal estimate.)
    #[test]
    fn a_long_start_body_builds_a_small_formula() {
        let inst = serpentine(600);
        for body in [Body::Block, Body::Tail] {
            let options = DirectOptions {
                body,
                ..DirectOptions::default()
            };
            let cnf = Direct::new(options).encode(&inst, 2).unwrap();
            assert!(
                cnf.size().clauses <= 2 * inst.cells() as u64,
                "{body:?}: {:?}",
                cnf.size()
            );
        }
    }

    #[test]
    fn evens_counts_even_lengths_from_two() {
        assert_eq!(evens(2, 11), 5);
        assert_eq!(evens(3, 11), 4);
        assert_eq!(evens(0, 1), 0);
        assert_eq!(evens(4, 4), 1);
        assert_eq!(evens(5, 4), 0);
    }
}
