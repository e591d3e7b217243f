//! What the tree knows of Go beyond the rules: the priors a new child starts with
//! (captures, escapes, ladders, self-atari, 3×3 shapes, nakade, lines on an open board)
//! and the moves the search leaves out on a large board ([`LargeBoardPruning`]).
//!
//! Kept apart from the tree's mechanics (`tree.rs`: selection, expansion, backup), which
//! only ask these functions for numbers.

use crate::go::board::{Board, Point};
use crate::go::color::Color;

use super::ladder::{runs_into_ladder, starts_working_ladder};
use super::params::Params;
use super::patterns;
use super::playout::{is_bad_self_atari, saves_atari};
use super::tactics::eye_space_vital_point;

/// The size below which the line-based priors (first two lines bad, third good) do not
/// apply.
const LINE_PRIOR_MIN_SIZE: usize = 9;

/// The size from which the search prunes by [`LargeBoardPruning`]. Smaller boards have
/// little open ground and short ladders, which the playouts judge well enough, and their
/// strength was measured without it.
const PRUNING_MIN_SIZE: usize = 15;

/// How far from its two edges a corner reaches, in lines.
const CORNER_LINES: usize = 6;

/// Moves the search leaves out on a large board, where the playouts misjudge them:
///
/// - Open ground (points with no stone within two lines) is entered on the third and fourth
///   lines only, and while a corner is empty, only in an empty corner. The playouts of a
///   nearly empty 19×19 board barely tell a second-line or centre stone from a corner
///   stone: 10,000-playout searches opened with F2, K10 and F6, already 10 points behind
///   by GNU Go's estimate at move 20.
/// - A chain in atari does not run into a working ladder. Random playouts do not chase a
///   ladder across the board, so the escape looked fine (a 42% win rate) while it fed the
///   opponent eleven moves of stones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LargeBoardPruning {
    /// Per corner (see [`corner_index`]): no stone lies in it.
    empty_corners: [bool; 4],
}

impl LargeBoardPruning {
    /// The pruning for `board`, or `None` when the board is too small for it.
    pub(crate) fn of(board: &Board) -> Option<LargeBoardPruning> {
        let size = board.size();
        if size < PRUNING_MIN_SIZE {
            return None;
        }
        let mut empty_corners = [true; 4];
        for p in board.points().filter(|&p| board.get(p).is_some()) {
            let v = board.vertex(p);
            if let Some(i) = corner_index(size, usize::from(v.col), usize::from(v.row)) {
                empty_corners[i] = false;
            }
        }
        Some(LargeBoardPruning { empty_corners })
    }

    /// True when the search leaves `color` playing at `p` out.
    pub(crate) fn skips(&self, board: &Board, color: Color, p: Point) -> bool {
        let (col, row, line) = line_of(board, p);
        if stones_nearby(board, col, row) {
            return saves_atari(board, color, p) && runs_into_ladder(board, color, p);
        }
        if !(3..=4).contains(&line) {
            return true;
        }
        match corner_index(board.size(), col, row) {
            Some(i) if self.empty_corners[i] => false,
            _ => self.empty_corners.contains(&true),
        }
    }
}

/// Which corner (0 to 3) `(col, row)` lies in, if any.
fn corner_index(size: usize, col: usize, row: usize) -> Option<usize> {
    let from_edge = |x: usize| x.min(size - 1 - x) + 1;
    (from_edge(col) <= CORNER_LINES && from_edge(row) <= CORNER_LINES)
        .then(|| usize::from(col > size / 2) * 2 + usize::from(row > size / 2))
}

/// The column, row and line (1 at the edge) of `p`.
fn line_of(board: &Board, p: Point) -> (usize, usize, usize) {
    let size = board.size();
    let v = board.vertex(p);
    let (col, row) = (usize::from(v.col), usize::from(v.row));
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row) + 1;
    (col, row, line)
}

/// A pass is given a poor prior unless the previous move was a pass (then it ends the
/// game and its exact value is learnt on the first visit anyway).
pub(crate) fn pass_prior(params: &Params, previous_was_pass: bool) -> (f32, f32) {
    let n = params.prior_even;
    if previous_was_pass {
        (n, n * 0.5)
    } else {
        (n, n * 0.1)
    }
}

/// Virtual (visits, wins) of the learned prior for a move whose learned strength is
/// `share` of its best sibling's (`gammas.rs`): the best move gets them all as wins.
pub(crate) fn learned_prior(params: &Params, share: f32) -> (f32, f32) {
    let visits = params.learned_prior;
    (visits, visits * share.clamp(0.0, 1.0))
}

/// Virtual (visits, wins) from the net's policy (`--net`, `NetSearch::prior_visits`
/// virtual visits): `share` is the move's probability over the most likely move's.
pub(crate) fn net_prior(visits: f32, share: f32) -> (f32, f32) {
    (visits, visits * share.clamp(0.0, 1.0))
}

/// Virtual (visits, wins) from the net's value (`NetSearch::value_visits` virtual
/// visits) for a node whose position the net judges won with probability `value` by the
/// side to move there: the node's wins are its mover's, the other side.
pub(crate) fn net_value_prior(visits: f32, value: f32) -> (f32, f32) {
    (visits, visits * (1.0 - value.clamp(0.0, 1.0)))
}

/// Virtual (visits, wins) for `color` playing at `p`: captures and escapes good,
/// self-atari bad, and on open parts of larger boards the first two lines bad and the
/// third good.
pub(crate) fn move_prior(
    params: &Params,
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
) -> (f32, f32) {
    let bonus = params.prior_bonus;
    let mut visits = params.prior_even;
    let mut wins = params.prior_even * 0.5;
    if board.would_capture(color, p) {
        visits += bonus;
        wins += bonus;
    }
    if saves_atari(board, color, p) {
        visits += bonus;
        // Running from atari into a working ladder only feeds the opponent stones.
        if !runs_into_ladder(board, color, p) {
            wins += bonus;
        }
    } else if starts_working_ladder(board, color, p) {
        visits += bonus;
        wins += bonus;
    }
    if is_bad_self_atari(board, color, p) {
        visits += bonus;
    }
    if params.nakade_prior > 0.0 && eye_space_vital_point(board, p) == Some(p) {
        // The vital point of a small eye space makes or kills a group, for either side.
        visits += params.nakade_prior;
        wins += params.nakade_prior;
    }
    if params.pattern_prior > 0.0 && patterns::matches(patterns::code(board, p)) {
        visits += params.pattern_prior;
        wins += params.pattern_prior;
    }
    if let Some(last) = last
        && board.neighbors(last).contains(&p)
    {
        // Replies next to the last move are often urgent.
        visits += bonus * 0.5;
        wins += bonus * 0.4;
    }
    if board.size() >= LINE_PRIOR_MIN_SIZE {
        let (col, row, line) = line_of(board, p);
        if line <= 3 && !stones_nearby(board, col, row) {
            visits += bonus;
            if line == 3 {
                wins += bonus;
            }
        }
    }
    (visits, wins)
}

/// True if a stone lies within two lines of (col, row) in both directions.
fn stones_nearby(board: &Board, col: usize, row: usize) -> bool {
    let size = board.size();
    let cols = col.saturating_sub(2)..=(col + 2).min(size - 1);
    cols.into_iter().any(|c| {
        (row.saturating_sub(2)..=(row + 2).min(size - 1)).any(|r| {
            // Both are below the board size (at most 25): the conversions are exact.
            board
                .stone_at(crate::go::notation::Vertex::new(c as u8, r as u8))
                .is_some()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_patterns_raise_a_move_s_prior() {
        // Black D4, White D5: E5 is a hane (a pattern), G7 far from everything is not.
        let mut board = Board::new(9).expect("9x9");
        let at = |board: &Board, s: &str| board.point(s.parse().expect("test vertex"));
        board.set(at(&board, "D4"), Some(Color::Black));
        board.set(at(&board, "D5"), Some(Color::White));
        let with = Params::default();
        assert!(with.pattern_prior > 0.0);
        let without = Params {
            pattern_prior: 0.0,
            ..with
        };
        let prior = |params: &Params, s: &str| {
            let (visits, wins) = move_prior(params, &board, Color::Black, at(&board, s), None);
            wins / visits
        };
        assert!(prior(&with, "E5") > prior(&without, "E5"));
        assert_eq!(prior(&with, "G7"), prior(&without, "G7"));
    }

    #[test]
    fn open_ground_of_large_boards_is_entered_on_the_third_and_fourth_lines() {
        let mut board = Board::new(19).expect("19x19");
        let at = |board: &Board, s: &str| board.point(s.parse().expect("test vertex"));
        let skips = |board: &Board, s: &str| {
            let pruning = LargeBoardPruning::of(board).expect("19x19 is pruned");
            pruning.skips(board, Color::Black, at(board, s))
        };
        // The empty board: the third and fourth lines of the corners only.
        for s in ["C3", "D4", "C4", "E3", "F4", "R16", "Q17"] {
            assert!(!skips(&board, s), "{s} opens a corner");
        }
        for s in ["A1", "B2", "E5", "K10", "C10", "D10", "F10", "B10", "K3"] {
            assert!(
                skips(&board, s),
                "{s} is not a corner's third or fourth line"
            );
        }
        // A stone makes its neighbourhood ordinary ground and its corner taken...
        board.set(at(&board, "D4"), Some(Color::Black));
        for s in ["B2", "E5", "F6", "B4", "F2"] {
            assert!(!skips(&board, s), "{s} is near D4");
        }
        assert!(skips(&board, "G7"));
        // ... and only once every corner is taken do the sides open.
        assert!(skips(&board, "K3"));
        assert!(!skips(&board, "Q16"));
        for s in ["D16", "Q16", "Q4"] {
            board.set(at(&board, s), Some(Color::White));
        }
        assert!(!skips(&board, "K3"));
        assert!(!skips(&board, "K16"));
        assert!(skips(&board, "K10"));
        // Smaller boards are left as they were measured.
        assert!(LargeBoardPruning::of(&Board::new(13).expect("13x13")).is_none());
    }

    #[test]
    fn a_large_board_search_does_not_run_into_a_working_ladder() {
        let mut board = Board::new(19).expect("19x19");
        let at = |board: &Board, s: &str| board.point(s.parse().expect("test vertex"));
        // White D16 in atari; extending at D15 reaches two liberties and is chased down
        // to the left edge.
        board.set(at(&board, "D16"), Some(Color::White));
        for s in ["C16", "D17", "E16", "E15"] {
            board.set(at(&board, s), Some(Color::Black));
        }
        let d15 = at(&board, "D15");
        assert!(runs_into_ladder(&board, Color::White, d15));
        let pruning = LargeBoardPruning::of(&board).expect("19x19 is pruned");
        assert!(pruning.skips(&board, Color::White, d15));
        // Black may still play there, and White may play next to it.
        assert!(!pruning.skips(&board, Color::Black, d15));
        assert!(!pruning.skips(&board, Color::White, at(&board, "C15")));
        // A White stone far from the ladder's path changes nothing; one on it (B13, where
        // the chase meets the left edge) breaks the ladder and the escape is searched.
        board.set(at(&board, "Q4"), Some(Color::White));
        assert!(pruning.skips(&board, Color::White, d15));
        board.set(at(&board, "B13"), Some(Color::White));
        assert!(!pruning.skips(&board, Color::White, d15));
    }
}
