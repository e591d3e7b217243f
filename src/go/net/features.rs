//! What the network sees of a position: a compact [`Snapshot`] (stones with their chains'
//! liberties, the ko point, the last moves, the side to move and komi), taken from our own
//! [`Game`], and the input planes made from it under one of the eight symmetries.
//!
//! Everything is seen from the side to move ("own" and "opponent"), so one net plays both
//! colours. Planes are laid out `[plane][row * size + col]` for a board of `size` lines.

use crate::go::board::{Board, Point};
use crate::go::color::Color;
use crate::go::game::Game;
use crate::go::notation::{MoveVertex, Vertex};

/// Input planes: on-board, own and opponent stones, own and opponent stones with 1, 2 and
/// 3+ liberties, the ko point, the last [`HISTORY`] moves, komi and the side to move.
pub const PLANES: usize = 17;
/// How many past moves have a plane each.
pub const HISTORY: usize = 5;
/// A point index meaning "none" (no ko, a pass, no move yet).
pub const NO_POINT: u16 = u16::MAX;
/// The eight symmetries of the square: index 0 is the identity.
pub const SYMMETRIES: usize = 8;
/// Komi is given to the net divided by this (a 7-point komi is about 0.47).
const KOMI_SCALE: f32 = 15.0;

/// A position as the net needs it, small enough to keep hundreds of thousands in memory.
#[derive(Clone, Debug, PartialEq)]
pub struct Snapshot {
    pub size: u8,
    pub to_move: Color,
    /// Komi for White, in points.
    pub komi: f32,
    /// One byte a point (`row * size + col`): 0 empty, 1–3 a black stone whose chain has
    /// 1, 2 or 3+ liberties, 4–6 the same for white.
    pub cells: Vec<u8>,
    /// The point the side to move may not play for ko, or [`NO_POINT`].
    pub ko: u16,
    /// The last moves' points, the latest first ([`NO_POINT`] for a pass or no move).
    pub last: [u16; HISTORY],
}

/// The point index of `v` on a board of `size`.
pub fn index_of(v: Vertex, size: usize) -> u16 {
    // At most 25 * 25: fits u16.
    (usize::from(v.row) * size + usize::from(v.col)) as u16
}

impl Snapshot {
    /// The position of `game` with its side to move.
    pub fn of_game(game: &Game) -> Snapshot {
        let board = game.board();
        let mut recent = [None; HISTORY];
        let moves: Vec<(Color, MoveVertex)> = game.moves().collect();
        for (slot, (_, mv)) in recent.iter_mut().zip(moves.iter().rev()) {
            if let MoveVertex::Play(v) = mv {
                *slot = Some(board.point(*v));
            }
        }
        Snapshot::of_board(board, game.to_move(), game.komi(), &recent)
    }

    /// The position on `board` with `to_move` to play: `recent` holds the last moves, the
    /// latest first (`None` for a pass), as many as the caller knows (up to [`HISTORY`]).
    pub fn of_board(
        board: &Board,
        to_move: Color,
        komi: f32,
        recent: &[Option<Point>],
    ) -> Snapshot {
        let size = board.size();
        let mut cells = vec![0u8; size * size];
        for p in board.points() {
            if let Some(color) = board.get(p) {
                let libs = board.chain_liberties(p).clamp(1, 3) as u8;
                let base = if color == Color::Black { 0 } else { 3 };
                cells[index_of(board.vertex(p), size) as usize] = base + libs;
            }
        }
        let ko = match board.ko() {
            Some((_, p)) if board.is_ko_banned(to_move, p) => index_of(board.vertex(p), size),
            _ => NO_POINT,
        };
        let mut last = [NO_POINT; HISTORY];
        for (slot, p) in last.iter_mut().zip(recent) {
            if let Some(p) = p {
                *slot = index_of(board.vertex(*p), size);
            }
        }
        Snapshot {
            size: size as u8,
            to_move,
            komi,
            cells,
            ko,
            last,
        }
    }

    pub fn area(&self) -> usize {
        usize::from(self.size) * usize::from(self.size)
    }

    /// Writes the input planes under symmetry `sym` into `out` (`PLANES * area` floats).
    pub fn planes(&self, sym: usize, out: &mut [f32]) {
        let area = self.area();
        let size = usize::from(self.size);
        debug_assert_eq!(out.len(), PLANES * area);
        out.fill(0.0);
        let own_base = if self.to_move == Color::Black { 0 } else { 3 };
        let komi = if self.to_move == Color::White {
            self.komi
        } else {
            -self.komi
        } / KOMI_SCALE;
        let black = f32::from(u8::from(self.to_move == Color::Black));
        for (i, &cell) in self.cells.iter().enumerate() {
            let at = transform(i, size, sym);
            out[at] = 1.0;
            out[15 * area + at] = komi;
            out[16 * area + at] = black;
            if cell == 0 {
                continue;
            }
            let (own, libs) = if (own_base + 1..=own_base + 3).contains(&cell) {
                (true, cell - own_base)
            } else {
                (false, if cell > 3 { cell - 3 } else { cell })
            };
            let side = if own { 0 } else { 1 };
            out[(1 + side) * area + at] = 1.0;
            out[(3 + 3 * side + usize::from(libs) - 1) * area + at] = 1.0;
        }
        if self.ko != NO_POINT {
            out[9 * area + transform(usize::from(self.ko), size, sym)] = 1.0;
        }
        for (k, &p) in self.last.iter().enumerate() {
            if p != NO_POINT {
                out[(10 + k) * area + transform(usize::from(p), size, sym)] = 1.0;
            }
        }
    }
}

/// Where point `index` of a `size` board goes under symmetry `sym` (0–7: the identity,
/// three rotations, and the same after a mirror).
pub fn transform(index: usize, size: usize, sym: usize) -> usize {
    let (mut row, mut col) = (index / size, index % size);
    if sym & 4 != 0 {
        col = size - 1 - col;
    }
    for _ in 0..(sym & 3) {
        (row, col) = (col, size - 1 - row);
    }
    row * size + col
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::RuleSet;

    fn play(game: &mut Game, moves: &[&str]) {
        for text in moves {
            let mv = MoveVertex::parse_on(text, game.size()).expect("a vertex");
            let color = game.to_move();
            game.play(color, mv).expect("a legal move");
        }
    }

    #[test]
    fn symmetries_are_eight_distinct_permutations() {
        let size = 5;
        let mut images = Vec::new();
        for sym in 0..SYMMETRIES {
            let image: Vec<usize> = (0..size * size).map(|i| transform(i, size, sym)).collect();
            let mut sorted = image.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..size * size).collect::<Vec<_>>(), "sym {sym}");
            images.push(image);
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), SYMMETRIES);
        assert_eq!(transform(7, size, 0), 7);
    }

    #[test]
    fn planes_say_stones_liberties_ko_and_history_from_the_side_to_move() {
        let mut game = Game::new(5, RuleSet::Chinese.rules()).expect("a board");
        game.set_komi(7.0);
        // Black C3, White C4: then Black B4 puts White C4 at two liberties... and so on.
        play(&mut game, &["C3", "C4", "pass"]);
        let snap = Snapshot::of_game(&game);
        assert_eq!(snap.to_move, Color::White);
        let area = 25;
        let mut planes = vec![0.0; PLANES * area];
        snap.planes(0, &mut planes);
        let c3 = index_of(Vertex::new(2, 2), 5) as usize;
        let c4 = index_of(Vertex::new(2, 3), 5) as usize;
        // White to move: C4 is own (3 liberties), C3 the opponent's (3 liberties).
        assert_eq!(planes[area + c4], 1.0);
        assert_eq!(planes[2 * area + c3], 1.0);
        assert_eq!(planes[5 * area + c4], 1.0);
        assert_eq!(planes[8 * area + c3], 1.0);
        // The last move was a pass, then C4, then C3.
        assert_eq!(planes[10 * area..11 * area].iter().sum::<f32>(), 0.0);
        assert_eq!(planes[11 * area + c4], 1.0);
        assert_eq!(planes[12 * area + c3], 1.0);
        assert!((planes[15 * area] - 7.0 / 15.0).abs() < 1e-6);
        assert_eq!(planes[16 * area], 0.0);
        assert_eq!(planes[..area].iter().sum::<f32>(), 25.0);
    }

    #[test]
    fn the_ko_point_is_marked_for_the_side_that_may_not_retake() {
        let mut game = Game::new(5, RuleSet::Chinese.rules()).expect("a board");
        // A ko at C3/D3: Black takes at D3... Black B3 C2 C4, White D2 D4 E3 C3, Black D3.
        play(
            &mut game,
            &["B3", "D2", "C2", "D4", "C4", "E3", "A1", "C3", "D3"],
        );
        let snap = Snapshot::of_game(&game);
        assert_eq!(snap.ko, index_of(Vertex::new(2, 2), 5));
        assert_eq!(snap.cells[index_of(Vertex::new(3, 2), 5) as usize], 1);
    }
}
