//! Cell notation: a column letter and a row number, `d5`, as in GTP (the letter `i` is
//! skipped so that it is not read as `j` or `1`). Row 1 is the bottom row.

use std::fmt;
use std::str::FromStr;

use super::cell::{Cell, MAX_SIDE};

const COLUMN_LETTERS: &[u8; 10] = b"abcdefghjk";

impl Cell {
    /// The letter of column `col` (0 is `a`, `i` skipped); `?` beyond the 10×10 field.
    pub fn column_letter(col: u8) -> char {
        COLUMN_LETTERS
            .get(usize::from(col))
            .map_or('?', |&b| b as char)
    }
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
}
