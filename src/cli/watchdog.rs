//! The last-resort bound on `solve --timeout`. The library stops its searches
//! at the deadline between solver calls and inside CaDiCaL, but building a
//! formula of tens of millions of clauses, loading it into the solver and
//! freeing it again are not interruptible. The watchdog ends the process when
//! the search overruns the deadline by a grace period (it is disarmed when the
//! search returns, so writing the plan's files is not cut short): status `unknown` on
//! stdout (as JSON with `--json`), one line on stderr, exit 3, and every
//! unfinished output file removed ([`snakesat::output::abandon_and_exit`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Disarms the watchdog when dropped.
pub struct Armed(Option<Arc<AtomicBool>>);

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(done) = &self.0 {
            done.store(true, Ordering::SeqCst);
        }
    }
}

/// The grace after the deadline: 1 s plus 5 % of the time limit, enough for
/// a search that stopped at the deadline to check and print its plan.
fn grace(timeout: Duration) -> Duration {
    Duration::from_secs(1) + timeout / 20
}

/// Starts the watchdog for a search limited to `timeout` from now; it is
/// disarmed when the returned guard is dropped.
#[must_use = "the watchdog is disarmed when the guard is dropped"]
pub fn arm(timeout: Option<Duration>, json: bool) -> Armed {
    let Some(timeout) = timeout else {
        return Armed(None);
    };
    let done = Arc::new(AtomicBool::new(false));
    let seen = Arc::clone(&done);
    let limit = Instant::now() + timeout + grace(timeout);
    let spawned = std::thread::Builder::new()
        .name("timeout-watchdog".into())
        .spawn(move || {
            while let Some(left) = limit.checked_duration_since(Instant::now()) {
                std::thread::sleep(left.min(Duration::from_millis(200)));
                if seen.load(Ordering::SeqCst) {
                    return;
                }
            }
            if seen.load(Ordering::SeqCst) {
                return;
            }
            if json {
                println!(r#"{{"status":"unknown","reason":"timeout"}}"#);
            } else {
                println!("unknown: the time limit was reached");
            }
            eprintln!(
                "error: --timeout {} s reached while building or loading the formula",
                timeout.as_secs_f64()
            );
            snakesat::output::abandon_and_exit(3)
        });
    // Without a thread the library's own checks still bound the search.
    drop(spawned);
    Armed(Some(done))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grace_grows_with_the_limit() {
        assert_eq!(grace(Duration::from_secs(0)), Duration::from_secs(1));
        assert_eq!(grace(Duration::from_secs(60)), Duration::from_secs(4));
    }
}
