//! The Kulami commands: [`KulamiCommand`], each command with its arguments parsed and
//! checked, read from the protocol core's [`Command`]. GoGui's six `gogui-rules_*`
//! commands are not here: the core answers them from the engine's
//! [`crate::protocol::GoguiRules`].

use crate::protocol::{CLOCK_COMMANDS, ClockCommand, Command, GtpError};

use super::cell::Cell;
use super::layout::Layout;
use super::position::Setup;
use super::rules::Color;

/// Where a new game's layout comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum LayoutChoice {
    Default,
    /// A random layout; `None` takes the next seed from the engine's own stream.
    Random(Option<u64>),
    Given(Box<Layout>),
}

/// A move argument: a cell, or `pass` (accepted only once the game is over).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveArg {
    Pass,
    Cell(Cell),
}

/// A Kulami command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum KulamiCommand {
    Boardsize(u64),
    ClearBoard,
    NewGame(LayoutChoice),
    GetLayout,
    Play(Color, MoveArg),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    Showboard,
    AllLegal(Color),
    IsLegal(Color, Cell),
    FinalScore,
    GetPosition,
    SetPosition(Setup),
    Komi,
    /// A clock command (`time_settings`, `time_left`, `kgs-`/`kata-time_settings`, …).
    Clock(ClockCommand),
    /// `kulami-tiles`: GoGui graphics of the tiles and the marked ones.
    Tiles,
    /// `gogui-rules_board_gfx`: the tiles, and the holes where the next marble may go.
    BoardGfx,
}

/// The Kulami commands in `list_commands` order; GoGui's six rules commands follow them
/// (see [`crate::protocol::GOGUI_RULES_COMMANDS`]).
pub const KULAMI_COMMANDS: [&str; 22] = [
    "boardsize",
    "clear_board",
    "kulami-new_game",
    "kulami-layout",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "all_legal",
    "is_legal",
    "final_score",
    "kulami-position",
    "kulami-set_position",
    "komi",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kata-time_settings",
    "kata-list_time_settings",
    "kulami-tiles",
    "gogui-rules_board_gfx",
];

const COLOR: &str = "a color (b, black, r, red, or w, white for red)";

fn parse_color(command: &Command, index: usize) -> Result<Color, GtpError> {
    command.parse_arg(index, COLOR)
}

fn parse_cell(command: &Command, index: usize) -> Result<Cell, GtpError> {
    let text = command.arg(index)?;
    text.parse::<Cell>()
        .map_err(|error| GtpError::syntax(error.to_string()))
}

impl KulamiCommand {
    pub fn parse(command: &Command) -> Result<KulamiCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "boardsize" => {
                c.expect_args(1, "<size>")?;
                KulamiCommand::Boardsize(c.parse_arg(0, "a board size")?)
            }
            "clear_board" => c.no_args(KulamiCommand::ClearBoard)?,
            "kulami-new_game" => KulamiCommand::NewGame(parse_layout_choice(c)?),
            "kulami-layout" => c.no_args(KulamiCommand::GetLayout)?,
            "kulami-tiles" => c.no_args(KulamiCommand::Tiles)?,
            // GoGui draws this after every move when a ruler offers it: the tiles and the
            // legal holes stay shown.
            "gogui-rules_board_gfx" => c.no_args(KulamiCommand::BoardGfx)?,
            "play" => {
                c.expect_args(2, "<color> <cell>")?;
                let color = parse_color(c, 0)?;
                let mv = if c.args[1].eq_ignore_ascii_case("pass") {
                    MoveArg::Pass
                } else {
                    MoveArg::Cell(parse_cell(c, 1)?)
                };
                KulamiCommand::Play(color, mv)
            }
            "genmove" | "reg_genmove" => {
                c.expect_args(1, "<color>")?;
                let color = parse_color(c, 0)?;
                if c.name == "genmove" {
                    KulamiCommand::Genmove(color)
                } else {
                    KulamiCommand::RegGenmove(color)
                }
            }
            "undo" => c.no_args(KulamiCommand::Undo)?,
            "showboard" => c.no_args(KulamiCommand::Showboard)?,
            "all_legal" => {
                c.expect_args(1, "<color>")?;
                KulamiCommand::AllLegal(parse_color(c, 0)?)
            }
            "is_legal" => {
                c.expect_args(2, "<color> <cell>")?;
                KulamiCommand::IsLegal(parse_color(c, 0)?, parse_cell(c, 1)?)
            }
            "final_score" => c.no_args(KulamiCommand::FinalScore)?,
            "kulami-position" => c.no_args(KulamiCommand::GetPosition)?,
            "kulami-set_position" => {
                c.expect_args(1, "<position>")?;
                let setup = c.args[0]
                    .parse::<Setup>()
                    .map_err(|error| GtpError::syntax(format!("bad position: {error}")))?;
                KulamiCommand::SetPosition(setup)
            }
            // Controllers send a komi for Go; Kulami has none, so it is accepted and ignored.
            "komi" => {
                c.expect_args(1, "<komi>")?;
                let _: f64 = c.parse_arg(0, "a number")?;
                KulamiCommand::Komi
            }
            name if CLOCK_COMMANDS.contains(&name) => {
                KulamiCommand::Clock(ClockCommand::parse(c, COLOR, |word| {
                    word.parse::<Color>().ok().map(Color::index)
                })?)
            }
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}

/// `default`, `random [seed]`, or the layout itself: rows separated by `/`, or one row an
/// argument.
fn parse_layout_choice(command: &Command) -> Result<LayoutChoice, GtpError> {
    const USAGE: &str = "default | random [<seed>] | <layout rows separated by />";
    let first = command.arg(0).map_err(|_| command.usage_error(USAGE))?;
    match first.to_ascii_lowercase().as_str() {
        "default" => {
            command.expect_args(1, USAGE)?;
            Ok(LayoutChoice::Default)
        }
        "random" => {
            command.expect_args_between(1, 2, USAGE)?;
            match command.args.get(1) {
                Some(_) => Ok(LayoutChoice::Random(Some(command.parse_arg(1, "a seed")?))),
                None => Ok(LayoutChoice::Random(None)),
            }
        }
        _ => command
            .args
            .join("/")
            .parse::<Layout>()
            .map(|layout| LayoutChoice::Given(Box::new(layout)))
            .map_err(|error| GtpError::other(format!("invalid layout: {error}"))),
    }
}
