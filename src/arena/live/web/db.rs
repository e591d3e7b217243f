//! The page's reads of `DIR/ladder.db`: a few connections opened through
//! [`schema::open`], kept for reuse, each used by one blocking job at a time, so that a
//! slow query waits on a blocking thread and never on the server's runtime.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::Serialize;
use tokio::sync::Semaphore;

use crate::arena::live::schema;

/// At most this many queries run at once (each on its own connection).
const CONNECTIONS: usize = 4;

/// The most moves a page lists: far above any game the arena plays.
pub const MOVES_SHOWN: i64 = 20_000;

/// The database's connections, opened on first need.
pub struct Pool {
    path: PathBuf,
    idle: Mutex<Vec<Connection>>,
    slots: Arc<Semaphore>,
}

impl Pool {
    /// Opens the first connection now, so that a server folder whose database cannot be
    /// opened is refused at start rather than on every page.
    pub async fn open(dir: &Path) -> std::io::Result<Arc<Pool>> {
        let pool = Arc::new(Pool {
            path: dir.join(schema::DATABASE_FILE),
            idle: Mutex::new(Vec::new()),
            slots: Arc::new(Semaphore::new(CONNECTIONS)),
        });
        let first = pool.clone();
        let connection = tokio::task::spawn_blocking(move || first.connect())
            .await
            .map_err(std::io::Error::other)?
            .map_err(std::io::Error::other)?;
        pool.give_back(connection);
        Ok(pool)
    }

    fn connect(&self) -> Result<Connection, String> {
        let connection =
            schema::open(&self.path).map_err(|e| format!("{}: {e}", self.path.display()))?;
        // The page only reads: a bug here can never change the ladder.
        connection
            .pragma_update(None, "query_only", "ON")
            .map_err(|e| e.to_string())?;
        Ok(connection)
    }

    fn give_back(&self, connection: Connection) {
        if let Ok(mut idle) = self.idle.lock() {
            idle.push(connection);
        }
    }

    /// Runs `job` on a blocking thread with a connection of its own.
    pub async fn read<T: Send + 'static>(
        self: &Arc<Pool>,
        job: impl FnOnce(&Connection) -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        let permit = self
            .slots
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| e.to_string())?;
        let pool = self.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let taken = pool.idle.lock().ok().and_then(|mut idle| idle.pop());
            let connection = match taken {
                Some(connection) => connection,
                None => pool.connect()?,
            };
            let answer = job(&connection);
            pool.give_back(connection);
            answer
        })
        .await
        .map_err(|e| e.to_string())?
    }
}

/// A ladder of the index.
pub struct LadderRow {
    pub name: String,
    pub game: String,
    pub settings: String,
    pub paused: bool,
    pub bots: i64,
    pub finished: i64,
    pub running: i64,
}

/// A bot's line in its ladder's standings: its latest rating (none before its first
/// rated game) and its finished games' points.
pub struct Standing {
    pub bot: BotName,
    pub removed: bool,
    pub rating: Option<RatingPoint>,
    pub played: i64,
    pub points: f64,
}

/// A bot as games name it.
#[derive(Clone)]
pub struct BotName {
    pub id: i64,
    pub name: String,
    pub version: String,
}

/// One `ratings` row: the bot's rating after a game of its ladder.
#[derive(Clone)]
pub struct RatingPoint {
    pub after_game: i64,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    pub games: i64,
}

/// A game with its bots' names.
pub struct GameRow {
    pub id: i64,
    pub ladder: String,
    pub first: BotName,
    pub second: BotName,
    pub seed: i64,
    pub status: String,
    pub score: Option<f64>,
    pub reason: String,
    pub record: String,
    pub started: String,
    pub ended: Option<String>,
}

/// One move as `moves` keeps it, and as the page's script receives it.
#[derive(Serialize)]
pub struct MoveRow {
    pub ply: i64,
    pub text: String,
    pub ms: i64,
}

/// A bot's own row.
pub struct BotRow {
    pub bot: BotName,
    pub ladder: String,
    pub kind: String,
    pub joined: String,
    pub removed: bool,
}

fn text(error: rusqlite::Error) -> String {
    format!("reading the ladder database: {error}")
}

pub fn ladders(db: &Connection) -> Result<Vec<LadderRow>, String> {
    let mut query = db
        .prepare(
            "SELECT l.name, l.game, l.settings, l.paused,
                (SELECT count(*) FROM bots b WHERE b.ladder = l.name AND b.removed = 0),
                (SELECT count(*) FROM games g WHERE g.ladder = l.name AND g.status = 'finished'),
                (SELECT count(*) FROM games g WHERE g.ladder = l.name AND g.status = 'running')
             FROM ladders l ORDER BY l.name",
        )
        .map_err(text)?;
    let rows = query
        .query_map([], |row| {
            Ok(LadderRow {
                name: row.get(0)?,
                game: row.get(1)?,
                settings: row.get(2)?,
                paused: row.get::<_, i64>(3)? != 0,
                bots: row.get(4)?,
                finished: row.get(5)?,
                running: row.get(6)?,
            })
        })
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}

pub fn ladder(db: &Connection, name: &str) -> Result<Option<LadderRow>, String> {
    Ok(ladders(db)?.into_iter().find(|ladder| ladder.name == name))
}

/// Every bot of `ladder`, best rated first, the unrated after them.
pub fn standings(db: &Connection, ladder: &str) -> Result<Vec<Standing>, String> {
    let latest = latest_ratings(db, ladder)?;
    let points = points_by_bot(db, ladder)?;
    let mut query = db
        .prepare("SELECT id, name, version, removed FROM bots WHERE ladder = ?1")
        .map_err(text)?;
    let rows = query
        .query_map([ladder], |row| {
            Ok((bot_name(row, 0)?, row.get::<_, i64>(3)? != 0))
        })
        .map_err(text)?;
    let mut standings = Vec::new();
    for row in rows {
        let (bot, removed) = row.map_err(text)?;
        let (played, score) = points.get(&bot.id).copied().unwrap_or((0, 0.0));
        standings.push(Standing {
            rating: latest.get(&bot.id).cloned(),
            bot,
            removed,
            played,
            points: score,
        });
    }
    standings.sort_by(|a, b| {
        let elo = |s: &Standing| s.rating.as_ref().map_or(f64::NEG_INFINITY, |r| r.elo);
        elo(b)
            .total_cmp(&elo(a))
            .then_with(|| a.bot.name.cmp(&b.bot.name))
    });
    Ok(standings)
}

fn latest_ratings(db: &Connection, ladder: &str) -> Result<HashMap<i64, RatingPoint>, String> {
    let mut query = db
        .prepare(
            "SELECT bot, after_game, elo, low, high, games FROM ratings r
             WHERE ladder = ?1 AND after_game =
                (SELECT max(after_game) FROM ratings s WHERE s.ladder = ?1 AND s.bot = r.bot)",
        )
        .map_err(text)?;
    let rows = query
        .query_map([ladder], |row| Ok((row.get(0)?, rating_point(row, 1)?)))
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}

/// Each bot's finished games with a score and its points in them.
fn points_by_bot(db: &Connection, ladder: &str) -> Result<HashMap<i64, (i64, f64)>, String> {
    let mut query = db
        .prepare(
            "SELECT bot, count(*), total(points) FROM (
                SELECT first AS bot, score AS points FROM games
                    WHERE ladder = ?1 AND status = 'finished' AND score IS NOT NULL
                UNION ALL
                SELECT second, 1 - score FROM games
                    WHERE ladder = ?1 AND status = 'finished' AND score IS NOT NULL)
             GROUP BY bot",
        )
        .map_err(text)?;
    let rows = query
        .query_map([ladder], |row| {
            Ok((row.get(0)?, (row.get(1)?, row.get(2)?)))
        })
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}

fn bot_name(row: &Row, at: usize) -> rusqlite::Result<BotName> {
    Ok(BotName {
        id: row.get(at)?,
        name: row.get(at + 1)?,
        version: row.get(at + 2)?,
    })
}

fn rating_point(row: &Row, at: usize) -> rusqlite::Result<RatingPoint> {
    Ok(RatingPoint {
        after_game: row.get(at)?,
        elo: row.get(at + 1)?,
        low: row.get(at + 2)?,
        high: row.get(at + 3)?,
        games: row.get(at + 4)?,
    })
}

const GAME_COLUMNS: &str = "SELECT g.id, g.ladder, g.first, f.name, f.version, g.second, s.name,
    s.version, g.seed, g.status, g.score, g.reason, g.record, g.started, g.ended
    FROM games g JOIN bots f ON f.id = g.first JOIN bots s ON s.id = g.second";

fn game_row(row: &Row) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        id: row.get(0)?,
        ladder: row.get(1)?,
        first: bot_name(row, 2)?,
        second: bot_name(row, 5)?,
        seed: row.get(8)?,
        status: row.get(9)?,
        score: row.get(10)?,
        reason: row.get(11)?,
        record: row.get(12)?,
        started: row.get(13)?,
        ended: row.get(14)?,
    })
}

/// The latest `limit` games of `ladder` in `status`, newest first.
pub fn games(
    db: &Connection,
    ladder: &str,
    status: &str,
    limit: i64,
) -> Result<Vec<GameRow>, String> {
    let sql =
        format!("{GAME_COLUMNS} WHERE g.ladder = ?1 AND g.status = ?2 ORDER BY g.id DESC LIMIT ?3");
    let mut query = db.prepare(&sql).map_err(text)?;
    let rows = query
        .query_map(params![ladder, status, limit], game_row)
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}

pub fn game(db: &Connection, id: i64) -> Result<Option<GameRow>, String> {
    let sql = format!("{GAME_COLUMNS} WHERE g.id = ?1");
    db.query_row(&sql, [id], game_row).optional().map_err(text)
}

/// The latest `limit` games `bot` played (or plays), newest first.
pub fn games_of_bot(db: &Connection, bot: &BotRow, limit: i64) -> Result<Vec<GameRow>, String> {
    let sql = format!(
        "{GAME_COLUMNS} WHERE g.ladder = ?1 AND (g.first = ?2 OR g.second = ?2)
         ORDER BY g.id DESC LIMIT ?3"
    );
    let mut query = db.prepare(&sql).map_err(text)?;
    let rows = query
        .query_map(params![bot.ladder, bot.bot.id, limit], game_row)
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}

pub fn moves(db: &Connection, game: i64) -> Result<Vec<MoveRow>, String> {
    let mut query = db
        .prepare("SELECT ply, text, ms FROM moves WHERE game = ?1 ORDER BY ply LIMIT ?2")
        .map_err(text)?;
    let rows = query
        .query_map(params![game, MOVES_SHOWN], |row| {
            Ok(MoveRow {
                ply: row.get(0)?,
                text: row.get(1)?,
                ms: row.get(2)?,
            })
        })
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}

pub fn bot(db: &Connection, id: i64) -> Result<Option<BotRow>, String> {
    db.query_row(
        "SELECT id, name, version, ladder, kind, joined, removed FROM bots WHERE id = ?1",
        [id],
        |row| {
            Ok(BotRow {
                bot: bot_name(row, 0)?,
                ladder: row.get(3)?,
                kind: row.get(4)?,
                joined: row.get(5)?,
                removed: row.get::<_, i64>(6)? != 0,
            })
        },
    )
    .optional()
    .map_err(text)
}

/// The bot's ratings after each game, oldest first.
pub fn rating_history(db: &Connection, bot: &BotRow) -> Result<Vec<RatingPoint>, String> {
    let mut query = db
        .prepare(
            "SELECT after_game, elo, low, high, games FROM ratings
             WHERE ladder = ?1 AND bot = ?2 ORDER BY after_game",
        )
        .map_err(text)?;
    let rows = query
        .query_map(params![bot.ladder, bot.bot.id], |row| rating_point(row, 0))
        .map_err(text)?;
    rows.collect::<Result<_, _>>().map_err(text)
}
