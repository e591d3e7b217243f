//! Large local patterns ("spatial" patterns, after Stern, Herbrich and Graepel 2006 and
//! Coulom 2007): the stones around a candidate move out to a gridcular distance of 4 to 8,
//! each size hashed to one 64-bit number.
//!
//! The gridcular distance of an offset is `|dx| + |dy| + max(|dx|, |dy|)`. Distance 3 is the
//! 3×3 square, which the shape feature (`features.rs`) already covers, with its atari bits;
//! the spatial patterns start one step further (the square and the four points two lines
//! away) and end at 8 (48 points around the move). A point holds nothing, a stone of the
//! side to move, an opponent stone or the edge.
//!
//! A pattern's hash is canonical: the smallest of its 8 rotations' and reflections' Zobrist
//! hashes, with a key for its size mixed in, so one number names one pattern of one size
//! wherever and however it lies. The learned prior (`gammas.rs`) knows a gamma for the
//! patterns seen often enough in its records and uses the largest one a move matches.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::go::board::{Board, Point};
use crate::go::color::Color;
use crate::go::notation::Vertex;

/// The pattern sizes, as gridcular distances, smallest first.
pub(crate) const DISTANCES: [u32; 5] = [4, 5, 6, 7, 8];

/// A move's canonical pattern hash at each of [`DISTANCES`].
pub(crate) type SpatialHashes = [u64; DISTANCES.len()];

/// A map keyed by pattern hashes. They are Zobrist hashes, already uniform, so the map
/// uses them as they are instead of hashing them again (a lookup per size and move, on
/// every expansion of the tree).
pub(crate) type SpatialMap<V> = HashMap<u64, V, BuildHasherDefault<PassThrough>>;

/// The hasher of [`SpatialMap`]: a `u64` key is its own hash.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `write_u64` is used by the map's keys; anything else is folded in.
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

const LARGEST: i32 = 8;
/// The farthest an offset reaches along a line within [`LARGEST`].
const REACH: i32 = 4;

const fn gridcular(dx: i32, dy: i32) -> i32 {
    let (a, b) = (dx.abs(), dy.abs());
    a + b + if a > b { a } else { b }
}

/// Offsets within distance [`LARGEST`] of the centre, the centre left out.
const OFFSET_COUNT: usize = {
    let mut count = 0;
    let mut dy = -REACH;
    while dy <= REACH {
        let mut dx = -REACH;
        while dx <= REACH {
            let d = gridcular(dx, dy);
            if d > 0 && d <= LARGEST {
                count += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    count
};

/// The offsets `(dx, dy)`, nearest first (row by row within a distance), so that a pattern
/// of each size is a prefix of the list.
const OFFSETS: [(i32, i32); OFFSET_COUNT] = {
    let mut offsets = [(0, 0); OFFSET_COUNT];
    let mut n = 0;
    let mut d = 1;
    while d <= LARGEST {
        let mut dy = -REACH;
        while dy <= REACH {
            let mut dx = -REACH;
            while dx <= REACH {
                if gridcular(dx, dy) == d {
                    offsets[n] = (dx, dy);
                    n += 1;
                }
                dx += 1;
            }
            dy += 1;
        }
        d += 1;
    }
    offsets
};

/// How many of [`OFFSETS`] each size of [`DISTANCES`] covers.
const PREFIXES: [usize; DISTANCES.len()] = {
    let mut prefixes = [0; DISTANCES.len()];
    let mut k = 0;
    while k < DISTANCES.len() {
        let mut i = 0;
        while i < OFFSET_COUNT && gridcular(OFFSETS[i].0, OFFSETS[i].1) <= DISTANCES[k] as i32 {
            i += 1;
        }
        prefixes[k] = i;
        k += 1;
    }
    prefixes
};

/// The 8 rotations and reflections of an offset.
const fn transform(t: usize, (dx, dy): (i32, i32)) -> (i32, i32) {
    match t {
        0 => (dx, dy),
        1 => (dy, -dx),
        2 => (-dx, -dy),
        3 => (-dy, dx),
        4 => (-dx, dy),
        5 => (dx, -dy),
        6 => (dy, dx),
        _ => (-dy, -dx),
    }
}

/// `IMAGES[t][i]`: the index in [`OFFSETS`] of offset `i` under transform `t` (the set of
/// offsets of each distance is closed under all 8).
const IMAGES: [[usize; OFFSET_COUNT]; 8] = {
    let mut images = [[0; OFFSET_COUNT]; 8];
    let mut t = 0;
    while t < 8 {
        let mut i = 0;
        while i < OFFSET_COUNT {
            let moved = transform(t, OFFSETS[i]);
            let mut j = 0;
            while OFFSETS[j].0 != moved.0 || OFFSETS[j].1 != moved.1 {
                j += 1;
            }
            images[t][i] = j;
            i += 1;
        }
        t += 1;
    }
    images
};

/// SplitMix64's output function: fixed keys for every build, no seed needed.
const fn mix(n: u64) -> u64 {
    let mut z = n.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// What a point holds, as a key row: an empty point has no key (it adds nothing).
const OWN: usize = 0;
const OPPONENT: usize = 1;
const EDGE: usize = 2;

/// `KEYS[i][content]`: the Zobrist key of offset `i` holding `content`.
const KEYS: [[u64; 3]; OFFSET_COUNT] = {
    let mut keys = [[0; 3]; OFFSET_COUNT];
    let mut i = 0;
    while i < OFFSET_COUNT {
        let mut c = 0;
        while c < 3 {
            keys[i][c] = mix((i * 3 + c) as u64);
            c += 1;
        }
        i += 1;
    }
    keys
};

/// `TRANSFORMED[i][content][t]`: the key that offset `i` holding `content` adds to the
/// hash of transform `t`, laid out so that one point's 8 updates are one run of memory.
const TRANSFORMED: [[[u64; 8]; 3]; OFFSET_COUNT] = {
    let mut table = [[[0; 8]; 3]; OFFSET_COUNT];
    let mut i = 0;
    while i < OFFSET_COUNT {
        let mut c = 0;
        while c < 3 {
            let mut t = 0;
            while t < 8 {
                table[i][c][t] = KEYS[IMAGES[t][i]][c];
                t += 1;
            }
            c += 1;
        }
        i += 1;
    }
    table
};

/// Mixed into a size's hash, so that patterns of different sizes never share one.
const SIZE_KEYS: [u64; DISTANCES.len()] = {
    let mut keys = [0; DISTANCES.len()];
    let mut k = 0;
    while k < DISTANCES.len() {
        keys[k] = mix(0x5EED_0000 + k as u64);
        k += 1;
    }
    keys
};

/// `color` playing at `p`: the canonical hash of its surroundings at each size.
pub(crate) fn spatial_hashes(board: &Board, color: Color, p: Point) -> SpatialHashes {
    let size = board.size() as i32;
    let v = board.vertex(p);
    let (col, row) = (i32::from(v.col), i32::from(v.row));
    let mut hashes = [0u64; 8];
    let mut out = [0u64; DISTANCES.len()];
    let mut next = 0;
    for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
        let (c, r) = (col + dx, row + dy);
        let content = if c < 0 || r < 0 || c >= size || r >= size {
            Some(EDGE)
        } else {
            // In range: 0 <= c, r < size <= 25.
            match board.stone_at(Vertex::new(c as u8, r as u8)) {
                Some(stone) if stone == color => Some(OWN),
                Some(_) => Some(OPPONENT),
                None => None,
            }
        };
        if let Some(content) = content {
            for (hash, key) in hashes.iter_mut().zip(&TRANSFORMED[i][content]) {
                *hash ^= key;
            }
        }
        while next < DISTANCES.len() && PREFIXES[next] == i + 1 {
            let canonical = hashes.iter().copied().min().unwrap_or(0);
            out[next] = canonical ^ SIZE_KEYS[next];
            next += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(board: &Board, s: &str) -> Point {
        board.point(s.parse().expect("test vertex"))
    }

    #[test]
    fn the_sizes_cover_the_expected_points() {
        assert_eq!(OFFSET_COUNT, 48);
        // Distance 4: the 3×3 square's 8 and 4 two lines away; 8: 48 in all.
        assert_eq!(PREFIXES, [12, 20, 28, 36, 48]);
    }

    #[test]
    fn hashes_are_the_same_under_symmetry_and_colour_swap() {
        // Black D4, White E5: seen by Black at C5, and by White at G5 of the board
        // mirrored left to right with colours swapped (D4 → F4 White, E5 → E5 Black).
        let mut board = Board::new(9).expect("9x9");
        board.set(at(&board, "D4"), Some(Color::Black));
        board.set(at(&board, "E5"), Some(Color::White));
        let mut mirrored = Board::new(9).expect("9x9");
        mirrored.set(at(&mirrored, "F4"), Some(Color::White));
        mirrored.set(at(&mirrored, "E5"), Some(Color::Black));
        let here = spatial_hashes(&board, Color::Black, at(&board, "C5"));
        let there = spatial_hashes(&mirrored, Color::White, at(&mirrored, "G5"));
        assert_eq!(here, there);
        // The other colour to move sees another pattern.
        let other = spatial_hashes(&board, Color::White, at(&board, "C5"));
        assert!(here.iter().zip(other).all(|(a, b)| *a != b));
        // Sizes differ from each other.
        for i in 0..DISTANCES.len() {
            for j in i + 1..DISTANCES.len() {
                assert_ne!(here[i], here[j]);
            }
        }
    }

    #[test]
    fn a_stone_only_the_larger_sizes_reach_changes_only_those() {
        let mut board = Board::new(19).expect("19x19");
        let before = spatial_hashes(&board, Color::Black, at(&board, "K10"));
        // K13 is three lines up from K10: distance 6.
        board.set(at(&board, "K13"), Some(Color::White));
        let after = spatial_hashes(&board, Color::Black, at(&board, "K10"));
        assert_eq!(before[..2], after[..2], "distances 4 and 5 do not reach it");
        assert!(before[2..].iter().zip(&after[2..]).all(|(a, b)| a != b));
        // The edge counts: a move on the first line differs from one in the centre.
        let edge = spatial_hashes(&board, Color::Black, at(&board, "K1"));
        assert_ne!(edge[0], before[0]);
    }
}
