//! Remote bots: authors run `hamle connect SERVER BOT --name N --ladder L` on their own
//! machines; the server keeps each logged-in connection in its [`RemoteHub`], which the
//! pairing loop sees as a [`RemoteRoster`]. A remote bot's [`Bot`] is a relay,
//! `hamle __relay-bot --socket DIR/run/relay.sock --ticket T`: the arena starts it as any
//! engine, the hub splices its stdin and stdout onto the author's connection (one
//! *session* of the connection, a bot process on the author's machine), so that
//! `run_match` plays, referees, times (at the server) and records remote bots unchanged.
//!
//! ```text
//! wire.rs      the line protocol of the author's connection; a line reader with a cap
//! accounts.rs  passwords (argon2 hashes), the bots' entries, the organiser's log
//! author.rs    one author's connection: login, sessions, keepalive, limits
//! relay.rs     the unix socket relays connect to; `hamle __relay-bot` itself
//! ```
//!
//! A ticket admits relays only while its bot is reserved for a pairing
//! ([`RemoteRoster::reserve`] to [`RemoteRoster::release`]); the release spends it and the
//! next pairing gets a new one. Clients are untrusted: every line is capped, logins and
//! silences are timed, connections and logins are limited an address, and a client that
//! goes away costs only its own games.

pub mod accounts;
pub mod author;
pub mod relay;
pub mod wire;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;

use super::events::{LiveEvent, LiveEvents};
use super::{RemoteEntry, RemoteRoster};
use crate::arena::bots::{Bot, GameKind};

/// The relays' socket inside the server's folder.
pub const RELAY_SOCKET: &str = "run/relay.sock";

/// The hidden subcommand a remote bot's relay runs.
pub const RELAY_COMMAND: &str = "__relay-bot";

/// What untrusted clients are allowed; [`RemoteLimits::default`] is the server's.
#[derive(Clone, Debug)]
pub struct RemoteLimits {
    /// The longest line a client may send (a bot's protocol line included).
    pub max_line: usize,
    /// From connecting to a complete login.
    pub login_timeout: Duration,
    /// How often the server pings a logged-in client.
    pub ping_every: Duration,
    /// A client silent this long (no line at all, not even `pong`) is cut off.
    pub idle_timeout: Duration,
    /// A write to a client that does not read for this long cuts it off.
    pub write_timeout: Duration,
    /// Connections open at once from one address, and in all.
    pub connections_per_address: usize,
    pub connections: usize,
    /// Logins an address may try at once (a burst), and how fast its allowance refills.
    pub login_burst: u32,
    pub login_refill: Duration,
    /// Game sessions one connection may play at once (a pairing's concurrent games).
    pub sessions_per_bot: usize,
}

impl Default for RemoteLimits {
    fn default() -> RemoteLimits {
        RemoteLimits {
            max_line: 64 * 1024,
            login_timeout: Duration::from_secs(10),
            ping_every: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(45),
            write_timeout: Duration::from_secs(30),
            // 100 bots from one test machine fit; a flood from one address does not.
            connections_per_address: 128,
            connections: 2048,
            login_burst: 128,
            login_refill: Duration::from_millis(500),
            sessions_per_bot: 4,
        }
    }
}

/// The remote bots connected to one server.
pub struct RemoteHub {
    shared: Arc<Shared>,
    address: SocketAddr,
}

/// What every task of the hub shares.
pub(crate) struct Shared {
    pub(crate) dir: PathBuf,
    pub(crate) socket: PathBuf,
    pub(crate) hamle_exe: PathBuf,
    pub(crate) events: LiveEvents,
    pub(crate) limits: RemoteLimits,
    pub(crate) state: Mutex<State>,
    /// Argon2 is slow on purpose: two hashes at once at most, whatever floods in.
    pub(crate) hashing: tokio::sync::Semaphore,
}

#[derive(Default)]
pub(crate) struct State {
    /// The logged-in connections by `bots.id`.
    pub(crate) authors: HashMap<i64, Author>,
    pub(crate) addresses: HashMap<IpAddr, Address>,
    pub(crate) connections: usize,
    pub(crate) next_connection: u64,
}

/// One address's use of the server.
pub(crate) struct Address {
    pub(crate) connections: usize,
    /// Logins it may still try now, refilled over time.
    pub(crate) allowance: f64,
    pub(crate) refilled: Instant,
}

/// One logged-in author's connection.
pub(crate) struct Author {
    /// Which connection (a newer login of the same bot is another).
    pub(crate) connection: u64,
    pub(crate) ladder: String,
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) game: GameKind,
    pub(crate) ticket: String,
    pub(crate) reserved: bool,
    /// Lines to the client (its writer task).
    pub(crate) to_client: mpsc::Sender<String>,
    /// Each open session: lines toward its relay.
    pub(crate) sessions: HashMap<u32, mpsc::Sender<String>>,
    pub(crate) next_session: u32,
}

impl Shared {
    pub(crate) fn state(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere leaves the map as it was between two statements: keep going.
        self.state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Writes to the organiser's log before the client hears what it says.
    pub(crate) async fn log(&self, what: String) {
        let dir = self.dir.clone();
        let _ = tokio::task::spawn_blocking(move || accounts::log_in(&dir, &what)).await;
    }

    /// The relay bot of a connected author: it takes no seed (the author's bot is not
    /// ours to seed) and keeps its engine between games, as any bot without a seed.
    fn entry(&self, bot_id: i64, author: &Author) -> RemoteEntry {
        let bot = Bot {
            name: accounts::entry_name(&author.name, &author.version),
            game: author.game,
            program: self.hamle_exe.display().to_string(),
            args: vec![
                RELAY_COMMAND.to_owned(),
                "--socket".to_owned(),
                self.socket.display().to_string(),
                "--ticket".to_owned(),
                author.ticket.clone(),
            ],
            working_dir: None,
            seed_arg: None,
            seed_command: None,
            startup: Vec::new(),
            between_games: Vec::new(),
            time_control: None,
            options: std::collections::BTreeMap::new(),
            source: PathBuf::new(),
        };
        RemoteEntry {
            bot_id,
            name: author.name.clone(),
            version: author.version.clone(),
            bot,
        }
    }
}

/// A new secret ticket: 128 random bits from the operating system's generator, in hex.
pub(crate) fn new_ticket() -> String {
    let mut bytes = [0u8; 16];
    rand::fill(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Starts the remote listeners on the current tokio runtime: TCP at `listen` for authors'
/// clients, the unix socket `DIR/run/relay.sock` for relays. The database `DIR/ladder.db`
/// must hold the ladders bots may join.
pub async fn start(
    dir: &Path,
    listen: SocketAddr,
    events: LiveEvents,
    hamle_exe: &Path,
) -> std::io::Result<Arc<RemoteHub>> {
    start_with(dir, listen, events, hamle_exe, RemoteLimits::default()).await
}

/// [`start`] with limits of one's own (tests use short timeouts).
pub async fn start_with(
    dir: &Path,
    listen: SocketAddr,
    events: LiveEvents,
    hamle_exe: &Path,
    limits: RemoteLimits,
) -> std::io::Result<Arc<RemoteHub>> {
    let dir = std::path::absolute(dir)?;
    let socket = dir.join(RELAY_SOCKET);
    let relays = relay::bind(&socket)?;
    let listener = tokio::net::TcpListener::bind(listen).await?;
    let address = listener.local_addr()?;
    let shared = Arc::new(Shared {
        dir,
        socket,
        hamle_exe: std::path::absolute(hamle_exe)?,
        events,
        limits,
        state: Mutex::new(State::default()),
        hashing: tokio::sync::Semaphore::new(2),
    });
    tokio::spawn(author::accept(listener, Arc::clone(&shared)));
    tokio::spawn(relay::accept(relays, Arc::clone(&shared)));
    Ok(Arc::new(RemoteHub { shared, address }))
}

impl RemoteHub {
    /// Where authors' clients connect (the port chosen when `listen` asked for port 0).
    pub fn local_addr(&self) -> SocketAddr {
        self.address
    }

    /// The relays' socket.
    pub fn socket(&self) -> &Path {
        &self.shared.socket
    }

    /// The bots connected now, in or out of games: (bot id, ladder, entry name).
    pub fn connected(&self) -> Vec<(i64, String, String)> {
        let state = self.shared.state();
        let mut all: Vec<_> = state
            .authors
            .iter()
            .map(|(id, a)| {
                (
                    *id,
                    a.ladder.clone(),
                    accounts::entry_name(&a.name, &a.version),
                )
            })
            .collect();
        all.sort();
        all
    }
}

impl RemoteRoster for RemoteHub {
    fn idle(&self, ladder: &str) -> Vec<RemoteEntry> {
        let state = self.shared.state();
        let mut idle: Vec<RemoteEntry> = state
            .authors
            .iter()
            .filter(|(_, a)| a.ladder == ladder && !a.reserved)
            .map(|(id, a)| self.shared.entry(*id, a))
            .collect();
        idle.sort_by_key(|entry| entry.bot_id);
        idle
    }

    fn reserve(&self, bot_id: i64) -> bool {
        let mut state = self.shared.state();
        match state.authors.get_mut(&bot_id) {
            Some(author) if !author.reserved => {
                author.reserved = true;
                true
            }
            _ => false,
        }
    }

    fn release(&self, bot_id: i64) {
        let mut state = self.shared.state();
        if let Some(author) = state.authors.get_mut(&bot_id) {
            author.reserved = false;
            // Spent: a relay of the pairing that ended cannot come back.
            author.ticket = new_ticket();
        }
    }
}

/// Sends the event that a bot joined or left.
pub(crate) fn announce(events: &LiveEvents, ladder: &str, bot: &str, joined: bool) {
    let (ladder, bot) = (ladder.to_owned(), bot.to_owned());
    events.send(if joined {
        LiveEvent::BotJoined { ladder, bot }
    } else {
        LiveEvent::BotLeft { ladder, bot }
    });
}
