//! Zobrist hashing of a board's stones: the key table, fixed at compile time, and the
//! hashes the superko checks compare (the incremental one is kept by `play`).

use super::{Board, MAX_POINTS, Point};
use crate::go::color::Color;

/// Zobrist keys, generated at compile time so that hashes are identical across runs
/// and processes (tests and logs can quote them).
const fn zobrist_table() -> [[u64; MAX_POINTS]; 2] {
    let mut table = [[0u64; MAX_POINTS]; 2];
    let mut state = 0x6861_6D6C_6520_676F; // "hamle go"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_POINTS {
            let (next, value) = crate::seed::splitmix64(state);
            state = next;
            table[c][i] = value;
            i += 1;
        }
        c += 1;
    }
    table
}

pub(super) static ZOBRIST: [[u64; MAX_POINTS]; 2] = zobrist_table();

/// Mixed into a position hash to tell who is to move (situational superko).
pub const fn side_to_move_key(color: Color) -> u64 {
    match color {
        Color::Black => 0,
        Color::White => 0x2F5A_C6B1_D3E4_9877,
    }
}

impl Board {
    /// Zobrist hash of the stones (not of the side to move nor the ko ban).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash recomputed from the stones alone, to check the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        self.points()
            .filter_map(|p| self.get(p).map(|c| ZOBRIST[c.index()][p.index()]))
            .fold(0, |h, z| h ^ z)
    }

    /// The stone hash after `color` plays at empty `p`, without playing.
    pub fn hash_after(&self, color: Color, p: Point) -> u64 {
        let (own, enemy, empty) = self.chains_around(color, p);
        let mut h = self.hash ^ ZOBRIST[color.index()][p.index()];
        let mut captured = false;
        for &e in enemy.as_slice() {
            if self.libs[e.index()] == 1 {
                captured = true;
                h ^= self.chain_hash(e);
            }
        }
        if !captured && empty == 0 && own.as_slice().iter().all(|o| self.libs[o.index()] == 1) {
            // Suicide: the new stone and every chain it joined leave the board.
            h ^= ZOBRIST[color.index()][p.index()];
            for &o in own.as_slice() {
                h ^= self.chain_hash(o);
            }
        }
        h
    }

    fn chain_hash(&self, head: Point) -> u64 {
        let Some(color) = self.get(head) else {
            return 0;
        };
        self.chain_stones(head)
            .fold(0, |h, s| h ^ ZOBRIST[color.index()][s.index()])
    }
}
