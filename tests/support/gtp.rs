//! A `hamle` engine process driven over its pipes as a GTP controller drives it: lines
//! sent one at a time, stdout read by a thread of its own so that every read can have a
//! deadline (a hung engine fails its test instead of hanging the suite).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::Duration;

pub struct GtpChild {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl GtpChild {
    /// Starts `hamle ARGS` with piped stdin and stdout (stderr dropped).
    pub fn start(args: &[&str]) -> GtpChild {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hamle"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start hamle");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        GtpChild {
            child,
            stdin,
            lines,
        }
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// The next line of output, within `patience`.
    pub fn line(&self, patience: Duration) -> String {
        self.lines
            .recv_timeout(patience)
            .unwrap_or_else(|_| panic!("no line within {patience:?}"))
    }

    /// The lines up to the empty line that ends a response.
    pub fn response(&self, patience: Duration) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.line(patience);
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Sends `command` and reads its answer: `Ok(body)` for `= …`, `Err(answer)` else.
    pub fn ask(&mut self, command: &str, patience: Duration) -> Result<String, String> {
        self.send(command);
        let answer = self.response(patience).join("\n");
        match answer.strip_prefix("= ") {
            Some(body) => Ok(body.to_owned()),
            None if answer == "=" => Ok(String::new()),
            None => Err(answer),
        }
    }

    /// Writes every line of `lines` (each ending in a newline) at once, and reads as many
    /// answers, each joined into one string. The answers are read by their own thread, so
    /// the engine never waits on its output while this writes.
    pub fn flood(&mut self, lines: &str, patience: Duration) -> Vec<String> {
        self.stdin.write_all(lines.as_bytes()).expect("write");
        self.stdin.flush().expect("flush");
        (0..lines.lines().count())
            .map(|_| self.response(patience).join("\n"))
            .collect()
    }

    /// The most memory the process has held (`VmHWM`), where `/proc` shows it.
    pub fn peak_memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }

    /// Says `quit` and waits for the process to end.
    pub fn quit(mut self) {
        self.send("quit");
        let _ = self.child.wait();
    }
}

impl Drop for GtpChild {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
