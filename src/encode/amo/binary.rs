//! The binary (bitwise) encoding (Frisch et al.; Prestwich): `k = ⌈log2 n⌉`
//! bit variables `b_j`, and each input `x_i` forces the bits to spell `i`:
//! `¬x_i ∨ b_j` if bit `j` of `i` is 1, else `¬x_i ∨ ¬b_j`. Two distinct
//! indices below `n <= 2^k` differ in some bit.
//!
//! Size for `n` inputs: **`⌈log2 n⌉`** auxiliary variables,
//! **`n⌈log2 n⌉`** binary clauses (nothing for `n < 2`).

use super::{AtMostOne, Aux, ceil_log2};
use crate::cnf::{Cnf, Lit};

/// The binary / bitwise encoding.
#[derive(Clone, Copy, Debug, Default)]
pub struct Binary;

impl AtMostOne for Binary {
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], aux: &mut Aux) {
        let k = ceil_log2(lits.len());
        let bits: Vec<Lit> = (0..k).map(|_| aux.fresh(cnf)).collect();
        for (i, &x) in lits.iter().enumerate() {
            for (j, &b) in bits.iter().enumerate() {
                cnf.add(&[-x, if i >> j & 1 == 1 { b } else { -b }]);
            }
        }
    }

    fn variables(n: usize) -> usize {
        ceil_log2(n)
    }

    fn clauses(n: usize) -> usize {
        n * ceil_log2(n)
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::encode::amo::AmoOf;

    fn enc(cnf: &mut Cnf, xs: &[Lit]) {
        Binary.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn sizes_match_the_formula() {
        check_sizes(&enc, Binary::variables, Binary::clauses);
    }

    #[test]
    fn allows_exactly_the_at_most_one_assignments() {
        check_exhaustive(&enc, 10);
    }
}
