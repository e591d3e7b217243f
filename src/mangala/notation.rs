//! Text forms: sides, pits, GoGui vertices and the compact position string.
//!
//! The position string lists the fourteen cells in sowing order, South's half then
//! North's half, then the side to move: `4,4,4,4,4,4,0/4,4,4,4,4,4,0/s` is the start
//! with South to move (each half is pits 1–6 from that side's left, then its store).

use std::fmt;
use std::str::FromStr;

use super::rules::{CELLS, PITS, Pit, Position, PositionError, Side};

/// A side as text: `south`/`s`/`b`/`black` or `north`/`n`/`w`/`white`, any case.
/// `S+6`, `N+2` or `0`, from the final stores.
pub fn score_text(position: &Position) -> String {
    match position.store_difference(Side::South) {
        0 => "0".into(),
        d if d > 0 => format!("S+{d}"),
        d => format!("N+{}", -d),
    }
}

impl FromStr for Side {
    type Err = String;

    fn from_str(text: &str) -> Result<Side, String> {
        match text.to_ascii_lowercase().as_str() {
            "south" | "s" | "b" | "black" => Ok(Side::South),
            "north" | "n" | "w" | "white" => Ok(Side::North),
            _ => Err(format!("expected a side, got '{text}'")),
        }
    }
}

impl Side {
    /// GoGui's colour for this side: South is shown as Black.
    pub const fn gogui_color(self) -> &'static str {
        match self {
            Side::South => "black",
            Side::North => "white",
        }
    }
}

/// Why a move text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePitError {
    Malformed,
    OutOfRange,
    /// A GoGui vertex on the other side's row, or off the two pit rows.
    NotOnRow,
}

impl FromStr for Pit {
    type Err = ParsePitError;

    fn from_str(text: &str) -> Result<Pit, ParsePitError> {
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ParsePitError::Malformed);
        }
        let number: u32 = text.parse().map_err(|_| ParsePitError::OutOfRange)?;
        u8::try_from(number)
            .ok()
            .and_then(Pit::new)
            .ok_or(ParsePitError::OutOfRange)
    }
}

impl fmt::Display for Pit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

/// GoGui shows the board as 6×6: South's pits on row 1 (pit 1 at A1), North's on row 6
/// (pit 1 at F6, on North's left); see [`super::gogui`] for the rest of the board.
pub const GOGUI_SIZE: usize = PITS;

impl Pit {
    /// The GoGui vertex of this pit of `side`'s row.
    pub fn gogui_vertex(self, side: Side) -> String {
        let (column, row) = match side {
            Side::South => (self.offset(), 1),
            Side::North => (PITS - 1 - self.offset(), GOGUI_SIZE),
        };
        format!("{}{row}", char::from(b'A' + column as u8))
    }

    /// A pit of `side` from a pit number (`3`) or from a GoGui vertex on `side`'s row
    /// (`C1` for South, `D6` for North).
    pub fn parse_for(text: &str, side: Side) -> Result<Pit, ParsePitError> {
        if text.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            return text.parse();
        }
        let mut chars = text.chars();
        let column = chars
            .next()
            .map(|c| c.to_ascii_uppercase())
            .ok_or(ParsePitError::Malformed)?;
        let row: usize = chars
            .as_str()
            .parse()
            .map_err(|_| ParsePitError::Malformed)?;
        if !column.is_ascii_uppercase() {
            return Err(ParsePitError::Malformed);
        }
        let column = usize::from(column as u8 - b'A');
        if column >= PITS {
            return Err(ParsePitError::NotOnRow);
        }
        let offset = match (side, row) {
            (Side::South, 1) => column,
            (Side::North, GOGUI_SIZE) => PITS - 1 - column,
            _ => return Err(ParsePitError::NotOnRow),
        };
        Pit::new(offset as u8 + 1).ok_or(ParsePitError::OutOfRange)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cells = self.cells();
        for (index, count) in cells.iter().enumerate() {
            let separator = match index {
                0 => "",
                7 => "/",
                _ => ",",
            };
            write!(f, "{separator}{count}")?;
        }
        let side = match self.to_move() {
            Side::South => 's',
            Side::North => 'n',
        };
        write!(f, "/{side}")
    }
}

/// Reads a position string, checking its form and every rule but the set's stone total
/// (see [`Position::parse_with_total`] for that).
impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        let (cells, side) = parse_cells(text)?;
        let total = cells.iter().map(|&c| u32::from(c)).sum();
        Position::validated(cells, side, total)
    }
}

impl Position {
    /// Reads a position string for a set of `total` stones.
    pub fn parse_with_total(text: &str, total: u32) -> Result<Position, PositionError> {
        let (cells, side) = parse_cells(text)?;
        Position::validated(cells, side, total)
    }
}

fn malformed(detail: impl Into<String>) -> PositionError {
    PositionError::Malformed(detail.into())
}

fn parse_cells(text: &str) -> Result<([u8; CELLS], Side), PositionError> {
    const FORM: &str = "expected south pits 1-6 and store / north pits 1-6 and store / side, such as 4,4,4,4,4,4,0/4,4,4,4,4,4,0/s";
    let parts: Vec<&str> = text.split('/').collect();
    let [south, north, side] = parts.as_slice() else {
        return Err(malformed(FORM));
    };
    let side: Side = side.parse().map_err(|_| malformed(FORM))?;
    let mut cells = [0u8; CELLS];
    for (half, part) in [south, north].into_iter().enumerate() {
        let counts: Vec<&str> = part.split(',').collect();
        if counts.len() != PITS + 1 {
            return Err(malformed(FORM));
        }
        for (offset, count) in counts.into_iter().enumerate() {
            if count.starts_with('-') {
                return Err(malformed(format!("negative stone count '{count}'")));
            }
            if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
                return Err(malformed(format!(
                    "expected a stone count, got '{}'",
                    crate::text::shorten(count)
                )));
            }
            let value: u8 = count.parse().ok().filter(|&v| v < 64).ok_or_else(|| {
                malformed(format!(
                    "{} stones do not fit a cell",
                    crate::text::shorten(count)
                ))
            })?;
            cells[half * (PITS + 1) + offset] = value;
        }
    }
    Ok((cells, side))
}
