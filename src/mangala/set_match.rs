//! A match of five sets, scored 1 / ½ / 0, as the book sets it.

use std::fmt;

use super::rules::Side;

/// Sets in a match.
pub const SETS: usize = 5;

/// Who starts sets 2–5: the book is silent, so this is an option.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum StarterOrder {
    /// The starter of set 1 (the draw's winner) and the other player take turns.
    #[default]
    Alternate,
    /// The draw's winner starts every set.
    Fixed,
}

/// How a set ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SetResult {
    Won(Side),
    Drawn,
}

/// A match: who started set 1, how starters follow, and the results so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    first_starter: Side,
    order: StarterOrder,
    results: Vec<SetResult>,
}

impl Match {
    pub fn new(first_starter: Side, order: StarterOrder) -> Match {
        Match {
            first_starter,
            order,
            results: Vec::with_capacity(SETS),
        }
    }

    pub fn results(&self) -> &[SetResult] {
        &self.results
    }

    pub fn first_starter(&self) -> Side {
        self.first_starter
    }

    pub fn order(&self) -> StarterOrder {
        self.order
    }

    pub fn is_over(&self) -> bool {
        self.results.len() >= SETS
    }

    /// The number (1–5) of the set being played or about to be.
    pub fn current_set(&self) -> usize {
        (self.results.len() + 1).min(SETS)
    }

    /// Who starts set `number` (1–5).
    pub fn starter_of(&self, number: usize) -> Side {
        match self.order {
            StarterOrder::Alternate if number.is_multiple_of(2) => self.first_starter.opponent(),
            _ => self.first_starter,
        }
    }

    /// Records a finished set; false once all five are recorded.
    pub fn record(&mut self, result: SetResult) -> bool {
        if self.is_over() {
            return false;
        }
        self.results.push(result);
        true
    }

    /// `side`'s points in half points (a won set is 2, a drawn one 1).
    pub fn half_points(&self, side: Side) -> u32 {
        self.results
            .iter()
            .map(|result| match result {
                SetResult::Won(winner) if *winner == side => 2,
                SetResult::Won(_) => 0,
                SetResult::Drawn => 1,
            })
            .sum()
    }

    /// The match winner once it is over (or decided early: more than half of the points).
    pub fn winner(&self) -> Option<Side> {
        let total = 2 * SETS as u32;
        Side::BOTH
            .into_iter()
            .find(|&side| 2 * self.half_points(side) > total)
            .or_else(|| {
                if !self.is_over() {
                    return None;
                }
                let south = self.half_points(Side::South);
                let north = self.half_points(Side::North);
                match south.cmp(&north) {
                    std::cmp::Ordering::Greater => Some(Side::South),
                    std::cmp::Ordering::Less => Some(Side::North),
                    std::cmp::Ordering::Equal => None,
                }
            })
    }
}

/// Half points as the book writes them: `2`, `1.5`, `0`.
pub fn points_text(half_points: u32) -> String {
    if half_points.is_multiple_of(2) {
        (half_points / 2).to_string()
    } else {
        format!("{}.5", half_points / 2)
    }
}

impl fmt::Display for Match {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sets: Vec<&str> = self
            .results
            .iter()
            .map(|r| match r {
                SetResult::Won(Side::South) => "south",
                SetResult::Won(Side::North) => "north",
                SetResult::Drawn => "draw",
            })
            .collect();
        write!(
            f,
            "south {} north {}; sets played {}",
            points_text(self.half_points(Side::South)),
            points_text(self.half_points(Side::North)),
            self.results.len()
        )?;
        if !sets.is_empty() {
            write!(f, " ({})", sets.join(" "))?;
        }
        if self.is_over() {
            match self.winner() {
                Some(winner) => write!(f, "; match over, {winner} wins"),
                None => write!(f, "; match over, drawn"),
            }
        } else {
            write!(
                f,
                "; set {} starter {}",
                self.current_set(),
                self.starter_of(self.current_set())
            )
        }
    }
}
