//! The Go player: Monte Carlo tree search (UCT with RAVE) over light playouts.
//!
//! Independent of GTP and of the game record: the caller gives a board, the side to
//! move, the rules, a filter for root moves that the game's history forbids (superko)
//! and that history's positions; [`search`] returns a decision with its statistics.
//! Below the root, tree nodes leave out the moves that repeat a position of the history
//! or of their path under the rules' superko (see `tree.rs`); playouts know simple ko
//! only, for speed.
//!
//! Tree reuse: [`search_keeping`] keeps the trees in a [`KeptTrees`]; told the moves
//! played since ([`KeptTrees::advance`]), the next search starts from the subtree under
//! them when the position it is asked about is exactly the one those moves lead to
//! (board, ko, side to move, search komi, rules, superko history), and from scratch
//! otherwise.
//! Playout budgets count the new playouts only.
//!
//! - The tree (`tree.rs`) is a flat arena shared by every search thread (`arena.rs`:
//!   atomic nodes, lock-free, virtual loss); a node gets its children after a few
//!   visits (`Params::expand_after`, `params.rs`), each child starting with virtual
//!   visits from heuristics (captures, escapes, self-atari, 3×3 shapes, vital points of
//!   small eye spaces, lines on an open board: `knowledge.rs`, with the ladder reader
//!   `ladder.rs` and the local readers of `tactics.rs`), and in play (`--learned-prior`, on by
//!   default) from move-feature gammas learned from game records (`features.rs`, large patterns
//!   `spatial.rs`, `gammas.rs`; fitted by
//!   `mm.rs` for `hamle go learn-patterns`, `learn.rs`).
//!   Children are chosen by their mean blended with the AMAF (RAVE) mean. Kept trees
//!   live in `kept.rs`.
//! - Playouts (`playout.rs`) reply to the last move with captures, escapes and 3×3
//!   shapes (`patterns.rs`), optionally also ataris that leave a two-liberty chain no
//!   escape (`tactics.rs`, off in play), else play a random move that is legal, not in an own eye
//!   and not a self-atari of two or more stones; they are counted by area (Tromp–Taylor)
//!   with the search's komi, a win scoring 1: the game's komi, or in a handicap game a
//!   komi that makes the position about even and fades to the game's (`dynkomi.rs`).
//! - Rewards are area counts whatever the rules: territory scoring differs by a point or
//!   two at most in practice, and area counting needs no dead-stone agreement.
//! - In play the budget adapts to the move (`adaptive.rs`): a search ends once its move is
//!   decided, the most visited leading the next by more visits than there are playouts
//!   left ([`SearchLimits::stop_when_decided`]).
//! - [`search`] then guards the decision: pass only when passing wins as the board
//!   stands, resign only when lost by a sizeable search and not early (see `decide`).
//!
//! Determinism: every random choice comes from generators seeded with
//! [`SearchRequest::seed`] (thread `i` of a multi-threaded search uses `seed + i`), so a
//! one-thread search limited by playouts alone gives the same result for the same (seed,
//! budget). With more threads the shared tree makes what each thread sees depend on
//! timing, as a deadline or a stop request makes the amount of work. A kept tree is a
//! function of the searches and moves before, so a sequence of one-thread,
//! playout-limited searches is reproducible as a whole.

mod adaptive;
mod arena;
mod criticality;
mod dynkomi;
mod features;
pub mod gammas;
mod kept;
mod knowledge;
mod ladder;
mod learn;
mod mm;
mod params;
mod patterns;
mod playout;
mod spatial;
mod tactics;
mod tree;

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::board::{Board, MAX_POINTS, Point};
use super::color::Color;
use super::net::Net;
use super::net::features::HISTORY;
use super::rules::{KoRule, Rules, Scoring};
use super::score::Ownership;

use adaptive::Budget;
use arena::{Arena, Node, Nodes};
pub use dynkomi::{
    DynamicKomi, KomiPlan, STONE_VALUE, adapted_komi, fade_moves, linear_search_komi,
};
use gammas::playing_params;
pub use gammas::{MAX_LEARNED_PRIOR, MEASURED_LEARNED_PRIOR, set_learned_prior};
pub use kept::KeptTrees;
use kept::RootKey;
use knowledge::LargeBoardPruning;
pub use learn::{LearnReport, LearnSettings, Prediction, learn_patterns};
use params::Params;
use playout::{Amaf, Playout, Scorer, Turn};
use tree::{Context, Tree, TreeReport, principal_variation, root_children};

/// How long to search. Both may be set: the first one reached ends the search. With
/// neither, [`DEFAULT_PLAYOUTS`] applies.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// Total playouts over all threads.
    pub playouts: Option<u64>,
    pub deadline: Option<Instant>,
    /// End the search as soon as the move it plays is decided: the most visited move
    /// leads the next by more visits than there are playouts left (`adaptive.rs`).
    /// Saves time, never changes the move a one-thread playout budget plays; the win
    /// rates and the tree kept for the next move are those of fewer playouts.
    pub stop_when_decided: bool,
}

/// The playout budget when no limit is given.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// When the player gives up.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct ResignPolicy {
    /// Resign when the best move's win rate is below this; `None` never resigns.
    pub threshold: Option<f32>,
    /// ... and at least this many playouts back the estimate.
    pub min_playouts: u64,
    /// ... and at least this many moves have been played; `None`: a fifth of the board's
    /// area (20 moves on 9×9, 72 on 19×19).
    pub min_move_number: Option<u32>,
}

impl Default for ResignPolicy {
    fn default() -> ResignPolicy {
        ResignPolicy {
            threshold: Some(0.05),
            min_playouts: 1000,
            min_move_number: None,
        }
    }
}

impl ResignPolicy {
    /// A policy that never resigns.
    pub fn never() -> ResignPolicy {
        ResignPolicy {
            threshold: None,
            ..ResignPolicy::default()
        }
    }
}

/// Everything a search needs.
pub struct SearchRequest<'a> {
    pub board: &'a Board,
    pub to_move: Color,
    pub rules: &'a Rules,
    /// White's komi (handicap compensation included, if the caller wants it counted):
    /// the game's, which decides passing, resigning and the reported score leads.
    pub komi: f32,
    /// White's komi for the playouts' win or loss when it is not `komi` (`None`): in a
    /// handicap game, a komi that makes the position about even ([`linear_search_komi`],
    /// `dynkomi.rs`). Win rates are the search's, under this komi.
    pub search_komi: Option<f32>,
    /// Root legality beyond the board's own (superko from the game history): true =
    /// allowed.
    pub root_allowed: &'a (dyn Fn(Point) -> bool + Sync),
    /// The game's earlier positions under the rules' superko, in any order: their
    /// stone hashes ([`Board::hash`]) under positional superko, those hashes xor
    /// [`side_to_move_key`](super::board::side_to_move_key) of the side to move then under
    /// situational superko, nothing under simple ko. Tree moves may not recreate them;
    /// the root's position counts whether listed or not.
    pub history: &'a [u64],
    /// The previous move of the game was a pass: passing now ends the game.
    pub opponent_passed: bool,
    /// The game's last moves, the latest first (`None`: a pass, or no move yet): the
    /// first two for the learned prior's distance features at the root, all of them for
    /// the net's history planes.
    pub recent_moves: [Option<Point>; HISTORY],
    /// Moves played so far (passes included, handicap stones not), for the resignation
    /// rule.
    pub move_number: u32,
    pub limits: SearchLimits,
    pub seed: u64,
    /// Threads searching one shared tree; 0 counts as 1, more than [`MAX_THREADS`] as
    /// that.
    pub threads: usize,
    /// Polled every few hundred playouts: true ends the search early (GTP
    /// `# interrupt` or `stop`).
    pub stop: &'a (dyn Fn() -> bool + Sync),
    pub resign: ResignPolicy,
    /// KGS `kgs-genmove_cleanup`: do not pass while opponent stones that the playouts
    /// find dead remain on the board, and never resign.
    pub cleanup: bool,
    /// Called with the search's state every so often while it runs (analysis streams).
    pub progress: Option<Progress<'a>>,
    /// The network the tree consults, and how (`None`: the classical engine).
    pub net: Option<&'a NetSearch>,
}

/// The network a search consults when it expands a node (`--net`), and how much its
/// judgement weighs: the net is shared ([`Arc`]) so that engines and threads hold it
/// without copies, and two engines of one process may use different nets.
#[derive(Clone, Debug)]
pub struct NetSearch {
    pub net: Arc<Net>,
    /// Virtual visits a new child gets from the policy, with its probability over the
    /// likeliest move's as their share of wins (`--net-prior-visits`).
    pub prior_visits: f32,
    /// Virtual visits a node gets when it is expanded, with the net's win probability
    /// for the player who moved into it as their share of wins (`--net-value-visits`; 0:
    /// the value is not used).
    pub value_visits: f32,
    /// The weight λ of the net's value beside the playouts' results in a node's mean,
    /// (1 − λ)·playouts + λ·value (`--net-value-weight`, 0 to 1; 0: the playouts alone).
    /// Each visit backs up the value of the deepest expanded node on its path, the
    /// position nearest the one its playout started from that the net judged.
    pub value_weight: f32,
    /// Real visits a node below the root must have before the net judges it
    /// (`--net-min-visits`): until then its children have the classical priors alone,
    /// and the net's prior (and value) come when it reaches them. At most the visits that
    /// expand a node (`Params::expand_after`, 4 in play; 0 included): every node is judged
    /// when it is expanded, as before the option. The root is always judged at once.
    /// `None`: the measured default for the board ([`NetSearch::min_visits_on`]).
    pub min_visits: Option<u32>,
}

/// [`NetSearch::prior_visits`] unless told otherwise: 20, the prior the built-in net was
/// measured with (docs/strength.md).
pub const DEFAULT_NET_PRIOR_VISITS: f32 = 20.0;
/// [`NetSearch::value_visits`] unless told otherwise.
pub const DEFAULT_NET_VALUE_VISITS: f32 = 0.0;
/// [`NetSearch::value_weight`] unless told otherwise.
pub const DEFAULT_NET_VALUE_WEIGHT: f32 = 0.0;
/// [`NetSearch::min_visits`] that no node below the root ever reaches: the net judges
/// the root alone (`--net-min-visits root`), once a move, as Pachi asks its net.
pub const NET_ROOT_ONLY: u32 = u32::MAX;
/// Boards of this many lines or more have the net judge the root alone unless told
/// otherwise: on 13×13 at equal time that won where judging every expansion lost
/// (docs/strength.md, "Asking the net less often").
pub const NET_ROOT_ONLY_FROM_SIZE: usize = 12;
/// The most [`NetSearch::min_visits`] may be as a number (beyond, `root`).
pub const MAX_NET_MIN_VISITS: u32 = 100_000;
/// The most virtual visits the net's prior or value may be given: beyond, no search
/// budget could outweigh them.
pub const MAX_NET_VISITS: f32 = 1000.0;

impl NetSearch {
    /// `net` with the default weights.
    pub fn new(net: Net) -> NetSearch {
        NetSearch {
            net: Arc::new(net),
            prior_visits: DEFAULT_NET_PRIOR_VISITS,
            value_visits: DEFAULT_NET_VALUE_VISITS,
            value_weight: DEFAULT_NET_VALUE_WEIGHT,
            min_visits: None,
        }
    }

    /// [`NetSearch::min_visits`] on a board of `size` lines: as told, else the root alone
    /// from [`NET_ROOT_ONLY_FROM_SIZE`] lines on and every expansion below.
    pub fn min_visits_on(&self, size: usize) -> u32 {
        self.min_visits
            .unwrap_or(if size >= NET_ROOT_ONLY_FROM_SIZE {
                NET_ROOT_ONLY
            } else {
                0
            })
    }
}

/// A running search's periodic report.
#[derive(Copy, Clone)]
pub struct Progress<'a> {
    pub interval: Duration,
    /// Runs on a search thread: it must be quick and thread-safe (send the snapshot on).
    pub report: &'a (dyn Fn(Snapshot) + Sync),
}

/// The search so far (ownership as the first thread's playouts see it).
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    /// Root moves in board order, pass last.
    pub root_moves: Vec<RootMoveStats>,
    pub playouts: u64,
    /// As in [`SearchResult::ownership`].
    pub ownership: Vec<f32>,
}

/// What to do.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    Play(Point),
    Pass,
    Resign,
}

/// Statistics of one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct RootMoveStats {
    /// `None` for a pass.
    pub mv: Option<Point>,
    pub visits: u64,
    /// Mean reward for the side to move (0.5 when unvisited).
    pub win_rate: f32,
    pub amaf_visits: u64,
    pub amaf_win_rate: f32,
    /// The heuristics' opinion of the move before any playout, as a win rate.
    pub prior: f32,
    /// Mean final area margin of the playouts through the move, for the side to move,
    /// komi included (for an unvisited move, the root's mean). Playouts cut short by
    /// the mercy rule count the board as it stands, so big leads come out smaller.
    pub score_lead: f32,
    /// The most visited continuation, starting with `mv` (empty for a pass; it stops
    /// before the first pass).
    pub principal_variation: Vec<Point>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub decision: Decision,
    /// Estimated probability that the side to move wins after the decision.
    pub win_rate: f32,
    pub playouts: u64,
    /// Tree nodes traversed plus playout moves made, over all simulations.
    pub nodes: u64,
    /// Expected best line, starting with the move played (empty for a pass or resign).
    pub principal_variation: Vec<Point>,
    /// Root moves in board order (row 1 first, left to right), pass last.
    pub root_moves: Vec<RootMoveStats>,
    /// Final-position ownership seen by the playouts, indexed by [`Point::index`]
    /// (length [`MAX_POINTS`], 0 off the board): +1 Black always owns, -1 White.
    pub ownership: Vec<f32>,
    /// Visits the search inherited from earlier ones (tree reuse): 0 when it started from
    /// scratch.
    pub reused: u64,
    /// Positions the net judged in this search (0 without one).
    pub net_evaluations: u64,
}

/// Cap on the tree size in nodes (48 bytes each): about 200 MB, kept between moves with
/// tree reuse.
const MAX_TREE_NODES: usize = 1 << 22;
/// More threads than this only wait on each other's virtual losses.
pub const MAX_THREADS: usize = 256;
/// Longest principal variation reported.
const MAX_PV: usize = 24;
/// Ownership against a stone beyond which the pass and resign guards count it dead:
/// lower for our own stones (0.3 is also where the GTP engine's scoring starts calling
/// stones dead) than for the opponent's.
const DEAD_OWN: f32 = 0.3;
const DEAD_OPPONENT: f32 = 0.5;

/// Searches the position and decides a move.
pub fn search(request: &SearchRequest) -> SearchResult {
    search_with(request, playing_params(request.board.size()), None)
}

/// [`search`], starting from the kept trees when they fit the position (see
/// [`KeptTrees`]) and keeping this search's trees there afterwards.
pub fn search_keeping(request: &SearchRequest, kept: &mut KeptTrees) -> SearchResult {
    search_with(request, playing_params(request.board.size()), Some(kept))
}

/// [`search`] with the dead-stone judgement's own params (`Params::judging`) instead
/// of the playing ones, so that counting does not move when play is tuned.
pub fn search_judging(request: &SearchRequest) -> SearchResult {
    search_with(request, Params::judging(), None)
}

fn search_with(
    request: &SearchRequest,
    params: Params,
    mut kept: Option<&mut KeptTrees>,
) -> SearchResult {
    let board = request.board;
    let me = request.to_move;
    let points: Vec<Point> = board.points().collect();
    let (root_moves, any_move) = root_moves(request, &points);

    let threads = request.threads.clamp(1, MAX_THREADS);
    let budget = match request.limits {
        SearchLimits {
            playouts: None,
            deadline: None,
            ..
        } => DEFAULT_PLAYOUTS,
        SearchLimits { playouts, .. } => playouts.unwrap_or(u64::MAX),
    };
    let ko = request.rules.ko;
    let mut ctx = Context {
        root: board,
        to_move: me,
        komi: search_komi(request),
        suicide_allowed: request.rules.suicide_allowed,
        root_moves: &root_moves,
        opponent_passed: request.opponent_passed,
        recent_moves: request.recent_moves,
        net: request.net,
        points: &points,
        max_nodes: MAX_TREE_NODES,
        playout_cap: playout_cap(board),
        params,
        ko,
        history: &[],
    };
    let history = superko_history(request, &ctx);
    ctx.history = &history;

    // Nothing to think about: every move left fills an own eye (or is forbidden).
    if !any_move {
        if let Some(kept) = kept {
            kept.clear();
        }
        return pass_unsearched(board, me, request.komi);
    }

    let arena = match kept
        .as_deref_mut()
        .and_then(|kept| kept.take_for(&ctx, request))
    {
        Some(nodes) => Arena::holding(&nodes, ctx.max_nodes),
        None => Arena::new(ctx.max_nodes),
    };
    let reused = if arena.len() > 0 {
        u64::from(arena.get(0).visits())
    } else {
        0
    };
    let grown = run_threads(&ctx, request, threads, budget, &arena);
    let summary = summarize(
        grown.nodes.as_slice(),
        &grown.counts,
        &root_moves,
        me,
        score_shift(request),
    );
    let result = SearchResult {
        reused,
        ..decide(request, &points, summary)
    };
    if let Some(kept) = kept {
        let root = RootKey {
            board: board.clone(),
            to_move: me,
            komi: ctx.komi,
            rules: *request.rules,
            opponent_passed: request.opponent_passed,
            history: history.clone(),
            params,
        };
        kept.keep(root, grown.nodes);
    }
    result
}

/// The moves the root considers, the pass last, and whether any move but the pass is
/// legal, not an own eye and allowed by the request: on a large board without the moves
/// [`LargeBoardPruning`] leaves out, unless that leaves none.
fn root_moves(request: &SearchRequest, points: &[Point]) -> (Vec<Option<Point>>, bool) {
    let board = request.board;
    let me = request.to_move;
    let mut root_moves: Vec<Option<Point>> = points
        .iter()
        .copied()
        .filter(|&p| {
            board.is_legal(me, p, request.rules.suicide_allowed)
                && !board.is_eye_like(me, p)
                && !board.is_suicide(me, p)
                && (request.root_allowed)(p)
        })
        .map(Some)
        .collect();
    let any_move = !root_moves.is_empty();
    if let Some(pruning) = LargeBoardPruning::of(board) {
        // Pruning everything would leave only a pass; then the search sees every move.
        let kept: Vec<Option<Point>> = root_moves
            .iter()
            .copied()
            .filter(|mv| mv.is_some_and(|p| !pruning.skips(board, me, p)))
            .collect();
        if !kept.is_empty() {
            root_moves = kept;
        }
    }
    root_moves.push(None);
    (root_moves, any_move)
}

/// The keys the tree must not repeat under superko: the game's history and the root's
/// own key, sorted without repeats (none under simple ko).
fn superko_history(request: &SearchRequest, ctx: &Context) -> Vec<u64> {
    if ctx.ko == KoRule::Simple {
        Vec::new()
    } else {
        let mut history = request.history.to_vec();
        history.push(ctx.key(request.board.hash(), request.to_move));
        history.sort_unstable();
        history.dedup();
        history
    }
}

/// The answer when there is nothing to think about: a pass, won or lost as the board
/// is counted now.
fn pass_unsearched(board: &Board, me: Color, komi: f32) -> SearchResult {
    let margin = my_margin(board, me, komi, &[]);
    SearchResult {
        decision: Decision::Pass,
        win_rate: if margin > 0.0 { 1.0 } else { 0.0 },
        playouts: 0,
        nodes: 0,
        principal_variation: Vec::new(),
        root_moves: vec![RootMoveStats {
            mv: None,
            visits: 0,
            win_rate: 0.5,
            amaf_visits: 0,
            amaf_win_rate: 0.5,
            prior: 0.0,
            score_lead: margin,
            principal_variation: Vec::new(),
        }],
        ownership: vec![0.0; MAX_POINTS],
        reused: 0,
        net_evaluations: 0,
    }
}

/// Moves a playout may make before it is cut off and counted as it stands: long enough
/// for any real game to finish, short enough to end cycles that simple ko allows.
fn playout_cap(board: &Board) -> u32 {
    // At most 3 × 625: fits u32.
    (3 * board.area()) as u32
}

/// A finished search's tree, and what its threads counted.
struct Grown {
    nodes: Vec<Node>,
    counts: Counts,
}

/// What a search's threads counted beside the tree.
struct Counts {
    playouts: u64,
    /// Tree nodes traversed plus playout moves made.
    visited: u64,
    /// Per point index, as in [`SearchResult::ownership`].
    ownership: Vec<f32>,
    net_evaluations: u64,
}

impl Counts {
    /// The counts of `walkers` together.
    fn of(walkers: &[&Tree]) -> Counts {
        let playouts = walkers.iter().map(|w| w.playouts).sum();
        let mut ownership = vec![0.0; MAX_POINTS];
        if playouts > 0 {
            for (i, o) in ownership.iter_mut().enumerate() {
                let sum: i64 = walkers.iter().map(|w| i64::from(w.ownership[i])).sum();
                *o = (sum as f64 / playouts as f64) as f32;
            }
        }
        Counts {
            playouts,
            visited: walkers.iter().map(|w| w.visited).sum(),
            ownership,
            net_evaluations: walkers.iter().map(|w| w.net_evaluations).sum(),
        }
    }
}

/// Runs `threads` walkers over the one tree in `arena`: walker `i` gets seed `seed + i`;
/// together they run the budget's playouts exactly.
fn run_threads(
    ctx: &Context,
    request: &SearchRequest,
    threads: usize,
    budget: u64,
    arena: &Arena,
) -> Grown {
    // Only the thread-safe parts of the request go to the threads.
    let budget = Budget::new(
        budget,
        request.limits.deadline,
        request.stop,
        request.limits.stop_when_decided,
        threads as u64,
    );
    let progress = request.progress;
    let report = |walker: &Tree| {
        if let Some(progress) = progress {
            let mut counts = Counts::of(&[walker]);
            let claimed = budget.claimed.load(std::sync::atomic::Ordering::Relaxed);
            counts.playouts = claimed.min(budget.playouts);
            let summary = summarize(
                walker.arena,
                &counts,
                ctx.root_moves,
                ctx.to_move,
                score_shift(request),
            );
            (progress.report)(Snapshot {
                root_moves: summary.root_moves,
                playouts: summary.playouts,
                ownership: summary.ownership,
            });
        }
    };
    let reporter = progress.map(|p| (p.interval, &report as &TreeReport));
    // The first walker plants the root before the others look at it.
    let seed = request.seed;
    let mut first = Tree::new(ctx, arena, seed, 0);
    let walkers = std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads)
            .map(|i| {
                let budget = &budget;
                scope.spawn(move || {
                    let mut walker = Tree::new(ctx, arena, seed.wrapping_add(i as u64), i);
                    walker.search(budget, None);
                    walker
                })
            })
            .collect();
        first.search(&budget, reporter);
        let mut walkers = vec![first];
        for handle in others {
            match handle.join() {
                Ok(walker) => walkers.push(walker),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        walkers
    });
    let walkers: Vec<&Tree> = walkers.iter().collect();
    Grown {
        nodes: arena.to_nodes(),
        counts: Counts::of(&walkers),
    }
}

/// What turns a Black margin counted with the search's komi into one counted with the
/// game's: the tree's scores are the playouts', reports are the game's.
fn score_shift(request: &SearchRequest) -> f64 {
    f64::from(search_komi(request)) - f64::from(request.komi)
}

/// White's komi for the playouts: the request's search komi, else the game's.
fn search_komi(request: &SearchRequest) -> f32 {
    request.search_komi.unwrap_or(request.komi)
}

/// What the tree found at the root.
struct Summary {
    root_moves: Vec<RootMoveStats>,
    playouts: u64,
    nodes: u64,
    ownership: Vec<f32>,
    net_evaluations: u64,
}

/// The root's statistics in `tree`, with the threads' `counts`; scores are turned to
/// `me`'s side and to the game's komi (`shift` added to Black's margins, see
/// [`score_shift`]).
fn summarize(
    tree: &(impl Nodes + ?Sized),
    counts: &Counts,
    moves: &[Option<Point>],
    me: Color,
    shift: f64,
) -> Summary {
    let mine = |black_margin: f32| match me {
        Color::Black => (f64::from(black_margin) + shift) as f32,
        Color::White => -(f64::from(black_margin) + shift) as f32,
    };
    let root = tree.node(0);
    let root_score = if root.visits > 0 {
        mine(root.score)
    } else {
        0.0
    };
    let children = root_children(tree);
    let root_moves = moves
        .iter()
        .zip(children.clone())
        .enumerate()
        .map(|(i, (&mv, c))| {
            let n = tree.node(c);
            let rate = |w: f64, n: u32| {
                if n == 0 {
                    0.5
                } else {
                    (w / f64::from(n)) as f32
                }
            };
            RootMoveStats {
                mv,
                visits: u64::from(n.visits),
                win_rate: rate(n.wins(), n.visits),
                amaf_visits: u64::from(n.amaf_visits),
                amaf_win_rate: rate(n.amaf_wins(), n.amaf_visits),
                prior: n.prior(),
                score_lead: if n.visits > 0 {
                    mine(n.score)
                } else {
                    root_score
                },
                principal_variation: principal_variation(tree, i, MAX_PV),
            }
        })
        .collect();
    Summary {
        root_moves,
        playouts: counts.playouts,
        nodes: counts.visited,
        ownership: counts.ownership.clone(),
        net_evaluations: counts.net_evaluations,
    }
}

/// `color`'s area margin (komi included) after taking off the stones in `dead`.
fn my_margin(board: &Board, color: Color, komi: f32, dead: &[Point]) -> f32 {
    let own = Ownership::new(board, dead);
    let area = |c: Color| (own.stones[c.index()] + own.territory[c.index()]) as f32;
    let black = area(Color::Black) - area(Color::White) - komi;
    match color {
        Color::Black => black,
        Color::White => -black,
    }
}

/// True when nearly every empty point lies in a region bordered by one colour only:
/// what is left are a few neutral points (dame), so the game is about over. Both
/// colours must have stones: a board of one colour's stones borders every region by that
/// colour alone, yet the other side has not begun (a setup, or one side playing twice
/// in a GTP script, gave a pass out of the opening).
fn is_settled(board: &Board) -> bool {
    let own = Ownership::new(board, &[]);
    if own.stones.contains(&0) {
        return false;
    }
    let neutral = board
        .empty_points()
        .iter()
        .filter(|&&p| own.owner(p).is_none())
        .count();
    neutral <= (board.area() / MAX_DAME_FRACTION).max(2)
}

/// A position is settled with at most area / this many neutral empty points.
const MAX_DAME_FRACTION: usize = 25;

/// Stones the playouts find dead, judged against `me`: own stones already when the
/// opponent owns their point more often than not by [`DEAD_OWN`], the opponent's only
/// beyond [`DEAD_OPPONENT`]. A margin counted with them off is what a counting phase
/// would most likely give, erring on our side of caution.
fn dead_stones(board: &Board, me: Color, points: &[Point], ownership: &[f32]) -> Vec<Point> {
    points
        .iter()
        .copied()
        .filter(|&p| {
            let Some(stone) = board.get(p) else {
                return false;
            };
            // Ownership from the stone's side: negative when the other colour owns it.
            let held = match stone {
                Color::Black => ownership[p.index()],
                Color::White => -ownership[p.index()],
            };
            held < -if stone == me { DEAD_OWN } else { DEAD_OPPONENT }
        })
        .collect()
}

/// Turns the statistics into a decision, guarding against the ways a search can throw
/// a game away: passing while behind, and resigning a won or young game.
fn decide(request: &SearchRequest, points: &[Point], summary: Summary) -> SearchResult {
    let board = request.board;
    let me = request.to_move;
    let moves = &summary.root_moves;
    let dead = dead_stones(board, me, points, &summary.ownership);
    // Tromp–Taylor: what passing gets if every stone on the board counts.
    let tt_margin = my_margin(board, me, request.komi, &[]);
    // With the stones the playouts find dead taken off: what a counting phase gives.
    let estimated_margin = my_margin(board, me, request.komi, &dead);
    let opponent_dead = dead.iter().any(|&p| board.get(p) != Some(me));

    // Most visited, ties to the better win rate, then to the better prior (which
    // decides when a deadline left no time for any playout).
    let by_visits = |a: &&RootMoveStats, b: &&RootMoveStats| {
        a.visits
            .cmp(&b.visits)
            .then(a.win_rate.total_cmp(&b.win_rate))
            .then(a.prior.total_cmp(&b.prior))
    };
    let best_play = moves.iter().filter(|m| m.mv.is_some()).max_by(by_visits);
    let pass = moves.iter().find(|m| m.mv.is_none());
    let pass_rate = pass.map_or(0.5, |m| m.win_rate);

    let result = |decision: Decision, stats: Option<&RootMoveStats>| SearchResult {
        decision,
        win_rate: stats.map_or(0.5, |m| m.win_rate),
        playouts: summary.playouts,
        nodes: summary.nodes,
        principal_variation: match decision {
            Decision::Play(_) => stats
                .map(|m| m.principal_variation.clone())
                .unwrap_or_default(),
            _ => Vec::new(),
        },
        root_moves: moves.clone(),
        ownership: summary.ownership.clone(),
        reused: 0,
        net_evaluations: summary.net_evaluations,
    };

    let Some(best_play) = best_play else {
        return result(Decision::Pass, pass);
    };
    // Under area scoring the game may be counted as it stands (Tromp–Taylor, as
    // unattended ladders do) or after removing dead stones: passing must win both ways.
    // Territory scoring always removes dead stones, and there the moves that make the
    // count provable (capturing dead stones inside one's own area) cost a point each.
    let wins_by_passing =
        estimated_margin > 0.0 && (request.rules.scoring == Scoring::Territory || tt_margin > 0.0);
    if request.opponent_passed && wins_by_passing && !(request.cleanup && opponent_dead) {
        // Passing ends the game here, and it is won however the dead stones are judged.
        return SearchResult {
            win_rate: 1.0,
            ..result(Decision::Pass, pass)
        };
    }

    let best = moves.iter().max_by(by_visits).unwrap_or(best_play);
    // A search komi against us (taking stones, dynamic komi) makes the win rates lower
    // than the game's: they cannot tell that the game is lost.
    let komi_against_me = match me {
        Color::Black => search_komi(request) > request.komi,
        Color::White => search_komi(request) < request.komi,
    };
    let resign_after = request
        .resign
        .min_move_number
        .unwrap_or((board.area() / 5) as u32);
    if let Some(threshold) = request.resign.threshold
        && !request.cleanup
        && !komi_against_me
        && best.win_rate < threshold
        && summary.playouts >= request.resign.min_playouts
        && request.move_number >= resign_after
        && !wins_by_passing
    {
        return result(Decision::Resign, Some(best));
    }

    // Passing first: only in a settled position that passing wins as it stands, and
    // when the search finds no move better (at the end, moves inside one's own area
    // tie with a pass). Earlier, a pass's few visits make its win rate too noisy to
    // compare, and Tromp–Taylor counts on an open board mean nothing.
    let pass_visits = pass.map_or(0, |m| m.visits);
    if wins_by_passing
        && pass_visits >= u64::from(tree::ROOT_PASS_VISITS)
        && pass_rate >= best_play.win_rate
        && !(request.cleanup && opponent_dead)
        && is_settled(board)
    {
        return result(Decision::Pass, pass);
    }
    match best_play.mv {
        Some(p) => result(Decision::Play(p), Some(best_play)),
        None => result(Decision::Pass, pass),
    }
}

/// Ownership of each point by bare playouts from this position (`to_move` first), no
/// tree: what the playout policy alone makes of a position (the engine judges dead
/// stones by searches, which read better). Indexed by [`Point::index`] (length
/// [`MAX_POINTS`], 0 off the board), in [-1, 1], +1 when Black owns the point in every
/// playout. Komi does not change who owns what, so it is not an input.
pub fn ownership(
    board: &Board,
    to_move: Color,
    rules: &Rules,
    playouts: u32,
    seed: u64,
) -> Vec<f32> {
    let points: Vec<Point> = board.points().collect();
    let mut playout = Playout::new(seed, rules.suicide_allowed, &Params::default());
    let mut amaf = Amaf::new();
    let mut scorer = Scorer::new();
    let mut sums = vec![0i32; MAX_POINTS];
    let mut scratch = board.clone();
    let cap = playout_cap(board);
    for _ in 0..playouts {
        scratch.clone_from(board);
        amaf.start();
        let turn = Turn {
            color: to_move,
            passes: 0,
            last: None,
            before_last: None,
            ply: 0,
        };
        playout.run(&mut scratch, turn, cap, &mut amaf);
        scorer.area_margin(&scratch);
        scorer.add_ownership(&scratch, &points, &mut sums);
    }
    let n = playouts.max(1) as f32;
    sums.iter().map(|&s| s as f32 / n).collect()
}

#[cfg(test)]
mod net_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tree_tests;
