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
    /// The engine's own judgement of the game as it chose the move, where it reported one
    /// (`--record-judgement`), seen from the first seat.
    pub judgement: Option<Judgement>,
}

/// An engine's judgement of the game as it chose a move (Go: the last `info` line of
/// `lz-`/`kata-genmove_analyze`), always from the first seat's side, so that a curve of a
/// game reads one way: the win rate in hundredths of a percent (0–10000) and the score lead
/// in hundredths of a point (negative: the second seat leads). Integers keep a record's
/// text exact when it is read back. Tavla's engine reports instead its cubeless equity
/// (`genmove_analyze`), in thousandths of a point.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    pub win_rate: Option<u32>,
    pub lead: Option<i64>,
    pub equity: Option<i64>,
}

impl Judgement {
    /// The same judgement seen from the other seat.
    pub fn flipped(self) -> Judgement {
        Judgement {
            win_rate: self.win_rate.map(|rate| 10_000u32.saturating_sub(rate)),
            lead: self.lead.map(|lead| -lead),
            equity: self.equity.map(|equity| -equity),
        }
    }

    /// `wr:0.5234/lead:-3.50` or `eq:-0.123` (each part alone when only it was reported), the form of
    /// `results.tsv` and the `MoveJudgements` tag; `-` for none.
    pub fn text(judgement: Option<Judgement>) -> String {
        let Some(judgement) = judgement else {
            return "-".to_owned();
        };
        let mut parts = Vec::new();
        if let Some(rate) = judgement.win_rate {
            parts.push(format!("wr:{}.{:04}", rate / 10_000, rate % 10_000));
        }
        if let Some(lead) = judgement.lead {
            parts.push(format!("lead:{}", hundredths_text(lead)));
        }
        if let Some(equity) = judgement.equity {
            parts.push(format!("eq:{}", thousandths_text(equity)));
        }
        if parts.is_empty() {
            "-".to_owned()
        } else {
            parts.join("/")
        }
    }

    /// What [`Judgement::text`] wrote: `Ok(None)` for `-`; anything else is an error
    /// quoting it.
    pub fn parse(text: &str) -> Result<Option<Judgement>, String> {
        let bad = || {
            format!(
                "not a judgement (wr:0.5234/lead:-3.50): '{}'",
                crate::text::shorten(text)
            )
        };
        if text == "-" {
            return Ok(None);
        }
        let mut judgement = Judgement::default();
        for part in text.split('/') {
            match part.split_once(':') {
                Some(("wr", rate)) => judgement.win_rate = Some(win_rate_of(rate).ok_or_else(bad)?),
                Some(("lead", lead)) => judgement.lead = Some(hundredths_of(lead).ok_or_else(bad)?),
                Some(("eq", equity)) => {
                    judgement.equity = Some(thousandths_of(equity).ok_or_else(bad)?)
                }
                _ => return Err(bad()),
            }
        }
        Ok(Some(judgement))
    }
}

/// Hundredths as `-3.50` (always a sign for a negative, two decimals).
pub fn hundredths_text(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

/// Thousandths as `-0.123` (always a sign for a negative, three decimals): an equity.
pub fn thousandths_text(value: i64) -> String {
    let sign = if value < 0 { "-" } else { "" };
    let abs = value.unsigned_abs();
    format!("{sign}{}.{:03}", abs / 1000, abs % 1000)
}

/// An equity `-0.123` in thousandths, rounded to the nearest; `None` for anything else
/// (or a value past a thousand points: no game's equity comes near).
pub fn thousandths_of(text: &str) -> Option<i64> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value.abs() < 1e3).then(|| (value * 1000.0).round() as i64)
}

/// `-3.5` or `+12.25` in hundredths, rounded to the nearest; `None` for anything else
/// (or a value past a billion points).
pub fn hundredths_of(text: &str) -> Option<i64> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && value.abs() < 1e9).then(|| (value * 100.0).round() as i64)
}

/// A win rate `0.5234` (a fraction, at most 1) in hundredths of a percent.
fn win_rate_of(text: &str) -> Option<u32> {
    let value: f64 = text.parse().ok()?;
    (0.0..=1.0)
        .contains(&value)
        .then(|| (value * 10_000.0).round() as u32)
}

/// Each move's judgement ([`Judgement::text`]) joined by `separator`; `None` when no move
/// has one (records of engines that report none stay as they were).
pub fn judgements_text(costs: &[MoveCost], separator: &str) -> Option<String> {
    costs.iter().any(|cost| cost.judgement.is_some()).then(|| {
        costs
            .iter()
            .map(|cost| Judgement::text(cost.judgement))
            .collect::<Vec<_>>()
            .join(separator)
    })
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
    let mut tag = write_tags(&[("MoveTimes", costs_text(costs, " "))]);
    if let Some(judgements) = judgements_text(costs, " ") {
        tag.push_str(&write_tags(&[("MoveJudgements", judgements)]));
    }
    match record.find("\n\n") {
        Some(at) => format!("{}{tag}{}", &record[..=at], &record[at + 1..]),
        None => record,
    }
}

/// A record without the move times and judgements [`crate::contract::Referee::timed_record`]
/// writers add (the `MoveTimes` and `MoveJudgements` tag lines, SGF's `BL`, `WL`, `SBKV` and
/// `C[thinking …]`): the machine's, so that two records of the same moves compare equal.
pub fn without_move_times(text: &str) -> String {
    static TIMES: std::sync::OnceLock<Option<regex::Regex>> = std::sync::OnceLock::new();
    let times = TIMES.get_or_init(|| {
        regex::Regex::new(
            r#"(?m)^(; )?\[Move(Times|Judgements) "[^"\n]*"\]\n|[BW]L\[[0-9.]*\]|SBKV\[[0-9.]*\]|C\[thinking [0-9.]* s[^\]]*\]"#,
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
            judgement: None,
        }];
        let text = with_move_times("[A \"b\"]\n\n1. x\n".to_owned(), &costs);
        assert_eq!(text, "[A \"b\"]\n[MoveTimes \"0.120@5.000\"]\n\n1. x\n");
        assert_eq!(without_move_times(&text), "[A \"b\"]\n\n1. x\n");
        assert_eq!(
            without_move_times(";B[aa]BL[5.000]C[thinking 0.120 s];W[]"),
            ";B[aa];W[]"
        );
        let judged = [MoveCost {
            judgement: Some(Judgement {
                win_rate: Some(10_000),
                ..Judgement::default()
            }),
            ..costs[0]
        }];
        let text = with_move_times("[A \"b\"]\n\n1. x\n".to_owned(), &judged);
        assert!(
            text.contains("[MoveJudgements \"wr:1.0000\"]\n\n"),
            "{text}"
        );
        assert_eq!(without_move_times(&text), "[A \"b\"]\n\n1. x\n");
        assert_eq!(
            without_move_times(";B[aa]SBKV[52.30]C[thinking 0.120 s, win rate B 52.30%];W[]"),
            ";B[aa];W[]"
        );
        assert_eq!(Judgement::parse("-"), Ok(None));
        assert_eq!(
            Judgement::parse("lead:-0.05").map(|j| j.map(Judgement::flipped)),
            Ok(Some(Judgement {
                lead: Some(5),
                ..Judgement::default()
            }))
        );
        let equity = Judgement::parse("eq:-0.123").map(|j| j.map(Judgement::flipped));
        assert_eq!(equity.map(Judgement::text), Ok("eq:0.123".to_owned()));
        assert!(Judgement::parse("wr:1.5").is_err());
        assert!(Judgement::parse("ev:1").is_err());
        assert!(Judgement::parse("eq:1e9").is_err());
        assert_eq!(hundredths_text(-5), "-0.05");
        assert_eq!(clock_text(59_999), "0:00:59");
        assert_eq!(seconds_text(1_005), "1.005");
        assert_eq!(
            find_tag(&tags, "Date"),
            Err("tag Date is missing".to_owned())
        );
    }
}
