//! What `--resume` checks in every line of `results.tsv` before it takes the game as played:
//! no control character in any field (the reader's), the game number in range, the seats
//! and the seed the settings give that game, the record's name, and the record itself: its
//! comment naming this game, its seed, the line's move count and reason; its moves replayed
//! under the rules, no more than the line counts (a game may count decisions its record
//! does not keep, as Tavla's `no_double`s) and ending in the line's result, one that the
//! line's reason allows (a resignation is a loss by resignation, `score` the rules' own
//! end, `move cap` the count at the cap), with its winner. A line that passes is one this
//! match could have written; any other is refused (the store names its line), so that no
//! forged or damaged line reaches the standings, the SPRT or the PGN.

use std::path::Path;

use super::game::comment_head;
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
    check_comment(settings, &shown, &replayed.comment, result)?;
    let referee = replayed.referee.as_ref();
    if referee.moves_played() > result.moves {
        return Err(format!(
            "moves={}, but record {shown} holds {} moves",
            result.moves,
            referee.moves_played()
        ));
    }
    if result.winner == Winner::Void {
        return Ok(());
    }
    if replayed.result != result.result {
        return Err(format!(
            "result={}, but record {shown} says '{}'",
            result.result, replayed.result
        ));
    }
    let outcomes = possible_outcomes(referee, &result.reason);
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
            "result={} is not a result of this game ended by '{}': its record's position allows {}",
            result.result,
            crate::text::shorten(&result.reason),
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

/// The record's comment is the one the arena wrote for this game: its number, pair and
/// seed, the line's move count, then the line's reason (and what the arena adds after it:
/// the clock, the opening). A record copied from another game names that game.
fn check_comment(
    settings: &MatchSettings,
    shown: &str,
    comment: &str,
    result: &GameResult,
) -> Result<(), String> {
    let said = || crate::text::shorten_to(comment, 120);
    let head = comment_head(result.game, result.seed, settings.seed, result.moves);
    let (game_part, _) = head.rsplit_once(", ").unwrap_or((&head, ""));
    if !comment.starts_with(&format!("{game_part}, ")) {
        return Err(format!(
            "record {shown} is not game {}'s with seed {}: its comment says '{}'",
            result.game,
            result.seed,
            said()
        ));
    }
    if !comment.starts_with(&format!("{head}; ")) {
        return Err(format!(
            "moves={}, but record {shown} says '{}'",
            result.moves,
            said()
        ));
    }
    let told = &comment[head.len() + 2..];
    let reason = result.reason.as_str();
    if told != reason && !told.starts_with(&format!("{reason}; ")) {
        return Err(format!(
            "reason={}, but record {shown} says '{}'",
            crate::text::shorten(reason),
            said()
        ));
    }
    Ok(())
}

/// Every result the game could have ended with after the record's moves for the line's
/// `reason`: counted by its rules (`score`), at the move cap (`move cap`), a resignation
/// (or the arena's adjudication, which resigns for the trailing seat), a forfeit for an
/// illegal move or an engine's failure, a loss on time, each by either seat.
fn possible_outcomes(referee: &dyn Referee, reason: &str) -> Vec<Outcome> {
    let losses = |how: LossKind| [Seat::First, Seat::Second].map(|seat| referee.loss_of(seat, how));
    if reason.starts_with("score") {
        referee.natural_end().into_iter().collect()
    } else if reason.starts_with("move cap") {
        vec![referee.adjudicate()]
    } else if reason.starts_with("resignation") || reason.starts_with("adjudicated:") {
        losses(LossKind::Resignation).into()
    } else if reason.starts_with("loss on time by ") {
        losses(LossKind::Time).into()
    } else {
        // An illegal move or an engine's failure (a crash, a timeout, garbage, …).
        losses(LossKind::Forfeit).into()
    }
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
