//! The player: alpha-beta (principal variation search) with iterative deepening, a Zobrist
//! transposition table, null-move pruning, late-move reductions, a quiescence search over
//! push-offs, and move ordering by table move, push-offs, pushes, killers and history.
//!
//! The search plays by the game's end rules: a node at the game-length cap is scored by
//! the cap's adjudication, and with the repetition draw a repeated position is a draw (see
//! `repetition`). Values that depend on the path to a node (a repetition draw that
//! needs a position above it) never go into the table, and nodes whose subtree reaches
//! the cap are keyed by their game ply, so a table value is always one the node would get
//! again by any path. Wins are stored relative to the node, so distances stay right when an
//! entry is met at another ply.
//!
//! The search allocates only when a [`Searcher`] is built (the table) and when a search
//! starts (the game's positions); the tree walk itself uses stack move lists. With a node
//! budget and no clock the result depends on the game, the weights and the seed only.

use std::time::{Duration, Instant};

mod order;
mod table;

use order::MoveOrder;
use table::{Bound, Table};

use super::board::Color;
use super::eval::{Weights, evaluate};
use super::moves::Move;
use super::position::{MARBLES_OFF_TO_WIN, MoveList, Position};
use super::rules::{EndReason, EndRules, Game, GameResult};

/// A won game is worth this much, less the plies it takes (six off, or the cap's
/// adjudication).
pub const WIN: i32 = 1_000_000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 64;
/// Values at least this far from zero are won or lost games.
const WON: i32 = WIN - MAX_PLY as i32;
const MAX_QUIESCENCE_PLIES: i32 = 4;
/// A subtree without a repetition draw: its value holds whatever path led to it.
const NO_REPETITION: i32 = i32::MAX;

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

/// A search context: the transposition table, killers and history survive between moves.
pub struct Searcher {
    table: Table,
    ordering: MoveOrder,
    weights: Weights,
    /// Mixed into the evaluation as a few points of noise: different seeds, different games.
    noise_seed: u64,
    nodes: u64,
    limits: Limits,
    started: Instant,
    aborted: bool,
    /// The game's end rules, as the search must see them.
    rules: EndRules,
    /// Plies of the game before the root: the cap counts from the game's start.
    root_plies: u32,
    /// Hashes of the game's positions before the root, then of the root and of each
    /// position on the current search path (`path[root_index + ply]`).
    path: Vec<u64>,
    root_index: usize,
    /// `floor[ply]`: the first index of `path` that can hold a repetition of the position
    /// at `ply`. A marble off changes every later hash, and a null move is no move of the
    /// game, so either starts a new stretch.
    floor: [usize; MAX_PLY + 1],
    /// The root is searched among some of its legal moves only.
    root_restricted: bool,
}

/// 2^20 entries of 32 bytes: 32 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 20;

impl Searcher {
    pub fn new(weights: Weights, seed: u64, table_bits: u32) -> Searcher {
        Searcher {
            table: Table::new(table_bits),
            ordering: MoveOrder::new(),
            weights,
            noise_seed: seed,
            nodes: 0,
            limits: Limits::nodes(1),
            started: Instant::now(),
            aborted: false,
            rules: EndRules::default(),
            root_plies: 0,
            path: Vec::new(),
            root_index: 0,
            floor: [0; MAX_PLY + 1],
            root_restricted: false,
        }
    }

    pub fn weights(&self) -> Weights {
        self.weights
    }

    /// The seed of the evaluation's noise from now on (`set_random_seed`).
    pub fn set_seed(&mut self, seed: u64) {
        self.noise_seed = seed;
    }

    /// Forgets everything learnt (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.ordering.clear();
    }

    /// The best move in `game`'s position within `limits`, by `game`'s end rules and with
    /// its earlier positions for repetitions; `stop` is polled and ends the search.
    pub fn search(&mut self, game: &Game, limits: Limits, stop: &dyn Fn() -> bool) -> SearchResult {
        self.search_among(game, limits, stop, &|_| true)
    }

    /// [`Searcher::search`] choosing only among the root moves for which `allowed` holds
    /// (GoGui's clicks may have begun a move); all legal moves when none is allowed.
    pub fn search_among(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &dyn Fn() -> bool,
        allowed: &dyn Fn(Move) -> bool,
    ) -> SearchResult {
        let position = game.position();
        self.rules = game.rules();
        self.root_plies = u32::try_from(game.plies()).unwrap_or(u32::MAX);
        self.path.clear();
        let total_off = |p: &Position| p.marbles_off(Color::Black) + p.marbles_off(Color::White);
        let mut floor = 0;
        for (index, earlier) in game.positions().enumerate() {
            self.path.push(earlier.hash());
            if total_off(earlier) != total_off(position) {
                floor = index + 1;
            }
        }
        self.root_index = self.path.len() - 1;
        self.path.resize(self.root_index + MAX_PLY + 1, 0);
        self.floor[0] = floor;
        self.nodes = 0;
        self.limits = limits;
        self.started = Instant::now();
        self.aborted = false;
        self.ordering.new_search();
        let mut root_moves = MoveList::new();
        position.legal_moves(&mut root_moves);
        let legal = root_moves.len();
        root_moves.retain(allowed);
        if root_moves.is_empty() {
            position.legal_moves(&mut root_moves);
        }
        // A root searched among some of its moves has no value of its own for the table.
        self.root_restricted = root_moves.len() < legal;
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
            // A won or lost game is settled once the iteration was deep enough to see every
            // shorter one: then the fastest win (or the slowest loss) is known.
            if value.abs() >= WON && WIN - value.abs() <= depth as i32 {
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

    /// The game's end at `ply` when the rules end it there, from the mover's view: six off,
    /// a repetition draw (which lowers `reach` to the ply of the earliest occurrence it
    /// needs), or the cap's adjudication. The caller has put the position in `path`.
    fn game_end(&self, position: &Position, ply: usize, reach: &mut i32) -> Option<i32> {
        if position.marbles_off(position.to_move()) >= MARBLES_OFF_TO_WIN {
            return Some(-(WIN - ply as i32));
        }
        if self.rules.repetition_draw
            && ply > 0
            && let Some(at) = repetition(
                &self.path,
                self.root_index,
                self.floor[ply],
                self.root_index + ply,
            )
        {
            *reach = (*reach).min(at);
            return Some(0);
        }
        if self.at_cap(ply) {
            return Some(adjudication(position, ply));
        }
        None
    }

    /// Whether the game is over by the length cap at `ply`.
    fn at_cap(&self, ply: usize) -> bool {
        self.rules.max_plies > 0
            && u64::from(self.root_plies) + ply as u64 >= u64::from(self.rules.max_plies)
    }

    /// The table key of a node: the position's hash, mixed with the game ply when the
    /// subtree (`depth` plies and the quiescence search) reaches the cap, whose
    /// adjudication makes the value depend on how many plies are left.
    fn key(&self, position: &Position, ply: usize, depth: i32) -> u64 {
        let horizon = ply as i64 + i64::from(depth.max(0)) + i64::from(MAX_QUIESCENCE_PLIES);
        if self.rules.max_plies == 0
            || i64::from(self.root_plies) + horizon < i64::from(self.rules.max_plies)
        {
            position.hash()
        } else {
            position.hash() ^ mix(u64::from(self.root_plies) + ply as u64)
        }
    }

    /// Puts `child`, reached from the position at `ply` by a move of the game, on the path.
    fn descend(&mut self, ply: usize, parent: &Position, child: &Position) {
        let index = self.root_index + ply + 1;
        self.path[index] = child.hash();
        let total_off = |p: &Position| p.marbles_off(Color::Black) + p.marbles_off(Color::White);
        self.floor[ply + 1] = if total_off(child) == total_off(parent) {
            self.floor[ply]
        } else {
            index
        };
    }

    fn evaluate(&self, position: &Position) -> i32 {
        let noise =
            (position.hash() ^ self.noise_seed).wrapping_mul(crate::seed::GOLDEN_GAMMA) >> 61;
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
        let key = self.key(position, 0, depth);
        let table_move = self.table.probe(key).and_then(|e| e.best);
        self.ordering.order(position, moves, table_move, 0);
        let mut alpha = -INFINITY;
        let mut best = None;
        let mut reach = NO_REPETITION;
        for (index, mv) in moves.iter().enumerate() {
            let child = position.play_unchecked(mv);
            self.descend(0, position, &child);
            let r = &mut reach;
            let value = if index == 0 {
                -self.negamax(&child, depth - 1, -INFINITY, -alpha, 1, true, r, stop)
            } else {
                let probe = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1, true, r, stop);
                if probe > alpha && !self.aborted {
                    -self.negamax(&child, depth - 1, -INFINITY, -alpha, 1, true, r, stop)
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
            let bound = if reach < 0 {
                Bound::MoveOnly
            } else {
                Bound::Exact
            };
            if !self.root_restricted {
                self.table.store(key, best, alpha, depth, bound, 0);
            }
        }
        (alpha, best)
    }

    /// `reach` is lowered to the ply of the earliest position that a repetition draw in
    /// this subtree needed (left alone when there is none).
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        position: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        null_allowed: bool,
        reach: &mut i32,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        self.nodes += 1;
        if self.out_of_budget(stop) {
            return 0;
        }
        if let Some(value) = self.game_end(position, ply, reach) {
            return value;
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.quiescence(position, alpha, beta, ply, 0, stop);
        }
        let key = self.key(position, ply, depth);
        let entry = self.table.probe(key);
        if let Some(value) = entry.and_then(|e| e.cutoff(depth, alpha, beta, ply)) {
            return value;
        }
        // The subtree's repetition draws so far: the node's value holds for any path only
        // when none of them needs a position above it.
        let mut subtree = NO_REPETITION;
        // Null move: if passing still holds beta, a real move will too (Abalone has
        // practically no zugzwang).
        if null_allowed && depth >= 3 && beta < WON && self.evaluate(position) >= beta {
            let value = self.null_move(position, depth, beta, ply, &mut subtree, stop);
            if self.aborted {
                return 0;
            }
            if value >= beta {
                *reach = (*reach).min(subtree);
                return beta;
            }
        }
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            return adjudication(position, ply);
        }
        self.ordering
            .order(position, &mut moves, entry.and_then(|e| e.best), ply);
        let window = (alpha, beta);
        let Some((best_value, best_move)) =
            self.search_moves(position, &moves, depth, window, ply, &mut subtree, stop)
        else {
            return 0;
        };
        let bound = if subtree < ply as i32 {
            Bound::MoveOnly
        } else if best_value >= beta {
            Bound::Lower
        } else if best_value > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if let Some(best) = best_move {
            self.table.store(key, best, best_value, depth, bound, ply);
        }
        *reach = (*reach).min(subtree);
        best_value
    }

    /// The null move's value at `ply`: the turn passes and the opponent searches `depth - 3`
    /// plies with a null window at `beta`. A pass is no move of the game, so it starts a new
    /// stretch for repetitions.
    fn null_move(
        &mut self,
        position: &Position,
        depth: i32,
        beta: i32,
        ply: usize,
        subtree: &mut i32,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        let passed = position.with_turn_passed();
        let index = self.root_index + ply + 1;
        self.path[index] = passed.hash();
        self.floor[ply + 1] = index;
        -self.negamax(
            &passed,
            depth - 3,
            -beta,
            -beta + 1,
            ply + 1,
            false,
            subtree,
            stop,
        )
    }

    /// The moves of a node, in order, within `(alpha, beta)`: the first with the full
    /// window, the others with a null window first (late quiet ones reduced), searched
    /// again when they beat alpha. The best value and move, or `None` when the search was
    /// aborted.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        position: &Position,
        moves: &MoveList,
        depth: i32,
        (mut alpha, beta): (i32, i32),
        ply: usize,
        subtree: &mut i32,
        stop: &dyn Fn() -> bool,
    ) -> Option<(i32, Option<Move>)> {
        let mut best_value = -INFINITY;
        let mut best_move = None;
        let r = subtree;
        for (index, mv) in moves.iter().enumerate() {
            let child = position.play_unchecked(mv);
            self.descend(ply, position, &child);
            let quiet = is_quiet(position, &child);
            let mut value;
            if index == 0 {
                value = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true, r, stop);
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
                    r,
                    stop,
                );
                if value > alpha && reduction > 0 && !self.aborted {
                    value = -self.negamax(
                        &child,
                        depth - 1,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        true,
                        r,
                        stop,
                    );
                }
                if value > alpha && value < beta && !self.aborted {
                    value = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1, true, r, stop);
                }
            }
            if self.aborted {
                return None;
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
                    self.ordering.record_cutoff(mv, ply, depth);
                }
                break;
            }
        }
        Some((best_value, best_move))
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
        if self.at_cap(ply) {
            return adjudication(position, ply);
        }
        // Just before the cap a quiet move ends the game as the marbles stand, so that is
        // what standing pat is worth; the push-offs below may still change it.
        let stand = if self.at_cap(ply + 1) {
            adjudication(position, ply + 1)
        } else {
            self.evaluate(position)
        };
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

    /// The table's value for `position` with no game before it and no cap, if it has one.
    #[cfg(test)]
    fn table_value(&self, position: &Position) -> Option<i32> {
        self.table.root_value(position.hash())
    }
}

/// The cap's adjudication of `position` at `ply`, from the mover's view: more marbles
/// pushed off wins, equal is a draw.
fn adjudication(position: &Position, ply: usize) -> i32 {
    match GameResult::adjudicated(position, EndReason::MoveCap).winner {
        Some(winner) if winner == position.to_move() => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// Whether the position at `path[index]` is a draw by repetition, and if so the ply (from
/// the root at `path[root]`, negative before it) of the earliest occurrence the draw
/// needs. As engines usually do, a position that repeats one strictly after the root is a
/// draw at once (the side that could deviate chose to repeat), and one before the search
/// counts only with a third occurrence, as the rule says. Only `path[floor..]` can match,
/// and only every other entry (the same side to move).
fn repetition(path: &[u64], root: usize, floor: usize, index: usize) -> Option<i32> {
    let key = path[index];
    let mut seen_before_root = false;
    let mut at = index;
    while at >= floor + 2 {
        at -= 2;
        if path[at] == key {
            let ply = at as i32 - root as i32;
            if ply > 0 || seen_before_root {
                return Some(ply);
            }
            seen_before_root = true;
        }
    }
    None
}

/// A key for the game ply, mixed into the table keys of nodes that see the cap.
fn mix(ply: u64) -> u64 {
    crate::seed::splitmix64(ply).1
}

fn is_quiet(before: &Position, after: &Position) -> bool {
    let them = before.to_move().opponent();
    before.marbles(them) == after.marbles(them)
}

#[cfg(test)]
mod tests;
