//! Short excerpts of input text for error messages: a reader never echoes
//! more than [`MAX_ECHO`] characters of what it was given, so one bad token
//! cannot turn an error into a megabyte-long line.

/// The most characters of an input token an error message repeats.
pub(crate) const MAX_ECHO: usize = 40;

/// `text` as written, or its first [`MAX_ECHO`] characters followed by `…`.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(MAX_ECHO) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}…", &text[..cut]),
    }
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
}
