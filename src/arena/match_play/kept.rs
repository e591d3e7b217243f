//! The engines a match worker keeps between games (`--restart on-failure`): one process a
//! bot, not a seat, since the bots swap seats between the two games of a pair.
//!
//! An engine that finished a game is kept; before its next game it gets `clear_board`,
//! its bot's seed command with the game's engine seed and the bot's `between_games`
//! commands, then the usual startup and setup commands (`conduct`), so that it plays as
//! the fresh process of `--restart per-game` would. An engine that failed, lost on time,
//! or fails that reset is killed, one that lost by an illegal move is asked to quit, and a
//! fresh one is started for the next game. A fresh
//! engine gets its seed on the command line (`seed_arg`), or through the seed command when
//! the bot has no `seed_arg`.

use std::path::PathBuf;

use super::ending::Fault;
use super::settings::{MatchSettings, RestartPolicy};
use crate::arena::bots::Bot;
use crate::arena::gtp::EngineProcess;
use crate::arena::store::protocol_log_path;
use crate::contract::Seat;
use crate::seed::derive_seed;

/// Sent to a kept engine before its next game. An error answer is no fault: Tavla has no
/// board to clear, and every game's setup commands start the game anyway.
const CLEAR: &str = "clear_board";

/// One worker's engines between games, in bot order, with each bot's stderr log.
pub(super) struct KeptEngines {
    engines: [Option<EngineProcess>; 2],
    logs: [PathBuf; 2],
    /// The bot's engine refused a reset command once: it is restarted for every game.
    refused_reset: [bool; 2],
}

impl KeptEngines {
    /// No engine yet; `logs` takes each bot's stderr, in bot order.
    pub(super) fn new(logs: [PathBuf; 2]) -> KeptEngines {
        KeptEngines {
            engines: [None, None],
            logs,
            refused_reset: [false; 2],
        }
    }

    /// Whether `bot_index`'s engine serves more than one game.
    fn reuses(&self, settings: &MatchSettings, bot_index: usize) -> bool {
        settings.restart == RestartPolicy::OnFailure
            && settings.bots[bot_index].reusable()
            && !self.refused_reset[bot_index]
    }

    /// The engine of `bot_index` for `seat` in game `game` of seed `game_seed`: the kept
    /// one, reset, or else a fresh one. A fresh engine that does not start (or refuses its
    /// seed) is `seat`'s fault. Under `--log-protocol` the engine talks into the game's log
    /// from its reset or start on.
    pub(super) async fn engine_for(
        &mut self,
        settings: &MatchSettings,
        seat: Seat,
        (game, bot_index): (usize, usize),
        game_seed: u64,
    ) -> Result<EngineProcess, Fault> {
        let bot = &settings.bots[bot_index];
        let engine_seed = derive_seed(game_seed, 1 + seat.index() as u64);
        let protocol_log = settings
            .log_protocol
            .then(|| protocol_log_path(&settings.out_dir, game, &bot.name));
        if let Some(mut engine) = self.engines[bot_index].take() {
            if let Err(error) = engine.log_protocol_to(protocol_log.as_deref()) {
                tracing::warn!("--log-protocol: {}: {error}", bot.name);
            }
            match reset(settings, bot, engine, engine_seed).await {
                Ok(engine) => return Ok(engine),
                Err(Reset::Refused(why)) => {
                    tracing::warn!(
                        "{}: {why}; it is restarted for every game from now on",
                        bot.name
                    );
                    self.refused_reset[bot_index] = true;
                }
                Err(Reset::Broken(why)) => {
                    tracing::warn!("{}: {why}; a fresh engine plays the game", bot.name);
                }
            }
        }
        let mut launch = bot
            .launch(&settings.hamle_exe, Some(engine_seed))
            .map_err(|error| Fault {
                seat,
                kind: "spawn",
                detail: error.to_string(),
            })?;
        launch.stderr_log = Some(self.logs[bot_index].clone());
        launch.protocol_log = protocol_log;
        let mut engine = EngineProcess::spawn(&launch).map_err(|error| Fault::of(seat, error))?;
        if let (Some(command), None) = (&bot.seed_command, &bot.seed_arg) {
            let command = format!("{command} {engine_seed}");
            let answer = engine.send(&command, settings.start_timeout).await;
            let fault = match answer {
                Ok(Ok(_)) => return Ok(engine),
                Ok(Err(message)) => Fault {
                    seat,
                    kind: "error",
                    detail: format!("'{command}' failed: {message}"),
                },
                Err(error) => Fault::of(seat, error),
            };
            engine.kill().await;
            return Err(fault);
        }
        Ok(engine)
    }

    /// `bot_index`'s engine after a game: killed when it failed (it may still be
    /// thinking), kept for the next game when it played it out and the bot's engines are
    /// reused, else asked to quit.
    pub(super) async fn release(
        &mut self,
        settings: &MatchSettings,
        bot_index: usize,
        engine: EngineProcess,
        after: After,
    ) {
        if after == After::Failed {
            engine.kill().await;
        } else if after == After::Played && self.reuses(settings, bot_index) {
            // A slot holds at most one engine: the two seats of a game are two bots.
            if let Some(other) = self.engines[bot_index].replace(engine) {
                other.shutdown().await;
            }
        } else {
            engine.shutdown().await;
        }
    }

    /// The worker is done: every kept engine is asked to quit and reaped.
    pub(super) async fn shut_down(&mut self) {
        for engine in self.engines.iter_mut().filter_map(Option::take) {
            engine.shutdown().await;
        }
    }
}

/// How an engine's game (or attempt) ended for it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum After {
    /// Played out, or stopped by the opponent's fault: it may serve the next game.
    Played,
    /// It lost by an illegal move: it may have lost track of the game, so it is not kept.
    Illegal,
    /// It crashed, hung, talked garbage or lost on time: it is killed.
    Failed,
}

/// Why a kept engine could not be reset for its next game (it has been killed).
enum Reset {
    /// It answered a reset command with an error: it cannot be reused.
    Refused(String),
    /// It crashed, hung or talked garbage: a fresh one may do.
    Broken(String),
}

/// Readies a kept engine for its next game: `clear_board`, the seed command with
/// `engine_seed`, the bot's `between_games`. Any failure kills it.
async fn reset(
    settings: &MatchSettings,
    bot: &Bot,
    mut engine: EngineProcess,
    engine_seed: u64,
) -> Result<EngineProcess, Reset> {
    let timeout = settings.start_timeout;
    let seeding = bot
        .seed_command
        .iter()
        .map(|command| format!("{command} {engine_seed}"));
    let commands = std::iter::once(CLEAR.to_owned())
        .chain(seeding)
        .chain(bot.between_games.iter().cloned());
    for command in commands {
        let failure = match engine.send(&command, timeout).await {
            Ok(Ok(_)) => continue,
            Ok(Err(_)) if command == CLEAR => continue,
            Ok(Err(message)) => Reset::Refused(format!(
                "the kept engine refused '{command}' between games: {message}"
            )),
            Err(error) => Reset::Broken(format!("between games: {error}")),
        };
        engine.kill().await;
        return Err(failure);
    }
    Ok(engine)
}
