//! `hamle match`: two bots play a series of games, refereed by our rules library.
//!
//! Games 2k and 2k+1 form pair k: the first bot takes the first seat (Go: Black) in the
//! even game and the second seat in the odd one. A game depends only on its own seed: game
//! i's seed derives from the match seed and i, and each engine that takes a seed
//! (`seed_arg` or `seed_command` in its bot file) gets one derived from it. Each worker
//! keeps one engine process a bot from game to game and resets it between games
//! (`clear_board`, the seed command, the game's setup: see `kept`), which plays the games
//! that fresh processes would (`--restart per-game`). The same seed at fixed budgets gives
//! the same games, in any order, on any number of workers, and after any number of
//! interruptions.
//!
//! Failure policy (every engine read has a timeout):
//! - an illegal move (unparsable, occupied, suicide, ko, superko) loses the game (`B+F`/`W+F`);
//! - a crash, a hang (no answer within the timeout), garbage, an error answer to the move
//!   request, or an opponent's move refused: under `--on-failure forfeit` (the default) the
//!   faulty engine loses the game, under `--on-failure void` the game is recorded as void and
//!   not counted; with `--recover`, the game is first replayed from the start (twice at
//!   most; the faulty engine replaced by a fresh one) and the policy applies only if it
//!   fails again;
//! - the run goes on in every case; a faulty engine is killed and replaced by a fresh one for
//!   the next game; at the end every engine is asked to quit, killed if it lingers, and
//!   reaped.
//!
//! The rooms: `settings` (what decides a match), `standings` (the count after it),
//! `pool` (the workers that play the pending games, resume and the SPRT stop), `game` (one
//! game from its seed to its result line, replayed under `--recover`), `kept` (the engines
//! a worker keeps between games), `conduct` (one
//! attempt over the wire: setup, the move loop, clocks, warnings) and `verify` (what
//! `--resume` checks in each line already saved).

mod conduct;
mod ending;
mod game;
mod kept;
mod observer;
mod openings;
mod pool;
mod publish;
mod settings;
mod standings;
mod verify;

pub use observer::{GameObserver, Observer};
pub use openings::{MAX_SUITE_BYTES, OpeningSuite, OpeningsOrder, SuiteOpening};
pub use pool::run_match;
pub use settings::{
    FailurePolicy, IllegalPolicy, MatchSettings, OPENING_STREAM, PAIR_SEED_MASK, RECOVERY_ATTEMPTS,
    RestartPolicy, WARNINGS_TO_LOSE, opening_seed, pair_seed,
};
pub use standings::{Repeats, Standings, repeats};

use crate::arena::bots::BotError;
use crate::arena::store::StoreError;

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    Bot(BotError),
    Store(StoreError),
    Invalid(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Bot(error) => error.fmt(f),
            MatchError::Store(error) => error.fmt(f),
            MatchError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<BotError> for MatchError {
    fn from(error: BotError) -> MatchError {
        MatchError::Bot(error)
    }
}

impl From<crate::arena::folder::FolderError> for MatchError {
    fn from(error: crate::arena::folder::FolderError) -> MatchError {
        MatchError::Store(error.into())
    }
}

impl From<StoreError> for MatchError {
    fn from(error: StoreError) -> MatchError {
        MatchError::Store(error)
    }
}
