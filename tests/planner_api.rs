//! The planner as a library user drives it from other threads: moved into a
//! worker thread, cancelled from another one, held to a number of threads.

use snakesat::encode::{self, Encoding};
use snakesat::instance::json::from_json;
use snakesat::planner::{Outcome, PlanError, Planner};

/// A 5x5 board, one apple in the far corner: 8 moves.
const CORNER: &str = r#"{"width": 5, "height": 5, "snake": [[0, 0], [1, 0]], "apples": [[4, 4]]}"#;

/// Compiles only while the types are `Send` (and `Sync` where a reference
/// is shared): a plan can be run on another thread the obvious way.
#[test]
fn encodings_and_planners_can_move_between_threads() {
    fn send<T: Send>() {}
    fn send_sync<T: Send + Sync>() {}
    send_sync::<Box<dyn Encoding>>();
    send_sync::<std::sync::Arc<dyn Encoding>>();
    send::<Planner<'static>>();
    send_sync::<Outcome>();
    send_sync::<PlanError>();
}

#[test]
fn a_plan_runs_on_a_spawned_thread() {
    let instance = from_json(CORNER).unwrap();
    let direct = encode::by_name("direct").unwrap();
    let worker =
        std::thread::spawn(move || Planner::new(&*direct).plan(&instance).map(|o| o.horizon()));
    assert_eq!(worker.join().unwrap(), Ok(8));
}
