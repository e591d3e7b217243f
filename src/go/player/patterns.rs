//! 3×3 shape patterns for playout replies next to the last move.
//!
//! These are the hane, cut and edge shapes of the MoGo paper (Gelly, Wang, Munos and
//! Teytaud, "Modification of UCT with patterns in Monte-Carlo Go", 2006): replying
//! locally with them makes playouts defend and attack territory the way players do,
//! which uniformly random playouts do not (there, invasions of a big empty area live
//! about as often as they die).
//!
//! A neighbourhood is coded in 16 bits, 2 per surrounding point; a 64K-entry table,
//! built once, says whether any pattern matches under any of the 8 symmetries with
//! either colour assignment (the shapes are good for both sides).

use std::sync::OnceLock;

use crate::go::board::{Board, Point};
use crate::go::color::Color;

/// The patterns, rows of 3 around the candidate move in the centre. `X`, `O`: stones
/// of one colour and of the other; `.`: empty; `x`: not `O`; `o`: not `X`; `#`: off
/// the board; `?`: anything.
const PATTERNS: [&str; 13] = [
    // Hane: enclosing, non-cutting, magari, diagonal attachment.
    "XOX...???",
    "XO....?.?",
    "XO?X..x.?",
    ".O.X.....",
    // Cut: unprotected, peeped; the "de" push into a cut; cut after a keima.
    "XO?O.o?o?",
    "XO?O.X???",
    "?X?O.Oooo",
    "OX?o.O???",
    // On the edge: chase, block a cut, block a connection, sagari, cut.
    "X.?O.?##?",
    "OX?X.O###",
    "?X?x.O###",
    "?XOx.x###",
    "?OXX.O###",
];

const EMPTY: u16 = 0;
const BLACK: u16 = 1;
const WHITE: u16 = 2;
const EDGE: u16 = 3;

/// The 3×3 neighbourhood of `p` in row-major order (centre left out), 2 bits a point.
pub(crate) fn code(board: &Board, p: Point) -> u16 {
    let [d0, d1, d2, d3] = board.diagonals(p);
    let [n0, n1, n2, n3] = board.neighbors(p);
    [d0, n0, d1, n1, n2, d2, n3, d3]
        .iter()
        .fold(0, |acc, &q| (acc << 2) | cell(board, q))
}

fn cell(board: &Board, q: Point) -> u16 {
    match board.get(q) {
        Some(Color::Black) => BLACK,
        Some(Color::White) => WHITE,
        None if board.is_on_board(q) => EMPTY,
        None => EDGE,
    }
}

/// True if some pattern matches the neighbourhood coded `code`.
pub(crate) fn matches(code: u16) -> bool {
    let table = TABLE.get_or_init(build_table);
    table[usize::from(code >> 3)] & (1 << (code & 7)) != 0
}

static TABLE: OnceLock<Vec<u8>> = OnceLock::new();

fn build_table() -> Vec<u8> {
    let mut table = vec![0u8; 1 << 13];
    for pattern in PATTERNS {
        let grid: Vec<u8> = pattern.bytes().collect();
        for variant in symmetries(&grid) {
            for swapped in [false, true] {
                // The 8 surrounding points' allowed values, in code order.
                let allowed: Vec<Vec<u16>> = variant
                    .iter()
                    .enumerate()
                    .filter(|&(i, _)| i != 4)
                    .map(|(_, &c)| allowed_values(c, swapped))
                    .collect();
                mark(&allowed, 0, 0, &mut table);
            }
        }
    }
    table
}

fn allowed_values(c: u8, swapped: bool) -> Vec<u16> {
    let (x, o) = if swapped {
        (WHITE, BLACK)
    } else {
        (BLACK, WHITE)
    };
    match c {
        b'X' => vec![x],
        b'O' => vec![o],
        b'.' => vec![EMPTY],
        b'x' => vec![x, EMPTY],
        b'o' => vec![o, EMPTY],
        b'#' => vec![EDGE],
        _ => vec![EMPTY, BLACK, WHITE, EDGE],
    }
}

/// Sets the table bit of every code the per-point choices allow.
fn mark(allowed: &[Vec<u16>], i: usize, code: u16, table: &mut [u8]) {
    if i == allowed.len() {
        table[usize::from(code >> 3)] |= 1 << (code & 7);
        return;
    }
    for &v in &allowed[i] {
        mark(allowed, i + 1, (code << 2) | v, table);
    }
}

/// Maps a (row, column) of a 3×3 grid to another.
pub(crate) type Transform = fn(usize, usize) -> (usize, usize);

/// The 8 rotations and reflections of a 3×3 grid (also the learned shapes' symmetries,
/// `features.rs`).
pub(crate) const TRANSFORMS: [Transform; 8] = [
    |r, c| (r, c),
    |r, c| (c, 2 - r),
    |r, c| (2 - r, 2 - c),
    |r, c| (2 - c, r),
    |r, c| (r, 2 - c),
    |r, c| (2 - r, c),
    |r, c| (c, r),
    |r, c| (2 - c, 2 - r),
];

/// The 8 rotations and reflections of a 3×3 grid given row-major.
fn symmetries(grid: &[u8]) -> Vec<Vec<u8>> {
    let at = |r: usize, c: usize| grid[r * 3 + c];
    TRANSFORMS
        .iter()
        .map(|t| {
            (0..9)
                .map(|i| {
                    let (r, c) = t(i / 3, i % 3);
                    at(r, c)
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::notation::Vertex;

    fn v(s: &str) -> Vertex {
        s.parse().expect("test vertex")
    }

    #[test]
    fn hane_matches_in_every_orientation_and_colour() {
        // Black D4, White D5: E5 and C5 are hane points (pattern "XO. ... ?.?").
        for (black, white) in [(Color::Black, Color::White), (Color::White, Color::Black)] {
            let mut board = Board::new(9).expect("9x9");
            board.set(board.point(v("D4")), Some(black));
            board.set(board.point(v("D5")), Some(white));
            assert!(matches(code(&board, board.point(v("E5")))));
            assert!(matches(code(&board, board.point(v("C5")))));
            assert!(!matches(code(&board, board.point(v("G7")))));
        }
    }

    #[test]
    fn empty_neighbourhood_does_not_match() {
        let board = Board::new(9).expect("9x9");
        assert!(!matches(code(&board, board.point(v("E5")))));
        assert!(!matches(code(&board, board.point(v("A1")))));
    }
}
