//! Tree reuse: the tree of the last search ([`KeptTrees`]) and the moves played since,
//! and the exact check that lets the next search start under it.

use crate::go::board::{Board, Point};
use crate::go::color::Color;
use crate::go::rules::{KoRule, Rules};

use super::SearchRequest;
use super::arena::Node;
use super::params::Params;
use super::tree::{Context, reroot};

/// The tree of the last search, kept for the next (tree reuse), and the moves played
/// since it. One tree whatever the threads: they all grow the same one.
#[derive(Default)]
pub struct KeptTrees {
    root: Option<RootKey>,
    pub(super) nodes: Vec<Node>,
    moves: Vec<(Color, Option<Point>)>,
}

/// Everything a kept tree's statistics depend on: a new search may start from the tree
/// only if the moves since lead from this to the new request's position exactly.
pub(super) struct RootKey {
    pub(super) board: Board,
    pub(super) to_move: Color,
    /// The search's komi ([`SearchRequest::search_komi`]): the statistics' own. The
    /// game's komi only reads them, so a tree serves any game komi with the same search
    /// komi.
    pub(super) komi: f32,
    pub(super) rules: Rules,
    pub(super) opponent_passed: bool,
    /// Sorted, without repeats, the root's own key included.
    pub(super) history: Vec<u64>,
    pub(super) params: Params,
}

/// More moves than this since the kept search and the tree is not worth walking.
const MAX_KEPT_MOVES: usize = 8;

impl KeptTrees {
    pub fn new() -> KeptTrees {
        KeptTrees::default()
    }

    /// Forgets the trees: the next search starts from scratch.
    pub fn clear(&mut self) {
        *self = KeptTrees::default();
    }

    /// Keeps `nodes`, the tree of a search from `root`, with no move played since.
    pub(super) fn keep(&mut self, root: RootKey, nodes: Vec<Node>) {
        *self = KeptTrees {
            root: Some(root),
            nodes,
            moves: Vec::new(),
        };
    }

    /// True when no tree is kept.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// Records that `color` played `mv` (`None`: a pass) after the kept search, so that
    /// the next search may start under it.
    pub fn advance(&mut self, color: Color, mv: Option<Point>) {
        if self.root.is_some() {
            self.moves.push((color, mv));
            if self.moves.len() > MAX_KEPT_MOVES {
                self.clear();
            }
        }
    }

    /// The kept tree rerooted for `ctx`, if the kept root and the moves since lead
    /// exactly to the context's position and the tree expanded the node they lead to;
    /// else nothing. Either way the kept tree is given up.
    pub(super) fn take_for(&mut self, ctx: &Context, request: &SearchRequest) -> Option<Vec<Node>> {
        let KeptTrees { root, nodes, moves } = std::mem::take(self);
        let root = root?;
        if root.komi.to_bits() != ctx.komi.to_bits()
            || root.rules != *request.rules
            || root.params != ctx.params
        {
            return None;
        }
        // Replay the moves: the tree alternates colours from its root.
        let mut board = root.board.clone();
        let mut color = root.to_move;
        let mut history = root.history.clone();
        let mut opponent_passed = root.opponent_passed;
        for &(mover, mv) in &moves {
            if mover != color {
                return None;
            }
            match mv {
                Some(p) => {
                    if !board.is_on_board(p)
                        || !board.is_legal(color, p, root.rules.suicide_allowed)
                    {
                        return None;
                    }
                    board.play(color, p);
                }
                None => board.pass(),
            }
            opponent_passed = mv.is_none();
            color = color.opponent();
            if ctx.ko != KoRule::Simple {
                history.push(ctx.key(board.hash(), color));
            }
        }
        history.sort_unstable();
        history.dedup();
        if board != *ctx.root
            || color != ctx.to_move
            || opponent_passed != ctx.opponent_passed
            || history != ctx.history
        {
            return None;
        }
        let line: Vec<Option<Point>> = moves.iter().map(|&(_, mv)| mv).collect();
        reroot(&nodes, &line, ctx)
    }
}
