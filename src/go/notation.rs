//! Go's move notation in GTP terms: [`Vertex`] (`D4`), [`MoveVertex`] (a vertex or
//! `pass`), their parsing for a board size and their display. Colours (`b`, `white`)
//! are `color.rs`'s.

use std::fmt;
use std::str::FromStr;

/// The largest board GTP's vertex notation can name (letters A–Z without I).
pub const MAX_BOARD_SIZE: usize = 25;

/// A board intersection in GTP terms: `col` 0 is column A, `row` 0 is row 1 (the bottom).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Vertex {
    pub col: u8,
    pub row: u8,
}

/// A vertex or a pass, as GTP's `move` and `vertex` entities allow.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveVertex {
    Pass,
    Play(Vertex),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseVertexError {
    /// Not a letter followed by a number.
    Malformed,
    /// Well formed, but not on a board of the given size.
    OffBoard,
}

impl fmt::Display for ParseVertexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseVertexError::Malformed => "invalid vertex",
            ParseVertexError::OffBoard => "vertex off the board",
        })
    }
}

impl std::error::Error for ParseVertexError {}

impl Vertex {
    pub fn new(col: u8, row: u8) -> Vertex {
        Vertex { col, row }
    }

    /// Column letter: GTP skips `I` so that it is not read as `J` or `1`.
    pub fn column_letter(col: u8) -> char {
        let skip_i = if col >= 8 { 1 } else { 0 };
        (b'A' + col + skip_i) as char
    }

    /// Parses a GTP vertex (`D4`, `q16`) and checks it lies on a board of `size`.
    pub fn parse_on(s: &str, size: usize) -> Result<Vertex, ParseVertexError> {
        let v: Vertex = s.parse()?;
        if usize::from(v.col) < size && usize::from(v.row) < size {
            Ok(v)
        } else {
            Err(ParseVertexError::OffBoard)
        }
    }
}

impl FromStr for Vertex {
    type Err = ParseVertexError;

    fn from_str(s: &str) -> Result<Vertex, ParseVertexError> {
        let bytes = s.as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or(ParseVertexError::Malformed)?;
        let letter = letter.to_ascii_uppercase();
        if !letter.is_ascii_uppercase() || letter == b'I' {
            return Err(ParseVertexError::Malformed);
        }
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(ParseVertexError::Malformed);
        }
        let col = letter - b'A' - u8::from(letter > b'I');
        let row: u8 = std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse().ok())
            .ok_or(ParseVertexError::Malformed)?;
        if row == 0 || usize::from(row) > MAX_BOARD_SIZE {
            return Err(ParseVertexError::OffBoard);
        }
        Ok(Vertex { col, row: row - 1 })
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Vertex::column_letter(self.col), self.row + 1)
    }
}

impl MoveVertex {
    /// Parses `pass` or a vertex on a board of `size`, in any case.
    pub fn parse_on(s: &str, size: usize) -> Result<MoveVertex, ParseVertexError> {
        if s.eq_ignore_ascii_case("pass") {
            Ok(MoveVertex::Pass)
        } else {
            Vertex::parse_on(s, size).map(MoveVertex::Play)
        }
    }
}

impl fmt::Display for MoveVertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveVertex::Pass => f.write_str("PASS"),
            MoveVertex::Play(v) => v.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_letters_skip_i() {
        assert_eq!(Vertex::parse_on("j1", 19), Ok(Vertex::new(8, 0)));
        assert_eq!(Vertex::new(8, 0).to_string(), "J1");
        assert_eq!(Vertex::parse_on("I5", 19), Err(ParseVertexError::Malformed));
        assert_eq!(Vertex::parse_on("Z25", 25), Ok(Vertex::new(24, 24)));
        assert_eq!(Vertex::parse_on("T20", 19), Err(ParseVertexError::OffBoard));
        assert_eq!(Vertex::parse_on("A0", 19), Err(ParseVertexError::OffBoard));
        assert_eq!(Vertex::parse_on("A", 19), Err(ParseVertexError::Malformed));
        assert_eq!(Vertex::parse_on("", 19), Err(ParseVertexError::Malformed));
        assert_eq!(Vertex::parse_on("é4", 19), Err(ParseVertexError::Malformed));
        assert_eq!(MoveVertex::parse_on("PaSs", 9), Ok(MoveVertex::Pass));
        assert_eq!(MoveVertex::Pass.to_string(), "PASS");
    }
}
