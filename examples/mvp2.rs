//! The notebook's MVP2: a 10×10 grid, a snake of length 3 (free start) that
//! grows, 9 apples all visible at once (seed 1), the least horizon. Solved
//! with the `direct` encoding, checked, printed and animated to
//! `plots/mvp2.gif`: `cargo run --release --example mvp2`.

mod common;

fn main() {
    common::run("mvp2");
}
