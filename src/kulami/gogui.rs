//! Kulami on GoGui's board: what `gogui-rules_board`, `gogui-rules_board_gfx` and the
//! `kulami-tiles` analyze command say.
//!
//! GoGui draws a Go grid of the layout's longer side. The graphics colour each tile's holes
//! and letter them, shade the squares that are no hole, square the tiles closed to the next
//! marble and, after every move (`gogui-rules_board_gfx`, which GoGui draws itself), circle
//! the holes where the next marble may go: everything a player needs stays on the board,
//! since GoGui clears its status line after every human move.

use super::cell::Cell;
use super::rules::{Color, Game};

/// GoGui `gfx` drawing the layout: each tile's holes in a colour of its own and labelled
/// with its letter, holes outside the layout shaded, and the tiles where the last marbles
/// lie (no marble may go there next) marked with squares.
pub fn tiles_gfx(game: &Game) -> String {
    // Seventeen light colours, far enough apart for neighbouring tiles to differ.
    const PALETTE: [&str; 17] = [
        "#f4cccc", "#fce5cd", "#fff2cc", "#d9ead3", "#d0e0e3", "#cfe2f3", "#d9d2e9", "#ead1dc",
        "#e6b8af", "#f9cb9c", "#ffe599", "#b6d7a8", "#a2c4c9", "#9fc5e8", "#b4a7d6", "#d5a6bd",
        "#dddddd",
    ];
    let layout = game.layout();
    let size = layout.board_size();
    let mut colours: Vec<Vec<String>> = vec![Vec::new(); PALETTE.len()];
    let mut labels = Vec::new();
    let mut outside = Vec::new();
    let mut marked = Vec::new();
    let last_tiles: Vec<usize> = [Color::Black, Color::Red]
        .into_iter()
        .filter_map(|c| game.position().last(c))
        .filter_map(|cell| layout.tile_index(cell))
        .collect();
    for row in 0..size {
        for col in 0..size {
            let cell = Cell::new(col, row);
            match layout.tile_index(cell) {
                Some(tile) => {
                    colours[tile % PALETTE.len()].push(cell.to_string());
                    labels.push(format!("{cell} {}", layout.tile_letter(tile)));
                    if last_tiles.contains(&tile) {
                        marked.push(cell.to_string());
                    }
                }
                None => outside.push(cell.to_string()),
            }
        }
    }
    let mut lines = Vec::new();
    for (colour, cells) in PALETTE.iter().zip(&colours) {
        if !cells.is_empty() {
            lines.push(format!("COLOR {colour} {}", cells.join(" ")));
        }
    }
    if !outside.is_empty() {
        lines.push(format!("COLOR #555555 {}", outside.join(" ")));
    }
    lines.push(format!("LABEL {}", labels.join(" ")));
    if !marked.is_empty() {
        lines.push(format!("SQUARE {}", marked.join(" ")));
    }
    format!("\n{}", lines.join("\n"))
}

/// GoGui's board: one row a line, top first, `X` black, `O` red, `.` empty or no hole,
/// over the square of the layout's longer side.
pub fn board(game: &Game) -> String {
    let size = game.layout().board_size();
    let position = game.position();
    let rows: Vec<String> = (0..size)
        .rev()
        .map(|row| {
            let glyphs: Vec<&str> = (0..size)
                .map(|col| {
                    let bit = Cell::new(col, row).bit();
                    if position.marbles(Color::Black) & bit != 0 {
                        "X"
                    } else if position.marbles(Color::Red) & bit != 0 {
                        "O"
                    } else {
                        "."
                    }
                })
                .collect();
            glyphs.join(" ")
        })
        .collect();
    format!("\n{}", rows.join("\n"))
}

/// `gogui-rules_board_gfx`: the tiles of [`tiles_gfx`], and a circle on every hole where
/// the side to move may put its marble (none once the game is over).
pub fn board_gfx(game: &Game) -> String {
    let mut gfx = tiles_gfx(game);
    let legal: Vec<String> = game.legal_moves().iter().map(Cell::to_string).collect();
    if !legal.is_empty() {
        gfx.push_str(&format!("\nCIRCLE {}", legal.join(" ")));
    }
    gfx
}
