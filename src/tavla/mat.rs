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
        out.push_str(&format!(" {left:<31}{} : {}\n", names[1], record.score[1]));
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
                Some(right) => format!("{prefix}{left:<28}{right}"),
                None => format!("{prefix}{left}"),
            };
            out.push_str(text.trim_end());
            out.push('\n');
        }
    }
    out.push('\n');
    Ok(out)
}
