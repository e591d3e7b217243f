//! Time controls and how much of the clock a move may use.
//!
//! GTP's `time_settings` describes Canadian byo-yomi (`byo_yomi_stones` stones in
//! `byo_yomi_time` seconds after the main time); `kgs-time_settings` adds absolute time and
//! Japanese byo-yomi (a number of periods of `byo_yomi_time` seconds each).

use std::fmt;
use std::time::Duration;

use crate::go::Color;

/// The time system of a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSystem {
    /// No clock: the fixed playout budget alone decides.
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

/// What the controller last said of one player's clock (`time_left color time stones`):
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
    remaining: [Option<Remaining>; 2],
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

    pub fn set_time_left(&mut self, color: Color, seconds: f64, stones: u32) {
        self.remaining[color.index()] = Some(Remaining { seconds, stones });
    }

    /// The wall time `color` may spend on its next move, or `None` when no clock runs.
    /// `moves_left` estimates how many moves `color` still has to make in the game.
    pub fn allotment(&self, color: Color, moves_left: u32) -> Option<Duration> {
        let moves_left = f64::from(moves_left.max(1));
        let remaining = self.remaining[color.index()];
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
        assert_eq!(Clock::default().allotment(Color::Black, 40), None);
    }

    #[test]
    fn absolute_time_is_spread_over_the_moves_left() {
        let mut clock = Clock::new(TimeSystem::Absolute { main: 600.0 });
        assert!((secs(clock.allotment(Color::Black, 60)) - 9.7).abs() < 1e-9);
        clock.set_time_left(Color::Black, 30.0, 0);
        assert!((secs(clock.allotment(Color::Black, 60)) - 0.4).abs() < 1e-9);
        // White's clock is untouched by Black's time_left.
        assert!((secs(clock.allotment(Color::White, 60)) - 9.7).abs() < 1e-9);
    }

    #[test]
    fn canadian_overtime_divides_by_stones_left() {
        let mut clock = Clock::new(TimeSystem::Canadian {
            main: 0.0,
            period: 100.0,
            stones: 10,
        });
        clock.set_time_left(Color::White, 40.0, 4);
        assert!((secs(clock.allotment(Color::White, 50)) - (9.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn japanese_periods_use_most_of_a_period() {
        let mut clock = Clock::new(TimeSystem::Byoyomi {
            main: 0.0,
            period: 10.0,
            periods: 3,
        });
        clock.set_time_left(Color::Black, 10.0, 3);
        assert!((secs(clock.allotment(Color::Black, 50)) - (8.0 - SAFETY_MARGIN)).abs() < 1e-9);
    }

    #[test]
    fn absurd_clocks_stay_within_a_day() {
        let clock = Clock::new(TimeSystem::Absolute { main: f64::MAX });
        assert_eq!(
            secs(clock.allotment(Color::Black, 1)),
            MAX_ALLOTMENT_SECONDS
        );
        let clock = Clock::new(TimeSystem::Canadian {
            main: 0.0,
            period: f64::MAX,
            stones: 1,
        });
        assert_eq!(
            secs(clock.allotment(Color::Black, 1)),
            MAX_ALLOTMENT_SECONDS
        );
    }

    #[test]
    fn allotment_never_drops_to_zero() {
        let mut clock = Clock::new(TimeSystem::Absolute { main: 1.0 });
        clock.set_time_left(Color::Black, 0.0, 0);
        assert!(secs(clock.allotment(Color::Black, 100)) > 0.0);
    }
}
