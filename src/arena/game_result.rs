//! One finished game as a line of a match folder's `results.tsv`: who played which seat,
//! the seed, the result and why, the record's file name, and each seat's thinking time.
//! Tab-separated `key=value` fields; fields a later build added come last, so that lines
//! written by older builds still parse.

use std::collections::BTreeMap;

use crate::contract::record::{Judgement, MoveCost, costs_text, judgements_text};

/// Who won a game, by seat.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Winner {
    First,
    Second,
    Draw,
    /// Not counted (an engine failure under `--on-failure void`).
    Void,
}

impl Winner {
    fn word(self) -> &'static str {
        match self {
            Winner::First => "first",
            Winner::Second => "second",
            Winner::Draw => "draw",
            Winner::Void => "void",
        }
    }

    fn parse(word: &str) -> Option<Winner> {
        Some(match word {
            "first" => Winner::First,
            "second" => Winner::Second,
            "draw" => Winner::Draw,
            "void" => Winner::Void,
            _ => return None,
        })
    }
}

/// One finished game as `results.tsv` keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// From 0; games 2k and 2k+1 are pair k with colours swapped.
    pub game: usize,
    /// The bot in the first seat (Go: Black) and in the second.
    pub first: String,
    pub second: String,
    /// The game's seed (derived from the match seed and the game number).
    pub seed: u64,
    /// In the game's notation: `B+3.5`, `W+R`, `B+F`, `0`, or `void`.
    pub result: String,
    pub winner: Winner,
    /// Why it ended: `score`, `resignation`, `move cap`, or the failure.
    pub reason: String,
    pub moves: usize,
    /// The record's file name under `games/`.
    pub record: String,
    /// Each seat's thinking, first seat first; `None` in lines written before hamle kept it.
    pub thinking: [Option<Thinking>; 2],
    /// What each move played cost (its thinking time, the clock left), in order, for the
    /// records' per-move times; empty in lines written before hamle kept it.
    pub costs: Vec<MoveCost>,
}

/// One seat's move requests in a game: how many its engine answered and how long they took
/// together, each from the request sent to its answer read, clock or no clock. Milliseconds,
/// an integer, so that results compare with `Eq`; the times are the machine's, so nothing
/// that compares games (`--resume`, `--expect`) looks at them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Thinking {
    pub asked: usize,
    pub millis: u64,
    /// The longest request's time, in milliseconds; `None` in lines written before hamle
    /// kept it.
    pub longest: Option<u64>,
}

impl Thinking {
    /// `asked` requests that took `took` in all, the longest `longest`, rounded to the
    /// millisecond.
    pub fn of(asked: usize, took: std::time::Duration, longest: std::time::Duration) -> Thinking {
        let millis = |time: std::time::Duration| {
            u64::try_from(time.as_micros().saturating_add(500) / 1000).unwrap_or(u64::MAX)
        };
        Thinking {
            asked,
            millis: millis(took),
            longest: Some(millis(longest)),
        }
    }

    /// The time in seconds, `12.345`: written exactly, not through a float.
    fn seconds_text(self) -> String {
        seconds_text(self.millis)
    }
}

/// Milliseconds in seconds, `12.345`: written exactly, not through a float.
fn seconds_text(millis: u64) -> String {
    format!("{}.{:03}", millis / 1000, millis % 1000)
}

impl Thinking {
    /// The fields `longest_first=2.345` and the like, when the longest time is kept.
    fn longest_field(self, word: &str) -> Option<String> {
        Some(format!("longest_{word}={}", seconds_text(self.longest?)))
    }
}

/// The key suffix of a seat's fields (`time_first`, `asked_second`).
const SEAT_WORDS: [&str; 2] = ["first", "second"];

impl GameResult {
    /// The winning bot's name, if any.
    pub fn winner_name(&self) -> Option<&str> {
        match self.winner {
            Winner::First => Some(&self.first),
            Winner::Second => Some(&self.second),
            Winner::Draw | Winner::Void => None,
        }
    }

    /// One line, tab-separated `key=value` fields, no newline.
    pub fn to_line(&self) -> String {
        [
            format!("game={}", self.game),
            format!("first={}", clean(&self.first)),
            format!("second={}", clean(&self.second)),
            format!("seed={}", self.seed),
            format!("result={}", clean(&self.result)),
            format!("winner={}", self.winner.word()),
            format!("moves={}", self.moves),
            format!("record={}", clean(&self.record)),
            format!("reason={}", clean(&self.reason)),
        ]
        .into_iter()
        .chain(self.thinking_fields())
        .chain((!self.costs.is_empty()).then(|| format!("costs={}", costs_text(&self.costs, ","))))
        .chain(judgements_text(&self.costs, ",").map(|text| format!("judgements={text}")))
        .collect::<Vec<_>>()
        .join("\t")
    }

    /// `time_first=12.345`, `asked_first=41`, then the second seat's, for the seats that
    /// have them: after the older fields, so older readers' fields keep their places.
    fn thinking_fields(&self) -> impl Iterator<Item = String> + '_ {
        SEAT_WORDS
            .iter()
            .zip(self.thinking)
            .filter_map(|(word, thinking)| Some((word, thinking?)))
            .flat_map(|(word, thinking)| {
                [
                    Some(format!("time_{word}={}", thinking.seconds_text())),
                    Some(format!("asked_{word}={}", thinking.asked)),
                    thinking.longest_field(word),
                ]
                .into_iter()
                .flatten()
            })
    }

    pub fn from_line(line: &str) -> Result<GameResult, String> {
        let mut fields = BTreeMap::new();
        for field in line.split('\t') {
            // Our writer shows every control character escaped: a raw one is a forgery
            // or damage (a NUL, an ESC, a CR), never a line we wrote.
            if let Some(c) = field.chars().find(|c| c.is_control()) {
                return Err(format!(
                    "field '{}' holds the control character {c:?}",
                    crate::text::shorten(&crate::text::printable(field))
                ));
            }
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| format!("field '{field}' is not key=value"))?;
            fields.insert(key, value);
        }
        let get = |key: &str| {
            fields
                .get(key)
                .copied()
                .ok_or_else(|| format!("field '{key}' is missing"))
        };
        let number = |key: &str| -> Result<u64, String> {
            let value = get(key)?;
            value
                .parse()
                .map_err(|_| format!("field '{key}' is not a number: '{value}'"))
        };
        let winner = get("winner")?;
        Ok(GameResult {
            game: number("game")? as usize,
            first: get("first")?.to_owned(),
            second: get("second")?.to_owned(),
            seed: number("seed")?,
            result: get("result")?.to_owned(),
            winner: Winner::parse(winner).ok_or_else(|| format!("field 'winner' is '{winner}'"))?,
            moves: number("moves")? as usize,
            record: get("record")?.to_owned(),
            reason: get("reason")?.to_owned(),
            thinking: [thinking_of(&fields, 0)?, thinking_of(&fields, 1)?],
            costs: costs_with_judgements(&fields)?,
        })
    }
}

/// The `costs` field's move times with the `judgements` field's judgements in them (one
/// a move, as [`judgements_text`] wrote them); empty without `costs`.
fn costs_with_judgements(fields: &BTreeMap<&str, &str>) -> Result<Vec<MoveCost>, String> {
    let mut costs = match fields.get("costs") {
        Some(text) => costs_of(text).ok_or_else(|| {
            format!(
                "field 'costs' is not a list of move times: '{}'",
                crate::text::shorten(text)
            )
        })?,
        None => Vec::new(),
    };
    if let Some(text) = fields.get("judgements") {
        let judgements = text
            .split(',')
            .map(Judgement::parse)
            .collect::<Result<Vec<_>, String>>()
            .map_err(|error| format!("field 'judgements': {error}"))?;
        if judgements.len() != costs.len() {
            return Err(format!(
                "field 'judgements' has {} moves, field 'costs' {}",
                judgements.len(),
                costs.len()
            ));
        }
        for (cost, judgement) in costs.iter_mut().zip(judgements) {
            cost.judgement = judgement;
        }
    }
    Ok(costs)
}

/// Seat `index`'s thinking from a line's fields: `None` when the line has neither field
/// (written by an older build), an error when it has one without the other or a bad value.
fn thinking_of(fields: &BTreeMap<&str, &str>, index: usize) -> Result<Option<Thinking>, String> {
    let word = SEAT_WORDS[index];
    let (time_key, asked_key) = (format!("time_{word}"), format!("asked_{word}"));
    let (time, asked) = match (
        fields.get(time_key.as_str()),
        fields.get(asked_key.as_str()),
    ) {
        (None, None) => return Ok(None),
        (Some(time), Some(asked)) => (*time, *asked),
        (Some(_), None) => return Err(format!("field '{time_key}' without '{asked_key}'")),
        (None, Some(_)) => return Err(format!("field '{asked_key}' without '{time_key}'")),
    };
    let millis = millis_of(time)
        .ok_or_else(|| format!("field '{time_key}' is not seconds (12.345): '{time}'"))?;
    let asked = asked
        .parse()
        .map_err(|_| format!("field '{asked_key}' is not a number: '{asked}'"))?;
    let longest_key = format!("longest_{word}");
    let longest = match fields.get(longest_key.as_str()) {
        None => None,
        Some(text) => Some(
            millis_of(text)
                .ok_or_else(|| format!("field '{longest_key}' is not seconds: '{text}'"))?,
        ),
    };
    Ok(Some(Thinking {
        asked,
        millis,
        longest,
    }))
}

/// The costs [`costs_text`] wrote; `None` for anything else.
pub(crate) fn costs_of(text: &str) -> Option<Vec<MoveCost>> {
    text.split(',')
        .map(|one| {
            if one == "-" {
                return Some(MoveCost::default());
            }
            let (took, left) = match one.split_once('@') {
                Some((took, left)) => (took, Some(millis_of(left)?)),
                None => (one, None),
            };
            Some(MoveCost {
                thinking: Some(millis_of(took)?),
                clock_left: left,
                judgement: None,
            })
        })
        .collect()
}

/// `12.345` (at most three decimals) in milliseconds, exactly; `None` for anything else.
fn millis_of(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || fraction.len() > 3 || !digits(whole) || !digits(fraction) {
        return None;
    }
    // "5" is 500 ms, "05" 50, "005" 5.
    let padded = format!("{fraction:0<3}");
    let fraction: u64 = padded.parse().ok()?;
    whole
        .parse::<u64>()
        .ok()?
        .checked_mul(1000)?
        .checked_add(fraction)
}

#[cfg(test)]
impl GameResult {
    /// A game for the tests of what reads results: `first` against `second` with
    /// `winner`, seed 0, 10 moves, record `NNNN.txt`, no thinking times.
    pub(crate) fn decided(game: usize, first: &str, second: &str, winner: Winner) -> GameResult {
        GameResult {
            game,
            first: first.into(),
            second: second.into(),
            seed: 0,
            result: "x".into(),
            winner,
            reason: "score".into(),
            moves: 10,
            record: format!("{:04}.txt", game + 1),
            thinking: [None; 2],
            costs: Vec::new(),
        }
    }
}

/// The text with every control character shown escaped ([`crate::text::printable`]: a
/// tab as `\t`), so that it stays one field of one line and does nothing to a terminal.
pub(super) fn clean(text: &str) -> String {
    crate::text::printable(text).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_game(thinking: [Option<Thinking>; 2]) -> GameResult {
        GameResult {
            game: 0,
            first: "a".into(),
            second: "b".into(),
            seed: 7,
            result: "B+R".into(),
            winner: Winner::First,
            reason: "resignation".into(),
            moves: 41,
            record: "0001.sgf".into(),
            thinking,
            costs: Vec::new(),
        }
    }

    #[test]
    fn thinking_fields_come_last_and_round_trip() {
        let timed = a_game([
            Some(Thinking {
                asked: 21,
                millis: 12_345,
                longest: Some(2_001),
            }),
            Some(Thinking {
                asked: 20,
                millis: 7,
                longest: None,
            }),
        ]);
        let line = timed.to_line();
        assert!(
            line.ends_with("\treason=resignation\ttime_first=12.345\tasked_first=21\tlongest_first=2.001\ttime_second=0.007\tasked_second=20"),
            "{line}"
        );
        assert_eq!(GameResult::from_line(&line), Ok(timed));
        let untimed = a_game([None, None]);
        assert!(untimed.to_line().ends_with("\treason=resignation"));
        assert_eq!(GameResult::from_line(&untimed.to_line()), Ok(untimed));
    }

    #[test]
    fn move_costs_round_trip_and_bad_ones_are_refused() {
        let mut timed = a_game([None, None]);
        timed.costs = vec![
            MoveCost::default(),
            MoveCost {
                thinking: Some(120),
                clock_left: None,
                judgement: None,
            },
            MoveCost {
                thinking: Some(1_005),
                clock_left: Some(59_880),
                judgement: None,
            },
        ];
        let line = timed.to_line();
        assert!(line.ends_with("	costs=-,0.120,1.005@59.880"), "{line}");
        assert_eq!(GameResult::from_line(&line), Ok(timed.clone()));
        timed.costs[2].judgement = Some(Judgement {
            win_rate: Some(4_512),
            lead: Some(-350),
            equity: None,
        });
        let line = timed.to_line();
        assert!(
            line.ends_with("	judgements=-,-,wr:0.4512/lead:-3.50"),
            "{line}"
        );
        assert_eq!(GameResult::from_line(&line), Ok(timed));
        let bad = GameResult::from_line(&line.replace("-,-,wr", "-,wr")).expect_err("short");
        assert!(bad.contains("field 'judgements' has 2 moves"), "{bad}");
        let old = a_game([None, None]).to_line();
        let error = GameResult::from_line(&format!("{old}	costs=1,x")).expect_err("bad");
        assert!(error.contains("field 'costs'"), "{error}");
    }

    /// A line as builds before the thinking fields wrote it.
    #[test]
    fn an_old_line_parses_without_thinking() {
        let old = "game=0\tfirst=a\tsecond=b\tseed=7\tresult=B+R\twinner=first\tmoves=41\trecord=0001.sgf\treason=resignation";
        assert_eq!(GameResult::from_line(old), Ok(a_game([None, None])));
        // One seat's fields alone (no writer does so, but a reader takes it).
        let half = format!("{old}\ttime_second=1.5\tasked_second=3");
        let parsed = GameResult::from_line(&half).expect("parses");
        assert_eq!(
            parsed.thinking,
            [
                None,
                Some(Thinking {
                    asked: 3,
                    millis: 1500,
                    longest: None,
                })
            ]
        );
    }

    #[test]
    fn bad_thinking_fields_are_refused() {
        let old = a_game([None, None]).to_line();
        for (fields, message) in [
            (
                "time_first=1.000",
                "field 'time_first' without 'asked_first'",
            ),
            (
                "asked_second=3",
                "field 'asked_second' without 'time_second'",
            ),
            ("time_first=-1\tasked_first=3", "not seconds"),
            ("time_first=1.2345\tasked_first=3", "not seconds"),
            (
                "time_first=1.5\tasked_first=x",
                "'asked_first' is not a number",
            ),
        ] {
            let error = GameResult::from_line(&format!("{old}\t{fields}")).expect_err(fields);
            assert!(error.contains(message), "{fields}: {error}");
        }
    }

    #[test]
    fn seconds_are_read_and_written_to_the_millisecond() {
        let cases = [
            ("0", 0),
            ("2", 2000),
            ("1.5", 1500),
            ("1.05", 1050),
            ("0.007", 7),
        ];
        for (text, millis) in cases {
            assert_eq!(millis_of(text), Some(millis), "{text}");
        }
        for text in ["", ".5", "1,5", "1e3", "+1", "1.2.3", "NaN"] {
            assert_eq!(millis_of(text), None, "{text}");
        }
        let thinking = |micros: u64| {
            let took = std::time::Duration::from_micros(micros);
            Thinking::of(1, took, took)
        };
        assert_eq!(thinking(1_499).millis, 1);
        assert_eq!(thinking(1_500).millis, 2);
        assert_eq!(thinking(12_345_678).seconds_text(), "12.346");
    }
}
