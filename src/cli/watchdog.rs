//! The last-resort bound on `--timeout` of `solve`, `check` and `render`,
//! and of `sizes` while it reads the problem. The library stops its searches
//! at the deadline between solver calls and inside CaDiCaL, but building a
//! formula of tens of millions of clauses, loading it into the solver and
//! freeing it again are not interruptible, nor is writing a long plan's GIF.
//! The watchdog ends the process when reading the problem, the search, or writing the plan's
//! files (the GIF, the horizon chart's formulas), overruns the deadline by a
//! grace period: `solve`'s status `unknown` on stdout (as JSON with `--json`;
//! nothing when an output took stdout, nor for `check` and `render`, which
//! then have no verdict), one line on stderr naming what was under way,
//! exit 3, and every unfinished output file removed
//! ([`snakesat::output::abandon_and_exit`]); the numbered plan files of
//! `solve --satisficing --plan FILE` are finished and stay, and the line
//! names the last of them. It is disarmed when its guard is
//! dropped: while the proof of `--proof` (which has a limit of its own) is
//! checked, and once the files are in place.

use crate::cli::Exit;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Disarms the watchdog when dropped.
pub struct Armed {
    watch: Option<Watch>,
    deadline: Option<Instant>,
}

/// What an armed watchdog shares with its thread.
struct Watch {
    done: Arc<AtomicBool>,
    doing: Arc<Mutex<&'static str>>,
}

impl Armed {
    /// When the bounded work should end (none: no time limit).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Names the work under way, for the `error:` line if the watchdog ends
    /// the run during it (e.g. `"writing the GIF"`).
    pub fn doing(&self, what: &'static str) {
        if let Some(watch) = &self.watch {
            *watch.doing.lock().unwrap_or_else(PoisonError::into_inner) = what;
        }
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        if let Some(watch) = &self.watch {
            watch.done.store(true, Ordering::SeqCst);
        }
    }
}

/// The grace after the deadline: 1 s plus 5 % of the time limit, enough for
/// a search that stopped at the deadline to check and print its plan.
fn grace(timeout: Duration) -> Duration {
    Duration::from_secs(1) + timeout / 20
}

/// How long before the end of the grace the watchdog ends the run: the
/// time the exit may take (the grace is at least 1 s).
const EXIT_MARGIN: Duration = Duration::from_millis(300);

/// What the watchdog prints on stdout when it ends a run.
#[derive(Clone, Copy)]
pub enum Answer {
    /// `solve`'s status `unknown`, as JSON when `true`.
    Unknown { json: bool },
    /// Nothing: the command has no verdict to give (`check`, `render`).
    Nothing,
}

/// Starts the watchdog for a command's whole run: its deadline is `timeout`
/// from now (none: no watchdog), kept in the guard ([`Armed::deadline`]) for
/// the work it bounds. See [`arm`].
#[must_use = "the watchdog is disarmed when the guard is dropped"]
pub fn start(timeout: Option<Duration>, answer: Answer) -> Armed {
    arm(timeout.map(|t| Instant::now() + t), timeout, answer)
}

/// Starts the watchdog for work that should end by `deadline`, set by a
/// limit of `timeout` (none: no watchdog); it ends the run at `deadline`
/// plus the grace, printing `answer`, unless the returned guard is dropped
/// first. The work is first named as searching (see [`Armed::doing`]). It
/// fires [`EXIT_MARGIN`] before that bound, so that the exit itself (removing the
/// outputs, freeing a large formula) ends within it: fired at the bound,
/// runs ended 40–160 ms past it.
#[must_use = "the watchdog is disarmed when the guard is dropped"]
pub fn arm(deadline: Option<Instant>, timeout: Option<Duration>, answer: Answer) -> Armed {
    let (Some(deadline), Some(timeout)) = (deadline, timeout) else {
        return Armed {
            watch: None,
            deadline,
        };
    };
    let done = Arc::new(AtomicBool::new(false));
    let doing = Arc::new(Mutex::new(
        "searching (building, loading or solving a formula)",
    ));
    let (seen, what) = (Arc::clone(&done), Arc::clone(&doing));
    let limit = deadline + grace(timeout) - EXIT_MARGIN;
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
            let line = match answer {
                Answer::Unknown { json: true } => {
                    "{\"status\":\"unknown\",\"reason\":\"timeout\"}\n"
                }
                Answer::Unknown { json: false } => "unknown: the time limit was reached\n",
                Answer::Nothing => "",
            };
            if !line.is_empty() && !snakesat::output::stdout_taken() {
                // As print_report: a closed pipe must not stop the exit below.
                let _ = std::io::Write::write_all(&mut std::io::stdout(), line.as_bytes());
            }
            let what = *what.lock().unwrap_or_else(PoisonError::into_inner);
            // A numbered plan file of `solve --satisficing --plan` stays:
            // say where the best plan found before the limit is.
            let kept = super::anytime_plans::last_landed()
                .map(|file| format!("; the best plan found is in {}", file.display()))
                .unwrap_or_default();
            stderr_line!(
                "error: --timeout {} s reached while {what}{kept}",
                timeout.as_secs_f64()
            );
            snakesat::output::abandon_and_exit(Exit::Unknown.code().into())
        });
    // Without a thread the library's own checks still bound the search.
    drop(spawned);
    Armed {
        watch: Some(Watch { done, doing }),
        deadline: Some(deadline),
    }
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
