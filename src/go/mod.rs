//! Go: two players place black and white stones on the points of a square board (2×2
//! to 25×25); a chain without liberties is captured, ko and superko forbid repeating
//! positions, and the game ends after two passes, counted by area or territory with
//! komi.
//!
//! Rooms:
//! - Rules and position: `board.rs` (stones, chains, captures, hash), `game.rs` (a game:
//!   turns, ko and superko, handicap, undo; `Game::play` checks and returns a typed
//!   [`game::IllegalMove`]), `rules.rs` (rule sets, ko, scoring), `score.rs` (counting).
//! - Notation: `notation.rs` (vertices and moves as text), `color.rs`.
//! - `sgf/`: game records read from and written as SGF.
//! - `player/`: the search (Monte Carlo tree search over light playouts).
//! - The GTP engine: `command.rs` (typed commands, parsed), `engine.rs` (runs them),
//!   `thinking.rs` (how the engine asks the player), `status.rs` (dead stones, seki and
//!   ownership at the end), `analysis.rs` (`lz-analyze` and `kata-analyze` output).
//! - `referee.rs`: Go in the arena (the referee, `--size`/`--komi`/`--rules`, the record).
//! - `cli.rs`: `hamle go`; `bench.rs`: `hamle bench go`.

pub mod analysis;
pub mod bench;
pub mod board;
pub mod cli;
pub mod color;
pub mod command;
pub mod engine;
pub mod game;
pub mod net;
pub mod notation;
pub mod opening;
pub mod player;
pub mod referee;
pub mod rules;
pub mod score;
mod settings;
pub mod sgf;
pub mod status;
mod thinking;
pub mod view;

pub use color::Color;
pub use notation::{MoveVertex, Vertex};
