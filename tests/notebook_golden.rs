//! snakesat's notebook encodings produce the notebook's clauses literal for
//! literal, in its order, on small settings. The golden files come from the
//! notebook's own Python functions (tests/notebook_golden/generate.py).

use snakesat::cnf::Cnf;
use snakesat::encode::Encoding;
use snakesat::encode::notebook::Notebook;
use snakesat::instance::{Instance, Pos, Start, TailRule};

/// One clause per line, literals as `M[x, y, t]`, `P[p, t]`, `C[c, t]`.
fn symbolic(cnf: &Cnf) -> String {
    let mut out = String::new();
    for clause in cnf.clauses() {
        let lits: Vec<String> = clause
            .iter()
            .map(|&l| {
                let name = cnf.name_of(l).unwrap();
                let kind = match name.name() {
                    "head" => "M",
                    "active" => "P",
                    "counter" => "C",
                    other => panic!("unexpected variable kind {other}"),
                };
                let coords: Vec<String> = name.coords().iter().map(u32::to_string).collect();
                let sign = if l < 0 { "-" } else { "" };
                format!("{sign}{kind}[{}]", coords.join(", "))
            })
            .collect();
        out.push_str(&lits.join(" "));
        out.push('\n');
    }
    out
}

fn check(nb: Notebook, moves: usize, l0: usize, apples: Vec<Pos>, visible: usize, golden: &str) {
    let inst = Instance {
        width: 3,
        height: 3,
        walls: vec![],
        start: Start::Free { length: l0 },
        apples,
        visible,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    let cnf = nb.encode(&inst, moves).unwrap();
    let got = symbolic(&cnf);
    if got != golden {
        let first = got
            .lines()
            .zip(golden.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(got.lines().count().min(golden.lines().count()));
        panic!(
            "{}: clause {first} differs: got {:?}, notebook {:?} ({} vs {} clauses)",
            nb.as_str(),
            got.lines().nth(first),
            golden.lines().nth(first),
            got.lines().count(),
            golden.lines().count()
        );
    }
}

const APPLES: [Pos; 3] = [(2, 1), (0, 2), (1, 1)];

#[test]
fn mvp1_matches_the_notebook() {
    let golden = include_str!("notebook_golden/notebook-mvp1.txt");
    check(Notebook::Mvp1, 4, 3, vec![], 1, golden);
}

#[test]
fn counter_matches_the_notebook() {
    let golden = include_str!("notebook_golden/notebook-counter.txt");
    check(Notebook::Counter, 5, 2, APPLES.to_vec(), 3, golden);
}

#[test]
fn combinations_matches_the_notebook() {
    let golden = include_str!("notebook_golden/notebook-combinations.txt");
    check(Notebook::Combinations, 5, 2, APPLES.to_vec(), 3, golden);
}

#[test]
fn ordered_matches_the_notebook() {
    let golden = include_str!("notebook_golden/notebook-ordered.txt");
    check(Notebook::Ordered, 6, 2, APPLES.to_vec(), 1, golden);
}
