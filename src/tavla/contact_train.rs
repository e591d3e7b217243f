//! Supervised training of the main net on lookahead labels from our own engine
//! (`hamle tavla train --contact`): wildbg's method, with a full-width search of the dice in
//! place of rollouts. Labels by a teacher outside hamle (gnubg-nn, `teacher.rs`) come in as
//! label files and are fitted the same way ([`train_on_labels`]).
//!
//! 1. Harvest: the nets play themselves at 0-ply (each game's dice seeded by the seed and the
//!    game's number); now and then a side plays one of its three best plays at random
//!    instead of the best, so the positions reach beyond one line of play. Every contact
//!    position met (not a race, not the bear-off database's) is kept with its side on roll.
//! 2. Generations: each position is labelled by its probabilities before the roll, looking
//!    `plies` rolls ahead (for each of the 21 rolls the best play, judged by the net of the
//!    generation before, the race net and the database); the net is then fitted to the labels
//!    in some passes (cross-entropy, seeded shuffles). A label averages the net's judgement
//!    over every roll instead of one sampled game's, so it is a steadier target than
//!    self-play's TD, and the search's lookahead is what the net learns to see at 0-ply.
//!
//! Labelling and fitting can also be run apart: `hamle tavla label` harvests the same way and
//! writes each position's label to a file as it goes ([`label_into`]), on as many threads
//! as a machine has; `train --contact --labels` fits a net to such files
//! ([`train_on_labels`]), a pass taking seconds where labelling took hours.
//!
//! The work is split over `threads` by position and by game, each part seeded by its own
//! number, so the file a seed gives does not depend on the thread count.

use std::io::{self, Write};

use rand::seq::SliceRandom;
use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use crate::seed::derive_seed;

use super::board::{Board, Side};
use super::dice::Roller;
use super::eval::{Evaluator, is_contact};
use super::labels::{Labelled, write_line};
use super::moves::legal_plays;
use super::net::{Inputs, Net, Probs, equity};
use super::race::RaceNet;
use super::rollout::{Rollout, rollout};
use super::train::first_turn;

/// Contact training settings.
#[derive(Clone, Debug)]
pub struct ContactOptions {
    /// Self-play games the positions are harvested from.
    pub games: u64,
    /// Label-and-fit rounds.
    pub generations: u32,
    /// Passes over the positions in each generation.
    pub epochs: u32,
    /// Rolls looked ahead by a label (1 or 2).
    pub plies: u32,
    /// Chance that a harvesting side plays one of its three best plays at random.
    pub explore: f64,
    /// Threads that harvest and label.
    pub threads: usize,
    pub seed: u64,
    pub rate: f32,
}

/// Where positions come from: `games` self-play games (seeded by `seed` and the game's
/// number), a side playing one of its three best plays at random with chance `explore`.
/// With `alternatives` K, each turn with a choice also gives the positions of its K best
/// plays at 0-ply other than the one played: the positions the player must rank, most of
/// which self-play never reaches.
#[derive(Clone, Debug)]
pub struct Harvest {
    pub games: u64,
    pub explore: f64,
    pub alternatives: usize,
    pub threads: usize,
    pub seed: u64,
}

impl ContactOptions {
    /// The harvest these settings ask for.
    pub fn harvest(&self) -> Harvest {
        Harvest {
            games: self.games,
            explore: self.explore,
            alternatives: 0,
            threads: self.threads,
            seed: self.seed,
        }
    }
}

/// What one generation did, for progress reports.
pub struct Generation {
    pub number: u32,
    pub positions: usize,
    /// Mean absolute difference of the win probability between the net before the fit and
    /// the labels.
    pub win_error: f32,
    /// The same for the equity (cubeless, points per game).
    pub equity_error: f32,
}

/// The streams a harvested game draws from: its dice, its exploration.
const DICE_STREAM: u64 = 0;
const EXPLORE_STREAM: u64 = 1;

/// The seed of `game`'s `stream`, from the run's seed: each game draws on its own, so the
/// harvest does not depend on how the games are shared out over threads.
fn game_seed(seed: u64, stream: u64, game: u64) -> u64 {
    derive_seed(derive_seed(seed, stream), game)
}

/// Runs `work` on each of `items` over `threads` threads, the results in the items' order.
fn in_parallel<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(usize, &T) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, items.len().max(1));
    let chunk = items.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .enumerate()
            .map(|(c, part)| {
                let work = &work;
                scope.spawn(move || {
                    part.iter()
                        .enumerate()
                        .map(|(i, item)| work(c * chunk + i, item))
                        .collect::<Vec<R>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a training thread panicked"))
            .collect()
    })
}

/// The contact positions of `games` self-play games of `net` (and the built-in race net) at
/// 0-ply, with exploration: each board with its side on roll.
pub fn harvest(net: &Net, options: &Harvest) -> Vec<(Board, Side)> {
    let games: Vec<u64> = (0..options.games).collect();
    in_parallel(&games, options.threads, |_, &game| {
        harvest_one(net, options, game)
    })
    .into_iter()
    .flatten()
    .collect()
}

fn harvest_one(net: &Net, options: &Harvest, game: u64) -> Vec<(Board, Side)> {
    let mut roller = Roller::new(game_seed(options.seed, DICE_STREAM, game));
    let mut rng = ChaCha20Rng::seed_from_u64(game_seed(options.seed, EXPLORE_STREAM, game));
    let mut evaluator = Evaluator::new(net);
    let mut found = Vec::new();
    let (mut board, mut side, mut dice) = first_turn(&mut roller);
    while board.on_board(side) > 0 && board.on_board(side.other()) > 0 {
        let candidates = legal_plays(&board, side, dice);
        let index = if candidates.len() > 1 {
            // One 0-ply ranking serves the choice, the exploration and the alternatives.
            let ranked = evaluator.ranked(&candidates, side);
            let index = if rng.random_bool(options.explore) {
                ranked[rng.random_range(0..ranked.len().min(3))].0
            } else {
                ranked[0].0
            };
            let others = ranked.iter().filter(|r| r.0 != index);
            for &(other, _, _) in others.take(options.alternatives) {
                if is_contact(&candidates[other].after) {
                    found.push((candidates[other].after, side.other()));
                }
            }
            index
        } else {
            0
        };
        board = candidates[index].after;
        side = side.other();
        if is_contact(&board) {
            found.push((board, side));
        }
        dice = roller.roll();
    }
    found
}

/// The label of each position: its probabilities before the roll at `plies`, the leaves
/// judged by `net`, the built-in race net and the database.
pub fn labels(positions: &[(Board, Side)], net: &Net, plies: u32, threads: usize) -> Vec<Probs> {
    in_parallel(positions, threads, |_, (board, side)| {
        Evaluator::with_race(net, Some(RaceNet::builtin())).before_roll(board, *side, plies)
    })
}

/// How a label file's labels look past the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lookahead {
    /// Every roll, `plies` deep (1 or 2).
    Plies(u32),
    /// A truncated rollout at 0-ply.
    Rollout(Rollout),
}

/// The labels of `positions`, the `first`th to the last of a file's positions, by
/// `lookahead`; a rollout's dice are seeded by the harvest's seed and the position's number
/// in the file, so a label does not depend on the threads or on the parts the file is
/// written in.
fn labels_by(
    positions: &[(Board, Side)],
    first: usize,
    net: &Net,
    lookahead: Lookahead,
    harvest: &Harvest,
) -> Vec<Probs> {
    let settings = match lookahead {
        Lookahead::Plies(plies) => return labels(positions, net, plies, harvest.threads),
        Lookahead::Rollout(settings) => settings,
    };
    let dice_seed = derive_seed(harvest.seed, ROLLOUT_STREAM);
    in_parallel(positions, harvest.threads, |index, (board, side)| {
        let mut evaluator = Evaluator::with_race(net, Some(RaceNet::builtin()));
        let seed = derive_seed(dice_seed, (first + index) as u64);
        rollout(&mut evaluator, board, *side, settings, seed)
    })
}

/// The stream of a label file's rollout dice.
const ROLLOUT_STREAM: u64 = 2;

/// The positions of the harvest, shuffled by its seed and cut to `limit`, labelled by their
/// lookahead and written to `out` in parts (a part is flushed before the next is labelled, so
/// a run cut short keeps what it has done); `progress` is told the count so far. The lines do
/// not depend on `threads`.
pub fn label_into(
    out: &mut impl Write,
    positions: Vec<(Board, Side)>,
    net: &Net,
    options: &LabelOptions,
    mut progress: impl FnMut(usize),
) -> io::Result<usize> {
    let threads = options.harvest.threads;
    let positions = sample(positions, options.harvest.seed, options.limit);
    let part = LABEL_PART * threads.max(1);
    let mut done = 0;
    for chunk in positions.chunks(part) {
        let probs = labels_by(chunk, done, net, options.lookahead, &options.harvest);
        for (probs, &(board, side)) in probs.into_iter().zip(chunk) {
            write_line(out, &Labelled { board, side, probs })?;
        }
        out.flush()?;
        done += chunk.len();
        progress(done);
    }
    Ok(done)
}

/// The positions of a harvest a label file holds: shuffled by the harvest's `seed`, the first
/// `limit` kept.
pub fn sample(mut positions: Vec<(Board, Side)>, seed: u64, limit: usize) -> Vec<(Board, Side)> {
    positions.shuffle(&mut ChaCha20Rng::seed_from_u64(seed ^ SHUFFLE_SALT));
    positions.truncate(limit);
    positions
}

/// How a label file is made.
#[derive(Clone, Debug)]
pub struct LabelOptions {
    pub harvest: Harvest,
    pub lookahead: Lookahead,
    /// The most positions labelled.
    pub limit: usize,
}

/// Positions each thread labels between two flushes of a label file.
const LABEL_PART: usize = 64;

/// Keeps the label file's shuffle apart from the fit's.
const SHUFFLE_SALT: u64 = 0x5A1_7AB3;

/// One pass over labelled positions, for progress reports.
pub struct Epoch {
    pub number: u32,
    /// Mean absolute difference of the win probability between the net and the labels of
    /// the positions held out of the fit, after the pass.
    pub held_out_win_error: f32,
    /// The same for the equity.
    pub held_out_equity_error: f32,
    /// The mean equity difference on the fitted positions during the pass, each taken just
    /// before its step (none for epoch 0): far below the held-out one means the net learns
    /// the labels by heart and wants more of them; level with it, that the net is too small.
    pub fitted_equity_error: Option<f32>,
}

/// One position in this many is held out of a fit from label files, to show whether the
/// fit still generalises.
const HELD_OUT_EVERY: usize = 20;

/// Fits `net` to `labelled` positions in `epochs` passes (seeded shuffles) at `rate`, every
/// `HELD_OUT_EVERY`th position held out; calls `progress` before the first pass (epoch 0)
/// and after each.
pub fn train_on_labels(
    net: &mut Net,
    labelled: &[Labelled],
    epochs: u32,
    rate: f32,
    seed: u64,
    mut progress: impl FnMut(&Epoch, &Net),
) {
    let (held_out, fitted): (Vec<_>, Vec<_>) = (labelled.iter().enumerate())
        .partition(|(index, _)| index % HELD_OUT_EVERY == HELD_OUT_EVERY - 1);
    let positions: Vec<(Board, Side)> = fitted.iter().map(|(_, l)| (l.board, l.side)).collect();
    let targets: Vec<Probs> = fitted.iter().map(|(_, l)| l.probs).collect();
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ FIT_SALT);
    for number in 0..=epochs {
        let fitted_equity_error =
            (number > 0).then(|| fit(net, &positions, &targets, 1, rate, &mut rng).1);
        let (held_out_win_error, held_out_equity_error) =
            mean_errors((held_out.iter()).map(|(_, l)| (net.evaluate(&l.board, l.side), l.probs)));
        let epoch = Epoch {
            number,
            held_out_win_error,
            held_out_equity_error,
            fitted_equity_error,
        };
        progress(&epoch, net);
    }
}

/// Keeps the fit's shuffles apart from the harvest's draws.
const FIT_SALT: u64 = 0x7C0_47AC7;

/// Fits `net` to `targets` in `epochs` passes in `rng`'s shuffled orders at `rate`; returns
/// the mean errors (win probability, equity) of the net before each position's first step.
fn fit(
    net: &mut Net,
    positions: &[(Board, Side)],
    targets: &[Probs],
    epochs: u32,
    rate: f32,
    rng: &mut ChaCha20Rng,
) -> (f32, f32) {
    let mut order: Vec<usize> = (0..positions.len()).collect();
    let mut first_pass = Vec::with_capacity(positions.len());
    for epoch in 0..epochs {
        order.shuffle(rng);
        for &k in &order {
            let (board, side) = &positions[k];
            let before = net.learn(&Inputs::encode(board, *side), &targets[k], rate);
            if epoch == 0 {
                first_pass.push((before, targets[k]));
            }
        }
    }
    mean_errors(first_pass.into_iter())
}

/// The mean distance of each (net, label) pair: in win probability, and in equity.
fn mean_errors(pairs: impl Iterator<Item = (Probs, Probs)>) -> (f32, f32) {
    let (mut win_error, mut equity_error, mut count) = (0.0f64, 0.0f64, 0usize);
    for (net, label) in pairs {
        win_error += f64::from((net[0] - label[0]).abs());
        equity_error += f64::from((equity(&net) - equity(&label)).abs());
        count += 1;
    }
    let count = count.max(1) as f64;
    ((win_error / count) as f32, (equity_error / count) as f32)
}

/// Trains the main net from `start` on positions of its own self-play; calls `progress`
/// after each generation.
pub fn train_contact(
    options: &ContactOptions,
    start: Net,
    mut progress: impl FnMut(&Generation, &Net),
) -> Net {
    let positions = harvest(&start, &options.harvest());
    let mut net = start;
    let mut rng = ChaCha20Rng::seed_from_u64(options.seed ^ FIT_SALT);
    for number in 0..options.generations {
        let targets = labels(&positions, &net, options.plies, options.threads);
        let (win_error, equity_error) = fit(
            &mut net,
            &positions,
            &targets,
            options.epochs,
            options.rate,
            &mut rng,
        );
        let generation = Generation {
            number: number + 1,
            positions: positions.len(),
            win_error,
            equity_error,
        };
        progress(&generation, &net);
        rng.next_u32();
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(threads: usize) -> ContactOptions {
        ContactOptions {
            games: 2,
            generations: 1,
            epochs: 1,
            plies: 1,
            explore: 0.2,
            threads,
            seed: 5,
            rate: 0.01,
        }
    }

    #[test]
    fn harvest_keeps_only_contact_positions() {
        let positions = harvest(Net::builtin(), &tiny(1).harvest());
        assert!(positions.len() > 10);
        assert!(positions.iter().all(|(board, _)| is_contact(board)));
    }

    #[test]
    fn alternatives_add_the_other_plays_to_the_same_games() {
        let plain = tiny(1).harvest();
        let wider = Harvest {
            alternatives: 2,
            ..plain.clone()
        };
        let played = harvest(Net::builtin(), &plain);
        let with_others = harvest(Net::builtin(), &wider);
        assert!(with_others.len() > played.len() * 2);
        assert!(with_others.iter().all(|(board, _)| is_contact(board)));
        // The games are the same: the positions played come in the same order, each
        // after the alternatives of the turn that led to it.
        let mut rest = with_others.iter();
        for position in &played {
            assert!(rest.any(|p| p == position), "a played position is missing");
        }
    }

    #[test]
    fn training_is_reproducible_by_seed_whatever_the_threads() {
        let one = train_contact(&tiny(1), Net::builtin().clone(), |_, _| {});
        let three = train_contact(&tiny(3), Net::builtin().clone(), |_, _| {});
        assert_eq!(one, three);
        assert_ne!(&one, Net::builtin());
    }
}
