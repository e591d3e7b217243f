//! The Mangala commands: [`MangalaCommand`], each command with its arguments parsed and
//! checked, read from the protocol core's [`Command`]. GoGui's six `gogui-rules_*`
//! commands are not here: the core answers them from the engine's
//! [`crate::protocol::GoguiRules`].

use crate::protocol::{CLOCK_COMMANDS, ClockCommand, Command, GtpError};
use crate::text::shorten;

use super::notation::ParsePitError;
use super::rules::{EndRule, MAX_STONES_PER_PIT, Pit, Position, Side};

/// A Mangala command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum MangalaCommand {
    Boardsize(usize),
    ClearBoard,
    Draw(Side),
    MatchStatus,
    Rules(Option<EndRule>),
    Stones(Option<u8>),
    Play(Side, Pit),
    Genmove(Side),
    Undo,
    Showboard,
    AllLegal(Side),
    FinalScore,
    GetPosition,
    SetPosition(Position),
    Solve(Option<u64>),
    /// A clock command (`time_settings`, `time_left`, `kgs-`/`kata-time_settings`, …).
    Clock(ClockCommand),
    /// `gogui-rules_board_gfx`: each pit's exact count and the stores, as GoGui graphics.
    BoardGfx,
}

/// The Mangala commands in `list_commands` order; GoGui's six rules commands follow them
/// (see [`crate::protocol::GOGUI_RULES_COMMANDS`]).
pub const MANGALA_COMMANDS: [&str; 21] = [
    "boardsize",
    "clear_board",
    "mangala-draw",
    "mangala-match",
    "mangala-rules",
    "mangala-stones",
    "play",
    "genmove",
    "undo",
    "showboard",
    "all_legal",
    "final_score",
    "get_position",
    "set_position",
    "mangala-solve",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kata-time_settings",
    "kata-list_time_settings",
    "gogui-rules_board_gfx",
];

const SIDE_WORDS: &str = "a side (south, s, b, black, north, n, w or white)";

fn parse_side(command: &Command, index: usize) -> Result<Side, GtpError> {
    command.parse_arg(index, SIDE_WORDS)
}

fn parse_pit(command: &Command, index: usize, side: Side) -> Result<Pit, GtpError> {
    let text = command.arg(index)?;
    Pit::parse_for(text, side).map_err(|error| match error {
        ParsePitError::Malformed => GtpError::syntax(format!(
            "expected a pit 1-6 (or a GoGui vertex), got '{}'",
            shorten(text)
        )),
        ParsePitError::OutOfRange => GtpError::syntax(format!(
            "pit {} is out of range: pits are 1 to 6",
            shorten(text)
        )),
        ParsePitError::NotOnRow => GtpError::syntax(format!(
            "{} is not a pit of {side}'s row",
            shorten(text).to_ascii_uppercase()
        )),
    })
}

impl MangalaCommand {
    /// Parses `command`; a pit is read for the side named in the command. `total` is the
    /// set's stone count, which a position must hold.
    pub fn parse(command: &Command, total: u32) -> Result<MangalaCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "boardsize" => {
                c.expect_args(1, "<size>")?;
                let size: usize = c
                    .parse_arg(0, "a board size")
                    .map_err(|_| GtpError::UnacceptableSize)?;
                MangalaCommand::Boardsize(size)
            }
            "clear_board" => c.no_args(MangalaCommand::ClearBoard)?,
            "mangala-draw" => {
                c.expect_args_between(0, 1, "[hider]")?;
                match c.args.first() {
                    Some(_) => MangalaCommand::Draw(parse_side(c, 0)?),
                    None => MangalaCommand::Draw(Side::South),
                }
            }
            "mangala-match" => c.no_args(MangalaCommand::MatchStatus)?,
            "mangala-rules" => {
                c.expect_args_between(0, 1, "[turkish|kalah]")?;
                match c.args.first() {
                    Some(text) => MangalaCommand::Rules(Some(
                        text.parse().map_err(|_| c.usage_error("[turkish|kalah]"))?,
                    )),
                    None => MangalaCommand::Rules(None),
                }
            }
            "mangala-stones" => {
                c.expect_args_between(0, 1, "[stones_per_pit]")?;
                match c.args.first() {
                    Some(_) => {
                        let stones: u8 = c.parse_arg(0, "a number of stones per pit")?;
                        if stones == 0 || stones > MAX_STONES_PER_PIT {
                            return Err(GtpError::InvalidNumberOfStones);
                        }
                        MangalaCommand::Stones(Some(stones))
                    }
                    None => MangalaCommand::Stones(None),
                }
            }
            "play" => {
                c.expect_args(2, "<side> <pit>")?;
                let side = parse_side(c, 0)?;
                MangalaCommand::Play(side, parse_pit(c, 1, side)?)
            }
            "genmove" => {
                c.expect_args(1, "<side>")?;
                MangalaCommand::Genmove(parse_side(c, 0)?)
            }
            "undo" => c.no_args(MangalaCommand::Undo)?,
            "showboard" => c.no_args(MangalaCommand::Showboard)?,
            "all_legal" => {
                c.expect_args(1, "<side>")?;
                MangalaCommand::AllLegal(parse_side(c, 0)?)
            }
            "final_score" => c.no_args(MangalaCommand::FinalScore)?,
            "get_position" => c.no_args(MangalaCommand::GetPosition)?,
            "set_position" => {
                c.expect_args(1, "<position>")?;
                let position = Position::parse_with_total(c.arg(0)?, total)
                    .map_err(|error| GtpError::syntax(format!("bad position: {error}")))?;
                MangalaCommand::SetPosition(position)
            }
            "mangala-solve" => {
                c.expect_args_between(0, 1, "[max_nodes]")?;
                match c.args.first() {
                    Some(_) => MangalaCommand::Solve(Some(c.parse_arg(0, "a number of nodes")?)),
                    None => MangalaCommand::Solve(None),
                }
            }
            // South is seat 0 whichever side the draw lets start.
            name if CLOCK_COMMANDS.contains(&name) => {
                MangalaCommand::Clock(ClockCommand::parse(c, SIDE_WORDS, |word| {
                    word.parse::<Side>().ok().map(Side::index)
                })?)
            }
            "gogui-rules_board_gfx" => c.no_args(MangalaCommand::BoardGfx)?,
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}
