//! The race net: a small evaluator for races (contact broken, not yet both sides home, where
//! the exact bear-off database answers). The main net learns races badly by self-play (it
//! judged a race 8 pips behind at 0.62 where the truth is about 0.44): a race is a counting
//! problem its contact inputs do not help with, so races get their own net, as in gnubg and
//! wildbg. It is trained by `race_train` on labels from our own 1-ply lookahead grounded in
//! the exact database, never on another engine's outputs.
//!
//! Inputs, for the side on roll and then the other: Tesauro's four units for each of the 24
//! points, borne-off checkers; then both pip counts and their difference. Outputs as the
//! main net's: win, win gammon, win backgammon, lose gammon, lose backgammon.

use super::board::{Board, Side};
use super::layers::{Layers, Sparse};
use super::net::{Probs, consistent, parse_weights};

/// Hidden units.
pub const RACE_HIDDEN: usize = 32;
/// Outputs, as the main net's.
pub const RACE_OUTPUTS: usize = 5;
/// Per side: 4 units for each of 24 points, borne-off checkers.
const PER_SIDE: usize = 24 * 4 + 1;
/// Input units: both sides, then the two pip counts and their difference.
pub const RACE_INPUTS: usize = 2 * PER_SIDE + 3;
/// Non-zero inputs at most: 4 a point a side for at most 15 points a side, plus the rest.
const MAX_ACTIVE: usize = 2 * (4 * 15 + 1) + 3;

/// The non-zero inputs of a race position.
#[derive(Default)]
pub struct RaceInputs {
    sparse: Sparse<MAX_ACTIVE>,
}

impl RaceInputs {
    fn push(&mut self, index: usize, value: f32) {
        self.sparse.push(index, value);
    }

    /// Encodes `board` seen by `on_roll`, the side about to roll.
    pub fn encode(board: &Board, on_roll: Side) -> RaceInputs {
        let mut inputs = RaceInputs::default();
        for (s, side) in [on_roll, on_roll.other()].into_iter().enumerate() {
            let base = s * PER_SIDE;
            for (point, &n) in board.row(side)[..24].iter().enumerate() {
                if n == 0 {
                    continue;
                }
                inputs.sparse.push_point(base + point * 4, n);
            }
            inputs.push(base + 96, f32::from(board.borne_off(side)) / 15.0);
        }
        let mine = board.pip_count(on_roll) as f32;
        let theirs = board.pip_count(on_roll.other()) as f32;
        let f = 2 * PER_SIDE;
        inputs.push(f, mine / 100.0);
        inputs.push(f + 1, theirs / 100.0);
        inputs.push(f + 2, ((theirs - mine) / 20.0).clamp(-3.0, 3.0));
        inputs
    }
}

/// The race net's weights (the two layers of `Layers`).
#[derive(Clone, PartialEq)]
pub struct RaceNet {
    layers: Layers<RACE_HIDDEN>,
}

impl std::fmt::Debug for RaceNet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RaceNet({RACE_INPUTS}x{RACE_HIDDEN}x{RACE_OUTPUTS})")
    }
}

impl RaceNet {
    /// Small seeded random weights: the start of training.
    pub fn random(seed: u64) -> RaceNet {
        RaceNet {
            layers: Layers::seeded(RACE_INPUTS, seed ^ 0x7ACE_0000),
        }
    }

    /// The built-in weights (`src/tavla/weights/race.bin`), trained by `hamle tavla train
    /// --race` (protocol.md, Tavla, Training).
    pub fn builtin() -> &'static RaceNet {
        static NET: std::sync::OnceLock<RaceNet> = std::sync::OnceLock::new();
        NET.get_or_init(|| {
            RaceNet::from_bytes(include_bytes!("weights/race.bin")).expect("built-in race weights")
        })
    }

    /// The five probabilities of the race `board` for `on_roll`, made consistent.
    pub fn evaluate(&self, board: &Board, on_roll: Side) -> Probs {
        let inputs = RaceInputs::encode(board, on_roll);
        consistent(
            self.layers
                .activate(inputs.sparse.active(), inputs.sparse.values())
                .out,
        )
    }

    /// One gradient step of the outputs for `inputs` towards `target` (cross-entropy loss);
    /// returns the outputs before the step.
    pub fn learn(&mut self, inputs: &RaceInputs, target: &Probs, rate: f32) -> Probs {
        self.layers
            .learn(inputs.sparse.active(), inputs.sparse.values(), target, rate)
    }

    /// The weights as a file, in the main net's format (`HTN1`, the shape, then w1 by input,
    /// b1, w2 by output, b2 as f32 LE): the race net's shape tells the two files apart.
    pub fn to_bytes(&self) -> Vec<u8> {
        self.layers.to_bytes(b"HTN1")
    }

    /// The race net a weights file holds; it must have exactly this build's race net shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<RaceNet, String> {
        let shape = [RACE_INPUTS, RACE_HIDDEN, RACE_OUTPUTS];
        let (_, values) = parse_weights(bytes, |dims| {
            if dims == shape {
                return Ok(());
            }
            Err(format!(
                "the file holds a net of {dims:?} inputs, hidden units and outputs; this \
                 build's race net has {shape:?} (the main net's weights, or a race net from \
                 another version of hamle?)"
            ))
        })?;
        let mut values = values.into_iter();
        let mut net = RaceNet::random(0);
        for (slot, value) in net.layers.weights_mut().zip(&mut values) {
            *slot = value;
        }
        Ok(net)
    }
}

/// Whether the race net answers `board`: a race (no contact) that the bear-off database does
/// not answer (some checker of either side not yet home).
pub fn applies(board: &Board) -> bool {
    board.is_race() && !super::bearoff::applies(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_the_main_nets_shape_is_refused() {
        let net = RaceNet::random(3);
        let bytes = net.to_bytes();
        assert_eq!(RaceNet::from_bytes(&bytes).expect("loads"), net);
        let main = super::super::net::Net::builtin().to_bytes();
        let error = RaceNet::from_bytes(&main).expect_err("the main net is no race net");
        assert!(error.contains("race net"), "{error}");
    }

    #[test]
    fn inputs_fit_the_fullest_race() {
        // A blot on each of fifteen points (the most non-zero units a side can have), and
        // the other side's checkers on the nine points left to it, overflow nothing.
        let mut rows = [[0u8; 25]; 2];
        rows[0][..15].fill(1);
        rows[1][..8].fill(1);
        rows[1][8] = 7;
        let board = Board::from_rows(rows).expect("board");
        let inputs = RaceInputs::encode(&board, Side::White);
        assert!(inputs.sparse.active().len() <= MAX_ACTIVE);
    }
}
