//! The CNF builder: variables allocated by named family, one flat clause
//! buffer, per-family statistics, and constant literals for pruning.
//!
//! Clauses are written into a single `Vec<i32>` with a `0` after each clause
//! (the DIMACS layout), so building allocates nothing per clause. Every
//! variable carries a [`VarKind`] (its meaning, with coordinates and time),
//! recorded when it is created, so that a model can be mapped back to a plan
//! from the CNF alone; see [`dimacs`]. [`VarKind`] alone turns kinds into
//! their DIMACS names and back.

pub mod dimacs;
pub mod header;

/// A DIMACS literal. [`TRUE`] and [`FALSE`] stand for constants: a clause
/// containing `TRUE` is dropped, `FALSE` literals are left out.
pub type Lit = i32;

/// The constant true literal (never written to a clause).
pub const TRUE: Lit = i32::MAX;
/// The constant false literal; `-TRUE == FALSE`.
pub const FALSE: Lit = -i32::MAX;

/// Declares [`VarKind`] from one list: each variant with its DIMACS name and
/// its coordinates in DIMACS order, so that names are written ([`VarKind::name`],
/// [`VarKind::coords`]) and read ([`VarKind::parse`]) from the same text.
macro_rules! var_kinds {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident = $name:literal, $ctor:ident { $($field:ident: $fdoc:literal),+ }
    )*) => {
        /// What a variable means: its kind and coordinates (times counted in
        /// moves from 0). In DIMACS comments a variable is written as its
        /// [`name`](VarKind::name) followed by its [`coords`](VarKind::coords),
        /// e.g. `head 3 4 5`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum VarKind {
            $(
                $(#[doc = $doc])*
                $variant { $(#[doc = $fdoc] $field: u32),+ },
            )*
        }

        impl VarKind {
            /// Every kind's name with its coordinates' names, in DIMACS order.
            #[cfg(test)]
            const ALL: &[(&str, &[&str])] = &[$(($name, &[$(stringify!($field)),+])),*];

            $(
                #[doc = concat!("[`VarKind::", stringify!($variant), "`] from `usize` coordinates, ",
                    "each at most `u32::MAX` (the cells, times and apples of a valid instance are; ",
                    "a larger one is cut to its low 32 bits, and a debug build panics).")]
                pub fn $ctor($($field: usize),+) -> VarKind {
                    $(debug_assert!(
                        u32::try_from($field).is_ok(),
                        "{} coordinate {} does not fit in 32 bits", $name, $field
                    );)+
                    VarKind::$variant { $($field: $field as u32),+ }
                }
            )*

            /// The kind's name in DIMACS comments (`head`, `eaten`, ...).
            pub fn name(&self) -> &'static str {
                match self {
                    $(VarKind::$variant { .. } => $name,)*
                }
            }

            /// The coordinates in DIMACS order.
            pub fn coords(&self) -> Coords {
                match *self {
                    $(VarKind::$variant { $($field),+ } => Coords::new(&[$($field),+]),)*
                }
            }

            /// The kind called `name` with `coords` (as written by [`name`](VarKind::name)
            /// and [`coords`](VarKind::coords)).
            pub fn parse(name: &str, coords: &[u32]) -> Result<VarKind, VarKindError> {
                match name {
                    $($name => match *coords {
                        [$($field),+] => Ok(VarKind::$variant { $($field),+ }),
                        _ => Err(VarKindError::Arity {
                            kind: $name,
                            expected: [$(stringify!($field)),+].len(),
                            found: coords.len(),
                        }),
                    },)*
                    _ => Err(VarKindError::Unknown(name.to_string())),
                }
            }
        }
    };
}

var_kinds! {
    /// The head is on cell (`x`, `y`) at `t`.
    Head = "head", head { x: "Column.", y: "Row.", t: "Time." }
    /// The head is in column `x` at `t` (per-axis position).
    HeadX = "head-x", head_x { x: "Column.", t: "Time." }
    /// The head is in row `y` at `t` (per-axis position).
    HeadY = "head-y", head_y { y: "Row.", t: "Time." }
    /// The head is in column `x` at `t` (projection of the one-hot position).
    Column = "column", column { x: "Column.", t: "Time." }
    /// The head is in row `y` at `t` (projection of the one-hot position).
    Row = "row", row { y: "Row.", t: "Time." }
    /// The move from `t` to `t + 1` goes in direction `dir`.
    Move = "move", step { dir: "Direction: 0 right, 1 left, 2 down, 3 up (the format's own numbering, not `geometry::Direction::ALL`'s order).", t: "Time the move starts." }
    /// The move from `t` to `t + 1` is horizontal.
    MovedX = "moved-x", moved_x { t: "Time the move starts." }
    /// Apple `apple` has been eaten by `t`.
    Eaten = "eaten", eaten { apple: "Apple index.", t: "Time." }
    /// Apple `apple` is eaten at `t`.
    Eat = "eat", eat { apple: "Apple index.", t: "Time." }
    /// Some apple is eaten at `t`.
    Ate = "ate", ate { t: "Time." }
    /// At least `count` apples have been eaten by `t`.
    Count = "count", count { count: "Apples.", t: "Time." }
    /// The tail is on cell (`x`, `y`) at `t`.
    Tail = "tail", tail { x: "Column.", y: "Row.", t: "Time." }
    /// The tail is still on cell `cell` of the initial body at `t`.
    TailPhantom = "tail-phantom", tail_phantom { cell: "Index in the initial body.", t: "Time." }
    /// The tail moves in direction `dir` at `t`.
    TailMove = "tail-move", tail_move { dir: "Direction, numbered as in `move`.", t: "Time." }
    /// Cell (`x`, `y`) holds the body at `t`.
    Occupied = "occupied", occupied { x: "Column.", y: "Row.", t: "Time." }
    /// The head is in the same column at `s` and at the earlier `tau`.
    SameColumn = "same-column", same_column { s: "Later time.", tau: "Earlier time." }
    /// The head is in the same row at `s` and at the earlier `tau`.
    SameRow = "same-row", same_row { s: "Later time.", tau: "Earlier time." }
    /// Some head visit of (`x`, `y`) in its block at or before `t` (times
    /// shifted by the initial length).
    BlockPrefix = "block-prefix", block_prefix { x: "Column.", y: "Row.", t: "Shifted time." }
    /// Some head visit of (`x`, `y`) in its block at or after `t` (times
    /// shifted by the initial length).
    BlockSuffix = "block-suffix", block_suffix { x: "Column.", y: "Row.", t: "Shifted time." }
    /// On a full board at a fixed horizon, the head has been on (`x`, `y`) at
    /// some time of the final window up to `t` (src/encode/full.rs).
    Visited = "visited", visited { x: "Column.", y: "Row.", t: "Time." }
    /// Auxiliary variable `k` of the at-most-one head cell at time `group`.
    AmoHead = "amo-head", amo_head { group: "Time.", k: "Counter." }
    /// Auxiliary variable `k` of the at-most-one head column at time `group`.
    AmoHeadX = "amo-head-x", amo_head_x { group: "Time.", k: "Counter." }
    /// Auxiliary variable `k` of the at-most-one head row at time `group`.
    AmoHeadY = "amo-head-y", amo_head_y { group: "Time.", k: "Counter." }
    /// Auxiliary variable `k` of the at-most-one column at time `group`.
    AmoColumn = "amo-column", amo_column { group: "Time.", k: "Counter." }
    /// Auxiliary variable `k` of the at-most-one row at time `group`.
    AmoRow = "amo-row", amo_row { group: "Time.", k: "Counter." }
    /// Auxiliary variable `k` of the at-most-one tail cell at time `group`.
    AmoTail = "amo-tail", amo_tail { group: "Time.", k: "Counter." }
    /// The notebook's `P[apple, t]`: apple `apple` is active at `t`.
    Active = "active", active { apple: "Apple index.", t: "Time." }
    /// The notebook's `C[count, t]`: more than `count` apples have been eaten by `t`.
    Counter = "counter", counter { count: "Counter value.", t: "Time." }
}

/// The ranges a variable's coordinates take in a formula of `horizon` moves
/// (docs/FORMATS.md): what [`VarKind::out_of_range`] checks a `c var` line against.
#[derive(Clone, Copy, Debug)]
pub struct CoordRanges {
    /// Columns of the board.
    pub width: usize,
    /// Rows of the board.
    pub height: usize,
    /// Apples of the instance.
    pub apples: usize,
    /// Length of the snake at `t = 0`.
    pub initial_length: usize,
    /// The formula's horizon `T`.
    pub horizon: usize,
}

impl VarKind {
    /// The first coordinate outside its range for `ranges`, described (e.g.
    /// "column 9 is off the 4x3 board"); `None` when every one is in range.
    pub fn out_of_range(&self, ranges: &CoordRanges) -> Option<String> {
        let r = ranges;
        let big = |what: &str, value: u32, limit: usize| {
            (value as usize >= limit).then(|| format!("{what} {value} is not below {limit}"))
        };
        let column = |x: u32| {
            (x as usize >= r.width)
                .then(|| format!("column {x} is off the {}x{} board", r.width, r.height))
        };
        let row = |y: u32| {
            (y as usize >= r.height)
                .then(|| format!("row {y} is off the {}x{} board", r.width, r.height))
        };
        let time =
            |t: u32, last: usize| (t as usize > last).then(|| format!("time {t} is past {last}"));
        let t_max = r.horizon;
        match *self {
            VarKind::Head { x, y, t }
            | VarKind::Tail { x, y, t }
            | VarKind::Occupied { x, y, t }
            | VarKind::Visited { x, y, t } => {
                column(x).or_else(|| row(y)).or_else(|| time(t, t_max))
            }
            VarKind::BlockPrefix { x, y, t } | VarKind::BlockSuffix { x, y, t } => column(x)
                .or_else(|| row(y))
                .or_else(|| time(t, t_max + r.initial_length)),
            VarKind::HeadX { x, t } | VarKind::Column { x, t } => {
                column(x).or_else(|| time(t, t_max))
            }
            VarKind::HeadY { y, t } | VarKind::Row { y, t } => row(y).or_else(|| time(t, t_max)),
            VarKind::Move { dir, t } | VarKind::TailMove { dir, t } => {
                big("direction", dir, 4).or_else(|| time(t, t_max))
            }
            VarKind::MovedX { t } | VarKind::Ate { t } => time(t, t_max),
            VarKind::Eaten { apple, t } | VarKind::Eat { apple, t } => {
                big("apple", apple, r.apples).or_else(|| time(t, t_max))
            }
            VarKind::Count { count, t } => (count == 0)
                .then(|| "count 0 (counts start at 1)".to_string())
                .or_else(|| big("count", count, r.apples + 1))
                .or_else(|| time(t, t_max)),
            VarKind::TailPhantom { cell, t } => {
                big("body cell", cell, r.initial_length).or_else(|| time(t, t_max))
            }
            VarKind::SameColumn { s, tau } | VarKind::SameRow { s, tau } => (tau >= s)
                .then(|| format!("earlier time {tau} is not before {s}"))
                .or_else(|| time(s, t_max)),
            VarKind::AmoHead { group, .. }
            | VarKind::AmoHeadX { group, .. }
            | VarKind::AmoHeadY { group, .. }
            | VarKind::AmoColumn { group, .. }
            | VarKind::AmoRow { group, .. }
            | VarKind::AmoTail { group, .. } => time(group, t_max),
            VarKind::Active { apple, t } | VarKind::Counter { count: apple, t } => {
                big("apple", apple, r.apples).or_else(|| time(t, t_max + 1))
            }
        }
    }
}

/// The coordinates of a [`VarKind`] (one to three numbers), as a slice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coords {
    values: [u32; 3],
    len: u8,
}

impl Coords {
    fn new(values: &[u32]) -> Self {
        let mut c = Coords {
            values: [0; 3],
            len: values.len() as u8,
        };
        c.values[..values.len()].copy_from_slice(values);
        c
    }
}

impl std::ops::Deref for Coords {
    type Target = [u32];

    fn deref(&self) -> &[u32] {
        &self.values[..self.len as usize]
    }
}

/// A variable description that names no [`VarKind`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VarKindError {
    /// No kind has this name.
    #[error("unknown variable kind {0:?}")]
    Unknown(String),
    /// The kind exists but takes another number of coordinates.
    #[error("{kind} variable with {found} coordinates instead of {expected}")]
    Arity {
        /// The kind's name.
        kind: &'static str,
        /// Coordinates it takes.
        expected: usize,
        /// Coordinates given.
        found: usize,
    },
}

/// Size of one clause family (or of the whole formula).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Size {
    /// Variables.
    pub variables: u64,
    /// Clauses.
    pub clauses: u64,
    /// Literal occurrences over all clauses.
    pub literals: u64,
}

impl Size {
    /// Adds `other` to these counts.
    pub fn add(&mut self, other: &Size) {
        self.variables += other.variables;
        self.clauses += other.clauses;
        self.literals += other.literals;
    }
}

/// A CNF formula under construction.
#[derive(Clone, Debug)]
pub struct Cnf {
    /// Clauses, each followed by `0`.
    lits: Vec<Lit>,
    names: Vec<VarKind>,
    families: Vec<(String, Size)>,
    current: usize,
    clauses: u64,
}

impl Default for Cnf {
    fn default() -> Self {
        Self::new()
    }
}

impl Cnf {
    /// An empty formula.
    pub fn new() -> Self {
        Cnf {
            lits: Vec::new(),
            names: Vec::new(),
            families: vec![("unnamed".to_string(), Size::default())],
            current: 0,
            clauses: 0,
        }
    }

    /// Makes `name` the family that new variables and clauses count toward.
    pub fn family(&mut self, name: &str) {
        self.current = match self.families.iter().position(|(n, _)| n == name) {
            Some(i) => i,
            None => {
                self.families.push((name.to_string(), Size::default()));
                self.families.len() - 1
            }
        };
    }

    /// A fresh variable meaning `name`.
    pub fn var(&mut self, name: VarKind) -> Lit {
        self.names.push(name);
        self.families[self.current].1.variables += 1;
        self.names.len() as Lit
    }

    /// Adds a clause; constants are simplified away. Its literals must be
    /// variables of [`Cnf::var`] or their negations (not checked here, in the
    /// encoders' hot loop; [`crate::planner::Planner::solve_formula`] refuses
    /// a formula with any other).
    #[inline]
    pub fn add(&mut self, clause: &[Lit]) {
        self.add_iter(clause.iter().copied());
    }

    /// Adds a clause from an iterator; constants are simplified away. A
    /// clause left empty (every literal false) goes before every other
    /// clause: the DRAT checker of `--proof` (rate 0.3.0) panics on a
    /// formula with an empty clause after a unit clause (tests/proofs.rs).
    /// Families are counts, not ranges of clauses, so theirs stay right.
    #[inline]
    pub fn add_iter(&mut self, clause: impl IntoIterator<Item = Lit>) {
        let start = self.lits.len();
        for l in clause {
            if l == TRUE {
                self.lits.truncate(start);
                return;
            }
            if l != FALSE {
                self.lits.push(l);
            }
        }
        let n = (self.lits.len() - start) as u64;
        if n == 0 {
            // (Rare: only a refuted horizon has one, so the shift is cheap.)
            self.lits.insert(0, 0);
        } else {
            self.lits.push(0);
        }
        self.clauses += 1;
        let stats = &mut self.families[self.current].1;
        stats.clauses += 1;
        stats.literals += n;
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// The number of clauses.
    pub fn num_clauses(&self) -> u64 {
        self.clauses
    }

    /// The meaning of the variable of literal `var` (`None` for 0 and for
    /// a variable the formula does not have).
    pub fn name_of(&self, var: Lit) -> Option<&VarKind> {
        let index = (var.unsigned_abs() as usize).checked_sub(1)?;
        self.names.get(index)
    }

    /// The meaning of every variable: index `v - 1` for variable `v`.
    pub fn names(&self) -> &[VarKind] {
        &self.names
    }

    /// The flat clause buffer (each clause followed by `0`).
    pub fn flat(&self) -> &[Lit] {
        &self.lits
    }

    /// The clauses one by one.
    pub fn clauses(&self) -> impl Iterator<Item = &[Lit]> {
        self.lits.split(|&l| l == 0).take(self.clauses as usize)
    }

    /// Families that hold at least one variable or clause, in creation order.
    pub fn families(&self) -> impl Iterator<Item = (&str, &Size)> {
        self.families
            .iter()
            .filter(|(_, s)| s.variables > 0 || s.clauses > 0)
            .map(|(n, s)| (n.as_str(), s))
    }

    /// The size of the whole formula.
    pub fn size(&self) -> Size {
        let mut total = Size::default();
        for (_, s) in &self.families {
            total.add(s);
        }
        total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_simplify_clauses() {
        let mut cnf = Cnf::new();
        cnf.family("f");
        let a = cnf.var(VarKind::Ate { t: 0 });
        let b = cnf.var(VarKind::Ate { t: 1 });
        cnf.add(&[a, TRUE]);
        cnf.add(&[a, FALSE, -b]);
        cnf.add(&[-TRUE, b]);
        assert_eq!(cnf.num_clauses(), 2);
        let clauses: Vec<&[Lit]> = cnf.clauses().collect();
        assert_eq!(clauses, vec![&[a, -b][..], &[b][..]]);
        assert_eq!(
            cnf.size(),
            Size {
                variables: 2,
                clauses: 2,
                literals: 3
            }
        );
    }

    #[test]
    fn names_of_literals() {
        let mut cnf = Cnf::new();
        assert_eq!(cnf.name_of(0), None);
        let a = cnf.var(VarKind::Ate { t: 0 });
        assert_eq!(cnf.name_of(a), Some(&VarKind::Ate { t: 0 }));
        assert_eq!(cnf.name_of(-a), Some(&VarKind::Ate { t: 0 }));
        for other in [0, a + 1, Lit::MIN, Lit::MAX] {
            assert_eq!(cnf.name_of(other), None, "{other}");
        }
    }

    #[test]
    fn empty_clauses_come_first() {
        let mut cnf = Cnf::new();
        cnf.family("f");
        let a = cnf.var(VarKind::Ate { t: 0 });
        cnf.add(&[a]);
        cnf.add(&[FALSE]);
        cnf.add(&[-a, FALSE]);
        cnf.add(&[]);
        let clauses: Vec<&[Lit]> = cnf.clauses().collect();
        assert_eq!(clauses, vec![&[][..], &[][..], &[a][..], &[-a][..]]);
        assert_eq!(cnf.flat(), &[0, 0, a, 0, -a, 0]);
        assert_eq!(cnf.size().clauses, 4);
    }

    #[test]
    fn families_count_separately() {
        let mut cnf = Cnf::new();
        cnf.family("one");
        let a = cnf.var(VarKind::Ate { t: 0 });
        cnf.add(&[a]);
        cnf.family("two");
        cnf.add(&[-a]);
        cnf.add(&[-a]);
        let fams: Vec<(&str, u64)> = cnf.families().map(|(n, s)| (n, s.clauses)).collect();
        assert_eq!(fams, vec![("one", 1), ("two", 2)]);
    }

    /// docs/FORMATS.md's `c var` table names every kind with as many
    /// coordinates as it has (a row may give several kinds, `a`, `b`, with
    /// coordinates `x t` / `y t`).
    #[test]
    fn the_formats_table_lists_every_kind() {
        let doc = include_str!("../../docs/FORMATS.md");
        let table: Vec<(Vec<&str>, Vec<usize>)> = doc
            .split("| kind | coordinates | true when |")
            .nth(1)
            .expect("the c var table")
            .lines()
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| {
                let cells: Vec<&str> = l.split('|').map(str::trim).collect();
                let kinds = cells[1].split(", ").map(|k| k.trim_matches('`')).collect();
                let arity = cells[2]
                    .split(" / ")
                    .map(|c| c.trim_matches('`').split_whitespace().count())
                    .collect();
                (kinds, arity)
            })
            .collect();
        for (name, coords) in VarKind::ALL {
            let row = table.iter().find(|(kinds, _)| kinds.contains(name));
            let Some((kinds, arity)) = row else {
                panic!("docs/FORMATS.md has no row for `{name}`");
            };
            let at = kinds.iter().position(|k| k == name).unwrap();
            let arity = arity.get(at).or(arity.first()).copied();
            assert_eq!(arity, Some(coords.len()), "`{name}`: {coords:?}");
        }
        let listed: usize = table.iter().map(|(kinds, _)| kinds.len()).sum();
        assert_eq!(listed, VarKind::ALL.len(), "a row names no kind");
    }

    #[test]
    fn every_kind_reads_back_from_its_name_and_coordinates() {
        let kinds = [
            VarKind::Head { x: 3, y: 4, t: 5 },
            VarKind::MovedX { t: 2 },
            VarKind::Eaten { apple: 1, t: 7 },
            VarKind::AmoHeadX { group: 9, k: 0 },
            VarKind::Counter { count: 2, t: 3 },
        ];
        for kind in kinds {
            assert_eq!(VarKind::parse(kind.name(), &kind.coords()), Ok(kind));
        }
        assert_eq!(VarKind::Head { x: 3, y: 4, t: 5 }.name(), "head");
        assert_eq!(&*VarKind::Head { x: 3, y: 4, t: 5 }.coords(), &[3, 4, 5]);
        assert_eq!(
            VarKind::parse("snake", &[1]),
            Err(VarKindError::Unknown("snake".into()))
        );
        assert_eq!(
            VarKind::parse("head", &[1, 2]),
            Err(VarKindError::Arity {
                kind: "head",
                expected: 3,
                found: 2
            })
        );
    }
}
