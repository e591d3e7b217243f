//! The 61-cell hexagonal board: cells, directions, colours and the bitboard layout.
//!
//! Rows are A (Black's side, bottom) to I, diagonals 1 to 9. In axial coordinates a cell
//! is (row, col) with row 0..9 for A..I and col 0..9 for diagonals 1..9; it is on the board
//! when `|row - col| <= 4`. Each cell owns bit `(row + 1) * 11 + (col + 1)` of a `u128`: the
//! padding ring of off-board bits around the hexagon means that a one-step shift of a
//! bitboard never wraps a marble onto a real cell, so the off-board mask alone cleans it.

use std::fmt;
use std::str::FromStr;

/// Bits of one colour's marbles (or any set of cells).
pub type Bitboard = u128;

const STRIDE: i8 = 11;

/// The number of cells on the board.
pub const CELL_COUNT: usize = 61;

/// A cell of the board. Its value is the bit index of the padded layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

const fn on_board(row: i8, col: i8) -> bool {
    row >= 0 && row < 9 && col >= 0 && col < 9 && (row - col).abs() <= 4
}

const fn build_cells() -> [Cell; CELL_COUNT] {
    let mut cells = [Cell(0); CELL_COUNT];
    let mut n = 0;
    let mut row = 0;
    while row < 9 {
        let mut col = 0;
        while col < 9 {
            if on_board(row, col) {
                cells[n] = Cell(((row + 1) * STRIDE + col + 1) as u8);
                n += 1;
            }
            col += 1;
        }
        row += 1;
    }
    cells
}

const fn build_mask() -> Bitboard {
    let cells = build_cells();
    let mut mask = 0;
    let mut i = 0;
    while i < CELL_COUNT {
        mask |= 1u128 << cells[i].0;
        i += 1;
    }
    mask
}

/// Every cell, row A first, each row by ascending diagonal.
pub const ALL_CELLS: [Cell; CELL_COUNT] = build_cells();

/// The bits of the 61 real cells.
pub const BOARD_MASK: Bitboard = build_mask();

/// A cell given by row and diagonal (0-based) that lies off the hexagon, or text that
/// names no cell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellError(pub String);

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CellError {}

impl Cell {
    /// The cell at `row` (0 = A) and diagonal `col` (0 = 1), if it is on the board.
    pub const fn at(row: i8, col: i8) -> Option<Cell> {
        if on_board(row, col) {
            Some(Cell(((row + 1) * STRIDE + col + 1) as u8))
        } else {
            None
        }
    }

    /// 0 for row A up to 8 for row I.
    pub const fn row(self) -> i8 {
        (self.0 as i8) / STRIDE - 1
    }

    /// 0 for diagonal 1 up to 8 for diagonal 9.
    pub const fn col(self) -> i8 {
        (self.0 as i8) % STRIDE - 1
    }

    pub const fn bit(self) -> Bitboard {
        1u128 << self.0
    }

    /// The bit index in the padded layout (also the Zobrist table index).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The neighbour one step in `direction`, `None` off the board.
    pub const fn step(self, direction: Direction) -> Option<Cell> {
        // The padding keeps every neighbour index inside 0..128 (see the module comment).
        let next = (self.0 as i8 + direction.offset()) as u8;
        if (BOARD_MASK >> next) & 1 == 1 {
            Some(Cell(next))
        } else {
            None
        }
    }

    /// Rings from the centre E5: 0 there, 4 on the edge.
    pub const fn centre_distance(self) -> u8 {
        let (r, c) = (self.row() - 4, self.col() - 4);
        let d = r - c;
        let m = if r.abs() > c.abs() { r.abs() } else { c.abs() };
        (if d.abs() > m { d.abs() } else { m }) as u8
    }

    /// The cells of `bits`, lowest bit first (row A first).
    pub fn iter(bits: Bitboard) -> impl Iterator<Item = Cell> {
        let mut rest = bits;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let index = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            Some(Cell(index))
        })
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = (b'a' + self.row() as u8) as char;
        write!(f, "{row}{}", self.col() + 1)
    }
}

impl FromStr for Cell {
    type Err = CellError;

    /// `a1` … `i9`, either case.
    fn from_str(text: &str) -> Result<Cell, CellError> {
        let bytes = text.as_bytes();
        let unknown = || CellError(format!("unknown cell '{}'", crate::text::shorten(text)));
        if bytes.len() != 2 {
            return Err(unknown());
        }
        let row = bytes[0].to_ascii_lowercase();
        let col = bytes[1];
        if !(b'a'..=b'i').contains(&row) || !(b'1'..=b'9').contains(&col) {
            return Err(unknown());
        }
        let (row, col) = ((row - b'a') as i8, (col - b'1') as i8);
        Cell::at(row, col).ok_or_else(|| {
            CellError(format!(
                "unknown cell '{}': row {} has diagonals {} to {}",
                text.to_ascii_lowercase(),
                (b'a' + row as u8) as char,
                (row - 4).max(0) + 1,
                (row + 4).min(8) + 1
            ))
        })
    }
}

/// The six directions. `NorthEast` and `NorthWest` climb a row (towards I); `East` goes to
/// the next diagonal along the row.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Direction {
    East,
    NorthEast,
    NorthWest,
    West,
    SouthWest,
    SouthEast,
}

impl Direction {
    pub const ALL: [Direction; 6] = [
        Direction::East,
        Direction::NorthEast,
        Direction::NorthWest,
        Direction::West,
        Direction::SouthWest,
        Direction::SouthEast,
    ];

    /// One direction of each of the three lines; moving along it raises the bit index, so
    /// a group's lowest cell is its start along these.
    pub const AXES: [Direction; 3] = [Direction::East, Direction::NorthEast, Direction::NorthWest];

    /// (row, diagonal) change of one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::East => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::NorthWest => (1, 0),
            Direction::West => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::SouthEast => (-1, 0),
        }
    }

    /// The change of the bit index of one step.
    pub const fn offset(self) -> i8 {
        let (dr, dc) = self.delta();
        dr * STRIDE + dc
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::East => Direction::West,
            Direction::NorthEast => Direction::SouthWest,
            Direction::NorthWest => Direction::SouthEast,
            Direction::West => Direction::East,
            Direction::SouthWest => Direction::NorthEast,
            Direction::SouthEast => Direction::NorthWest,
        }
    }

    /// The direction of the step from `from` to its neighbour `to`.
    pub fn between(from: Cell, to: Cell) -> Option<Direction> {
        Direction::ALL
            .into_iter()
            .find(|d| from.step(*d) == Some(to))
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// True for the two directions of `axis`'s line.
    pub const fn is_along(self, axis: Direction) -> bool {
        self as u8 == axis as u8 || self as u8 == axis.opposite() as u8
    }
}

/// Every marble of `bits` moved one step in `direction`; marbles leaving the board vanish.
pub const fn shift(bits: Bitboard, direction: Direction) -> Bitboard {
    let offset = direction.offset();
    let moved = if offset > 0 {
        bits << offset
    } else {
        bits >> (-offset)
    };
    moved & BOARD_MASK
}

/// The two players. Black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    pub const fn index(self) -> usize {
        self as usize
    }

    /// `b` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

impl FromStr for Color {
    type Err = CellError;

    fn from_str(text: &str) -> Result<Color, CellError> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "w" | "white" => Ok(Color::White),
            _ => Err(CellError(format!(
                "unknown colour '{}'",
                crate::text::shorten(text)
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_one_cells_with_names_that_round_trip() {
        assert_eq!(BOARD_MASK.count_ones(), 61);
        for cell in ALL_CELLS {
            assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
        }
        assert_eq!(ALL_CELLS[0].to_string(), "a1");
        assert_eq!(ALL_CELLS[60].to_string(), "i9");
        assert!("a6".parse::<Cell>().is_err());
        assert!("i4".parse::<Cell>().is_err());
        assert!("j1".parse::<Cell>().is_err());
        assert_eq!("E5".parse::<Cell>().map(Cell::centre_distance), Ok(0));
        assert_eq!("a1".parse::<Cell>().map(Cell::centre_distance), Ok(4));
        assert_eq!("c3".parse::<Cell>().map(Cell::centre_distance), Ok(2));
    }

    #[test]
    fn shifts_agree_with_steps() {
        for direction in Direction::ALL {
            for cell in ALL_CELLS {
                let expected = cell.step(direction).map_or(0, Cell::bit);
                assert_eq!(
                    shift(cell.bit(), direction),
                    expected,
                    "{cell} {direction:?}"
                );
            }
        }
        let a1: Cell = "a1".parse().unwrap();
        assert_eq!(
            a1.step(Direction::NorthEast).map(|c| c.to_string()),
            Some("b2".into())
        );
        assert_eq!(
            a1.step(Direction::NorthWest).map(|c| c.to_string()),
            Some("b1".into())
        );
        assert_eq!(a1.step(Direction::West), None);
    }
}
