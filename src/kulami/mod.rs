//! Kulami: tile layouts, the marble and marker rules, the tournament scoring, the
//! notation, a searching player with an exact endgame solver, the GTP engine and the bench.
//!
//! Boards are bitboards: a `u128` with one bit a cell, [`cell::STRIDE`] bits a row, so that a
//! 10×10 field fits with an always-empty padding column that stops shifts from wrapping.

pub mod bench;
pub mod cell;
pub mod cli;
pub mod command;
pub mod engine;
pub mod layout;
pub mod notation;
pub mod player;
pub mod position;
pub mod referee;
pub mod rules;
pub mod score;

pub use cell::Cell;
pub use layout::Layout;
pub use rules::{Color, Game, IllegalMove, Position};
pub use score::{Breakdown, RowBonus, Score, Scoring};
