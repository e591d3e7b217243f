//! Small text helpers every floor may use (rules errors, the wire, the arena's logs).

/// Cuts `text` after `limit` characters, marking the cut with `…`: keeps messages
/// readable when an input puts megabytes into one argument, identifier or value.
pub fn shorten_to(text: &str, limit: usize) -> String {
    match text.char_indices().nth(limit) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// [`shorten_to`] at 40 characters, the length of every error message's quote.
pub fn shorten(text: &str) -> String {
    shorten_to(text, 40)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_at_a_character_boundary() {
        assert_eq!(shorten("short"), "short");
        let long = "ğ".repeat(50);
        assert_eq!(shorten(&long), format!("{}…", "ğ".repeat(40)));
        assert_eq!(shorten_to("abcdef", 3), "abc…");
    }
}
