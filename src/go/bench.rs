//! `hamle bench go`: a fixed search workload for speed comparisons between builds.
//!
//! Four positions (empty and middle-game 9×9 and 19×19, the latter built by fixed move
//! sequences), each searched on one thread to a fixed playout budget with a fixed seed.
//! The node count (tree nodes traversed plus playout moves) is therefore identical on
//! every run of the same build: a change in it means the search itself changed, a
//! change in nps alone means only the speed did.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::board::{Board, Point};
use super::color::Color;
use super::net::features::HISTORY;
use super::notation::Vertex;
use super::player::{self, ResignPolicy, SearchLimits, SearchRequest};
use super::rules::RuleSet;

/// Playouts per position when the command line gives none.
pub const DEFAULT_PLAYOUTS: u64 = 5_000;

const SEED: u64 = 0x0062_656E_6368; // "bench"

/// A 9×9 opening and early fight, Black first.
const MIDDLE_9: &[&str] = &[
    "E5", "C5", "D4", "C4", "D3", "C3", "D6", "D7", "E7", "C7", "E8", "C6", "F3", "B2", "G5", "D8",
    "E9", "C8", "G7", "H6", "G6", "H5", "H4", "G8",
];

/// A 19×19 opening with some approaches and a few local fights, Black first.
const MIDDLE_19: &[&str] = &[
    "Q16", "D4", "Q3", "D16", "R5", "C14", "F17", "C17", "D17", "C16", "D15", "E16", "E17", "F16",
    "G16", "F15", "G17", "D13", "R14", "O17", "P17", "O16", "N4", "K3", "C6", "C5", "D6", "E4",
    "F6", "D10", "K16", "O14", "P14", "O13", "Q10", "J4", "E7", "C8", "C9", "B9", "D8", "C10",
    "B8", "K17", "L17", "J16", "L16", "H18", "N17", "G18",
];

fn position(size: usize, moves: &[&str]) -> Board {
    let mut board = Board::new(size).unwrap_or_else(|e| panic!("bench board: {e}"));
    let mut color = Color::Black;
    for m in moves {
        let p = point(&board, m);
        assert!(board.is_legal(color, p, false), "bench move {m} is illegal");
        board.play(color, p);
        color = color.opponent();
    }
    board
}

fn point(board: &Board, vertex: &str) -> Point {
    let v = Vertex::parse_on(vertex, board.size())
        .unwrap_or_else(|e| panic!("bench vertex {vertex}: {e}"));
    board.point(v)
}

/// The bench positions: name, board, side to move.
fn positions() -> Vec<(&'static str, Board, Color)> {
    let to_move = |moves: &[&str]| {
        if moves.len().is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    };
    vec![
        ("empty-9x9", position(9, &[]), Color::Black),
        ("middle-9x9", position(9, MIDDLE_9), to_move(MIDDLE_9)),
        ("empty-19x19", position(19, &[]), Color::Black),
        ("middle-19x19", position(19, MIDDLE_19), to_move(MIDDLE_19)),
    ]
}

/// Runs the bench with `playouts` per position and writes the report to `out`.
pub fn run(playouts: u64, out: &mut impl Write) -> io::Result<()> {
    let rules = RuleSet::Chinese.rules();
    let allow_all = |_: Point| true;
    let never_stop = || false;
    let mut total_nodes = 0u64;
    let mut total_time = Duration::ZERO;
    // Per board size: (playouts, time).
    let mut per_size: Vec<(usize, u64, Duration)> = Vec::new();
    writeln!(
        out,
        "{:<14} {:>10} {:>10} {:>9} {:>12} {:>12}",
        "position", "nodes", "playouts", "time ms", "nps", "playouts/s"
    )?;
    for (name, board, to_move) in positions() {
        let request = SearchRequest {
            board: &board,
            to_move,
            rules: &rules,
            komi: rules.default_komi,
            search_komi: None,
            root_allowed: &allow_all,
            history: &[],
            opponent_passed: false,
            recent_moves: [None; HISTORY],
            move_number: 0,
            limits: SearchLimits {
                playouts: Some(playouts),
                deadline: None,
                stop_when_decided: false,
            },
            seed: SEED,
            threads: 1,
            stop: &never_stop,
            resign: ResignPolicy::never(),
            cleanup: false,
            progress: None,
            net: None,
        };
        let start = Instant::now();
        let result = player::search(&request);
        let elapsed = start.elapsed();
        writeln!(
            out,
            "{name:<14} {:>10} {:>10} {:>9} {:>12} {:>12}",
            result.nodes,
            result.playouts,
            elapsed.as_millis(),
            crate::bench::per_second(result.nodes, elapsed),
            crate::bench::per_second(result.playouts, elapsed),
        )?;
        total_nodes += result.nodes;
        total_time += elapsed;
        match per_size.iter_mut().find(|(s, _, _)| *s == board.size()) {
            Some(entry) => {
                entry.1 += result.playouts;
                entry.2 += elapsed;
            }
            None => per_size.push((board.size(), result.playouts, elapsed)),
        }
    }
    writeln!(out)?;
    for (size, playouts, time) in per_size {
        writeln!(
            out,
            "{size}x{size}: {} playouts/s",
            crate::bench::per_second(playouts, time)
        )?;
    }
    net_speed(out)?;
    crate::bench::write_totals(out, total_nodes, total_time)
}

/// Evaluations of the built-in net a position, for its speed line.
const NET_EVALUATIONS: u32 = 50;

/// The built-in net's evaluations a second on one thread, by board size: the price of a
/// net evaluation beside a playout's (the searches above run without the net, so their
/// node counts stay the classical engine's).
fn net_speed(out: &mut impl Write) -> io::Result<()> {
    let net = crate::go::net::builtin().map_err(io::Error::other)?;
    let mut per_size: Vec<(usize, u64, Duration)> = Vec::new();
    // Buffers kept between evaluations, as the search keeps them.
    let mut scratch = crate::go::net::Scratch::default();
    for (_, board, to_move) in positions() {
        let snapshot = crate::go::net::Snapshot::of_board(&board, to_move, 7.0, &[]);
        let start = Instant::now();
        for _ in 0..NET_EVALUATIONS {
            std::hint::black_box(crate::go::net::evaluate_with(&net, &snapshot, &mut scratch));
        }
        let count = u64::from(NET_EVALUATIONS);
        match per_size.iter_mut().find(|(s, _, _)| *s == board.size()) {
            Some(entry) => {
                entry.1 += count;
                entry.2 += start.elapsed();
            }
            None => per_size.push((board.size(), count, start.elapsed())),
        }
    }
    for (size, count, time) in per_size {
        writeln!(
            out,
            "{size}x{size}: {} net evaluations/s (built-in net)",
            crate::bench::per_second(count, time)
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_legal_and_distinct() {
        let all = positions();
        assert_eq!(all.len(), 4);
        for (name, board, _) in &all {
            board
                .check_consistency()
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        assert_eq!(
            all[1].1.stone_count(Color::Black) + all[1].1.stone_count(Color::White),
            MIDDLE_9.len()
        );
    }

    #[test]
    fn report_has_totals_and_deterministic_nodes() {
        let report = |playouts| {
            let mut out = Vec::new();
            run(playouts, &mut out).expect("write to a Vec");
            String::from_utf8(out).expect("utf-8 report")
        };
        let nodes_line = |text: &str| {
            text.lines()
                .find(|l| l.ends_with(" nodes"))
                .map(str::to_owned)
                .expect("a nodes line")
        };
        let a = report(20);
        let b = report(20);
        assert_eq!(nodes_line(&a), nodes_line(&b));
        assert!(a.lines().any(|l| l.ends_with(" nps")));
        assert!(a.contains("9x9:") && a.contains("19x19:"));
    }
}

#[cfg(test)]
mod manual {
    /// `cargo test --release --lib bench_print -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn bench_print() {
        let playouts = std::env::var("BENCH_PLAYOUTS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(super::DEFAULT_PLAYOUTS);
        let mut out = std::io::stderr();
        super::run(playouts, &mut out).expect("bench");
    }
}
