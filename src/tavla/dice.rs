//! Dice: a roll as a value, and the seeded roller that makes them when nobody supplies them.
//!
//! Faces come from our own rejection sampling on raw ChaCha20 output, never from `rand`'s
//! distribution code, so a seed gives the same dice whatever `rand` version builds us.

use std::fmt;
use std::str::FromStr;

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// Two dice; the order they were given in is kept for display, play uses both.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dice {
    first: u8,
    second: u8,
}

impl Dice {
    pub fn new(first: u8, second: u8) -> Result<Dice, String> {
        for die in [first, second] {
            if !(1..=6).contains(&die) {
                return Err(format!("die {die} is out of range 1-6"));
            }
        }
        Ok(Dice { first, second })
    }

    pub fn first(&self) -> u8 {
        self.first
    }

    pub fn second(&self) -> u8 {
        self.second
    }

    pub fn high(&self) -> u8 {
        self.first.max(self.second)
    }

    pub fn low(&self) -> u8 {
        self.first.min(self.second)
    }

    pub fn is_double(&self) -> bool {
        self.first == self.second
    }

    /// Every roll once, as 21 distinct dice with the weight (1 or 2) of each in 36.
    pub fn all_rolls() -> impl Iterator<Item = (Dice, u32)> {
        (1..=6u8).flat_map(|high| {
            (1..=high).map(move |low| {
                (
                    Dice {
                        first: high,
                        second: low,
                    },
                    if high == low { 1 } else { 2 },
                )
            })
        })
    }
}

impl fmt::Display for Dice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.first, self.second)
    }
}

impl FromStr for Dice {
    type Err = String;

    /// `63`, `6 3`, `6-3` or `6,3`.
    fn from_str(text: &str) -> Result<Dice, String> {
        let digits: Vec<char> = text
            .chars()
            .filter(|c| !matches!(c, ' ' | '-' | ','))
            .collect();
        match digits.as_slice() {
            [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => {
                Dice::new(*a as u8 - b'0', *b as u8 - b'0')
            }
            _ => Err(format!("'{text}' is not two dice (e.g. 63 or 6 3)")),
        }
    }
}

/// The seeded roller.
#[derive(Clone, Debug)]
pub struct Roller {
    rng: ChaCha20Rng,
}

impl Roller {
    pub fn new(seed: u64) -> Roller {
        Roller {
            rng: ChaCha20Rng::seed_from_u64(seed),
        }
    }

    /// One face 1–6: a uniform 32-bit word, rejected above the largest multiple of 6.
    pub fn die(&mut self) -> u8 {
        const LIMIT: u32 = u32::MAX - u32::MAX % 6;
        loop {
            let word = self.rng.next_u32();
            if word < LIMIT {
                return (word % 6) as u8 + 1;
            }
        }
    }

    pub fn roll(&mut self) -> Dice {
        let first = self.die();
        let second = self.die();
        Dice { first, second }
    }

    /// The opening roll: each side throws one die, ties thrown again. Returns the dice as
    /// (white's die, black's die), never equal.
    pub fn opening(&mut self) -> (u8, u8) {
        loop {
            let white = self.die();
            let black = self.die();
            if white != black {
                return (white, black);
            }
        }
    }
}
