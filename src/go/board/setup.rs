//! Changing a board outside play: clearing it, setting up stones, restoring the
//! position before a move (undo), and the rebuild from the stones alone that these use,
//! with the consistency check that tests run against it.

use super::zobrist::ZOBRIST;
use super::{Board, Cell, MAX_POINTS, Point, PointSet};
use crate::go::color::Color;

impl Board {
    /// Takes every stone off and lifts the ko ban.
    pub fn clear(&mut self) {
        let size = self.size();
        for row in 0..size {
            for col in 0..size {
                let p = self.point_at(col, row);
                self.cells[p.index()] = Cell::Empty;
            }
        }
        self.ko = None;
        self.rebuild();
    }

    /// Puts a stone on, or takes one off (`None`), without captures, for setting up a
    /// position; lifts the ko ban. A chain may be left without liberties: the caller
    /// checks with [`Board::chains_without_liberties`].
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        if !self.is_on_board(p) {
            return;
        }
        self.cells[p.index()] = stone.map_or(Cell::Empty, Cell::of);
        self.ko = None;
        self.rebuild();
    }

    /// [`Board::set`] for many points at once, rebuilding the chains once rather than
    /// once a point: a setup of the whole board costs one rebuild, not one per stone.
    /// Points off the board are skipped; with none on it, nothing changes.
    pub fn set_many(&mut self, changes: impl IntoIterator<Item = (Point, Option<Color>)>) {
        let mut changed = false;
        for (p, stone) in changes {
            if self.is_on_board(p) {
                self.cells[p.index()] = stone.map_or(Cell::Empty, Cell::of);
                changed = true;
            }
        }
        if changed {
            self.ko = None;
            self.rebuild();
        }
    }

    /// Replaces the position: takes `p`'s stone off, puts `removed` back as `removed_color`
    /// stones and sets the ko ban. Used to undo a move.
    pub fn restore(
        &mut self,
        p: Point,
        removed: &[Point],
        removed_color: Color,
        ko: Option<(Color, Point)>,
    ) {
        for &s in removed {
            self.cells[s.index()] = Cell::of(removed_color);
        }
        // After the removed stones: a suicide's removed list holds `p` itself.
        self.cells[p.index()] = Cell::Empty;
        self.rebuild();
        self.ko = ko;
    }

    /// Sets the simple-ko ban (for restoring a saved state).
    pub fn set_ko(&mut self, ko: Option<(Color, Point)>) {
        self.ko = ko;
    }

    /// One stone of each chain that has no liberty (only possible after [`Board::set`]).
    pub fn chains_without_liberties(&self) -> Vec<Point> {
        self.points()
            .filter(|&p| {
                self.get(p).is_some() && self.head[p.index()] == p && self.libs[p.index()] == 0
            })
            .collect()
    }

    /// Recomputes chains, liberties, the empty list, counts and hash from the cells.
    pub(super) fn rebuild(&mut self) {
        self.num_empty = 0;
        self.stones = [0; 2];
        self.hash = 0;
        let mut done = PointSet::new();
        let mut stack = [Point(0); MAX_POINTS];
        let size = self.size();
        for (row, col) in (0..size).flat_map(|r| (0..size).map(move |c| (r, c))) {
            let p = self.point_at(col, row);
            let Some(color) = self.get(p) else {
                self.add_empty(p);
                continue;
            };
            self.stones[color.index()] += 1;
            self.hash ^= ZOBRIST[color.index()][p.index()];
            if !done.insert(p) {
                continue;
            }
            // Flood fill the chain from p, linking each stone found.
            self.head[p.index()] = p;
            self.next[p.index()] = p;
            self.len[p.index()] = 1;
            let mut top = 0;
            stack[top] = p;
            top += 1;
            while top > 0 {
                top -= 1;
                let s = stack[top];
                for q in self.neighbors(s) {
                    if self.get(q) == Some(color) && done.insert(q) {
                        self.link(p, q);
                        stack[top] = q;
                        top += 1;
                    }
                }
            }
            self.libs[p.index()] = self.count_liberties(p);
        }
    }

    /// Checks the incremental chain data against a recomputation from the stones; for
    /// tests. Returns a description of the first discrepancy.
    pub fn check_consistency(&self) -> Result<(), String> {
        let mut fresh = self.clone();
        fresh.rebuild();
        if fresh.hash != self.hash {
            return Err(format!(
                "hash {:x} != recomputed {:x}",
                self.hash, fresh.hash
            ));
        }
        if fresh.stones != self.stones {
            return Err(format!(
                "stone counts {:?} != {:?}",
                self.stones, fresh.stones
            ));
        }
        let mut mine: Vec<Point> = self.empty_points().to_vec();
        let mut theirs: Vec<Point> = fresh.empty_points().to_vec();
        mine.sort_unstable();
        theirs.sort_unstable();
        if mine != theirs {
            return Err("empty point lists differ".into());
        }
        for (i, &e) in self.empty_points().iter().enumerate() {
            if usize::from(self.empty_index[e.index()]) != i {
                return Err(format!("empty index of {} is stale", self.vertex(e)));
            }
        }
        for p in self.points() {
            if self.get(p).is_none() {
                continue;
            }
            let v = self.vertex(p);
            for q in self.neighbors(p) {
                let same_here =
                    self.get(q) == self.get(p) && self.head[q.index()] == self.head[p.index()];
                if self.get(q) == self.get(p) && !same_here {
                    return Err(format!("{v} and a neighbour are in different chains"));
                }
            }
            let h = self.head[p.index()];
            if self.get(h) != self.get(p) {
                return Err(format!("{v} has a head of another colour"));
            }
            if self.chain_stones(p).count() != self.chain_len(p) {
                return Err(format!("chain of {v}: list length != stored length"));
            }
            if fresh.chain_len(p) != self.chain_len(p) {
                return Err(format!("chain of {v}: length differs from recomputation"));
            }
            if fresh.chain_liberties(p) != self.chain_liberties(p) {
                return Err(format!(
                    "chain of {v}: {} liberties, recomputed {}",
                    self.chain_liberties(p),
                    fresh.chain_liberties(p)
                ));
            }
        }
        Ok(())
    }
}
