//! Matches set up from outside for `set_position` (gnubg's Position ID and Match ID) and
//! `set_fibs_board` (a FIBS board string): each builds a fresh [`Game`] in the position
//! described, or says why the description is not a game in play.

use super::board::{Board, Side};
use super::fibs::FibsBoard;
use super::game::{Game, MatchRules, Phase, State};
use super::ids::{GameState, MatchKey, parse_match_id, parse_position_id};
use crate::protocol::GtpError;

fn bad_position(e: &dyn std::fmt::Display) -> GtpError {
    GtpError::syntax(format!("bad position: {e}"))
}

/// The game a Position ID (and a Match ID, else the current match's) describes; the rules
/// other than the length are `current`'s.
pub fn game_from_ids(
    current: &Game,
    position: &str,
    match_id: Option<&str>,
) -> Result<Game, GtpError> {
    let (rules, key) = match match_id {
        Some(text) => {
            let key = parse_match_id(text).map_err(|e| bad_position(&e))?;
            let rules = MatchRules {
                length: key.match_length,
                ..current.rules()
            };
            (rules, key)
        }
        None => {
            let mut key = current.match_key();
            if key.state != GameState::Playing {
                key.state = GameState::Playing;
                key.doubled = false;
                key.dice = None;
                key.turn = key.dice_owner;
            }
            (current.rules(), key)
        }
    };
    let board = parse_position_id(position, key.dice_owner).map_err(|e| bad_position(&e))?;
    let phase = phase_of_key(&key)?;
    if phase != Phase::Opening && Side::BOTH.iter().any(|&s| board.on_board(s) == 0) {
        return Err(bad_position(
            &"a side has borne off every checker: that game is over",
        ));
    }
    let at_point = rules.length > 0 && key.score.iter().any(|&p| p + 1 == rules.length);
    let state = State {
        board: if phase == Phase::Opening {
            Board::start()
        } else {
            board
        },
        phase,
        cube: key.cube,
        cube_owner: key.cube_owner,
        score: key.score,
        crawford_game: key.crawford,
        crawford_done: key.crawford || (rules.crawford && at_point),
        games: 0,
    };
    let mut game = Game::new(rules);
    // A new game keeps nothing yet, so this cannot reach the limit.
    game.set_state(state)
        .map_err(|e| GtpError::other(e.to_string()))?;
    Ok(game)
}

/// The phase a Match ID describes: a game in play, or one before its opening roll.
fn phase_of_key(key: &MatchKey) -> Result<Phase, GtpError> {
    Ok(match key.state {
        GameState::NoGame => Phase::Opening,
        GameState::Playing => match (key.doubled, key.dice) {
            (true, Some(_)) => {
                return Err(bad_position(&"a Match ID with both a double and dice"));
            }
            (true, None) => {
                if key.turn == key.dice_owner {
                    return Err(bad_position(
                        &"the doubler cannot be the side to answer the double",
                    ));
                }
                Phase::Doubled { by: key.dice_owner }
            }
            (false, Some(dice)) => Phase::ToPlay {
                side: key.dice_owner,
                dice,
            },
            (false, None) => Phase::ToRoll(key.dice_owner),
        },
        _ => {
            return Err(bad_position(
                &"set_position takes a game in play or before its opening roll",
            ));
        }
    })
}

/// The game a FIBS board describes; the rules other than the length are `current`'s.
pub fn game_from_fibs(current: &Game, fibs: &FibsBoard) -> Result<Game, GtpError> {
    let bad = |e: &str| GtpError::syntax(format!("bad FIBS board: {e}"));
    if fibs.match_length > 0 && fibs.score.iter().any(|&s| s >= fibs.match_length) {
        return Err(bad("a score reaches the match length"));
    }
    let Some(turn) = fibs.turn else {
        return Err(bad("no side is on roll (turn 0)"));
    };
    if Side::BOTH.iter().any(|&s| fibs.board.on_board(s) == 0) {
        return Err(bad("a side has borne off every checker: that game is over"));
    }
    let phase = match (fibs.doubled, fibs.dice) {
        (true, Some(_)) => return Err(bad("both a double and dice")),
        (true, None) => Phase::Doubled { by: turn },
        (false, Some(dice)) => Phase::ToPlay { side: turn, dice },
        (false, None) => Phase::ToRoll(turn),
    };
    let rules = MatchRules {
        length: fibs.match_length,
        ..current.rules()
    };
    let at_point = rules.length > 0 && fibs.score.iter().any(|&p| p + 1 == rules.length);
    let state = State {
        board: fibs.board,
        phase,
        cube: fibs.cube,
        cube_owner: fibs.cube_owner,
        score: fibs.score,
        crawford_game: fibs.crawford,
        crawford_done: fibs.crawford || (rules.crawford && at_point),
        games: 0,
    };
    let mut game = Game::new(rules);
    // A new game keeps nothing yet, so this cannot reach the limit.
    game.set_state(state)
        .map_err(|e| GtpError::other(e.to_string()))?;
    Ok(game)
}
