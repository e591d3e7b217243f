//! A teacher outside hamle for `hamle tavla label --teacher gnubg[:PLIES]`: GNU Backgammon's
//! net (PyPI `gnubg-nn`, GPL) judges each harvested position at PLIES (default 2) through a
//! small Python bridge (`teacher.py`, compiled in and run as `python3 -c BRIDGE PLIES`).
//!
//! The labels are gnubg's; the weights fitted to them are ours. A teacher that is missing or
//! answers anything but five probabilities is one error naming it and its install command.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use super::board::{Board, Side};
use super::ids::position_id;
use super::labels::{Labelled, parse_line, write_line};
use super::net::Probs;

/// The bridge, run by the Python interpreter.
const BRIDGE: &str = include_str!("teacher.py");

/// What to do when the teacher fails.
pub const INSTALL: &str = "install it: pip install gnubg-nn";

/// The longest answer line read from the bridge.
const MAX_ANSWER: u64 = 4096;

/// Which teacher labels: gnubg at `plies`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TeacherSpec {
    pub plies: u32,
}

impl std::str::FromStr for TeacherSpec {
    type Err = String;

    /// `gnubg` (2 plies) or `gnubg:PLIES`, PLIES from 0 to 3.
    fn from_str(text: &str) -> Result<TeacherSpec, String> {
        let plies = match text.split_once(':') {
            None if text == "gnubg" => Some(2),
            Some(("gnubg", plies)) => plies.parse().ok().filter(|p| *p <= 3),
            _ => None,
        };
        plies
            .map(|plies| TeacherSpec { plies })
            .ok_or_else(|| format!("unknown teacher '{text}' (gnubg, or gnubg:PLIES with 0 to 3)"))
    }
}

impl std::fmt::Display for TeacherSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "gnubg:{}", self.plies)
    }
}

/// A running teacher: the bridge process and its pipes.
pub struct Teacher {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    python: PathBuf,
}

impl Teacher {
    /// Starts the bridge under `python` and checks it with the start position, so that a
    /// missing or broken teacher fails before anything is written.
    pub fn start(spec: TeacherSpec, python: &Path) -> io::Result<Teacher> {
        let mut child = Command::new(python)
            .arg("-c")
            .arg(BRIDGE)
            .arg(spec.plies.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| failed(python, &format!("{} did not start ({e})", python.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(failed(python, "its pipes could not be opened"));
        };
        let mut teacher = Teacher {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            python: python.to_owned(),
        };
        match teacher.answer()?.as_str() {
            "ready" => {}
            missing if missing.starts_with("missing") => {
                return Err(failed(python, "gnubg-nn is not installed"));
            }
            other => return Err(failed(python, &format!("it said '{other}' at start"))),
        }
        teacher.label(&Board::start(), Side::White)?;
        Ok(teacher)
    }

    /// gnubg's probabilities for `side` on roll in `board`, before its roll.
    pub fn label(&mut self, board: &Board, side: Side) -> io::Result<Probs> {
        let id = position_id(board, side);
        writeln!(self.stdin, "{id}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| failed(&self.python, &format!("it stopped ({e})")))?;
        let answer = self.answer()?;
        let checked = parse_line(&format!("{side} {id} {answer}"));
        checked.map(|labelled| labelled.probs).map_err(|e| {
            failed(
                &self.python,
                &format!("it answered '{answer}' for {id} ({e})"),
            )
        })
    }

    /// The bridge's next line, at most [`MAX_ANSWER`] bytes.
    fn answer(&mut self) -> io::Result<String> {
        let mut line = String::new();
        let read = (&mut self.stdout)
            .take(MAX_ANSWER)
            .read_line(&mut line)
            .map_err(|e| failed(&self.python, &format!("its answer was not text ({e})")))?;
        if read == 0 {
            return Err(failed(&self.python, "it stopped without an answer"));
        }
        Ok(line.trim().to_owned())
    }
}

impl Drop for Teacher {
    fn drop(&mut self) {
        // The bridge ends at the end of its input; a hung one is stopped.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Labels `positions` by `teacher` into `out` (named `path` in errors), flushed every 64
/// lines; `progress` is told the count so far.
pub fn label_into(
    out: &mut impl Write,
    path: &Path,
    positions: &[(Board, Side)],
    teacher: &mut Teacher,
    mut progress: impl FnMut(usize),
) -> io::Result<usize> {
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
    for (done, &(board, side)) in positions.iter().enumerate() {
        let probs = teacher.label(&board, side)?;
        write_line(out, &Labelled { board, side, probs }).map_err(named)?;
        if (done + 1) % 64 == 0 {
            out.flush().map_err(named)?;
            progress(done + 1);
        }
    }
    out.flush().map_err(named)?;
    Ok(positions.len())
}

/// One error naming the teacher and how to install it.
fn failed(python: &Path, what: &str) -> io::Error {
    io::Error::other(format!(
        "teacher gnubg (PyPI gnubg-nn, run by {}) failed: {what}; {INSTALL}",
        python.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_teacher_is_gnubg_with_its_plies() {
        assert_eq!("gnubg".parse(), Ok(TeacherSpec { plies: 2 }));
        assert_eq!("gnubg:0".parse(), Ok(TeacherSpec { plies: 0 }));
        for bad in ["gnubg:4", "gnubg:", "wildbg", "gnubg:x"] {
            assert!(bad.parse::<TeacherSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_missing_interpreter_is_named_with_the_install_command() {
        let missing = Path::new("/nonexistent/python3");
        let error = Teacher::start(TeacherSpec { plies: 0 }, missing)
            .err()
            .expect("no teacher");
        let text = error.to_string();
        assert!(text.contains("teacher gnubg (PyPI gnubg-nn"), "{text}");
        assert!(text.ends_with("pip install gnubg-nn"), "{text}");
    }
}
