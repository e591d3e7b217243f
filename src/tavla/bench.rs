//! `hamle bench tavla`: the net's search over fixed positions, for speed comparisons.
//!
//! Forty positions met in a seeded game of the greedy player against itself (each with the
//! roll that was played there) are searched at a fixed ply; the count of static evaluations
//! is identical on every run of the same build and weights, the rate varies with the machine.

use std::io::{self, Write};
use std::time::{Duration, Instant};

use super::bearoff::Database;
use super::board::{Board, Side};
use super::dice::{Dice, Roller};
use super::eval::Evaluator;
use super::moves::legal_plays;
use super::net::Net;
use super::player::{Level, Player};

/// Opponent rolls looked ahead when the command line gives none.
pub const DEFAULT_PLIES: u32 = 1;
const POSITIONS: usize = 40;
const SEED: u64 = 0x7A71_BE4C;

/// The bench positions: (board, side to play, dice).
pub fn positions() -> Vec<(Board, Side, Dice)> {
    let mut roller = Roller::new(SEED);
    let mut greedy = Player::new(Level::Greedy);
    let mut found = Vec::new();
    while found.len() < POSITIONS {
        let mut board = Board::start();
        let mut side = Side::White;
        loop {
            let dice = roller.roll();
            if legal_plays(&board, side, dice).len() > 1 {
                found.push((board, side, dice));
            }
            let play = greedy.choose_play(&board, side, dice);
            for step in play.steps() {
                board.step(side, usize::from(step.from), usize::from(step.to));
            }
            if board.on_board(side) == 0 || found.len() == POSITIONS {
                break;
            }
            side = side.other();
        }
    }
    found
}

/// Runs the bench at `plies` and writes the report to `out`.
pub fn run(plies: u32, out: &mut impl Write) -> io::Result<()> {
    // The bear-off database is built outside the search's timing, but timed: it is what a
    // fresh process pays before its first answer.
    let start = Instant::now();
    Database::get();
    let database_time = start.elapsed();
    let positions = positions();
    let net = Net::builtin();
    let mut evaluator = Evaluator::new(net);
    writeln!(
        out,
        "bear-off database: {:.1} ms",
        database_time.as_secs_f64() * 1000.0
    )?;
    let mut total_time = Duration::ZERO;
    let mut total = 0u64;
    writeln!(out, "{} positions at {plies}-ply", positions.len())?;
    for (board, side, dice) in positions {
        let candidates = legal_plays(&board, side, dice);
        let before = evaluator.evaluations;
        let start = Instant::now();
        let (index, _) = evaluator.choose(&candidates, side, plies);
        total_time += start.elapsed();
        std::hint::black_box(index);
        total += evaluator.evaluations - before;
    }
    writeln!(out, "{:.1} ms", total_time.as_secs_f64() * 1000.0)?;
    crate::bench::write_totals(out, total, total_time)
}
