//! The README's "As a library" example (a test checks that the README shows
//! this file's code): plans a 5x5 board with one apple and prints the moves.

use snakesat::instance::json::from_json;
use snakesat::report::moves_string;
use snakesat::{Planner, Verdict, encode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let json = r#"{"width": 5, "height": 5, "snake": [[0, 0], [1, 0]], "apples": [[4, 4]]}"#;
    let instance = from_json(json)?;
    let direct = encode::by_name("direct")?;
    // An invalid instance, or a fixed horizon (the instance's `horizon`)
    // whose formula is past the size limits, is a typed error (PlanError);
    // no answer in time, or a search whose next formula is past the limits,
    // is `Verdict::Unknown`, with its reason.
    let outcome = Planner::new(&*direct).plan(&instance)?;
    // A plan has already been accepted by the simulator.
    if let Verdict::Plan(plan) = &outcome.verdict {
        println!("{} moves: {}", plan.horizon, moves_string(&plan.path));
    }
    Ok(())
}
