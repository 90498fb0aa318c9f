//! Running the `snakesat` binary from integration tests.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `snakesat ARGS...` and captures its exit code and output.
pub fn snakesat(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(args)
        .output()
        .expect("binary runs");
    Run {
        code: out.status.code().expect("exit code"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh, empty temporary folder for one test of one test binary.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "snakesat-{}-{name}-{}",
        env!("CARGO_CRATE_NAME"),
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asserts exit code 2, a single `error:` line on stderr containing `needle`, nothing on stdout.
pub fn assert_bad_input(run: &Run, needle: &str) {
    assert_eq!(run.code, 2, "stderr: {}", run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "one line expected: {:?}", run.stderr);
    assert!(lines[0].starts_with("error: "), "{:?}", lines[0]);
    assert!(lines[0].contains(needle), "{:?} lacks {needle:?}", lines[0]);
    assert!(!run.stderr.contains("panicked"));
    assert!(run.stdout.is_empty(), "stdout: {}", run.stdout);
}

/// Waits, polling, until `ready` holds while `child` runs (at most `limit`;
/// `what` names the awaited event in the failure), then sends `signal` (a
/// `kill` option such as `-INT`) and returns the exit status.
pub fn interrupt_when(
    child: &mut std::process::Child,
    ready: impl Fn() -> bool,
    what: &str,
    limit: std::time::Duration,
    signal: &str,
) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    while !ready() {
        assert!(start.elapsed() < limit, "{what} did not happen");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run ended before {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let sent = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    child.wait().unwrap()
}
