//! Match winning chances by score, read from the published Kazaross-XG2 table
//! (`super::kazaross_xg2`), and the gammon values they imply.
//!
//! The table covers matches up to 25 points, which is every match the player treats as a
//! match: longer ones are played with money-play cube decisions (see [`MAX_AWAY`]). No
//! formula extends the table; it replaced the cubeless recursion this module used to compute
//! (which overstated the leader before the Crawford game: 63.3% at 2-away/3-away where the
//! rollouts say 59.9%).

use super::kazaross_xg2::{LENGTH, POST_CRAWFORD, PRE_CRAWFORD};

/// Longest match the table covers; longer matches are treated as money play.
pub const MAX_AWAY: usize = LENGTH;

/// Which game of the match a score belongs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stage {
    /// No one is 1-away yet, or the next game is the Crawford game.
    PreCrawford,
    /// The Crawford game has been played (or the match has no Crawford rule).
    PostCrawford,
}

/// The chance that the side `away` points from winning the match wins it against a side
/// `their_away` points away, at `stage`. A side at 0 or below has won. Scores beyond the
/// table's 25 points are read at 25 (the player never asks for them).
pub fn chance(away: i64, their_away: i64, stage: Stage) -> f64 {
    if away <= 0 {
        return 1.0;
    }
    if their_away <= 0 {
        return 0.0;
    }
    let index = |n: i64| (n.min(LENGTH as i64) - 1) as usize;
    let (a, b) = (index(away), index(their_away));
    match (a, b, stage) {
        (0, 0, _) => 0.5,
        (0, _, Stage::PostCrawford) => 1.0 - POST_CRAWFORD[b],
        (_, 0, Stage::PostCrawford) => POST_CRAWFORD[a],
        _ => PRE_CRAWFORD[a][b],
    }
}

/// What a gammon and a backgammon add at a score, in units of the game at the present cube
/// (winning it is +1, losing it −1): a gammon won is worth `1 + 2 win_gammon`, a gammon lost
/// `−(1 + 2 lose_gammon)`. Money play's values are 0.5 and 1 (a gammon counts 2, a
/// backgammon 3).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GammonValues {
    pub win_gammon: f64,
    pub win_backgammon: f64,
    pub lose_gammon: f64,
    pub lose_backgammon: f64,
}

impl GammonValues {
    pub const MONEY: GammonValues = GammonValues {
        win_gammon: 0.5,
        win_backgammon: 1.0,
        lose_gammon: 0.5,
        lose_backgammon: 1.0,
    };

    /// The values for the side `away` from winning against `their_away` with the cube at
    /// `cube`, the game ending at `next` (the stage of the match after this game): the usual
    /// definition, (MWC(gammon) − MWC(single win)) / (MWC(single win) − MWC(single loss)).
    pub fn at(away: i64, their_away: i64, cube: i64, next: Stage) -> GammonValues {
        let win = |points: i64| chance(away - points, their_away, next);
        let lose = |points: i64| chance(away, their_away - points, next);
        let (single_win, single_loss) = (win(cube), lose(cube));
        let span = single_win - single_loss;
        // Both results end the match the same way (e.g. a 1-away side's win): no value.
        if span <= 1e-12 {
            return GammonValues {
                win_gammon: 0.0,
                win_backgammon: 0.0,
                lose_gammon: 0.0,
                lose_backgammon: 0.0,
            };
        }
        GammonValues {
            win_gammon: (win(2 * cube) - single_win) / span,
            win_backgammon: (win(3 * cube) - single_win) / span,
            lose_gammon: (single_loss - lose(2 * cube)) / span,
            lose_backgammon: (single_loss - lose(3 * cube)) / span,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_table_both_ways() {
        for a in 1..=25 {
            for b in 1..=25 {
                let sum = chance(a, b, Stage::PreCrawford) + chance(b, a, Stage::PreCrawford);
                assert!((sum - 1.0).abs() < 1e-4, "{a}-away/{b}-away");
            }
        }
        assert_eq!(chance(2, 1, Stage::PostCrawford), 0.48803);
        assert!((chance(1, 2, Stage::PostCrawford) - 0.51197).abs() < 1e-12);
        assert_eq!(chance(1, 1, Stage::PostCrawford), 0.5);
        assert_eq!(chance(30, 26, Stage::PreCrawford), 0.5);
    }

    #[test]
    fn money_like_at_long_even_scores() {
        let values = GammonValues::at(25, 25, 1, Stage::PreCrawford);
        assert!((values.win_gammon - 0.5).abs() < 0.05, "{values:?}");
        assert!((values.lose_gammon - 0.5).abs() < 0.05, "{values:?}");
    }
}
