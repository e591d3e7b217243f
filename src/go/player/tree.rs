//! One search tree: UCT with RAVE over a flat arena of nodes, and the simulations that
//! grow it.
//!
//! Nodes live in a `Vec` and refer to their children by index: the children of a node
//! are contiguous, allocated together when the node is expanded, so a tree is one
//! allocation that grows and no node is ever freed during a search. Between searches
//! [`reroot`] copies the subtree under the moves played into a fresh arena, so that the
//! next search starts from what this one learnt (tree reuse).
//!
//! Superko inside the tree: a node's children leave out the moves that recreate a
//! position (or situation) of the game's history or of the path from the root to the
//! node. There is no transposition table, so a node stands for one path only and this
//! check is exact for it; a node reached by another order of moves is another node with
//! its own check. Playouts know simple ko only: their cycles end at the move cap.

use std::time::{Duration, Instant};

use crate::go::board::{Board, MAX_POINTS, Point, side_to_move_key};
use crate::go::color::Color;
use crate::go::rules::KoRule;

use super::ladder::{runs_into_ladder, starts_working_ladder};
use super::patterns;
use super::playout::{Amaf, Playout, Scorer, Turn, is_bad_self_atari, saves_atari};

/// The search's tuning knobs. Fixed in play ([`Params::default`]); a separate value
/// lets tests pit two settings against each other.
#[derive(Copy, Clone, Debug, PartialEq)]
pub(crate) struct Params {
    /// A node is expanded (gets children) once it has been a leaf this many times:
    /// expanding at once would spend memory and time on moves seen once.
    pub(crate) expand_after: u32,
    /// RAVE weight: the AMAF estimate counts as much as the node's own mean after about
    /// this many visits (Gelly and Silver's "equivalence parameter").
    pub(crate) rave_equivalence: f32,
    /// UCB exploration constant. Zero in play: the priors and RAVE spread the visits
    /// well enough, and self-play at 2000 playouts on 9×9 found 0.1 clearly weaker
    /// (17 wins in 60 games against 0).
    pub(crate) exploration: f32,
    /// Prior knowledge, as virtual visits (half of them wins) given to every child...
    pub(crate) prior_even: f32,
    /// ... and the virtual visits each heuristic adds (all wins or all losses).
    pub(crate) prior_bonus: f32,
    /// Playout policy: chances out of 256 of trying tactics and shapes first.
    pub(crate) tactics_chance: u32,
    pub(crate) pattern_chance: u32,
    /// Last good reply with forgetting in the playouts: 0 off, 1 LGRF-1, 2 LGRF-2
    /// then LGRF-1. Off: at 5000 playouts on 9×9 against the same engine without it,
    /// LGRF-1 won 50 games of 100 and LGRF-2 27 of 58, and both cost playout speed
    /// (tables scattered in memory, more contact moves); they may pay off with more
    /// playouts or on larger boards, where the literature found them strongest.
    pub(crate) last_good_reply: u8,
    /// Virtual wins a move gets when one of the playouts' 3×3 shape patterns (hane,
    /// cuts, edge blocks) matches around it: the playouts answer with these shapes, and
    /// the tree should try them early too instead of waiting for RAVE to find them.
    pub(crate) pattern_prior: f32,
    /// Playouts stop when one side leads by the board's area divided by this many
    /// stones (0: never).
    pub(crate) mercy_fraction: usize,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            expand_after: 8,
            rave_equivalence: 2000.0,
            exploration: 0.0,
            prior_even: 10.0,
            prior_bonus: 10.0,
            tactics_chance: 230,
            pattern_chance: 240,
            last_good_reply: 0,
            pattern_prior: 5.0,
            mercy_fraction: 3,
        }
    }
}

/// Visits the root's pass gets whatever its value (see [`Tree::select`]).
pub(crate) const ROOT_PASS_VISITS: u32 = 16;

/// The size below which the line-based priors (first two lines bad, third good) do not
/// apply.
const LINE_PRIOR_MIN_SIZE: usize = 9;

/// The size from which the search prunes by [`LargeBoardPruning`]. Smaller boards have
/// little open ground and short ladders, which the playouts judge well enough, and their
/// strength was measured without it.
const PRUNING_MIN_SIZE: usize = 15;

/// How far from its two edges a corner reaches, in lines.
const CORNER_LINES: usize = 6;

/// Moves the search leaves out on a large board, where the playouts misjudge them:
///
/// - Open ground (points with no stone within two lines) is entered on the third and fourth
///   lines only, and while a corner is empty, only in an empty corner. The playouts of a
///   nearly empty 19×19 board barely tell a second-line or centre stone from a corner
///   stone: 10,000-playout searches opened with F2, K10 and F6, already 10 points behind
///   by GNU Go's estimate at move 20.
/// - A chain in atari does not run into a working ladder. Random playouts do not chase a
///   ladder across the board, so the escape looked fine (a 42% win rate) while it fed the
///   opponent eleven moves of stones.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LargeBoardPruning {
    /// Per corner (see [`corner_index`]): no stone lies in it.
    empty_corners: [bool; 4],
}

impl LargeBoardPruning {
    /// The pruning for `board`, or `None` when the board is too small for it.
    pub(crate) fn of(board: &Board) -> Option<LargeBoardPruning> {
        let size = board.size();
        if size < PRUNING_MIN_SIZE {
            return None;
        }
        let mut empty_corners = [true; 4];
        for p in board.points().filter(|&p| board.get(p).is_some()) {
            let v = board.vertex(p);
            if let Some(i) = corner_index(size, usize::from(v.col), usize::from(v.row)) {
                empty_corners[i] = false;
            }
        }
        Some(LargeBoardPruning { empty_corners })
    }

    /// True when the search leaves `color` playing at `p` out.
    pub(crate) fn skips(&self, board: &Board, color: Color, p: Point) -> bool {
        let (col, row, line) = line_of(board, p);
        if stones_nearby(board, col, row) {
            return saves_atari(board, color, p) && runs_into_ladder(board, color, p);
        }
        if !(3..=4).contains(&line) {
            return true;
        }
        match corner_index(board.size(), col, row) {
            Some(i) if self.empty_corners[i] => false,
            _ => self.empty_corners.contains(&true),
        }
    }
}

/// Which corner (0 to 3) `(col, row)` lies in, if any.
fn corner_index(size: usize, col: usize, row: usize) -> Option<usize> {
    let from_edge = |x: usize| x.min(size - 1 - x) + 1;
    (from_edge(col) <= CORNER_LINES && from_edge(row) <= CORNER_LINES)
        .then(|| usize::from(col > size / 2) * 2 + usize::from(row > size / 2))
}

/// The column, row and line (1 at the edge) of `p`.
fn line_of(board: &Board, p: Point) -> (usize, usize, usize) {
    let size = board.size();
    let v = board.vertex(p);
    let (col, row) = (usize::from(v.col), usize::from(v.row));
    let line = col.min(row).min(size - 1 - col).min(size - 1 - row) + 1;
    (col, row, line)
}

/// Whose win a reward is, in half points: 2 for a Black win, 0 for a White win, 1 for
/// a draw.
fn half_reward_for(color: Color, black_half_reward: u32) -> u32 {
    match color {
        Color::Black => black_half_reward,
        Color::White => 2 - black_half_reward,
    }
}

#[derive(Clone, Debug)]
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
    prior_visits: f32,
    prior_wins: f32,
}

impl Node {
    fn new(mv: Option<Point>, prior_visits: f32, prior_wins: f32) -> Node {
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
        }
    }

    /// Sum of rewards for the player who made `mv`.
    pub(crate) fn wins(&self) -> f64 {
        f64::from(self.half_wins) / 2.0
    }

    pub(crate) fn amaf_wins(&self) -> f64 {
        f64::from(self.amaf_half_wins) / 2.0
    }

    /// Counts one simulation through the node: `half_reward` for the player who made
    /// `mv`, `black_margin` for the running mean score.
    fn add_visit(&mut self, half_reward: u32, black_margin: f32) {
        self.visits += 1;
        self.score += (black_margin - self.score) / self.visits as f32;
        self.half_wins += half_reward;
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

/// What every tree of one search shares (read-only, so threads share it).
pub(crate) struct Context<'a> {
    pub(crate) root: &'a Board,
    pub(crate) to_move: Color,
    pub(crate) komi: f32,
    pub(crate) suicide_allowed: bool,
    /// The root's children, in order: legal, allowed, non-eye-filling moves, then pass.
    pub(crate) root_moves: &'a [Option<Point>],
    /// The previous move of the game was a pass: a pass at the root ends the game.
    pub(crate) opponent_passed: bool,
    /// On-board points, for ownership sums.
    pub(crate) points: &'a [Point],
    pub(crate) max_nodes: usize,
    pub(crate) playout_cap: u32,
    pub(crate) params: Params,
    /// Which repetitions tree moves must avoid.
    pub(crate) ko: KoRule,
    /// The [`Context::key`]s of the positions the game has been through (the root's
    /// included), sorted; empty under simple ko.
    pub(crate) history: &'a [u64],
}

impl Context<'_> {
    /// What superko compares for the position whose stones hash to `stones` with `next`
    /// to move: the stones alone (positional) or with the side to move (situational).
    pub(crate) fn key(&self, stones: u64, next: Color) -> u64 {
        match self.ko {
            KoRule::SituationalSuperko => stones ^ side_to_move_key(next),
            KoRule::Simple | KoRule::PositionalSuperko => stones,
        }
    }
}

/// When a tree stops growing.
/// What a search hands its tree to while it runs.
pub(crate) type TreeReport<'a> = dyn Fn(&Tree) + Sync + 'a;

pub(crate) struct Budget<'a> {
    pub(crate) playouts: u64,
    pub(crate) deadline: Option<Instant>,
    pub(crate) stop: &'a (dyn Fn() -> bool + Sync),
    /// Every `interval`, hand the tree to the callback (checked when the stop flag is).
    pub(crate) report: Option<(Duration, &'a TreeReport<'a>)>,
}

/// Poll the clock every this many playouts (cheap, but not free on every playout).
const DEADLINE_POLL: u64 = 16;
/// Poll the stop callback every this many playouts: often, since a ponder must end as
/// soon as a command arrives, and the engine's callbacks only read atomic flags.
const STOP_POLL: u64 = 16;

/// One tree and the scratch space its simulations use.
pub(crate) struct Tree<'a> {
    ctx: &'a Context<'a>,
    pub(crate) nodes: Vec<Node>,
    board: Board,
    playout: Playout,
    amaf: Amaf,
    scorer: Scorer,
    path: Vec<u32>,
    /// The superko keys of the positions after each move of `path` (root excluded: it
    /// is in the history); kept only under superko.
    path_keys: Vec<u64>,
    pub(crate) playouts: u64,
    /// Tree nodes traversed plus playout moves made: the bench's node count.
    pub(crate) visited: u64,
    /// Per point index: Black-owned minus White-owned final positions.
    pub(crate) ownership: Vec<i32>,
}

impl<'a> Tree<'a> {
    /// A tree for `ctx`'s root: `kept` is an arena [`reroot`] made for this context (the
    /// root's children are `ctx.root_moves` in order), else the tree starts empty.
    pub(crate) fn new(ctx: &'a Context<'a>, seed: u64, kept: Option<Vec<Node>>) -> Tree<'a> {
        let reused = kept.is_some();
        let mut tree = Tree {
            ctx,
            nodes: kept.unwrap_or_else(|| Vec::with_capacity(1024)),
            board: ctx.root.clone(),
            playout: Playout::new(seed, ctx.suicide_allowed, &ctx.params),
            amaf: Amaf::new(),
            scorer: Scorer::new(),
            path: Vec::with_capacity(64),
            path_keys: Vec::with_capacity(64),
            playouts: 0,
            visited: 0,
            ownership: vec![0; MAX_POINTS],
        };
        if let Some(lead) = ctx.root.area().checked_div(ctx.params.mercy_fraction) {
            // At most 625: fits u32.
            tree.playout.mercy = lead as u32;
        }
        if !reused {
            tree.nodes.push(Node::new(None, 0.0, 0.0));
            tree.expand(0, ctx.to_move, None);
        }
        tree
    }

    /// Runs simulations until the budget is spent, the deadline passes or `stop` says so.
    pub(crate) fn search(&mut self, budget: &Budget) {
        let mut last_report = Instant::now();
        while self.playouts < budget.playouts {
            if let Some((interval, report)) = budget.report
                && self.playouts.is_multiple_of(STOP_POLL)
                && last_report.elapsed() >= interval
            {
                report(self);
                last_report = Instant::now();
            }
            if self.playouts.is_multiple_of(DEADLINE_POLL)
                && budget.deadline.is_some_and(|d| Instant::now() >= d)
            {
                break;
            }
            if self.playouts.is_multiple_of(STOP_POLL) && (budget.stop)() {
                break;
            }
            self.simulate();
        }
    }

    /// The root's children (one per root move, in `Context::root_moves` order).
    pub(crate) fn root_children(&self) -> &[Node] {
        &self.nodes[self.nodes[0].children()]
    }

    /// The most visited line below root child `i`, the child's own move first; stops at
    /// the first pass or unvisited node.
    pub(crate) fn principal_variation(&self, i: usize, max_len: usize) -> Vec<Point> {
        let mut pv = Vec::new();
        let mut node = self.nodes[0].first_child as usize + i;
        while pv.len() < max_len {
            let n = &self.nodes[node];
            let Some(p) = n.mv else { break };
            if n.visits == 0 {
                break;
            }
            pv.push(p);
            let Some(next) = n.children().max_by_key(|&c| self.nodes[c].visits) else {
                break;
            };
            node = next;
        }
        pv
    }

    fn simulate(&mut self) {
        let ctx = self.ctx;
        self.begin_walk();
        let mut color = ctx.to_move;
        let mut passes = u32::from(ctx.opponent_passed);
        let mut last = None;
        let mut before_last = None;
        let mut node = 0;
        let mut terminal = false;
        loop {
            if self.nodes[node].num_children == 0
                && (self.nodes[node].visits < ctx.params.expand_after
                    || !self.expand(node, color, last))
            {
                break;
            }
            let child = self.select(node);
            let mv = self.step(child, color);
            passes = if mv.is_some() { 0 } else { passes + 1 };
            before_last = last;
            last = mv;
            color = color.opponent();
            node = child;
            if passes >= 2 {
                terminal = true;
                break;
            }
        }
        self.visited += self.path.len() as u64;
        if !terminal {
            let turn = Turn {
                color,
                passes,
                last,
                before_last,
                // The path holds the root and one node a move: at most a few hundred.
                ply: (self.path.len() - 1) as u32,
            };
            let moves = self
                .playout
                .run(&mut self.board, turn, ctx.playout_cap, &mut self.amaf);
            self.visited += u64::from(moves);
        }
        let margin = self.scorer.area_margin(&self.board) as f32 - ctx.komi;
        self.scorer
            .add_ownership(&self.board, ctx.points, &mut self.ownership);
        let black_half_reward = if margin > 0.0 {
            2
        } else if margin < 0.0 {
            0
        } else {
            1
        };
        if let Some(replies) = &mut self.playout.replies
            && margin != 0.0
        {
            let winner = if margin > 0.0 {
                Color::Black
            } else {
                Color::White
            };
            replies.learn(self.amaf.moves(), winner);
        }
        self.backup(black_half_reward, margin);
        self.playouts += 1;
    }

    /// Starts a walk down the tree at the root.
    fn begin_walk(&mut self) {
        self.board.clone_from(self.ctx.root);
        self.amaf.start();
        self.path.clear();
        self.path.push(0);
        self.path_keys.clear();
    }

    /// Plays the move of `child` (a child of the walk's last node) for `color` on the
    /// walk's board and extends the walk to it; returns the move.
    fn step(&mut self, child: usize, color: Color) -> Option<Point> {
        // The path holds the root and one node a move: at most a few hundred.
        let ply = (self.path.len() - 1) as u32;
        let mv = self.nodes[child].mv;
        match mv {
            Some(p) => {
                self.board.play(color, p);
                self.amaf.record(p, color, ply);
            }
            None => self.board.pass(),
        }
        self.path.push(child as u32);
        if self.ctx.ko != KoRule::Simple {
            let key = self.ctx.key(self.board.hash(), color.opponent());
            self.path_keys.push(key);
        }
        mv
    }

    /// True when `color` playing `p` on the walk's board recreates a position (or
    /// situation) of the game or of the walk, which superko forbids.
    fn repeats(&self, color: Color, p: Point) -> bool {
        let ctx = self.ctx;
        if ctx.ko == KoRule::Simple {
            return false;
        }
        let key = ctx.key(self.board.hash_after(color, p), color.opponent());
        ctx.history.binary_search(&key).is_ok() || self.path_keys.contains(&key)
    }

    /// Updates the real statistics along the path and the AMAF statistics of the
    /// siblings whose move the side to move played first later in the simulation.
    fn backup(&mut self, black_half_reward: u32, black_margin: f32) {
        let mut color = self.ctx.to_move;
        for d in 0..self.path.len() {
            let n = self.path[d] as usize;
            let node = &mut self.nodes[n];
            // The node's move was made by the opponent of the side to move there.
            node.add_visit(
                half_reward_for(color.opponent(), black_half_reward),
                black_margin,
            );
            let reward = half_reward_for(color, black_half_reward);
            for c in node.children() {
                let child = &mut self.nodes[c];
                if let Some(p) = child.mv
                    && self.amaf.played_first(p, color, d as u32)
                {
                    child.amaf_visits += 1;
                    child.amaf_half_wins += reward;
                }
            }
            color = color.opponent();
        }
    }

    /// The child maximising the RAVE-blended mean plus a small UCB term.
    fn select(&self, node: usize) -> usize {
        let params = &self.ctx.params;
        let parent = &self.nodes[node];
        if node == 0 {
            // The pass has a poor prior and no AMAF statistics, so without exploration
            // it would never be tried; the pass decision needs a measured win rate.
            // One simulation in 32 goes to it until it has ROOT_PASS_VISITS.
            let pass = parent.children().end - 1;
            if self.nodes[pass].visits < ROOT_PASS_VISITS && parent.visits % 32 == 31 {
                return pass;
            }
        }
        let log_parent = ((parent.visits + 1) as f32).ln();
        let mut best = parent.first_child as usize;
        let mut best_value = f32::NEG_INFINITY;
        for c in parent.children() {
            let child = &self.nodes[c];
            let n = child.visits as f32 + child.prior_visits;
            let q = if n > 0.0 {
                (child.half_wins as f32 * 0.5 + child.prior_wins) / n
            } else {
                0.5
            };
            let value = if child.amaf_visits > 0 {
                let an = child.amaf_visits as f32;
                let beta = an / (an + n + n * an / params.rave_equivalence);
                (1.0 - beta) * q + beta * (child.amaf_half_wins as f32 * 0.5 / an)
            } else {
                q
            };
            let value = if params.exploration > 0.0 {
                value + params.exploration * (log_parent / (n + 1.0)).sqrt()
            } else {
                value
            };
            if value > best_value {
                best_value = value;
                best = c;
            }
        }
        best
    }

    /// Test access to expansion: walks `line` from the root (each move must be a child
    /// of the node before, passes included, the side to move alternating), expanding
    /// every node on the way whatever its visits, and returns the moves of the last
    /// node's children.
    #[cfg(test)]
    pub(crate) fn children_after(&mut self, line: &[Option<Point>]) -> Vec<Option<Point>> {
        self.begin_walk();
        let mut node = 0;
        let mut color = self.ctx.to_move;
        let mut last = None;
        for &mv in line {
            if self.nodes[node].num_children == 0 {
                assert!(self.expand(node, color, last), "tree full");
            }
            let child = self.nodes[node]
                .children()
                .find(|&c| self.nodes[c].mv == mv)
                .unwrap_or_else(|| panic!("{mv:?} is not a child"));
            self.step(child, color);
            node = child;
            last = mv;
            color = color.opponent();
        }
        if self.nodes[node].num_children == 0 {
            assert!(self.expand(node, color, last), "tree full");
        }
        self.nodes[node]
            .children()
            .map(|c| self.nodes[c].mv)
            .collect()
    }

    /// Gives `node` its children, for `color` to move on the current board; false if the
    /// tree is full.
    fn expand(&mut self, node: usize, color: Color, last: Option<Point>) -> bool {
        let ctx = self.ctx;
        let first = self.nodes.len();
        // The root is always expanded: the search reports on its children.
        if node != 0 && first + self.board.empty_points().len() + 1 > ctx.max_nodes {
            return false;
        }
        if node == 0 {
            for &mv in ctx.root_moves {
                self.nodes.push(root_child(ctx, mv));
            }
        } else {
            let pruning = LargeBoardPruning::of(&self.board);
            for i in 0..self.board.empty_points().len() {
                let p = self.board.empty_points()[i];
                if self.board.is_legal(color, p, ctx.suicide_allowed)
                    && !self.board.is_eye_like(color, p)
                    && !self.board.is_suicide(color, p)
                    && !self.repeats(color, p)
                    && !pruning.is_some_and(|pruning| pruning.skips(&self.board, color, p))
                {
                    let (pv, pw) = move_prior(&ctx.params, &self.board, color, p, last);
                    self.nodes.push(Node::new(Some(p), pv, pw));
                }
            }
            let (pv, pw) = pass_prior(&ctx.params, last.is_none());
            self.nodes.push(Node::new(None, pv, pw));
        }
        let count = self.nodes.len() - first;
        // At most 625 points plus a pass, and the arena is capped far below u32::MAX.
        self.nodes[node].first_child = first as u32;
        self.nodes[node].num_children = count as u16;
        true
    }
}

/// A new child of the root for `mv` (the root's move list is the caller's, who checked
/// it against the game's history).
fn root_child(ctx: &Context, mv: Option<Point>) -> Node {
    let (pv, pw) = match mv {
        Some(p) => move_prior(&ctx.params, ctx.root, ctx.to_move, p, None),
        None => pass_prior(&ctx.params, ctx.opponent_passed),
    };
    Node::new(mv, pv, pw)
}

/// The part of a finished search's arena `old` that lies under `line` (the moves played
/// since its root), as a fresh arena for a search of `ctx`: its root is the node `line`
/// leads to, with the root's children made exactly `ctx.root_moves` in order (kept
/// statistics where the old node had that child, a new child where not; children the
/// new root may not play, under superko, are dropped with their subtrees), and every
/// node below copied breadth first. `None` when the line leaves the tree or ends at a
/// node that was never expanded: there is little to keep then.
///
/// The children below the root stay valid: they were checked against the old history
/// plus the old path, which are the new history plus the new path.
pub(crate) fn reroot(old: &[Node], line: &[Option<Point>], ctx: &Context) -> Option<Vec<Node>> {
    let mut at = 0;
    for &mv in line {
        at = old.get(at)?.children().find(|&c| old[c].mv == mv)?;
    }
    let top = old.get(at)?;
    if top.num_children == 0 {
        return None;
    }
    // Old child of the new root by move: one slot a point, the last for the pass.
    let slot_of = |mv: Option<Point>| mv.map_or(MAX_POINTS, Point::index);
    let mut slots = vec![usize::MAX; MAX_POINTS + 1];
    for c in top.children() {
        slots[slot_of(old[c].mv)] = c;
    }
    let mut nodes = Vec::with_capacity(1024);
    nodes.push(Node {
        num_children: 0,
        first_child: 0,
        ..top.clone()
    });
    for &mv in ctx.root_moves {
        nodes.push(match slots[slot_of(mv)] {
            usize::MAX => root_child(ctx, mv),
            c => old[c].clone(),
        });
    }
    // At most 625 points plus a pass.
    nodes[0].first_child = 1;
    nodes[0].num_children = ctx.root_moves.len() as u16;
    // Nodes copied from `old` still point at their children there: copy each node's
    // children to the end, in order, and point it at the copies. Every node is fixed
    // once, and those appended are fixed in their turn.
    let mut i = 1;
    while i < nodes.len() {
        let count = usize::from(nodes[i].num_children);
        if count > 0 {
            let from = nodes[i].first_child as usize;
            let first = nodes.len();
            nodes.extend_from_slice(&old[from..from + count]);
            // The new arena is no larger than the old one, whose indices fit u32.
            nodes[i].first_child = first as u32;
        }
        i += 1;
    }
    Some(nodes)
}

/// A pass is given a poor prior unless the previous move was a pass (then it ends the
/// game and its exact value is learnt on the first visit anyway).
fn pass_prior(params: &Params, previous_was_pass: bool) -> (f32, f32) {
    let n = params.prior_even;
    if previous_was_pass {
        (n, n * 0.5)
    } else {
        (n, n * 0.1)
    }
}

/// Virtual (visits, wins) for `color` playing at `p`: captures and escapes good,
/// self-atari bad, and on open parts of larger boards the first two lines bad and the
/// third good.
pub(crate) fn move_prior(
    params: &Params,
    board: &Board,
    color: Color,
    p: Point,
    last: Option<Point>,
) -> (f32, f32) {
    let bonus = params.prior_bonus;
    let mut visits = params.prior_even;
    let mut wins = params.prior_even * 0.5;
    if board.would_capture(color, p) {
        visits += bonus;
        wins += bonus;
    }
    if saves_atari(board, color, p) {
        visits += bonus;
        // Running from atari into a working ladder only feeds the opponent stones.
        if !runs_into_ladder(board, color, p) {
            wins += bonus;
        }
    } else if starts_working_ladder(board, color, p) {
        visits += bonus;
        wins += bonus;
    }
    if is_bad_self_atari(board, color, p) {
        visits += bonus;
    }
    if params.pattern_prior > 0.0 && patterns::matches(patterns::code(board, p)) {
        visits += params.pattern_prior;
        wins += params.pattern_prior;
    }
    if let Some(last) = last
        && board.neighbors(last).contains(&p)
    {
        // Replies next to the last move are often urgent.
        visits += bonus * 0.5;
        wins += bonus * 0.4;
    }
    if board.size() >= LINE_PRIOR_MIN_SIZE {
        let (col, row, line) = line_of(board, p);
        if line <= 3 && !stones_nearby(board, col, row) {
            visits += bonus;
            if line == 3 {
                wins += bonus;
            }
        }
    }
    (visits, wins)
}

/// True if a stone lies within two lines of (col, row) in both directions.
fn stones_nearby(board: &Board, col: usize, row: usize) -> bool {
    let size = board.size();
    let cols = col.saturating_sub(2)..=(col + 2).min(size - 1);
    cols.into_iter().any(|c| {
        (row.saturating_sub(2)..=(row + 2).min(size - 1)).any(|r| {
            // Both are below the board size (at most 25): the conversions are exact.
            board
                .stone_at(crate::go::vertex::Vertex::new(c as u8, r as u8))
                .is_some()
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_patterns_raise_a_move_s_prior() {
        // Black D4, White D5: E5 is a hane (a pattern), G7 far from everything is not.
        let mut board = Board::new(9).expect("9x9");
        let at = |board: &Board, s: &str| board.point(s.parse().expect("test vertex"));
        board.set(at(&board, "D4"), Some(Color::Black));
        board.set(at(&board, "D5"), Some(Color::White));
        let with = Params::default();
        assert!(with.pattern_prior > 0.0);
        let without = Params {
            pattern_prior: 0.0,
            ..with
        };
        let prior = |params: &Params, s: &str| {
            let (visits, wins) = move_prior(params, &board, Color::Black, at(&board, s), None);
            wins / visits
        };
        assert!(prior(&with, "E5") > prior(&without, "E5"));
        assert_eq!(prior(&with, "G7"), prior(&without, "G7"));
    }

    #[test]
    fn open_ground_of_large_boards_is_entered_on_the_third_and_fourth_lines() {
        let mut board = Board::new(19).expect("19x19");
        let at = |board: &Board, s: &str| board.point(s.parse().expect("test vertex"));
        let skips = |board: &Board, s: &str| {
            let pruning = LargeBoardPruning::of(board).expect("19x19 is pruned");
            pruning.skips(board, Color::Black, at(board, s))
        };
        // The empty board: the third and fourth lines of the corners only.
        for s in ["C3", "D4", "C4", "E3", "F4", "R16", "Q17"] {
            assert!(!skips(&board, s), "{s} opens a corner");
        }
        for s in ["A1", "B2", "E5", "K10", "C10", "D10", "F10", "B10", "K3"] {
            assert!(
                skips(&board, s),
                "{s} is not a corner's third or fourth line"
            );
        }
        // A stone makes its neighbourhood ordinary ground and its corner taken...
        board.set(at(&board, "D4"), Some(Color::Black));
        for s in ["B2", "E5", "F6", "B4", "F2"] {
            assert!(!skips(&board, s), "{s} is near D4");
        }
        assert!(skips(&board, "G7"));
        // ... and only once every corner is taken do the sides open.
        assert!(skips(&board, "K3"));
        assert!(!skips(&board, "Q16"));
        for s in ["D16", "Q16", "Q4"] {
            board.set(at(&board, s), Some(Color::White));
        }
        assert!(!skips(&board, "K3"));
        assert!(!skips(&board, "K16"));
        assert!(skips(&board, "K10"));
        // Smaller boards are left as they were measured.
        assert!(LargeBoardPruning::of(&Board::new(13).expect("13x13")).is_none());
    }

    #[test]
    fn a_large_board_search_does_not_run_into_a_working_ladder() {
        let mut board = Board::new(19).expect("19x19");
        let at = |board: &Board, s: &str| board.point(s.parse().expect("test vertex"));
        // White D16 in atari; extending at D15 reaches two liberties and is chased down
        // to the left edge.
        board.set(at(&board, "D16"), Some(Color::White));
        for s in ["C16", "D17", "E16", "E15"] {
            board.set(at(&board, s), Some(Color::Black));
        }
        let d15 = at(&board, "D15");
        assert!(runs_into_ladder(&board, Color::White, d15));
        let pruning = LargeBoardPruning::of(&board).expect("19x19 is pruned");
        assert!(pruning.skips(&board, Color::White, d15));
        // Black may still play there, and White may play next to it.
        assert!(!pruning.skips(&board, Color::Black, d15));
        assert!(!pruning.skips(&board, Color::White, at(&board, "C15")));
        // A White stone far from the ladder's path changes nothing; one on it (B13, where
        // the chase meets the left edge) breaks the ladder and the escape is searched.
        board.set(at(&board, "Q4"), Some(Color::White));
        assert!(pruning.skips(&board, Color::White, d15));
        board.set(at(&board, "B13"), Some(Color::White));
        assert!(!pruning.skips(&board, Color::White, d15));
    }

    #[test]
    fn win_sums_keep_counting_past_f32_precision() {
        // 2^25 visits, all wins: an f32 sum there no longer changes when 1 is added.
        let mut node = Node::new(None, 0.0, 0.0);
        node.visits = 1 << 25;
        node.half_wins = 2 << 25;
        node.add_visit(2, 0.0);
        node.add_visit(1, 0.0);
        assert_eq!(node.visits, (1 << 25) + 2);
        assert_eq!(node.wins(), f64::from(1u32 << 25) + 1.5);
        assert_eq!(half_reward_for(Color::White, 2), 0);
        assert_eq!(half_reward_for(Color::Black, 1), 1);
    }
}
