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
//! Files live in the cache folder ([`cache_dir`]), one a level, named `<rules>-<nn>.hmdb`:
//! a 32-byte header (`HMDB`, format version, rules, level, entry count, FNV-1a 64
//! checksum of the entries) then the entries. A level whose checksum fails is not used.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI8, AtomicUsize, Ordering};

use super::rules::{CELLS, EndRule, PITS, Pit, Position, Side};

const MAGIC: &[u8; 4] = b"HMDB";
const FORMAT: u8 = 1;
const HEADER_BYTES: usize = 32;
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

    fn file(dir: &Path, rule: EndRule, level: u32) -> PathBuf {
        dir.join(format!("{}-{level:02}.hmdb", rule.name()))
    }

    /// Writes every level to `dir`, each with its checksum.
    pub fn save(&self, dir: &Path) -> io::Result<Vec<PathBuf>> {
        (0..self.levels.len() as u32)
            .map(|level| self.save_level(dir, level))
            .collect()
    }

    /// Writes one level to `dir` with its checksum (a partial file first, renamed when
    /// complete, so an interrupted write never leaves a file that looks whole).
    pub fn save_level(&self, dir: &Path, level: u32) -> io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let values = &self.levels[level as usize];
        let path = EndgameDb::file(dir, self.rule, level);
        let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
        let mut header = [0u8; HEADER_BYTES];
        header[..4].copy_from_slice(MAGIC);
        header[4] = FORMAT;
        header[5] = rule_byte(self.rule);
        header[6] = level as u8;
        header[8..16].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
        header[16..24].copy_from_slice(&fnv1a(&bytes).to_le_bytes());
        let temporary = path.with_extension("partial");
        let mut file = std::fs::File::create(&temporary)?;
        file.write_all(&header)?;
        file.write_all(&bytes)?;
        file.sync_all()?;
        std::fs::rename(&temporary, &path)?;
        Ok(path)
    }

    /// Loads levels 0, 1, 2, … from `dir` while they are present and sound, up to
    /// `max_stones`; `None` when not even level 0 is there.
    pub fn load(dir: &Path, rule: EndRule, max_stones: u32) -> Option<EndgameDb> {
        let counts = Counts::new();
        let mut levels = Vec::new();
        for level in 0..=max_stones.min(MAX_LEVEL) {
            let path = EndgameDb::file(dir, rule, level);
            if !path.exists() {
                break;
            }
            match read_level(&path, rule, level, counts.level_len(level)) {
                Ok(values) => levels.push(values),
                Err(error) => {
                    tracing::warn!("endgame database {}: {error}; not used", path.display());
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

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn rule_byte(rule: EndRule) -> u8 {
    match rule {
        EndRule::EmptierTakesAll => 0,
        EndRule::EachKeepsOwn => 1,
    }
}

fn read_level(path: &Path, rule: EndRule, level: u32, len: u64) -> io::Result<Vec<i8>> {
    let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_owned());
    let mut file = std::fs::File::open(path)?;
    let mut header = [0u8; HEADER_BYTES];
    file.read_exact(&mut header)?;
    if &header[..4] != MAGIC || header[4] != FORMAT {
        return Err(bad("not a hamle Mangala database of this format"));
    }
    if header[5] != rule_byte(rule) || u32::from(header[6]) != level {
        return Err(bad("rules or level do not match the file name"));
    }
    let mut word = [0u8; 8];
    word.copy_from_slice(&header[8..16]);
    if u64::from_le_bytes(word) != len {
        return Err(bad("wrong entry count"));
    }
    word.copy_from_slice(&header[16..24]);
    let checksum = u64::from_le_bytes(word);
    let mut bytes = Vec::with_capacity(len as usize);
    file.read_to_end(&mut bytes)?;
    if bytes.len() as u64 != len {
        return Err(bad("truncated"));
    }
    if fnv1a(&bytes) != checksum {
        return Err(bad("checksum mismatch"));
    }
    Ok(bytes.into_iter().map(|b| b as i8).collect())
}

/// FNV-1a, 64 bits: enough to catch a damaged or truncated file.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
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
    fn checksum_catches_damage() {
        let dir = std::env::temp_dir().join(format!("hamle-db-test-{}", std::process::id()));
        let db = EndgameDb::build(EndRule::EmptierTakesAll, 4, &mut |_, _| {});
        db.save(&dir).expect("save");
        let loaded = EndgameDb::load(&dir, EndRule::EmptierTakesAll, 10).expect("load");
        assert_eq!(loaded.max_stones(), 4);
        assert_eq!(loaded.levels, db.levels);
        let path = EndgameDb::file(&dir, EndRule::EmptierTakesAll, 3);
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
