//! `hamle ladder`: a round robin (every bot against every other) or a gauntlet (the first
//! bot against each of the others) among bots of one game, each pairing a `hamle match`
//! kept in its own folder, then maximum-likelihood Elo ratings and a crosstable.
//!
//! ```text
//! OUT/ladder.txt                    the settings (compared on --resume)
//! OUT/pairings/01-a-vs-b/           one match folder a pairing (match.txt, results.tsv, games/…)
//! OUT/ratings.txt                   the rating list and crosstable, rewritten after each pairing
//! OUT/results.pgn                   every rated game of every pairing (Ordo, BayesElo)
//! OUT/.lock                         held by the run (or `report`, `merge`) writing here
//! ```
//!
//! A new ladder takes only an empty or new folder; the folder's lock is held for the whole
//! run (each pairing's match folder has its own), and `report` and `merge` take it too
//! before they write.
//!
//! Every pairing plays with the ladder's seed, so every pairing meets the same pair seeds
//! (the same Kulami layouts, the same Mangala draws), like a fixed opening book. Pairings
//! run in order; `--resume` resumes the pairing folders that exist (each exactly as
//! `hamle match --resume`) and starts the rest.

use std::path::{Path, PathBuf};

use super::bots::Bot;
use super::folder::{FolderKind, FolderLock};
use super::match_play::{MatchError, MatchSettings, run_match};
use super::rating::{Ratings, Tally};
use super::report::{PairingResults, ReportContext, write_summary};
pub use super::report::{RATINGS_FILE, REPORT_FILE};
pub use super::shard::Shard;
use super::shard::{
    ShardFolder, check_same_run, copy_tree, folder_sides, io, settings_lines, take_new_folder,
};
use super::store::{self, GameResult, SETTINGS_FILE, check_settings};
use crate::seed::derive_seed;

/// The ladder's settings file.
pub const LADDER_FILE: &str = "ladder.txt";

/// A ladder folder is one holding its settings file.
const LADDER_FOLDER: FolderKind = FolderKind {
    marker: LADDER_FILE,
    kind: "ladder",
};

/// Who meets whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Every bot against every other.
    RoundRobin,
    /// The first bot against each of the others.
    Gauntlet,
    /// `--rounds` rounds, each pairing bots of similar score, from an alphabetical start.
    // (How: `swiss_round`. No rustdoc link here: clap prints this line in `--help`.)
    Swiss,
}

impl Format {
    fn word(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Gauntlet => "gauntlet",
            Format::Swiss => "swiss",
        }
    }
}

/// The pairings of `count` bots, as (first, second) indexes, in playing order.
pub fn pairings(format: Format, count: usize) -> Vec<(usize, usize)> {
    match format {
        Format::RoundRobin => (0..count)
            .flat_map(|i| (i + 1..count).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet => (1..count).map(|j| (0, j)).collect(),
        // Rounds are paired one at a time, from the results so far.
        Format::Swiss => Vec::new(),
    }
}

/// Seed streams of the Swiss colour draw, apart from the games' own streams.
const SWISS_COLOUR_STREAM: u64 = 1 << 40;

/// One Swiss round: bots ranked by points so far (a bye counts as a won pairing), ties by
/// the order given (the sheet's alphabetical starting order is the caller's); with an odd
/// number, the lowest-ranked bot among those with the fewest byes sits out. Then the
/// pairing closest to the ranking that has no rematch: from the top, each unpaired bot
/// meets the next unpaired one it has not met yet, going back to an earlier choice when
/// that would leave two bots below that have met (as a tournament director does). Only
/// when no such pairing exists (or the search is too long to try) does it pair greedily,
/// meeting the next bot down when every one left was met. Returns the pairings
/// (higher-ranked bot first) and the bye.
pub fn swiss_round(
    points: &[f64],
    byes: &[usize],
    bye_points: f64,
    met: &std::collections::BTreeSet<(usize, usize)>,
) -> (Vec<(usize, usize)>, Option<usize>) {
    let n = points.len();
    let score = |i: usize| points[i] + byes[i] as f64 * bye_points;
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| score(b).total_cmp(&score(a)).then(a.cmp(&b)));
    let mut bye = None;
    if n % 2 == 1 {
        let fewest = byes.iter().copied().min().unwrap_or(0);
        if let Some(position) = order.iter().rposition(|&i| byes[i] == fewest) {
            bye = Some(order.remove(position));
        }
    }
    let have_met = |a: usize, b: usize| met.contains(&(a.min(b), a.max(b)));
    let mut budget = SWISS_SEARCH_STEPS;
    let mut pairs = Vec::new();
    if !pair_fresh(&order, &have_met, &mut budget, &mut pairs) {
        pairs = pair_greedily(order, &have_met);
    }
    (pairs, bye)
}

/// How many steps the search for a pairing without rematches may take: a ladder of a
/// few dozen bots needs far fewer; past it the round is paired greedily.
const SWISS_SEARCH_STEPS: usize = 100_000;

/// Pairs `ranked` (in ranking order) with no two bots that have met, the first such
/// pairing in ranking order; false when there is none within `budget` steps.
fn pair_fresh(
    ranked: &[usize],
    have_met: &impl Fn(usize, usize) -> bool,
    budget: &mut usize,
    pairs: &mut Vec<(usize, usize)>,
) -> bool {
    let Some((&top, rest)) = ranked.split_first() else {
        return true;
    };
    for (index, &other) in rest.iter().enumerate() {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if have_met(top, other) {
            continue;
        }
        let mut left = rest.to_vec();
        left.remove(index);
        pairs.push((top, other));
        if pair_fresh(&left, have_met, budget, pairs) {
            return true;
        }
        pairs.pop();
    }
    false
}

/// From the top, each bot meets the next one it has not met, else the next one down.
fn pair_greedily(
    mut unpaired: Vec<usize>,
    have_met: &impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    while !unpaired.is_empty() {
        let top = unpaired.remove(0);
        let fresh = unpaired.iter().position(|&other| !have_met(top, other));
        let Some(position) = fresh.or(if unpaired.is_empty() { None } else { Some(0) }) else {
            break;
        };
        pairs.push((top, unpaired.remove(position)));
    }
    pairs
}

/// A ladder: the bots, the format, and a match template (game, seed, games a pairing,
/// policies; its bots and folder are replaced per pairing).
pub struct Ladder {
    pub bots: Vec<Bot>,
    pub format: Format,
    pub template: MatchSettings,
    pub anchor: Option<String>,
    pub out_dir: PathBuf,
    /// Swiss rounds (other formats ignore it).
    pub rounds: usize,
    /// Play only this slice of the pairings (not with Swiss pairing).
    pub shard: Option<Shard>,
}

/// The ladder's outcome.
pub struct Standing {
    pub tally: Tally,
    /// The ratings of every bot that has played (`ratings.txt`); `None` when the games
    /// give no common scale ([`super::rating::rate_played`] says why), and then no
    /// `ratings.txt` was written.
    pub ratings: Option<Ratings>,
    pub results: Vec<GameResult>,
}

/// The number of pairings a ladder of `bots` bots plans.
pub fn planned_pairings(format: Format, bots: usize, rounds: usize) -> usize {
    match format {
        Format::Swiss => rounds * (bots / 2),
        _ => pairings(format, bots).len(),
    }
}

impl Ladder {
    fn settings(&self) -> Vec<(String, String)> {
        let mut settings = vec![
            ("format".to_owned(), self.format.word().to_owned()),
            (
                "bots".to_owned(),
                self.bots
                    .iter()
                    .map(|b| b.name.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            ),
        ];
        if self.format == Format::Swiss {
            settings.push(("rounds".to_owned(), self.rounds.to_string()));
        }
        if let Some(shard) = self.shard {
            settings.push(("shard".to_owned(), shard.to_string()));
        }
        // The template's decisive settings, minus the per-pairing bots.
        settings.extend(
            self.template
                .decisive()
                .into_iter()
                .filter(|(key, _)| !key.starts_with("bot")),
        );
        settings.extend(self.own_clocks());
        settings
    }

    /// `time_control.NAME = TC` for each bot with a clock of its own (time odds), as each
    /// pairing's `match.txt` writes it.
    fn own_clocks(&self) -> Vec<(String, String)> {
        let general = self.template.time_control;
        self.bots
            .iter()
            .filter_map(|bot| {
                let own = bot.time_control.filter(|own| *own != general)?;
                Some((format!("time_control.{}", bot.name), own.to_string()))
            })
            .collect()
    }

    fn pairing_dir(&self, number: usize, first: &Bot, second: &Bot) -> PathBuf {
        self.out_dir.join("pairings").join(format!(
            "{:02}-{}-vs-{}",
            number + 1,
            first.name,
            second.name
        ))
    }

    /// Plays (or resumes) every pairing; after each, rewrites the ratings and the PGN and
    /// prints a progress line.
    pub fn run(&self, resume: bool) -> Result<Standing, MatchError> {
        let names: Vec<String> = self.bots.iter().map(|b| b.name.clone()).collect();
        self.check(&names)?;
        for bot in &self.bots {
            bot.launch(&self.template.hamle_exe, None)?;
        }
        let _lock = self.open_folder(resume)?;
        let n = self.bots.len();
        let rounds = if self.format == Format::Swiss {
            self.rounds
        } else {
            1
        };
        let planned = planned_pairings(self.format, n, self.rounds);
        // As the settings file holds them, so that `hamle ladder report` shows the same.
        let settings_list = settings_lines(&store::settings_text(&self.settings()));
        let sides = store::seat_sides(self.template.game.as_ref());
        let context = ReportContext {
            settings: &settings_list,
            planned,
            anchor: self.anchor.as_deref(),
            sides: &sides,
        };
        let mut played = Played::default();
        let mut byes = vec![0usize; n];
        let mut met = std::collections::BTreeSet::new();
        for round in 0..rounds {
            let plan = if self.format == Format::Swiss {
                self.swiss_plan(round, &names, &played.results, &mut byes, &met)
            } else {
                pairings(self.format, n)
            };
            for (i, j) in plan {
                met.insert((i.min(j), i.max(j)));
                if self.shard.is_some_and(|shard| !shard.plays(played.number)) {
                    played.number += 1;
                    continue;
                }
                let settings = self.pairing_settings(played.number, round, (i, j), planned);
                let started = settings.out_dir.join(SETTINGS_FILE).is_file();
                let results = run_match(&settings, resume && started)?;
                played.add(&self.bots[i].name, &self.bots[j].name, results);
                let ratings = write_summary(&self.out_dir, &names, &played.pairings, &context)?;
                played.report(planned, ratings);
            }
        }
        // Games that rate nobody (groups that never met) are no failure: the caller says why.
        let ratings = write_summary(&self.out_dir, &names, &played.pairings, &context)?;
        Ok(Standing {
            tally: super::report::tally_of(&names, &played.pairings),
            ratings,
            results: played.results,
        })
    }

    /// The ladder's own checks: distinct names that are safe file names (they name the
    /// pairings' folders), enough bots, a Swiss ladder unsharded and with rounds, an anchor
    /// among the bots.
    fn check(&self, names: &[String]) -> Result<(), MatchError> {
        for name in names {
            super::bots::check_name(name).map_err(MatchError::Invalid)?;
        }
        for (i, name) in names.iter().enumerate() {
            if let Some(first) = names[..i].iter().position(|n| n == name) {
                let twice = [self.bots[first].clone(), self.bots[i].clone()];
                return Err(MatchError::Invalid(format!(
                    "bot '{name}' is listed twice: results are kept by name, so name them, NAME=BOT or NAME=COMMAND, e.g. {}",
                    super::bots::naming_example(&twice)
                )));
            }
        }
        if self.bots.len() < 2 {
            return Err(MatchError::Invalid(
                "a ladder needs at least two bots".to_owned(),
            ));
        }
        if self.format == Format::Swiss && self.shard.is_some() {
            return Err(MatchError::Invalid(
                "a Swiss ladder cannot be sharded: each round is paired from the results of the rounds before".to_owned(),
            ));
        }
        if self.format == Format::Swiss && self.rounds == 0 {
            return Err(MatchError::Invalid(
                "a Swiss ladder needs at least one round".to_owned(),
            ));
        }
        if let Some(anchor) = &self.anchor
            && !names.contains(anchor)
        {
            return Err(MatchError::Invalid(format!(
                "--anchor '{anchor}' is not one of the bots ({})",
                names.join(", ")
            )));
        }
        Ok(())
    }

    /// Takes the folder's lock (held by the value returned); then a new ladder writes its
    /// settings file into an empty or new folder, a resumed one must find it, unchanged.
    fn open_folder(&self, resume: bool) -> Result<FolderLock, MatchError> {
        let path = self.out_dir.join(LADDER_FILE);
        if resume {
            if let Some(in_use) = super::folder::in_use(&self.out_dir) {
                return Err(in_use.into());
            }
            if !path.is_file() {
                return Err(MatchError::Invalid(format!(
                    "{} holds no ladder to resume ({LADDER_FILE} is missing)",
                    self.out_dir.display()
                )));
            }
            let lock = FolderLock::take(&self.out_dir)?;
            check_settings(&self.out_dir, &path, &self.settings())?;
            Ok(lock)
        } else {
            take_new_folder(
                &self.out_dir,
                LADDER_FOLDER,
                &store::settings_text(&self.settings()),
            )
        }
    }

    /// Swiss round `round`'s pairings from the results so far, colours drawn from the seed;
    /// prints them and the bye, and counts the bye.
    fn swiss_plan(
        &self,
        round: usize,
        names: &[String],
        results: &[GameResult],
        byes: &mut [usize],
        met: &std::collections::BTreeSet<(usize, usize)>,
    ) -> Vec<(usize, usize)> {
        let n = self.bots.len();
        let mut tally = Tally::new(names);
        tally.add_results(results);
        let points: Vec<f64> = (0..n).map(|i| tally.total_points(i)).collect();
        let bye_points = self.template.games as f64;
        let (plan, bye) = swiss_round(&points, byes, bye_points, met);
        // The sheet draws colours; the seed makes the draw reproducible. The bot
        // listed first (on the left) plays first: black.
        let plan: Vec<(usize, usize)> = plan
            .into_iter()
            .enumerate()
            .map(|(k, (i, j))| {
                let stream = SWISS_COLOUR_STREAM + (round * n + k) as u64;
                if derive_seed(self.template.seed, stream) & 1 == 1 {
                    (j, i)
                } else {
                    (i, j)
                }
            })
            .collect();
        let listing: Vec<String> = plan
            .iter()
            .map(|&(i, j)| format!("{} - {}", names[i], names[j]))
            .collect();
        println!(
            "ladder: round {} pairings: {}",
            round + 1,
            listing.join(", ")
        );
        if let Some(bye) = bye {
            byes[bye] += 1;
            println!("ladder: round {}: {} has a bye", round + 1, names[bye]);
        }
        plan
    }

    /// The match template for pairing `number` (from 0): its bots, its folder, its label.
    fn pairing_settings(
        &self,
        number: usize,
        round: usize,
        (i, j): (usize, usize),
        planned: usize,
    ) -> MatchSettings {
        let mut settings = self.template.clone();
        settings.bots = [self.bots[i].clone(), self.bots[j].clone()];
        settings.out_dir = self.pairing_dir(number, &self.bots[i], &self.bots[j]);
        let round_label = if self.format == Format::Swiss {
            format!("round {} ", round + 1)
        } else {
            String::new()
        };
        settings.label = format!(
            "[{round_label}{}/{planned} {} vs {}] ",
            number + 1,
            self.bots[i].name,
            self.bots[j].name
        );
        settings
    }
}

/// What a ladder run has played so far.
#[derive(Default)]
struct Played {
    /// Every game of the pairings played, in pairing order.
    results: Vec<GameResult>,
    pairings: Vec<PairingResults>,
    /// Pairings passed so far, played or (another shard's) skipped.
    number: usize,
}

impl Played {
    /// A pairing played.
    fn add(&mut self, first: &str, second: &str, results: Vec<GameResult>) {
        self.pairings
            .push(PairingResults::new(first, second, results.clone()));
        self.results.extend(results);
        self.number += 1;
    }

    /// The progress line after a pairing.
    fn report(&self, planned: usize, ratings: Option<Ratings>) {
        let line = format!(
            "ladder: pairing {}/{planned} done, {} games",
            self.number,
            self.results.len()
        );
        // Ratings need the bots that played to be linked by games; until then, the games only.
        match ratings {
            Some(ratings) => {
                let leader = &ratings.ratings[0];
                println!(
                    "{line}; leader {} {:+.0} ±{:.0}",
                    leader.name, leader.elo, leader.error
                );
            }
            None => println!("{line}"),
        }
    }
}

/// A ladder folder read back: its settings file's lines, bots and pairings in order.
pub struct LadderFolder {
    pub settings: Vec<(String, String)>,
    pub names: Vec<String>,
    pub planned: usize,
    /// (folder name, results) in pairing order.
    pub pairings: Vec<(String, PairingResults)>,
}

/// Reads a ladder folder (`ladder.txt` and every pairing folder's results).
pub fn read_ladder(dir: &Path) -> Result<LadderFolder, MatchError> {
    let path = dir.join(LADDER_FILE);
    let text = super::folder::read_text(&path).map_err(io(&path))?;
    let settings = settings_lines(&text);
    let get = |key: &str| {
        settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let names: Vec<String> = get("bots")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    if names.len() < 2 {
        return Err(MatchError::Invalid(format!(
            "{}: no bots listed",
            path.display()
        )));
    }
    let format = match get("format").as_deref() {
        Some("gauntlet") => Format::Gauntlet,
        Some("swiss") => Format::Swiss,
        _ => Format::RoundRobin,
    };
    let rounds = get("rounds").and_then(|r| r.parse().ok()).unwrap_or(0);
    let planned = planned_pairings(format, names.len(), rounds);
    let mut folders: Vec<(usize, String)> = Vec::new();
    let pairings_dir = dir.join("pairings");
    if pairings_dir.is_dir() {
        for entry in std::fs::read_dir(&pairings_dir).map_err(io(&pairings_dir))? {
            let entry = entry.map_err(io(&pairings_dir))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let number = name.split('-').next().and_then(|n| n.parse::<usize>().ok());
            if let Some(number) = number
                && entry.path().join(SETTINGS_FILE).is_file()
            {
                folders.push((number, name));
            }
        }
    }
    folders.sort();
    let mut pairings = Vec::new();
    for (_, folder) in folders {
        let match_dir = pairings_dir.join(&folder);
        let match_path = match_dir.join(SETTINGS_FILE);
        let match_text = super::folder::read_text(&match_path).map_err(io(&match_path))?;
        let match_settings = settings_lines(&match_text);
        let bot = |key: &str| {
            match_settings
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
                .unwrap_or_default()
        };
        let results_path = match_dir.join(store::RESULTS_FILE);
        let results = if results_path.is_file() {
            store::read_results(&results_path)?
        } else {
            Vec::new()
        };
        pairings.push((
            folder,
            PairingResults::new(&bot("bot1.name"), &bot("bot2.name"), results),
        ));
    }
    Ok(LadderFolder {
        settings,
        names,
        planned,
        pairings,
    })
}

/// `hamle ladder report DIR`: rewrites the ladder folder's ratings, PGN and `report.html`
/// from its pairing folders, under the folder's lock (not while a run writes there).
pub fn regenerate(dir: &Path, anchor: Option<&str>) -> Result<Standing, MatchError> {
    let path = dir.join(LADDER_FILE);
    if !path.is_file() {
        return Err(MatchError::Invalid(format!(
            "{} holds no ladder ({LADDER_FILE} is missing)",
            dir.display()
        )));
    }
    let _lock = FolderLock::take(dir)?;
    let folder = read_ladder(dir)?;
    super::view::rebuild_ladder_pages(dir).map_err(MatchError::Invalid)?;
    summarize(dir, &folder, anchor)
}

fn summarize(
    dir: &Path,
    folder: &LadderFolder,
    anchor: Option<&str>,
) -> Result<Standing, MatchError> {
    if let Some(anchor) = anchor
        && !folder.names.iter().any(|n| n == anchor)
    {
        return Err(MatchError::Invalid(format!(
            "--anchor '{anchor}' is not one of the bots ({})",
            folder.names.join(", ")
        )));
    }
    let pairings: Vec<PairingResults> = folder.pairings.iter().map(|(_, p)| p.clone()).collect();
    let sides = folder_sides(&folder.settings)?;
    let context = ReportContext {
        settings: &folder.settings,
        planned: folder.planned,
        anchor,
        sides: &sides,
    };
    let ratings = write_summary(dir, &folder.names, &pairings, &context)?;
    Ok(Standing {
        tally: super::report::tally_of(&folder.names, &pairings),
        ratings,
        results: pairings.into_iter().flat_map(|p| p.results).collect(),
    })
}

/// `hamle ladder merge OUT DIR…`: combines ladder folders (the shards of one ladder) into
/// `out`, which must be new or empty (and is locked while written): their settings must
/// agree but for `shard`, and no pairing may be in two of them. Writes the settings
/// (without `shard`), copies every pairing folder, then the ratings, PGN and report as the
/// ladder itself would. Returns the standing and the numbers (from 1) of planned pairings
/// that no folder holds.
pub fn merge(
    out: &Path,
    dirs: &[PathBuf],
    anchor: Option<&str>,
) -> Result<(Standing, Vec<usize>), MatchError> {
    if dirs.is_empty() {
        return Err(MatchError::Invalid(
            "nothing to merge: give the ladder folders".to_owned(),
        ));
    }
    let mut shards = Vec::new();
    for dir in dirs {
        shards.push(ShardFolder::read(dir, LADDER_FOLDER)?);
    }
    check_same_run(&shards, LADDER_FOLDER)?;
    let reference = shards[0].shared_settings();
    let mut folders = Vec::new();
    for dir in dirs {
        folders.push(read_ladder(dir)?);
    }
    let mut seen = std::collections::BTreeMap::new();
    for (dir, folder) in dirs.iter().zip(&folders) {
        for (name, _) in &folder.pairings {
            if let Some(before) = seen.insert(name.clone(), dir.clone()) {
                return Err(MatchError::Invalid(format!(
                    "pairing {name} is in both {} and {}",
                    before.display(),
                    dir.display()
                )));
            }
        }
    }
    let _lock = take_new_folder(out, LADDER_FOLDER, &store::settings_text(&reference))?;
    for (dir, folder) in dirs.iter().zip(&folders) {
        for (name, _) in &folder.pairings {
            copy_tree(
                &dir.join("pairings").join(name),
                &out.join("pairings").join(name),
            )?;
        }
    }
    let merged = read_ladder(out)?;
    let present: std::collections::BTreeSet<usize> = merged
        .pairings
        .iter()
        .filter_map(|(name, _)| name.split('-').next()?.parse().ok())
        .collect();
    let missing = (1..=merged.planned)
        .filter(|k| !present.contains(k))
        .collect();
    let standing = summarize(out, &merged, anchor)?;
    Ok((standing, missing))
}

/// The ladder folder's ratings file, for messages.
pub fn ratings_path(dir: &Path) -> PathBuf {
    dir.join(RATINGS_FILE)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_cover_every_meeting_once() {
        assert_eq!(
            pairings(Format::RoundRobin, 4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!(pairings(Format::Gauntlet, 4), [(0, 1), (0, 2), (0, 3)]);
        assert!(pairings(Format::RoundRobin, 1).is_empty());
    }

    #[test]
    fn swiss_pairs_by_score_avoids_rematches_and_rotates_byes() {
        use std::collections::BTreeSet;
        // Round 1: no points, the given order: 0-1, 2-3, and 4 (last) sits out.
        let none = BTreeSet::new();
        let (plan, bye) = swiss_round(&[0.0; 5], &[0; 5], 2.0, &none);
        assert_eq!((plan, bye), (vec![(0, 1), (2, 3)], Some(4)));
        // Round 2: 0 and 2 won, 4 had a bye worth a won pairing (2 points): 0, 2, 4 lead.
        let met: BTreeSet<(usize, usize)> = [(0, 1), (2, 3)].into_iter().collect();
        let points = [2.0, 0.0, 2.0, 0.0, 0.0];
        let (plan, bye) = swiss_round(&points, &[0, 0, 0, 0, 1], 2.0, &met);
        // Ranking 0, 2, 4, 1, 3; the bye goes to the lowest without one (3).
        assert_eq!(bye, Some(3));
        assert_eq!(plan, vec![(0, 2), (4, 1)]);
        // Greedy would pair 0-1 and leave 2-3, who have met; going back gives 0-2, 1-3.
        let met: BTreeSet<(usize, usize)> = [(2, 3), (0, 3)].into_iter().collect();
        let (plan, _) = swiss_round(&[3.0, 2.0, 1.0, 0.0], &[0; 4], 2.0, &met);
        assert_eq!(plan, vec![(0, 2), (1, 3)]);
        // Everyone met everyone: the next bot down, a rematch.
        let all: BTreeSet<(usize, usize)> = [(0, 1)].into_iter().collect();
        assert_eq!(swiss_round(&[1.0, 1.0], &[0, 0], 2.0, &all).0, vec![(0, 1)]);
    }
}
