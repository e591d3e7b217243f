//! One search tree: UCT with RAVE over a flat arena of nodes, and the simulations that
//! grow it.
//!
//! Nodes live in a `Vec` and refer to their children by index: the children of a node
//! are contiguous, allocated together when the node is expanded, so a tree is one
//! allocation that grows and no node is ever freed during a search.

use std::time::{Duration, Instant};

use crate::go::board::{Board, MAX_POINTS, Point};
use crate::go::color::Color;

use super::ladder::{runs_into_ladder, starts_working_ladder};
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
            mercy_fraction: 3,
        }
    }
}

/// Visits the root's pass gets whatever its value (see [`Tree::select`]).
pub(crate) const ROOT_PASS_VISITS: u32 = 16;

/// The size below which the line-based priors (first two lines bad, third good) do not
/// apply.
const LINE_PRIOR_MIN_SIZE: usize = 9;

/// Whose win a reward is: 1 for a Black win, 0 for a White win, 0.5 for a draw.
fn reward_for(color: Color, black_reward: f32) -> f32 {
    match color {
        Color::Black => black_reward,
        Color::White => 1.0 - black_reward,
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
    /// Sum of rewards for the player who made `mv`.
    pub(crate) wins: f32,
    pub(crate) amaf_visits: u32,
    pub(crate) amaf_wins: f32,
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
            wins: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            prior_visits,
            prior_wins,
        }
    }

    /// The prior's win rate: how much the heuristics like the move.
    pub(crate) fn prior(&self) -> f32 {
        if self.prior_visits > 0.0 {
            self.prior_wins / self.prior_visits
        } else {
            0.5
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
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
/// Poll the stop callback every this many playouts (it may take a lock).
const STOP_POLL: u64 = 256;

/// One tree and the scratch space its simulations use.
pub(crate) struct Tree<'a> {
    ctx: &'a Context<'a>,
    pub(crate) nodes: Vec<Node>,
    board: Board,
    playout: Playout,
    amaf: Amaf,
    scorer: Scorer,
    path: Vec<u32>,
    pub(crate) playouts: u64,
    /// Tree nodes traversed plus playout moves made: the bench's node count.
    pub(crate) visited: u64,
    /// Per point index: Black-owned minus White-owned final positions.
    pub(crate) ownership: Vec<i32>,
}

impl<'a> Tree<'a> {
    pub(crate) fn new(ctx: &'a Context<'a>, seed: u64) -> Tree<'a> {
        let mut tree = Tree {
            ctx,
            nodes: Vec::with_capacity(1024),
            board: ctx.root.clone(),
            playout: Playout::new(seed, ctx.suicide_allowed, &ctx.params),
            amaf: Amaf::new(),
            scorer: Scorer::new(),
            path: Vec::with_capacity(64),
            playouts: 0,
            visited: 0,
            ownership: vec![0; MAX_POINTS],
        };
        if let Some(lead) = ctx.root.area().checked_div(ctx.params.mercy_fraction) {
            // At most 625: fits u32.
            tree.playout.mercy = lead as u32;
        }
        tree.nodes.push(Node::new(None, 0.0, 0.0));
        tree.expand(0, ctx.to_move, None);
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
        self.board.clone_from(ctx.root);
        self.amaf.start();
        self.path.clear();
        self.path.push(0);
        let mut color = ctx.to_move;
        let mut passes = u32::from(ctx.opponent_passed);
        let mut last = None;
        let mut ply = 0;
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
            let mv = self.nodes[child].mv;
            match mv {
                Some(p) => {
                    self.board.play(color, p);
                    self.amaf.record(p, color, ply);
                    passes = 0;
                }
                None => {
                    self.board.pass();
                    passes += 1;
                }
            }
            last = mv;
            color = color.opponent();
            ply += 1;
            node = child;
            self.path.push(child as u32);
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
                ply,
            };
            let moves = self
                .playout
                .run(&mut self.board, turn, ctx.playout_cap, &mut self.amaf);
            self.visited += u64::from(moves);
        }
        let margin = self.scorer.area_margin(&self.board) as f32 - ctx.komi;
        self.scorer
            .add_ownership(&self.board, ctx.points, &mut self.ownership);
        let black_reward = if margin > 0.0 {
            1.0
        } else if margin < 0.0 {
            0.0
        } else {
            0.5
        };
        self.backup(black_reward);
        self.playouts += 1;
    }

    /// Updates the real statistics along the path and the AMAF statistics of the
    /// siblings whose move the side to move played first later in the simulation.
    fn backup(&mut self, black_reward: f32) {
        let mut color = self.ctx.to_move;
        for d in 0..self.path.len() {
            let n = self.path[d] as usize;
            let node = &mut self.nodes[n];
            node.visits += 1;
            // The node's move was made by the opponent of the side to move there.
            node.wins += reward_for(color.opponent(), black_reward);
            let reward = reward_for(color, black_reward);
            for c in node.children() {
                let child = &mut self.nodes[c];
                if let Some(p) = child.mv
                    && self.amaf.played_first(p, color, d as u32)
                {
                    child.amaf_visits += 1;
                    child.amaf_wins += reward;
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
                (child.wins + child.prior_wins) / n
            } else {
                0.5
            };
            let value = if child.amaf_visits > 0 {
                let an = child.amaf_visits as f32;
                let beta = an / (an + n + n * an / params.rave_equivalence);
                (1.0 - beta) * q + beta * (child.amaf_wins / an)
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
                let (pv, pw) = match mv {
                    Some(p) => move_prior(&ctx.params, &self.board, color, p, last),
                    None => pass_prior(&ctx.params, ctx.opponent_passed),
                };
                self.nodes.push(Node::new(mv, pv, pw));
            }
        } else {
            for i in 0..self.board.empty_points().len() {
                let p = self.board.empty_points()[i];
                if self.board.is_legal(color, p, ctx.suicide_allowed)
                    && !self.board.is_eye_like(color, p)
                    && !self.board.is_suicide(color, p)
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
    if let Some(last) = last
        && board.neighbors(last).contains(&p)
    {
        // Replies next to the last move are often urgent.
        visits += bonus * 0.5;
        wins += bonus * 0.4;
    }
    let size = board.size();
    if size >= LINE_PRIOR_MIN_SIZE {
        let v = board.vertex(p);
        let (col, row) = (usize::from(v.col), usize::from(v.row));
        let line = col.min(row).min(size - 1 - col).min(size - 1 - row) + 1;
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
