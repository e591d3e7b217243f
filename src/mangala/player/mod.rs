//! The player and the solver: alpha-beta over exact stone differences with a
//! transposition table, endgame databases at the leaves and iterative deepening.
//!
//! Values are the mover's *future gain*: the mover's final store minus the opponent's,
//! less the difference already banked. Stores do not change what is still to win, so a
//! value belongs to the pits and the side to move alone, which keys the table exactly
//! (no hash collisions can corrupt a proof) and lets one database entry serve every
//! store split.
//!
//! A result is *proved* when no leaf under it was cut by the depth limit and no table
//! entry it used was a depth-limited estimate; proved bounds are kept for every depth.

mod table;

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub use table::Table;
use table::{Key, key_of};

use super::db::EndgameDb;
use super::rules::{EndRule, Landing, PITS, Pit, Position, Side};

/// The table depth of an entry that holds a proved bound, good at any depth.
const PROVED: u8 = u8::MAX;
/// The deepest nominal search: deeper than any real set, so a search to it that still
/// hits the limit is reported as unproved rather than wrong.
pub const MAX_DEPTH: u8 = PROVED - 1;

/// When a search must stop.
#[derive(Copy, Clone, Debug, Default)]
pub struct Limits {
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    /// Deepest iteration; `None` goes on until the value is proved.
    pub depth: Option<u8>,
}

/// What a search found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best pit found; `None` only when the set is over.
    pub best: Option<Pit>,
    /// The mover's future gain (exact when `proved`).
    pub value: i32,
    /// Depth of the last completed iteration.
    pub depth: u8,
    pub proved: bool,
    pub nodes: u64,
}

/// A child of a node, made once and kept for ordering.
#[derive(Copy, Clone)]
struct Child {
    pit: Pit,
    position: Position,
    gain: i32,
    same_mover: bool,
    order: i32,
    /// The move's exact value when the set ends with it or the database knows the rest.
    known: Option<i32>,
}

/// The searcher: the table persists between searches (it only holds facts about
/// positions), the counters are per search.
pub struct Searcher {
    rule: EndRule,
    table: Arc<Table>,
    db: Option<Arc<EndgameDb>>,
    /// Nonzero in a solver's helper thread: shuffles the order of moves the table does
    /// not rank, so helpers prove other subtrees than the main thread first.
    jitter: u64,
    nodes: u64,
    unproved: u64,
    limits: Limits,
    aborted: bool,
    solver_threads: usize,
}

/// A stop condition for searches that run to their limits.
pub fn never() -> bool {
    false
}

impl Searcher {
    /// A searcher for `rule` with a table of `2^table_bits` entries; a database for
    /// other rules is ignored.
    pub fn new(rule: EndRule, table_bits: u32, db: Option<Arc<EndgameDb>>) -> Searcher {
        let db = db.filter(|db| db.rule() == rule);
        Searcher {
            rule,
            table: Arc::new(Table::new(table_bits)),
            db,
            jitter: 0,
            nodes: 0,
            unproved: 0,
            limits: Limits::default(),
            aborted: false,
            solver_threads: 1,
        }
    }

    pub fn rule(&self) -> EndRule {
        self.rule
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    pub fn db_stones(&self) -> Option<u32> {
        self.db.as_deref().map(EndgameDb::max_stones)
    }

    /// Iterative deepening from depth 1 until the value is proved or a limit is hit;
    /// the answer is the deepest completed iteration's.
    /// `stop` is asked every few thousand nodes.
    pub fn search(
        &mut self,
        position: &Position,
        limits: Limits,
        stop: &dyn Fn() -> bool,
    ) -> SearchResult {
        self.nodes = 0;
        self.aborted = false;
        self.limits = limits;
        let mut result = SearchResult {
            best: position.legal_moves().next(),
            value: 0,
            depth: 0,
            proved: position.is_over(),
            nodes: 0,
        };
        if position.is_over() {
            return result;
        }
        if let Some((pit, value)) = self.database_answer(position) {
            result.best = Some(pit);
            result.value = value;
            result.proved = true;
            return result;
        }
        let last = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        for depth in 1..=last {
            let before = self.unproved;
            let Some((value, best)) = self.root(position, depth, stop) else {
                break;
            };
            result.best = Some(best);
            result.value = value;
            result.depth = depth;
            result.proved = self.unproved == before;
            tracing::debug!(
                depth,
                value,
                best = best.number(),
                nodes = self.nodes,
                "iteration"
            );
            if result.proved {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    /// The exact value of `position` by MTD(f) null-window searches at growing depths
    /// until a pass meets no depth cut (`limits.depth` caps the depth). `progress` hears
    /// each proved bound.
    pub fn solve(
        &mut self,
        position: &Position,
        limits: Limits,
        stop: &dyn Fn() -> bool,
        progress: &mut dyn FnMut(i32, i32, u64),
    ) -> Solution {
        self.nodes = 0;
        self.aborted = false;
        self.limits = limits;
        let board = position.board_stones() as i32;
        let mut lower = -board;
        let mut upper = board;
        if position.is_over() {
            return Solution {
                lower: 0,
                upper: 0,
                best: None,
                nodes: 0,
            };
        }
        // MTD(f) at growing depths: a shallow iteration is cheap and leaves in the table
        // the best moves that order the next one, and its value is the next one's first
        // guess. A pass that met no depth cut proves its bound at every depth.
        let last = limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
        let mut guess = 0;
        let mut best = position.legal_moves().next();
        'deepening: for depth in 1..=last {
            let (mut low, mut high) = (lower, upper);
            while low < high {
                let beta = guess.clamp(low + 1, high);
                let before = self.unproved;
                let value = self.null_window(position, depth, beta, stop);
                if self.aborted {
                    break 'deepening;
                }
                let proved = self.unproved == before;
                if value >= beta {
                    low = value;
                    if proved {
                        lower = lower.max(value);
                    }
                } else {
                    high = value;
                    if proved {
                        upper = upper.min(value);
                    }
                }
                guess = value;
                if proved {
                    progress(lower, upper, self.nodes);
                }
            }
            if let Some(entry) = self.table.probe(key_of(position)) {
                best = Pit::new(entry.best).or(best);
            }
            tracing::debug!(
                depth,
                guess,
                lower,
                upper,
                nodes = self.nodes,
                "solve iteration"
            );
            if lower >= upper {
                break;
            }
        }
        if lower == upper {
            if let Some((pit, _)) = self.database_answer(position) {
                best = Some(pit);
            } else if let Some(entry) = self.table.probe(key_of(position)) {
                best = Pit::new(entry.best).or(best);
            }
        }
        Solution {
            lower,
            upper,
            best,
            nodes: self.nodes,
        }
    }

    /// Threads for [`Searcher::solve`] (1: this one alone).
    pub fn set_solver_threads(&mut self, threads: usize) {
        self.solver_threads = threads.max(1);
    }

    /// One proof of `value >= beta` or `value < beta`. Helper threads run the same
    /// null-window search over the shared table with shuffled move orders (lazy SMP):
    /// the subtrees they prove are lookups for the others, and the first thread to
    /// finish ends the pass for all.
    fn null_window(
        &mut self,
        position: &Position,
        depth: u8,
        beta: i32,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        if self.solver_threads <= 1 {
            return self.node(position, depth, beta - 1, beta, stop);
        }
        let done = AtomicBool::new(false);
        let root = *position;
        let (value, helper_answer, helper_nodes) = std::thread::scope(|scope| {
            let helpers: Vec<_> = (1..self.solver_threads)
                .map(|i| {
                    let mut helper = Searcher {
                        rule: self.rule,
                        table: Arc::clone(&self.table),
                        db: self.db.clone(),
                        jitter: (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03),
                        nodes: 0,
                        unproved: 0,
                        limits: Limits::default(),
                        aborted: false,
                        solver_threads: 1,
                    };
                    let done = &done;
                    scope.spawn(move || {
                        let stop = || done.load(Ordering::Relaxed);
                        let value = helper.node(&root, depth, beta - 1, beta, &stop);
                        let finished = !helper.aborted;
                        if finished {
                            done.store(true, Ordering::Relaxed);
                        }
                        // Whether the helper's value met a depth cut travels with it.
                        let answer = (value, helper.unproved > 0);
                        (finished.then_some(answer), helper.nodes)
                    })
                })
                .collect();
            let main_stop = || stop() || done.load(Ordering::Relaxed);
            let value = self.node(&root, depth, beta - 1, beta, &main_stop);
            done.store(true, Ordering::Relaxed);
            let mut answer = None;
            let mut nodes = 0;
            for helper in helpers {
                if let Ok((found, helper_nodes)) = helper.join() {
                    answer = answer.or(found);
                    nodes += helper_nodes;
                }
            }
            (value, answer, nodes)
        });
        self.nodes += helper_nodes;
        if self.aborted
            && let Some((found, unproved)) = helper_answer
        {
            // A helper finished first and stopped this thread: its answer stands, proved
            // only if the helper's search was.
            self.aborted = false;
            if unproved {
                self.unproved += 1;
            }
            return found;
        }
        value
    }

    /// The database's best pit and value for a root it covers: such a root is never
    /// searched (its value is read at once), so the table would hold no move for it.
    fn database_answer(&self, position: &Position) -> Option<(Pit, i32)> {
        let db = self.db.as_deref()?;
        db.value(position)?;
        super::db::best_pit(db, position)
    }

    fn root(
        &mut self,
        position: &Position,
        depth: u8,
        stop: &dyn Fn() -> bool,
    ) -> Option<(i32, Pit)> {
        let value = self.node(position, depth, -64, 64, stop);
        if self.aborted {
            return None;
        }
        let entry = self.table.probe(key_of(position))?;
        Some((value, Pit::new(entry.best)?))
    }

    fn over_budget(&mut self, stop: &dyn Fn() -> bool) -> bool {
        if self.aborted {
            return true;
        }
        let budget_spent = self.limits.nodes.is_some_and(|limit| self.nodes >= limit);
        // The clock and the interrupt flag cost too much to read at every node.
        let told_to_stop = self.nodes.is_multiple_of(4096)
            && (stop() || self.limits.deadline.is_some_and(|d| Instant::now() >= d));
        self.aborted = budget_spent || told_to_stop;
        self.aborted
    }

    /// Stores a node's bounds: proved at any depth when nothing unproved was met since
    /// `since.0`, and worth the nodes searched since `since.1`.
    fn remember(&self, key: Key, bounds: (i32, i32), depth: u8, best: u8, since: (u64, u64)) {
        let (unproved_before, nodes_before) = since;
        let stored_depth = if self.unproved == unproved_before {
            PROVED
        } else {
            depth
        };
        let work = work_of(self.nodes - nodes_before);
        self.table.store(key, bounds, stored_depth, best, work);
    }

    /// Fail-soft alpha-beta; the root's best pit is left in the table.
    fn node(
        &mut self,
        position: &Position,
        depth: u8,
        alpha: i32,
        beta: i32,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        let nodes_before = self.nodes;
        self.nodes += 1;
        if self.over_budget(stop) {
            return 0;
        }
        let board = position.board_stones() as i32;
        if let Some(value) = self.settled(position, board, alpha, beta) {
            return value;
        }
        let key = key_of(position);
        let mut window = (alpha, beta);
        let table_best = match self.probe(key, depth, &mut window) {
            ControlFlow::Break(value) => return value,
            ControlFlow::Continue(best) => best,
        };
        if depth == 0 {
            self.unproved += 1;
            return 0;
        }
        let since = (self.unproved, nodes_before);
        let (alpha, beta) = window;
        let mut children = [None::<Child>; PITS];
        for pit in position.legal_moves() {
            let child = self.child(position, pit, key, table_best);
            if let Some(floor) = self.transposition_cutoff(&child, depth, beta) {
                self.remember(key, (floor.min(board), board), depth, pit.number(), since);
                return floor;
            }
            children[pit.offset()] = Some(child);
        }
        let ordered = best_first(children);
        let Some((best_value, best_pit)) = self.search_children(ordered, depth, window, stop)
        else {
            return 0;
        };
        let lower = if best_value > alpha {
            best_value
        } else {
            -board
        };
        let upper = if best_value < beta { best_value } else { board };
        let bounds = (lower.max(-board), upper.min(board));
        self.remember(key, bounds, depth, best_pit, since);
        best_value
    }

    /// A node's value without a search: an empty board, a position the database knows,
    /// or a window that the stones left on the `board` cannot reach (nobody can win more
    /// than what is left).
    fn settled(&self, position: &Position, board: i32, alpha: i32, beta: i32) -> Option<i32> {
        if board == 0 {
            return Some(0);
        }
        if let Some(db) = &self.db
            && let Some(value) = db.value(position)
        {
            return Some(i32::from(value));
        }
        if alpha >= board {
            return Some(board);
        }
        if beta <= -board {
            return Some(-board);
        }
        None
    }

    /// What the table says about the node at `key`, searched `depth` plies deep in
    /// `window`: `Break` with the value when an entry deep enough settles it; otherwise
    /// the entry's best pit (0 for none), with the window narrowed to the bounds of an
    /// entry deep enough. Using an unproved entry makes the node unproved.
    fn probe(&mut self, key: Key, depth: u8, window: &mut (i32, i32)) -> ControlFlow<i32, u8> {
        let Some(entry) = self.table.probe(key) else {
            return ControlFlow::Continue(0);
        };
        if entry.depth >= depth {
            let (alpha, beta) = *window;
            let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
            let cut = if lower >= beta {
                Some(lower)
            } else if upper <= alpha || lower == upper {
                Some(upper)
            } else {
                None
            };
            if entry.depth != PROVED {
                self.unproved += 1;
            }
            if let Some(value) = cut {
                return ControlFlow::Break(value);
            }
            *window = (alpha.max(lower), beta.min(upper));
        }
        ControlFlow::Continue(entry.best)
    }

    /// The child of the node at `key` after `pit`: its exact value when the set ends with
    /// the move or the database knows the rest, and its place in the move order (the
    /// table's best pit, known values, moves ending in the store, captures, then the
    /// rest, with a little seeded jitter for helper threads).
    fn child(&self, position: &Position, pit: Pit, key: Key, table_best: u8) -> Child {
        let mover = position.to_move();
        let banked = position.store_difference(mover);
        let (next, landing) = position.play_unchecked(pit, self.rule);
        let gain = next.store_difference(mover) - banked;
        let mut child = Child {
            pit,
            position: next,
            gain,
            same_mover: next.to_move() == mover,
            order: 0,
            known: None,
        };
        child.known = if next.is_over() {
            Some(gain)
        } else {
            self.db
                .as_ref()
                .and_then(|db| db.value(&next))
                .map(|future| child.for_mover(i32::from(future)))
        };
        child.order = if pit.number() == table_best {
            1000
        } else if let Some(value) = child.known {
            900 + value
        } else {
            let shuffle = if self.jitter == 0 {
                0
            } else {
                let mixed = (key.low ^ self.jitter ^ u64::from(pit.number()))
                    .wrapping_mul(crate::seed::GOLDEN_GAMMA);
                (mixed >> 61) as i32
            };
            shuffle
                + match landing {
                    Landing::Store => 500 + i32::from(pit.number()),
                    Landing::EvenCapture { .. } | Landing::EmptyPitCapture { .. } => 100 + gain,
                    Landing::Quiet => i32::from(pit.number()),
                }
        };
        child
    }

    /// Enhanced transposition cutoff: a child whose known value, or whose table bound
    /// (from an entry at least `depth - 1` deep), already reaches `beta` settles its node
    /// without a search.
    fn transposition_cutoff(&mut self, child: &Child, depth: u8, beta: i32) -> Option<i32> {
        let floor = child.known.or_else(|| {
            let entry = self.table.probe(key_of(&child.position))?;
            if entry.depth < depth - 1 {
                return None;
            }
            let floor = if child.same_mover {
                child.for_mover(i32::from(entry.lower))
            } else {
                child.for_mover(i32::from(entry.upper))
            };
            (floor >= beta).then(|| {
                if entry.depth != PROVED {
                    self.unproved += 1;
                }
                floor
            })
        });
        floor.filter(|&floor| floor >= beta)
    }

    /// Searches the `ordered` children in `(alpha, beta)` until one reaches beta: the best
    /// value and its pit, or `None` when the search was aborted.
    fn search_children(
        &mut self,
        ordered: [Option<Child>; PITS],
        depth: u8,
        (mut alpha, beta): (i32, i32),
        stop: &dyn Fn() -> bool,
    ) -> Option<(i32, u8)> {
        let mut best_value = i32::MIN;
        let mut best_pit = 0;
        for child in ordered.into_iter().flatten() {
            let value = if let Some(value) = child.known {
                value
            } else if child.same_mover {
                child.gain
                    + self.node(
                        &child.position,
                        depth - 1,
                        alpha - child.gain,
                        beta - child.gain,
                        stop,
                    )
            } else {
                child.gain
                    - self.node(
                        &child.position,
                        depth - 1,
                        child.gain - beta,
                        child.gain - alpha,
                        stop,
                    )
            };
            if self.aborted {
                return None;
            }
            if value > best_value {
                best_value = value;
                best_pit = child.pit.number();
                if value > alpha {
                    alpha = value;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Some((best_value, best_pit))
    }
}

impl Child {
    /// A value from the child's mover's view (its future gain) as the node's mover sees
    /// it, the move's gain included.
    fn for_mover(&self, future: i32) -> i32 {
        if self.same_mover {
            self.gain + future
        } else {
            self.gain - future
        }
    }
}

/// Best first: insertion sort of at most six.
fn best_first(children: [Option<Child>; PITS]) -> [Option<Child>; PITS] {
    let mut ordered = [None::<Child>; PITS];
    for (count, child) in children.into_iter().flatten().enumerate() {
        let mut at = count;
        while at > 0 && ordered[at - 1].is_some_and(|c: Child| c.order < child.order) {
            ordered[at] = ordered[at - 1];
            at -= 1;
        }
        ordered[at] = Some(child);
    }
    ordered
}

/// An entry's `work`: the bit length of its subtree's node count.
fn work_of(nodes: u64) -> u8 {
    (u64::BITS - nodes.leading_zeros()) as u8
}

/// A solver's answer: proved bounds on the mover's future gain (equal when solved).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub lower: i32,
    pub upper: i32,
    pub best: Option<Pit>,
    pub nodes: u64,
}

impl Solution {
    pub fn exact(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// Whose view a value is in, for reports: a future gain of the mover as the final
/// margin of `side`.
pub fn margin_for(position: &Position, mover_gain: i32, side: Side) -> i32 {
    let mover = position.to_move();
    let final_for_mover = position.store_difference(mover) + mover_gain;
    if side == mover {
        final_for_mover
    } else {
        -final_for_mover
    }
}
