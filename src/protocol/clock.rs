//! Time controls, how much of the clock a move may use, and the GTP clock commands, shared
//! by every game.
//!
//! GTP's `time_settings` describes Canadian byo-yomi (`byo_yomi_stones` stones in
//! `byo_yomi_time` seconds after the main time); `kgs-time_settings` adds absolute time and
//! Japanese byo-yomi (a number of periods of `byo_yomi_time` seconds each); KataGo's
//! `kata-time_settings` adds Fischer time (an increment after every move, the clock
//! optionally capped), and `kata-list_time_settings` names what it takes.
//!
//! The clock knows nothing of any game: each player is a *seat*, 0 for the side that moves
//! first in the game's usual order (Go, Abalone and Kulami: black; Mangala, whose starter
//! is drawn: south) and 1 for the other. A game parses a clock command with
//! [`ClockCommand::parse`], handing it a closure that turns its own side word into a seat.
//!
//! The engine keeps each seat's time itself: `time_settings` starts both clocks, and the
//! engine charges a seat with the wall time of every move it generates for it
//! ([`Clock::charge`]), so that a controller that never sends `time_left` (gogui-twogtp)
//! still sees the engine keep within its time. `time_left` replaces that account whenever
//! it comes.

use std::fmt;
use std::time::Duration;

use super::{Command, GtpError};

/// The GTP clock commands, in `list_commands` order.
pub const CLOCK_COMMANDS: [&str; 5] = [
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kata-time_settings",
    "kata-list_time_settings",
];

/// What `kata-list_time_settings` answers: the systems `kata-time_settings` takes.
pub const KATA_TIME_SYSTEMS: &str = "none absolute byoyomi canadian fischer fischer-capped";

/// The seats of a two-player game's clock.
pub const SEATS: usize = 2;

/// The time system of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No clock: the engine's fixed budget (nodes, playouts or time a move) alone decides.
    Unlimited,
    /// `main` seconds for the whole game.
    Absolute { main: f64 },
    /// After `main`, each of `periods` periods of `period` seconds resets if a move is made in it.
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    /// After `main`, `stones` moves in every `period` seconds.
    Canadian { main: f64, period: f64, stones: u32 },
    /// `main` seconds, and `increment` more after every move; the clock never above
    /// `main_cap` after the increment, no move longer than `move_cap` (KataGo's
    /// `fischer-capped`; `None`: no such limit).
    Fischer {
        main: f64,
        increment: f64,
        main_cap: Option<f64>,
        move_cap: Option<f64>,
    },
}

impl TimeSystem {
    /// GTP `time_settings main byo_yomi_time byo_yomi_stones` (GTP v2 §6.3.4): zero stones
    /// with a positive byo-yomi time means no time limit; zero stones and zero time is
    /// absolute time.
    pub fn from_gtp(main: f64, period: f64, stones: u32) -> TimeSystem {
        match (stones, period > 0.0) {
            (0, true) => TimeSystem::Unlimited,
            (0, false) => TimeSystem::Absolute { main },
            (stones, _) => TimeSystem::Canadian {
                main,
                period,
                stones,
            },
        }
    }
}

impl fmt::Display for TimeSystem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeSystem::Unlimited => f.write_str("none"),
            TimeSystem::Absolute { main } => write!(f, "absolute {main}"),
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => {
                write!(f, "byoyomi {main} {period} {periods}")
            }
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => {
                write!(f, "canadian {main} {period} {stones}")
            }
            TimeSystem::Fischer {
                main,
                increment,
                main_cap: None,
                move_cap: None,
            } => write!(f, "fischer {main} {increment}"),
            TimeSystem::Fischer {
                main,
                increment,
                main_cap,
                move_cap,
            } => write!(
                f,
                "fischer-capped {main} {increment} {} {}",
                main_cap.unwrap_or(-1.0),
                move_cap.unwrap_or(-1.0)
            ),
        }
    }
}

/// One seat's clock in `time_left`'s terms: in main time the seconds left and 0 stones; in
/// overtime the seconds left of the current period and the stones (Canadian) or periods
/// (Japanese) left. A seat whose time has run out stays at zero seconds (in overtime, with
/// the stones or the one period it had), so that it is given as little as a move can take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeLeft {
    pub seconds: f64,
    pub stones: u32,
}

impl TimeLeft {
    /// Where `system` starts a seat: in its main time, or in its first overtime period when
    /// it has no main time.
    fn start(system: TimeSystem) -> TimeLeft {
        let (seconds, stones) = match system {
            TimeSystem::Unlimited => (0.0, 0),
            TimeSystem::Absolute { main } | TimeSystem::Fischer { main, .. } => (main, 0),
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } if main <= 0.0 && periods > 0 => (period, periods),
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } if main <= 0.0 => (period, stones),
            TimeSystem::Byoyomi { main, .. } | TimeSystem::Canadian { main, .. } => (main, 0),
        };
        TimeLeft { seconds, stones }
    }

    /// After a move that took `spent` seconds under absolute time.
    fn after_absolute_move(self, spent: f64) -> TimeLeft {
        TimeLeft {
            seconds: (self.seconds - spent).max(0.0),
            stones: 0,
        }
    }

    /// After a move that took `spent` seconds under Fischer time: the clock runs down (to
    /// zero at most), then gains the increment, up to the cap.
    fn after_fischer_move(self, spent: f64, increment: f64, main_cap: Option<f64>) -> TimeLeft {
        let seconds = (self.seconds - spent).max(0.0) + increment;
        TimeLeft {
            seconds: main_cap.map_or(seconds, |cap| seconds.min(cap)),
            stones: 0,
        }
    }

    /// After a move that took `spent` seconds under Japanese byo-yomi: a period the move
    /// overran is lost, the period the move was made in starts afresh.
    fn after_japanese_move(self, spent: f64, period: f64, periods: u32) -> TimeLeft {
        let (current, periods_left, rest) = if self.stones == 0 {
            if spent <= self.seconds {
                return self.after_absolute_move(spent);
            }
            if periods == 0 {
                return TimeLeft {
                    seconds: 0.0,
                    stones: 0,
                };
            }
            (period, periods, spent - self.seconds)
        } else {
            (self.seconds, self.stones, spent)
        };
        if rest < current {
            return TimeLeft {
                seconds: period,
                stones: periods_left,
            };
        }
        // The current period is lost; the move went on into the next ones, overrunning
        // `overrun` whole periods more before it was made in the one after them.
        let rest = rest - current;
        let overrun = if period > 0.0 {
            (rest / period).floor()
        } else {
            f64::INFINITY
        };
        let after_current = f64::from(periods_left - 1);
        if after_current > overrun {
            TimeLeft {
                seconds: period,
                // `overrun` is below `after_current`, a u32: the cast is exact.
                stones: (after_current - overrun) as u32,
            }
        } else {
            TimeLeft {
                seconds: 0.0,
                stones: 1,
            }
        }
    }

    /// After a move that took `spent` seconds under Canadian byo-yomi: the move is one of
    /// the period's stones (the move that crosses from main time into overtime is its
    /// first), and a period whose stones are all played starts afresh.
    fn after_canadian_move(self, spent: f64, period: f64, stones: u32) -> TimeLeft {
        let (current, stones_left, rest) = if self.stones == 0 {
            if spent <= self.seconds {
                return self.after_absolute_move(spent);
            }
            (period, stones, spent - self.seconds)
        } else {
            (self.seconds, self.stones, spent)
        };
        if rest >= current {
            return TimeLeft {
                seconds: 0.0,
                stones: stones_left,
            };
        }
        match stones_left.saturating_sub(1) {
            0 => TimeLeft {
                seconds: period,
                stones,
            },
            left => TimeLeft {
                seconds: current - rest,
                stones: left,
            },
        }
    }
}

/// Both players' clocks: what `time_settings` gave each, less the moves this engine
/// generated for it, or what `time_left` last said, whichever came last.
///
/// GNU Go's way: a controller such as gogui-twogtp sends `time_settings` once a game and
/// never `time_left`, and an engine that did not count its own time would spread the whole
/// main time over every move. `time_left` stays the authority whenever it comes.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    left: [TimeLeft; SEATS],
}

/// Seconds kept back from every allotment for the round trip through the controller and
/// for the search's last step past its deadline; a short allotment keeps back a fifth of
/// itself instead.
const SAFETY_MARGIN: f64 = 0.3;

/// Seconds charged to every move on top of the time the engine measured: the controller's
/// clock also runs while the command and the answer travel through the pipes and wait for
/// a core on a loaded machine, which the engine cannot see. Without it the engine's account
/// would drift above the controller's by that much every move.
const UNSEEN_LATENCY: f64 = 0.05;

/// The least allotment while the clock can afford it, so that a search does some work.
const MIN_ALLOTMENT_SECONDS: f64 = 0.05;

/// The least allotment of a clock that is (nearly) spent: a game that outlasts the estimate
/// of the moves left then costs as little more as a move can.
const LAST_ALLOTMENT_SECONDS: f64 = 0.001;

/// No single move is given more than a day, whatever the clock says.
const MAX_ALLOTMENT_SECONDS: f64 = 86_400.0;

impl Default for Clock {
    fn default() -> Clock {
        Clock::new(TimeSystem::Unlimited)
    }
}

impl Clock {
    pub fn new(system: TimeSystem) -> Clock {
        Clock {
            system,
            left: [TimeLeft::start(system); SEATS],
        }
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// What the clock says `seat` has left (0 or 1; anything else is a caller's bug and
    /// panics).
    pub fn time_left(&self, seat: usize) -> TimeLeft {
        self.left[seat]
    }

    /// Records `time_left` for `seat`: it replaces the engine's own account.
    pub fn set_time_left(&mut self, seat: usize, seconds: f64, stones: u32) {
        self.left[seat] = TimeLeft { seconds, stones };
    }

    /// Charges `seat` for a move it generated in `elapsed` (measured from the command's
    /// arrival to its answer), plus `UNSEEN_LATENCY`; the next allotment shrinks.
    pub fn charge(&mut self, seat: usize, elapsed: Duration) {
        let spent = elapsed.as_secs_f64() + UNSEEN_LATENCY;
        let left = self.left[seat];
        self.left[seat] = match self.system {
            TimeSystem::Unlimited => return,
            TimeSystem::Absolute { .. } => left.after_absolute_move(spent),
            TimeSystem::Byoyomi {
                period, periods, ..
            } => left.after_japanese_move(spent, period, periods),
            TimeSystem::Canadian { period, stones, .. } => {
                left.after_canadian_move(spent, period, stones)
            }
            TimeSystem::Fischer {
                increment,
                main_cap,
                ..
            } => left.after_fischer_move(spent, increment, main_cap),
        };
        let TimeLeft { seconds, stones } = self.left[seat];
        tracing::debug!(
            "clock of seat {seat}: {spent:.3} s charged, {seconds:.3} s left ({stones} stones or periods)"
        );
    }

    /// A new game under the same settings: both accounts start afresh, as GNU Go's
    /// `clear_board` restarts its timers (a controller may send `time_settings` once for a
    /// series of games).
    pub fn restart(&mut self) {
        *self = Clock::new(self.system);
    }

    /// Applies a parsed clock command and returns its answer: new settings start both
    /// clocks afresh (forgetting what `time_left` said and what was charged).
    pub fn apply(&mut self, command: ClockCommand) -> String {
        match command {
            ClockCommand::Settings(system) => *self = Clock::new(system),
            ClockCommand::TimeLeft {
                seat,
                seconds,
                stones,
            } => self.set_time_left(seat, seconds, stones),
            ClockCommand::ListSystems => return KATA_TIME_SYSTEMS.to_owned(),
        }
        String::new()
    }

    /// The wall time `seat` may spend on its next move, or `None` when no clock runs.
    /// `moves_left` estimates how many moves `seat` still has to make in the game.
    pub fn allotment(&self, seat: usize, moves_left: u32) -> Option<Duration> {
        let moves_left = f64::from(moves_left.max(1));
        let TimeLeft { seconds, stones } = self.left[seat];
        let seconds = match self.system {
            TimeSystem::Unlimited => return None,
            TimeSystem::Absolute { .. } => seconds / moves_left,
            // In main time: spread it, but never below what one period gives for free.
            TimeSystem::Byoyomi {
                period, periods, ..
            } if stones == 0 => {
                (seconds / moves_left).max(if periods > 0 { period * 0.8 } else { 0.0 })
            }
            TimeSystem::Byoyomi { period, .. } => seconds.min(period) * 0.8,
            TimeSystem::Canadian {
                period,
                stones: per_period,
                ..
            } if stones == 0 => seconds / moves_left + period / f64::from(per_period) * 0.5,
            TimeSystem::Canadian { .. } => seconds / f64::from(stones) * 0.9,
            TimeSystem::Fischer {
                increment,
                move_cap,
                ..
            } => fischer_share(seconds, moves_left, increment, move_cap),
        };
        let margin = SAFETY_MARGIN.min(seconds * 0.2);
        let floor = MIN_ALLOTMENT_SECONDS
            .min(seconds)
            .max(LAST_ALLOTMENT_SECONDS);
        // The bounds keep `Duration::from_secs_f64` and `Instant + Duration` from overflowing.
        let seconds = (seconds - margin).clamp(floor, MAX_ALLOTMENT_SECONDS);
        Some(Duration::from_secs_f64(if seconds.is_finite() {
            seconds
        } else {
            MIN_ALLOTMENT_SECONDS
        }))
    }
}

/// A Fischer move's share before the safety margin: the clock spread over the moves left
/// plus most of the increment the move earns, never more than four fifths of what is left
/// (the increment comes only after the move) nor than the longest a move may take.
fn fischer_share(left: f64, moves_left: f64, increment: f64, move_cap: Option<f64>) -> f64 {
    let share = (left / moves_left + increment * 0.8).min(left * 0.8);
    move_cap.map_or(share, |cap| share.min(cap))
}

/// A clock command, parsed and checked.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClockCommand {
    /// `time_settings` or `kgs-time_settings`.
    Settings(TimeSystem),
    /// `time_left SIDE seconds stones`, the side already turned into its seat.
    TimeLeft {
        seat: usize,
        seconds: f64,
        stones: u32,
    },
    /// `kata-list_time_settings`: the systems `kata-time_settings` takes.
    ListSystems,
}

impl ClockCommand {
    /// Parses one of [`CLOCK_COMMANDS`] (any other name is `unknown command`). `seat`
    /// turns the game's side word into a seat (0 or 1), `None` when it names no side;
    /// `sides` describes the accepted words for the error, as in `a color (b or w)`.
    pub fn parse(
        command: &Command,
        sides: &str,
        seat: impl FnOnce(&str) -> Option<usize>,
    ) -> Result<ClockCommand, GtpError> {
        let c = command;
        match c.name.as_str() {
            "time_settings" => {
                c.expect_args(3, "<main_time> <byo_yomi_time> <byo_yomi_stones>")?;
                Ok(ClockCommand::Settings(TimeSystem::from_gtp(
                    parse_seconds(c, 0)?,
                    parse_seconds(c, 1)?,
                    c.parse_arg(2, "a number of stones")?,
                )))
            }
            "kgs-time_settings" => parse_time_system(c, false).map(ClockCommand::Settings),
            "kata-time_settings" => parse_time_system(c, true).map(ClockCommand::Settings),
            "kata-list_time_settings" => c.no_args(ClockCommand::ListSystems),
            "time_left" => {
                c.expect_args(3, "<color> <time> <stones>")?;
                let word = c.arg(0)?;
                let seat = seat(word).filter(|&seat| seat < SEATS).ok_or_else(|| {
                    GtpError::syntax(format!(
                        "expected {sides}, got '{}'",
                        crate::text::shorten(word)
                    ))
                })?;
                Ok(ClockCommand::TimeLeft {
                    seat,
                    seconds: parse_seconds(c, 1)?,
                    stones: c.parse_arg(2, "a number of stones")?,
                })
            }
            _ => Err(GtpError::UnknownCommand),
        }
    }
}

/// Seconds, as GTP's integers or (leniently) decimals; never negative or infinite.
fn parse_seconds(command: &Command, index: usize) -> Result<f64, GtpError> {
    let seconds: f64 = command.parse_arg(index, "a number of seconds")?;
    // A clock beyond a year (365 days, the arena's `--time` bound too) is a typo, and
    // would overflow the deadline arithmetic.
    const MAX_SECONDS: f64 = 365.0 * 24.0 * 3600.0;
    if seconds.is_finite() && (0.0..=MAX_SECONDS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(GtpError::syntax(format!(
            "expected a number of seconds, got '{}'",
            crate::text::shorten(&command.args[index])
        )))
    }
}

/// A limit of `fischer-capped`: seconds, or a negative number for no limit.
fn parse_limit(command: &Command, index: usize) -> Result<Option<f64>, GtpError> {
    let value: f64 = command.parse_arg(index, "a number of seconds")?;
    if value < 0.0 && value.is_finite() {
        Ok(None)
    } else {
        parse_seconds(command, index).map(Some)
    }
}

/// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN
/// PERIOD STONES`; with `kata` (KataGo's `kata-time_settings`) also `fischer MAIN INC` and
/// `fischer-capped MAIN INC MAIN_CAP MOVE_CAP`.
fn parse_time_system(command: &Command, kata: bool) -> Result<TimeSystem, GtpError> {
    const USAGE: &str = "none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>";
    const KATA_USAGE: &str = "none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones> | fischer <main> <increment> | fischer-capped <main> <increment> <main_cap> <move_cap>";
    let usage = if kata { KATA_USAGE } else { USAGE };
    let system = command.arg(0).map_err(|_| command.usage_error(usage))?;
    match system.to_ascii_lowercase().as_str() {
        "none" => {
            command.expect_args(1, usage)?;
            Ok(TimeSystem::Unlimited)
        }
        "absolute" => {
            command.expect_args(2, usage)?;
            Ok(TimeSystem::Absolute {
                main: parse_seconds(command, 1)?,
            })
        }
        // KataGo lists Japanese byo-yomi as `byo-yomi`.
        "byoyomi" | "byo-yomi" => {
            command.expect_args(4, usage)?;
            Ok(TimeSystem::Byoyomi {
                main: parse_seconds(command, 1)?,
                period: parse_seconds(command, 2)?,
                periods: command.parse_arg(3, "a number of periods")?,
            })
        }
        "canadian" => {
            command.expect_args(4, usage)?;
            let stones = command.parse_arg(3, "a number of stones")?;
            if stones == 0 {
                return Err(GtpError::syntax(
                    "canadian byo-yomi needs at least 1 stone a period",
                ));
            }
            Ok(TimeSystem::Canadian {
                main: parse_seconds(command, 1)?,
                period: parse_seconds(command, 2)?,
                stones,
            })
        }
        "fischer" if kata => {
            command.expect_args(3, usage)?;
            Ok(TimeSystem::Fischer {
                main: parse_seconds(command, 1)?,
                increment: parse_seconds(command, 2)?,
                main_cap: None,
                move_cap: None,
            })
        }
        "fischer-capped" if kata => parse_fischer_capped(command, usage),
        _ => Err(command.usage_error(usage)),
    }
}

/// `fischer-capped MAIN INC MAIN_CAP MOVE_CAP`: a cap used must not be below the main time
/// (KataGo's rule), a negative one is no cap.
fn parse_fischer_capped(command: &Command, usage: &str) -> Result<TimeSystem, GtpError> {
    command.expect_args(5, usage)?;
    let main = parse_seconds(command, 1)?;
    let main_cap = parse_limit(command, 3)?;
    if main_cap.is_some_and(|cap| cap < main) {
        return Err(GtpError::syntax(
            "the main time cap of fischer-capped must be at least the main time",
        ));
    }
    Ok(TimeSystem::Fischer {
        main,
        increment: parse_seconds(command, 2)?,
        main_cap,
        move_cap: parse_limit(command, 4)?,
    })
}

#[cfg(test)]
mod tests;
