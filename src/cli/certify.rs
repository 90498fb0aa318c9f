//! `--proof DIR` of `solve`: checks the folder and the encoding before the
//! search, then writes the certificates of its answer ([`snakesat::proof`]).

use crate::cli::Exit;
use std::path::Path;
use std::time::{Duration, Instant};

use snakesat::encode::{EncodeError, Encoding};
use snakesat::instance::Instance;
use snakesat::planner::Outcome;
use snakesat::proof::{self, Certification};

use super::{Failure, bad_input};

/// Refuses what cannot be certified: an approximate encoding (its UNSAT
/// proves nothing about the game), a folder holding an earlier run's
/// certificates (they would stay beside the new manifest) or a folder that
/// cannot be created. A folder created here is removed again by a signal
/// before the manifest is written ([`proof::create_dir`]).
pub fn check(dir: &Path, encoding: &dyn Encoding) -> Result<(), Failure> {
    if encoding.capabilities().approximate {
        return Err(bad_input(format!(
            "--proof needs a sound encoding; {} is an approximation",
            encoding.name()
        )));
    }
    super::generate::refuse_non_folder(dir)?;
    refuse_earlier(dir)?;
    proof::create_dir(dir).map_err(|e| bad_input(format!("{:#}", anyhow::Error::from(e))))
}

/// Refuses a certificate folder that holds the manifest of an earlier run,
/// or certificate files without one (a run that did not finish).
pub fn refuse_earlier(dir: &Path) -> Result<(), Failure> {
    let manifest = dir.join(proof::MANIFEST);
    let leftover = || {
        let names = std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .map(|e| e.file_name());
        names
            .filter(|name| name.to_str().is_some_and(proof::is_certificate_file))
            .min()
    };
    let earlier = if manifest.exists() {
        manifest
    } else if let Some(name) = leftover() {
        dir.join(name)
    } else {
        return Ok(());
    };
    Err(bad_input(format!(
        "{} holds the certificates of an earlier run ({}); give --proof a new or empty folder",
        dir.display(),
        earlier.display()
    )))
}

/// The exit code of a certificate that could not be written: a formula
/// beyond the encoding's limits is a request that does not fit (exit 2, as
/// when the search itself would build it), and a folder or file that cannot
/// be written (no space left, say) a bad output path (exit 2, as for
/// `export`, `generate` and `--search fresh`); anything else (CaDiCaL
/// refusing to trace, a re-solve against the search) is exit 3.
fn failure_code(error: &proof::ProofError) -> Exit {
    use proof::ProofError as E;
    match error {
        E::Encode(EncodeError::TooBig { .. })
        | E::NulPath { .. }
        | E::Create { .. }
        | E::NotAFolder { .. }
        | E::Write { .. }
        | E::Io(_) => Exit::BadInput,
        _ => Exit::Unknown,
    }
}

/// Writes the certificates of the search's `outcome` into `dir` (the re-solves get their own
/// `timeout`, if any) and says on stderr what they cover.
pub fn write(
    dir: &Path,
    instance: &Instance,
    encoding: &dyn Encoding,
    outcome: &Outcome,
    timeout: Option<Duration>,
) -> Result<Certification, Failure> {
    let deadline = timeout.map(|d| Instant::now() + d);
    let manifest =
        proof::certify_search(instance, encoding, outcome, dir, deadline).map_err(|e| Failure {
            code: failure_code(&e),
            message: format!("certificates: {:#}", anyhow::Error::from(e)),
        })?;
    // An unknown answer claims nothing: it is not certified, whatever its
    // certificates (of the horizons refuted by then) say.
    let certified =
        (outcome.status() != snakesat::solve::Status::Unknown).then(|| manifest.certified());
    note!(
        "proof: {} certificate(s) in {}; {}",
        manifest.claims.len(),
        dir.display(),
        match certified {
            Some(true) => "every refuted horizon is certified",
            // (No claim at all: the one refuted horizon's formula is too big.)
            Some(false) if manifest.claims.is_empty() => {
                "not certified: the horizon's formula is beyond the encoding's limits (the answer \
                 rests on the lower bound; see the manifest)"
            }
            Some(false) => "some re-solve reached the time limit: not certified",
            None => "no answer (unknown), so nothing is certified",
        }
    );
    Ok(Certification {
        certified,
        proof_dir: dir.display().to_string(),
        certificates: manifest.claims,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unwritable_certificate_is_a_bad_output_path() {
        let full = proof::ProofError::Write {
            path: "p/horizon-26.drat".into(),
            source: std::io::Error::other("No space left on device"),
        };
        assert_eq!(failure_code(&full), Exit::BadInput);
        let contradiction = proof::ProofError::Satisfiable { horizon: 3 };
        assert_eq!(failure_code(&contradiction), Exit::Unknown);
    }
}
