//! The direct encoding: a sound CNF of the full game model, with options
//! that combine independently (`DirectOptions`).
//!
//! Variables (all named in DIMACS comments):
//! - `head x y t`: the head is on `(x, y)` at time `t` (one-hot per time).
//! - `eaten i t`: apple `i` has been eaten at some time `<= t`.
//! - `count j t`: at least `j` apples eaten by `t` (a unary counter; with
//!   ordered apples and `growth=auto` (the default), `count j t` is `eaten (j-1) t` and
//!   needs no variable).
//! - `eat i t`, `ate t`: apple `i` eaten exactly at `t`; some apple eaten at `t`.
//! - body variables of the chosen body encoding (see [`body`]).
//!
//! Families:
//! - `start`: the head's first cell (fixed body, or any free cell).
//! - `head exactly-one`: at most one head cell per time (AMO of the options;
//!   at least one follows from `start` and `adjacent move`).
//! - `adjacent move`: a head at `t` has a head on a neighbour at `t + 1`.
//! - `apple eaten`: `eaten` is monotone, needs the head on the apple while it
//!   is revealed, and is forced when the head enters a revealed apple.
//! - `apple count`: the unary counter of apples eaten, one increment per step.
//! - `goal`: every apple eaten at `T`.
//! - `goal count`: with the counter, at least `j` apples eaten by
//!   `T − (n − j)` (one apple per move at most): a count the solver cannot
//!   make itself, and with it the snake's length near `T` is known, which
//!   switches on the body clauses guarded by it. On full boards it halves
//!   the refutations near the least horizon (docs/ipc2018.md, "Full boards: the
//!   goal's count").
//! - `body …`: the head never enters its body; see [`body`] for the choices.
//!
//! With `prune=on` (default) variables that [`Bounds`] proves false are
//! constants and never created.

// Loops run over time steps and index several per-time tables at once.
#![allow(clippy::needless_range_loop)]

pub mod body;

use crate::cnf::{Cnf, FALSE, Lit, TRUE, VarKind};
use crate::encode::amo::{Amo, AmoOf};
use crate::encode::full::FullBoard;
use crate::encode::prune::{Bounds, start_cells};
use crate::encode::schedule;
use crate::encode::{Capabilities, EncodeError, Encoding, NameError, OpenFormula};
use crate::geometry::NeighbourTable;
use crate::instance::{Instance, Start};

pub use body::Body;

/// How the number of apples eaten is represented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// Ordered apples (`visible = 1`) use the eaten chain as the counter; others a counter.
    Auto,
    /// Always the unary counter, even where the apple order makes it redundant.
    Counter,
}

impl Growth {
    /// The option's name in an encoding string: `"auto"` or `"counter"`.
    pub fn name(self) -> &'static str {
        match self {
            Growth::Auto => "auto",
            Growth::Counter => "counter",
        }
    }

    /// Reads `"auto"` (or its alias `"chain"`) or `"counter"`; `None` for anything else.
    pub fn parse(s: &str) -> Option<Growth> {
        match s {
            "auto" | "chain" => Some(Growth::Auto),
            "counter" => Some(Growth::Counter),
            _ => None,
        }
    }
}

/// How the head's cell is represented at each time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// One variable per cell (`head x y t`), at most one true per time by the
    /// chosen AMO over all cells.
    OneHot,
    /// One variable per cell plus its column and row (`column x t`, `row y t`,
    /// implied by the cell): at most one column and one row per time (AMO over
    /// `width` and `height` literals instead of `width * height`), and the
    /// body window compares positions through `same-column`/`same-row`
    /// variables: `width + height` clauses per time pair instead of one per cell.
    Projected,
    /// One variable per column and one per row (`head-x x t`, `head-y y t`):
    /// `width + height` variables per time instead of `width * height`; the
    /// head is on `(x, y)` when both are true (the vector representation of
    /// `docs/sources/spinpossible-vector-encoding.txt`). Constraints on a cell
    /// use the two literals together.
    Axis,
}

impl Position {
    /// The option's name in an encoding string: `"onehot"`, `"projected"` or `"axis"`.
    pub fn name(self) -> &'static str {
        match self {
            Position::OneHot => "onehot",
            Position::Projected => "projected",
            Position::Axis => "axis",
        }
    }

    /// Reads a name given by [`Position::name`]; `None` for anything else.
    pub fn parse(s: &str) -> Option<Position> {
        match s {
            "onehot" => Some(Position::OneHot),
            "projected" => Some(Position::Projected),
            "axis" => Some(Position::Axis),
            _ => None,
        }
    }
}

/// The independent choices of the direct encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectOptions {
    /// The at-most-one encoding used for exactly-one constraints.
    pub amo: Amo,
    /// How the body is constrained.
    pub body: Body,
    /// How the number of apples eaten is represented.
    pub growth: Growth,
    /// How the head's cell is represented at each time.
    pub position: Position,
    /// Whether variables that [`Bounds`] proves false are left out (`prune=on`).
    pub prune: bool,
}

impl Default for DirectOptions {
    fn default() -> Self {
        DirectOptions {
            amo: Amo::Sequential,
            body: Body::Auto,
            growth: Growth::Auto,
            position: Position::Projected,
            prune: true,
        }
    }
}

impl DirectOptions {
    /// Parses `direct`, `direct,key=value,...` or `key=value,...`; empty
    /// items and the spaces around items, keys and values are skipped
    /// (`""` gives the defaults; `body = tail` is `body=tail`).
    pub fn parse(name: &str) -> Result<DirectOptions, NameError> {
        let mut options = DirectOptions::default();
        let mut given: Vec<&str> = Vec::new();
        for (i, part) in name
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .enumerate()
        {
            if part == "direct" {
                // (Only as the first item: a second one began another
                // encoding, folded into this one without a word.)
                if i > 0 {
                    return Err(NameError::SecondName(name.to_string()));
                }
                continue;
            }
            let Some((key, value)) = part.split_once('=') else {
                return Err(NameError::Unknown(name.to_string()));
            };
            let (key, value) = (key.trim(), value.trim());
            if given.contains(&key) {
                return Err(NameError::Repeated {
                    key: key.to_string(),
                    name: name.to_string(),
                });
            }
            given.push(key);
            let bad = |option: &'static str, allowed: &str| NameError::BadValue {
                option,
                value: value.to_string(),
                allowed: allowed.to_string(),
            };
            match key {
                "amo" => {
                    options.amo = Amo::parse(value).ok_or_else(|| {
                        let names: Vec<&str> = Amo::ALL.iter().map(|a| a.name()).collect();
                        bad("amo", &names.join("|"))
                    })?
                }
                "body" => {
                    options.body = Body::parse(value)
                        .ok_or_else(|| bad("body", "auto|window|compare|block|tail"))?
                }
                "growth" => {
                    options.growth =
                        Growth::parse(value).ok_or_else(|| bad("growth", "auto|counter"))?
                }
                "position" => {
                    options.position = Position::parse(value)
                        .ok_or_else(|| bad("position", "projected|onehot|axis"))?
                }
                "prune" => {
                    options.prune = match value {
                        "on" => true,
                        "off" => false,
                        _ => return Err(NameError::BadPrune(value.to_string())),
                    }
                }
                _ => {
                    return Err(NameError::UnknownOption {
                        key: key.to_string(),
                        name: name.to_string(),
                    });
                }
            }
        }
        Ok(options)
    }

    /// The canonical name: `direct` for the defaults, else the options that differ.
    pub fn name(&self) -> String {
        let default = DirectOptions::default();
        let mut parts = vec!["direct".to_string()];
        if self.amo != default.amo {
            parts.push(format!("amo={}", self.amo.name()));
        }
        if self.body != default.body {
            parts.push(format!("body={}", self.body.name()));
        }
        if self.growth != default.growth {
            parts.push(format!("growth={}", self.growth.name()));
        }
        if self.position != default.position {
            parts.push(format!("position={}", self.position.name()));
        }
        if self.prune != default.prune {
            parts.push(format!("prune={}", if self.prune { "on" } else { "off" }));
        }
        parts.join(",")
    }
}

/// The direct encoding with its options.
#[derive(Clone, Debug, Default)]
pub struct Direct {
    /// The choices this encoding makes.
    pub options: DirectOptions,
}

impl Direct {
    /// The direct encoding with `options`.
    pub fn new(options: DirectOptions) -> Self {
        Direct { options }
    }
}

impl Encoding for Direct {
    fn name(&self) -> String {
        self.options.name()
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            approximate: false,
            incremental: self.options.body != Body::Block,
            explicit_body: true,
        }
    }

    fn encode(&self, instance: &Instance, moves: usize) -> Result<Cnf, EncodeError> {
        // Linear in the cells, against the formula's cells × moves.
        instance.validate_game()?;
        check_size(instance, moves, &self.options)?;
        Ok(Builder::new(instance, moves, &self.options).build())
    }

    fn encode_open(&self, instance: &Instance, max: usize) -> Result<OpenFormula, EncodeError> {
        instance.validate_game()?;
        let (cnf, eaten) = encode_open(instance, max, &self.options)?;
        Ok(OpenFormula {
            cnf,
            eaten,
            cell_heads: self.options.position != Position::Axis,
        })
    }
}

/// The most head slots (cells × time points) a formula may have: beyond it
/// the tables and clauses would not fit in memory.
pub const MAX_HEAD_SLOTS: u128 = 50_000_000;

/// The most literals a formula may be estimated to need (about 400 MB of
/// clauses, several times that in the solver).
pub const MAX_LITERALS: u128 = 100_000_000;

/// An upper estimate of the literals of the formula, from the head slots,
/// the body encoding, the AMO and the apple/time tables; measured sizes stay
/// below it (0.5–0.95 of it on the unit test's boards, every option).
fn estimated_literals(instance: &Instance, moves: usize, options: &DirectOptions) -> u128 {
    let slots = instance.cells() as u128 * (moves as u128 + 1);
    let body = options
        .body
        .resolve(instance, options.position, moves)
        .literals_per_slot(instance, options.position);
    // Literals per cell of an AMO over all cells; there are two per time
    // point (head, and the tail with body=tail).
    let amo = match options.amo {
        Amo::Pairwise => instance.cells() as u128,
        // A cell implies each bit of its index.
        Amo::Binary | Amo::Bimander => {
            2 * crate::encode::amo::ceil_log2(instance.cells()).max(2) as u128
        }
        _ => 3,
    };
    let apples = instance.apples.len() as u128 * (moves as u128 + 1);
    // A full board's facts: *cover* (`L` literals per free cell), *once*
    // (at most `MAX_ONCE_CLAUSES` pairs) and *degree* (per free cell and
    // window time, three defining clauses and up to four degree clauses: at
    // most 40 literals).
    let full = FullBoard::of(instance).map_or(0, |board| {
        let l = board.length() as u128;
        let window = l.min(moves as u128 + 1);
        l * l + 2 * (crate::encode::full::MAX_ONCE_CLAUSES as u128) + l * window * 40
    });
    slots
        .saturating_mul(20 + body + 2 * amo)
        .saturating_add(apples.saturating_mul(20))
        .saturating_add(full)
}

/// Refuses formulas whose head tables or estimated clauses would exhaust
/// memory, before anything is allocated.
fn check_size(
    instance: &Instance,
    moves: usize,
    options: &DirectOptions,
) -> Result<(), EncodeError> {
    let count = instance.cells() as u128 * (moves as u128 + 1);
    if count > MAX_HEAD_SLOTS {
        return Err(EncodeError::TooBig {
            encoding: options.name(),
            moves,
            what: "head slots (cells × time points)",
            count,
            limit: MAX_HEAD_SLOTS,
        });
    }
    let literals = estimated_literals(instance, moves, options);
    if literals > MAX_LITERALS {
        return Err(EncodeError::TooBig {
            encoding: options.name(),
            moves,
            what: "literals (estimated)",
            count: literals,
            limit: MAX_LITERALS,
        });
    }
    Ok(())
}

/// `true` on the cells the head may occupy at `t = 0`.
fn start_map(inst: &Instance) -> Vec<bool> {
    let mut map = vec![false; inst.cells()];
    for p in start_cells(inst, &inst.wall_map()) {
        map[inst.index(p)] = true;
    }
    map
}

/// Builds one formula; holds the variable tables.
pub(crate) struct Builder<'a> {
    inst: &'a Instance,
    /// The board's cells, `inst.cells()` (looked up in the hot loops).
    cells: usize,
    moves: usize,
    options: &'a DirectOptions,
    cnf: Cnf,
    walls: Vec<bool>,
    /// Cells the head may start on (the game's rule, before any pruning).
    starts: Vec<bool>,
    /// `head[t * cells + c]`.
    head: Vec<Lit>,
    /// `eaten[i * (moves + 1) + t]`.
    eaten: Vec<Lit>,
    /// `count[j * (moves + 1) + t]` for `j` in `0..=n` (`j = 0` is `TRUE`).
    count: Vec<Lit>,
    /// `ate[t]`: some apple is eaten at `t` (`FALSE` where none can be, or not needed).
    ate: Vec<Lit>,
    /// With `position=axis` or `projected`: `column[t * width + x]` and `row[t * height + y]`.
    column: Vec<Lit>,
    row: Vec<Lit>,
    /// With `position=axis`: exact `head x y t` literals made on demand (0: not yet).
    exact: Vec<Lit>,
    /// False for the open formula of the incremental search (no `goal` clauses).
    goal: bool,
}

/// The direct encoding at `moves` moves without the `goal` family, for the
/// incremental search ([`crate::solve::incremental`]): the body encoding is
/// never `block` (its clauses link times across the horizon), and the
/// returned table holds `eaten i t` at `[i * (moves + 1) + t]`.
fn encode_open(
    instance: &Instance,
    moves: usize,
    options: &DirectOptions,
) -> Result<(Cnf, Vec<Lit>), EncodeError> {
    let mut options = options.clone();
    options.body = match options.body {
        Body::Block => {
            return Err(EncodeError::NoOpenFormula {
                encoding: options.name(),
            });
        }
        Body::Auto => options.body.resolve_open(instance, options.position, moves),
        b => b,
    };
    check_size(instance, moves, &options)?;
    let mut builder = Builder::new(instance, moves, &options);
    builder.goal = false;
    let (cnf, eaten) = builder.build_keeping_eaten();
    Ok((cnf, eaten))
}

impl<'a> Builder<'a> {
    fn new(inst: &'a Instance, moves: usize, options: &'a DirectOptions) -> Self {
        Builder {
            inst,
            cells: inst.cells(),
            moves,
            options,
            cnf: Cnf::new(),
            walls: inst.wall_map(),
            starts: start_map(inst),
            head: Vec::new(),
            eaten: Vec::new(),
            count: Vec::new(),
            ate: Vec::new(),
            column: Vec::new(),
            row: Vec::new(),
            exact: Vec::new(),
            goal: true,
        }
    }

    /// The head is on cell `c` at `t` iff both literals hold (one-hot: `[head, TRUE]`).
    #[inline]
    fn hp(&self, t: usize, c: usize) -> [Lit; 2] {
        match self.options.position {
            Position::OneHot | Position::Projected => [self.head[t * self.cells + c], TRUE],
            Position::Axis => {
                if self.walls[c] {
                    return [FALSE, TRUE];
                }
                let (x, y) = self.inst.pos(c);
                [
                    self.column[t * self.inst.width + x],
                    self.row[t * self.inst.height + y],
                ]
            }
        }
    }

    /// True if the head can never be on `c` at `t`.
    #[inline]
    fn never(&self, t: usize, c: usize) -> bool {
        self.hp(t, c).contains(&FALSE)
    }

    /// A single literal equal to "the head is on `c` at `t`" (with `position=axis`
    /// a variable defined as the conjunction, made once on demand).
    #[inline]
    fn h(&mut self, t: usize, c: usize) -> Lit {
        match self.options.position {
            Position::OneHot | Position::Projected => self.head[t * self.cells + c],
            Position::Axis => self.axis_head(t, c),
        }
    }

    /// [`Builder::h`] with `position=axis`.
    fn axis_head(&mut self, t: usize, c: usize) -> Lit {
        let [a, b] = self.hp(t, c);
        if b == TRUE {
            return a;
        }
        if a == TRUE {
            return b;
        }
        if a == FALSE || b == FALSE {
            return FALSE;
        }
        let slot = t * self.cells + c;
        if self.exact[slot] == 0 {
            let (x, y) = self.inst.pos(c);
            let v = self.cnf.var(VarKind::head(x, y, t));
            self.cnf.add(&[-a, -b, v]);
            self.cnf.add(&[-v, a]);
            self.cnf.add(&[-v, b]);
            self.exact[slot] = v;
        }
        self.exact[slot]
    }

    fn e(&self, i: usize, t: usize) -> Lit {
        self.eaten[i * (self.moves + 1) + t]
    }

    /// At least `j` apples eaten by `t` (`j` may exceed `n`: `FALSE`).
    fn k(&self, j: usize, t: usize) -> Lit {
        if j == 0 {
            TRUE
        } else if j > self.inst.apples.len() {
            FALSE
        } else {
            self.count[j * (self.moves + 1) + t]
        }
    }

    /// Apple `i` is on the board (revealed) at time `t`.
    fn revealed(&self, i: usize, t: usize) -> Lit {
        let v = self.inst.visible_at_start();
        if i < v { TRUE } else { self.k(i - v + 1, t) }
    }

    fn build(self) -> Cnf {
        self.build_keeping_eaten().0
    }

    fn build_keeping_eaten(mut self) -> (Cnf, Vec<Lit>) {
        // (An open formula's clauses must keep their times: see compute_open.)
        let bounds = if self.goal {
            Bounds::compute(self.inst, self.moves)
        } else {
            Bounds::compute_open(self.inst, self.moves)
        };
        let body = self
            .options
            .body
            .resolve(self.inst, self.options.position, self.moves);
        match self.options.position {
            Position::OneHot | Position::Projected => {
                self.head_vars(&bounds);
                self.eaten_vars(&bounds);
                self.start();
                if self.options.position == Position::Projected {
                    self.projections();
                } else {
                    self.exactly_one();
                }
                if body != Body::Tail {
                    // The tail-tracking body moves the head by direction variables instead.
                    self.adjacent();
                }
            }
            Position::Axis => {
                self.axis_vars(&bounds);
                self.eaten_vars(&bounds);
                self.axis_rules();
            }
        }
        let chain = self.inst.visible_at_start() == 1 && self.options.growth == Growth::Auto;
        let n = self.inst.apples.len();
        let counter_needed = n > 0 && (self.inst.grow || self.inst.visible_at_start() < n);
        let ate_needed =
            n > 0 && ((counter_needed && !chain) || (body == Body::Tail && self.inst.grow));
        if ate_needed {
            self.ate_vars();
        } else {
            self.ate = vec![FALSE; self.moves + 1];
        }
        self.count_vars(counter_needed, chain);
        self.apples();
        if self.goal {
            self.goal(counter_needed);
            if let Some(board) = FullBoard::of(self.inst) {
                self.full_board(&board);
            }
        }
        body::encode(&mut self, body);
        (self.cnf, self.eaten)
    }

    fn head_vars(&mut self, bounds: &Bounds) {
        let cells = self.cells;
        self.cnf.family("head");
        self.head = vec![FALSE; cells * (self.moves + 1)];
        let fixed_start = matches!(self.inst.start, Start::Body(_));
        for t in 0..=self.moves {
            for c in 0..cells {
                if !self.possible(bounds, t, c) {
                    continue;
                }
                self.head[t * cells + c] = if t == 0 && fixed_start {
                    TRUE
                } else {
                    let (x, y) = self.inst.pos(c);
                    self.cnf.var(VarKind::head(x, y, t))
                };
            }
        }
    }

    fn eaten_vars(&mut self, bounds: &Bounds) {
        let n = self.inst.apples.len();
        let width = self.moves + 1;
        self.cnf.family("apple eaten");
        self.eaten = vec![FALSE; n * width];
        for i in 0..n {
            for t in 1..=self.moves {
                let lit = if self.options.prune && t < bounds.earliest[i] {
                    FALSE
                } else if self.options.prune && t >= bounds.latest[i] {
                    TRUE
                } else {
                    self.cnf.var(VarKind::eaten(i, t))
                };
                self.eaten[i * width + t] = lit;
            }
        }
    }

    /// Whether the head may be on `c` at `t`: never on a wall, at `t = 0` only
    /// on a start cell, and with `prune=on` only where [`Bounds`] allow.
    fn possible(&self, bounds: &Bounds, t: usize, c: usize) -> bool {
        !self.walls[c] && (t > 0 || self.starts[c]) && (!self.options.prune || bounds.head[t][c])
    }

    /// The head is somewhere at `t = 0`. With a fixed start the start cell is
    /// `TRUE` and the clause vanishes, unless the bounds prove that no plan
    /// exists and pruned it: then the clause is empty. Every later time has a
    /// head through `adjacent move`, so the formula never lacks one.
    fn start(&mut self) {
        self.cnf.family("start");
        let first: Vec<Lit> = self.head[..self.cells].to_vec();
        self.cnf.add(&first);
    }

    /// `head-x x t` and `head-y y t`, pruned to the columns and rows of reachable cells.
    fn axis_vars(&mut self, bounds: &Bounds) {
        let (w, h) = (self.inst.width, self.inst.height);
        self.cnf.family("head");
        self.column = vec![FALSE; w * (self.moves + 1)];
        self.row = vec![FALSE; h * (self.moves + 1)];
        self.exact = vec![0; self.cells * (self.moves + 1)];
        let fixed_start = matches!(self.inst.start, Start::Body(_));
        for t in 0..=self.moves {
            let mut columns = vec![false; w];
            let mut rows = vec![false; h];
            for c in 0..self.cells {
                if self.possible(bounds, t, c) {
                    let (x, y) = self.inst.pos(c);
                    columns[x] = true;
                    rows[y] = true;
                }
            }
            for x in 0..w {
                if columns[x] {
                    self.column[t * w + x] = if t == 0 && fixed_start {
                        TRUE
                    } else {
                        self.cnf.var(VarKind::head_x(x, t))
                    };
                }
            }
            for y in 0..h {
                if rows[y] {
                    self.row[t * h + y] = if t == 0 && fixed_start {
                        TRUE
                    } else {
                        self.cnf.var(VarKind::head_y(y, t))
                    };
                }
            }
        }
    }

    /// Per-axis one-hot, start, walls and moves: one coordinate changes by
    /// one, the other stays.
    fn axis_rules(&mut self) {
        let (w, h) = (self.inst.width, self.inst.height);
        let cells = self.cells;
        self.cnf.family("start");
        // As with one head variable per cell: empty when the bounds pruned the start.
        let xs: Vec<Lit> = self.column[..w].to_vec();
        let ys: Vec<Lit> = self.row[..h].to_vec();
        self.cnf.add(&xs);
        self.cnf.add(&ys);
        if let Start::Free { .. } = self.inst.start {
            for &a in &self.inst.apples[..self.inst.visible_at_start()] {
                let [x, y] = self.hp(0, self.inst.index(a));
                self.cnf.add(&[-x, -y]);
            }
        }
        self.cnf.family("head exactly-one");
        for t in 0..=self.moves {
            let xs: Vec<Lit> = self.column[t * w..(t + 1) * w].to_vec();
            let ys: Vec<Lit> = self.row[t * h..(t + 1) * h].to_vec();
            self.options.amo.encode(&mut self.cnf, &xs, AmoOf::HeadX, t);
            self.options.amo.encode(&mut self.cnf, &ys, AmoOf::HeadY, t);
        }
        self.cnf.family("walls");
        for t in 0..=self.moves {
            for c in 0..cells {
                if self.walls[c] {
                    let (x, y) = self.inst.pos(c);
                    let (a, b) = (self.column[t * w + x], self.row[t * h + y]);
                    self.cnf.add(&[-a, -b]);
                }
            }
        }
        self.cnf.family("adjacent move");
        for t in 0..self.moves {
            // `moved-x t`: the column changes between t and t + 1 (else the row does).
            let mx = self.cnf.var(VarKind::moved_x(t));
            for (lits, size, axis_moved) in [(&self.column, w, mx), (&self.row, h, -mx)] {
                let (now, next): (Vec<Lit>, Vec<Lit>) = (
                    (0..size).map(|i| lits[t * size + i]).collect(),
                    (0..size).map(|i| lits[(t + 1) * size + i]).collect(),
                );
                for i in 0..size {
                    if now[i] == FALSE {
                        continue;
                    }
                    let before = if i > 0 { next[i - 1] } else { FALSE };
                    let after = if i + 1 < size { next[i + 1] } else { FALSE };
                    // Stay or step by one along this axis; staying means the other axis moved.
                    self.cnf.add(&[-now[i], before, next[i], after]);
                    self.cnf.add(&[-now[i], -next[i], -axis_moved]);
                    self.cnf.add(&[-now[i], next[i], axis_moved]);
                }
            }
        }
    }

    fn exactly_one(&mut self) {
        let cells = self.cells;
        self.cnf.family("head exactly-one");
        for t in 0..=self.moves {
            let row: Vec<Lit> = self.head[t * cells..(t + 1) * cells].to_vec();
            self.options.amo.encode(&mut self.cnf, &row, AmoOf::Head, t);
        }
    }

    /// `column x t` and `row y t` implied by each head cell; at most one of each per time.
    fn projections(&mut self) {
        let (w, h) = (self.inst.width, self.inst.height);
        self.cnf.family("head exactly-one");
        self.column = vec![FALSE; w * (self.moves + 1)];
        self.row = vec![FALSE; h * (self.moves + 1)];
        for t in 0..=self.moves {
            for c in 0..self.cells {
                let here = self.head[t * self.cells + c];
                if here == FALSE {
                    continue;
                }
                let (x, y) = self.inst.pos(c);
                for (table, size, at, kind) in [
                    (&mut self.column, w, x, VarKind::column as fn(_, _) -> _),
                    (&mut self.row, h, y, VarKind::row),
                ] {
                    if table[t * size + at] == FALSE {
                        table[t * size + at] = self.cnf.var(kind(at, t));
                    }
                    self.cnf.add(&[-here, table[t * size + at]]);
                }
            }
            let xs: Vec<Lit> = self.column[t * w..(t + 1) * w].to_vec();
            let ys: Vec<Lit> = self.row[t * h..(t + 1) * h].to_vec();
            self.options
                .amo
                .encode(&mut self.cnf, &xs, AmoOf::Column, t);
            self.options.amo.encode(&mut self.cnf, &ys, AmoOf::Row, t);
        }
    }

    fn adjacent(&mut self) {
        let cells = self.cells;
        self.cnf.family("adjacent move");
        // (A division per cell and time was a tenth of a build.)
        let table = NeighbourTable::new(self.inst.grid());
        let mut clause = Vec::with_capacity(5);
        for t in 0..self.moves {
            for c in 0..cells {
                let here = self.h(t, c);
                if here == FALSE {
                    continue;
                }
                clause.clear();
                clause.push(-here);
                for &q in table.around(c) {
                    clause.push(self.h(t + 1, q));
                }
                self.cnf.add(&clause);
            }
        }
    }

    /// `eat i t` (apple `i` eaten exactly at `t`) and `ate t` (some apple eaten at `t`).
    fn ate_vars(&mut self) {
        let n = self.inst.apples.len();
        let width = self.moves + 1;
        self.cnf.family("apple count");
        self.ate = vec![FALSE; width];
        for t in 1..width {
            let eats: Vec<Lit> = (0..n)
                .map(|i| {
                    let (now, before) = (self.e(i, t), self.e(i, t - 1));
                    if now == FALSE || before == TRUE {
                        return FALSE;
                    }
                    let x = self.cnf.var(VarKind::eat(i, t));
                    self.cnf.add(&[-x, now]);
                    self.cnf.add(&[-x, -before]);
                    self.cnf.add(&[x, -now, before]);
                    x
                })
                .collect();
            if eats.iter().all(|&x| x == FALSE) {
                continue;
            }
            let a = self.cnf.var(VarKind::ate(t));
            let mut any = vec![-a];
            any.extend(eats.iter().copied());
            self.cnf.add(&any);
            for &x in &eats {
                self.cnf.add(&[a, -x]);
            }
            self.ate[t] = a;
        }
    }

    /// The unary counter `count j t` (at least `j` apples eaten by `t`): the
    /// eaten chain itself for ordered apples, else one increment per `ate`.
    fn count_vars(&mut self, needed: bool, chain: bool) {
        let n = self.inst.apples.len();
        let width = self.moves + 1;
        self.count = vec![FALSE; (n + 1) * width];
        for t in 0..width {
            self.count[t] = TRUE;
        }
        if !needed {
            return;
        }
        if chain {
            // Ordered apples are eaten in order: at least j eaten iff apple j-1 eaten.
            for j in 1..=n {
                for t in 0..width {
                    self.count[j * width + t] = self.e(j - 1, t);
                }
            }
            return;
        }
        self.cnf.family("apple count");
        // The least time of each number of eats, ignoring the body (the
        // first eat no earlier than the nearest visible apple).
        let eats = if self.options.prune {
            schedule::earliest_eats(self.inst)
        } else {
            vec![0; n + 1].into()
        };
        for j in 1..=n {
            for t in 1..width {
                // At most one apple per step, and none before any order of
                // the apples could eat `j`.
                let lit = if t < j || (self.options.prune && t < eats[j]) {
                    FALSE
                } else {
                    self.cnf.var(VarKind::count(j, t))
                };
                self.count[j * width + t] = lit;
            }
        }
        for j in 1..=n {
            for t in 1..width {
                let (now, before, below) = (self.k(j, t), self.k(j, t - 1), self.k(j - 1, t - 1));
                let ate = self.ate[t];
                self.cnf.add(&[-before, now]);
                self.cnf.add(&[-below, -ate, now]);
                self.cnf.add(&[-now, before, below]);
                self.cnf.add(&[-now, before, ate]);
            }
        }
    }

    fn apples(&mut self) {
        self.cnf.family("apple eaten");
        let n = self.inst.apples.len();
        for i in 0..n {
            let cell = self.inst.index(self.inst.apples[i]);
            for t in 1..=self.moves {
                let (now, before) = (self.e(i, t), self.e(i, t - 1));
                let [hx, hy] = self.hp(t, cell);
                let shown = self.revealed(i, t - 1);
                self.cnf.add(&[-before, now]);
                self.cnf.add(&[-now, before, hx]);
                self.cnf.add(&[-now, before, hy]);
                self.cnf.add(&[-now, before, shown]);
                self.cnf.add(&[-hx, -hy, -shown, now]);
            }
        }
    }

    /// Every apple eaten at `T`; with the counter (`counted`), also its
    /// values that follow.
    fn goal(&mut self, counted: bool) {
        self.cnf.family("goal");
        let n = self.inst.apples.len();
        for i in 0..n {
            let last = self.e(i, self.moves);
            self.cnf.add(&[last]);
        }
        // A move eats at most one apple, so with every apple eaten at `T`
        // at least `j` are eaten by `T - (n - j)`: the counter's last
        // values, which the solver could only find by counting.
        if !counted {
            return;
        }
        let pins = (1..=n)
            .flat_map(|j| (self.moves.saturating_sub(n - j)..self.moves).map(move |t| (j, t)));
        // A count the pruning made false means the rules refute this horizon
        // anyway; the pins are then left out rather than written as an empty
        // clause, which the DRAT checker of `--proof` does not take (see
        // `full_board`).
        if pins.clone().any(|(j, t)| self.k(j, t) == FALSE) {
            return;
        }
        self.cnf.family("goal count");
        for (j, t) in pins {
            let at_least = self.k(j, t);
            self.cnf.add(&[at_least]);
        }
    }

    /// The facts of a full board at this horizon ([`FullBoard::facts`]).
    fn full_board(&mut self, board: &FullBoard) {
        let (cells, t) = (self.cells, self.moves);
        let from = (t + 1).saturating_sub(board.length());
        let mut heads = vec![FALSE; cells * (t + 1)];
        for s in from..=t {
            for &c in board.free() {
                heads[s * cells + c] = self.h(s, c);
            }
        }
        // The clauses one after another in one buffer, each ending at its
        // offset in `ends` (no allocation per clause).
        let (mut literals, mut ends) = (Vec::new(), Vec::new());
        let mut any_empty = false;
        board.facts(
            t,
            self.inst.apples.len(),
            |s, c| heads[s * cells + c],
            |i, s| self.e(i, s),
            |clause| {
                any_empty |= !clause.contains(&TRUE) && clause.iter().all(|&l| l == FALSE);
                literals.extend_from_slice(clause);
                ends.push(literals.len());
            },
        );
        // A fact that simplifies to the empty clause means the rules refute
        // this horizon anyway; the facts are then left out: the DRAT checker
        // of `--proof` (rate 0.3.0) panicked on such a formula (an assertion
        // in its dependency extraction), tests/proofs.rs.
        if any_empty {
            return;
        }
        self.cnf.family("full board");
        let mut start = 0;
        for end in ends {
            self.cnf.add(&literals[start..end]);
            start = end;
        }
        self.cnf.family("full board degree");
        let times = board.degree_times(t);
        let mut visited = vec![FALSE; cells * times.len()];
        for s in times.clone() {
            for &c in board.free() {
                let (x, y) = self.inst.pos(c);
                visited[(s - times.start) * cells + c] = self.cnf.var(VarKind::visited(x, y, s));
            }
        }
        let cnf = &mut self.cnf;
        board.degree_facts(
            t,
            |s, c| heads[s * cells + c],
            |s, c| visited[(s - times.start) * cells + c],
            |clause| cnf.add(clause),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::json::from_json;

    /// A full board (every cell but the snake's holds an apple) `n` cells wide.
    fn full_board(n: usize) -> Instance {
        let apples: Vec<String> = (0..n * n)
            .map(|c| (c % n, c / n))
            .filter(|&p| p != (0, 0) && p != (1, 0))
            .map(|(x, y)| format!("[{x}, {y}]"))
            .collect();
        let text = format!(
            r#"{{"width": {n}, "height": {n}, "snake": [[1, 0], [0, 0]], "apples": [{}],
            "visible": 5, "tail": "strict"}}"#,
            apples.join(", ")
        );
        from_json(&text).unwrap()
    }

    /// The estimate stays above the measured size for every position,
    /// body and AMO encoding, pruned or not, full boards' facts (cover,
    /// once, degree) included.
    #[test]
    fn the_literal_estimate_is_an_upper_bound() {
        let every_cell: Vec<String> = (1..100)
            .map(|c| format!("[{}, {}]", c % 10, c / 10))
            .collect();
        let crowded = format!(
            r#"{{"width": 10, "height": 10, "length": 1, "apples": [{}], "visible": "all"}}"#,
            every_cell.join(", ")
        );
        let walled = r#"{"width": 7, "height": 5, "snake": [[0, 0], [1, 0], [2, 0], [3, 0]],
            "apples": [[6, 4], [0, 4], [5, 2], [1, 1], [2, 2]], "visible": 2, "walls": [[3, 3]]}"#;
        let narrow = r#"{"width": 12, "height": 3, "length": 5, "apples": [[11, 2], [0, 2], [5, 1]],
            "tail": "follow"}"#;
        let random =
            r#"{"width": 10, "height": 10, "length": 3, "apples": [[9, 9], [0, 9], [5, 5]]}"#;
        let cases = [
            (full_board(6), 85),
            (from_json(&crowded).unwrap(), 100),
            (from_json(walled).unwrap(), 30),
            (from_json(narrow).unwrap(), 60),
            (from_json(random).unwrap(), 40),
        ];
        let positions = [Position::OneHot, Position::Projected, Position::Axis];
        for (instance, moves) in cases {
            for (position, body, amo, prune) in positions.into_iter().flat_map(|position| {
                Body::ALL.into_iter().flat_map(move |body| {
                    Amo::ALL.into_iter().flat_map(move |amo| {
                        [true, false].map(|prune| (position, body, amo, prune))
                    })
                })
            }) {
                let options = DirectOptions {
                    amo,
                    body,
                    position,
                    prune,
                    ..DirectOptions::default()
                };
                let cnf = Direct::new(options.clone())
                    .encode(&instance, moves)
                    .unwrap();
                let measured = cnf.size().literals as u128;
                let estimate = estimated_literals(&instance, moves, &options);
                assert!(
                    measured <= estimate,
                    "{measured} literals measured above the estimate {estimate} ({}x{}, T={moves}, {})",
                    instance.width,
                    instance.height,
                    options.name()
                );
            }
        }
        // Larger full boards, default options.
        for (instance, moves) in [(full_board(12), 150), (full_board(12), 300)] {
            let options = DirectOptions::default();
            let cnf = Direct::new(options.clone())
                .encode(&instance, moves)
                .unwrap();
            assert!(cnf.size().literals as u128 <= estimated_literals(&instance, moves, &options));
        }
    }
}
