//! The Tavla player: picks a checker play for a roll and answers cube questions.
//!
//! Levels are evaluators of the position after a play; the player tries every legal play and
//! keeps the one its evaluator likes best for the mover.

use std::str::FromStr;

use super::board::{Board, Side};
use super::dice::Dice;
use super::game::State;
use super::moves::{Play, legal_plays};

/// Which evaluator plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Level {
    /// Pip count, made points and exposed blots: a hand-written baseline.
    #[default]
    Greedy,
}

impl FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Level, String> {
        match text {
            "greedy" => Ok(Level::Greedy),
            _ => Err(format!("unknown level '{text}' (greedy)")),
        }
    }
}

/// The player at one level.
#[derive(Clone, Debug, Default)]
pub struct Player {
    level: Level,
}

impl Player {
    pub fn new(level: Level) -> Player {
        Player { level }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// The play `side` makes with `dice`.
    pub fn choose_play(&mut self, board: &Board, side: Side, dice: Dice) -> Play {
        let plays = legal_plays(board, side, dice);
        let mut best = plays[0].play;
        let mut best_score = f64::NEG_INFINITY;
        for candidate in &plays {
            let score = self.evaluate(&candidate.after, side);
            if score > best_score {
                best_score = score;
                best = candidate.play;
            }
        }
        best
    }

    /// How good `board` is for `side`, `side` having just moved; larger is better.
    pub fn evaluate(&self, board: &Board, side: Side) -> f64 {
        match self.level {
            Level::Greedy => greedy(board, side),
        }
    }

    /// Whether `side`, to roll, doubles.
    pub fn should_double(&mut self, state: &State, side: Side) -> bool {
        let lead = race_lead(&state.board, side);
        state.board.is_race() && (0.08..0.20).contains(&lead)
    }

    /// Whether `side`, doubled, takes.
    pub fn should_take(&mut self, state: &State, side: Side) -> bool {
        !state.board.is_race() || race_lead(&state.board, side.other()) < 0.20
    }
}

/// The doubler's relative pip lead in a race, counting its roll as 8 pips.
fn race_lead(board: &Board, side: Side) -> f64 {
    let mine = f64::from(board.pip_count(side)) - 4.0;
    let theirs = f64::from(board.pip_count(side.other())) + 4.0;
    (theirs - mine) / mine.max(1.0)
}

fn greedy(board: &Board, side: Side) -> f64 {
    let other = side.other();
    let mine = board.row(side);
    let pips = f64::from(board.pip_count(other)) - f64::from(board.pip_count(side));
    let mut score = pips;
    score += 4.0 * f64::from(board.bar(other));
    score += 2.0 * f64::from(board.borne_off(side));
    if board.is_race() {
        return score;
    }
    for point in 1..=24usize {
        let n = mine[point - 1];
        if n >= 2 {
            // Home points and the bar point block best.
            score += if point <= 7 { 3.0 } else { 1.5 };
        } else if n == 1 && exposed(board, side, point) {
            score -= 2.0 + (25 - point) as f64 / 6.0;
        }
    }
    score
}

/// Whether an opposing checker stands within direct range of `side`'s blot on `point`.
fn exposed(board: &Board, side: Side, point: usize) -> bool {
    let theirs = board.row(side.other());
    // The opponent's checker on its point q is on our point 25 - q; it hits our point p
    // from our points above p, i.e. its points below 25 - p, within 12 pips.
    let their_point = 25 - point;
    (their_point + 1..=(their_point + 12).min(25)).any(|q| theirs[q - 1] > 0)
}
