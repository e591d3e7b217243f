//! `hamle match openings DIR --plies P`: a suite made by our own engines from a match they
//! played. The match is self-play at a small budget (one bot under two names, so each
//! game's engines get their own seeds) with `--opening-plies P`; a pair whose first seat
//! scored exactly one point of two (it won one game and lost the other, or drew both) is
//! one where the engine's play found the opening even for either colour, and its first P
//! moves become a line of the suite. The built-in suites (`openings/*.txt`) were made so.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::process::ExitCode;

use super::folder;
use super::store::{self, GAMES_DIR, GameResult, RESULTS_FILE, SETTINGS_FILE, Winner};
use crate::contract::GameSettings;
use crate::games::{self, GameKind, MatchFlags};

/// `hamle match openings DIR --plies P`
#[derive(clap::Args, Debug)]
pub struct SuiteMakerArgs {
    /// A finished match folder played with `--opening-plies P` (self-play of our engine).
    pub dir: PathBuf,
    /// The opening's length: the random plies of the match.
    #[arg(long)]
    pub plies: usize,
    /// The game's settings the match was played with (`--size` for Go, …).
    #[command(flatten)]
    pub games: MatchFlags,
}

/// Prints the suite (a comment line, then one opening a line) on stdout; exit 2 on a
/// folder that cannot be read.
pub fn run(args: SuiteMakerArgs) -> ExitCode {
    match make(&args) {
        Ok(lines) => {
            println!(
                "# made by `hamle match openings {} --plies {}`: pairs whose first seat scored 1 of 2",
                args.dir.display(),
                args.plies
            );
            for line in lines {
                println!("{line}");
            }
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("hamle match openings: {message}");
            ExitCode::from(2)
        }
    }
}

fn make(args: &SuiteMakerArgs) -> Result<Vec<String>, String> {
    let settings_path = args.dir.join(SETTINGS_FILE);
    let settings = folder::read_text(&settings_path)
        .map_err(|error| format!("{}: {error}", settings_path.display()))?;
    let kind: GameKind = settings
        .lines()
        .find_map(|line| line.strip_prefix("game = "))
        .ok_or_else(|| format!("{}: no 'game' line", settings_path.display()))?
        .parse()?;
    let game = games::settings(kind, &args.games)?;
    let results =
        store::read_results(&args.dir.join(RESULTS_FILE)).map_err(|error| error.to_string())?;
    let mut pairs: BTreeMap<usize, Vec<&GameResult>> = BTreeMap::new();
    for result in &results {
        pairs.entry(result.game / 2).or_default().push(result);
    }
    let mut seen = BTreeSet::new();
    let mut lines = Vec::new();
    for games in pairs.values() {
        if let Some(line) = even_opening(&args.dir, game.as_ref(), games, args.plies)?
            && seen.insert(line.clone())
        {
            lines.push(line);
        }
    }
    Ok(lines)
}

/// The opening of a pair whose first seat scored one point of two, else `None`.
fn even_opening(
    dir: &std::path::Path,
    game: &dyn GameSettings,
    pair: &[&GameResult],
    plies: usize,
) -> Result<Option<String>, String> {
    let first_seat: Option<Vec<u32>> = pair
        .iter()
        .map(|result| match result.winner {
            Winner::First => Some(2),
            Winner::Draw => Some(1),
            Winner::Second => Some(0),
            Winner::Void => None,
        })
        .collect();
    if pair.len() != 2 || first_seat.is_none_or(|halves| halves.iter().sum::<u32>() != 2) {
        return Ok(None);
    }
    let path = dir.join(GAMES_DIR).join(&pair[0].record);
    let record =
        folder::read_text(&path).map_err(|error| format!("{}: {error}", path.display()))?;
    // A game shorter than the opening has none to give.
    Ok(game.opening_of_record(&record, plies).ok())
}
