//! The `hamle` binary: a short dispatcher. Each game's engine and bench come from the
//! registry (`hamle::games`); the arena's commands from `hamle::arena::cli`.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use hamle::arena::bench::BenchArenaArgs;
use hamle::arena::check::CheckArgs;
use hamle::arena::cli::{LadderArgs, MatchArgs, RegressArgs};
use hamle::arena::view::cli::ViewArgs;
use hamle::games::{BenchGame, EngineCommand, PerftGame};
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
    #[command(flatten)]
    Engine(EngineCommand),
    /// Run GNU Go style `.tst` regression files against an engine (exit 0, 1 or 2).
    Regress(RegressArgs),
    /// Play two bots against each other, refereed by our rules; resumable results.
    Match(MatchArgs),
    /// Check that a bot can play a match: handshake, setup, short games refereed by our
    /// rules in both seats, an illegal move refused, framing, clock, junk, quit (exit 0 or 1).
    Check(CheckArgs),
    /// Round robin, gauntlet or Swiss among bots of one game: Elo by maximum likelihood, crosstable.
    Ladder(LadderArgs),
    /// Put a bot of this machine on a living ladder server: it plays the games the server
    /// pairs it in, thinking here; the password is set at the name's first login.
    Connect(hamle::arena::connect::ConnectArgs),
    /// Tune a bot file's numeric options by SPSA, every iteration a match; resumable.
    Tune(hamle::arena::tune::cli::TuneArgs),
    /// Turn a game record (SGF, .mat, or a text record) into a page that replays it in a browser.
    View(ViewArgs),
    /// Count the move sequences of a given length (move-generator check).
    Perft {
        #[command(subcommand)]
        game: PerftGame,
    },
    /// Search a fixed set of positions to a fixed budget and print node counts and speed
    /// (`hamle bench arena`: games a second of the arena).
    Bench {
        #[command(subcommand)]
        target: BenchTarget,
    },
    /// Print a shell completion script: `hamle completions bash > /etc/bash_completion.d/hamle`.
    Completions {
        /// The shell the script is for.
        shell: clap_complete::Shell,
    },
    /// Print a man page in roff, for `man -l`: hamle's own, or a subcommand's (`hamle man match`,
    /// `hamle man go learn-patterns`).
    Man {
        /// The subcommand whose page to print; none for hamle's own page.
        subcommand: Vec<String>,
    },
}

#[derive(Subcommand)]
enum BenchTarget {
    #[command(flatten)]
    Game(BenchGame),
    /// The arena: games a second between two instant-move Mangala bots, engines kept
    /// between games and restarted for each, in one run.
    Arena(BenchArenaArgs),
}

fn main() -> ExitCode {
    use hamle::arena::reaper;
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    // The arena's supervisor of one engine (hidden: the arena starts it, nobody else).
    if args.get(1).is_some_and(|word| word == reaper::SHIM_COMMAND) {
        let code = reaper::exec_bot(&args[2..]);
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    // A remote bot's relay (hidden: a ladder server's arena starts it, nobody else).
    if args
        .get(1)
        .is_some_and(|word| word == hamle::arena::live::remote::RELAY_COMMAND)
    {
        let code = hamle::arena::live::remote::relay::relay_bot(&args[2..]);
        return ExitCode::from(u8::try_from(code).unwrap_or(1));
    }
    protocol::log::init();
    let result = match Cli::parse().command {
        Commands::Regress(args) => return supervised(|| hamle::arena::cli::regress(args)),
        Commands::Match(args) => {
            return supervised(|| hamle::arena::cli::run_match_command(args));
        }
        Commands::Check(args) => {
            return supervised(|| hamle::arena::check::run_check_command(args));
        }
        Commands::Ladder(args) => {
            return supervised(|| hamle::arena::cli::run_ladder_command(args));
        }
        Commands::Tune(args) => {
            return supervised(|| hamle::arena::tune::cli::run(args));
        }
        Commands::Connect(args) => return hamle::arena::connect::run(args),
        Commands::View(args) => return hamle::arena::view::cli::run(args),
        Commands::Engine(engine) => engine.run(),
        Commands::Perft { game } => game.run(&mut io::stdout().lock()),
        Commands::Bench {
            target: BenchTarget::Game(game),
        } => game.run(&mut io::stdout().lock()),
        Commands::Bench {
            target: BenchTarget::Arena(args),
        } => return supervised(|| bench_arena(&args)),
        Commands::Completions { shell } => completions(shell),
        Commands::Man { subcommand } => return man_page(&subcommand),
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

/// Runs an arena command with its engines supervised, and ends whatever they left behind at
/// its normal end (the end by a signal is `arena::interrupt`'s).
fn supervised(run: impl FnOnce() -> ExitCode) -> ExitCode {
    hamle::arena::reaper::install();
    let code = run();
    let _ending = hamle::arena::interrupt::ending();
    hamle::arena::reaper::end_run();
    code
}

/// `hamle bench arena`: exit 0, or 2 when a run failed or the two runs differed.
fn bench_arena(args: &BenchArenaArgs) -> ExitCode {
    match hamle::arena::bench::run(args, &mut io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("hamle bench arena: {message}");
            ExitCode::from(2)
        }
    }
}

/// `hamle completions SHELL`: generated from the same definition as `--help`, so the two
/// cannot disagree.
fn completions(shell: clap_complete::Shell) -> io::Result<()> {
    let mut command = Cli::command();
    // Into memory first: clap_complete panics on a write error, and a closed pipe
    // (`hamle completions bash | head`) is no error of ours.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "hamle", &mut script);
    io::stdout().lock().write_all(&script)
}

/// `hamle man [SUBCOMMAND…]`: the page of hamle or of one of its subcommands, named
/// `hamle-match(1)` and so on as git's pages are; exit 2 naming the subcommands where one
/// is unknown.
fn man_page(path: &[String]) -> ExitCode {
    let mut command = Cli::command();
    command.build();
    let mut name = String::from("hamle");
    for word in path {
        let Some(sub) = command.find_subcommand(word).cloned() else {
            let known: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
            eprintln!(
                "hamle man: '{name}' has no subcommand '{}'; its subcommands: {}",
                hamle::text::shorten(word),
                known.join(", ")
            );
            return ExitCode::from(2);
        };
        name = format!("{name}-{}", sub.get_name());
        command = sub.name(name.clone()).version(env!("CARGO_PKG_VERSION"));
    }
    match clap_mangen::Man::new(command).render(&mut io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("hamle man: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap checks a command line's definition only in debug builds, when it parses; the
    /// arena's commands flatten every game's flags, whose groups must not share a name
    /// (two `MatchFlags` did, and `hamle match` panicked in debug builds).
    #[test]
    fn every_subcommand_has_unique_argument_groups() {
        let command = super::Cli::command();
        for sub in command.get_subcommands() {
            let mut ids: Vec<&str> = sub.get_groups().map(|g| g.get_id().as_str()).collect();
            let count = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), count, "hamle {}: {ids:?}", sub.get_name());
        }
    }
}
