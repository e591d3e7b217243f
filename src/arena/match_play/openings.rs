//! Opening suites (`--openings FILE|default`, `--openings-order sequential|random`): each
//! pair of games starts from one opening of the suite, both games alike, colours swapped.
//!
//! The suite is read through the game (`GameSettings::split_openings`), and every opening
//! is checked by the game's rules before anything is written: an opening the rules refuse
//! is named `FILE:LINE: what is wrong`. `match.txt` keeps the whole suite (`opening.K`
//! lines after the file's name, order and count), so `--resume` refuses another suite
//! naming the openings that differ, and a match folder alone says which opening each pair
//! played ([`OpeningSuite::from_settings`]).

use std::path::Path;

use crate::contract::{GameSettings, Referee};
use crate::seed::derive_seed;

/// The largest suite file read: far beyond any suite, small enough to hold in memory.
pub const MAX_SUITE_BYTES: u64 = 8 << 20;

/// "openings" in ASCII: the random order's stream of the match seed.
const ORDER_STREAM: u64 = 0x6f70_656e_696e_6773;

/// Which opening pair k takes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OpeningsOrder {
    /// Pair k takes opening k mod n, in the file's order.
    Sequential,
    /// Each round of n pairs takes every opening once, in an order shuffled from the
    /// match seed and the round.
    Random,
}

impl OpeningsOrder {
    pub fn word(self) -> &'static str {
        match self {
            OpeningsOrder::Sequential => "sequential",
            OpeningsOrder::Random => "random",
        }
    }
}

/// One opening of a suite: its line in the file (from 1) and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteOpening {
    pub line: usize,
    pub text: String,
}

/// A suite, read and checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningSuite {
    /// The file's name (without its folder), or `default` for the game's built-in suite.
    pub name: String,
    pub order: OpeningsOrder,
    pub openings: Vec<SuiteOpening>,
}

impl OpeningSuite {
    /// Reads `spec` (a file, or `default`: the game's built-in suite) and checks every
    /// opening under the rules; errors are `FILE:LINE: what is wrong`.
    pub fn load(
        spec: &Path,
        order: OpeningsOrder,
        game: &dyn GameSettings,
    ) -> Result<OpeningSuite, String> {
        let (name, text) = if spec.as_os_str() == "default" {
            let text = game.default_openings();
            if text.trim().is_empty() {
                return Err(format!(
                    "--openings default: {} has no built-in suite",
                    game.game()
                ));
            }
            ("default".to_owned(), text.to_owned())
        } else {
            let text = crate::files::read_capped_to_string(spec, MAX_SUITE_BYTES)
                .map_err(|error| format!("--openings {error}"))?;
            let name = spec.file_name().map_or_else(
                || spec.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            (name, text)
        };
        let shown = spec.display();
        let openings: Vec<SuiteOpening> = game
            .split_openings(&text)
            .map_err(|(line, why)| format!("{shown}:{line}: {why}"))?
            .into_iter()
            .map(|(line, text)| SuiteOpening { line, text })
            .collect();
        if openings.is_empty() {
            return Err(format!(
                "{shown}: no openings (blank lines and '#' comments only)"
            ));
        }
        for opening in &openings {
            game.opening_referee(&opening.text, 0)
                .map_err(|why| format!("{shown}:{}: {why}", opening.line))?;
        }
        Ok(OpeningSuite {
            name,
            order,
            openings,
        })
    }

    /// Checks the opening of every pair of a match of `pairs` pairs under its own pair
    /// seed (what a game may share with its pair, such as Mangala's draw), so that no game
    /// meets a refusal once the match runs.
    pub fn check_pairs(
        &self,
        shown: &Path,
        game: &dyn GameSettings,
        seed: u64,
        pairs: usize,
    ) -> Result<(), String> {
        for pair in 0..pairs as u64 {
            let opening = self.for_pair(seed, pair);
            game.opening_referee(&opening.text, super::pair_seed(seed, pair))
                .map_err(|why| {
                    format!(
                        "{}:{}: {why} (in pair {})",
                        shown.display(),
                        opening.line,
                        pair + 1
                    )
                })?;
        }
        Ok(())
    }

    /// The index (in the file's order) of pair `pair`'s opening.
    pub fn index_for_pair(&self, seed: u64, pair: u64) -> usize {
        let n = self.openings.len() as u64;
        match self.order {
            OpeningsOrder::Sequential => (pair % n) as usize,
            OpeningsOrder::Random => {
                let round = derive_seed(derive_seed(seed, ORDER_STREAM), pair / n);
                shuffled(self.openings.len(), round)[(pair % n) as usize]
            }
        }
    }

    pub fn for_pair(&self, seed: u64, pair: u64) -> &SuiteOpening {
        &self.openings[self.index_for_pair(seed, pair)]
    }

    /// What `match.txt` keeps: the name, the order, the count and every opening.
    pub fn decisive(&self) -> Vec<(String, String)> {
        let mut settings = vec![
            ("openings".to_owned(), self.name.clone()),
            ("openings_order".to_owned(), self.order.word().to_owned()),
            ("openings_count".to_owned(), self.openings.len().to_string()),
        ];
        settings.extend(self.openings.iter().enumerate().map(|(index, opening)| {
            (
                format!("opening.{}", index + 1),
                format!("{}: {}", opening.line, opening.text),
            )
        }));
        settings
    }

    /// The suite a match folder's settings (`match.txt`'s lines) keep, or `None` when the
    /// match has none; for tools that replay a match from its folder alone.
    pub fn from_settings(settings: &[(String, String)]) -> Result<Option<OpeningSuite>, String> {
        let find = |key: &str| settings.iter().find(|(k, _)| k == key).map(|(_, v)| v);
        let Some(name) = find("openings") else {
            return Ok(None);
        };
        let order = match find("openings_order").map(String::as_str) {
            Some("random") => OpeningsOrder::Random,
            Some("sequential") | None => OpeningsOrder::Sequential,
            Some(other) => return Err(format!("openings_order = '{other}' is no order")),
        };
        let count: usize = find("openings_count")
            .and_then(|count| count.parse().ok())
            .ok_or("openings_count is missing or not a number")?;
        let mut openings = Vec::new();
        for index in 1..=count {
            let key = format!("opening.{index}");
            let value = find(&key).ok_or_else(|| format!("{key} is missing"))?;
            let (line, text) = value
                .split_once(": ")
                .and_then(|(line, text)| Some((line.parse().ok()?, text)))
                .ok_or_else(|| format!("{key} = '{value}' is not 'LINE: OPENING'"))?;
            openings.push(SuiteOpening {
                line,
                text: text.to_owned(),
            });
        }
        if openings.is_empty() {
            return Err("openings_count is 0".to_owned());
        }
        Ok(Some(OpeningSuite {
            name: name.clone(),
            order,
            openings,
        }))
    }

    /// The referee of pair `pair`'s games, from its opening. Every pair's opening was
    /// checked before the match ([`OpeningSuite::check_pairs`]), so a refusal here is a
    /// bug: it is said on stderr and the game starts from the game's own start.
    pub fn referee(&self, game: &dyn GameSettings, seed: u64, pair: u64) -> Box<dyn Referee> {
        let pair_seed = super::pair_seed(seed, pair);
        let opening = self.for_pair(seed, pair);
        game.opening_referee(&opening.text, pair_seed)
            .unwrap_or_else(|why| {
                eprintln!(
                    "hamle: bug: opening {} of {} (line {}), checked before the match, is refused now: {why}",
                    self.index_for_pair(seed, pair) + 1,
                    self.name,
                    opening.line
                );
                game.referee(pair_seed)
            })
    }

    /// What a game record's comment says of pair `pair`'s opening.
    pub fn note(&self, seed: u64, pair: u64) -> String {
        let index = self.index_for_pair(seed, pair);
        let opening = &self.openings[index];
        format!(
            "; opening {} of {} (line {}, --openings-order {}): {}",
            index + 1,
            self.name,
            opening.line,
            self.order.word(),
            opening.text
        )
    }
}

/// 0..n in an order shuffled by `seed` (Fisher-Yates, SplitMix64 draws).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (derive_seed(seed, i as u64) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn suite(order: OpeningsOrder, n: usize) -> OpeningSuite {
        OpeningSuite {
            name: "s.txt".to_owned(),
            order,
            openings: (0..n)
                .map(|i| SuiteOpening {
                    line: i + 1,
                    text: format!("o{i}"),
                })
                .collect(),
        }
    }

    #[test]
    fn sequential_cycles_and_random_takes_each_once_a_round() {
        let seq = suite(OpeningsOrder::Sequential, 3);
        let picks: Vec<usize> = (0..7).map(|k| seq.index_for_pair(9, k)).collect();
        assert_eq!(picks, [0, 1, 2, 0, 1, 2, 0]);
        let random = suite(OpeningsOrder::Random, 10);
        let mut round: Vec<usize> = (0..10).map(|k| random.index_for_pair(5, k)).collect();
        assert_ne!(round, (0..10).collect::<Vec<_>>(), "shuffled");
        let again: Vec<usize> = (0..10).map(|k| random.index_for_pair(5, k)).collect();
        assert_eq!(round, again, "deterministic");
        let other: Vec<usize> = (0..10).map(|k| random.index_for_pair(6, k)).collect();
        assert_ne!(round, other, "another seed, another order");
        round.sort_unstable();
        assert_eq!(round, (0..10).collect::<Vec<_>>(), "each once");
    }

    #[test]
    fn settings_round_trip() {
        let suite = suite(OpeningsOrder::Random, 4);
        let kept = OpeningSuite::from_settings(&suite.decisive()).expect("reads");
        assert_eq!(kept, Some(suite));
        assert_eq!(OpeningSuite::from_settings(&[]), Ok(None));
    }
}
