//! Sinz's sequential counter (2005). Register `s_i` means "one of
//! `x_0..=x_i` is true", for `i in 0..n-1`:
//! `¬x_0 ∨ s_0`; for `0 < i < n-1`: `¬x_i ∨ s_i`, `¬s_{i-1} ∨ s_i`,
//! `¬x_i ∨ ¬s_{i-1}`; and `¬x_{n-1} ∨ ¬s_{n-2}`.
//!
//! Size for `n >= 2` inputs: **`n-1`** auxiliary variables, **`3n-4`**
//! binary clauses (nothing for `n < 2`).

use super::{AtMostOne, Aux};
use crate::cnf::{Cnf, Lit};

/// Sinz's sequential counter.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sequential;

impl AtMostOne for Sequential {
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], aux: &mut Aux) {
        let n = lits.len();
        if n < 2 {
            return;
        }
        let mut prev = aux.fresh(cnf);
        cnf.add(&[-lits[0], prev]);
        for &x in &lits[1..n - 1] {
            let s = aux.fresh(cnf);
            cnf.add(&[-x, s]);
            cnf.add(&[-prev, s]);
            cnf.add(&[-x, -prev]);
            prev = s;
        }
        cnf.add(&[-lits[n - 1], -prev]);
    }

    fn variables(n: usize) -> usize {
        if n < 2 { 0 } else { n - 1 }
    }

    fn clauses(n: usize) -> usize {
        if n < 2 { 0 } else { 3 * n - 4 }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::cnf::VarKind;
    use crate::encode::amo::AmoOf;

    fn enc(cnf: &mut Cnf, xs: &[Lit]) {
        Sequential.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn sizes_match_the_formula() {
        check_sizes(&enc, Sequential::variables, Sequential::clauses);
    }

    #[test]
    fn allows_exactly_the_at_most_one_assignments() {
        check_exhaustive(&enc, 8);
    }

    #[test]
    fn registers_keep_their_names() {
        // `kind group i` for register s_i, as before the split (DIMACS samples).
        let mut cnf = Cnf::new();
        let xs: Vec<Lit> = (0..4)
            .map(|i| cnf.var(VarKind::Ate { t: i as u32 }))
            .collect();
        Sequential.encode(&mut cnf, &xs, AmoOf::Head, 3);
        let regs: Vec<Vec<u32>> = cnf.names()[4..]
            .iter()
            .map(|v| v.coords().to_vec())
            .collect();
        assert_eq!(regs, [vec![3, 0], vec![3, 1], vec![3, 2]]);
    }
}
