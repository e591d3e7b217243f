//! Tavla's opening suites (`hamle match --openings`): one opening a line, the first plies of
//! the match's first game, each its dice, a colon and its play as `.mat` records write them,
//! plies joined by `;`: `31: 8/5 6/5; 64: 24/18 13/9; 55: 8/3(2) 6/1*(2)`.
//!
//! White (the first seat) plays the first ply: its dice replace the opening roll (two
//! different dice, the higher White's), and the sides alternate from there. Points are the
//! mover's own (24 to 1, `bar`, `off`), so a line reads the same whichever colour started
//! the game it was taken from; `none` (or nothing) is a roll that cannot be played. The
//! opening makes no cube decision: a side the cube is open to says `no_double`, as it would.
//!
//! Why plies and not a position string (gnubg Position ID, FIBS board): both engines learn
//! a position only through commands the arena already sends (`new_game`, `dice`, `play`),
//! which gnubg's adapter and any engine of the protocol take as they take a game, and the
//! `.mat` record, `--resume` and `hamle match openings` see ordinary first plies. Only the
//! dice are the opening's; every later roll is the pair seed's, the same in both games of
//! the pair and the one it would have been without the opening.

use crate::contract::{Referee, Turn};

use super::dice::Dice;
use super::mat::{MatEntry, read_mat};
use super::notation::{PlayError, parse_play};
use super::referee::{TavlaMatchRules, TavlaReferee};

/// The built-in suite (`--openings default`): made by `hamle match openings`.
pub const DEFAULT: &str = include_str!("../../openings/tavla.txt");

/// One ply of an opening, as written: its dice and its play's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningPly {
    pub dice: Dice,
    pub play: String,
}

/// Reads an opening's plies (`31: 8/5 6/5; 64: 24/18 13/9`); a `;` may end the line. The
/// plays are read against the position later, by [`referee`].
pub fn parse(opening: &str) -> Result<Vec<OpeningPly>, String> {
    let parts: Vec<&str> = opening.trim().trim_end_matches(';').split(';').collect();
    let mut plies = Vec::with_capacity(parts.len());
    for (index, part) in parts.iter().enumerate() {
        let number = index + 1;
        let part = part.trim();
        let Some((dice_text, play)) = part.split_once(':') else {
            return Err(format!(
                "ply {number}: '{part}' is not DICE: PLAY (as in '31: 8/5 6/5', plies joined by ';')"
            ));
        };
        let dice_text = dice_text.trim();
        let two_digits = dice_text.len() == 2 && dice_text.bytes().all(|b| b.is_ascii_digit());
        let dice = if two_digits {
            dice_text.parse::<Dice>().ok()
        } else {
            None
        }
        .ok_or_else(|| format!("ply {number}: '{dice_text}' is not two dice 1-6 (as in 31)"))?;
        plies.push(OpeningPly {
            dice,
            play: play.trim().to_owned(),
        });
    }
    Ok(plies)
}

/// A referee whose match's first game starts with `opening`'s plies, each judged by our
/// rules, and whose setup commands go on with what tells the engines those plies.
pub fn referee(
    rules: TavlaMatchRules,
    opening: &str,
    pair_seed: u64,
) -> Result<TavlaReferee, String> {
    let plies = parse(opening)?;
    if let Some(first) = plies.first()
        && first.dice.is_double()
    {
        return Err(format!(
            "ply 1: {} is no opening roll: the first ply's dice replace it, two different dice \
             (the higher White's, who plays first)",
            first.dice
        ));
    }
    let mut referee = TavlaReferee::new(rules, pair_seed);
    let mut told = Vec::new();
    for (index, ply) in plies.iter().enumerate() {
        let number = index + 1;
        referee.force_dice(ply.dice);
        roll_for_ply(&mut referee, &mut told)
            .map_err(|why| format!("ply {number} ({} {}): {why}", ply.dice, ply.play))?;
        check_play(&referee, ply).map_err(|why| format!("ply {number}: {why}"))?;
        let seat = referee.seat_to_move();
        match referee.apply(seat, &format!("{} {}", ply.dice, ply.play)) {
            Ok(Turn::Played { forward }) => told.push(forward),
            Ok(Turn::Resigned) => return Err(format!("ply {number}: '{}' is no play", ply.play)),
            Err(illegal) => return Err(format!("ply {number}: {illegal}")),
        }
    }
    if referee.natural_end().is_some() || referee.game().match_winner().is_some() {
        return Err(format!(
            "the game is over after its {} plies: an opening must leave a game to play",
            plies.len()
        ));
    }
    referee.set_opening_commands(told);
    Ok(referee)
}

/// Runs the referee's interludes up to the ply's play (its dice forced): the game's start,
/// the side's `no_double` when the cube is open to it, its roll; what they tell the engines
/// goes to `told`.
fn roll_for_ply(referee: &mut TavlaReferee, told: &mut Vec<String>) -> Result<(), String> {
    // At most one cube question comes before a roll.
    for _ in 0..2 {
        told.extend(referee.interlude());
        if referee.natural_end().is_some() {
            return Err("the game is over before it".to_owned());
        }
        let seat = referee.seat_to_move();
        if !referee.move_request(seat).starts_with("genmove_cube") {
            return Ok(());
        }
        match referee.apply(seat, "no_double") {
            Ok(Turn::Played { forward }) if !forward.is_empty() => told.push(forward),
            Ok(_) => {}
            Err(illegal) => return Err(illegal.to_string()),
        }
    }
    Err("the side to play never rolls".to_owned())
}

/// The ply's play is legal for its dice, or a line that says why not (a suite author's
/// words, not an engine's).
fn check_play(referee: &TavlaReferee, ply: &OpeningPly) -> Result<(), String> {
    let (side, dice, legal) = referee.game().legal().map_err(|e| e.to_string())?;
    let board = *referee.game().board();
    match parse_play(&ply.play, &board, side, &legal) {
        Ok(_) => Ok(()),
        Err(PlayError::NotLegal(_)) => Err(format!(
            "'{}' is not a legal play of {dice} for {side}",
            ply.play
        )),
        Err(other) => Err(format!("{side} to play {dice}: {other}")),
    }
}

/// The first `plies` plies of a record's first game as a suite line (how `hamle match
/// openings` turns played games into a suite); fails when a cube action comes first.
pub fn of_record(record: &str, plies: usize) -> Result<String, String> {
    if plies == 0 {
        return Err("an opening has at least one ply".to_owned());
    }
    let mat = read_mat(record)?;
    let game = mat.games.first().ok_or("the record has no game")?;
    let mut parts = Vec::with_capacity(plies);
    for action in game.actions.iter().take(plies) {
        let MatEntry::Play { dice, steps } = &action.entry else {
            return Err(format!(
                "line {}: '{}' comes within the first {plies} plies, and an opening has no cube action",
                action.line, action.text
            ));
        };
        let steps = steps.trim();
        parts.push(format!(
            "{dice}: {}",
            if steps.is_empty() { "none" } else { steps }
        ));
    }
    if parts.len() < plies {
        return Err(format!("the first game has only {} plies", parts.len()));
    }
    Ok(parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tavla::board::Side;
    use crate::tavla::game::Phase;

    const MONEY: TavlaMatchRules = TavlaMatchRules {
        points: 0,
        cube: true,
    };

    #[test]
    fn the_opening_is_told_after_the_setup_and_its_dice_replace_the_draws() {
        let opening = "13: 8/5 6/5; 64: 24/18 13/9";
        for seed in [0, 7, 99] {
            let referee = referee(MONEY, opening, seed).expect("legal");
            assert_eq!(
                referee.setup_commands(),
                [
                    "new_match 0",
                    "crawford on",
                    "new_game 3 1",
                    "play white 31 8/5 6/5",
                    "dice black 6 4",
                    "play black 64 24/18 13/9",
                ]
            );
            // White is to roll (its cube question first), from the seeded roller: the
            // same draws as a game without the opening from here on.
            assert_eq!(referee.game().phase(), Phase::ToRoll(Side::White));
        }
    }

    #[test]
    fn later_rolls_are_the_pair_seeds() {
        for seed in [2, 5, 31] {
            let mut opened = referee(MONEY, "31: 8/5 6/5; 64: 24/18 13/9", seed).expect("legal");
            // The roller as the plain game draws it: the opening roll, a roll, then the
            // roll after the opening's two plies.
            let mut roller = crate::tavla::dice::Roller::new(crate::seed::derive_seed(seed, 0));
            roller.opening();
            roller.roll();
            let third = roller.roll();
            assert_eq!(
                opened.interlude(),
                Vec::<String>::new(),
                "the cube question first"
            );
            let seat = opened.seat_to_move();
            opened.apply(seat, "no_double").expect("no_double");
            assert_eq!(
                opened.interlude(),
                [format!("dice white {} {}", third.first(), third.second())]
            );
        }
    }

    #[test]
    fn bad_openings_say_which_ply_and_why() {
        let refused = |opening: &str| referee(MONEY, opening, 1).expect_err(opening);
        assert_eq!(
            refused("31: 8/5 6/5; 64: 24/18 13/8"),
            "ply 2: '24/18 13/8' is not a legal play of 64 for black"
        );
        assert!(refused("33: 8/5(2)").starts_with("ply 1: 33 is no opening roll"));
        assert!(refused("31 8/5 6/5").contains("is not DICE: PLAY"));
        assert!(refused("71: 8/1").contains("'71' is not two dice"));
        assert!(refused("31: 9/6 6/5").contains("no checker of yours on point 9"));
        assert!(refused("31: x").contains("cannot read the play"));
    }

    #[test]
    fn a_record_gives_its_first_plies() {
        let mut referee = referee(MONEY, "42: 8/4 6/4; 21: 13/11 24/23", 3).expect("legal");
        referee.interlude();
        let (text, _) = referee.record(None, ["a", "b"], "");
        let line = of_record(&text, 2).expect("two plies");
        assert!(super::referee(MONEY, &line, 0).is_ok(), "{line}");
        assert_eq!(line.split(';').count(), 2, "{line}");
        assert!(of_record(&text, 3).is_err());
    }
}
