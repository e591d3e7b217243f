//! The player: alpha-beta (principal variation search) with iterative deepening, a Zobrist
//! transposition table, null-move pruning, late-move reductions, a quiescence search over
//! push-offs, and move ordering by table move, push-offs, pushes, killers and history.
//!
//! The search allocates only when a [`Searcher`] is built (the table); the tree walk itself
//! uses stack move lists. With a node budget and no clock the result depends on the
//! position, the weights and the seed only.

use std::time::{Duration, Instant};

use super::board::{Cell, Direction};
use super::eval::{Weights, evaluate};
use super::moves::Move;
use super::position::{MARBLES_OFF_TO_WIN, MoveList, Position};

/// A won game is worth this much, less the plies it takes.
pub const WIN: i32 = 1_000_000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 64;
const MAX_QUIESCENCE_PLIES: i32 = 4;

/// When a search stops.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Nodes (positions visited, quiescence included); 0 for no limit.
    pub nodes: u64,
    /// Wall time; `None` for no limit.
    pub time: Option<Duration>,
    /// Iterations; the search stops after this depth.
    pub depth: u32,
}

impl Limits {
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes,
            time: None,
            depth: MAX_PLY as u32 - 1,
        }
    }

    pub fn time(time: Duration) -> Limits {
        Limits {
            nodes: 0,
            time: Some(time),
            depth: MAX_PLY as u32 - 1,
        }
    }
}

/// The outcome of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub best: Option<Move>,
    /// From the mover's view; ±[`WIN`] less plies for a forced result.
    pub value: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Copy, Clone, Debug)]
struct Entry {
    key: u64,
    best: Option<Move>,
    value: i32,
    depth: i8,
    bound: Bound,
}

/// A search context: the transposition table, killers and history survive between moves.
pub struct Searcher {
    table: Vec<Option<Entry>>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
    weights: Weights,
    /// Mixed into the evaluation as a few points of noise: different seeds, different games.
    noise_seed: u64,
    nodes: u64,
    limits: Limits,
    started: Instant,
    aborted: bool,
}

/// 2^20 entries of 32 bytes: 32 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 20;

impl Searcher {
    pub fn new(weights: Weights, seed: u64, table_bits: u32) -> Searcher {
        Searcher {
            table: vec![None; 1 << table_bits.clamp(10, 26)],
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; 128 * 6],
            weights,
            noise_seed: seed,
            nodes: 0,
            limits: Limits::nodes(1),
            started: Instant::now(),
            aborted: false,
        }
    }

    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|e| *e = None);
        self.killers = [[None; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// The best move of `position` within `limits`; `stop` is polled and ends the search.
    pub fn search(
        &mut self,
        position: &Position,
        limits: Limits,
        stop: &dyn Fn() -> bool,
    ) -> SearchResult {
        self.nodes = 0;
        self.limits = limits;
        self.started = Instant::now();
        self.aborted = false;
        self.killers = [[None; 2]; MAX_PLY];
        for h in &mut self.history {
            *h /= 8;
        }
        let mut root_moves = MoveList::new();
        position.legal_moves(&mut root_moves);
        let mut result = SearchResult {
            best: root_moves.iter().next(),
            value: self.evaluate(position),
            depth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
        };
        if root_moves.len() <= 1 {
            return result;
        }
        for depth in 1..=limits.depth.min(MAX_PLY as u32 - 1) {
            let (value, best) = self.root(position, &mut root_moves, depth as i32, stop);
            if self.aborted {
                // A partial iteration still counts when its first (best so far) move changed.
                if let Some(best) = best {
                    result.best = Some(best);
                }
                break;
            }
            result.best = best.or(result.best);
            result.value = value;
            result.depth = depth;
            if value.abs() >= WIN - MAX_PLY as i32 {
                break;
            }
            // With a clock, an iteration that is unlikely to finish is not started.
            if let Some(time) = limits.time
                && self.started.elapsed() * 2 > time
            {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.started.elapsed();
        result
    }

    fn evaluate(&self, position: &Position) -> i32 {
        let noise = (position.hash() ^ self.noise_seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61;
        evaluate(position, &self.weights) + noise as i32 - 4
    }

    fn out_of_budget(&mut self, stop: &dyn Fn() -> bool) -> bool {
        if self.aborted {
            return true;
        }
        if self.limits.nodes > 0 && self.nodes >= self.limits.nodes {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(1024) {
            let late = self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t);
            self.aborted = late || stop();
        }
        self.aborted
    }

    fn root(
        &mut self,
        position: &Position,
        moves: &mut MoveList,
        depth: i32,
        stop: &dyn Fn() -> bool,
    ) -> (i32, Option<Move>) {
        let table_move = self.probe(position).and_then(|e| e.best);
        self.order(position, moves, table_move, 0);
        let mut alpha = -INFINITY;
        let mut best = None;
        for (index, mv) in moves.iter().enumerate() {
            let child = position.play_unchecked(mv);
            let value = if index == 0 {
                -self.negamax(&child, depth - 1, -INFINITY, -alpha, 1, true, stop)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true, stop);
                if probe > alpha && !self.aborted {
                    -self.negamax(&child, depth - 1, -INFINITY, -alpha, 1, true, stop)
                } else {
                    probe
                }
            };
            if self.aborted {
                break;
            }
            if value > alpha {
                alpha = value;
                best = Some(mv);
            }
        }
        if let Some(best) = best {
            // The best move leads the next iteration.
            if let Some(at) = moves.as_slice().iter().position(|m| *m == best) {
                moves.as_mut_slice()[..=at].rotate_right(1);
            }
            self.store(position, best, alpha, depth, Bound::Exact);
        }
        (alpha, best)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        null_allowed: bool,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget(stop) {
            return 0;
        }
        if position.marbles_off(position.to_move()) >= MARBLES_OFF_TO_WIN {
            return -(WIN - ply as i32);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(position, alpha, beta, ply, 0, stop);
        }
        let entry = self.probe(position);
        if let Some(entry) = entry
            && i32::from(entry.depth) >= depth
        {
            let value = entry.value;
            match entry.bound {
                Bound::Exact => return value,
                Bound::Lower if value >= beta => return value,
                Bound::Upper if value <= alpha => return value,
                _ => {}
            }
        }
        // Null move: if passing still holds beta, a real move will too (Abalone has
        // practically no zugzwang).
        if null_allowed
            && depth >= 3
            && beta < WIN - MAX_PLY as i32
            && self.evaluate(position) >= beta
        {
            let passed = position.with_turn_passed();
            let value = -self.negamax(&passed, depth - 3, -beta, -beta + 1, ply + 1, false, stop);
            if self.aborted {
                return 0;
            }
            if value >= beta {
                return beta;
            }
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return self.evaluate(position);
        }
        self.order(position, &mut moves, entry.and_then(|e| e.best), ply);
        let original_alpha = alpha;
        let mut best_value = -INFINITY;
        let mut best_move = None;
        for (index, mv) in moves.iter().enumerate() {
            let child = position.play_unchecked(mv);
            let quiet = is_quiet(position, &child);
            let mut value;
            if index == 0 {
                value = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true, stop);
            } else {
                // Late quiet moves are searched shallower first.
                let reduction = if depth >= 3 && index >= 4 && quiet {
                    1 + i32::from(index >= 16)
                } else {
                    0
                };
                value = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                    stop,
                );
                if value > alpha && reduction > 0 && !self.aborted {
                    value =
                        -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1, true, stop);
                }
                if value > alpha && value < beta && !self.aborted {
                    value = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true, stop);
                }
            }
            if self.aborted {
                return 0;
            }
            if value > best_value {
                best_value = value;
                best_move = Some(mv);
            }
            if value > alpha {
                alpha = value;
            }
            if alpha >= beta {
                if quiet {
                    let killers = &mut self.killers[ply];
                    if killers[0] != Some(mv) {
                        killers[1] = killers[0];
                        killers[0] = Some(mv);
                    }
                    let slot = history_slot(mv);
                    self.history[slot] += depth * depth;
                }
                break;
            }
        }
        let bound = if best_value >= beta {
            Bound::Lower
        } else if best_value > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if let Some(best) = best_move {
            self.store(position, best, best_value, depth, bound);
        }
        best_value
    }

    /// Stand pat, or push a marble off: the only moves that change the material.
    fn quiescence(
        &mut self,
        position: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        depth: i32,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        if depth > 0 {
            self.nodes += 1;
            if self.out_of_budget(stop) {
                return 0;
            }
        }
        if position.marbles_off(position.to_move()) >= MARBLES_OFF_TO_WIN {
            return -(WIN - ply as i32);
        }
        let stand = self.evaluate(position);
        if stand >= beta || depth >= MAX_QUIESCENCE_PLIES || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut moves = MoveList::new();
        position.push_off_moves(&mut moves);
        for mv in moves.iter() {
            let child = position.play_unchecked(mv);
            let value = -self.quiescence(&child, -beta, -alpha, ply + 1, depth + 1, stop);
            if self.aborted {
                return 0;
            }
            if value > alpha {
                alpha = value;
                if alpha >= beta {
                    break;
                }
            }
        }
        alpha
    }

    /// Table move, push-offs, pushes, killers, then by history and centre gain.
    fn order(
        &self,
        position: &Position,
        moves: &mut MoveList,
        table_move: Option<Move>,
        ply: usize,
    ) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let mut scores = [0i32; super::position::MAX_MOVES];
        let slice = moves.as_mut_slice();
        for (score, &mv) in scores.iter_mut().zip(slice.iter()) {
            *score = if Some(mv) == table_move {
                i32::MAX
            } else if let Move::Inline { tail, direction } = mv
                && let Ok(effect) = position.inline_effect(tail, direction)
                && effect.pushed > 0
            {
                if effect.push_off {
                    1 << 29
                } else {
                    (1 << 28) + i32::from(effect.marbles)
                }
            } else if killers[0] == Some(mv) {
                1 << 27
            } else if killers[1] == Some(mv) {
                (1 << 27) - 1
            } else {
                self.history[history_slot(mv)] + centre_gain(position, mv) * 4
            };
        }
        // Insertion sort, stable: lists are short and mostly ordered already.
        for i in 1..slice.len() {
            let (score, mv) = (scores[i], slice[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                scores[j] = scores[j - 1];
                slice[j] = slice[j - 1];
                j -= 1;
            }
            scores[j] = score;
            slice[j] = mv;
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.table.len() - 1)
    }

    fn probe(&self, position: &Position) -> Option<Entry> {
        self.table[self.slot(position.hash())].filter(|e| e.key == position.hash())
    }

    fn store(&mut self, position: &Position, best: Move, value: i32, depth: i32, bound: Bound) {
        let slot = self.slot(position.hash());
        let keep_old = self.table[slot]
            .is_some_and(|old| old.key == position.hash() && i32::from(old.depth) > depth);
        if !keep_old {
            self.table[slot] = Some(Entry {
                key: position.hash(),
                best: Some(best),
                value,
                depth: depth.clamp(0, 127) as i8,
                bound,
            });
        }
    }
}

fn is_quiet(before: &Position, after: &Position) -> bool {
    let them = before.to_move().opponent();
    before.marbles(them) == after.marbles(them)
}

fn history_slot(mv: Move) -> usize {
    let cell: Cell = match mv {
        Move::Inline { tail, .. } => tail,
        Move::Broadside { start, .. } => start,
    };
    let direction: Direction = mv.direction();
    cell.index() * 6 + direction.index()
}

/// Rings gained towards the centre by the moving marbles (a cheap ordering hint).
fn centre_gain(position: &Position, mv: Move) -> i32 {
    let gain = |from: Cell, direction: Direction| {
        from.step(direction).map_or(0, |to| {
            i32::from(from.centre_distance()) - i32::from(to.centre_distance())
        })
    };
    match mv {
        Move::Inline { tail, direction } => {
            let front = position
                .inline_effect(tail, direction)
                .map(|e| e.front)
                .ok();
            front.map_or(0, |front| {
                i32::from(tail.centre_distance()) - i32::from(front.centre_distance())
            })
        }
        Move::Broadside { direction, .. } => Cell::iter(mv.broadside_group())
            .map(|cell| gain(cell, direction))
            .sum(),
    }
}
