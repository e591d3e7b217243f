//! The `hamle tavla` command line: GTP (default), the UBGI dialect, or gnubg's external
//! player socket.

use std::io::{self, BufReader};
use std::time::Duration;

use clap::{Args, ValueEnum};

use super::engine::{Settings, TavlaEngine};
use super::player::Level;
use crate::protocol;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Protocol {
    /// GTP framing with the Tavla commands of protocol.md.
    Gtp,
    /// The UBGI v0.1 dialect (ubgi, isready, position gnubgid, go, bestmove, …).
    Ubgi,
}

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct TavlaArgs {
    #[command(subcommand)]
    pub tool: Option<super::tools::TavlaTool>,
    /// Seed of the dice roller: the same seed gives the same dice and, with the same
    /// commands, the same games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The player's level: greedy, pubeval, net (the trained net at 0 ply), net1, net2 (two
    /// opponent rolls deep, the strongest, about 50 ms a move).
    #[arg(long, default_value = "net2")]
    pub level: Level,
    /// Points to win the match; 0 is money play.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=32_767))]
    pub match_length: u32,
    /// Play without the Crawford rule.
    #[arg(long)]
    pub no_crawford: bool,
    /// The protocol spoken on stdin/stdout.
    #[arg(long, value_enum, default_value = "gtp")]
    pub protocol: Protocol,
    /// Serve gnubg's external player on this TCP port of localhost instead of stdin/stdout
    /// (in gnubg: `set player 1 external localhost:PORT`).
    #[arg(long)]
    pub listen: Option<u16>,
    /// GTP with GNU Backgammon's decisions: `genmove` and `genmove_cube` ask a gnubg child
    /// process (`gnubg -t -q`, `hint`) instead of our player (for `hamle match`).
    #[arg(long)]
    pub gnubg: bool,
    /// With --gnubg: the gnubg program (a path, or a name looked up on PATH).
    #[arg(long, default_value = "gnubg")]
    pub gnubg_path: std::path::PathBuf,
    /// With --gnubg: plies of gnubg's evaluation for plays and cube decisions.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=4))]
    pub gnubg_plies: u8,
    /// With --gnubg: seconds gnubg may take over one answer (its start-up included) before
    /// it is taken for hung: the start fails, or the move is answered with an error.
    // The default is gnubg_adapter::DEFAULT_TIMEOUT (a test keeps the two equal).
    #[arg(long, default_value = "120", value_parser = parse_seconds)]
    pub gnubg_timeout: Duration,
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a number of seconds"))?;
    if seconds.is_nan() || seconds <= 0.0 {
        return Err(format!("{seconds} s is not a positive time"));
    }
    Duration::try_from_secs_f64(seconds).map_err(|error| format!("{seconds} s: {error}"))
}

impl TavlaArgs {
    pub fn settings(&self) -> Settings {
        Settings {
            seed: self.seed,
            level: self.level,
            match_length: self.match_length,
            crawford: !self.no_crawford,
        }
    }
}

pub fn run(args: TavlaArgs) -> io::Result<()> {
    if let Some(tool) = args.tool {
        return super::tools::run(tool);
    }
    if let Some(port) = args.listen {
        return super::external::listen(port, args.level);
    }
    if args.gnubg {
        let mut engine = super::gnubg_adapter::GnubgEngine::new(
            args.settings(),
            super::gnubg_adapter::GnubgSettings {
                program: args.gnubg_path.clone(),
                plies: args.gnubg_plies,
                timeout: args.gnubg_timeout,
            },
        )?;
        return protocol::serve_stdio(&mut engine);
    }
    match args.protocol {
        Protocol::Gtp => {
            let mut engine = TavlaEngine::new(args.settings());
            protocol::serve_stdio(&mut engine)
        }
        Protocol::Ubgi => super::ubgi::serve(
            args.level,
            BufReader::new(io::stdin()),
            &mut io::stdout().lock(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnubg_timeout_is_positive_seconds_and_defaults_to_the_adapters() {
        assert_eq!(
            parse_seconds("120"),
            Ok(super::super::gnubg_adapter::DEFAULT_TIMEOUT)
        );
        assert_eq!(parse_seconds("0.5"), Ok(Duration::from_millis(500)));
        for bad in ["0", "-1", "NaN", "inf", "soon"] {
            assert!(parse_seconds(bad).is_err(), "{bad}");
        }
    }
}
