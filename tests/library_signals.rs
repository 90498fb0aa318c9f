//! A program using the library keeps its own handling of signals: planning
//! with certificates ([`Planner::certify_into`]) and certifying
//! ([`snakesat::proof::certify_search`]) install no handler and leave no file
//! registered for one to remove. (They started the binary's cleanup, a
//! process-wide SIGINT/SIGTERM/SIGHUP handler that, even hours after they
//! returned, deleted the certificates and killed the host: review 13b, 1.)
//! In a test binary of its own, so that nothing else runs in its process.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use snakesat::encode::by_name;
use snakesat::instance::json::from_json;
use snakesat::planner::{Method, Planner};

/// The action of `signal` now (as the process started it, `SIG_DFL` or, in
/// a job started in the background or under `nohup`, `SIG_IGN`, until
/// something installs one).
fn action(signal: i32) -> libc::sighandler_t {
    // SAFETY: only reads the current action into a zeroed struct.
    unsafe {
        let mut current: libc::sigaction = std::mem::zeroed();
        assert_eq!(libc::sigaction(signal, std::ptr::null(), &mut current), 0);
        current.sa_sigaction
    }
}

/// The names of this process's threads.
fn threads() -> Vec<String> {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok())
        .map(|name| name.trim().to_string())
        .collect()
}

/// The certificate files in `dir`, sorted (none when it is gone).
fn certificates(dir: &Path) -> Vec<String> {
    let Ok(files) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = files
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("horizon-"))
        .collect();
    names.sort();
    names
}

#[test]
fn certifying_leaves_the_hosts_signals_and_files_alone() {
    // The host's own graceful shutdown on SIGTERM.
    let stop = Arc::new(AtomicBool::new(false));
    signal_hook::flag::register(SIGTERM, Arc::clone(&stop)).unwrap();
    let host = action(SIGTERM);
    // Whatever the process started with: the library must leave it.
    let (int, hup) = (action(SIGINT), action(SIGHUP));

    // Lower bound 4, least plan 6 moves: horizons 4 and 5 refuted.
    let instance = from_json(
        r#"{"width": 3, "height": 3, "snake": [[0, 0], [1, 0], [2, 0]],
            "apples": [[1, 1], [0, 0]], "visible": 1, "tail": "strict"}"#,
    )
    .unwrap();
    let direct = by_name("direct").unwrap();
    let dir = std::env::temp_dir().join(format!("snakesat-library-signals-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let outcome = Planner::new(&*direct)
        .method(Method::Fresh)
        .certify_into(Some(&dir))
        .plan(&instance)
        .unwrap();
    assert_eq!(outcome.plan().map(|p| p.horizon), Some(6));
    let written = certificates(&dir);
    assert_eq!(
        written,
        [
            "horizon-4.cnf",
            "horizon-4.drat",
            "horizon-5.cnf",
            "horizon-5.drat"
        ]
    );
    // The search has returned: its files are no longer unfinished, so what
    // removes unfinished files (the binary's error path) leaves them.
    snakesat::output::discard_unfinished();
    assert_eq!(certificates(&dir), written);

    let manifest =
        snakesat::proof::certify_search(&instance, &*direct, &outcome, &dir, None).unwrap();
    assert!(manifest.certified());
    // Horizon 3, below the lower bound, as well.
    let certified = certificates(&dir);
    assert_eq!(certified.len(), 6, "{certified:?}");

    assert_eq!(
        [action(SIGINT), action(SIGHUP), action(SIGTERM)],
        [int, hup, host]
    );
    assert!(
        !threads().iter().any(|t| t == "output-cleanup"),
        "{:?}",
        threads()
    );
    // SIGTERM reaches the host's handler and the process goes on, its
    // certificates in place (it died of the signal, deleting them).
    // SAFETY: raising a signal whose only action is the flag above.
    assert_eq!(unsafe { libc::raise(SIGTERM) }, 0);
    assert!(stop.load(Ordering::SeqCst));
    assert_eq!(certificates(&dir), certified);
    assert!(dir.join("manifest.json").is_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
