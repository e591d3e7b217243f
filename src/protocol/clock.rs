//! Time controls, how much of the clock a move may use, and the GTP clock commands, shared
//! by every game.
//!
//! GTP's `time_settings` describes Canadian byo-yomi (`byo_yomi_stones` stones in
//! `byo_yomi_time` seconds after the main time); `kgs-time_settings` adds absolute time and
//! Japanese byo-yomi (a number of periods of `byo_yomi_time` seconds each).
//!
//! The clock knows nothing of any game: each player is a *seat*, 0 for the side that moves
//! first in the game's usual order (Go, Abalone and Kulami: black; Mangala, whose starter
//! is drawn: south) and 1 for the other. A game parses a clock command with
//! [`ClockCommand::parse`], handing it a closure that turns its own side word into a seat.

use std::fmt;
use std::time::Duration;

use super::{Command, GtpError};

/// The GTP clock commands, in `list_commands` order.
pub const CLOCK_COMMANDS: [&str; 3] = ["time_settings", "time_left", "kgs-time_settings"];

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
        }
    }
}

/// What the controller last said of one seat's clock (`time_left color time stones`):
/// `stones` is 0 in main time, else the stones (Canadian) or periods (Japanese) left.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Remaining {
    seconds: f64,
    stones: u32,
}

/// Both players' clocks as far as the controller has told us.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    system: TimeSystem,
    remaining: [Option<Remaining>; SEATS],
}

/// Seconds kept back from every allotment for the round trip through the controller;
/// a short allotment keeps back a fifth of itself instead.
const SAFETY_MARGIN: f64 = 0.3;

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
            remaining: [None, None],
        }
    }

    pub fn system(&self) -> TimeSystem {
        self.system
    }

    /// Records `time_left` for `seat` (0 or 1; anything else is a caller's bug and panics).
    pub fn set_time_left(&mut self, seat: usize, seconds: f64, stones: u32) {
        self.remaining[seat] = Some(Remaining { seconds, stones });
    }

    /// Applies a parsed clock command: new settings forget what `time_left` said.
    pub fn apply(&mut self, command: ClockCommand) {
        match command {
            ClockCommand::Settings(system) => *self = Clock::new(system),
            ClockCommand::TimeLeft {
                seat,
                seconds,
                stones,
            } => self.set_time_left(seat, seconds, stones),
        }
    }

    /// The wall time `seat` may spend on its next move, or `None` when no clock runs.
    /// `moves_left` estimates how many moves `seat` still has to make in the game.
    pub fn allotment(&self, seat: usize, moves_left: u32) -> Option<Duration> {
        let moves_left = f64::from(moves_left.max(1));
        let remaining = self.remaining[seat];
        let seconds = match self.system {
            TimeSystem::Unlimited => return None,
            TimeSystem::Absolute { main } => remaining.map_or(main, |r| r.seconds) / moves_left,
            TimeSystem::Byoyomi {
                main,
                period,
                periods,
            } => match remaining {
                // In main time: spread it, but never below what one period gives for free.
                Some(Remaining { seconds, stones: 0 }) => {
                    (seconds / moves_left).max(if periods > 0 { period * 0.8 } else { 0.0 })
                }
                Some(Remaining { seconds, .. }) => seconds.min(period) * 0.8,
                None => (main / moves_left).max(period * 0.8),
            },
            TimeSystem::Canadian {
                main,
                period,
                stones,
            } => match remaining {
                Some(Remaining { seconds, stones: 0 }) => {
                    seconds / moves_left + period / f64::from(stones) * 0.5
                }
                Some(Remaining {
                    seconds,
                    stones: left,
                }) => seconds / f64::from(left.max(1)) * 0.9,
                None => main / moves_left + period / f64::from(stones) * 0.5,
            },
        };
        let margin = SAFETY_MARGIN.min(seconds * 0.2);
        // The bounds keep `Duration::from_secs_f64` and `Instant + Duration` from overflowing.
        let seconds = (seconds - margin).clamp(0.05, MAX_ALLOTMENT_SECONDS);
        Some(Duration::from_secs_f64(if seconds.is_finite() {
            seconds
        } else {
            0.05
        }))
    }
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
            "kgs-time_settings" => parse_time_system(c).map(ClockCommand::Settings),
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
    // A clock beyond a year is a typo, and would overflow the deadline arithmetic.
    const MAX_SECONDS: f64 = 366.0 * 24.0 * 3600.0;
    if seconds.is_finite() && (0.0..=MAX_SECONDS).contains(&seconds) {
        Ok(seconds)
    } else {
        Err(GtpError::syntax(format!(
            "expected a number of seconds, got '{}'",
            crate::text::shorten(&command.args[index])
        )))
    }
}

/// `kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN
/// PERIOD STONES`.
fn parse_time_system(command: &Command) -> Result<TimeSystem, GtpError> {
    const USAGE: &str = "none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>";
    let system = command.arg(0).map_err(|_| command.usage_error(USAGE))?;
    match system.to_ascii_lowercase().as_str() {
        "none" => Ok(TimeSystem::Unlimited),
        "absolute" => {
            command.expect_args(2, USAGE)?;
            Ok(TimeSystem::Absolute {
                main: parse_seconds(command, 1)?,
            })
        }
        "byoyomi" => {
            command.expect_args(4, USAGE)?;
            Ok(TimeSystem::Byoyomi {
                main: parse_seconds(command, 1)?,
                period: parse_seconds(command, 2)?,
                periods: command.parse_arg(3, "a number of periods")?,
            })
        }
        "canadian" => {
            command.expect_args(4, USAGE)?;
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
        _ => Err(command.usage_error(USAGE)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(d: Option<Duration>) -> f64 {
        d.map_or(f64::NAN, |d| d.as_secs_f64())
    }

    #[test]
    fn gtp_time_settings_meanings() {
        assert_eq!(TimeSystem::from_gtp(0.0, 1.0, 0), TimeSystem::Unlimited);
        assert_eq!(
            TimeSystem::from_gtp(300.0, 0.0, 0),
            TimeSystem::Absolute { main: 300.0 }
        );
        assert_eq!(
            TimeSystem::from_gtp(600.0, 300.0, 25),
            TimeSystem::Canadian {
                main: 600.0,
                period: 300.0,
                stones: 25
            }
        );
    }

    #[test]
    fn no_clock_means_no_allotment() {
        assert_eq!(Clock::default().allotment(0, 40), None);
    }

    #[test]
    fn absolute_time_is_spread_over_the_moves_left() {
        let mut clock = Clock::new(TimeSystem::Absolute { main: 600.0 });
        assert!((secs(clock.allotment(0, 60)) - 9.7).abs() < 1e-9);
        clock.set_time_left(0, 30.0, 0);
        assert!((secs(clock.allotment(0, 60)) - 0.4).abs() < 1e-9);
        // White's clock is untouched by Black's time_left.
        assert!((secs(clock.allotment(1, 60)) - 9.7).abs() < 1e-9);
    }

    #[test]
    fn canadian_overtime_divides_by_stones_left() {
        let mut clock = Clock::new(TimeSystem::Canadian {
            main: 0.0,
            period: 100.0,
            stones: 10,
        });
        clock.set_time_left(1, 40.0, 4);
        assert!((secs(clock.allotment(1, 50)) - (9.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn japanese_periods_use_most_of_a_period() {
        let mut clock = Clock::new(TimeSystem::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 3,
        });
        clock.set_time_left(0, 10.0, 3);
        assert!((secs(clock.allotment(0, 50)) - (8.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn absurd_clocks_stay_within_a_day() {
        let clock = Clock::new(TimeSystem::Absolute { main: f64::MAX });
        assert_eq!(secs(clock.allotment(0, 1)), MAX_ALLOTMENT_SECONDS);
        let clock = Clock::new(TimeSystem::Canadian {
            main: 0.0,
            period: f64::MAX,
            stones: 1,
        });
        assert_eq!(secs(clock.allotment(0, 1)), MAX_ALLOTMENT_SECONDS);
    }

    #[test]
    fn allotment_never_drops_to_zero() {
        let mut clock = Clock::new(TimeSystem::Absolute { main: 1.0 });
        clock.set_time_left(0, 0.0, 0);
        assert!(secs(clock.allotment(0, 100)) > 0.0);
    }

    #[test]
    fn canadian_main_time_adds_half_a_stone_share() {
        let clock = Clock::new(TimeSystem::Canadian {
            main: 600.0,
            period: 300.0,
            stones: 25,
        });
        // 600 / 60 + 300 / 25 * 0.5 = 16 seconds, less the margin.
        assert!((secs(clock.allotment(0, 60)) - (16.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn japanese_main_time_never_gives_less_than_most_of_a_period() {
        let mut clock = Clock::new(TimeSystem::Byoyomi {
            main: 600.0,
            period: 30.0,
            periods: 5,
        });
        // Fresh: 600 / 100 = 6 s, raised to 0.8 of a period.
        assert!((secs(clock.allotment(1, 100)) - (24.0 - SAFETY_MARGIN)).abs() < 1e-9);
        clock.set_time_left(1, 500.0, 0);
        assert!((secs(clock.allotment(1, 10)) - (50.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn a_period_reset_restores_the_full_allotment() {
        let mut byoyomi = Clock::new(TimeSystem::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 3,
        });
        // Late in a period: only what is left of it counts.
        byoyomi.set_time_left(0, 2.0, 3);
        assert!((secs(byoyomi.allotment(0, 50)) - (1.6 - SAFETY_MARGIN)).abs() < 1e-9);
        // A move made in time resets the period.
        byoyomi.set_time_left(0, 10.0, 3);
        assert!((secs(byoyomi.allotment(0, 50)) - (8.0 - SAFETY_MARGIN)).abs() < 1e-9);

        let mut canadian = Clock::new(TimeSystem::Canadian {
            main: 0.0,
            period: 100.0,
            stones: 10,
        });
        canadian.set_time_left(1, 5.0, 1);
        assert!((secs(canadian.allotment(1, 50)) - (4.5 - SAFETY_MARGIN)).abs() < 1e-9);
        // The period's stones were played: a fresh period of 10 stones in 100 seconds.
        canadian.set_time_left(1, 100.0, 10);
        assert!((secs(canadian.allotment(1, 50)) - (9.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn new_settings_forget_time_left() {
        let mut clock = Clock::new(TimeSystem::Absolute { main: 600.0 });
        clock.apply(ClockCommand::TimeLeft {
            seat: 0,
            seconds: 6.0,
            stones: 0,
        });
        assert!((secs(clock.allotment(0, 10)) - (0.6 - 0.12)).abs() < 1e-9);
        clock.apply(ClockCommand::Settings(TimeSystem::Absolute { main: 100.0 }));
        assert!((secs(clock.allotment(0, 10)) - (10.0 - SAFETY_MARGIN)).abs() < 1e-9);
        clock.apply(ClockCommand::Settings(TimeSystem::Unlimited));
        assert_eq!(clock.allotment(0, 10), None);
    }

    const SIDES: &str = "a color (b or w)";

    fn side(word: &str) -> Option<usize> {
        match word {
            "b" => Some(0),
            "w" => Some(1),
            "x" => Some(2), // a broken game mapping: refused, not a panic later
            _ => None,
        }
    }

    fn parse(line: &str) -> Result<ClockCommand, GtpError> {
        let command = super::super::parse_command(line).expect("a command");
        ClockCommand::parse(&command, SIDES, side)
    }

    fn error(line: &str) -> String {
        parse(line).expect_err(line).to_string()
    }

    #[test]
    fn the_parser_reads_the_three_commands() {
        assert_eq!(
            parse("time_settings 300 30 5"),
            Ok(ClockCommand::Settings(TimeSystem::Canadian {
                main: 300.0,
                period: 30.0,
                stones: 5
            }))
        );
        assert_eq!(
            parse("time_settings 300 0 0"),
            Ok(ClockCommand::Settings(TimeSystem::Absolute { main: 300.0 }))
        );
        assert_eq!(
            parse("time_left w 25.5 3"),
            Ok(ClockCommand::TimeLeft {
                seat: 1,
                seconds: 25.5,
                stones: 3
            })
        );
        assert_eq!(
            parse("kgs-time_settings none"),
            Ok(ClockCommand::Settings(TimeSystem::Unlimited))
        );
        assert_eq!(
            parse("kgs-time_settings ABSOLUTE 600"),
            Ok(ClockCommand::Settings(TimeSystem::Absolute { main: 600.0 }))
        );
        assert_eq!(
            parse("kgs-time_settings byoyomi 600 30 5"),
            Ok(ClockCommand::Settings(TimeSystem::Byoyomi {
                main: 600.0,
                period: 30.0,
                periods: 5
            }))
        );
        assert_eq!(
            parse("kgs-time_settings canadian 600 300 25"),
            Ok(ClockCommand::Settings(TimeSystem::Canadian {
                main: 600.0,
                period: 300.0,
                stones: 25
            }))
        );
    }

    #[test]
    fn the_parser_names_what_was_wrong() {
        const KGS_USAGE: &str = "syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones>";
        assert_eq!(
            error("time_settings 300 30"),
            "syntax error: usage: time_settings <main_time> <byo_yomi_time> <byo_yomi_stones>"
        );
        assert_eq!(
            error("time_settings 10 x 0"),
            "syntax error: expected a number of seconds, got 'x'"
        );
        assert_eq!(
            error("time_settings -5 0 0"),
            "syntax error: expected a number of seconds, got '-5'"
        );
        assert_eq!(
            error("time_settings 1e308 0 0"),
            "syntax error: expected a number of seconds, got '1e308'"
        );
        assert_eq!(
            error("time_settings 300 30 -1"),
            "syntax error: expected a number of stones, got '-1'"
        );
        assert_eq!(
            error("time_left b 10"),
            "syntax error: usage: time_left <color> <time> <stones>"
        );
        assert_eq!(
            error("time_left purple 10 0"),
            "syntax error: expected a color (b or w), got 'purple'"
        );
        assert_eq!(
            error("time_left x 10 0"),
            "syntax error: expected a color (b or w), got 'x'"
        );
        assert_eq!(
            error("time_left w 1e400 0"),
            "syntax error: expected a number of seconds, got '1e400'"
        );
        assert_eq!(
            error("time_left w nan 0"),
            "syntax error: expected a number of seconds, got 'nan'"
        );
        assert_eq!(error("kgs-time_settings"), KGS_USAGE);
        assert_eq!(error("kgs-time_settings sudden 10"), KGS_USAGE);
        assert_eq!(error("kgs-time_settings absolute"), KGS_USAGE);
        assert_eq!(error("kgs-time_settings byoyomi 600 30"), KGS_USAGE);
        assert_eq!(
            error("kgs-time_settings byoyomi 600 30 many"),
            "syntax error: expected a number of periods, got 'many'"
        );
        assert_eq!(
            error("kgs-time_settings canadian 600 300 0"),
            "syntax error: canadian byo-yomi needs at least 1 stone a period"
        );
        assert_eq!(error("time_elapsed b 10 0"), "unknown command");
    }
}
