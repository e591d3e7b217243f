//! `hamle tune BOTFILE --out DIR --iterations N …`: the command line of a tune.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::{Schedule, Tune, read_tune};
use crate::arena::bots::{Bot, BotFolders, MAX_BOT_FILE_BYTES, bot_or_command};
use crate::arena::options::{ArenaOptions, hamle_exe, match_settings};

/// `hamle tune BOTFILE --out DIR --iterations N [--against BOT] …`
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The bot file to tune: its `[tune]` table names each tuned option's start, range and
    /// step (`x = { start = 50, min = 0, max = 100, step = 5 }`).
    pub bot: PathBuf,
    /// Play each perturbation against this bot (a bot file, a name from the bots folder or
    /// a command line) instead of against each other.
    #[arg(long)]
    pub against: Option<String>,
    /// Where the tune is kept: settings, a match folder an iteration, theta.tsv, tune.html,
    /// tuned.toml.
    #[arg(long)]
    pub out: PathBuf,
    /// SPSA iterations (each plays --pairs game pairs, or twice that with --against).
    #[arg(long)]
    pub iterations: usize,
    /// Game pairs an iteration (colours swapped within each pair).
    #[arg(long, default_value_t = 1)]
    pub pairs: usize,
    /// Learning rate at the last iteration for parameters that name no `r_end`
    /// (OpenBench's default).
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// The decay of the learning rate a_k = a/(A+k)^alpha.
    #[arg(long, default_value_t = 0.602)]
    pub alpha: f64,
    /// The decay of the perturbation c_k = c/k^gamma.
    #[arg(long, default_value_t = 0.101)]
    pub gamma: f64,
    /// A as a share of the iterations.
    #[arg(long, default_value_t = 0.1)]
    pub a_ratio: f64,
    /// After the last iteration, play this many games of the tuned bot against the start
    /// (in OUT/verify) and print its Elo ± 95% interval.
    #[arg(long, value_name = "GAMES")]
    pub verify: Option<usize>,
    /// Stop once iteration K is played (the folder stays resumable): a run in slices.
    #[arg(long, value_name = "K")]
    pub stop_after: Option<usize>,
    /// Continue the tune kept in --out (the same bot and settings are required).
    #[arg(long)]
    pub resume: bool,
    /// Play only pairs k (from 0) with k mod N = I - 1 of every iteration (`--shard I/N`),
    /// every shard with the same --out on a shared file system: the shards meet there at
    /// each iteration and all follow the unsharded run's θ. Shard 1 writes theta.tsv,
    /// tune.html and tuned.toml.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<crate::arena::shard::Shard>,
    /// How long a shard waits for the others at an iteration before it stops (resumable).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 86_400,
        requires = "shard"
    )]
    pub shard_wait: u64,
    #[command(flatten)]
    pub options: ArenaOptions,
}

/// Runs `hamle tune`: exit 0 when every iteration was played, 2 on bad input or a failure.
pub fn run(args: TuneArgs) -> ExitCode {
    let tune = match build(&args) {
        Ok(tune) => tune,
        Err(message) => {
            eprintln!("hamle tune: {message}");
            return ExitCode::from(2);
        }
    };
    match tune.run(args.resume) {
        Ok(outcome) => {
            match &outcome.tuned_file {
                Some(path) => println!("tuned bot: {}", path.display()),
                None => println!(
                    "tune: stopped after iteration {}; --resume goes on",
                    outcome.steps.len()
                ),
            }
            if let Some(line) = outcome.verified {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("hamle tune: {error}");
            ExitCode::from(2)
        }
    }
}

/// The run from the command line: every mistake found before anything is played.
fn build(args: &TuneArgs) -> Result<Tune, String> {
    let text = crate::files::read_capped_to_string(&args.bot, MAX_BOT_FILE_BYTES)
        .map_err(|error| error.to_string())?;
    let bot = Bot::from_toml(&text, &args.bot).map_err(|error| error.to_string())?;
    let params =
        read_tune(&text).map_err(|message| format!("{}: {message}", args.bot.display()))?;
    if args.iterations == 0 || args.pairs == 0 {
        return Err("--iterations and --pairs must be at least 1".to_owned());
    }
    if args.verify == Some(0) {
        return Err("--verify GAMES must be at least 2 (one pair)".to_owned());
    }
    let positive = [args.r_end, args.alpha, args.gamma]
        .iter()
        .all(|x| *x > 0.0);
    if !positive || args.a_ratio < 0.0 || !args.a_ratio.is_finite() {
        return Err(
            "--r-end, --alpha and --gamma must be above 0, --a-ratio at least 0".to_owned(),
        );
    }
    let against = match &args.against {
        Some(spec) => Some(opponent(spec, &args.options, &bot)?),
        None => None,
    };
    let second = against.clone().unwrap_or_else(|| bot.clone());
    let template = match_settings(
        &args.options,
        [bot.clone(), second],
        bot.game,
        args.pairs * 2,
        args.out.clone(),
    )?;
    Ok(Tune {
        bot,
        bot_text: text,
        params,
        against,
        schedule: Schedule {
            iterations: args.iterations,
            alpha: args.alpha,
            gamma: args.gamma,
            a_ratio: args.a_ratio,
            r_end: args.r_end,
        },
        pairs: args.pairs,
        template,
        out_dir: args.out.clone(),
        verify: args.verify,
        stop_after: args.stop_after,
        shard: args.shard,
        shard_wait: std::time::Duration::from_secs(args.shard_wait),
    })
}

/// The fixed opponent: a bot file's path, a bot's name or a command line; of the tuned
/// bot's game, and of another name.
fn opponent(spec: &str, options: &ArenaOptions, bot: &Bot) -> Result<Bot, String> {
    let path = Path::new(spec);
    let found = if spec.ends_with(".toml") && path.is_file() {
        Bot::from_file(path)
    } else {
        let folders = BotFolders::search(options.bots.as_deref(), &hamle_exe());
        bot_or_command(&folders, spec, bot.game)
    }
    .map_err(|error| error.to_string())?;
    if found.game != bot.game && !found.source.as_os_str().is_empty() {
        return Err(format!(
            "--against {} plays {}, the tuned bot {}",
            found.name, found.game, bot.game
        ));
    }
    let tuned = ["plus", "minus"].map(|s| format!("{}-{s}", bot.name));
    if tuned.contains(&found.name) {
        return Err(format!(
            "--against is named {}, as a tuned side; name it NAME=BOT",
            found.name
        ));
    }
    Ok(Bot {
        game: bot.game,
        ..found
    })
}
