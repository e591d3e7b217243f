//! What `hamle tavla` says to GoGui. GoGui draws Go-like boards only (a square or hex grid
//! of points, one stone a point); a 24-point track with a bar, stacks, dice and a cube has
//! no such board, so Tavla offers no `gogui-rules_*` commands. GoGui starts every program
//! with `boardsize` and `clear_board`; instead of `unknown command` (which left users
//! looking at an empty Go board), those answers say why and what to use instead.

use crate::protocol::GtpError;

/// The Go board commands GoGui (and other Go controllers) send first.
pub const GO_BOARD_COMMANDS: [&str; 2] = ["boardsize", "clear_board"];

/// The one-line refusal of a Go board command: what Tavla lacks and what to use.
pub const NO_GOGUI_BOARD: &str = "Tavla (backgammon) has no Go board, so GoGui cannot show it: \
to play hamle on a board, run 'hamle tavla --listen 4000' and in GNU Backgammon \
'set player 1 external localhost:4000'; programs drive 'hamle tavla' by its GTP commands \
(new_match, roll, play, genmove: see protocol.md) or by UBGI ('hamle tavla --protocol ubgi')";

/// The refusal of `boardsize`, `clear_board` and the like, whatever their arguments.
pub fn no_gogui_board() -> GtpError {
    GtpError::other(NO_GOGUI_BOARD)
}
