//! The arena's GTP controller: one engine process on pipes, every read under a timeout,
//! every response's framing checked.
//!
//! [`EngineProcess`] is async (tokio) so that a match runs many engines on few threads;
//! [`BlockingEngine`] drives the same code on a runtime of its own for callers that are not
//! async (`hamle regress`, tests).
//!
//! Each engine runs in a process group of its own, and the whole group is killed when the
//! arena gives up on the engine or is done with it: a bot started through a wrapper script
//! leaves no engine behind. Its stderr is drained into its log by a task of its own, at
//! most [`MAX_LOG_BYTES_PER_RUN`] of it (then a note), so that a chatty engine neither
//! fills the disk nor blocks on a full pipe.

use std::fmt;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal, kill_process_group};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command};
use tokio::task::JoinHandle;

/// The longest response line accepted; an engine sending more is talking garbage.
pub const MAX_RESPONSE_LINE: u64 = 1 << 20;
/// The most lines one response may hold.
pub const MAX_RESPONSE_LINES: usize = 10_000;
/// How long `quit` may take before the process is killed.
const QUIT_GRACE: Duration = Duration::from_secs(2);
/// The most of an engine's stderr one run of it (one process: a game, the games of an
/// engine kept between games, or one `.tst` file of `hamle regress`) appends to its log;
/// the rest is read and discarded, after a note.
pub const MAX_LOG_BYTES_PER_RUN: u64 = 1 << 20;

/// What to start: a program and its arguments (never through a shell), where, and where
/// its stderr goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// What the engine is called in messages.
    pub label: String,
    pub program: PathBuf,
    pub args: Vec<String>,
    pub working_dir: Option<PathBuf>,
    /// Appended to (at most [`MAX_LOG_BYTES_PER_RUN`] a run); `None` discards the
    /// engine's stderr.
    pub stderr_log: Option<PathBuf>,
    /// `--log-protocol`: every line to and from the engine is appended here
    /// ([`ProtocolLog`]); `None` keeps no such log.
    pub protocol_log: Option<PathBuf>,
}

impl Launch {
    pub fn new(label: &str, program: impl Into<PathBuf>, args: Vec<String>) -> Launch {
        Launch {
            label: label.to_owned(),
            program: program.into(),
            args,
            working_dir: None,
            stderr_log: None,
            protocol_log: None,
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
    /// A command told ahead ([`EngineProcess::tell`]) was answered with `?`.
    Refused {
        label: String,
        command: String,
        message: String,
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
            EngineError::Refused { .. } => "rejected",
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
            EngineError::Refused {
                label,
                command,
                message,
            } => write!(f, "{label}: refused '{command}': {message}"),
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
    /// Commands told ahead ([`EngineProcess::tell`]) with their ids: written with the next
    /// command, their answers read before its own.
    told: Vec<(u64, String)>,
    reaped: bool,
    /// The engine's process group (its own pid: it leads the group).
    group: Option<Pid>,
    /// The task copying stderr into the log; it ends when every process of the group
    /// has closed stderr.
    stderr_drain: Option<JoinHandle<()>>,
    /// `--log-protocol`: the conversation, timed from `started`.
    protocol: Option<ProtocolLog>,
    started: Instant,
}

impl EngineProcess {
    /// Starts the engine in a process group of its own; the group is killed if this value
    /// is dropped without [`shutdown`]. Needs a tokio runtime (the stderr task runs on it).
    ///
    /// [`shutdown`]: EngineProcess::shutdown
    pub fn spawn(launch: &Launch) -> Result<EngineProcess, EngineError> {
        let spawn_error = |source: std::io::Error| EngineError::Spawn {
            label: launch.label.clone(),
            command: launch.display_command(),
            source,
        };
        let log = match &launch.stderr_log {
            Some(path) => Some(open_log(path).map_err(spawn_error)?),
            None => None,
        };
        // A log that cannot be opened costs the log, not the engine's game.
        let protocol = launch.protocol_log.as_deref().and_then(|path| {
            ProtocolLog::open(path, &launch.label)
                .map_err(|error| tracing::warn!("--log-protocol: {}: {error}", path.display()))
                .ok()
        });
        let started = Instant::now();
        let mut command = match super::reaper::supervised(&launch.program, &launch.args) {
            Some((shim, words)) => {
                // The supervisor starts the program itself: one it could not find is
                // still refused here, as a program that cannot be started.
                find_program(&launch.program, launch.working_dir.as_deref())
                    .map_err(spawn_error)?;
                let mut command = Command::new(shim);
                command.args(words);
                command
            }
            None => {
                let mut command = Command::new(&launch.program);
                command.args(&launch.args);
                command
            }
        };
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            // Its own group: what a wrapper script starts can be ended with it.
            .process_group(0)
            .kill_on_drop(true);
        if let Some(dir) = &launch.working_dir {
            command.current_dir(dir);
        }
        // From the first engine on, Ctrl-C and SIGTERM end every engine group (they no
        // longer reach the engines themselves, in their own groups).
        super::interrupt::guard();
        let mut child = command.spawn().map_err(spawn_error)?;
        let group = child
            .id()
            .and_then(|id| i32::try_from(id).ok())
            .and_then(Pid::from_raw);
        let stderr_drain = match (log, child.stderr.take()) {
            (Some(log), Some(stderr)) => Some(tokio::spawn(drain_stderr(
                stderr,
                log,
                launch.label.clone(),
                MAX_LOG_BYTES_PER_RUN,
            ))),
            _ => None,
        };
        if let Some(group) = group {
            super::interrupt::remember(group);
        }
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            if let Some(group) = group {
                let _ = kill_process_group(group, Signal::KILL);
            }
            return Err(spawn_error(std::io::Error::other("pipes not created")));
        };
        Ok(EngineProcess {
            label: launch.label.clone(),
            child,
            stdin,
            stdout: BufReader::new(stdout),
            next_id: 1,
            told: Vec::new(),
            reaped: false,
            group,
            stderr_drain,
            protocol,
            started,
        })
    }

    pub fn label(&self) -> &str {
        &self.label
    }

    /// From now on the conversation goes to the protocol log at `path` (appended to), or
    /// to none: a kept engine's next game has a log of its own. Its times still count
    /// from the engine's start.
    pub fn log_protocol_to(&mut self, path: Option<&Path>) -> std::io::Result<()> {
        self.protocol = match path {
            Some(path) => Some(ProtocolLog::open(path, &self.label)?),
            None => None,
        };
        Ok(())
    }

    /// Queues `command` (a move the engine is told, whose answer nothing waits on) to be
    /// written in the same write as the next command sent. The engine then reads both at
    /// one wake-up and the arena reads both answers at one or two: relaying a move costs
    /// the engine and the arena about half the thread switches of a round trip of its own,
    /// which is most of what a game between fast engines costs. A `?` answer to it ends
    /// the next [`send`](EngineProcess::send) as [`EngineError::Refused`].
    pub fn tell(&mut self, command: &str) {
        let id = self.next_id;
        self.next_id += 1;
        self.told.push((id, command.to_owned()));
    }

    /// Writes what was told ahead, if anything, and reads its answers, within `timeout`.
    pub async fn flush_told(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if self.told.is_empty() {
            return Ok(());
        }
        let told = std::mem::take(&mut self.told);
        let mut text = String::new();
        for (id, command) in &told {
            let _ = writeln!(text, "{id} {command}");
        }
        let Some((_, last)) = told.last() else {
            return Ok(());
        };
        self.write_lines(&text, last).await?;
        match tokio::time::timeout(timeout, self.read_told(&told)).await {
            Ok(result) => result,
            Err(_) => Err(EngineError::Timeout {
                label: self.label.clone(),
                command: last.clone(),
                after: timeout,
            }),
        }
    }

    /// Sends `command` with a fresh id (after what was told ahead, in one write) and waits
    /// at most `timeout` for its whole response (and the told commands' before it).
    pub async fn send(&mut self, command: &str, timeout: Duration) -> Result<Answer, EngineError> {
        let id = self.next_id;
        self.next_id += 1;
        let told = std::mem::take(&mut self.told);
        let mut text = String::new();
        for (told_id, told_command) in &told {
            let _ = writeln!(text, "{told_id} {told_command}");
        }
        let _ = writeln!(text, "{id} {command}");
        self.write_lines(&text, command).await?;
        let exchange = async {
            self.read_told(&told).await?;
            self.read_response(id, command).await
        };
        match tokio::time::timeout(timeout, exchange).await {
            Ok(result) => result,
            Err(_) => Err(EngineError::Timeout {
                label: self.label.clone(),
                command: command.to_owned(),
                after: timeout,
            }),
        }
    }

    /// Writes `text` (whole command lines) to the engine; `command` names it in an error.
    async fn write_lines(&mut self, text: &str, command: &str) -> Result<(), EngineError> {
        let io_error = |source| EngineError::Io {
            label: self.label.clone(),
            command: command.to_owned(),
            source,
        };
        for line in text.lines() {
            log_line(&mut self.protocol, self.started, '>', line);
        }
        if let Err(source) = self.stdin.write_all(text.as_bytes()).await {
            return Err(io_error(source));
        }
        if let Err(source) = self.stdin.flush().await {
            return Err(io_error(source));
        }
        Ok(())
    }

    /// The answers to `told`, in order; the first `?` is an error.
    async fn read_told(&mut self, told: &[(u64, String)]) -> Result<(), EngineError> {
        for (id, command) in told {
            if let Err(message) = self.read_response(*id, command).await? {
                return Err(EngineError::Refused {
                    label: self.label.clone(),
                    command: command.clone(),
                    message,
                });
            }
        }
        Ok(())
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
            // GTP's whitespace (a tab after the id) is a space; any other control
            // character is shown escaped from here on (in the move the referee judges, an
            // error's reason, the terminal, every file), so a bot's ESC or CR reaches
            // neither a terminal nor a line of a file raw.
            let text = text.trim_end_matches(['\n', '\r']).replace('\t', " ");
            let text = crate::text::printable(&text).into_owned();
            log_line(&mut self.protocol, self.started, '<', &text);
            if text.is_empty() {
                if lines.is_empty() {
                    continue;
                }
                return parse_response(id, &lines).map_err(garbage);
            }
            if lines.is_empty() && !(text.starts_with('=') || text.starts_with('?')) {
                return Err(garbage(format!(
                    "expected '={id}' or '?{id}', got '{}'",
                    crate::text::shorten_to(&text, 80)
                )));
            }
            if lines.len() >= MAX_RESPONSE_LINES {
                return Err(garbage(format!("more than {MAX_RESPONSE_LINES} lines")));
            }
            lines.push(text);
        }
    }

    /// For `hamle check`, which judges the framing itself: writes `text` (whole lines) as
    /// it is, nothing told ahead and no id added.
    pub async fn write_raw(&mut self, text: &str) -> Result<(), EngineError> {
        self.write_lines(text, text.trim_end()).await
    }

    /// For `hamle check`: the next line the engine writes, its line end trimmed and control
    /// characters shown escaped as every answer is; `None` once it closed its output. A
    /// line is cut at [`MAX_RESPONSE_LINE`] bytes. Bytes of a line cut short by a timeout
    /// around this call are lost: the caller gives up on the engine then.
    pub async fn read_raw_line(&mut self) -> std::io::Result<Option<String>> {
        let mut bytes = Vec::new();
        let read = (&mut self.stdout)
            .take(MAX_RESPONSE_LINE)
            .read_until(b'\n', &mut bytes)
            .await?;
        if read == 0 {
            return Ok(None);
        }
        let text = String::from_utf8_lossy(&bytes);
        let text = text.trim_end_matches(['\n', '\r']);
        log_line(&mut self.protocol, self.started, '<', text);
        let text = text.replace('\t', " ");
        Ok(Some(crate::text::printable(&text).into_owned()))
    }

    /// For `hamle check`: how the process ended if it exits within `wait` (it is then
    /// reaped; [`EngineProcess::kill`] still ends what it left in its group).
    pub async fn exit_within(&mut self, wait: Duration) -> Option<ExitStatus> {
        tokio::time::timeout(wait, self.child.wait())
            .await
            .ok()
            .and_then(Result::ok)
    }

    /// Says `quit`, waits briefly for the process to exit, kills its group if it does not,
    /// and reaps it; then ends whatever it left running in its group. Returns how it ended.
    pub async fn shutdown(mut self) -> Option<ExitStatus> {
        let _ = self.send("quit", QUIT_GRACE).await;
        let status = self.reap().await;
        // Children it started and left behind (a wrapper's engine). The group's number is
        // still held by them if any remain, and was free an instant ago otherwise: pids are
        // handed out in turn, so it has not been given to another process since.
        self.kill_group();
        self.forget_group();
        self.finish_log().await;
        status
    }

    /// Kills the process and its whole group at once and reaps it.
    pub async fn kill(mut self) -> Option<ExitStatus> {
        // Before reaping: the unreaped process keeps the group's number from being reused.
        self.kill_group();
        let _ = self.child.start_kill();
        let status = self.reap().await;
        self.forget_group();
        self.finish_log().await;
        status
    }

    /// The group was ended: a signal to the arena has nothing more to kill for it.
    fn forget_group(&self) {
        if let Some(group) = self.group {
            super::interrupt::forget(group);
        }
    }

    fn kill_group(&self) {
        if let Some(group) = self.group {
            // No such group (all gone already) is the usual case after a clean quit.
            let _ = kill_process_group(group, Signal::KILL);
            // What left the group (setsid) is still in the engine's cgroup, where there is
            // one (the supervisor leads the group, so its pid names the cgroup).
            super::cgroup::kill_engine(group.as_raw_nonzero().get());
        }
    }

    async fn reap(&mut self) -> Option<ExitStatus> {
        let status = match tokio::time::timeout(QUIT_GRACE, self.child.wait()).await {
            Ok(status) => status.ok(),
            Err(_) => {
                self.kill_group();
                let _ = self.child.start_kill();
                self.child.wait().await.ok()
            }
        };
        self.reaped = true;
        status
    }

    /// Waits (briefly) for the stderr task to copy what the group wrote last, so that
    /// the log is complete when the game's result is saved.
    async fn finish_log(&mut self) {
        if let Some(drain) = self.stderr_drain.take() {
            // A process that left the group (setsid) may hold stderr open: then the task
            // goes on by itself and this does not wait for it.
            let _ = tokio::time::timeout(QUIT_GRACE, drain).await;
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !self.reaped {
            // Not reaped yet, so the group's number is still this engine's; kill_on_drop
            // kills the process too, and tokio's orphan queue reaps it.
            self.kill_group();
            let _ = self.child.start_kill();
        }
        self.forget_group();
    }
}

/// Copies an engine's stderr into its log, at most `cap` bytes, then a note; what comes
/// after is read and dropped, so the engine never blocks on a full pipe. A log that cannot
/// be written is given up, the reading goes on.
async fn drain_stderr(mut stderr: ChildStderr, mut log: std::fs::File, label: String, cap: u64) {
    use std::io::Write;
    let mut buffer = vec![0u8; 8192];
    let mut written: u64 = 0;
    let mut last_byte = b'\n';
    let mut noted = false;
    let mut writable = true;
    loop {
        let read = match stderr.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        let room = usize::try_from(cap.saturating_sub(written)).unwrap_or(usize::MAX);
        let kept = read.min(room);
        // Small writes to a local file: done in place rather than on a blocking thread.
        if writable && kept > 0 {
            writable = log.write_all(&log_bytes(&buffer[..kept])).is_ok();
            written += kept as u64;
            last_byte = buffer[kept - 1];
        }
        if writable && kept < read && !noted {
            noted = true;
            let newline = if last_byte == b'\n' { "" } else { "\n" };
            let note = format!(
                "{newline}[hamle: {label} wrote more than {cap} bytes to stderr in this run; the rest is discarded]\n"
            );
            writable = log.write_all(note.as_bytes()).is_ok();
        }
    }
}

/// Whether `program` can be started: a path (relative to `dir` when given) to an executable
/// file, or a name found on `PATH`; else the error starting it would give.
fn find_program(program: &Path, dir: Option<&Path>) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    let found = if program.components().count() > 1 || program.is_absolute() {
        let path = match dir {
            Some(dir) if program.is_relative() => dir.join(program),
            _ => program.to_owned(),
        };
        if path.exists() && !executable(&path) {
            // EACCES, as exec would answer.
            return Err(std::io::Error::from_raw_os_error(13));
        }
        executable(&path)
    } else {
        std::env::var_os("PATH").is_some_and(|paths| {
            std::env::split_paths(&paths).any(|folder| executable(&folder.join(program)))
        })
    };
    if found {
        Ok(())
    } else {
        // ENOENT, as exec would answer.
        Err(std::io::Error::from_raw_os_error(2))
    }
}

/// An engine's stderr as its log keeps it: lines and tabs as they were, every other ASCII
/// control character (an ESC, a CR, a NUL) shown escaped as `\x1b`, so that showing the log
/// in a terminal shows what the engine wrote and does nothing else. (Bytes, not text: a
/// read may end inside a character.)
fn log_bytes(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let raw = |b: &u8| b.is_ascii_control() && *b != b'\n' && *b != b'\t';
    if !bytes.iter().any(raw) {
        return std::borrow::Cow::Borrowed(bytes);
    }
    let mut kept = Vec::with_capacity(bytes.len() + 16);
    for b in bytes {
        if raw(b) {
            kept.extend_from_slice(format!("\\x{b:02x}").as_bytes());
        } else {
            kept.push(*b);
        }
    }
    std::borrow::Cow::Owned(kept)
}

/// `--log-protocol`: one engine's conversation, a line a line as it went: the seconds
/// since the engine started (so that the lines of one engine compare, and the time an
/// answer took shows), `>` for what hamle sent or `<` for what it read, and the line as
/// read, control characters escaped ([`crate::text::printable`]). Appended to, at most
/// [`MAX_LOG_BYTES_PER_RUN`] each time it is opened (then a note), so that a flooding
/// engine fills no disk; a log that cannot be written is given up, the game goes on.
pub struct ProtocolLog {
    file: Option<std::fs::File>,
    written: u64,
    label: String,
}

impl ProtocolLog {
    /// Opens (creating it and its folder) the log at `path` for the engine `label`.
    pub fn open(path: &Path, label: &str) -> std::io::Result<ProtocolLog> {
        let mut log = ProtocolLog {
            file: Some(open_log(path)?),
            written: 0,
            label: label.to_owned(),
        };
        log.write(&format!(
            "# {label}: seconds since the engine started, > sent to it, < read from it\n"
        ));
        Ok(log)
    }

    /// Appends one line, `elapsed` after the engine's start.
    pub fn line(&mut self, elapsed: Duration, direction: char, line: &str) {
        let line = crate::text::printable(line);
        let text = format!("{:10.6} {direction} {line}\n", elapsed.as_secs_f64());
        if self.written + text.len() as u64 <= MAX_LOG_BYTES_PER_RUN {
            self.write(&text);
            return;
        }
        let note = format!(
            "[hamle: the conversation with {} went past {MAX_LOG_BYTES_PER_RUN} bytes; the rest is not logged]\n",
            self.label
        );
        self.write(&note);
        self.file = None;
    }

    fn write(&mut self, text: &str) {
        use std::io::Write;
        if let Some(file) = &mut self.file {
            if file.write_all(text.as_bytes()).is_ok() {
                self.written += text.len() as u64;
            } else {
                self.file = None;
            }
        }
    }
}

/// One line to (`>`) or from (`<`) an engine started at `started`, into its protocol log
/// if one is kept.
fn log_line(log: &mut Option<ProtocolLog>, started: Instant, direction: char, line: &str) {
    if let Some(log) = log {
        log.line(started.elapsed(), direction, line);
    }
}

fn open_log(path: &Path) -> std::io::Result<std::fs::File> {
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    Ok(crate::files::open_to_append(path)?)
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
    fn a_protocol_log_is_timed_escaped_and_capped() {
        let dir = std::env::temp_dir().join(format!("hamle-protocol-log-{}", std::process::id()));
        let path = dir.join("a.log");
        let mut log = ProtocolLog::open(&path, "bot").expect("opens");
        log.line(Duration::from_millis(1500), '<', "=1 \u{1b}[31mred");
        let line = "x".repeat(1000);
        for _ in 0..2000 {
            log.line(Duration::from_secs(2), '>', &line);
        }
        drop(log);
        let text = std::fs::read_to_string(&path).expect("reads");
        let mut lines = text.lines().skip(1);
        assert_eq!(lines.next(), Some("  1.500000 < =1 \\x1b[31mred"));
        assert!(
            text.len() as u64 <= MAX_LOG_BYTES_PER_RUN + 200,
            "{}",
            text.len()
        );
        assert!(text.ends_with("went past 1048576 bytes; the rest is not logged]\n"));
        let _ = std::fs::remove_dir_all(&dir);
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
