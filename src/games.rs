//! The registry: the one file that names all five games.
//!
//! Everything above the games (the arena, the command line) reaches a game through here:
//! its name ([`GameKind`]), its match flags ([`MatchFlags`], flattened into `hamle match`
//! and `hamle ladder`), its match settings ([`settings`]), its engine (`hamle <game>`) and
//! its bench. A sixth game is one folder and one line in each list below.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;
use std::sync::Arc;

use clap::{Args, Subcommand};
use serde::Deserialize;

use crate::contract::GameSettings;
use crate::contract::view::Viewer;
use crate::{abalone, go, kulami, mangala, tavla};

/// The five games; a bot plays one.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    Go,
    Tavla,
    Abalone,
    Kulami,
    Mangala,
}

impl GameKind {
    /// Every game, in the order messages list them.
    pub const ALL: [GameKind; 5] = [
        GameKind::Go,
        GameKind::Tavla,
        GameKind::Abalone,
        GameKind::Kulami,
        GameKind::Mangala,
    ];

    /// The game's name on the command line, in bot files and in `match.txt`.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Go => "go",
            GameKind::Tavla => "tavla",
            GameKind::Abalone => "abalone",
            GameKind::Kulami => "kulami",
            GameKind::Mangala => "mangala",
        }
    }

    /// The game's viewer: reads its records and draws its positions (`hamle view`, the
    /// match and ladder pages).
    pub fn viewer(self) -> &'static dyn Viewer {
        match self {
            GameKind::Go => &go::view::GoViewer,
            GameKind::Tavla => &tavla::view::TavlaViewer,
            GameKind::Abalone => &abalone::view::AbaloneViewer,
            GameKind::Kulami => &kulami::view::KulamiViewer,
            GameKind::Mangala => &mangala::view::MangalaViewer,
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(word: &str) -> Result<GameKind, String> {
        let word_lower = word.to_ascii_lowercase();
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.name() == word_lower)
            .ok_or_else(|| {
                let names: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
                let (last, first) = names.split_last().unwrap_or((&"", &[]));
                format!("unknown game '{word}': use {} or {last}", first.join(", "))
            })
    }
}

/// Every game's match flags, as `hamle match` and `hamle ladder` take them; only the
/// played game's are read.
#[derive(Args, Debug, Clone)]
#[group(id = "game-match-flags")]
pub struct MatchFlags {
    #[command(flatten)]
    pub go: go::referee::MatchFlags,
    #[command(flatten)]
    pub abalone: abalone::referee::MatchFlags,
    #[command(flatten)]
    pub kulami: kulami::referee::MatchFlags,
    #[command(flatten)]
    pub mangala: mangala::referee::MatchFlags,
    #[command(flatten)]
    pub tavla: tavla::referee::MatchFlags,
}

/// The match settings of `kind` from the flags, checked.
pub fn settings(kind: GameKind, flags: &MatchFlags) -> Result<Arc<dyn GameSettings>, String> {
    Ok(match kind {
        GameKind::Go => Arc::new(flags.go.settings()?),
        GameKind::Abalone => Arc::new(flags.abalone.settings()),
        GameKind::Kulami => Arc::new(flags.kulami.settings()?),
        GameKind::Mangala => Arc::new(flags.mangala.settings()?),
        GameKind::Tavla => Arc::new(flags.tavla.settings()),
    })
}

/// `hamle <game>`: each game's engine on stdin/stdout (and its tools).
#[derive(Subcommand)]
pub enum EngineCommand {
    /// Run the Go engine as a GTP v2 engine on stdin/stdout.
    Go(go::cli::GoArgs),
    /// Run the Abalone engine (GTP framing) on stdin/stdout; `selfplay` matches.
    Abalone(abalone::cli::AbaloneArgs),
    /// Run the Kulami engine (GTP framing) on stdin/stdout.
    Kulami(kulami::cli::KulamiArgs),
    /// Run the Mangala engine (GTP framing) on stdin/stdout; `build-db` and `solve` tools.
    Mangala(mangala::cli::MangalaArgs),
    /// Run the Tavla (backgammon) engine: GTP framing, UBGI, or gnubg's external player;
    /// `train` the net by self-play, `duel` two levels, `choose` (a filter).
    Tavla(tavla::cli::TavlaArgs),
}

impl EngineCommand {
    pub fn run(self) -> io::Result<()> {
        match self {
            EngineCommand::Go(args) => go::cli::run(args),
            EngineCommand::Abalone(args) => abalone::cli::run(args),
            EngineCommand::Kulami(args) => kulami::cli::run(args),
            EngineCommand::Mangala(args) => mangala::cli::run(args),
            EngineCommand::Tavla(args) => tavla::cli::run(args),
        }
    }
}

/// `hamle perft <game>`: move-generator counts.
#[derive(Subcommand)]
pub enum PerftGame {
    /// Abalone: perft below each legal move, then the total.
    Abalone {
        #[arg(default_value_t = 3)]
        depth: u32,
        /// standard, belgian-daisy, german-daisy or a position string.
        #[arg(default_value = "standard")]
        position: String,
    },
}

impl PerftGame {
    pub fn run(self, out: &mut impl Write) -> io::Result<()> {
        match self {
            PerftGame::Abalone { depth, position } => {
                abalone::cli::run_perft(depth, &position, out)
            }
        }
    }
}

/// `hamle bench <game>`: fixed positions, fixed budgets, deterministic node counts.
#[derive(Subcommand)]
pub enum BenchGame {
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

impl BenchGame {
    pub fn run(self, out: &mut impl Write) -> io::Result<()> {
        match self {
            BenchGame::Abalone { nodes } => abalone::bench::run(nodes, out),
            BenchGame::Mangala { nodes } => mangala::bench::run(nodes, out),
            BenchGame::Kulami { nodes } => kulami::bench::run(nodes, out),
            BenchGame::Tavla { plies } => tavla::bench::run(plies, out),
            BenchGame::Go { playouts } => go::bench::run(playouts, out),
        }
    }
}
