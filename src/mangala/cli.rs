//! The `hamle mangala` command line: the engine (default), `build-db` and `solve`.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};

use super::db::{self, EndgameDb};
use super::engine::{self, MangalaEngine, Settings};
use super::player::{Limits, Searcher, margin_for, never};
use super::rules::{EndRule, MAX_STONES_PER_PIT, Position, STANDARD_STONES_PER_PIT, Side};
use super::set_match::StarterOrder;
use crate::protocol;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct MangalaArgs {
    #[command(subcommand)]
    pub tool: Option<MangalaTool>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Subcommand, Debug)]
pub enum MangalaTool {
    /// Build the endgame databases up to N stones in the pits into the cache folder.
    BuildDb(BuildDbArgs),
    /// Compute the exact value of a position (the start by default): the moonshot.
    Solve(SolveArgs),
}

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Seed of every random choice (the draw): the same seed and budget give the same game.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// End rule: `turkish` (the book: the emptier takes the other row) or `kalah`.
    #[arg(long, default_value = "turkish")]
    pub rules: EndRule,
    /// Stones in each pit at the start of a set (1-5; the book plays 4).
    #[arg(long, default_value_t = STANDARD_STONES_PER_PIT, value_parser = clap::value_parser!(u8).range(1..=MAX_STONES_PER_PIT as i64))]
    pub stones: u8,
    /// Search nodes per move.
    #[arg(long, default_value_t = engine::DEFAULT_NODES)]
    pub nodes: u64,
    /// Transposition table of 2^N entries of 16 bytes.
    #[arg(long, default_value_t = engine::DEFAULT_TABLE_BITS, value_parser = clap::value_parser!(u32).range(10..=30))]
    pub table_bits: u32,
    /// Who starts sets 2-5: `alternate` or `fixed` (the draw's winner every time).
    #[arg(long, default_value = "alternate")]
    pub starters: StarterOrder,
    /// Answer genmove with GoGui vertices (C1, D6) instead of pit numbers.
    #[arg(long)]
    pub gogui_vertices: bool,
    /// GoGui mode: --gogui-vertices, and clear_board starts the current set over (GoGui
    /// replays the game from clear_board) instead of moving on to the next set.
    #[arg(long)]
    pub gogui: bool,
    /// Load endgame database levels up to this many stones (0 loads none).
    #[arg(long, default_value_t = db::MAX_LEVEL)]
    pub db_stones: u32,
}

#[derive(Args, Debug)]
pub struct BuildDbArgs {
    /// The largest number of stones left in the pits to cover.
    #[arg(long)]
    pub stones: u32,
    #[arg(long, default_value = "turkish")]
    pub rules: EndRule,
    /// Folder to write to (default: the cache folder, see protocol.md).
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
    /// Threads building each level side by side (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Stones per pit of the start position.
    #[arg(long, default_value_t = STANDARD_STONES_PER_PIT, value_parser = clap::value_parser!(u8).range(1..=MAX_STONES_PER_PIT as i64))]
    pub stones: u8,
    #[arg(long, default_value = "turkish")]
    pub rules: EndRule,
    /// A position string to solve instead of the start.
    #[arg(long)]
    pub position: Option<String>,
    /// Transposition table of 2^N entries of 16 bytes.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u32).range(10..=32))]
    pub table_bits: u32,
    /// Give up after this many nodes.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// Give up after this many seconds.
    #[arg(long)]
    pub max_seconds: Option<u64>,
    /// Load endgame database levels up to this many stones (0 loads none).
    #[arg(long, default_value_t = db::MAX_LEVEL)]
    pub db_stones: u32,
    /// Threads sharing the proof (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
}

impl std::str::FromStr for StarterOrder {
    type Err = String;

    fn from_str(text: &str) -> Result<StarterOrder, String> {
        match text.to_ascii_lowercase().as_str() {
            "alternate" => Ok(StarterOrder::Alternate),
            "fixed" => Ok(StarterOrder::Fixed),
            _ => Err(format!(
                "unknown starter order '{text}': use alternate or fixed"
            )),
        }
    }
}

fn load_db(rule: EndRule, max_stones: u32) -> Option<Arc<EndgameDb>> {
    if max_stones == 0 {
        return None;
    }
    let dir = db::cache_dir();
    let Some(db) = EndgameDb::load(&dir, rule, max_stones) else {
        tracing::info!("no {rule} endgame database in {}", dir.display());
        return None;
    };
    tracing::info!(
        "endgame database {rule}: levels 0-{} loaded ({} entries) from {}",
        db.max_stones(),
        db.entries(),
        dir.display()
    );
    Some(Arc::new(db))
}

/// Runs `hamle mangala …`.
pub fn run(args: MangalaArgs) -> io::Result<()> {
    match args.tool {
        None => serve(args.engine),
        Some(MangalaTool::BuildDb(build)) => build_db(&build, &mut io::stdout().lock()),
        Some(MangalaTool::Solve(solve)) => solve_command(&solve, &mut io::stdout().lock()),
    }
}

fn serve(args: EngineArgs) -> io::Result<()> {
    let settings = Settings {
        seed: args.seed,
        rule: args.rules,
        stones_per_pit: args.stones,
        order: args.starters,
        nodes: args.nodes,
        table_bits: args.table_bits,
        gogui_vertices: args.gogui_vertices || args.gogui,
        clear_restarts_set: args.gogui,
    };
    let db = load_db(args.rules, args.db_stones);
    let mut engine = MangalaEngine::new(settings, db);
    protocol::serve_stdio(&mut engine)
}

fn build_db(args: &BuildDbArgs, out: &mut impl Write) -> io::Result<()> {
    if args.stones > db::MAX_LEVEL {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("--stones {} is above {}", args.stones, db::MAX_LEVEL),
        ));
    }
    let dir = args.dir.clone().unwrap_or_else(db::cache_dir);
    let start = Instant::now();
    let mut built = 0;
    // Levels already on disk (every check passed, checksums included) are kept and only
    // the rest is built.
    let mut db = match EndgameDb::load(&dir, args.rules, args.stones) {
        Some(db) => {
            let next = if db.max_stones() < args.stones {
                format!("resuming at level {}", db.max_stones() + 1)
            } else {
                "nothing to build".to_owned()
            };
            writeln!(
                out,
                "{} levels 0-{} found in {} (checksums verified): {next}",
                args.rules,
                db.max_stones(),
                dir.display()
            )?;
            db
        }
        None => {
            writeln!(
                out,
                "{}: no usable level in {}: building from level 0",
                args.rules,
                dir.display()
            )?;
            let level_start = Instant::now();
            let db = EndgameDb::build(args.rules, 0, &mut |_, _| {});
            db.save_level(&dir, 0)?;
            report_level(out, &db, level_start, start)?;
            built += 1;
            db
        }
    };
    if let Some(threads) = args.threads {
        db.set_threads(threads);
    }
    let loaded = db.max_stones() + 1 - built;
    // Each level is written as soon as it stands, so an interrupted build resumes there.
    while db.max_stones() < args.stones {
        let level_start = Instant::now();
        db.extend_to(db.max_stones() + 1, &mut |_, _| {});
        db.save_level(&dir, db.max_stones())?;
        report_level(out, &db, level_start, start)?;
        built += 1;
    }
    writeln!(
        out,
        "{} to {} stones: {} entries ({} bytes); {built} levels built after {loaded} loaded, in {} in {:.1}s",
        args.rules,
        db.max_stones(),
        db.entries(),
        db.entries(),
        dir.display(),
        start.elapsed().as_secs_f64()
    )
}

/// One line for the level just written, on stdout and in the log.
fn report_level(
    out: &mut impl Write,
    db: &EndgameDb,
    level_start: Instant,
    start: Instant,
) -> io::Result<()> {
    let level = db.max_stones();
    let line = format!(
        "level {level:>2}: {:>12} entries, built and written in {:.1}s ({:.1}s in all)",
        db.level_len(level),
        level_start.elapsed().as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
    tracing::info!("{line}");
    writeln!(out, "{line}")?;
    out.flush()
}

fn solve_command(args: &SolveArgs, out: &mut impl Write) -> io::Result<()> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
    let position = match &args.position {
        Some(text) => text
            .parse::<Position>()
            .map_err(|e| invalid(format!("bad position: {e}")))?,
        None => Position::start(args.stones, Side::South),
    };
    let db = load_db(args.rules, args.db_stones);
    writeln!(
        out,
        "solving {position} under {} rules; table {} MiB; database {}",
        args.rules,
        (16u64 << args.table_bits) >> 20,
        db.as_ref().map_or_else(
            || "none".to_owned(),
            |d| format!("to {} stones", d.max_stones())
        )
    )?;
    out.flush()?;
    let mut searcher = Searcher::new(args.rules, args.table_bits, db);
    searcher.set_solver_threads(
        args.threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)),
    );
    let start = Instant::now();
    let limits = Limits {
        nodes: args.max_nodes,
        deadline: args.max_seconds.map(|s| start + Duration::from_secs(s)),
        depth: None,
    };
    let mover = position.to_move();
    let mut report = |lower: i32, upper: i32, nodes: u64| {
        let line = format!(
            "proved {mover} margin in [{:+}, {:+}] after {nodes} nodes, {:.1}s",
            margin_for(&position, lower, mover),
            margin_for(&position, upper, mover),
            start.elapsed().as_secs_f64()
        );
        tracing::info!("{line}");
        println!("{line}");
    };
    let solution = searcher.solve(&position, limits, &never, &mut report);
    let elapsed = start.elapsed().as_secs_f64();
    match solution.exact() {
        Some(gain) => writeln!(
            out,
            "value: {mover} (to move) final margin {:+}; best first pit {}; {} nodes in {elapsed:.1}s ({:.0} nps)",
            margin_for(&position, gain, mover),
            solution
                .best
                .map_or_else(|| "-".to_owned(), |p| p.to_string()),
            solution.nodes,
            solution.nodes as f64 / elapsed.max(1e-9)
        ),
        None => writeln!(
            out,
            "unsolved within the limits: {mover} margin in [{:+}, {:+}]; {} nodes in {elapsed:.1}s",
            margin_for(&position, solution.lower, mover),
            margin_for(&position, solution.upper, mover),
            solution.nodes
        ),
    }
}
