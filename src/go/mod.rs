//! Go: rules, notation, SGF, the player and the GTP engine.

pub mod board;
pub mod color;
pub mod sgf;
pub mod vertex;

pub use color::Color;
pub use vertex::{MoveVertex, Vertex};
