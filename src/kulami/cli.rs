//! The `hamle kulami` command line: the engine's settings (seed, node budget, scoring and
//! first layout) and the engine on stdin/stdout.

use std::io;

use clap::Args;

use super::engine::{self, KulamiEngine, Settings};
use super::score::RowBonus;
use crate::protocol;

#[derive(Args, Debug)]
pub struct KulamiArgs {
    /// Seed of every random choice (random layouts): the same seed and budget give the same moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search nodes per move.
    #[arg(long, default_value_t = engine::DEFAULT_NODES)]
    pub nodes: u64,
    /// Row bonus: `length` (a line of n >= 5 scores n) or points per line.
    #[arg(long, default_value = "length")]
    pub row_bonus: RowBonus,
    /// Scoring: `tournament` (rows + largest area + tiles) or `standard` (tiles only).
    #[arg(long, default_value = "tournament", value_parser = ["tournament", "standard"])]
    pub scoring: String,
    /// First layout: `default`, or the tile letters with rows separated by `/`.
    #[arg(long, default_value = "default")]
    pub layout: String,
}

/// Runs `hamle kulami`: the engine on stdin/stdout until `quit` or the end of input. A
/// layout that cannot be read is an invalid-input error.
pub fn run(args: KulamiArgs) -> io::Result<()> {
    let settings = Settings::from_args(
        args.seed,
        args.nodes,
        args.row_bonus,
        args.scoring == "standard",
        &args.layout,
    )
    .map_err(|error| io::Error::new(io::ErrorKind::InvalidInput, error))?;
    protocol::serve_stdio(&mut KulamiEngine::new(settings))
}
