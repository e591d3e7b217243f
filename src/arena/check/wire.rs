//! The conversation with the bot under check: the arena's engine process (started under
//! the arena's supervisor, in a group of its own), but with every answer read line by line
//! here, so that a framing mistake is named (no id, no empty line) and every exchange can
//! be shown as it went. Each exchange has its own timeout; after one that failed, the bot
//! is killed and the next item starts a fresh one.

use std::fmt;
use std::time::{Duration, Instant};

use crate::arena::gtp::{EngineProcess, Launch, MAX_RESPONSE_LINES, parse_response};

/// How an answer went wrong on the wire.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    /// Nothing (or not a whole line) within the timeout.
    Timeout(Duration),
    /// The bot closed its output (it exited or crashed).
    Closed,
    /// A first line that is no answer at all.
    Garbage(String),
    /// An answer whose id is not the command's.
    Id(String),
    /// An answer whose ending empty line did not come within the timeout.
    NoBlankLine(Duration),
    /// The bot could not be started, or its input could not be written.
    Start(String),
    /// Not tried: the bot answered nothing readable to the last [`GIVE_UP_AFTER`] commands.
    GaveUp,
}

/// After this many commands in a row without a readable answer (each to a fresh bot), the
/// rest are not sent: a bot that hangs or talks garbage from the start ends the check soon.
pub const GIVE_UP_AFTER: usize = 2;

impl Problem {
    /// Whether the problem is one of the answers' framing (the `framing` item's).
    pub fn is_framing(&self) -> bool {
        matches!(self, Problem::Id(_) | Problem::NoBlankLine(_))
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Timeout(after) => write!(f, "no answer within {:.1} s", after.as_secs_f64()),
            Problem::Closed => f.write_str("the bot closed its output (it exited or crashed)"),
            Problem::Garbage(detail) => write!(f, "not an answer: {detail}"),
            Problem::Id(detail) => write!(f, "the id was not echoed: {detail}"),
            Problem::NoBlankLine(after) => write!(
                f,
                "the answer's ending empty line did not come within {:.1} s",
                after.as_secs_f64()
            ),
            Problem::Start(detail) => f.write_str(detail),
            Problem::GaveUp => write!(
                f,
                "not tried: the bot answered none of the last {GIVE_UP_AFTER} commands readably"
            ),
        }
    }
}

/// One answer: `Ok(Ok(body))` for `=`, `Ok(Err(message))` for `?`.
pub type Reply = Result<Result<String, String>, Problem>;

/// What was said in one exchange, for the report: lines sent (`> `) and received (`< `),
/// at most [`SHOWN_LINES`] of them.
#[derive(Clone, Debug, Default)]
pub struct Transcript(pub Vec<String>);

/// The most bytes one answer may hold here: a flood is garbage, not memory.
const MAX_ANSWER_BYTES: usize = 4 << 20;

/// The most lines of an exchange a report shows.
pub const SHOWN_LINES: usize = 12;

impl Transcript {
    fn note(&mut self, arrow: &str, line: &str) {
        if self.0.len() < SHOWN_LINES {
            self.0
                .push(format!("{arrow} {}", crate::text::shorten_to(line, 100)));
        } else if self.0.len() == SHOWN_LINES {
            self.0.push("… (more lines not shown)".to_owned());
        }
    }
}

/// The bot under check, started again after any exchange that failed.
pub struct Session {
    launch: Launch,
    engine: Option<EngineProcess>,
    next_id: u64,
    pub timeout: Duration,
    pub start_timeout: Duration,
    /// Every exchange's framing problem, in order (the `framing` item's evidence).
    pub framing: Vec<(Problem, Transcript)>,
    /// Every answer's time, by command name: the `answer times` item.
    pub times: Vec<(String, Duration)>,
    /// Bots started so far.
    pub starts: usize,
    /// Commands in a row that got no readable answer.
    unanswered: usize,
}

impl Session {
    pub fn new(launch: Launch, timeout: Duration, start_timeout: Duration) -> Session {
        Session {
            launch,
            engine: None,
            next_id: 1,
            timeout,
            start_timeout,
            framing: Vec::new(),
            times: Vec::new(),
            starts: 0,
            unanswered: 0,
        }
    }

    /// The running bot, started if none runs.
    pub fn start(&mut self) -> Result<&mut EngineProcess, Problem> {
        if self.engine.is_none() {
            let engine = EngineProcess::spawn(&self.launch)
                .map_err(|error| Problem::Start(error.to_string()))?;
            self.starts += 1;
            self.next_id = 1;
            self.engine = Some(engine);
        }
        self.engine
            .as_mut()
            .ok_or_else(|| Problem::Start("no engine".to_owned()))
    }

    pub fn running(&self) -> bool {
        self.engine.is_some()
    }

    /// Kills the bot and its whole group (the next exchange starts a fresh one).
    pub async fn kill(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.kill().await;
        }
    }

    /// Sends `command` with an id and reads its answer within `timeout`.
    pub async fn ask(&mut self, command: &str, timeout: Duration) -> (Reply, Transcript) {
        let (mut replies, transcript) = self.ask_all(&[command.to_owned()], timeout).await;
        (replies.pop().unwrap_or(Err(Problem::Closed)), transcript)
    }

    /// Sends `commands` in one write, each with an id (as the arena writes a forwarded move
    /// with the next request), and reads their answers in order, each within `timeout`.
    /// After a problem the bot is killed and the rest are not read.
    pub async fn ask_all(
        &mut self,
        commands: &[String],
        timeout: Duration,
    ) -> (Vec<Reply>, Transcript) {
        let mut transcript = Transcript::default();
        if self.unanswered >= GIVE_UP_AFTER {
            return (vec![Err(Problem::GaveUp)], transcript);
        }
        let first = self.next_id;
        let mut text = String::new();
        for (offset, command) in commands.iter().enumerate() {
            let line = format!("{} {command}", first + offset as u64);
            transcript.note(">", &line);
            text.push_str(&line);
            text.push('\n');
        }
        let replies = self
            .exchange(&text, first, commands, timeout, &mut transcript)
            .await;
        (replies, transcript)
    }

    /// Writes `line` exactly (no id added) and reads one answer expected to carry `id`
    /// (`None`: none), within `timeout`.
    pub async fn say_raw(
        &mut self,
        line: &str,
        id: Option<u64>,
        timeout: Duration,
    ) -> (Reply, Transcript) {
        let mut transcript = Transcript::default();
        if self.unanswered >= GIVE_UP_AFTER {
            return (Err(Problem::GaveUp), transcript);
        }
        transcript.note(">", line);
        let name = line.split_whitespace().next().unwrap_or("").to_owned();
        let reply = match self.write(&format!("{line}\n")).await {
            Ok(()) => {
                let asked = Instant::now();
                let reply = self.read_answer(id, timeout, &mut transcript).await;
                self.times.push((name, asked.elapsed()));
                reply
            }
            Err(problem) => Err(problem),
        };
        self.settle(&reply, &transcript).await;
        (reply, transcript)
    }

    async fn exchange(
        &mut self,
        text: &str,
        first: u64,
        commands: &[String],
        timeout: Duration,
        transcript: &mut Transcript,
    ) -> Vec<Reply> {
        self.next_id += commands.len() as u64;
        if let Err(problem) = self.write(text).await {
            let reply = Err(problem);
            self.settle(&reply, transcript).await;
            return vec![reply];
        }
        let mut replies = Vec::new();
        for (offset, command) in commands.iter().enumerate() {
            let asked = Instant::now();
            let reply = self
                .read_answer(Some(first + offset as u64), timeout, transcript)
                .await;
            let name = command.split_whitespace().next().unwrap_or("").to_owned();
            self.times.push((name, asked.elapsed()));
            let failed = reply.is_err();
            self.settle(&reply, transcript).await;
            replies.push(reply);
            if failed {
                break;
            }
        }
        replies
    }

    /// Notes a framing problem, and kills the bot after any problem: what it says next
    /// cannot be trusted to answer the next command.
    async fn settle(&mut self, reply: &Reply, transcript: &Transcript) {
        self.unanswered = if reply.is_ok() {
            0
        } else {
            self.unanswered + 1
        };
        if let Err(problem) = reply {
            if problem.is_framing() {
                self.framing.push((problem.clone(), transcript.clone()));
            }
            self.kill().await;
        }
    }

    async fn write(&mut self, text: &str) -> Result<(), Problem> {
        let engine = self.start()?;
        engine
            .write_raw(text)
            .await
            .map_err(|error| Problem::Start(error.to_string()))
    }

    /// One answer, line by line, the whole of it within `timeout`.
    async fn read_answer(
        &mut self,
        id: Option<u64>,
        timeout: Duration,
        transcript: &mut Transcript,
    ) -> Reply {
        let mut deadline = tokio::time::Instant::now() + timeout;
        // Once an answer has begun, its rest is due within the answers' timeout (a slow
        // start, under --start-timeout, does not make a missing empty line slow to show).
        let rest = self.timeout.min(timeout);
        let Some(engine) = self.engine.as_mut() else {
            return Err(Problem::Closed);
        };
        let mut lines: Vec<String> = Vec::new();
        let mut bytes = 0;
        loop {
            let line = match tokio::time::timeout_at(deadline, engine.read_raw_line()).await {
                Err(_) if lines.is_empty() => return Err(Problem::Timeout(timeout)),
                Err(_) => return Err(Problem::NoBlankLine(rest)),
                Ok(Err(_) | Ok(None)) => return Err(Problem::Closed),
                Ok(Ok(Some(line))) => line,
            };
            transcript.note("<", &line);
            if line.trim().is_empty() {
                if lines.is_empty() {
                    continue;
                }
                return judge_lines(id, &lines);
            }
            if lines.is_empty() {
                deadline = deadline.min(tokio::time::Instant::now() + rest);
            }
            if lines.is_empty() && !(line.starts_with('=') || line.starts_with('?')) {
                return Err(Problem::Garbage(format!(
                    "expected a line starting '=' or '?', got '{}'",
                    crate::text::shorten_to(&line, 80)
                )));
            }
            bytes += line.len();
            if lines.len() >= MAX_RESPONSE_LINES || bytes > MAX_ANSWER_BYTES {
                return Err(Problem::Garbage(format!(
                    "an answer of more than {MAX_RESPONSE_LINES} lines or {MAX_ANSWER_BYTES} bytes"
                )));
            }
            lines.push(line);
        }
    }

    /// Says `quit` and waits up to `wait` for the bot to exit by itself; then ends its
    /// group whatever happened. Returns the answer and whether it exited in time.
    pub async fn quit(&mut self, wait: Duration) -> (Reply, Transcript, bool) {
        let (reply, transcript) = self.ask("quit", self.timeout).await;
        let exited = match self.engine.as_mut() {
            Some(engine) => engine.exit_within(wait).await.is_some(),
            None => false,
        };
        self.kill().await;
        (reply, transcript, exited)
    }
}

/// An answer's lines (the empty line excluded) as a reply: the id must be the command's.
fn judge_lines(id: Option<u64>, lines: &[String]) -> Reply {
    match id {
        Some(id) => parse_response(id, lines).map_err(Problem::Id),
        None => {
            let first = &lines[0];
            let success = first.starts_with('=');
            let rest = &first[1..];
            if rest.starts_with(|c: char| c.is_ascii_digit()) {
                return Err(Problem::Id(format!(
                    "a command without an id was answered '{}'",
                    crate::text::shorten_to(first, 80)
                )));
            }
            let mut body = rest.trim_start().to_owned();
            for line in &lines[1..] {
                body.push('\n');
                body.push_str(line);
            }
            Ok(if success { Ok(body) } else { Err(body) })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn answers_are_judged_by_their_id() {
        assert_eq!(
            judge_lines(Some(3), &lines(&["=3 D4"])),
            Ok(Ok("D4".to_owned()))
        );
        assert_eq!(
            judge_lines(Some(3), &lines(&["?3 no"])),
            Ok(Err("no".to_owned()))
        );
        assert!(matches!(
            judge_lines(Some(3), &lines(&["= D4"])),
            Err(Problem::Id(_))
        ));
        assert!(matches!(
            judge_lines(Some(1), &lines(&["=12 D4"])),
            Err(Problem::Id(_))
        ));
        assert_eq!(judge_lines(None, &lines(&["= 2"])), Ok(Ok("2".to_owned())));
        assert!(matches!(
            judge_lines(None, &lines(&["=7 2"])),
            Err(Problem::Id(_))
        ));
        assert_eq!(
            judge_lines(None, &lines(&["= ", "a", "b"])),
            Ok(Ok("\na\nb".to_owned()))
        );
    }

    #[test]
    fn only_id_and_blank_line_problems_are_the_framing_items() {
        assert!(Problem::Id(String::new()).is_framing());
        assert!(Problem::NoBlankLine(Duration::from_secs(1)).is_framing());
        assert!(!Problem::Timeout(Duration::from_secs(1)).is_framing());
        assert!(!Problem::Closed.is_framing());
        assert!(!Problem::Garbage(String::new()).is_framing());
    }
}
