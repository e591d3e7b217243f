//! The transposition table: one entry a slot, indexed by the low bits of the node's key.
//!
//! Wins and losses are kept counted from the node ([`to_table`]) and read back counted
//! from the root ([`from_table`]), so that an entry met at another ply keeps its
//! distances. An entry whose value depended on the path ([`Bound::MoveOnly`]) keeps only
//! its move.

use super::WON;
use crate::abalone::moves::Move;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
    /// The value depended on the path (a repetition draw): only the move is worth keeping.
    MoveOnly,
}

#[derive(Copy, Clone, Debug)]
pub(super) struct Entry {
    key: u64,
    pub(super) best: Option<Move>,
    value: i32,
    depth: i8,
    pub(super) bound: Bound,
}

impl Entry {
    /// The entry's value at `ply` when it settles a node searched `depth` plies deep in the
    /// window `(alpha, beta)`: an exact value, or a bound outside the window.
    pub(super) fn cutoff(self, depth: i32, alpha: i32, beta: i32, ply: usize) -> Option<i32> {
        if i32::from(self.depth) < depth {
            return None;
        }
        let value = from_table(self.value, ply);
        match self.bound {
            Bound::Exact => Some(value),
            Bound::Lower if value >= beta => Some(value),
            Bound::Upper if value <= alpha => Some(value),
            _ => None,
        }
    }
}

/// 2^bits entries (bits clamped to 10..=26), always replaced except by a shallower search
/// of the same position.
pub(super) struct Table {
    entries: Vec<Option<Entry>>,
}

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        Table {
            entries: vec![None; 1 << bits.clamp(10, 26)],
        }
    }

    /// Forgets every entry (a new game).
    pub(super) fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = None);
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.entries.len() - 1)
    }

    pub(super) fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[self.slot(key)].filter(|e| e.key == key)
    }

    /// The value kept for `key`, counted from a root at the node, unless it depended on
    /// the path.
    #[cfg(test)]
    pub(super) fn root_value(&self, key: u64) -> Option<i32> {
        self.probe(key)
            .filter(|e| e.bound != Bound::MoveOnly)
            .map(|e| from_table(e.value, 0))
    }

    /// Keeps `value`, found at `ply`, with wins and losses counted from the node.
    pub(super) fn store(
        &mut self,
        key: u64,
        best: Move,
        value: i32,
        depth: i32,
        bound: Bound,
        ply: usize,
    ) {
        let slot = self.slot(key);
        let keep_old = self.entries[slot].is_some_and(|old| {
            old.key == key && i32::from(old.depth) > depth && old.bound != Bound::MoveOnly
        });
        if !keep_old {
            self.entries[slot] = Some(Entry {
                key,
                best: Some(best),
                value: to_table(value, ply),
                depth: depth.clamp(0, 127) as i8,
                bound,
            });
        }
    }
}

/// A win or loss `ply` plies from the root, as the table keeps it: counted from the node.
fn to_table(value: i32, ply: usize) -> i32 {
    if value >= WON {
        value + ply as i32
    } else if value <= -WON {
        value - ply as i32
    } else {
        value
    }
}

/// A table value met at `ply`, with wins and losses counted from the root again.
fn from_table(value: i32, ply: usize) -> i32 {
    if value >= WON {
        value - ply as i32
    } else if value <= -WON {
        value + ply as i32
    } else {
        value
    }
}
