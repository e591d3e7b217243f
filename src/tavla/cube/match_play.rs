//! Match play cube decisions: Janowski's interpolation between a dead and a perfectly live
//! cube, worked in match-winning chances (MWC) read from the match equity table, the way
//! GNU Backgammon does it.
//!
//! With the cube at c, a side's MWC as a function of its winning chance p is, for a dead
//! cube, the straight line from L (losing at c, weighted by the position's gammon and
//! backgammon shares) to W (winning at c, the same). For a perfectly live cube it is the
//! broken line through (0, L), (the opponent's cash point, MWC of losing c), (our cash point,
//! MWC of winning c) and (1, W), the middle points present only for a side that may double.
//! A cash point is where the taker's MWC after taking (the cube then at 2c and its own,
//! itself live up to its cash point at 2c) falls to the MWC of passing: a recursion up the
//! cube levels that ends where a cube already wins the match for the side that would own it
//! (its cash point is then 1: doubling cannot help it). The cubeful MWC is x·live + (1 − x)·dead
//! with x = [`EFFICIENCY`].
//!
//! Unlike money play's closed formulas, this sees that after the Crawford game the leader
//! cannot use the cube (so the trailer doubles at once), and that a leader's double at
//! 2-away/4-away hands the trailer a redouble that is deadly.

use super::met::{self, GammonValues, Stage};
use super::{Access, Decision, EFFICIENCY};
use crate::tavla::net::Probs;

/// The highest cube the rules allow.
const MAX_CUBE: i64 = 64;

/// A match score for the side deciding.
#[derive(Copy, Clone, Debug)]
pub struct MatchScore {
    pub away: i64,
    pub their_away: i64,
    pub cube: i64,
    /// Whether this game is the Crawford game.
    pub crawford_game: bool,
    /// Whether the Crawford game is over, or the match has no Crawford rule.
    pub post_crawford: bool,
}

impl MatchScore {
    /// The stage of the match after this game ends.
    pub fn next_stage(&self) -> Stage {
        if self.post_crawford || self.crawford_game {
            Stage::PostCrawford
        } else {
            Stage::PreCrawford
        }
    }

    /// The gammon values at this score and the present cube.
    pub fn gammon_values(&self) -> GammonValues {
        GammonValues::at(self.away, self.their_away, self.cube, self.next_stage())
    }
}

/// One side's view of the game: its distance, the opponent's, and how its wins and losses
/// split into singles, gammons and backgammons (each triple sums to 1).
#[derive(Copy, Clone, Debug)]
struct View {
    away: i64,
    their_away: i64,
    stage: Stage,
    p: f64,
    wins: [f64; 3],
    losses: [f64; 3],
}

impl View {
    fn new(probs: &Probs, score: &MatchScore) -> View {
        let p = f64::from(probs[0].clamp(1e-6, 1.0 - 1e-6));
        let share = |total: f64, gammon: f32, backgammon: f32| -> [f64; 3] {
            let gammon = f64::from(gammon).clamp(0.0, total);
            let backgammon = f64::from(backgammon).clamp(0.0, gammon);
            [
                (total - gammon) / total,
                (gammon - backgammon) / total,
                backgammon / total,
            ]
        };
        View {
            away: score.away,
            their_away: score.their_away,
            stage: score.next_stage(),
            p,
            wins: share(p, probs[1], probs[2]),
            losses: share(1.0 - p, probs[3], probs[4]),
        }
    }

    /// The opponent's view.
    fn flipped(&self) -> View {
        View {
            away: self.their_away,
            their_away: self.away,
            stage: self.stage,
            p: 1.0 - self.p,
            wins: self.losses,
            losses: self.wins,
        }
    }

    /// MWC after winning a single game at `cube`, which a pass of a double at `cube` is
    /// worth as well.
    fn cash_win(&self, cube: i64) -> f64 {
        met::chance(self.away - cube, self.their_away, self.stage)
    }

    fn cash_lose(&self, cube: i64) -> f64 {
        met::chance(self.away, self.their_away - cube, self.stage)
    }

    /// MWC of a win at `cube`, averaged over singles, gammons and backgammons.
    fn win_value(&self, cube: i64) -> f64 {
        (1..=3)
            .zip(self.wins)
            .map(|(n, share)| {
                share * met::chance(self.away - n * cube, self.their_away, self.stage)
            })
            .sum()
    }

    fn lose_value(&self, cube: i64) -> f64 {
        (1..=3)
            .zip(self.losses)
            .map(|(n, share)| {
                share * met::chance(self.away, self.their_away - n * cube, self.stage)
            })
            .sum()
    }

    /// This side's cash point with the cube at `cube` in the middle or its own: the winning
    /// chance above which the opponent passes its double. 1 when doubling cannot help it
    /// (its cube already wins the match, or the cube is at the cap).
    fn cash_point(&self, cube: i64) -> f64 {
        if self.away <= cube || cube >= MAX_CUBE {
            return 1.0;
        }
        // After the take the opponent owns 2·cube: our MWC rises from losing at 2·cube to
        // its cash (we lose 2·cube) at its cash point, then on to winning at 2·cube.
        let their_cash = 1.0 - self.flipped().cash_point(2 * cube);
        let (from, to) = (self.cash_lose(2 * cube), self.win_value(2 * cube));
        let pass = self.cash_win(cube);
        if to - from <= 1e-12 {
            return 1.0;
        }
        (their_cash + (pass - from) * (1.0 - their_cash) / (to - from)).clamp(0.0, 1.0)
    }

    /// The MWC of a perfectly live cube at `cube` where `mine`/`theirs` say who may double.
    fn live(&self, cube: i64, mine: bool, theirs: bool) -> f64 {
        let mut points = vec![(0.0, self.lose_value(cube))];
        let mut low = if theirs {
            1.0 - self.flipped().cash_point(cube)
        } else {
            0.0
        };
        let mut high = if mine { self.cash_point(cube) } else { 1.0 };
        if low > high {
            // Both would cash first: no room between the points; meet in the middle.
            let middle = 0.5 * (low + high);
            (low, high) = (middle, middle);
        }
        if theirs {
            points.push((low, self.cash_lose(cube)));
        }
        if mine {
            points.push((high, self.cash_win(cube)));
        }
        points.push((1.0, self.win_value(cube)));
        interpolate(&points, self.p)
    }

    fn dead(&self, cube: i64) -> f64 {
        self.p * self.win_value(cube) + (1.0 - self.p) * self.lose_value(cube)
    }

    fn cubeful(&self, cube: i64, mine: bool, theirs: bool) -> f64 {
        let x = f64::from(EFFICIENCY);
        x * self.live(cube, mine, theirs) + (1.0 - x) * self.dead(cube)
    }
}

/// The broken line through `points` (ordered by their first coordinate) at `p`.
fn interpolate(points: &[(f64, f64)], p: f64) -> f64 {
    for pair in points.windows(2) {
        let ((x0, y0), (x1, y1)) = (pair[0], pair[1]);
        if p <= x1 {
            if x1 - x0 <= 1e-12 {
                return y1;
            }
            return y0 + (y1 - y0) * (p - x0) / (x1 - x0);
        }
    }
    points.last().map_or(0.0, |&(_, y)| y)
}

/// Match play: the decision for the side at `score` with `probs`, the cube `access` it has.
/// Equities are in units of the present cube: winning and losing a single game are +1, −1.
pub fn in_match(probs: &Probs, access: Access, score: &MatchScore) -> Decision {
    let view = View::new(probs, score);
    let cube = score.cube;
    let open = !score.crawford_game;
    let (mine, theirs) = match access {
        Access::Centered => (open, open),
        Access::Owned => (open, false),
        Access::Theirs => (false, open),
    };
    let no_double = view.cubeful(cube, mine, theirs);
    let double_take = view.cubeful(2 * cube, false, open);
    let pass = view.cash_win(cube);
    let take = double_take <= pass;
    let too_good = !take && no_double >= pass;
    let may = mine && score.away > cube && cube < MAX_CUBE;
    let double = may && !too_good && double_take.min(pass) > no_double;
    let (plus, minus) = (pass, view.cash_lose(cube));
    let units = |mwc: f64| {
        if plus - minus <= 1e-12 {
            0.0
        } else {
            (2.0 * (mwc - minus) / (plus - minus) - 1.0) as f32
        }
    };
    Decision {
        no_double: units(no_double),
        double_take: units(double_take),
        double,
        take,
        too_good,
    }
}
