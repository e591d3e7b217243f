//! Mangala, by the Turkish tournament sheet (`../shared/RULES.md`): the rules of a set,
//! the draw for the first move, matches of five sets, a searching player that plays
//! perfectly where its endgame databases reach, and the `hamle mangala` engine.

pub mod bench;
pub mod cli;
pub mod command;
pub mod db;
pub mod draw;
pub mod engine;
pub mod game;
pub mod notation;
pub mod player;
pub mod referee;
pub mod rules;
pub mod set_match;

pub use draw::{Draw, Hand};
pub use game::Game;
pub use rules::{EndRule, IllegalMove, Landing, Pit, Position, PositionError, Side};
pub use set_match::{Match, SetResult, StarterOrder};
