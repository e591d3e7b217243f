//! One search tree: UCT with RAVE over a flat arena of nodes, and the simulations that
//! grow it.
//!
//! Nodes live in an [`Arena`] (`arena.rs`) that every search thread shares, and refer
//! to their children by index: the children of a node are contiguous, allocated together
//! when the node is expanded, and no node is ever freed during a search. A [`Tree`] is
//! one thread's walker over it, with its own board and playout generator. Between
//! searches [`reroot`] copies the subtree under the moves played into a fresh arena, so
//! that the next search starts from what this one learnt (tree reuse).
//!
//! Superko inside the tree: a node's children leave out the moves that recreate a
//! position (or situation) of the game's history or of the path from the root to the
//! node. There is no transposition table, so a node stands for one path only and this
//! check is exact for it; a node reached by another order of moves is another node with
//! its own check. Playouts know simple ko only: their cycles end at the move cap.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::go::board::{Board, MAX_POINTS, Point, side_to_move_key};
use crate::go::color::Color;
use crate::go::net::Snapshot;
use crate::go::net::features::{HISTORY, index_of};
use crate::go::rules::KoRule;

use super::NetSearch;
use super::adaptive::{self, Budget};
use super::arena::{Arena, Children, NET_PENDING, Node, Nodes, SharedNode};
use super::criticality::{CRITICALITY_READY, Criticality};
use super::gammas::Gammas;
use super::knowledge::{
    LargeBoardPruning, learned_prior, move_prior, net_prior, net_value_prior, pass_prior,
};
use super::params::Params;
use super::playout::{Amaf, Playout, Scorer, Turn};

/// Visits the root's pass gets whatever its value (see [`Tree::select`]).
pub(crate) const ROOT_PASS_VISITS: u32 = 16;

/// Whose win a reward is, in half points: 2 for a Black win, 0 for a White win, 1 for
/// a draw.
fn half_reward_for(color: Color, black_half_reward: u32) -> u32 {
    match color {
        Color::Black => black_half_reward,
        Color::White => 2 - black_half_reward,
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
    /// The game's last moves, the latest first ([`SearchRequest::recent_moves`]).
    pub(crate) recent_moves: [Option<Point>; HISTORY],
    /// The network the tree consults, if any ([`SearchRequest::net`]).
    pub(crate) net: Option<&'a NetSearch>,
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

/// What a search hands its first thread's walker to while it runs.
pub(crate) type TreeReport<'a> = dyn Fn(&Tree) + Sync + 'a;

/// Poll the clock every this many playouts (cheap, but not free on every playout).
const DEADLINE_POLL: u64 = 16;
/// Poll the stop callback every this many playouts: often, since a ponder must end as
/// soon as a command arrives, and the engine's callbacks only read atomic flags.
const STOP_POLL: u64 = 16;

/// One thread's walker over the shared tree, and the scratch space its simulations use.
pub(crate) struct Tree<'a> {
    ctx: &'a Context<'a>,
    pub(crate) arena: &'a Arena,
    /// The search's first walker: it reports, and it gives the root's children their
    /// criticality bonus (once for the tree, not once a thread).
    first: bool,
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
    /// Positions this walker had the net judge.
    pub(crate) net_evaluations: u64,
    /// Per point index: Black-owned minus White-owned final positions.
    pub(crate) ownership: Vec<i32>,
    /// Owners and winners of this tree's playouts, counted only when
    /// `Params::criticality_prior` is on.
    criticality: Criticality,
    /// Scratch: the children being made (move, prior visits, prior wins).
    made: Vec<(Option<Point>, f32, f32)>,
    /// Scratch: the learned strengths of the children being made.
    strengths: Vec<f32>,
    /// Scratch: the net's buffers, kept between evaluations.
    net_scratch: crate::go::net::Scratch,
}

impl<'a> Tree<'a> {
    /// Walker `index` of a search of `ctx` over `arena`: an arena [`reroot`] made for this
    /// context (the root's children are `ctx.root_moves` in order), or an empty one, whose
    /// root the first walker plants (make it before the others start).
    pub(crate) fn new(ctx: &'a Context<'a>, arena: &'a Arena, seed: u64, index: usize) -> Tree<'a> {
        let mut tree = Tree {
            ctx,
            arena,
            first: index == 0,
            board: ctx.root.clone(),
            playout: Playout::new(seed, ctx.suicide_allowed, &ctx.params),
            amaf: Amaf::new(),
            scorer: Scorer::new(),
            path: Vec::with_capacity(64),
            path_keys: Vec::with_capacity(64),
            playouts: 0,
            visited: 0,
            net_evaluations: 0,
            ownership: vec![0; MAX_POINTS],
            criticality: Criticality::new(),
            made: Vec::new(),
            strengths: Vec::new(),
            net_scratch: crate::go::net::Scratch::default(),
        };
        if let Some(lead) = ctx.root.area().checked_div(ctx.params.mercy_fraction) {
            // At most 625: fits u32.
            tree.playout.mercy = lead as u32;
        }
        if index == 0 && arena.len() == 0 && arena.alloc(1).is_some() {
            tree.expand(0, ctx.to_move, &ctx.recent_moves);
        }
        tree
    }

    /// Runs simulations until the budget is spent, the deadline passes or `stop` says so;
    /// every `interval` hands the walker to `report` (checked when the stop flag is).
    pub(crate) fn search(&mut self, budget: &Budget, report: Option<(Duration, &TreeReport)>) {
        let mut last_report = Instant::now();
        loop {
            if let Some((interval, report)) = report
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
            if budget.stop_when_decided && self.move_is_decided(budget) {
                break;
            }
            if !budget.claim() {
                break;
            }
            self.simulate();
        }
        // The search's last state is reported too: a search shorter than the interval
        // still gives its judgement (the arena's `--record-judgement` keeps the last line).
        if let Some((_, report)) = report {
            report(self);
        }
    }

    /// Whether this search may end because its move is decided (`adaptive.rs`): told
    /// by another walker, or found here at this walker's poll.
    fn move_is_decided(&self, budget: &Budget) -> bool {
        if budget.decided.load(Ordering::Relaxed) {
            return true;
        }
        if !self.playouts.is_multiple_of(adaptive::DECIDED_POLL) {
            return false;
        }
        let left = adaptive::playouts_left(budget, Instant::now());
        // Each other walker may have a playout in flight (claimed, not yet counted); it
        // reads the flag before it claims another.
        let margin = budget.threads.saturating_sub(1);
        let decided = adaptive::root_is_decided(self.arena, left, margin);
        if decided {
            budget.decided.store(true, Ordering::Relaxed);
        }
        decided
    }

    fn node(&self, index: usize) -> &'a SharedNode {
        self.arena.get(index)
    }

    fn simulate(&mut self) {
        let ctx = self.ctx;
        self.begin_walk();
        let mut color = ctx.to_move;
        let mut passes = u32::from(ctx.opponent_passed);
        let mut last = None;
        let mut before_last = None;
        // The priors see the game's moves before the root too; the playouts keep to the
        // tree's own, as they always have.
        let mut recent = ctx.recent_moves;
        let mixing = ctx.net.is_some_and(|net| net.value_weight > 0.0);
        // Black's win probability as the net judged the deepest expanded node so far.
        let mut black_value = 0.5;
        let mut node = 0;
        let mut terminal = false;
        loop {
            let here = self.node(node);
            let leaf = match here.children() {
                Children::At { .. } => false,
                // Another thread is making the children: a playout from here this once.
                Children::Expanding => true,
                Children::Leaf => {
                    here.visits() < ctx.params.expand_after || !self.expand(node, color, &recent)
                }
            };
            if leaf {
                break;
            }
            if let Some(net) = ctx.net {
                self.judge_when_due(node, net, color, &recent);
            }
            if mixing && let Some(value) = self.node(node).judged_value() {
                // The node's net value is its mover's: the opponent of `color`.
                black_value = black_share(color.opponent(), value);
            }
            let child = self.select(node);
            let mv = self.step(child, color);
            passes = if mv.is_some() { 0 } else { passes + 1 };
            before_last = last;
            last = mv;
            push_recent(&mut recent, mv);
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
        if ctx.params.criticality_prior > 0.0 {
            self.count_criticality(margin);
        }
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
        // A finished game needs no judgement: its result is exact.
        let black_value = if terminal {
            black_half_reward as f32 / 2.0
        } else {
            black_value
        };
        self.backup(black_half_reward, margin, mixing.then_some(black_value));
        self.playouts += 1;
    }

    /// Counts the playout just scored (`black_margin`, komi included) for criticality;
    /// once it says something, gives the root's children (made before it did) their
    /// criticality bonus.
    fn count_criticality(&mut self, black_margin: f32) {
        let winner = if black_margin > 0.0 {
            Some(Color::Black)
        } else if black_margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        let (scorer, board) = (&self.scorer, &self.board);
        self.criticality
            .record(self.ctx.points, |p| scorer.owner(board, p), winner);
        if self.first && self.criticality.playouts() == CRITICALITY_READY {
            let full = self.ctx.params.criticality_prior;
            for c in self.node(0).child_range() {
                if let Some(p) = self.node(c).mv() {
                    self.node(c).add_prior_wins(self.criticality.bonus(p, full));
                }
            }
        }
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
        let node = self.node(child);
        node.enter();
        let mv = node.mv();
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
    /// siblings whose move the side to move played first later in the simulation; with
    /// the net's value mixed in, `black_value` is the value this simulation backs up.
    fn backup(&mut self, black_half_reward: u32, black_margin: f32, black_value: Option<f32>) {
        let mut color = self.ctx.to_move;
        for d in 0..self.path.len() {
            let node = self.node(self.path[d] as usize);
            // The node's move was made by the opponent of the side to move there.
            node.add_visit(
                half_reward_for(color.opponent(), black_half_reward),
                black_margin,
            );
            if let Some(black_value) = black_value {
                node.add_value(black_share(color.opponent(), black_value));
            }
            if d > 0 {
                node.leave();
            }
            let reward = half_reward_for(color, black_half_reward);
            for child in self.arena.run(node.child_range()) {
                if let Some(p) = child.mv()
                    && self.amaf.played_first(p, color, d as u32)
                {
                    child.add_amaf(reward);
                }
            }
            color = color.opponent();
        }
    }

    /// The child (of an expanded `node`) maximising the RAVE-blended mean plus a small
    /// UCB term. Simulations of other threads still under a child count as lost visits
    /// of it (virtual loss), so that threads spread out.
    fn select(&self, node: usize) -> usize {
        let params = &self.ctx.params;
        let parent = self.node(node);
        let children = parent.child_range();
        let parent_visits = parent.visits();
        if node == 0 {
            // The pass has a poor prior and no AMAF statistics, so without exploration
            // it would never be tried; the pass decision needs a measured win rate.
            // One simulation in 32 goes to it until it has ROOT_PASS_VISITS.
            let pass = children.end - 1;
            if self.node(pass).visits() < ROOT_PASS_VISITS && parent_visits % 32 == 31 {
                return pass;
            }
        }
        let log_parent = ((parent_visits + 1) as f32).ln();
        let weight = self.ctx.net.map_or(0.0, |net| net.value_weight);
        let mut best = children.start;
        let mut best_value = f32::NEG_INFINITY;
        for (c, child) in children.clone().zip(self.arena.run(children)) {
            let n = (child.visits() + child.in_flight()) as f32 + child.prior_visits();
            let wins = child.half_wins() as f32 * 0.5;
            let wins = if weight > 0.0 {
                (1.0 - weight) * wins + weight * child.value() * child.visits() as f32
            } else {
                wins
            };
            let q = if n > 0.0 {
                (wins + child.prior_wins()) / n
            } else {
                0.5
            };
            let amaf_visits = child.amaf_visits();
            let value = if amaf_visits > 0 {
                let an = amaf_visits as f32;
                let beta = an / (an + n + n * an / params.rave_equivalence);
                (1.0 - beta) * q + beta * (child.amaf_half_wins() as f32 * 0.5 / an)
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

    /// Gives the children being made ([`Tree::made`], no pass among them yet) the learned
    /// prior: each its strength over the best one's.
    fn add_learned_priors(
        &mut self,
        color: Color,
        last: Option<Point>,
        before_last: Option<Point>,
    ) {
        let gammas = Gammas::active(self.board.size());
        self.strengths.clear();
        for &(mv, _, _) in &self.made {
            if let Some(p) = mv {
                let strength = gammas.strength(&self.board, color, p, last, before_last);
                self.strengths.push(strength);
            }
        }
        let best = self
            .strengths
            .iter()
            .copied()
            .fold(f32::MIN_POSITIVE, f32::max);
        for (made, &strength) in self.made.iter_mut().zip(&self.strengths) {
            let (visits, wins) = learned_prior(&self.ctx.params, strength / best);
            made.1 += visits;
            made.2 += wins;
        }
    }

    /// Gives the children being made ([`Tree::made`]) the net's policy as a prior: each
    /// move its probability over the most likely one's, as the learned prior does with
    /// gammas (`knowledge::net_prior`). The net sees the last moves (`recent`, the
    /// latest first) as it was trained to. Returns the net's win probability for `color`.
    fn add_net_priors(
        &mut self,
        net: &NetSearch,
        color: Color,
        recent: &[Option<Point>; HISTORY],
    ) -> f32 {
        let eval = self.evaluate(net, color, recent);
        let best = best_probability(&eval.policy, self.made.iter().map(|m| m.0), &self.board);
        for made in &mut self.made {
            if let Some(p) = made.0 {
                let share = eval.policy[policy_index(&self.board, p)] / best;
                let (visits, wins) = net_prior(net.prior_visits, share);
                made.1 += visits;
                made.2 += wins;
            }
        }
        eval.value
    }

    /// The net's judgement of the walk's board, `color` to move after `recent`.
    fn evaluate(
        &mut self,
        net: &NetSearch,
        color: Color,
        recent: &[Option<Point>; HISTORY],
    ) -> crate::go::net::Eval {
        self.net_evaluations += 1;
        let snapshot = Snapshot::of_board(&self.board, color, self.ctx.komi, recent);
        crate::go::net::evaluate_with(&net.net, &snapshot, &mut self.net_scratch)
    }

    /// Whether the net judges a node with `visits` real visits now (`index` 0: the root,
    /// judged at once) or waits (`--net-min-visits`).
    fn judged_now(&self, net: &NetSearch, index: usize, visits: u32) -> bool {
        index == 0 || visits >= net.min_visits_on(self.ctx.root.size())
    }

    /// Judges an expanded `node` (the walk's last, `color` to move after `recent`) that
    /// waited for the net ([`NetSearch::min_visits`]) once it has the visits: its
    /// children get the net's policy as a prior beside the classical ones they have, as
    /// [`Tree::add_net_priors`] gives them at expansion, and the node the net's value.
    fn judge_when_due(
        &mut self,
        node: usize,
        net: &NetSearch,
        color: Color,
        recent: &[Option<Point>; HISTORY],
    ) {
        let here = self.node(node);
        if !here.net_pending()
            || !self.judged_now(net, node, here.visits())
            || !here.claim_judgement()
        {
            return;
        }
        let eval = self.evaluate(net, color, recent);
        let children = here.child_range();
        let moves = self.arena.run(children.clone()).map(SharedNode::mv);
        let best = best_probability(&eval.policy, moves, &self.board);
        for child in self.arena.run(children) {
            if let Some(p) = child.mv() {
                let share = eval.policy[policy_index(&self.board, p)] / best;
                let (visits, wins) = net_prior(net.prior_visits, share);
                child.add_prior(visits, wins);
            }
        }
        self.set_judgement(node, net, eval.value);
    }

    /// Records the net's win probability `value` for the side to move at `node`: the
    /// node's own judgement (its mover's), and its value prior when asked for.
    fn set_judgement(&self, node: usize, net: &NetSearch, value: f32) {
        // The node's move was made by the opponent of the side to move.
        self.node(node).set_net_value(1.0 - value);
        if node != 0 && net.value_visits > 0.0 {
            let (visits, wins) = net_value_prior(net.value_visits, value);
            self.node(node).add_prior(visits, wins);
        }
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
        let mut recent = self.ctx.recent_moves;
        for &mv in line {
            if self.node(node).children() == Children::Leaf {
                assert!(self.expand(node, color, &recent), "tree full");
            }
            let child = self
                .node(node)
                .child_range()
                .find(|&c| self.node(c).mv() == mv)
                .unwrap_or_else(|| panic!("{mv:?} is not a child"));
            self.step(child, color);
            node = child;
            push_recent(&mut recent, mv);
            color = color.opponent();
        }
        if self.node(node).children() == Children::Leaf {
            assert!(self.expand(node, color, &recent), "tree full");
        }
        (self.node(node).child_range())
            .map(|c| self.node(c).mv())
            .collect()
    }

    /// Gives `node` its children, for `color` to move on the current board after the
    /// `recent` moves (the latest first; `None`: a pass, or before the game); false if the
    /// tree is full or another thread is expanding the node. With a net, the node itself
    /// gets the net's value as virtual visits (the root needs none: nothing selects it).
    fn expand(&mut self, node: usize, color: Color, recent: &[Option<Point>; HISTORY]) -> bool {
        let ctx = self.ctx;
        // The root is always expanded: the search reports on its children.
        if node != 0 && self.arena.len() + self.board.empty_points().len() + 1 > ctx.max_nodes {
            return false;
        }
        if !self.node(node).start_expanding() {
            return false;
        }
        self.made.clear();
        if node == 0 {
            let best = root_best_strength(ctx);
            for &mv in ctx.root_moves {
                let child = root_child(ctx, mv, best);
                self.made.push((mv, child.prior_visits, child.prior_wins));
            }
        } else {
            self.make_children(color, recent[0], recent[1]);
        }
        if let Some(net) = ctx.net {
            if self.judged_now(net, node, self.node(node).visits()) {
                let value = self.add_net_priors(net, color, recent);
                self.set_judgement(node, net, value);
            } else {
                // Published with the children below: whoever walks here later judges it.
                self.node(node).set_net_value(NET_PENDING);
            }
        }
        let count = self.made.len();
        let Some(first) = self.arena.alloc(count) else {
            self.node(node).abandon();
            return false;
        };
        for (i, &(mv, prior_visits, prior_wins)) in self.made.iter().enumerate() {
            self.node(first + i)
                .store(&Node::new(mv, prior_visits, prior_wins));
        }
        self.node(node).publish(first, count);
        true
    }

    /// The children of a node below the root into [`Tree::made`]: every move the
    /// tree allows `color` on the current board, then the pass.
    fn make_children(&mut self, color: Color, last: Option<Point>, before_last: Option<Point>) {
        let ctx = self.ctx;
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
                let bonus = self.criticality.bonus(p, ctx.params.criticality_prior);
                self.made.push((Some(p), pv + bonus, pw + bonus));
            }
        }
        if ctx.params.learned_prior > 0.0 {
            self.add_learned_priors(color, last, before_last);
        }
        let (pv, pw) = pass_prior(&ctx.params, last.is_none());
        self.made.push((None, pv, pw));
    }
}

/// The index in the net's policy of point `p` of `board`.
fn policy_index(board: &Board, p: Point) -> usize {
    usize::from(index_of(board.vertex(p), board.size()))
}

/// The largest probability `policy` gives a move (not a pass) of `moves` on `board`.
fn best_probability(
    policy: &[f32],
    moves: impl Iterator<Item = Option<Point>>,
    board: &Board,
) -> f32 {
    moves
        .flatten()
        .map(|p| policy[policy_index(board, p)])
        .fold(f32::MIN_POSITIVE, f32::max)
}

/// The share of a win probability `value` for `color` that is Black's.
fn black_share(color: Color, value: f32) -> f32 {
    match color {
        Color::Black => value,
        Color::White => 1.0 - value,
    }
}

/// `recent` (the last moves, the latest first) after `mv` is played.
fn push_recent(recent: &mut [Option<Point>; HISTORY], mv: Option<Point>) {
    recent.rotate_right(1);
    recent[0] = mv;
}

/// The root's children's indices in a tree's nodes (one per root move, in
/// `Context::root_moves` order).
pub(crate) fn root_children(nodes: &(impl Nodes + ?Sized)) -> std::ops::Range<usize> {
    nodes.node(0).children()
}

/// The most visited line below root child `i`, the child's own move first; stops at
/// the first pass or unvisited node.
pub(crate) fn principal_variation(
    nodes: &(impl Nodes + ?Sized),
    i: usize,
    max_len: usize,
) -> Vec<Point> {
    let mut pv = Vec::new();
    let mut node = nodes.node(0).first_child as usize + i;
    while pv.len() < max_len {
        let n = nodes.node(node);
        let Some(p) = n.mv else { break };
        if n.visits == 0 {
            break;
        }
        pv.push(p);
        let Some(next) = n.children().max_by_key(|&c| nodes.node(c).visits) else {
            break;
        };
        node = next;
    }
    pv
}

/// A new child of the root for `mv` (the root's move list is the caller's, who checked
/// it against the game's history); `best` is [`root_best_strength`].
fn root_child(ctx: &Context, mv: Option<Point>, best: f32) -> Node {
    let (pv, pw) = match mv {
        Some(p) => {
            let (pv, pw) = move_prior(&ctx.params, ctx.root, ctx.to_move, p, None);
            if ctx.params.learned_prior > 0.0 {
                let [last, before_last, ..] = ctx.recent_moves;
                let strength = Gammas::active(ctx.root.size()).strength(
                    ctx.root,
                    ctx.to_move,
                    p,
                    last,
                    before_last,
                );
                let (lv, lw) = learned_prior(&ctx.params, strength / best);
                (pv + lv, pw + lw)
            } else {
                (pv, pw)
            }
        }
        None => pass_prior(&ctx.params, ctx.opponent_passed),
    };
    Node::new(mv, pv, pw)
}

/// The largest learned strength among the root's moves, or 1 when the learned prior is off
/// or no move is left.
fn root_best_strength(ctx: &Context) -> f32 {
    if ctx.params.learned_prior <= 0.0 {
        return 1.0;
    }
    let gammas = Gammas::active(ctx.root.size());
    let [last, before_last, ..] = ctx.recent_moves;
    ctx.root_moves
        .iter()
        .flatten()
        .map(|&p| gammas.strength(ctx.root, ctx.to_move, p, last, before_last))
        .fold(0.0, f32::max)
        .max(f32::MIN_POSITIVE)
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
    let best = std::cell::OnceCell::new();
    let mut nodes = Vec::with_capacity(1024);
    nodes.push(Node {
        num_children: 0,
        first_child: 0,
        ..top.clone()
    });
    for &mv in ctx.root_moves {
        nodes.push(match slots[slot_of(mv)] {
            usize::MAX => root_child(ctx, mv, *best.get_or_init(|| root_best_strength(ctx))),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_sums_keep_counting_past_f32_precision() {
        // 2^25 visits, all wins: an f32 sum there no longer changes when 1 is added.
        let mut node = Node::new(None, 0.0, 0.0);
        node.visits = 1 << 25;
        node.half_wins = 2 << 25;
        let arena = Arena::holding(&[node], 1);
        arena.get(0).add_visit(2, 0.0);
        arena.get(0).add_visit(1, 0.0);
        let node = arena.get(0).load();
        assert_eq!(node.visits, (1 << 25) + 2);
        assert_eq!(node.wins(), f64::from(1u32 << 25) + 1.5);
        assert_eq!(half_reward_for(Color::White, 2), 0);
        assert_eq!(half_reward_for(Color::Black, 1), 1);
    }
}
