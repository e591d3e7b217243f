//! Abalone, by the tournament sheet (`../shared/RULES.md`): two players push marbles on a
//! 61-cell hexagon; the first to push six of the other's off wins (or the game-length cap
//! adjudicates).
//!
//! The rooms every game has:
//! - [`command`]: the typed GTP commands, parsed from the protocol core's `Command`;
//! - [`engine`]: the `hamle abalone` engine, the adapter to the protocol core (GoGui's
//!   rules extension included);
//! - [`player`]: the alpha-beta search;
//! - [`notation`]: the AbaPro text of moves;
//! - [`cli`]: the command line (the engine, `selfplay`, `hamle perft abalone`);
//! - [`bench`](mod@bench): `hamle bench abalone`;
//! - [`referee`]: the arena's judge of a game.
//!
//! And Abalone's own: [`board`] (cells, directions, colours, bitboards), [`moves`] (a
//! move's geometry), [`position`] (the rules of one move, the starts), [`rules`] (a game
//! and its end), [`eval`] (the static evaluation), [`perft`], [`clicks`] (moves
//! entered cell by cell under GoGui) and [`gogui`] (what GoGui draws).

pub mod bench;
pub mod board;
pub mod cli;
pub mod clicks;
pub mod command;
pub mod engine;
pub mod eval;
pub mod gogui;
pub mod moves;
pub mod notation;
pub mod opening;
pub mod perft;
pub mod player;
pub mod position;
pub mod referee;
pub mod rules;
mod settings;
pub mod view;

pub use board::{Cell, Color, Direction};
pub use moves::Move;
pub use position::{IllegalMove, MoveList, Position, PositionError, StartPosition};
pub use rules::{EndReason, EndRules, Game, GameResult};
