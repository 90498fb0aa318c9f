//! The notebook's MVP1: a 5×5 grid, a snake of length 3 (free start), no
//! apples, no growth, 9 moves (the notebook's T = 10 time points). Solved with
//! the `direct` encoding, checked, printed and animated to `plots/mvp1.gif`:
//! `cargo run --release --example mvp1`.

mod common;

use snakesat::instance::random::RandomSpec;

fn main() {
    let spec = RandomSpec {
        width: 5,
        height: 5,
        apples: 0,
        length: 3,
        visible: None,
        grow: false,
        horizon: Some(9),
        ..RandomSpec::default()
    };
    common::run("mvp1", &spec);
}
