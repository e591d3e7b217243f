//! `hamle bench abalone`: a fixed search workload for speed comparisons between builds.
//!
//! The three starts and positions reached by seeded random play from them, each searched
//! to a fixed node budget with a fresh searcher. The node count is identical on every run
//! of the same build; nps varies with the machine.

use std::io::{self, Write};
use std::time::Instant;

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;

use super::eval::Weights;
use super::player::{Limits, Searcher};
use super::position::{MoveList, Position, StartPosition};
use super::rules::{EndRules, Game};

/// Nodes per position when the command line gives none.
pub const DEFAULT_NODES: u64 = 200_000;

const SEED: u64 = 0x00AB_A10E;

/// The bench positions: a name and the position.
pub fn positions() -> Vec<(String, Position)> {
    let mut list = Vec::new();
    for start in StartPosition::ALL {
        for plies in [0u32, 16, 40] {
            let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ u64::from(plies));
            let mut position = start.position();
            let mut moves = MoveList::new();
            for _ in 0..plies {
                position.legal_moves(&mut moves);
                match moves.as_slice().choose(&mut rng) {
                    Some(mv) => position = position.play_unchecked(*mv),
                    None => break,
                }
            }
            list.push((format!("{start}-ply{plies}"), position));
        }
    }
    list
}

/// Runs the bench with `nodes` per position and writes the report to `out`.
pub fn run(nodes: u64, out: &mut impl Write) -> io::Result<()> {
    let never_stop = || false;
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (name, position) in positions() {
        let mut searcher = Searcher::new(Weights::default(), 0, 18);
        let game = Game::new(position, EndRules::default());
        let result = searcher.search(&game, Limits::nodes(nodes), &never_stop);
        let best = result.best.map_or("none".to_string(), |m| m.to_string());
        writeln!(
            out,
            "{name}: best {best} value {} depth {} nodes {} in {:.3}s",
            result.value,
            result.depth,
            result.nodes,
            result.elapsed.as_secs_f64()
        )?;
        total_nodes += result.nodes;
    }
    crate::bench::write_totals(out, total_nodes, start.elapsed())
}
