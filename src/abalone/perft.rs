//! Perft: the number of move sequences of a given length, the standard check of a move
//! generator. Positions where the game is won are leaves; the move cap does not apply.

use super::position::{MoveList, Position};

/// Leaf nodes `depth` plies below `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|mv| perft(&position.play_unchecked(mv), depth - 1))
        .sum()
}

/// Perft below each legal move, in generation order, for locating a disagreement.
pub fn divide(position: &Position, depth: u32) -> Vec<(super::moves::Move, u64)> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .map(|mv| {
            (
                mv,
                perft(&position.play_unchecked(mv), depth.saturating_sub(1)),
            )
        })
        .collect()
}
