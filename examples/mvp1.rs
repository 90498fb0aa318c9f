//! The notebook's MVP1: a 5×5 grid, a snake of length 3 (free start), no
//! apples, no growth, 9 moves (the notebook's T = 10 time points). Solved with
//! the `direct` encoding, checked, printed and animated to `plots/mvp1.gif`:
//! `cargo run --release --example mvp1`.

mod common;

fn main() {
    common::run("mvp1");
}
