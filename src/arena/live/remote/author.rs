//! One author's connection (`hamle connect` at the other end): admitted under the
//! address's limits, logged in within [`RemoteLimits::login_timeout`], then kept while it
//! answers pings; its lines feed the sessions (games) the relays opened on it. Whatever it
//! does wrong (a line past the cap, junk, silence, not reading) costs it its connection and
//! the games it was playing, nothing else: every read is capped and timed, and every write
//! towards it goes through a bounded queue that is never waited on.
//!
//! [`RemoteLimits::login_timeout`]: super::RemoteLimits::login_timeout

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::sync::mpsc;

use super::accounts::{self, Admitted};
use super::wire::{FromClient, HELLO, LineError, LineReader, Login, ToClient};
use super::{Address, Author, Shared, announce, new_ticket};

/// Lines queued towards one client; a client that lets it fill is not reading.
const QUEUE: usize = 1024;

/// Addresses remembered between their connections, at most.
const MAX_ADDRESSES: usize = 10_000;

/// How long a refused client is told to wait before it tries again.
const WAIT_AGAIN: Duration = Duration::from_secs(30);

/// Accepts authors' connections for as long as the server runs.
pub(crate) async fn accept(listener: TcpListener, shared: Arc<Shared>) {
    loop {
        match listener.accept().await {
            Ok((stream, peer)) => {
                let shared = Arc::clone(&shared);
                tokio::spawn(async move { serve(stream, peer, shared).await });
            }
            // Out of file descriptors, say: the next accept may do, and the games go on.
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// One connection from admission to its end.
async fn serve(stream: tokio::net::TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let (read, mut write) = stream.into_split();
    let admission = match Admission::new(&shared, peer.ip()) {
        Ok(admission) => admission,
        Err(why) => {
            let line = ToClient::Later(WAIT_AGAIN, why).line() + "\n";
            let _ = tokio::time::timeout(Duration::from_secs(1), write.write_all(line.as_bytes()))
                .await;
            return;
        }
    };
    let mut reader = LineReader::new(read, shared.limits.max_line);
    let login = tokio::time::timeout(
        shared.limits.login_timeout,
        log_in(&mut reader, &shared, peer, &admission),
    )
    .await
    .unwrap_or_else(|_| {
        Err(Cut::hostile(format!(
            "no login within {} s",
            shared.limits.login_timeout.as_secs_f64()
        )))
    });
    match login {
        Ok((login, admitted)) => play(reader, write, &shared, peer, login, admitted).await,
        Err(cut) => {
            if cut.log {
                shared
                    .log(format!("connection from {peer} cut: {}", cut.line))
                    .await;
            }
            if !cut.line.is_empty() {
                let line = cut.line + "\n";
                let _ =
                    tokio::time::timeout(Duration::from_secs(1), write.write_all(line.as_bytes()))
                        .await;
            }
        }
    }
}

/// Why a connection ends: the line the client is told, whether the organiser's log hears.
struct Cut {
    line: String,
    log: bool,
}

impl Cut {
    fn refused(why: String) -> Cut {
        Cut {
            line: ToClient::Refused(why).line(),
            log: false,
        }
    }
    fn hostile(why: String) -> Cut {
        Cut {
            line: ToClient::Bye(why).line(),
            log: true,
        }
    }
    fn later(why: String) -> Cut {
        Cut {
            line: ToClient::Later(WAIT_AGAIN, why).line(),
            log: false,
        }
    }
}

/// A connection counted against its address and the server until it ends.
struct Admission {
    shared: Arc<Shared>,
    ip: IpAddr,
}

impl Admission {
    fn new(shared: &Arc<Shared>, ip: IpAddr) -> Result<Admission, String> {
        let limits = &shared.limits;
        let mut state = shared.state();
        if state.connections >= limits.connections {
            return Err("the server is full".to_owned());
        }
        if state.addresses.len() > MAX_ADDRESSES {
            // Addresses gone quiet, many of them: their spent allowances are forgotten
            // rather than memory grown without end.
            state.addresses.retain(|_, address| address.connections > 0);
        }
        let burst = f64::from(limits.login_burst);
        let address = state.addresses.entry(ip).or_insert_with(|| Address {
            connections: 0,
            allowance: burst,
            refilled: Instant::now(),
        });
        if address.connections >= limits.connections_per_address {
            return Err(format!(
                "{} connections from {ip} already",
                address.connections
            ));
        }
        address.connections += 1;
        state.connections += 1;
        Ok(Admission {
            shared: Arc::clone(shared),
            ip,
        })
    }

    /// Takes one login from the address's allowance; false when it has none left.
    fn take_login(&self) -> bool {
        let limits = &self.shared.limits;
        let mut state = self.shared.state();
        let Some(address) = state.addresses.get_mut(&self.ip) else {
            return false;
        };
        let now = Instant::now();
        let refill = now.duration_since(address.refilled).as_secs_f64()
            / limits.login_refill.as_secs_f64().max(1e-3);
        address.allowance = (address.allowance + refill).min(f64::from(limits.login_burst));
        address.refilled = now;
        if address.allowance < 1.0 {
            return false;
        }
        address.allowance -= 1.0;
        true
    }
}

impl Drop for Admission {
    fn drop(&mut self) {
        let mut state = self.shared.state();
        state.connections = state.connections.saturating_sub(1);
        let limits = &self.shared.limits;
        let forget = state.addresses.get_mut(&self.ip).is_some_and(|address| {
            address.connections = address.connections.saturating_sub(1);
            let refill = address.refilled.elapsed().as_secs_f64()
                / limits.login_refill.as_secs_f64().max(1e-3);
            // A full allowance is what a new address gets: nothing to remember.
            address.connections == 0 && address.allowance + refill >= f64::from(limits.login_burst)
        });
        if forget {
            state.addresses.remove(&self.ip);
        }
    }
}

/// Reads the hello and the login and checks them: the account's password, the ladder, the
/// bot's entry.
async fn log_in(
    reader: &mut LineReader<OwnedReadHalf>,
    shared: &Arc<Shared>,
    peer: SocketAddr,
    admission: &Admission,
) -> Result<(Login, Admitted), Cut> {
    let hello = next(reader).await?;
    if hello != HELLO {
        return Err(Cut::refused(format!(
            "this server speaks `{HELLO}`; use a hamle of the same protocol"
        )));
    }
    let line = next(reader).await?;
    let login = Login::parse(&line).ok_or_else(|| {
        Cut::refused("expected `login NAME LADDER VERSION PASSWORD` (VERSION - for none)".into())
    })?;
    accounts::check_fields(&login).map_err(|refusal| Cut::refused(refusal.reason))?;
    if !admission.take_login() {
        return Err(Cut::later(format!(
            "too many logins from {}; wait",
            peer.ip()
        )));
    }
    let _turn = shared
        .hashing
        .acquire()
        .await
        .map_err(|_| Cut::later("the server is stopping".into()))?;
    let (dir, checked, from) = (shared.dir.clone(), login.clone(), peer.to_string());
    let admitted = tokio::task::spawn_blocking(move || accounts::admit(&dir, &checked, &from))
        .await
        .map_err(|_| Cut::later("the server failed to check the login".into()))?
        .map_err(|refusal| Cut::refused(refusal.reason))?;
    Ok((login, admitted))
}

/// The next line of a client that is logging in.
async fn next(reader: &mut LineReader<OwnedReadHalf>) -> Result<String, Cut> {
    match reader.next_line().await {
        Ok(Some(line)) => Ok(line),
        Ok(None) => Err(Cut {
            line: String::new(),
            log: false,
        }),
        Err(error) => Err(Cut::hostile(error.to_string())),
    }
}

/// A logged-in connection: registered (unless its bot is connected already), welcomed,
/// then served until it ends; its games end with it.
async fn play(
    mut reader: LineReader<OwnedReadHalf>,
    write: OwnedWriteHalf,
    shared: &Arc<Shared>,
    peer: SocketAddr,
    login: Login,
    admitted: Admitted,
) {
    let (to_client, queue) = mpsc::channel::<String>(QUEUE);
    let mut writer = tokio::spawn(write_lines(write, queue, shared.limits.write_timeout));
    let bot_id = admitted.bot_id;
    let Some(connection) = register(shared, &login, &admitted, &to_client) else {
        let _ = to_client.try_send(
            ToClient::Later(
                WAIT_AGAIN,
                format!(
                    "'{}' is connected already; a second connection is refused until the first leaves (a silent one is cut after {} s)",
                    accounts::entry_name(&login.name, &login.version),
                    shared.limits.idle_timeout.as_secs()
                ),
            )
            .line(),
        );
        drop(to_client);
        let _ = writer.await;
        return;
    };
    let entry = accounts::entry_name(&login.name, &login.version);
    announce(&shared.events, &login.ladder, &entry, true);
    let welcome = ToClient::Welcome {
        bot_id,
        game: admitted.game.to_string(),
        ping: shared.limits.ping_every,
    };
    let _ = to_client.try_send(welcome.line());
    let why = converse(&mut reader, &mut writer, shared, bot_id, &to_client).await;
    if let Some(why) = &why {
        shared
            .log(format!("connection of {entry} from {peer} cut: {why}"))
            .await;
        let _ = to_client.try_send(ToClient::Bye(why.clone()).line());
    }
    unregister(shared, bot_id, connection);
    announce(&shared.events, &login.ladder, &entry, false);
    drop(to_client);
    // Bounded by the write timeout: the bye goes out, or the client is not reading.
    let _ = writer.await;
}

/// The connection in the hub's roster; `None` when its bot is connected already.
fn register(
    shared: &Shared,
    login: &Login,
    admitted: &Admitted,
    to_client: &mpsc::Sender<String>,
) -> Option<u64> {
    let mut state = shared.state();
    if state.authors.contains_key(&admitted.bot_id) {
        return None;
    }
    state.next_connection += 1;
    let connection = state.next_connection;
    state.authors.insert(
        admitted.bot_id,
        Author {
            connection,
            ladder: login.ladder.clone(),
            name: login.name.clone(),
            version: login.version.clone(),
            game: admitted.game,
            ticket: new_ticket(),
            reserved: false,
            to_client: to_client.clone(),
            sessions: std::collections::HashMap::new(),
            next_session: 1,
        },
    );
    Some(connection)
}

/// Out of the roster; its sessions' relays end (their queues close).
fn unregister(shared: &Shared, bot_id: i64, connection: u64) {
    let mut state = shared.state();
    if state
        .authors
        .get(&bot_id)
        .is_some_and(|author| author.connection == connection)
    {
        state.authors.remove(&bot_id);
    }
}

/// Reads the client's lines and pings it until it leaves (`None`) or is cut off (why).
async fn converse(
    reader: &mut LineReader<OwnedReadHalf>,
    writer: &mut tokio::task::JoinHandle<()>,
    shared: &Shared,
    bot_id: i64,
    to_client: &mpsc::Sender<String>,
) -> Option<String> {
    let limits = &shared.limits;
    let mut ping = tokio::time::interval_at(
        tokio::time::Instant::now() + limits.ping_every,
        limits.ping_every,
    );
    let mut heard = tokio::time::Instant::now();
    loop {
        tokio::select! {
            line = tokio::time::timeout_at(heard + limits.idle_timeout, reader.next_line()) => {
                match line {
                    Err(_) => return Some(format!("silent for {} s", limits.idle_timeout.as_secs())),
                    Ok(Ok(None)) => return None,
                    Ok(Err(LineError::Io(_))) => return None,
                    Ok(Err(error)) => return Some(error.to_string()),
                    Ok(Ok(Some(line))) => {
                        heard = tokio::time::Instant::now();
                        if let Err(why) = hear(shared, bot_id, to_client, &line) {
                            return Some(why);
                        }
                    }
                }
            }
            _ = ping.tick() => {
                if to_client.try_send(ToClient::Ping.line()).is_err() {
                    return Some("it does not read what the server sends".to_owned());
                }
            }
            _ = &mut *writer => return Some("it does not read what the server sends".to_owned()),
        }
    }
}

/// One line of a logged-in client.
fn hear(
    shared: &Shared,
    bot_id: i64,
    to_client: &mpsc::Sender<String>,
    line: &str,
) -> Result<(), String> {
    let Some(message) = FromClient::parse(line) else {
        return Err(format!(
            "a line outside the protocol: {:?}",
            crate::text::shorten_to(line, 60)
        ));
    };
    match message {
        FromClient::From(session, text) => {
            let mut state = shared.state();
            let Some(author) = state.authors.get_mut(&bot_id) else {
                return Ok(());
            };
            let full = author
                .sessions
                .get(&session)
                .is_some_and(|relay| relay.try_send(text).is_err());
            // A bot that writes faster than its game reads loses that game, not the rest.
            if full {
                author.sessions.remove(&session);
            }
        }
        FromClient::Ended(session) => {
            if let Some(author) = shared.state().authors.get_mut(&bot_id) {
                author.sessions.remove(&session);
            }
        }
        FromClient::Ping => {
            if to_client.try_send(ToClient::Pong.line()).is_err() {
                return Err("it does not read what the server sends".to_owned());
            }
        }
        FromClient::Pong => {}
    }
    Ok(())
}

/// Writes the queued lines to the client, each within `timeout`; ends when the queue
/// closes or the client stops reading.
async fn write_lines(
    mut write: OwnedWriteHalf,
    mut queue: mpsc::Receiver<String>,
    timeout: Duration,
) {
    while let Some(mut line) = queue.recv().await {
        line.push('\n');
        match tokio::time::timeout(timeout, write.write_all(line.as_bytes())).await {
            Ok(Ok(())) => {}
            _ => return,
        }
    }
    let _ = tokio::time::timeout(Duration::from_secs(1), write.shutdown()).await;
}
