//! The draw (kura) for the first move: one player hides a stone in one hand, the other
//! guesses; a right guess starts, a wrong one gives the start to the hider.

use std::fmt;

use rand::Rng;

use super::rules::Side;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Hand {
    Left,
    Right,
}

impl Hand {
    fn random(rng: &mut impl Rng) -> Hand {
        if rng.random_bool(0.5) {
            Hand::Left
        } else {
            Hand::Right
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Hand::Left => "left",
            Hand::Right => "right",
        }
    }
}

/// One run of the draw.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Draw {
    pub hider: Side,
    pub hidden_in: Hand,
    pub guess: Hand,
}

impl Draw {
    /// Runs the draw with `hider` hiding: the hand and the guess both come from `rng`,
    /// so the same seed always gives the same starter.
    pub fn run(hider: Side, rng: &mut impl Rng) -> Draw {
        let hidden_in = Hand::random(rng);
        let guess = Hand::random(rng);
        Draw {
            hider,
            hidden_in,
            guess,
        }
    }

    pub fn guessed_right(&self) -> bool {
        self.hidden_in == self.guess
    }

    pub fn starter(&self) -> Side {
        if self.guessed_right() {
            self.hider.opponent()
        } else {
            self.hider
        }
    }
}

impl fmt::Display for Draw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} hides the stone in the {} hand, {} guesses {}: {} starts",
            self.hider,
            self.hidden_in.name(),
            self.hider.opponent(),
            self.guess.name(),
            self.starter()
        )
    }
}
