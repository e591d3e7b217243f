//! Go board: stones, chains, liberties, captures, simple ko and a Zobrist hash.
//!
//! The board is a padded grid: a border ring around the playing area means neighbour
//! lookups never need bounds checks. Every array is sized for the largest board so that
//! a `Board` is one flat value: cloning is a `memcpy` and `play` never allocates, which
//! is what Monte Carlo playouts need.
//!
//! Chains are kept incrementally: each stone knows its chain's head, the stones of a chain
//! form a circular linked list, and the head holds the chain's stone count and its exact
//! number of liberties. Atari checks are therefore O(1) and captures O(chain size).
//!
//! Rooms below: `board/zobrist.rs` (the hash keys and the hashes of positions),
//! `board/setup.rs` (changes outside play: clear, setup, undo's restore, rebuild).

use std::fmt;

use super::color::Color;
use super::notation::{MAX_BOARD_SIZE, Vertex};

mod setup;
mod zobrist;

use zobrist::ZOBRIST;
pub use zobrist::side_to_move_key;

/// Side of the padded grid for the largest board.
const MAX_STRIDE: usize = MAX_BOARD_SIZE + 2;
/// Cells in the padded grid for the largest board.
pub const MAX_POINTS: usize = MAX_STRIDE * MAX_STRIDE;
const BITSET_WORDS: usize = MAX_POINTS.div_ceil(64);

/// The smallest board: 1×1, as GNU Go accepts it (its one point is a single-stone suicide,
/// so pass is the only move there).
pub const MIN_BOARD_SIZE: usize = 1;

/// A cell of the padded grid: an index, compact so that tables of points stay small.
///
/// Points are only meaningful for the board (size) that made them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// A cell of the padding (the top-left corner), never a move: a "no point" marker
    /// for compact tables of points.
    pub const NONE: Point = Point(0);

    /// The index into the padded grid, for tables the caller keeps per point.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The point whose [`Point::index`] is `index` (for compact tables that store points
    /// as numbers; the caller got `index` from a point of the same board).
    pub(crate) const fn from_index(index: u16) -> Point {
        Point(index)
    }
}

/// What occupies a cell of the padded grid.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
enum Cell {
    Empty,
    Black,
    White,
    Border,
}

impl Cell {
    fn of(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            Cell::Empty | Cell::Border => None,
        }
    }
}

/// The board size was outside 1..=25.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSizeError(pub usize);

impl fmt::Display for BoardSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unacceptable size {} (must be {MIN_BOARD_SIZE} to {MAX_BOARD_SIZE})",
            self.0
        )
    }
}

impl std::error::Error for BoardSizeError {}

/// What a move removed from the board.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayOutcome {
    /// Opponent stones captured.
    pub captured: u32,
    /// Own stones removed because the move was a (multi-stone) suicide.
    pub suicided: u32,
}

/// A small set of points (the chains next to a point): at most four entries.
#[derive(Copy, Clone, Default)]
struct Few {
    items: [Point; 4],
    len: usize,
}

impl Few {
    fn insert(&mut self, p: Point) {
        if !self.as_slice().contains(&p) {
            self.items[self.len] = p;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Point] {
        &self.items[..self.len]
    }
}

/// A fixed-size set of points: lives on the stack, so liberty recounts do not allocate.
struct PointSet([u64; BITSET_WORDS]);

impl PointSet {
    fn new() -> PointSet {
        PointSet([0; BITSET_WORDS])
    }

    /// Adds `p`; true if it was not there yet.
    fn insert(&mut self, p: Point) -> bool {
        let (word, bit) = (p.index() / 64, p.index() % 64);
        let fresh = self.0[word] & (1 << bit) == 0;
        self.0[word] |= 1 << bit;
        fresh
    }
}

/// A Go position: stones, chains and the simple-ko ban left by the last move.
#[derive(Clone)]
pub struct Board {
    size: u8,
    stride: u16,
    cells: [Cell; MAX_POINTS],
    /// Circular list linking the stones of each chain.
    next: [Point; MAX_POINTS],
    /// The chain head of each stone.
    head: [Point; MAX_POINTS],
    /// Exact liberty count, valid at chain heads.
    libs: [u16; MAX_POINTS],
    /// Stone count, valid at chain heads.
    len: [u16; MAX_POINTS],
    /// The first `num_empty` entries are the empty points, in no particular order.
    empties: [Point; MAX_POINTS],
    /// Position of each empty point in `empties`.
    empty_index: [u16; MAX_POINTS],
    num_empty: u16,
    stones: [u16; 2],
    hash: u64,
    /// The colour that may not play at the point this turn (simple ko).
    ko: Option<(Color, Point)>,
}

/// Two boards are equal when they hold the same stones and the same ko ban: the chain
/// lists and the order of the empty list depend on history and are not part of the
/// position.
impl PartialEq for Board {
    fn eq(&self, other: &Board) -> bool {
        self.size == other.size && self.ko == other.ko && self.cells == other.cells
    }
}

impl Eq for Board {}

impl Board {
    /// An empty board of `size` × `size`, for sizes 1 to 25.
    pub fn new(size: usize) -> Result<Board, BoardSizeError> {
        if !(MIN_BOARD_SIZE..=MAX_BOARD_SIZE).contains(&size) {
            return Err(BoardSizeError(size));
        }
        let stride = size + 2;
        let mut board = Board {
            // Both conversions are in range: size <= 25, stride <= 27.
            size: size as u8,
            stride: stride as u16,
            cells: [Cell::Border; MAX_POINTS],
            next: [Point(0); MAX_POINTS],
            head: [Point(0); MAX_POINTS],
            libs: [0; MAX_POINTS],
            len: [0; MAX_POINTS],
            empties: [Point(0); MAX_POINTS],
            empty_index: [0; MAX_POINTS],
            num_empty: 0,
            stones: [0; 2],
            hash: 0,
            ko: None,
        };
        for row in 0..size {
            for col in 0..size {
                let p = board.point_at(col, row);
                board.cells[p.index()] = Cell::Empty;
            }
        }
        board.rebuild();
        Ok(board)
    }

    pub fn size(&self) -> usize {
        usize::from(self.size)
    }

    /// Number of intersections.
    pub fn area(&self) -> usize {
        self.size() * self.size()
    }

    fn point_at(&self, col: usize, row: usize) -> Point {
        // At most 26 * 27 + 26 < 729: fits u16.
        Point(((row + 1) * usize::from(self.stride) + col + 1) as u16)
    }

    /// The point of a vertex. The vertex must lie on this board (checked in debug builds;
    /// see [`Board::try_point`] for input): an off-board vertex gives a point that is
    /// meaningless or, used, out of the grid.
    pub fn point(&self, v: Vertex) -> Point {
        debug_assert!(self.contains(v), "vertex {v} off a {} board", self.size);
        self.point_at(usize::from(v.col), usize::from(v.row))
    }

    /// The point of a vertex, or `None` if it is off this board.
    pub fn try_point(&self, v: Vertex) -> Option<Point> {
        self.contains(v).then(|| self.point(v))
    }

    pub fn contains(&self, v: Vertex) -> bool {
        v.col < self.size && v.row < self.size
    }

    /// The vertex of an on-board point.
    pub fn vertex(&self, p: Point) -> Vertex {
        let stride = self.stride;
        // On-board points have row, col in 1..=25: the u8 conversions cannot truncate.
        Vertex::new((p.0 % stride - 1) as u8, (p.0 / stride - 1) as u8)
    }

    /// True for the intersections of the board (false for the padding border).
    pub fn is_on_board(&self, p: Point) -> bool {
        p.index() < MAX_POINTS && self.cells[p.index()] != Cell::Border
    }

    /// The stone on a point, if any.
    pub fn get(&self, p: Point) -> Option<Color> {
        self.cells[p.index()].color()
    }

    /// The stone on a vertex, if any (`None` off the board too).
    pub fn stone_at(&self, v: Vertex) -> Option<Color> {
        self.try_point(v).and_then(|p| self.get(p))
    }

    pub fn is_empty_point(&self, p: Point) -> bool {
        self.cells[p.index()] == Cell::Empty
    }

    /// Number of stones of `color` on the board.
    pub fn stone_count(&self, color: Color) -> usize {
        usize::from(self.stones[color.index()])
    }

    /// All intersections, row by row from the bottom (row 1), left to right.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let size = self.size();
        (0..size).flat_map(move |row| (0..size).map(move |col| self.point_at(col, row)))
    }

    /// The empty intersections, in no particular order (the order changes as stones
    /// come and go; it is deterministic for a given history).
    pub fn empty_points(&self) -> &[Point] {
        &self.empties[..usize::from(self.num_empty)]
    }

    /// Every stone on the board, in vertex order (column, then row).
    pub fn stone_vertices(&self) -> Vec<Vertex> {
        let mut stones: Vec<Vertex> = self
            .points()
            .filter(|&p| self.get(p).is_some())
            .map(|p| self.vertex(p))
            .collect();
        stones.sort_unstable();
        stones
    }

    /// The four orthogonal neighbours, border cells included.
    pub fn neighbors(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 - s),
            Point(p.0 - 1),
            Point(p.0 + 1),
            Point(p.0 + s),
        ]
    }

    /// The four diagonal neighbours, border cells included.
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        let s = self.stride;
        [
            Point(p.0 - s - 1),
            Point(p.0 - s + 1),
            Point(p.0 + s - 1),
            Point(p.0 + s + 1),
        ]
    }

    /// The simple-ko ban left by the last move: `color` may not play at the point now.
    pub fn ko(&self) -> Option<(Color, Point)> {
        self.ko
    }

    /// True if the simple-ko rule forbids `color` to play at `p` now.
    pub fn is_ko_banned(&self, color: Color, p: Point) -> bool {
        self.ko == Some((color, p))
    }

    /// The head of the chain through the stone at `p` (all stones of a chain share it).
    pub fn chain_head(&self, p: Point) -> Point {
        debug_assert!(self.get(p).is_some());
        self.head[p.index()]
    }

    /// Liberties of the chain through the stone at `p`.
    pub fn chain_liberties(&self, p: Point) -> usize {
        debug_assert!(self.get(p).is_some());
        usize::from(self.libs[self.head[p.index()].index()])
    }

    /// Stones in the chain through the stone at `p`.
    pub fn chain_len(&self, p: Point) -> usize {
        debug_assert!(self.get(p).is_some());
        usize::from(self.len[self.head[p.index()].index()])
    }

    /// True if the chain through the stone at `p` has exactly one liberty.
    pub fn in_atari(&self, p: Point) -> bool {
        self.get(p).is_some() && self.chain_liberties(p) == 1
    }

    /// The stones of the chain through the stone at `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_> {
        debug_assert!(self.get(p).is_some());
        ChainStones {
            board: self,
            start: p,
            current: Some(p),
        }
    }

    /// Some liberty of the chain through `p` (the only one when it is in atari).
    pub fn find_liberty(&self, p: Point) -> Option<Point> {
        self.chain_stones(p).find_map(|s| {
            self.neighbors(s)
                .into_iter()
                .find(|&q| self.is_empty_point(q))
        })
    }

    /// The distinct liberties of the chain through `p`, in no particular order.
    pub fn liberties_of(&self, p: Point) -> Vec<Point> {
        let mut seen = PointSet::new();
        let mut out = Vec::new();
        for s in self.chain_stones(p) {
            for q in self.neighbors(s) {
                if self.is_empty_point(q) && seen.insert(q) {
                    out.push(q);
                }
            }
        }
        out
    }

    /// True if `p` is empty and every orthogonal neighbour is a `color` stone or the edge,
    /// with at most one enemy diagonal in the middle and none on the edge: the usual
    /// playout test for an eye that filling would only harm.
    pub fn is_eye_like(&self, color: Color, p: Point) -> bool {
        if !self.is_empty_point(p) {
            return false;
        }
        let own = Cell::of(color);
        if self
            .neighbors(p)
            .iter()
            .any(|q| !matches!(self.cells[q.index()], c if c == own || c == Cell::Border))
        {
            return false;
        }
        let enemy = Cell::of(color.opponent());
        let mut bad = 0;
        let mut on_edge = false;
        for d in self.diagonals(p) {
            match self.cells[d.index()] {
                Cell::Border => on_edge = true,
                c if c == enemy => bad += 1,
                _ => {}
            }
        }
        bad + usize::from(on_edge) < 2
    }

    fn adjacent_chains(&self, p: Point) -> (Few, Few, usize) {
        let mut own_of = [Few::default(), Few::default()];
        let mut empty = 0;
        for q in self.neighbors(p) {
            match self.cells[q.index()] {
                Cell::Empty => empty += 1,
                Cell::Black => own_of[0].insert(self.head[q.index()]),
                Cell::White => own_of[1].insert(self.head[q.index()]),
                Cell::Border => {}
            }
        }
        (own_of[0], own_of[1], empty)
    }

    /// Chains next to `p`: (chains of `color`, chains of the opponent, empty neighbours).
    fn chains_around(&self, color: Color, p: Point) -> (Few, Few, usize) {
        let (black, white, empty) = self.adjacent_chains(p);
        match color {
            Color::Black => (black, white, empty),
            Color::White => (white, black, empty),
        }
    }

    /// True if a `color` stone at empty `p` would capture something.
    pub fn would_capture(&self, color: Color, p: Point) -> bool {
        let (_, enemy, _) = self.chains_around(color, p);
        enemy.as_slice().iter().any(|h| self.libs[h.index()] == 1)
    }

    /// True if a `color` stone at empty `p` would leave its own chain without liberties
    /// (and capture nothing).
    pub fn is_suicide(&self, color: Color, p: Point) -> bool {
        let (own, enemy, empty) = self.chains_around(color, p);
        empty == 0
            && own.as_slice().iter().all(|h| self.libs[h.index()] == 1)
            && enemy.as_slice().iter().all(|h| self.libs[h.index()] > 1)
    }

    /// True if a `color` stone at empty `p` would be a suicide of that single stone
    /// (no own chain next to it): a no-op that no rule set here allows.
    pub fn is_single_stone_suicide(&self, color: Color, p: Point) -> bool {
        let (own, _, _) = self.chains_around(color, p);
        own.len == 0 && self.is_suicide(color, p)
    }

    /// Legal under simple ko: `p` empty, not the ko point banned to `color`, and not a
    /// suicide unless `suicide_allowed` (multi-stone suicide only). Superko is the
    /// game's business, not the board's.
    pub fn is_legal(&self, color: Color, p: Point, suicide_allowed: bool) -> bool {
        if !self.is_empty_point(p) || self.is_ko_banned(color, p) {
            return false;
        }
        let (own, enemy, empty) = self.chains_around(color, p);
        if empty > 0 || enemy.as_slice().iter().any(|h| self.libs[h.index()] == 1) {
            return true;
        }
        if own.as_slice().iter().any(|h| self.libs[h.index()] > 1) {
            return true;
        }
        suicide_allowed && own.len > 0
    }

    /// A pass: only lifts the ko ban.
    pub fn pass(&mut self) {
        self.ko = None;
    }

    /// Plays `color` at `p` without any legality check, for playouts that checked with
    /// [`Board::is_legal`]. `p` must be an empty point of the board; a suicide removes
    /// the chain it made.
    pub fn play(&mut self, color: Color, p: Point) -> PlayOutcome {
        self.play_with(color, p, |_| {})
    }

    /// Like [`Board::play`], also appending every removed stone to `removed` (the
    /// captured opponent stones, or for a suicide the mover's own stones).
    pub fn play_recording(
        &mut self,
        color: Color,
        p: Point,
        removed: &mut Vec<Point>,
    ) -> PlayOutcome {
        self.play_with(color, p, |s| removed.push(s))
    }

    fn play_with(
        &mut self,
        color: Color,
        p: Point,
        mut on_remove: impl FnMut(Point),
    ) -> PlayOutcome {
        debug_assert!(self.is_empty_point(p), "play on a non-empty point");
        let (own, enemy, empty) = self.chains_around(color, p);
        let pi = p.index();

        // Liberties the new stone brings to a single adjoining chain: its empty neighbours
        // that the chain does not already touch. Computed before `p` joins the chain.
        let fresh_libs = if own.len == 1 {
            let h = own.items[0];
            self.neighbors(p)
                .into_iter()
                .filter(|&q| self.is_empty_point(q) && !self.touches_chain(q, h, p))
                .count()
        } else {
            0
        };

        self.cells[pi] = Cell::of(color);
        self.remove_empty(p);
        self.hash ^= ZOBRIST[color.index()][pi];
        self.stones[color.index()] += 1;

        for &e in enemy.as_slice() {
            self.libs[e.index()] -= 1;
        }

        let head = match own.as_slice() {
            [] => {
                self.head[pi] = p;
                self.next[pi] = p;
                self.len[pi] = 1;
                self.libs[pi] = empty as u16;
                p
            }
            &[h] => {
                self.link(h, p);
                // `p` was one of the chain's liberties; `fresh_libs` <= 3.
                self.libs[h.index()] = self.libs[h.index()] - 1 + fresh_libs as u16;
                h
            }
            chains => {
                let mut base = chains[0];
                for &c in chains {
                    if self.len[c.index()] > self.len[base.index()] {
                        base = c;
                    }
                }
                for &c in chains {
                    if c != base {
                        self.merge(base, c);
                    }
                }
                self.link(base, p);
                self.libs[base.index()] = self.count_liberties(base);
                base
            }
        };

        let mut outcome = PlayOutcome::default();
        let mut last_captured = p;
        for &e in enemy.as_slice() {
            if self.libs[e.index()] == 0 {
                last_captured = e;
                outcome.captured += self.remove_chain(e, &mut on_remove);
            }
        }
        if outcome.captured == 0 && self.libs[head.index()] == 0 {
            outcome.suicided = self.remove_chain(head, &mut on_remove);
        }

        // A single stone that took a single stone and is left with that point as its
        // only liberty: the opponent retaking at once would repeat the position.
        self.ko =
            (outcome.captured == 1 && self.len[head.index()] == 1 && self.libs[head.index()] == 1)
                .then_some((color.opponent(), last_captured));
        outcome
    }

    /// True if a neighbour of `q` other than `except` belongs to the chain `head`.
    fn touches_chain(&self, q: Point, head: Point, except: Point) -> bool {
        self.neighbors(q).into_iter().any(|r| {
            r != except && self.cells[r.index()].color().is_some() && self.head[r.index()] == head
        })
    }

    /// Adds the lone stone `p` to chain `head`.
    fn link(&mut self, head: Point, p: Point) {
        let (hi, pi) = (head.index(), p.index());
        self.head[pi] = head;
        self.next[pi] = self.next[hi];
        self.next[hi] = p;
        self.len[hi] += 1;
    }

    /// Moves every stone of chain `other` into chain `base` (liberties left stale).
    fn merge(&mut self, base: Point, other: Point) {
        let mut s = other;
        loop {
            self.head[s.index()] = base;
            s = self.next[s.index()];
            if s == other {
                break;
            }
        }
        let (bi, oi) = (base.index(), other.index());
        self.next.swap(bi, oi);
        self.len[bi] += self.len[oi];
    }

    fn count_liberties(&self, head: Point) -> u16 {
        let mut seen = PointSet::new();
        let mut count = 0;
        for s in self.chain_stones(head) {
            for q in self.neighbors(s) {
                if self.is_empty_point(q) && seen.insert(q) {
                    count += 1;
                }
            }
        }
        count
    }

    /// Takes the chain `head` off the board; returns its size.
    fn remove_chain(&mut self, head: Point, on_remove: &mut impl FnMut(Point)) -> u32 {
        let Some(color) = self.get(head) else {
            return 0;
        };
        let enemy = Cell::of(color.opponent());
        let mut removed = 0;
        let mut s = head;
        loop {
            let si = s.index();
            let next = self.next[si];
            self.cells[si] = Cell::Empty;
            self.add_empty(s);
            self.hash ^= ZOBRIST[color.index()][si];
            on_remove(s);
            removed += 1;
            // The freed point is one new liberty for each distinct enemy chain beside it.
            let mut beside = Few::default();
            for q in self.neighbors(s) {
                if self.cells[q.index()] == enemy {
                    beside.insert(self.head[q.index()]);
                }
            }
            for &h in beside.as_slice() {
                self.libs[h.index()] += 1;
            }
            s = next;
            if s == head {
                break;
            }
        }
        self.stones[color.index()] -= removed as u16;
        removed
    }

    fn remove_empty(&mut self, p: Point) {
        let i = usize::from(self.empty_index[p.index()]);
        self.num_empty -= 1;
        let last = self.empties[usize::from(self.num_empty)];
        self.empties[i] = last;
        self.empty_index[last.index()] = i as u16;
    }

    fn add_empty(&mut self, p: Point) {
        self.empties[usize::from(self.num_empty)] = p;
        self.empty_index[p.index()] = self.num_empty;
        self.num_empty += 1;
    }
}

/// The stones of one chain; see [`Board::chain_stones`].
pub struct ChainStones<'a> {
    board: &'a Board,
    start: Point,
    current: Option<Point>,
}

impl Iterator for ChainStones<'_> {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        let p = self.current?;
        let next = self.board.next[p.index()];
        self.current = (next != self.start).then_some(next);
        Some(p)
    }
}

/// A diagram with GTP coordinates: `X` black, `O` white, `.` empty, row 1 at the bottom.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let size = self.size();
        let letters: String = (0..self.size)
            .map(|c| format!(" {}", Vertex::column_letter(c)))
            .collect();
        writeln!(f, "   {letters}")?;
        for row in (0..size).rev() {
            write!(f, "{:>2} ", row + 1)?;
            for col in 0..size {
                let c = match self.cells[self.point_at(col, row).index()] {
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    _ => '.',
                };
                write!(f, " {c}")?;
            }
            writeln!(f, " {:>2}", row + 1)?;
        }
        write!(f, "   {letters}")
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ko = self.ko.map(|(c, p)| (c, self.vertex(p)));
        writeln!(
            f,
            "Board {{ size: {}, hash: {:016x}, ko: {ko:?} }}",
            self.size, self.hash
        )?;
        write!(f, "{self}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vertex {
        s.parse().expect("test vertex")
    }

    #[test]
    fn sizes() {
        assert!(Board::new(0).is_err());
        assert!(Board::new(26).is_err());
        for size in 1..=25 {
            let b = Board::new(size).expect("size in range");
            assert_eq!(b.empty_points().len(), size * size);
            assert_eq!(b.points().count(), size * size);
            for p in b.points() {
                assert_eq!(b.point(b.vertex(p)), p);
            }
        }
    }

    #[test]
    fn corner_capture_and_liberties() {
        let mut b = Board::new(9).expect("9x9");
        let a1 = b.point(v("A1"));
        b.play(Color::White, a1);
        assert_eq!(b.chain_liberties(a1), 2);
        b.play(Color::Black, b.point(v("B1")));
        assert!(b.in_atari(a1));
        assert_eq!(b.find_liberty(a1), Some(b.point(v("A2"))));
        let out = b.play(Color::Black, b.point(v("A2")));
        assert_eq!(out.captured, 1);
        assert_eq!(b.get(a1), None);
        assert_eq!(b.chain_liberties(b.point(v("B1"))), 3);
        b.check_consistency().expect("consistent");
    }
}
