//! `hamle bench kulami`: a fixed search workload for speed comparisons between builds.
//!
//! Positions reached by seeded random play on the default layout and on seeded random
//! layouts, early, middle and late in the game, each searched to depth 9 (or a node cap). The
//! node count is identical on every run of the same build; nps varies with the machine.

use std::io::{self, Write};
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::layout::Layout;
use super::player::{self, SearchLimits, random_move};
use super::rules::Position;
use super::score::Scoring;

/// Nodes per position when the command line gives none.
pub const DEFAULT_NODES: u64 = 300_000;

const SEED: u64 = 0x6B75_6C61_6D69; // "kulami"

/// The deepest iteration: with the node budget as a cap only, the node count shows any
/// change in the search (move ordering, pruning, the table), not just the budget.
const DEPTH: u32 = 9;

/// The bench positions: name, layout, position after `plies` random moves.
fn positions() -> Vec<(String, Layout, Position)> {
    let mut list = Vec::new();
    for (name, layout) in [
        ("default", Layout::standard()),
        ("random-7", Layout::random(7)),
    ] {
        for plies in [1u32, 20, 36] {
            let mut rng = ChaCha8Rng::seed_from_u64(SEED ^ u64::from(plies));
            let mut position = Position::new();
            for _ in 0..plies {
                match random_move(&layout, &position, &mut rng) {
                    Some(cell) => position.play_unchecked(cell),
                    None => break,
                }
            }
            list.push((
                format!("{name}-ply{}", position.placed()),
                layout.clone(),
                position,
            ));
        }
    }
    list
}

/// Runs the bench with `nodes` per position and writes the report to `out`.
pub fn run(nodes: u64, out: &mut impl Write) -> io::Result<()> {
    let never_stop = || false;
    let mut total_nodes = 0u64;
    let start = Instant::now();
    for (name, layout, position) in positions() {
        let began = Instant::now();
        let result = player::search(
            &layout,
            &position,
            Scoring::default(),
            SearchLimits {
                nodes,
                deadline: None,
                max_depth: DEPTH,
            },
            &never_stop,
        );
        let best = result.best.map_or("pass".to_string(), |c| c.to_string());
        writeln!(
            out,
            "{name}: best {best} value {} depth {}{} nodes {} in {:.3}s",
            result.value,
            result.depth,
            if result.exact { " exact" } else { "" },
            result.nodes,
            began.elapsed().as_secs_f64()
        )?;
        total_nodes += result.nodes;
    }
    crate::bench::write_totals(out, total_nodes, start.elapsed())
}
