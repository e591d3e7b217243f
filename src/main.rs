//! The `hamle` binary: one engine per game on stdin/stdout, plus the bench.

use std::io::{self, BufReader};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use hamle::go;
use hamle::protocol;

#[derive(Parser)]
#[command(
    name = "hamle",
    version,
    about = "Headless game engines speaking GTP over stdio"
)]
struct Cli {
    #[command(subcommand)]
    command: Commands,
}

#[derive(Subcommand)]
enum Commands {
    /// Run the Go engine as a GTP v2 engine on stdin/stdout.
    Go(GoArgs),
    /// Search a fixed set of positions to a fixed budget and print node counts and speed.
    Bench {
        #[command(subcommand)]
        game: BenchGame,
    },
}

#[derive(Subcommand)]
enum BenchGame {
    /// Go: Monte Carlo search over fixed 9×9 and 19×19 positions.
    Go {
        /// Playouts per position.
        #[arg(long, default_value_t = go::bench::DEFAULT_PLAYOUTS)]
        playouts: u64,
    },
}

#[derive(Args)]
struct GoArgs {
    /// Rule set: japanese, chinese, tromp-taylor, aga or new-zealand.
    #[arg(long, default_value = "japanese")]
    rules: go::rules::RuleSet,
    /// Seed of every random choice: the same seed and budget give the same moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Playouts per move (a fixed budget, for reproducible matches); 0 leaves it to the clock.
    #[arg(long, default_value_t = go::engine::DEFAULT_PLAYOUTS)]
    playouts: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

fn main() -> ExitCode {
    protocol::log::init();
    let cli = Cli::parse();
    let result = match cli.command {
        Commands::Go(args) => {
            let settings = go::engine::Settings {
                rules: args.rules,
                seed: args.seed,
                playouts: args.playouts,
                threads: args.threads.max(1),
            };
            let mut engine = go::engine::GoEngine::new(settings);
            protocol::serve(
                &mut engine,
                BufReader::new(io::stdin()),
                io::stdout().lock(),
            )
        }
        Commands::Bench {
            game: BenchGame::Go { playouts },
        } => go::bench::run(playouts, &mut io::stdout().lock()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout means the controller has gone: nothing left to tell anyone.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!("{error}");
            ExitCode::FAILURE
        }
    }
}
