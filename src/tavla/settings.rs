//! What the arena asks of tavla: the GameSettings contract for its match rules.

use crate::contract::{GameSettings, Referee, Replayed};

use super::opening;
use super::referee::{TavlaMatchRules, TavlaReferee, replay_record};

impl GameSettings for TavlaMatchRules {
    fn game(&self) -> &'static str {
        "tavla"
    }

    fn decisive(&self) -> Vec<(&'static str, String)> {
        vec![
            ("points", self.points.to_string()),
            ("cube", self.cube.to_string()),
        ]
    }

    /// Games always end; a match of N points has at most 2N - 1 games.
    fn default_max_moves(&self) -> usize {
        1000 * (2 * self.points as usize).saturating_sub(1).max(1)
    }

    /// The dice come from the pair's seed, so both games of a pair roll the same.
    fn referee(&self, pair_seed: u64) -> Box<dyn Referee> {
        Box::new(TavlaReferee::new(*self, pair_seed))
    }

    fn replay_record(&self, text: &str) -> Result<Replayed, String> {
        replay_record(text).map(Replayed::boxed)
    }

    fn opening_referee(&self, opening: &str, pair_seed: u64) -> Result<Box<dyn Referee>, String> {
        let referee = opening::referee(*self, opening, pair_seed)?;
        Ok(Box::new(referee))
    }

    fn default_openings(&self) -> &'static str {
        opening::DEFAULT
    }

    fn opening_of_record(&self, record: &str, plies: usize) -> Result<String, String> {
        opening::of_record(record, plies)
    }
}
