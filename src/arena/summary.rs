//! What a match prints when it ends, after a run or a merge of its shards: the thinking
//! line (each bot's mean time a move), the standings line (with the note on pairs that
//! replayed earlier ones) and the SPRT line.

use std::path::Path;

use super::match_play::{Standings, repeats};
use super::sprt::{self, SprtSpec, SprtStatus};
use super::store::{GAMES_DIR, GameResult, Thinking, Winner};

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
        for line in totals_lines(results, &names) {
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

/// One bot's totals over a match's or a ladder's games: its results, the games its own
/// failure ended (whether they counted as losses or, under `--on-failure void`, as void)
/// by kind, and its thinking (over the games whose lines keep it).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotTotals {
    pub games: usize,
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    pub voids: usize,
    pub crashes: usize,
    pub time_losses: usize,
    pub illegal: usize,
    pub timeouts: usize,
    pub asked: usize,
    pub millis: u64,
    /// The longest move request answered; `None` when no line keeps it.
    pub longest: Option<u64>,
}

impl BotTotals {
    /// The mean time a move answered, as [`thinking_line`] writes it; `–` for none.
    pub fn mean_text(&self) -> String {
        if self.asked == 0 {
            return "–".to_owned();
        }
        time_text(self.millis as f64 / self.asked as f64)
    }

    pub fn longest_text(&self) -> String {
        self.longest
            .map_or_else(|| "–".to_owned(), |millis| time_text(millis as f64))
    }

    /// Counts game `result` for `name`, who played in it.
    fn count(&mut self, name: &str, result: &GameResult, thinking: Option<Thinking>) {
        self.games += 1;
        match (result.winner_name(), result.winner) {
            (_, Winner::Void) => self.voids += 1,
            (_, Winner::Draw) => self.draws += 1,
            (Some(winner), _) if winner == name => self.wins += 1,
            _ => self.losses += 1,
        }
        let by = |what: &str| result.reason.starts_with(&format!("{what} {name}: "));
        if by("crash of") {
            self.crashes += 1;
        } else if by("loss on time by") {
            self.time_losses += 1;
        } else if by("illegal move by") {
            self.illegal += 1;
        } else if by("timeout of") {
            self.timeouts += 1;
        }
        if let Some(thinking) = thinking {
            self.asked = self.asked.saturating_add(thinking.asked);
            self.millis = self.millis.saturating_add(thinking.millis);
            if let Some(longest) = thinking.longest {
                self.longest = Some(self.longest.map_or(longest, |l| l.max(longest)));
            }
        }
    }
}

/// Each of `names`' totals over `results`, in the order of `names`.
pub fn bot_totals(results: &[GameResult], names: &[&str]) -> Vec<BotTotals> {
    let mut totals = vec![BotTotals::default(); names.len()];
    for result in results {
        for (player, thinking) in [&result.first, &result.second]
            .into_iter()
            .zip(result.thinking)
        {
            if let Some(bot) = names.iter().position(|n| n == player) {
                totals[bot].count(player, result, thinking);
            }
        }
    }
    totals
}

/// `totals a: 10 games: 6 won, 1 drawn, 3 lost, 0 void; by crash 1, on time 1, illegal
/// move 1, timeout 0; thinking mean 0.612 s, longest 2.104 s`, a line a bot.
pub fn totals_lines(results: &[GameResult], names: &[&str]) -> Vec<String> {
    names
        .iter()
        .zip(bot_totals(results, names))
        .map(|(name, t)| {
            format!(
                "totals {name}: {} games: {} won, {} drawn, {} lost, {} void; by crash {}, on time {}, illegal move {}, timeout {}; thinking mean {}, longest {}",
                t.games,
                t.wins,
                t.draws,
                t.losses,
                t.voids,
                t.crashes,
                t.time_losses,
                t.illegal,
                t.timeouts,
                t.mean_text(),
                t.longest_text()
            )
        })
        .collect()
}

/// The totals as an HTML table (report pages), names escaped by `escape`.
pub fn totals_table(
    results: &[GameResult],
    names: &[&str],
    escape: impl Fn(&str) -> String,
) -> String {
    let mut table = String::from(
        "<table class=\"totals\">\n<tr><th>Bot</th><th>Games</th><th>Won</th><th>Drawn</th><th>Lost</th><th>Void</th><th>By crash</th><th>On time</th><th>Illegal move</th><th>Timeout</th><th>Mean move time</th><th>Longest move time</th></tr>\n",
    );
    for (name, t) in names.iter().zip(bot_totals(results, names)) {
        table.push_str(&format!(
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"time\">{}</td><td class=\"time\">{}</td></tr>\n",
            escape(name),
            t.games,
            t.wins,
            t.draws,
            t.losses,
            t.voids,
            t.crashes,
            t.time_losses,
            t.illegal,
            t.timeouts,
            t.mean_text(),
            t.longest_text()
        ));
    }
    table.push_str("</table>\n");
    table
}

/// Milliseconds as `0.350 ms` under 10 ms, else `0.612 s`.
fn time_text(millis: f64) -> String {
    if millis < 10.0 {
        format!("{millis:.3} ms")
    } else {
        format!("{:.3} s", millis / 1000.0)
    }
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

    fn game(game: usize, first: &str, thinking: [Option<Thinking>; 2]) -> GameResult {
        let second = if first == "a" { "b" } else { "a" };
        GameResult {
            thinking,
            ..GameResult::decided(game, first, second, Winner::First)
        }
    }

    fn thinking(asked: usize, millis: u64) -> Option<Thinking> {
        Some(Thinking {
            asked,
            millis,
            longest: None,
        })
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
    fn totals_count_results_failures_by_kind_and_thinking() {
        let failed = |game: usize, first: &str, reason: &str, winner: Winner| GameResult {
            reason: reason.to_owned(),
            ..GameResult::decided(game, first, if first == "a" { "b" } else { "a" }, winner)
        };
        let mut timed = game(0, "a", [thinking(10, 1_000), thinking(10, 50)]);
        timed.thinking[0] = timed.thinking[0].map(|t| Thinking {
            longest: Some(2_104),
            ..t
        });
        let results = [
            timed,
            failed(1, "a", "crash of a: exited", Winner::Second),
            failed(2, "b", "loss on time by a: 0.5 s over", Winner::First),
            failed(3, "a", "illegal move by b: 'Z9'", Winner::First),
            failed(4, "b", "timeout of b: no answer", Winner::Void),
            failed(5, "a", "score", Winner::Draw),
        ];
        let totals = bot_totals(&results, &["a", "b"]);
        assert_eq!(
            (
                totals[0].games,
                totals[0].wins,
                totals[0].losses,
                totals[0].draws
            ),
            (6, 2, 2, 1)
        );
        assert_eq!((totals[0].crashes, totals[0].time_losses), (1, 1));
        assert_eq!(
            (totals[1].illegal, totals[1].timeouts, totals[1].voids),
            (1, 1, 1)
        );
        let lines = totals_lines(&results, &["a", "b"]);
        assert_eq!(
            lines[0],
            "totals a: 6 games: 2 won, 1 drawn, 2 lost, 1 void; by crash 1, on time 1, illegal move 0, timeout 0; thinking mean 0.100 s, longest 2.104 s"
        );
        assert!(
            lines[1].ends_with("thinking mean 5.000 ms, longest –"),
            "{}",
            lines[1]
        );
        let table = totals_table(&results, &["a<b", "b"], |n| n.replace('<', "&lt;"));
        assert!(
            table.contains("<td class=\"name\">a&lt;b</td><td>0</td>"),
            "{table}"
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
