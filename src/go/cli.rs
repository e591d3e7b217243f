//! The `hamle go` command line: the GTP engine's settings.

use std::io::{self, BufReader};

use clap::Args;

use super::engine::{self, GoEngine, Settings};
use super::rules::RuleSet;
use crate::protocol;

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
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seconds per move when no game clock is set; with --playouts, the first reached ends
    /// the search (--playouts 0 leaves it to time alone).
    #[arg(long)]
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
}

/// `on` or `off`, for switches that default to on.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected on or off, got '{text}'")),
    }
}

/// Serves the Go engine on stdin/stdout until `quit` or the end of input.
pub fn run(args: GoArgs) -> io::Result<()> {
    let settings = Settings {
        rules: args.rules,
        seed: args.seed,
        playouts: args.playouts,
        threads: args.threads.max(1),
        time_per_move: args.time_per_move.filter(|s| s.is_finite() && *s > 0.0),
        live_gfx: args.live_gfx,
        reuse: args.reuse,
        ponder: args.ponder,
        ..Settings::default()
    };
    let mut engine = GoEngine::new(settings);
    protocol::serve(
        &mut engine,
        BufReader::new(io::stdin()),
        io::stdout().lock(),
    )
}
