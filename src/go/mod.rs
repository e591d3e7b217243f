//! Go: rules, notation, SGF, the player and the GTP engine.

pub mod board;
pub mod sgf;
