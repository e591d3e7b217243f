//! The `hamle abalone` command line: the engine (default) and `selfplay`, plus the body of
//! `hamle perft abalone`.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::board::Color;
use super::engine::{self, AbaloneEngine, Settings};
use super::eval::Weights;
use super::perft::{divide, perft};
use super::player::{self, Limits, Searcher};
use super::position::{MoveList, Position, StartPosition};
use super::rules::{DEFAULT_MAX_PLIES, EndRules, Game};
use crate::protocol;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct AbaloneArgs {
    #[command(subcommand)]
    pub tool: Option<AbaloneTool>,
    #[command(flatten)]
    pub engine: EngineArgs,
}

#[derive(Subcommand, Debug)]
pub enum AbaloneTool {
    /// Play two settings of the engine against each other in-process, colours alternating.
    Selfplay(SelfplayArgs),
}

#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Seed of every random choice: the same seed and node budget give the same moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Search nodes per move (0: no node limit; the clock or --movetime decides).
    #[arg(long, default_value_t = engine::DEFAULT_NODES)]
    pub nodes: u64,
    /// Seconds per move when no clock is set (0: none).
    #[arg(long, default_value_t = 0.0)]
    pub movetime: f64,
    /// Start position of `clear_board`: standard, belgian-daisy or german-daisy.
    #[arg(long, default_value = "standard")]
    pub start: StartPosition,
    /// Game-length cap in plies (0: none); a capped game is adjudicated.
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// The third occurrence of a position is a draw.
    #[arg(long)]
    pub repetition_draw: bool,
    /// Evaluation weights: off,centre,cohesion,edge,threat.
    #[arg(long, default_value_t = Weights::default())]
    pub weights: Weights,
    /// Transposition table of 2^N entries of 32 bytes.
    #[arg(long, default_value_t = player::DEFAULT_TABLE_BITS, value_parser = clap::value_parser!(u32).range(10..=26))]
    pub table_bits: u32,
    /// For GoGui: moves are entered and answered one cell (GoGui vertex) at a time, the
    /// marbles that move and then where they go (protocol.md, Abalone, "Under GoGui").
    #[arg(long)]
    pub gogui: bool,
}

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play (colours alternate; each opening is played twice, once each way).
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// Nodes per move of player A and of player B.
    #[arg(long, default_value_t = 20_000)]
    pub nodes_a: u64,
    #[arg(long, default_value_t = 20_000)]
    pub nodes_b: u64,
    #[arg(long, default_value_t = Weights::default())]
    pub weights_a: Weights,
    #[arg(long, default_value_t = Weights::default())]
    pub weights_b: Weights,
    /// Random plies at the start of each opening pair, for variety.
    #[arg(long, default_value_t = 2)]
    pub opening_plies: u32,
    #[arg(long, default_value = "standard")]
    pub start: StartPosition,
    #[arg(long, default_value_t = DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `hamle abalone …`.
pub fn run(args: AbaloneArgs) -> io::Result<()> {
    match args.tool {
        Some(AbaloneTool::Selfplay(selfplay)) => run_selfplay(&selfplay, &mut io::stdout().lock()),
        None => {
            let e = args.engine;
            let settings = Settings {
                seed: e.seed,
                nodes: e.nodes,
                move_time: (e.movetime > 0.0).then(|| Duration::from_secs_f64(e.movetime.min(1e6))),
                start: e.start,
                end_rules: EndRules {
                    max_plies: e.max_plies,
                    repetition_draw: e.repetition_draw,
                },
                weights: e.weights,
                table_bits: e.table_bits,
                gogui: e.gogui,
            };
            protocol::serve_stdio(&mut AbaloneEngine::new(settings))
        }
    }
}

/// `hamle perft abalone [depth] [position]`: the position is a start name or a position
/// string; prints the count below each move, then the total.
pub fn run_perft(depth: u32, position: &str, out: &mut impl Write) -> io::Result<()> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
    let position: Position = match position.parse::<StartPosition>() {
        Ok(start) => start.position(),
        Err(_) => position
            .parse()
            .map_err(|error| invalid(format!("bad position: {error}")))?,
    };
    let started = Instant::now();
    let mut total = 0;
    if depth > 0 {
        for (mv, count) in divide(&position, depth) {
            writeln!(out, "{mv} {count}")?;
            total += count;
        }
    } else {
        total = perft(&position, 0);
    }
    let seconds = started.elapsed().as_secs_f64();
    writeln!(
        out,
        "perft {depth}: {total} ({seconds:.3}s, {:.0} leaves/s)",
        total as f64 / seconds.max(1e-9)
    )?;
    Ok(())
}

/// One player's settings in a self-play match.
#[derive(Copy, Clone, Debug)]
pub struct Player {
    pub nodes: u64,
    pub weights: Weights,
}

/// Wins, draws and losses of player A.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Plays game `index` of a match: A is black in even games. Returns the winner as seen
/// from A (`Some(true)` A won) and the game.
pub fn play_game(a: Player, b: Player, args: &SelfplayArgs, index: u32) -> (Option<bool>, Game) {
    let rules = EndRules {
        max_plies: args.max_plies,
        repetition_draw: true,
    };
    let mut game = Game::new(args.start.position(), rules);
    // Both games of a pair share the opening: the seed depends on the pair only.
    let mut rng = ChaCha8Rng::seed_from_u64(
        args.seed
            .wrapping_mul(1000)
            .wrapping_add(u64::from(index / 2)),
    );
    let mut moves = MoveList::new();
    for _ in 0..args.opening_plies {
        game.position().legal_moves(&mut moves);
        let Some(&mv) = moves.as_slice().choose(&mut rng) else {
            break;
        };
        let mover = game.to_move();
        if game.play(mover, mv).is_err() {
            break;
        }
    }
    let a_color = if index.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    let seed = args.seed ^ u64::from(index);
    let mut searchers = [
        Searcher::new(a.weights, seed, 18),
        Searcher::new(b.weights, seed, 18),
    ];
    let never = || false;
    while !game.is_over() {
        let mover = game.to_move();
        let (side, nodes) = if mover == a_color {
            (0, a.nodes)
        } else {
            (1, b.nodes)
        };
        let result = searchers[side].search(&game, Limits::nodes(nodes), &never);
        let Some(mv) = result.best else { break };
        if game.play(mover, mv).is_err() {
            break;
        }
    }
    let winner = game.result().and_then(|r| r.winner).map(|w| w == a_color);
    (winner, game)
}

fn run_selfplay(args: &SelfplayArgs, out: &mut impl Write) -> io::Result<()> {
    let a = Player {
        nodes: args.nodes_a,
        weights: args.weights_a,
    };
    let b = Player {
        nodes: args.nodes_b,
        weights: args.weights_b,
    };
    writeln!(
        out,
        "A: nodes {} weights {}; B: nodes {} weights {}",
        a.nodes, a.weights, b.nodes, b.weights
    )?;
    let started = Instant::now();
    let mut tally = Tally::default();
    for index in 0..args.games {
        let (winner, game) = play_game(a, b, args, index);
        match winner {
            Some(true) => tally.wins += 1,
            Some(false) => tally.losses += 1,
            None => tally.draws += 1,
        }
        let result = game.result().map_or("unfinished".into(), |r| r.to_string());
        let a_color = if index.is_multiple_of(2) {
            "black"
        } else {
            "white"
        };
        writeln!(
            out,
            "game {index}: A {a_color}, {} plies, {result}",
            game.plies()
        )?;
    }
    let played = f64::from(args.games.max(1));
    writeln!(
        out,
        "A +{} ={} -{} score {:.1}% in {:.0}s",
        tally.wins,
        tally.draws,
        tally.losses,
        100.0 * (f64::from(tally.wins) + 0.5 * f64::from(tally.draws)) / played,
        started.elapsed().as_secs_f64()
    )?;
    Ok(())
}
