//! Fuzzes the solver-model reader: any input gives a value or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = snakesat::cnf::dimacs::parse_model(text, 64);
    }
});
