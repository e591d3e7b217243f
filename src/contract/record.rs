//! Tag lines of the text records (`[Key "value"]`, as PGN writes them): the one writer
//! and reader every game's records and the arena's PGN export share.

/// Escapes a tag value: backslashes and double quotes get a backslash; a control character
/// (a line break, an ESC from a bot's answer) is shown escaped ([`crate::text::printable`]),
/// so that a value stays on its line and does nothing to a terminal showing it.
pub fn quote(value: &str) -> String {
    crate::text::printable(value)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// `[Key "value"]` lines, one a tag, each ending in a newline.
pub fn write_tags<V: AsRef<str>>(tags: &[(&str, V)]) -> String {
    tags.iter()
        .map(|(key, value)| format!("[{key} \"{}\"]\n", quote(value.as_ref())))
        .collect()
}

/// The tags of a text record (`[Key "value"]` lines), in order, values unescaped.
pub fn read_tags(text: &str) -> Vec<(String, String)> {
    text.lines()
        .filter_map(|line| line.strip_prefix('[')?.strip_suffix("\"]"))
        .filter_map(|inner| {
            let (key, value) = inner.split_once(" \"")?;
            Some((
                key.to_owned(),
                value.replace("\\\"", "\"").replace("\\\\", "\\"),
            ))
        })
        .collect()
}

/// The value of tag `key` among `tags`, or a message naming the missing tag.
pub fn find_tag(tags: &[(String, String)], key: &str) -> Result<String, String> {
    tags.iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
        .ok_or_else(|| format!("tag {key} is missing"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_round_trip_through_quoting() {
        let text = write_tags(&[("Black", "a \"b\" \\c"), ("Result", "1-0")]);
        assert_eq!(text, "[Black \"a \\\"b\\\" \\\\c\"]\n[Result \"1-0\"]\n");
        let tags = read_tags(&text);
        assert_eq!(find_tag(&tags, "Black").as_deref(), Ok("a \"b\" \\c"));
        assert_eq!(
            find_tag(&tags, "Date"),
            Err("tag Date is missing".to_owned())
        );
    }
}
