//! What a match prints when it ends, after a run or a merge of its shards: the thinking
//! line (each bot's mean time a move), the standings line (with the note on pairs that
//! replayed earlier ones) and the SPRT line.

use std::path::Path;

use super::match_play::{Standings, repeats};
use super::sprt::{self, SprtSpec, SprtStatus};
use super::store::{GAMES_DIR, GameResult, Thinking};

/// The standings line of a match (and the note on replayed pairs) after a run or a merge.
pub struct MatchSummary<'a> {
    pub names: [&'a str; 2],
    /// The games the run plays (a shard's, or the match's).
    pub planned: usize,
    pub dir: &'a Path,
    pub opening_plies: usize,
}

impl MatchSummary<'_> {
    pub fn print(&self, results: &[GameResult]) {
        let names = self.names;
        // Before the standings, which stay the last line of a match without an SPRT.
        if let Some(line) = thinking_line(results, &names) {
            println!("{line}");
        }
        let standings = Standings::of(results, names);
        let wins = |name: &str| standings.wins.get(name).copied().unwrap_or(0);
        println!(
            "{} {} - {} {} (draws {}, void {}); pairs won {} / split {} / lost {}; {} of {} games in {}",
            names[0],
            wins(names[0]),
            wins(names[1]),
            names[1],
            standings.draws,
            standings.voids,
            standings.pairs[0],
            standings.pairs[1],
            standings.pairs[2],
            results.len(),
            self.planned,
            self.dir.display()
        );
        let repeated = repeats(&self.dir.join(GAMES_DIR), results);
        if !repeated.pairs.is_empty() {
            let listed: Vec<String> = repeated
                .pairs
                .iter()
                .map(|(pair, earlier)| format!("{pair} = {earlier}"))
                .collect();
            let advice = if self.opening_plies == 0 {
                "; --opening-plies N starts each pair with N random moves drawn from its seed"
            } else {
                ""
            };
            println!(
                "note: pairs replayed earlier ones move for move ({}: records equal but for the comment), so only {} of {} game records differ, as engines that play the same game from the same start do{advice}",
                listed.join(", "),
                repeated.distinct,
                repeated.games
            );
        }
    }
}

/// `thinking: A 0.612 s a move (2,140 moves), B 0.301 s a move (2,098 moves)`: each bot's
/// move requests answered and their mean time, over the games whose lines keep them (void
/// ones too: the time was spent); `None` when no line does (a match of older builds). A
/// match names its two bots, a ladder all of them.
pub fn thinking_line(results: &[GameResult], names: &[&str]) -> Option<String> {
    let mut totals = vec![None::<Thinking>; names.len()];
    for result in results {
        for (player, thinking) in [&result.first, &result.second].iter().zip(result.thinking) {
            let (Some(bot), Some(thinking)) = (names.iter().position(|n| n == player), thinking)
            else {
                continue;
            };
            let total = totals[bot].get_or_insert_default();
            total.asked = total.asked.saturating_add(thinking.asked);
            total.millis = total.millis.saturating_add(thinking.millis);
        }
    }
    if totals.iter().all(Option::is_none) {
        return None;
    }
    let parts: Vec<String> = names
        .iter()
        .zip(&totals)
        .map(|(name, total)| mean_text(name, total.unwrap_or_default()))
        .collect();
    Some(format!("thinking: {}", parts.join(", ")))
}

/// `A 0.612 s a move (2,140 moves)`, or `A no moves answered`.
fn mean_text(name: &str, total: Thinking) -> String {
    if total.asked == 0 {
        return format!("{name} no moves answered");
    }
    let mean_millis = total.millis as f64 / total.asked as f64;
    let unit = if total.asked == 1 { "move" } else { "moves" };
    // Under 10 ms (fast bots at small budgets) seconds to three decimals would read
    // `0.000` or `0.004`; milliseconds keep the figure.
    let mean = if mean_millis < 10.0 {
        format!("{mean_millis:.3} ms")
    } else {
        format!("{:.3} s", mean_millis / 1000.0)
    };
    format!("{name} {mean} a move ({} {unit})", grouped(total.asked))
}

/// A count with its thousands grouped, `2,140`.
fn grouped(count: usize) -> String {
    let digits = count.to_string();
    let mut text = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            text.push(',');
        }
        text.push(digit);
    }
    text
}

/// The SPRT line of a match: pairs counted in pair order, the verdict, and (after a partial
/// merge) how many planned pairs no shard holds.
pub fn print_sprt(spec: &SprtSpec, results: &[GameResult], names: [&str; 2], missing_pairs: usize) {
    let (pairs, counts, status) = sprt::sequential(spec, results, names[0]);
    let SprtStatus {
        llr, lower, upper, ..
    } = status;
    let missing = if missing_pairs > 0 {
        format!(" ({missing_pairs} pairs missing: counted up to the first)")
    } else {
        String::new()
    };
    println!(
        "SPRT {spec}: {pairs} pairs{missing}, pentanomial {counts:?} (LL, LD, WL+DD, WD, WW for {}), LLR {llr:.3} ({lower:.3}, {upper:.3}): {}",
        names[0],
        sprt::conclusion(spec, &status, &counts, names)
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::store::Winner;

    fn game(game: usize, first: &str, thinking: [Option<Thinking>; 2]) -> GameResult {
        let second = if first == "a" { "b" } else { "a" };
        GameResult {
            thinking,
            ..GameResult::decided(game, first, second, Winner::First)
        }
    }

    fn thinking(asked: usize, millis: u64) -> Option<Thinking> {
        Some(Thinking { asked, millis })
    }

    #[test]
    fn the_thinking_line_means_each_bots_time_over_its_seats() {
        let results = [
            // a first: 1,000 moves in 600 s; b second: 1,098 moves in 329.4 s.
            game(0, "a", [thinking(1000, 600_000), thinking(1098, 329_400)]),
            // Seats swapped: a second, b first.
            game(1, "b", [thinking(1000, 300_000), thinking(1140, 709_680)]),
            // A line of an older build: not counted.
            game(2, "a", [None, None]),
        ];
        assert_eq!(
            thinking_line(&results, &["a", "b"]).as_deref(),
            Some("thinking: a 0.612 s a move (2,140 moves), b 0.300 s a move (2,098 moves)")
        );
    }

    #[test]
    fn no_line_without_times_and_a_bot_never_asked_says_so() {
        assert_eq!(
            thinking_line(&[game(0, "a", [None, None])], &["a", "b"]),
            None
        );
        assert_eq!(thinking_line(&[], &["a", "b"]), None);
        let failed = game(0, "a", [thinking(1, 5), thinking(0, 0)]);
        assert_eq!(
            thinking_line(&[failed], &["a", "b"]).as_deref(),
            Some("thinking: a 5.000 ms a move (1 move), b no moves answered")
        );
    }

    /// A ladder's line: every bot, each over the games of all its pairings.
    #[test]
    fn a_ladder_line_names_every_bot() {
        let pairing = |game: usize, first: &str, second: &str, times: [u64; 2]| GameResult {
            thinking: [thinking(10, times[0]), thinking(10, times[1])],
            ..GameResult::decided(game, first, second, Winner::Draw)
        };
        let results = [
            pairing(0, "a", "b", [1_000, 2_000]),
            pairing(1, "c", "a", [3_000, 3_000]),
            // d: 35 ms over 100 moves, under 10 ms a move.
            GameResult {
                thinking: [thinking(100, 35), thinking(10, 0)],
                ..GameResult::decided(2, "d", "a", Winner::Draw)
            },
        ];
        assert_eq!(
            thinking_line(&results, &["a", "b", "c", "d"]).as_deref(),
            Some(
                "thinking: a 0.133 s a move (30 moves), b 0.200 s a move (10 moves), \
                 c 0.300 s a move (10 moves), d 0.350 ms a move (100 moves)"
            )
        );
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        let cases = [
            (0, "0"),
            (999, "999"),
            (1000, "1,000"),
            (1_234_567, "1,234,567"),
        ];
        for (count, text) in cases {
            assert_eq!(grouped(count), text);
        }
    }
}
