//! The pairwise (naive) at-most-one encoding: one binary clause
//! `¬x_i ∨ ¬x_j` per pair.
//!
//! Size for `n` inputs: **0** auxiliary variables, **`n(n-1)/2`** clauses.

use super::{AtMostOne, Aux};
use crate::cnf::{Cnf, Lit};

/// Pairwise at-most-one; also the base case of the recursive encodings.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pairwise;

/// Adds `¬a ∨ ¬b` for every pair of `lits`.
pub fn pairwise(cnf: &mut Cnf, lits: &[Lit]) {
    for (i, &a) in lits.iter().enumerate() {
        for &b in &lits[i + 1..] {
            cnf.add(&[-a, -b]);
        }
    }
}

impl AtMostOne for Pairwise {
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], _aux: &mut Aux) {
        pairwise(cnf, lits);
    }

    fn variables(_n: usize) -> usize {
        0
    }

    fn clauses(n: usize) -> usize {
        n * n.saturating_sub(1) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::encode::amo::AmoOf;

    fn enc(cnf: &mut Cnf, xs: &[Lit]) {
        Pairwise.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn sizes_match_the_formula() {
        check_sizes(&enc, Pairwise::variables, Pairwise::clauses);
    }

    #[test]
    fn allows_exactly_the_at_most_one_assignments() {
        check_exhaustive(&enc, 7);
    }
}
