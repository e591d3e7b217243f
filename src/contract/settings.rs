//! A game's match settings: what `hamle match` needs to set up and label its games.

use std::fmt;

use super::Referee;

/// A record read back and replayed under the rules.
#[derive(Debug)]
pub struct Replayed<R = Box<dyn Referee>> {
    /// The referee after the record's last move.
    pub referee: R,
    /// The result the record states (`*` when it has none).
    pub result: String,
    /// The record's comment as the arena wrote it (`hamle match game 3 (pair 2), seed …`;
    /// empty when it has none): `--resume` checks the line's game, seed, move count and
    /// reason against it.
    pub comment: String,
}

impl<R: Referee + 'static> Replayed<R> {
    /// The same record with its referee behind the contract.
    pub fn boxed(self) -> Replayed {
        Replayed {
            referee: Box::new(self.referee),
            result: self.result,
            comment: self.comment,
        }
    }
}

/// One game's settings for a match, validated when they were built (from the command
/// line, by the game's own flags), so that every referee can be built without failing.
pub trait GameSettings: fmt::Debug + Send + Sync {
    /// The game's name, as bot files and `match.txt` write it (`go`, `tavla`, …).
    fn game(&self) -> &'static str;

    /// The settings that decide the games, as `match.txt` keeps them (`--resume` must
    /// find them unchanged), in a fixed order.
    fn decisive(&self) -> Vec<(&'static str, String)>;

    /// The move cap when the command line gives none.
    fn default_max_moves(&self) -> usize;

    /// `--opening-plies` when the command line gives none: 0 (every game from the
    /// game's start) unless the game's engines play one game from one start at fixed
    /// budgets, so that a pair would replay the pair before it.
    fn default_opening_plies(&self) -> usize {
        0
    }

    /// The referee of one game. `pair_seed` is shared by both games of a pair, for what
    /// they must share (Kulami's layout, Mangala's draw, Tavla's dice).
    fn referee(&self, pair_seed: u64) -> Box<dyn Referee>;

    /// Reads a record that [`Referee::record`] wrote for this game and replays every
    /// move under the rules; fails naming the first problem (a missing tag, an illegal
    /// move). The settings a record needs come from the record itself.
    fn replay_record(&self, text: &str) -> Result<Replayed, String>;

    /// The openings of a suite file (`--openings`), each as one line with the line of the
    /// file it starts on; `Err` names the line and what is wrong. Default: one opening a
    /// line, blank lines and `#` comments skipped (Go reads SGF collections too).
    fn split_openings(&self, text: &str) -> Result<Vec<(usize, String)>, (usize, String)> {
        Ok(super::opening::split_lines(text))
    }

    /// A referee whose game starts from `opening`, one entry of a suite in the game's own
    /// notation (see [`super::opening`]), checked by the rules; `Err` says in one line what
    /// is wrong. `pair_seed` as in [`GameSettings::referee`]. Default: the game takes none.
    fn opening_referee(&self, opening: &str, pair_seed: u64) -> Result<Box<dyn Referee>, String> {
        let _ = (opening, pair_seed);
        Err(format!("{} takes no opening suites", self.game()))
    }

    /// The game's built-in suite (`--openings default`), empty when it has none.
    fn default_openings(&self) -> &'static str {
        ""
    }

    /// The first `plies` moves of a record [`Referee::record`] wrote, as a line of a suite
    /// (how `hamle match openings` turns played games into a suite).
    fn opening_of_record(&self, record: &str, plies: usize) -> Result<String, String> {
        let _ = (record, plies);
        Err(format!("{} takes no opening suites", self.game()))
    }
}
