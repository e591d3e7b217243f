//! Cube decisions: Janowski's cubeful-equity interpolation for money play, and for match
//! play the same formulas applied to match-winning chances read from a match equity table
//! that this module computes.
//!
//! Janowski (1993) interpolates between the dead cube (x = 0) and a perfectly efficient live
//! cube (x = 1). With p the chance of winning, W and L the average values of a win and a
//! loss, the equities at cube value 1 are
//!
//! * the side owns the cube:      p (W + L + x/2) − L
//! * the opponent owns it:        p (W + L + x/2) − L − x/2
//! * the cube is in the middle:   4/(4 − x) · (p (W + L + x/2) − L − x/4)
//!
//! A double is taken when the doubler's equity after the take (twice "opponent owns") is at
//! most 1, the value of the drop, and made when the doubled game (or the drop) is worth more
//! than keeping the cube, unless the position is too good (cubeless equity above 1).
//!
//! The match equity table is computed by the usual recursion over game results with a
//! gammon rate of 0.26 (backgammons ignored) and equal chances in each game: after the
//! Crawford game the trailer doubles at once, so each game there is played for 2 points
//! (4 with a gammon); the Crawford game is played for 1 (2); before it the recursion is
//! cubeless. It reproduces the familiar anchors (about 68.5% for 1-away against 2-away at the
//! Crawford game, 50% at equal scores) though not every entry of a table built from rollouts.

use std::sync::OnceLock;

use super::net::Probs;

/// Janowski's cube efficiency for money play.
pub const EFFICIENCY: f32 = 0.68;
/// The share of wins that are gammons, for the match equity table.
pub const GAMMON_RATE: f64 = 0.26;
/// Longest match the table covers; longer matches are treated as money play.
pub const MAX_AWAY: usize = 64;

/// Who may double next, seen from the side deciding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Access {
    Centered,
    Owned,
    Theirs,
}

/// The win probability and the average values of a win and a loss.
#[derive(Copy, Clone, Debug)]
pub struct Outlook {
    pub p: f32,
    pub w: f32,
    pub l: f32,
}

impl Outlook {
    /// Money values: a single game 1, gammon 2, backgammon 3.
    pub fn money(probs: &Probs) -> Outlook {
        let p = probs[0].clamp(1e-6, 1.0 - 1e-6);
        Outlook {
            p,
            w: (p + probs[1] + probs[2]) / p,
            l: (1.0 - p + probs[3] + probs[4]) / (1.0 - p),
        }
    }

    /// Cubeless equity.
    pub fn dead(&self) -> f32 {
        self.p * (self.w + self.l) - self.l
    }

    /// Janowski's cubeful equity at cube value 1.
    pub fn equity(&self, access: Access, x: f32) -> f32 {
        let base = self.p * (self.w + self.l + 0.5 * x) - self.l;
        match access {
            Access::Owned => base,
            Access::Theirs => base - 0.5 * x,
            Access::Centered => 4.0 / (4.0 - x) * (base - 0.25 * x),
        }
    }
}

/// A cube decision for the side that may double.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Decision {
    /// Equity keeping the cube, after a double taken, and 1 for a drop (cube value 1 units).
    pub no_double: f32,
    pub double_take: f32,
    pub double: bool,
    pub take: bool,
}

/// Doubling and taking with outlooks at the current cube (`now`) and after the double
/// (`doubled`, in units of the current cube: a win there is worth about 2 W).
fn decide(now: &Outlook, doubled: &Outlook, access: Access, x_now: f32, x_taker: f32) -> Decision {
    let no_double = now.equity(access, x_now);
    let double_take = 2.0 * doubled.equity(Access::Theirs, x_taker);
    let take = double_take <= 1.0;
    let too_good = now.dead() >= 1.0 && no_double >= 1.0;
    let doubled_value = double_take.min(1.0);
    let double = !too_good && (doubled_value > no_double.min(1.0) || double_take >= 1.0);
    Decision {
        no_double,
        double_take,
        double,
        take,
    }
}

/// Money play: whether the side with `probs` (before its roll) should double, with the cube
/// in the middle or its own; and whether the opponent should take.
pub fn money(probs: &Probs, access: Access) -> Decision {
    let outlook = Outlook::money(probs);
    decide(&outlook, &outlook, access, EFFICIENCY, EFFICIENCY)
}

/// Match winning chances of the side `away` points from winning against `their_away`.
#[derive(Clone, Debug)]
pub struct Met {
    /// `pre[a][b]`: before the Crawford game (and in matches without the Crawford rule when
    /// neither side is 1-away).
    pre: Vec<Vec<f64>>,
    /// `crawford[n]`: the 1-away leader's chance in the Crawford game against n-away.
    crawford: Vec<f64>,
    /// `post[n]`: the 1-away leader's chance after the Crawford game against n-away.
    post: Vec<f64>,
}

/// Which game of the match the score belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// No one is 1-away yet, or the next game is the Crawford game.
    PreCrawford,
    /// This game is the Crawford game.
    Crawford,
    /// The Crawford game has been played (or the match has no Crawford rule).
    PostCrawford,
}

impl Met {
    pub fn get() -> &'static Met {
        static MET: OnceLock<Met> = OnceLock::new();
        MET.get_or_init(|| Met::compute(GAMMON_RATE))
    }

    pub fn compute(g: f64) -> Met {
        let n = MAX_AWAY + 1;
        // Trailer's chance post-Crawford, needing t points against a 1-away leader.
        let mut trailer = vec![1.0f64; n + 4];
        let t = |v: &Vec<f64>, k: i64| if k <= 0 { 1.0 } else { v[k as usize] };
        trailer[1] = 0.5;
        for k in 2..=n {
            trailer[k] =
                0.5 * ((1.0 - g) * t(&trailer, k as i64 - 2) + g * t(&trailer, k as i64 - 4));
        }
        let post: Vec<f64> = (0..=n).map(|k| 1.0 - t(&trailer, k as i64)).collect();
        let crawford: Vec<f64> = (0..=n)
            .map(|k| {
                let k = k as i64;
                1.0 - 0.5 * ((1.0 - g) * t(&trailer, k - 1) + g * t(&trailer, k - 2))
            })
            .collect();
        // Pre-Crawford: reaching 1-away makes the next game the Crawford game.
        let mut pre = vec![vec![0.5f64; n + 1]; n + 1];
        let value = |pre: &Vec<Vec<f64>>, a: i64, b: i64| -> f64 {
            if a <= 0 {
                1.0
            } else if b <= 0 {
                0.0
            } else if a == 1 {
                crawford[b as usize]
            } else if b == 1 {
                1.0 - crawford[a as usize]
            } else {
                pre[a as usize][b as usize]
            }
        };
        for total in 4..=2 * n {
            for a in 2..=n {
                let Some(b) = total.checked_sub(a).filter(|b| (2..=n).contains(b)) else {
                    continue;
                };
                let (a, b) = (a as i64, b as i64);
                let win = (1.0 - g) * value(&pre, a - 1, b) + g * value(&pre, a - 2, b);
                let lose = (1.0 - g) * value(&pre, a, b - 1) + g * value(&pre, a, b - 2);
                pre[a as usize][b as usize] = 0.5 * (win + lose);
            }
        }
        Met {
            pre,
            crawford,
            post,
        }
    }

    /// The chance of the side `away` from winning against `their_away`, at `stage`.
    pub fn chance(&self, away: i64, their_away: i64, stage: Stage) -> f64 {
        if away <= 0 {
            return 1.0;
        }
        if their_away <= 0 {
            return 0.0;
        }
        let (a, b) = (
            (away as usize).min(MAX_AWAY),
            (their_away as usize).min(MAX_AWAY),
        );
        match (a, b) {
            (1, 1) => 0.5,
            (1, _) => match stage {
                Stage::PostCrawford => self.post[b],
                _ => self.crawford[b],
            },
            (_, 1) => match stage {
                Stage::PostCrawford => 1.0 - self.post[a],
                _ => 1.0 - self.crawford[a],
            },
            _ => self.pre[a][b],
        }
    }
}

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
    /// The stage of the score after this game ends.
    fn next_stage(&self) -> Stage {
        if self.post_crawford || self.crawford_game {
            Stage::PostCrawford
        } else {
            Stage::PreCrawford
        }
    }

    /// The outlook at cube value `cube`, in units where winning and losing the current cube
    /// value are +1 and −1 (mapped from match winning chances).
    fn outlook(&self, probs: &Probs, cube: i64) -> Outlook {
        let met = Met::get();
        let stage = self.next_stage();
        let win_at = |k: i64| met.chance(self.away - k, self.their_away, stage);
        let lose_at = |k: i64| met.chance(self.away, self.their_away - k, stage);
        let (plus, minus) = (win_at(self.cube), lose_at(self.cube));
        let scale = |mwc: f64| (2.0 * (mwc - minus) / (plus - minus) - 1.0) as f32;
        let p = probs[0].clamp(1e-6, 1.0 - 1e-6);
        let (single, gammon, backgammon) = (p - probs[1], probs[1] - probs[2], probs[2]);
        let (lsingle, lgammon, lbackgammon) = (1.0 - p - probs[3], probs[3] - probs[4], probs[4]);
        let w = (single * scale(win_at(cube))
            + gammon * scale(win_at(2 * cube))
            + backgammon * scale(win_at(3 * cube)))
            / p;
        let l = -(lsingle * scale(lose_at(cube))
            + lgammon * scale(lose_at(2 * cube))
            + lbackgammon * scale(lose_at(3 * cube)))
            / (1.0 - p);
        Outlook { p, w, l }
    }
}

/// Match play: the decision for the side at `score` with `probs`, the cube `access` it has.
pub fn in_match(probs: &Probs, access: Access, score: &MatchScore) -> Decision {
    let now = score.outlook(probs, score.cube);
    let mut doubled = score.outlook(probs, 2 * score.cube);
    // Janowski's formulas take the doubled game in units of the doubled cube.
    doubled.w /= 2.0;
    doubled.l /= 2.0;
    // A cube is dead for a side that wins the match with it at its present value.
    let x_now = if score.away <= score.cube {
        0.0
    } else {
        EFFICIENCY
    };
    let x_taker = if score.their_away <= 2 * score.cube {
        0.0
    } else {
        EFFICIENCY
    };
    let mut decision = decide(&now, &doubled, access, x_now, x_taker);
    if score.crawford_game || score.away <= score.cube {
        decision.double = false;
    }
    decision
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(p: f32) -> Probs {
        [p, 0.0, 0.0, 0.0, 0.0]
    }

    #[test]
    fn janowski_money_points() {
        // Gammonless, x = 0.68: take point (L - 1/2)/(W + L + x/2) = 0.5/2.34.
        let tp = 0.5 / 2.34;
        assert!(money(&plain(1.0 - tp - 0.01), Access::Centered).take);
        assert!(!money(&plain(1.0 - tp + 0.01), Access::Centered).take);
        // Dead cube at x = 0 is the cubeless equity.
        let o = Outlook::money(&plain(0.7));
        assert!((o.equity(Access::Centered, 0.0) - 0.4).abs() < 1e-6);
        // At the take point the taker, owning the cube at twice the value, is at -1/2.
        let at_tp = Outlook::money(&plain(tp));
        assert!((at_tp.equity(Access::Owned, EFFICIENCY) + 0.5).abs() < 1e-5);
        // The centred cube at x = 1 (gammonless) is worth +1 at the cash point 80%.
        let cash = Outlook::money(&plain(0.8));
        assert!((cash.equity(Access::Centered, 1.0) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn money_decisions() {
        // An even game: no double.
        assert!(!money(&plain(0.5), Access::Centered).double);
        // A big race lead without gammons: double, and a 20% position is a pass.
        let strong = money(&plain(0.82), Access::Centered);
        assert!(strong.double && !strong.take);
        // A 72% position: double and take.
        let good = money(&plain(0.72), Access::Centered);
        assert!(good.double && good.take, "{good:?}");
        // Too good: almost sure win with many gammons: play on.
        let huge = money(&[0.97, 0.6, 0.05, 0.0, 0.0], Access::Centered);
        assert!(!huge.double, "{huge:?}");
    }

    #[test]
    fn met_anchors() {
        let met = Met::get();
        assert!((met.chance(3, 3, Stage::PreCrawford) - 0.5).abs() < 1e-12);
        assert!((met.chance(7, 7, Stage::PreCrawford) - 0.5).abs() < 1e-12);
        // Crawford game, 1-away against 2-away: 1 - 0.5 * (0.74 * 0.5 + 0.26) = 0.685.
        assert!((met.chance(1, 2, Stage::Crawford) - 0.685).abs() < 1e-9);
        // Post-Crawford against 2-away: the trailer doubles, it is one game: 50%.
        assert!((met.chance(1, 2, Stage::PostCrawford) - 0.5).abs() < 1e-9);
        for a in 2..12 {
            for b in 2..12 {
                let m = met.chance(a, b, Stage::PreCrawford);
                let mirrored = met.chance(b, a, Stage::PreCrawford);
                assert!((m + mirrored - 1.0).abs() < 1e-9);
                assert!(met.chance(a, b + 1, Stage::PreCrawford) > m);
            }
        }
        assert_eq!(met.chance(0, 5, Stage::PreCrawford), 1.0);
        assert_eq!(met.chance(5, 0, Stage::PreCrawford), 0.0);
    }

    #[test]
    fn match_decisions() {
        // Post-Crawford, the trailer (4-away) doubles an even game at once; the leader takes.
        let score = MatchScore {
            away: 4,
            their_away: 1,
            cube: 1,
            crawford_game: false,
            post_crawford: true,
        };
        let d = in_match(&[0.5, 0.13, 0.0, 0.13, 0.0], Access::Centered, &score);
        assert!(d.double && d.take, "{d:?}");
        // No double in the Crawford game.
        let crawford = MatchScore {
            crawford_game: true,
            post_crawford: false,
            ..score
        };
        assert!(!in_match(&plain(0.9), Access::Centered, &crawford).double);
        // At a long match's even score the match decision resembles money play.
        let even = MatchScore {
            away: 15,
            their_away: 15,
            cube: 1,
            crawford_game: false,
            post_crawford: false,
        };
        assert!(!in_match(&plain(0.5), Access::Centered, &even).double);
        let d = in_match(&plain(0.85), Access::Centered, &even);
        assert!(d.double && !d.take, "{d:?}");
    }
}
