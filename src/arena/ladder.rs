//! `hamle ladder`: a round robin (every bot against every other) or a gauntlet (the first
//! bot against each of the others) among bots of one game, each pairing a `hamle match`
//! kept in its own folder, then maximum-likelihood Elo ratings and a crosstable.
//!
//! ```text
//! OUT/ladder.txt                    the settings (compared on --resume)
//! OUT/pairings/01-a-vs-b/           one match folder a pairing (match.txt, results.tsv, games/…)
//! OUT/ratings.txt                   the rating list and crosstable, rewritten after each pairing
//! OUT/results.pgn                   every rated game of every pairing (Ordo, BayesElo)
//! ```
//!
//! Every pairing plays with the ladder's seed, so every pairing meets the same pair seeds
//! (the same Kulami layouts, the same Mangala draws), like a fixed opening book. Pairings
//! run in order; `--resume` resumes the pairing folders that exist (each exactly as
//! `hamle match --resume`) and starts the rest.

use std::path::{Path, PathBuf};

use super::bots::Bot;
use super::match_play::{MatchError, MatchSettings, run_match};
use super::rating::{Ratings, Tally, rate, report};
use super::store::{
    self, GameResult, PGN_FILE, SETTINGS_FILE, StoreError, check_settings, write_atomically,
};

/// The ladder's settings file.
pub const LADDER_FILE: &str = "ladder.txt";
pub const RATINGS_FILE: &str = "ratings.txt";

/// Who meets whom.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Every bot against every other.
    RoundRobin,
    /// The first bot against each of the others.
    Gauntlet,
    /// `--rounds` rounds; each pairs bots of similar score (see [`swiss_round`]).
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

/// One Swiss round: bots ranked by points so far (a bye counts as a won pairing), ties by
/// the order given (the sheet's alphabetical starting order is the caller's); with an odd
/// number, the lowest-ranked bot among those with the fewest byes sits out. Then from the
/// top, each unpaired bot meets the next unpaired one it has not met yet (or, when it has
/// met them all, the next one). Returns the pairings (higher-ranked bot first) and the bye.
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
    let mut pairs = Vec::new();
    let mut unpaired = order;
    while !unpaired.is_empty() {
        let top = unpaired.remove(0);
        let fresh = unpaired
            .iter()
            .position(|&other| !met.contains(&(top.min(other), top.max(other))));
        let Some(position) = fresh.or(if unpaired.is_empty() { None } else { Some(0) }) else {
            break;
        };
        pairs.push((top, unpaired.remove(position)));
    }
    (pairs, bye)
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
}

/// The ladder's outcome.
pub struct Standing {
    pub tally: Tally,
    pub ratings: Ratings,
    pub results: Vec<GameResult>,
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
        // The template's decisive settings, minus the per-pairing bots.
        settings.extend(
            self.template
                .decisive()
                .into_iter()
                .filter(|(key, _)| !key.starts_with("bot")),
        );
        settings
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
        for (i, name) in names.iter().enumerate() {
            if names[..i].contains(name) {
                return Err(MatchError::Invalid(format!(
                    "bot '{name}' is listed twice: results are kept by name"
                )));
            }
        }
        if self.bots.len() < 2 {
            return Err(MatchError::Invalid(
                "a ladder needs at least two bots".to_owned(),
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
        for bot in &self.bots {
            bot.launch(&self.template.hamle_exe, None)?;
        }
        let path = self.out_dir.join(LADDER_FILE);
        if resume {
            if !path.is_file() {
                return Err(MatchError::Invalid(format!(
                    "{} holds no ladder to resume ({LADDER_FILE} is missing)",
                    self.out_dir.display()
                )));
            }
            check_settings(&self.out_dir, &path, &self.settings())?;
        } else {
            if path.exists() {
                return Err(MatchError::Store(StoreError::Exists {
                    dir: self.out_dir.clone(),
                }));
            }
            std::fs::create_dir_all(&self.out_dir).map_err(|source| StoreError::Io {
                path: self.out_dir.clone(),
                source,
            })?;
            write_atomically(&path, store::settings_text(&self.settings()).as_bytes())?;
        }
        let n = self.bots.len();
        let (rounds, planned) = match self.format {
            Format::Swiss => (self.rounds, self.rounds * (n / 2)),
            _ => (1, pairings(self.format, n).len()),
        };
        let mut results: Vec<GameResult> = Vec::new();
        let mut pgn = String::new();
        let mut number = 0;
        let mut byes = vec![0usize; n];
        let mut met = std::collections::BTreeSet::new();
        for round in 0..rounds {
            let plan = if self.format == Format::Swiss {
                let mut tally = Tally::new(&names);
                tally.add_results(&results);
                let points: Vec<f64> = (0..n).map(|i| tally.total_points(i)).collect();
                let bye_points = self.template.games as f64;
                let (plan, bye) = swiss_round(&points, &byes, bye_points, &met);
                if let Some(bye) = bye {
                    byes[bye] += 1;
                    println!("ladder: round {}: {} has a bye", round + 1, names[bye]);
                }
                plan
            } else {
                pairings(self.format, n)
            };
            for (i, j) in plan {
                met.insert((i.min(j), i.max(j)));
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
                let started = settings.out_dir.join(SETTINGS_FILE).is_file();
                let played = run_match(&settings, resume && started)?;
                pgn.push_str(&store::pgn(
                    &played,
                    &format!(
                        "hamle ladder: {} vs {}",
                        self.bots[i].name, self.bots[j].name
                    ),
                ));
                results.extend(played);
                number += 1;
                let mut tally = Tally::new(&names);
                tally.add_results(&results);
                let played_bots = (0..n).filter(|&b| tally.total_games(b) > 0.0);
                let line = format!(
                    "ladder: pairing {number}/{planned} done, {} games",
                    results.len()
                );
                // Ratings need every bot to have played; until then, report the games only.
                if played_bots.count() == n
                    && let Ok(ratings) = rate(&tally, self.anchor.as_deref())
                {
                    let leader = &ratings.ratings[0];
                    println!(
                        "{line}; leader {} {:+.0} ±{:.0}",
                        leader.name, leader.elo, leader.error
                    );
                    write_atomically(
                        &self.out_dir.join(RATINGS_FILE),
                        report(&tally, &ratings).as_bytes(),
                    )?;
                } else {
                    println!("{line}");
                }
                write_atomically(&self.out_dir.join(PGN_FILE), pgn.as_bytes())?;
            }
        }
        let mut tally = Tally::new(&names);
        tally.add_results(&results);
        let ratings = rate(&tally, self.anchor.as_deref())
            .map_err(|e| MatchError::Invalid(format!("no ratings: {e}")))?;
        Ok(Standing {
            tally,
            ratings,
            results,
        })
    }
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
        // Everyone met everyone: the next bot down, a rematch.
        let all: BTreeSet<(usize, usize)> = [(0, 1)].into_iter().collect();
        assert_eq!(swiss_round(&[1.0, 1.0], &[0, 0], 2.0, &all).0, vec![(0, 1)]);
    }
}
