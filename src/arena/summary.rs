//! What a match prints when it ends, after a run or a merge of its shards: the standings
//! line (with the note on pairs that replayed earlier ones) and the SPRT line.

use std::path::Path;

use super::match_play::{Standings, repeats};
use super::sprt::{self, SprtSpec, SprtStatus};
use super::store::{GAMES_DIR, GameResult};

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
