//! A pairing's watcher ([`GameObserver`]): each game of the pairing's match becomes a
//! `games` row when it begins, each move a `moves` row, each saved game its result, its
//! record and the ladder's new ratings, in one transaction; each step is also sent as a
//! [`LiveEvent`].

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::{Connection, params};

use super::events::{LiveEvent, LiveEvents};
use super::schema::{self, now_text};
use crate::arena::match_play::GameObserver;
use crate::arena::rating::{Tally, rate_played};
use crate::arena::store::{GAMES_DIR, GameResult, Winner};
use crate::seed::derive_seed;

/// Who plays a pairing, and where.
pub struct PairingSeats {
    pub ladder: String,
    pub anchor: Option<String>,
    /// `bots.id` of the match's first and second bot.
    pub ids: [i64; 2],
    /// Their names as events show them.
    pub names: [String; 2],
    /// The pairing's match folder, relative to DIR.
    pub folder: String,
    pub match_seed: u64,
}

/// Watches one pairing.
pub struct PairingWatch {
    seats: PairingSeats,
    db: Mutex<Connection>,
    /// Moves of running games only: a power cut that loses some costs nothing (the game
    /// is voided at the next start), so this connection does not wait for the disk.
    moves_db: Mutex<Connection>,
    /// Match game index to `games.id`.
    games: Mutex<BTreeMap<usize, i64>>,
    events: LiveEvents,
    /// The server is stopping on a signal: results from here are not the games' own.
    stopping: Arc<AtomicBool>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl PairingWatch {
    pub fn new(
        dir: &Path,
        seats: PairingSeats,
        events: LiveEvents,
        stopping: Arc<AtomicBool>,
    ) -> rusqlite::Result<PairingWatch> {
        let path = dir.join(schema::DATABASE_FILE);
        let moves_db = schema::open(&path)?;
        moves_db.pragma_update(None, "synchronous", "NORMAL")?;
        Ok(PairingWatch {
            seats,
            db: Mutex::new(schema::open(&path)?),
            moves_db: Mutex::new(moves_db),
            games: Mutex::new(BTreeMap::new()),
            events,
            stopping,
        })
    }

    /// The `games.id` of every game this pairing began.
    pub fn game_ids(&self) -> Vec<i64> {
        lock(&self.games).values().copied().collect()
    }

    fn begin(&self, index: usize, seat_bots: [usize; 2]) -> rusqlite::Result<i64> {
        if let Some(&id) = lock(&self.games).get(&index) {
            // A `--recover` replay: its moves start over.
            lock(&self.moves_db).execute("DELETE FROM moves WHERE game = ?1", [id])?;
            return Ok(id);
        }
        let seats = &self.seats;
        let seed = derive_seed(seats.match_seed, index as u64);
        let db = lock(&self.db);
        db.execute(
            "INSERT INTO games (ladder, first, second, seed, status, folder, started)
             VALUES (?1, ?2, ?3, ?4, 'running', ?5, ?6)",
            params![
                seats.ladder,
                seats.ids[seat_bots[0]],
                seats.ids[seat_bots[1]],
                // SQLite integers are signed: the seed's bits, as i64.
                seed as i64,
                seats.folder,
                now_text()
            ],
        )?;
        let id = db.last_insert_rowid();
        lock(&self.games).insert(index, id);
        self.events.send(LiveEvent::GameStarted {
            game: id,
            ladder: seats.ladder.clone(),
            first: seats.names[seat_bots[0]].clone(),
            second: seats.names[seat_bots[1]].clone(),
        });
        Ok(id)
    }

    fn record_move(&self, index: usize, ply: usize, text: &str, ms: u64) -> rusqlite::Result<()> {
        let Some(&id) = lock(&self.games).get(&index) else {
            return Ok(());
        };
        lock(&self.moves_db).execute(
            "INSERT OR REPLACE INTO moves (game, ply, text, ms) VALUES (?1, ?2, ?3, ?4)",
            params![id, ply as i64, text, ms as i64],
        )?;
        self.events.send(LiveEvent::Move {
            game: id,
            ply: u32::try_from(ply).unwrap_or(u32::MAX),
            text: text.to_owned(),
            ms,
        });
        Ok(())
    }

    /// The game's result and the ladder's ratings after it, in one transaction; false
    /// when the row was no longer running (voided by a stop).
    fn finish(&self, result: &GameResult) -> rusqlite::Result<bool> {
        let Some(&id) = lock(&self.games).get(&result.game) else {
            return Ok(false);
        };
        let score = match result.winner {
            Winner::First => Some(1.0),
            Winner::Second => Some(0.0),
            Winner::Draw => Some(0.5),
            Winner::Void => None,
        };
        let record = format!("{}/{GAMES_DIR}/{}", self.seats.folder, result.record);
        let mut db = lock(&self.db);
        let transaction = db.transaction()?;
        let changed = transaction.execute(
            "UPDATE games SET status = ?2, score = ?3, reason = ?4, record = ?5, ended = ?6
             WHERE id = ?1 AND status = 'running'",
            params![
                id,
                if score.is_some() { "finished" } else { "void" },
                score,
                result.reason,
                record,
                now_text()
            ],
        )?;
        if changed == 1 && score.is_some() {
            rate_ladder(
                &transaction,
                &self.seats.ladder,
                self.seats.anchor.as_deref(),
                id,
            )?;
        }
        transaction.commit()?;
        drop(db);
        if changed == 1 {
            self.announce(id, result, score);
        }
        Ok(changed == 1)
    }

    fn announce(&self, id: i64, result: &GameResult, score: Option<f64>) {
        let ladder = &self.seats.ladder;
        println!(
            "{ladder}: game {id}: {} (first) vs {} (second): {} by {}, {} moves",
            result.first, result.second, result.result, result.reason, result.moves
        );
        self.events.send(LiveEvent::GameEnded {
            game: id,
            ladder: ladder.clone(),
            score,
            reason: result.reason.clone(),
        });
        if score.is_some() {
            self.events.send(LiveEvent::Ratings {
                ladder: ladder.clone(),
            });
        }
    }

    fn failed(&self, what: &str, error: &rusqlite::Error) {
        eprintln!(
            "hamle ladder serve: {}: cannot write {what} to the database: {error}",
            self.seats.ladder
        );
    }
}

impl GameObserver for PairingWatch {
    fn game_started(&self, index: usize, seat_bots: [usize; 2]) {
        // A game begun after a stop's voiding would be left running at the exit.
        if self.stopping.load(Ordering::SeqCst) {
            return;
        }
        if let Err(error) = self.begin(index, seat_bots) {
            self.failed("a game's start", &error);
        }
    }

    fn moved(&self, index: usize, ply: usize, text: &str, thinking_ms: Option<u64>) {
        if let Err(error) = self.record_move(index, ply, text, thinking_ms.unwrap_or(0)) {
            self.failed("a move", &error);
        }
    }

    fn game_saved(&self, result: &GameResult) {
        // Engines killed by a stop lose no game: the stop voids what was running.
        if self.stopping.load(Ordering::SeqCst) {
            return;
        }
        if let Err(error) = self.finish(result) {
            self.failed("a game's result", &error);
        }
    }
}

/// Rates every finished game of `ladder` (maximum likelihood, `anchor` held at 0 once it
/// has a rated game, else the mean at 0) and writes each rated bot's rating after game
/// `after_game`. Ladders whose bots form groups that never met have no ratings yet.
pub fn rate_ladder(
    db: &Connection,
    ladder: &str,
    anchor: Option<&str>,
    after_game: i64,
) -> rusqlite::Result<()> {
    let mut statement = db.prepare(
        "SELECT first, second, score FROM games WHERE ladder = ?1 AND status = 'finished'",
    )?;
    let games: Vec<(i64, i64, f64)> = statement
        .query_map([ladder], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))?
        .collect::<rusqlite::Result<_>>()?;
    let mut ids: Vec<i64> = games.iter().flat_map(|&(a, b, _)| [a, b]).collect();
    ids.sort_unstable();
    ids.dedup();
    let names: Vec<String> = ids.iter().map(i64::to_string).collect();
    let mut tally = Tally::new(&names);
    for (first, second, score) in &games {
        tally.add(&first.to_string(), &second.to_string(), *score);
    }
    let anchor_id: Option<String> = match anchor {
        Some(name) => db
            .query_row(
                "SELECT id FROM bots WHERE ladder = ?1 AND name = ?2 ORDER BY id LIMIT 1",
                params![ladder, name],
                |row| row.get::<_, i64>(0),
            )
            .ok()
            .map(|id| id.to_string()),
        None => None,
    };
    let rated = rate_played(&tally, anchor_id.as_deref()).or_else(|_| rate_played(&tally, None));
    let Ok(ratings) = rated else {
        return Ok(());
    };
    for rating in &ratings.ratings {
        let Ok(bot) = rating.name.parse::<i64>() else {
            continue;
        };
        db.execute(
            "INSERT OR REPLACE INTO ratings (ladder, bot, after_game, elo, low, high, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                ladder,
                bot,
                after_game,
                rating.elo,
                rating.elo - rating.error,
                rating.elo + rating.error,
                rating.games as i64
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(game: usize, winner: Winner) -> GameResult {
        GameResult {
            game,
            first: "a".into(),
            second: "b".into(),
            seed: 0,
            result: "B+1".into(),
            winner,
            reason: "score".into(),
            moves: 2,
            record: format!("{:04}.txt", game + 1),
            thinking: [None, None],
            costs: Vec::new(),
        }
    }

    #[test]
    fn a_watched_game_becomes_rows_and_events_and_rates_the_ladder() {
        let dir = std::env::temp_dir().join(format!("hamle-live-watch-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let db = schema::open(&dir.join(schema::DATABASE_FILE)).expect("database");
        db.execute_batch(
            "INSERT INTO ladders (name, game, settings) VALUES ('k', 'kulami', '');
             INSERT INTO bots (id, ladder, name, kind, joined) VALUES (7, 'k', 'a', 'local', ''), (9, 'k', 'b', 'local', '');",
        )
        .expect("rows");
        let events = LiveEvents::new();
        let mut feed = events.subscribe();
        let seats = PairingSeats {
            ladder: "k".into(),
            anchor: Some("a".into()),
            ids: [7, 9],
            names: ["a".into(), "b".into()],
            folder: "games/k/000001-a-vs-b".into(),
            match_seed: 5,
        };
        let stopping = Arc::new(AtomicBool::new(false));
        let watch = PairingWatch::new(&dir, seats, events, stopping).expect("watch");
        // Game 1 of the pair seats the second bot first.
        watch.game_started(1, [1, 0]);
        watch.moved(1, 1, "a1", Some(3));
        watch.game_saved(&result(1, Winner::First));
        let (first, status, score, record): (i64, String, f64, String) = db
            .query_row(
                "SELECT first, status, score, record FROM games",
                [],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .expect("game row");
        assert_eq!((first, status.as_str(), score), (9, "finished", 1.0));
        assert_eq!(record, "games/k/000001-a-vs-b/games/0002.txt");
        let anchored: f64 = db
            .query_row("SELECT elo FROM ratings WHERE bot = 7", [], |row| {
                row.get(0)
            })
            .expect("rating");
        assert_eq!(anchored, 0.0);
        let mut kinds = Vec::new();
        while let Ok(event) = feed.try_recv() {
            kinds.push(
                event
                    .to_json()
                    .split('"')
                    .nth(3)
                    .unwrap_or_default()
                    .to_owned(),
            );
        }
        assert_eq!(kinds, ["game_started", "move", "game_ended", "ratings"]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
