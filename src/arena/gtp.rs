//! The arena's GTP controller: one engine process on pipes, every read under a timeout,
//! every response's framing checked.
//!
//! [`EngineProcess`] is async (tokio) so that a match runs many engines on few threads;
//! [`BlockingEngine`] drives the same code on a runtime of its own for callers that are not
//! async (`hamle regress`, tests).

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The longest response line accepted; an engine sending more is talking garbage.
pub const MAX_RESPONSE_LINE: u64 = 1 << 20;
/// The most lines one response may hold.
pub const MAX_RESPONSE_LINES: usize = 10_000;
/// How long `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);

/// What to start: a program and its arguments (never through a shell), where, and where
/// its stderr goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// What the engine is called in messages.
    pub label: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub working_dir: Option<PathBuf>,
    /// Appended to; `None` discards the engine's stderr.
    pub stderr_log: Option<PathBuf>,
}

impl Launch {
    pub fn new(label: &str, program: impl Into<PathBuf>, args: Vec<String>) -> Launch {
        Launch {
            label: label.to_owned(),
            program: program.into(),
            args,
            working_dir: None,
            stderr_log: None,
        }
    }

    /// The command line as a person would type it, for messages.
    pub fn display_command(&self) -> String {
        let mut words = vec![self.program.display().to_string()];
        words.extend(self.args.iter().cloned());
        words.join(" ")
    }
}

/// Why a conversation with an engine broke down. Each names the engine and the command.
#[derive(Debug)]
pub enum EngineError {
    /// The process could not be started.
    Spawn {
        label: String,
        command: String,
        source: std::io::Error,
    },
    /// No complete response within the time allowed.
    Timeout {
        label: String,
        command: String,
        after: Duration,
    },
    /// The engine closed its output (exited or crashed) before answering.
    Closed {
        label: String,
        command: String,
        status: Option<ExitStatus>,
    },
    /// The response was not GTP: no `=`/`?` with the right id, a line too long, too many lines.
    Garbage {
        label: String,
        command: String,
        detail: String,
    },
    /// Writing the command failed (the engine has gone).
    Io {
        label: String,
        command: String,
        source: std::io::Error,
    },
}

impl EngineError {
    /// A one-word kind for result files: `spawn`, `timeout`, `crash`, `garbage`, `io`.
    pub fn kind(&self) -> &'static str {
        match self {
            EngineError::Spawn { .. } => "spawn",
            EngineError::Timeout { .. } => "timeout",
            EngineError::Closed { .. } => "crash",
            EngineError::Garbage { .. } => "garbage",
            EngineError::Io { .. } => "crash",
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn {
                label,
                command,
                source,
            } => write!(f, "{label}: cannot start `{command}`: {source}"),
            EngineError::Timeout {
                label,
                command,
                after,
            } => write!(
                f,
                "{label}: no answer to '{command}' within {:.1} s",
                after.as_secs_f64()
            ),
            EngineError::Closed {
                label,
                command,
                status,
            } => match status {
                Some(status) => {
                    write!(f, "{label}: exited ({status}) before answering '{command}'")
                }
                None => write!(f, "{label}: closed its output before answering '{command}'"),
            },
            EngineError::Garbage {
                label,
                command,
                detail,
            } => write!(f, "{label}: not a GTP response to '{command}': {detail}"),
            EngineError::Io {
                label,
                command,
                source,
            } => write!(f, "{label}: cannot send '{command}': {source}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// A well-framed answer: `Ok(body)` for `=`, `Err(message)` for `?`.
pub type Answer = Result<String, String>;

/// Reads one response for command `id` from its lines (the terminating empty line
/// excluded). Empty lines before a response are skipped by the caller.
pub fn parse_response(id: u64, lines: &[String]) -> Result<Answer, String> {
    let Some(first) = lines.first() else {
        return Err("empty response".to_owned());
    };
    let ok_prefix = format!("={id}");
    let err_prefix = format!("?{id}");
    let (success, rest) = if let Some(rest) = first.strip_prefix(&ok_prefix) {
        (true, rest)
    } else if let Some(rest) = first.strip_prefix(&err_prefix) {
        (false, rest)
    } else {
        return Err(format!(
            "expected a line starting '={id}' or '?{id}', got '{}'",
            crate::text::shorten_to(first, 80)
        ));
    };
    // `=12` must not be taken for `=1` followed by `2`.
    if !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return Err(format!(
            "wrong id in '{}'",
            crate::text::shorten_to(first, 80)
        ));
    }
    let mut body = rest.trim_start_matches([' ', '\t']).to_owned();
    for line in &lines[1..] {
        body.push('\n');
        body.push_str(line);
    }
    Ok(if success { Ok(body) } else { Err(body) })
}

/// One running engine.
pub struct EngineProcess {
    label: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    reaped: bool,
}

impl EngineProcess {
    /// Starts the engine; it is killed if this value is dropped without [`shutdown`].
    ///
    /// [`shutdown`]: EngineProcess::shutdown
    pub fn spawn(launch: &Launch) -> Result<EngineProcess, EngineError> {
        let spawn_error = |source: std::io::Error| EngineError::Spawn {
            label: launch.label.clone(),
            command: launch.display_command(),
            source,
        };
        let stderr = match &launch.stderr_log {
            Some(path) => Stdio::from(open_log(path).map_err(spawn_error)?),
            None => Stdio::null(),
        };
        let mut command = Command::new(&launch.program);
        command
            .args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .kill_on_drop(true);
        if let Some(dir) = &launch.working_dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().map_err(spawn_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(spawn_error(std::io::Error::other("pipes not created")));
        };
        Ok(EngineProcess {
            label: launch.label.clone(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            next_id: 1,
            reaped: false,
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// Sends `command` with a fresh id and waits at most `timeout` for its whole response.
    pub async fn send(&mut self, command: &str, timeout: Duration) -> Result<Answer, EngineError> {
        let id = self.next_id;
        self.next_id += 1;
        let line = format!("{id} {command}\n");
        let io_error = |source| EngineError::Io {
            label: self.label.clone(),
            command: command.to_owned(),
            source,
        };
        if let Err(source) = self.stdin.write_all(line.as_bytes()).await {
            return Err(io_error(source));
        }
        if let Err(source) = self.stdin.flush().await {
            return Err(io_error(source));
        }
        match tokio::time::timeout(timeout, self.read_response(id, command)).await {
            Ok(result) => result,
            Err(_) => Err(EngineError::Timeout {
                label: self.label.clone(),
                command: command.to_owned(),
                after: timeout,
            }),
        }
    }

    async fn read_response(&mut self, id: u64, command: &str) -> Result<Answer, EngineError> {
        let mut lines: Vec<String> = Vec::new();
        loop {
            let mut bytes = Vec::new();
            let read = (&mut self.stdout)
                .take(MAX_RESPONSE_LINE)
                .read_until(b'\n', &mut bytes)
                .await;
            let garbage = |detail: String| EngineError::Garbage {
                label: self.label.clone(),
                command: command.to_owned(),
                detail,
            };
            match read {
                Ok(0) => {
                    let status = self.child.try_wait().ok().flatten();
                    return Err(EngineError::Closed {
                        label: self.label.clone(),
                        command: command.to_owned(),
                        status,
                    });
                }
                Ok(_)
                    if bytes.last() != Some(&b'\n') && bytes.len() as u64 >= MAX_RESPONSE_LINE =>
                {
                    return Err(garbage(format!(
                        "a line longer than {MAX_RESPONSE_LINE} bytes"
                    )));
                }
                Ok(_) => {}
                Err(source) => {
                    return Err(EngineError::Io {
                        label: self.label.clone(),
                        command: command.to_owned(),
                        source,
                    });
                }
            }
            let text = String::from_utf8_lossy(&bytes);
            let text = text.trim_end_matches(['\n', '\r']);
            if text.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                return parse_response(id, &lines).map_err(garbage);
            }
            if lines.is_empty() && !(text.starts_with('=') || text.starts_with('?')) {
                return Err(garbage(format!(
                    "expected '={id}' or '?{id}', got '{}'",
                    crate::text::shorten_to(text, 80)
                )));
            }
            if lines.len() >= MAX_RESPONSE_LINES {
                return Err(garbage(format!("more than {MAX_RESPONSE_LINES} lines")));
            }
            lines.push(text.to_owned());
        }
    }

    /// Says `quit`, waits briefly for the process to exit, kills it if it does not, and
    /// reaps it. Returns how it ended.
    pub async fn shutdown(mut self) -> Option<ExitStatus> {
        let _ = self.send("quit", QUIT_GRACE).await;
        self.reap().await
    }

    /// Kills the process at once and reaps it.
    pub async fn kill(mut self) -> Option<ExitStatus> {
        let _ = self.child.start_kill();
        self.reap().await
    }

    async fn reap(&mut self) -> Option<ExitStatus> {
        let status = match tokio::time::timeout(QUIT_GRACE, self.child.wait()).await {
            Ok(status) => status.ok(),
            Err(_) => {
                let _ = self.child.start_kill();
                self.child.wait().await.ok()
            }
        };
        self.reaped = true;
        status
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.reaped {
            // kill_on_drop kills it; tokio's orphan queue reaps it.
            let _ = self.child.start_kill();
        }
    }
}

fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
}

/// [`EngineProcess`] for callers without a runtime: each call blocks.
pub struct BlockingEngine {
    runtime: tokio::runtime::Runtime,
    engine: Option<EngineProcess>,
    timeout: Duration,
}

impl BlockingEngine {
    /// Starts the engine; `timeout` bounds every read.
    pub fn spawn(launch: &Launch, timeout: Duration) -> Result<BlockingEngine, EngineError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|source| EngineError::Spawn {
                label: launch.label.clone(),
                command: launch.display_command(),
                source,
            })?;
        // Spawning needs the runtime's context for the process driver.
        let engine = {
            let _guard = runtime.enter();
            EngineProcess::spawn(launch)?
        };
        Ok(BlockingEngine {
            runtime,
            engine: Some(engine),
            timeout,
        })
    }

    pub fn label(&self) -> &str {
        self.engine.as_ref().map_or("", |e| e.label())
    }

    pub fn send(&mut self, command: &str) -> Result<Answer, EngineError> {
        let timeout = self.timeout;
        match self.engine.as_mut() {
            Some(engine) => self.runtime.block_on(engine.send(command, timeout)),
            None => Err(EngineError::Closed {
                label: String::new(),
                command: command.to_owned(),
                status: None,
            }),
        }
    }

    /// `quit`, then reap (killing it if it lingers).
    pub fn shutdown(mut self) -> Option<ExitStatus> {
        let engine = self.engine.take()?;
        self.runtime.block_on(engine.shutdown())
    }
}

impl Drop for BlockingEngine {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            self.runtime.block_on(engine.kill());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn responses_are_parsed_with_their_id() {
        assert_eq!(parse_response(3, &lines(&["=3 D4"])), Ok(Ok("D4".into())));
        assert_eq!(parse_response(3, &lines(&["=3"])), Ok(Ok(String::new())));
        assert_eq!(
            parse_response(3, &lines(&["?3 illegal move"])),
            Ok(Err("illegal move".into()))
        );
        assert_eq!(
            parse_response(1, &lines(&["= ", "A B", "C"])).ok(),
            None,
            "an id-less answer to an id'd command is garbage"
        );
        assert_eq!(
            parse_response(2, &lines(&["=2 ", "A B", "C"])),
            Ok(Ok("\nA B\nC".into()))
        );
        assert!(parse_response(1, &lines(&["=12 D4"])).is_err());
        assert!(parse_response(1, &lines(&["hello"])).is_err());
    }
}
