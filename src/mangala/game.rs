//! One set: the position, the moves played and undo.

use super::rules::{EndRule, IllegalMove, Landing, Pit, Position, PositionError, Side};

/// A set in progress. A failed move changes nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rule: EndRule,
    stones_per_pit: u8,
    /// Every position so far, the current one last; never empty.
    history: Vec<Position>,
    moves: Vec<(Side, Pit, Landing)>,
}

impl Game {
    pub fn new(stones_per_pit: u8, rule: EndRule, starter: Side) -> Game {
        Game {
            rule,
            stones_per_pit,
            history: vec![Position::start(stones_per_pit, starter)],
            moves: Vec::new(),
        }
    }

    /// A set continuing from `position`, which must hold this set size's stones.
    pub fn from_position(
        position: Position,
        stones_per_pit: u8,
        rule: EndRule,
    ) -> Result<Game, PositionError> {
        let expected = Game::total_for(stones_per_pit);
        if position.total_stones() != expected {
            return Err(PositionError::WrongTotal {
                found: position.total_stones(),
                expected,
            });
        }
        Ok(Game {
            rule,
            stones_per_pit,
            history: vec![position],
            moves: Vec::new(),
        })
    }

    /// Stones in a set of `stones_per_pit`.
    pub const fn total_for(stones_per_pit: u8) -> u32 {
        12 * stones_per_pit as u32
    }

    pub fn total_stones(&self) -> u32 {
        Game::total_for(self.stones_per_pit)
    }

    pub fn position(&self) -> &Position {
        match self.history.last() {
            Some(position) => position,
            None => unreachable!("a game's history always holds its start"),
        }
    }

    pub const fn rule(&self) -> EndRule {
        self.rule
    }

    pub const fn stones_per_pit(&self) -> u8 {
        self.stones_per_pit
    }

    pub fn moves(&self) -> &[(Side, Pit, Landing)] {
        &self.moves
    }

    pub fn to_move(&self) -> Side {
        self.position().to_move()
    }

    pub fn is_over(&self) -> bool {
        self.position().is_over()
    }

    pub fn play(&mut self, side: Side, pit: Pit) -> Result<Landing, IllegalMove> {
        let (next, landing) = self.position().play(side, pit, self.rule)?;
        self.history.push(next);
        self.moves.push((side, pit, landing));
        Ok(landing)
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        self.history.pop();
        true
    }
}
