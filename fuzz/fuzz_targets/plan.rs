//! Fuzzes the IPC plan reader and the domain-level plan checker: any input
//! gives a plan verdict or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snakesat::pddl::{self, validate};

/// A 3x2 problem with a two-cell snake, so every action kind can apply.
const PROBLEM: &str = include_str!("../../tests/data/tiny-3x2.pddl");

fuzz_target!(|data: &[u8]| {
    let pddl::Problem { instance, objects } =
        pddl::read_problem(PROBLEM).expect("the sample problem is valid");
    if let Ok(text) = std::str::from_utf8(data)
        && let Ok(actions) = validate::read_plan(text, &objects)
    {
        let _ = validate::validate(&instance, &objects, &actions);
    }
});
