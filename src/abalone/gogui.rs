//! Abalone on GoGui's hex board: what `gogui-rules_board` and `gogui-rules_board_gfx` say.
//!
//! GoGui draws the hexagon inside a 9×9 rhombus; the rhombus's two corners outside the
//! hexagon (upper left: A9–D9, A8–C8, A7–B7, A6; lower right: F1–J1, G2–J2, H3–J3, J4) are
//! GoGui's removed points, drawn as bare wood on which labels and ghost stones still show.
//! Everything a player must see goes on the board, because GoGui clears its status line
//! after every human move:
//! - each colour's marbles pushed off, as a ghost marble labelled with the count and the
//!   word `off` (White's in the upper corner, next to White's start; Black's in the lower);
//! - under `--gogui`, the move being entered: the selected marbles crossed (`MARK`), the
//!   cells that complete the move circled (`CIRCLE`; the circles already follow the
//!   broadside rule, so the click order needs no mark of its own), and what to click next
//!   in short words in the corner of the side to move.

use super::board::{Cell, Color};
use super::clicks::{self, gogui_vertex};
use super::rules::Game;

/// A colour's tray: its ghost marble (labelled with the count) and its `off` label.
const fn tray(color: Color) -> (&'static str, &'static str) {
    match color {
        Color::White => ("A9", "B9"),
        Color::Black => ("H1", "J1"),
    }
}

/// The removed points that hold the instructions for `color`, in reading order: three
/// short lines narrowing downward in the upper corner, widening downward in the lower.
const fn prompt_cells(color: Color) -> [&'static str; 6] {
    match color {
        Color::White => ["A8", "B8", "C8", "A7", "B7", "A6"],
        Color::Black => ["J4", "H3", "J3", "G2", "H2", "J2"],
    }
}

/// What to click with nothing selected, one short word a cell.
const PROMPT_SELECT: [&str; 6] = ["click", "your", "balls", "then", "where", "to go"];
/// What to click with marbles selected.
const PROMPT_TARGET: [&str; 6] = ["click", "a ring", "or", "add", "a", "ball"];

/// GoGui's name of each cell, space-separated.
fn vertices(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|c| gogui_vertex(*c))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `gogui-rules_board`: the 9×9 rhombus of rows (I at the top) and diagonals, `X` black,
/// `O` white, `.` empty, `?` outside the hexagon (GoGui draws no cell there).
pub fn board(game: &Game) -> String {
    let position = game.position();
    let rows: Vec<String> = (0..9i8)
        .rev()
        .map(|row| {
            let glyphs: Vec<&str> = (0..9i8)
                .map(|col| match Cell::at(row, col) {
                    None => "?",
                    Some(cell) => match position.color_at(cell) {
                        Some(Color::Black) => "X",
                        Some(Color::White) => "O",
                        None => ".",
                    },
                })
                .collect();
            glyphs.join(" ")
        })
        .collect();
    format!("\n{}", rows.join("\n"))
}

/// `gogui-rules_board_gfx`: the trays, the move being entered (`selected`, in click order,
/// when `clicks` is on: `--gogui`) and the instructions; last a `TEXT` line for GoGui's
/// status line, shown until GoGui clears it.
pub fn board_gfx(game: &Game, selected: &[Cell], clicks: bool) -> String {
    let position = game.position();
    let to_move = game.to_move();
    let mut lines = Vec::new();
    let mut labels = Vec::new();
    let (white_ghost, _) = tray(Color::White);
    let (black_ghost, _) = tray(Color::Black);
    // GoGui's VAR draws ghost stones (numbered; the labels below replace the numbers).
    lines.push(format!("VAR w {white_ghost} b {black_ghost}"));
    for color in [Color::White, Color::Black] {
        let (ghost, word) = tray(color);
        labels.push(format!("{ghost} {}", position.marbles_off(color)));
        labels.push(format!("{word} off"));
    }
    let mut targets = Vec::new();
    let running = game.result().is_none();
    if clicks && running {
        let prompt = if selected.is_empty() {
            PROMPT_SELECT
        } else {
            targets = clicks::next_clicks(position, selected)
                .into_iter()
                .filter(|cell| position.marbles(to_move) & cell.bit() == 0)
                .collect();
            PROMPT_TARGET
        };
        for (cell, word) in prompt_cells(to_move).into_iter().zip(prompt) {
            // GoGui reads a quoted label as one, spaces included.
            if word.contains(' ') {
                labels.push(format!("{cell} \"{word}\""));
            } else {
                labels.push(format!("{cell} {word}"));
            }
        }
    }
    if !selected.is_empty() {
        lines.push(format!("MARK {}", vertices(selected)));
    }
    if !targets.is_empty() {
        lines.push(format!("CIRCLE {}", vertices(&targets)));
    }
    lines.push(format!("LABEL {}", labels.join(" ")));
    lines.push(format!("TEXT {}", status(game, selected, clicks)));
    lines.join("\n")
}

/// The status line: whose turn and the last move, or the result; under `--gogui` what to
/// click.
fn status(game: &Game, selected: &[Cell], clicks: bool) -> String {
    let last = game
        .moves()
        .last()
        .map(|mv| format!(" (last move {mv})"))
        .unwrap_or_default();
    let to_move = game.to_move();
    if let Some(result) = game.result() {
        result.to_string()
    } else if !clicks {
        format!("{to_move} to move{last}")
    } else if selected.is_empty() {
        format!("{to_move} to move: click the marbles that move, then where they go{last}")
    } else {
        let ours: Vec<String> = selected.iter().map(|c| c.to_string()).collect();
        format!(
            "{to_move} selected {} ({}): click another marble, or where they go (circled: in front of the line, or where {} steps sideways)",
            vertices(selected),
            ours.join(" "),
            gogui_vertex(selected[0])
        )
    }
}
