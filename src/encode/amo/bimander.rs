//! Nguyen & Mai's bimander encoding (2015) with groups of 2: the inputs are
//! split, in order, into `m = ⌈n/2⌉` pairs; each pair gets its pairwise
//! clause, and the pair index is spelled by `k = ⌈log2 m⌉` bits as in the
//! [binary](super::binary) encoding: `¬x ∨ ±b_j` for every member `x` of
//! pair `g` and every bit `j` of `g`. Two true inputs are in the same pair
//! (pairwise clause) or spell different pairs (bits).
//!
//! Size for `n` inputs: **`⌈log2 ⌈n/2⌉⌉`** auxiliary variables,
//! **`⌊n/2⌋ + n⌈log2 ⌈n/2⌉⌉`** binary clauses. For `n >= 2` that is one
//! bit and `⌈n/2⌉` clauses fewer than [binary](super::binary), since
//! `⌈log2 ⌈n/2⌉⌉ = ⌈log2 n⌉ - 1`.

use super::pairwise::pairwise;
use super::{AtMostOne, Aux, ceil_log2};
use crate::cnf::{Cnf, Lit};

/// Members per group.
pub const GROUP: usize = 2;

/// The bimander encoding with groups of 2.
#[derive(Clone, Copy, Debug, Default)]
pub struct Bimander;

impl AtMostOne for Bimander {
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], aux: &mut Aux) {
        let k = ceil_log2(lits.len().div_ceil(GROUP));
        let bits: Vec<Lit> = (0..k).map(|_| aux.fresh(cnf)).collect();
        for (g, group) in lits.chunks(GROUP).enumerate() {
            pairwise(cnf, group);
            for &x in group {
                for (j, &b) in bits.iter().enumerate() {
                    cnf.add(&[-x, if g >> j & 1 == 1 { b } else { -b }]);
                }
            }
        }
    }

    fn variables(n: usize) -> usize {
        ceil_log2(n.div_ceil(GROUP))
    }

    fn clauses(n: usize) -> usize {
        n / GROUP + n * ceil_log2(n.div_ceil(GROUP))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::encode::amo::AmoOf;
    use crate::encode::amo::Binary;

    fn enc(cnf: &mut Cnf, xs: &[Lit]) {
        Bimander.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn sizes_match_the_formula() {
        check_sizes(&enc, Bimander::variables, Bimander::clauses);
    }

    #[test]
    fn allows_exactly_the_at_most_one_assignments() {
        check_exhaustive(&enc, 10);
    }

    #[test]
    fn one_bit_and_half_the_inputs_fewer_than_binary() {
        for n in 2..5000 {
            assert_eq!(Bimander::variables(n) + 1, Binary::variables(n), "n={n}");
            assert_eq!(Bimander::clauses(n) + n.div_ceil(2), Binary::clauses(n));
        }
    }
}
