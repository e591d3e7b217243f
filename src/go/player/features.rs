//! The features of a candidate move whose weights (gammas) are learned from game records
//! (`mm.rs` fits them, `gammas.rs` holds them): after Coulom, "Computing Elo Ratings of
//! Move Patterns in the Game of Go" (2007).
//!
//! A move has at most one feature of each group ([`Group`]): its 3×3 neighbourhood (with
//! which orthogonal neighbours' chains are in atari), colour-normalised to the side to move
//! and canonical under the 8 symmetries of the square, and a few tactical facts the search
//! already computes (capture, escape from atari, atari and ladder, self-atari, distance to
//! the last two moves, the line). Passes are not candidates: the tree gives the pass its
//! own prior.

use crate::go::board::{Board, Point};
use crate::go::color::Color;

use super::ladder::{runs_into_ladder, starts_working_ladder};
use super::patterns::TRANSFORMS;
use super::playout::{is_bad_self_atari, saves_atari};

/// The groups of features; a move has at most one feature of each.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Group {
    /// The 3×3 shape: its canonical code ([`shape_code`]). Every move has one.
    Shape,
    /// 1: captures one stone, 2: captures two or more, 3: captures a chain that touches
    /// one of the mover's chains in atari, and so saves it (Coulom's first capture feature;
    /// the escape group does not see such a save).
    Capture,
    /// 1: saves a chain from atari, 2: does so into a working ladder.
    Escape,
    /// 1: puts an opponent chain in atari, 2: starts a ladder that works.
    Atari,
    /// 1: puts two or more of its own stones in atari (or kills them) without capturing.
    SelfAtari,
    /// Distance to the last move, Coulom's `|dx| + |dy| + max(|dx|, |dy|)` from 2 to 17
    /// (longer distances count as 17), as 1 to 16.
    LastDistance,
    /// Distance to the move before it, as for [`Group::LastDistance`].
    BeforeLastDistance,
    /// The line, counted from the edge: 1 to 4, and 5 for any line further in.
    Line,
}

/// Every group, in the order of a [`MoveFeatures`] array.
pub(crate) const GROUPS: [Group; 8] = [
    Group::Shape,
    Group::Capture,
    Group::Escape,
    Group::Atari,
    Group::SelfAtari,
    Group::LastDistance,
    Group::BeforeLastDistance,
    Group::Line,
];

impl Group {
    /// The group's name in a weights file.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Group::Shape => "shape",
            Group::Capture => "capture",
            Group::Escape => "escape",
            Group::Atari => "atari",
            Group::SelfAtari => "self-atari",
            Group::LastDistance => "last-distance",
            Group::BeforeLastDistance => "before-last-distance",
            Group::Line => "line",
        }
    }

    /// The group named `name` in a weights file.
    pub(crate) fn from_name(name: &str) -> Option<Group> {
        GROUPS.into_iter().find(|g| g.name() == name)
    }

    /// The largest value of the group's features (values run from 1).
    pub(crate) fn max_value(self) -> u32 {
        match self {
            Group::Shape => SHAPE_CODES - 1,
            Group::Capture => 3,
            Group::Escape | Group::Atari => 2,
            Group::SelfAtari => 1,
            Group::LastDistance | Group::BeforeLastDistance => 16,
            Group::Line => 5,
        }
    }

    /// The group's position in [`GROUPS`].
    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// A move's feature value in each group of [`GROUPS`], 0 where it has none (gamma 1).
/// Shapes are stored as their code plus 1, so that every value 0 means "none".
pub(crate) type MoveFeatures = [u32; GROUPS.len()];

/// Raw shape codes: 2 bits for each of the 8 neighbours (row by row, the centre left
/// out) and 1 bit for each orthogonal neighbour's chain being in atari.
pub(crate) const SHAPE_CODES: u32 = 1 << 20;

const EMPTY: u8 = 0;
const OWN: u8 = 1;
const OPPONENT: u8 = 2;
const EDGE: u8 = 3;
/// Set on a cell whose stone's chain has one liberty.
const IN_ATARI: u8 = 4;

/// The 3×3 grid positions of the 8 neighbours, in code order (row-major, centre left out).
const RING: [usize; 8] = [0, 1, 2, 3, 5, 6, 7, 8];
/// The grid positions of the orthogonal neighbours, in the order of their atari bits.
const ORTHOGONAL: [usize; 4] = [1, 3, 5, 7];

/// `color` playing at `p`: its features. `last` and `before_last` are the two moves
/// before, where known (`None`: unknown or a pass).
pub(crate) fn move_features(
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
    before_last: Option<Point>,
) -> MoveFeatures {
    let mut features = [0; GROUPS.len()];
    features[Group::Shape.index()] = canonical_shape(raw_shape(board, color, p)) + 1;
    features[Group::Capture.index()] = match captured_stones(board, color, p) {
        0 => 0,
        _ if capture_saves_own_chain(board, color, p) => 3,
        1 => 1,
        _ => 2,
    };
    if saves_atari(board, color, p) {
        features[Group::Escape.index()] = if runs_into_ladder(board, color, p) {
            2
        } else {
            1
        };
    }
    if starts_working_ladder(board, color, p) {
        features[Group::Atari.index()] = 2;
    } else if puts_in_atari(board, color, p) {
        features[Group::Atari.index()] = 1;
    }
    features[Group::SelfAtari.index()] = u32::from(is_bad_self_atari(board, color, p));
    features[Group::LastDistance.index()] = last.map_or(0, |q| distance_feature(board, p, q));
    features[Group::BeforeLastDistance.index()] =
        before_last.map_or(0, |q| distance_feature(board, p, q));
    features[Group::Line.index()] = line(board, p).min(5);
    features
}

/// Stones of the opponent's chains next to `p` that have `p` as their last liberty.
fn captured_stones(board: &Board, color: Color, p: Point) -> usize {
    let mut heads = [None; 4];
    let mut stones = 0;
    for (i, q) in board.neighbors(p).into_iter().enumerate() {
        if board.get(q) == Some(color.opponent()) && board.chain_liberties(q) == 1 {
            let head = board.chain_head(q);
            if !heads[..i].contains(&Some(head)) {
                stones += board.chain_len(q);
            }
            heads[i] = Some(head);
        }
    }
    stones
}

/// True if an opponent chain that `color` captures at `p` touches a chain of `color` in
/// atari: the capture gives that chain a liberty.
fn capture_saves_own_chain(board: &Board, color: Color, p: Point) -> bool {
    let own_chain_in_atari = |s: Point| {
        board
            .neighbors(s)
            .into_iter()
            .any(|q| board.get(q) == Some(color) && board.chain_liberties(q) == 1)
    };
    board.neighbors(p).into_iter().any(|q| {
        board.get(q) == Some(color.opponent())
            && board.chain_liberties(q) == 1
            && board.chain_stones(q).any(own_chain_in_atari)
    })
}

/// True if an opponent chain next to `p` has two liberties (so one after the move).
fn puts_in_atari(board: &Board, color: Color, p: Point) -> bool {
    board
        .neighbors(p)
        .into_iter()
        .any(|q| board.get(q) == Some(color.opponent()) && board.chain_liberties(q) == 2)
}

/// Coulom's distance from `p` to `q` as a feature value: 1 for adjacent (distance 2) to
/// 16 for 17 and beyond.
fn distance_feature(board: &Board, p: Point, q: Point) -> u32 {
    let (a, b) = (board.vertex(p), board.vertex(q));
    let dx = u32::from(a.col.abs_diff(b.col));
    let dy = u32::from(a.row.abs_diff(b.row));
    let distance = dx + dy + dx.max(dy);
    // A move on the last move's point (after a capture) counts as adjacent.
    distance.clamp(2, 17) - 1
}

/// The line of `p`, 1 at the edge.
fn line(board: &Board, p: Point) -> u32 {
    let size = board.size();
    let v = board.vertex(p);
    let (col, row) = (usize::from(v.col), usize::from(v.row));
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row) + 1;
    // At most 13 on the largest board.
    line as u32
}

/// The raw shape code of `p`'s neighbourhood, colours seen from `color`.
pub(crate) fn raw_shape(board: &Board, color: Color, p: Point) -> u32 {
    let [d0, n0, d1, n1, n2, d2, n3, d3] = {
        let [d0, d1, d2, d3] = board.diagonals(p);
        let [n0, n1, n2, n3] = board.neighbors(p);
        [d0, n0, d1, n1, n2, d2, n3, d3]
    };
    let mut grid = [EMPTY; 9];
    for (&at, q) in RING.iter().zip([d0, n0, d1, n1, n2, d2, n3, d3]) {
        grid[at] = match board.get(q) {
            Some(c) => {
                let atari = if ORTHOGONAL.contains(&at) && board.chain_liberties(q) == 1 {
                    IN_ATARI
                } else {
                    0
                };
                (if c == color { OWN } else { OPPONENT }) | atari
            }
            None if board.is_on_board(q) => EMPTY,
            None => EDGE,
        };
    }
    encode(&grid)
}

fn encode(grid: &[u8; 9]) -> u32 {
    let cells = RING
        .iter()
        .fold(0, |acc, &at| (acc << 2) | u32::from(grid[at] & 3));
    let ataris = ORTHOGONAL
        .iter()
        .fold(0, |acc, &at| (acc << 1) | u32::from(grid[at] >> 2));
    (cells << 4) | ataris
}

fn decode(code: u32) -> [u8; 9] {
    let mut grid = [EMPTY; 9];
    for (i, &at) in RING.iter().enumerate() {
        // Two bits: the conversion is exact.
        grid[at] = ((code >> (4 + 2 * (7 - i))) & 3) as u8;
    }
    for (i, &at) in ORTHOGONAL.iter().enumerate() {
        if (code >> (3 - i)) & 1 == 1 {
            grid[at] |= IN_ATARI;
        }
    }
    grid
}

/// The smallest code among the 8 rotations and reflections of the shape coded `code`.
pub(crate) fn canonical_shape(code: u32) -> u32 {
    let grid = decode(code);
    let mut best = code;
    for transform in TRANSFORMS {
        let mut moved = [EMPTY; 9];
        for (i, cell) in moved.iter_mut().enumerate() {
            let (r, c) = transform(i / 3, i % 3);
            *cell = grid[r * 3 + c];
        }
        best = best.min(encode(&moved));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(board: &Board, s: &str) -> Point {
        board.point(s.parse().expect("test vertex"))
    }

    #[test]
    fn shapes_are_the_same_under_symmetry_and_colour_swap() {
        // Black D4 with White D5 above it, seen from Black at E5 and from White at C5
        // of the colour-swapped board: one shape under a reflection.
        let mut board = Board::new(9).expect("9x9");
        board.set(at(&board, "D4"), Some(Color::Black));
        board.set(at(&board, "D5"), Some(Color::White));
        let mut swapped = Board::new(9).expect("9x9");
        swapped.set(at(&swapped, "D4"), Some(Color::White));
        swapped.set(at(&swapped, "D5"), Some(Color::Black));
        let shape =
            |board: &Board, color, s| canonical_shape(raw_shape(board, color, at(board, s)));
        assert_eq!(
            shape(&board, Color::Black, "E5"),
            shape(&swapped, Color::White, "C5")
        );
        assert_ne!(
            shape(&board, Color::Black, "E5"),
            shape(&board, Color::White, "E5")
        );
        // Corners are alike, and unlike an edge point.
        assert_eq!(
            shape(&board, Color::Black, "A1"),
            shape(&board, Color::Black, "J9")
        );
        assert_ne!(
            shape(&board, Color::Black, "A1"),
            shape(&board, Color::Black, "A5")
        );
    }

    #[test]
    fn codes_decode_to_what_they_encode() {
        for code in [0, 1, 0b1111, 0x12345, SHAPE_CODES - 1] {
            assert_eq!(encode(&decode(code)), code);
        }
    }

    #[test]
    fn tactical_features_see_captures_ataris_and_distances() {
        // White E5 in atari (Black D5, F5, E6); Black to play E4 captures it.
        let mut board = Board::new(9).expect("9x9");
        board.set(at(&board, "E5"), Some(Color::White));
        for s in ["D5", "F5", "E6"] {
            board.set(at(&board, s), Some(Color::Black));
        }
        let e4 = at(&board, "E4");
        let features = move_features(&board, Color::Black, e4, Some(at(&board, "E6")), None);
        assert_eq!(features[Group::Capture.index()], 1);
        assert_eq!(features[Group::LastDistance.index()], 3, "dy 2: distance 4");
        assert_eq!(features[Group::BeforeLastDistance.index()], 0);
        assert_eq!(features[Group::Line.index()], 4);
        // White escaping at E4 gets two liberties.
        let features = move_features(&board, Color::White, e4, None, None);
        assert_eq!(features[Group::Escape.index()], 1);
        assert_eq!(features[Group::Capture.index()], 0);
    }

    #[test]
    fn a_capture_that_saves_a_chain_in_atari_is_its_own_feature() {
        // Black D5 E5 in atari at D4 (White C5, D6, E6, F5, E4), White E4 in atari at D4
        // too (Black E3, F4): Black's D4 captures E4 and so saves D5 E5.
        let mut board = Board::new(9).expect("9x9");
        for s in ["D5", "E5", "E3", "F4"] {
            board.set(at(&board, s), Some(Color::Black));
        }
        for s in ["C5", "D6", "E6", "F5", "E4"] {
            board.set(at(&board, s), Some(Color::White));
        }
        let d4 = at(&board, "D4");
        assert!(board.in_atari(at(&board, "D5")) && board.in_atari(at(&board, "E4")));
        let features = move_features(&board, Color::Black, d4, None, None);
        assert_eq!(features[Group::Capture.index()], 3);
        // With C5 empty, D5 E5 have a second liberty: a plain capture of one stone.
        board.set(at(&board, "C5"), None);
        let features = move_features(&board, Color::Black, d4, None, None);
        assert_eq!(
            features[Group::Capture.index()],
            1,
            "nothing of Black's in atari"
        );
    }
}
