//! Go's network: a small residual convolutional net with policy, value and ownership
//! heads, fully convolutional so that one net serves every board size, run in safe Rust.
//!
//! Rooms: `features.rs` (what the net sees of a position, and the eight symmetries),
//! `layers.rs` (convolutions as matrix products), `model.rs` (the net and its forward
//! pass), `backprop.rs` (the loss and its gradient), `weights.rs` (the weights file),
//! `data.rs` (the teacher's labelled games read for training), `train.rs` (`hamle go
//! train-net`: the optimiser, the schedule, checkpoints).

pub mod backprop;
pub mod data;
pub mod features;
pub mod layers;
pub mod model;
pub mod train;
pub mod weights;

pub use features::Snapshot;
pub use model::{Eval, Net, Shape};

use std::path::Path;

/// The weights built into the engine: trained by `hamle go train-net` on the teacher's
/// 9×9 and 13×13 labels (docs/training.md, "The Go network").
const BUILTIN: &[u8] = include_bytes!("weights/go-b4c32.bin");

/// The built-in net. Its bytes are checked by a test; were they ever unreadable, this is
/// the error `--net builtin` reports.
pub fn builtin() -> Result<Net, String> {
    weights::decode(BUILTIN).map_err(|e| format!("the built-in Go net: {e}"))
}

/// `--net`: `off` (no net), `builtin`, or a weights file, loaded here so that a bad file
/// is refused before anything is played.
pub fn parse_choice(text: &str) -> Result<Option<Net>, String> {
    match text {
        "off" => Ok(None),
        "builtin" => builtin().map(Some),
        path => weights::load(Path::new(path))
            .map(Some)
            .map_err(|e| e.to_string()),
    }
}

/// The net's judgement of `snapshot`'s position (identity symmetry).
pub fn evaluate(net: &Net, snapshot: &Snapshot) -> Eval {
    evaluate_with(net, snapshot, &mut Scratch::default())
}

/// The working memory of [`evaluate_with`], kept by a search from one evaluation to the
/// next: the input planes and the forward pass's buffers.
#[derive(Debug, Default)]
pub struct Scratch {
    planes: Vec<f32>,
    model: model::Scratch,
}

/// [`evaluate`] with its buffers in `scratch` (the same judgement, without allocating
/// them anew).
pub fn evaluate_with(net: &Net, snapshot: &Snapshot, scratch: &mut Scratch) -> Eval {
    let area = snapshot.area();
    scratch.planes.clear();
    scratch.planes.resize(features::PLANES * area, 0.0);
    snapshot.planes(0, &mut scratch.planes);
    net.evaluate_with(
        &scratch.planes,
        usize::from(snapshot.size),
        &mut scratch.model,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::game::Game;
    use crate::go::rules::RuleSet;

    /// (likeliest move's index, its probability, the value) on the empty 9×9 board (Black
    /// to move, komi 7), after E5 and after E5 C5.
    const PINNED: [(usize, f32, f32); 3] = [
        (40, 0.23698, 0.54264), // E5
        (42, 0.44257, 0.56255), // G5
        (21, 0.24152, 0.56376), // D3
    ];

    #[test]
    fn the_builtin_net_loads_and_judges_the_empty_board() {
        let net = builtin().expect("the built-in weights read");
        for size in [9, 13, 19] {
            let game = Game::new(size, RuleSet::Chinese.rules()).expect("a board");
            let eval = evaluate(&net, &Snapshot::of_game(&game));
            assert_eq!(eval.policy.len(), size * size + 1);
            assert!((eval.policy.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            assert!((0.0..=1.0).contains(&eval.value));
        }
    }

    /// The shipped weights' judgement of fixed positions, pinned to a tolerance (floating
    /// point differs between CPUs): a change here means the built-in net changed.
    #[test]
    fn the_builtin_net_judges_fixed_positions_as_pinned() {
        let net = builtin().expect("the built-in weights read");
        let mut game = Game::new(9, RuleSet::Chinese.rules()).expect("a board");
        game.set_komi(7.0);
        let mut seen = Vec::new();
        for mv in ["E5", "C5", "D4"] {
            let eval = evaluate(&net, &Snapshot::of_game(&game));
            let best = (0..eval.policy.len())
                .max_by(|&a, &b| eval.policy[a].total_cmp(&eval.policy[b]))
                .expect("moves");
            seen.push((best, eval.policy[best], eval.value));
            let v = crate::go::notation::MoveVertex::parse_on(mv, 9).expect("a move");
            let color = game.to_move();
            game.play(color, v).expect("legal");
        }
        let pinned = PINNED;
        for ((best, p, value), (pin_best, pin_p, pin_value)) in seen.iter().zip(pinned) {
            assert_eq!(*best, pin_best, "{seen:?}");
            assert!(
                (p - pin_p).abs() < 1e-3 && (value - pin_value).abs() < 1e-3,
                "{seen:?}"
            );
        }
    }

    /// Kept buffers change nothing, whatever board sizes they served before.
    #[test]
    fn evaluations_with_kept_buffers_are_the_same() {
        let net = builtin().expect("the built-in weights read");
        let mut scratch = Scratch::default();
        for size in [19, 9, 13, 9] {
            let mut game = Game::new(size, RuleSet::Chinese.rules()).expect("a board");
            let v = crate::go::notation::MoveVertex::parse_on("C3", size).expect("a move");
            game.play(game.to_move(), v).expect("legal");
            let snapshot = Snapshot::of_game(&game);
            assert_eq!(
                evaluate_with(&net, &snapshot, &mut scratch),
                evaluate(&net, &snapshot)
            );
            let mut planes = vec![0.0; features::PLANES * size * size];
            snapshot.planes(0, &mut planes);
            let trace = net.forward(&planes, size, 1);
            let value = model::sigmoid(trace.value_logits[0]);
            assert_eq!(evaluate(&net, &snapshot).value, value);
        }
    }

    #[test]
    fn net_choices() {
        assert_eq!(parse_choice("off"), Ok(None));
        assert!(parse_choice("builtin").expect("built in").is_some());
        let error = parse_choice("no/such.bin").expect_err("missing");
        assert!(error.contains("no/such.bin"), "{error}");
    }
}
