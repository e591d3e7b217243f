//! The transposition table: exact keys (the pits and the mover, no hash), bounds on the
//! mover's future gain, and entries packed into two words that threads share without
//! locks.

use std::sync::atomic::{AtomicU64, Ordering};

use super::PROVED;
use crate::mangala::rules::Position;

/// One table slot: 12 pits of 6 bits and the mover, packed exactly.
#[derive(Copy, Clone, Debug, Default)]
pub(super) struct Entry {
    key_low: u64,
    key_high: u16,
    pub(super) lower: i8,
    pub(super) upper: i8,
    pub(super) depth: u8,
    pub(super) best: u8,
    used: bool,
    /// log2 of the nodes the search below this entry took: what losing it would cost.
    work: u8,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct Key {
    pub(super) low: u64,
    high: u16,
}

/// The exact key of a position: its twelve pits and the side to move (the stores are not
/// part of a value, see [`super`]).
pub(super) fn key_of(position: &Position) -> Key {
    let cells = position.cells();
    let mut low = 0u64;
    for (i, &cell) in [0, 1, 2, 3, 4, 5, 7, 8, 9, 10].iter().enumerate() {
        low |= u64::from(cells[cell]) << (6 * i);
    }
    low |= (position.to_move().index() as u64) << 60;
    let high = u16::from(cells[11]) | (u16::from(cells[12]) << 6);
    Key { low, high }
}

/// Entries a bucket holds: four of 16 bytes fill one cache line.
const WAYS: usize = 4;

/// An entry as stored: the key's low word XOR the data word, then the data word. A
/// reader recomputes the low word from both, so a slot torn by two threads writing at
/// once fails the key check and reads as empty instead of as a wrong bound.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    fn pack(&self) -> u64 {
        u64::from(self.key_high)
            | u64::from(self.lower as u8) << 12
            | u64::from(self.upper as u8) << 20
            | u64::from(self.depth) << 28
            | u64::from(self.best) << 36
            | u64::from(self.work) << 40
            | u64::from(self.used) << 48
    }

    fn unpack(key_low: u64, data: u64) -> Entry {
        Entry {
            key_low,
            key_high: (data & 0xfff) as u16,
            lower: (data >> 12) as u8 as i8,
            upper: (data >> 20) as u8 as i8,
            depth: (data >> 28) as u8,
            best: (data >> 36) as u8 & 0xf,
            work: (data >> 40) as u8,
            used: data >> 48 & 1 == 1,
        }
    }
}

/// A four-way set-associative table that threads share without locks. A full bucket
/// gives up the entry whose search was cheapest to redo, so the proofs that cost the
/// most stay longest: what a solver needs, since its entries are all good at any depth.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(2, 34);
        Table {
            slots: (0..len).map(|_| Slot::default()).collect(),
            mask: len / WAYS - 1,
        }
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    fn bucket(&self, key: Key) -> usize {
        let mixed = (key.low ^ (u64::from(key.high) << 47).rotate_left(13))
            .wrapping_mul(crate::seed::GOLDEN_GAMMA);
        ((mixed >> 20) as usize & self.mask) * WAYS
    }

    fn read(&self, at: usize) -> Entry {
        let data = self.slots[at].data.load(Ordering::Relaxed);
        let check = self.slots[at].check.load(Ordering::Relaxed);
        Entry::unpack(check ^ data, data)
    }

    fn write(&self, at: usize, entry: &Entry) {
        let data = entry.pack();
        self.slots[at]
            .check
            .store(entry.key_low ^ data, Ordering::Relaxed);
        self.slots[at].data.store(data, Ordering::Relaxed);
    }

    pub(super) fn probe(&self, key: Key) -> Option<Entry> {
        let at = self.bucket(key);
        (at..at + WAYS)
            .map(|i| self.read(i))
            .find(|e| e.used && e.key_low == key.low && e.key_high == key.high)
    }

    pub(super) fn store(&self, key: Key, bounds: (i32, i32), depth: u8, best: u8, work: u8) {
        let entry = Entry {
            key_low: key.low,
            key_high: key.high,
            lower: bounds.0 as i8,
            upper: bounds.1 as i8,
            depth,
            best,
            used: true,
            work,
        };
        let at = self.bucket(key);
        let bucket: [Entry; WAYS] = std::array::from_fn(|i| self.read(at + i));
        let same = |e: &Entry| e.used && e.key_low == key.low && e.key_high == key.high;
        if let Some(i) = bucket.iter().position(same) {
            let old = bucket[i];
            if old.depth == PROVED && depth == PROVED {
                // Two proofs about one position: keep both bounds.
                let merged = Entry {
                    lower: entry.lower.max(old.lower),
                    upper: entry.upper.min(old.upper),
                    work: entry.work.max(old.work),
                    ..entry
                };
                self.write(at + i, &merged);
            } else if depth >= old.depth {
                self.write(at + i, &entry);
            }
            return;
        }
        // An unproved estimate is worth less than any proof, whatever it cost.
        let worth = |e: &Entry| (e.used, e.depth == PROVED, e.work, e.depth);
        if let Some(victim) = (0..WAYS).min_by_key(|&i| worth(&bucket[i])) {
            self.write(at + victim, &entry);
        }
    }
}
