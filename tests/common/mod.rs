//! A minimal GTP controller for tests that talk to real engines (hamle, GNU Go) over pipes.
//! It checks the framing of every response it reads.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

pub const GNUGO: &str = "/usr/games/gnugo";

/// Fails the test with an actionable message when GNU Go is missing.
pub fn require_gnugo() {
    assert!(
        std::path::Path::new(GNUGO).exists(),
        "GNU Go is not installed: run `apt-get install -y gnugo` (.ci/run does)"
    );
}

pub struct GtpProcess {
    label: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl GtpProcess {
    pub fn spawn(label: &str, program: &str, args: &[&str]) -> GtpProcess {
        GtpProcess::spawn_in(label, program, args, None)
    }

    pub fn spawn_in(
        label: &str,
        program: &str,
        args: &[&str],
        dir: Option<&std::path::Path>,
    ) -> GtpProcess {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(dir) = dir {
            command.current_dir(dir);
        }
        let mut child = command
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        GtpProcess {
            label: label.to_owned(),
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    /// Sends one command with a fresh id and returns `Ok(body)` or `Err(message)`,
    /// panicking on any framing fault.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        let id = self.next_id;
        self.next_id += 1;
        writeln!(self.stdin, "{id} {command}").expect("write to engine");
        self.stdin.flush().expect("flush to engine");
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read from engine");
            assert!(
                n > 0,
                "{}: end of output while answering '{command}'",
                self.label
            );
            let line = line.trim_end_matches(['\n', '\r']).to_owned();
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        let first = lines.first().cloned().unwrap_or_default();
        let (success, rest) = if let Some(rest) = first.strip_prefix(&format!("={id}")) {
            (true, rest)
        } else if let Some(rest) = first.strip_prefix(&format!("?{id}")) {
            (false, rest)
        } else {
            panic!("{}: bad response to '{command}': {lines:?}", self.label);
        };
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        let mut body = rest.to_owned();
        for line in &lines[1..] {
            body.push('\n');
            body.push_str(line);
        }
        if success { Ok(body) } else { Err(body) }
    }

    /// Sends a command that must succeed.
    pub fn ok(&mut self, command: &str) -> String {
        match self.send(command) {
            Ok(body) => body,
            Err(message) => panic!("{}: '{command}' failed: {message}", self.label),
        }
    }

    pub fn quit(mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

impl Drop for GtpProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
