//! Tavla (backgammon) by the Turkish tournament sheet (`../shared/RULES.md`), with the
//! cube and match play.
//!
//! Rooms:
//! * rules: `board` (the checkers), `dice` (rolls and the seeded roller), `moves` (legal
//!   plays), `game` (a match: turns, cube actions, Crawford, undo; its refusals are
//!   [`IllegalMove`]);
//! * notation: `notation` (`24/18 13/11`), `ids` (gnubg's Position and Match IDs), `fibs`
//!   (FIBS board strings), `mat` (Jellyfish `.mat` records);
//! * the player: `player` (the search), `eval` (dispatching contact to `net`, races to `race`
//!   and bear-offs to `bearoff`), `pubeval`, `cube` (Janowski cube decisions and the match
//!   equity table), `train` and `race_train` (training the two nets; `rollout` labels
//!   positions by truncated rollouts) and `tools` (training, duels);
//! * the engine: `command` (typed GTP commands), `engine` (the GTP adapter), `report` (the
//!   text board, match status, result lines), `setup` (positions set from IDs or FIBS
//!   boards), `ubgi` (the UBGI dialect), `external` (gnubg's external-player socket),
//!   `gnubg_adapter` (gnubg's decisions behind our GTP), `gogui` (why GoGui shows no board);
//! * `referee` (the arena's referee), `opening` (its opening suites), `cli` (`hamle tavla`),
//!   `bench` (`hamle bench tavla`).

pub mod bearoff;
pub mod bench;
pub mod board;
pub mod cli;
pub mod command;
pub mod contact_train;
pub mod cube;
pub mod dice;
pub mod engine;
pub mod eval;
pub mod external;
pub mod fibs;
pub mod game;
pub mod gnubg_adapter;
pub mod gogui;
pub mod ids;
pub mod labels;
mod layers;
pub mod mat;
pub mod moves;
pub mod net;
pub mod notation;
pub mod opening;
pub mod player;
pub mod pubeval;
pub mod race;
pub mod race_train;
pub mod referee;
pub mod report;
pub mod rollout;
mod settings;
pub mod setup;
pub mod teacher;
pub mod timing;
pub mod tools;
pub mod train;
pub mod ubgi;
pub mod view;

pub use board::{Board, BoardError, Side};
pub use dice::{Dice, Roller};
pub use game::{Action, Game, GameEnd, IllegalMove, MatchRules, Phase, TurnAction, WinKind};
pub use moves::{Candidate, Play, Step, legal_plays};
