//! Endgame databases: the exact value of every position with few stones left in the pits.
//!
//! A position's value (the mover's future gain, see [`super::player`]) depends only on the
//! twelve pits seen from the mover, so level `n` holds one signed byte for each way of
//! putting `n` stones into twelve pits: C(n+11, 11) entries, ranked in lexicographic
//! order of the mover's pits 1–6 then the opponent's pits 1–6.
//!
//! Level `n` is built from the levels below it. Within a level (a move that banks no stone),
//! positions depend on each other, but never in a circle: such a move keeps every stone in
//! the mover's row and moves them rightwards, so a memoised depth-first pass terminates.
//!
//! Files live in the cache folder ([`cache_dir`]), one a level, named `<rules>-<nn>.hmdb`
//! ([`mod@file`] has the format and the checks every file passes before it is used). The
//! levels used are always 0, 1, 2, … without a gap: a level's search reaches every level
//! below it.

pub mod file;

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering};

use super::rules::{CELLS, EndRule, PITS, Pit, Position, Side};

/// The deepest level a file may claim: enough for every 4-stone set.
pub const MAX_LEVEL: u32 = 48;
const SLOTS: usize = 2 * PITS;
const UNKNOWN: i8 = i8::MIN;
/// Ranks a build thread takes at a time: big enough that the shared counter is cold.
const CHUNK: usize = 1 << 14;

/// The folder the databases are kept in: `$HAMLE_CACHE_DIR/mangala`, else
/// `$XDG_CACHE_HOME/hamle/mangala`, else `$HOME/.cache/hamle/mangala`.
pub fn cache_dir() -> PathBuf {
    let base = if let Some(dir) = std::env::var_os("HAMLE_CACHE_DIR") {
        PathBuf::from(dir)
    } else if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(dir).join("hamle")
    } else {
        let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("."), PathBuf::from);
        home.join(".cache").join("hamle")
    };
    base.join("mangala")
}

/// `compositions[k][m]`: the ways to put `m` stones into `k` pits, C(m+k-1, k-1).
struct Counts {
    compositions: [[u64; MAX_LEVEL as usize + 1]; SLOTS + 1],
}

impl Counts {
    fn new() -> Counts {
        let mut compositions = [[0u64; MAX_LEVEL as usize + 1]; SLOTS + 1];
        compositions[1].fill(1);
        for k in 2..=SLOTS {
            for m in 0..=MAX_LEVEL as usize {
                compositions[k][m] = (0..=m).map(|x| compositions[k - 1][m - x]).sum();
            }
        }
        Counts { compositions }
    }

    fn level_len(&self, level: u32) -> u64 {
        self.compositions[SLOTS][level as usize]
    }

    fn rank(&self, pits: &[u8; SLOTS]) -> u64 {
        let mut left: usize = pits.iter().map(|&p| usize::from(p)).sum();
        let mut rank = 0;
        for (i, &v) in pits[..SLOTS - 1].iter().enumerate() {
            let k = SLOTS - i;
            let v = usize::from(v);
            rank += self.compositions[k][left] - self.compositions[k][left - v];
            left -= v;
        }
        rank
    }

    fn unrank(&self, level: u32, mut rank: u64) -> [u8; SLOTS] {
        let mut pits = [0u8; SLOTS];
        let mut left = level as usize;
        for (i, pit) in pits[..SLOTS - 1].iter_mut().enumerate() {
            let k = SLOTS - i;
            let mut v = 0;
            // Compositions whose part i is v: those with k-1 pits holding the rest.
            while rank >= self.compositions[k - 1][left - v] {
                rank -= self.compositions[k - 1][left - v];
                v += 1;
            }
            *pit = v as u8;
            left -= v;
        }
        pits[SLOTS - 1] = left as u8;
        pits
    }
}

/// The mover's pits 1–6 then the opponent's pits 1–6.
fn relative_pits(position: &Position) -> [u8; SLOTS] {
    let cells = position.cells();
    let mover = position.to_move().first_cell();
    let other = position.to_move().opponent().first_cell();
    let mut pits = [0u8; SLOTS];
    pits[..PITS].copy_from_slice(&cells[mover..mover + PITS]);
    pits[PITS..].copy_from_slice(&cells[other..other + PITS]);
    pits
}

/// South to move with these pits and empty stores.
fn position_of(pits: &[u8; SLOTS]) -> Position {
    let mut cells = [0u8; CELLS];
    cells[..PITS].copy_from_slice(&pits[..PITS]);
    cells[PITS + 1..CELLS - 1].copy_from_slice(&pits[PITS..]);
    Position::from_cells(cells, Side::South)
}

/// Levels 0 to `max_stones()` of one rule's database, in memory.
pub struct EndgameDb {
    rule: EndRule,
    counts: Counts,
    levels: Vec<Vec<i8>>,
    /// Threads that build a level side by side.
    threads: usize,
}

impl EndgameDb {
    pub fn rule(&self) -> EndRule {
        self.rule
    }

    /// The most stones in the pits that the database answers for.
    pub fn max_stones(&self) -> u32 {
        self.levels.len() as u32 - 1
    }

    /// Entries of level `level`: the ways to put that many stones into twelve pits.
    pub fn level_len(&self, level: u32) -> u64 {
        self.counts.level_len(level)
    }

    pub fn entries(&self) -> u64 {
        self.levels.iter().map(|l| l.len() as u64).sum()
    }

    /// The exact future gain of the mover, when the pits hold few enough stones.
    #[inline]
    pub fn value(&self, position: &Position) -> Option<i8> {
        let stones = position.board_stones() as usize;
        let level = self.levels.get(stones)?;
        let rank = self.counts.rank(&relative_pits(position));
        level.get(rank as usize).copied()
    }

    /// Builds levels 0..=`max_stones`; `progress` hears each finished level.
    pub fn build(rule: EndRule, max_stones: u32, progress: &mut dyn FnMut(u32, u64)) -> EndgameDb {
        let mut db = EndgameDb {
            rule,
            counts: Counts::new(),
            levels: vec![vec![0]],
            threads: default_threads(),
        };
        progress(0, 1);
        for level in 1..=max_stones.min(MAX_LEVEL) {
            db.extend_one();
            progress(level, db.counts.level_len(level));
        }
        db
    }

    /// How many threads build the next levels (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Adds levels until the database reaches `max_stones` (built levels are kept).
    pub fn extend_to(&mut self, max_stones: u32, progress: &mut dyn FnMut(u32, u64)) {
        while self.max_stones() < max_stones.min(MAX_LEVEL) {
            self.extend_one();
            let level = self.max_stones();
            progress(level, self.counts.level_len(level));
        }
    }

    fn extend_one(&mut self) {
        let level = self.levels.len() as u32;
        let len = self.counts.level_len(level) as usize;
        let values: Vec<AtomicI8> = (0..len).map(|_| AtomicI8::new(UNKNOWN)).collect();
        let next_chunk = AtomicUsize::new(0);
        let threads = self.threads.clamp(1, 64);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let first = next_chunk.fetch_add(CHUNK, Ordering::Relaxed);
                        if first >= len {
                            break;
                        }
                        for rank in first..(first + CHUNK).min(len) {
                            if values[rank].load(Ordering::Relaxed) == UNKNOWN {
                                let pits = self.counts.unrank(level, rank as u64);
                                self.solve_in_level(&position_of(&pits), level, &values);
                            }
                        }
                    }
                });
            }
        });
        self.levels
            .push(values.into_iter().map(AtomicI8::into_inner).collect());
    }

    /// The value of a level-`level` position, filling `values` on the way.
    ///
    /// Threads share `values` without locks: an entry's value is a function of the
    /// position alone, so two threads that race to fill it write the same byte, and a
    /// reader that sees `UNKNOWN` merely computes it again.
    fn solve_in_level(&self, position: &Position, level: u32, values: &[AtomicI8]) -> i8 {
        let rank = self.counts.rank(&relative_pits(position)) as usize;
        let known = values[rank].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return known;
        }
        let mover = position.to_move();
        let banked = position.store_difference(mover);
        let mut best = i32::MIN;
        for pit in position.legal_moves() {
            let (next, _) = position.play_unchecked(pit, self.rule);
            let gain = next.store_difference(mover) - banked;
            let stones = next.board_stones();
            let future = if stones == 0 {
                0
            } else if stones < level {
                let rank = self.counts.rank(&relative_pits(&next)) as usize;
                i32::from(self.levels[stones as usize][rank])
            } else {
                i32::from(self.solve_in_level(&next, level, values))
            };
            let value = if next.to_move() == mover {
                gain + future
            } else {
                gain - future
            };
            best = best.max(value);
        }
        let best = best as i8;
        values[rank].store(best, Ordering::Relaxed);
        best
    }

    /// Writes every level to `dir`, each with its checksum.
    pub fn save(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        (0..self.levels.len() as u32)
            .map(|level| self.save_level(dir, level))
            .collect()
    }

    /// Writes one level to `dir` with its checksum, whole or not at all (see
    /// [`file::write_level`]).
    pub fn save_level(&self, dir: &Path, level: u32) -> io::Result<PathBuf> {
        file::write_level(dir, self.rule, level, &self.levels[level as usize])
    }

    /// Loads levels 0, 1, 2, … from `dir` up to `max_stones` while each is present and
    /// passes every check of [`file::read_level`]; `None` when level 0 is not usable. A
    /// refused file is reported on stderr with its reason, and neither it nor any level
    /// above it is used.
    pub fn load(dir: &Path, rule: EndRule, max_stones: u32) -> Option<EndgameDb> {
        let counts = Counts::new();
        let mut levels = Vec::new();
        for level in 0..=max_stones.min(MAX_LEVEL) {
            let path = file::level_path(dir, rule, level);
            match file::read_level(&path, rule, level, counts.level_len(level)) {
                Ok(Some(values)) => levels.push(values),
                Ok(None) => {
                    warn_if_stranded(dir, rule, level, max_stones);
                    break;
                }
                Err(refusal) => {
                    tracing::warn!(
                        "endgame database file {} refused: {refusal}; levels {level} and above are not used",
                        path.display()
                    );
                    break;
                }
            }
        }
        if levels.is_empty() {
            return None;
        }
        Some(EndgameDb {
            rule,
            counts,
            levels,
            threads: default_threads(),
        })
    }
}

/// Level `missing` is absent: says so when the level above it is there, since that one
/// and every level above it go unused.
fn warn_if_stranded(dir: &Path, rule: EndRule, missing: u32, max_stones: u32) {
    let next = missing + 1;
    if next > max_stones.min(MAX_LEVEL) {
        return;
    }
    let above = file::level_path(dir, rule, next);
    if std::fs::symlink_metadata(&above).is_ok() {
        tracing::warn!(
            "endgame database level {missing} is missing from {}, so {} and the levels above it are not used; `hamle mangala build-db` completes the folder",
            dir.display(),
            above.display()
        );
    }
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The pit the database prefers in `position` (the first best one), for a player that
/// trusts it alone.
pub fn best_pit(db: &EndgameDb, position: &Position) -> Option<(Pit, i32)> {
    let mover = position.to_move();
    let banked = position.store_difference(mover);
    let mut best: Option<(Pit, i32)> = None;
    for pit in position.legal_moves() {
        let (next, _) = position.play_unchecked(pit, db.rule());
        let gain = next.store_difference(mover) - banked;
        let future = if next.is_over() {
            0
        } else {
            i32::from(db.value(&next)?)
        };
        let value = if next.to_move() == mover {
            gain + future
        } else {
            gain - future
        };
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((pit, value));
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_and_dense() {
        let counts = Counts::new();
        for level in [0, 1, 3, 5] {
            let len = counts.level_len(level);
            for rank in 0..len {
                let pits = counts.unrank(level, rank);
                assert_eq!(pits.iter().map(|&p| u32::from(p)).sum::<u32>(), level);
                assert_eq!(counts.rank(&pits), rank);
            }
        }
        assert_eq!(counts.level_len(4), 1365); // C(15, 11)
    }

    #[test]
    fn every_built_value_lies_within_its_levels_stones() {
        for rule in [EndRule::EmptierTakesAll, EndRule::EachKeepsOwn] {
            let db = EndgameDb::build(rule, 7, &mut |_, _| {});
            for (level, values) in db.levels.iter().enumerate() {
                let limit = level as i32;
                assert!(
                    values.iter().all(|&v| i32::from(v).abs() <= limit),
                    "{rule} level {level}"
                );
            }
        }
    }

    #[test]
    fn checksum_catches_damage() {
        let dir = std::env::temp_dir().join(format!("hamle-db-test-{}", std::process::id()));
        let db = EndgameDb::build(EndRule::EmptierTakesAll, 4, &mut |_, _| {});
        db.save(&dir).expect("save");
        let loaded = EndgameDb::load(&dir, EndRule::EmptierTakesAll, 10).expect("load");
        assert_eq!(loaded.max_stones(), 4);
        assert_eq!(loaded.levels, db.levels);
        let path = file::level_path(&dir, EndRule::EmptierTakesAll, 3);
        let mut bytes = std::fs::read(&path).expect("read");
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        std::fs::write(&path, bytes).expect("write");
        let damaged = EndgameDb::load(&dir, EndRule::EmptierTakesAll, 10).expect("levels 0-2");
        assert_eq!(damaged.max_stones(), 2);
        assert!(EndgameDb::load(&dir, EndRule::EachKeepsOwn, 10).is_none());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
