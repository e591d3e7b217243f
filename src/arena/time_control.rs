//! `--time-control`: the game clocks the arena keeps, tells the engines about, and charges.
//!
//! Forms: `none` (no clock: the engines' fixed budgets alone), `absolute:M` (M seconds for
//! the game), `byoyomi:M+PxN` (main time M, then N Japanese periods of P seconds; a move made
//! within a period resets it), `canadian:M+P/S` (main time M, then S moves in every P
//! seconds) and `fischer:M+I` or `fischer:M+I/C` (main time M, I seconds more after every
//! move, the clock never above C). Seconds may be decimals.
//!
//! The arena measures each move from sending the move request to receiving the answer,
//! charges the mover's clock by the rules of the time system, and the mover loses on time
//! when its clock runs out by more than [`GRACE`].

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::protocol::clock::TimeSystem;

/// Time forgiven before a clock that ran out loses the game: process scheduling and pipe
/// latency, which the engine does not control.
pub const GRACE: Duration = Duration::from_millis(200);

/// A time control of the command line.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum TimeControl {
    #[default]
    None,
    Absolute {
        main: f64,
    },
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    Canadian {
        main: f64,
        period: f64,
        stones: u32,
    },
    Fischer {
        main: f64,
        increment: f64,
        cap: Option<f64>,
    },
}

fn seconds(text: &str, what: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("expected {what} in seconds, got '{text}'"))?;
    if !value.is_finite() || !(0.0..=31_536_000.0).contains(&value) {
        return Err(format!(
            "{what} must be 0 to a year of seconds, got '{text}'"
        ));
    }
    Ok(value)
}

fn count(text: &str, what: &str) -> Result<u32, String> {
    text.trim()
        .parse()
        .ok()
        .filter(|&n: &u32| n >= 1)
        .ok_or_else(|| format!("expected {what} (at least 1), got '{text}'"))
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let usage = "use none, absolute:SECONDS, byoyomi:MAIN+PERIODxPERIODS, canadian:MAIN+PERIOD/STONES or fischer:MAIN+INCREMENT[/CAP]";
        let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
        let control = match kind.to_ascii_lowercase().as_str() {
            "none" if rest.is_empty() => TimeControl::None,
            "absolute" => {
                let main = seconds(rest, "the main time")?;
                if main <= 0.0 {
                    return Err("absolute time must be positive".to_owned());
                }
                TimeControl::Absolute { main }
            }
            "byoyomi" => {
                let (main, tail) = rest
                    .split_once('+')
                    .ok_or_else(|| format!("'{text}': {usage}"))?;
                let (period, periods) = tail
                    .split_once(['x', 'X'])
                    .ok_or_else(|| format!("'{text}': {usage}"))?;
                let period = seconds(period, "the byo-yomi period")?;
                if period <= 0.0 {
                    return Err("the byo-yomi period must be positive".to_owned());
                }
                TimeControl::Byoyomi {
                    main: seconds(main, "the main time")?,
                    period,
                    periods: count(periods, "a number of periods")?,
                }
            }
            "canadian" => {
                let (main, tail) = rest
                    .split_once('+')
                    .ok_or_else(|| format!("'{text}': {usage}"))?;
                let (period, stones) = tail
                    .split_once('/')
                    .ok_or_else(|| format!("'{text}': {usage}"))?;
                let period = seconds(period, "the Canadian period")?;
                if period <= 0.0 {
                    return Err("the Canadian period must be positive".to_owned());
                }
                TimeControl::Canadian {
                    main: seconds(main, "the main time")?,
                    period,
                    stones: count(stones, "a number of stones")?,
                }
            }
            "fischer" => fischer(rest).map_err(|why| format!("'{text}': {why}; {usage}"))?,
            _ => return Err(format!("unknown time control '{text}': {usage}")),
        };
        Ok(control)
    }
}

/// `MAIN+INCREMENT[/CAP]` of `fischer:`: a positive main time, an increment, and a cap on
/// the clock not below the main time.
fn fischer(rest: &str) -> Result<TimeControl, String> {
    let (main, tail) = rest
        .split_once('+')
        .ok_or_else(|| "expected MAIN+INCREMENT".to_owned())?;
    let (increment, cap) = match tail.split_once('/') {
        Some((increment, cap)) => (increment, Some(seconds(cap, "the cap")?)),
        None => (tail, None),
    };
    let main = seconds(main, "the main time")?;
    if main <= 0.0 {
        return Err("the main time must be positive".to_owned());
    }
    if cap.is_some_and(|cap| cap < main) {
        return Err("the cap must be at least the main time".to_owned());
    }
    Ok(TimeControl::Fischer {
        main,
        increment: seconds(increment, "the increment")?,
        cap,
    })
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::None => f.write_str("none"),
            TimeControl::Absolute { main } => write!(f, "absolute:{main}"),
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } => write!(f, "byoyomi:{main}+{period}x{periods}"),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => write!(f, "canadian:{main}+{period}/{stones}"),
            TimeControl::Fischer {
                main,
                increment,
                cap,
            } => {
                write!(f, "fischer:{main}+{increment}")?;
                match cap {
                    Some(cap) => write!(f, "/{cap}"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl TimeControl {
    pub fn is_none(&self) -> bool {
        *self == TimeControl::None
    }

    /// The protocol's time system (as the engines' own clocks model it).
    pub fn system(&self) -> TimeSystem {
        match *self {
            TimeControl::None => TimeSystem::Unlimited,
            TimeControl::Absolute { main } => TimeSystem::Absolute { main },
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } => TimeSystem::Byoyomi {
                main,
                period,
                periods,
            },
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => TimeSystem::Canadian {
                main,
                period,
                stones,
            },
            TimeControl::Fischer {
                main,
                increment,
                cap,
            } => TimeSystem::Fischer {
                main,
                increment,
                main_cap: cap,
                move_cap: None,
            },
        }
    }

    /// The setup command that tells an engine the time control: standard GTP
    /// `time_settings` for absolute and Canadian time, `kgs-time_settings byoyomi` for
    /// Japanese byo-yomi, KataGo's `kata-time_settings fischer` (`fischer-capped` with a
    /// cap) for Fischer time; none without a clock.
    pub fn settings_command(&self) -> Option<String> {
        match *self {
            TimeControl::None => None,
            TimeControl::Absolute { main } => Some(format!("time_settings {main} 0 0")),
            TimeControl::Byoyomi {
                main,
                period,
                periods,
            } => Some(format!(
                "kgs-time_settings byoyomi {main} {period} {periods}"
            )),
            TimeControl::Canadian {
                main,
                period,
                stones,
            } => Some(format!("time_settings {main} {period} {stones}")),
            TimeControl::Fischer {
                main,
                increment,
                cap: None,
            } => Some(format!("kata-time_settings fischer {main} {increment}")),
            TimeControl::Fischer {
                main,
                increment,
                cap: Some(cap),
            } => Some(format!(
                "kata-time_settings fischer-capped {main} {increment} {cap} -1"
            )),
        }
    }

    /// What an engine that lacks the settings command's extension gets instead: Japanese
    /// byo-yomi as Canadian overtime of one stone a period (as KGS does), Fischer time as
    /// absolute time (`time_left` then shows each increment); `None` where the standard
    /// command was the one sent.
    pub fn fallback_command(&self) -> Option<String> {
        match *self {
            TimeControl::Byoyomi { main, period, .. } => {
                Some(format!("time_settings {main} {period} 1"))
            }
            TimeControl::Fischer { main, .. } => Some(format!("time_settings {main} 0 0")),
            _ => None,
        }
    }

    /// The extension command whose support `known_command` is asked before the settings
    /// are sent (KataGo's, which a GTP engine without it may refuse in any way).
    pub fn extension(&self) -> Option<&'static str> {
        matches!(self, TimeControl::Fischer { .. }).then_some("kata-time_settings")
    }
}

/// One `--time-control` value: every bot's clock (`TC`), or one bot's (`NAME=TC`, time
/// odds). Bot names hold no `=`, time controls no `=`: the split is never ambiguous.
#[derive(Clone, Debug, PartialEq)]
pub struct ClockFlag {
    pub bot: Option<String>,
    pub control: TimeControl,
}

impl FromStr for ClockFlag {
    type Err = String;

    fn from_str(text: &str) -> Result<ClockFlag, String> {
        let (bot, control) = match text.split_once('=') {
            Some((bot, control)) => (Some(bot.trim().to_owned()), control),
            None => (None, text),
        };
        Ok(ClockFlag {
            bot,
            control: control.parse()?,
        })
    }
}

/// One player's clock during a game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerClock {
    /// Main time left.
    main: f64,
    /// In overtime: seconds left of the current period (Japanese: a full period, as periods
    /// reset).
    period_left: f64,
    /// In overtime: Japanese periods left, or Canadian stones left in this period.
    count: u32,
    overtime: bool,
    /// Thinking time charged so far, for the record.
    pub used: f64,
}

/// Why a clock ran out.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeLoss {
    /// How long the move took, in seconds.
    pub took: f64,
    /// What the clock allowed for it (grace excluded).
    pub allowed: f64,
}

impl fmt::Display for TimeLoss {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the move took {:.2} s, {:.2} s were left",
            self.took, self.allowed
        )
    }
}

impl PlayerClock {
    pub fn new(control: TimeControl) -> PlayerClock {
        let main = match control {
            TimeControl::None => 0.0,
            TimeControl::Absolute { main }
            | TimeControl::Byoyomi { main, .. }
            | TimeControl::Canadian { main, .. }
            | TimeControl::Fischer { main, .. } => main,
        };
        let mut clock = PlayerClock {
            main,
            period_left: 0.0,
            count: 0,
            overtime: false,
            used: 0.0,
        };
        if main <= 0.0 {
            clock.enter_overtime(control);
        }
        clock
    }

    fn enter_overtime(&mut self, control: TimeControl) {
        self.main = 0.0;
        match control {
            TimeControl::Byoyomi {
                period, periods, ..
            } => {
                self.overtime = true;
                self.period_left = period;
                self.count = periods;
            }
            TimeControl::Canadian { period, stones, .. } => {
                self.overtime = true;
                self.period_left = period;
                self.count = stones;
            }
            TimeControl::None | TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {}
        }
    }

    /// What `time_left SIDE seconds stones` says: in main time the main time left and 0;
    /// in overtime the time left of the period and the periods (Japanese) or stones
    /// (Canadian) left.
    pub fn time_left(&self) -> (f64, u32) {
        if self.overtime {
            (self.period_left.max(0.0), self.count)
        } else {
            (self.main.max(0.0), 0)
        }
    }

    /// The most the next move can take before the clock runs out (grace excluded).
    pub fn available(&self, control: TimeControl) -> f64 {
        match control {
            TimeControl::None => f64::INFINITY,
            TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => self.main,
            TimeControl::Byoyomi { period, .. } => {
                if self.overtime {
                    period * f64::from(self.count)
                } else {
                    self.main + period * f64::from(self.count_or(control))
                }
            }
            TimeControl::Canadian { period, .. } => {
                if self.overtime {
                    self.period_left
                } else {
                    self.main + period
                }
            }
        }
    }

    fn count_or(&self, control: TimeControl) -> u32 {
        match control {
            TimeControl::Byoyomi { periods, .. } if !self.overtime => periods,
            _ => self.count,
        }
    }

    /// Charges a move that took `took` seconds; `Err` when the clock ran out by more than
    /// [`GRACE`].
    pub fn charge(&mut self, control: TimeControl, took: f64) -> Result<(), TimeLoss> {
        // Counted without a clock too: the record gives both seats' thinking time when
        // only one of them plays on a clock (time odds against a fixed budget).
        self.used += took;
        if control.is_none() {
            return Ok(());
        }
        let grace = GRACE.as_secs_f64();
        let allowed = self.available(control);
        if took > allowed + grace {
            return Err(TimeLoss { took, allowed });
        }
        if let TimeControl::Fischer { increment, cap, .. } = control {
            // Within the grace the clock stands at zero, then gains the increment.
            let main = (self.main - took).max(0.0) + increment;
            self.main = cap.map_or(main, |cap| main.min(cap));
            return Ok(());
        }
        let mut rest = took;
        if !self.overtime {
            if rest <= self.main {
                self.main -= rest;
                return Ok(());
            }
            rest -= self.main;
            if matches!(control, TimeControl::Absolute { .. }) {
                // Within the grace: the clock stands at zero.
                self.main = 0.0;
                return Ok(());
            }
            self.enter_overtime(control);
        }
        match control {
            TimeControl::Byoyomi { period, .. } => {
                // Each period overrun is lost; the grace only forgives the last one.
                while rest > period && self.count > 1 {
                    rest -= period;
                    self.count -= 1;
                }
                self.period_left = period;
            }
            TimeControl::Canadian { period, stones, .. } => {
                self.period_left = (self.period_left - rest).max(0.0);
                self.count -= 1;
                if self.count == 0 {
                    self.period_left = period;
                    self.count = stones;
                }
            }
            TimeControl::None | TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints_every_form() {
        for text in [
            "none",
            "absolute:1800",
            "byoyomi:600+30x5",
            "canadian:600+300/25",
            "absolute:0.5",
            "fischer:300+5",
            "fischer:2.5+0.1/10",
        ] {
            let control: TimeControl = text.parse().expect(text);
            assert_eq!(control.to_string(), text);
        }
        assert!("absolute:0".parse::<TimeControl>().is_err());
        assert!("byoyomi:600+30".parse::<TimeControl>().is_err());
        assert!("byoyomi:600+30x0".parse::<TimeControl>().is_err());
        assert!("canadian:600+300/0".parse::<TimeControl>().is_err());
        assert!("fischer:0+1".parse::<TimeControl>().is_err());
        assert!("fischer:60".parse::<TimeControl>().is_err());
        assert!("fischer:60+1/30".parse::<TimeControl>().is_err());
        assert!("fischer:60+-1".parse::<TimeControl>().is_err());
        assert_eq!(
            "canadian:600+300/25"
                .parse::<TimeControl>()
                .unwrap()
                .settings_command()
                .unwrap(),
            "time_settings 600 300 25"
        );
        assert_eq!(
            "byoyomi:600+30x5"
                .parse::<TimeControl>()
                .unwrap()
                .settings_command()
                .unwrap(),
            "kgs-time_settings byoyomi 600 30 5"
        );
    }

    #[test]
    fn absolute_runs_down_and_loses_past_the_grace() {
        let control = TimeControl::Absolute { main: 2.0 };
        let mut clock = PlayerClock::new(control);
        assert_eq!(clock.time_left(), (2.0, 0));
        clock.charge(control, 1.5).unwrap();
        assert_eq!(clock.time_left(), (0.5, 0));
        clock.charge(control, 0.6).unwrap(); // within the grace
        assert_eq!(clock.time_left(), (0.0, 0));
        let loss = clock.charge(control, 0.3).unwrap_err();
        assert_eq!(loss.allowed, 0.0);
    }

    #[test]
    fn byoyomi_periods_reset_and_overruns_cost_a_period() {
        let control = TimeControl::Byoyomi {
            main: 10.0,
            period: 5.0,
            periods: 3,
        };
        let mut clock = PlayerClock::new(control);
        clock.charge(control, 12.0).unwrap(); // main gone, 2 s into the first period
        assert_eq!(clock.time_left(), (5.0, 3));
        clock.charge(control, 4.9).unwrap(); // within the period: it resets
        assert_eq!(clock.time_left(), (5.0, 3));
        clock.charge(control, 7.0).unwrap(); // one period lost
        assert_eq!(clock.time_left(), (5.0, 2));
        assert!(clock.charge(control, 10.1).is_ok()); // 2 periods, within the grace
        assert_eq!(clock.time_left(), (5.0, 1));
        assert!(clock.charge(control, 5.3).is_err());
    }

    #[test]
    fn canadian_stones_count_down_and_the_period_renews() {
        let control = TimeControl::Canadian {
            main: 1.0,
            period: 10.0,
            stones: 2,
        };
        let mut clock = PlayerClock::new(control);
        clock.charge(control, 3.0).unwrap(); // 2 s of the period, one stone
        assert_eq!(clock.time_left(), (8.0, 1));
        clock.charge(control, 7.0).unwrap(); // the period's last stone: renewed
        assert_eq!(clock.time_left(), (10.0, 2));
        clock.charge(control, 9.0).unwrap();
        assert!(clock.charge(control, 1.5).is_err());
        assert!(PlayerClock::new(control).used == 0.0);
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move_and_loses_past_the_grace() {
        let control: TimeControl = "fischer:2+1/3.5".parse().unwrap();
        assert_eq!(
            control.settings_command().unwrap(),
            "kata-time_settings fischer-capped 2 1 3.5 -1"
        );
        assert_eq!(control.fallback_command().unwrap(), "time_settings 2 0 0");
        let plain: TimeControl = "fischer:300+5".parse().unwrap();
        assert_eq!(
            plain.settings_command().unwrap(),
            "kata-time_settings fischer 300 5"
        );
        let mut clock = PlayerClock::new(control);
        assert_eq!(clock.time_left(), (2.0, 0));
        clock.charge(control, 0.5).unwrap();
        assert_eq!(clock.time_left(), (2.5, 0));
        clock.charge(control, 0.0).unwrap(); // capped at 3.5
        assert_eq!(clock.time_left(), (3.5, 0));
        clock.charge(control, 3.6).unwrap(); // within the grace: zero, then the increment
        assert_eq!(clock.time_left(), (1.0, 0));
        let loss = clock.charge(control, 1.3).unwrap_err();
        assert_eq!(loss.allowed, 1.0);
        // A seat without a clock never loses on time, yet its thinking time is counted.
        let mut free = PlayerClock::new(TimeControl::None);
        free.charge(TimeControl::None, 1e6).unwrap();
        assert_eq!(free.used, 1e6);
    }
}
