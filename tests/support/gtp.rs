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
