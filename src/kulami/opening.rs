//! Kulami's opening suites (`hamle match --openings`): one opening a line, a layout and the
//! first marbles, Black first: `AABBCCDD/EEBBFFFG/… D5 E5` (the layout's rows joined by
//! `/`, or `default` for the rule book's). The opening's layout replaces `--layout` for its
//! pair. Engines get it with `kulami-new_game LAYOUT` and the marbles with `play`.

use crate::contract::Referee;
use crate::contract::opening::{first_plies, play_opening};

use super::layout::Layout;
use super::referee::{KulamiMatchRules, KulamiReferee, replay_record};

/// The built-in suite (`--openings default`): made by `hamle match openings`.
pub const DEFAULT: &str = include_str!("../../openings/kulami.txt");

/// A referee whose game starts from `opening`'s layout and marbles.
pub fn referee(settings: &KulamiMatchRules, opening: &str) -> Result<Box<dyn Referee>, String> {
    let mut words = opening.split_whitespace();
    let layout = match words.next() {
        Some("default") => Layout::standard(),
        Some(text) if text.contains('/') => text
            .parse()
            .map_err(|error| format!("invalid layout '{text}': {error}"))?,
        _ => {
            return Err(
                "an opening starts with its layout (rows joined by '/', or 'default'), then the marbles"
                    .to_owned(),
            );
        }
    };
    let moves: Vec<&str> = words.collect();
    let start = KulamiReferee::new(layout, settings.scoring);
    play_opening(Box::new(start), Vec::new(), &moves)
}

/// The first `plies` marbles of a record, after its layout, as a suite line.
pub fn of_record(record: &str, plies: usize) -> Result<String, String> {
    let replayed = replay_record(record)?;
    let referee = &replayed.referee;
    let moves = first_plies(referee.moves(), plies, "the record")?;
    Ok(format!("{} {moves}", referee.game().layout()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openings_carry_their_layout() {
        let settings: KulamiMatchRules = super::super::referee::MatchFlags {
            layout: "random".to_owned(),
            scoring: "tournament".to_owned(),
            row_bonus: "length".parse().expect("a bonus"),
        }
        .settings()
        .expect("settings");
        let referee = referee(&settings, "default D5 E5").expect("legal");
        let setup = referee.setup_commands();
        assert!(setup[0].starts_with("kulami-new_game "), "{setup:?}");
        assert_eq!(&setup[1..], ["play black D5", "play red E5"]);
        assert!(super::referee(&settings, "D5 E5").is_err(), "no layout");
        assert!(super::referee(&settings, "default D5 D5").is_err());
        assert!(super::referee(&settings, "AB/C default").is_err());
    }
}
