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

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::db::EndgameDb;
use super::rules::{EndRule, Landing, PITS, Pit, Position, Side};

/// The table depth of an entry that holds a proved bound, good at any depth.
const PROVED: u8 = u8::MAX;
/// The deepest nominal search: deeper than any real set, so a search to it that still
/// hits the limit is reported as unproved rather than wrong.
pub const MAX_DEPTH: u8 = PROVED - 1;

/// One table slot: 12 pits of 6 bits and the mover, packed exactly.
#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key_low: u64,
    key_high: u16,
    lower: i8,
    upper: i8,
    depth: u8,
    best: u8,
    used: bool,
    /// log2 of the nodes the search below this entry took: what losing it would cost.
    work: u8,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Key {
    low: u64,
    high: u16,
}

fn key_of(position: &Position) -> Key {
    let cells = position.cells();
    let mut low = 0u64;
    for (i, &cell) in [0, 1, 2, 3, 4, 5, 7, 8, 9, 10].iter().enumerate() {
        low |= u64::from(cells[cell]) << (6 * i);
    }
    low |= (position.to_move().index() as u64) << 60;
    let high = u16::from(cells[11]) | (u16::from(cells[12]) << 6);
    Key { low, high }
}

/// Entries a bucket holds: four of 16 bytes fill one cache line.
const WAYS: usize = 4;

/// An entry as stored: the key's low word XOR the data word, then the data word. A
/// reader recomputes the low word from both, so a slot torn by two threads writing at
/// once fails the key check and reads as empty instead of as a wrong bound.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Entry {
    fn pack(&self) -> u64 {
        u64::from(self.key_high)
            | u64::from(self.lower as u8) << 12
            | u64::from(self.upper as u8) << 20
            | u64::from(self.depth) << 28
            | u64::from(self.best) << 36
            | u64::from(self.work) << 40
            | u64::from(self.used) << 48
    }

    fn unpack(key_low: u64, data: u64) -> Entry {
        Entry {
            key_low,
            key_high: (data & 0xfff) as u16,
            lower: (data >> 12) as u8 as i8,
            upper: (data >> 20) as u8 as i8,
            depth: (data >> 28) as u8,
            best: (data >> 36) as u8 & 0xf,
            work: (data >> 40) as u8,
            used: data >> 48 & 1 == 1,
        }
    }
}

/// A four-way set-associative table that threads share without locks. A full bucket
/// gives up the entry whose search was cheapest to redo, so the proofs that cost the
/// most stay longest: what a solver needs, since its entries are all good at any depth.
pub struct Table {
    slots: Vec<Slot>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries (16 bytes each).
    pub fn new(bits: u32) -> Table {
        let len = 1usize << bits.clamp(2, 34);
        Table {
            slots: (0..len).map(|_| Slot::default()).collect(),
            mask: len / WAYS - 1,
        }
    }

    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot>()
    }

    fn bucket(&self, key: Key) -> usize {
        let mixed = (key.low ^ (u64::from(key.high) << 47).rotate_left(13))
            .wrapping_mul(crate::seed::GOLDEN_GAMMA);
        ((mixed >> 20) as usize & self.mask) * WAYS
    }

    fn read(&self, at: usize) -> Entry {
        let data = self.slots[at].data.load(Ordering::Relaxed);
        let check = self.slots[at].check.load(Ordering::Relaxed);
        Entry::unpack(check ^ data, data)
    }

    fn write(&self, at: usize, entry: &Entry) {
        let data = entry.pack();
        self.slots[at]
            .check
            .store(entry.key_low ^ data, Ordering::Relaxed);
        self.slots[at].data.store(data, Ordering::Relaxed);
    }

    fn probe(&self, key: Key) -> Option<Entry> {
        let at = self.bucket(key);
        (at..at + WAYS)
            .map(|i| self.read(i))
            .find(|e| e.used && e.key_low == key.low && e.key_high == key.high)
    }

    fn store(&self, key: Key, bounds: (i32, i32), depth: u8, best: u8, work: u8) {
        let entry = Entry {
            key_low: key.low,
            key_high: key.high,
            lower: bounds.0 as i8,
            upper: bounds.1 as i8,
            depth,
            best,
            used: true,
            work,
        };
        let at = self.bucket(key);
        let bucket: [Entry; WAYS] = std::array::from_fn(|i| self.read(at + i));
        let same = |e: &Entry| e.used && e.key_low == key.low && e.key_high == key.high;
        if let Some(i) = bucket.iter().position(same) {
            let old = bucket[i];
            if old.depth == PROVED && depth == PROVED {
                // Two proofs about one position: keep both bounds.
                let merged = Entry {
                    lower: entry.lower.max(old.lower),
                    upper: entry.upper.min(old.upper),
                    work: entry.work.max(old.work),
                    ..entry
                };
                self.write(at + i, &merged);
            } else if depth >= old.depth {
                self.write(at + i, &entry);
            }
            return;
        }
        // An unproved estimate is worth less than any proof, whatever it cost.
        let worth = |e: &Entry| (e.used, e.depth == PROVED, e.work, e.depth);
        if let Some(victim) = (0..WAYS).min_by_key(|&i| worth(&bucket[i])) {
            self.write(at + victim, &entry);
        }
    }
}

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
        mut alpha: i32,
        mut beta: i32,
        stop: &dyn Fn() -> bool,
    ) -> i32 {
        let nodes_before = self.nodes;
        self.nodes += 1;
        if self.over_budget(stop) {
            return 0;
        }
        let board = position.board_stones() as i32;
        if board == 0 {
            return 0;
        }
        if let Some(db) = &self.db
            && let Some(value) = db.value(position)
        {
            return i32::from(value);
        }
        // Nobody can win more than what is left on the board.
        if alpha >= board {
            return board;
        }
        if beta <= -board {
            return -board;
        }
        let key = key_of(position);
        let mut table_best = 0;
        if let Some(entry) = self.table.probe(key) {
            table_best = entry.best;
            if entry.depth >= depth {
                let (lower, upper) = (i32::from(entry.lower), i32::from(entry.upper));
                let cut = if lower >= beta {
                    Some(lower)
                } else if upper <= alpha || lower == upper {
                    Some(upper)
                } else {
                    None
                };
                if let Some(value) = cut {
                    if entry.depth != PROVED {
                        self.unproved += 1;
                    }
                    return value;
                }
                if entry.depth != PROVED {
                    self.unproved += 1;
                }
                alpha = alpha.max(lower);
                beta = beta.min(upper);
            }
        }
        if depth == 0 {
            self.unproved += 1;
            return 0;
        }
        let unproved_before = self.unproved;
        let (alpha_in, beta_in) = (alpha, beta);
        let mut children = [None::<Child>; PITS];
        let mover = position.to_move();
        let banked = position.store_difference(mover);
        for pit in position.legal_moves() {
            let (next, landing) = position.play_unchecked(pit, self.rule);
            let gain = next.store_difference(mover) - banked;
            let same_mover = next.to_move() == mover;
            let for_mover = |future: i32| {
                if same_mover {
                    gain + future
                } else {
                    gain - future
                }
            };
            let known = if next.is_over() {
                Some(gain)
            } else {
                self.db
                    .as_ref()
                    .and_then(|db| db.value(&next))
                    .map(|future| for_mover(i32::from(future)))
            };
            // Enhanced transposition cutoff: a child whose known value, or whose table
            // bound, already reaches beta settles this node without a search.
            let floor = known.or_else(|| {
                let entry = self.table.probe(key_of(&next))?;
                if entry.depth < depth - 1 {
                    return None;
                }
                let floor = if same_mover {
                    for_mover(i32::from(entry.lower))
                } else {
                    for_mover(i32::from(entry.upper))
                };
                (floor >= beta).then(|| {
                    if entry.depth != PROVED {
                        self.unproved += 1;
                    }
                    floor
                })
            });
            if let Some(floor) = floor
                && floor >= beta
            {
                let since = (unproved_before, nodes_before);
                self.remember(key, (floor.min(board), board), depth, pit.number(), since);
                return floor;
            }
            let order = if pit.number() == table_best {
                1000
            } else if let Some(value) = known {
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
            children[pit.offset()] = Some(Child {
                pit,
                position: next,
                gain,
                same_mover,
                order,
                known,
            });
        }
        // Best first: insertion sort of at most six.
        let mut ordered = [None::<Child>; PITS];
        for (count, child) in children.into_iter().flatten().enumerate() {
            let mut at = count;
            while at > 0 && ordered[at - 1].is_some_and(|c: Child| c.order < child.order) {
                ordered[at] = ordered[at - 1];
                at -= 1;
            }
            ordered[at] = Some(child);
        }
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
                return 0;
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
        let lower = if best_value > alpha_in {
            best_value
        } else {
            -board
        };
        let upper = if best_value < beta_in {
            best_value
        } else {
            board
        };
        let bounds = (lower.max(-board), upper.min(board));
        self.remember(
            key,
            bounds,
            depth,
            best_pit,
            (unproved_before, nodes_before),
        );
        best_value
    }
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
