//! The player: iterative-deepening alpha-beta (negamax) over copy-made positions with a
//! transposition table, which becomes an exact endgame solver once the depth reaches the
//! end of the game; and the reference players (random, greedy) its strength is measured by.
//!
//! Values are score margins from the side to move's view: exact final margins at the end of
//! the game, the margin of the board as it stands (the sheet's scoring applied now) at the
//! search horizon. Every search is bounded by a node budget, so the same position and budget
//! give the same move on any machine.

use std::time::Instant;

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::cell::{Cell, cells};
use super::layout::Layout;
use super::rules::{Color, MARBLES_PER_PLAYER, Position};
use super::score::{Scoring, score};

/// What bounds a search.
#[derive(Copy, Clone, Debug)]
pub struct SearchLimits {
    /// Nodes (positions visited); the search stops when they are spent.
    pub nodes: u64,
    /// An optional wall-clock limit on top of the node budget.
    pub deadline: Option<Instant>,
    /// The deepest iteration to start; `u32::MAX` for no limit.
    pub max_depth: u32,
}

impl SearchLimits {
    pub fn nodes(nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes,
            deadline: None,
            max_depth: u32::MAX,
        }
    }
}

/// What a search found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the side to move has no legal hole.
    pub best: Option<Cell>,
    /// The value of `best` for the side to move, as a margin (see the module notes).
    pub value: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    /// True when that iteration reached the end of every line: `value` is the exact result.
    pub exact: bool,
    pub nodes: u64,
}

/// Plies left at most: marbles not yet placed.
pub fn plies_left(position: &Position) -> u32 {
    2 * MARBLES_PER_PLAYER - position.placed()
}

/// Searches `position` and returns the best move found within `limits`.
pub fn search(
    layout: &Layout,
    position: &Position,
    scoring: Scoring,
    limits: SearchLimits,
    stop: &dyn Fn() -> bool,
) -> SearchResult {
    let mut searcher = Searcher::new(layout, scoring, limits, stop);
    searcher.run(position)
}

/// Solves `position` exactly: a search without node limit that runs to the end of the game
/// (or until `stop`).
pub fn solve(
    layout: &Layout,
    position: &Position,
    scoring: Scoring,
    stop: &dyn Fn() -> bool,
) -> SearchResult {
    let limits = SearchLimits {
        nodes: u64::MAX,
        deadline: None,
        max_depth: u32::MAX,
    };
    let mut searcher = Searcher::new(layout, scoring, limits, stop);
    // Shallow iterations only order moves for the exact one; start near the end.
    searcher.first_depth = plies_left(position).saturating_sub(4).max(1);
    searcher.run(position)
}

#[derive(Copy, Clone, Default)]
struct Entry {
    key: u64,
    value: i16,
    depth: u8,
    bound: Bound,
    best: u8,
}

#[derive(Copy, Clone, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    Lower,
    Upper,
}

const TABLE_BITS: u32 = 18;
const NO_MOVE: u8 = u8::MAX;
const INFINITY: i32 = 10_000;

struct Searcher<'a> {
    layout: &'a Layout,
    scoring: Scoring,
    limits: SearchLimits,
    stop: &'a dyn Fn() -> bool,
    table: Vec<Entry>,
    nodes: u64,
    aborted: bool,
    first_depth: u32,
}

fn key(position: &Position) -> u64 {
    // A multiply-xorshift mix of the two boards and the markers; collisions are checked
    // against the full key in the table, which is itself a hash of all of this.
    let mix = |x: u64| {
        let x = (x ^ (x >> 31)).wrapping_mul(crate::seed::GOLDEN_GAMMA);
        x ^ (x >> 29)
    };
    let black = position.marbles(Color::Black);
    let red = position.marbles(Color::Red);
    let markers = position
        .last(Color::Black)
        .map_or(0xFF, |c| u64::from(c.index()))
        | position
            .last(Color::Red)
            .map_or(0xFF, |c| u64::from(c.index()))
            << 8;
    let mut h = mix(black as u64 ^ 0x5151);
    h = mix(h ^ (black >> 64) as u64);
    h = mix(h ^ red as u64 ^ 0xA5A5_0000);
    h = mix(h ^ (red >> 64) as u64);
    mix(h ^ markers)
}

impl<'a> Searcher<'a> {
    fn new(
        layout: &'a Layout,
        scoring: Scoring,
        limits: SearchLimits,
        stop: &'a dyn Fn() -> bool,
    ) -> Searcher<'a> {
        Searcher {
            layout,
            scoring,
            limits,
            stop,
            table: vec![Entry::default(); 1 << TABLE_BITS],
            nodes: 0,
            aborted: false,
            first_depth: 1,
        }
    }

    fn run(&mut self, position: &Position) -> SearchResult {
        let moves = position.legal_moves(self.layout);
        let mut result = SearchResult {
            best: Cell::lowest(moves),
            value: self.evaluate(position),
            depth: 0,
            exact: false,
            nodes: 0,
        };
        if moves == 0 {
            result.exact = true;
            return result;
        }
        let last_depth = plies_left(position);
        let mut depth = self.first_depth.min(last_depth);
        while depth <= self.limits.max_depth {
            let value = self.negamax(position, depth, -INFINITY, INFINITY);
            if self.aborted {
                break;
            }
            let root_key = key(position);
            let entry = self.table[self.slot(root_key)];
            result.value = value;
            result.depth = depth;
            // The root's entry names its best move, unless a deeper node took its slot.
            let hinted = (entry.key == root_key && entry.best != NO_MOVE)
                .then(|| Cell::from_index(u32::from(entry.best)))
                .flatten()
                .filter(|c| moves & c.bit() != 0);
            if let Some(best) = hinted {
                result.best = Some(best);
            }
            if depth >= last_depth {
                result.exact = true;
                break;
            }
            depth += 1;
        }
        result.nodes = self.nodes;
        result
    }

    fn slot(&self, key: u64) -> usize {
        (key >> (64 - TABLE_BITS)) as usize
    }

    /// The margin of the board as it stands, for the side to move.
    fn evaluate(&self, position: &Position) -> i32 {
        let margin = score(self.layout, position, self.scoring).margin();
        match position.to_move() {
            Color::Black => margin,
            Color::Red => -margin,
        }
    }

    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.limits.nodes {
            return true;
        }
        if self.nodes.is_multiple_of(4096) {
            let late = self.limits.deadline.is_some_and(|d| Instant::now() >= d);
            return late || (self.stop)();
        }
        false
    }

    fn negamax(&mut self, position: &Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            self.aborted = true;
            return 0;
        }
        let moves = position.legal_moves(self.layout);
        if moves == 0 || depth == 0 {
            return self.evaluate(position);
        }
        let key = key(position);
        let slot = self.slot(key);
        let entry = self.table[slot];
        let mut hinted = NO_MOVE;
        if entry.bound != Bound::Empty && entry.key == key {
            hinted = entry.best;
            if u32::from(entry.depth) >= depth {
                let value = i32::from(entry.value);
                let usable = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => value >= beta,
                    Bound::Upper => value <= alpha,
                    Bound::Empty => false,
                };
                if usable {
                    return value;
                }
            }
        }
        let mut ordered = [(0i32, 0u8); 64];
        let mut count = 0;
        for cell in cells(moves) {
            let child = position.after(cell);
            // Moves that leave the opponent worst off first; the table's best move before all.
            let priority = if cell.index() as u8 == hinted {
                -INFINITY
            } else {
                self.evaluate(&child)
            };
            if count < ordered.len() {
                ordered[count] = (priority, cell.index() as u8);
                count += 1;
            }
        }
        let ordered = &mut ordered[..count];
        ordered.sort_unstable();
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = NO_MOVE;
        for &(_, index) in ordered.iter() {
            let Some(cell) = Cell::from_index(u32::from(index)) else {
                continue;
            };
            let value = -self.negamax(&position.after(cell), depth - 1, -beta, -alpha);
            if self.aborted {
                return 0;
            }
            if value > best_value {
                best_value = value;
                best_move = index;
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best_value <= original_alpha {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            key,
            value: best_value as i16,
            depth: depth.min(255) as u8,
            bound,
            best: best_move,
        };
        best_value
    }
}

/// A reference player: a uniformly random legal hole.
pub fn random_move(layout: &Layout, position: &Position, rng: &mut ChaCha8Rng) -> Option<Cell> {
    let moves = position.legal_moves(layout);
    let count = moves.count_ones();
    if count == 0 {
        return None;
    }
    cells(moves).nth(rng.random_range(0..count) as usize)
}

/// A reference player: the hole that leaves the best margin on the board as it stands after
/// the move (ties broken at random).
pub fn greedy_move(
    layout: &Layout,
    position: &Position,
    scoring: Scoring,
    rng: &mut ChaCha8Rng,
) -> Option<Cell> {
    let me = position.to_move();
    let mut best: Vec<Cell> = Vec::new();
    let mut best_margin = i32::MIN;
    for cell in cells(position.legal_moves(layout)) {
        let margin = score(layout, &position.after(cell), scoring).margin();
        let margin = if me == Color::Black { margin } else { -margin };
        if margin > best_margin {
            best_margin = margin;
            best.clear();
        }
        if margin == best_margin {
            best.push(cell);
        }
    }
    if best.is_empty() {
        return None;
    }
    Some(best[rng.random_range(0..best.len())])
}
