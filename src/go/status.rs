//! The end of a game: which stones are dead, which live in seki, and who owns each
//! point, as `final_score`, `final_status_list`, `hamle-ownership` and the SGF result
//! need them.
//!
//! The judgement is a search's (see [`Judgement::of`]); the engine keeps the last one
//! so that the commands agree with one another and do not repeat the playouts.

use super::thinking::position_request;
use crate::go::board::{Board, MAX_POINTS, Point};
use crate::go::game::Game;
use crate::go::player::{self, SearchLimits, SearchRequest};
use crate::go::rules::{RuleSet, Rules};
use crate::go::score::Ownership;
use crate::go::{Color, MoveVertex, Vertex};

/// Playouts of each of the two searches that judge dead stones for `final_score`,
/// `final_status_list` and `hamle-ownership`: about half a second a search on 19×19.
/// On GNU Go's finished level-1 self-play games (`tests/interop/gnugo_scoring.rs`) they agree
/// with GNU Go's score in 195 of 200 on 9×9; 15,000 playouts settled one of twelve
/// disputed 13×13 games and unsettled another, so more would buy little.
const JUDGE_PLAYOUTS: u64 = 5_000;

/// A chain is dead when its opponent owns its points by more than this (ownership from
/// -1 to +1, so in more than 65 % of the playouts).
const JUDGE_MARGIN: f32 = 0.3;

/// A point's status at the end of the game, as `final_status_list` names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// What a judgement depends on: the position (stones, side to move, moves played), the
/// rules (Tromp–Taylor takes no stone off) and the komi (the search plays to win, so
/// the komi steers what it fights for).
pub(crate) type JudgementKey = (u64, Color, usize, Rules, u32);

/// The dead-stone judgement of one position.
#[derive(Clone, Debug)]
pub(crate) struct Judgement {
    pub(crate) key: JudgementKey,
    pub(crate) dead: Vec<Vertex>,
    pub(crate) seki: Vec<Vertex>,
    /// By [`Point::index`], +1 where Black owns the point: a stone as its opponent's
    /// search found it, an empty point the mean of both searches.
    pub(crate) ownership: Vec<f32>,
}

impl Judgement {
    /// The key a judgement of `game`'s position is kept under.
    pub(crate) fn key_of(game: &Game) -> JudgementKey {
        (
            game.board().hash(),
            game.to_move(),
            game.move_count(),
            *game.rules(),
            game.komi().to_bits(),
        )
    }

    /// Decides which stones are dead and which live in seki; Tromp–Taylor counts every
    /// stone as it stands, and its ownership is that count.
    ///
    /// The search itself judges, not bare playouts: its tree plays the killing (and
    /// saving) moves that random playouts miss, above all against a few stones left in
    /// the opponent's wide area. It runs twice, Black to move first and White, and each
    /// chain is judged by the run in which its opponent moves first, as the Japanese
    /// rules test life: a group that lives only if its owner plays next was not alive
    /// when both passed. A chain's ownership is the mean over its stones, so a chain is
    /// dead or alive as a whole. Live chains next to a shared liberty that neither side
    /// can fill ([`is_seki_liberty`]) are in seki.
    pub(crate) fn of(game: &Game, seed: u64) -> Judgement {
        let key = Judgement::key_of(game);
        let board = game.board();
        if game.rules().rule_set() == Some(RuleSet::TrompTaylor) {
            return Judgement {
                key,
                dead: Vec::new(),
                seki: Vec::new(),
                ownership: counted_as_it_stands(board),
            };
        }
        let black_first = search_ownership(game, Color::Black, seed);
        let white_first = search_ownership(game, Color::White, seed);
        let (ownership, is_dead) = judge_chains(board, &black_first, &white_first);
        let in_seki = seki_flags(board, &is_dead, ownership.len());
        let listed = |flags: &[bool]| -> Vec<Vertex> {
            board
                .points()
                .filter(|p| flags[p.index()])
                .map(|p| board.vertex(p))
                .collect()
        };
        let dead = listed(&is_dead);
        let seki = listed(&in_seki);
        Judgement {
            key,
            dead,
            seki,
            ownership,
        }
    }

    /// The stones of `status` on `board`, in vertex order (`final_status_list`).
    pub(crate) fn stones_with(&self, status: StoneStatus, board: &Board) -> Vec<Vertex> {
        let mut vertices: Vec<Vertex> = match status {
            StoneStatus::Dead => self.dead.clone(),
            StoneStatus::Seki => self.seki.clone(),
            StoneStatus::Alive => board
                .stone_vertices()
                .into_iter()
                .filter(|v| !self.dead.contains(v) && !self.seki.contains(v))
                .collect(),
        };
        vertices.sort_unstable();
        vertices
    }

    /// GoGui's `dboard`: one row of values per board row, top row first, +1 where Black
    /// owns the point and -1 where White does.
    pub(crate) fn ownership_board(&self, board: &Board) -> String {
        let size = board.size();
        let mut rows = Vec::with_capacity(size);
        for row in (0..size).rev() {
            let values: Vec<String> = (0..size)
                .map(|col| {
                    let p = board.point(Vertex::new(col as u8, row as u8));
                    format!("{:.2}", self.ownership[p.index()])
                })
                .collect();
            rows.push(values.join(" "));
        }
        format!("\n{}", rows.join("\n"))
    }
}

/// Tromp–Taylor's ownership: the area count of the board as it stands.
fn counted_as_it_stands(board: &Board) -> Vec<f32> {
    let count = Ownership::new(board, &[]);
    let mut ownership = vec![0.0; MAX_POINTS];
    for p in board.points() {
        ownership[p.index()] = match count.owner(p) {
            Some(Color::Black) => 1.0,
            Some(Color::White) => -1.0,
            None => 0.0,
        };
    }
    ownership
}

/// The ownership of every point (a chain's stones: the mean over the chain in the
/// search where its opponent moved first; an empty point: the mean of both searches)
/// and, by [`Point::index`], whether a stone is dead.
fn judge_chains(board: &Board, black_first: &[f32], white_first: &[f32]) -> (Vec<f32>, Vec<bool>) {
    let mut ownership: Vec<f32> = black_first
        .iter()
        .zip(white_first)
        .map(|(b, w)| (b + w) / 2.0)
        .collect();
    let mut is_dead = vec![false; ownership.len()];
    let mut judged = vec![false; ownership.len()];
    for p in board.points() {
        let Some(stone) = board.get(p) else { continue };
        if judged[p.index()] {
            continue;
        }
        let opponent_first = match stone {
            Color::Black => white_first,
            Color::White => black_first,
        };
        let chain: Vec<Point> = board.chain_stones(p).collect();
        let mean =
            chain.iter().map(|q| opponent_first[q.index()]).sum::<f32>() / chain.len() as f32;
        let held = if stone == Color::Black { mean } else { -mean };
        for &q in &chain {
            judged[q.index()] = true;
            ownership[q.index()] = mean;
            is_dead[q.index()] = held < -JUDGE_MARGIN;
        }
    }
    (ownership, is_dead)
}

/// By [`Point::index`], the live stones in seki: the chains next to a shared liberty
/// that live chains of both colours touch and neither side can fill.
fn seki_flags(board: &Board, is_dead: &[bool], len: usize) -> Vec<bool> {
    let live = |q: Point| board.get(q).filter(|_| !is_dead[q.index()]);
    let mut in_seki = vec![false; len];
    for &p in board.empty_points() {
        let touches = |color: Color| {
            board
                .neighbors(p)
                .into_iter()
                .any(|q| live(q) == Some(color))
        };
        if touches(Color::Black) && touches(Color::White) && is_seki_liberty(board, p) {
            for q in board.neighbors(p) {
                if live(q).is_some() && !in_seki[q.index()] {
                    for stone in board.chain_stones(q) {
                        in_seki[stone.index()] = true;
                    }
                }
            }
        }
    }
    in_seki
}

/// Final-position ownership over a search of [`JUDGE_PLAYOUTS`] from `game`'s position
/// with `color` to move: one thread and the engine's seed, so the judgement is the same
/// on every run. Nothing ends the game at the root (a pass there does not end it, and
/// the search never resigns), so the search plays the position out.
fn search_ownership(game: &Game, color: Color, seed: u64) -> Vec<f32> {
    let root_allowed = |p: Point| game.is_legal(color, MoveVertex::Play(game.board().vertex(p)));
    let history = game.superko_keys();
    let request = SearchRequest {
        limits: SearchLimits {
            playouts: Some(JUDGE_PLAYOUTS),
            deadline: None,
        },
        seed,
        opponent_passed: false,
        ..position_request(game, color, &root_allowed, &history)
    };
    player::search(&request).ownership
}

/// True when a stone of either colour at empty `p` would capture nothing and leave its
/// own chain with one liberty or none: the shared liberty of a seki, which neither side
/// can fill without giving its group away. (Filling ordinary dame leaves liberties.)
fn is_seki_liberty(board: &Board, p: Point) -> bool {
    [Color::Black, Color::White].into_iter().all(|color| {
        if board.would_capture(color, p) {
            return false;
        }
        if board.is_suicide(color, p) {
            return true;
        }
        let mut after = board.clone();
        after.play(color, p);
        after.chain_liberties(p) <= 1
    })
}
