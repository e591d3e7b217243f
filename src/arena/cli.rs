//! The arena's subcommands as the `hamle` binary exposes them.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Subcommand};

use super::bots::{BotFolders, bot_or_command};
use super::match_play::run_match;
use super::options::{ArenaOptions, bot_clocks, hamle_exe, match_bots, match_settings, seconds};
use super::regress::Regress;
use super::summary::{MatchSummary, print_sprt};
use crate::games::GameKind;

/// `hamle regress PROGRAM TEST.tst…`
#[derive(Args, Debug)]
pub struct RegressArgs {
    /// A bot's name from the bots folder, or a command line (split into words, quotes
    /// group, run without a shell), e.g. "/usr/games/gnugo --mode gtp"; `NAME=…` names it.
    pub program: String,
    /// The `.tst` files; each gets a fresh engine started in the file's folder.
    #[arg(required = true)]
    pub tests: Vec<PathBuf>,
    /// The folder of bot files (default: ./bots, then $HAMLE_BOTS, then
    /// ~/.config/hamle/bots or $XDG_CONFIG_HOME/hamle/bots, then bots/ beside hamle).
    #[arg(long)]
    pub bots: Option<PathBuf>,
    /// Seconds to wait for each answer before calling the engine hung.
    #[arg(long, default_value_t = 120.0)]
    pub timeout: f64,
    /// Append the engine's stderr to this file (discarded otherwise).
    #[arg(long)]
    pub stderr_log: Option<PathBuf>,
    /// Write every line to and from the engine to this file, timed and marked by direction
    /// (at most 1 MiB a `.tst` file).
    #[arg(long)]
    pub log_protocol: Option<PathBuf>,
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
    let folders = BotFolders::search(args.bots.as_deref(), &hamle_exe());
    let bot = match bot_or_command(&folders, &args.program, GameKind::Go) {
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
        protocol_log: args.log_protocol,
    };
    match regress.run(&files, &mut std::io::stdout().lock()) {
        Ok((_, status)) => ExitCode::from(status as u8),
        Err(error) => fail(format!("cannot write the report: {error}")),
    }
}

/// `hamle match BOT1 BOT2 --out DIR …`, `hamle match merge OUT DIR…`
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub tool: Option<MatchTool>,
    /// The first bot: a name from the bots folder, or a command line (split into words,
    /// quotes group, run without a shell). `NAME=BOT` or `NAME=COMMAND` gives it a name of
    /// its own, which two command lines of one program need: 'weak=hamle go --playouts 10'.
    /// (A bot named `merge` cannot come first.)
    #[arg(required_unless_present = "expect")]
    pub bot1: Option<String>,
    /// The second bot, as the first.
    #[arg(required_unless_present = "expect")]
    pub bot2: Option<String>,
    /// Where the match is kept: settings, results, game records, engine logs, PGN export.
    /// With --expect: where the replay goes (default: a temporary folder, removed when
    /// nothing changed).
    #[arg(long, required_unless_present = "expect")]
    pub out: Option<PathBuf>,
    /// Replay the finished match in DIR (its bots by name, its settings and seeds from its
    /// match.txt) and compare it game by game: exit 0 when nothing changed, 1 when play
    /// changed (each departing game's first different move is printed), 2 when the replay
    /// could not run or broke. DIR is only read. BOT1 and BOT2, when given, must carry
    /// DIR's names.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["resume", "shard", "sprt", "pairs", "games"])]
    pub expect: Option<PathBuf>,
    /// Continue the match kept in --out (the same settings are required).
    #[arg(long)]
    pub resume: bool,
    /// Games to play; colours alternate, games 2k and 2k+1 forming a pair.
    #[arg(long, default_value_t = 2, conflicts_with = "pairs")]
    pub games: usize,
    /// Game pairs to play (twice as many games), colours swapped within each pair.
    #[arg(long)]
    pub pairs: Option<usize>,
    /// Stop when the SPRT of BOT1 against BOT2 on game pairs decides, e.g.
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05` (H1: BOT1 is elo1 better); --pairs is the most
    /// played. A shard plays all its pairs; `hamle match merge` counts them in pair order.
    #[arg(long)]
    pub sprt: Option<super::sprt::SprtSpec>,
    /// Play only pairs k (from 0) with k mod N = I - 1 (`--shard I/N`), each with the
    /// seeds, seats and records it has in the whole match; `hamle match merge` combines the
    /// shards' folders into the whole match's. match.txt records the shard.
    #[arg(long)]
    pub shard: Option<super::shard::Shard>,
    #[command(flatten)]
    pub options: ArenaOptions,
}

/// Runs `hamle match`: exit 0 when every game was played and saved, 2 on bad input or a
/// failure to save. With `--expect DIR`: 0 unchanged, 1 play changed, 2 broke (`expect`).
pub fn run_match_command(args: MatchArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("hamle match: {message}");
        ExitCode::from(2)
    };
    match args.tool {
        Some(MatchTool::Merge(merge)) => return super::match_merge::run_merge_command(merge),
        Some(MatchTool::Openings(maker)) => return super::suite_maker::run(maker),
        None => {}
    }
    if let Some(dir) = &args.expect {
        let bots = match (&args.bot1, &args.bot2) {
            (Some(first), Some(second)) => Some([first.as_str(), second.as_str()]),
            (None, None) => None,
            _ => {
                return fail(
                    "--expect DIR takes both bots or none (then DIR's bots are found by name)"
                        .to_owned(),
                );
            }
        };
        let request = super::expect::ExpectRequest {
            dir,
            bots,
            out: args.out.clone(),
            options: &args.options,
        };
        return super::expect::run(&request).exit_code();
    }
    let (Some(bot1), Some(bot2), Some(out)) = (&args.bot1, &args.bot2, args.out.clone()) else {
        return fail(
            "two bots and --out DIR are required: hamle match BOT1 BOT2 --out DIR".to_owned(),
        );
    };
    let (mut bots, kind) = match match_bots(
        &BotFolders::search(args.options.bots.as_deref(), &hamle_exe()),
        &[bot1, bot2],
        args.options.game.as_deref(),
    ) {
        Ok((bots, kind)) => ([bots[0].clone(), bots[1].clone()], kind),
        Err(message) => return fail(message),
    };
    if let Err(message) = bot_clocks(&args.options, &mut bots) {
        return fail(message);
    }
    let games = match args.pairs {
        Some(pairs) => pairs.saturating_mul(2),
        None => args.games,
    };
    let mut settings = match match_settings(&args.options, bots, kind, games, out) {
        Ok(settings) => settings,
        Err(message) => return fail(message),
    };
    settings.sprt = args.sprt;
    settings.shard = args.shard;
    match run_match(&settings, args.resume) {
        Ok(results) => {
            let names = [
                settings.bots[0].name.as_str(),
                settings.bots[1].name.as_str(),
            ];
            let summary = MatchSummary {
                names,
                planned: settings.planned_games(),
                dir: &settings.out_dir,
                opening_plies: settings.opening_plies,
            };
            summary.print(&results);
            if let Some(shard) = settings.shard {
                if settings.sprt.is_some() {
                    println!(
                        "SPRT: shard {shard} played its pairs; `hamle match merge` counts every shard's in pair order"
                    );
                }
            } else if let Some(spec) = &settings.sprt {
                print_sprt(spec, &results, names, 0);
            }
            ExitCode::SUCCESS
        }
        Err(error) => fail(error.to_string()),
    }
}

/// What `hamle match` does besides playing.
#[derive(Subcommand, Debug)]
pub enum MatchTool {
    /// Combine the shards of one match (`--shard I/N`) into the folder of the whole match.
    ///
    /// OUT must be new or empty; the folders' match.txt must be equal but for `shard`, every
    /// shard I/N given once. Writes match.txt (without `shard`), results.tsv (in game
    /// order), games/, results.pgn and report.html as one run with --concurrency 1 would
    /// (but for the thinking times in results.tsv, which are each shard's own);
    /// under --sprt the pairs are counted in pair order and the games after the verdict
    /// left out, as the run would have stopped there. Exit 0, or 2 when the folders are not
    /// the shards of one match, one is missing or unfinished (without --partial), or they
    /// cannot be read or written.
    Merge(super::match_merge::MatchMergeArgs),
    /// Make an opening suite from a self-play match played with --opening-plies P: the
    /// first P moves of every pair whose first seat scored 1 of 2, one a line on stdout.
    Openings(super::suite_maker::SuiteMakerArgs),
}

/// `hamle ladder BOT… --out DIR …`, `hamle ladder report DIR`, `hamle ladder merge OUT DIR…`
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
pub struct LadderArgs {
    #[command(subcommand)]
    pub tool: Option<LadderTool>,
    /// The bots (at least two, one game): names from the bots folder or command lines;
    /// `NAME=BOT` or `NAME=COMMAND` gives one a name of its own. (A bot named `report`,
    /// `merge`, `serve` or `admin` cannot come first.)
    #[arg(required = true, num_args = 2.., value_name = "BOT")]
    pub players: Vec<String>,
    /// Where the ladder is kept: settings, a match folder a pairing, ratings, PGN export,
    /// report.html.
    #[arg(long, required = true)]
    pub out: Option<PathBuf>,
    /// Play only pairings k (from 0) with k mod N = I - 1 (`--shard I/N`), with the seeds
    /// of the whole ladder; `hamle ladder merge` combines the shards' folders.
    #[arg(long)]
    pub shard: Option<super::shard::Shard>,
    /// Continue the ladder kept in --out (the same settings are required).
    #[arg(long)]
    pub resume: bool,
    /// `round-robin` (every bot against every other), `gauntlet` (the first bot against
    /// each of the others) or `swiss` (`--rounds` rounds paired by score; the starting order
    /// is alphabetical by name, the Kulami sheet's rule, whatever the command line's order).
    #[arg(long, value_enum, default_value = "round-robin")]
    pub format: super::ladder::Format,
    /// Game pairs a pairing (colours swapped within each pair).
    #[arg(long, default_value_t = 5)]
    pub pairs: usize,
    /// Rounds of a Swiss ladder.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// The bot held at Elo 0 (default: the mean of all is 0).
    #[arg(long)]
    pub anchor: Option<String>,
    #[command(flatten)]
    pub options: ArenaOptions,
}

/// What `hamle ladder` does besides playing.
#[derive(Subcommand, Debug)]
pub enum LadderTool {
    /// Rewrite a ladder folder's ratings, PGN and report from its pairing folders.
    ///
    /// Rewrites DIR's ratings.txt, results.pgn and report.html from DIR/pairings (after
    /// copying pairing folders in, or to change the anchor). Exit 0, or 2 when the folder
    /// cannot be read or written.
    Report(LadderReportArgs),
    /// Combine the shards of one ladder into a new ladder folder.
    ///
    /// OUT must be new or empty; the folders' ladder.txt must be equal but for `shard`,
    /// and no pairing may be in two of them. Writes ratings.txt, results.pgn and
    /// report.html as one run would. Exit 0, or 2 when the folders are not shards of one
    /// ladder or cannot be read or written.
    Merge(LadderMergeArgs),
    /// Run a living ladder: DIR/server.toml's ladders, bots paired continuously, state in
    /// DIR/ladder.db, games in DIR/games/ (see protocol.md).
    ///
    /// Exit 0 after --stop-after-games, 130 or 143 on SIGINT or SIGTERM (running games
    /// voided), 2 when the folder, server.toml or the database cannot be used.
    Serve(super::live::server::ServeArgs),
    /// Change a living ladder from the server's own command line: add or remove a bot,
    /// pause or resume a ladder, list them; a running server takes it up within a second.
    Admin(super::live::admin::AdminArgs),
}

/// `hamle ladder report DIR [--anchor BOT]`
#[derive(Args, Debug)]
pub struct LadderReportArgs {
    /// The ladder folder (`--out` of `hamle ladder`).
    pub dir: PathBuf,
    /// The bot held at Elo 0 (default: the mean of all is 0).
    #[arg(long)]
    pub anchor: Option<String>,
}

/// `hamle ladder merge OUT DIR… [--anchor BOT]`
#[derive(Args, Debug)]
pub struct LadderMergeArgs {
    /// The new ladder folder.
    pub out: PathBuf,
    /// The ladder folders to combine.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The bot held at Elo 0 (default: the mean of all is 0).
    #[arg(long)]
    pub anchor: Option<String>,
}

/// Each bot's mean time a move, the rating list (or why there is none) and where the files
/// are, after a ladder or its `report` or `merge`.
fn print_standing(standing: &super::ladder::Standing, dir: &std::path::Path, anchor: Option<&str>) {
    let report = dir.join(super::ladder::REPORT_FILE);
    let games = standing.results.len();
    let names: Vec<&str> = standing.tally.names.iter().map(String::as_str).collect();
    if let Some(line) = super::summary::thinking_line(&standing.results, &names) {
        println!("{line}");
    }
    for line in super::summary::totals_lines(&standing.results, &names) {
        println!("{line}");
    }
    match &standing.ratings {
        Some(ratings) => {
            print!("{}", super::rating::report(&standing.tally, ratings));
            println!(
                "{games} games in {} (ratings in {}, report in {})",
                dir.display(),
                super::ladder::ratings_path(dir).display(),
                report.display()
            );
        }
        None => {
            let why = super::rating::rate_played(&standing.tally, anchor)
                .err()
                .unwrap_or_default();
            println!("no ratings: {why}");
            println!(
                "{games} games in {} (no ratings.txt written; report in {})",
                dir.display(),
                report.display()
            );
        }
    }
}

fn ladder_failure(message: String) -> ExitCode {
    eprintln!("hamle ladder: {message}");
    ExitCode::from(2)
}

/// `hamle ladder report DIR`.
fn ladder_report(args: LadderReportArgs) -> ExitCode {
    match super::ladder::regenerate(&args.dir, args.anchor.as_deref()) {
        Ok(standing) => {
            print_standing(&standing, &args.dir, args.anchor.as_deref());
            ExitCode::SUCCESS
        }
        Err(error) => ladder_failure(error.to_string()),
    }
}

/// `hamle ladder merge OUT DIR…`.
fn ladder_merge(args: LadderMergeArgs) -> ExitCode {
    match super::ladder::merge(&args.out, &args.dirs, args.anchor.as_deref()) {
        Ok((standing, missing)) => {
            if !missing.is_empty() {
                let list: Vec<String> = missing.iter().map(|k| k.to_string()).collect();
                eprintln!(
                    "hamle ladder: merged, but no folder holds pairing(s) {}",
                    list.join(", ")
                );
            }
            print_standing(&standing, &args.out, args.anchor.as_deref());
            ExitCode::SUCCESS
        }
        Err(error) => ladder_failure(error.to_string()),
    }
}

/// Runs `hamle ladder`: exit 0 when every pairing was played and saved (rated when the games
/// link the bots; otherwise the reason is printed, the same for `ladder report` on the
/// folder), 2 on bad input or a failure to save.
pub fn run_ladder_command(args: LadderArgs) -> ExitCode {
    match args.tool {
        Some(LadderTool::Report(report)) => return ladder_report(report),
        Some(LadderTool::Merge(merge)) => return ladder_merge(merge),
        Some(LadderTool::Serve(serve)) => return super::live::server::run_serve_command(serve),
        Some(LadderTool::Admin(admin)) => return super::live::admin::run_admin_command(admin),
        None => {}
    }
    let fail = ladder_failure;
    let Some(out) = args.out.clone() else {
        return fail("--out DIR is required: where the ladder is kept".to_owned());
    };
    let specs: Vec<&str> = args.players.iter().map(String::as_str).collect();
    let folders = BotFolders::search(args.options.bots.as_deref(), &hamle_exe());
    let (bots, kind) = match match_bots(&folders, &specs, args.options.game.as_deref()) {
        Ok(found) => found,
        Err(message) => return fail(message),
    };
    let mut bots = bots;
    if let Err(message) = bot_clocks(&args.options, &mut bots) {
        return fail(message);
    }
    if args.format == super::ladder::Format::Swiss {
        // The Kulami sheet's starting order: alphabetical by name.
        bots.sort_by(|a, b| a.name.cmp(&b.name));
    }
    let [first, second] = [bots[0].clone(), bots[1].clone()];
    let template = match match_settings(
        &args.options,
        [first, second],
        kind,
        args.pairs.saturating_mul(2),
        out.clone(),
    ) {
        Ok(settings) => settings,
        Err(message) => return fail(message),
    };
    let ladder = super::ladder::Ladder {
        bots,
        format: args.format,
        template,
        anchor: args.anchor,
        out_dir: out,
        rounds: args.rounds,
        shard: args.shard,
    };
    match ladder.run(args.resume) {
        Ok(standing) => {
            print_standing(&standing, &ladder.out_dir, ladder.anchor.as_deref());
            ExitCode::SUCCESS
        }
        Err(error) => fail(error.to_string()),
    }
}
