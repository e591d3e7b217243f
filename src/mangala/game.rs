//! One set: the position, the moves played and undo.

use super::rules::{EndRule, IllegalMove, Landing, Pit, Position, PositionError, Side};

/// The most moves a set keeps: ten times the arena's default cap of a set (1000), far past
/// any real set (a few dozen moves), so that no stream of moves grows memory without bound.
pub const MAX_SET_MOVES: usize = 10_000;

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
        if self.moves.len() >= MAX_SET_MOVES {
            return Err(IllegalMove::TooLong {
                limit: MAX_SET_MOVES,
            });
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_keeps_at_most_its_limit_of_moves() {
        let mut game = Game::new(4, EndRule::EmptierTakesAll, Side::South);
        let pit = game.position().legal_moves().next().expect("a legal pit");
        // As if the moves had been played: no real set comes near the limit.
        let landing = game.play(Side::South, pit).expect("legal");
        assert!(game.undo());
        game.moves
            .resize(MAX_SET_MOVES, (Side::South, pit, landing));
        let before = game.clone();
        assert_eq!(
            game.play(Side::South, pit).map_err(|e| e.to_string()),
            Err(
                "game too long: a set keeps at most 10000 moves; start a new one (clear_board)"
                    .to_owned()
            )
        );
        assert_eq!(game, before, "a refused move changes nothing");
    }
}
