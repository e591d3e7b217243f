//! Go: rules, notation, SGF, the player and the GTP engine.

pub mod board;
pub mod clock;
pub mod color;
pub mod game;
pub mod rules;
pub mod score;
pub mod sgf;
pub mod vertex;

pub use color::Color;
pub use vertex::{MoveVertex, Vertex};
