//! The notebook's four encodings exactly as its code wrote them
//! (docs/sources/sat-notebook.txt, see docs/DESIGN.md §2).
//!
//! Each encoding reproduces the notebook's Python *loops* clause for clause,
//! in the same order and with the same literals, including where its code
//! differs from its formulas. They only approximate the game: a model may
//! not be a legal plan, so every path they give must go through the
//! simulator ([`crate::sim::simulate`]).
//!
//! # Settings
//!
//! `encode(instance, moves)` maps the instance onto the notebook's globals:
//! `N` is the grid side, `T = moves + 1` (the notebook's `T` counts time
//! points `0..T-1`), `L0` the free start's length, `pommes` the apples in
//! order.
//!
//! # Variables
//!
//! - `head x y t` is the notebook's `M(x,y,t)`, for `t` in `0..T` (`N·N·T`).
//! - `active p t` is `P(p,t)`, apple `p` still on the board, `t` in `0..=T`
//!   (`P·(T+1)`; the notebook reads `P(p,T)` in 10.a–b and 13–15).
//! - `counter c t` is `C(c,t)`, more than `c` apples eaten, `t` in `0..=T`
//!   (`P·(T+1)`, `notebook-counter` only).
//!
//! They are allocated up front in families `head`, `active` and `counter`
//! (no clauses); clause families are named by the notebook's numbers
//! exactly: `"1"`, `"2"`, …, `"10.a"`, …, `"11.b"`, …, `"16"`.
//!
//! # What each encoding accepts
//!
//! All four need a square grid (`width == height`), no walls, a free start
//! ([`Start::Free`]) and the `follow` tail rule: the notebook knows nothing
//! else. In addition:
//!
//! - `notebook-mvp1` (constraints 1, 2, 3, 4): no apples (`grow` is then
//!   irrelevant); the snake keeps its length `L0`.
//! - `notebook-counter` (MVP2 approach 1: 1, 2, 3, 5, 6, 7, 8, 9, 10.a–g) and
//!   `notebook-combinations` (MVP2 approach 2: 1, 2, 3, 5, 6, 7, 8, 9, 11.b,
//!   11.a): at least one apple, all apples visible from the start
//!   (`visible >= apples.len()`), `grow = true`. `notebook-combinations` also
//!   refuses, before building anything, an instance whose 11.a would exceed
//!   [`COMBINATIONS_CLAUSE_LIMIT`] clauses ([`combinations_tail_clauses`]
//!   gives the exact count); the notebook's own setting (8,729,600 clauses in
//!   11.a) is accepted.
//! - `notebook-ordered` (MVP3: 1, 2, 3, 5, 12, 13, 14, 9, 15, 16): at least
//!   one apple, `visible == 1` (each apple eaten reveals the next),
//!   `grow = true`.
//! - Every encoding refuses, before building anything, a formula whose
//!   estimated literals exceed the direct encoding's cap
//!   ([`crate::encode::direct::MAX_LITERALS`]), and one whose family 1
//!   would exceed 200,000,000 clauses.
//!
//! # The notebook's quirks, reproduced on purpose
//!
//! - 1 is pairwise over all cell pairs (`O(N⁴T)` clauses).
//! - 4, 10.g, 11.a and 16 forbid returning to a cell after `l` steps for
//!   `l < L0 + eaten`, but 10.g and 16 count the apples eaten by the
//!   *earlier* visit (the game counts the length at the later time), so the
//!   model may re-enter its body.
//! - 7, 8 and 9 stop at `t = T - 2 → T - 1` although `P` and `C` go up to
//!   `T` (10.a–e use `t` up to `T - 1 → T`).
//! - 10.f asks `C(P-1, T)`, while 11.b asks `¬P(i, T-1)`, one step earlier.
//! - 11.a ranges over `p_mangee in range(t+1)` instead of all apple counts
//!   (so at `t < P` it ignores subsets larger than `t`, which misses
//!   collisions early on); its `p_mangee = 0` term is the fixed window.
//! - 13 has `¬P(p-1,t)` where its text has `P(p-1,t)`: with 14, an apple not
//!   yet revealed blocks its cell like a wall, and a revealed apple the head
//!   passes over may stay active (be "eaten" only on a later visit).
//! - 6 and 12 keep the head off the apples (resp. the first apple) at `t = 0`.

use crate::cnf::{Cnf, Lit, VarKind};
use crate::encode::direct::MAX_LITERALS;
use crate::encode::{Capabilities, EncodeError, Encoding};
use crate::instance::{
    Instance, InstanceError, MAX_APPLES, MAX_HORIZON, MAX_SIDE, Pos, Start, TailRule,
};

/// The most clauses `notebook-combinations` will build in its family 11.a.
pub const COMBINATIONS_CLAUSE_LIMIT: u128 = 20_000_000;

/// The most clauses family 1 (pairwise uniqueness, `O(N⁴T)`) may have in any
/// notebook encoding before it is refused: beyond it the formula would not
/// fit in memory.
pub(crate) const UNIQUENESS_CLAUSE_LIMIT: u128 = 200_000_000;

/// One of the notebook's four encodings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notebook {
    /// MVP1: fixed length, no apples (constraints 1–4).
    Mvp1,
    /// MVP2 approach 1: apple counter (1–3, 5–9, 10.a–g).
    Counter,
    /// MVP2 approach 2: subsets of eaten apples (1–3, 5–9, 11.b, 11.a).
    Combinations,
    /// MVP3: ordered apples (1–3, 5, 12, 13, 14, 9, 15, 16).
    Ordered,
}

impl Notebook {
    /// All four, in the notebook's order.
    pub const ALL: [Notebook; 4] = [
        Notebook::Mvp1,
        Notebook::Counter,
        Notebook::Combinations,
        Notebook::Ordered,
    ];

    /// The name `--encoding` accepts.
    pub fn as_str(self) -> &'static str {
        match self {
            Notebook::Mvp1 => "notebook-mvp1",
            Notebook::Counter => "notebook-counter",
            Notebook::Combinations => "notebook-combinations",
            Notebook::Ordered => "notebook-ordered",
        }
    }

    /// The encoding called `name`, if it is one of the notebook's.
    pub fn by_name(name: &str) -> Option<Notebook> {
        Notebook::ALL.into_iter().find(|nb| nb.as_str() == name)
    }

    fn unsupported(self, reason: impl Into<String>) -> EncodeError {
        EncodeError::Unsupported {
            encoding: self.as_str().to_string(),
            reason: reason.into(),
        }
    }

    /// Maps an instance onto the notebook's settings, or says why it cannot.
    fn setting(self, inst: &Instance, moves: usize) -> Result<Setting, EncodeError> {
        if inst.width != inst.height {
            return Err(self.unsupported(format!(
                "the notebook's grid is square (N×N), not {}x{}",
                inst.width, inst.height
            )));
        }
        if !inst.walls.is_empty() {
            return Err(self.unsupported("the notebook's grid has no walls"));
        }
        let l0 = match inst.start {
            Start::Free { length } => length,
            Start::Body(_) => {
                return Err(self.unsupported(
                    "the notebook only knows a free start (a length, no explicit body)",
                ));
            }
        };
        if inst.tail != TailRule::Follow {
            return Err(self.unsupported(
                "the notebook's window t' < t + L is the follow tail rule, not strict",
            ));
        }
        let n_apples = inst.apples.len();
        match self {
            Notebook::Mvp1 => {
                if n_apples > 0 {
                    return Err(self.unsupported(format!(
                        "MVP1 has no apples (this instance has {n_apples})"
                    )));
                }
            }
            Notebook::Counter | Notebook::Combinations => {
                if n_apples == 0 {
                    return Err(self.unsupported(
                        "MVP2 needs at least one apple (use notebook-mvp1 without apples)",
                    ));
                }
                if inst.visible < n_apples {
                    return Err(self.unsupported(format!(
                        "MVP2 has all apples on the board from the start (visible = {} < {n_apples} apples); \
                         use notebook-ordered for visible = 1",
                        inst.visible
                    )));
                }
                if !inst.grow {
                    return Err(
                        self.unsupported("MVP2's snake grows with each apple (grow = true)")
                    );
                }
            }
            Notebook::Ordered => {
                if n_apples == 0 {
                    return Err(self.unsupported(
                        "MVP3 needs at least one apple (use notebook-mvp1 without apples)",
                    ));
                }
                if inst.visible != 1 {
                    return Err(self.unsupported(format!(
                        "MVP3 reveals apples one at a time (visible = 1, not {})",
                        inst.visible
                    )));
                }
                if !inst.grow {
                    return Err(
                        self.unsupported("MVP3's snake grows with each apple (grow = true)")
                    );
                }
            }
        }
        Ok(Setting {
            n: inst.width,
            t: moves + 1,
            l0,
            pommes: inst.apples.clone(),
        })
    }

    /// An upper estimate of the literals of the formula on setting `s`,
    /// family by family from the builder's loops below (the unit test
    /// compares it with built formulas): the pairs of 1, a literal per cell
    /// in 2, at most five per cell in 3, the windows of 4, 10.g, 11.a and 16,
    /// and the apple families, at most `12·P² + 30·P + 10` literals per time
    /// point (10.a, 10.d and 10.e are quadratic in the apples).
    fn estimated_literals(self, s: &Setting) -> u128 {
        let cells = (s.n * s.n) as u128;
        let (t, l0, p) = (s.t as u128, s.l0 as u128, s.pommes.len() as u128);
        let heads = cells.saturating_mul(t);
        let grid = heads.saturating_mul(cells.saturating_sub(1) + 6);
        let fixed_window = heads.saturating_mul(2 * l0);
        let growing_window = heads.saturating_mul(3 * p);
        let apples = (t + 1).saturating_mul(p.saturating_mul(12 * p + 30) + 10);
        let windows = match self {
            Notebook::Mvp1 => fixed_window,
            Notebook::Counter | Notebook::Ordered => fixed_window.saturating_add(growing_window),
            // 11.a: two head literals and at most one per apple.
            Notebook::Combinations => {
                combinations_tail_clauses(s.n, s.t, s.l0, s.pommes.len()).saturating_mul(2 + p)
            }
        };
        grid.saturating_add(windows).saturating_add(apples)
    }
}

/// The notebook's globals for one formula.
struct Setting {
    /// Grid side `N`.
    n: usize,
    /// Time points `T` (`moves + 1`).
    t: usize,
    /// Free-start length `L0`.
    l0: usize,
    /// Apples in order.
    pommes: Vec<Pos>,
}

/// The exact number of clauses the notebook's 11.a (`mordre_queue_v3`) builds
/// on an `side × side` grid with `points` time points (the notebook's `T`),
/// start length `l0` and `apples` apples, computed without building them.
/// Saturates at `u128::MAX` if the count does not fit, and for a setting
/// beyond the instance limits (a side above [`MAX_SIDE`], more time points
/// than [`MAX_HORIZON`] moves have, or more apples than [`MAX_APPLES`]),
/// which no formula is built for.
pub fn combinations_tail_clauses(side: usize, points: usize, l0: usize, apples: usize) -> u128 {
    if side > MAX_SIDE || points > MAX_HORIZON + 1 || apples > MAX_APPLES {
        return u128::MAX;
    }
    let mut per_cell: u128 = 0;
    for t in 0..points.saturating_sub(1) {
        // for p_mangee in range(t+1): for combinations(range(apples), p_mangee):
        //     for l in range(1, min(T - t, L0 + p_mangee))
        let mut binom: u128 = 1;
        for p in 0..=t.min(apples) {
            if p > 0 {
                // C(P, p) = C(P, p-1) * (P - p + 1) / p, exact.
                match binom.checked_mul((apples - p + 1) as u128) {
                    Some(v) => binom = v / p as u128,
                    None => return u128::MAX,
                }
            }
            let ls = ((points - t).min(l0.saturating_add(p))).saturating_sub(1) as u128;
            let term = match binom.checked_mul(ls) {
                Some(v) => v,
                None => return u128::MAX,
            };
            per_cell = match per_cell.checked_add(term) {
                Some(v) => v,
                None => return u128::MAX,
            };
        }
    }
    per_cell.saturating_mul((side * side) as u128)
}

impl Encoding for Notebook {
    fn name(&self) -> String {
        self.as_str().into()
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities {
            approximate: true,
            incremental: false,
            explicit_body: false,
        }
    }

    fn accepts(&self, instance: &Instance) -> Result<(), EncodeError> {
        instance.validate_game()?;
        self.setting(instance, 0).map(|_| ())
    }

    fn encode(&self, instance: &Instance, moves: usize) -> Result<Cnf, EncodeError> {
        instance.validate_game()?;
        // (`moves + 1` time points overflowed at `usize::MAX`.)
        if moves > MAX_HORIZON {
            return Err(InstanceError::HugeHorizon(moves).into());
        }
        let s = self.setting(instance, moves)?;
        // Family 1 alone: every pair of cells at every time point.
        let cells = (s.n * s.n) as u128;
        let uniqueness = cells * cells.saturating_sub(1) / 2 * s.t as u128;
        if uniqueness > UNIQUENESS_CLAUSE_LIMIT {
            return Err(EncodeError::TooBig {
                encoding: self.as_str().to_string(),
                moves,
                what: "uniqueness clauses (family 1)",
                count: uniqueness,
                limit: UNIQUENESS_CLAUSE_LIMIT,
            });
        }
        if *self == Notebook::Combinations {
            let clauses = combinations_tail_clauses(s.n, s.t, s.l0, s.pommes.len());
            if clauses > COMBINATIONS_CLAUSE_LIMIT {
                return Err(EncodeError::TooBig {
                    encoding: self.as_str().to_string(),
                    moves,
                    what: "clauses in family 11.a (one per subset of apples, cell and time)",
                    count: clauses,
                    limit: COMBINATIONS_CLAUSE_LIMIT,
                });
            }
        }
        // (After the two families' own limits, which say more.)
        let literals = self.estimated_literals(&s);
        if literals > MAX_LITERALS {
            return Err(EncodeError::TooBig {
                encoding: self.as_str().to_string(),
                moves,
                what: "literals (estimated)",
                count: literals,
                limit: MAX_LITERALS,
            });
        }
        let mut b = Builder::new(s, *self == Notebook::Counter);
        match self {
            Notebook::Mvp1 => {
                b.unicite_position();
                b.existence_position();
                b.next_move();
                b.mordre_queue_v1();
            }
            Notebook::Counter => {
                b.mvp2_common();
                b.comptage_pommes();
                b.init_compteur();
                b.ne_pas_desincrementer_compteur();
                b.ne_pas_incrementer_compteur();
                b.increment_unique();
                b.manger_des_pommes();
                b.mordre_queue_v2();
            }
            Notebook::Combinations => {
                b.mvp2_common();
                b.mangez_des_pommes_v2();
                b.mordre_queue_v3();
            }
            Notebook::Ordered => {
                b.unicite_position();
                b.existence_position();
                b.next_move();
                b.init_pommes();
                b.init_positions_v2();
                b.disparaitre_pommes_v2();
                b.preserver_pommes_v2();
                b.ne_pas_creer_pommes();
                b.manger_des_pommes_v2();
                b.mordre_queue_v4();
            }
        }
        Ok(b.cnf)
    }
}

/// Builds one formula: the notebook's functions, one method each.
struct Builder {
    s: Setting,
    cnf: Cnf,
    /// `M(x,y,t)` at `(x * N + y) * T + t`.
    m: Vec<Lit>,
    /// `P(p,t)` at `p * (T + 1) + t`.
    p: Vec<Lit>,
    /// `C(c,t)` at `c * (T + 1) + t`.
    c: Vec<Lit>,
    /// One reusable clause buffer.
    buf: Vec<Lit>,
}

impl Builder {
    fn new(s: Setting, counters: bool) -> Self {
        let mut cnf = Cnf::new();
        let (n, t, np) = (s.n, s.t, s.pommes.len());
        cnf.family("head");
        let mut m = Vec::with_capacity(n * n * t);
        for x in 0..n {
            for y in 0..n {
                for tt in 0..t {
                    m.push(cnf.var(VarKind::head(x, y, tt)));
                }
            }
        }
        let mut p = Vec::with_capacity(np * (t + 1));
        if np > 0 {
            cnf.family("active");
            for i in 0..np {
                for tt in 0..=t {
                    p.push(cnf.var(VarKind::active(i, tt)));
                }
            }
        }
        let mut c = Vec::new();
        if counters {
            cnf.family("counter");
            c.reserve(np * (t + 1));
            for i in 0..np {
                for tt in 0..=t {
                    c.push(cnf.var(VarKind::counter(i, tt)));
                }
            }
        }
        Builder {
            s,
            cnf,
            m,
            p,
            c,
            buf: Vec::with_capacity(64),
        }
    }

    /// `M(x,y,t)`.
    #[inline]
    fn m(&self, x: usize, y: usize, t: usize) -> Lit {
        self.m[(x * self.s.n + y) * self.s.t + t]
    }

    /// `M` of an apple's cell.
    #[inline]
    fn mp(&self, (x, y): Pos, t: usize) -> Lit {
        self.m(x, y, t)
    }

    /// `P(p,t)`.
    #[inline]
    fn p(&self, p: usize, t: usize) -> Lit {
        self.p[p * (self.s.t + 1) + t]
    }

    /// `C(c,t)`.
    #[inline]
    fn c(&self, c: usize, t: usize) -> Lit {
        self.c[c * (self.s.t + 1) + t]
    }

    fn np(&self) -> usize {
        self.s.pommes.len()
    }

    /// Constraints 1, 2, 3, 5, 6, 7, 8, 9: MVP2's shared part.
    fn mvp2_common(&mut self) {
        self.unicite_position();
        self.existence_position();
        self.next_move();
        self.init_pommes();
        self.init_positions();
        self.disparaitre_pommes();
        self.preserver_pommes();
        self.ne_pas_creer_pommes();
    }

    /// 1 `unicité_position`: pairwise at-most-one head cell per time.
    fn unicite_position(&mut self) {
        self.cnf.family("1");
        let n = self.s.n;
        let cells = n * n;
        for t in 0..self.s.t {
            // combinations(product(range(N), range(N)), 2): x-major pairs.
            for a in 0..cells {
                let la = -self.m(a / n, a % n, t);
                for b in a + 1..cells {
                    let lb = -self.m(b / n, b % n, t);
                    self.cnf.add(&[la, lb]);
                }
            }
        }
    }

    /// 2 `existence_position`: some head cell per time.
    fn existence_position(&mut self) {
        self.cnf.family("2");
        let n = self.s.n;
        for t in 0..self.s.t {
            self.buf.clear();
            for x in 0..n {
                for y in 0..n {
                    self.buf.push(self.m(x, y, t));
                }
            }
            self.cnf.add(&self.buf);
        }
    }

    /// 3 `next_move`: a head at `t < T-1` has a neighbour head at `t+1`,
    /// neighbours in `positions_adjacentes`' order.
    fn next_move(&mut self) {
        self.cnf.family("3");
        let n = self.s.n;
        for x in 0..n {
            for y in 0..n {
                for t in 0..self.s.t.saturating_sub(1) {
                    self.buf.clear();
                    self.buf.push(-self.m(x, y, t));
                    if y != n - 1 {
                        self.buf.push(self.m(x, y + 1, t + 1));
                    }
                    if y != 0 {
                        self.buf.push(self.m(x, y - 1, t + 1));
                    }
                    if x != n - 1 {
                        self.buf.push(self.m(x + 1, y, t + 1));
                    }
                    if x != 0 {
                        self.buf.push(self.m(x - 1, y, t + 1));
                    }
                    self.cnf.add(&self.buf);
                }
            }
        }
    }

    /// The fixed window shared by 4, 10.g and 16:
    /// `for l in range(1, min(T - t, L0))`.
    #[inline]
    fn fixed_window(&mut self, x: usize, y: usize, t: usize) {
        let (tt, l0) = (self.s.t, self.s.l0);
        for l in 1..(tt - t).min(l0) {
            let (a, b) = (-self.m(x, y, t), -self.m(x, y, t + l));
            self.cnf.add(&[a, b]);
        }
    }

    /// 4 `mordre_queue_v1`: fixed length `L0`.
    fn mordre_queue_v1(&mut self) {
        self.cnf.family("4");
        let n = self.s.n;
        for x in 0..n {
            for y in 0..n {
                for t in 0..self.s.t.saturating_sub(1) {
                    self.fixed_window(x, y, t);
                }
            }
        }
    }

    /// 5 `init_pommes`: every apple active at `t = 0`.
    fn init_pommes(&mut self) {
        self.cnf.family("5");
        for p in 0..self.np() {
            let a = self.p(p, 0);
            self.cnf.add(&[a]);
        }
    }

    /// 6 `init_positions`: the head starts off every apple.
    fn init_positions(&mut self) {
        self.cnf.family("6");
        for i in 0..self.np() {
            let a = -self.mp(self.s.pommes[i], 0);
            self.cnf.add(&[a]);
        }
    }

    /// 7 `disparaitre_pommes`: `¬M ∨ ¬P(p,t) ∨ ¬P(p,t+1)` for `t < T-1`.
    fn disparaitre_pommes(&mut self) {
        self.cnf.family("7");
        for p in 0..self.np() {
            let cell = self.s.pommes[p];
            for t in 0..self.s.t - 1 {
                let cl = [-self.mp(cell, t), -self.p(p, t), -self.p(p, t + 1)];
                self.cnf.add(&cl);
            }
        }
    }

    /// 8 `preserver_pommes`: `¬P(p,t) ∨ P(p,t+1) ∨ M` for `t < T-1`.
    fn preserver_pommes(&mut self) {
        self.cnf.family("8");
        for p in 0..self.np() {
            let cell = self.s.pommes[p];
            for t in 0..self.s.t - 1 {
                let cl = [-self.p(p, t), self.p(p, t + 1), self.mp(cell, t)];
                self.cnf.add(&cl);
            }
        }
    }

    /// 9 `ne_pas_creer_pommes`: `P(p,t) ∨ ¬P(p,t+1)` for `t < T-1`.
    fn ne_pas_creer_pommes(&mut self) {
        self.cnf.family("9");
        for p in 0..self.np() {
            for t in 0..self.s.t - 1 {
                let cl = [self.p(p, t), -self.p(p, t + 1)];
                self.cnf.add(&cl);
            }
        }
    }

    /// 10.a `comptage_pommes`: for `c in range(P-1)`.
    fn comptage_pommes(&mut self) {
        self.cnf.family("10.a");
        for p in 0..self.np() {
            let cell = self.s.pommes[p];
            for t in 0..self.s.t {
                for c in 0..self.np().saturating_sub(1) {
                    let cl = [
                        -self.mp(cell, t),
                        -self.p(p, t),
                        -self.c(c, t),
                        self.c(c + 1, t),
                        self.c(c + 1, t + 1),
                    ];
                    self.cnf.add(&cl);
                }
            }
        }
    }

    /// 10.b `init_compteur`.
    fn init_compteur(&mut self) {
        self.cnf.family("10.b");
        for c in 0..self.np() {
            let a = -self.c(c, 0);
            self.cnf.add(&[a]);
        }
        for p in 0..self.np() {
            let cell = self.s.pommes[p];
            for t in 0..self.s.t {
                let cl = [-self.mp(cell, t), -self.p(p, t), self.c(0, t + 1)];
                self.cnf.add(&cl);
            }
        }
    }

    /// 10.c `ne_pas_desincrementer_compteur`.
    fn ne_pas_desincrementer_compteur(&mut self) {
        self.cnf.family("10.c");
        for t in 0..self.s.t {
            for c in 0..self.np() {
                let cl = [-self.c(c, t), self.c(c, t + 1)];
                self.cnf.add(&cl);
            }
        }
    }

    /// 10.d `ne_pas_incrementer_compteur`: per `(t, c)`, one clause per apple
    /// and then the long clause over all apple cells.
    fn ne_pas_incrementer_compteur(&mut self) {
        self.cnf.family("10.d");
        for t in 0..self.s.t {
            for c in 0..self.np() {
                self.buf.clear();
                self.buf.push(self.c(c, t));
                self.buf.push(-self.c(c, t + 1));
                for p in 0..self.np() {
                    let cell = self.s.pommes[p];
                    self.buf.push(self.mp(cell, t));
                    let cl = [
                        self.c(c, t),
                        -self.c(c, t + 1),
                        -self.mp(cell, t),
                        self.p(p, t),
                    ];
                    self.cnf.add(&cl);
                }
                self.cnf.add(&self.buf);
            }
        }
    }

    /// 10.e `increment_unique`.
    fn increment_unique(&mut self) {
        self.cnf.family("10.e");
        for t in 0..self.s.t {
            for c in 0..self.np() {
                for c2 in c + 1..self.np() {
                    let cl = [self.c(c, t), -self.c(c, t + 1), -self.c(c2, t + 1)];
                    self.cnf.add(&cl);
                }
            }
        }
    }

    /// 10.f `manger_des_pommes`: `C(P-1, T)`.
    fn manger_des_pommes(&mut self) {
        self.cnf.family("10.f");
        let a = self.c(self.np() - 1, self.s.t);
        self.cnf.add(&[a]);
    }

    /// The variable window of 10.g (`lit = C`) and 16 (`lit = ¬P`):
    /// `for k in range(min(T - L0 - t, P))`: `¬lit(k,t) ∨ ¬M(t) ∨ ¬M(t+L0+k)`.
    #[inline]
    fn growing_window(&mut self, x: usize, y: usize, t: usize, counter: bool) {
        let bound = self.s.t as isize - self.s.l0 as isize - t as isize;
        let k_max = bound.min(self.np() as isize).max(0) as usize;
        for k in 0..k_max {
            let cond = if counter { -self.c(k, t) } else { self.p(k, t) };
            let cl = [cond, -self.m(x, y, t), -self.m(x, y, t + self.s.l0 + k)];
            self.cnf.add(&cl);
        }
    }

    /// 10.g `mordre_queue_v2`.
    fn mordre_queue_v2(&mut self) {
        self.cnf.family("10.g");
        let n = self.s.n;
        for x in 0..n {
            for y in 0..n {
                for t in 0..self.s.t - 1 {
                    self.fixed_window(x, y, t);
                    self.growing_window(x, y, t, true);
                }
            }
        }
    }

    /// 11.b `mangez_des_pommes_v2`: `¬P(i, T-1)`.
    fn mangez_des_pommes_v2(&mut self) {
        self.cnf.family("11.b");
        for i in 0..self.np() {
            let a = -self.p(i, self.s.t - 1);
            self.cnf.add(&[a]);
        }
    }

    /// 11.a `mordre_queue_v3`: for every subset of `p_mangee <= t` apples (in
    /// `itertools.combinations` order) and `l < min(T - t, L0 + p_mangee)`:
    /// `¬M(t) ∨ ¬M(t+l) ∨ ⋁ P(i, t+l)`.
    fn mordre_queue_v3(&mut self) {
        self.cnf.family("11.a");
        let (n, tt, l0, np) = (self.s.n, self.s.t, self.s.l0, self.np());
        let mut idx: Vec<usize> = Vec::with_capacity(np);
        for x in 0..n {
            for y in 0..n {
                for t in 0..tt - 1 {
                    let here = -self.m(x, y, t);
                    for k in 0..=t.min(np) {
                        let l_end = (tt - t).min(l0 + k);
                        if l_end <= 1 {
                            continue;
                        }
                        // Lexicographic k-subsets of 0..np.
                        idx.clear();
                        idx.extend(0..k);
                        loop {
                            for l in 1..l_end {
                                self.buf.clear();
                                self.buf.push(here);
                                self.buf.push(-self.m(x, y, t + l));
                                for &i in &idx {
                                    self.buf.push(self.p[i * (tt + 1) + t + l]);
                                }
                                self.cnf.add(&self.buf);
                            }
                            // Next combination: bump the rightmost index
                            // that can still grow, reset the ones after it.
                            let mut j = k;
                            while j > 0 && idx[j - 1] == np - k + j - 1 {
                                j -= 1;
                            }
                            if j == 0 {
                                break;
                            }
                            let j = j - 1;
                            idx[j] += 1;
                            for i in j + 1..k {
                                idx[i] = idx[i - 1] + 1;
                            }
                        }
                    }
                }
            }
        }
    }

    /// 12 `init_positions_v2`: the head starts off the first apple.
    fn init_positions_v2(&mut self) {
        self.cnf.family("12");
        let a = -self.mp(self.s.pommes[0], 0);
        self.cnf.add(&[a]);
    }

    /// 13 `disparaitre_pommes_v2`, with the code's `¬P(p-1,t)`.
    fn disparaitre_pommes_v2(&mut self) {
        self.cnf.family("13");
        let first = self.s.pommes[0];
        for t in 0..self.s.t {
            let cl = [-self.mp(first, t), -self.p(0, t), -self.p(0, t + 1)];
            self.cnf.add(&cl);
            for p in 1..self.np() {
                let cell = self.s.pommes[p];
                let cl = [
                    -self.mp(cell, t),
                    -self.p(p, t),
                    -self.p(p - 1, t),
                    -self.p(p, t + 1),
                ];
                self.cnf.add(&cl);
            }
        }
    }

    /// 14 `preserver_pommes_v2`.
    fn preserver_pommes_v2(&mut self) {
        self.cnf.family("14");
        let first = self.s.pommes[0];
        for t in 0..self.s.t {
            let cl = [-self.p(0, t), self.p(0, t + 1), self.mp(first, t)];
            self.cnf.add(&cl);
            for p in 1..self.np() {
                let cell = self.s.pommes[p];
                let cl = [-self.p(p, t), self.p(p, t + 1), self.mp(cell, t)];
                self.cnf.add(&cl);
                let cl = [-self.p(p, t), self.p(p, t + 1), -self.p(p - 1, t)];
                self.cnf.add(&cl);
            }
        }
    }

    /// 15 `manger_des_pommes_v2`: `¬P(P-1, T)`.
    fn manger_des_pommes_v2(&mut self) {
        self.cnf.family("15");
        let a = -self.p(self.np() - 1, self.s.t);
        self.cnf.add(&[a]);
    }

    /// 16 `mordre_queue_v4`.
    fn mordre_queue_v4(&mut self) {
        self.cnf.family("16");
        let n = self.s.n;
        for x in 0..n {
            for y in 0..n {
                for t in 0..self.s.t - 1 {
                    self.fixed_window(x, y, t);
                    self.growing_window(x, y, t, false);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A horizon beyond the limit is an error, not an overflow of `moves + 1`
    /// (a panic in a debug build); the clause count saturates beyond the
    /// limits instead of overflowing or counting for ever.
    #[test]
    fn huge_settings_are_refused_not_overflowed() {
        let inst = Instance {
            visible: 1,
            tail: TailRule::Strict,
            ..Instance::new(4, 4, Start::Free { length: 2 }, vec![(3, 3)])
        };
        for nb in Notebook::ALL {
            assert!(
                matches!(
                    nb.encode(&inst, usize::MAX),
                    Err(EncodeError::Instance(InstanceError::HugeHorizon(_)))
                ),
                "{nb:?}"
            );
        }
        assert_eq!(combinations_tail_clauses(1 << 40, 3, 2, 1), u128::MAX);
        assert_eq!(combinations_tail_clauses(4, usize::MAX, 2, 1), u128::MAX);
        assert_eq!(combinations_tail_clauses(4, 3, 2, usize::MAX), u128::MAX);
        // A start length past the time points counts as those (`l0 + p` overflowed).
        assert_eq!(
            combinations_tail_clauses(4, 3, usize::MAX, 1),
            combinations_tail_clauses(4, 3, 3, 1)
        );
    }

    /// The estimate is above every built formula's literals, and not far
    /// above (at most three times), on every encoding with and without
    /// apples, short and long windows.
    #[test]
    fn the_estimate_bounds_the_literals_closely() {
        for nb in Notebook::ALL {
            for (side, length, count, moves) in
                [(3, 2, 1, 4), (4, 3, 3, 12), (5, 4, 6, 30), (5, 2, 9, 60)]
            {
                let count = if nb == Notebook::Mvp1 { 0 } else { count };
                let inst = Instance {
                    width: side,
                    height: side,
                    walls: vec![],
                    start: Start::Free { length },
                    apples: (1..=count).map(|i| (i % side, i / side)).collect(),
                    visible: if nb == Notebook::Ordered {
                        1
                    } else {
                        count.max(1)
                    },
                    grow: true,
                    tail: TailRule::Follow,
                    horizon: None,
                };
                let built = nb.encode(&inst, moves).unwrap().size().literals as u128;
                let estimate = nb.estimated_literals(&nb.setting(&inst, moves).unwrap());
                assert!(
                    built <= estimate && estimate <= 3 * built,
                    "{} {side}x{side} L0={length} P={count} T={moves}: {built} built, {estimate} estimated",
                    nb.as_str()
                );
            }
        }
    }

    /// A formula beyond the literal cap is refused before anything is built
    /// (5x5 at 100,000 moves: 160 million literals were written).
    #[test]
    fn a_formula_beyond_the_literal_cap_is_refused() {
        let inst = Instance {
            width: 5,
            height: 5,
            walls: vec![],
            start: Start::Free { length: 3 },
            apples: vec![(1, 1)],
            visible: 1,
            grow: true,
            tail: TailRule::Follow,
            horizon: None,
        };
        match Notebook::Ordered.encode(&inst, 100_000) {
            Err(EncodeError::TooBig { what, limit, .. }) => {
                assert_eq!((what, limit), ("literals (estimated)", MAX_LITERALS));
            }
            other => panic!("{:?}", other.map(|c| c.size())),
        }
    }
}
