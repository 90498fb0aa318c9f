//! `cargo bench`: builder throughput (literals per second into memory),
//! DIMACS writing throughput (MB/s), end-to-end solve times, and the
//! move-level beam's speed (states ranked per second) on IPC problems.
//!
//! Each figure is the median of several runs; the machine is shared, so read
//! the numbers as indications, not limits (no test asserts them).

use std::time::{Duration, Instant};

use snakesat::cnf::dimacs;
use snakesat::encode::{self, Encoding};
use snakesat::instance::Instance;
use snakesat::instance::random::{RandomSpec, generate};
use snakesat::planner::{Method, Planner, Search};
use snakesat::solve::beam::beam_plan;

fn median(mut xs: Vec<Duration>) -> Duration {
    xs.sort();
    xs[xs.len() / 2]
}

fn timed<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(f());
        times.push(start.elapsed());
    }
    (median(times), last.expect("at least one run"))
}

fn mvp3() -> Instance {
    generate(&RandomSpec::default()).expect("MVP3 instance")
}

fn big() -> Instance {
    generate(&RandomSpec {
        width: 16,
        height: 16,
        apples: 20,
        ..RandomSpec::default()
    })
    .expect("16x16 instance")
}

fn builder_row(label: &str, instance: &Instance, encoding: &dyn Encoding, moves: usize) {
    let (t, cnf) = timed(21, || encoding.encode(instance, moves).expect("encodes"));
    let size = cnf.size();
    let (tw, bytes) = timed(5, || {
        let mut out = Vec::with_capacity(64 << 20);
        dimacs::write(&cnf, &[], &mut out).expect("writes");
        out.len()
    });
    println!(
        "| {label} | {} | {} | {} | {:.1} | {:.0} | {:.0} |",
        encoding.name(),
        size.clauses,
        size.literals,
        t.as_secs_f64() * 1e3,
        size.literals as f64 / t.as_secs_f64() / 1e6,
        bytes as f64 / tw.as_secs_f64() / 1e6,
    );
}

fn solve_row(label: &str, instance: &Instance, encoding: &dyn Encoding, moves: Option<usize>) {
    let (t, outcome) = timed(3, || {
        let search = match moves {
            Some(m) => Search::FixedHorizon(m),
            None => Search::Optimal,
        };
        Planner::new(encoding)
            .search(search)
            .method(Method::Fresh)
            .max_horizon(400)
            .plan(instance)
            .expect("solves")
    });
    let last = outcome.attempts.last().expect("an attempt");
    println!(
        "| {label} | {} | {} | {:?} | {} | {:.3} |",
        encoding.name(),
        last.horizon,
        outcome.status(),
        last.stats.clauses,
        t.as_secs_f64()
    );
}

/// One beam round at `width` on an IPC satisficing problem: its time and
/// plan length (the beam ranks up to four children per kept state per move).
fn beam_row(problem: usize, width: usize) {
    let path = format!(
        "{}/benchmarks/ipc2018-snake/satisficing/instance-{problem}.pddl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).expect("the IPC problem file");
    let instance = snakesat::pddl::from_pddl(&text).expect("an IPC problem");
    let (t, plan) = timed(3, || beam_plan(&instance, width, 4, None));
    let moves = plan.map_or(0, |p| p.len() - 1);
    println!(
        "| satisficing {problem} | {}x{} | {width} | {moves} | {:.3} |",
        instance.width,
        instance.height,
        t.as_secs_f64()
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `-- beam` runs only the beam section.
    if std::env::args().any(|a| a == "beam") {
        beam_table();
        return;
    }
    let direct = encode::by_name("direct").unwrap();
    let unpruned = encode::by_name("direct,prune=off").unwrap();
    let pairwise = encode::by_name("direct,amo=pairwise,prune=off").unwrap();
    println!("## Builder and DIMACS throughput (medians of 21 builds and 5 writes)\n");
    println!("| setting | encoding | clauses | literals | build ms | M literals/s | DIMACS MB/s |");
    println!("|---|---|---|---|---|---|---|");
    builder_row("MVP3 10x10 T=69", &mvp3(), &*unpruned, 69);
    builder_row("MVP3 10x10 T=69", &mvp3(), &*pairwise, 69);
    builder_row("16x16 T=120 20 apples", &big(), &*unpruned, 120);
    builder_row("16x16 T=120 20 apples", &big(), &*pairwise, 120);
    for name in ["notebook-ordered", "notebook-combinations"] {
        if let Ok(nb) = encode::by_name(name) {
            let spec = if name == "notebook-combinations" {
                RandomSpec {
                    visible: None,
                    ..RandomSpec::default()
                }
            } else {
                RandomSpec::default()
            };
            let moves = if name == "notebook-combinations" {
                34
            } else {
                69
            };
            let inst = generate(&spec).unwrap();
            if nb.encode(&inst, moves).is_ok() {
                builder_row("notebook setting", &inst, &*nb, moves);
            }
        }
    }
    println!("\n## End to end (encode + CaDiCaL, median of 3)\n");
    println!("| setting | encoding | moves | status | clauses | seconds |");
    println!("|---|---|---|---|---|---|");
    solve_row("MVP3 T=69", &mvp3(), &*direct, Some(69));
    solve_row("MVP3 least T", &mvp3(), &*direct, None);
    solve_row("16x16 T=120 20 apples", &big(), &*direct, Some(120));
    solve_row("16x16 T=120 20 apples", &big(), &*unpruned, Some(120));
    solve_row("16x16 20 apples least T", &big(), &*direct, None);
    beam_table();
}

fn beam_table() {
    println!("\n## Beam over moves (one round, apple weight 4, median of 3)\n");
    println!("| problem | grid | width | plan moves | seconds |");
    println!("|---|---|---|---|---|");
    for problem in [8, 13, 19, 20] {
        beam_row(problem, 1_000);
    }
    beam_row(20, 4_000);
}
