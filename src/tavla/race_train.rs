//! Supervised training of the race net (`hamle tavla train --race`) on labels from our own
//! engine, grounded in the exact bear-off database (wildbg's method, with 1-ply lookahead
//! in place of rollouts).
//!
//! 1. Harvest: the main net plays itself at 0-ply (seeded dice); every race position met
//!    that the database does not answer is kept, with its side on roll.
//! 2. Generations: each position is labelled by looking one roll ahead: for each of the 21
//!    rolls the best play by the evaluator's 0-ply judgement, averaged. Positions after the
//!    roll are judged by the database where both sides are home, else by the race net of
//!    the generation before (the main net in the first generation of a fresh net). The net
//!    is then fitted to the labels for some epochs (cross-entropy, seeded shuffles). Each
//!    generation carries the database's exact values one roll further back, so after as many
//!    generations as a race takes rolls to come home, every label rests on the database.

use rand::seq::SliceRandom;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::board::{Board, Side};
use super::dice::Roller;
use super::eval::Evaluator;
use super::moves::legal_plays;
use super::net::{Net, Probs};
use super::race::{self, RaceInputs, RaceNet};
use super::train::first_turn;

/// Race training settings.
#[derive(Clone, Debug)]
pub struct RaceOptions {
    /// Self-play games the race positions are harvested from.
    pub games: u64,
    /// Label-and-fit rounds.
    pub generations: u32,
    /// Passes over the positions in each generation.
    pub epochs: u32,
    pub seed: u64,
    pub rate: f32,
}

/// What one generation did, for progress reports.
pub struct Generation {
    pub number: u32,
    pub positions: usize,
    /// Mean absolute difference of the win probability between the net before the fit and
    /// the labels: how far the labels moved (it falls as generations settle).
    pub win_error: f32,
}

/// The race positions met in `games` self-play games of `net` at 0-ply, dice seeded by
/// `seed`: each board with its side on roll.
pub fn harvest(net: &Net, games: u64, seed: u64) -> Vec<(Board, Side)> {
    let mut roller = Roller::new(seed ^ 0x4A2E_5EED);
    let mut evaluator = Evaluator::with_race(net, None);
    let mut found = Vec::new();
    for _ in 0..games {
        let (mut board, mut side, mut dice) = first_turn(&mut roller);
        while board.on_board(side) > 0 && board.on_board(side.other()) > 0 {
            let candidates = legal_plays(&board, side, dice);
            let (index, _) = evaluator.choose(&candidates, side, 0);
            board = candidates[index].after;
            side = side.other();
            if race::applies(&board) {
                found.push((board, side));
            }
            dice = roller.roll();
        }
    }
    found
}

/// The 1-ply label of each position: its probabilities before rolling, the positions after
/// each roll's best play judged by the database, or by `leaf` (the main net where none).
fn labels(positions: &[(Board, Side)], net: &Net, leaf: Option<&RaceNet>) -> Vec<Probs> {
    let mut evaluator = Evaluator::with_race(net, leaf);
    positions
        .iter()
        .map(|(board, side)| evaluator.before_roll(board, *side, 1))
        .collect()
}

/// Trains the race net from `start` (or fresh seeded weights) on positions of `net`'s
/// self-play; calls `progress` after each generation.
pub fn train_race(
    options: &RaceOptions,
    net: &Net,
    start: Option<RaceNet>,
    mut progress: impl FnMut(&Generation),
) -> RaceNet {
    let positions = harvest(net, options.games, options.seed);
    let inputs: Vec<RaceInputs> = positions
        .iter()
        .map(|(board, side)| RaceInputs::encode(board, *side))
        .collect();
    let fresh = start.is_none();
    let mut race_net = start.unwrap_or_else(|| RaceNet::random(options.seed));
    let mut rng = ChaCha20Rng::seed_from_u64(options.seed ^ 0x5407_F1E5);
    let mut order: Vec<usize> = (0..positions.len()).collect();
    for number in 0..options.generations {
        // A fresh net knows nothing yet: the first labels' leaves are the main net's.
        let leaf = (number > 0 || !fresh).then_some(&race_net);
        let targets = labels(&positions, net, leaf);
        let mut error = 0.0f32;
        for epoch in 0..options.epochs {
            order.shuffle(&mut rng);
            for &k in &order {
                let before = race_net.learn(&inputs[k], &targets[k], options.rate);
                if epoch == 0 {
                    error += (before[0] - targets[k][0]).abs();
                }
            }
        }
        progress(&Generation {
            number: number + 1,
            positions: positions.len(),
            win_error: error / positions.len().max(1) as f32,
        });
        // Keep the generator's stream independent of how many positions a harvest found.
        rng.next_u32();
    }
    race_net
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harvest_finds_only_races_outside_the_database() {
        let positions = harvest(Net::builtin(), 2, 7);
        assert!(!positions.is_empty());
        assert!(positions.iter().all(|(board, _)| race::applies(board)));
    }

    #[test]
    fn race_training_is_reproducible_by_seed() {
        let options = RaceOptions {
            games: 1,
            generations: 2,
            epochs: 1,
            seed: 4,
            rate: 0.02,
        };
        let a = train_race(&options, Net::builtin(), None, |_| {});
        let b = train_race(&options, Net::builtin(), None, |_| {});
        assert_eq!(a, b);
        assert_ne!(a, RaceNet::random(4));
    }
}
