//! Mangala on GoGui's 6×6 board: what `gogui-rules_board` and `gogui-rules_board_gfx` say.
//!
//! Row 1 holds South's pits (pit 1 at A1), row 6 North's (pit 1 at F6, on North's left).
//! Each pit shows a bar of up to two stones growing inward (rows 2 and 5), so rows 3 and 4
//! stay free for the stores: North's on the left (A3–A4, where North's sowing ends), South's
//! on the right (F3–F4). Everything a player must see is drawn on the board itself, because
//! GoGui clears its status line after every human move: each pit's exact count as a label
//! on its vertex, and each store as a shaded box holding a ghost stone of its side labelled
//! with the count.

use super::notation::GOGUI_SIZE;
use super::rules::{PITS, Pit, Position, Side};

/// The tallest bar a pit shows: rows 3 and 4 are the stores'.
const BAR: usize = 2;
/// The stores' shading (GoGui draws it translucent over the wood).
const STORE_COLOUR: &str = "#c08040";

/// Where a side's store is drawn: the vertex of its ghost stone (labelled with the count)
/// and the vertex labelled `store`.
const fn store_vertices(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::North => ("A4", "A3"),
        Side::South => ("F3", "F4"),
    }
}

/// `gogui-rules_board`: 6 rows of `X`/`O`/`.`, top row first; each pit a bar of up to two
/// stones growing inward (the exact counts are labels, see [`board_gfx`]).
pub fn board(position: &Position) -> String {
    let mut grid = [['.'; GOGUI_SIZE]; GOGUI_SIZE];
    for pit in Pit::ALL {
        let south = usize::from(position.pit(Side::South, pit)).min(BAR);
        for row in grid.iter_mut().take(south) {
            row[pit.offset()] = 'X';
        }
        let north = usize::from(position.pit(Side::North, pit)).min(BAR);
        let column = PITS - 1 - pit.offset();
        for row in grid.iter_mut().rev().take(north) {
            row[column] = 'O';
        }
    }
    let rows: Vec<String> = grid
        .iter()
        .rev()
        .map(|row| {
            row.iter()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    format!("\n{}", rows.join("\n"))
}

/// `gogui-rules_board_gfx`: the stores' boxes and ghost stones, the labels (each pit's
/// count, each store's count and the word `store`), then the stores again as `TEXT` for
/// GoGui's status line (shown until GoGui clears it).
pub fn board_gfx(position: &Position) -> String {
    let (north_count, north_word) = store_vertices(Side::North);
    let (south_count, south_word) = store_vertices(Side::South);
    let mut labels: Vec<String> = [Side::South, Side::North]
        .into_iter()
        .flat_map(|side| {
            Pit::ALL
                .into_iter()
                .map(move |pit| format!("{} {}", pit.gogui_vertex(side), position.pit(side, pit)))
        })
        .collect();
    labels.push(format!("{north_count} {}", position.store(Side::North)));
    labels.push(format!("{north_word} store"));
    labels.push(format!("{south_count} {}", position.store(Side::South)));
    labels.push(format!("{south_word} store"));
    [
        format!("COLOR {STORE_COLOUR} {north_count} {north_word} {south_count} {south_word}"),
        // GoGui's VAR draws ghost stones (and numbers them; the labels below replace the
        // numbers with the counts).
        format!("VAR w {north_count} b {south_count}"),
        format!("LABEL {}", labels.join(" ")),
        format!(
            "TEXT stores: south (black) {}, north (white) {}",
            position.store(Side::South),
            position.store(Side::North)
        ),
    ]
    .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_leave_the_store_rows_free() {
        let position: Position = "4,4,4,4,4,4,0/4,4,4,4,4,4,0/s".parse().expect("a position");
        let rows: Vec<String> = board(&position).lines().skip(1).map(String::from).collect();
        assert_eq!(rows[2], ". . . . . .");
        assert_eq!(rows[3], ". . . . . .");
        assert_eq!(rows[0], "O O O O O O");
        assert_eq!(rows[5], "X X X X X X");
    }
}
