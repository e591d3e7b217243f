//! Seeded random Abalone positions shared by the Abalone tests.

#![allow(dead_code)]

use hamle::abalone::board::ALL_CELLS;
use hamle::abalone::{Move, MoveList, Position, StartPosition};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Pushes first half of the time, so that sumito and marbles off are common.
pub fn random_move(position: &Position, rng: &mut ChaCha8Rng) -> Option<Move> {
    let mut list = MoveList::new();
    position.legal_moves(&mut list);
    if list.is_empty() {
        return None;
    }
    let them = position.marbles(position.to_move().opponent());
    let pushes: Vec<Move> = list
        .iter()
        .filter(|mv| match *mv {
            Move::Inline { tail, direction } => position
                .inline_effect(tail, direction)
                .is_ok_and(|e| e.pushed > 0 && them != 0),
            Move::Broadside { .. } => false,
        })
        .collect();
    if !pushes.is_empty() && rng.random_bool(0.5) {
        return pushes.choose(rng).copied();
    }
    list.as_slice().choose(rng).copied()
}

/// Positions along seeded random games from every start, and random placements.
pub fn random_positions(seed: u64, games: usize, placements: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::new();
    for game in 0..games {
        let start = StartPosition::ALL[game % 3];
        let mut position = start.position();
        for _ in 0..rng.random_range(20..200) {
            if position.winner().is_some() {
                break;
            }
            positions.push(position);
            let Some(mv) = random_move(&position, &mut rng) else {
                break;
            };
            position = position.play_unchecked(mv);
        }
    }
    for _ in 0..placements {
        positions.push(random_placement(&mut rng));
    }
    positions
}

/// Marbles dropped on random cells: shapes no game reaches quickly (crowds, edges).
pub fn random_placement(rng: &mut ChaCha8Rng) -> Position {
    let mut cells = ALL_CELLS.to_vec();
    cells.shuffle(rng);
    let black = rng.random_range(1..=14);
    let white = rng.random_range(1..=14);
    let mut rows = Vec::new();
    for row in (0..9i8).rev() {
        let mut text = String::new();
        for col in 0..9i8 {
            let Some(cell) = hamle::abalone::Cell::at(row, col) else {
                continue;
            };
            let at = cells.iter().position(|c| *c == cell).unwrap_or(usize::MAX);
            text.push(if at < black {
                'b'
            } else if at < black + white {
                'w'
            } else {
                '1'
            });
        }
        rows.push(text);
    }
    let side = if rng.random_bool(0.5) { 'b' } else { 'w' };
    let text = format!(
        "{} {side} {} {}",
        rows.join("/"),
        (14 - black).min(5),
        (14 - white).min(5)
    );
    text.parse()
        .expect("a random placement is a valid position")
}
