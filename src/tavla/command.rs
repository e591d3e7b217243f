//! The Tavla commands of `hamle tavla` (protocol.md) as a typed enum: each GTP
//! [`Command`] is read into a [`TavlaCommand`] with its arguments parsed and checked before
//! anything runs, so the engine never sees a malformed argument.

use super::board::Side;
use super::dice::Dice;
use super::gogui::{GO_BOARD_COMMANDS, no_gogui_board};
use crate::protocol::{CLOCK_COMMANDS, ClockCommand, Command, GtpError};
use crate::text::shorten;

/// A Tavla command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum TavlaCommand {
    NewMatch(u32),
    NewGame(Option<(u8, u8)>),
    Crawford(Option<bool>),
    Seed(u64),
    Roll(Option<Side>),
    SetDice(Option<Side>, Dice),
    /// Side (default: the side to act), dice to roll first, the play's text.
    Play(Option<Side>, Option<Dice>, String),
    Genmove(Option<Side>),
    /// `genmove_analyze`: `genmove`'s play and the engine's equity for it.
    GenmoveAnalyze(Option<Side>),
    Double(Option<Side>),
    Take(Option<Side>),
    Drop(Option<Side>),
    GenmoveCube(Option<Side>),
    Undo,
    Showboard,
    AllLegal,
    SetPosition(String, Option<String>),
    GetPosition,
    FibsBoard(Side),
    SetFibsBoard(String, Side),
    FinalResult,
    MatchStatus,
    PipCount,
    SaveMat(String),
    /// A clock command (`time_settings`, `time_left`, `kata-time_settings`, …); seat 0 is
    /// white, 1 black.
    Clock(ClockCommand),
}

/// The Tavla commands in `list_commands` order. `boardsize` and `clear_board` are listed so
/// that they reach the engine, whose answer says that Tavla has no GoGui board (see
/// [`super::gogui`]).
pub const TAVLA_COMMANDS: [&str; 27] = [
    "new_match",
    "new_game",
    "crawford",
    "seed",
    "roll",
    "dice",
    "play",
    "genmove",
    "double",
    "take",
    "drop",
    "genmove_cube",
    "genmove_analyze",
    "undo",
    "showboard",
    "all_legal",
    "set_position",
    "get_position",
    "fibs_board",
    "set_fibs_board",
    "final_result",
    "match_status",
    "pip_count",
    "save_mat",
    "tavla-level",
    "boardsize",
    "clear_board",
];

fn parse_side(text: &str) -> Result<Side, GtpError> {
    text.parse().map_err(|_| {
        GtpError::syntax(format!(
            "expected a side (white or black), got '{}'",
            shorten(text)
        ))
    })
}

fn optional_side(command: &Command) -> Result<Option<Side>, GtpError> {
    command.expect_args_between(0, 1, "[white|black]")?;
    command.args.first().map(|t| parse_side(t)).transpose()
}

fn parse_die(text: &str) -> Result<u8, GtpError> {
    match text.parse::<u8>() {
        Ok(d) if (1..=6).contains(&d) => Ok(d),
        _ => Err(GtpError::syntax(format!(
            "expected a die 1-6, got '{}'",
            shorten(text)
        ))),
    }
}

fn parse_dice_args(args: &[String]) -> Result<Dice, GtpError> {
    match args {
        [both] => both
            .parse::<Dice>()
            .map_err(|e| GtpError::syntax(shorten(&e))),
        [a, b] => Dice::new(parse_die(a)?, parse_die(b)?).map_err(GtpError::syntax),
        _ => Err(GtpError::syntax("expected two dice, as in '6 3' or '63'")),
    }
}

/// A token that may be a side: a side's name without digits (moves and dice hold digits).
fn side_token(text: &str) -> Option<Side> {
    (!text.bytes().any(|b| b.is_ascii_digit() || b == b'/'))
        .then(|| text.parse().ok())
        .flatten()
}

/// A token that may be a roll: no `/` and two dice.
fn dice_token(text: &str) -> Option<Dice> {
    (!text.contains('/') && text.len() <= 3)
        .then(|| text.parse().ok())
        .flatten()
}

impl TavlaCommand {
    /// Reads `command`; a name that is not a Tavla command is [`GtpError::UnknownCommand`].
    ///
    /// One arm a command: the arms only dispatch, the commands with more than a side or a
    /// path to read have their own reader below.
    pub fn parse(command: &Command) -> Result<TavlaCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "new_match" => parse_new_match(c)?,
            "new_game" => match c.args.len() {
                0 => TavlaCommand::NewGame(None),
                2 => TavlaCommand::NewGame(Some((parse_die(&c.args[0])?, parse_die(&c.args[1])?))),
                _ => return Err(c.usage_error("[white_die black_die]")),
            },
            "crawford" => parse_crawford(c)?,
            "seed" => {
                c.expect_args(1, "<seed>")?;
                TavlaCommand::Seed(c.parse_arg(0, "a seed (an unsigned integer)")?)
            }
            "roll" => TavlaCommand::Roll(optional_side(c)?),
            "dice" => {
                let (side, rest) = match c.args.first().and_then(|t| side_token(t)) {
                    Some(side) => (Some(side), &c.args[1..]),
                    None => (None, &c.args[..]),
                };
                TavlaCommand::SetDice(side, parse_dice_args(rest)?)
            }
            "play" => parse_play_command(c)?,
            "genmove" => TavlaCommand::Genmove(optional_side(c)?),
            "double" => TavlaCommand::Double(optional_side(c)?),
            "take" => TavlaCommand::Take(optional_side(c)?),
            "drop" => TavlaCommand::Drop(optional_side(c)?),
            "genmove_cube" => TavlaCommand::GenmoveCube(optional_side(c)?),
            "genmove_analyze" => TavlaCommand::GenmoveAnalyze(optional_side(c)?),
            "undo" => c.no_args(TavlaCommand::Undo)?,
            "showboard" => c.no_args(TavlaCommand::Showboard)?,
            "all_legal" => c.no_args(TavlaCommand::AllLegal)?,
            "set_position" => parse_set_position(c)?,
            "get_position" => c.no_args(TavlaCommand::GetPosition)?,
            "fibs_board" => TavlaCommand::FibsBoard(optional_side(c)?.unwrap_or(Side::Black)),
            "set_fibs_board" => {
                c.expect_args_between(1, 2, "<board:…> [you: white|black]")?;
                let you = match c.args.get(1) {
                    Some(t) => parse_side(t)?,
                    None => Side::Black,
                };
                TavlaCommand::SetFibsBoard(c.arg(0)?.to_string(), you)
            }
            "final_result" => c.no_args(TavlaCommand::FinalResult)?,
            "match_status" => c.no_args(TavlaCommand::MatchStatus)?,
            "pip_count" => c.no_args(TavlaCommand::PipCount)?,
            name if GO_BOARD_COMMANDS.contains(&name) => return Err(no_gogui_board()),
            "save_mat" => {
                c.expect_args(1, "<path>")?;
                TavlaCommand::SaveMat(c.arg(0)?.to_string())
            }
            name if CLOCK_COMMANDS.contains(&name) => {
                TavlaCommand::Clock(ClockCommand::parse(c, "a side (white or black)", |word| {
                    word.parse::<Side>().ok().map(Side::index)
                })?)
            }
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}

/// `new_match [length]`: without a length, [`TavlaCommand::NewMatch`] carries `u32::MAX`
/// (keep the current length).
fn parse_new_match(c: &Command) -> Result<TavlaCommand, GtpError> {
    c.expect_args_between(0, 1, "[length (0 = money)]")?;
    Ok(match c.args.first() {
        Some(_) => {
            let length: u32 = c.parse_arg(0, "a match length (0 = money)")?;
            if length > 32_767 {
                return Err(GtpError::syntax(
                    "a match length is at most 32767 (the Match ID's 15 bits)",
                ));
            }
            TavlaCommand::NewMatch(length)
        }
        None => TavlaCommand::NewMatch(u32::MAX),
    })
}

/// `crawford [on|off]`: without an argument, a question.
fn parse_crawford(c: &Command) -> Result<TavlaCommand, GtpError> {
    c.expect_args_between(0, 1, "[on|off]")?;
    Ok(match c.args.first().map(|t| t.to_ascii_lowercase()) {
        None => TavlaCommand::Crawford(None),
        Some(t) if t == "on" || t == "true" || t == "1" => TavlaCommand::Crawford(Some(true)),
        Some(t) if t == "off" || t == "false" || t == "0" => TavlaCommand::Crawford(Some(false)),
        Some(_) => return Err(c.usage_error("[on|off]")),
    })
}

/// `play [side] [dice] <move…>`: the side and the dice are recognised by their shape, the
/// rest is the play's text (read against the board when the command runs).
fn parse_play_command(c: &Command) -> Result<TavlaCommand, GtpError> {
    let mut rest = &c.args[..];
    let side = rest.first().and_then(|t| side_token(t));
    if side.is_some() {
        rest = &rest[1..];
    }
    let dice = rest.first().and_then(|t| dice_token(t));
    if dice.is_some() {
        rest = &rest[1..];
    } else if let Some(first) = rest.first()
        && first.len() == 2
        && first.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(GtpError::syntax(format!(
            "'{first}' is not a roll: dice are 1-6"
        )));
    }
    if rest.is_empty() {
        return Err(c.usage_error("[side] [dice] <move…> (e.g. play black 63 24/18 13/10; 'pass' when no checker can move)"));
    }
    Ok(TavlaCommand::Play(side, dice, rest.join(" ")))
}

/// `set_position <position_id>[:<match_id>] [match_id]`: gnubg's pair joined or apart.
fn parse_set_position(c: &Command) -> Result<TavlaCommand, GtpError> {
    c.expect_args_between(1, 2, "<position_id>[:<match_id>] [match_id]")?;
    let first = c.arg(0)?;
    Ok(match (first.split_once(':'), c.args.get(1)) {
        (Some(_), Some(_)) => {
            return Err(c.usage_error("<position_id>[:<match_id>] [match_id]"));
        }
        (Some((p, m)), None) => TavlaCommand::SetPosition(p.to_string(), Some(m.to_string())),
        (None, m) => TavlaCommand::SetPosition(first.to_string(), m.cloned()),
    })
}
