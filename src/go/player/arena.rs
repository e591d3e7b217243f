//! The nodes of one search tree, shared by every search thread: a lock-free arena of
//! atomic nodes.
//!
//! Every thread of a search walks the same tree (Pachi's and Fuego's shared tree, not
//! one tree a thread): a simulation counts itself on the nodes of its path as it goes
//! down (virtual loss, [`SharedNode::in_flight`]), so that threads spread over the
//! moves instead of all running the same line, and adds its result on the way back.
//!
//! Nothing here locks. The statistics are atomics updated with relaxed ordering: two
//! threads adding at once both count, and the running means ([`f32`] bits) may now and
//! then lose an update, which only blurs a mean that thousands of visits make. A node's
//! children are published by one atomic word ([`SharedNode::children`]): the thread
//! that wins it (compare-and-swap from "leaf" to "expanding") writes the children, then
//! stores their range with release ordering; a thread that reads the range with acquire
//! ordering sees the children complete, and a thread that finds the node expanding
//! treats it as a leaf this once.
//!
//! Nodes live in chunks allocated when first touched, so a small search costs a small
//! allocation and a long one grows up to its cap without moving a node. With one thread
//! the search does exactly what a plain arena would: the same seed gives the same tree.

use std::sync::OnceLock;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU64, AtomicUsize};

use crate::go::board::Point;

/// Nodes a chunk: 192 KB, room for more than ten 19×19 expansions.
const CHUNK_BITS: usize = 12;
const CHUNK: usize = 1 << CHUNK_BITS;

/// [`SharedNode::children`] of a node another thread is expanding right now.
const EXPANDING: u64 = u64::MAX;

/// [`Node::net_value`] of an expanded node the net has not judged yet (a win probability
/// is never negative).
pub(crate) const NET_PENDING: f32 = -1.0;
/// [`Node::net_value`] of a node a thread is judging right now.
pub(crate) const NET_JUDGING: f32 = -2.0;

/// A node's children as [`SharedNode::children`] says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Children {
    /// Not expanded (yet).
    Leaf,
    /// Another thread is writing them.
    Expanding,
    /// `count` nodes from `first` on.
    At { first: usize, count: usize },
}

/// One node's plain copy: a finished tree, a kept tree, a report (see [`SharedNode`]
/// for the live one).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Node {
    /// The move leading here; `None` for a pass (and for the root).
    pub(crate) mv: Option<Point>,
    pub(crate) num_children: u16,
    /// Index of the first child; meaningful only when `num_children > 0`.
    pub(crate) first_child: u32,
    pub(crate) visits: u32,
    /// Sum of rewards for the player who made `mv`, in half points (a draw is worth
    /// 1, a win 2). Integers because an `f32` sum stops growing at 2^24: a long ponder
    /// or a kept tree reaches that at the root, and the win rate would then drift down.
    pub(crate) half_wins: u32,
    pub(crate) amaf_visits: u32,
    pub(crate) amaf_half_wins: u32,
    /// Mean final area margin for Black (komi included) over the node's visits. Kept as
    /// a running mean: a sum in `f32` would stop counting single points after a few
    /// hundred thousand visits.
    pub(crate) score: f32,
    pub(crate) prior_visits: f32,
    pub(crate) prior_wins: f32,
    /// With the net's value mixed in (`--net-value-weight`): the mean over the node's
    /// visits of the net's win probability, for the player who made `mv`, of the
    /// position each visit's playout started from (see `Tree::simulate`).
    pub(crate) value: f32,
    /// The net's win probability for the player who made `mv`, once the net has judged
    /// the node (its own judgement, which visits below it back up); [`NET_PENDING`] while
    /// an expanded node waits for the visits that earn it a judgement
    /// (`--net-min-visits`), [`NET_JUDGING`] while a thread is judging it.
    pub(crate) net_value: f32,
}

impl Node {
    pub(crate) fn new(mv: Option<Point>, prior_visits: f32, prior_wins: f32) -> Node {
        Node {
            mv,
            num_children: 0,
            first_child: 0,
            visits: 0,
            half_wins: 0,
            amaf_visits: 0,
            amaf_half_wins: 0,
            score: 0.0,
            prior_visits,
            prior_wins,
            value: 0.0,
            net_value: 0.5,
        }
    }

    /// Sum of rewards for the player who made `mv`.
    pub(crate) fn wins(&self) -> f64 {
        f64::from(self.half_wins) / 2.0
    }

    pub(crate) fn amaf_wins(&self) -> f64 {
        f64::from(self.amaf_half_wins) / 2.0
    }

    /// The prior's win rate: how much the heuristics like the move.
    pub(crate) fn prior(&self) -> f32 {
        if self.prior_visits > 0.0 {
            self.prior_wins / self.prior_visits
        } else {
            0.5
        }
    }

    pub(crate) fn children(&self) -> std::ops::Range<usize> {
        let first = self.first_child as usize;
        first..first + usize::from(self.num_children)
    }
}

/// One node, readable and writable by every thread at once. [`Node`] is its plain copy.
#[derive(Default)]
pub(crate) struct SharedNode {
    /// The move leading here as [`Point::index`], 0 ([`Point::NONE`]) for a pass or the
    /// root: written once, before the node is published.
    mv: AtomicU16,
    /// Simulations that have stepped into the node and not yet come back: each counts
    /// as a lost visit while it runs (virtual loss). At most one a thread.
    in_flight: AtomicU16,
    /// 0: a leaf; [`EXPANDING`]; else the first child's index times 2^16 plus the count.
    children: AtomicU64,
    visits: AtomicU32,
    half_wins: AtomicU32,
    amaf_visits: AtomicU32,
    amaf_half_wins: AtomicU32,
    /// `f32` bits of [`Node::score`], of [`Node::prior_visits`], of [`Node::prior_wins`].
    score: AtomicU32,
    prior_visits: AtomicU32,
    prior_wins: AtomicU32,
    /// `f32` bits of [`Node::value`] and of [`Node::net_value`].
    value: AtomicU32,
    net_value: AtomicU32,
}

fn load_f32(cell: &AtomicU32) -> f32 {
    f32::from_bits(cell.load(Relaxed))
}

fn store_f32(cell: &AtomicU32, value: f32) {
    cell.store(value.to_bits(), Relaxed);
}

fn encode_move(mv: Option<Point>) -> u16 {
    // Board indices stay below MAX_POINTS (a few hundred), so they fit 16 bits.
    mv.map_or(0, |p| p.index() as u16)
}

fn decode_move(raw: u16) -> Option<Point> {
    (raw != 0).then(|| Point::from_index(raw))
}

impl SharedNode {
    pub(crate) fn mv(&self) -> Option<Point> {
        decode_move(self.mv.load(Relaxed))
    }

    pub(crate) fn children(&self) -> Children {
        match self.children.load(Acquire) {
            0 => Children::Leaf,
            EXPANDING => Children::Expanding,
            word => Children::At {
                first: (word >> 16) as usize,
                count: (word & 0xFFFF) as usize,
            },
        }
    }

    /// The children's indices (empty unless expanded).
    pub(crate) fn child_range(&self) -> std::ops::Range<usize> {
        match self.children() {
            Children::At { first, count } => first..first + count,
            Children::Leaf | Children::Expanding => 0..0,
        }
    }

    /// Claims the node for expansion: true for the one thread that may write its
    /// children (it must then [`SharedNode::publish`] or [`SharedNode::abandon`]).
    pub(crate) fn start_expanding(&self) -> bool {
        self.children
            .compare_exchange(0, EXPANDING, Acquire, Relaxed)
            .is_ok()
    }

    /// Publishes the children written at `first..first + count` (count above 0).
    pub(crate) fn publish(&self, first: usize, count: usize) {
        // At most 625 points plus a pass fit 16 bits; the arena's indices fit 48.
        self.children
            .store(((first as u64) << 16) | count as u64, Release);
    }

    /// Gives up an expansion (the tree is full): the node is a leaf again.
    pub(crate) fn abandon(&self) {
        self.children.store(0, Release);
    }

    pub(crate) fn visits(&self) -> u32 {
        self.visits.load(Relaxed)
    }

    pub(crate) fn in_flight(&self) -> u32 {
        u32::from(self.in_flight.load(Relaxed))
    }

    pub(crate) fn half_wins(&self) -> u32 {
        self.half_wins.load(Relaxed)
    }

    pub(crate) fn amaf_visits(&self) -> u32 {
        self.amaf_visits.load(Relaxed)
    }

    pub(crate) fn amaf_half_wins(&self) -> u32 {
        self.amaf_half_wins.load(Relaxed)
    }

    pub(crate) fn prior_visits(&self) -> f32 {
        load_f32(&self.prior_visits)
    }

    pub(crate) fn prior_wins(&self) -> f32 {
        load_f32(&self.prior_wins)
    }

    /// A simulation steps into the node.
    pub(crate) fn enter(&self) {
        self.in_flight.fetch_add(1, Relaxed);
    }

    /// A simulation that stepped in comes back.
    pub(crate) fn leave(&self) {
        self.in_flight.fetch_sub(1, Relaxed);
    }

    /// Counts one simulation through the node: `half_reward` for the player who made
    /// the move, `black_margin` for the running mean score.
    pub(crate) fn add_visit(&self, half_reward: u32, black_margin: f32) {
        let visits = self.visits.fetch_add(1, Relaxed) + 1;
        let score = load_f32(&self.score);
        store_f32(&self.score, score + (black_margin - score) / visits as f32);
        self.half_wins.fetch_add(half_reward, Relaxed);
    }

    /// Adds the net's `value` (for the player who made the move) to the running mean of
    /// the visits' values; call it after [`SharedNode::add_visit`] for the same visit.
    pub(crate) fn add_value(&self, value: f32) {
        let visits = self.visits().max(1);
        let mean = load_f32(&self.value);
        store_f32(&self.value, mean + (value - mean) / visits as f32);
    }

    /// [`Node::value`].
    pub(crate) fn value(&self) -> f32 {
        load_f32(&self.value)
    }

    /// [`Node::net_value`].
    pub(crate) fn net_value(&self) -> f32 {
        load_f32(&self.net_value)
    }

    /// Sets [`Node::net_value`] (by the thread expanding or judging the node), or marks
    /// it [`NET_PENDING`].
    pub(crate) fn set_net_value(&self, value: f32) {
        store_f32(&self.net_value, value);
    }

    /// The net's judgement of the node ([`Node::net_value`]) if it has one.
    pub(crate) fn judged_value(&self) -> Option<f32> {
        Some(self.net_value()).filter(|&value| value >= 0.0)
    }

    /// Whether the node waits for the net's judgement ([`NET_PENDING`]).
    pub(crate) fn net_pending(&self) -> bool {
        self.net_value.load(Relaxed) == NET_PENDING.to_bits()
    }

    /// Claims a pending node's judgement: true for the one thread that must judge it
    /// (and then [`SharedNode::set_net_value`]).
    pub(crate) fn claim_judgement(&self) -> bool {
        (self.net_value)
            .compare_exchange(
                NET_PENDING.to_bits(),
                NET_JUDGING.to_bits(),
                Relaxed,
                Relaxed,
            )
            .is_ok()
    }

    /// Counts one AMAF (RAVE) visit worth `half_reward`.
    pub(crate) fn add_amaf(&self, half_reward: u32) {
        self.amaf_visits.fetch_add(1, Relaxed);
        self.amaf_half_wins.fetch_add(half_reward, Relaxed);
    }

    /// Adds `visits` virtual visits with `wins` virtual wins to the node's prior.
    pub(crate) fn add_prior(&self, visits: f32, wins: f32) {
        store_f32(&self.prior_visits, self.prior_visits() + visits);
        store_f32(&self.prior_wins, self.prior_wins() + wins);
    }

    /// Adds `bonus` virtual wins in as many virtual visits to the prior.
    pub(crate) fn add_prior_wins(&self, bonus: f32) {
        self.add_prior(bonus, bonus);
    }

    /// The node's plain copy (its children's range as it stands).
    pub(crate) fn load(&self) -> Node {
        let (first_child, num_children) = match self.children() {
            // Both fit: see `publish`.
            Children::At { first, count } => (first as u32, count as u16),
            Children::Leaf | Children::Expanding => (0, 0),
        };
        Node {
            mv: self.mv(),
            num_children,
            first_child,
            visits: self.visits(),
            half_wins: self.half_wins(),
            amaf_visits: self.amaf_visits(),
            amaf_half_wins: self.amaf_half_wins(),
            score: load_f32(&self.score),
            prior_visits: self.prior_visits(),
            prior_wins: self.prior_wins(),
            value: self.value(),
            net_value: self.net_value(),
        }
    }

    /// Overwrites the node with `node` (a node not yet published, or a whole tree being
    /// loaded before any thread runs).
    pub(crate) fn store(&self, node: &Node) {
        self.mv.store(encode_move(node.mv), Relaxed);
        self.in_flight.store(0, Relaxed);
        self.visits.store(node.visits, Relaxed);
        self.half_wins.store(node.half_wins, Relaxed);
        self.amaf_visits.store(node.amaf_visits, Relaxed);
        self.amaf_half_wins.store(node.amaf_half_wins, Relaxed);
        store_f32(&self.score, node.score);
        store_f32(&self.prior_visits, node.prior_visits);
        store_f32(&self.prior_wins, node.prior_wins);
        store_f32(&self.value, node.value);
        store_f32(&self.net_value, node.net_value);
        if node.num_children > 0 {
            self.publish(node.first_child as usize, usize::from(node.num_children));
        } else {
            self.abandon();
        }
    }
}

/// The nodes of one tree: index 0 is the root.
pub(crate) struct Arena {
    chunks: Box<[OnceLock<Box<[SharedNode]>>]>,
    /// Nodes handed out so far (may pass `max` once a request is refused).
    len: AtomicUsize,
    max: usize,
}

impl Arena {
    /// An empty arena of at most `max` nodes.
    pub(crate) fn new(max: usize) -> Arena {
        Arena {
            chunks: (0..max.div_ceil(CHUNK)).map(|_| OnceLock::new()).collect(),
            len: AtomicUsize::new(0),
            max,
        }
    }

    /// An arena holding `nodes` (a kept tree) in the same places; at least as large as
    /// they need.
    pub(crate) fn holding(nodes: &[Node], max: usize) -> Arena {
        let arena = Arena::new(max.max(nodes.len()));
        arena.len.store(nodes.len(), Relaxed);
        for (i, node) in nodes.iter().enumerate() {
            arena.get(i).store(node);
        }
        arena
    }

    /// Nodes handed out so far (never more than the cap).
    pub(crate) fn len(&self) -> usize {
        self.len.load(Relaxed).min(self.max)
    }

    /// The node at `index` (one handed out by [`Arena::alloc`] or loaded).
    pub(crate) fn get(&self, index: usize) -> &SharedNode {
        &self.slice(index..index + 1)[0]
    }

    /// The nodes of `range` (a node's children: fewer than a chunk holds) in order. Their
    /// chunks are looked up once, not once a node: selection and backup walk every child.
    pub(crate) fn run(&self, range: std::ops::Range<usize>) -> impl Iterator<Item = &SharedNode> {
        let boundary = (range.start | (CHUNK - 1)) + 1;
        let split = range.end.min(boundary).max(range.start);
        self.slice(range.start..split)
            .iter()
            .chain(self.slice(split..range.end))
    }

    /// The nodes of `range`, which lies within one chunk.
    fn slice(&self, range: std::ops::Range<usize>) -> &[SharedNode] {
        if range.is_empty() {
            return &[];
        }
        let chunk = self.chunks[range.start >> CHUNK_BITS]
            .get_or_init(|| (0..CHUNK).map(|_| SharedNode::default()).collect());
        let offset = range.start & (CHUNK - 1);
        &chunk[offset..offset + range.len()]
    }

    /// `count` fresh nodes in a row, their first index; `None` when the arena is full.
    pub(crate) fn alloc(&self, count: usize) -> Option<usize> {
        let first = self.len.fetch_add(count, Relaxed);
        (first + count <= self.max).then_some(first)
    }

    /// Every node handed out, as plain copies in place.
    pub(crate) fn to_nodes(&self) -> Vec<Node> {
        (0..self.len()).map(|i| self.get(i).load()).collect()
    }
}

/// Read access to a tree's nodes by index: a finished tree's plain copies or a running
/// search's shared arena.
pub(crate) trait Nodes {
    fn node(&self, index: usize) -> Node;
}

impl Nodes for [Node] {
    fn node(&self, index: usize) -> Node {
        self[index].clone()
    }
}

impl Nodes for Arena {
    fn node(&self, index: usize) -> Node {
        self.get(index).load()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_round_trip_through_the_arena() {
        let node = Node {
            mv: Some(Point::from_index(42)),
            num_children: 3,
            first_child: 5000,
            visits: 9,
            half_wins: 11,
            amaf_visits: 4,
            amaf_half_wins: 3,
            score: -2.5,
            prior_visits: 10.0,
            prior_wins: 7.0,
            value: 0.25,
            net_value: 0.75,
        };
        let arena = Arena::holding(&[Node::default(), node.clone()], 8);
        assert_eq!(arena.get(1).load(), node);
        assert_eq!(arena.to_nodes()[1], node);
        assert_eq!(arena.get(0).load(), Node::default());
    }

    #[test]
    fn allocation_stops_at_the_cap_and_chunks_join_up() {
        let arena = Arena::new(CHUNK + 10);
        assert_eq!(arena.alloc(CHUNK - 2), Some(0));
        // A run across a chunk boundary is fine: each index finds its chunk.
        assert_eq!(arena.alloc(5), Some(CHUNK - 2));
        arena.get(CHUNK + 2).add_visit(2, 1.0);
        assert_eq!(arena.get(CHUNK + 2).visits(), 1);
        // A run across the boundary walks both chunks in order.
        let visits: Vec<u32> = arena
            .run(CHUNK - 2..CHUNK + 3)
            .map(|n| n.visits())
            .collect();
        assert_eq!(visits, [0, 0, 0, 0, 1]);
        assert_eq!(arena.run(5..5).count(), 0);
        assert_eq!(arena.run(CHUNK..CHUNK + 3).count(), 3);
        assert_eq!(arena.alloc(10), None);
        assert_eq!(arena.len(), CHUNK + 10);
    }

    #[test]
    fn one_thread_expands_and_the_others_see_it_done() {
        let arena = Arena::new(64);
        let root = arena.get(0);
        assert_eq!(root.children(), Children::Leaf);
        assert!(root.start_expanding());
        assert!(!root.start_expanding());
        assert_eq!(root.children(), Children::Expanding);
        root.publish(1, 3);
        assert_eq!(root.children(), Children::At { first: 1, count: 3 });
        assert_eq!(root.child_range(), 1..4);
        let leaf = arena.get(1);
        assert!(leaf.start_expanding());
        leaf.abandon();
        assert_eq!(leaf.children(), Children::Leaf);
    }

    #[test]
    fn threads_adding_at_once_all_count() {
        let arena = Arena::new(4);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..1000 {
                        arena.get(0).enter();
                        arena.get(0).add_visit(2, 0.0);
                        arena.get(0).add_amaf(1);
                        arena.get(0).leave();
                    }
                });
            }
        });
        let root = arena.get(0);
        assert_eq!((root.visits(), root.half_wins()), (4000, 8000));
        assert_eq!((root.amaf_visits(), root.amaf_half_wins()), (4000, 4000));
        assert_eq!(root.in_flight(), 0);
    }
}
