//! One engine process driven over its stdin and stdout the way a GTP controller does: a
//! line goes in, one framed answer (`= body` or `? message`, ended by an empty line) comes
//! back. Every read has a deadline, and a malformed frame, a hang or a crash fails the test
//! with the engine's stderr, so that a broken engine is reported, not waited for.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use crate::games::Game;

/// Far longer than any answer at the tiny budgets of the table; short enough that a hung
/// engine fails the test instead of stalling the run.
const PATIENCE: Duration = Duration::from_secs(30);

/// An answer: `Ok(body)` for `=`, `Err(message)` for `?`.
pub type Answer = Result<String, String>;

pub struct Engine {
    label: &'static str,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Vec<u8>>,
    stderr: Arc<Mutex<Vec<u8>>>,
}

impl Engine {
    /// Starts `hamle` with the game's arguments.
    pub fn start(game: &Game) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hamle"))
            .args(game.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: cannot start hamle: {e}", game.name));
        let stdin = child.stdin.take();
        let mut stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        let (sender, lines) = channel();
        // A thread reads, so that a read can time out; the channel closes at end of output.
        thread::spawn(move || {
            loop {
                let mut line = Vec::new();
                match stdout.read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        if sender.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        // stderr is kept (the engines log refused moves there) for failure messages.
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let mut pipe = child.stderr.take().expect("piped stderr");
        let sink = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = pipe.read(&mut buffer) {
                sink.lock()
                    .expect("stderr buffer")
                    .extend_from_slice(&buffer[..n]);
            }
        });
        Engine {
            label: game.name,
            child,
            stdin,
            lines,
            stderr,
        }
    }

    /// Sends one command line and reads its answer.
    pub fn send(&mut self, command: &str) -> Answer {
        self.send_bytes(command.as_bytes())
    }

    /// Sends one line of raw bytes (which need not be UTF-8) and reads its answer.
    pub fn send_bytes(&mut self, line: &[u8]) -> Answer {
        let shown = String::from_utf8_lossy(&line[..line.len().min(60)]).into_owned();
        let stdin = self.stdin.as_mut().expect("stdin open until quit");
        if let Err(e) = stdin.write_all(line).and_then(|()| stdin.write_all(b"\n")) {
            self.fail(&format!("cannot send '{shown}': {e}"));
        }
        let first = self.read_line(&shown);
        let (ok, rest) = match first.as_bytes().first() {
            Some(b'=') => (true, &first[1..]),
            Some(b'?') => (false, &first[1..]),
            _ => self.fail(&format!("'{shown}' was answered '{first}', not '=' or '?'")),
        };
        let mut body = rest.strip_prefix(' ').unwrap_or(rest).to_owned();
        loop {
            let line = self.read_line(&shown);
            if line.is_empty() {
                break;
            }
            body.push('\n');
            body.push_str(&line);
        }
        if ok { Ok(body) } else { Err(body) }
    }

    /// Sends a command that must succeed and returns its body.
    pub fn ok(&mut self, command: &str) -> String {
        match self.send(command) {
            Ok(body) => body,
            Err(message) => panic!("{}: '{command}' failed: {message}", self.label),
        }
    }

    /// Sends a command that must be refused and returns its message.
    pub fn refused(&mut self, command: &str) -> String {
        match self.send(command) {
            Ok(body) => panic!("{}: '{command}' was accepted ('{body}')", self.label),
            Err(message) => message,
        }
    }

    /// `quit` is answered, and then the process ends by itself, successfully.
    pub fn quit(mut self) {
        self.ok("quit");
        drop(self.stdin.take());
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    assert!(status.success(), "{}: quit ended with {status}", self.label);
                    return;
                }
                Ok(None) if std::time::Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(10))
                }
                _ => self.fail("still running after quit"),
            }
        }
    }

    /// One line of output without its line end; it must be UTF-8.
    fn read_line(&mut self, shown: &str) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(line) => line.trim_end_matches('\n').to_owned(),
                Err(e) => self.fail(&format!("'{shown}' was answered with bytes not UTF-8: {e}")),
            },
            Err(RecvTimeoutError::Timeout) => self.fail(&format!("no answer to '{shown}'")),
            Err(RecvTimeoutError::Disconnected) => {
                self.fail(&format!("output ended while answering '{shown}'"))
            }
        }
    }

    fn fail(&mut self, what: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let stderr = self.stderr.lock().map(|e| e.clone()).unwrap_or_default();
        let stderr = String::from_utf8_lossy(&stderr);
        let lines: Vec<&str> = stderr.lines().collect();
        let tail = lines[lines.len().saturating_sub(20)..].join("\n");
        panic!("{}: {what}; the end of its stderr:\n{tail}", self.label)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Nothing outlives its test, whether it passed or panicked.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
