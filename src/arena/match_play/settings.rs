//! What decides a match: the bots, the game, the seed, the budgets and the policies for
//! failures and illegal moves; the settings `--resume` compares; who sits where in each
//! game, and the seed a pair of games shares.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use super::openings::OpeningSuite;
use crate::arena::adjudication::Adjudication;
use crate::arena::bots::Bot;
use crate::arena::shard::{SHARD_KEY, Shard};
use crate::arena::sprt::{self, SprtSpec};
use crate::arena::store::GameResult;
use crate::arena::time_control::TimeControl;
use crate::contract::{GameSettings, Referee};
use crate::seed::derive_seed;

/// How many times `--recover` replays a game whose engine failed.
pub const RECOVERY_ATTEMPTS: usize = 2;

/// What an engine failure costs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailurePolicy {
    /// The faulty engine loses the game.
    Forfeit,
    /// The game is recorded as void and not counted.
    Void,
}

impl FailurePolicy {
    fn word(self) -> &'static str {
        match self {
            FailurePolicy::Forfeit => "forfeit",
            FailurePolicy::Void => "void",
        }
    }
}

/// What an illegal move costs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IllegalPolicy {
    /// The first illegal move loses the game.
    Forfeit,
    /// The Kulami sheet's rule: a warning, the engine takes the move back (`undo`) and is
    /// asked again; the third warning in a game loses it.
    Warn3,
}

impl IllegalPolicy {
    fn word(self) -> &'static str {
        match self {
            IllegalPolicy::Forfeit => "forfeit",
            IllegalPolicy::Warn3 => "warn3",
        }
    }
}

/// When a match starts engine processes (`--restart`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RestartPolicy {
    /// Each worker keeps one engine a bot and serves game after game with it; an engine
    /// that failed, lost on time or cannot be reset is replaced by a fresh one. Bots that
    /// take their seed on the command line only (`seed_arg`, no `seed_command`) are
    /// restarted for every game.
    OnFailure,
    /// Fresh engines for every game (and every `--recover` replay).
    PerGame,
}

/// Warnings that lose the game under [`IllegalPolicy::Warn3`].
pub const WARNINGS_TO_LOSE: usize = 3;

/// Pair k's seed, for what both games of the pair share (Kulami's layout, Mangala's draw).
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    derive_seed(seed ^ PAIR_SEED_MASK, pair)
}

/// "pairseed" in ASCII: keeps pair seeds apart from game seeds.
pub const PAIR_SEED_MASK: u64 = 0x7061_6972_7365_6564;

/// Pair k's opening seed (`--opening-plies`): ply p takes SplitMix64(this seed, p).
pub fn opening_seed(seed: u64, pair: u64) -> u64 {
    derive_seed(pair_seed(seed, pair), OPENING_STREAM)
}

/// "opening" in ASCII: the opening's stream of the pair seed, apart from the referee's.
pub const OPENING_STREAM: u64 = 0x006f_7065_6e69_6e67;

/// Everything that decides a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub bots: [Bot; 2],
    pub games: usize,
    /// The game and the settings that decide its games.
    pub game: Arc<dyn GameSettings>,
    pub seed: u64,
    /// A game reaching this many moves is counted as it stands.
    pub max_moves: usize,
    pub move_timeout: Duration,
    /// For the startup and setup commands, so slow starters are not taken for hung.
    pub start_timeout: Duration,
    pub on_failure: FailurePolicy,
    pub illegal: IllegalPolicy,
    pub recover: bool,
    pub concurrency: usize,
    pub out_dir: PathBuf,
    pub hamle_exe: PathBuf,
    /// Print a line per finished game.
    pub progress: bool,
    /// Stop once the SPRT of the first bot against the second decides (`games` is then the
    /// most that are played).
    pub sprt: Option<SprtSpec>,
    /// Put before every progress line (the ladder names the pairing).
    pub label: String,
    /// The game clocks (`--time-control`): told to the engines, charged, loss on time;
    /// a bot's own clock ([`Bot::time_control`]) comes before it.
    pub time_control: TimeControl,
    /// End a game both engines count as clearly decided (engines that report scores).
    pub adjudication: Option<Adjudication>,
    /// Random legal moves that start every game (`--opening-plies`), the same in both games
    /// of a pair: variety for engines that play the same game from the same start.
    pub opening_plies: usize,
    /// `--shard I/N`: play only pairs k with k mod N = I - 1, each exactly as in the
    /// whole match (`hamle match merge` combines the shards).
    pub shard: Option<Shard>,
    /// `--openings`: each pair's start, checked before the match.
    pub openings: Option<Arc<OpeningSuite>>,
    /// Engines kept between games or started for each (`--restart`); the games are the
    /// same either way, so `--resume` does not compare it.
    pub restart: RestartPolicy,
    /// `--log-protocol`: each game's conversation with each engine is kept
    /// ([`crate::arena::store::protocol_log_path`]); it changes no game.
    pub log_protocol: bool,
    /// A watcher told of every game's start, moves and save (a living ladder's); it
    /// changes no game, so `--resume` does not compare it.
    pub observer: Option<super::Observer>,
    /// `--record-judgement`: engines whose protocol gives their judgement of the game are
    /// asked for their moves so, and the records keep it; it changes no move.
    pub record_judgement: bool,
}

impl MatchSettings {
    /// The settings `--resume` must find unchanged (not concurrency: it changes no game).
    pub fn decisive(&self) -> Vec<(String, String)> {
        let mut settings = vec![
            ("game".to_owned(), self.game.game().to_owned()),
            ("games".to_owned(), self.games.to_string()),
        ];
        settings.extend(
            self.game
                .decisive()
                .into_iter()
                .map(|(key, value)| (key.to_owned(), value)),
        );
        settings.extend([
            ("seed".to_owned(), self.seed.to_string()),
            ("max_moves".to_owned(), self.max_moves.to_string()),
            (
                "move_timeout".to_owned(),
                format!("{}", self.move_timeout.as_secs_f64()),
            ),
            (
                "start_timeout".to_owned(),
                format!("{}", self.start_timeout.as_secs_f64()),
            ),
            ("on_failure".to_owned(), self.on_failure.word().to_owned()),
            ("recover".to_owned(), self.recover.to_string()),
        ]);
        // Only a non-default policy is written, so older Go matches resume unchanged.
        if self.illegal != IllegalPolicy::Forfeit {
            settings.push(("illegal".to_owned(), self.illegal.word().to_owned()));
        }
        if let Some(spec) = &self.sprt {
            settings.push(("sprt".to_owned(), spec.to_string()));
        }
        // Only a clock is written, so matches without one resume unchanged.
        if !self.time_control.is_none() {
            settings.push(("time_control".to_owned(), self.time_control.to_string()));
        }
        if let Some(adjudication) = &self.adjudication {
            settings.push(("adjudicate".to_owned(), adjudication.to_string()));
        }
        // Only an opening is written, so matches without one resume unchanged.
        if self.opening_plies > 0 {
            settings.push(("opening_plies".to_owned(), self.opening_plies.to_string()));
        }
        // Only a suite is written, so matches without one resume unchanged.
        if let Some(suite) = &self.openings {
            settings.extend(suite.decisive());
        }
        // Only a shard is written: `hamle match merge` drops this line and finds the
        // settings file of the whole match.
        if let Some(shard) = self.shard {
            settings.push((SHARD_KEY.to_owned(), shard.to_string()));
        }
        for (index, bot) in self.bots.iter().enumerate() {
            let key = format!("bot{}", index + 1);
            settings.push((format!("{key}.name"), bot.name.clone()));
            let mut command = vec![bot.program.clone()];
            command.extend(bot.args.iter().cloned());
            settings.push((format!("{key}.command"), command.join(" ")));
            settings.push((format!("{key}.startup"), bot.startup.join(" | ")));
            // Time odds: only a bot's own clock is written, so that other matches resume
            // unchanged.
            if let Some(own) = bot.time_control.filter(|own| *own != self.time_control) {
                settings.push((format!("{key}.time_control"), own.to_string()));
            }
        }
        settings
    }

    /// The clock of bot `bot` (0 or 1): its own, else the match's.
    pub fn clock_of(&self, bot: usize) -> TimeControl {
        self.bots[bot].time_control.unwrap_or(self.time_control)
    }

    /// Game `index`'s referee: from its pair's opening under `--openings`, else from the
    /// game's start.
    pub fn referee(&self, index: usize) -> Box<dyn Referee> {
        let pair = (index / 2) as u64;
        match &self.openings {
            Some(suite) => suite.referee(self.game.as_ref(), self.seed, pair),
            None => self.game.referee(pair_seed(self.seed, pair)),
        }
    }

    /// What game `index`'s record comment says of its opening (`--openings`), or nothing.
    pub fn opening_note(&self, index: usize) -> String {
        self.openings
            .as_ref()
            .map(|suite| suite.note(self.seed, (index / 2) as u64))
            .unwrap_or_default()
    }

    /// Whether game `index` is this run's: every game, or its pair's shard's.
    pub fn plays_game(&self, index: usize) -> bool {
        self.shard.is_none_or(|shard| shard.plays(index / 2))
    }

    /// The games this run plays (all, or its shard's).
    pub fn planned_games(&self) -> usize {
        (0..self.games).filter(|&g| self.plays_game(g)).count()
    }

    /// True when `--sprt` is on and `results` already decide it. A shard never stops for
    /// the SPRT: its pairs are not the first ones, so only the merge can count them.
    pub fn sprt_decided(&self, results: &[GameResult]) -> bool {
        self.shard.is_none()
            && self.sprt.as_ref().is_some_and(|spec| {
                sprt::sequential(spec, results, &self.bots[0].name)
                    .2
                    .verdict
                    .is_some()
            })
    }

    /// Game `index`'s seats: bot indexes of the first and second seat.
    pub fn seating(index: usize) -> [usize; 2] {
        if index.is_multiple_of(2) {
            [0, 1]
        } else {
            [1, 0]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours() {
        assert_eq!(MatchSettings::seating(0), [0, 1]);
        assert_eq!(MatchSettings::seating(1), [1, 0]);
    }
}
