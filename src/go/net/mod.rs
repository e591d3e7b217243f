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
