//! `solve --satisficing --plan FILE`: each better plan, as the search finds
//! it, written as an IPC plan to `FILE.1`, `FILE.2`, … (the numbering of
//! anytime planners such as Fast Downward's), so that a harness that kills
//! the planner at its time limit (SIGKILL, which no handler sees) still has
//! the best plan found; the last file always holds the plan printed and
//! written to `FILE`. An earlier run's `FILE` and `FILE.N` (any `N`) are
//! removed before the search starts, so that the folder holds this run's
//! plans only. Each file lands
//! whole (through [`output::claim_one`] and [`output::commit`]) and stays:
//! it is a finished, checked plan, not an unfinished output.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use snakesat::instance::{Instance, Pos};
use snakesat::output;
use snakesat::pddl::Objects;

use super::{Failure, bad_input};

/// The numbered file written last in this process, for the watchdog's
/// error line when it ends the run after a plan has landed
/// ([`last_landed`]).
static LAST_LANDED: Mutex<Option<PathBuf>> = Mutex::new(None);

/// The numbered plan file this process wrote last (it holds the best plan
/// found so far), or `None`.
pub fn last_landed() -> Option<PathBuf> {
    LAST_LANDED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// `FILE.k`.
pub fn numbered(file: &Path, k: usize) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(format!(".{k}"));
    PathBuf::from(name)
}

/// `path` made absolute, its folder resolved where it exists, so that two
/// spellings of one file compare equal (`p.2`, `./p.2`, `/abs/p.2`).
fn resolved(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (absolute.parent(), absolute.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .unwrap_or_else(|_| dir.to_path_buf())
            .join(name),
        _ => absolute,
    }
}

/// The refusal of `what` (an output flag and its path, or a file found)
/// that takes a numbered name of `file`: `why` says how it is in the way.
fn in_the_way(file: &Path, what: &str, why: &str) -> Failure {
    bad_input(format!(
        "{what}{why}: --satisficing writes each better plan to {} and the next numbers",
        numbered(file, 1).display()
    ))
}

/// Refuses (exit 2) any of `others` (flag, path) that names a numbered plan
/// file of `file`, however either is spelled.
pub fn refuse_numbered_outputs<'a>(
    file: &Path,
    others: impl IntoIterator<Item = (&'a str, &'a Path)>,
) -> Result<(), Failure> {
    for (flag, other) in others {
        if is_numbered(file, other) {
            return Err(in_the_way(file, &format!("{flag} {}", other.display()), ""));
        }
    }
    Ok(())
}

/// Whether `other` names a numbered plan file of `file` (`FILE.` and
/// digits), however either is spelled.
fn is_numbered(file: &Path, other: &Path) -> bool {
    let (file, other) = (resolved(file), resolved(other));
    file.parent() == other.parent()
        && match (file.file_name(), other.file_name()) {
            (Some(file), Some(other)) => numbered_name(file, other),
            _ => false,
        }
}

/// Whether the name `other` is `file.` and digits.
fn numbered_name(file: &std::ffi::OsStr, other: &std::ffi::OsStr) -> bool {
    let (file, other) = (file.as_encoded_bytes(), other.as_encoded_bytes());
    other.len() > file.len() + 1
        && other.starts_with(file)
        && other[file.len()] == b'.'
        && other[file.len() + 1..].iter().all(u8::is_ascii_digit)
}

/// Removes an earlier run's plans: every `FILE.N` in FILE's folder, and
/// FILE itself when it is a regular file (not a link), so that after a
/// SIGKILL the folder holds this run's plans only. Returns the note that
/// says what was removed, if anything was. A numbered name that is an input of the command, or not a
/// regular file (a folder, a link), is refused instead (exit 2), before
/// any is removed.
pub fn remove_earlier(file: &Path) -> Result<Option<String>, Failure> {
    let resolved_file = resolved(file);
    let (Some(dir), Some(name)) = (resolved_file.parent(), resolved_file.file_name()) else {
        return Ok(None);
    };
    let mut earlier = Vec::new();
    // (A folder that cannot be listed holds nothing this run must remove;
    // writing FILE there fails on its own.)
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if !numbered_name(name, &entry.file_name()) {
            continue;
        }
        let path = entry.path();
        let shown = file.with_file_name(entry.file_name());
        let refuse = |why| in_the_way(file, &shown.display().to_string(), why);
        if output::is_input(&path) {
            return Err(refuse(" is an input of this command"));
        }
        if !std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            return Err(refuse(" exists and is not a regular file"));
        }
        earlier.push(path);
    }
    earlier.sort();
    if std::fs::symlink_metadata(file).is_ok_and(|m| m.is_file()) {
        earlier.push(file.to_path_buf());
    }
    for path in &earlier {
        std::fs::remove_file(path).map_err(|e| {
            bad_input(format!(
                "cannot remove {} of an earlier run: {e}",
                path.display()
            ))
        })?;
    }
    let names: Vec<String> = earlier
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .collect();
    Ok(match names.len() {
        0 => None,
        1..=4 => Some(names.join(", ")),
        n => Some(format!("{}, … ({n} files)", names[..3].join(", "))),
    }
    .map(|shown| format!("removed an earlier run's plans: {shown}")))
}

/// The numbered plan files of one run.
pub struct AnytimePlans {
    file: PathBuf,
    instance: Instance,
    objects: Objects,
    /// How many were written, and whether one could not be (none is
    /// written after it).
    written: Mutex<(usize, bool)>,
}

impl AnytimePlans {
    /// The plans of `instance` (named by `objects`) for `FILE`.
    pub fn new(file: &Path, instance: &Instance, objects: &Objects) -> Self {
        AnytimePlans {
            file: file.to_path_buf(),
            instance: instance.clone(),
            objects: objects.clone(),
            written: Mutex::new((0, false)),
        }
    }

    /// Writes `path`, a checked plan, to the next numbered file. A file
    /// that cannot be written is said once on stderr; the ones after it
    /// are not written (the plan printed and `FILE` still are).
    pub fn write(&self, path: &[Pos]) {
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        let (k, failed) = *written;
        if failed {
            return;
        }
        let name = numbered(&self.file, k + 1);
        let landed = snakesat::pddl::plan::ipc_plan(&self.instance, &self.objects, path)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                let mut out = output::claim_one(&name).map_err(|e| e.to_string())?;
                out.write_with(|w| std::io::Write::write_all(w, text.as_bytes()))
                    .map_err(|e| e.to_string())?;
                output::commit([Some(out)]).map_err(|e| e.to_string())
            });
        *written = match landed {
            Ok(()) => {
                *LAST_LANDED.lock().unwrap_or_else(|e| e.into_inner()) = Some(name);
                (k + 1, false)
            }
            Err(e) => {
                note!("{e}; no further numbered plan files are written");
                (k, true)
            }
        };
    }

    /// The numbered files written: `FILE.1` … `FILE.n`, or none.
    pub fn summary(&self) -> Option<String> {
        let written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        match written.0 {
            0 => None,
            1 => Some(format!(
                "wrote the plan found to {}",
                numbered(&self.file, 1).display()
            )),
            n => Some(format!(
                "wrote the {n} better plans found, in turn, to {} … {}",
                numbered(&self.file, 1).display(),
                numbered(&self.file, n).display()
            )),
        }
    }
}
