//! Go: rules, notation, SGF, the player and the GTP engine.

pub mod analysis;
pub mod bench;
pub mod board;
pub mod cli;
pub mod color;
pub mod engine;
pub mod game;
pub mod player;
pub mod referee;
pub mod rules;
pub mod score;
pub mod sgf;
pub mod vertex;

pub use color::Color;
pub use vertex::{MoveVertex, Vertex};
