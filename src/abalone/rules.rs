//! A game: the moves played from a start, undo, and how the game ends — six marbles off,
//! the game-length cap with its adjudication, the optional threefold-repetition draw, and
//! the (practically unreachable) side with no legal move.

use std::fmt;

use super::board::Color;
use super::moves::Move;
use super::position::{IllegalMove, MARBLES_OFF_TO_WIN, Position};

/// Plies after which a game is stopped and adjudicated when nothing else says otherwise.
pub const DEFAULT_MAX_PLIES: u32 = 200;

/// The most plies a game keeps, even with no cap (`max_plies` 0): fifty times the default
/// cap, far past any real game, so that no stream of moves grows memory without bound.
pub const MAX_KEPT_PLIES: usize = 10_000;

/// The end-of-game rules the sheet leaves open, shared by the engine and the arena.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// The game stops after this many plies (0: never) and is adjudicated.
    pub max_plies: u32,
    /// The third occurrence of a position (same marbles, same side to move) draws.
    pub repetition_draw: bool,
}

impl Default for EndRules {
    fn default() -> EndRules {
        EndRules {
            max_plies: DEFAULT_MAX_PLIES,
            repetition_draw: false,
        }
    }
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EndReason {
    SixOff,
    /// The length cap: more marbles pushed off wins, equal is a draw.
    MoveCap,
    Repetition,
    /// The side to move has no legal move; adjudicated like the cap.
    NoLegalMove,
}

/// The result of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<Color>,
    pub reason: EndReason,
    /// Marbles each side pushed off (index: [`Color::index`] of the pusher).
    pub pushed_off: [u8; 2],
}

impl GameResult {
    /// The result if the game stopped at `position` for `reason`, by marbles pushed off.
    pub fn adjudicated(position: &Position, reason: EndReason) -> GameResult {
        let pushed_off = pushed_off(position);
        let winner = match pushed_off[0].cmp(&pushed_off[1]) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        };
        GameResult {
            winner,
            reason,
            pushed_off,
        }
    }

    /// Go-style short form: `B+4` (the winner pushed off 4 more), `0` for a draw.
    pub fn short(&self) -> String {
        match self.winner {
            None => "0".into(),
            Some(color) => format!(
                "{}+{}",
                color.letter().to_ascii_uppercase(),
                self.pushed_off[color.index()]
                    .saturating_sub(self.pushed_off[color.opponent().index()])
            ),
        }
    }
}

fn pushed_off(position: &Position) -> [u8; 2] {
    [
        position.marbles_off(Color::White),
        position.marbles_off(Color::Black),
    ]
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let score = format!(
            "black pushed off {}, white {}",
            self.pushed_off[0], self.pushed_off[1]
        );
        let why = match self.reason {
            EndReason::SixOff => "six marbles pushed off",
            EndReason::MoveCap => "move cap reached, adjudicated by marbles pushed off",
            EndReason::Repetition => "threefold repetition",
            EndReason::NoLegalMove => "no legal move, adjudicated by marbles pushed off",
        };
        match self.winner {
            Some(Color::Black) => write!(f, "Black wins ({why}; {score})"),
            Some(Color::White) => write!(f, "White wins ({why}; {score})"),
            None => write!(f, "Draw ({why}; {score})"),
        }
    }
}

/// A game from a start position, with its history for undo and repetition.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    history: Vec<(Position, Move)>,
    position: Position,
    rules: EndRules,
}

impl Game {
    pub fn new(start: Position, rules: EndRules) -> Game {
        Game {
            start,
            history: Vec::new(),
            position: start,
            rules,
        }
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn rules(&self) -> EndRules {
        self.rules
    }

    pub fn to_move(&self) -> Color {
        self.position.to_move()
    }

    pub fn plies(&self) -> usize {
        self.history.len()
    }

    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|(_, mv)| *mv)
    }

    /// The positions of this game so far, oldest first, current last.
    pub fn positions(&self) -> impl Iterator<Item = &Position> + '_ {
        self.history
            .iter()
            .map(|(p, _)| p)
            .chain(std::iter::once(&self.position))
    }

    /// Hashes of the positions of this game so far, oldest first, current last.
    pub fn hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.positions().map(Position::hash)
    }

    /// How often the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        let now = self.position.hash();
        self.hashes().filter(|h| *h == now).count()
    }

    /// The result once the game is over, else `None`.
    pub fn result(&self) -> Option<GameResult> {
        if self.position.winner().is_some() {
            let mut result = GameResult::adjudicated(&self.position, EndReason::SixOff);
            result.winner = self.position.winner();
            return Some(result);
        }
        if self.rules.repetition_draw && self.repetitions() >= 3 {
            let mut result = GameResult::adjudicated(&self.position, EndReason::Repetition);
            result.winner = None;
            return Some(result);
        }
        if self.rules.max_plies > 0 && self.plies() >= self.rules.max_plies as usize {
            return Some(GameResult::adjudicated(&self.position, EndReason::MoveCap));
        }
        if !self.position.has_legal_move() {
            return Some(GameResult::adjudicated(
                &self.position,
                EndReason::NoLegalMove,
            ));
        }
        None
    }

    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// Plays `mv` for `color` when legal; the reason when not (the game is unchanged).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if color != self.position.to_move() {
            return Err(IllegalMove::NotYourTurn {
                to_move: self.position.to_move(),
            });
        }
        if self.history.len() >= MAX_KEPT_PLIES {
            return Err(IllegalMove::TooLong {
                limit: MAX_KEPT_PLIES,
            });
        }
        let next = self.position.play(mv)?;
        self.history.push((self.position, mv));
        self.position = next;
        Ok(())
    }

    /// Takes back the last move; false at the start.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((previous, _)) => {
                self.position = previous;
                true
            }
            None => false,
        }
    }

    /// Marbles `color` has pushed off the board.
    pub fn pushed_off_by(&self, color: Color) -> u8 {
        self.position
            .marbles_off(color.opponent())
            .min(MARBLES_OFF_TO_WIN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abalone::position::{MoveList, StartPosition};

    #[test]
    fn a_game_without_a_cap_keeps_at_most_its_limit_of_plies() {
        let rules = EndRules {
            max_plies: 0,
            repetition_draw: false,
        };
        let mut game = Game::new(Position::start(StartPosition::Standard), rules);
        let mut moves = MoveList::new();
        game.position().legal_moves(&mut moves);
        let mv = moves.iter().next().expect("a legal move");
        // As if the plies had been played (a real game of 10,000 takes a while).
        let filler = (*game.position(), mv);
        game.history.resize(MAX_KEPT_PLIES, filler);
        let before = *game.position();
        let refused = game.play(game.position().to_move(), mv);
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err(
                "game too long: a game keeps at most 10000 plies; start a new one (clear_board)"
                    .to_owned()
            )
        );
        assert_eq!(*game.position(), before, "a refused move changes nothing");
        assert_eq!(game.plies(), MAX_KEPT_PLIES);
        assert!(game.undo());
        assert!(game.play(game.position().to_move(), mv).is_ok());
    }
}
