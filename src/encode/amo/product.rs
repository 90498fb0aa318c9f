//! Chen's 2-product encoding (2010).
//!
//! For `n <= 6` inputs it is [pairwise](super::pairwise). Otherwise, with
//! `p = ⌈√n⌉` and `q = ⌈n/p⌉`, input `x_i` sits at row `i mod p` and column
//! `⌊i/p⌋` of a `p × q` grid; every row `r` and column `c` gets a variable,
//! with `¬x_i ∨ r_{i mod p}` and `¬x_i ∨ c_{⌊i/p⌋}`, and at most one row
//! and at most one column are true, recursively. Two true inputs differ in
//! their row or their column. Every row and column holds an input, since
//! `p <= n` and `p(q-1) < n`.
//!
//! Size for `n` inputs, exactly:
//! - variables `V(n) = 0` for `n <= 6`, else `V(n) = p + q + V(p) + V(q)`;
//! - clauses `C(n) = n(n-1)/2` for `n <= 6`, else `C(n) = 2n + C(p) + C(q)`.
//!
//! About `2√n` variables and `2n + 4√n` clauses. The cut-off 6 is where
//! the product stops saving clauses (n = 6: 16 against 15; n = 7: 20 against
//! 21).

use super::pairwise::pairwise;
use super::{AtMostOne, Aux, ceil_sqrt};
use crate::cnf::{Cnf, Lit};

/// Up to this many inputs the product encoding is pairwise.
pub const PAIRWISE_MAX: usize = 6;

/// Chen's 2-product encoding.
#[derive(Clone, Copy, Debug, Default)]
pub struct Product;

/// The grid shape `(p, q)` for `n` inputs.
pub fn shape(n: usize) -> (usize, usize) {
    let p = ceil_sqrt(n);
    (p, n.div_ceil(p.max(1)))
}

impl AtMostOne for Product {
    fn encode_with(&self, cnf: &mut Cnf, lits: &[Lit], aux: &mut Aux) {
        let n = lits.len();
        if n <= PAIRWISE_MAX {
            pairwise(cnf, lits);
            return;
        }
        let (p, q) = shape(n);
        let rows: Vec<Lit> = (0..p).map(|_| aux.fresh(cnf)).collect();
        let cols: Vec<Lit> = (0..q).map(|_| aux.fresh(cnf)).collect();
        for (i, &x) in lits.iter().enumerate() {
            cnf.add(&[-x, rows[i % p]]);
            cnf.add(&[-x, cols[i / p]]);
        }
        self.encode_with(cnf, &rows, aux);
        self.encode_with(cnf, &cols, aux);
    }

    fn variables(n: usize) -> usize {
        if n <= PAIRWISE_MAX {
            0
        } else {
            let (p, q) = shape(n);
            p + q + Self::variables(p) + Self::variables(q)
        }
    }

    fn clauses(n: usize) -> usize {
        if n <= PAIRWISE_MAX {
            n * n.saturating_sub(1) / 2
        } else {
            let (p, q) = shape(n);
            2 * n + Self::clauses(p) + Self::clauses(q)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::*;
    use super::*;
    use crate::encode::amo::AmoOf;

    fn enc(cnf: &mut Cnf, xs: &[Lit]) {
        Product.encode(cnf, xs, AmoOf::Head, 0)
    }

    #[test]
    fn sizes_match_the_formula() {
        check_sizes(&enc, Product::variables, Product::clauses);
    }

    #[test]
    fn allows_exactly_the_at_most_one_assignments() {
        check_exhaustive(&enc, 10);
    }

    #[test]
    fn recursion_is_an_at_most_one() {
        // n = 50 has 8 rows and 7 columns, both recursing.
        for n in [49, 50, 60, 100, 150] {
            check_with_solver(&enc, n);
        }
    }

    #[test]
    fn every_row_and_column_is_used() {
        for n in 7..2000 {
            let (p, q) = shape(n);
            assert!(p <= n && p * q >= n && p * (q - 1) < n, "n={n}");
        }
    }
}
