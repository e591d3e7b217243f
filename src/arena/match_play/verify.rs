//! What `--resume` checks in every line of `results.tsv` before it takes the game as played:
//! the game number in range, the seats and the seed the settings give that game, the
//! record's name, and the record itself, replayed under the rules, agreeing with the
//! line's result and winner. (Not with its move count: a game may count decisions its
//! record does not keep, as Tavla's cube actions, so the count is information only.) A line that passes is one this match could have
//! written; any other is refused (the store names its line), so that no forged or damaged
//! line reaches the standings, the SPRT or the PGN.

use std::path::Path;

use super::settings::MatchSettings;
use crate::arena::store::{GAMES_DIR, GameResult, Winner};
use crate::contract::{LossKind, Outcome, Referee, Seat};
use crate::seed::derive_seed;

/// The largest record read back: far beyond any game's (a Tavla match to 25 points at the
/// move cap is a few MB), small enough to read whole.
const MAX_RECORD_BYTES: u64 = 64 << 20;

/// Checks one finished game of a resumed match kept in `dir`.
pub(super) fn check_result(
    settings: &MatchSettings,
    dir: &Path,
    result: &GameResult,
) -> Result<(), String> {
    let game = result.game;
    if game >= settings.games {
        return Err(format!(
            "game {game} is out of range: the match has {} games (0 to {})",
            settings.games,
            settings.games.saturating_sub(1)
        ));
    }
    if let Some(shard) = settings.shard
        && !shard.plays(game / 2)
    {
        return Err(format!(
            "game {game} is pair {}'s, which is not shard {shard}'s (it plays pairs k with k mod {} = {})",
            game / 2,
            shard.count,
            shard.index - 1
        ));
    }
    let seats = MatchSettings::seating(game).map(|bot| settings.bots[bot].name.as_str());
    if [result.first.as_str(), result.second.as_str()] != seats {
        return Err(format!(
            "first={} second={}, but game {game} seats {} first and {} second",
            result.first, result.second, seats[0], seats[1]
        ));
    }
    let seed = derive_seed(settings.seed, game as u64);
    if result.seed != seed {
        return Err(format!(
            "seed {} is not game {game}'s: the match seed {} gives it {seed}",
            result.seed, settings.seed
        ));
    }
    let (_, extension) = settings
        .game
        .referee(0)
        .record(None, ["first", "second"], "");
    let name = format!("{:04}.{extension}", game + 1);
    if result.record != name {
        return Err(format!(
            "record '{}' is not game {game}'s record, which is '{name}'",
            result.record
        ));
    }
    if (result.winner == Winner::Void) != (result.result == "void") {
        return Err(format!(
            "winner={} and result={} disagree: 'void' goes with 'void' alone",
            winner_word(result.winner),
            result.result
        ));
    }
    check_record(settings, &dir.join(GAMES_DIR).join(&name), result)
}

/// The record replays under the rules, and the line's result is the record's and one the
/// replayed game allows, with its winner.
fn check_record(settings: &MatchSettings, path: &Path, result: &GameResult) -> Result<(), String> {
    let shown = format!("{GAMES_DIR}/{}", result.record);
    let text = read_record(path).map_err(|why| format!("record {shown} {why}"))?;
    let replayed = settings
        .game
        .replay_record(&text)
        .map_err(|why| format!("record {shown} does not replay: {why}"))?;
    let referee = replayed.referee.as_ref();
    if result.winner == Winner::Void {
        return Ok(());
    }
    if replayed.result != result.result {
        return Err(format!(
            "result={}, but record {shown} says '{}'",
            result.result, replayed.result
        ));
    }
    let outcomes = possible_outcomes(referee);
    let matching: Vec<&Outcome> = outcomes
        .iter()
        .filter(|outcome| outcome.result == result.result)
        .collect();
    if matching.is_empty() {
        let mut known: Vec<&str> = Vec::new();
        for outcome in &outcomes {
            if !known.contains(&outcome.result.as_str()) {
                known.push(&outcome.result);
            }
        }
        return Err(format!(
            "result={} is not a result of this game: its record's position allows {} (or void)",
            result.result,
            known.join(", ")
        ));
    }
    let winner = winner_of(result.winner);
    if !matching
        .iter()
        .any(|outcome| Some(outcome.winner) == winner)
    {
        let said = match matching[0].winner {
            None => "a draw".to_owned(),
            Some(seat) => format!("a win of the {} seat", seat_word(seat)),
        };
        return Err(format!(
            "winner={}, but result {} is {said}",
            winner_word(result.winner),
            result.result
        ));
    }
    Ok(())
}

/// Every result the game could have ended with after the record's moves: counted by its
/// rules (a natural end or the move cap) or lost outside the board by either seat.
fn possible_outcomes(referee: &dyn Referee) -> Vec<Outcome> {
    let mut outcomes: Vec<Outcome> = referee.natural_end().into_iter().collect();
    outcomes.push(referee.adjudicate());
    for seat in [Seat::First, Seat::Second] {
        for how in [LossKind::Resignation, LossKind::Forfeit, LossKind::Time] {
            outcomes.push(referee.loss_of(seat, how));
        }
    }
    outcomes
}

/// A record file read whole: a regular file of sane size.
fn read_record(path: &Path) -> Result<String, String> {
    let metadata = std::fs::metadata(path).map_err(|error| format!("cannot be read: {error}"))?;
    if !metadata.is_file() {
        return Err("is not a regular file".to_owned());
    }
    if metadata.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "is {} bytes, more than any game's record ({MAX_RECORD_BYTES})",
            metadata.len()
        ));
    }
    crate::arena::folder::read_text(path).map_err(|error| format!("cannot be read: {error}"))
}

/// The seat a `winner` word names: `Some(None)` for a draw, `None` for void.
fn winner_of(winner: Winner) -> Option<Option<Seat>> {
    match winner {
        Winner::First => Some(Some(Seat::First)),
        Winner::Second => Some(Some(Seat::Second)),
        Winner::Draw => Some(None),
        Winner::Void => None,
    }
}

fn winner_word(winner: Winner) -> &'static str {
    match winner {
        Winner::First => "first",
        Winner::Second => "second",
        Winner::Draw => "draw",
        Winner::Void => "void",
    }
}

fn seat_word(seat: Seat) -> &'static str {
    match seat {
        Seat::First => "first",
        Seat::Second => "second",
    }
}
