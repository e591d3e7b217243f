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
use std::sync::OnceLock;

/// The net the search uses for the rest of the process (`--net`), when one was chosen.
static ACTIVE: OnceLock<Net> = OnceLock::new();

/// The net the search uses, if `--net` chose one (`off`, the default, leaves none).
pub fn active() -> Option<&'static Net> {
    ACTIVE.get()
}

/// Makes `net` the one the search uses; false, and nothing changes, if one was before.
pub fn install(net: Net) -> bool {
    ACTIVE.set(net).is_ok()
}

/// The weights built into the engine: trained by `hamle go train-net` on the teacher's
/// 9×9 and 13×13 labels (protocol.md, "The network").
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
    let area = snapshot.area();
    let mut planes = vec![0.0; features::PLANES * area];
    snapshot.planes(0, &mut planes);
    net.evaluate(&planes, usize::from(snapshot.size))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::game::Game;
    use crate::go::rules::RuleSet;

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

    #[test]
    fn net_choices() {
        assert_eq!(parse_choice("off"), Ok(None));
        assert!(parse_choice("builtin").expect("built in").is_some());
        let error = parse_choice("no/such.bin").expect_err("missing");
        assert!(error.contains("no/such.bin"), "{error}");
    }
}
