//! The CNF builder: variables allocated by named family, one flat clause
//! buffer, per-family statistics, and constant literals for pruning.
//!
//! Clauses are written into a single `Vec<i32>` with a `0` after each clause
//! (the DIMACS layout), so building allocates nothing per clause. Every
//! variable carries a [`VarName`] (a kind and up to three coordinates) so that
//! a model can be mapped back to a plan from the CNF alone; see [`dimacs`].

pub mod dimacs;

/// A DIMACS literal. [`TRUE`] and [`FALSE`] stand for constants: a clause
/// containing `TRUE` is dropped, `FALSE` literals are left out.
pub type Lit = i32;

/// The constant true literal (never written to a clause).
pub const TRUE: Lit = i32::MAX;
/// The constant false literal; `-TRUE == FALSE`.
pub const FALSE: Lit = -i32::MAX;

/// What a variable means: a kind (e.g. `head`) and its coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarName {
    pub kind: &'static str,
    pub coords: [u32; 3],
    pub arity: u8,
}

impl VarName {
    pub fn new(kind: &'static str, coords: &[usize]) -> Self {
        let mut c = [0u32; 3];
        for (slot, &v) in c.iter_mut().zip(coords) {
            *slot = v as u32;
        }
        VarName {
            kind,
            coords: c,
            arity: coords.len().min(3) as u8,
        }
    }

    pub fn coords(&self) -> &[u32] {
        &self.coords[..self.arity as usize]
    }
}

/// Size of one clause family (or of the whole formula).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Size {
    pub variables: u64,
    pub clauses: u64,
    pub literals: u64,
}

impl Size {
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
    names: Vec<VarName>,
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

    /// A fresh variable.
    pub fn var(&mut self, name: VarName) -> Lit {
        self.names.push(name);
        self.families[self.current].1.variables += 1;
        self.names.len() as Lit
    }

    /// Adds a clause; constants are simplified away.
    #[inline]
    pub fn add(&mut self, clause: &[Lit]) {
        self.add_iter(clause.iter().copied());
    }

    /// Adds a clause from an iterator; constants are simplified away.
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
        self.lits.push(0);
        self.clauses += 1;
        let stats = &mut self.families[self.current].1;
        stats.clauses += 1;
        stats.literals += n;
    }

    pub fn num_vars(&self) -> usize {
        self.names.len()
    }

    pub fn num_clauses(&self) -> u64 {
        self.clauses
    }

    pub fn name_of(&self, var: Lit) -> Option<&VarName> {
        self.names.get(var.unsigned_abs() as usize - 1)
    }

    pub fn names(&self) -> &[VarName] {
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
        let a = cnf.var(VarName::new("x", &[0]));
        let b = cnf.var(VarName::new("x", &[1]));
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
    fn families_count_separately() {
        let mut cnf = Cnf::new();
        cnf.family("one");
        let a = cnf.var(VarName::new("x", &[]));
        cnf.add(&[a]);
        cnf.family("two");
        cnf.add(&[-a]);
        cnf.add(&[-a]);
        let fams: Vec<(&str, u64)> = cnf.families().map(|(n, s)| (n, s.clauses)).collect();
        assert_eq!(fams, vec![("one", 1), ("two", 2)]);
    }
}
