//! The registry: the one file that names all five games.
//!
//! Everything above the games (the arena, the command line) reaches a game through here:
//! its name ([`GameKind`]), its match flags ([`MatchFlags`], flattened into `hamle match`
//! and `hamle ladder`), its match settings ([`settings`]), its engine (`hamle <game>`) and
//! its bench. A sixth game is one folder and one entry in the `registry!` list below: the
//! macro writes every list from it, with clap's typed flags intact.

use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;
use std::sync::Arc;

use clap::{Args, Subcommand};
use serde::Deserialize;

use crate::contract::GameSettings;
use crate::contract::view::Viewer;
use crate::{abalone, go, kulami, mangala, tavla};

/// Writes the registry from one entry a game. An entry names the game's variant and folder
/// (which is also its name on the command line, in bot files and in `match.txt`), its viewer,
/// its engine's clap arguments with the help line of `hamle <game>`, and its bench's one
/// budget flag with the help lines of `hamle bench <game>` and of the flag. The folder must
/// hold `referee::MatchFlags` (with a `settings()` that checks them), `cli::run` and
/// `bench::run(budget, out)`.
macro_rules! registry {
    ($(
        $variant:ident => $folder:ident {
            viewer: $viewer:expr,
            engine: $engine_args:ty, $engine_help:literal,
            bench: $bench_help:literal,
                $budget:ident: $budget_type:ty = $budget_default:expr, $budget_help:literal $(,)?
        }
    )*) => {
        /// The five games; a bot plays one.
        #[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum GameKind {
            $($variant,)*
        }

        impl GameKind {
            /// Every game, in the order messages list them.
            pub const ALL: [GameKind; [$(stringify!($variant)),*].len()] =
                [$(GameKind::$variant,)*];

            /// The game's name on the command line, in bot files and in `match.txt`.
            pub fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => stringify!($folder),)*
                }
            }

            /// The game's viewer: reads its records and draws its positions (`hamle view`,
            /// the match and ladder pages).
            pub fn viewer(self) -> &'static dyn Viewer {
                match self {
                    $(GameKind::$variant => &$viewer,)*
                }
            }
        }

        /// Every game's match flags, as `hamle match` and `hamle ladder` take them; only
        /// the played game's are read.
        #[derive(Args, Debug, Clone)]
        #[group(id = "game-match-flags")]
        pub struct MatchFlags {
            $(
                #[command(flatten)]
                pub $folder: $folder::referee::MatchFlags,
            )*
        }

        /// The match settings of `kind` from the flags, checked.
        pub fn settings(
            kind: GameKind,
            flags: &MatchFlags,
        ) -> Result<Arc<dyn GameSettings>, String> {
            Ok(match kind {
                $(GameKind::$variant => Arc::new(flags.$folder.settings()?),)*
            })
        }

        /// `hamle <game>`: each game's engine on stdin/stdout (and its tools).
        #[derive(Subcommand)]
        pub enum EngineCommand {
            $(
                #[doc = $engine_help]
                $variant($engine_args),
            )*
        }

        impl EngineCommand {
            pub fn run(self) -> io::Result<()> {
                match self {
                    $(EngineCommand::$variant(args) => $folder::cli::run(args),)*
                }
            }
        }

        /// `hamle bench <game>`: fixed positions, fixed budgets, deterministic node counts.
        #[derive(Subcommand)]
        pub enum BenchGame {
            $(
                #[doc = $bench_help]
                $variant {
                    #[doc = $budget_help]
                    #[arg(long, default_value_t = $budget_default)]
                    $budget: $budget_type,
                },
            )*
        }

        impl BenchGame {
            pub fn run(self, out: &mut impl Write) -> io::Result<()> {
                match self {
                    $(BenchGame::$variant { $budget } => $folder::bench::run($budget, out),)*
                }
            }
        }
    };
}

registry! {
    Go => go {
        viewer: go::view::GoViewer,
        engine: go::cli::GoArgs, "Run the Go engine as a GTP v2 engine on stdin/stdout.",
        bench: "Go: Monte Carlo search over fixed 9×9 and 19×19 positions.",
            playouts: u64 = go::bench::DEFAULT_PLAYOUTS, "Playouts per position.",
    }
    Tavla => tavla {
        viewer: tavla::view::TavlaViewer,
        engine: tavla::cli::TavlaArgs,
            "Run the Tavla (backgammon) engine: GTP framing, UBGI, or gnubg's external player; \
             `train` the net by self-play, `duel` two levels, `choose` (a filter).",
        bench: "Tavla: the net's play search over fixed positions; counts static evaluations.",
            plies: u32 = tavla::bench::DEFAULT_PLIES, "Opponent rolls looked ahead (0, 1 or 2).",
    }
    Abalone => abalone {
        viewer: abalone::view::AbaloneViewer,
        engine: abalone::cli::AbaloneArgs,
            "Run the Abalone engine (GTP framing) on stdin/stdout; `selfplay` matches.",
        bench: "Abalone: alpha-beta search over fixed positions to a fixed node budget.",
            nodes: u64 = abalone::bench::DEFAULT_NODES, "Nodes per position.",
    }
    Kulami => kulami {
        viewer: kulami::view::KulamiViewer,
        engine: kulami::cli::KulamiArgs,
            "Run the Kulami engine (GTP framing) on stdin/stdout.",
        bench: "Kulami: alpha-beta search over fixed positions to a fixed node budget.",
            nodes: u64 = kulami::bench::DEFAULT_NODES, "Nodes per position.",
    }
    Mangala => mangala {
        viewer: mangala::view::MangalaViewer,
        engine: mangala::cli::MangalaArgs,
            "Run the Mangala engine (GTP framing) on stdin/stdout; `build-db` and `solve` tools.",
        bench: "Mangala: alpha-beta search over fixed positions to a fixed node budget.",
            nodes: u64 = mangala::bench::DEFAULT_NODES, "Nodes per position.",
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
