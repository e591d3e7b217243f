//! The standings of a match: wins per bot, draws, voids, how the complete pairs went, and
//! which pairs replayed an earlier one move for move.

use std::collections::BTreeMap;
use std::path::Path;

use crate::arena::store::{GameResult, Winner};

/// The standings after a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    /// Wins per bot name.
    pub wins: BTreeMap<String, usize>,
    pub draws: usize,
    pub voids: usize,
    /// Complete pairs: won by bot 1 (both games or one and a draw), split, won by bot 2.
    pub pairs: [usize; 3],
}

impl Standings {
    pub fn of(results: &[GameResult], bots: [&str; 2]) -> Standings {
        let mut standings = Standings::default();
        for bot in bots {
            standings.wins.insert(bot.to_owned(), 0);
        }
        let mut by_game: BTreeMap<usize, &GameResult> = BTreeMap::new();
        for result in results {
            by_game.insert(result.game, result);
            match result.winner_name() {
                Some(name) => *standings.wins.entry(name.to_owned()).or_insert(0) += 1,
                None if result.winner == Winner::Draw => standings.draws += 1,
                None => standings.voids += 1,
            }
        }
        let points = |result: &GameResult, bot: &str| -> Option<f64> {
            match result.winner {
                Winner::Void => None,
                Winner::Draw => Some(0.5),
                _ => Some(if result.winner_name() == Some(bot) {
                    1.0
                } else {
                    0.0
                }),
            }
        };
        for (&game, &even) in by_game.iter().filter(|(g, _)| g.is_multiple_of(2)) {
            let Some(odd) = by_game.get(&(game + 1)) else {
                continue;
            };
            if let (Some(a), Some(b)) = (points(even, bots[0]), points(odd, bots[0])) {
                let total = a + b;
                let slot = if total > 1.0 {
                    0
                } else if total < 1.0 {
                    2
                } else {
                    1
                };
                standings.pairs[slot] += 1;
            }
        }
        standings
    }
}

/// Pairs that repeat earlier ones: deterministic engines at fixed budgets play the same game
/// from the same start, so pairs differ only by what their seed changes (Kulami's layout,
/// Mangala's draw, the engines' seeds when they use them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repeats {
    /// Games whose records differ, of the complete pairs' games.
    pub distinct: usize,
    pub games: usize,
    /// (pair, the earlier pair it replayed), from 1.
    pub pairs: Vec<(usize, usize)>,
}

/// Compares the records in `games_dir` of the complete pairs of `results`, leaving out the
/// lines that name the game, its seed and the reason (those holding `hamle match game `)
/// and each move's time.
pub fn repeats(games_dir: &Path, results: &[GameResult]) -> Repeats {
    let by_game: BTreeMap<usize, &GameResult> = results.iter().map(|r| (r.game, r)).collect();
    let body = |result: &GameResult| -> Option<String> {
        let text = crate::arena::folder::read_text(&games_dir.join(&result.record)).ok()?;
        // Each move's time is the machine's: two plays of the same moves differ in it.
        let text = crate::contract::record::without_move_times(&text);
        let kept: Vec<&str> = text
            .lines()
            .filter(|line| !line.contains("hamle match game "))
            .collect();
        Some(kept.join("\n"))
    };
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut distinct = std::collections::BTreeSet::new();
    let mut repeats = Repeats::default();
    for (&game, &even) in by_game.iter().filter(|(g, _)| g.is_multiple_of(2)) {
        let Some(&odd) = by_game.get(&(game + 1)) else {
            continue;
        };
        let (Some(a), Some(b)) = (body(even), body(odd)) else {
            continue;
        };
        let pair = game / 2 + 1;
        repeats.games += 2;
        distinct.insert(a.clone());
        distinct.insert(b.clone());
        match seen.get(&(a.clone(), b.clone())) {
            Some(&earlier) => repeats.pairs.push((pair, earlier)),
            None => {
                seen.insert((a, b), pair);
            }
        }
    }
    repeats.distinct = distinct.len();
    repeats
}
