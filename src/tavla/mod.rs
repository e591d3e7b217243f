//! Tavla (backgammon) by the Turkish tournament sheet (`../shared/RULES.md`): the board and
//! its legal plays, dice from outside or from a seeded roller, the cube and match play,
//! gnubg's Position and Match IDs, and move notation; the engine on the shared GTP core, the
//! UBGI dialect, gnubg's external-player socket and Jellyfish `.mat` records; the player
//! (pubeval, a self-trained net with a bear-off database, 0–2 ply search, Janowski cube
//! decisions) and its tools.

pub mod bearoff;
pub mod bench;
pub mod board;
pub mod cli;
pub mod command;
pub mod cube;
pub mod dice;
pub mod engine;
pub mod eval;
pub mod external;
pub mod fibs;
pub mod game;
pub mod gnubg_adapter;
pub mod ids;
pub mod mat;
pub mod moves;
pub mod net;
pub mod notation;
pub mod player;
pub mod pubeval;
pub mod referee;
pub mod report;
pub mod setup;
pub mod tools;
pub mod train;
pub mod ubgi;

pub use board::{Board, BoardError, Side};
pub use dice::{Dice, Roller};
pub use game::{Action, Game, GameEnd, IllegalMove, MatchRules, Phase, WinKind};
pub use moves::{Candidate, Play, Step, legal_plays};
