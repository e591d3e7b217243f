//! `hamle bench mangala`: a fixed search workload for speed comparisons between builds.
//!
//! Three positions (the start, a middle game reached by fixed moves, an endgame), each
//! searched by iterative deepening to a fixed node budget with a fresh table of fixed
//! size and no endgame database, so the node count is identical on every run of the
//! same build: a change in it means the search changed, a change in nps alone the speed.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::rules::{EndRule, Pit, Position, STANDARD_STONES_PER_PIT, Side};

use super::player::{Limits, Searcher, never};

/// Nodes per position when the command line gives none.
pub const DEFAULT_NODES: u64 = 2_000_000;
const TABLE_BITS: u32 = 20;

/// Moves played from the start, South first, to reach the middle-game position: each is
/// an index into the mover's legal pits (modulo their number), so every one is legal.
const MIDDLE: &[usize] = &[2, 5, 1, 3, 0, 4, 5, 2, 3, 1];

fn positions() -> Vec<(&'static str, Position)> {
    let start = Position::start(STANDARD_STONES_PER_PIT, Side::South);
    let mut middle = start;
    for &index in MIDDLE {
        let legal: Vec<Pit> = middle.legal_moves().collect();
        let pit = legal[index % legal.len()];
        middle = middle.play_unchecked(pit, EndRule::EmptierTakesAll).0;
    }
    let endgame: Position = "0,3,0,2,1,4,14/1,0,2,0,3,1,17/s"
        .parse()
        .unwrap_or_else(|e| panic!("bench endgame: {e}"));
    vec![("start", start), ("middle", middle), ("endgame", endgame)]
}

/// Runs the bench with `nodes` per position and writes the report to `out`.
pub fn run(nodes: u64, out: &mut impl Write) -> io::Result<()> {
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    writeln!(
        out,
        "{:<10} {:>10} {:>6} {:>6} {:>5} {:>9} {:>12}",
        "position", "nodes", "depth", "value", "best", "time ms", "nps"
    )?;
    for (name, position) in positions() {
        let mut searcher = Searcher::new(EndRule::EmptierTakesAll, TABLE_BITS, None);
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let start = Instant::now();
        let result = searcher.search(&position, limits, &never);
        let elapsed = start.elapsed();
        writeln!(
            out,
            "{name:<10} {:>10} {:>6} {:>+6} {:>5} {:>9} {:>12}",
            result.nodes,
            result.depth,
            result.value,
            result
                .best
                .map_or_else(|| "-".to_owned(), |p| p.to_string()),
            elapsed.as_millis(),
            crate::bench::per_second(result.nodes, elapsed),
        )?;
        total_nodes += result.nodes;
        total_time += elapsed;
    }
    writeln!(out)?;
    crate::bench::write_totals(out, total_nodes, total_time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_has_totals_and_deterministic_nodes() {
        let report = || {
            let mut out = Vec::new();
            run(20_000, &mut out).expect("write to a Vec");
            String::from_utf8(out).expect("utf-8 report")
        };
        let nodes_line = |text: &str| {
            text.lines()
                .find(|l| l.ends_with(" nodes"))
                .map(str::to_owned)
                .expect("a nodes line")
        };
        let (a, b) = (report(), report());
        assert_eq!(nodes_line(&a), nodes_line(&b));
        assert!(a.lines().any(|l| l.ends_with(" nps")));
        assert_eq!(a.lines().filter(|l| l.starts_with("middle")).count(), 1);
    }
}
