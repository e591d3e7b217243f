//! What `hamle match`, `hamle ladder`, `hamle match --expect` and `hamle bench arena`
//! share: the options that decide a match's games, and the settings and bots they make.
//! Apart from the command lines (`cli.rs`) so that the tools built on them (`expect.rs`,
//! `bench.rs`) and the command lines that call those tools import it, not each other.

use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::bots::{Bot, BotError, BotFolders, bot_or_command};
use super::match_play::{FailurePolicy, IllegalPolicy, MatchSettings, OpeningSuite, OpeningsOrder};
use super::time_control::{ClockFlag, TimeControl};
use crate::games::{self, GameKind, MatchFlags};

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

/// What `hamle match` and `hamle ladder` share: the bots folder, the game's settings, the
/// seed, timeouts and policies.
#[derive(Args, Debug, Clone)]
pub struct ArenaOptions {
    /// The folder of bot files, searched alone. Default: ./bots, then the folders of
    /// $HAMLE_BOTS (separated as in PATH), then $XDG_CONFIG_HOME/hamle/bots (else
    /// ~/.config/hamle/bots), then bots/ beside the hamle binary; the first that defines
    /// a name wins.
    #[arg(long)]
    pub bots: Option<PathBuf>,
    /// The game, for bots given as command lines (bot files name their own game; all must
    /// agree): go, tavla, abalone, kulami or mangala.
    #[arg(long)]
    pub game: Option<String>,
    #[command(flatten)]
    pub games: MatchFlags,
    /// What an illegal move costs: `forfeit` (the game) or `warn3` (the Kulami sheet's
    /// warnings: the engine takes it back with `undo` and moves again; the third loses).
    #[arg(long, value_enum, default_value = "forfeit")]
    pub illegal: IllegalPolicy,
    /// The match seed: every game's seed and every engine's seed derive from it.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// A game reaching this many moves is counted as it stands. Default, each game's own:
    /// Go 3 × the board's points (243 on 9×9), Abalone 200 plies, Kulami 56, Mangala 1000 a
    /// set (5000 for 5 sets), Tavla 1000 × (2N − 1) for a match to N points (9000 to 5).
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
    /// The game clocks: `none` (the engines' fixed budgets), `absolute:SECONDS`,
    /// `byoyomi:MAIN+PERIODxPERIODS`, `canadian:MAIN+PERIOD/STONES` or
    /// `fischer:MAIN+INCREMENT[/CAP]`, for every bot; `NAME=TC` (repeatable) gives one bot
    /// its own clock (time odds), before its bot file's `time_control`. The engines are
    /// told (`time_settings`, `time_left`); a clock that runs out loses the game on time.
    #[arg(long, value_name = "TC|NAME=TC")]
    pub time_control: Vec<ClockFlag>,
    /// Score adjudication for engines that count the game (Go's `final_score`):
    /// `MARGIN:MOVES` ends a game as a resignation once both engines put the same side
    /// ahead by MARGIN or more after MOVES moves in a row.
    #[arg(long)]
    pub adjudicate: Option<super::adjudication::Adjudication>,
    /// Random legal moves that start every game, the same in both games of a pair (drawn
    /// from the pair's seed): variety for engines that play the same game from the same
    /// start at fixed budgets (hamle's Mangala engine). The moves come from our own rules
    /// (no bot needs to list its legal moves), in the order hamle's engines list them.
    /// Default: 4 for Mangala, 0 for the other games.
    #[arg(long)]
    pub opening_plies: Option<usize>,
    /// An opening suite: each pair of games starts from one of its openings, both games
    /// alike, colours swapped (`default`: the game's built-in suite). One opening a line
    /// in the game's notation (Go also SGF); every opening is checked by the rules before
    /// the match starts. --opening-plies then adds random moves after the opening (default
    /// 0 with a suite).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Which opening each pair takes: `sequential` (pair k takes opening k mod n) or
    /// `random` (each round of n pairs takes every opening once, shuffled by --seed).
    #[arg(long, value_enum, default_value = "sequential", requires = "openings")]
    pub openings_order: OpeningsOrder,
    /// `on-failure`: each worker keeps one engine a bot from game to game (`clear_board`,
    /// the seed command, the game's setup) and starts a new one only after a failure;
    /// `per-game`: fresh engines for every game. Both play the same games.
    #[arg(long, value_enum, default_value = "on-failure")]
    pub restart: super::match_play::RestartPolicy,
    /// Keep every line to and from each engine, timed and marked by direction, one file a
    /// game and bot: `logs/protocol/GAME-BOT.log` (at most 1 MiB each time an engine opens
    /// it); each game's viewer page links its two.
    #[arg(long)]
    pub log_protocol: bool,
    /// Keep each engine's own judgement of the game with each of its moves, where its
    /// protocol gives one (Go: an engine listing `kata-genmove_analyze` or
    /// `lz-genmove_analyze` is asked for its moves through it, and its last report's win
    /// rate and score lead are kept): SGF `SBKV` and comments, PGN `[%wr]`/`[%eval]`,
    /// `results.tsv`'s `judgements=`, the viewer's curve. It changes no move.
    #[arg(long)]
    pub record_judgement: bool,
}

/// The settings of a match between `bots` from the shared options.
pub fn match_settings(
    options: &ArenaOptions,
    bots: [Bot; 2],
    kind: GameKind,
    games: usize,
    out_dir: PathBuf,
) -> Result<MatchSettings, String> {
    let move_timeout = seconds(options.move_timeout, "--move-timeout")?;
    let start_timeout = seconds(options.start_timeout, "--start-timeout")?;
    let game = games::settings(kind, &options.games)?;
    if options.concurrency == 0 {
        return Err("--concurrency must be at least 1".to_owned());
    }
    if options.max_moves == Some(0) {
        return Err("--max-moves must be at least 1: a game of no moves has no result".to_owned());
    }
    let openings = match &options.openings {
        Some(path) => {
            let suite = OpeningSuite::load(path, options.openings_order, game.as_ref())?;
            suite.check_pairs(path, game.as_ref(), options.seed, games.div_ceil(2))?;
            Some(std::sync::Arc::new(suite))
        }
        None => None,
    };
    // A suite gives the pairs their variety: the game's random plies are not added to it.
    let opening_plies = options.opening_plies.unwrap_or_else(|| {
        if openings.is_some() {
            0
        } else {
            game.default_opening_plies()
        }
    });
    Ok(MatchSettings {
        bots,
        games,
        max_moves: options
            .max_moves
            .unwrap_or_else(|| game.default_max_moves()),
        game,
        seed: options.seed,
        move_timeout,
        start_timeout,
        on_failure: options.on_failure,
        illegal: options.illegal,
        recover: options.recover,
        concurrency: options.concurrency,
        out_dir,
        hamle_exe: hamle_exe(),
        progress: !options.quiet,
        sprt: None,
        label: String::new(),
        time_control: every_bots_clock(&options.time_control)?,
        adjudication: options.adjudicate,
        opening_plies,
        shard: None,
        openings,
        restart: options.restart,
        log_protocol: options.log_protocol,
        observer: None,
        record_judgement: options.record_judgement,
    })
}

/// The clock `--time-control TC` gives every bot (given once at most; none by default).
fn every_bots_clock(flags: &[ClockFlag]) -> Result<TimeControl, String> {
    let mut general = flags.iter().filter(|flag| flag.bot.is_none());
    let control = general
        .next()
        .map_or(TimeControl::None, |flag| flag.control);
    match general.next() {
        Some(other) => Err(format!(
            "--time-control is given twice for every bot ({control} and {}): give one, and NAME=TC for a bot's own clock",
            other.control
        )),
        None => Ok(control),
    }
}

/// `--time-control NAME=TC`: each named bot's own clock, before its bot file's. A name no
/// bot has, or one named twice, is refused.
pub fn bot_clocks(options: &ArenaOptions, bots: &mut [Bot]) -> Result<(), String> {
    let mut named: Vec<&str> = Vec::new();
    for flag in &options.time_control {
        let Some(name) = flag.bot.as_deref() else {
            continue;
        };
        if named.contains(&name) {
            return Err(format!(
                "--time-control names {name} twice: give each bot one clock"
            ));
        }
        named.push(name);
        let Some(bot) = bots.iter_mut().find(|bot| bot.name == name) else {
            let names: Vec<&str> = bots.iter().map(|bot| bot.name.as_str()).collect();
            return Err(format!(
                "--time-control {name}={}: no bot here is named {name} (the bots are {})",
                flag.control,
                names.join(", ")
            ));
        };
        bot.time_control = Some(flag.control);
    }
    Ok(())
}

/// Reads the bots of a match or ladder and the game they all play: bot files name their
/// game; command lines play `--game` (else the bot files' game, else Go). Bots of different
/// games, or a game the arena does not referee, are errors.
pub fn match_bots(
    folders: &BotFolders,
    specs: &[&str],
    game: Option<&str>,
) -> Result<(Vec<Bot>, GameKind), String> {
    let wanted = game.map(str::parse::<GameKind>).transpose()?;
    let mut bots = Vec::with_capacity(specs.len());
    for spec in specs {
        // The game given here only matters for a command line; it is fixed up below.
        let bot =
            bot_or_command(folders, spec, GameKind::Go).map_err(|e: BotError| e.to_string())?;
        bots.push(bot);
    }
    let from_files: Vec<&Bot> = bots
        .iter()
        .filter(|bot| !bot.source.as_os_str().is_empty())
        .collect();
    let kind = wanted
        .or_else(|| from_files.first().map(|bot| bot.game))
        .unwrap_or(GameKind::Go);
    if let Some(odd) = from_files.iter().find(|bot| bot.game != kind) {
        let others: Vec<String> = from_files
            .iter()
            .map(|bot| format!("{} plays {}", bot.name, bot.game))
            .collect();
        return Err(format!(
            "bots of different games cannot meet: {} ({} is not {kind}; defined in {})",
            others.join(", "),
            odd.name,
            odd.source.display()
        ));
    }
    for bot in &mut bots {
        bot.game = kind;
    }
    Ok((bots, kind))
}
