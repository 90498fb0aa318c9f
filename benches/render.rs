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
    let variants = [
        ("defaults (cell 24)", GifOptions::default()),
        (
            "cell 12",
            GifOptions {
                cell: 12,
                ..GifOptions::default()
            },
        ),
        (
            "cell 48",
            GifOptions {
                cell: 48,
                ..GifOptions::default()
            },
        ),
        (
            "skip 5",
            GifOptions {
                skip: 5,
                ..GifOptions::default()
            },
        ),
    ];
    for (label, options) in variants {
        let mut times: Vec<Duration> = Vec::with_capacity(RUNS);
        let mut size = 0;
        for _ in 0..RUNS {
            let mut bytes = Vec::with_capacity(1 << 20);
            let start = Instant::now();
            write_gif(&instance, &path, &options, &mut bytes).expect("renders");
            times.push(start.elapsed());
            size = bytes.len();
        }
        times.sort();
        let frames = snakesat::render::gif::frame_times(moves, options.skip).len();
        println!(
            "| 16x16 T={moves} | {label} | {frames} | {:.1} | {size} |",
            times[RUNS / 2].as_secs_f64() * 1e3
        );
    }
}
