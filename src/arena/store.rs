//! A match's folder on disk: its settings, one line per finished game (the line itself is
//! `game_result`'s), the game records, the engines' stderr logs and the PGN-style export.
//!
//! ```text
//! OUT/match.txt          the settings that decide the games and the hamle build that
//!                        played them (compared on --resume)
//! OUT/results.tsv        one line per finished game, appended and fsync'd
//! OUT/games/0007.sgf     the record of game 7, written before its line
//! OUT/logs/BOT.log       each bot's stderr, appended
//! OUT/results.pgn        every decided game, PGN tags only (Ordo, BayesElo)
//! OUT/.lock              held by the run using the folder (see `folder`)
//! ```
//!
//! A run holds the folder's lock from before its first write to its end; a new match
//! takes only an empty or new folder; a resumed one checks every line of `results.tsv`
//! against the settings (the caller's check) before it plays or writes anything.
//!
//! Every file except the appended ones is written whole to a temporary name, fsync'd and
//! renamed over, and the folder fsync'd, so a crash leaves the old file or the new one.
//! A crash while appending leaves at most a torn last line: on resume it is cut off (its
//! game is played again); any other bad line is an error naming it, and nothing is changed.

use super::folder::{self, FolderError, FolderKind, FolderLock};
use super::game_result::clean;
pub use super::game_result::{GameResult, Thinking, Winner};
use crate::contract::record::{MoveCost, clock_text, elapsed_text, hundredths_text, write_tags};
use crate::contract::{GameSettings, Seat};
use crate::files::{self, FileError};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};

pub const SETTINGS_FILE: &str = "match.txt";
pub const RESULTS_FILE: &str = "results.tsv";
pub const PGN_FILE: &str = "results.pgn";
pub const GAMES_DIR: &str = "games";
pub const LOGS_DIR: &str = "logs";
/// Under [`LOGS_DIR`]: the conversations `--log-protocol` keeps.
pub const PROTOCOL_DIR: &str = "protocol";

/// `--log-protocol`: where game `index` (from 0)'s conversation with `bot`'s engine goes,
/// in the match folder `dir` (bot names are safe file names).
pub fn protocol_log_path(dir: &Path, index: usize, bot: &str) -> PathBuf {
    dir.join(LOGS_DIR)
        .join(PROTOCOL_DIR)
        .join(format!("{:04}-{bot}.log", index + 1))
}

/// A match folder is one holding its settings file.
pub const MATCH_FOLDER: FolderKind = FolderKind {
    marker: SETTINGS_FILE,
    kind: "match",
};

/// Why the match folder cannot be used.
#[derive(Debug)]
pub enum StoreError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A new match would overwrite an old one.
    Exists { dir: PathBuf },
    /// `--resume` of a folder that holds no match.
    NothingToResume { dir: PathBuf },
    /// The folder is another run's, or holds other files.
    Folder(FolderError),
    /// `--resume` with settings that would play other games.
    SettingsDiffer {
        path: PathBuf,
        differences: Vec<String>,
    },
    Corrupt {
        path: PathBuf,
        line: usize,
        message: String,
    },
}

impl From<FolderError> for StoreError {
    fn from(error: FolderError) -> StoreError {
        StoreError::Folder(error)
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            StoreError::Exists { dir } => write!(
                f,
                "{} already holds a match: pass --resume to continue it, or choose another --out",
                dir.display()
            ),
            StoreError::NothingToResume { dir } => write!(
                f,
                "{} holds no match to resume ({SETTINGS_FILE} is missing)",
                dir.display()
            ),
            StoreError::Folder(error) => error.fmt(f),
            StoreError::SettingsDiffer { path, differences } => write!(
                f,
                "{}: --resume needs the settings the match started with; differences: {}",
                path.display(),
                differences.join("; ")
            ),
            StoreError::Corrupt {
                path,
                line,
                message,
            } => write!(
                f,
                "{}:{line}: {message} (fix or delete that line to go on)",
                path.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |source| StoreError::Io {
        path: path.to_owned(),
        source,
    }
}

/// Writes `contents` to `path` so that a crash leaves either the old file or the new one
/// (`files::write_atomic`: a link, FIFO or device at `path` is refused, not replaced).
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    files::write_atomic(path, contents).map_err(StoreError::from)
}

impl From<FileError> for StoreError {
    fn from(error: FileError) -> StoreError {
        StoreError::Io {
            path: error.path,
            source: error.problem.into(),
        }
    }
}

fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(io_error(dir))
}

/// The settings key naming the hamle build that played a run (`match.txt`, `ladder.txt`).
pub const BUILD_KEY: &str = "hamle_build";

/// The largest executable [`build_id`] reads; hamle is a few MiB.
const MAX_EXECUTABLE_BYTES: u64 = 1 << 30;

/// This hamle's build: its version and a hash of the running executable's bytes
/// (`0.1.0+3f2a9c1b5e6d7a80`). The bytes, not a commit: a build from a worktree with
/// uncommitted changes plays differently from its commit, and a bot run as `hamle` is this
/// very file. The hash only tells builds apart (std's SipHash; any two binaries that differ
/// get different values, the same binary always the same one), it is no signature.
pub fn build_id() -> &'static str {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD.get_or_init(|| {
        let version = env!("CARGO_PKG_VERSION");
        match std::env::current_exe()
            .map_err(|error| error.to_string())
            .and_then(|path| hash_file(&path))
        {
            Ok(hash) => format!("{version}+{hash:016x}"),
            // Never equal to a readable build's value, so such runs are told apart too.
            Err(_) => format!("{version}+unreadable"),
        }
    })
}

/// The hash of a file's bytes, read in chunks (through the capped, regular-file-only open).
fn hash_file(path: &Path) -> Result<u64, String> {
    use std::hash::Hasher;
    use std::io::Read;
    let (file, _) = crate::files::open_regular(path, MAX_EXECUTABLE_BYTES)
        .map_err(|error| error.to_string())?;
    let mut reader = file.take(MAX_EXECUTABLE_BYTES);
    // SipHash's `write` is a byte stream: how the reads split the file does not matter.
    let mut hasher = std::hash::DefaultHasher::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) => return Ok(hasher.finish()),
            Ok(read) => hasher.write(&buffer[..read]),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error.to_string()),
        }
    }
}

/// The settings file's text: `key = value` lines, then the hamle build that writes it
/// (`hamle_build`) unless the lines name one already: a merge keeps its shards' build,
/// which played the games.
pub fn settings_text(settings: &[(String, String)]) -> String {
    let mut text = String::from("# hamle match settings; --resume must give the same\n");
    for (key, value) in settings {
        text.push_str(&format!("{key} = {}\n", clean(value)));
    }
    if !settings.iter().any(|(key, _)| key == BUILD_KEY) {
        text.push_str(&format!("{BUILD_KEY} = {}\n", build_id()));
    }
    text
}

fn read_settings(text: &str) -> BTreeMap<String, String> {
    text.lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once(" = "))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Checks that `path` (in `dir`) holds `settings`, naming each difference.
pub fn check_settings(
    dir: &Path,
    path: &Path,
    settings: &[(String, String)],
) -> Result<(), StoreError> {
    if !path.is_file() {
        return Err(StoreError::NothingToResume {
            dir: dir.to_owned(),
        });
    }
    let text = folder::read_text(path).map_err(io_error(path))?;
    let old = read_settings(&text);
    let mut new = read_settings(&settings_text(settings));
    // A folder written before hamle recorded its build resumes as it did.
    if !old.contains_key(BUILD_KEY) {
        new.remove(BUILD_KEY);
    }
    let mut differences = Vec::new();
    for key in old
        .keys()
        .chain(new.keys().filter(|k| !old.contains_key(*k)))
    {
        let (was, now) = (old.get(key), new.get(key));
        if was != now {
            let why = if key == BUILD_KEY {
                " (another hamle build started it: a resumed run would mix the games of two builds; resume it with that build, or start a new --out)"
            } else {
                ""
            };
            differences.push(format!(
                "{key} was '{}', now '{}'{why}",
                was.map_or("", String::as_str),
                now.map_or("", String::as_str)
            ));
        }
    }
    // A whole opening suite changed would name every opening: the first few say enough.
    const NAMED: usize = 6;
    if differences.len() > NAMED {
        let more = differences.len() - NAMED;
        differences.truncate(NAMED);
        differences.push(format!("and {more} more"));
    }
    if differences.is_empty() {
        Ok(())
    } else {
        Err(StoreError::SettingsDiffer {
            path: path.to_owned(),
            differences,
        })
    }
}

/// An open match folder, locked while this value lives.
pub struct ResultStore {
    dir: PathBuf,
    results: File,
    _lock: FolderLock,
}

/// What a resumed match checks each finished game against: `Err` says what is wrong.
pub type ResultCheck<'a> = &'a dyn Fn(&GameResult) -> Result<(), String>;

impl ResultStore {
    /// Starts a new match in `dir` (empty or new), or with `resume` reopens it, checking
    /// the settings and every finished game (`check`), and returns the games already
    /// finished. The folder's lock is taken before anything is written and held until the
    /// store is dropped.
    pub fn open(
        dir: &Path,
        settings: &[(String, String)],
        resume: bool,
        check: ResultCheck<'_>,
    ) -> Result<(ResultStore, Vec<GameResult>), StoreError> {
        let settings_path = dir.join(SETTINGS_FILE);
        let results_path = dir.join(RESULTS_FILE);
        // Refused before the lock, which would create the folder and its lock file.
        if let Some(in_use) = folder::in_use(dir) {
            return Err(in_use.into());
        }
        if resume && !settings_path.is_file() {
            return Err(StoreError::NothingToResume {
                dir: dir.to_owned(),
            });
        }
        if !resume {
            folder::check_new(dir, MATCH_FOLDER)?;
        }
        let lock = FolderLock::take(dir)?;
        let finished = if resume {
            check_settings(dir, &settings_path, settings)?;
            let finished = read_results(&results_path)?;
            for (index, result) in finished.iter().enumerate() {
                check(result).map_err(|message| StoreError::Corrupt {
                    path: results_path.clone(),
                    line: index + 1,
                    message,
                })?;
            }
            finished
        } else {
            if settings_path.exists() || results_path.exists() {
                return Err(StoreError::Exists {
                    dir: dir.to_owned(),
                });
            }
            // Again under the lock: another run may have written since the first look.
            folder::check_new(dir, MATCH_FOLDER)?;
            write_atomically(&settings_path, settings_text(settings).as_bytes())?;
            Vec::new()
        };
        for sub in [GAMES_DIR, LOGS_DIR] {
            let path = dir.join(sub);
            fs::create_dir_all(&path).map_err(io_error(&path))?;
        }
        let results = files::open_to_append(&results_path)?;
        results.sync_all().map_err(io_error(&results_path))?;
        sync_dir(dir)?;
        Ok((
            ResultStore {
                dir: dir.to_owned(),
                results,
                _lock: lock,
            },
            finished,
        ))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where a bot's stderr goes.
    pub fn log_path(&self, bot: &str) -> PathBuf {
        self.dir.join(LOGS_DIR).join(format!("{bot}.log"))
    }

    /// Records a finished game: its record file first, then its line, each durable
    /// before this returns.
    pub fn append(&mut self, result: &GameResult, record: &str) -> Result<(), StoreError> {
        write_atomically(
            &self.dir.join(GAMES_DIR).join(&result.record),
            record.as_bytes(),
        )?;
        let path = self.dir.join(RESULTS_FILE);
        let line = format!("{}\n", result.to_line());
        self.results
            .write_all(line.as_bytes())
            .map_err(io_error(&path))?;
        self.results.sync_data().map_err(io_error(&path))
    }

    /// Writes `results.pgn` from `results` (void games left out); `sides` as [`pgn`] takes
    /// them.
    pub fn export_pgn(
        &self,
        results: &[GameResult],
        event: &str,
        sides: &[String; 2],
    ) -> Result<PathBuf, StoreError> {
        let path = self.dir.join(PGN_FILE);
        write_atomically(&path, pgn(results, event, sides).as_bytes())?;
        Ok(path)
    }
}

/// Reads `results.tsv`, cutting off a torn last line (the caller holds the folder's lock).
/// Line k of the file is element k - 1.
pub fn read_results(path: &Path) -> Result<Vec<GameResult>, StoreError> {
    let (bytes, complete) = match read_lines_complete(path)? {
        Some(read) => read,
        None => return Ok(Vec::new()),
    };
    if complete < bytes.len() {
        // A crash in the middle of an append: that game was not finished on disk.
        let file = files::open_to_update(path)?;
        file.set_len(complete as u64).map_err(io_error(path))?;
        file.sync_all().map_err(io_error(path))?;
        eprintln!(
            "hamle match: {}: cut off a torn last line (a game interrupted while being saved; it is played again)",
            path.display()
        );
    }
    parse_results(path, &bytes[..complete])
}

/// Reads `results.tsv` without writing it: the games saved so far, a last line still
/// being appended left out. For readers beside a running match (the viewer pages, the
/// report), which must never cut the file under the writer.
pub fn read_saved_results(path: &Path) -> Result<Vec<GameResult>, StoreError> {
    match read_lines_complete(path)? {
        Some((bytes, complete)) => parse_results(path, &bytes[..complete]),
        None => Ok(Vec::new()),
    }
}

/// The file's bytes and the length of its complete lines; `None` when it is missing.
fn read_lines_complete(path: &Path) -> Result<Option<(Vec<u8>, usize)>, StoreError> {
    let bytes = match folder::read_bytes(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(io_error(path)(error)),
    };
    let complete = bytes
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |last| last + 1);
    Ok(Some((bytes, complete)))
}

/// The result lines of `complete` (whole lines of `path`), each game once.
fn parse_results(path: &Path, complete: &[u8]) -> Result<Vec<GameResult>, StoreError> {
    let text = String::from_utf8_lossy(complete);
    let mut results: Vec<GameResult> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for (index, line) in text.lines().enumerate() {
        let corrupt = |message: String| StoreError::Corrupt {
            path: path.to_owned(),
            line: index + 1,
            message,
        };
        let result = GameResult::from_line(line).map_err(corrupt)?;
        if !seen.insert(result.game) {
            return Err(corrupt(format!("game {} is recorded twice", result.game)));
        }
        results.push(result);
    }
    Ok(results)
}

/// PGN tag pairs per game, for rating tools. PGN's `White` is the bot in the first seat,
/// whatever the game calls it, so that the seat's advantage is where the tools expect
/// White's and `Result` (`1-0`: the first seat won) agrees with it; `sides` are the game's
/// own names of the seats (Go: `Black`, `White`), written as `WhiteSide` and `BlackSide`,
/// so that `GameResult`, the game's own result text (`B+10`), reads right beside them.
pub fn pgn(results: &[GameResult], event: &str, sides: &[String; 2]) -> String {
    let mut sorted: Vec<&GameResult> = results
        .iter()
        .filter(|r| r.winner != Winner::Void)
        .collect();
    sorted.sort_by_key(|r| r.game);
    let mut text = String::new();
    for result in sorted {
        let score = match result.winner {
            Winner::First => "1-0",
            Winner::Second => "0-1",
            Winner::Draw | Winner::Void => "1/2-1/2",
        };
        text.push_str(&write_tags(&[
            ("Event", event.to_owned()),
            ("Site", "hamle".to_owned()),
            ("Round", (result.game + 1).to_string()),
            ("White", result.first.clone()),
            ("Black", result.second.clone()),
            ("Result", score.to_owned()),
            ("WhiteSide", sides[0].clone()),
            ("BlackSide", sides[1].clone()),
            ("GameResult", result.result.clone()),
            ("Termination", result.reason.clone()),
        ]));
        text.push('\n');
        text.push_str(&move_comments(&result.costs));
        text.push_str(&format!("{score}\n\n"));
    }
    text
}

/// The movetext's per-move comments, as lichess and fastchess write them after each move:
/// `{[%emt 0:00:01.2]}` (the thinking time) and, under a clock, `{[%clk 0:04:58]}` (the
/// time left), one comment a move in order, ten moves a line. The moves themselves are
/// not written (they are no chess moves; the game's own record has them), so a rating
/// tool reading the tags skips these comments as it skips any. `{opening}` marks a move
/// no engine chose (`--opening-plies`).
/// Under `--record-judgement` the engine's judgement follows, from the first seat's side
/// as chess's `[%eval]` is from White's (the first mover's): `[%eval 3.50]` the score lead,
/// `[%wr 52.34]` the win rate in percent.
fn move_comments(costs: &[MoveCost]) -> String {
    let mut text = String::new();
    for (i, cost) in costs.iter().enumerate() {
        let judged = judgement_commands(cost);
        let comment = match (cost.thinking, cost.clock_left) {
            (None, _) => "{opening}".to_owned(),
            (Some(took), None) => format!("{{[%emt {}]{judged}}}", elapsed_text(took)),
            (Some(took), Some(left)) => format!(
                "{{[%clk {}] [%emt {}]{judged}}}",
                clock_text(left),
                elapsed_text(took)
            ),
        };
        text.push_str(&comment);
        text.push(if i % 10 == 9 || i + 1 == costs.len() {
            '\n'
        } else {
            ' '
        });
    }
    text
}

/// A move's judgement as PGN comment commands, each after a space: ` [%eval 3.50]` (the first
/// seat's score lead) and ` [%wr 52.34]` (its win rate, percent); empty without one.
fn judgement_commands(cost: &MoveCost) -> String {
    let Some(judgement) = cost.judgement else {
        return String::new();
    };
    let mut text = String::new();
    if let Some(lead) = judgement.lead {
        text.push_str(&format!(" [%eval {}]", hundredths_text(lead)));
    }
    if let Some(rate) = judgement.win_rate {
        text.push_str(&format!(" [%wr {}.{:02}]", rate / 100, rate % 100));
    }
    text
}

/// The game's own names of its two seats, from the move request its engines get
/// (`genmove b` → `Black`, `genmove south` → `South`), GTP's colour letters spelled out.
pub fn seat_sides(game: &dyn GameSettings) -> [String; 2] {
    let referee = game.referee(0);
    [Seat::First, Seat::Second].map(|seat| {
        let request = referee.move_request(seat);
        let word = request.split_whitespace().nth(1).unwrap_or("");
        let word = match word.to_ascii_lowercase().as_str() {
            "b" => "black".to_owned(),
            "w" => "white".to_owned(),
            other => other.to_owned(),
        };
        let mut chars = word.chars();
        match chars.next() {
            Some(first) => first.to_uppercase().chain(chars).collect(),
            None => format!("{seat:?}"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_lines_round_trip() {
        let result = GameResult {
            game: 3,
            first: "a".into(),
            second: "b".into(),
            seed: 99,
            result: "B+3.5".into(),
            winner: Winner::First,
            reason: "timeout of b:\tno answer".into(),
            moves: 80,
            record: "0003.sgf".into(),
            thinking: [None; 2],
            costs: Vec::new(),
        };
        let back = GameResult::from_line(&result.to_line()).expect("parses");
        assert_eq!(back.reason, "timeout of b:\\tno answer");
        assert_eq!(back.game, 3);
        assert_eq!(back.winner, Winner::First);
        assert!(GameResult::from_line("game=1\tfirst=a").is_err());
        let pgn = pgn(&[result], "x", &["Black".to_owned(), "White".to_owned()]);
        assert!(
            pgn.contains("[White \"a\"]\n[Black \"b\"]\n[Result \"1-0\"]\n[WhiteSide \"Black\"]\n[BlackSide \"White\"]\n[GameResult \"B+3.5\"]"),
            "{pgn}"
        );
    }

    /// A reader beside a running match sees the saved games and leaves the line still
    /// being appended alone; only the lock holder's read cuts it off.
    #[test]
    fn a_torn_last_line_is_cut_only_by_the_lock_holders_read() {
        let result = |game: usize| GameResult {
            game,
            first: "a".into(),
            second: "b".into(),
            seed: 1,
            result: "B+1".into(),
            winner: Winner::First,
            reason: "score".into(),
            moves: 10,
            record: format!("{:04}.sgf", game + 1),
            thinking: [None; 2],
            costs: Vec::new(),
        };
        let dir = std::env::temp_dir().join(format!("hamle-store-torn-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch");
        let path = dir.join(RESULTS_FILE);
        let whole = format!("{}\n", result(0).to_line());
        let torn = format!("{whole}{}", &result(1).to_line()[..12]);
        std::fs::write(&path, &torn).expect("write");
        let saved = read_saved_results(&path).expect("read");
        assert_eq!(saved.len(), 1);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), torn);
        assert_eq!(read_results(&path).expect("read").len(), 1);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), whole);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
