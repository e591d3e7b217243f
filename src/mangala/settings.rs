//! What the arena asks of mangala: the GameSettings contract for its match rules.

use crate::contract::{GameSettings, Referee, Replayed};

use super::draw::Draw;
use super::opening;
use super::referee::{MangalaMatchRules, MangalaReferee, replay_record, starter_order_word};
use super::rules::Side;

impl GameSettings for MangalaMatchRules {
    fn game(&self) -> &'static str {
        "mangala"
    }

    fn decisive(&self) -> Vec<(&'static str, String)> {
        vec![
            ("mangala_rules", self.rule.to_string()),
            ("stones", self.stones.to_string()),
            ("sets", self.sets.to_string()),
            ("starters", starter_order_word(self.order).to_owned()),
        ]
    }

    /// Sets always end (stones only move towards the stores); this is a safety net.
    fn default_max_moves(&self) -> usize {
        1000 * self.sets
    }

    /// Mangala's engines are deterministic at fixed budgets and the draw only says who
    /// starts, so without random opening moves the pairs of a match replay two games.
    fn default_opening_plies(&self) -> usize {
        4
    }

    fn replay_record(&self, text: &str) -> Result<Replayed, String> {
        replay_record(text).map(Replayed::boxed)
    }

    fn opening_referee(&self, opening: &str, pair_seed: u64) -> Result<Box<dyn Referee>, String> {
        opening::referee(self, opening, pair_seed)
    }

    fn default_openings(&self) -> &'static str {
        opening::DEFAULT
    }

    fn opening_of_record(&self, record: &str, plies: usize) -> Result<String, String> {
        opening::of_record(record, plies)
    }

    /// The draw comes from the pair's seed, so both games of a pair share it.
    fn referee(&self, pair_seed: u64) -> Box<dyn Referee> {
        let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(pair_seed);
        Box::new(MangalaReferee::new(*self, Draw::run(Side::South, &mut rng)))
    }
}
