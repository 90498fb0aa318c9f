//! Prints the notebook encodings' sizes per family and build times on the
//! notebook's own settings (docs/DESIGN.md §2):
//! `cargo run --release --example notebook_sizes`.

use std::time::Instant;

use snakesat::encode::Encoding;
use snakesat::encode::notebook::Notebook;
use snakesat::instance::random::{RandomSpec, generate};

fn main() {
    let settings = [
        (Notebook::Mvp1, 5, 0, None, 9),
        (Notebook::Counter, 10, 9, None, 34),
        (Notebook::Combinations, 10, 9, None, 34),
        (Notebook::Ordered, 10, 9, Some(1), 69),
    ];
    for (nb, side, apples, visible, moves) in settings {
        let spec = RandomSpec {
            width: side,
            height: side,
            apples,
            visible,
            ..RandomSpec::default()
        };
        let inst = generate(&spec).expect("valid random instance");
        let started = Instant::now();
        let cnf = nb
            .encode(&inst, moves)
            .expect("the notebook's setting is accepted");
        let seconds = started.elapsed().as_secs_f64();
        let size = cnf.size();
        println!(
            "{} ({side}x{side}, {apples} apples, notebook T = {}): {} variables, {} clauses, {} literals, built in {seconds:.3} s",
            nb.as_str(),
            moves + 1,
            size.variables,
            size.clauses,
            size.literals
        );
        for (name, s) in cnf.families().filter(|(_, s)| s.clauses > 0) {
            println!(
                "  {name:>5}: {:>9} clauses {:>10} literals",
                s.clauses, s.literals
            );
        }
    }
}
