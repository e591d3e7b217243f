//! The line protocol between `hamle connect` (the author's client) and the server, and a
//! line reader whose memory is capped, shared by both ends and by the relay socket.
//!
//! Every message is one UTF-8 line ending in `\n`:
//!
//! ```text
//! client → server                     server → client
//! hamle-remote 1                      welcome BOT_ID GAME PING_SECONDS
//! login NAME LADDER VERSION PASSWORD  refused REASON          (final: do not retry)
//!                                     later SECONDS REASON    (retry after SECONDS)
//! from SESSION LINE                   open SESSION            (start the bot)
//! ended SESSION                       to SESSION LINE         (a line for the bot)
//! ping | pong                         close SESSION           (stop the bot)
//!                                     ping | pong | bye REASON
//! ```
//!
//! VERSION is `-` for none; PASSWORD is the rest of the line. `from`/`to` carry one
//! protocol line of the bot's, as it was, without its line break.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

/// The first line a client sends: the protocol and its version.
pub const HELLO: &str = "hamle-remote 1";

/// What the server says to an author's client.
#[derive(Clone, Debug, PartialEq)]
pub enum ToClient {
    Welcome {
        bot_id: i64,
        game: String,
        ping: Duration,
    },
    Refused(String),
    Later(Duration, String),
    Open(u32),
    To(u32, String),
    Close(u32),
    Ping,
    Pong,
    Bye(String),
}

/// What an author's client says to the server after its login.
#[derive(Clone, Debug, PartialEq)]
pub enum FromClient {
    From(u32, String),
    Ended(u32),
    Ping,
    Pong,
}

/// A client's login line, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Login {
    pub name: String,
    pub ladder: String,
    /// Empty for none (`-` on the wire).
    pub version: String,
    pub password: String,
}

impl ToClient {
    pub fn line(&self) -> String {
        match self {
            ToClient::Welcome { bot_id, game, ping } => {
                format!("welcome {bot_id} {game} {}", ping.as_secs().max(1))
            }
            ToClient::Refused(reason) => format!("refused {}", one_line(reason)),
            ToClient::Later(wait, reason) => {
                format!("later {} {}", wait.as_secs().max(1), one_line(reason))
            }
            ToClient::Open(session) => format!("open {session}"),
            ToClient::To(session, line) => format!("to {session} {line}"),
            ToClient::Close(session) => format!("close {session}"),
            ToClient::Ping => "ping".to_owned(),
            ToClient::Pong => "pong".to_owned(),
            ToClient::Bye(reason) => format!("bye {}", one_line(reason)),
        }
    }

    pub fn parse(line: &str) -> Option<ToClient> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        Some(match word {
            "welcome" => {
                let mut fields = rest.split(' ');
                let bot_id = fields.next()?.parse().ok()?;
                let game = fields.next()?.to_owned();
                let ping = Duration::from_secs(fields.next()?.parse().ok()?);
                ToClient::Welcome { bot_id, game, ping }
            }
            "refused" => ToClient::Refused(rest.to_owned()),
            "later" => {
                let (seconds, reason) = rest.split_once(' ').unwrap_or((rest, ""));
                ToClient::Later(
                    Duration::from_secs(seconds.parse().ok()?),
                    reason.to_owned(),
                )
            }
            "open" => ToClient::Open(rest.parse().ok()?),
            "to" => {
                let (session, text) = rest.split_once(' ').unwrap_or((rest, ""));
                ToClient::To(session.parse().ok()?, text.to_owned())
            }
            "close" => ToClient::Close(rest.parse().ok()?),
            "ping" if rest.is_empty() => ToClient::Ping,
            "pong" if rest.is_empty() => ToClient::Pong,
            "bye" => ToClient::Bye(rest.to_owned()),
            _ => return None,
        })
    }
}

impl FromClient {
    pub fn line(&self) -> String {
        match self {
            FromClient::From(session, text) => format!("from {session} {text}"),
            FromClient::Ended(session) => format!("ended {session}"),
            FromClient::Ping => "ping".to_owned(),
            FromClient::Pong => "pong".to_owned(),
        }
    }

    pub fn parse(line: &str) -> Option<FromClient> {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        Some(match word {
            "from" => {
                let (session, text) = rest.split_once(' ').unwrap_or((rest, ""));
                FromClient::From(session.parse().ok()?, text.to_owned())
            }
            "ended" => FromClient::Ended(rest.parse().ok()?),
            "ping" if rest.is_empty() => FromClient::Ping,
            "pong" if rest.is_empty() => FromClient::Pong,
            _ => return None,
        })
    }
}

impl Login {
    pub fn line(&self) -> String {
        let version = if self.version.is_empty() {
            "-"
        } else {
            &self.version
        };
        format!(
            "login {} {} {version} {}",
            self.name, self.ladder, self.password
        )
    }

    /// The login line read; `None` when it is not one (its fields are checked later).
    pub fn parse(line: &str) -> Option<Login> {
        let mut fields = line.splitn(5, ' ');
        if fields.next()? != "login" {
            return None;
        }
        let name = fields.next()?.to_owned();
        let ladder = fields.next()?.to_owned();
        let version = fields.next()?;
        let password = fields.next()?.to_owned();
        Some(Login {
            name,
            ladder,
            version: if version == "-" {
                String::new()
            } else {
                version.to_owned()
            },
            password,
        })
    }
}

/// A reason sent on one line: line breaks become spaces.
fn one_line(text: &str) -> String {
    text.replace(['\n', '\r'], " ")
}

/// Why no line came.
#[derive(Debug)]
pub enum LineError {
    /// The line grew past the cap without ending: the peer is cut off.
    TooLong(usize),
    /// Not UTF-8.
    NotText,
    Io(std::io::Error),
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::TooLong(cap) => write!(f, "a line longer than {cap} bytes"),
            LineError::NotText => f.write_str("a line that is not UTF-8 text"),
            LineError::Io(error) => write!(f, "{error}"),
        }
    }
}

/// Reads lines of at most `cap` bytes; what it holds between lines is never more than
/// `cap` plus one read. Cancel-safe: a read cut by a timeout loses nothing (the bytes read
/// so far stay in the reader), so callers may wrap [`LineReader::next_line`] in one.
pub struct LineReader<R> {
    inner: R,
    buffer: Vec<u8>,
    cap: usize,
    ended: bool,
}

/// How much one read takes.
const CHUNK: usize = 8 * 1024;

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R, cap: usize) -> LineReader<R> {
        LineReader {
            inner,
            buffer: Vec::new(),
            cap,
            ended: false,
        }
    }

    /// The next line without its `\n` (and `\r`), `None` at the end of the stream (a last
    /// line without `\n` is given first).
    pub async fn next_line(&mut self) -> Result<Option<String>, LineError> {
        loop {
            if let Some(at) = self.buffer.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buffer.drain(..=at).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return String::from_utf8(line)
                    .map(Some)
                    .map_err(|_| LineError::NotText);
            }
            if self.buffer.len() > self.cap {
                return Err(LineError::TooLong(self.cap));
            }
            if self.ended {
                if self.buffer.is_empty() {
                    return Ok(None);
                }
                let line = std::mem::take(&mut self.buffer);
                return String::from_utf8(line)
                    .map(Some)
                    .map_err(|_| LineError::NotText);
            }
            let mut chunk = [0u8; CHUNK];
            let read = self.inner.read(&mut chunk).await.map_err(LineError::Io)?;
            if read == 0 {
                self.ended = true;
            }
            self.buffer.extend_from_slice(&chunk[..read]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let all = [
            ToClient::Welcome {
                bot_id: 4,
                game: "go".into(),
                ping: Duration::from_secs(15),
            },
            ToClient::Refused("wrong password".into()),
            ToClient::Later(Duration::from_secs(30), "busy now".into()),
            ToClient::Open(2),
            ToClient::To(2, "genmove b".into()),
            ToClient::To(2, String::new()),
            ToClient::Close(2),
            ToClient::Ping,
            ToClient::Pong,
            ToClient::Bye("idle".into()),
        ];
        for message in all {
            assert_eq!(ToClient::parse(&message.line()), Some(message));
        }
        for message in [
            FromClient::From(7, "= D4".into()),
            FromClient::From(7, String::new()),
            FromClient::Ended(7),
            FromClient::Ping,
            FromClient::Pong,
        ] {
            assert_eq!(FromClient::parse(&message.line()), Some(message));
        }
        for junk in [
            "",
            "from x y",
            "ended",
            "pingpong",
            "open -1",
            "GET / HTTP/1.1",
        ] {
            assert_eq!(FromClient::parse(junk), None, "{junk}");
        }
        let login = Login {
            name: "rnd".into(),
            ladder: "go9".into(),
            version: String::new(),
            password: "two words".into(),
        };
        assert_eq!(Login::parse(&login.line()), Some(login));
        assert_eq!(Login::parse("login a b c"), None);
    }

    #[tokio::test]
    async fn a_line_past_the_cap_is_refused_with_bounded_memory() {
        let mut text = b"short\r\n".to_vec();
        text.extend(std::iter::repeat_n(b'x', 100_000));
        let mut reader = LineReader::new(&text[..], 1000);
        assert_eq!(
            reader.next_line().await.ok().flatten().as_deref(),
            Some("short")
        );
        assert!(matches!(
            reader.next_line().await,
            Err(LineError::TooLong(1000))
        ));
        assert!(reader.buffer.len() <= 1000 + CHUNK);
        let mut last = LineReader::new(&b"a\nlast"[..], 10);
        assert_eq!(last.next_line().await.ok().flatten().as_deref(), Some("a"));
        assert_eq!(
            last.next_line().await.ok().flatten().as_deref(),
            Some("last")
        );
        assert!(matches!(last.next_line().await, Ok(None)));
    }
}
