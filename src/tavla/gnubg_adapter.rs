//! `hamle tavla --gnubg`: our GTP engine with gnubg's decisions, so the arena can play
//! GNU Backgammon (which speaks no GTP).
//!
//! Our [`TavlaEngine`] keeps the match (every command works as usual); `genmove` and
//! `genmove_cube` ask a gnubg child process (`gnubg -t -q`, both players human) instead of
//! our player: `set matchid MATCH_ID`, `set board POSITION_ID` (our `get_position`, gnubg's
//! IDs byte for byte), `hint`, and read its first move (`1. Cubeful 0-ply  8/5 6/5  Eq.: …`)
//! or its `Proper cube action: …` line. A forced play (one legal play, or none) is made
//! without asking. Each exchange ends with a command whose stdout echo marks the end of the
//! answer (`set evaluation cubedecision evaluation plies N` prints "`eval' and `hint' cube
//! decisions will use N ply evaluation."), so no read waits on a guess. A gnubg that hangs
//! must not hang the engine: its output is read on a thread, and each exchange (the
//! start-up one too) waits at most [`GnubgSettings::timeout`] for the marker.

use std::io::{self, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command as Process, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use super::board::Side;
use super::command::{TAVLA_COMMANDS, TavlaCommand};
use super::engine::{Settings, TavlaEngine};
use super::game::{Game, Phase};
use super::ids::{match_id, position_id};
use super::notation::{format_play, parse_play};
use crate::protocol::{Command, Engine, GtpError, LineReader, RawLine, Session};

/// The line gnubg prints for the end-of-answer marker.
const MARKER: &str = "cube decisions will use";

/// Where Debian puts gnubg, tried when `gnubg` is not on PATH.
pub const DEBIAN_GNUBG: &str = "/usr/games/gnubg";

/// How long gnubg may take over one answer unless told otherwise: far more than a 4-ply
/// `hint` takes, so that only a gnubg that hangs runs into it.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(120);

/// The longest line of gnubg's kept (a board drawing is under 100 bytes); the rest of a
/// longer one is dropped.
const GNUBG_LINE_BYTES: usize = 64 * 1024;

/// The most lines of one answer kept (a `hint` prints a few dozen), and the most lines the
/// reader thread reads ahead.
const MAX_ANSWER_LINES: usize = 4096;

/// Where gnubg is, how deep it looks and how long it may take.
#[derive(Clone, Debug)]
pub struct GnubgSettings {
    pub program: PathBuf,
    /// Plies of gnubg's evaluation for plays and cube decisions (0 is gnubg's quick net).
    pub plies: u8,
    /// The longest gnubg may take over one answer, the start-up one included.
    pub timeout: Duration,
}

impl Default for GnubgSettings {
    fn default() -> GnubgSettings {
        GnubgSettings {
            program: PathBuf::from("gnubg"),
            plies: 0,
            timeout: DEFAULT_TIMEOUT,
        }
    }
}

/// A gnubg child in tty mode.
pub struct Gnubg {
    child: Child,
    stdin: ChildStdin,
    /// gnubg's stdout, a line at a time, from the reader thread; closed at its end.
    lines: Receiver<String>,
    plies: u8,
    timeout: Duration,
    program: PathBuf,
    /// Set when an answer did not come in time: gnubg was stopped, since anything it
    /// printed later would be taken for the answer to the next question.
    stalled: bool,
}

impl Gnubg {
    /// Starts `gnubg -t -q` with both players human and the evaluation depth set.
    pub fn start(settings: &GnubgSettings) -> io::Result<Gnubg> {
        let spawn = |program: &std::path::Path| {
            Process::new(program)
                .args(["-t", "-q"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
        };
        let mut child = spawn(&settings.program)
            .or_else(|error| {
                // Debian installs gnubg in /usr/games, which is not always on PATH.
                if error.kind() == io::ErrorKind::NotFound
                    && settings.program.as_os_str() == "gnubg"
                {
                    spawn(std::path::Path::new(DEBIAN_GNUBG))
                } else {
                    Err(error)
                }
            })
            .map_err(|error| {
                io::Error::new(
                    error.kind(),
                    format!(
                        "cannot start gnubg ({}): {error}",
                        settings.program.display()
                    ),
                )
            })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other("gnubg's pipes are missing"));
        };
        // Built before the reader thread, so that a failure from here on stops the child
        // (by Drop).
        let (sender, lines) = sync_channel(MAX_ANSWER_LINES);
        let mut gnubg = Gnubg {
            child,
            stdin,
            lines,
            plies: settings.plies,
            timeout: settings.timeout,
            program: settings.program.clone(),
            stalled: false,
        };
        std::thread::Builder::new()
            .name("gnubg-reader".into())
            .spawn(move || read_gnubg(stdout, &sender))?;
        let plies = settings.plies;
        gnubg
            .exchange(&[
                "set display off".to_owned(),
                "set player 0 human".to_owned(),
                "set player 1 human".to_owned(),
                format!("set evaluation chequerplay evaluation plies {plies}"),
                "new match 1".to_owned(),
            ])
            .map_err(|error| io::Error::new(error.kind(), format!("starting gnubg: {error}")))?;
        Ok(gnubg)
    }

    /// Sends `commands` and the marker; returns gnubg's stdout lines up to the marker's.
    /// Fails when the marker does not come within the timeout (gnubg is then stopped, and
    /// every later exchange fails at once) or gnubg's output ends.
    pub fn exchange(&mut self, commands: &[String]) -> io::Result<Vec<String>> {
        if self.stalled {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "gnubg ({}) was stopped after it did not answer in time",
                    self.program.display()
                ),
            ));
        }
        for command in commands {
            writeln!(self.stdin, "{command}")?;
        }
        writeln!(
            self.stdin,
            "set evaluation cubedecision evaluation plies {}",
            self.plies
        )?;
        self.stdin.flush()?;
        let deadline = Instant::now() + self.timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(MARKER) => return Ok(lines),
                Ok(line) => {
                    if lines.len() < MAX_ANSWER_LINES {
                        lines.push(line.trim_end().to_owned());
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.stall()),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "gnubg closed its output",
                    ));
                }
            }
        }
    }

    /// Stops a gnubg that did not answer in time; the error says so.
    fn stall(&mut self) -> io::Error {
        self.stalled = true;
        let _ = self.child.kill();
        let _ = self.child.wait();
        io::Error::new(
            io::ErrorKind::TimedOut,
            format!(
                "gnubg ({}) did not answer within {} s (--gnubg-timeout)",
                self.program.display(),
                self.timeout.as_secs_f64()
            ),
        )
    }

    /// gnubg's `hint` for the position `key` (`POSITION_ID:MATCH_ID`).
    pub fn hint(&mut self, key: &str) -> io::Result<Vec<String>> {
        let (position, match_id) = key.split_once(':').unwrap_or((key, ""));
        self.exchange(&[
            format!("set matchid {match_id}"),
            format!("set board {position}"),
            "hint".to_owned(),
        ])
    }
}

/// gnubg's stdout, a line at a time (a line bounded, bytes that are not UTF-8 replaced),
/// until it ends or nobody listens.
fn read_gnubg(stdout: ChildStdout, sender: &std::sync::mpsc::SyncSender<String>) {
    let reader = LineReader::with_limit(BufReader::new(stdout), GNUBG_LINE_BYTES);
    for line in reader {
        let text = match line {
            Ok(RawLine::Text(text) | RawLine::TooLong(text)) => text,
            Err(_) => return,
        };
        if sender.send(text).is_err() {
            return;
        }
    }
}

impl Drop for Gnubg {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The best play of a `hint` answer: the text of the line `1. … N-ply  PLAY  Eq.: …`.
pub fn best_play(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|line| {
        let rest = line.trim_start().strip_prefix("1.")?;
        let (_, after) = rest.split_once("-ply")?;
        let play = after.split("Eq.:").next()?.trim();
        Some(play.to_owned())
    })
}

/// The `Proper cube action: …` of a `hint` answer.
pub fn cube_action(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|line| {
        line.trim()
            .strip_prefix("Proper cube action:")
            .map(|action| action.trim().to_owned())
    })
}

/// Whether gnubg's proper cube action doubles: `Double, take`, `Redouble, pass`, … (not
/// `No double`, `Too good to double`, `Never double`).
pub fn action_doubles(action: &str) -> bool {
    let action = action.to_ascii_lowercase();
    action.starts_with("double") || action.starts_with("redouble")
}

/// Whether gnubg's proper cube action, seen by the side doubled, takes: `…, take` or
/// `…, beaver` (a beaver is a take here), not `…, pass`.
pub fn action_takes(action: &str) -> bool {
    let action = action.to_ascii_lowercase();
    let answer = action.rsplit(',').next().unwrap_or(&action);
    !answer.contains("pass") && !answer.contains("drop")
}

/// `POSITION_ID:MATCH_ID` of a cube decision. gnubg's `set matchid` refuses a pending
/// double, so a double is asked as the doubler's position before doubling: the second half
/// of gnubg's proper cube action (`Double, take`) is then the answer to it.
pub fn cube_key(game: &Game) -> String {
    let mut key = game.match_key();
    if let Phase::Doubled { by } = game.phase() {
        key.doubled = false;
        key.turn = by;
        key.dice_owner = by;
    }
    format!(
        "{}:{}",
        position_id(game.board(), key.dice_owner),
        match_id(&key)
    )
}

/// Our engine with gnubg deciding.
pub struct GnubgEngine {
    inner: TavlaEngine,
    gnubg: Gnubg,
    settings: GnubgSettings,
}

fn failed(error: io::Error) -> GtpError {
    GtpError::other(format!("gnubg failed: {error}"))
}

impl GnubgEngine {
    pub fn new(settings: Settings, gnubg: GnubgSettings) -> io::Result<GnubgEngine> {
        Ok(GnubgEngine {
            inner: TavlaEngine::new(settings),
            gnubg: Gnubg::start(&gnubg)?,
            settings: gnubg,
        })
    }

    pub fn engine(&self) -> &TavlaEngine {
        &self.inner
    }

    fn side(&self, side: Option<Side>) -> Result<Side, GtpError> {
        side.or_else(|| self.inner.game().to_act())
            .ok_or_else(|| GtpError::other("no game in progress (new_game)"))
    }

    fn genmove(&mut self, side: Option<Side>) -> Result<String, GtpError> {
        let side = self.side(side)?;
        if self.inner.game().phase() == Phase::ToRoll(side) {
            self.inner.run(TavlaCommand::Roll(Some(side)))?;
        }
        let (mover, dice, legal) = match self.inner.game().legal() {
            Ok(found) => found,
            // Out of turn, doubled, …: our engine says why.
            Err(_) => return self.inner.run(TavlaCommand::Genmove(Some(side))),
        };
        if mover != side {
            return self.inner.run(TavlaCommand::Genmove(Some(side)));
        }
        let board = *self.inner.game().board();
        let play = if legal.len() == 1 {
            legal[0].play
        } else {
            let lines = self
                .gnubg
                .hint(&self.inner.position_key())
                .map_err(failed)?;
            let text = best_play(&lines).ok_or_else(|| {
                GtpError::other(format!("gnubg gave no play: {}", lines.join(" | ")))
            })?;
            parse_play(&text, &board, side, &legal).map_err(|error| {
                GtpError::other(format!("gnubg's play '{text}' is not legal here: {error}"))
            })?
        };
        let text = format_play(&board, side, &play);
        self.inner
            .run(TavlaCommand::Play(Some(side), None, text.clone()))?;
        Ok(format!("{dice} {text}"))
    }

    fn genmove_cube(&mut self, side: Option<Side>) -> Result<String, GtpError> {
        let side = self.side(side)?;
        let game = self.inner.game();
        let asks = match game.phase() {
            Phase::ToRoll(s) if s == side => game.may_double(side).is_ok(),
            Phase::Doubled { by } if by.other() == side => true,
            _ => return self.inner.run(TavlaCommand::GenmoveCube(Some(side))),
        };
        if !asks {
            return Ok("no_double".into());
        }
        // gnubg refuses to analyse a double whose cube is dead (its value already wins the
        // match for the doubler: "You cannot double."): no double, and a take when doubled
        // anyway (a drop loses the match as surely as losing the game).
        let state = self.inner.game().state();
        let length = self.inner.game().rules().length;
        let doubler = match state.phase {
            Phase::Doubled { by } => by,
            _ => side,
        };
        if length > 0 && state.score[doubler.index()] + state.cube >= length {
            return if doubler == side {
                Ok("no_double".into())
            } else {
                self.inner.run(TavlaCommand::Take(Some(side)))?;
                Ok("take".into())
            };
        }
        let lines = self
            .gnubg
            .hint(&cube_key(self.inner.game()))
            .map_err(failed)?;
        let action = cube_action(&lines).ok_or_else(|| {
            GtpError::other(format!("gnubg gave no cube action: {}", lines.join(" | ")))
        })?;
        if let Phase::Doubled { .. } = self.inner.game().phase() {
            if action_takes(&action) {
                self.inner.run(TavlaCommand::Take(Some(side)))?;
                Ok("take".into())
            } else {
                self.inner.run(TavlaCommand::Drop(Some(side)))?;
                Ok("drop".into())
            }
        } else if action_doubles(&action) {
            self.inner.run(TavlaCommand::Double(Some(side)))?;
            Ok("double".into())
        } else {
            Ok("no_double".into())
        }
    }
}

impl Engine for GnubgEngine {
    /// The clock commands are answered (by the engine inside, whose clock gnubg's
    /// decisions ignore) so that an arena under a clock can seat gnubg.
    fn commands(&self) -> Vec<&'static str> {
        // gnubg's plays come with no equity of ours: the analysis command is not offered.
        TAVLA_COMMANDS
            .iter()
            .filter(|name| **name != "genmove_analyze")
            .chain(&crate::protocol::CLOCK_COMMANDS)
            .copied()
            .collect()
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        match command.name.as_str() {
            "genmove" | "genmove_cube" => match TavlaCommand::parse(command)? {
                TavlaCommand::Genmove(side) => self.genmove(side),
                TavlaCommand::GenmoveCube(side) => self.genmove_cube(side),
                _ => unreachable!("parsed from genmove or genmove_cube"),
            },
            "genmove_analyze" => Err(GtpError::UnknownCommand),
            _ => self.inner.execute(command, session),
        }
    }

    fn analyze_commands(&self) -> Vec<String> {
        self.inner.analyze_commands()
    }

    fn describe(&self) -> String {
        format!(
            "{}; decisions by gnubg ({}) at {} ply",
            self.inner.describe(),
            self.settings.program.display(),
            self.settings.plies
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_owned).collect()
    }

    #[test]
    fn hints_are_read() {
        let hint = lines(
            "The dice have been set to 3 and 1.\n    1. Cubeful 0-ply    8/5 6/5                      Eq.: +0.200\n       0.551 0.174 0.013 - 0.449 0.124 0.005\n    2. Cubeful 0-ply    24/21 6/5   Eq.: -0.010",
        );
        assert_eq!(best_play(&hint).as_deref(), Some("8/5 6/5"));
        let cube = lines(
            "Cube analysis\n1. No double           +0.105\nProper cube action: No double, take (23.7%)",
        );
        assert_eq!(
            cube_action(&cube).as_deref(),
            Some("No double, take (23.7%)")
        );
        assert!(!action_doubles("No double, take (23.7%)"));
        assert!(!action_doubles("Too good to double, pass"));
        assert!(action_doubles("Double, take"));
        assert!(action_doubles("Redouble, pass"));
        assert!(action_takes("Double, take"));
        assert!(action_takes("No double, beaver (23.0%)"));
        assert!(!action_takes("Double, pass"));
        assert!(!action_takes("Too good to redouble, pass"));
    }
}
