//! The living ladder's database, `DIR/ladder.db` (SQLite through rusqlite's bundled
//! library: nothing to install, one file, transactions that survive kill -9). Every room of
//! the server opens its own connection with [`open`]; WAL lets the web page read while the
//! pairing loop writes.
//!
//! Times are UTC text (`2026-12-08T01:30:00Z`); a game's `first` is the bot that moves
//! first in it and `score` is the first bot's (1, 0.5, 0).

use std::path::Path;
use std::time::Duration;

use rusqlite::Connection;

/// The database file inside the server's folder.
pub const DATABASE_FILE: &str = "ladder.db";

/// Bumped when a table changes; a database of another version is refused.
pub const SCHEMA_VERSION: i64 = 1;

/// Every table. `bots` holds one row a name and version in a ladder (a new version is a
/// new entry, as on CGOS); `accounts` one row a remote bot name (its password's salted
/// argon2 hash, PHC string); `games` every game begun, with its status; `moves` the moves
/// of games (running ones too, for pages opened mid-game); `ratings` each bot's rating
/// after each game of its ladder (its history); `log` what the server refused or did that
/// an organiser may want to see (logins refused, bots removed).
pub const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS ladders (
    name     TEXT PRIMARY KEY,
    game     TEXT NOT NULL,
    settings TEXT NOT NULL,
    paused   INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS bots (
    id       INTEGER PRIMARY KEY,
    ladder   TEXT NOT NULL REFERENCES ladders(name),
    name     TEXT NOT NULL,
    version  TEXT NOT NULL DEFAULT '',
    kind     TEXT NOT NULL CHECK (kind IN ('local', 'remote')),
    command  TEXT NOT NULL DEFAULT '',
    joined   TEXT NOT NULL,
    removed  INTEGER NOT NULL DEFAULT 0,
    UNIQUE (ladder, name, version)
);
CREATE TABLE IF NOT EXISTS accounts (
    name     TEXT PRIMARY KEY,
    hash     TEXT NOT NULL,
    created  TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    ladder   TEXT NOT NULL REFERENCES ladders(name),
    first    INTEGER NOT NULL REFERENCES bots(id),
    second   INTEGER NOT NULL REFERENCES bots(id),
    seed     INTEGER NOT NULL,
    status   TEXT NOT NULL CHECK (status IN ('running', 'finished', 'void')),
    score    REAL,
    reason   TEXT NOT NULL DEFAULT '',
    folder   TEXT NOT NULL DEFAULT '',
    record   TEXT NOT NULL DEFAULT '',
    started  TEXT NOT NULL,
    ended    TEXT
);
CREATE INDEX IF NOT EXISTS games_by_ladder ON games (ladder, status);
CREATE TABLE IF NOT EXISTS moves (
    game     INTEGER NOT NULL REFERENCES games(id),
    ply      INTEGER NOT NULL,
    text     TEXT NOT NULL,
    ms       INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game, ply)
);
CREATE TABLE IF NOT EXISTS ratings (
    ladder   TEXT NOT NULL REFERENCES ladders(name),
    bot      INTEGER NOT NULL REFERENCES bots(id),
    after_game INTEGER NOT NULL REFERENCES games(id),
    elo      REAL NOT NULL,
    low      REAL NOT NULL,
    high     REAL NOT NULL,
    games    INTEGER NOT NULL,
    PRIMARY KEY (ladder, bot, after_game)
);
-- The ladder's latest ratings (the pairing loop's and the standings' question) read
-- without scanning every rating the ladder ever had (a row a bot after every game).
CREATE INDEX IF NOT EXISTS ratings_by_game ON ratings (ladder, after_game);
CREATE TABLE IF NOT EXISTS log (
    id       INTEGER PRIMARY KEY,
    at       TEXT NOT NULL,
    what     TEXT NOT NULL
);
";

/// How long a connection waits for another's write lock before it gives up.
const BUSY_WAIT: Duration = Duration::from_secs(10);

/// Opens (creating if new) the database at `path`, its tables made, WAL on, foreign keys
/// checked. A database written by another schema version is refused.
pub fn open(path: &Path) -> rusqlite::Result<Connection> {
    let connection = Connection::open(path)?;
    connection.busy_timeout(BUSY_WAIT)?;
    connection.pragma_update(None, "journal_mode", "WAL")?;
    connection.pragma_update(None, "foreign_keys", "ON")?;
    // Each commit reaches the disk before the server goes on: a finished game survives
    // kill -9 and a power cut alike.
    connection.pragma_update(None, "synchronous", "FULL")?;
    let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version != 0 && version != SCHEMA_VERSION {
        return Err(rusqlite::Error::InvalidParameterName(format!(
            "{}: written by database schema {version}; this hamle reads schema {SCHEMA_VERSION}",
            path.display()
        )));
    }
    connection.execute_batch(SCHEMA)?;
    connection.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    Ok(connection)
}

/// Now, as the database keeps times.
pub fn now_text() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|since| since.as_secs())
        .unwrap_or(0);
    utc_text(seconds)
}

/// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ` (civil from days, Howard Hinnant's
/// algorithm: no time crate for one conversion).
pub fn utc_text(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let rest = seconds % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_database_gets_every_table_and_opens_again() {
        let dir = std::env::temp_dir().join(format!("hamle-schema-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(DATABASE_FILE);
        let first = open(&path).expect("new database");
        first
            .execute(
                "INSERT INTO ladders (name, game, settings) VALUES ('go9', 'go', '')",
                [],
            )
            .expect("insert");
        drop(first);
        let again = open(&path).expect("reopened");
        let count: i64 = again
            .query_row("SELECT count(*) FROM ladders", [], |row| row.get(0))
            .expect("count");
        assert_eq!(count, 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_database_of_another_schema_is_refused() {
        let dir = std::env::temp_dir().join(format!("hamle-schema-old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(DATABASE_FILE);
        let old = Connection::open(&path).expect("plain open");
        old.pragma_update(None, "user_version", 99)
            .expect("version");
        drop(old);
        let refused = open(&path).err().map(|error| error.to_string());
        assert!(
            refused.as_deref().is_some_and(|m| m.contains("schema 99")),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn times_are_utc_text() {
        assert_eq!(utc_text(0), "1970-01-01T00:00:00Z");
        assert_eq!(utc_text(1_796_693_400), "2026-12-08T01:30:00Z");
    }
}
