//! How readers number and quote their input text in error messages: its
//! [`lines`], ended alike by LF, CRLF or a lone CR, so that every reader
//! names the same line; and short excerpts, so that a reader never echoes
//! more than [`MAX_ECHO`] characters of what it was given and one bad token
//! cannot turn an error into a megabyte-long line (README, "Limits"). The
//! `snakesat` binary uses the same functions for the input it reads itself.

/// The most characters of an input token an error message repeats.
pub const MAX_ECHO: usize = 40;

/// The lines of input text (PDDL, DIMACS, a model, a CSV table), as
/// [`str::lines`] gives them but also ended by a lone `\r` (old Mac files),
/// so that a comment ends with its line and errors name the right one.
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest.filter(|t| !t.is_empty())?;
        match text.find(['\n', '\r']) {
            Some(end) => {
                let next = if text[end..].starts_with("\r\n") {
                    end + 2
                } else {
                    end + 1
                };
                rest = Some(&text[next..]);
                Some(&text[..end])
            }
            None => {
                rest = None;
                Some(text)
            }
        }
    })
}

/// `text` as written, or its first [`MAX_ECHO`] characters followed by `…`.
pub fn excerpt(text: &str) -> String {
    cut(text, MAX_ECHO)
}

/// `text`, or its first `max` characters followed by `…`.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((at, _)) => format!("{}…", &text[..at]),
    }
}

/// The longest message [`excerpt_words`] keeps, in characters: a message
/// that lists names (every apple cell missing from a goal) ends there.
pub const MAX_MESSAGE: usize = 16 * MAX_ECHO;

/// A message built from input names (a PDDL reader's, which names objects
/// as spelt): every word cut to four times [`MAX_ECHO`] characters (file
/// paths in it stay whole, a megabyte-long name does not), and the whole
/// to [`MAX_MESSAGE`] characters.
pub fn excerpt_words(message: &str) -> String {
    let words: Vec<String> = message.split(' ').map(|w| cut(w, 4 * MAX_ECHO)).collect();
    cut(&words.join(" "), MAX_MESSAGE)
}

/// A message that quotes its input (serde's, for one): every backtick-quoted
/// part cut to an [`excerpt`], and the whole to four times [`MAX_ECHO`]
/// (serde also quotes input between double quotes, which may be escaped
/// inside).
pub fn excerpt_message(message: &str) -> String {
    let parts: Vec<String> = message
        .split('`')
        .enumerate()
        .map(|(i, part)| {
            if i % 2 == 1 {
                excerpt(part)
            } else {
                part.to_string()
            }
        })
        .collect();
    cut(&parts.join("`"), 4 * MAX_ECHO)
}

/// serde_json's message for an error `e` in `text`, without its position
/// (" at line L column C"), quoted input cut by [`excerpt_message`]. A whole
/// number beyond 64 bits, which serde reads as a float and reports as
/// "invalid type: floating point `1e+23`", is named as written, with the
/// largest value a field holds (or, negative, as below 0); one written with a
/// fraction or an exponent keeps serde's words. The number is the token that
/// ends at the error's position. Rust's type names for counts ("expected
/// usize") are said in words: "expected a whole number, 0 or more".
pub fn json_message(text: &str, e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    let message = full.strip_suffix(&suffix).unwrap_or(&full);
    let message = message
        .starts_with("invalid type: floating point")
        .then(|| beyond_64_bits(text, e))
        .flatten()
        .unwrap_or_else(|| excerpt_message(message));
    match ["usize", "u64", "u32"]
        .iter()
        .find_map(|t| message.strip_suffix(&format!("expected {t}")))
    {
        Some(start) => format!("{start}expected a whole number, 0 or more"),
        None => message,
    }
}

/// The words for a whole number beyond 64 bits that ends at `e`'s position,
/// if the token there is one.
fn beyond_64_bits(text: &str, e: &serde_json::Error) -> Option<String> {
    let line = text.lines().nth(e.line().checked_sub(1)?)?;
    let before = line.get(..e.column().min(line.len()))?;
    let start = before
        .rfind(|c: char| !c.is_ascii_digit())
        .map_or(0, |i| i + 1);
    let digits = &before[start..];
    let sign = &before[..start];
    let fraction = sign
        .trim_end_matches('-')
        .ends_with(['.', 'e', 'E', '+', '-']);
    if digits.is_empty() || fraction {
        return None;
    }
    Some(
        if sign.ends_with('-') && digits.bytes().all(|b| b == b'0') {
            // (JSON reads `-0` as a floating-point number.)
            format!("the number -{digits} has a sign: write 0")
        } else if sign.ends_with('-') {
            format!("the number -{} is below 0", excerpt(digits))
        } else {
            format!(
                "the number {} is too large (at most {})",
                excerpt(digits),
                usize::MAX
            )
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_as_str_lines_and_at_a_lone_cr() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\n\nx\n\n",
            "a\rb",
        ] {
            let ours: Vec<&str> = lines(text).collect();
            let lf = text.replace("\r\n", "\n").replace('\r', "\n");
            let std: Vec<&str> = lf.lines().collect();
            assert_eq!(ours, std, "{text:?}");
        }
        assert_eq!(lines("a\rb\r\nc\r").collect::<Vec<_>>(), ["a", "b", "c"]);
    }

    /// "expected usize" was Rust's word for a count in messages about
    /// instances and plans.
    #[test]
    fn counts_are_named_in_words() {
        #[derive(Debug, serde::Deserialize)]
        struct Count {
            _n: usize,
        }
        for text in [r#"{"_n": -1}"#, r#"{"_n": 2.5}"#, r#"{"_n": "3"}"#] {
            let e = serde_json::from_str::<Count>(text).unwrap_err();
            let message = json_message(text, &e);
            assert!(
                message.ends_with(", expected a whole number, 0 or more"),
                "{message}"
            );
        }
    }

    #[test]
    fn long_tokens_are_cut_short_ones_kept() {
        assert_eq!(excerpt("pos1-2"), "pos1-2");
        let long = "é".repeat(10_000);
        let cut = excerpt(&long);
        assert_eq!(cut.chars().count(), MAX_ECHO + 1);
        assert!(cut.ends_with('…'));
    }

    #[test]
    fn a_message_keeps_its_words_and_cuts_what_it_quotes() {
        let long = "Q".repeat(10_000);
        let cut = excerpt_message(&format!("unknown field `{long}`, expected `path`"));
        assert_eq!(
            cut,
            format!("unknown field `{}…`, expected `path`", "Q".repeat(40))
        );
        let serde = excerpt_message(&format!(
            "invalid type: string \"{long}\", expected a sequence"
        ));
        assert_eq!(serde.chars().count(), 4 * MAX_ECHO + 1);
        assert!(serde.starts_with("invalid type: string \"QQQ"));
        assert_eq!(excerpt_message("short"), "short");
    }
}
