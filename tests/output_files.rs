//! Output files from the command line: a refused output path (exit 2) leaves
//! nothing behind and prints nothing on stdout; devices, FIFOs and planted
//! links are never written through; a signal during a long export leaves no
//! temporary; `export -o -` writes the CNF to stdout.

#[path = "support/cli.rs"]
mod support;
use support::{Run, assert_bad_input, interrupt_when, snakesat, temp_dir};

use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// A 3×2 board, snake at (1,0)→(0,0), an apple at (2,0) and one spawning at (1,1).
const PROBLEM: &str = "(define (problem snake-tiny)
  (:domain snake)
  (:objects pos0-0 pos1-0 pos2-0 pos0-1 pos1-1 pos2-1)
  (:init
    (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0)
    (ISADJACENT pos1-0 pos2-0) (ISADJACENT pos2-0 pos1-0)
    (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
    (ISADJACENT pos1-1 pos2-1) (ISADJACENT pos2-1 pos1-1)
    (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0)
    (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
    (ISADJACENT pos2-0 pos2-1) (ISADJACENT pos2-1 pos2-0)
    (headsnake pos1-0) (tailsnake pos0-0) (nextsnake pos1-0 pos0-0)
    (blocked pos1-0) (blocked pos0-0)
    (ispoint pos2-0)
    (spawn pos1-1) (NEXTSPAWN pos1-1 dummypoint))
  (:goal (and (not (ispoint pos2-0)) (not (ispoint pos1-1)))))
";

/// An export that takes a second or two and writes about 100 MB (long
/// enough to be interrupted while writing).
const LONG_EXPORT: [&str; 7] = ["--size", "40", "--apples", "5", "--horizon", "600", "-o"];

fn s(path: &Path) -> &str {
    path.to_str().expect("temp paths are UTF-8")
}

/// The names in `dir`, hidden ones included, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("a readable folder")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

/// A folder holding only `p.pddl`, an unwritable target `blocked` (a folder)
/// and nothing else.
fn workspace(name: &str) -> std::path::PathBuf {
    let dir = temp_dir(name);
    std::fs::write(dir.join("p.pddl"), PROBLEM).unwrap();
    std::fs::create_dir(dir.join("blocked")).unwrap();
    dir
}

/// Exit 2, one `error:` line naming `needle`, no stdout, the folder unchanged.
fn refused(run: &Run, needle: &str, dir: &Path) {
    assert_bad_input(run, needle);
    assert_eq!(listing(dir), ["blocked", "p.pddl"]);
    assert!(listing(&dir.join("blocked")).is_empty());
}

#[test]
fn the_tiny_problem_lands_plan_and_gif_and_no_temporary() {
    let dir = workspace("lands");
    let run = snakesat(&[
        "solve",
        s(&dir.join("p.pddl")),
        "--plan",
        s(&dir.join("out.plan")),
        "--gif",
        s(&dir.join("g.gif")),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.starts_with("plan: 3 moves"), "{}", run.stdout);
    assert_eq!(listing(&dir), ["blocked", "g.gif", "out.plan", "p.pddl"]);
    let plan = std::fs::read_to_string(dir.join("out.plan")).unwrap();
    assert!(plan.contains("; cost = 3"), "{plan}");
}

#[test]
fn a_refused_output_leaves_every_other_output_unwritten() {
    let dir = workspace("refused");
    let pddl = dir.join("p.pddl");
    let plan = dir.join("out.plan");
    let gif = dir.join("g.gif");
    let blocked = dir.join("blocked");
    let missing = dir.join("missing-dir").join("p.svg");
    // The GIF path is a folder: the plan is not written either.
    let run = snakesat(&["solve", s(&pddl), "--plan", s(&plan), "--gif", s(&blocked)]);
    refused(&run, "a directory, not a regular file", &dir);
    // A chart in a missing folder: no GIF.
    let run = snakesat(&[
        "solve",
        s(&pddl),
        "--gif",
        s(&gif),
        "--plot-timeline",
        s(&missing),
    ]);
    refused(&run, "no directory", &dir);
    // A chart whose folder is a file.
    let run = snakesat(&[
        "solve",
        s(&pddl),
        "--gif",
        s(&gif),
        "--plot-timeline",
        s(&pddl.join("t.svg")),
    ]);
    refused(&run, "is not a directory", &dir);
    // Two outputs naming one file.
    let chart = dir.join("c.svg");
    let run = snakesat(&[
        "solve",
        s(&pddl),
        "--plot-timeline",
        s(&chart),
        "--plot-horizon",
        s(&dir.join(".").join("c.svg")),
    ]);
    refused(&run, "named by two outputs", &dir);
    // sizes and play refuse before printing.
    let run = snakesat(&["sizes", s(&pddl), "--plot-clauses", s(&missing)]);
    refused(&run, "no directory", &dir);
    let run = snakesat(&["play", "--size", "4", "--gif", s(&blocked)]);
    refused(&run, "a directory", &dir);
    // bench game: JSON fine, CSV refused: neither lands.
    let run = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "4",
        "--games",
        "1",
        "--json-out",
        s(&dir.join("g.json")),
        "--csv-out",
        s(&blocked),
    ]);
    refused(&run, "a directory", &dir);
}

/// Two outputs that are hard links to one file are one file: refused like two
/// spellings of one path, and the file is left as it was (they were both
/// written, the link split in two).
#[test]
fn two_outputs_hard_linked_to_one_file_are_refused() {
    let dir = workspace("hard-links");
    let first = dir.join("g.json");
    let second = dir.join("g.csv");
    std::fs::write(&first, "kept").unwrap();
    std::fs::hard_link(&first, &second).unwrap();
    let run = snakesat(&[
        "bench",
        "game",
        "--sizes",
        "2",
        "--games",
        "1",
        "--json-out",
        s(&first),
        "--csv-out",
        s(&second),
    ]);
    assert_bad_input(&run, "named by two outputs");
    let (gif, html) = (dir.join("g.gif"), dir.join("g.html"));
    std::fs::hard_link(&first, &gif).unwrap();
    std::fs::hard_link(&first, &html).unwrap();
    let run = snakesat(&["play", "--size", "4", "--gif", s(&gif), "--html", s(&html)]);
    assert_bad_input(&run, "named by two outputs");
    let ino = |p: &Path| std::fs::metadata(p).unwrap().ino();
    for linked in [&second, &gif, &html] {
        assert_eq!(std::fs::read_to_string(linked).unwrap(), "kept");
        assert_eq!(ino(&first), ino(linked), "the link is kept");
    }
    assert_eq!(
        listing(&dir),
        ["blocked", "g.csv", "g.gif", "g.html", "g.json", "p.pddl"]
    );
}

/// A standard output that cannot be written (a full disk) is exit 2, and the
/// files of the same run do not land: they did, the answer lost beside them.
#[test]
fn a_full_standard_output_lands_no_file() {
    let dir = workspace("full-stdout");
    let pddl = dir.join("p.pddl");
    let (gif, page, plan, chart) = (
        dir.join("g.gif"),
        dir.join("v.html"),
        dir.join("out.plan"),
        dir.join("c.svg"),
    );
    let csv = dir.join("t.csv");
    let runs: [Vec<&str>; 4] = [
        vec!["solve", s(&pddl), "--plan", s(&plan), "--gif", s(&gif)],
        vec!["play", "--size", "4", "--gif", s(&gif), "--html", s(&page)],
        vec!["sizes", s(&pddl), "--plot-clauses", s(&chart)],
        vec![
            "bench",
            "game",
            "--sizes",
            "4",
            "--games",
            "1",
            "--csv-out",
            s(&csv),
        ],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_snakesat"))
            .args(&args)
            .stdout(full)
            .output()
            .expect("binary runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.ends_with(
                "error: cannot write standard output: No space left on device (os error 28)\n"
            ),
            "{args:?}: {stderr}"
        );
        assert_eq!(listing(&dir), ["blocked", "p.pddl"], "{args:?}");
    }
}

/// A file in a folder that takes no new file (`/proc/version`: outputs are
/// written beside their target, then renamed) is refused naming that folder;
/// the error read "No such file or directory" for a file that exists.
#[test]
fn a_folder_that_takes_no_new_file_is_named() {
    if !Path::new("/proc/version").exists() {
        eprintln!("skipped: no /proc/version");
        return;
    }
    let run = snakesat(&["play", "--size", "4", "--gif", "/proc/version"]);
    assert_bad_input(
        &run,
        "cannot write /proc/version: cannot create a file in /proc: ",
    );
}

#[test]
fn export_never_writes_through_a_fifo() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("pipe.cnf");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let run = snakesat(&["export", "--horizon", "20", "-o", s(&fifo)]);
    assert_bad_input(&run, "a FIFO, not a regular file");
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "the FIFO was replaced");
    assert_eq!(listing(&dir), ["pipe.cnf"]);
    // A link to a device is refused as well (the device is only looked at).
    let link = dir.join("null.cnf");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    let run = snakesat(&["export", "--horizon", "20", "-o", s(&link)]);
    assert_bad_input(&run, "a symbolic link to a character device");
    assert!(
        std::fs::symlink_metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

#[test]
fn links_are_resolved_or_refused_never_followed_blindly() {
    let dir = temp_dir("links");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    // A link planted at the old predictable temporary name.
    std::os::unix::fs::symlink(&victim, dir.join("out.cnf.partial")).unwrap();
    let out = dir.join("out.cnf");
    let run = snakesat(&["export", "--horizon", "20", "-o", s(&out)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("c snakesat")
    );
    assert_eq!(listing(&dir), ["out.cnf", "out.cnf.partial", "victim.txt"]);
    // A link as the target: the file it points to is replaced, the link stays,
    // and the file keeps its permissions.
    let link = dir.join("link.cnf");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o640)).unwrap();
    let run = snakesat(&["export", "--horizon", "21", "-o", s(&link)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
    let text = std::fs::read_to_string(&victim).unwrap();
    assert!(text.contains("c horizon 21"), "{text}");
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
    // A link to nothing is refused.
    let dangling = dir.join("dangling.cnf");
    std::os::unix::fs::symlink(dir.join("nowhere"), &dangling).unwrap();
    let run = snakesat(&["export", "--horizon", "20", "-o", s(&dangling)]);
    assert_bad_input(&run, "a symbolic link to nothing");
    assert_eq!(
        listing(&dir),
        [
            "dangling.cnf",
            "link.cnf",
            "out.cnf",
            "out.cnf.partial",
            "victim.txt"
        ]
    );
}

/// Starts a long export into `dir`, sends `signal` once its temporary
/// holds data, and checks that it dies of the signal leaving nothing behind.
fn interrupted(dir: &Path, signal: &str, number: i32) {
    let target = dir.join("big.cnf");
    let mut args = LONG_EXPORT.to_vec();
    args.push(s(&target));
    let mut child = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .arg("export")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    // Wait until the CNF is being written into the temporary.
    let writing = || {
        listing(dir).iter().any(|n| {
            n.starts_with(".big.cnf.") && std::fs::metadata(dir.join(n)).is_ok_and(|m| m.len() > 0)
        })
    };
    let status = interrupt_when(
        &mut child,
        writing,
        "a temporary",
        Duration::from_secs(30),
        signal,
    );
    assert!(!status.success());
    assert_eq!(status.signal(), Some(number), "{status:?}");
    assert!(listing(dir).is_empty(), "left: {:?}", listing(dir));
}

#[test]
fn sigterm_during_an_export_leaves_no_temporary() {
    interrupted(&temp_dir("sigterm"), "-TERM", 15);
}

#[test]
fn sigint_during_an_export_leaves_no_temporary() {
    interrupted(&temp_dir("sigint"), "-INT", 2);
}

/// The other signals whose default ends a process are cleaned up too (a
/// SIGQUIT or SIGUSR1 left `.NAME.XXXXXX` temporaries and orphaned
/// `bench`'s children).
#[test]
fn sigusr1_during_an_export_leaves_no_temporary() {
    interrupted(&temp_dir("sigusr1"), "-USR1", 10);
}

#[test]
fn export_to_dash_writes_the_cnf_to_stdout() {
    let dir = temp_dir("stdout");
    let out = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .current_dir(&dir)
        .args([
            "export",
            "--size",
            "5",
            "--apples",
            "1",
            "--horizon",
            "6",
            "-o",
            "-",
        ])
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("c snakesat"), "{text}");
    let header = text
        .lines()
        .find(|l| l.starts_with("p cnf "))
        .expect("a header");
    let clauses: usize = header.split_whitespace().nth(3).unwrap().parse().unwrap();
    let lines = text
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'));
    assert_eq!(lines.count(), clauses);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.starts_with("wrote standard output:"), "{stderr}");
    assert!(listing(&dir).is_empty());
}

/// A GIF on standard output reports its size as a file's does (it said
/// none: standard output has no size to ask for).
#[test]
fn a_gif_to_standard_output_reports_its_bytes() {
    let out = Command::new(env!("CARGO_BIN_EXE_snakesat"))
        .args(["solve", "--size", "5", "--apples", "2", "--gif", "-"])
        .output()
        .expect("binary runs");
    assert!(out.status.success());
    assert!(out.stdout.starts_with(b"GIF89a"));
    let stderr = String::from_utf8(out.stderr).unwrap();
    let line = stderr
        .lines()
        .find(|l| l.starts_with("wrote standard output:"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        line.ends_with(&format!(", {} bytes", out.stdout.len())),
        "{line}"
    );
}

/// Charts are files: every `--plot-*` flag given `-` is refused (exit 2,
/// nothing written, nothing on stdout) with a line saying charts go to
/// .svg or .png files, where other outputs take `-` for standard output.
#[test]
fn a_chart_to_standard_output_is_refused() {
    let dir = temp_dir("chart-stdout");
    let board = ["--size", "4", "--apples", "1"];
    let games = ["--sizes", "4", "--games", "1"];
    let runs: [(&str, &[&str], &str); 5] = [
        ("solve", &board, "--plot-timeline"),
        ("solve", &board, "--plot-horizon"),
        ("sizes", &board, "--plot-clauses"),
        ("bench game", &games, "--plot-steps"),
        ("bench game", &games, "--plot-time"),
    ];
    for (command, flags, plot) in runs {
        let mut args: Vec<&str> = command.split(' ').collect();
        args.extend(flags);
        args.extend([plot, "-"]);
        let out = Command::new(env!("CARGO_BIN_EXE_snakesat"))
            .current_dir(&dir)
            .args(&args)
            .output()
            .expect("binary runs");
        let run = Run {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        };
        assert_bad_input(
            &run,
            "a chart cannot go to standard output (-): charts go to files ending in .svg or .png",
        );
        assert!(listing(&dir).is_empty(), "{args:?}");
    }
}

/// A failure to create or write an output names the target, never its
/// temporary (tempfile's errors end with `at path "/…/.NAME.XXXXXX"`): a
/// folder where no file can be created (/proc), and a write past the file
/// size limit (`ulimit -f`, SIGXFSZ ignored so the write fails with EFBIG).
#[test]
fn write_errors_name_the_target_not_the_temporary() {
    let run = snakesat(&[
        "export",
        "--size",
        "4",
        "--apples",
        "1",
        "--horizon",
        "5",
        "-o",
        "/proc/x.cnf",
    ]);
    assert_bad_input(&run, "cannot write /proc/x.cnf: ");
    assert!(
        !run.stderr.contains("at path") && !run.stderr.contains(".x.cnf."),
        "{}",
        run.stderr
    );
    let dir = temp_dir("efbig");
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 1; exec \"$S\" export --size 10 --apples 3 --horizon 30 -o big.cnf")
        .env("S", env!("CARGO_BIN_EXE_snakesat"))
        .current_dir(&dir)
        .output()
        .expect("sh runs");
    let run = Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    };
    assert_bad_input(&run, "cannot write big.cnf: ");
    assert!(
        !run.stderr.contains("at path") && !run.stderr.contains(".big.cnf."),
        "{}",
        run.stderr
    );
    assert!(listing(&dir).is_empty(), "{:?}", listing(&dir));
}

/// `bench` names a kept plan and a certificate folder after the problem's
/// folder and file: two problems that would share one are refused before
/// anything runs (the second used to overwrite the first).
#[test]
fn bench_refuses_two_problems_writing_the_same_plan_or_certificates() {
    let dir = temp_dir("bench-clash");
    for folder in ["x1/bd", "x2/bd", "x3/other"] {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(dir.join(folder).join("instance-1.pddl"), PROBLEM).unwrap();
    }
    let folder = |f: &str| dir.join(f).to_string_lossy().into_owned();
    let plans = dir.join("plans");
    let proofs = dir.join("proofs");
    // Same folder name: the same plan file `bd-instance-1.plan`.
    let run = snakesat(&[
        "bench",
        &folder("x1/bd"),
        &folder("x2/bd"),
        "--plans",
        s(&plans),
    ]);
    assert_bad_input(&run, "bd-instance-1.plan");
    // The same for certificates: the folder `bd-instance-1`.
    let run = snakesat(&[
        "bench",
        &folder("x1/bd"),
        &folder("x2/bd"),
        "--proof",
        s(&proofs),
    ]);
    assert_bad_input(&run, "bd-instance-1");
    assert!(!plans.exists() && !proofs.exists(), "nothing created");
    // Different names are fine.
    let run = snakesat(&[
        "bench",
        &folder("x1/bd"),
        &folder("x3/other"),
        "--plans",
        s(&plans),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        listing(&plans),
        ["bd-instance-1.plan", "other-instance-1.plan"]
    );
    let run = snakesat(&[
        "bench",
        &folder("x1/bd"),
        &folder("x3/other"),
        "--proof",
        s(&proofs),
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(listing(&proofs), ["bd-instance-1", "other-instance-1"]);
}

/// `bench --plans DIR` refuses a DIR that already holds one of the plan
/// files this run would write (before, it replaced the file, and a signal
/// then removed it): nothing runs, the file keeps its content and no other
/// output (a `--proof` folder) is created. Other files are no obstacle and
/// stay; a link by a plan's name, even to nothing, is refused as well.
#[test]
fn bench_refuses_a_plans_folder_holding_an_earlier_plan() {
    let dir = temp_dir("bench-earlier-plan");
    let problems = dir.join("bd");
    std::fs::create_dir(&problems).unwrap();
    for n in [1, 2] {
        std::fs::write(problems.join(format!("instance-{n}.pddl")), PROBLEM).unwrap();
    }
    let plans = dir.join("plans");
    std::fs::create_dir(&plans).unwrap();
    let earlier = plans.join("bd-instance-2.plan");
    std::fs::write(&earlier, "OLD\n").unwrap();
    std::fs::write(plans.join("notes.txt"), "keep\n").unwrap();
    let proofs = dir.join("proofs");
    let bench = || {
        snakesat(&[
            "bench",
            s(&problems),
            "--plans",
            s(&plans),
            "--proof",
            s(&proofs),
        ])
    };
    assert_bad_input(&bench(), &format!("({})", earlier.display()));
    assert_eq!(std::fs::read_to_string(&earlier).unwrap(), "OLD\n");
    assert_eq!(listing(&plans), ["bd-instance-2.plan", "notes.txt"]);
    assert!(!proofs.exists(), "nothing created");
    std::fs::remove_file(&earlier).unwrap();
    std::os::unix::fs::symlink("nowhere", &earlier).unwrap();
    assert_bad_input(&bench(), "bd-instance-2.plan");
    std::fs::remove_file(&earlier).unwrap();
    // Without it the run goes ahead, beside the other file.
    let run = bench();
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        listing(&plans),
        ["bd-instance-1.plan", "bd-instance-2.plan", "notes.txt"]
    );
    assert_eq!(
        std::fs::read_to_string(plans.join("notes.txt")).unwrap(),
        "keep\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_refused_run_removes_the_proof_folders_it_made_parents_included() {
    let dir = workspace("proof-parents");
    let proof = dir.join("a/b/c");
    let gif = dir.join("no-such-folder/x.gif");
    let run = snakesat(&[
        "solve",
        s(&dir.join("p.pddl")),
        "--proof",
        s(&proof),
        "--gif",
        s(&gif),
    ]);
    // `a` and `a/b` were left behind, empty, before.
    refused(&run, "no-such-folder", &dir);
    // A run that succeeds keeps them all.
    let run = snakesat(&["solve", s(&dir.join("p.pddl")), "--proof", s(&proof), "-q"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(proof.join("manifest.json").is_file());
}

/// `bench --plans DIR --proof OUT` where no problem gets a plan or a
/// certificate (every problem malformed): the folders the run created are
/// removed again, as `solve --proof` removes its own, while folders that
/// existed before stay.
#[test]
fn bench_removes_the_output_folders_it_created_when_nothing_went_into_them() {
    let dir = temp_dir("bench-empty-outputs");
    let problems = dir.join("bad");
    std::fs::create_dir(&problems).unwrap();
    std::fs::write(problems.join("instance-1.pddl"), "(define (problem").unwrap();
    let plans = dir.join("new").join("plans");
    let proofs = dir.join("proofs");
    let bench = || {
        snakesat(&[
            "bench",
            s(&problems),
            "--plans",
            s(&plans),
            "--proof",
            s(&proofs),
        ])
    };
    let run = bench();
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("instance-1"), "{}", run.stderr);
    assert!(
        !dir.join("new").exists(),
        "the plans folder and its parent removed"
    );
    assert!(!proofs.exists(), "the certificate folder removed");
    // Folders that were there before the run are not its to remove.
    std::fs::create_dir_all(&plans).unwrap();
    std::fs::create_dir(&proofs).unwrap();
    let run = bench();
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(plans.is_dir() && proofs.is_dir(), "existing folders kept");
    assert!(listing(&plans).is_empty() && listing(&proofs).is_empty());
}
