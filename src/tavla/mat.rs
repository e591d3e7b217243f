//! Jellyfish `.mat` match records, the text format gnubg imports (`import mat FILE`) and
//! exports: White is the left column (gnubg's player 0), Black the right. [`write_mat`]
//! writes a match; [`read_mat`] reads one back as typed entries, for a replay to judge.

use super::board::{Board, Side};
use super::dice::Dice;
use super::game::{Action, Game};

/// One move line: each column's entry.
#[derive(Default)]
struct Line {
    cells: [Option<String>; 2],
    numbered: bool,
}

struct GameRecord {
    score: [u32; 2],
    lines: Vec<Line>,
}

impl GameRecord {
    fn new(score: [u32; 2]) -> GameRecord {
        GameRecord {
            score,
            lines: Vec::new(),
        }
    }

    /// Adds `text` in `side`'s column: on the current line when that column is still free
    /// there and (for White) the line is empty, else on a new line.
    fn add(&mut self, side: Side, text: String, numbered: bool) {
        let fits = self.lines.last().is_some_and(|line| match side {
            Side::White => false,
            Side::Black => line.cells[1].is_none(),
        });
        if !fits {
            self.lines.push(Line {
                cells: [None, None],
                numbered,
            });
        }
        if let Some(line) = self.lines.last_mut() {
            line.cells[side.index()] = Some(text);
        }
    }
}

/// The match of `game` as a `.mat` file: every game that began with an opening roll.
/// `names` are White's and Black's. Fails when the record holds no game.
pub fn write_mat(game: &Game, names: [&str; 2]) -> Result<String, String> {
    let mut games: Vec<GameRecord> = Vec::new();
    let mut score = [0u32; 2];
    let mut board = Board::start();
    let mut cube = 1u32;
    for action in game.actions() {
        match *action {
            Action::Opening { .. } => {
                games.push(GameRecord::new(score));
                board = Board::start();
                cube = 1;
            }
            Action::Roll { .. } => {}
            Action::Play { side, dice, play } => {
                let Some(record) = games.last_mut() else {
                    continue;
                };
                let mut text = format!("{}{}:", dice.high(), dice.low());
                for step in play.steps() {
                    let hit = board.step(side, usize::from(step.from), usize::from(step.to));
                    text.push_str(&format!(
                        " {}/{}{}",
                        step.from,
                        step.to,
                        if hit { "*" } else { "" }
                    ));
                }
                record.add(side, text, true);
            }
            Action::Double { side } => {
                if let Some(record) = games.last_mut() {
                    record.add(side, format!(" Doubles => {}", cube * 2), true);
                }
            }
            Action::Take { side } => {
                cube *= 2;
                if let Some(record) = games.last_mut() {
                    record.add(side, " Takes".into(), true);
                }
            }
            Action::Drop { side } => {
                if let Some(record) = games.last_mut() {
                    record.add(side, " Drops".into(), true);
                }
            }
            Action::Win(end) => {
                score[end.winner.index()] += end.points;
                if let Some(record) = games.last_mut() {
                    let plural = if end.points == 1 { "" } else { "s" };
                    let text = format!(" Wins {} point{plural}", end.points);
                    // A win goes beside the loser's last entry when that line has room.
                    let beside = end.winner == Side::Black
                        && record
                            .lines
                            .last()
                            .is_some_and(|l| l.cells[1].is_none() && l.cells[0].is_some());
                    record.add(end.winner, text, beside);
                }
            }
        }
    }
    if games.is_empty() {
        return Err("no game of this match began with an opening roll: nothing to record".into());
    }
    let mut out = String::new();
    out.push_str(&format!(" {} point match\n", game.rules().length));
    for (number, record) in games.iter().enumerate() {
        out.push_str(&format!("\n Game {}\n", number + 1));
        let left = format!("{} : {}", names[0], record.score[0]);
        // Always a space between the columns, however long the left one runs.
        out.push_str(&format!(" {left:<30} {} : {}\n", names[1], record.score[1]));
        let mut move_number = 0;
        for line in &record.lines {
            let prefix = if line.numbered {
                move_number += 1;
                format!("{move_number:3}) ")
            } else {
                "     ".to_string()
            };
            let left = line.cells[0].as_deref().unwrap_or("");
            let text = match &line.cells[1] {
                Some(right) => format!("{prefix}{left:<27} {right}"),
                None => format!("{prefix}{left}"),
            };
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out.push('\n');
    Ok(out)
}

/// What one entry of a move column says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatEntry {
    /// A roll and its play: the dice as written and the steps' text (`13/7 8/5*`; empty
    /// when the roll could not be played).
    Play {
        dice: Dice,
        steps: String,
    },
    /// A double, offering the cube at `cube`.
    Double {
        cube: u32,
    },
    Take,
    Drop,
    /// The game's end, with the points the winner scores.
    Win {
        points: u32,
    },
}

/// One entry where the record has it: its line (counted from 1 in the whole text), the
/// column's side and the entry's words as written (for messages).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatAction {
    pub line: usize,
    pub side: Side,
    pub text: String,
    pub entry: MatEntry,
}

/// One game of a `.mat` match: its ` Game k` line, the players' names and the score before
/// it, then its entries in the order they happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatGame {
    pub line: usize,
    pub names: [String; 2],
    pub score: [u32; 2],
    pub actions: Vec<MatAction>,
}

/// A `.mat` match as [`read_mat`] reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatMatch {
    /// Points to win; 0 is money play.
    pub length: u32,
    pub games: Vec<MatGame>,
}

/// A single entry starting at least this far into a move line's body (past its number) is
/// in the right column: [`write_mat`] puts that column 28 characters in, a left entry at 0
/// or 1.
const RIGHT_COLUMN_FROM: usize = 14;

/// Reads a `.mat` match: the ` N point match` line, then per game ` Game k`, the score
/// line `name : points  name : points` and the numbered move lines. Lines starting with `;`
/// (the arena's tags) and blank lines are skipped. The entries' syntax is checked here,
/// their legality is the replay's. Fails naming the line.
pub fn read_mat(text: &str) -> Result<MatMatch, String> {
    let mut length = None;
    let mut games: Vec<MatGame> = Vec::new();
    let mut awaiting_score = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let at = |detail: String| format!("line {line}: {detail}");
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with(';') {
            continue;
        }
        let Some(_) = length else {
            length = Some(read_length(trimmed).map_err(at)?);
            continue;
        };
        if let Some(number) = trimmed.strip_prefix("Game ") {
            if awaiting_score {
                return Err(at("a game header where the score line was due".into()));
            }
            if number.trim().parse::<usize>().ok() != Some(games.len() + 1) {
                return Err(at(format!(
                    "'{trimmed}' is not game {} of the match",
                    games.len() + 1
                )));
            }
            games.push(MatGame {
                line,
                names: [String::new(), String::new()],
                score: [0, 0],
                actions: Vec::new(),
            });
            awaiting_score = true;
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err(at(format!("'{trimmed}' before the first ' Game 1' line")));
        };
        if awaiting_score {
            (game.names, game.score) = read_score_line(trimmed).map_err(at)?;
            awaiting_score = false;
            continue;
        }
        for (side, text, entry) in read_move_line(raw).map_err(at)? {
            game.actions.push(MatAction {
                line,
                side,
                text,
                entry,
            });
        }
    }
    if length.is_none() {
        return Err("no ' N point match' line: not a .mat match".into());
    }
    if awaiting_score {
        return Err("the last game has no score line".into());
    }
    Ok(MatMatch {
        length: length.unwrap_or(0),
        games,
    })
}

/// ` 5 point match` → 5.
fn read_length(trimmed: &str) -> Result<u32, String> {
    trimmed
        .strip_suffix("point match")
        .and_then(|number| number.trim().parse::<u32>().ok())
        .ok_or_else(|| format!("'{trimmed}' is not the ' N point match' line"))
}

/// `white : 0   black : 1` → the names and the score.
fn read_score_line(trimmed: &str) -> Result<([String; 2], [u32; 2]), String> {
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    let bad = || format!("'{trimmed}' is not a score line 'name : points  name : points'");
    let [white, ":", white_points, black, ":", black_points] = words.as_slice() else {
        return Err(bad());
    };
    let points = |word: &str| word.parse::<u32>().map_err(|_| bad());
    Ok((
        [(*white).to_owned(), (*black).to_owned()],
        [points(white_points)?, points(black_points)?],
    ))
}

/// `63:` → the dice, for a word that names a roll.
fn roll_of(word: &str) -> Option<Dice> {
    let [high, low, b':'] = word.as_bytes() else {
        return None;
    };
    let die = |byte: u8| byte.is_ascii_digit().then(|| byte - b'0');
    Dice::new(die(*high)?, die(*low)?).ok()
}

/// Whether `word` starts an entry (rather than continuing a play's steps).
fn starts_entry(word: &str) -> bool {
    roll_of(word).is_some() || ["Doubles", "Takes", "Drops", "Wins"].contains(&word)
}

/// The words of `body` with where each starts in it.
fn words_at(body: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut start = None;
    for (at, c) in body.char_indices().chain([(body.len(), ' ')]) {
        match (c.is_whitespace(), start) {
            (true, Some(from)) => {
                words.push((from, &body[from..at]));
                start = None;
            }
            (false, None) => start = Some(at),
            _ => {}
        }
    }
    words
}

/// One move line: its entries (one or two) with the column each is in.
fn read_move_line(raw: &str) -> Result<Vec<(Side, String, MatEntry)>, String> {
    let mut words = words_at(raw);
    // The body starts past the move number `  3) `, or past the 5 blanks of an unnumbered
    // line; where an entry starts in it tells its column.
    let numbered = words.first().is_some_and(|&(_, first)| {
        first
            .strip_suffix(')')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    });
    let body_start = if numbered {
        let (at, number) = words.remove(0);
        at + number.len() + 1
    } else {
        5
    };
    let mut entries: Vec<(usize, String, MatEntry)> = Vec::new();
    let mut next = 0;
    while let Some(&(offset, _)) = words.get(next) {
        let end = entry_end(&words, next);
        let entry = read_entry(&words[next..end])
            .map_err(|expected| format!("expected {expected} at '{}'", raw[offset..].trim_end()))?;
        let text: Vec<&str> = words[next..end].iter().map(|&(_, w)| w).collect();
        entries.push((offset.saturating_sub(body_start), text.join(" "), entry));
        next = end;
    }
    match entries.len() {
        0 => Err(format!("'{}' holds no move", raw.trim())),
        1 => Ok(entries
            .into_iter()
            .map(|(offset, text, entry)| {
                let side = if offset >= RIGHT_COLUMN_FROM {
                    Side::Black
                } else {
                    Side::White
                };
                (side, text, entry)
            })
            .collect()),
        2 => Ok(entries
            .into_iter()
            .zip(Side::BOTH)
            .map(|((_, text, entry), side)| (side, text, entry))
            .collect()),
        _ => Err(format!("'{}' holds more than two entries", raw.trim())),
    }
}

/// Where the entry starting at `words[start]` ends: a play runs to the next entry's start,
/// the other entries have a fixed number of words.
fn entry_end(words: &[(usize, &str)], start: usize) -> usize {
    let length = match words[start].1 {
        "Doubles" | "Wins" => 3,
        "Takes" | "Drops" => 1,
        _ => {
            1 + words[start + 1..]
                .iter()
                .take_while(|&&(_, w)| !starts_entry(w))
                .count()
        }
    };
    (start + length).min(words.len())
}

/// The entry `words` spell, or what was expected instead.
fn read_entry(words: &[(usize, &str)]) -> Result<MatEntry, &'static str> {
    let words: Vec<&str> = words.iter().map(|&(_, w)| w).collect();
    let number = |word: &str| word.parse::<u32>().ok();
    match words.as_slice() {
        ["Doubles", rest @ ..] => match rest {
            ["=>", cube] => number(cube).map(|cube| MatEntry::Double { cube }),
            _ => None,
        }
        .ok_or("'Doubles => N'"),
        ["Wins", rest @ ..] => match rest {
            [points, "point" | "points"] => number(points).map(|points| MatEntry::Win { points }),
            _ => None,
        }
        .ok_or("'Wins N points'"),
        ["Takes"] => Ok(MatEntry::Take),
        ["Drops"] => Ok(MatEntry::Drop),
        [roll, steps @ ..] => roll_of(roll)
            .map(|dice| MatEntry::Play {
                dice,
                steps: steps.join(" "),
            })
            .ok_or("a roll '63:', 'Doubles => N', 'Takes', 'Drops' or 'Wins N points'"),
        [] => Err("an entry"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tavla::game::{MatchRules, Phase};
    use crate::tavla::notation::format_play;
    use crate::tavla::{Game, Roller};

    /// A 5-point match whose plays are always the longest to spell, so that the left column
    /// overflows now and then.
    fn long_match(seed: u64) -> Game {
        let mut game = Game::new(MatchRules {
            length: 5,
            ..MatchRules::default()
        });
        let mut roller = Roller::new(seed);
        while game.match_winner().is_none() {
            match game.phase() {
                Phase::Opening | Phase::Over(_) => {
                    let (white, black) = roller.opening();
                    game.start_game(white, black).expect("opening");
                }
                Phase::ToRoll(side) => game.roll(side, roller.roll()).expect("roll"),
                Phase::Doubled { by } => game.take(by.other()).expect("take"),
                Phase::ToPlay { side, .. } => {
                    let (_, _, legal) = game.legal().expect("legal");
                    let board = *game.board();
                    let longest = legal
                        .iter()
                        .max_by_key(|c| format_play(&board, side, &c.play).len())
                        .map(|c| c.play)
                        .expect("a play");
                    game.play(side, longest).expect("play");
                }
            }
        }
        game
    }

    #[test]
    fn columns_stay_apart_however_long_a_play_is() {
        let mut overflowed = 0;
        for seed in 0..10 {
            let text = write_mat(&long_match(seed), ["white", "black"]).expect("record");
            for line in text.lines() {
                let bytes = line.as_bytes();
                for i in 1..bytes.len().saturating_sub(2) {
                    // A roll `dd:` always starts a word.
                    let roll = bytes[i].is_ascii_digit()
                        && bytes[i + 1].is_ascii_digit()
                        && bytes[i + 2] == b':';
                    if roll {
                        assert_eq!(bytes[i - 1], b' ', "glued columns: {line}");
                        // The right column starts past the left one's 28 characters.
                        overflowed += usize::from(i > 5 + 28);
                    }
                }
            }
        }
        assert!(
            overflowed > 0,
            "no left column overflowed: nothing was tested"
        );
    }

    /// Every action `write_mat` writes is read back in order, in its column, even where the
    /// left column overflows into the right one.
    #[test]
    fn read_mat_reads_back_what_write_mat_writes() {
        for seed in 0..10 {
            let game = long_match(seed);
            let text = write_mat(&game, ["white", "black"]).expect("record");
            let read = read_mat(&text).expect("reads");
            assert_eq!(read.length, 5);
            let entries: Vec<(Side, MatEntry)> = read
                .games
                .iter()
                .flat_map(|g| g.actions.iter().map(|a| (a.side, a.entry.clone())))
                .collect();
            let written: Vec<(Side, MatEntry)> = game
                .actions()
                .iter()
                .filter_map(|action| match *action {
                    Action::Play { side, dice, .. } => Some((
                        side,
                        MatEntry::Play {
                            dice: Dice::new(dice.high(), dice.low()).expect("dice"),
                            steps: String::new(),
                        },
                    )),
                    Action::Take { side } => Some((side, MatEntry::Take)),
                    Action::Win(end) => Some((end.winner, MatEntry::Win { points: end.points })),
                    _ => None,
                })
                .collect();
            let without_steps: Vec<(Side, MatEntry)> = entries
                .into_iter()
                .filter(|(_, e)| !matches!(e, MatEntry::Double { .. }))
                .map(|(side, entry)| match entry {
                    MatEntry::Play { dice, .. } => (
                        side,
                        MatEntry::Play {
                            dice,
                            steps: String::new(),
                        },
                    ),
                    other => (side, other),
                })
                .collect();
            assert_eq!(without_steps, written);
        }
    }

    #[test]
    fn bad_lines_are_named() {
        let text = " 3 point match\n\n Game 1\n a : 0   b : 0\n  1) 31: 8/5 6/5   Doubles 2\n";
        assert_eq!(
            read_mat(text),
            Err("line 5: expected 'Doubles => N' at 'Doubles 2'".into())
        );
        let text = " 3 point match\n Game 2\n";
        assert_eq!(
            read_mat(text),
            Err("line 2: 'Game 2' is not game 1 of the match".into())
        );
        assert!(read_mat("; only tags\n").is_err());
    }
}
