//! Time management by level: Tavla's search is a fixed depth (the 0-ply net, or one or
//! two opponent rolls ahead), not a search stopped by a deadline, so under a clock each
//! decision picks the deepest net level whose measured cost fits the clock's allotment,
//! never below the 0-ply net. Without a clock the configured level plays, as always.

use std::time::Duration;

use super::player::Level;

/// What a ply deeper is assumed to cost, times the level above, until it is measured: a
/// ply looks at 21 rolls of the few best plays.
const DEEPER_FACTOR: f64 = 15.0;

/// Seconds a decision at each net level is assumed to take at least until it is measured
/// (measured on the shared development machine, 2026-12-07: 0-ply ~2 ms a play, 1-ply
/// ~30 ms, 2-ply ~260 ms), so that a first decision too cheap to time (a forced play, a
/// cube that cannot turn) does not make the deeper levels look free.
const PRIOR_SECONDS: [f64; 3] = [0.002, 0.03, 0.3];

/// How much of the older estimate a new, cheaper measurement keeps: a costly decision
/// counts at once, cheap ones (a forced play, a race) lower the estimate only slowly.
const KEEP: f64 = 0.85;

/// The seconds the last decisions of one kind took at each net level (index: plies).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelCosts {
    seconds: [Option<f64>; 3],
}

fn net_level(plies: usize) -> Level {
    match plies {
        0 => Level::Net,
        1 => Level::Net1,
        _ => Level::Net2,
    }
}

impl LevelCosts {
    /// The expected seconds of a decision `plies` deep: measured, or else the prior or
    /// the level above extrapolated, whichever is more.
    fn estimate(&self, plies: usize) -> f64 {
        self.seconds[plies].unwrap_or_else(|| {
            let above = match plies {
                0 => 0.0,
                _ => self.estimate(plies - 1) * DEEPER_FACTOR,
            };
            above.max(PRIOR_SECONDS[plies])
        })
    }

    /// The level to play under `allotment` (none: no clock runs): `configured` where it is
    /// not a net level or fits, else the deepest shallower net level that fits, else the
    /// 0-ply net.
    pub fn choose(&self, configured: Level, allotment: Option<Duration>) -> Level {
        let (Some(allotment), Some(deepest)) = (allotment, configured.plies()) else {
            return configured;
        };
        let budget = allotment.as_secs_f64();
        (1..=deepest as usize)
            .rev()
            .find(|&plies| self.estimate(plies) <= budget)
            .map_or(Level::Net, net_level)
    }

    /// Records that a decision at `level` took `took`. The first measurement is blended
    /// with the estimate it replaces, as every later one with the last estimate.
    pub fn record(&mut self, level: Level, took: Duration) {
        let Some(plies) = level.plies() else { return };
        let plies = (plies as usize).min(2);
        let sample = took.as_secs_f64();
        let old = self.estimate(plies);
        self.seconds[plies] = Some(sample.max(KEEP * old + (1.0 - KEEP) * sample));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn no_clock_plays_the_configured_level() {
        let costs = LevelCosts::default();
        for level in Level::ALL {
            assert_eq!(costs.choose(level, None), level);
        }
        assert_eq!(costs.choose(Level::Greedy, ms(1)), Level::Greedy);
    }

    #[test]
    fn the_deepest_level_that_fits_plays() {
        let mut costs = LevelCosts::default();
        // Nothing measured: the priors.
        assert_eq!(costs.choose(Level::Net2, ms(10_000)), Level::Net2);
        assert_eq!(costs.choose(Level::Net2, ms(100)), Level::Net1);
        assert_eq!(costs.choose(Level::Net2, ms(10)), Level::Net);
        // A free 0-ply decision leaves the priors; a slow one raises the levels below it.
        costs.record(Level::Net, Duration::from_millis(0));
        assert_eq!(costs.choose(Level::Net2, ms(100)), Level::Net1);
        costs.record(Level::Net, Duration::from_millis(10));
        // 1-ply extrapolated to 150 ms, 2-ply to 2.25 s.
        assert_eq!(costs.choose(Level::Net2, ms(10_000)), Level::Net2);
        assert_eq!(costs.choose(Level::Net2, ms(1_000)), Level::Net1);
        assert_eq!(costs.choose(Level::Net2, ms(100)), Level::Net);
        assert_eq!(costs.choose(Level::Net1, ms(10_000)), Level::Net1);
        assert_eq!(costs.choose(Level::Net2, ms(1)), Level::Net);
        // A slow 2-ply decision measured: it no longer fits the same budget.
        costs.record(Level::Net2, Duration::from_millis(20_000));
        assert_eq!(costs.choose(Level::Net2, ms(10_000)), Level::Net1);
    }

    #[test]
    fn a_costly_decision_counts_at_once_a_cheap_one_slowly() {
        let mut costs = LevelCosts::default();
        costs.record(Level::Net1, Duration::from_millis(100));
        costs.record(Level::Net1, Duration::from_millis(0));
        assert!(costs.seconds[1].is_some_and(|s| (s - 0.085).abs() < 1e-9));
        costs.record(Level::Net1, Duration::from_millis(500));
        assert!(costs.seconds[1].is_some_and(|s| (s - 0.5).abs() < 1e-9));
    }
}
