//! What the arena asks of go: the GameSettings contract for its match rules.

use crate::contract::{GameSettings, Referee, Replayed};

use super::opening;
use super::referee::{GoMatchRules, replay_record};

impl GameSettings for GoMatchRules {
    fn game(&self) -> &'static str {
        "go"
    }

    fn decisive(&self) -> Vec<(&'static str, String)> {
        vec![
            ("board_size", self.start.size.to_string()),
            ("komi", self.start.game.komi().to_string()),
            ("rules", self.rules.name().to_owned()),
        ]
    }

    fn default_max_moves(&self) -> usize {
        self.start.size.saturating_mul(self.start.size) * 3
    }

    fn referee(&self, _pair_seed: u64) -> Box<dyn Referee> {
        Box::new(self.start.clone())
    }

    fn split_openings(&self, text: &str) -> Result<Vec<(usize, String)>, (usize, String)> {
        opening::split(text)
    }

    fn opening_referee(&self, opening: &str, _pair_seed: u64) -> Result<Box<dyn Referee>, String> {
        opening::referee(&self.start, opening)
    }

    fn default_openings(&self) -> &'static str {
        opening::DEFAULT
    }

    fn opening_of_record(&self, record: &str, plies: usize) -> Result<String, String> {
        opening::of_record(record, plies)
    }

    /// A record without `RU` or `KM` is read under this match's rules and komi.
    fn replay_record(&self, text: &str) -> Result<Replayed, String> {
        replay_record(text, self.rules, self.start.game.komi()).map(Replayed::boxed)
    }
}
