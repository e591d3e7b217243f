//! The live progress line of a long run, on stderr: games done of those planned, games a
//! second, the time left at that pace, the first bot's wins, draws and losses, and the Elo
//! difference measured so far with its 95% interval (from the complete pairs, as the SPRT's
//! report measures it).
//!
//! ```text
//! match: 120/400 games, 3.4 games/s, 1 min 22 s left; hamle-go-200 51-9-60 (W-D-L), Elo -26 ± 61
//! ```
//!
//! On a terminal it is one line rewritten in place (`\r`, the line, clear to its end), at
//! most a few times a second, and ended with a newline when the run ends; elsewhere (a log
//! file, a pipe, a Slurm job's output) it is a plain line at every tenth of the run or
//! every 30 seconds, whichever comes first, so a huge match writes a few dozen lines, not one
//! a game. `--quiet` silences it.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use super::sprt;
use super::store::{GameResult, Winner};

/// How often a terminal's line is rewritten at most.
const TERMINAL_EVERY: Duration = Duration::from_millis(250);
/// The longest a plain line waits (when a tenth of the run takes longer).
const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// Where the line goes: a terminal gets it rewritten in place.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Style {
    InPlace,
    Plain,
    Off,
}

/// The progress of one run (a match, or one pairing of a ladder).
pub struct Progress {
    style: Style,
    label: String,
    first_bot: String,
    /// The games this run plays, old and new.
    planned: usize,
    /// Games saved before this run started (a resumed run): not part of its pace.
    before: usize,
    started: Instant,
    last_shown: Option<Instant>,
    /// The games done when a plain line was last written.
    shown_games: usize,
    /// A terminal line is showing and needs its newline.
    open: bool,
}

impl Progress {
    /// `shown` false (`--quiet`) silences it; otherwise a terminal on stderr gets the line
    /// in place, anything else plain lines.
    pub fn new(
        shown: bool,
        label: &str,
        first_bot: &str,
        planned: usize,
        before: usize,
    ) -> Progress {
        let style = match (shown, std::io::stderr().is_terminal()) {
            (false, _) => Style::Off,
            (true, true) => Style::InPlace,
            (true, false) => Style::Plain,
        };
        Progress::with_style(style, label, first_bot, planned, before)
    }

    pub fn with_style(
        style: Style,
        label: &str,
        first_bot: &str,
        planned: usize,
        before: usize,
    ) -> Progress {
        Progress {
            style,
            label: label.to_owned(),
            first_bot: first_bot.to_owned(),
            planned,
            before,
            started: Instant::now(),
            last_shown: None,
            shown_games: before,
            open: false,
        }
    }

    /// After each saved game, with every result so far: writes the line when it is due.
    pub fn update(&mut self, results: &[GameResult]) {
        if let Some(line) = self.due_line(results, Instant::now()) {
            let mut stderr = std::io::stderr().lock();
            // Progress is a courtesy: a closed stderr must not stop the match.
            let _ = match self.style {
                Style::InPlace => write!(stderr, "\r{line}\x1b[K"),
                _ => writeln!(stderr, "{line}"),
            };
            let _ = stderr.flush();
        }
    }

    /// The line to write now, if one is due (and the bookkeeping that it was written).
    pub fn due_line(&mut self, results: &[GameResult], now: Instant) -> Option<String> {
        let done = results.len();
        let due = match self.style {
            Style::Off => false,
            Style::InPlace => {
                done >= self.planned
                    || self
                        .last_shown
                        .is_none_or(|at| now.duration_since(at) >= TERMINAL_EVERY)
            }
            Style::Plain => {
                let tenth = self.planned.div_ceil(10).max(1);
                done >= self.planned
                    || done >= self.shown_games + tenth
                    || self
                        .last_shown
                        .map_or(now.duration_since(self.started), |at| {
                            now.duration_since(at)
                        })
                        >= PLAIN_EVERY
            }
        };
        if !due || (self.style == Style::Plain && done == self.shown_games) {
            return None;
        }
        self.last_shown = Some(now);
        self.shown_games = done;
        self.open = self.style == Style::InPlace;
        Some(self.line(results, now.duration_since(self.started)))
    }

    /// Takes the terminal's line away before other output (a game's line on stdout); the
    /// next update writes it again.
    pub fn clear(&mut self) {
        if self.open {
            let _ = write!(std::io::stderr(), "\r\x1b[K");
            self.open = false;
            self.last_shown = None;
        }
    }

    /// Ends the terminal's line with a newline, so what follows starts on its own.
    pub fn finish(&mut self) {
        if self.open {
            let _ = writeln!(std::io::stderr());
            self.open = false;
        }
    }

    /// The line itself.
    pub fn line(&self, results: &[GameResult], elapsed: Duration) -> String {
        let done = results.len();
        let new = done.saturating_sub(self.before);
        let seconds = elapsed.as_secs_f64();
        let pace = if new > 0 && seconds > 0.0 {
            let rate = new as f64 / seconds;
            let left = self.planned.saturating_sub(done) as f64 / rate;
            format!("{rate:.1} games/s, {} left", duration_text(left))
        } else {
            "pace not known yet".to_owned()
        };
        let [wins, draws, losses] = score(results, &self.first_bot);
        let elo = match sprt::measured(&sprt::pentanomial(results, &self.first_bot)) {
            Some(m) if m.elo.is_finite() && m.low.is_finite() && m.high.is_finite() => {
                let spread = (m.high - m.low) / 2.0;
                format!("Elo {} ± {spread:.0}", sprt::signed_elo(m.elo))
            }
            Some(m) => format!("Elo {}", sprt::signed_elo(m.elo)),
            None => "Elo after the first pair".to_owned(),
        };
        format!(
            "{}match: {done}/{} games, {pace}; {} {wins}-{draws}-{losses} (W-D-L), {elo}",
            self.label, self.planned, self.first_bot
        )
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The first bot's wins, draws and losses (void games left out).
fn score(results: &[GameResult], bot: &str) -> [usize; 3] {
    let mut counts = [0; 3];
    for result in results {
        match result.winner {
            Winner::Void => {}
            Winner::Draw => counts[1] += 1,
            _ if result.winner_name() == Some(bot) => counts[0] += 1,
            _ => counts[2] += 1,
        }
    }
    counts
}

/// `45 s`, `3 min 20 s`, `2 h 05 min`.
fn duration_text(seconds: f64) -> String {
    let total = seconds.round().clamp(0.0, 1e9) as u64;
    match total {
        0..60 => format!("{total} s"),
        60..3600 => format!("{} min {} s", total / 60, total % 60),
        _ => format!("{} h {:02} min", total / 3600, total % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(game: usize, winner: Winner) -> GameResult {
        let (first, second) = if game.is_multiple_of(2) {
            ("a", "b")
        } else {
            ("b", "a")
        };
        GameResult::decided(game, first, second, winner)
    }

    #[test]
    fn the_line_counts_the_first_bots_score_and_measures_elo_from_pairs() {
        let progress = Progress::with_style(Style::Plain, "", "a", 8, 0);
        // Game 0: a (first seat) wins; game 1: a (second seat) wins; game 2 drawn.
        let results = [
            result(0, Winner::First),
            result(1, Winner::Second),
            result(2, Winner::Draw),
            result(3, Winner::First),
        ];
        let line = progress.line(&results, Duration::from_secs(2));
        assert!(
            line.starts_with("match: 4/8 games, 2.0 games/s, 2 s left; a 2-1-1 (W-D-L), Elo "),
            "{line}"
        );
        let none = progress.line(&[], Duration::ZERO);
        assert!(
            none.contains("pace not known yet") && none.contains("Elo after the first pair"),
            "{none}"
        );
        assert_eq!(duration_text(200.0), "3 min 20 s");
        assert_eq!(duration_text(7500.0), "2 h 05 min");
    }

    #[test]
    fn plain_lines_come_every_tenth_not_every_game() {
        let mut progress = Progress::with_style(Style::Plain, "", "a", 1000, 0);
        let start = progress.started;
        let mut results = Vec::new();
        let mut lines = 0;
        for game in 0..1000 {
            results.push(result(game, Winner::First));
            // A thousand games in ten seconds: no 30-second line falls due.
            let now = start + Duration::from_millis(10 * game as u64);
            lines += usize::from(progress.due_line(&results, now).is_some());
        }
        assert_eq!(lines, 10);
        let mut quiet = Progress::with_style(Style::Off, "", "a", 10, 0);
        assert_eq!(quiet.due_line(&results, start), None);
    }
}
