//! Jellyfish `.mat` match records, the text format gnubg imports (`import mat FILE`) and
//! exports: White is the left column (gnubg's player 0), Black the right.

use super::board::{Board, Side};
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
}
