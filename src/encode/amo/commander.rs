//! Klieber & Kwon's commander encoding (2007), at-most-one only.
//!
//! For `n <= 5` inputs it is [pairwise](super::pairwise). Otherwise the
//! inputs are split, in order, into `g = ⌊n/3⌋` groups: the first `n mod 3`
//! groups have 4 members, the rest 3. Each group gets a commander `c`, with
//! the group's pairwise at-most-one and `¬x ∨ c` for each member `x` (a true
//! member forces its commander; `c → ∨ members` is not needed for
//! at-most-one). Then at most one commander is true, recursively.
//!
//! Size for `n` inputs, exactly:
//! - variables `V(n) = 0` for `n <= 5`, else `V(n) = ⌊n/3⌋ + V(⌊n/3⌋)`;
//! - clauses `C(n) = n(n-1)/2` for `n <= 5`, else
//!   `C(n) = 2n + 2(n mod 3) + C(⌊n/3⌋)` (a group of 3 costs 3 + 3 clauses,
//!   of 4 costs 6 + 4).
//!
//! About `n/2` variables and `3n` clauses.

use super::pairwise::pairwise;
use super::{AtMostOne, Aux};
use crate::cnf::{Cnf, Lit};

/// Up to this many inputs the commander encoding is pairwise.
pub const PAIRWISE_MAX: usize = 5;

/// Klieber & Kwon's commander encoding with groups of 3 or 4.
#[derive(Clone, Copy, Debug, Default)]
pub struct Commander;

impl AtMostOne for Commander {
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], aux: &mut Aux) {
        let n = lits.len();
        if n <= PAIRWISE_MAX {
            pairwise(cnf, lits);
            return;
        }
        let (g, r) = (n / 3, n % 3);
        let mut commanders = Vec::with_capacity(g);
        let mut start = 0;
        for i in 0..g {
            let size = if i < r { 4 } else { 3 };
            let group = &lits[start..start + size];
            start += size;
            pairwise(cnf, group);
            let c = aux.fresh(cnf);
            for &x in group {
                cnf.add(&[-x, c]);
            }
            commanders.push(c);
        }
        debug_assert_eq!(start, n);
        self.encode_with(cnf, &commanders, aux);
    }

    fn variables(n: usize) -> usize {
        if n <= PAIRWISE_MAX {
            0
        } else {
            n / 3 + Self::variables(n / 3)
        }
    }

    fn clauses(n: usize) -> usize {
        if n <= PAIRWISE_MAX {
            n * n.saturating_sub(1) / 2
        } else {
            2 * n + 2 * (n % 3) + Self::clauses(n / 3)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::encode::amo::AmoOf;

    fn enc(cnf: &mut Cnf, xs: &[Lit]) {
        Commander.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn sizes_match_the_formula() {
        check_sizes(&enc, Commander::variables, Commander::clauses);
    }

    #[test]
    fn allows_exactly_the_at_most_one_assignments() {
        // n = 9..=11 have groups of 3 and 4; brute force stays small.
        check_exhaustive(&enc, 11);
    }

    #[test]
    fn recursion_is_an_at_most_one() {
        // n >= 18 recurses on at least 6 commanders.
        for n in [18, 19, 20, 54, 60, 100] {
            check_with_solver(&enc, n);
        }
    }
}
