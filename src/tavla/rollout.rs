//! Truncated rollouts: a position's probabilities before the roll, estimated by playing it on
//! at 0-ply over many seeded dice sequences and judging each where it stops (gnubg's and
//! wildbg's source of training labels, here with our own net as the player and the judge).
//!
//! A 2-ply label sees two rolls past the position and then trusts the net; a rollout sees
//! `horizon` plays past it, so its label carries what happens further on (a prime that
//! breaks, a blot hit five rolls later) back to the position the net is fitted on. Each trial
//! stops early where the game is over or contact is broken: the race net and the bear-off
//! database judge races better than a few more noisy rolls would.
//!
//! The first roll is stratified: trial `t` opens with the `t mod 36`th of the 36 ordered
//! rolls, so a multiple of 36 trials gives every opening roll its exact weight and the
//! first roll adds no noise. Later rolls come from trial `t`'s own seeded roller.

use crate::seed::derive_seed;

use super::board::{Board, Side};
use super::dice::{Dice, Roller};
use super::eval::{Evaluator, is_contact};
use super::moves::legal_plays;
use super::net::{Probs, invert};

/// How a rollout is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rollout {
    /// Games played from the position (a multiple of 36 stratifies the first roll exactly).
    pub trials: u32,
    /// Plays made in a trial (both sides counted) before its position is judged by the net.
    pub horizon: u32,
}

/// The probabilities for `on_roll` of `board` before its roll, averaged over `settings.trials`
/// truncated games played at 0-ply by `evaluator`; `seed` seeds the dice of every trial.
pub fn rollout(
    evaluator: &mut Evaluator,
    board: &Board,
    on_roll: Side,
    settings: Rollout,
    seed: u64,
) -> Probs {
    let trials = settings.trials.max(1);
    let mut total = [0.0f64; 5];
    for trial in 0..trials {
        let mut roller = Roller::new(derive_seed(seed, u64::from(trial)));
        let first = opening_roll(trial);
        let probs = play_trial(evaluator, board, on_roll, first, &mut roller, settings);
        for (t, p) in total.iter_mut().zip(probs) {
            *t += f64::from(p);
        }
    }
    total.map(|t| (t / f64::from(trials)) as f32)
}

/// The `trial mod 36`th of the 36 ordered rolls (1-1, 1-2, …, 6-6).
fn opening_roll(trial: u32) -> Dice {
    let index = (trial % 36) as u8;
    Dice::new(index / 6 + 1, index % 6 + 1).expect("faces 1 to 6")
}

/// One trial: `first` then the roller's dice, both sides playing their best play at 0-ply,
/// until the game ends, contact is broken or `horizon` plays are made; the probabilities of
/// where it stopped, for `on_roll`.
fn play_trial(
    evaluator: &mut Evaluator,
    start: &Board,
    on_roll: Side,
    first: Dice,
    roller: &mut Roller,
    settings: Rollout,
) -> Probs {
    let (mut board, mut mover, mut dice) = (*start, on_roll, first);
    let horizon = settings.horizon.max(1);
    for play in 1..=horizon {
        let candidates = legal_plays(&board, mover, dice);
        // The chosen play's probabilities are the 0-ply judgement of the position it leaves,
        // for the mover: the trial's result when it stops here.
        let (index, probs) = evaluator.choose(&candidates, mover, 0);
        board = candidates[index].after;
        // A finished game is no longer in contact either.
        if play == horizon || !is_contact(&board) {
            return if mover == on_roll {
                probs
            } else {
                invert(&probs)
            };
        }
        mover = mover.other();
        dice = roller.roll();
    }
    unreachable!("the last play returns")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tavla::net::Net;

    fn settings(trials: u32, horizon: u32) -> Rollout {
        Rollout { trials, horizon }
    }

    #[test]
    fn opening_rolls_cover_the_36_once() {
        let mut seen = std::collections::HashSet::new();
        for trial in 0..36 {
            let dice = opening_roll(trial);
            assert!(seen.insert((dice.first(), dice.second())));
        }
        assert_eq!(opening_roll(36), opening_roll(0));
    }

    #[test]
    fn a_one_play_rollout_is_the_one_ply_average() {
        // With a horizon of one play and the 36 opening rolls, the rollout is exactly the
        // average over the rolls of the best 0-ply play: the 1-ply label.
        let net = Net::builtin();
        let mut evaluator = Evaluator::new(net);
        let board = Board::start();
        let rolled = rollout(&mut evaluator, &board, Side::White, settings(36, 1), 7);
        let searched = evaluator.before_roll(&board, Side::White, 1);
        for (a, b) in rolled.iter().zip(searched) {
            assert!((a - b).abs() < 1e-5, "{rolled:?} against {searched:?}");
        }
    }

    #[test]
    fn rollouts_are_reproducible_by_seed() {
        let mut evaluator = Evaluator::new(Net::builtin());
        let board = Board::start();
        let one = rollout(&mut evaluator, &board, Side::Black, settings(36, 6), 3);
        let again = rollout(&mut evaluator, &board, Side::Black, settings(36, 6), 3);
        let other = rollout(&mut evaluator, &board, Side::Black, settings(36, 6), 4);
        assert_eq!(one, again);
        assert_ne!(one, other);
        assert!(one[0] > 0.35 && one[0] < 0.65, "{one:?}");
    }

    #[test]
    fn a_won_race_rolls_out_to_a_win() {
        // White has one checker left on its 1-point, black all fifteen on its 19-point (white's
        // 6-point): white bears off at once whatever the dice, and wins a backgammon (black has
        // borne none off and still has checkers in white's home board).
        let mut rows = [[0u8; 25]; 2];
        rows[0][0] = 1;
        rows[1][18] = 15;
        let board = Board::from_rows(rows).expect("board");
        let mut evaluator = Evaluator::new(Net::builtin());
        let probs = rollout(&mut evaluator, &board, Side::White, settings(36, 10), 1);
        assert_eq!(probs, [1.0, 1.0, 1.0, 0.0, 0.0]);
    }
}
