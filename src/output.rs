//! Output files: every file the program writes goes through this module, so
//! that a command either lands all its files whole or leaves nothing behind.
//!
//! It is public because the `snakesat` binary, a crate of its own, is built
//! on it, and because the library's own writers use it (the certificates of
//! [`crate::proof`] and of [`crate::planner::Planner::certify_into`]). A
//! program using the library needs none of it to plan; it may use
//! [`claim_one`] and [`commit`] to land a file whole (as examples/ do with
//! their GIFs).
//!
//! A command first [`claim`]s all its output paths at once, before any long
//! work or printing. Claiming validates each path (its folder exists; the
//! target is absent or a regular file; no two outputs name the same file)
//! and creates each temporary file exclusively (`O_EXCL`, random name
//! `.NAME.XXXXXX`) beside its target, so an existing file or symbolic link
//! is never followed and an unwritable folder is found at once. The command
//! then writes into the [`Output`]s and finally [`commit`]s them: each is
//! flushed, then all are renamed over their targets. Until then the targets
//! are untouched; an error or an early return drops the outputs, which
//! removes their temporaries.
//!
//! A target that is a symbolic link is resolved: the regular file it points
//! to is replaced (the link stays); a link to nothing, or to anything but a
//! regular file, is refused. Devices, FIFOs, sockets and folders are refused.
//!
//! In a process that called [`clean_up_on_signals`] (the `snakesat` binary
//! does, first thing; nothing in the library does, so a program using it
//! keeps its own handling of signals), SIGINT, SIGTERM, SIGHUP and the
//! other [`CLEANUP_SIGNALS`] remove the live temporaries and the process
//! dies of the signal as it would have without them (but for a SIGINT that
//! [`interrupt_raises`] gave to a search, which stops it instead).
//!
//! Files that cannot go through a temporary (the certificates of `solve
//! --proof`, which CaDiCaL writes by their path, and their folder; the
//! family folder of `merge`, too many files to hold open at once) are
//! created with [`create_unfinished`] instead. In such a process they are
//! registered as unfinished: the signals and [`abandon_and_exit`] remove
//! them as well, until [`settle`] keeps them once the result they belong to
//! is complete; an error removes them with [`discard_unfinished`]. (Without
//! [`clean_up_on_signals`] nothing is registered as unfinished: a library
//! call leaves no file of its own for these to remove later.) A command that
//! lands many files one at a time (the family of `generate`) commits each
//! with [`commit_unfinished`]: it lands whole, but unfinished in the same way.
//!
//! A command whose child processes write outputs of their own (the `solve`
//! children of `bench`) spawns them with [`spawn_watched`]: a signal is
//! passed on to every running one, which removes its own unfinished files,
//! and awaited before this process removes its own (where the files of
//! finished children it took over with [`adopt_unfinished`] are).
//!
//! A file that is an input of the command (read through [`note_input`]) is
//! never an output too: claiming it, or reading a claimed output as an input,
//! is refused, so a typo such as `solve p.pddl --plan p.pddl` cannot replace
//! the problem with its plan. Files are compared by device and inode, so
//! another spelling of the path or a link to it is caught as well.
//!
//! The path `-` names standard output ([`Output::stdout`], e.g. `export -o -`,
//! `bench --csv-out -`): it is written as it comes and cannot be undone, at
//! most one output of a command can be `-`, and the command then prints
//! nothing else on standard output ([`stdout_taken`]).

use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Stdout, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError};

use signal_hook::consts::{SIGALRM, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2};
use signal_hook::iterator::Signals;
use tempfile::TempPath;
use thiserror::Error;

/// Why an output file cannot be written.
#[derive(Debug, Error)]
#[error("cannot write {path}: {reason}")]
pub struct OutputError {
    /// The path as the user gave it (`standard output` for `-`).
    pub path: String,
    /// What is wrong with it.
    pub reason: String,
}

impl OutputError {
    fn new(path: &Path, reason: impl std::fmt::Display) -> Self {
        let path = match is_stdout(path) {
            true => "standard output".to_string(),
            false => path.display().to_string(),
        };
        OutputError {
            path,
            reason: reason.to_string(),
        }
    }
}

/// An error and its sources, joined by `": "`; a source whose text the
/// chain already ends with is not repeated (some errors of other crates,
/// such as `gif::EncodingError::Io`, print their source and return it too).
pub(crate) fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        let part = s.to_string();
        if !text.ends_with(&part) {
            text.push_str(": ");
            text.push_str(&part);
        }
        source = s.source();
    }
    text
}

/// One output being written: a temporary file beside its target, or stdout.
#[derive(Debug)]
pub struct Output {
    /// The path as the user gave it, for messages.
    given: PathBuf,
    /// Where the file lands: the given path, or the file its link points to;
    /// `None` for stdout.
    target: Option<PathBuf>,
    /// `None` once committed.
    writer: Option<Writer>,
}

/// What an [`Output`] is written through (buffered), counting the bytes.
#[derive(Debug)]
pub struct Writer {
    sink: Sink,
    /// The bytes written so far.
    written: u64,
}

#[derive(Debug)]
enum Sink {
    Stdout(BufWriter<Stdout>),
    /// The temporary, written through its `File` (whose errors, unlike
    /// tempfile's, do not name the temporary) and removed when its
    /// `TempPath` is dropped.
    File(BufWriter<File>, TempPath),
}

/// A reader of standard output that has gone (`| head`) is not an error:
/// what is left to write is dropped, as the reports on stdout do.
fn reader_gone<T>(result: io::Result<T>, gone: T) -> io::Result<T> {
    match result {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(gone),
        other => other,
    }
}

impl Write for Writer {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = match &mut self.sink {
            Sink::Stdout(w) => reader_gone(w.write(buf), buf.len()),
            Sink::File(w, _) => w.write(buf),
        }?;
        self.written += written as u64;
        Ok(written)
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => reader_gone(w.write_all(buf), ()),
            Sink::File(w, _) => w.write_all(buf),
        }?;
        self.written += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Sink::Stdout(w) => reader_gone(w.flush(), ()),
            Sink::File(w, _) => w.flush(),
        }
    }
}

/// The files the signal handler removes.
struct Live {
    /// The temporaries alive now.
    temporaries: Vec<PathBuf>,
    /// The files and folders of [`create_unfinished`] not yet [`settle`]d, in
    /// the order they were created.
    unfinished: Vec<PathBuf>,
    /// The running children of [`spawn_watched`], not yet reaped.
    children: Vec<u32>,
}

static LIVE: Mutex<Live> = Mutex::new(Live {
    temporaries: Vec::new(),
    unfinished: Vec::new(),
    children: Vec::new(),
});

fn live() -> MutexGuard<'static, Live> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Set by [`clean_up_on_signals`]: only then is anything registered as
/// unfinished.
static CLEANING_UP: AtomicBool = AtomicBool::new(false);

impl Live {
    /// Registers `path` as unfinished, in a process that cleans up on
    /// signals ([`clean_up_on_signals`]); elsewhere nothing would ever remove
    /// it, so it is not kept.
    fn unfinished(&mut self, path: &Path) {
        if CLEANING_UP.load(Ordering::SeqCst) {
            self.unfinished.push(path.to_path_buf());
        }
    }
}

/// Sends `signal` to every running child of [`spawn_watched`], then waits
/// until each has ended (having removed its own unfinished files).
fn stop_children(files: &Live, signal: i32) {
    for &pid in &files.children {
        // SAFETY: plain system calls on our own unreaped children (a child is
        // forgotten, under the lock held here, as soon as it is reaped).
        unsafe { libc::kill(pid as libc::pid_t, signal) };
    }
    for &pid in &files.children {
        let mut status = 0;
        // SAFETY: as above; `status` outlives the call.
        unsafe { libc::waitpid(pid as libc::pid_t, &mut status, 0) };
    }
}

/// Stops every running child of [`spawn_watched`] with `signal`, then removes
/// every live temporary and unfinished file (the latest first, so a
/// folder is empty when its turn comes; a folder is removed only when empty)
/// and returns the lock, so that the caller, about to end the process, keeps
/// any file from being created or renamed, and any child spawned, afterwards.
fn remove_live(signal: i32) -> MutexGuard<'static, Live> {
    let files = live();
    stop_children(&files, signal);
    for file in files.temporaries.iter() {
        let _ = fs::remove_file(file);
    }
    for file in files.unfinished.iter().rev() {
        let _ = fs::remove_file(file).or_else(|_| fs::remove_dir(file));
    }
    files
}

/// Creates the file or folder `path` with `create` (e.g. `File::create(path)`) and,
/// in a process that called [`clean_up_on_signals`], registers it as
/// unfinished: until [`settle`] keeps it, the [`CLEANUP_SIGNALS`] and
/// [`abandon_and_exit`] remove it like the temporaries. For what is written
/// in place rather than through a temporary, such as a proof that a C
/// library writes by its path. It is created under the lock the signal
/// handler holds until the process ends, so nothing is created after the
/// handler has removed the files. Elsewhere (a library call) it is only
/// created.
pub fn create_unfinished<T>(path: &Path, create: impl FnOnce() -> io::Result<T>) -> io::Result<T> {
    let mut files = live();
    let created = create()?;
    files.unfinished(path);
    Ok(created)
}

/// Creates the folder `dir` and its missing parents, each
/// [`create_unfinished`] (a folder another process, such as a shard sharing
/// it, makes meanwhile is used and not registered); returns the topmost
/// folder that was missing (`dir` itself when none was), or the folder that
/// could not be made and why.
pub fn create_dirs_unfinished(dir: &Path) -> Result<PathBuf, (PathBuf, io::Error)> {
    let missing: Vec<&Path> = dir
        .ancestors()
        .take_while(|a| !a.as_os_str().is_empty() && fs::symlink_metadata(a).is_err())
        .collect();
    for folder in missing.iter().rev() {
        match create_unfinished(folder, || fs::create_dir(folder)) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && folder.is_dir() => {}
            Err(e) => return Err((folder.to_path_buf(), e)),
        }
    }
    Ok(missing.last().unwrap_or(&dir).to_path_buf())
}

/// Whether files can be created in the existing folder `dir`: a probe file
/// is made there and removed at once. For an output folder that exists but
/// is not writable (its permissions, a read-only file system), so that it is
/// refused before the work rather than when the first output is written.
pub fn check_writable(dir: &Path) -> io::Result<()> {
    tempfile::Builder::new()
        .prefix(".snakesat-probe-")
        .tempfile_in(dir)
        .map(drop)
        // (Without the probe's name, which tempfile adds to the message.)
        .map_err(|e| match e.raw_os_error() {
            Some(code) => io::Error::from_raw_os_error(code),
            None => io::Error::from(e.kind()),
        })
}

/// Removes every file and folder of [`create_unfinished`] not yet
/// [`settle`]d (the latest first; a folder only when empty) and forgets
/// them: for a command that fails after creating outputs in place, so that
/// its error leaves nothing behind.
pub fn discard_unfinished() {
    let mut files = live();
    for file in files.unfinished.drain(..).rev() {
        let _ = fs::remove_file(&file).or_else(|_| fs::remove_dir(&file));
    }
}

/// Registers `path`, a file or folder that a finished child of
/// [`spawn_watched`] made for this command (and kept), as unfinished, as if
/// [`create_unfinished`] had made it: a signal or an error now removes it
/// (in a process that called [`clean_up_on_signals`]; elsewhere nothing).
pub fn adopt_unfinished(path: &Path) {
    live().unfinished(path);
}

/// Spawns `command` as a child whose outputs this command answers for (a
/// `snakesat` command, which removes its own unfinished files on the
/// [`CLEANUP_SIGNALS`]): until it is reaped by [`try_wait_watched`] or
/// [`kill_watched`], a signal to this process is passed on to it (once
/// [`clean_up_on_signals`] has run), and it is awaited before this process
/// removes its own files. No child is spawned once a signal has come.
pub fn spawn_watched(command: &mut Command) -> io::Result<Child> {
    let mut files = live();
    let child = command.spawn()?;
    files.children.push(child.id());
    Ok(child)
}

/// [`Child::try_wait`] of a child of [`spawn_watched`]: once it is reaped
/// (or cannot be waited for), it is no longer watched.
pub fn try_wait_watched(child: &mut Child) -> io::Result<Option<ExitStatus>> {
    let mut files = live();
    let status = child.try_wait();
    if !matches!(status, Ok(None)) {
        files.children.retain(|&c| c != child.id());
    }
    status
}

/// Kills (SIGKILL) and reaps a child of [`spawn_watched`], no longer watched.
pub fn kill_watched(child: &mut Child) {
    let mut files = live();
    let _ = child.kill();
    let _ = child.wait();
    files.children.retain(|&c| c != child.id());
}

/// Removes the file `path` of [`create_unfinished`] and forgets it.
pub fn remove_unfinished(path: &Path) -> io::Result<()> {
    let mut files = live();
    fs::remove_file(path)?;
    files.unfinished.retain(|f| f != path);
    Ok(())
}

/// Keeps `folder` and everything in it that [`create_unfinished`] made: the
/// result they belong to is complete, and a signal no longer removes them.
pub fn settle(folder: &Path) {
    // The folders made to hold it are kept with it.
    live()
        .unfinished
        .retain(|f| !f.starts_with(folder) && !folder.starts_with(f));
}

/// The signals [`clean_up_on_signals`] takes over: SIGINT, SIGTERM, SIGHUP
/// and the other signals whose default is to end the process that a user or
/// a scheduler sends (SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2).
pub const CLEANUP_SIGNALS: [i32; 7] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2];

/// Makes the [`CLEANUP_SIGNALS`] (SIGINT, SIGTERM, SIGHUP, …) end this
/// process as the `snakesat` binary ends (its `main` calls this first): the
/// running children of [`spawn_watched`] are stopped, the live temporaries
/// and the unfinished files removed, and the process dies of the signal.
/// From then on, files are registered as unfinished (see
/// [`create_unfinished`]).
///
/// This replaces the process's own handling of those signals for good
/// (a thread waits for them until the process ends), so it is for a program
/// whose signals are its own to give away: nothing in the library calls it,
/// and a program that only uses the library keeps its signals as they were.
/// Calling it again does nothing.
pub fn clean_up_on_signals() -> io::Result<()> {
    static STARTING: Mutex<()> = Mutex::new(());
    let _once = STARTING.lock().unwrap_or_else(PoisonError::into_inner);
    if CLEANING_UP.load(Ordering::SeqCst) {
        return Ok(());
    }
    let mut signals = Signals::new(CLEANUP_SIGNALS)?;
    // Without the thread, dropping `signals` unregisters it.
    std::thread::Builder::new()
        .name("output-cleanup".into())
        .spawn(move || {
            for signal in signals.forever() {
                // A search that asked for it is stopped by the first SIGINT
                // or SIGTERM (a planning harness's time limit) instead, and
                // answers with what it has.
                if (signal == SIGINT || signal == SIGTERM)
                    && let Some(flag) = stopper().take()
                {
                    flag.store(true, Ordering::SeqCst);
                    continue;
                }
                // Held until the process ends: no temporary is created
                // or renamed after this.
                let _held = remove_live(signal);
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                signal_hook::low_level::exit(128 + signal);
            }
        })?;
    CLEANING_UP.store(true, Ordering::SeqCst);
    Ok(())
}

/// The flag the next SIGINT or SIGTERM raises instead of ending the process
/// ([`interrupt_raises`]).
static STOPPER: Mutex<Option<Arc<AtomicBool>>> = Mutex::new(None);

fn stopper() -> MutexGuard<'static, Option<Arc<AtomicBool>>> {
    STOPPER.lock().unwrap_or_else(PoisonError::into_inner)
}

/// In a process that cleans up on signals ([`clean_up_on_signals`]), makes
/// the next SIGINT or SIGTERM raise `flag` (a search's cancel flag, so that
/// it stops and answers with the best it has) instead of ending the
/// process; such a signal after that ends it as usual. `None` takes a flag
/// not yet raised back, so that a SIGINT or SIGTERM ends the process again
/// (while the answer is being written).
pub fn interrupt_raises(flag: Option<Arc<AtomicBool>>) {
    *stopper() = flag;
}

/// Ends the process with exit code `code` after stopping every watched child
/// (SIGTERM) and removing every live temporary and unfinished file (for a last-resort time limit: no
/// half-written file is left and none is renamed into place afterwards).
pub fn abandon_and_exit(code: i32) -> ! {
    let _held = remove_live(SIGTERM);
    let _ = std::io::Write::flush(&mut std::io::stdout());
    std::process::exit(code)
}

/// A validated path: where it lands and the permissions to keep.
struct Resolved {
    target: PathBuf,
    keep: Option<Permissions>,
}

fn kind(file_type: fs::FileType) -> &'static str {
    if file_type.is_dir() {
        "a directory"
    } else if file_type.is_fifo() {
        "a FIFO"
    } else if file_type.is_socket() {
        "a socket"
    } else if file_type.is_char_device() {
        "a character device"
    } else if file_type.is_block_device() {
        "a block device"
    } else {
        "not a regular file"
    }
}

/// Checks `path` without touching the disk.
fn resolve(path: &Path) -> Result<Resolved, OutputError> {
    let fail = |reason: String| OutputError::new(path, reason);
    let name = match path.file_name() {
        Some(name) if !path.as_os_str().as_encoded_bytes().ends_with(b"/") => name,
        _ => return Err(fail("not a file name".into())),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match fs::metadata(dir) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(fail(format!("{} is not a directory", dir.display()))),
        Err(_) => return Err(fail(format!("no directory {}", dir.display()))),
    }
    let beside = || {
        fs::canonicalize(dir)
            .map(|d| d.join(name))
            .map_err(|e| fail(format!("{}: {e}", dir.display())))
    };
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Resolved {
            target: beside()?,
            keep: None,
        }),
        Err(e) => Err(fail(e.to_string())),
        Ok(m) if m.is_file() => Ok(Resolved {
            target: beside()?,
            keep: Some(m.permissions()),
        }),
        Ok(m) if m.is_symlink() => {
            let target =
                fs::canonicalize(path).map_err(|_| fail("a symbolic link to nothing".into()))?;
            let m = fs::metadata(&target).map_err(|e| fail(e.to_string()))?;
            if m.is_file() {
                Ok(Resolved {
                    target,
                    keep: Some(m.permissions()),
                })
            } else {
                Err(fail(format!(
                    "a symbolic link to {}, not to a regular file",
                    kind(m.file_type())
                )))
            }
        }
        Ok(m) => Err(fail(format!("{}, not a regular file", kind(m.file_type())))),
    }
}

/// A file's identity: its device and inode.
type FileId = (u64, u64);

/// The identity of the file at `path` (links followed), if it exists.
fn file_id(path: &Path) -> Option<FileId> {
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// The files the command has read ([`note_input`]) and the existing files it
/// has claimed as outputs, with the path given for each.
#[derive(Default)]
struct Seen {
    inputs: Vec<FileId>,
    outputs: Vec<(FileId, PathBuf)>,
}

fn seen() -> MutexGuard<'static, Seen> {
    static SEEN: OnceLock<Mutex<Seen>> = OnceLock::new();
    SEEN.get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

/// What the refusal of a file both read and written says.
const BOTH: &str = "it is also an input of this command";

/// The refusal of the output `path` that is also an input of the command.
pub fn also_input(path: &Path) -> OutputError {
    OutputError::new(path, BOTH)
}

/// Records `path` as an input of the command (`-` and missing files are
/// ignored); refused if the command has already claimed it as an output.
pub fn note_input(path: &Path) -> Result<(), OutputError> {
    if is_stdout(path) {
        return Ok(());
    }
    let Some(id) = file_id(path) else {
        return Ok(());
    };
    let mut seen = seen();
    if let Some((_, given)) = seen.outputs.iter().find(|(o, _)| *o == id) {
        return Err(also_input(given));
    }
    seen.inputs.push(id);
    Ok(())
}

/// Whether the file at `path` (links followed) is one the command has read
/// ([`note_input`]).
pub fn is_input(path: &Path) -> bool {
    file_id(path).is_some_and(|id| seen().inputs.contains(&id))
}

/// Set once an output is standard output (see [`stdout_taken`]).
static STDOUT_TAKEN: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// True once a claimed output is `-` (standard output): the command then
/// prints nothing else there, so that the file written is all it holds.
pub fn stdout_taken() -> bool {
    STDOUT_TAKEN.load(std::sync::atomic::Ordering::Relaxed)
}

/// True for the path `-`, which names standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Validates every given path, then creates their temporaries; `None`s stay
/// `None`. The path `-` is standard output ([`Output::stdout`]); at most one
/// output of a command can be `-`.
pub fn claim<const N: usize>(
    paths: [Option<&Path>; N],
) -> Result<[Option<Output>; N], OutputError> {
    let mut resolved = Vec::new();
    let dashes = paths.iter().flatten().filter(|p| is_stdout(p)).count();
    if dashes > 1 {
        return Err(OutputError::new(
            Path::new("-"),
            "only one output of a command can be standard output",
        ));
    }
    // The existing files among them, so that two hard links to one file
    // are caught like two spellings of one path.
    let mut existing = Vec::new();
    for path in paths.iter().flatten().filter(|p| !is_stdout(p)) {
        let r = resolve(path)?;
        let id = file_id(&r.target);
        if resolved
            .iter()
            .any(|(_, o): &(&Path, Resolved)| o.target == r.target)
            || id.is_some_and(|id| existing.contains(&id))
        {
            return Err(OutputError::new(
                path,
                "named by two outputs of this command",
            ));
        }
        if let Some(id) = id {
            let mut seen = seen();
            if seen.inputs.contains(&id) {
                return Err(also_input(path));
            }
            seen.outputs.push((id, path.to_path_buf()));
            existing.push(id);
        }
        resolved.push((*path, r));
    }
    let mut outputs: [Option<Output>; N] = std::array::from_fn(|_| None);
    let mut resolved = resolved.into_iter();
    for (slot, path) in outputs.iter_mut().zip(paths) {
        if path.is_some_and(is_stdout) {
            STDOUT_TAKEN.store(true, std::sync::atomic::Ordering::Relaxed);
            *slot = Some(Output::stdout());
        } else if path.is_some() {
            let (given, r) = resolved.next().expect("one resolved path per given path");
            *slot = Some(create(given, r)?);
        }
    }
    Ok(outputs)
}

/// [`claim`] for a single path.
pub fn claim_one(path: &Path) -> Result<Output, OutputError> {
    let [output] = claim([Some(path)])?;
    Ok(output.expect("a claimed path has an output"))
}

/// Creates the temporary of `r` and registers it for the signal handler.
/// Its errors name the target only (tempfile's own name the temporary).
fn create(given: &Path, r: Resolved) -> Result<Output, OutputError> {
    let fail = |e: io::Error| OutputError::new(given, e);
    let dir = r.target.parent().expect("a resolved target has a folder");
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(r.target.file_name().expect("a resolved target has a name"));
    prefix.push(".");
    let mut files = live();
    let (file, temp) = tempfile::Builder::new()
        .prefix(&prefix)
        .make_in(dir, |path| {
            OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o666)
                .open(path)
        })
        // (The file is written beside its target, then renamed, so a folder
        // that takes no new file, such as /proc, fails here. The error names
        // that folder: the system's reason, "No such file or directory" in
        // /proc, is about the temporary, not the target.)
        .map_err(|e| {
            OutputError::new(
                given,
                format!("cannot create a file in {}: {e}", dir.display()),
            )
        })?
        .into_parts();
    if let Some(keep) = r.keep {
        file.set_permissions(keep).map_err(fail)?;
    }
    files.temporaries.push(temp.to_path_buf());
    Ok(Output {
        given: given.to_path_buf(),
        target: Some(r.target),
        writer: Some(Writer {
            sink: Sink::File(BufWriter::with_capacity(1 << 20, file), temp),
            written: 0,
        }),
    })
}

impl Output {
    /// Standard output as an output (`-o -`): written as it comes, not undone on error.
    pub fn stdout() -> Output {
        Output {
            given: PathBuf::from("-"),
            target: None,
            writer: Some(Writer {
                sink: Sink::Stdout(BufWriter::with_capacity(1 << 20, io::stdout())),
                written: 0,
            }),
        }
    }

    /// The path as the user gave it.
    pub fn path(&self) -> &Path {
        &self.given
    }

    /// The output's name in messages: its path, or `standard output`.
    pub fn name(&self) -> String {
        match self.target {
            None => "standard output".into(),
            Some(_) => self.given.display().to_string(),
        }
    }

    fn writer(&mut self) -> &mut Writer {
        self.writer.as_mut().expect("an uncommitted output")
    }

    /// Runs `write` on the output; its error names the path.
    /// The reason is the error and its sources, joined by `": "`.
    pub fn write_with<E: std::error::Error>(
        &mut self,
        write: impl FnOnce(&mut Writer) -> Result<(), E>,
    ) -> Result<(), OutputError> {
        write(self.writer()).map_err(|e| OutputError::new(&self.given, chain(&e)))
    }

    /// The bytes written so far (to standard output too, even when its
    /// reader has gone).
    pub fn written_bytes(&self) -> u64 {
        self.writer.as_ref().map_or(0, |w| w.written)
    }
}

impl Drop for Output {
    fn drop(&mut self) {
        if let Some(Writer {
            sink: Sink::File(_, temp),
            ..
        }) = &self.writer
        {
            let mut files = live();
            let path = temp.to_path_buf();
            files.temporaries.retain(|f| *f != path);
            // Dropping the temporary removes it, under the lock.
            self.writer = None;
        }
    }
}

/// Flushes every output and checks its target again, then renames each
/// temporary over its target: all land, or (an error before the renames)
/// none does. Only a rename failing midway (the folder changed meanwhile)
/// can leave the earlier ones landed.
pub fn commit(outputs: impl IntoIterator<Item = Option<Output>>) -> Result<(), OutputError> {
    land(outputs, false, || Ok(()))
}

/// [`commit`], with `before_landing` run once every output is flushed and
/// checked, just before the renames: its error drops the outputs, so none
/// lands. The `snakesat` binary prints its answer on standard output there,
/// so that a file that cannot land is found before anything is printed, and
/// a standard output that cannot be written (a full disk) leaves no file.
pub fn commit_after<E: From<OutputError>>(
    outputs: impl IntoIterator<Item = Option<Output>>,
    before_landing: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    land(outputs, false, before_landing)
}

/// [`commit`], but each target that did not exist lands unfinished, as if
/// made by [`create_unfinished`]: a signal, [`abandon_and_exit`] or
/// [`discard_unfinished`] removes it until [`settle`] keeps its folder. For
/// a command that lands many files one by one (`generate`) and must leave
/// none of them behind unless it completes. A target that existed is
/// replaced as by [`commit`] and stays.
pub fn commit_unfinished(
    outputs: impl IntoIterator<Item = Option<Output>>,
) -> Result<(), OutputError> {
    land(outputs, true, || Ok(()))
}

fn land<E: From<OutputError>>(
    outputs: impl IntoIterator<Item = Option<Output>>,
    unfinished: bool,
    before_landing: impl FnOnce() -> Result<(), E>,
) -> Result<(), E> {
    let mut outputs: Vec<Output> = outputs.into_iter().flatten().collect();
    for output in &mut outputs {
        let given = output.given.clone();
        output
            .writer()
            .flush()
            .map_err(|e| OutputError::new(&given, e))?;
        if let Some(target) = &output.target
            && let Ok(m) = fs::symlink_metadata(target)
            && !m.is_file()
        {
            let reason = format!("{}, not a regular file", kind(m.file_type()));
            return Err(OutputError::new(&given, reason).into());
        }
    }
    before_landing()?;
    for output in &mut outputs {
        let (
            Some(target),
            Some(Writer {
                sink: Sink::File(w, temp),
                ..
            }),
        ) = (&output.target, output.writer.take())
        else {
            continue;
        };
        w.into_inner()
            .map_err(|e| OutputError::new(&output.given, e.error()))?;
        let mut files = live();
        let path = temp.to_path_buf();
        // A new file is registered under the same lock as its rename, so a
        // signal either finds it registered or finds it not yet landed.
        let new = unfinished && fs::symlink_metadata(target).is_err();
        let landed = temp.persist(target);
        files.temporaries.retain(|f| *f != path);
        landed.map_err(|e| OutputError::new(&output.given, e.error))?;
        if new {
            // As given, like the paths of `create_unfinished`, for `settle`.
            files.unfinished(&output.given);
        }
    }
    Ok(())
}
