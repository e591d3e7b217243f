//! Mangala's opening suites (`hamle match --openings`): one opening a line, the first moves
//! of set 1 as pit numbers, each by the side to move (an extra turn is the same side
//! again): `3 6 1`. The pair's draw still decides who starts set 1, and the start is the
//! same for either side, so an opening is legal whoever starts. Engines get the moves with
//! `play` after `set_position` of the start; sets 2 and later start fresh.

use crate::contract::opening::{first_plies, play_opening};
use crate::contract::{GameSettings, Referee};

use super::referee::{MangalaMatchRules, replay_record};

/// The built-in suite (`--openings default`): made by `hamle match openings`.
pub const DEFAULT: &str = include_str!("../../openings/mangala.txt");

/// A referee whose set 1 starts with `opening`'s moves.
pub fn referee(
    settings: &MangalaMatchRules,
    opening: &str,
    pair_seed: u64,
) -> Result<Box<dyn Referee>, String> {
    let moves: Vec<&str> = opening.split_whitespace().collect();
    play_opening(settings.referee(pair_seed), Vec::new(), &moves)
}

/// The first `plies` moves of a record's set 1 as a suite line.
pub fn of_record(record: &str, plies: usize) -> Result<String, String> {
    let replayed = replay_record(record)?;
    let Some(first) = replayed.referee.sets().first() else {
        return Err("the record has no set".to_owned());
    };
    first_plies(first.moves().iter().map(|(_, pit, _)| pit), plies, "set 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_are_set_one_moves_for_either_starter() {
        let settings = MangalaMatchRules {
            stones: 4,
            rule: crate::mangala::rules::EndRule::EmptierTakesAll,
            sets: 5,
            order: crate::mangala::set_match::StarterOrder::Alternate,
        };
        for seed in 0..8 {
            let referee = referee(&settings, "3 6", seed).expect("legal");
            let setup = referee.setup_commands();
            assert_eq!(setup.len(), 5, "{setup:?}");
            assert!(
                setup[3].ends_with(" 3") && setup[4].ends_with(" 6"),
                "{setup:?}"
            );
        }
        assert!(super::referee(&settings, "7", 0).is_err());
        assert!(super::referee(&settings, "x", 0).is_err());
    }
}
