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

/// The text with every control character (C0, DEL, C1) written out as an escape: `\t`,
/// `\n`, `\r`, `\0`, else `\x1b` (`\u{9b}` above ASCII). What a bot says (a move, an error
/// answer, a comment) is shown and stored through this, so that it can neither move the
/// terminal's cursor, recolour it or clear it, nor split or forge a line of a file. Other
/// characters, backslashes included, are kept: applying it twice changes nothing more.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\t' => shown.push_str("\\t"),
            '\n' => shown.push_str("\\n"),
            '\r' => shown.push_str("\\r"),
            '\0' => shown.push_str("\\0"),
            c if c.is_control() && c.is_ascii() => shown.push_str(&format!("\\x{:02x}", c as u32)),
            c if c.is_control() => shown.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => shown.push(c),
        }
    }
    std::borrow::Cow::Owned(shown)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_escaped_once() {
        assert_eq!(printable("e4"), "e4");
        let hostile = "a\u{1b}[2Jb\rc\td\ne\0f\u{7f}g\u{9b}h\\x";
        let shown = printable(hostile);
        assert_eq!(shown, "a\\x1b[2Jb\\rc\\td\\ne\\0f\\x7fg\\u{9b}h\\x");
        assert!(!shown.chars().any(char::is_control));
        assert_eq!(printable(&shown), shown, "a second pass changes nothing");
    }

    #[test]
    fn long_text_is_cut_at_a_character_boundary() {
        assert_eq!(shorten("short"), "short");
        let long = "ğ".repeat(50);
        assert_eq!(shorten(&long), format!("{}…", "ğ".repeat(40)));
        assert_eq!(shorten_to("abcdef", 3), "abc…");
    }
}
