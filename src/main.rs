//! The `hamle` binary: one engine per game on stdin/stdout, plus the bench.

use std::io::{self, BufReader};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use hamle::abalone;
use hamle::go;
use hamle::kulami;
use hamle::mangala;
use hamle::protocol;
use hamle::tavla;

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
    /// Run the Abalone engine (GTP framing) on stdin/stdout; `selfplay` matches.
    Abalone(abalone::cli::AbaloneArgs),
    /// Run the Kulami engine (GTP framing) on stdin/stdout.
    Kulami(kulami::cli::KulamiArgs),
    /// Run the Mangala engine (GTP framing) on stdin/stdout; `build-db` and `solve` tools.
    Mangala(mangala::cli::MangalaArgs),
    /// Run the Tavla (backgammon) engine: GTP framing, UBGI, or gnubg's external player;
    /// `train` the net by self-play, `duel` two levels, `choose` (a filter).
    Tavla(tavla::cli::TavlaArgs),
    /// Run GNU Go style `.tst` regression files against an engine (exit 0, 1 or 2).
    Regress(hamle::arena::cli::RegressArgs),
    /// Play two bots against each other, refereed by our rules; resumable results.
    Match(hamle::arena::cli::MatchArgs),
    /// Round robin or gauntlet among bots of one game: Elo by maximum likelihood, crosstable.
    Ladder(hamle::arena::cli::LadderArgs),
    /// Count the move sequences of a given length (move-generator check).
    Perft {
        #[command(subcommand)]
        game: PerftGame,
    },
    /// Search a fixed set of positions to a fixed budget and print node counts and speed.
    Bench {
        #[command(subcommand)]
        game: BenchGame,
    },
}

#[derive(Subcommand)]
enum PerftGame {
    /// Abalone: perft below each legal move, then the total.
    Abalone {
        #[arg(default_value_t = 3)]
        depth: u32,
        /// standard, belgian-daisy, german-daisy or a position string.
        #[arg(default_value = "standard")]
        position: String,
    },
}

#[derive(Subcommand)]
enum BenchGame {
    /// Abalone: alpha-beta search over fixed positions to a fixed node budget.
    Abalone {
        /// Nodes per position.
        #[arg(long, default_value_t = abalone::bench::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Mangala: alpha-beta search over fixed positions to a fixed node budget.
    Mangala {
        /// Nodes per position.
        #[arg(long, default_value_t = mangala::bench::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Kulami: alpha-beta search over fixed positions to a fixed node budget.
    Kulami {
        /// Nodes per position.
        #[arg(long, default_value_t = kulami::bench::DEFAULT_NODES)]
        nodes: u64,
    },
    /// Tavla: the net's play search over fixed positions; counts static evaluations.
    Tavla {
        /// Opponent rolls looked ahead (0, 1 or 2).
        #[arg(long, default_value_t = tavla::bench::DEFAULT_PLIES)]
        plies: u32,
    },
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
    /// Seconds per move when no game clock is set; with --playouts, the first reached ends
    /// the search (--playouts 0 leaves it to time alone).
    #[arg(long)]
    time_per_move: Option<f64>,
    /// GoGui live graphics on stderr during genmove (also `hamle-live_gfx on`).
    #[arg(long)]
    live_gfx: bool,
    /// Keep the search tree between moves: `on` (default) or `off`, to compare in ladders.
    #[arg(long, default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    reuse: bool,
    /// Think on the opponent's time after genmove, until the next command (also
    /// `hamle-ponder on|off`); moves then depend on timing.
    #[arg(long)]
    ponder: bool,
}

/// `on` or `off`, for switches that default to on.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected on or off, got '{text}'")),
    }
}

fn main() -> ExitCode {
    protocol::log::init();
    let cli = Cli::parse();
    let result = match cli.command {
        Commands::Regress(args) => return hamle::arena::cli::regress(args),
        Commands::Match(args) => return hamle::arena::cli::run_match_command(args),
        Commands::Ladder(args) => return hamle::arena::cli::run_ladder_command(args),
        Commands::Go(args) => {
            let settings = go::engine::Settings {
                rules: args.rules,
                seed: args.seed,
                playouts: args.playouts,
                threads: args.threads.max(1),
                time_per_move: args.time_per_move.filter(|s| s.is_finite() && *s > 0.0),
                live_gfx: args.live_gfx,
                reuse: args.reuse,
                ponder: args.ponder,
                ..go::engine::Settings::default()
            };
            let mut engine = go::engine::GoEngine::new(settings);
            protocol::serve(
                &mut engine,
                BufReader::new(io::stdin()),
                io::stdout().lock(),
            )
        }
        Commands::Kulami(args) => kulami::cli::run(args),
        Commands::Mangala(args) => mangala::cli::run(args),
        Commands::Tavla(args) => tavla::cli::run(args),
        Commands::Abalone(args) => abalone::cli::run(args),
        Commands::Perft {
            game: PerftGame::Abalone { depth, position },
        } => abalone::cli::run_perft(depth, &position, &mut io::stdout().lock()),
        Commands::Bench {
            game: BenchGame::Abalone { nodes },
        } => abalone::bench::run(nodes, &mut io::stdout().lock()),
        Commands::Bench {
            game: BenchGame::Mangala { nodes },
        } => mangala::bench::run(nodes, &mut io::stdout().lock()),
        Commands::Bench {
            game: BenchGame::Kulami { nodes },
        } => kulami::bench::run(nodes, &mut io::stdout().lock()),
        Commands::Bench {
            game: BenchGame::Tavla { plies },
        } => tavla::bench::run(plies, &mut io::stdout().lock()),
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
