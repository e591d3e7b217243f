//! What the arena asks of abalone: the GameSettings contract for its match rules.

use crate::contract::{GameSettings, Referee, Replayed};

use super::opening;
use super::referee::{AbaloneMatchRules, AbaloneReferee, replay_record};
use super::rules::EndRules;

impl GameSettings for AbaloneMatchRules {
    fn game(&self) -> &'static str {
        "abalone"
    }

    fn decisive(&self) -> Vec<(&'static str, String)> {
        vec![("start", self.start.to_string())]
    }

    fn default_max_moves(&self) -> usize {
        super::rules::DEFAULT_MAX_PLIES as usize
    }

    fn replay_record(&self, text: &str) -> Result<Replayed, String> {
        replay_record(text).map(Replayed::boxed)
    }

    fn opening_referee(&self, opening: &str, _pair_seed: u64) -> Result<Box<dyn Referee>, String> {
        opening::referee(self, opening)
    }

    fn default_openings(&self) -> &'static str {
        opening::DEFAULT
    }

    fn opening_of_record(&self, record: &str, plies: usize) -> Result<String, String> {
        opening::of_record(record, plies)
    }

    /// The arena's cap (`--max-moves`) stops the game, reason "move cap"; the referee's
    /// rules have none of their own.
    fn referee(&self, _pair_seed: u64) -> Box<dyn Referee> {
        Box::new(AbaloneReferee::new(
            self.start,
            EndRules {
                max_plies: 0,
                repetition_draw: false,
            },
        ))
    }
}
