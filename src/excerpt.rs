//! Short excerpts of input text for error messages: a reader never echoes
//! more than [`MAX_ECHO`] characters of what it was given, so one bad token
//! cannot turn an error into a megabyte-long line (README, "Limits"). The
//! `snakesat` binary uses the same functions for the input it reads itself.

/// The most characters of an input token an error message repeats.
pub const MAX_ECHO: usize = 40;

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

#[cfg(test)]
mod tests {
    use super::*;

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
