//! The endgame databases end to end, through the binary: `hamle mangala build-db` writes
//! every level into the cache folder and resumes an interrupted build; the engine and the
//! solver load what it wrote and answer from it; a file that is not sound (a FIFO, a
//! truncated file, a forged value, a wrong header) is refused with a warning on stderr and
//! the engine still starts and plays.
//!
//! Every run gets its own cache folder through `XDG_CACHE_HOME` and builds a few levels
//! only, so the whole file runs in seconds.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::files::run_patiently;

/// An endgame with 14 stones in the pits: beyond a database of levels 0-8, but every line
/// soon reaches it.
const ENDGAME: &str = "3,0,2,1,0,2,17/2,1,0,3,1,0,16/s";
const LEVELS: u32 = 8;

struct Output {
    stdout: String,
    stderr: String,
}

/// A cache folder of its own, removed at the end of the test.
struct Cache {
    root: PathBuf,
}

impl Cache {
    fn new(name: &str) -> Cache {
        let root =
            std::env::temp_dir().join(format!("hamle-mangala-db-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).expect("temporary cache folder");
        Cache { root }
    }

    /// Where `hamle` keeps the Mangala databases under this `XDG_CACHE_HOME`.
    fn folder(&self) -> PathBuf {
        self.root.join("hamle").join("mangala")
    }

    fn level(&self, level: u32) -> PathBuf {
        self.folder().join(format!("turkish-{level:02}.hmdb"))
    }

    /// `hamle ARGS` with `input` on stdin, this cache folder and info logging; a hung process
    /// (a FIFO opened for reading waits for a writer forever) fails the test.
    fn run(&self, args: &[&str], input: &str) -> Output {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hamle"));
        command
            .args(args)
            .env_remove("HAMLE_CACHE_DIR")
            .env("XDG_CACHE_HOME", &self.root)
            .env("HAMLE_LOG", "info");
        let ran = run_patiently(&mut command, input);
        let status = ran.status;
        let output = Output {
            stdout: String::from_utf8_lossy(&ran.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&ran.stderr).into_owned(),
        };
        assert!(
            status.success(),
            "hamle {args:?}: {status}\n{}\n{}",
            output.stdout,
            output.stderr
        );
        output
    }

    fn build(&self, stones: u32) -> Output {
        self.run(
            &[
                "mangala",
                "build-db",
                "--stones",
                &stones.to_string(),
                "--threads",
                "1",
            ],
            "",
        )
    }

    /// The engine, told `commands` then `quit`.
    fn engine(&self, db_stones: u32, commands: &str) -> Output {
        let input = format!("{commands}quit\n");
        let db_stones = db_stones.to_string();
        self.run(
            &["mangala", "--db-stones", &db_stones, "--nodes", "20000"],
            &input,
        )
    }
}

/// Reads `pipe` to its end on a thread of its own.
impl Drop for Cache {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

/// The engine's `mangala-solve` answer: `exact south -2 best 6 nodes 123` → (value, nodes).
fn exact_answer(stdout: &str) -> (String, u64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("= exact"))
        .unwrap_or_else(|| panic!("no exact answer in {stdout}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let nodes = words
        .last()
        .and_then(|n| n.parse().ok())
        .expect("node count");
    (words[2..4].join(" "), nodes)
}

/// The solver's last line: `value: south (to move) final margin -2; …; N nodes in …` →
/// (value, nodes).
fn solver_value(stdout: &str) -> (String, u64) {
    let line = stdout
        .lines()
        .find(|l| l.starts_with("value: "))
        .unwrap_or_else(|| panic!("no value in {stdout}"));
    let value = line.split(';').next().expect("value").to_owned();
    let nodes = line
        .split(';')
        .nth(2)
        .and_then(|part| part.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {line}"));
    (value, nodes)
}

fn level_files(folder: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(folder)
        .expect("cache folder")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn build_db_writes_every_level_and_resumes_an_interrupted_build() {
    let cache = Cache::new("resume");
    let first = cache.build(4);
    assert!(
        first.stdout.contains("building from level 0"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("level  0:            1 entries"),
        "{}",
        first.stdout
    );
    assert!(
        first.stdout.contains("5 levels built after 0 loaded"),
        "{}",
        first.stdout
    );
    let expected: Vec<String> = (0..=4).map(|l| format!("turkish-{l:02}.hmdb")).collect();
    assert_eq!(level_files(&cache.folder()), expected);

    // A build interrupted while writing level 6: level 5 whole, level 6's partial file only.
    let second = cache.build(6);
    assert!(
        second.stdout.contains("turkish levels 0-4 found in")
            && second.stdout.contains("resuming at level 5"),
        "{}",
        second.stdout
    );
    assert!(
        second.stdout.contains("2 levels built after 5 loaded"),
        "{}",
        second.stdout
    );
    assert!(
        !second.stdout.contains("level  4:"),
        "levels on disk are not rebuilt: {}",
        second.stdout
    );
    let level_six = std::fs::read(cache.level(6)).expect("level 6");
    std::fs::remove_file(cache.level(6)).expect("remove level 6");
    std::fs::write(
        cache.folder().join("turkish-06.hmdb.partial"),
        &level_six[..100],
    )
    .expect("partial");

    let resumed = cache.build(6);
    assert!(
        resumed.stdout.contains("resuming at level 6"),
        "{}",
        resumed.stdout
    );
    assert!(
        resumed.stdout.contains("1 levels built after 6 loaded"),
        "{}",
        resumed.stdout
    );
    assert_eq!(
        std::fs::read(cache.level(6)).expect("level 6 again"),
        level_six
    );
    assert!(!cache.folder().join("turkish-06.hmdb.partial").exists());

    let done = cache.build(6);
    assert!(
        done.stdout.contains("levels 0-6 found in") && done.stdout.contains("nothing to build"),
        "{}",
        done.stdout
    );
    assert!(
        done.stdout.contains("0 levels built after 7 loaded"),
        "{}",
        done.stdout
    );
}

#[test]
fn engine_and_solver_load_what_build_db_wrote_and_answer_from_it() {
    let cache = Cache::new("use");
    cache.build(LEVELS);
    // A budget (never reached) keeps the solve from ending with the piped input.
    let solve =
        format!("gomill-describe_engine\nset_position {ENDGAME}\nmangala-solve 1000000000\n");

    let with = cache.engine(48, &solve);
    assert!(
        with.stderr.contains(&format!(
            "endgame database turkish: levels 0-{LEVELS} loaded"
        )),
        "{}",
        with.stderr
    );
    assert!(
        with.stdout
            .contains(&format!("database to {LEVELS} stones")),
        "{}",
        with.stdout
    );
    let without = cache.engine(0, &solve);
    assert!(
        without.stdout.contains("database none"),
        "{}",
        without.stdout
    );
    let (value_with, nodes_with) = exact_answer(&with.stdout);
    let (value_without, nodes_without) = exact_answer(&without.stdout);
    assert_eq!(value_with, value_without);
    assert!(
        nodes_with * 4 < nodes_without,
        "the database saves nodes: {nodes_with} with, {nodes_without} without"
    );

    let solver = |db_stones: &str| {
        cache.run(
            &[
                "mangala",
                "solve",
                "--position",
                ENDGAME,
                "--db-stones",
                db_stones,
                "--threads",
                "1",
                "--table-bits",
                "16",
            ],
            "",
        )
    };
    let with = solver("48");
    assert!(
        with.stdout
            .contains(&format!("database to {LEVELS} stones")),
        "{}",
        with.stdout
    );
    let without = solver("0");
    assert!(
        without.stdout.contains("database none"),
        "{}",
        without.stdout
    );
    let (value_with, nodes_with) = solver_value(&with.stdout);
    let (value_without, nodes_without) = solver_value(&without.stdout);
    assert_eq!(value_with, value_without);
    assert!(
        nodes_with * 4 < nodes_without,
        "the database saves nodes: {nodes_with} with, {nodes_without} without"
    );

    // `--db-stones` caps the levels loaded.
    let capped = cache.engine(5, "gomill-describe_engine\n");
    assert!(
        capped.stdout.contains("database to 5 stones"),
        "{}",
        capped.stdout
    );
}

/// Damages level 3 with `damage`, then checks the engine warns about that file with
/// `reason`, uses levels 0-2 only, and plays.
fn refused_level_is_reported_and_the_engine_plays(
    name: &str,
    reason: &str,
    damage: impl FnOnce(&Path),
) {
    let cache = Cache::new(name);
    cache.build(5);
    damage(&cache.level(3));
    let commands = format!("gomill-describe_engine\nset_position {ENDGAME}\ngenmove south\n");
    let run = cache.engine(48, &commands);
    let warning = format!(
        "endgame database file {} refused: {reason}",
        cache.level(3).display()
    );
    assert!(
        run.stderr.contains(&warning),
        "expected `{warning}` in:\n{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("levels 3 and above are not used"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.contains("database to 2 stones"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .lines()
            .any(|l| l.starts_with("= ") && l[2..].parse::<u8>().is_ok()),
        "genmove answers a pit: {}",
        run.stdout
    );
}

/// The header's checksum, recomputed over the entries as they now are (FNV-1a 64).
fn fix_checksum(bytes: &mut [u8]) {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for &byte in &bytes[32..] {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    bytes[16..24].copy_from_slice(&hash.to_le_bytes());
}

#[cfg(unix)]
#[test]
fn a_fifo_named_like_a_level_is_skipped_without_being_opened() {
    refused_level_is_reported_and_the_engine_plays("fifo", "not a regular file (a FIFO)", |path| {
        std::fs::remove_file(path).expect("remove");
        let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
        assert!(status.success());
    });
}

#[test]
fn a_directory_named_like_a_level_is_skipped() {
    refused_level_is_reported_and_the_engine_plays(
        "directory",
        "not a regular file (a directory)",
        |path| {
            std::fs::remove_file(path).expect("remove");
            std::fs::create_dir(path).expect("directory");
        },
    );
}

#[test]
fn a_truncated_level_is_refused() {
    refused_level_is_reported_and_the_engine_plays(
        "truncated",
        "386 bytes where the level needs exactly 396",
        |path| {
            let bytes = std::fs::read(path).expect("read");
            std::fs::write(path, &bytes[..bytes.len() - 10]).expect("write");
        },
    );
}

#[test]
fn a_forged_value_with_a_correct_checksum_is_refused() {
    refused_level_is_reported_and_the_engine_plays(
        "forged",
        "entry 7 is +100, outside -3..=+3",
        |path| {
            let mut bytes = std::fs::read(path).expect("read");
            bytes[32 + 7] = 100;
            fix_checksum(&mut bytes);
            std::fs::write(path, bytes).expect("write");
        },
    );
}

#[test]
fn a_level_with_a_wrong_header_is_refused() {
    refused_level_is_reported_and_the_engine_plays("header", "header names level 4", |path| {
        let mut bytes = std::fs::read(path).expect("read");
        bytes[6] = 4;
        std::fs::write(path, bytes).expect("write");
    });
}

#[test]
fn a_missing_level_zero_is_named_and_nothing_is_loaded() {
    let cache = Cache::new("no-level-zero");
    cache.build(3);
    std::fs::remove_file(cache.level(0)).expect("remove");
    let run = cache.engine(48, "gomill-describe_engine\n");
    assert!(
        run.stderr.contains("level 0 is missing from"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.contains("database none"), "{}", run.stdout);
}
