//! Abalone, by the tournament sheet (`../shared/RULES.md`): the 61-cell board, moves and
//! their AbaPro notation, the standard and daisy starts, exact move generation and perft,
//! games that end (six off, or a length cap with adjudication), an alpha-beta player and
//! the `hamle abalone` engine.

pub mod bench;
pub mod board;
pub mod cli;
pub mod clicks;
pub mod command;
pub mod engine;
pub mod eval;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod player;
pub mod position;
pub mod referee;
pub mod rules;

pub use board::{Cell, Color, Direction};
pub use moves::Move;
pub use position::{IllegalMove, MoveList, Position, PositionError, StartPosition};
pub use rules::{EndReason, EndRules, Game, GameResult};
