//! GoGui's rules extension (`gogui-rules_*`), answered by the core for every game that
//! describes its board through [`GoguiRules`].
//!
//! GoGui draws a board it does not know from these six answers. A game lists the commands
//! (see [`GOGUI_RULES_COMMANDS`]) among its own, where `list_commands` should show them,
//! and returns itself from [`super::Engine::gogui_rules`]; the core parses the commands,
//! refuses arguments and answers from the trait.

use super::{Command, GtpError};

/// The six commands of GoGui's rules extension.
pub const GOGUI_RULES_COMMANDS: [&str; 6] = [
    "gogui-rules_game_id",
    "gogui-rules_board_size",
    "gogui-rules_board",
    "gogui-rules_legal_moves",
    "gogui-rules_side_to_move",
    "gogui-rules_final_result",
];

/// What GoGui needs to show and play a game it does not know.
pub trait GoguiRules {
    /// `gogui-rules_game_id`: the game's name as GoGui shows it.
    fn game_id(&self) -> String;
    /// `gogui-rules_board_size`: `N` for a square board, or GoGui's `W H` form.
    fn board_size(&self) -> String;
    /// `gogui-rules_board`: the position, one GoGui row a line.
    fn board(&self) -> String;
    /// `gogui-rules_legal_moves`: the moves GoGui may offer a player, as vertices.
    fn legal_moves(&self) -> String;
    /// `gogui-rules_side_to_move`: GoGui's colour word for the side to move.
    fn side_to_move(&self) -> String;
    /// `gogui-rules_final_result`: the result once the game is over; `None` while it
    /// runs, answered `unknown`.
    fn final_result(&self) -> Option<String>;
}

/// Answers `command` from `rules` when it is one of [`GOGUI_RULES_COMMANDS`].
pub fn answer(rules: &dyn GoguiRules, command: &Command) -> Option<Result<String, GtpError>> {
    let answer = match command.name.as_str() {
        "gogui-rules_game_id" => rules.game_id(),
        "gogui-rules_board_size" => rules.board_size(),
        "gogui-rules_board" => rules.board(),
        "gogui-rules_legal_moves" => rules.legal_moves(),
        "gogui-rules_side_to_move" => rules.side_to_move(),
        "gogui-rules_final_result" => rules.final_result().unwrap_or_else(|| "unknown".into()),
        _ => return None,
    };
    Some(command.no_args(answer))
}
