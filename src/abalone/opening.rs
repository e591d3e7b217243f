//! Abalone's opening suites (`hamle match --openings`): one opening a line, moves from the
//! match's start (`--start`) in the engine's notation, Black first (`a1b2 i5h5`). Engines are
//! told them with `play` after `abalone-new_game`, as any move (abalone-boai too).

use crate::contract::Referee;
use crate::contract::opening::{first_plies, play_opening};

use super::referee::{AbaloneMatchRules, replay_record};
use crate::contract::GameSettings;

/// The built-in suite (`--openings default`): made by `hamle match openings`.
pub const DEFAULT: &str = include_str!("../../openings/abalone.txt");

/// A referee whose game starts from `opening`'s moves.
pub fn referee(settings: &AbaloneMatchRules, opening: &str) -> Result<Box<dyn Referee>, String> {
    let moves: Vec<&str> = opening.split_whitespace().collect();
    play_opening(settings.referee(0), Vec::new(), &moves)
}

/// The first `plies` moves of a record as a suite line.
pub fn of_record(record: &str, plies: usize) -> Result<String, String> {
    let replayed = replay_record(record)?;
    first_plies(replayed.referee.game().moves(), plies, "the record")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abalone::position::StartPosition;

    #[test]
    fn openings_are_moves_from_the_start() {
        let settings = AbaloneMatchRules {
            start: StartPosition::Standard,
        };
        let mut first = settings.referee(0);
        let seat = first.seat_to_move();
        let crate::contract::Turn::Played { forward } = first
            .apply(seat, "a1b2")
            .or_else(|_| first.apply(seat, "c3d4"))
            .expect("a legal first move")
        else {
            panic!("no resignation here")
        };
        let mv = forward.rsplit(' ').next().expect("the move");
        let referee = referee(&settings, mv).expect("legal");
        assert_eq!(referee.setup_commands().last(), Some(&forward));
        assert_eq!(referee.moves_played(), 1);
        assert!(super::referee(&settings, &format!("{mv} {mv}")).is_err());
        assert!(super::referee(&settings, "zz").is_err());
    }
}
