//! The IPC-2018 snake domain that every problem is read against, built in:
//! a domain file given on the command line (the IPC's `planner DOMAIN
//! PROBLEM PLAN` and VAL's `validate DOMAIN PROBLEM PLAN` conventions) is
//! only compared with it ([`check_snake_domain`]), token by token, since
//! snakesat plans and checks by that domain's rules alone.

use thiserror::Error;

use crate::excerpt::excerpt;

/// The domain file of IPC-2018's snake track
/// (`benchmarks/ipc2018-snake/domain.pddl`).
pub const IPC2018_SNAKE_DOMAIN: &str = include_str!("../../benchmarks/ipc2018-snake/domain.pddl");

/// Why a domain file is not the built-in snake domain.
#[derive(Debug, Error, PartialEq, Eq)]
#[non_exhaustive]
pub enum DomainMismatch {
    /// Not a domain file at all.
    #[error("it is not a domain file (it does not begin with `(define (domain`)")]
    NotADomain,
    /// A domain that differs from IPC-2018's snake domain.
    #[error(
        "line {line}: {found} where IPC-2018's snake domain, which snakesat has built in, has {expected}"
    )]
    Differs {
        /// The line of the first token that differs (1-based).
        line: usize,
        /// That token, or `the end of the file`.
        found: String,
        /// The built-in domain's token there, or `the end of the file`.
        expected: String,
    },
}

/// The tokens of PDDL `text` (parentheses and words, lowercased, without
/// `;` comments or a leading byte-order mark), each with its line, read
/// lazily one token at a time ([`super::is_domain_text`] reads four), so a
/// file of one long line is compared in constant memory (a 15 MB line
/// collected per line took 1 GB before its third token was refused).
pub(super) fn tokens(text: &str) -> impl Iterator<Item = (usize, String)> + '_ {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    crate::excerpt::lines(text)
        .enumerate()
        .flat_map(|(i, line)| {
            let mut code = line.split(';').next().unwrap_or("");
            std::iter::from_fn(move || {
                code = code.trim_start();
                let end = match code.chars().next()? {
                    '(' | ')' => 1,
                    _ => code
                        .find(|c: char| c == '(' || c == ')' || c.is_whitespace())
                        .unwrap_or(code.len()),
                };
                let (word, rest) = code.split_at(end);
                code = rest;
                Some((i + 1, word.to_ascii_lowercase()))
            })
        })
}

/// Checks that `text` is IPC-2018's snake domain: the same tokens in the same
/// order (any case, spacing and comments).
pub fn check_snake_domain(text: &str) -> Result<(), DomainMismatch> {
    if !super::is_domain_text(text) {
        return Err(DomainMismatch::NotADomain);
    }
    let mut given = tokens(text);
    let mut built_in = tokens(IPC2018_SNAKE_DOMAIN);
    let end = || "the end of the file".to_string();
    // (A file cut short differs on its last line.)
    let mut last_line = 1;
    loop {
        match (given.next(), built_in.next()) {
            (None, None) => return Ok(()),
            (Some((line, a)), Some((_, b))) if a == b => last_line = line,
            (found, expected) => {
                let line = found.as_ref().map_or(last_line, |(line, _)| *line);
                return Err(DomainMismatch::Differs {
                    line,
                    found: found.map_or_else(end, |(_, t)| format!("`{}`", excerpt(&t))),
                    expected: expected.map_or_else(end, |(_, t)| format!("`{t}`")),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token reader gives the tokens of splitting each line (before its
    /// `;`) around parentheses and at whitespace, Unicode's included.
    #[test]
    fn tokens_are_those_of_splitting_each_line() {
        let texts = [
            IPC2018_SNAKE_DOMAIN,
            "(define(domain SNAKE)) ; c\n  (:a\t(b)c)d\r\n;only\n((x\u{a0}y)\u{2003})",
            "\u{feff}(DEFINE (Domain x)\r(a)\r\n",
            "",
            ";;\n\n)(",
        ];
        for text in texts {
            let body = text.strip_prefix('\u{feff}').unwrap_or(text);
            let expected: Vec<(usize, String)> = crate::excerpt::lines(body)
                .enumerate()
                .flat_map(|(i, line)| {
                    let code = line.split(';').next().unwrap_or("");
                    code.replace('(', " ( ")
                        .replace(')', " ) ")
                        .split_whitespace()
                        .map(|word| (i + 1, word.to_ascii_lowercase()))
                        .collect::<Vec<_>>()
                })
                .collect();
            assert_eq!(tokens(text).collect::<Vec<_>>(), expected, "{text:?}");
        }
    }

    #[test]
    fn the_ipc_domain_in_any_spelling_is_the_snake_domain() {
        assert_eq!(check_snake_domain(IPC2018_SNAKE_DOMAIN), Ok(()));
        let shouted = format!(
            "; a comment\r\n{}",
            IPC2018_SNAKE_DOMAIN.to_uppercase().replace('\n', "  \r\n")
        );
        assert_eq!(check_snake_domain(&shouted), Ok(()));
    }

    #[test]
    fn another_domain_is_refused_at_its_first_difference() {
        let renamed = IPC2018_SNAKE_DOMAIN.replacen("move-and-eat-spawn", "teleport", 1);
        let line = IPC2018_SNAKE_DOMAIN
            .lines()
            .position(|l| l.contains("move-and-eat-spawn"))
            .unwrap()
            + 1;
        assert_eq!(
            check_snake_domain(&renamed),
            Err(DomainMismatch::Differs {
                line,
                found: "`teleport`".into(),
                expected: "`move-and-eat-spawn`".into(),
            })
        );
        let cut = &IPC2018_SNAKE_DOMAIN[..IPC2018_SNAKE_DOMAIN.len() - 3];
        assert!(matches!(
            check_snake_domain(cut),
            Err(DomainMismatch::Differs { found, .. }) if found == "the end of the file"
        ));
        assert_eq!(
            check_snake_domain("(define (problem p))"),
            Err(DomainMismatch::NotADomain)
        );
    }
}
