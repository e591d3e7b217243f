//! Between a game record and a game: replaying a record into a [`Game`] (GTP `loadsgf`) and
//! writing a game down as a record (GTP `printsgf`).

use std::fmt;

use super::record::{Event, GoRecord, Setup};
use crate::go::board::BoardSizeError;
use crate::go::game::{Game, IllegalMove, SetupError};
use crate::go::rules::Rules;
use crate::go::{Color, MoveVertex, Vertex};

/// Why a record cannot be replayed.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayError {
    BoardSize(BoardSizeError),
    Setup(SetupError),
    /// Move `number` (counting from 1) is illegal in the position the record reached.
    IllegalMove {
        number: usize,
        color: Color,
        mv: MoveVertex,
        reason: IllegalMove,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::BoardSize(error) => error.fmt(f),
            ReplayError::Setup(error) => write!(f, "setup refused: {error}"),
            ReplayError::IllegalMove {
                number,
                color,
                mv,
                reason,
            } => {
                write!(
                    f,
                    "move {number} ({} {mv}) is illegal: {reason}",
                    color.letter()
                )
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl GoRecord {
    /// The game the record describes up to (not including) move `before_move`, counting
    /// from 1, or to its end. `rules` and `komi` apply where the record names none (`RU`,
    /// `KM`). The side to move is the colour of move `before_move` when the record has it.
    pub fn replay(
        &self,
        rules: Rules,
        komi: f32,
        before_move: Option<usize>,
    ) -> Result<Game, ReplayError> {
        let rules = self.rule_set().map_or(rules, Rules::from);
        let mut game = Game::new(self.size, rules).map_err(ReplayError::BoardSize)?;
        game.set_komi(self.komi.unwrap_or(komi));
        let events = match before_move {
            Some(n) => self.events_before_move(n),
            None => &self.events[..],
        };
        let mut number = 0;
        for event in events {
            match event {
                Event::Setup(setup) => {
                    let changes = setup.changes();
                    if !changes.is_empty() {
                        game.setup(&changes).map_err(ReplayError::Setup)?;
                    }
                }
                Event::Move(color, mv) => {
                    number += 1;
                    game.play(*color, *mv)
                        .map_err(|reason| ReplayError::IllegalMove {
                            number,
                            color: *color,
                            mv: *mv,
                            reason,
                        })?;
                }
            }
        }
        game.set_handicap(self.handicap);
        let to_play = match before_move.and_then(|n| self.moves().nth(n.saturating_sub(1))) {
            Some((color, _)) => color,
            None => self.to_play_after(events.len()),
        };
        game.set_to_move(to_play);
        Ok(game)
    }

    /// Writes `game` down: its position before the first move as root setup, then the
    /// moves; `result` (`B+3.5`, `W+R`, `0`) goes in `RE`.
    pub fn from_game(game: &Game, result: Option<String>) -> GoRecord {
        let mut record = GoRecord::new(game.size());
        record.komi = Some(game.komi());
        record.handicap = game.handicap();
        record.rules = game.rules().rule_set().map(|r| r.sgf_name().to_owned());
        record.result = result;
        let mut start = game.clone();
        while start.undo() {}
        let board = start.board();
        let stones_of = |color: Color| -> Vec<Vertex> {
            let mut stones: Vec<Vertex> = board
                .points()
                .filter(|&p| board.get(p) == Some(color))
                .map(|p| board.vertex(p))
                .collect();
            stones.sort_unstable();
            stones
        };
        let setup = Setup {
            black: stones_of(Color::Black),
            white: stones_of(Color::White),
            empty: Vec::new(),
            to_play: None,
        };
        if !setup.is_empty() {
            record.events.push(Event::Setup(Box::new(setup)));
        }
        record
            .events
            .extend(game.moves().map(|(color, mv)| Event::Move(color, mv)));
        record
    }
}
