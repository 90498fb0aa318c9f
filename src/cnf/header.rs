//! The header that makes an exported CNF self-describing: the `c instance`
//! (the instance as one-line JSON, its horizon set), `c encoding`,
//! `c horizon` and `c approximate` comment lines (docs/FORMATS.md), and an
//! optional `c status` label (`generate`). [`Header::meta`] gives the lines
//! for [`dimacs::write`]; [`Header::read`] takes them back from a parsed file
//! and checks that they agree, so `decode` can rebuild the plan from the CNF
//! alone.

use thiserror::Error;

use super::dimacs::{self, ParsedCnf};
use super::{CoordRanges, VarKind};
use crate::encode::decode::{DecodeError, check_horizon};
use crate::encode::{self, Encoding};
use crate::instance::{Instance, InstanceError, json};

/// What an exported CNF says about itself.
pub struct Header {
    /// The instance, with `horizon` equal to [`Header::horizon`].
    pub instance: Instance,
    /// The encoding that wrote the formula.
    pub encoding: Box<dyn Encoding>,
    /// The number of moves the formula describes.
    pub horizon: usize,
}

/// The encoding shows as its name (an [`Encoding`] need not be `Debug`).
impl std::fmt::Debug for Header {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Header")
            .field("instance", &self.instance)
            .field("encoding", &self.encoding.name())
            .field("horizon", &self.horizon)
            .finish()
    }
}

/// Why a CNF's header cannot be read.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum HeaderError {
    /// A `c KEY` line is missing.
    #[error("no `c {0}` line (not written by snakesat export)")]
    Missing(&'static str),
    /// The `c instance` line is not an instance.
    #[error(transparent)]
    Instance(#[from] json::JsonError),
    /// The `c encoding` line names no encoding.
    #[error("{0}")]
    Encoding(encode::NameError),
    /// The `c horizon` line is not a number.
    #[error("bad `c horizon` line")]
    BadHorizon,
    /// The `c approximate` line says otherwise than its encoding.
    #[error(
        "`c approximate {header}` disagrees with encoding {encoding} (approximate: {approximate})"
    )]
    ApproximateDisagrees {
        /// The `c approximate` value, shortened to an excerpt.
        header: String,
        /// Whether the encoding is approximate.
        approximate: bool,
        /// The encoding's name.
        encoding: String,
    },
    /// The horizon is out of range.
    #[error(transparent)]
    Horizon(#[from] DecodeError),
    /// A variable of `1..=V` without its `c var` line.
    #[error(
        "line {line}: `p cnf` declares {}, but variable {var} has no `c var` line (every variable needs one)",
        crate::counted(.declared, "variable")
    )]
    Unnamed {
        /// The line of the `p cnf` header.
        line: usize,
        /// The first variable without a name.
        var: usize,
        /// `V` of the `p cnf` line.
        declared: usize,
    },
    /// A `c var` line whose coordinates lie outside the board, the apples or
    /// the horizon.
    #[error("`{var}`: {why}")]
    OutOfRange {
        /// The `c var` line, as written.
        var: String,
        /// Which coordinate is out of range.
        why: String,
    },
    /// An error about the `c KEY` comment on `line` (1-based).
    #[error("line {line}: {error}")]
    AtLine {
        /// The comment's line.
        line: usize,
        /// What is wrong with it (said in this error's message, so not its
        /// `source`: a chain would say it twice).
        error: Box<HeaderError>,
    },
    /// The instance's own horizon differs from `c horizon`.
    #[error("`c horizon {header}` disagrees with the instance's horizon {instance}")]
    Disagree {
        /// The `c horizon` value.
        header: usize,
        /// The instance's `horizon`.
        instance: usize,
    },
}

impl Header {
    /// The `c KEY VALUE` lines of the header, in order; `status` adds a
    /// `c status` label (`sat`, `unsat`) for benchmark families.
    pub fn meta(
        instance: &Instance,
        encoding: &dyn Encoding,
        horizon: usize,
        status: Option<&str>,
    ) -> Vec<(&'static str, String)> {
        let at = Instance {
            horizon: Some(horizon),
            ..instance.clone()
        };
        let mut meta = vec![
            ("instance", json::to_json(&at)),
            ("encoding", encoding.name()),
            ("horizon", horizon.to_string()),
            ("approximate", encoding.approximate().to_string()),
        ];
        if let Some(status) = status {
            meta.push(("status", status.to_string()));
        }
        meta
    }

    /// Reads and checks the header of a parsed CNF.
    pub fn read(parsed: &ParsedCnf) -> Result<Header, HeaderError> {
        let line = |key: &'static str| parsed.meta.get(key).ok_or(HeaderError::Missing(key));
        // An error about the comment `key`, on its line.
        let at = |key: &str| {
            let line = parsed.meta_lines.get(key).copied();
            move |e: HeaderError| match line {
                Some(line) => HeaderError::AtLine {
                    line,
                    error: Box::new(e),
                },
                None => e,
            }
        };
        let instance = json::from_json(line("instance")?)
            .map_err(HeaderError::from)
            .map_err(at("instance"))?;
        let encoding = encode::by_name(line("encoding")?)
            .map_err(HeaderError::Encoding)
            .map_err(at("encoding"))?;
        let horizon: usize = line("horizon")?
            .parse()
            .map_err(|_| at("horizon")(HeaderError::BadHorizon))?;
        check_horizon(horizon)
            .map_err(HeaderError::from)
            .map_err(at("horizon"))?;
        // (Optional: older files lack it.)
        if let Some(approximate) = parsed.meta.get("approximate")
            && approximate.parse::<bool>().ok() != Some(encoding.approximate())
        {
            return Err(at("approximate")(HeaderError::ApproximateDisagrees {
                header: crate::excerpt::excerpt(approximate),
                approximate: encoding.approximate(),
                encoding: encoding.name(),
            }));
        }
        if let Some(h) = instance.horizon
            && h != horizon
        {
            return Err(at("horizon")(HeaderError::Disagree {
                header: horizon,
                instance: h,
            }));
        }
        // (The names stop at the highest variable named.)
        let unnamed = parsed.names.iter().position(Option::is_none);
        if let Some(i) =
            unnamed.or((parsed.names.len() < parsed.num_vars).then_some(parsed.names.len()))
        {
            return Err(HeaderError::Unnamed {
                line: parsed.header_line,
                var: i + 1,
                declared: parsed.num_vars,
            });
        }
        // (Every variable is named: checked above.)
        names_in_range(parsed.names.iter().flatten(), &instance, horizon)?;
        Ok(Header {
            instance,
            encoding,
            horizon,
        })
    }
}

/// Refuses the first of `names` (variables `1, 2, …`) whose coordinates lie
/// outside `instance`'s board, apples or initial length, or past `horizon`.
fn names_in_range<'a>(
    names: impl Iterator<Item = &'a VarKind>,
    instance: &Instance,
    horizon: usize,
) -> Result<(), HeaderError> {
    let ranges = CoordRanges {
        width: instance.width,
        height: instance.height,
        apples: instance.apples.len(),
        initial_length: instance.initial_length(),
        horizon,
    };
    for (i, name) in names.enumerate() {
        if let Some(why) = name.out_of_range(&ranges) {
            let coords: Vec<String> = name.coords().iter().map(u32::to_string).collect();
            return Err(HeaderError::OutOfRange {
                var: format!("c var {} {} {}", i + 1, name.name(), coords.join(" ")),
                why,
            });
        }
    }
    Ok(())
}

/// Why [`write()`] refused a formula, before writing anything, or could not
/// write it.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum WriteError {
    /// The horizon is 0 or beyond the instance limit.
    #[error("cannot write the header: {0}")]
    Horizon(DecodeError),
    /// The instance breaks a rule of the model.
    #[error("cannot write the header: {0}")]
    Instance(InstanceError),
    /// A variable's coordinates lie off the instance or past the horizon.
    #[error("cannot write the header: {0}")]
    Variable(HeaderError),
    /// Writing failed (or a comment was not one line: see [`dimacs::write`]).
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// For callers that deal in I/O errors: a refusal is `InvalidInput`, with
/// the same message.
impl From<WriteError> for std::io::Error {
    fn from(e: WriteError) -> std::io::Error {
        match e {
            WriteError::Io(e) => e,
            refused => std::io::Error::new(std::io::ErrorKind::InvalidInput, refused.to_string()),
        }
    }
}

/// Writes `cnf` as DIMACS with the header of `instance` at `horizon`. What
/// [`Header::read`] would refuse of it is refused here before anything is
/// written: a horizon of 0 or beyond the instance limit, an invalid
/// instance, a variable whose coordinates lie off the instance or past the
/// horizon (a formula encoded for a longer horizon or another board). The
/// header cannot tell a formula encoded for a shorter horizon: encode at
/// the `horizon` given.
pub fn write(
    cnf: &super::Cnf,
    instance: &Instance,
    encoding: &dyn Encoding,
    horizon: usize,
    status: Option<&str>,
    out: &mut impl std::io::Write,
) -> Result<(), WriteError> {
    check_horizon(horizon).map_err(WriteError::Horizon)?;
    // The header is written at `horizon`, not at the instance's own.
    instance.validate_game().map_err(WriteError::Instance)?;
    names_in_range(cnf.names().iter(), instance, horizon).map_err(WriteError::Variable)?;
    dimacs::write(cnf, &Header::meta(instance, encoding, horizon, status), out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_written_header_reads_back_and_disagreement_is_refused() {
        let instance = json::from_json(
            r#"{"width": 3, "height": 3, "snake": [[0, 0], [1, 0], [2, 0]],
                "apples": [[1, 1]], "visible": 1, "tail": "strict"}"#,
        )
        .unwrap();
        let direct = encode::by_name("direct").unwrap();
        let cnf = direct.encode(&instance, 4).unwrap();
        let mut bytes = Vec::new();
        write(&cnf, &instance, &*direct, 4, Some("sat"), &mut bytes).unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let parsed = dimacs::parse(&text).unwrap();
        assert_eq!(parsed.meta["status"], "sat");
        let header = Header::read(&parsed).unwrap();
        assert_eq!(header.horizon, 4);
        assert_eq!(header.instance.horizon, Some(4));
        assert_eq!(header.encoding.name(), "direct");
        // The header is at the horizon given, whatever the instance's own
        // (one past the instance limit was refused).
        let mut far = instance.clone();
        far.horizon = Some(200_000);
        let mut again = Vec::new();
        write(&cnf, &far, &*direct, 4, Some("sat"), &mut again).unwrap();
        assert_eq!(String::from_utf8(again).unwrap(), text);

        // A horizon the reader would refuse is not written.
        let mut nothing = Vec::new();
        let zero = write(&cnf, &instance, &*direct, 0, None, &mut nothing).unwrap_err();
        assert!(matches!(zero, WriteError::Horizon(_)), "{zero:?}");
        assert_eq!(
            zero.to_string(),
            "cannot write the header: horizon 0 is out of range (1..=100000)"
        );
        assert!(nothing.is_empty());
        // Nor is what the reader would refuse of the instance or the
        // formula (both were written): an invalid instance, a formula of
        // a longer horizon (its variables past the one given).
        let mut on_wall = instance.clone();
        on_wall.walls = vec![(0, 0)];
        let invalid = write(&cnf, &on_wall, &*direct, 4, None, &mut nothing).unwrap_err();
        assert!(matches!(invalid, WriteError::Instance(_)), "{invalid:?}");
        assert!(
            invalid.to_string().starts_with("cannot write the header: "),
            "{invalid}"
        );
        let longer = write(&cnf, &instance, &*direct, 3, None, &mut nothing).unwrap_err();
        assert!(longer.to_string().ends_with("time 4 is past 3"), "{longer}");
        assert!(matches!(
            longer,
            WriteError::Variable(HeaderError::OutOfRange { .. })
        ));
        // As an I/O error (for callers that deal in them): `InvalidInput`, the same words.
        let io = std::io::Error::from(longer);
        assert_eq!(io.kind(), std::io::ErrorKind::InvalidInput);
        assert!(
            io.to_string().starts_with("cannot write the header: "),
            "{io}"
        );
        assert!(nothing.is_empty());

        let other = dimacs::parse(&text.replace("c horizon 4", "c horizon 5")).unwrap();
        let line = 1 + text
            .lines()
            .position(|l| l == "c horizon 4")
            .expect("a c horizon line");
        let disagree = Header::read(&other).unwrap_err();
        assert!(
            matches!(&disagree, HeaderError::AtLine { line: l, error }
                if *l == line && matches!(**error, HeaderError::Disagree { header: 5, instance: 4 })),
            "{disagree:?}"
        );
        assert_eq!(
            disagree.to_string(),
            format!("line {line}: `c horizon 5` disagrees with the instance's horizon 4")
        );
        // An instance that is not JSON names its comment's line too.
        let bad = dimacs::parse(&text.replacen("c instance {", "c instance {{", 1)).unwrap();
        let bad = Header::read(&bad).unwrap_err().to_string();
        let instance_line = 1 + text
            .lines()
            .position(|l| l.starts_with("c instance "))
            .expect("a c instance line");
        assert!(bad.starts_with(&format!("line {instance_line}: ")), "{bad}");
        // `c approximate` must say what the encoding is (it was not read).
        let approximate = text.replace("c approximate false", "c approximate true");
        assert_ne!(approximate, text);
        assert_eq!(
            Header::read(&dimacs::parse(&approximate).unwrap())
                .err()
                .map(|e| e.to_string()),
            Some(
                "line 5: `c approximate true` disagrees with encoding direct (approximate: false)"
                    .to_string()
            )
        );
        let unnamed = text.replace("c var 2 ", "c comment ");
        assert!(matches!(
            Header::read(&dimacs::parse(&unnamed).unwrap()),
            Err(HeaderError::Unnamed { var: 2, .. })
        ));
        // A name given twice (variable 2 renamed as variable 1) is refused,
        // by the parser, at its line: a model's value for it could not be
        // read back.
        let names = dimacs::parse(&text).unwrap().names;
        let (first, second) = (names[0].unwrap(), names[1].unwrap());
        let line = |var: usize, kind: VarKind| {
            let coords: Vec<String> = kind.coords().iter().map(u32::to_string).collect();
            format!("c var {var} {} {}\n", kind.name(), coords.join(" "))
        };
        let twice = text.replacen(&line(2, second), &line(2, first), 1);
        assert_ne!(twice, text);
        assert!(matches!(
            dimacs::parse(&twice),
            Err(dimacs::DimacsError::SameName {
                var: 2,
                first: 1,
                ..
            })
        ));
        // Variables declared beyond the last one named (the names stop
        // there: no table of the declared count is made).
        let declared = dimacs::parse(&text).unwrap().num_vars;
        let more = text.replace(
            &format!("p cnf {declared} "),
            &format!("p cnf {} ", declared + 1000),
        );
        assert_ne!(more, text);
        let parsed = dimacs::parse(&more).unwrap();
        assert_eq!(parsed.names.len(), declared);
        match Header::read(&parsed) {
            Err(HeaderError::Unnamed { var, .. }) => assert_eq!(var, declared + 1),
            other => panic!("{other:?}"),
        }
        // Coordinates off the board or past the horizon name the line.
        for (bad, why) in [
            (
                "c var 1 head 0 3 1",
                "`c var 1 head 0 3 1`: row 3 is off the 3x3 board",
            ),
            (
                "c var 1 head 0 1 5",
                "`c var 1 head 0 1 5`: time 5 is past 4",
            ),
            (
                "c var 1 eaten 1 1",
                "`c var 1 eaten 1 1`: apple 1 is not below 1",
            ),
            (
                "c var 1 same-row 1 1",
                "`c var 1 same-row 1 1`: earlier time 1 is not before 1",
            ),
        ] {
            let off = dimacs::parse(&text.replace("c var 1 head 0 1 1", bad)).unwrap();
            let e = Header::read(&off).expect_err("refused");
            assert!(matches!(e, HeaderError::OutOfRange { .. }), "{e}");
            assert_eq!(e.to_string(), why);
        }
        let none = dimacs::parse(&text.replace("c encoding", "c coding")).unwrap();
        assert!(matches!(
            Header::read(&none),
            Err(HeaderError::Missing("encoding"))
        ));
    }
}
