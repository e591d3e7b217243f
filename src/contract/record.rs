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

/// What one move of a game cost, as the arena measured it: the engine's thinking time (from
/// the request sent to its answer read) and, under a clock, the time its clock had left after
/// the move; both `None` for a move no engine chose (`--opening-plies`). Milliseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCost {
    pub thinking: Option<u64>,
    pub clock_left: Option<u64>,
}

/// Each move's cost, joined by `separator`: `-` for a move no engine chose, else its
/// thinking seconds and, under a clock, `@` and the seconds left (`0.120@59.880`).
pub fn costs_text(costs: &[MoveCost], separator: &str) -> String {
    let one = |cost: &MoveCost| match (cost.thinking, cost.clock_left) {
        (None, _) => "-".to_owned(),
        (Some(took), None) => seconds_text(took),
        (Some(took), Some(left)) => format!("{}@{}", seconds_text(took), seconds_text(left)),
    };
    costs.iter().map(one).collect::<Vec<_>>().join(separator)
}

/// A text record (tag lines, a blank line, the moves) with a `[MoveTimes "…"]` tag after
/// its tags: each move's cost ([`costs_text`], space-separated), where a move's own line
/// has no room for it that the game's reader would take; unchanged without costs.
pub fn with_move_times(record: String, costs: &[MoveCost]) -> String {
    if costs.is_empty() {
        return record;
    }
    let tag = write_tags(&[("MoveTimes", costs_text(costs, " "))]);
    match record.find("\n\n") {
        Some(at) => format!("{}{tag}{}", &record[..=at], &record[at + 1..]),
        None => record,
    }
}

/// A record without the move times [`crate::contract::Referee::timed_record`] writers add
/// (the `MoveTimes` tag lines, SGF's `BL`, `WL` and `C[thinking …]`): the machine's, so
/// that two records of the same moves compare equal.
pub fn without_move_times(text: &str) -> String {
    static TIMES: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let times = TIMES.get_or_init(|| {
        regex::Regex::new(
            r#"(?m)^(; )?\[MoveTimes "[^"\n]*"\]\n|[BW]L\[[0-9.]*\]|C\[thinking [0-9.]* s\]"#,
        )
        .ok()
    });
    match times {
        Some(times) => times.replace_all(text, "").into_owned(),
        None => text.to_owned(),
    }
}

/// Milliseconds as `H:MM:SS.s` (tenths, rounded down), PGN's `[%emt]` form.
pub fn elapsed_text(millis: u64) -> String {
    let tenths = millis / 100;
    let seconds = tenths / 10;
    format!(
        "{}:{:02}:{:02}.{}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        tenths % 10
    )
}

/// Milliseconds as `H:MM:SS` (whole seconds, rounded down), PGN's `[%clk]` form.
pub fn clock_text(millis: u64) -> String {
    let seconds = millis / 1000;
    format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    )
}

/// Milliseconds in seconds with three decimals, `12.345`, written exactly.
pub fn seconds_text(millis: u64) -> String {
    format!("{}.{:03}", millis / 1000, millis % 1000)
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
        assert_eq!(elapsed_text(3_723_456), "1:02:03.4");
        let costs = [MoveCost {
            thinking: Some(120),
            clock_left: Some(5_000),
        }];
        let text = with_move_times("[A \"b\"]\n\n1. x\n".to_owned(), &costs);
        assert_eq!(text, "[A \"b\"]\n[MoveTimes \"0.120@5.000\"]\n\n1. x\n");
        assert_eq!(without_move_times(&text), "[A \"b\"]\n\n1. x\n");
        assert_eq!(
            without_move_times(";B[aa]BL[5.000]C[thinking 0.120 s];W[]"),
            ";B[aa];W[]"
        );
        assert_eq!(clock_text(59_999), "0:00:59");
        assert_eq!(seconds_text(1_005), "1.005");
        assert_eq!(
            find_tag(&tags, "Date"),
            Err("tag Date is missing".to_owned())
        );
    }
}
