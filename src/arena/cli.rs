//! The arena's subcommands as the `hamle` binary exposes them.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;

use super::bots::{GameKind, bot_or_command};
use super::match_play::{FailurePolicy, MatchSettings, Standings, run_match};
use super::regress::Regress;
use crate::go::rules::RuleSet;

/// `hamle regress PROGRAM TEST.tst…`
#[derive(Args, Debug)]
pub struct RegressArgs {
    /// A bot's name from the bots folder, or a command line (split into words, quotes
    /// group, run without a shell), e.g. "/usr/games/gnugo --mode gtp".
    pub program: String,
    /// The `.tst` files; each gets a fresh engine started in the file's folder.
    #[arg(required = true)]
    pub tests: Vec<PathBuf>,
    /// The folder of bot definitions.
    #[arg(long, default_value = "bots")]
    pub bots: PathBuf,
    /// Seconds to wait for each answer before calling the engine hung.
    #[arg(long, default_value_t = 120.0)]
    pub timeout: f64,
    /// Append the engine's stderr to this file (discarded otherwise).
    #[arg(long)]
    pub stderr_log: Option<PathBuf>,
}

/// The path of the running `hamle`, which bot files call `hamle`.
pub fn hamle_exe() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("hamle"))
}

/// A timeout from seconds given on the command line.
pub fn seconds(value: f64, flag: &str) -> Result<Duration, String> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| format!("{flag} must be a positive number of seconds, got {value}"))
}

/// Runs `hamle regress`; exit 0 when all went as expected, 1 on an unexpected failure,
/// 2 on an engine failure or bad input.
pub fn regress(args: RegressArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("hamle regress: {message}");
        ExitCode::from(2)
    };
    let timeout = match seconds(args.timeout, "--timeout") {
        Ok(timeout) => timeout,
        Err(message) => return fail(message),
    };
    let bot = match bot_or_command(&args.bots, &args.program, GameKind::Go) {
        Ok(bot) => bot,
        Err(error) => return fail(error.to_string()),
    };
    let files = match Regress::read_files(&args.tests) {
        Ok(files) => files,
        Err(error) => return fail(error.to_string()),
    };
    let hamle = hamle_exe();
    // Fail before any file runs when the program cannot be found.
    if let Err(error) = bot.launch(&hamle, None) {
        return fail(error.to_string());
    }
    let regress = Regress {
        bot: &bot,
        hamle_exe: &hamle,
        timeout,
        stderr_log: args.stderr_log,
    };
    match regress.run(&files, &mut std::io::stdout().lock()) {
        Ok((_, status)) => ExitCode::from(status as u8),
        Err(error) => fail(format!("cannot write the report: {error}")),
    }
}

/// `hamle match BOT1 BOT2 --out DIR …`
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// The first bot: a name from the bots folder, or a command line.
    pub bot1: String,
    /// The second bot.
    pub bot2: String,
    /// Where the match is kept: settings, results, game records, engine logs, PGN export.
    #[arg(long)]
    pub out: PathBuf,
    /// Continue the match kept in --out (the same settings are required).
    #[arg(long)]
    pub resume: bool,
    /// The folder of bot definitions.
    #[arg(long, default_value = "bots")]
    pub bots: PathBuf,
    /// Games to play; colours alternate, games 2k and 2k+1 forming a pair.
    #[arg(long, default_value_t = 2, conflicts_with = "pairs")]
    pub games: usize,
    /// Game pairs to play (twice as many games), colours swapped within each pair.
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Go board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f32,
    /// The rules the arena referees by: japanese, chinese, tromp-taylor, aga or new-zealand.
    /// Set the bots' own rules in their bot files to match.
    #[arg(long, default_value = "chinese")]
    pub rules: RuleSet,
    /// The match seed: every game's seed and every engine's seed derive from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A game reaching this many moves is counted as it stands (default: 3 × the points).
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Seconds an engine may take for one answer during the game.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Seconds an engine may take to answer the startup and setup commands.
    #[arg(long, default_value_t = 30.0)]
    pub start_timeout: f64,
    /// What a crash, hang or garbage costs: `forfeit` (the faulty engine loses) or `void`.
    #[arg(long, value_enum, default_value = "forfeit")]
    pub on_failure: FailurePolicy,
    /// Replay a game whose engine failed with fresh engines (twice at most) before applying
    /// --on-failure.
    #[arg(long)]
    pub recover: bool,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// No line per game, only the standings.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `hamle match`: exit 0 when every game was played and saved, 2 on bad input or a
/// failure to save.
pub fn run_match_command(args: MatchArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("hamle match: {message}");
        ExitCode::from(2)
    };
    let (move_timeout, start_timeout) = match (
        seconds(args.move_timeout, "--move-timeout"),
        seconds(args.start_timeout, "--start-timeout"),
    ) {
        (Ok(m), Ok(s)) => (m, s),
        (Err(message), _) | (_, Err(message)) => return fail(message),
    };
    let bots = match (
        bot_or_command(&args.bots, &args.bot1, GameKind::Go),
        bot_or_command(&args.bots, &args.bot2, GameKind::Go),
    ) {
        (Ok(a), Ok(b)) => [a, b],
        (Err(error), _) | (_, Err(error)) => return fail(error.to_string()),
    };
    if args.concurrency == 0 {
        return fail("--concurrency must be at least 1".to_owned());
    }
    let games = match args.pairs {
        Some(pairs) => pairs.saturating_mul(2),
        None => args.games,
    };
    let settings = MatchSettings {
        bots,
        games,
        board_size: args.size,
        komi: args.komi,
        rules: args.rules,
        seed: args.seed,
        max_moves: args
            .max_moves
            .unwrap_or_else(|| args.size.saturating_mul(args.size).saturating_mul(3)),
        move_timeout,
        start_timeout,
        on_failure: args.on_failure,
        recover: args.recover,
        concurrency: args.concurrency,
        out_dir: args.out,
        hamle_exe: hamle_exe(),
        progress: !args.quiet,
    };
    match run_match(&settings, args.resume) {
        Ok(results) => {
            let names = [
                settings.bots[0].name.as_str(),
                settings.bots[1].name.as_str(),
            ];
            let standings = Standings::of(&results, names);
            let wins = |name: &str| standings.wins.get(name).copied().unwrap_or(0);
            println!(
                "{} {} - {} {} (draws {}, void {}); pairs won {} / split {} / lost {}; {} of {} games in {}",
                names[0],
                wins(names[0]),
                wins(names[1]),
                names[1],
                standings.draws,
                standings.voids,
                standings.pairs[0],
                standings.pairs[1],
                standings.pairs[2],
                results.len(),
                settings.games,
                settings.out_dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(error) => fail(error.to_string()),
    }
}
