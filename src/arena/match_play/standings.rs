//! The standings of a match: wins per bot, draws, voids, and how the complete pairs went.

use std::collections::BTreeMap;

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
