//! Mangala, by the Turkish tournament sheet (`../shared/RULES.md`): two rows of six pits,
//! stones sown into the pits and the stores; a match is five sets, the first started by a
//! draw.
//!
//! The rooms every game has:
//! - [`command`]: the typed GTP commands, parsed from the protocol core's `Command`;
//! - [`engine`]: the `hamle mangala` engine, the adapter to the protocol core (GoGui's
//!   rules extension included, drawn by [`gogui`]);
//! - [`player`]: the search and the solver, perfect where the endgame databases reach;
//! - [`notation`]: the text of sides, pits, GoGui vertices and positions;
//! - [`cli`]: the command line (the engine, `build-db`, `solve`);
//! - [`bench`](mod@bench): `hamle bench mangala`;
//! - [`referee`]: the arena's judge of a match.
//!
//! And Mangala's own: [`rules`] (one set's sowing and end), [`game`] (a set with undo),
//! [`draw`] (the draw for the first move), [`set_match`] (five sets) and [`db`] (the
//! endgame databases).

pub mod bench;
pub mod cli;
pub mod command;
pub mod db;
pub mod draw;
pub mod engine;
pub mod game;
pub mod gogui;
pub mod notation;
pub mod opening;
pub mod player;
pub mod referee;
pub mod rules;
pub mod set_match;
mod settings;
pub mod view;

pub use draw::{Draw, Hand};
pub use game::Game;
pub use rules::{EndRule, IllegalMove, Landing, Pit, Position, PositionError, Side};
pub use set_match::{Match, SetResult, StarterOrder};
