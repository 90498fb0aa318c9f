//! Certified refutations: for every horizon whose UNSAT stands behind an
//! answer ("proven least" or "no plan"), a standalone CNF in self-describing
//! DIMACS and a DRAT proof of its unsatisfiability, plus a `manifest.json`
//! listing the claims, so that an independent DRAT checker (e.g. `rate`) can
//! verify the answer without trusting the solver.
//!
//! Approach: a search with fresh formulas traces each refuted horizon's proof
//! as it goes (`solve_certified`, through
//! [`crate::planner::Planner::certify_into`]), and [`certify`] keeps those.
//! The other searches refute horizons with assumptions in one incremental
//! solver, or without proof output at all (satisficing), so their UNSATs are
//! not standalone refutations: each such horizon, and the one below the lower
//! bound, is solved once more afterwards, from a fresh formula of the same
//! encoding at that horizon, by a CaDiCaL that traces a DRAT proof. The `cadical` crate (0.1.16) has no proof API, but the
//! CaDiCaL 1.9.5 it compiles and links includes CaDiCaL's own C API
//! (`ccadical.h`), whose `ccadical_trace_proof` writes the proof to a `FILE *`.
//! [`refute`] calls that C API directly: the same solver library as the search
//! (a second CaDiCaL build, as `cadical-sys` or `rustsat-cadical` would bring,
//! would clash with it at link time), no new dependency, and the unsafe part is
//! a dozen calls with one owner that always releases the solver and the file.
//! Every fresh formula of the searches, with or without a proof, is solved
//! through that C API, which also sets the option the crate cannot: under
//! the `unsat` configuration CaDiCaL's phases are forced to false
//! (`--forcephase=1 --phase=0`).

use std::collections::VecDeque;
use std::ffi::{CString, c_char, c_int, c_void};
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Serialize;
use thiserror::Error;

use crate::cnf::{Cnf, header};
use crate::encode::{EncodeError, Encoding};
use crate::instance::Instance;
use crate::planner::{CadicalConfig, Outcome, Search, Verdict};
use crate::solve::{Answer, Attempt, Budget, Interrupt, Status};

unsafe extern "C" {
    // CaDiCaL's C API (`cadical/src/ccadical.h`), linked by the `cadical` crate.
    fn ccadical_init() -> *mut c_void;
    fn ccadical_release(solver: *mut c_void);
    fn ccadical_set_option(solver: *mut c_void, name: *const c_char, value: c_int);
    fn ccadical_trace_proof(solver: *mut c_void, file: *mut c_void, name: *const c_char) -> c_int;
    fn ccadical_close_proof(solver: *mut c_void);
    fn ccadical_add(solver: *mut c_void, lit: c_int);
    fn ccadical_solve(solver: *mut c_void) -> c_int;
    fn ccadical_val(solver: *mut c_void, lit: c_int) -> c_int;
    // The `cadical` crate's addition to that API (its predefined configurations).
    fn ccadical_configure(solver: *mut c_void, name: *const c_char) -> c_int;
    fn ccadical_set_terminate(
        solver: *mut c_void,
        state: *mut c_void,
        terminate: Option<unsafe extern "C" fn(*mut c_void) -> c_int>,
    );
    // The C library's stdio, which CaDiCaL writes the proof through.
    fn fopen(path: *const c_char, mode: *const c_char) -> *mut c_void;
    fn fclose(file: *mut c_void) -> c_int;
}

/// The proof format written: CaDiCaL's binary DRAT (`binary=1`, its default).
pub const FORMAT: &str = "drat-binary";

/// Why a refutation or a certification failed.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum ProofError {
    /// A proof path that C cannot name.
    #[error("proof path {path} has a NUL byte")]
    NulPath {
        /// The path.
        path: String,
    },
    /// A directory that cannot be created.
    #[error("cannot create {path}")]
    Create {
        /// The directory.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A proof folder that exists as something else (a file, a device).
    #[error("cannot create {path}: it exists and is not a folder")]
    NotAFolder {
        /// The path.
        path: String,
    },
    /// A file that cannot be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// CaDiCaL refused to trace a proof.
    #[error("CaDiCaL cannot trace a proof to {path}")]
    Trace {
        /// The proof file.
        path: String,
    },
    /// A standalone re-solve found a model where the search found none.
    #[error("horizon {horizon} is satisfiable on a standalone re-solve, against the search")]
    Satisfiable {
        /// The horizon.
        horizon: usize,
    },
    /// The encoding failed.
    #[error(transparent)]
    Encode(#[from] EncodeError),
    /// Reading a written proof's size failed.
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// The manifest could not be serialised.
    #[error(transparent)]
    Json(#[from] serde_json::Error),
}

impl ProofError {
    fn write(path: &Path, source: std::io::Error) -> Self {
        ProofError::Write {
            path: path.display().to_string(),
            source,
        }
    }
}

/// Stops the proof-tracing solve when its [`Interrupt`] fires.
unsafe extern "C" fn interrupted(state: *mut c_void) -> c_int {
    // SAFETY: `state` is the `Interrupt` that `solve_traced` keeps alive while it solves.
    let interrupt = unsafe { &*(state as *const Interrupt) };
    c_int::from(interrupt.fired())
}

/// A CaDiCaL instance from the C API, released on drop.
struct RawSolver(*mut c_void);

impl RawSolver {
    /// A new solver under `config`, still configuring (no clause yet). Under
    /// the `unsat` configuration its phases are forced to false
    /// (`--forcephase=1 --phase=0`): most variables of a plan's formula (a
    /// head, a body cell, an apple at a time) are false in any model.
    /// Measured on IPC-2018 optimal 19 (the slowest full board), one run each
    /// on a quiet machine: 57.7 s against 47.5 s (user time 114 s against 93
    /// s); 8: 6.1 against 5.6 s; 14: 22.8 against 22.6 s. With the `cadical`
    /// command line on its formulas: horizons 93, 95, 96 and 97 of 19 take
    /// 26–28 % less time, 90 a third more (2.0 against 2.7 s), 14's horizon
    /// 84 11 % more and 85 36 % less.
    fn configured(config: CadicalConfig) -> RawSolver {
        let name = CString::new(config.name()).expect("configuration names have no NUL");
        // SAFETY: the solver is new (CaDiCaL's CONFIGURING state, which the
        // configuration and the options require) and owned by the result.
        unsafe {
            let solver = RawSolver(ccadical_init());
            if config != CadicalConfig::Default {
                ccadical_configure(solver.0, name.as_ptr());
            }
            if config == CadicalConfig::Unsat {
                ccadical_set_option(solver.0, c"forcephase".as_ptr(), 1);
                ccadical_set_option(solver.0, c"phase".as_ptr(), 0);
            }
            solver
        }
    }
}

impl Drop for RawSolver {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `ccadical_init` and is released once.
        unsafe { ccadical_release(self.0) }
    }
}

/// Solves `cnf` with CaDiCaL writing a DRAT proof (binary) to `proof`:
/// `Unsat` means the file holds a refutation of exactly these clauses (in
/// this order, variables as numbered); `Unknown` means the deadline passed.
/// Like every certificate file, the proof is created with
/// [`crate::output::create_unfinished`]: in a process that cleans up on
/// signals ([`crate::output::clean_up_on_signals`], the binary), a signal
/// removes it until [`crate::output::settle`] keeps its folder. No function of
/// this module changes how the process handles signals.
pub fn refute(cnf: &Cnf, proof: &Path, deadline: Option<Instant>) -> Result<Status, ProofError> {
    let interrupt = Interrupt {
        deadline,
        flag: None,
        cancel: None,
    };
    solve_traced(cnf, proof, CadicalConfig::Default, interrupt).map(|(status, _)| status)
}

/// [`refute`] with CaDiCaL in `config`, stopped (`Unknown`) when
/// `interrupt` fires; when SAT, the value of every variable (the proof is then of no
/// use).
pub(crate) fn solve_traced(
    cnf: &Cnf,
    proof: &Path,
    config: CadicalConfig,
    interrupt: Interrupt,
) -> Result<(Status, Option<Vec<bool>>), ProofError> {
    let path = CString::new(proof.as_os_str().as_bytes()).map_err(|_| ProofError::NulPath {
        path: proof.display().to_string(),
    })?;
    let solver = RawSolver::configured(config);
    // SAFETY: every call gets the live solver of `solver`; the proof is set
    // before any clause (CaDiCaL's CONFIGURING state, which it requires), the
    // proof is closed before the file is, the file outlives the solver's use
    // of it, and `interrupt` outlives the solve.
    unsafe {
        let file = crate::output::create_unfinished(proof, || {
            let file = fopen(path.as_ptr(), c"wb".as_ptr());
            if file.is_null() {
                Err(std::io::Error::last_os_error())
            } else {
                Ok(file)
            }
        })
        .map_err(|e| ProofError::write(proof, e))?;
        ccadical_set_option(solver.0, c"binary".as_ptr(), 1);
        if ccadical_trace_proof(solver.0, file, path.as_ptr()) == 0 {
            fclose(file);
            return Err(ProofError::Trace {
                path: proof.display().to_string(),
            });
        }
        let answer = load_and_solve(solver.0, cnf, &interrupt, false);
        ccadical_close_proof(solver.0);
        drop(solver);
        if fclose(file) != 0 {
            return Err(ProofError::write(proof, std::io::Error::last_os_error()));
        }
        Ok(answer)
    }
}

/// Solves `cnf` with CaDiCaL under `config` through its C API, without a
/// proof: every fresh formula's solve (under the `unsat` configuration its
/// phases are forced, which the `cadical` crate cannot do,
/// [`RawSolver::configured`]). Stops (`Unknown`) when `interrupt` fires,
/// while loading too.
pub(crate) fn solve_raw(
    cnf: &Cnf,
    config: CadicalConfig,
    interrupt: &Interrupt,
) -> (Status, Option<Vec<bool>>) {
    let solver = RawSolver::configured(config);
    // SAFETY: `solver` is live and `interrupt` outlives the solve.
    unsafe { load_and_solve(solver.0, cnf, interrupt, true) }
}

/// The literals a certificate's re-solve loads past its deadline (see
/// [`load_and_solve`]): a formula of at most 4 million literals (about
/// 20 MB of DIMACS) loads in a tenth of a second.
const LOADED_PAST_DEADLINE: usize = 1 << 22;

/// Adds `cnf` to `solver`, solves it and reads the model. With
/// `stop_loading`, loading stops (`Unknown`) when `interrupt` fires,
/// checked every 2^16 literals, as the search's solves do; a certificate's
/// re-solve loads its first [`LOADED_PAST_DEADLINE`] literals whatever the
/// time, so that a formula CaDiCaL refutes at its first check (by unit
/// propagation) is `refuted` even past the deadline, and stops past it only
/// in a larger one (a 610 MB formula took 24 s to load and refute, 13 s
/// past the run's limit).
///
/// # Safety
/// `solver` is a live solver of `ccadical_init`; `interrupt` outlives the call.
unsafe fn load_and_solve(
    solver: *mut c_void,
    cnf: &Cnf,
    interrupt: &Interrupt,
    stop_loading: bool,
) -> (Status, Option<Vec<bool>>) {
    // SAFETY: as the caller promises.
    unsafe {
        let first = if stop_loading {
            0
        } else {
            LOADED_PAST_DEADLINE
        };
        for (i, &lit) in cnf.flat().iter().enumerate() {
            if i >= first && i % (1 << 16) == 0 && interrupt.fired() {
                return (Status::Unknown, None);
            }
            ccadical_add(solver, lit);
        }
        if interrupt.can_fire() {
            ccadical_set_terminate(
                solver,
                interrupt as *const Interrupt as *mut c_void,
                Some(interrupted),
            );
        }
        let result = ccadical_solve(solver);
        let values = (result == 10).then(|| {
            (1..=cnf.num_vars() as c_int)
                .map(|v| ccadical_val(solver, v) > 0)
                .collect()
        });
        let status = match result {
            10 => Status::Sat,
            20 => Status::Unsat,
            _ => Status::Unknown,
        };
        (status, values)
    }
}

/// The search's own solve of `horizon` when certificates are written as it
/// goes (fresh formulas): writes `cnf` into `dir`, solves it tracing a proof
/// beside it, keeps both files and returns their certificate when UNSAT,
/// removes them otherwise. Returns the status and, when SAT, the model.
pub(crate) fn solve_certified(
    instance: &Instance,
    encoding: &dyn Encoding,
    horizon: usize,
    cnf: &Cnf,
    dir: &Path,
    budget: &Budget,
    stop: Option<&Arc<AtomicBool>>,
) -> Result<Answer, ProofError> {
    let started = Instant::now();
    let (cnf_name, proof_name) = file_names(horizon);
    write_cnf(instance, encoding, horizon, cnf, &dir.join(cnf_name))?;
    let proof = dir.join(proof_name);
    let (status, values) = solve_traced(cnf, &proof, budget.config, budget.interrupt(stop))?;
    if status != Status::Unsat {
        remove_files(dir, horizon)?;
        return Ok((status, values, None));
    }
    let certificate = Certificate::written(dir, horizon, Reason::Refuted, true, started)?;
    Ok((status, values, Some(certificate)))
}

/// The certificate files of `horizon`: its CNF and its proof.
fn file_names(horizon: usize) -> (String, String) {
    (
        format!("horizon-{horizon}.cnf"),
        format!("horizon-{horizon}.drat"),
    )
}

/// True for the name of a certificate file, `horizon-T.cnf` or `horizon-T.drat`.
pub fn is_certificate_file(name: &str) -> bool {
    name.strip_prefix("horizon-")
        .and_then(|rest| rest.strip_suffix(".cnf").or(rest.strip_suffix(".drat")))
        .is_some_and(|t| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
}

/// Removes the certificate files of `horizon` that are in `dir` (a horizon
/// whose writing failed may have only its CNF, or none).
pub(crate) fn remove_files(dir: &Path, horizon: usize) -> Result<(), ProofError> {
    let (cnf, proof) = file_names(horizon);
    for file in [cnf, proof].map(|name| dir.join(name)) {
        if file.exists() {
            crate::output::remove_unfinished(&file).map_err(|e| ProofError::write(&file, e))?;
        }
    }
    Ok(())
}

/// Creates the proof folder `dir` if it is missing, with any missing parent,
/// or checks that an existing one takes files; each folder created here is unfinished
/// ([`crate::output::create_unfinished`]) until its manifest is written, so
/// in a process that cleans up on signals an error or a signal before then
/// removes them (each once it is empty again).
pub fn create_dir(dir: &Path) -> Result<(), ProofError> {
    let failed = |path: &Path, source| ProofError::Create {
        path: path.display().to_string(),
        source,
    };
    if dir.exists() && !dir.is_dir() {
        return Err(ProofError::NotAFolder {
            path: dir.display().to_string(),
        });
    }
    // An existing `dir` is not ours to remove.
    if std::fs::symlink_metadata(dir).is_ok() {
        std::fs::create_dir_all(dir).map_err(|e| failed(dir, e))?;
        // (An existing folder may refuse files: found now, not after the
        // search.)
        return crate::output::check_writable(dir).map_err(|e| ProofError::write(dir, e));
    }
    crate::output::create_dirs_unfinished(dir)
        .map(drop)
        .map_err(|(folder, e)| failed(&folder, e))
}

/// Why a horizon is claimed to have no plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The answer rests on it: the search found it UNSAT (or, at a fixed
    /// horizon, the bound excluded it without solving; see [`certify_search`]).
    Refuted,
    /// Just below the proven lower bound: excluded by the bound argument,
    /// certified as well for good measure.
    BelowBound,
}

/// One claim "no plan of `horizon` moves" and its certificate.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Certificate {
    /// The horizon (moves) claimed to have no plan.
    pub horizon: usize,
    /// Why it is claimed.
    pub reason: Reason,
    /// The CNF's file name inside the proof folder.
    pub cnf: String,
    /// The proof's file name inside the proof folder.
    pub proof: String,
    /// The proof format ([`FORMAT`]).
    pub format: &'static str,
    /// True when CaDiCaL refuted the standalone CNF (the proof is complete);
    /// false when the deadline passed first.
    pub refuted: bool,
    /// The proof's size.
    pub proof_bytes: u64,
    /// Time to encode, write and refute it.
    pub seconds: f64,
}

impl Certificate {
    /// The certificate of `horizon`, whose files [`file_names`] are in
    /// `dir`, its work begun at `started`.
    fn written(
        dir: &Path,
        horizon: usize,
        reason: Reason,
        refuted: bool,
        started: Instant,
    ) -> Result<Certificate, ProofError> {
        let (cnf, proof) = file_names(horizon);
        let proof_bytes = std::fs::metadata(dir.join(&proof))?.len();
        Ok(Certificate {
            horizon,
            reason,
            cnf,
            proof,
            format: FORMAT,
            refuted,
            proof_bytes,
            seconds: started.elapsed().as_secs_f64(),
        })
    }
}

/// The file name of the manifest in a certificate folder.
pub const MANIFEST: &str = "manifest.json";

/// The manifest written as [`MANIFEST`].
#[derive(Clone, Debug, Serialize)]
pub struct Manifest {
    /// The encoding of every CNF, as `--encoding` accepts it.
    pub encoding: String,
    /// The proven lower bound on the moves, as `solve --json` reports it
    /// (`null` when some apple can never be eaten); a least-horizon answer
    /// starts from it, a fixed horizon's does not rest on it.
    pub lower_bound: Option<usize>,
    /// How horizons below the lower bound are excluded, or, when some apple
    /// can never be eaten, every horizon (absent for a lower bound of 0 or 1:
    /// nothing below it to exclude). At a fixed horizon, present only when
    /// that horizon lies below the bound (or the bound is `None`), to say that
    /// a pruned formula's refutation rests on the bound argument.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub below_lower_bound: Option<&'static str>,
    /// Every claim, by horizon.
    pub claims: Vec<Certificate>,
    /// A horizon the answer rests on got no claim: a fixed horizon below
    /// the lower bound whose formula is beyond the encoding's limits.
    #[serde(skip)]
    uncertified_refutation: bool,
}

impl Manifest {
    /// True when every refuted horizon the answer rests on has a complete
    /// proof (false when one has no claim at all: a fixed horizon below the
    /// lower bound whose formula is beyond the encoding's limits).
    pub fn certified(&self) -> bool {
        !self.uncertified_refutation
            && self
                .claims
                .iter()
                .filter(|c| c.reason == Reason::Refuted)
                .all(|c| c.refuted)
    }
}

/// What `solve --json` adds about certificates.
#[derive(Clone, Debug, Serialize)]
pub struct Certification {
    /// Every refuted horizon has a complete proof (`None`, JSON `null`, for
    /// an `unknown` answer: no answer, so nothing is certified; its
    /// certificates are those of the horizons refuted by then).
    pub certified: Option<bool>,
    /// The folder the certificates are in.
    pub proof_dir: String,
    /// The claims and their files.
    pub certificates: Vec<Certificate>,
}

const BOUND_NOTE: &str = "excluded by the lower bound (distances through the apples, a minimum \
spanning tree over the start and the apples, src/encode/prune.rs, and the least time of the apples' \
eating orders, src/encode/schedule.rs), an argument, not a proof; the claim with reason below-bound \
certifies the horizon just below it";

/// What excludes the horizons below the lower bound when the formula just
/// below it is beyond the encoding's limits (no below-bound claim then).
const BOUND_TOO_BIG_NOTE: &str = "excluded by the lower bound (distances through the apples, a \
minimum spanning tree over the start and the apples, src/encode/prune.rs, and the least time of the \
apples' eating orders, src/encode/schedule.rs), an argument, not a proof; the horizon just below it \
has no certificate: its formula is beyond the encoding's limits";

/// What excludes every horizon when the apples can never all be eaten.
const UNREACHABLE_NOTE: &str = "every horizon is excluded because some apple can never be eaten \
(walls cut it off from the start, or it lies in a dead end or a pocket behind one cell that the \
snake, once too long, could not leave while another apple follows; src/encode/prune.rs; or the \
apples fill the board and its free cells' two colours differ by more than one, so the final body, \
a path along which colours alternate, cannot cover them, or the snake would grow longer than the free \
cells; src/encode/full.rs), or because the snake's \
reachable states, few enough to list, include none with every apple eaten (src/reachable.rs), an \
argument, not a proof";

/// What a fixed horizon's refutation rests on when the horizon lies below
/// the lower bound, or when no horizon has a plan (the bound is `None`).
const FIXED_BELOW_BOUND_NOTE: &str = "the fixed horizon lies below the lower bound (or some apple can \
never be eaten): a pruned formula (the direct encoding's default) holds that argument as clauses, \
often empty ones, so its refutation rests on the argument, not on the game's rules; encode with \
prune=off for a refutation from the rules alone";

/// What excludes a fixed horizon below the lower bound whose formula is
/// beyond the encoding's limits (no claim then).
const FIXED_TOO_BIG_NOTE: &str = "the fixed horizon lies below the lower bound (or some apple can \
never be eaten; src/encode/prune.rs, src/encode/schedule.rs), an argument, not a proof; it has no \
certificate: its formula is beyond the encoding's limits";

/// The horizons whose UNSAT the answer rests on (the UNSAT `attempts` of its search), ascending.
fn refuted_horizons(attempts: &[Attempt]) -> Vec<usize> {
    let mut horizons: Vec<usize> = attempts
        .iter()
        .filter(|a| a.status == Status::Unsat)
        .map(|a| a.horizon)
        .collect();
    horizons.sort_unstable();
    horizons.dedup();
    horizons
}

/// Writes into `dir` (created if missing) a CNF and a DRAT proof for every
/// horizon in `refuted`, and, when the answer rests on the proven
/// `lower_bound` (`None`: some apple can never be eaten), that is
/// when `search` (the search that answered) is not a
/// [`Search::FixedHorizon`], one for the horizon just below it when that is
/// at least 1; then `manifest.json`, and the folder is settled
/// ([`crate::output::settle`]): until then, in a process that cleans up on
/// signals ([`crate::output::clean_up_on_signals`], the binary), a signal
/// removes every certificate file (and the folder, if created by this run);
/// elsewhere nothing stays registered once this returns. Horizons with a certificate in `done`
/// (written by the search itself, [`crate::planner::Planner::certify_into`])
/// are not solved again. A horizon found satisfiable here contradicts the
/// search and is an error.
#[allow(clippy::too_many_arguments)]
pub fn certify(
    instance: &Instance,
    encoding: &dyn Encoding,
    search: Search,
    refuted: &[usize],
    lower_bound: Option<usize>,
    done: &[Certificate],
    dir: &Path,
    deadline: Option<Instant>,
) -> Result<Manifest, ProofError> {
    create_dir(dir)?;
    let mut claims: Vec<(usize, Reason)> = refuted.iter().map(|&t| (t, Reason::Refuted)).collect();
    let rests_on_bound = !matches!(search, Search::FixedHorizon(_));
    let fixed_below_bound = match search {
        Search::FixedHorizon(t) => lower_bound.is_none_or(|bound| t < bound),
        _ => false,
    };
    let unreachable = rests_on_bound && lower_bound.is_none();
    let below_bound = lower_bound.filter(|_| rests_on_bound);
    if let Some(below) = below_bound.and_then(|b| b.checked_sub(1))
        && below >= 1
        && !refuted.contains(&below)
    {
        claims.insert(0, (below, Reason::BelowBound));
    }
    let written = |&(t, reason): &(usize, Reason)| {
        done.iter()
            .find(|c| c.horizon == t && c.reason == reason && c.refuted)
    };
    let missing: Vec<(usize, Reason)> = claims
        .iter()
        .filter(|claim| written(claim).is_none())
        .copied()
        .collect();
    let mut solved = certify_claims(instance, encoding, &missing, dir, deadline).into_iter();
    let mut certificates = Vec::with_capacity(claims.len());
    // The below-bound claim is extra (the answer rests on the bound, an
    // argument): a formula beyond the encoding's limits there is noted, not
    // an error that would take the answer with it.
    let mut below_too_big = false;
    let mut uncertified_refutation = false;
    for claim in &claims {
        match written(claim) {
            Some(certificate) => certificates.push(certificate.clone()),
            None => match solved.next().expect("one result per missing claim") {
                Ok(certificate) => certificates.push(certificate),
                Err(ProofError::Encode(EncodeError::TooBig { .. }))
                    if claim.1 == Reason::BelowBound || fixed_below_bound =>
                {
                    below_too_big = true;
                    uncertified_refutation |= claim.1 == Reason::Refuted;
                }
                Err(e) => return Err(e),
            },
        }
    }
    let manifest = Manifest {
        encoding: encoding.name(),
        lower_bound,
        below_lower_bound: if unreachable {
            Some(UNREACHABLE_NOTE)
        } else if below_too_big && fixed_below_bound {
            Some(FIXED_TOO_BIG_NOTE)
        } else if below_too_big {
            Some(BOUND_TOO_BIG_NOTE)
        } else if fixed_below_bound {
            Some(FIXED_BELOW_BOUND_NOTE)
        } else {
            // A bound of 0 or 1 leaves nothing below it to exclude (no
            // horizon, or only 0 moves, where no apple is eaten).
            below_bound.filter(|&bound| bound >= 2).map(|_| BOUND_NOTE)
        },
        claims: certificates,
        uncertified_refutation,
    };
    let text = serde_json::to_string_pretty(&manifest)?;
    let manifest_path = dir.join(MANIFEST);
    crate::output::create_unfinished(&manifest_path, || std::fs::File::create(&manifest_path))
        .and_then(|mut file| file.write_all((text + "\n").as_bytes()))
        .map_err(|e| ProofError::write(&manifest_path, e))?;
    crate::output::settle(dir);
    Ok(manifest)
}

/// Certifies every claim on as many threads as there are cores (each with
/// its own CaDiCaL and files): the first thread takes the lowest horizons
/// (the easiest) first, the others the highest (the hardest) first, so the
/// hard ones start early and a deadline does not leave easy ones unproven
/// behind them (with every thread hardest first, `--timeout 2` left
/// horizons of 0.01 s unproven while higher ones were proven). The
/// results (a certificate or why none was written) come back in the order
/// of `claims`.
fn certify_claims(
    instance: &Instance,
    encoding: &dyn Encoding,
    claims: &[(usize, Reason)],
    dir: &Path,
    deadline: Option<Instant>,
) -> Vec<Result<Certificate, ProofError>> {
    let mut order: Vec<usize> = (0..claims.len()).collect();
    order.sort_by_key(|&i| claims[i].0);
    let left = Mutex::new(VecDeque::from(order));
    let results: Vec<Mutex<Option<Result<Certificate, ProofError>>>> =
        claims.iter().map(|_| Mutex::new(None)).collect();
    let workers = crate::solve::parallel::cores().min(claims.len());
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let (left, results) = (&left, &results);
            scope.spawn(move || {
                loop {
                    let mut queue = left.lock().expect("no worker panics");
                    let next = match worker {
                        0 => queue.pop_front(),
                        _ => queue.pop_back(),
                    };
                    drop(queue);
                    let Some(i) = next else { break };
                    let (horizon, reason) = claims[i];
                    let result = certify_one(instance, encoding, horizon, reason, dir, deadline);
                    *results[i].lock().expect("no worker panics") = Some(result);
                }
            });
        }
    });
    results
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .expect("no worker panics")
                .expect("every claim was taken by a worker")
        })
        .collect()
}

/// Encodes `horizon`, writes its CNF and refutes it with a traced proof.
fn certify_one(
    instance: &Instance,
    encoding: &dyn Encoding,
    horizon: usize,
    reason: Reason,
    dir: &Path,
    deadline: Option<Instant>,
) -> Result<Certificate, ProofError> {
    let started = Instant::now();
    let cnf = encoding.encode(instance, horizon)?;
    let (cnf_name, proof_name) = file_names(horizon);
    write_cnf(instance, encoding, horizon, &cnf, &dir.join(cnf_name))?;
    let status = refute(&cnf, &dir.join(proof_name), deadline)?;
    if status == Status::Sat {
        return Err(ProofError::Satisfiable { horizon });
    }
    Certificate::written(dir, horizon, reason, status == Status::Unsat, started)
}

/// The CNF as `snakesat export` writes it (instance, encoding, horizon as comments).
fn write_cnf(
    instance: &Instance,
    encoding: &dyn Encoding,
    horizon: usize,
    cnf: &Cnf,
    path: &Path,
) -> Result<(), ProofError> {
    let file = crate::output::create_unfinished(path, || std::fs::File::create(path))
        .map_err(|e| ProofError::write(path, e))?;
    let mut out = std::io::BufWriter::new(file);
    header::write(cnf, instance, encoding, horizon, None, &mut out)
        .map_err(std::io::Error::from)
        .and_then(|()| out.flush())
        .map_err(|e| ProofError::write(path, e))
}

/// Certifies the answer of a search (see [`certify`]): its refuted horizons
/// (those the search certified itself are kept), and the one below its lower
/// bound unless the search that answered ([`Outcome::search`]) was a fixed
/// horizon. A fixed horizon that the bound excluded without solving it
/// (some apple can never be eaten) is the horizon the answer rests on, so it
/// is certified like any other.
pub fn certify_search(
    instance: &Instance,
    encoding: &dyn Encoding,
    outcome: &Outcome,
    dir: &Path,
    deadline: Option<Instant>,
) -> Result<Manifest, ProofError> {
    let mut refuted = refuted_horizons(&outcome.attempts);
    if let Search::FixedHorizon(t) = outcome.search
        && outcome.attempts.is_empty()
        && matches!(outcome.verdict, Verdict::NoPlan { .. })
    {
        refuted.push(t);
    }
    let done: Vec<Certificate> = outcome
        .attempts
        .iter()
        .filter_map(|a| a.certificate.clone())
        .collect();
    certify(
        instance,
        encoding,
        outcome.search,
        &refuted,
        outcome.lower_bound,
        &done,
        dir,
        deadline,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cnf::VarKind;

    /// A certificate's re-solve past its deadline still refutes a small
    /// formula (unit propagation at CaDiCaL's first check), but stops
    /// loading a large one past its first [`LOADED_PAST_DEADLINE`] literals:
    /// a formula of tens of millions of literals was loaded whole, seconds
    /// past the limit.
    #[test]
    fn past_the_deadline_a_small_formula_is_refuted_and_a_large_one_not_loaded() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let past = Some(Instant::now());
        let mut small = Cnf::new();
        small.family("f");
        let a = small.var(VarKind::Ate { t: 0 });
        small.add(&[a]);
        small.add(&[-a]);
        let status = refute(&small, &dir.path().join("small.drat"), past).unwrap();
        assert_eq!(status, Status::Unsat);
        // Refuted by its last clause only: loaded whole (as it was), it is
        // refuted at once; past the deadline its loading stops first.
        let mut large = Cnf::new();
        large.family("f");
        let vars: Vec<_> = (0..64).map(|t| large.var(VarKind::Ate { t })).collect();
        large.add(&[vars[0]]);
        for i in 0..LOADED_PAST_DEADLINE / 2 + (1 << 17) {
            large.add(&[vars[i % 64], -vars[(i + 1) % 64]]);
        }
        large.add(&[-vars[0]]);
        assert!(large.flat().len() > LOADED_PAST_DEADLINE);
        let status = refute(&large, &dir.path().join("large.drat"), past).unwrap();
        assert_eq!(status, Status::Unknown);
        let status = refute(&large, &dir.path().join("large.drat"), None).unwrap();
        assert_eq!(status, Status::Unsat);
    }
}
