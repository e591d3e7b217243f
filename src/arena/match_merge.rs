//! `hamle match merge OUT DIR…`: the folders of a match's shards (`hamle match … --shard
//! I/N`) combined into the folder one run of the whole match writes with `--concurrency 1`,
//! byte for byte: `match.txt` without its `shard` line, `results.tsv` in game order, the
//! records under `games/`, `results.pgn`, and the viewer pages (`games/0007.html`,
//! `report.html`) made again from them. Under `--sprt` the pairs are counted in pair order
//! and the games after the verdict left out, as the whole run would have stopped there.
//!
//! Everything is checked before anything is written: the folders are shards of one match
//! (settings equal but for `shard`), each shard I/N is given once and none is missing,
//! every saved line is one its shard plays (its pair, its seats, its record present), and
//! no shard left a game of the match unplayed (an interrupted shard is resumed with
//! `--resume`). `--partial` merges what there is instead, and says what is missing. Each
//! shard's folder is locked while it is read (a shard still running is refused), OUT while
//! it is written.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::folder::FolderLock;
use super::match_play::{MatchError, MatchSettings};
use super::shard::{
    Shard, ShardFolder, check_empty_output, check_same_run, folder_sides, io, missing_shards,
    take_new_folder,
};
use super::sprt::{self, SprtSpec};
use super::store::{self, GAMES_DIR, GameResult, LOGS_DIR, MATCH_FOLDER, RESULTS_FILE};

/// `hamle match merge OUT DIR… [--partial]`
#[derive(Args, Debug)]
pub struct MatchMergeArgs {
    /// The new match folder (new or empty).
    pub out: PathBuf,
    /// The shards' folders (`--out` of each `hamle match … --shard I/N`).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Merge even when a shard is missing or did not finish: the standings, the PGN and the
    /// SPRT (counted in pair order up to the first missing pair) say how much is missing.
    #[arg(long)]
    pub partial: bool,
}

/// A merged match: what its summary lines print.
pub struct Merged {
    pub names: [String; 2],
    pub games: usize,
    pub results: Vec<GameResult>,
    pub sprt: Option<SprtSpec>,
    pub opening_plies: usize,
    /// Shards no folder held (only with `--partial`).
    pub missing_shards: Vec<Shard>,
    /// Pairs of the match not complete in the merge (only with `--partial`), counted up to
    /// the SPRT's verdict when it has one.
    pub missing_pairs: usize,
    /// Games the shards played after the SPRT's verdict, left out.
    pub after_verdict: usize,
}

/// A shard read: its settings, its lock, its saved games.
struct ShardGames {
    folder: ShardFolder,
    _lock: FolderLock,
    results: Vec<GameResult>,
}

/// One setting of the first folder (all agree but for `shard`).
fn setting<'a>(settings: &'a [(String, String)], key: &str) -> Option<&'a str> {
    settings
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

/// Merges the shard folders `dirs` into `out` (see the module's doc).
pub fn merge(out: &Path, dirs: &[PathBuf], partial: bool) -> Result<Merged, MatchError> {
    check_empty_output(out)?;
    let mut folders = Vec::new();
    for dir in dirs {
        folders.push(ShardFolder::read(dir, MATCH_FOLDER)?);
    }
    check_same_run(&folders, MATCH_FOLDER)?;
    let missing_shards = missing_shards(&folders)?;
    if !missing_shards.is_empty() && !partial {
        let listed: Vec<String> = missing_shards.iter().map(Shard::to_string).collect();
        return Err(MatchError::Invalid(format!(
            "shard {} missing: give every shard's folder (or --partial to merge what there is)",
            listed.join(", ")
        )));
    }
    let settings = folders[0].shared_settings();
    let number = |key: &str| -> Result<usize, MatchError> {
        let value = setting(&settings, key).unwrap_or("0");
        value.parse().map_err(|_| {
            MatchError::Invalid(format!(
                "{}: {key} = '{value}' is not a number",
                folders[0].dir.display()
            ))
        })
    };
    let games = number("games")?;
    let opening_plies = number("opening_plies")?;
    let names =
        ["bot1.name", "bot2.name"].map(|key| setting(&settings, key).unwrap_or("").to_owned());
    let sprt = setting(&settings, "sprt")
        .map(str::parse::<SprtSpec>)
        .transpose()
        .map_err(MatchError::Invalid)?;
    let mut shards = Vec::new();
    for folder in folders {
        let _lock = FolderLock::take(&folder.dir)?;
        let results = store::read_results(&folder.dir.join(RESULTS_FILE))?;
        shards.push(ShardGames {
            folder,
            _lock,
            results,
        });
    }
    let by_game = check_games(&shards, games, &names)?;
    let mut results: Vec<GameResult> = by_game.values().map(|(r, _)| r.clone()).collect();
    let kept = kept_games(games, sprt.as_ref(), &results, &names[0]);
    let after_verdict = results.iter().filter(|r| r.game >= kept).count();
    results.retain(|r| r.game < kept);
    let missing_pairs = missing_pairs(kept, &results);
    if missing_pairs > 0 && !partial {
        return Err(MatchError::Invalid(unfinished(&shards, kept, &results)));
    }
    let _lock = take_new_folder(out, MATCH_FOLDER, &store::settings_text(&settings))?;
    write_folder(out, &shards, &results, &by_game, &names, &settings)?;
    Ok(Merged {
        names,
        games,
        results,
        sprt,
        opening_plies,
        missing_shards,
        missing_pairs,
        after_verdict,
    })
}

/// Every saved game is one its shard plays, seated and named as the match seats it, its
/// record present, and in one shard only. Returns them by game, with their shard's folder.
fn check_games<'a>(
    shards: &'a [ShardGames],
    games: usize,
    names: &[String; 2],
) -> Result<BTreeMap<usize, (GameResult, &'a Path)>, MatchError> {
    let mut by_game: BTreeMap<usize, (GameResult, &Path)> = BTreeMap::new();
    for shard in shards {
        let dir = shard.folder.dir.as_path();
        for (line, result) in shard.results.iter().enumerate() {
            let refuse = |why: String| {
                MatchError::Invalid(format!(
                    "{}:{}: {why}",
                    dir.join(RESULTS_FILE).display(),
                    line + 1
                ))
            };
            let game = result.game;
            if game >= games {
                return Err(refuse(format!(
                    "game {game} is out of range: the match has {games} games"
                )));
            }
            if let Some(shard) = shard.folder.shard
                && !shard.plays(game / 2)
            {
                return Err(refuse(format!(
                    "game {game} is pair {}'s, not shard {shard}'s",
                    game / 2
                )));
            }
            let seats = MatchSettings::seating(game).map(|bot| names[bot].as_str());
            if [result.first.as_str(), result.second.as_str()] != seats {
                return Err(refuse(format!(
                    "game {game} seats {} first and {} second, not {} and {}",
                    seats[0], seats[1], result.first, result.second
                )));
            }
            if !dir.join(GAMES_DIR).join(&result.record).is_file() {
                return Err(refuse(format!(
                    "its record {GAMES_DIR}/{} is missing",
                    result.record
                )));
            }
            if let Some((_, before)) = by_game.insert(game, (result.clone(), dir)) {
                return Err(refuse(format!(
                    "game {game} is also in {}: the shards overlap",
                    before.display()
                )));
            }
        }
    }
    Ok(by_game)
}

/// The games the whole run keeps: all of them, or under `--sprt` those of the pairs up to
/// the verdict (the run stops starting games there, and with one worker plays no more).
fn kept_games(games: usize, sprt: Option<&SprtSpec>, results: &[GameResult], bot: &str) -> usize {
    match sprt {
        Some(spec) => {
            let (pairs, _, status) = sprt::sequential(spec, results, bot);
            if status.verdict.is_some() {
                (2 * pairs).min(games)
            } else {
                games
            }
        }
        None => games,
    }
}

/// Pairs among the first `kept` games with a game missing.
fn missing_pairs(kept: usize, results: &[GameResult]) -> usize {
    let present: std::collections::BTreeSet<usize> = results.iter().map(|r| r.game).collect();
    (0..kept.div_ceil(2))
        .filter(|&pair| (2 * pair..(2 * pair + 2).min(kept)).any(|g| !present.contains(&g)))
        .count()
}

/// The refusal for shards that left games unplayed: which shard, how many games.
fn unfinished(shards: &[ShardGames], kept: usize, results: &[GameResult]) -> String {
    let present: std::collections::BTreeSet<usize> = results.iter().map(|r| r.game).collect();
    let mut parts = Vec::new();
    for shard in shards {
        let plays = |g: &usize| shard.folder.shard.is_none_or(|s| s.plays(g / 2));
        let planned = (0..kept).filter(plays).count();
        let lacking = (0..kept)
            .filter(plays)
            .filter(|g| !present.contains(g))
            .count();
        if lacking > 0 {
            let name = shard
                .folder
                .shard
                .map_or_else(|| "the match".to_owned(), |s| format!("shard {s}"));
            parts.push(format!(
                "{name} ({}) has {} of its {planned} games",
                shard.folder.dir.display(),
                planned - lacking
            ));
        }
    }
    format!(
        "{}: finish it with the same command and --resume (or --partial to merge what there is)",
        parts.join("; ")
    )
}

/// Writes the merged folder: results in game order, the records, the logs one after the
/// other, the PGN, then every viewer page and the report made again.
fn write_folder(
    out: &Path,
    shards: &[ShardGames],
    results: &[GameResult],
    by_game: &BTreeMap<usize, (GameResult, &Path)>,
    names: &[String; 2],
    settings: &[(String, String)],
) -> Result<(), MatchError> {
    let games_dir = out.join(GAMES_DIR);
    std::fs::create_dir_all(&games_dir).map_err(io(&games_dir))?;
    for result in results {
        if let Some((_, dir)) = by_game.get(&result.game) {
            let from = dir.join(GAMES_DIR).join(&result.record);
            let to = games_dir.join(&result.record);
            crate::files::copy_regular(&from, &to).map_err(super::store::StoreError::from)?;
        }
    }
    let lines: String = results
        .iter()
        .map(|r| format!("{}\n", r.to_line()))
        .collect();
    store::write_atomically(&out.join(RESULTS_FILE), lines.as_bytes())?;
    let logs = out.join(LOGS_DIR);
    std::fs::create_dir_all(&logs).map_err(io(&logs))?;
    for name in names {
        let mut text = Vec::new();
        for shard in shards {
            let path = shard.folder.dir.join(LOGS_DIR).join(format!("{name}.log"));
            if let Ok(bytes) = super::folder::read_bytes(&path) {
                text.extend(bytes);
            }
        }
        store::write_atomically(&logs.join(format!("{name}.log")), &text)?;
    }
    copy_protocol_logs(out, results, by_game)?;
    let sides = folder_sides(settings)?;
    let event = format!("{} vs {}", names[0], names[1]);
    store::write_atomically(
        &out.join(store::PGN_FILE),
        store::pgn(results, &event, &sides).as_bytes(),
    )?;
    super::view::rebuild_match_pages(out).map_err(MatchError::Invalid)?;
    Ok(())
}

/// Each merged game's `--log-protocol` files (one a bot, named by the game, which is the
/// whole match's number in every shard), copied from its shard, so that the merged game's
/// page links them as the shard's did; games without them have none.
fn copy_protocol_logs(
    out: &Path,
    results: &[GameResult],
    by_game: &BTreeMap<usize, (GameResult, &Path)>,
) -> Result<(), MatchError> {
    for result in results {
        let Some((_, dir)) = by_game.get(&result.game) else {
            continue;
        };
        for bot in [&result.first, &result.second] {
            let from = store::protocol_log_path(dir, result.game, bot);
            if !from.is_file() {
                continue;
            }
            let to = store::protocol_log_path(out, result.game, bot);
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent).map_err(io(parent))?;
            }
            crate::files::copy_regular(&from, &to).map_err(super::store::StoreError::from)?;
        }
    }
    Ok(())
}

/// Runs `hamle match merge`: exit 0 when merged, 2 when refused or on a failure to write.
pub fn run_merge_command(args: MatchMergeArgs) -> ExitCode {
    let merged = match merge(&args.out, &args.dirs, args.partial) {
        Ok(merged) => merged,
        Err(error) => {
            eprintln!("hamle match merge: {error}");
            return ExitCode::from(2);
        }
    };
    if !merged.missing_shards.is_empty() {
        let listed: Vec<String> = merged.missing_shards.iter().map(Shard::to_string).collect();
        eprintln!(
            "hamle match merge: --partial: shard {} missing",
            listed.join(", ")
        );
    }
    if merged.missing_pairs > 0 {
        eprintln!(
            "hamle match merge: --partial: {} pairs have a game missing",
            merged.missing_pairs
        );
    }
    if merged.after_verdict > 0 {
        println!(
            "note: the SPRT decided in pair order before {} games the shards played; they are left out, as one run would not have played them",
            merged.after_verdict
        );
    }
    let names = [merged.names[0].as_str(), merged.names[1].as_str()];
    let summary = super::summary::MatchSummary {
        names,
        planned: merged.games,
        dir: &args.out,
        opening_plies: merged.opening_plies,
    };
    summary.print(&merged.results);
    if let Some(spec) = &merged.sprt {
        super::summary::print_sprt(spec, &merged.results, names, merged.missing_pairs);
    }
    ExitCode::SUCCESS
}
