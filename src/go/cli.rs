//! The `hamle go` command line: the GTP engine's settings.

use std::io;

use clap::Args;

use super::engine::{self, GoEngine, Settings};
use super::rules::RuleSet;
use crate::protocol;
use crate::text::shorten;

#[derive(Args, Debug)]
pub struct GoArgs {
    /// Rule set: japanese, chinese, tromp-taylor, aga or new-zealand.
    #[arg(long, default_value = "japanese")]
    pub rules: RuleSet,
    /// Seed of every random choice: the same seed and budget give the same moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Playouts per move (a fixed budget, for reproducible matches); 0 leaves it to the clock.
    #[arg(long, default_value_t = engine::DEFAULT_PLAYOUTS)]
    pub playouts: u64,
    /// Search threads, 1 to 1024.
    #[arg(long, default_value_t = 1, value_parser = thread_count, allow_negative_numbers = true)]
    pub threads: usize,
    /// Seconds per move when no game clock is set (above 0, at most 86400); with
    /// --playouts, the first reached ends the search (--playouts 0 leaves it to time alone).
    #[arg(long, value_parser = seconds_per_move, allow_negative_numbers = true)]
    pub time_per_move: Option<f64>,
    /// GoGui live graphics on stderr during genmove (also `hamle-live_gfx on`).
    #[arg(long)]
    pub live_gfx: bool,
    /// Keep the search tree between moves: `on` (default) or `off`, to compare in ladders.
    #[arg(long, default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub reuse: bool,
    /// Think on the opponent's time after genmove, until the next command (also
    /// `hamle-ponder on|off`); moves then depend on timing.
    #[arg(long)]
    pub ponder: bool,
    /// Dynamic komi in handicap games: `on` (default) searches with a komi that makes
    /// the position about even while the game is young; `off` always with the real komi.
    #[arg(long, default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub dynkomi: bool,
}

/// `on` or `off`, for switches that default to on.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected on or off, got '{text}'")),
    }
}

/// The most search threads: more only costs memory (each thread keeps a tree).
pub const MAX_THREADS: usize = 1024;

/// `--threads`: a whole number from 1 to [`MAX_THREADS`].
fn thread_count(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|threads| (1..=MAX_THREADS).contains(threads))
        .ok_or_else(|| {
            format!(
                "expected a number of threads from 1 to {MAX_THREADS}, got '{}'",
                shorten(text)
            )
        })
}

/// `--time-per-move`: seconds above 0 and at most [`engine::MAX_SECONDS_PER_MOVE`] (a day);
/// NaN, infinities and negative numbers are refused here rather than met by the clock.
fn seconds_per_move(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|&seconds| seconds > 0.0 && seconds <= engine::MAX_SECONDS_PER_MOVE)
        .ok_or_else(|| {
            format!(
                "expected seconds above 0 and at most {} (a day), got '{}'",
                engine::MAX_SECONDS_PER_MOVE,
                shorten(text)
            )
        })
}

/// Serves the Go engine on stdin/stdout until `quit` or the end of input.
pub fn run(args: GoArgs) -> io::Result<()> {
    let settings = Settings {
        rules: args.rules,
        seed: args.seed,
        playouts: args.playouts,
        threads: args.threads,
        time_per_move: args.time_per_move,
        live_gfx: args.live_gfx,
        reuse: args.reuse,
        ponder: args.ponder,
        dynamic_komi: args.dynkomi,
        ..Settings::default()
    };
    let mut engine = GoEngine::new(settings);
    protocol::serve_stdio(&mut engine)
}
