//! `hamle bench arena`: what keeping engines between games is worth. Two instant-move
//! bots (hamle's Mangala engine at a node or two a move, a tiny table, no endgame
//! database) play the same match twice into temporary folders, once with engines kept
//! between games (`--restart on-failure`) and once restarted for every game (`--restart
//! per-game`); it prints games a second for each, their ratio, and whether both runs
//! played the same games (they must).

use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Parser};

use super::bots::Bot;
use super::match_play::{MatchSettings, RestartPolicy, run_match};
use super::options::{ArenaOptions, match_settings};
use super::store::GameResult;
use crate::games::GameKind;

/// `hamle bench arena [--games N] [--concurrency N]`
#[derive(Args, Debug)]
pub struct BenchArenaArgs {
    /// Games each run plays.
    #[arg(long, default_value_t = 1000)]
    pub games: usize,
    /// Games played at once.
    #[arg(long, default_value_t = 2)]
    pub concurrency: usize,
}

/// The two bots: hamle's Mangala engine answering at once (a search of a node or two).
const BOTS: [(&str, &str); 2] = [
    (
        "instant-1",
        "hamle mangala --nodes 1 --table-bits 10 --db-stones 0",
    ),
    (
        "instant-2",
        "hamle mangala --nodes 2 --table-bits 10 --db-stones 0",
    ),
];

/// Only the arena options' parser: the match settings come from the same defaults as
/// `hamle match`'s (and follow them when options are added).
#[derive(Parser)]
struct Options {
    #[command(flatten)]
    options: ArenaOptions,
}

/// Runs both matches and prints one line for each, then the ratio and the check.
pub fn run(args: &BenchArenaArgs, out: &mut impl std::io::Write) -> Result<(), String> {
    if args.games == 0 {
        return Err("--games must be at least 1".to_owned());
    }
    let scratch = std::env::temp_dir().join(format!("hamle-bench-arena-{}", std::process::id()));
    let outcome = compare(args, &scratch, out);
    let _ = std::fs::remove_dir_all(&scratch);
    outcome
}

/// The two runs into folders under `scratch`.
fn compare(
    args: &BenchArenaArgs,
    scratch: &Path,
    out: &mut impl std::io::Write,
) -> Result<(), String> {
    let write_error = |error: std::io::Error| format!("cannot write the report: {error}");
    writeln!(
        out,
        "{} games of Mangala between `{}` and `{}`, concurrency {}",
        args.games, BOTS[0].1, BOTS[1].1, args.concurrency
    )
    .map_err(write_error)?;
    let mut rates = Vec::new();
    let mut played = Vec::new();
    for (label, restart) in [
        (
            "kept engines (--restart on-failure)",
            RestartPolicy::OnFailure,
        ),
        ("fresh engines (--restart per-game)", RestartPolicy::PerGame),
    ] {
        let settings = settings(args, restart, scratch.join(restart_word(restart)))?;
        let started = Instant::now();
        let mut results = run_match(&settings, false).map_err(|error| error.to_string())?;
        let seconds = started.elapsed().as_secs_f64();
        let rate = results.len() as f64 / seconds.max(1e-9);
        writeln!(
            out,
            "{label}: {} games in {seconds:.2} s, {rate:.1} games/s",
            results.len()
        )
        .map_err(write_error)?;
        results.sort_by_key(|result| result.game);
        rates.push(rate);
        played.push(results);
    }
    writeln!(
        out,
        "ratio: {:.2} (kept / fresh)",
        rates[0] / rates[1].max(1e-9)
    )
    .map_err(write_error)?;
    let same = same_games(&played[0], &played[1]);
    writeln!(
        out,
        "same games: {}",
        if same {
            "yes"
        } else {
            "NO: keeping engines changed the games"
        }
    )
    .map_err(write_error)?;
    if same {
        Ok(())
    } else {
        Err("the two runs played different games".to_owned())
    }
}

/// Game for game the same players, result, reason and length.
fn same_games(a: &[GameResult], b: &[GameResult]) -> bool {
    let key = |r: &GameResult| {
        (
            r.game,
            r.first.clone(),
            r.second.clone(),
            r.result.clone(),
            r.reason.clone(),
            r.moves,
        )
    };
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| key(x) == key(y))
}

fn restart_word(restart: RestartPolicy) -> &'static str {
    match restart {
        RestartPolicy::OnFailure => "on-failure",
        RestartPolicy::PerGame => "per-game",
    }
}

/// The match settings of one run: `hamle match`'s defaults for Mangala, quiet.
fn settings(
    args: &BenchArenaArgs,
    restart: RestartPolicy,
    out_dir: PathBuf,
) -> Result<MatchSettings, String> {
    let concurrency = args.concurrency.to_string();
    let words = [
        "bench",
        "--game",
        "mangala",
        "--quiet",
        "--concurrency",
        &concurrency,
        "--restart",
        restart_word(restart),
    ];
    let options = Options::try_parse_from(words)
        .map_err(|error| error.to_string())?
        .options;
    let mut bots = Vec::new();
    for (name, line) in BOTS {
        let mut bot = Bot::from_command_line(line, GameKind::Mangala).map_err(|e| e.to_string())?;
        name.clone_into(&mut bot.name);
        bots.push(bot);
    }
    let [first, second]: [Bot; 2] = bots
        .try_into()
        .map_err(|_| "two bots are needed".to_owned())?;
    match_settings(
        &options,
        [first, second],
        GameKind::Mangala,
        args.games,
        out_dir,
    )
}
