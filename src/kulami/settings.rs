//! What the arena asks of kulami: the GameSettings contract for its match rules.

use crate::contract::{GameSettings, Referee, Replayed};

use super::layout::Layout;
use super::opening;
use super::referee::{
    KulamiLayouts, KulamiMatchRules, KulamiReferee, replay_record, scoring_words,
};

impl GameSettings for KulamiMatchRules {
    fn game(&self) -> &'static str {
        "kulami"
    }

    fn decisive(&self) -> Vec<(&'static str, String)> {
        let (scoring, bonus) = scoring_words(self.scoring);
        vec![
            ("layout", self.layouts.to_string()),
            ("scoring", scoring.to_owned()),
            ("row_bonus", bonus),
        ]
    }

    /// 56 marbles: a Kulami game cannot be longer.
    fn default_max_moves(&self) -> usize {
        56
    }

    /// A random layout is drawn from the pair's seed, so both games of a pair share it.
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

    fn referee(&self, pair_seed: u64) -> Box<dyn Referee> {
        let layout = match &self.layouts {
            KulamiLayouts::Random => Layout::random(pair_seed),
            KulamiLayouts::Fixed(layout) => (**layout).clone(),
        };
        Box::new(KulamiReferee::new(layout, self.scoring))
    }
}
