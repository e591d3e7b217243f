//! Kulami: two players place marbles in the holes of wooden tiles, each in the row or
//! column of the opponent's last marble and never on the tiles of the last two; tiles go
//! to the majority, rows and the largest area score by the tournament sheet.
//!
//! The rooms every game has:
//! - [`command`]: the typed GTP commands, parsed from the protocol core's `Command`;
//! - [`engine`]: the `hamle kulami` engine, the adapter to the protocol core (GoGui's
//!   rules extension included);
//! - [`player`]: the search, with an exact endgame solver;
//! - [`notation`]: the text of cells (`d5`);
//! - [`cli`]: the command line;
//! - [`bench`](mod@bench): `hamle bench kulami`;
//! - [`referee`]: the arena's judge of a game.
//!
//! And Kulami's own: [`cell`] (cells and bitboards), [`layout`] (where the tiles lie),
//! [`rules`] (the marble and marker rules, a game), [`position`] (the position string),
//! [`score`] (the tournament scoring) and [`gogui`] (what GoGui draws).
//!
//! Boards are bitboards: a `u128` with one bit a cell, [`cell::STRIDE`] bits a row, so that a
//! 10×10 field fits with an always-empty padding column that stops shifts from wrapping.

pub mod bench;
pub mod cell;
pub mod cli;
pub mod command;
pub mod engine;
pub mod gogui;
pub mod layout;
pub mod notation;
pub mod opening;
pub mod player;
pub mod position;
pub mod referee;
pub mod rules;
pub mod score;
mod settings;
pub mod view;

pub use cell::Cell;
pub use layout::Layout;
pub use rules::{Color, Game, IllegalMove, Position};
pub use score::{Breakdown, RowBonus, Score, Scoring};
