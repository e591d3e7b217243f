//! One level's file: its name, its format, writing it whole or not at all, and reading it
//! back with every field checked before a byte of it is trusted.
//!
//! A file is a 32-byte header then one signed byte per entry:
//!
//! | bytes | field |
//! |---|---|
//! | 0–3 | `HMDB` |
//! | 4 | format version (1) |
//! | 5 | rules: 0 `turkish`, 1 `kalah` |
//! | 6 | level: the stones in the pits |
//! | 7 | zero |
//! | 8–15 | entry count, little-endian: C(level+11, 11) |
//! | 16–23 | FNV-1a 64 of the entries, little-endian |
//! | 24–31 | zero |
//!
//! The cache folder is shared with whatever else the user keeps there, so nothing in it is
//! taken on trust: a file that is not a regular file (a FIFO would block the opening
//! process forever) is never opened, no more bytes are read than the level needs, and an
//! entry outside what the level's stones allow is refused rather than handed to the search.

use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::files::{self, FileProblem};
use crate::mangala::rules::EndRule;

const MAGIC: &[u8; 4] = b"HMDB";
const FORMAT: u8 = 1;
const HEADER_BYTES: u64 = 32;

/// Why a level's file was not used.
#[derive(Debug)]
pub enum Refusal {
    /// A FIFO, a device, a socket or a directory: skipped without being opened.
    NotRegularFile(&'static str),
    /// The file could not be opened or read.
    Unreadable(io::Error),
    /// The size is not the header plus the level's entry count.
    WrongSize { found: u64, expected: u64 },
    /// No `HMDB` magic.
    NotADatabase,
    /// A format version this build does not read.
    Format(u8),
    /// The header names other rules than the file name.
    Rules(u8),
    /// The header names another level than the file name.
    Level(u8),
    /// The header's entry count is not the level's.
    EntryCount { found: u64, expected: u64 },
    /// A byte the format keeps at zero is not.
    Reserved,
    /// The entries do not match the header's checksum.
    Checksum,
    /// An entry claims more than the level's stones can give.
    ValueOutOfRange { rank: u64, value: i8, level: u32 },
    /// The machine cannot hold the level.
    OutOfMemory { bytes: u64 },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotRegularFile(kind) => {
                write!(f, "not a regular file ({kind}); skipped without opening it")
            }
            Refusal::Unreadable(error) => write!(f, "cannot be read: {error}"),
            Refusal::WrongSize { found, expected } => write!(
                f,
                "{found} bytes where the level needs exactly {expected} (header and entries): truncated or padded"
            ),
            Refusal::NotADatabase => write!(f, "not a hamle Mangala database (no HMDB magic)"),
            Refusal::Format(format) => {
                write!(f, "format version {format}; this build reads {FORMAT}")
            }
            Refusal::Rules(byte) => write!(f, "header names rules {byte}, not the file name's"),
            Refusal::Level(byte) => write!(f, "header names level {byte}, not the file name's"),
            Refusal::EntryCount { found, expected } => write!(
                f,
                "header counts {found} entries where the level has {expected}"
            ),
            Refusal::Reserved => write!(f, "header bytes that must be zero are not"),
            Refusal::Checksum => write!(f, "checksum mismatch (damaged)"),
            Refusal::ValueOutOfRange { rank, value, level } => write!(
                f,
                "entry {rank} is {value:+}, outside -{level}..=+{level} ({level} stones in the pits)"
            ),
            Refusal::OutOfMemory { bytes } => write!(f, "no memory for its {bytes} entries"),
        }
    }
}

/// `<rules>-<nn>.hmdb` in `dir`.
pub fn level_path(dir: &Path, rule: EndRule, level: u32) -> PathBuf {
    dir.join(format!("{}-{level:02}.hmdb", rule.name()))
}

fn rule_byte(rule: EndRule) -> u8 {
    match rule {
        EndRule::EmptierTakesAll => 0,
        EndRule::EachKeepsOwn => 1,
    }
}

/// Writes one level with its checksum, whole (`files::write_atomic`: to a temporary file
/// first, renamed over the level's name once it is complete and on disk), so an
/// interrupted write never leaves a file that looks whole.
pub fn write_level(dir: &Path, rule: EndRule, level: u32, values: &[i8]) -> io::Result<PathBuf> {
    fs::create_dir_all(dir)?;
    let path = level_path(dir, rule, level);
    let bytes: Vec<u8> = values.iter().map(|&v| v as u8).collect();
    let mut header = [0u8; HEADER_BYTES as usize];
    header[..4].copy_from_slice(MAGIC);
    header[4] = FORMAT;
    header[5] = rule_byte(rule);
    header[6] = level as u8;
    header[8..16].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
    header[16..24].copy_from_slice(&fnv1a(&bytes).to_le_bytes());
    // A level is large: what an interrupted build left beside it goes first (earlier
    // builds wrote `NAME.partial`).
    let mut partial = path.clone().into_os_string();
    partial.push(".partial");
    files::remove_left_temporaries(&path, &[PathBuf::from(partial)])?;
    files::write_atomic_with(&path, |out| {
        out.write_all(&header)?;
        out.write_all(&bytes)
    })?;
    Ok(path)
}

/// Reads level `level` of `rule` from `path`, which must hold exactly `len` entries:
/// `Ok(None)` when there is no such file.
pub fn read_level(
    path: &Path,
    rule: EndRule,
    level: u32,
    len: u64,
) -> Result<Option<Vec<i8>>, Refusal> {
    let expected = HEADER_BYTES + len;
    let (mut file, found) = match files::open_regular(path, expected) {
        Ok(opened) => opened,
        Err(error) => {
            return match error.problem {
                FileProblem::Io(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
                FileProblem::Io(e) => Err(Refusal::Unreadable(e)),
                FileProblem::NotRegular(kind) => Err(Refusal::NotRegularFile(kind)),
                FileProblem::TooLarge { at_least, .. } => Err(Refusal::WrongSize {
                    found: at_least,
                    expected,
                }),
                other => Err(Refusal::Unreadable(other.into())),
            };
        }
    };
    if found != expected {
        return Err(Refusal::WrongSize { found, expected });
    }
    let mut header = [0u8; HEADER_BYTES as usize];
    file.read_exact(&mut header).map_err(Refusal::Unreadable)?;
    let checksum = check_header(&header, rule, level, len)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| Refusal::OutOfMemory { bytes: len })?;
    // One byte more than the level needs tells a file that grew since it was measured.
    file.take(len + 1)
        .read_to_end(&mut bytes)
        .map_err(Refusal::Unreadable)?;
    if bytes.len() as u64 != len {
        return Err(Refusal::WrongSize {
            found: HEADER_BYTES + bytes.len() as u64,
            expected,
        });
    }
    check_entries(bytes, checksum, level).map(Some)
}

/// Level `level` of `rule` from a whole file's `bytes`, which must hold exactly `len`
/// entries: the checks of [`read_level`] without a file (the fuzz target's entry point).
pub fn decode_level(bytes: &[u8], rule: EndRule, level: u32, len: u64) -> Result<Vec<i8>, Refusal> {
    let expected = HEADER_BYTES + len;
    if bytes.len() as u64 != expected {
        return Err(Refusal::WrongSize {
            found: bytes.len() as u64,
            expected,
        });
    }
    let (header, entries) = bytes.split_at(HEADER_BYTES as usize);
    let header = header.try_into().expect("split at the header's length");
    let checksum = check_header(header, rule, level, len)?;
    check_entries(entries.to_vec(), checksum, level)
}

/// The entries against the header's checksum and the level's range.
fn check_entries(bytes: Vec<u8>, checksum: u64, level: u32) -> Result<Vec<i8>, Refusal> {
    if fnv1a(&bytes) != checksum {
        return Err(Refusal::Checksum);
    }
    let values: Vec<i8> = bytes.into_iter().map(|b| b as i8).collect();
    check_values(&values, level)?;
    Ok(values)
}

/// Every header field against what the file's name says it holds; the checksum it records.
fn check_header(
    header: &[u8; HEADER_BYTES as usize],
    rule: EndRule,
    level: u32,
    len: u64,
) -> Result<u64, Refusal> {
    let word = |at: usize| {
        let mut bytes = [0u8; 8];
        bytes.copy_from_slice(&header[at..at + 8]);
        u64::from_le_bytes(bytes)
    };
    if &header[..4] != MAGIC {
        return Err(Refusal::NotADatabase);
    }
    if header[4] != FORMAT {
        return Err(Refusal::Format(header[4]));
    }
    if header[5] != rule_byte(rule) {
        return Err(Refusal::Rules(header[5]));
    }
    if u32::from(header[6]) != level {
        return Err(Refusal::Level(header[6]));
    }
    if word(8) != len {
        return Err(Refusal::EntryCount {
            found: word(8),
            expected: len,
        });
    }
    if header[7] != 0 || word(24) != 0 {
        return Err(Refusal::Reserved);
    }
    Ok(word(16))
}

/// A value is the mover's future gain: with `level` stones left to share out it lies in
/// `-level..=level`.
fn check_values(values: &[i8], level: u32) -> Result<(), Refusal> {
    let limit = i32::try_from(level).unwrap_or(i32::MAX);
    match values.iter().position(|&v| i32::from(v).abs() > limit) {
        Some(rank) => Err(Refusal::ValueOutOfRange {
            rank: rank as u64,
            value: values[rank],
            level,
        }),
        None => Ok(()),
    }
}

/// FNV-1a, 64 bits: enough to catch a damaged or truncated file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULE: EndRule = EndRule::EmptierTakesAll;
    /// Level 2: C(13, 11) entries.
    const LEN: u64 = 78;

    /// A folder of its own for each test, removed at the end.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir =
                std::env::temp_dir().join(format!("hamle-db-file-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            Scratch(dir)
        }

        /// Level 2 written with these values, then `edit` applied to its bytes.
        fn level_two(&self, values: &[i8], edit: impl FnOnce(&mut Vec<u8>)) -> PathBuf {
            let path = write_level(&self.0, RULE, 2, values).expect("write");
            let mut bytes = fs::read(&path).expect("read");
            edit(&mut bytes);
            fs::write(&path, bytes).expect("rewrite");
            path
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    fn sound() -> Vec<i8> {
        (0..LEN).map(|i| (i % 5) as i8 - 2).collect()
    }

    fn refusal(path: &Path) -> Refusal {
        match read_level(path, RULE, 2, LEN) {
            Err(refusal) => refusal,
            Ok(values) => panic!("accepted: {values:?}"),
        }
    }

    #[test]
    fn a_written_level_reads_back_and_leaves_no_partial_file() {
        let scratch = Scratch::new("round-trip");
        let path = scratch.level_two(&sound(), |_| {});
        assert_eq!(path, level_path(&scratch.0, RULE, 2));
        assert_eq!(
            read_level(&path, RULE, 2, LEN).expect("sound"),
            Some(sound())
        );
        let names: Vec<_> = fs::read_dir(&scratch.0).expect("folder").collect();
        assert_eq!(names.len(), 1);
        let absent = level_path(&scratch.0, RULE, 3);
        assert!(matches!(read_level(&absent, RULE, 3, 364), Ok(None)));
    }

    #[test]
    fn decoding_bytes_checks_what_reading_the_file_checks() {
        let scratch = Scratch::new("decode");
        let path = scratch.level_two(&sound(), |_| {});
        let bytes = fs::read(&path).expect("read");
        assert_eq!(decode_level(&bytes, RULE, 2, LEN).expect("sound"), sound());
        assert!(matches!(
            decode_level(&bytes[1..], RULE, 2, LEN),
            Err(Refusal::WrongSize {
                found: 109,
                expected: 110
            })
        ));
        let mut forged = bytes.clone();
        forged[40] ^= 1;
        assert!(matches!(
            decode_level(&forged, RULE, 2, LEN),
            Err(Refusal::Checksum)
        ));
    }

    #[test]
    fn a_wrong_size_is_refused_before_reading() {
        let scratch = Scratch::new("size");
        let short = scratch.level_two(&sound(), |b| b.truncate(b.len() - 1));
        assert!(matches!(
            refusal(&short),
            Refusal::WrongSize {
                found: 109,
                expected: 110
            }
        ));
        let long = scratch.level_two(&sound(), |b| b.push(0));
        assert!(matches!(
            refusal(&long),
            Refusal::WrongSize { found: 111, .. }
        ));
    }

    #[test]
    fn every_header_field_is_checked() {
        let scratch = Scratch::new("header");
        type Expected = fn(&Refusal) -> bool;
        let cases: [(usize, u8, Expected); 6] = [
            (0, b'X', |r| matches!(r, Refusal::NotADatabase)),
            (4, 2, |r| matches!(r, Refusal::Format(2))),
            (5, 1, |r| matches!(r, Refusal::Rules(1))),
            (6, 3, |r| matches!(r, Refusal::Level(3))),
            (8, 77, |r| {
                matches!(r, Refusal::EntryCount { found: 77, .. })
            }),
            (30, 1, |r| matches!(r, Refusal::Reserved)),
        ];
        for (at, byte, expected) in cases {
            let path = scratch.level_two(&sound(), |b| b[at] = byte);
            let refused = refusal(&path);
            assert!(expected(&refused), "byte {at} = {byte}: {refused}");
        }
        let damaged = scratch.level_two(&sound(), |b| b[40] ^= 1);
        assert!(matches!(refusal(&damaged), Refusal::Checksum));
    }

    #[test]
    fn a_value_beyond_the_levels_stones_is_refused_even_with_a_sound_checksum() {
        let scratch = Scratch::new("range");
        let mut forged = sound();
        forged[9] = 3;
        let path = scratch.level_two(&forged, |_| {});
        let refused = refusal(&path);
        assert!(matches!(
            refused,
            Refusal::ValueOutOfRange {
                rank: 9,
                value: 3,
                level: 2
            }
        ));
        assert_eq!(
            refused.to_string(),
            "entry 9 is +3, outside -2..=+2 (2 stones in the pits)"
        );
        forged[9] = i8::MIN;
        let path = scratch.level_two(&forged, |_| {});
        assert!(matches!(
            refusal(&path),
            Refusal::ValueOutOfRange { rank: 9, .. }
        ));
    }

    #[test]
    fn a_directory_is_not_read() {
        let scratch = Scratch::new("directory");
        let path = level_path(&scratch.0, RULE, 2);
        fs::create_dir_all(&path).expect("directory");
        assert!(matches!(
            refusal(&path),
            Refusal::NotRegularFile("a directory")
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_neither_read_nor_written_over() {
        use std::os::unix::fs::FileTypeExt;
        let scratch = Scratch::new("fifo");
        fs::create_dir_all(&scratch.0).expect("folder");
        let path = level_path(&scratch.0, RULE, 2);
        let made = std::process::Command::new("mkfifo").arg(&path).status();
        assert!(made.expect("mkfifo").success());
        assert!(matches!(refusal(&path), Refusal::NotRegularFile("a FIFO")));
        let error = write_level(&scratch.0, RULE, 2, &sound()).expect_err("a FIFO");
        assert!(error.to_string().contains("a FIFO"), "{error}");
        assert!(
            fs::symlink_metadata(&path)
                .expect("still there")
                .file_type()
                .is_fifo()
        );
    }
}
