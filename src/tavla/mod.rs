//! Tavla (backgammon) by the Turkish tournament sheet (`../shared/RULES.md`): the board and
//! its legal plays, dice from outside or from a seeded roller, the cube and match play,
//! gnubg's Position and Match IDs, and move notation.

pub mod board;
pub mod dice;
pub mod game;
pub mod ids;
pub mod moves;
pub mod notation;
pub mod player;

pub use board::{Board, BoardError, Side};
pub use dice::{Dice, Roller};
pub use game::{Action, Game, GameEnd, GameError, MatchRules, Phase, WinKind};
pub use moves::{Candidate, Play, Step, legal_plays};
