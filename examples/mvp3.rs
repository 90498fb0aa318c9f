//! The notebook's MVP3: a 10×10 grid, a snake of length 3 (free start) that
//! grows, 9 ordered apples (one visible at a time, seed 1), the least
//! horizon. Solved with the `direct` encoding, checked, printed and animated
//! to `plots/mvp3.gif`: `cargo run --release --example mvp3`.

mod common;

fn main() {
    common::run("mvp3");
}
