//! At-most-one constraints over a list of literals.
//!
//! - [`Amo::Pairwise`]: `n(n-1)/2` binary clauses, no variables (the notebook's).
//! - [`Amo::Sequential`]: Sinz's sequential counter, `n - 1` variables and
//!   `3n - 4` binary clauses (for `n >= 2`).

use crate::cnf::{Cnf, FALSE, Lit, VarName};

/// An at-most-one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amo {
    Pairwise,
    Sequential,
}

impl Amo {
    pub fn name(self) -> &'static str {
        match self {
            Amo::Pairwise => "pairwise",
            Amo::Sequential => "sequential",
        }
    }

    pub fn parse(s: &str) -> Option<Amo> {
        match s {
            "pairwise" => Some(Amo::Pairwise),
            "sequential" => Some(Amo::Sequential),
            _ => None,
        }
    }

    /// Adds "at most one of `lits` is true". Auxiliary variables are named
    /// `aux_kind group i`. `FALSE` literals are ignored.
    pub fn encode(self, cnf: &mut Cnf, lits: &[Lit], aux_kind: &'static str, group: usize) {
        let lits: Vec<Lit> = lits.iter().copied().filter(|&l| l != FALSE).collect();
        let n = lits.len();
        if n < 2 {
            return;
        }
        match self {
            Amo::Pairwise => {
                for i in 0..n {
                    for j in i + 1..n {
                        cnf.add(&[-lits[i], -lits[j]]);
                    }
                }
            }
            Amo::Sequential => {
                // s_i: one of x_0..=x_i is true, for i in 0..n-1.
                let mut prev = cnf.var(VarName::new(aux_kind, &[group, 0]));
                cnf.add(&[-lits[0], prev]);
                for (i, &x) in lits.iter().enumerate().take(n - 1).skip(1) {
                    let s = cnf.var(VarName::new(aux_kind, &[group, i]));
                    cnf.add(&[-x, s]);
                    cnf.add(&[-prev, s]);
                    cnf.add(&[-x, -prev]);
                    prev = s;
                }
                cnf.add(&[-lits[n - 1], -prev]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Counts models of the AMO projected on the inputs, by brute force.
    fn allowed_assignments(amo: Amo, n: usize) -> Vec<u32> {
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = (0..n).map(|i| cnf.var(VarName::new("x", &[i]))).collect();
        amo.encode(&mut cnf, &xs, "aux", 0);
        let total = cnf.num_vars();
        let mut allowed = Vec::new();
        for inputs in 0u32..(1 << n) {
            let aux = total - n;
            let ok = (0u32..(1 << aux)).any(|a| {
                let value = |l: Lit| {
                    let v = l.unsigned_abs() as usize - 1;
                    let bit = if v < n {
                        inputs >> v & 1
                    } else {
                        a >> (v - n) & 1
                    };
                    (bit == 1) == (l > 0)
                };
                cnf.clauses().all(|c| c.iter().any(|&l| value(l)))
            });
            if ok {
                allowed.push(inputs);
            }
        }
        allowed
    }

    #[test]
    fn both_encodings_allow_exactly_the_at_most_one_assignments() {
        for amo in [Amo::Pairwise, Amo::Sequential] {
            for n in 1..=5 {
                let expected: Vec<u32> = (0u32..(1 << n)).filter(|m| m.count_ones() <= 1).collect();
                assert_eq!(allowed_assignments(amo, n), expected, "{amo:?} n={n}");
            }
        }
    }

    #[test]
    fn sizes_match_the_formulas() {
        for n in 2..30 {
            let mut cnf = Cnf::new();
            let xs: Vec<Lit> = (0..n).map(|i| cnf.var(VarName::new("x", &[i]))).collect();
            Amo::Sequential.encode(&mut cnf, &xs, "aux", 0);
            assert_eq!(cnf.num_vars() - n, n - 1);
            assert_eq!(cnf.num_clauses() as usize, 3 * n - 4);
            let mut cnf = Cnf::new();
            let xs: Vec<Lit> = (0..n).map(|i| cnf.var(VarName::new("x", &[i]))).collect();
            Amo::Pairwise.encode(&mut cnf, &xs, "aux", 0);
            assert_eq!(cnf.num_clauses() as usize, n * (n - 1) / 2);
        }
    }
}
