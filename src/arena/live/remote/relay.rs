//! The relays: `hamle __relay-bot --socket DIR/run/relay.sock --ticket T` is the engine
//! the arena starts for a remote bot. It connects to the hub's unix socket, gives its
//! ticket, and then copies its stdin to the socket and the socket to its stdout; the hub
//! opens a session on the author's connection and carries the lines both ways. When the
//! author's connection ends, the socket closes, the relay exits, and the arena sees an
//! engine that died: that game is lost as a crash, and the next start of the relay is
//! refused until the author is back and paired again.
//!
//! The socket's folder `DIR/run` is the server's user's alone (mode 0700); tickets keep a
//! relay to the bot it was made for, and only while that bot's pairing lasts.

use std::ffi::OsString;
use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use tokio::io::AsyncWriteExt;
use tokio::net::UnixListener;
use tokio::sync::mpsc;

use super::wire::{LineReader, ToClient};
use super::{RELAY_COMMAND, Shared};

/// The longest line the arena sends a bot through a relay (the arena is ours: generous).
const RELAY_LINE_CAP: usize = 1024 * 1024;

/// Lines queued from the author towards one relay.
const SESSION_QUEUE: usize = 256;

/// How long a relay has to give its ticket, and to hear the answer.
const TICKET_TIMEOUT: Duration = Duration::from_secs(10);

/// Binds the relays' socket: its folder made private, a socket left by a server that
/// died removed, one that answers (another server on this folder) refused.
pub(crate) fn bind(socket: &Path) -> std::io::Result<UnixListener> {
    use std::os::unix::fs::PermissionsExt;
    let run = socket.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(run)?;
    std::fs::set_permissions(run, std::fs::Permissions::from_mode(0o700))?;
    if socket.exists() {
        if std::os::unix::net::UnixStream::connect(socket).is_ok() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::AddrInUse,
                format!(
                    "{}: another server is running on this folder",
                    socket.display()
                ),
            ));
        }
        std::fs::remove_file(socket)?;
    }
    UnixListener::bind(socket).map_err(|error| {
        std::io::Error::new(
            error.kind(),
            format!(
                "cannot listen on {} ({error}); a unix socket's path holds at most 107 bytes: choose a shorter server folder",
                socket.display()
            ),
        )
    })
}

/// Accepts relays for as long as the server runs.
pub(crate) async fn accept(listener: UnixListener, shared: Arc<Shared>) {
    loop {
        match listener.accept().await {
            Ok((stream, _)) => {
                let shared = Arc::clone(&shared);
                tokio::spawn(async move { splice(stream, shared).await });
            }
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

/// An open session: where its lines go.
struct Session {
    bot_id: i64,
    connection: u64,
    session: u32,
    to_client: mpsc::Sender<String>,
    from_client: mpsc::Receiver<String>,
}

/// One relay: its ticket checked, then its lines carried to and from its session.
async fn splice(stream: tokio::net::UnixStream, shared: Arc<Shared>) {
    let (read, mut write) = stream.into_split();
    let mut reader = LineReader::new(read, RELAY_LINE_CAP);
    let ticket = match tokio::time::timeout(TICKET_TIMEOUT, reader.next_line()).await {
        Ok(Ok(Some(line))) => line.strip_prefix("ticket ").map(str::to_owned),
        _ => None,
    };
    let opened = match ticket {
        Some(ticket) => open(&shared, &ticket),
        None => Err("expected `ticket T` first".to_owned()),
    };
    let mut session = match opened {
        Ok(session) => session,
        Err(why) => {
            shared.log(format!("relay refused: {why}")).await;
            let _ = write.write_all(format!("refused {why}\n").as_bytes()).await;
            return;
        }
    };
    if write.write_all(b"ok\n").await.is_err() {
        close(&shared, &session);
        return;
    }
    loop {
        tokio::select! {
            line = reader.next_line() => match line {
                Ok(Some(line)) => {
                    let to = ToClient::To(session.session, line).line();
                    if session.to_client.try_send(to).is_err() {
                        break;
                    }
                }
                _ => break,
            },
            line = session.from_client.recv() => match line {
                Some(mut line) => {
                    line.push('\n');
                    if write.write_all(line.as_bytes()).await.is_err() {
                        break;
                    }
                }
                None => break,
            },
        }
    }
    close(&shared, &session);
    let _ = write.shutdown().await;
}

/// A session opened on the connection whose reserved bot holds `ticket`.
fn open(shared: &Shared, ticket: &str) -> Result<Session, String> {
    let limit = shared.limits.sessions_per_bot;
    let mut state = shared.state();
    let Some((bot_id, author)) = state
        .authors
        .iter_mut()
        .find(|(_, author)| author.reserved && same_secret(&author.ticket, ticket))
    else {
        return Err(
            "an unknown or spent ticket (a relay works only while its pairing lasts)".into(),
        );
    };
    if author.sessions.len() >= limit {
        return Err(format!(
            "'{}' plays {limit} games at once already",
            author.name
        ));
    }
    let session = author.next_session;
    author.next_session += 1;
    let (to_relay, from_client) = mpsc::channel(SESSION_QUEUE);
    if author
        .to_client
        .try_send(ToClient::Open(session).line())
        .is_err()
    {
        return Err(format!(
            "'{}' does not read what the server sends",
            author.name
        ));
    }
    author.sessions.insert(session, to_relay);
    Ok(Session {
        bot_id: *bot_id,
        connection: author.connection,
        session,
        to_client: author.to_client.clone(),
        from_client,
    })
}

/// The session ended on the server's side: the author's client stops its bot.
fn close(shared: &Shared, session: &Session) {
    let mut state = shared.state();
    if let Some(author) = state.authors.get_mut(&session.bot_id)
        && author.connection == session.connection
    {
        author.sessions.remove(&session.session);
    }
    let _ = session
        .to_client
        .try_send(ToClient::Close(session.session).line());
}

/// Compares two secrets in a time that does not tell how much of them matched.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |diff, (x, y)| diff | (x ^ y))
            == 0
}

/// `hamle __relay-bot --socket PATH --ticket T`: the remote bot's engine as the arena sees
/// it. Exit 0 when the session ends, 1 when the hub refused the relay or cannot be reached.
pub fn relay_bot(args: &[OsString]) -> i32 {
    let (socket, ticket) = match relay_args(args) {
        Ok(found) => found,
        Err(why) => {
            eprintln!(
                "hamle {RELAY_COMMAND}: {why} (usage: hamle {RELAY_COMMAND} --socket PATH --ticket T)"
            );
            return 2;
        }
    };
    match relay(&socket, &ticket) {
        Ok(()) => 0,
        Err(why) => {
            eprintln!("hamle {RELAY_COMMAND}: {why}");
            1
        }
    }
}

fn relay_args(args: &[OsString]) -> Result<(PathBuf, String), String> {
    let mut socket = None;
    let mut ticket = None;
    let mut words = args.iter();
    while let Some(word) = words.next() {
        let value = words.next().ok_or("a flag without its value")?;
        match word.to_str() {
            Some("--socket") => socket = Some(PathBuf::from(value)),
            Some("--ticket") => ticket = value.to_str().map(str::to_owned),
            _ => return Err(format!("unknown argument {word:?}")),
        }
    }
    Ok((socket.ok_or("no --socket")?, ticket.ok_or("no --ticket")?))
}

/// Connects, gives the ticket, then copies stdin to the hub and the hub to stdout.
fn relay(socket: &Path, ticket: &str) -> Result<(), String> {
    let stream = std::os::unix::net::UnixStream::connect(socket)
        .map_err(|error| format!("cannot reach the server at {}: {error}", socket.display()))?;
    let broken = |error: std::io::Error| format!("the server's socket broke: {error}");
    stream
        .set_read_timeout(Some(TICKET_TIMEOUT))
        .map_err(broken)?;
    (&stream)
        .write_all(format!("ticket {ticket}\n").as_bytes())
        .map_err(broken)?;
    let mut from_hub = std::io::BufReader::new(stream.try_clone().map_err(broken)?);
    let mut answer = Vec::new();
    (&mut from_hub)
        .take(4096)
        .read_until(b'\n', &mut answer)
        .map_err(broken)?;
    let answer = String::from_utf8_lossy(&answer).trim_end().to_owned();
    if answer != "ok" {
        return Err(format!("the server refused this relay: {answer}"));
    }
    stream.set_read_timeout(None).map_err(broken)?;
    let mut to_hub = stream;
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut std::io::stdin().lock(), &mut to_hub);
        // The arena closed our stdin: the hub ends the session.
        let _ = to_hub.shutdown(std::net::Shutdown::Write);
    });
    let mut stdout = std::io::stdout().lock();
    let mut chunk = [0u8; 8192];
    loop {
        let read = match from_hub.read(&mut chunk) {
            Ok(0) | Err(_) => return Ok(()),
            Ok(read) => read,
        };
        if stdout.write_all(&chunk[..read]).is_err() || stdout.flush().is_err() {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
    }

    #[test]
    fn relay_arguments_are_read() {
        let args: Vec<OsString> = ["--socket", "/d/run/relay.sock", "--ticket", "t1"]
            .iter()
            .map(OsString::from)
            .collect();
        assert_eq!(
            relay_args(&args),
            Ok((PathBuf::from("/d/run/relay.sock"), "t1".to_owned()))
        );
        assert!(relay_args(&args[..3]).is_err());
    }
}
