//! The Abalone commands: [`AbaloneCommand`], each command with its arguments parsed and
//! checked, read from the protocol core's [`Command`]. GoGui's six `gogui-rules_*`
//! commands are not here: the core answers them from the engine's
//! [`crate::protocol::GoguiRules`].

use crate::protocol::{CLOCK_COMMANDS, ClockCommand, Command, GtpError};
use crate::text::shorten;

use super::board::{Cell, Color};
use super::clicks::parse_gogui_vertex;
use super::moves::Move;
use super::position::{Position, StartPosition};

/// An Abalone command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum AbaloneCommand {
    Boardsize(u64),
    ClearBoard,
    Komi,
    NewGame(Option<StartPosition>),
    Play(Color, Move),
    /// One click of a move entered cell by cell (`--gogui`).
    Click(Color, Cell),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    Showboard,
    AllLegal(Option<Color>),
    IsLegal(Color, Move),
    MarblesOff,
    FinalScore,
    GetPosition,
    SetPosition(Box<Position>),
    /// A clock command (`time_settings`, `time_left`, `kgs-`/`kata-time_settings`, …).
    Clock(ClockCommand),
    /// `gogui-rules_board_gfx`: the clicks so far and a status line, as GoGui graphics.
    BoardGfx,
}

/// The Abalone commands in `list_commands` order; GoGui's six rules commands follow them
/// (see [`crate::protocol::GOGUI_RULES_COMMANDS`]).
pub const ABALONE_COMMANDS: [&str; 21] = [
    "boardsize",
    "clear_board",
    "komi",
    "abalone-new_game",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "all_legal",
    "is_legal",
    "abalone-marbles_off",
    "final_score",
    "abalone-position",
    "abalone-set_position",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kata-time_settings",
    "kata-list_time_settings",
    "gogui-rules_board_gfx",
];

const COLOR: &str = "a color (b, black, w or white)";

fn color(command: &Command, index: usize) -> Result<Color, GtpError> {
    command.parse_arg(index, COLOR)
}

fn move_arg(command: &Command, index: usize) -> Result<Move, GtpError> {
    command
        .arg(index)?
        .parse::<Move>()
        .map_err(|error| GtpError::syntax(error.to_string()))
}

impl AbaloneCommand {
    /// `gogui`: `play` takes one GoGui vertex, a click (see [`super::clicks`]), as well as a
    /// whole move.
    pub fn parse(command: &Command, gogui: bool) -> Result<AbaloneCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "boardsize" => {
                c.expect_args(1, "<size>")?;
                AbaloneCommand::Boardsize(c.parse_arg(0, "a board size")?)
            }
            "clear_board" => c.no_args(AbaloneCommand::ClearBoard)?,
            // Controllers send a komi for Go; Abalone has none, so it is accepted and ignored.
            "komi" => {
                c.expect_args(1, "<komi>")?;
                let _: f64 = c.parse_arg(0, "a number")?;
                AbaloneCommand::Komi
            }
            "abalone-new_game" => {
                c.expect_args_between(0, 1, "[standard|belgian-daisy|german-daisy]")?;
                match c.args.first() {
                    None => AbaloneCommand::NewGame(None),
                    Some(name) => {
                        AbaloneCommand::NewGame(Some(name.parse().map_err(GtpError::syntax)?))
                    }
                }
            }
            "play" if gogui && c.args.get(1).is_some_and(|arg| arg.len() <= 3) => {
                c.expect_args(2, "<color> <vertex>")?;
                let vertex = c.arg(1)?;
                let cell = parse_gogui_vertex(vertex).ok_or_else(|| {
                    GtpError::syntax(format!(
                        "unknown vertex '{}': GoGui names a cell by its diagonal (A to H, J) and its row (1 to 9), e.g. D3 for c4",
                        shorten(vertex)
                    ))
                })?;
                AbaloneCommand::Click(color(c, 0)?, cell)
            }
            "play" => {
                c.expect_args(2, "<color> <move>")?;
                AbaloneCommand::Play(color(c, 0)?, move_arg(c, 1)?)
            }
            "genmove" => {
                c.expect_args(1, "<color>")?;
                AbaloneCommand::Genmove(color(c, 0)?)
            }
            "reg_genmove" => {
                c.expect_args(1, "<color>")?;
                AbaloneCommand::RegGenmove(color(c, 0)?)
            }
            "undo" => c.no_args(AbaloneCommand::Undo)?,
            "showboard" => c.no_args(AbaloneCommand::Showboard)?,
            "all_legal" => {
                c.expect_args_between(0, 1, "[<color>]")?;
                AbaloneCommand::AllLegal(if c.args.is_empty() {
                    None
                } else {
                    Some(color(c, 0)?)
                })
            }
            "is_legal" => {
                c.expect_args(2, "<color> <move>")?;
                AbaloneCommand::IsLegal(color(c, 0)?, move_arg(c, 1)?)
            }
            "abalone-marbles_off" => c.no_args(AbaloneCommand::MarblesOff)?,
            "final_score" => c.no_args(AbaloneCommand::FinalScore)?,
            "abalone-position" => c.no_args(AbaloneCommand::GetPosition)?,
            "abalone-set_position" => {
                if c.args.is_empty() {
                    return Err(c.usage_error("<rows> <b|w> <black off> <white off>"));
                }
                let position = c
                    .args
                    .join(" ")
                    .parse::<Position>()
                    .map_err(|error| GtpError::syntax(format!("bad position: {error}")))?;
                AbaloneCommand::SetPosition(Box::new(position))
            }
            name if CLOCK_COMMANDS.contains(&name) => {
                AbaloneCommand::Clock(ClockCommand::parse(c, COLOR, |word| {
                    word.parse::<Color>().ok().map(Color::index)
                })?)
            }
            "gogui-rules_board_gfx" => c.no_args(AbaloneCommand::BoardGfx)?,
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}
