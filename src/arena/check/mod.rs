//! `hamle check BOT`: what a match will need of a bot, tried in order before a match does:
//! the handshake, the framing, the game's setup, short games against a hamle engine in
//! both seats (moves judged by our rules, moves forwarded as the arena forwards them), an
//! illegal forwarded move refused, the clock commands, a junk line, `quit`, and the time
//! each answer took; then which optional commands it has and what needs them.
//!
//! The bot is started as `hamle match` starts it (`bots.rs`, `gtp.rs`, under the arena's
//! supervisor); every answer has its own timeout; after any broken exchange the bot's
//! group is killed and the next item starts a fresh one, and after two commands in a row
//! without a readable answer the rest are skipped, so the check always ends, with no
//! process of the bot left.
//!
//! Rooms: `wire.rs` (the conversation, line by line), `items.rs` (the items that talk),
//! `play.rs` (the items that play), `report.rs` (the table and the JSON).

mod items;
mod play;
mod report;
mod wire;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

pub use report::{Item, Report, Status};

use super::bots::{Bot, BotFolders};
use super::options::{hamle_exe, match_bots, seconds};
use crate::contract::Seat;
use crate::games::{self, GameKind, MatchFlags};
use crate::seed::derive_seed;

/// `hamle check BOT [--game G] [--json]`
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The bot: a name from the bots folder, or a command line (split into words, quotes
    /// group, run without a shell), e.g. "python3 examples/bots/go_random.py".
    pub bot: String,
    /// The folder of bot files (default: ./bots, then $HAMLE_BOTS, then
    /// ~/.config/hamle/bots or $XDG_CONFIG_HOME/hamle/bots, then bots/ beside hamle).
    #[arg(long)]
    pub bots: Option<PathBuf>,
    /// The game, for a bot given as a command line (a bot file names its own): go, tavla,
    /// abalone, kulami or mangala. Default: the bot file's, else Go.
    #[arg(long)]
    pub game: Option<String>,
    #[command(flatten)]
    pub games: MatchFlags,
    /// Print the report as JSON (for scripts) instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Seconds the bot may take for any one answer during the games and later items.
    #[arg(long, default_value_t = 10.0)]
    pub timeout: f64,
    /// Seconds it may take for the handshake and setup answers.
    #[arg(long, default_value_t = 30.0)]
    pub start_timeout: f64,
    /// Moves of each short game (both sides' together) before it is stopped; a game that
    /// ends sooner by its rules ends there.
    #[arg(long, default_value_t = 40)]
    pub plies: usize,
    /// The seed of the games (the bot gets one derived from it when its file has a
    /// `seed_arg`).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write every line to and from the bot to this file, timed and marked by direction
    /// (emptied first; at most 1 MiB each time the bot is started).
    #[arg(long)]
    pub log_protocol: Option<PathBuf>,
}

/// Runs `hamle check`: exit 0 when a match can run, 1 when an item failed, 2 on bad
/// input (an unknown bot or game, a bad flag value).
pub fn run_check_command(args: CheckArgs) -> ExitCode {
    let fail = |message: String| {
        eprintln!("hamle check: {message}");
        ExitCode::from(2)
    };
    let folders = BotFolders::search(args.bots.as_deref(), &hamle_exe());
    let (bots, kind) = match match_bots(&folders, &[args.bot.as_str()], args.game.as_deref()) {
        Ok(found) => found,
        Err(message) => return fail(message),
    };
    let Some(bot) = bots.into_iter().next() else {
        return fail("no bot".to_owned());
    };
    let report = match check(&args, &bot, kind) {
        Ok(report) => report,
        Err(message) => return fail(message),
    };
    if args.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.text());
    }
    if report.match_can_run {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// Every item, in order, on a runtime of its own.
pub fn check(args: &CheckArgs, bot: &Bot, kind: GameKind) -> Result<Report, String> {
    let timeout = seconds(args.timeout, "--timeout")?;
    let start_timeout = seconds(args.start_timeout, "--start-timeout")?;
    let settings = games::settings(kind, &args.games)?;
    let hamle = hamle_exe();
    let mut launch = bot
        .launch(&hamle, Some(derive_seed(args.seed, 1)))
        .map_err(|error| error.to_string())?;
    if let Some(path) = &args.log_protocol {
        // Emptied once here: each start of the bot (a fresh one after a broken exchange)
        // appends its part.
        crate::files::open_to_write(path)
            .map_err(|error| format!("--log-protocol {}: {error}", path.display()))?;
        launch.protocol_log = Some(path.clone());
    }
    let command = launch.display_command();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|error| format!("cannot start the runtime: {error}"))?;
    let mut session = wire::Session::new(launch, timeout, start_timeout);
    let partner = play::sparring_launch(kind, &hamle, settings.as_ref());
    let items = runtime.block_on(async {
        let mut table = play::Table {
            session: &mut session,
            settings: settings.as_ref(),
            bot,
            partner,
            pair_seed: derive_seed(args.seed, 0),
            plies: args.plies,
            illegal: None,
        };
        let items = all_items(&mut table, kind).await;
        table.session.kill().await;
        items
    });
    Ok(Report::new(&bot.name, &command, kind.name(), items))
}

async fn all_items(table: &mut play::Table<'_>, kind: GameKind) -> Vec<Item> {
    let mut items = vec![start(table.session)];
    if items[0].status == Status::Fail {
        return items;
    }
    let listed = items::handshake(table.session, &mut items).await;
    items.push(table.setup().await);
    for seat in [Seat::First, Seat::Second] {
        items.push(table.game(seat, &play::game_name(seat)).await);
    }
    items.push(table.illegal.take().unwrap_or_else(|| {
        Item::new(
            "illegal move refused",
            Status::Skip,
            "not tried: no earlier move was illegal when the partner was to move",
        )
    }));
    items.push(items::framing(table.session).await);
    let side = table.settings.referee(0).clock_side(Seat::First);
    items.push(items::clock(table.session, side).await);
    items.push(items::junk(table.session).await);
    items.extend(items::optional(table.session, kind, listed.as_deref()).await);
    items.push(items::quit(table.session).await);
    items.push(items::times(table.session));
    items
}

/// The bot starts (as the arena starts it).
fn start(session: &mut wire::Session) -> Item {
    match session.start() {
        Ok(_) => Item::new("start", Status::Pass, "started"),
        Err(problem) => Item::new("start", Status::Fail, problem.to_string())
            .reference("Arena › Bot files (`command`)"),
    }
}
