//! The settings of the README's three MVP animations (`plots/mvpN.gif`),
//! shared by the `mvp1`, `mvp2` and `mvp3` examples and by `tests/gif.rs`,
//! which checks that the committed GIFs are what they give today.

use snakesat::instance::random::RandomSpec;

/// The setting of the example `name` (`mvp1`, `mvp2` or `mvp3`).
pub fn mvp(name: &str) -> RandomSpec {
    match name {
        // The notebook's MVP1: no apples, no growth, 9 moves.
        "mvp1" => RandomSpec {
            width: 5,
            height: 5,
            apples: 0,
            length: 3,
            visible: None,
            grow: false,
            horizon: Some(9),
            ..RandomSpec::default()
        },
        // MVP2: 10×10 (the default), nine apples all visible, the least horizon.
        "mvp2" => RandomSpec {
            apples: 9,
            length: 3,
            visible: None,
            seed: 1,
            ..RandomSpec::default()
        },
        // MVP3: nine apples one at a time on 10×10, the least horizon.
        "mvp3" => RandomSpec {
            width: 10,
            height: 10,
            apples: 9,
            length: 3,
            visible: Some(1),
            seed: 1,
            ..RandomSpec::default()
        },
        other => panic!("no MVP example named {other}"),
    }
}
