//! The rules of one Mangala set: sowing, the three landing cases and the end of the set.
//!
//! The board is fourteen cells in sowing order: South's pits 1–6 (cells 0–5, pit 1 on
//! South's left), South's store (cell 6), North's pits 1–6 (cells 7–12, pit 1 on North's
//! left) and North's store (cell 13). Sowing goes up the cell numbers and wraps around,
//! which is counter-clockwise seen from above: "to the right" for the mover.

use std::fmt;

/// Pits a side owns.
pub const PITS: usize = 6;
/// Cells on the board: two rows of pits and two stores.
pub const CELLS: usize = 14;
/// Stones a pit holds at the start of a standard set.
pub const STANDARD_STONES_PER_PIT: u8 = 4;
/// The most stones a pit may start with: totals stay below 64 so that a pit's count
/// always fits the 6 bits the search packs it into.
pub const MAX_STONES_PER_PIT: u8 = 5;

/// One of the two players, named by where they sit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    South,
    North,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    pub const fn index(self) -> usize {
        match self {
            Side::South => 0,
            Side::North => 1,
        }
    }

    /// The board cell of this side's first pit.
    pub const fn first_cell(self) -> usize {
        self.index() * (PITS + 1)
    }

    /// The board cell of this side's store.
    pub const fn store_cell(self) -> usize {
        self.first_cell() + PITS
    }

    pub const fn name(self) -> &'static str {
        match self {
            Side::South => "south",
            Side::North => "north",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A pit of the mover's row, 1–6 counted from the mover's left.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pit(u8);

impl Pit {
    pub const ALL: [Pit; PITS] = [Pit(1), Pit(2), Pit(3), Pit(4), Pit(5), Pit(6)];

    /// The pit numbered `number` (1–6), if there is one.
    pub const fn new(number: u8) -> Option<Pit> {
        if number >= 1 && number as usize <= PITS {
            Some(Pit(number))
        } else {
            None
        }
    }

    pub const fn number(self) -> u8 {
        self.0
    }

    /// The pit's offset in its row, 0–5.
    pub const fn offset(self) -> usize {
        self.0 as usize - 1
    }

    /// The board cell of this pit on `side`'s row.
    pub const fn cell(self, side: Side) -> usize {
        side.first_cell() + self.offset()
    }
}

/// What happens to the stones still in the pits when a row empties.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// The book's rule: the player whose row emptied first takes every stone left in the
    /// opponent's pits.
    #[default]
    EmptierTakesAll,
    /// Kalah's rule, an option only: each player keeps the stones of their own row.
    EachKeepsOwn,
}

impl EndRule {
    pub const fn name(self) -> &'static str {
        match self {
            EndRule::EmptierTakesAll => "turkish",
            EndRule::EachKeepsOwn => "kalah",
        }
    }
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for EndRule {
    type Err = String;

    fn from_str(text: &str) -> Result<EndRule, String> {
        match text.to_ascii_lowercase().as_str() {
            "turkish" | "tr" | "mangala" => Ok(EndRule::EmptierTakesAll),
            "kalah" | "kalah-end" => Ok(EndRule::EachKeepsOwn),
            _ => Err(format!("unknown rules '{text}': use turkish or kalah")),
        }
    }
}

/// What the last stone of a move did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Landing {
    /// In the mover's store: the mover moves again (unless the set ended).
    Store,
    /// In an opponent's pit, making it even: that pit was captured.
    EvenCapture { stones: u8 },
    /// In an own empty pit facing stones: those stones and the last stone were captured.
    EmptyPitCapture { stones: u8 },
    /// Anywhere else: nothing happens.
    Quiet,
}

/// Why a move is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    SetOver,
    NotToMove {
        to_move: Side,
    },
    EmptyPit(Pit),
    /// The set already keeps `limit` moves (`game::MAX_SET_MOVES`).
    TooLong {
        limit: usize,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::SetOver => f.write_str("the set is over"),
            IllegalMove::NotToMove { to_move } => write!(f, "it is {to_move}'s turn"),
            IllegalMove::EmptyPit(pit) => write!(f, "pit {} is empty", pit.number()),
            IllegalMove::TooLong { limit } => write!(
                f,
                "game too long: a set keeps at most {limit} moves; start a new one (clear_board)"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// A position: the fourteen cells and the side to move. The set is over exactly when
/// every pit is empty (the end rule sweeps what is left into the stores).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    cells: [u8; CELLS],
    to_move: Side,
}

impl Position {
    /// The start of a set: `stones_per_pit` in each pit, empty stores, `starter` to move.
    pub fn start(stones_per_pit: u8, starter: Side) -> Position {
        let mut cells = [stones_per_pit; CELLS];
        cells[Side::South.store_cell()] = 0;
        cells[Side::North.store_cell()] = 0;
        Position {
            cells,
            to_move: starter,
        }
    }

    /// A position from raw cells, unchecked: callers that hold untrusted input go
    /// through [`Position::validated`] instead.
    pub(crate) const fn from_cells(cells: [u8; CELLS], to_move: Side) -> Position {
        Position { cells, to_move }
    }

    /// A position from cells read from outside, checked: `total` stones in all, no pit
    /// holding more than fits, and never one empty row facing stones (the set would
    /// already have ended and swept them).
    pub fn validated(
        cells: [u8; CELLS],
        to_move: Side,
        total: u32,
    ) -> Result<Position, PositionError> {
        let sum: u32 = cells.iter().map(|&c| u32::from(c)).sum();
        if sum != total {
            return Err(PositionError::WrongTotal {
                found: sum,
                expected: total,
            });
        }
        if total >= 64 {
            return Err(PositionError::TooManyStones(total));
        }
        let position = Position { cells, to_move };
        let south = position.row_stones(Side::South);
        let north = position.row_stones(Side::North);
        if (south == 0) != (north == 0) {
            let empty = if south == 0 { Side::South } else { Side::North };
            return Err(PositionError::UnsweptEnd { empty });
        }
        Ok(position)
    }

    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    pub const fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    pub const fn pit(&self, side: Side, pit: Pit) -> u8 {
        self.cells[pit.cell(side)]
    }

    pub const fn store(&self, side: Side) -> u8 {
        self.cells[side.store_cell()]
    }

    /// Stones in `side`'s six pits.
    pub fn row_stones(&self, side: Side) -> u32 {
        let first = side.first_cell();
        self.cells[first..first + PITS]
            .iter()
            .map(|&c| u32::from(c))
            .sum()
    }

    /// Stones in all twelve pits.
    pub fn board_stones(&self) -> u32 {
        self.row_stones(Side::South) + self.row_stones(Side::North)
    }

    pub fn total_stones(&self) -> u32 {
        self.cells.iter().map(|&c| u32::from(c)).sum()
    }

    pub fn is_over(&self) -> bool {
        self.board_stones() == 0
    }

    /// `side`'s store minus the opponent's.
    pub fn store_difference(&self, side: Side) -> i32 {
        i32::from(self.store(side)) - i32::from(self.store(side.opponent()))
    }

    /// The winner of a finished set; `None` for a draw or a set still running.
    pub fn winner(&self) -> Option<Side> {
        if !self.is_over() {
            return None;
        }
        match self.store_difference(Side::South) {
            d if d > 0 => Some(Side::South),
            d if d < 0 => Some(Side::North),
            _ => None,
        }
    }

    pub fn is_legal(&self, pit: Pit) -> bool {
        self.cells[pit.cell(self.to_move)] > 0
    }

    /// The mover's legal pits, pit 1 first; none once the set is over.
    pub fn legal_moves(&self) -> impl Iterator<Item = Pit> + '_ {
        Pit::ALL.into_iter().filter(|&pit| self.is_legal(pit))
    }

    /// Plays `pit` for `side`, refusing anything illegal.
    pub fn play(
        &self,
        side: Side,
        pit: Pit,
        rule: EndRule,
    ) -> Result<(Position, Landing), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::SetOver);
        }
        if side != self.to_move {
            return Err(IllegalMove::NotToMove {
                to_move: self.to_move,
            });
        }
        if !self.is_legal(pit) {
            return Err(IllegalMove::EmptyPit(pit));
        }
        Ok(self.play_unchecked(pit, rule))
    }

    /// Plays a non-empty pit of the side to move. The caller guarantees legality.
    #[inline]
    pub fn play_unchecked(&self, pit: Pit, rule: EndRule) -> (Position, Landing) {
        let mover = self.to_move;
        let opponent = mover.opponent();
        let skip = opponent.store_cell();
        let mut next = *self;
        let start = pit.cell(mover);
        let stones = next.cells[start];
        debug_assert!(stones > 0, "play_unchecked on an empty pit");
        next.cells[start] = 0;
        // The first stone goes back into the pit it came from, unless it is alone.
        let mut cell = if stones == 1 {
            advance(start, skip)
        } else {
            start
        };
        next.cells[cell] += 1;
        for _ in 1..stones {
            cell = advance(cell, skip);
            next.cells[cell] += 1;
        }
        let landing = next.resolve_landing(cell, mover);
        if landing != Landing::Store {
            next.to_move = opponent;
        }
        next.sweep_if_ended(rule);
        (next, landing)
    }

    fn resolve_landing(&mut self, cell: usize, mover: Side) -> Landing {
        let own_first = mover.first_cell();
        if cell == mover.store_cell() {
            return Landing::Store;
        }
        let own_row = (own_first..own_first + PITS).contains(&cell);
        if !own_row {
            let count = self.cells[cell];
            if count.is_multiple_of(2) {
                self.cells[cell] = 0;
                self.cells[mover.store_cell()] += count;
                return Landing::EvenCapture { stones: count };
            }
            return Landing::Quiet;
        }
        // Only a pit that held nothing before the last stone holds exactly one now:
        // a pit sown earlier in the same move holds at least two.
        if self.cells[cell] == 1 {
            let facing = opposite(cell);
            let captured = self.cells[facing];
            if captured > 0 {
                self.cells[facing] = 0;
                self.cells[cell] = 0;
                self.cells[mover.store_cell()] += captured + 1;
                return Landing::EmptyPitCapture { stones: captured };
            }
        }
        Landing::Quiet
    }

    fn sweep_if_ended(&mut self, rule: EndRule) {
        let south = self.row_stones(Side::South);
        let north = self.row_stones(Side::North);
        if south != 0 && north != 0 {
            return;
        }
        for side in Side::BOTH {
            let taker = match rule {
                EndRule::EmptierTakesAll => side.opponent(),
                EndRule::EachKeepsOwn => side,
            };
            let first = side.first_cell();
            let left: u8 = self.cells[first..first + PITS].iter().sum();
            self.cells[first..first + PITS].fill(0);
            self.cells[taker.store_cell()] += left;
        }
    }

    /// The same pits and mover with empty stores: what is still to win depends on
    /// nothing else, so this is the key of a value.
    pub fn without_stores(&self) -> Position {
        let mut cells = self.cells;
        cells[Side::South.store_cell()] = 0;
        cells[Side::North.store_cell()] = 0;
        Position {
            cells,
            to_move: self.to_move,
        }
    }

    /// The same position seen from the other chair: rows and stores swapped, the other
    /// side to move. Values for the mover are unchanged by it.
    pub fn flipped(&self) -> Position {
        let mut cells = [0; CELLS];
        cells[..7].copy_from_slice(&self.cells[7..]);
        cells[7..].copy_from_slice(&self.cells[..7]);
        Position {
            cells,
            to_move: self.to_move.opponent(),
        }
    }
}

/// The next cell in sowing order, skipping `skip` (the opponent's store).
#[inline]
const fn advance(cell: usize, skip: usize) -> usize {
    let next = if cell + 1 == CELLS { 0 } else { cell + 1 };
    if next == skip {
        if next + 1 == CELLS { 0 } else { next + 1 }
    } else {
        next
    }
}

/// The pit facing `cell` across the board: pit k of one row faces pit 7−k of the other.
#[inline]
pub const fn opposite(cell: usize) -> usize {
    12 - cell
}

/// Why a position read from outside was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    WrongTotal { found: u32, expected: u32 },
    TooManyStones(u32),
    UnsweptEnd { empty: Side },
    Malformed(String),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::WrongTotal { found, expected } => {
                write!(
                    f,
                    "the position holds {found} stones, the set has {expected}"
                )
            }
            PositionError::TooManyStones(total) => {
                write!(f, "{total} stones: at most 63 are supported")
            }
            PositionError::UnsweptEnd { empty } => write!(
                f,
                "{empty}'s row is empty but the other row holds stones: the set would have ended"
            ),
            PositionError::Malformed(detail) => f.write_str(detail),
        }
    }
}

impl std::error::Error for PositionError {}
