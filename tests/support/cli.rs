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

/// Runs `snakesat ARGS...` as [`snakesat`] does, with its address space
/// limited to `kb` kilobytes (`ulimit -v`): a run that needs more is cut
/// short (an allocation failure aborts it, exit code -1 here).
pub fn snakesat_within_memory(args: &[&str], kb: u64) -> Run {
    let out = Command::new("sh")
        .args(["-c", &format!("ulimit -v {kb} && exec \"$@\""), "sh"])
        .arg(env!("CARGO_BIN_EXE_snakesat"))
        .args(args)
        .output()
        .expect("sh runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs `snakesat ARGS...` as [`snakesat`] does, but kills it and fails the
/// test once it has run for `limit`: for runs that must end quickly (a
/// refusal up front, a time limit kept) and would otherwise hang the test.
pub fn snakesat_within(args: &[&str], limit: std::time::Duration) -> Run {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped")));
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("snakesat {args:?} still ran after {limit:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Run {
        code: status.code().expect("exit code"),
        stdout: stdout.join().expect("stdout read"),
        stderr: stderr.join().expect("stderr read"),
    }
}

/// Runs `snakesat export ARGS -o CNF` and asserts that it wrote the formula.
pub fn export_cnf(args: &[&str], cnf: &std::path::Path) {
    let cnf = cnf.to_str().expect("temp paths are UTF-8");
    let run = snakesat(&[&["export"], args, &["-o", cnf]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
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

/// True when the DRAT checker `rate` is installed; in CI (`CI` set) its
/// absence fails the test.
pub fn have_checker() -> bool {
    if Command::new("rate").arg("--version").output().is_ok() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "the DRAT checker rate is required in CI (.ci/run installs it)"
    );
    eprintln!("rate not installed: skipping proof checks (cargo install rate --locked)");
    false
}
