//! Fuzzes the PDDL problem reader: any input gives a value or an error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = snakesat::pddl::from_pddl(text);
    }
});
