//! The end of a game: which stones are dead, which live in seki, and who owns each
//! point, as `final_score`, `final_status_list`, `hamle-ownership` and the SGF result
//! need them.
//!
//! The judgement is a search's (see `Judgement::of`); the engine keeps the last one
//! so that the commands agree with one another and do not repeat the playouts.

use super::thinking::position_request;
use crate::go::board::{Board, MAX_POINTS, Point};
use crate::go::game::Game;
use crate::go::player::{self, SearchLimits, SearchRequest};
use crate::go::rules::{RuleSet, Rules};
use crate::go::score::{FinalScore, Ownership};
use crate::go::{Color, MoveVertex, Vertex};

/// Playouts of each of the two searches that judge dead stones for `final_score`,
/// `final_status_list` and `hamle-ownership` on 19×19 (about two seconds a search); smaller
/// boards get as many a point, and never fewer than [`JUDGE_PLAYOUTS_MIN`]. On GNU Go's
/// counting suite (`score.tst`, 19×19 amateur games that end with large dead groups on
/// the board) 5,000 left groups of twenty stones and more half alive; 20,000 settle all
/// but one of those games.
const JUDGE_PLAYOUTS_19: u64 = 20_000;

/// The fewest playouts a judging search gets: 9×9 keeps the budget that agrees with
/// GNU Go's count of its finished level-1 self-play games (`tests/interop/gnugo_scoring.rs`,
/// 40 of 40).
const JUDGE_PLAYOUTS_MIN: u64 = 5_000;

/// The playouts of each judging search on a `size`×`size` board.
fn judge_playouts(size: usize) -> u64 {
    let points = (size * size) as u64;
    (JUDGE_PLAYOUTS_19 * points / 361).max(JUDGE_PLAYOUTS_MIN)
}

/// A chain is dead when its opponent, moving first, owns its points in more playouts
/// than its owner does (ownership from -1 to +1). Any margin above zero left the large
/// dead groups of `score.tst` (owned by the opponent in 52 to 60 % of the playouts: the
/// playouts' owner makes eyes that the opponent does not answer) on the board.
const JUDGE_MARGIN: f32 = 0.0;

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

    /// The count of `game` (the position judged) with the dead stones taken off and,
    /// under territory scoring, the eyes of the stones in seki left to nobody.
    pub(crate) fn final_score(&self, game: &Game) -> FinalScore {
        game.score_judged(&self.dead, &self.seki).result()
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
/// that live chains of both colours touch and neither side can fill, and with them every
/// chain of their group ([`spread_over_eyes`]).
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
    spread_over_eyes(board, is_dead, &mut in_seki);
    in_seki
}

/// Marks in seki the live chains that share an eye with a chain in seki: the chains
/// around a region of empty points and dead stones that live stones of one colour only
/// border are one group, and a group lives in seki as a whole (GNU Go counts a seki so,
/// and under the Japanese rules none of its eyes is territory). Regions that both
/// colours border (the shared liberties, dame) join nothing.
fn spread_over_eyes(board: &Board, is_dead: &[bool], in_seki: &mut [bool]) {
    let live = |q: Point| board.get(q).filter(|_| !is_dead[q.index()]);
    let mut region_of = vec![usize::MAX; in_seki.len()];
    let mut regions: Vec<Vec<Point>> = Vec::new();
    for p in board.points() {
        if live(p).is_some() || region_of[p.index()] != usize::MAX {
            continue;
        }
        // The region of non-live points around p, and the live stones beside it.
        let id = regions.len();
        let mut region = vec![p];
        region_of[p.index()] = id;
        let mut i = 0;
        while i < region.len() {
            let q = region[i];
            i += 1;
            for r in board.neighbors(q) {
                if board.is_on_board(r) && live(r).is_none() && region_of[r.index()] == usize::MAX {
                    region_of[r.index()] = id;
                    region.push(r);
                }
            }
        }
        regions.push(region);
    }
    let borders = |region: &[Point]| -> Vec<Point> {
        region
            .iter()
            .flat_map(|&q| board.neighbors(q))
            .filter(|&r| board.is_on_board(r) && live(r).is_some())
            .collect()
    };
    let mut changed = true;
    while changed {
        changed = false;
        for region in &regions {
            let stones = borders(region);
            let one_colour = stones.windows(2).all(|w| live(w[0]) == live(w[1]));
            if !one_colour || !stones.iter().any(|q| in_seki[q.index()]) {
                continue;
            }
            for &q in &stones {
                if !in_seki[q.index()] {
                    changed = true;
                    for stone in board.chain_stones(q) {
                        in_seki[stone.index()] = true;
                    }
                }
            }
        }
    }
}

/// Final-position ownership over a search of [`judge_playouts`] from `game`'s position
/// with `color` to move: one thread, the engine's seed and the judgement's own fixed
/// params ([`player::search_judging`]), so the judgement is the same on every run and
/// stays put when the playing params change. Nothing ends the game at the root (a pass there does not end it, and
/// the search never resigns), so the search plays the position out.
fn search_ownership(game: &Game, color: Color, seed: u64) -> Vec<f32> {
    let root_allowed = |p: Point| game.is_legal(color, MoveVertex::Play(game.board().vertex(p)));
    let history = game.superko_keys();
    let request = SearchRequest {
        limits: SearchLimits {
            playouts: Some(judge_playouts(game.board().size())),
            deadline: None,
            stop_when_decided: false,
        },
        seed,
        opponent_passed: false,
        recent_moves: [None; crate::go::net::features::HISTORY],
        ..position_request(game, color, &root_allowed, &history)
    };
    player::search_judging(&request).ownership
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
