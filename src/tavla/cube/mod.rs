//! Cube decisions: Janowski's cubeful-equity interpolation, for money play over the net's
//! cubeless probabilities and for match play over match-winning chances read from the
//! published Kazaross-XG2 match equity table ([`met`]).
//!
//! Janowski (1993) interpolates between the dead cube (x = 0) and a perfectly efficient live
//! cube (x = 1). With p the chance of winning, W and L the average values of a win and a
//! loss (money: single 1, gammon 2, backgammon 3, weighted by the net's gammon and backgammon
//! chances), the equities at cube value 1 are
//!
//! * the side owns the cube:      p (W + L + x/2) − L
//! * the opponent owns it:        p (W + L + x/2) − L − x/2
//! * the cube is in the middle:   4/(4 − x) · (p (W + L + x/2) − L − x/4)
//!
//! The cube efficiency x is [`EFFICIENCY`], 0.68, the value Janowski and gnubg use for
//! contact positions (gnubg lowers it a little in long races; we keep one value). Against
//! the textbook gammonless points it gives a take point of 21.4% (the dead cube's 25%, the
//! perfectly live one's 20%), and the double, take and too-good points move with the
//! net's gammon chances through W and L.
//!
//! A double is taken when the doubler's equity after the take (twice "opponent owns") is at
//! most 1, the value of the drop, and made when the doubled game (or the drop) is worth more
//! than keeping the cube, unless the position is too good to double (playing on, cube
//! kept, is worth at least the drop).
//!
//! Match play (`match_play`) applies the same interpolation to match-winning chances,
//! with live-cube cash points worked out from the table at every cube level, as GNU
//! Backgammon does: each result (single, gammon, backgammon, at the present cube and at
//! twice it) is worth the match-winning chance it leads to, which is what the gammon values
//! ([`met::GammonValues`]) summarise.

mod kazaross_xg2;
mod match_play;
pub mod met;

pub use match_play::{MatchScore, in_match};
pub use met::{GammonValues, MAX_AWAY, Stage};

use super::net::Probs;

/// Janowski's cube efficiency (see the module notes).
pub const EFFICIENCY: f32 = 0.68;

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

/// What each result is worth, in the units of the decision: single, gammon and backgammon
/// wins, and the same losses (counted positive).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ResultValues {
    pub win: [f32; 3],
    pub lose: [f32; 3],
}

impl ResultValues {
    /// Money play: 1, 2 and 3 points.
    pub const MONEY: ResultValues = ResultValues {
        win: [1.0, 2.0, 3.0],
        lose: [1.0, 2.0, 3.0],
    };
}

impl Outlook {
    /// Money values: a single game 1, gammon 2, backgammon 3.
    pub fn money(probs: &Probs) -> Outlook {
        Outlook::valued(probs, &ResultValues::MONEY)
    }

    /// The outlook of `probs` (win, win gammon, win backgammon, lose gammon, lose
    /// backgammon) with each result worth `values`.
    pub fn valued(probs: &Probs, values: &ResultValues) -> Outlook {
        let p = probs[0].clamp(1e-6, 1.0 - 1e-6);
        // Gammon chances include backgammons; the net keeps them ordered, a hand-made
        // position may not: clamp so that no share is negative.
        let gammon = probs[1].clamp(0.0, p);
        let backgammon = probs[2].clamp(0.0, gammon);
        let lost_gammon = probs[3].clamp(0.0, 1.0 - p);
        let lost_backgammon = probs[4].clamp(0.0, lost_gammon);
        let wins = [p - gammon, gammon - backgammon, backgammon];
        let losses = [
            1.0 - p - lost_gammon,
            lost_gammon - lost_backgammon,
            lost_backgammon,
        ];
        let total = |shares: [f32; 3], worth: [f32; 3]| -> f32 {
            shares.iter().zip(worth).map(|(share, v)| share * v).sum()
        };
        Outlook {
            p,
            w: total(wins, values.win) / p,
            l: total(losses, values.lose) / (1.0 - p),
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
    /// Playing on for a gammon is worth more than the drop.
    pub too_good: bool,
}

/// Doubling and taking with outlooks at the current cube (`now`) and after the double
/// (`doubled`, in units of the current cube: a win there is worth about 2 W).
fn decide(now: &Outlook, doubled: &Outlook, access: Access, x_now: f32, x_taker: f32) -> Decision {
    let no_double = now.equity(access, x_now);
    let double_take = 2.0 * doubled.equity(Access::Theirs, x_taker);
    let take = double_take <= 1.0;
    // Past the cash point Janowski's formula runs above 1 with no gammons at all; only a
    // position whose gammons make playing on (cubeless) worth more than the drop is too good.
    let too_good = !take && now.dead() >= 1.0;
    let double = !too_good && (!take || double_take > no_double);
    Decision {
        no_double,
        double_take,
        double,
        take,
        too_good,
    }
}

/// Money play: whether the side with `probs` (before its roll) should double, with the cube
/// in the middle or its own; and whether the opponent should take.
pub fn money(probs: &Probs, access: Access) -> Decision {
    let outlook = Outlook::money(probs);
    decide(&outlook, &outlook, access, EFFICIENCY, EFFICIENCY)
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
