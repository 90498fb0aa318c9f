//! At-most-one constraints over a list of literals, one encoding per file,
//! all behind the [`AtMostOne`] trait and selected at run time by [`Amo`].
//!
//! | encoding | auxiliary variables | clauses |
//! |---|---|---|
//! | [`pairwise`] | `0` | `n(n-1)/2` |
//! | [`sequential`] (Sinz) | `n-1` | `3n-4` (for `n >= 2`) |
//! | [`commander`] (Klieber & Kwon) | `V(n) = ⌊n/3⌋ + V(⌊n/3⌋)` | `C(n) = 2n + 2(n mod 3) + C(⌊n/3⌋)` (pairwise for `n <= 5`) |
//! | [`product`] (Chen's 2-product) | `V(n) = p + q + V(p) + V(q)` | `C(n) = 2n + C(p) + C(q)` (pairwise for `n <= 6`) |
//! | [`binary`] (bitwise) | `⌈log2 n⌉` | `n⌈log2 n⌉` |
//! | [`bimander`] (Nguyen & Mai, pairs) | `⌈log2 ⌈n/2⌉⌉` | `⌊n/2⌋ + n⌈log2 ⌈n/2⌉⌉` |
//!
//! Here `n` counts the input literals other than `FALSE` ([`Amo::encode`]
//! drops those first), `p = ⌈√n⌉` and `q = ⌈n/p⌉`. Every formula is exact and
//! is checked against the builder for `n = 0..=60`; each encoding's own
//! file documents its clauses. All encodings use the inputs only negatively,
//! so a constant `TRUE` input simply forces every other input false (the
//! builder's clause simplification does the rest).
//!
//! Auxiliary variables of one constraint are named `aux_kind group k` with a
//! running `k` (see [`Aux`]), so they stay distinct and readable in DIMACS.
//!
//! rustsat's `encodings::am1` was considered, but its `ManageVars` and
//! `Clause` types allocate per clause and cannot name auxiliary variables, so
//! these encodings are written directly against our [`Cnf`] builder.

pub mod bimander;
pub mod binary;
pub mod commander;
pub mod pairwise;
pub mod product;
pub mod sequential;

use crate::cnf::{Cnf, FALSE, Lit, VarKind};

pub use bimander::Bimander;
pub use binary::Binary;
pub use commander::Commander;
pub use pairwise::Pairwise;
pub use product::Product;
pub use sequential::Sequential;

/// What an at-most-one constraint ranges over, which names its auxiliary
/// variables (`amo-head`, `amo-head-x`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AmoOf {
    /// Head cells ([`VarKind::AmoHead`]).
    Head,
    /// Head columns of the per-axis position ([`VarKind::AmoHeadX`]).
    HeadX,
    /// Head rows of the per-axis position ([`VarKind::AmoHeadY`]).
    HeadY,
    /// Projected columns ([`VarKind::AmoColumn`]).
    Column,
    /// Projected rows ([`VarKind::AmoRow`]).
    Row,
    /// Tail cells ([`VarKind::AmoTail`]).
    Tail,
}

impl AmoOf {
    /// Auxiliary variable `k` of the constraint `group`.
    fn var(self, group: u32, k: u32) -> VarKind {
        match self {
            AmoOf::Head => VarKind::AmoHead { group, k },
            AmoOf::HeadX => VarKind::AmoHeadX { group, k },
            AmoOf::HeadY => VarKind::AmoHeadY { group, k },
            AmoOf::Column => VarKind::AmoColumn { group, k },
            AmoOf::Row => VarKind::AmoRow { group, k },
            AmoOf::Tail => VarKind::AmoTail { group, k },
        }
    }
}

/// Allocates the auxiliary variables of one at-most-one constraint, named
/// `kind group k` for `k = 0, 1, ...`.
#[derive(Clone, Debug)]
pub struct Aux {
    of: AmoOf,
    group: u32,
    next: u32,
}

impl Aux {
    /// The allocator of constraint `group` over `of`.
    pub fn new(of: AmoOf, group: usize) -> Self {
        Aux {
            of,
            group: group as u32,
            next: 0,
        }
    }

    /// A fresh auxiliary variable.
    pub fn fresh(&mut self, cnf: &mut Cnf) -> Lit {
        let v = cnf.var(self.of.var(self.group, self.next));
        self.next += 1;
        v
    }
}

/// One at-most-one encoding, with its exact size as a function of the
/// number of inputs `n`.
pub trait AtMostOne {
    /// Adds "at most one of `lits` is true", with auxiliary variables from
    /// `aux`. `lits` should not contain `FALSE` (it would be correct, but the
    /// size formulas count it); `TRUE` is fine.
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], aux: &mut Aux);

    /// Adds "at most one of `lits` is true"; auxiliary variables are named
    /// `aux_kind group k`.
    fn encode(&self, cnf: &mut Cnf, lits: &[Lit], aux_kind: AmoOf, group: usize) {
        self.encode_with(cnf, lits, &mut Aux::new(aux_kind, group));
    }

    /// Number of auxiliary variables for `n` inputs.
    fn variables(n: usize) -> usize;

    /// Number of clauses for `n` inputs.
    fn clauses(n: usize) -> usize;
}

/// `⌈log2 n⌉`, with `ceil_log2(0) = ceil_log2(1) = 0`.
pub(crate) fn ceil_log2(n: usize) -> usize {
    if n <= 1 {
        0
    } else {
        (usize::BITS - (n - 1).leading_zeros()) as usize
    }
}

/// `⌈√n⌉`.
pub(crate) fn ceil_sqrt(n: usize) -> usize {
    let mut s = (n as f64).sqrt() as usize;
    while s * s < n {
        s += 1;
    }
    while s > 0 && (s - 1) * (s - 1) >= n {
        s -= 1;
    }
    s
}

/// An at-most-one encoding, chosen by name (`direct,amo=...`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amo {
    /// One binary clause per pair of literals.
    Pairwise,
    /// Sequential counter (Sinz) with auxiliary variables.
    Sequential,
    /// Commander encoding over groups of literals.
    Commander,
    /// Product encoding (Chen) over a grid of literals.
    Product,
    /// Binary (bitwise) encoding.
    Binary,
    /// Bimander encoding (Nguyen & Mai): pairs of literals with a binary code.
    Bimander,
}

impl Amo {
    /// Every encoding, in the order of the module table.
    pub const ALL: [Amo; 6] = [
        Amo::Pairwise,
        Amo::Sequential,
        Amo::Commander,
        Amo::Product,
        Amo::Binary,
        Amo::Bimander,
    ];

    /// The encoding's name in `amo=...`, e.g. `"sequential"`.
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
            Amo::Commander => "commander",
            Amo::Product => "product",
            Amo::Binary => "binary",
            Amo::Bimander => "bimander",
        }
    }

    /// Reads a name given by [`Amo::name`]; `None` for anything else.
    pub fn parse(s: &str) -> Option<Amo> {
        Amo::ALL.into_iter().find(|a| a.name() == s)
    }

    /// Adds "at most one of `lits` is true". Auxiliary variables are named
    /// `aux_kind group k`. `FALSE` literals are ignored.
    pub fn encode(self, cnf: &mut Cnf, lits: &[Lit], aux_kind: AmoOf, group: usize) {
        let lits: Vec<Lit> = lits.iter().copied().filter(|&l| l != FALSE).collect();
        let aux = &mut Aux::new(aux_kind, group);
        match self {
            Amo::Pairwise => Pairwise.encode_with(cnf, &lits, aux),
            Amo::Sequential => Sequential.encode_with(cnf, &lits, aux),
            Amo::Commander => Commander.encode_with(cnf, &lits, aux),
            Amo::Product => Product.encode_with(cnf, &lits, aux),
            Amo::Binary => Binary.encode_with(cnf, &lits, aux),
            Amo::Bimander => Bimander.encode_with(cnf, &lits, aux),
        }
    }

    /// Auxiliary variables for `n` (non-`FALSE`) inputs.
    pub fn variables(self, n: usize) -> usize {
        match self {
            Amo::Pairwise => Pairwise::variables(n),
            Amo::Sequential => Sequential::variables(n),
            Amo::Commander => Commander::variables(n),
            Amo::Product => Product::variables(n),
            Amo::Binary => Binary::variables(n),
            Amo::Bimander => Bimander::variables(n),
        }
    }

    /// Clauses for `n` (non-`FALSE`) inputs.
    pub fn clauses(self, n: usize) -> usize {
        match self {
            Amo::Pairwise => Pairwise::clauses(n),
            Amo::Sequential => Sequential::clauses(n),
            Amo::Commander => Commander::clauses(n),
            Amo::Product => Product::clauses(n),
            Amo::Binary => Binary::clauses(n),
            Amo::Bimander => Bimander::clauses(n),
        }
    }
}

/// Helpers shared by the encodings' tests.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::cnf::TRUE;

    /// A formula over `n` fresh inputs (variables `1..=n`) plus the encoding.
    pub fn build(encode: &dyn Fn(&mut Cnf, &[Lit]), n: usize) -> Cnf {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = (0..n)
            .map(|i| cnf.var(VarKind::Ate { t: i as u32 }))
            .collect();
        encode(&mut cnf, &xs);
        cnf
    }

    /// (auxiliary variables, clauses) the encoding adds for `n` inputs.
    pub fn measure(encode: &dyn Fn(&mut Cnf, &[Lit]), n: usize) -> (usize, usize) {
        let cnf = build(encode, n);
        (cnf.num_vars() - n, cnf.num_clauses() as usize)
    }

    /// The input assignments (bit `i` = variable `i + 1`) over the first
    /// `n` variables that extend to a model of `cnf`, by brute force over
    /// all auxiliary variables.
    pub fn extendable(cnf: &Cnf, n: usize) -> Vec<u32> {
        let aux = cnf.num_vars() - n;
        assert!(n + aux <= 24, "too large for brute force");
        let clauses: Vec<&[Lit]> = cnf.clauses().collect();
        (0u32..(1 << n))
            .filter(|&inputs| {
                (0u32..(1 << aux)).any(|a| {
                    let value = |l: Lit| {
                        let v = l.unsigned_abs() as usize - 1;
                        let bit = if v < n {
                            inputs >> v & 1
                        } else {
                            a >> (v - n) & 1
                        };
                        (bit == 1) == (l > 0)
                    };
                    clauses.iter().all(|c| c.iter().any(|&l| value(l)))
                })
            })
            .collect()
    }

    /// Assignments of `n` inputs with at most one true.
    pub fn at_most_one(n: usize) -> Vec<u32> {
        (0u32..(1 << n)).filter(|m| m.count_ones() <= 1).collect()
    }

    /// Checks the encoding exactly on `0..=max_n` inputs by brute force,
    /// and with one or two constant `TRUE` inputs mixed in.
    pub fn check_exhaustive(encode: &dyn Fn(&mut Cnf, &[Lit]), max_n: usize) {
        for n in 0..=max_n {
            let cnf = build(encode, n);
            assert_eq!(extendable(&cnf, n), at_most_one(n), "n={n}");
        }
        for n in 0..=max_n.min(6) {
            for at in 0..=n {
                // One TRUE at position `at`: every other input is forced false.
                let with_true = |cnf: &mut Cnf, xs: &[Lit]| {
                    let mut lits = xs.to_vec();
                    lits.insert(at, TRUE);
                    encode(cnf, &lits);
                };
                let cnf = build(&with_true, n);
                assert_eq!(extendable(&cnf, n), vec![0], "n={n}, TRUE at {at}");
                // Two TRUEs: unsatisfiable.
                let two_true = |cnf: &mut Cnf, xs: &[Lit]| {
                    let mut lits = xs.to_vec();
                    lits.insert(at, TRUE);
                    lits.push(TRUE);
                    encode(cnf, &lits);
                };
                let cnf = build(&two_true, n);
                assert_eq!(extendable(&cnf, n), Vec::<u32>::new(), "n={n}, two TRUE");
            }
        }
    }

    /// Checks the encoding on `n` inputs with CaDiCaL: inputs occur only
    /// negatively (so extendable sets are closed under subsets), all-false
    /// and every single input are extendable, every pair is not.
    pub fn check_with_solver(encode: &dyn Fn(&mut Cnf, &[Lit]), n: usize) {
        let cnf = build(encode, n);
        let mut solver: cadical::Solver = cadical::Solver::new();
        for c in cnf.clauses() {
            assert!(
                c.iter().all(|&l| l.unsigned_abs() as usize > n || l < 0),
                "input used positively"
            );
            solver.add_clause(c.iter().copied());
        }
        let xs: Vec<Lit> = (1..=n as Lit).collect();
        let only = |i: Option<usize>| {
            xs.iter()
                .enumerate()
                .map(move |(j, &x)| if Some(j) == i { x } else { -x })
        };
        assert_eq!(solver.solve_with(only(None)), Some(true), "n={n} none");
        for i in 0..n {
            assert_eq!(solver.solve_with(only(Some(i))), Some(true), "n={n} {i}");
            for j in i + 1..n {
                assert_eq!(
                    solver.solve_with([xs[i], xs[j]]),
                    Some(false),
                    "n={n} {i} {j}"
                );
            }
        }
    }

    /// Checks `measure` against the formulas for `n = 0..=60`.
    pub fn check_sizes(
        encode: &dyn Fn(&mut Cnf, &[Lit]),
        variables: fn(usize) -> usize,
        clauses: fn(usize) -> usize,
    ) {
        for n in 0..=60 {
            assert_eq!(measure(encode, n), (variables(n), clauses(n)), "n={n}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testing::*;
    use super::*;
    use crate::cnf::TRUE;

    fn via_enum(amo: Amo) -> impl Fn(&mut Cnf, &[Lit]) {
        move |cnf: &mut Cnf, xs: &[Lit]| amo.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn every_encoding_allows_exactly_the_at_most_one_assignments() {
        for amo in Amo::ALL {
            check_exhaustive(&via_enum(amo), 6);
        }
    }

    #[test]
    fn every_encoding_is_an_at_most_one_up_to_40_inputs() {
        for amo in Amo::ALL {
            for n in 0..=40 {
                check_with_solver(&via_enum(amo), n);
            }
        }
    }

    #[test]
    fn enum_sizes_match_the_formulas() {
        for amo in Amo::ALL {
            for n in 0..=60 {
                let got = measure(&via_enum(amo), n);
                assert_eq!(got, (amo.variables(n), amo.clauses(n)), "{amo:?} n={n}");
            }
        }
    }

    #[test]
    fn false_inputs_are_dropped_and_true_inputs_force() {
        for amo in Amo::ALL {
            // FALSE inputs do not count toward the size.
            let with_false = |cnf: &mut Cnf, xs: &[Lit]| {
                let mut lits = vec![FALSE];
                for &x in xs {
                    lits.extend([x, FALSE]);
                }
                amo.encode(cnf, &lits, AmoOf::Head, 0)
            };
            for n in 0..=12 {
                assert_eq!(measure(&with_false, n), (amo.variables(n), amo.clauses(n)));
            }
            check_exhaustive(&with_false, 5);
            // A TRUE input among 9 (past the pairwise cut-offs).
            let with_true = |cnf: &mut Cnf, xs: &[Lit]| {
                let mut lits = xs.to_vec();
                lits.insert(4, TRUE);
                amo.encode(cnf, &lits, AmoOf::Head, 0)
            };
            let cnf = build(&with_true, 9);
            assert_eq!(extendable(&cnf, 9), vec![0], "{amo:?}");
        }
    }

    #[test]
    fn sizes_for_a_10x10_row() {
        let sizes: Vec<(&str, usize, usize)> = Amo::ALL
            .iter()
            .map(|a| (a.name(), a.variables(100), a.clauses(100)))
            .collect();
        assert_eq!(
            sizes,
            [
                ("pairwise", 0, 4950),
                ("sequential", 99, 296),
                ("commander", 47, 297),
                ("product", 34, 258),
                ("binary", 7, 700),
                ("bimander", 6, 650),
            ]
        );
        for amo in Amo::ALL {
            let got = measure(&via_enum(amo), 100);
            assert_eq!(got, (amo.variables(100), amo.clauses(100)), "{amo:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        let names: Vec<&str> = Amo::ALL.iter().map(|a| a.name()).collect();
        assert_eq!(
            names,
            [
                "pairwise",
                "sequential",
                "commander",
                "product",
                "binary",
                "bimander"
            ]
        );
        for amo in Amo::ALL {
            assert_eq!(Amo::parse(amo.name()), Some(amo));
        }
        assert_eq!(Amo::parse("ladder"), None);
    }

    #[test]
    fn auxiliary_variables_are_named_by_group_and_counter() {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = (0..10)
            .map(|i| cnf.var(VarKind::Ate { t: i as u32 }))
            .collect();
        Amo::Product.encode(&mut cnf, &xs, AmoOf::Head, 7);
        let aux: Vec<&VarKind> = cnf.names()[10..].iter().collect();
        assert_eq!(aux.len(), Amo::Product.variables(10));
        for (k, name) in aux.iter().enumerate() {
            assert_eq!(name.name(), "amo-head");
            assert_eq!(&*name.coords(), &[7, k as u32]);
        }
    }

    #[test]
    fn helpers() {
        let logs: Vec<usize> = (0..10).map(ceil_log2).collect();
        assert_eq!(logs, [0, 0, 1, 2, 2, 3, 3, 3, 3, 4]);
        let roots: Vec<usize> = (0..11).map(ceil_sqrt).collect();
        assert_eq!(roots, [0, 1, 2, 2, 2, 3, 3, 3, 3, 3, 4]);
        for n in 0..10_000 {
            let s = ceil_sqrt(n);
            assert!(s * s >= n && (s == 0 || (s - 1) * (s - 1) < n));
        }
    }
}
