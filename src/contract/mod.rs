//! The match contract: what the arena needs of a game, in terms of no particular game.
//!
//! A game is refereed through [`Referee`] (whose seat moves, what to ask, how an answer
//! becomes a move, how the game ends and is recorded) and set up through
//! [`GameSettings`] (its name, the settings that decide its games, its move cap, building
//! a referee). Seats, turns, outcomes and losses are the words both sides share; [`record`]
//! reads and writes the tag lines of text records.
//!
//! This room stands on the ground floor beside `protocol`: games implement it, the
//! arena drives it, and it imports neither.

pub mod opening;
pub mod record;
mod referee;
mod seat;
mod settings;
pub mod view;

pub use referee::{IllegalMove, LossKind, Outcome, Referee, Turn};
pub use seat::{Seat, SeatColors};
pub use settings::{GameSettings, Replayed};
