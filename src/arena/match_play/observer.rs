//! A match's watcher: told when each game begins, each move played and each game saved,
//! for a living ladder's database and live page. Off by default (`MatchSettings::observer`
//! is `None`); a watcher sees the games and changes none of them.

use std::sync::Arc;

use crate::arena::store::GameResult;

/// What a match tells its watcher. Called from the match's workers: each call should be
/// quick (a database row, an event), as the game waits for it.
pub trait GameObserver: Send + Sync {
    /// An attempt at game `index` begins (again after a `--recover` replay, whose moves
    /// then start over from ply 1); `seat_bots` are the match's bot indexes (0 or 1) in
    /// seat order.
    fn game_started(&self, index: usize, seat_bots: [usize; 2]);
    /// Ply `ply` (from 1) of game `index` was played: `text` as the engine answered it (or
    /// as `--opening-plies` drew it), `thinking_ms` the mover's time (`None` for a drawn
    /// opening ply).
    fn moved(&self, index: usize, ply: usize, text: &str, thinking_ms: Option<u64>);
    /// Game `index` is over and saved (its record written, its line in `results.tsv`).
    fn game_saved(&self, result: &GameResult);
}

/// A shared watcher, as [`super::MatchSettings`] holds it.
#[derive(Clone)]
pub struct Observer(pub Arc<dyn GameObserver>);

impl std::fmt::Debug for Observer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}
