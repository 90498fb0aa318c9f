//! `cargo bench --bench render`: time and size of a long GIF animation, a
//! 16×16 grid and a plan of T = 300 moves (a snake of length 3 going round a
//! Hamiltonian cycle), with the default options and a few variants.
//!
//! Each time is the median of several runs; the machine is shared, so read
//! the numbers as indications (the test `long_animation_stays_small` in
//! tests/gif.rs checks the size bound, nothing checks the time).

#[path = "../tests/support/cycle.rs"]
mod cycle;
use cycle::cycle16;

use std::time::{Duration, Instant};

use snakesat::instance::{Instance, Pos, Start, TailRule};
use snakesat::render::{GifOptions, write_gif};
use snakesat::sim::simulate;

const RUNS: usize = 9;

fn main() {
    let cycle = cycle16();
    let instance = Instance {
        width: 16,
        height: 16,
        walls: vec![],
        start: Start::Body(vec![cycle[2], cycle[1], cycle[0]]),
        apples: vec![],
        visible: 0,
        grow: true,
        tail: TailRule::Follow,
        horizon: None,
    };
    let moves = 300;
    let path: Vec<Pos> = (0..=moves).map(|k| cycle[(k + 2) % cycle.len()]).collect();
    simulate(&instance, &path).expect("the cycle is a legal plan");

    println!("| animation | options | frames | ms (median of {RUNS}) | bytes |");
    println!("|---|---|---|---|---|");
    let fixed = |cell: u16, skip: usize| GifOptions {
        cell: Some(cell),
        skip: Some(skip),
        ..GifOptions::default()
    };
    let variants = [
        (
            "defaults (cell 25, skip 2, both automatic)",
            GifOptions::default(),
        ),
        ("cell 24, skip 1", fixed(24, 1)),
        ("cell 12, skip 1", fixed(12, 1)),
        ("cell 48, skip 1", fixed(48, 1)),
        ("cell 24, skip 5", fixed(24, 5)),
    ];
    for (label, options) in variants {
        let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
        let (mut size, mut frames) = (0, 0);
        for _ in 0..RUNS {
            let mut bytes = Vec::with_capacity(1 << 20);
            let start = Instant::now();
            frames = write_gif(&instance, &path, &options, &mut bytes)
                .expect("renders")
                .frames;
            times.push(start.elapsed());
            size = bytes.len();
        }
        times.sort();
        println!(
            "| 16x16 T={moves} | {label} | {frames} | {:.1} | {size} |",
            times[RUNS / 2].as_secs_f64() * 1e3
        );
    }
}
