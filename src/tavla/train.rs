//! Self-play training of the net by TD(λ).
//!
//! The net plays both sides at 0-ply from the standard start (the first roll by the opening
//! rule), dice from one seeded roller, so a seed and a game count give the same weights on
//! the same build. After each game every position the net evaluated is moved towards its
//! λ-return: the finished game's result blended backwards with the evaluations of the
//! positions that followed, `G_t = (1 - λ) V_{t+1} + λ G_{t+1}` (the offline form of TD(λ)).
//! Positions answered by the bear-off database or by the end of the game are not trained;
//! their exact values feed the returns of the positions before them.

use super::bearoff;
use super::board::{Board, Side};
use super::dice::{Dice, Roller};
use super::eval::{Evaluator, won};
use super::moves::legal_plays;
use super::net::{Inputs, Net, Probs, invert};

/// Training settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: u64,
    pub seed: u64,
    pub lambda: f32,
    /// Learning rate at the start; it decays as `rate / (1 + games / decay)`.
    pub rate: f32,
    pub decay: f32,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            games: 100_000,
            seed: 1,
            lambda: 0.7,
            rate: 0.05,
            decay: 100_000.0,
        }
    }
}

/// One position met in a game: the board, the side on roll, the net's probabilities for
/// that side when the position was reached, and whether the net (rather than the database
/// or the end of the game) gave them.
struct Visit {
    board: Board,
    on_roll: Side,
    probs: Probs,
    trainable: bool,
}

/// Trains from `start` (or fresh seeded weights); calls `progress` after every game with the
/// games played so far and the net.
pub fn train(options: &Options, start: Option<Net>, mut progress: impl FnMut(u64, &Net)) -> Net {
    let mut net = start.unwrap_or_else(|| Net::random(options.seed));
    let mut roller = Roller::new(options.seed ^ 0x7A71_A7D1);
    let mut visits: Vec<Visit> = Vec::with_capacity(256);
    for game in 0..options.games {
        visits.clear();
        let result = play_one(&net, &mut roller, &mut visits);
        let rate = options.rate / (1.0 + game as f32 / options.decay);
        // The last position's return is the result itself.
        let mut target = result;
        for t in (0..visits.len()).rev() {
            if t + 1 < visits.len() {
                let next = &visits[t + 1];
                let mut blend = [0.0; 5];
                for k in 0..5 {
                    blend[k] = (1.0 - options.lambda) * next.probs[k] + options.lambda * target[k];
                }
                target = invert(&blend);
            }
            let visit = &visits[t];
            if visit.trainable {
                net.learn(&Inputs::encode(&visit.board, visit.on_roll), &target, rate);
            }
        }
        progress(game + 1, &net);
    }
    net
}

/// The start of a self-play game: the standard board, the side the opening roll (drawn from
/// `roller`) gives the first turn, and that roll.
pub(super) fn first_turn(roller: &mut Roller) -> (Board, Side, Dice) {
    let (white, black) = roller.opening();
    let side = if white > black {
        Side::White
    } else {
        Side::Black
    };
    let dice = Dice::new(white, black).expect("an opening roll is two different dice, 1 to 6");
    (Board::start(), side, dice)
}

/// Plays one game of the net against itself, recording each position after a play; returns
/// the result for the side on roll in the last position (the loser).
fn play_one(net: &Net, roller: &mut Roller, visits: &mut Vec<Visit>) -> Probs {
    // The main net learns every position but the database's, races included, as it did
    // before the race net: its race judgement is kept for a player without the race net.
    let mut evaluator = Evaluator::with_race(net, None);
    let (mut board, mut side, mut dice) = first_turn(roller);
    loop {
        let candidates = legal_plays(&board, side, dice);
        let (index, probs) = evaluator.choose(&candidates, side, 0);
        board = candidates[index].after;
        let opponent = side.other();
        if board.on_board(side) == 0 {
            let result = invert(&won(&board, side));
            visits.push(Visit {
                board,
                on_roll: opponent,
                probs: result,
                trainable: false,
            });
            return result;
        }
        visits.push(Visit {
            board,
            on_roll: opponent,
            probs: invert(&probs),
            trainable: !bearoff::applies(&board),
        });
        side = opponent;
        dice = roller.roll();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn training_is_reproducible() {
        let options = Options {
            games: 3,
            seed: 11,
            ..Options::default()
        };
        let a = train(&options, None, |_, _| {});
        let b = train(&options, None, |_, _| {});
        assert_eq!(a, b);
        assert_ne!(a, Net::random(11));
    }
}
