//! `hamle ladder serve DIR`: the living ladder's server. It reads `DIR/server.toml`
//! ([`super::config`]), writes its ladders and local bots into `DIR/ladder.db`, voids the
//! games a previous run left running (a kill cut them; their pairings are played again,
//! as the fewest-games rule brings them back), then pairs idle bots continuously: each
//! pairing a two-game `run_match` (colours swapped) into `DIR/games/LADDER/NNNNNN-A-vs-B/`
//! on a thread of its own, watched by [`PairingWatch`]. Every half second it rereads the
//! database, so `hamle ladder admin` (bots added or removed, ladders paused) takes effect
//! while it runs. SIGINT or SIGTERM voids the running games and ends it; so does nothing
//! else but `--stop-after-games`.

use std::collections::{BTreeMap, BTreeSet};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Duration;

use clap::Args;
use rusqlite::{Connection, params};

use super::config::{LadderConfig, ServerConfig};
use super::events::{LiveEvent, LiveEvents};
use super::pairing::{Candidate, History, choose};
use super::schema::{self, now_text};
use super::watch::{PairingSeats, PairingWatch};
use super::{NoRemotes, RemoteRoster};
use crate::arena::bots::Bot;
use crate::arena::match_play::{Observer, run_match};
use crate::seed::derive_seed;

/// `hamle ladder serve DIR [--remote ADDR] [--http ADDR] [--concurrency N]`
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The server's folder: server.toml (the ladders), ladder.db, games/.
    pub dir: PathBuf,
    /// Where remote bots (`hamle connect`) connect, e.g. 0.0.0.0:6866; none without it.
    #[arg(long, value_name = "ADDR")]
    pub remote: Option<SocketAddr>,
    /// Where the live page listens (e.g. 127.0.0.1:8080).
    #[arg(long, value_name = "ADDR")]
    pub http: Option<SocketAddr>,
    /// Pairings with a local engine played at once (each runs its two engines).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Start no pairing once this run's pairings hold N games; exit 0 when they are over.
    #[arg(long, value_name = "N")]
    pub stop_after_games: Option<u64>,
}

/// How often the loop rereads the database when no pairing ends.
const POLL: Duration = Duration::from_millis(500);

/// Runs `hamle ladder serve`: exit 0 after `--stop-after-games`, 130/143 on a signal, 2
/// when the folder, its configuration or its database cannot be used.
pub fn run_serve_command(args: ServeArgs) -> ExitCode {
    match serve(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("hamle ladder serve: {message}");
            ExitCode::from(2)
        }
    }
}

fn serve(args: &ServeArgs) -> Result<(), String> {
    if args.concurrency == 0 {
        return Err("--concurrency must be at least 1".to_owned());
    }
    let config = ServerConfig::load(&args.dir)?;
    let _lock = crate::arena::folder::FolderLock::take(&args.dir).map_err(|e| e.to_string())?;
    let db = open(&args.dir)?;
    let voided = start_up(&db, &config).map_err(|e| database(&args.dir, &e))?;
    if voided > 0 {
        println!("{voided} game(s) cut by the last stop voided; their pairings are played again");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the async runtime: {error}"))?;
    let events = LiveEvents::new();
    let roster = remote_roster(&runtime, args, &events)?;
    live_page(&runtime, args, &events)?;
    let stopping = Arc::new(AtomicBool::new(false));
    void_on_signal(&args.dir, &stopping);
    let mut server = Server::new(config, db, events, roster, stopping);
    server.run(args)
}

/// The roster of remote bots: with `--remote ADDR`, the hub listening there for authors'
/// clients (and for relays on `DIR/run/relay.sock`), its tasks on the server's runtime.
fn remote_roster(
    runtime: &tokio::runtime::Runtime,
    args: &ServeArgs,
    events: &LiveEvents,
) -> Result<Arc<dyn RemoteRoster>, String> {
    let Some(listen) = args.remote else {
        return Ok(Arc::new(NoRemotes));
    };
    let hamle = crate::arena::options::hamle_exe();
    let hub = runtime
        .block_on(super::remote::start(
            &args.dir,
            listen,
            events.clone(),
            &hamle,
        ))
        .map_err(|error| format!("--remote {listen}: {error}"))?;
    Ok(hub)
}

/// The live page, behind `--http ADDR`, served by the server's runtime for as long as it
/// runs.
fn live_page(
    runtime: &tokio::runtime::Runtime,
    args: &ServeArgs,
    events: &LiveEvents,
) -> Result<(), String> {
    let Some(address) = args.http else {
        return Ok(());
    };
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(address))
        .map_err(|error| format!("--http {address}: {error}"))?;
    let dir = args.dir.clone();
    let events = events.clone();
    runtime.spawn(async move {
        if let Err(error) = super::web::serve(listener, dir, events).await {
            tracing::error!("the live page stopped: {error}");
        }
    });
    Ok(())
}

fn open(dir: &Path) -> Result<Connection, String> {
    schema::open(&dir.join(schema::DATABASE_FILE)).map_err(|e| database(dir, &e))
}

fn database(dir: &Path, error: &rusqlite::Error) -> String {
    format!("{}: {error}", dir.join(schema::DATABASE_FILE).display())
}

/// Voids every game still running (a previous run was killed, or this one is stopping);
/// returns how many.
pub fn void_running(db: &Connection, why: &str) -> rusqlite::Result<usize> {
    let voided = db.execute(
        "UPDATE games SET status = 'void', reason = ?1, ended = ?2 WHERE status = 'running'",
        params![why, now_text()],
    )?;
    if voided > 0 {
        log(db, &format!("{voided} running game(s) voided: {why}"))?;
    }
    Ok(voided)
}

pub fn log(db: &Connection, what: &str) -> rusqlite::Result<()> {
    db.execute(
        "INSERT INTO log (at, what) VALUES (?1, ?2)",
        params![now_text(), what],
    )
    .map(drop)
}

/// server.toml into the database: each ladder (its game and settings as now written; a
/// pause stays), each of its bots not known yet; then the games a kill cut are voided.
fn start_up(db: &Connection, config: &ServerConfig) -> rusqlite::Result<usize> {
    for ladder in &config.ladders {
        db.execute(
            "INSERT INTO ladders (name, game, settings) VALUES (?1, ?2, ?3)
             ON CONFLICT (name) DO UPDATE SET game = ?2, settings = ?3",
            params![ladder.name, ladder.game.to_string(), ladder.settings],
        )?;
        for spec in &ladder.bots {
            // Checked when the configuration was read.
            let Ok(bot) = ladder.bot(spec) else { continue };
            db.execute(
                "INSERT OR IGNORE INTO bots (ladder, name, kind, command, joined)
                 VALUES (?1, ?2, 'local', ?3, ?4)",
                params![ladder.name, bot.name, spec, now_text()],
            )?;
        }
    }
    void_running(db, "cut by a server stop; the pairing is played again")
}

/// On SIGINT or SIGTERM: no result counts from then on, and the running games are voided
/// before the engines are killed.
fn void_on_signal(dir: &Path, stopping: &Arc<AtomicBool>) {
    crate::arena::interrupt::guard();
    let dir = dir.to_path_buf();
    let stopping = Arc::clone(stopping);
    crate::arena::interrupt::on_stop(move || {
        stopping.store(true, Ordering::SeqCst);
        let voided = open(&dir).and_then(|db| {
            void_running(&db, "cut by a server stop; the pairing is played again")
                .map_err(|e| database(&dir, &e))
        });
        match voided {
            Ok(count) => eprintln!(
                "hamle ladder serve: stopping: {count} running game(s) voided; their pairings are played again at the next start"
            ),
            Err(message) => eprintln!("hamle ladder serve: stopping: {message}"),
        }
    });
}

/// A bot of a ladder, free to be paired.
#[derive(Clone)]
struct Entry {
    id: i64,
    name: String,
    bot: Bot,
    /// Reserved from the roster, released after the pairing.
    remote: bool,
}

/// A pairing being played.
struct Running {
    ids: [i64; 2],
    remote: Vec<i64>,
    local: bool,
}

/// What a pairing's thread sends back when its match is over.
struct Done {
    number: u64,
    message: Option<String>,
    /// Bots whose engine cannot be started: left out from now on (else they would be
    /// paired again at once, and fail again).
    broken: Vec<i64>,
}

struct Server {
    config: ServerConfig,
    db: Connection,
    events: LiveEvents,
    roster: Arc<dyn RemoteRoster>,
    stopping: Arc<AtomicBool>,
    running: BTreeMap<u64, Running>,
    done: (Sender<Done>, Receiver<Done>),
    /// Games in the pairings this run started.
    planned_games: u64,
    next_pairing: u64,
    /// Each ladder's local bots (id to name) as last seen, for join and leave events.
    seen: BTreeMap<String, BTreeMap<i64, String>>,
    /// Local bots that cannot be started (said once).
    broken: BTreeSet<i64>,
    /// The ladder whose turn it is to be paired first.
    turn: usize,
}

impl Server {
    fn new(
        config: ServerConfig,
        db: Connection,
        events: LiveEvents,
        roster: Arc<dyn RemoteRoster>,
        stopping: Arc<AtomicBool>,
    ) -> Server {
        let next_pairing =
            last_pairing_number(&config.dir.join(crate::arena::store::GAMES_DIR)) + 1;
        Server {
            config,
            db,
            events,
            roster,
            stopping,
            running: BTreeMap::new(),
            done: channel(),
            planned_games: 0,
            next_pairing,
            seen: BTreeMap::new(),
            broken: BTreeSet::new(),
            turn: 0,
        }
    }

    /// Pairs, waits, repeats; returns once `--stop-after-games` is reached and every
    /// pairing is over.
    fn run(&mut self, args: &ServeArgs) -> Result<(), String> {
        loop {
            let limit_reached = args
                .stop_after_games
                .is_some_and(|limit| self.planned_games >= limit);
            if limit_reached && self.running.is_empty() {
                return Ok(());
            }
            if !limit_reached {
                self.pair_all(args)
                    .map_err(|e| database(&self.config.dir, &e))?;
            }
            if let Ok(done) = self.done.1.recv_timeout(POLL) {
                self.finished(done);
                while let Ok(done) = self.done.1.try_recv() {
                    self.finished(done);
                }
            }
        }
    }

    fn finished(&mut self, done: Done) {
        if let Some(message) = done.message {
            eprintln!("hamle ladder serve: {message}");
            let _ = log(&self.db, &message);
        }
        self.broken.extend(done.broken);
        if let Some(running) = self.running.remove(&done.number) {
            for id in running.remote {
                self.roster.release(id);
            }
        }
    }

    /// Starts every pairing the idle bots allow, ladder after ladder (each round begun by
    /// the next ladder, so none starves the others of the concurrency).
    fn pair_all(&mut self, args: &ServeArgs) -> rusqlite::Result<()> {
        let count = self.config.ladders.len();
        for k in 0..count {
            let ladder = self.config.ladders[(self.turn + k) % count].clone();
            self.pair_ladder(&ladder, args)?;
        }
        self.turn = (self.turn + 1) % count.max(1);
        Ok(())
    }

    fn pair_ladder(&mut self, ladder: &LadderConfig, args: &ServeArgs) -> rusqlite::Result<()> {
        let local = self.local_bots(ladder)?;
        let paused: bool = self.db.query_row(
            "SELECT paused FROM ladders WHERE name = ?1",
            [&ladder.name],
            |row| row.get(0),
        )?;
        if paused {
            return Ok(());
        }
        let busy: BTreeSet<i64> = self.running.values().flat_map(|r| r.ids).collect();
        let mut idle: Vec<Entry> = local
            .into_iter()
            .filter(|e| !busy.contains(&e.id))
            .collect();
        idle.extend(self.remote_bots(ladder, &busy)?);
        let history = history(&self.db, &ladder.name)?;
        let ratings = latest_ratings(&self.db, &ladder.name)?;
        loop {
            let locals = self.running.values().filter(|r| r.local).count();
            let limit = args.stop_after_games.unwrap_or(u64::MAX);
            if self.planned_games >= limit {
                return Ok(());
            }
            let candidates: Vec<Candidate> = idle
                .iter()
                .filter(|e| e.remote || locals < args.concurrency)
                .map(|e| Candidate {
                    id: e.id,
                    elo: ratings.get(&e.id).copied(),
                })
                .collect();
            let Some((first, second)) = choose(&candidates, &history) else {
                return Ok(());
            };
            let take = |id: i64, idle: &mut Vec<Entry>| {
                idle.iter()
                    .position(|e| e.id == id)
                    .map(|at| idle.remove(at))
            };
            let (Some(a), Some(b)) = (take(first, &mut idle), take(second, &mut idle)) else {
                return Ok(());
            };
            let first_reserved = self.reserve(&a);
            if first_reserved && self.reserve(&b) {
                self.start(ladder, [a, b]);
                continue;
            }
            // A remote bot left or was taken: the other one stays idle.
            if first_reserved && a.remote {
                self.roster.release(a.id);
            }
            idle.extend([a, b].into_iter().filter(|e| !e.remote));
        }
    }

    fn reserve(&self, entry: &Entry) -> bool {
        !entry.remote || self.roster.reserve(entry.id)
    }

    /// The ladder's local bots not removed, each started once to check it (a bot that
    /// cannot start is said once and left out); joins and leaves are announced.
    fn local_bots(&mut self, ladder: &LadderConfig) -> rusqlite::Result<Vec<Entry>> {
        let mut statement = self.db.prepare(
            "SELECT id, name, command FROM bots WHERE ladder = ?1 AND kind = 'local' AND removed = 0 ORDER BY id",
        )?;
        let rows: Vec<(i64, String, String)> = statement
            .query_map([&ladder.name], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?))
            })?
            .collect::<rusqlite::Result<_>>()?;
        drop(statement);
        let mut entries = Vec::new();
        for (id, name, spec) in rows {
            if self.broken.contains(&id) {
                continue;
            }
            match ladder.bot(&spec) {
                Ok(mut bot) => {
                    name.clone_into(&mut bot.name);
                    entries.push(Entry {
                        id,
                        name,
                        bot,
                        remote: false,
                    });
                }
                Err(message) => {
                    self.broken.insert(id);
                    let message = format!("bot {name} left out: {message}");
                    eprintln!("hamle ladder serve: {message}");
                    log(&self.db, &message)?;
                }
            }
        }
        self.announce_changes(&ladder.name, &entries);
        Ok(entries)
    }

    fn announce_changes(&mut self, ladder: &str, entries: &[Entry]) {
        let now: BTreeMap<i64, String> = entries.iter().map(|e| (e.id, e.name.clone())).collect();
        let before = self
            .seen
            .insert(ladder.to_owned(), now.clone())
            .unwrap_or_default();
        for (id, name) in &now {
            if !before.contains_key(id) {
                self.events.send(LiveEvent::BotJoined {
                    ladder: ladder.to_owned(),
                    bot: name.clone(),
                });
            }
        }
        for (id, name) in &before {
            if !now.contains_key(id) {
                self.events.send(LiveEvent::BotLeft {
                    ladder: ladder.to_owned(),
                    bot: name.clone(),
                });
            }
        }
    }

    /// The roster's idle remote bots of the ladder, but those an admin removed.
    fn remote_bots(
        &self,
        ladder: &LadderConfig,
        busy: &BTreeSet<i64>,
    ) -> rusqlite::Result<Vec<Entry>> {
        let mut entries = Vec::new();
        for remote in self.roster.idle(&ladder.name) {
            let removed: bool = self
                .db
                .query_row(
                    "SELECT removed FROM bots WHERE id = ?1",
                    [remote.bot_id],
                    |row| row.get(0),
                )
                .unwrap_or(true);
            if removed || busy.contains(&remote.bot_id) {
                continue;
            }
            let name = if remote.version.is_empty() {
                remote.name.clone()
            } else {
                format!("{} {}", remote.name, remote.version)
            };
            entries.push(Entry {
                id: remote.bot_id,
                name,
                bot: remote.bot,
                remote: true,
            });
        }
        Ok(entries)
    }

    /// Plays the pairing `a` (first in its first game) against `b` on a thread of its own.
    fn start(&mut self, ladder: &LadderConfig, [a, b]: [Entry; 2]) {
        let number = self.next_pairing;
        self.next_pairing += 1;
        self.planned_games += 2;
        let folder = format!(
            "{}/{}/{number:06}-{}-vs-{}",
            crate::arena::store::GAMES_DIR,
            ladder.name,
            a.bot.name,
            b.bot.name
        );
        let seats = PairingSeats {
            ladder: ladder.name.clone(),
            anchor: ladder.anchor.clone(),
            ids: [a.id, b.id],
            names: [a.name.clone(), b.name.clone()],
            folder: folder.clone(),
            match_seed: derive_seed(ladder.options.seed, number),
        };
        self.running.insert(
            number,
            Running {
                ids: [a.id, b.id],
                remote: [&a, &b].iter().filter(|e| e.remote).map(|e| e.id).collect(),
                local: !(a.remote && b.remote),
            },
        );
        let job = Job {
            dir: self.config.dir.clone(),
            ladder: ladder.clone(),
            bots: [a.bot, b.bot],
            folder,
            seats,
            events: self.events.clone(),
            stopping: Arc::clone(&self.stopping),
        };
        let sender = self.done.0.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("hamle-pairing-{number}"))
            .spawn(move || {
                let broken = job.unstartable();
                let message = if broken.is_empty() {
                    job.play().err()
                } else {
                    Some(format!(
                        "bot(s) left out, their engine cannot start: {broken:?}"
                    ))
                };
                let _ = sender.send(Done {
                    number,
                    message,
                    broken: broken.into_iter().map(|(id, _)| id).collect(),
                });
            });
        if let Err(error) = spawned {
            self.finished(Done {
                number,
                message: Some(format!("cannot start a pairing's thread: {error}")),
                broken: Vec::new(),
            });
        }
    }
}

/// One pairing's match, for its thread.
struct Job {
    dir: PathBuf,
    ladder: LadderConfig,
    bots: [Bot; 2],
    folder: String,
    seats: PairingSeats,
    events: LiveEvents,
    stopping: Arc<AtomicBool>,
}

impl Job {
    /// The bots whose engine cannot be started (a program gone since it was added), with
    /// the reason.
    fn unstartable(&self) -> Vec<(i64, String)> {
        let hamle = crate::arena::options::hamle_exe();
        self.bots
            .iter()
            .zip(self.seats.ids)
            .filter_map(|(bot, id)| bot.launch(&hamle, None).err().map(|e| (id, e.to_string())))
            .collect()
    }

    /// Plays the match; games it began and did not finish (a failure to save, an engine
    /// that cannot start) are voided.
    fn play(self) -> Result<(), String> {
        let label = format!(
            "{}: {} vs {}",
            self.ladder.name, self.bots[0].name, self.bots[1].name
        );
        let mut settings = self
            .ladder
            .match_settings(self.bots, self.dir.join(&self.folder))?;
        settings.seed = self.seats.match_seed;
        let watch = Arc::new(
            PairingWatch::new(&self.dir, self.seats, self.events, self.stopping)
                .map_err(|e| database(&self.dir, &e))?,
        );
        settings.observer = Some(Observer(watch.clone()));
        let played = run_match(&settings, false);
        let unfinished = watch.game_ids();
        if let Err(error) = &played {
            let why = format!("the pairing broke off: {error}");
            let voided = open(&self.dir).and_then(|db| {
                for id in unfinished {
                    db.execute(
                        "UPDATE games SET status = 'void', reason = ?2, ended = ?3 WHERE id = ?1 AND status = 'running'",
                        params![id, why, now_text()],
                    )
                    .map_err(|e| database(&self.dir, &e))?;
                }
                Ok(())
            });
            voided?;
        }
        played
            .map(drop)
            .map_err(|error| format!("{label}: {error}"))
    }
}

/// The ladder's finished games, as pairing counts meetings and first seats (a voided game
/// is no meeting: its pairing is played again).
fn history(db: &Connection, ladder: &str) -> rusqlite::Result<History> {
    let mut statement =
        db.prepare("SELECT first, second FROM games WHERE ladder = ?1 AND status = 'finished'")?;
    let mut history = History::default();
    let rows = statement.query_map([ladder], |row| Ok((row.get(0)?, row.get(1)?)))?;
    for row in rows {
        let (first, second) = row?;
        history.add(first, second);
    }
    Ok(history)
}

/// Each bot's rating after the ladder's last rated game.
fn latest_ratings(db: &Connection, ladder: &str) -> rusqlite::Result<BTreeMap<i64, f64>> {
    let mut statement = db.prepare(
        "SELECT bot, elo FROM ratings WHERE ladder = ?1
         AND after_game = (SELECT max(after_game) FROM ratings WHERE ladder = ?1)",
    )?;
    let rows = statement.query_map([ladder], |row| Ok((row.get(0)?, row.get(1)?)))?;
    rows.collect()
}

/// The highest pairing number among the folders under DIR/games (0 when none): a new
/// pairing never takes a folder a cut one left.
fn last_pairing_number(games: &Path) -> u64 {
    let numbers = |dir: &Path| -> Vec<u64> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter_map(|entry| {
                        let name = entry.file_name().to_string_lossy().into_owned();
                        name.split('-').next()?.parse().ok()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    std::fs::read_dir(games)
        .map(|ladders| {
            ladders
                .filter_map(Result::ok)
                .flat_map(|ladder| numbers(&ladder.path()))
                .max()
                .unwrap_or(0)
        })
        .unwrap_or(0)
}
