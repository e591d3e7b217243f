//! Cell notation: a column letter and a row number, `d5`, as in GTP (the letter `i` is
//! skipped so that it is not read as `j` or `1`). Row 1 is the bottom row.

use std::fmt;
use std::str::FromStr;

/// Bits a row takes in a bitboard: ten cells and one padding bit that is never set.
pub const STRIDE: u32 = 11;

/// The largest field side the rules allow (the tiles must fit inside 10×10).
pub const MAX_SIDE: u8 = 10;

/// Every bit a cell of a 10×10 field may use.
pub const FIELD: u128 = {
    let mut mask = 0u128;
    let mut row = 0;
    while row < MAX_SIDE as u32 {
        mask |= ((1u128 << MAX_SIDE) - 1) << (row * STRIDE);
        row += 1;
    }
    mask
};

const COLUMN_LETTERS: &[u8; 10] = b"abcdefghjk";

/// A cell of the field: `col` 0 is column `a`, `row` 0 is row 1 (the bottom).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

impl Cell {
    pub fn new(col: u8, row: u8) -> Cell {
        Cell { col, row }
    }

    /// The bit index of this cell in a bitboard.
    pub fn index(self) -> u32 {
        u32::from(self.row) * STRIDE + u32::from(self.col)
    }

    pub fn bit(self) -> u128 {
        1u128 << self.index()
    }

    /// The cell of bit `index`; `None` for a padding bit or one beyond the 10×10 field.
    pub fn from_index(index: u32) -> Option<Cell> {
        let (row, col) = (index / STRIDE, index % STRIDE);
        (row < u32::from(MAX_SIDE) && col < u32::from(MAX_SIDE))
            .then(|| Cell::new(col as u8, row as u8))
    }

    /// The lowest set cell of a non-empty bitboard.
    pub fn lowest(board: u128) -> Option<Cell> {
        (board != 0)
            .then(|| board.trailing_zeros())
            .and_then(Cell::from_index)
    }

    /// Every cell in the same row or the same column as this one.
    pub fn lines(self) -> u128 {
        let row_mask = ((1u128 << MAX_SIDE) - 1) << (u32::from(self.row) * STRIDE);
        let column_mask = (FIELD / ((1u128 << MAX_SIDE) - 1)) << self.col;
        (row_mask | column_mask) & FIELD
    }

    pub fn column_letter(col: u8) -> char {
        COLUMN_LETTERS
            .get(usize::from(col))
            .map_or('?', |&b| b as char)
    }
}

/// Iterates over the cells of a bitboard, lowest bit first.
pub fn cells(mut board: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        let cell = Cell::lowest(board)?;
        board &= board - 1;
        Some(cell)
    })
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseCellError(pub String);

impl fmt::Display for ParseCellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a cell such as d5 (columns a-k without i, rows 1-10), got '{}'",
            self.0
        )
    }
}

impl std::error::Error for ParseCellError {}

/// `d5`, `D5`, `k10`: any case, inside a 10×10 field. Whether the cell is a hole of the
/// layout in play is the rules' business, not the notation's.
impl FromStr for Cell {
    type Err = ParseCellError;

    fn from_str(s: &str) -> Result<Cell, ParseCellError> {
        let error = || ParseCellError(crate::text::shorten(s));
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(error)?.to_ascii_lowercase();
        let col = COLUMN_LETTERS
            .iter()
            .position(|&b| b as char == letter)
            .ok_or_else(error)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(error());
        }
        let row: u8 = digits.parse().map_err(|_| error())?;
        if !(1..=MAX_SIDE).contains(&row) || digits.starts_with('0') {
            return Err(error());
        }
        Ok(Cell::new(col as u8, row - 1))
    }
}

/// Upper case (`D5`), as GTP writes vertices and GoGui compares them.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            Cell::column_letter(self.col).to_ascii_uppercase(),
            self.row + 1
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_skips_i() {
        for row in 0..MAX_SIDE {
            for col in 0..MAX_SIDE {
                let cell = Cell::new(col, row);
                assert_eq!(cell.to_string().parse::<Cell>(), Ok(cell));
                assert_eq!(Cell::from_index(cell.index()), Some(cell));
            }
        }
        assert_eq!("j1".parse::<Cell>(), Ok(Cell::new(8, 0)));
        assert_eq!("K10".parse::<Cell>(), Ok(Cell::new(9, 9)));
        for bad in ["i1", "a0", "a11", "a", "5", "a05", "l1", "", "a1x"] {
            assert!(bad.parse::<Cell>().is_err(), "{bad}");
        }
    }

    #[test]
    fn lines_hold_row_and_column() {
        let lines = Cell::new(3, 4).lines();
        assert_eq!(lines.count_ones(), 19);
        assert!(lines & Cell::new(3, 0).bit() != 0);
        assert!(lines & Cell::new(9, 4).bit() != 0);
        assert!(lines & Cell::new(4, 5).bit() == 0);
        assert_eq!(FIELD.count_ones(), 100);
    }
}
