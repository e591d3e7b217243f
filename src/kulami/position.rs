//! The position string: marbles and markers in one GTP argument that round-trips.
//!
//! Rows top first, separated by `/`, covering the layout's width; in a row a number counts
//! empty cells (holes or not), `x` is a black marble, `o` a red one, and the upper-case
//! `X`/`O` is the colour's last marble, where its marker sits. The side to move follows
//! from the counts (black moves first). The default layout after `play b d5`, `play r e5`:
//! `8/8/8/3XO3/8/8/8/8` (both marbles are their colour's last, so both are marked).

use std::fmt;
use std::str::FromStr;

use super::cell::{Cell, MAX_SIDE};
use super::layout::Layout;
use super::rules::{Color, MARBLES_PER_PLAYER, Position};

/// A parsed position string: the marbles and markers on a field of `width`×`height`,
/// not yet checked against a layout or the rules (see [`Setup::validate`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub width: u8,
    pub height: u8,
    pub marbles: [u128; 2],
    pub markers: [Option<Cell>; 2],
}

/// Why a position string is refused; each names the broken rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    BadCharacter(char),
    RaggedRows {
        row: usize,
        cells: usize,
        expected: usize,
    },
    TooLarge,
    TwoMarkers(Color),
    WrongSize {
        width: u8,
        height: u8,
        layout_width: u8,
        layout_height: u8,
    },
    NotAHole(Cell),
    Counts {
        black: u32,
        red: u32,
    },
    MissingMarker(Color),
    MarkersShareTile(char),
    MarkerOutOfLine {
        mover: Color,
        marker: Cell,
        other: Cell,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BadCharacter(c) => write!(
                f,
                "'{}' is not allowed: use digits for empty cells, x/o for marbles, X/O for the marked last marbles",
                c.escape_default()
            ),
            PositionError::RaggedRows {
                row,
                cells,
                expected,
            } => {
                write!(
                    f,
                    "row {row} from the top covers {cells} cells, the first row {expected}"
                )
            }
            PositionError::TooLarge => f.write_str("the position is larger than 10x10"),
            PositionError::TwoMarkers(color) => {
                write!(f, "{color} has two marked marbles: a player has one marker")
            }
            PositionError::WrongSize {
                width,
                height,
                layout_width,
                layout_height,
            } => write!(
                f,
                "the position is {width}x{height} but the layout is {layout_width}x{layout_height}"
            ),
            PositionError::NotAHole(cell) => {
                write!(f, "{cell} holds a marble but is not a hole of the layout")
            }
            PositionError::Counts { black, red } => write!(
                f,
                "black has {black} marbles and red {red}: black moves first, so black has as many as red or one more, at most {MARBLES_PER_PLAYER}"
            ),
            PositionError::MissingMarker(color) => {
                write!(
                    f,
                    "{color} has marbles but none is marked (upper case) as its last"
                )
            }
            PositionError::MarkersShareTile(tile) => write!(
                f,
                "both markers are on tile {tile}: no marble goes on the tile of the opponent's marker"
            ),
            PositionError::MarkerOutOfLine {
                mover,
                marker,
                other,
            } => write!(
                f,
                "{mover}'s last marble {marker} is not in the row or column of the opponent's marker {other}"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl Setup {
    pub fn of(layout: &Layout, position: &Position) -> Setup {
        Setup {
            width: layout.width(),
            height: layout.height(),
            marbles: [position.marbles(Color::Black), position.marbles(Color::Red)],
            markers: [position.last(Color::Black), position.last(Color::Red)],
        }
    }

    /// Checks the setup against `layout` and the rules, and makes it a position.
    pub fn validate(&self, layout: &Layout) -> Result<Position, PositionError> {
        if (self.width, self.height) != (layout.width(), layout.height()) {
            return Err(PositionError::WrongSize {
                width: self.width,
                height: self.height,
                layout_width: layout.width(),
                layout_height: layout.height(),
            });
        }
        let all = self.marbles[0] | self.marbles[1];
        if let Some(cell) = super::cell::cells(all & !layout.holes()).next() {
            return Err(PositionError::NotAHole(cell));
        }
        let (black, red) = (self.marbles[0].count_ones(), self.marbles[1].count_ones());
        if !(black == red || black == red + 1) || black > MARBLES_PER_PLAYER {
            return Err(PositionError::Counts { black, red });
        }
        for color in Color::BOTH {
            if self.marbles[color.index()] != 0 && self.markers[color.index()].is_none() {
                return Err(PositionError::MissingMarker(color));
            }
        }
        if let [Some(b), Some(r)] = self.markers {
            if layout.tile_index(b) == layout.tile_index(r) {
                return Err(PositionError::MarkersShareTile(
                    layout.letter_at(b).unwrap_or('?'),
                ));
            }
            // The last mover had to play in line with the other's marker.
            let (mover, marker, other) = if black > red {
                (Color::Black, b, r)
            } else {
                (Color::Red, r, b)
            };
            if marker.lines() & other.bit() == 0 {
                return Err(PositionError::MarkerOutOfLine {
                    mover,
                    marker,
                    other,
                });
            }
        }
        Ok(Position::from_parts(self.marbles, self.markers))
    }
}

impl FromStr for Setup {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Setup, PositionError> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() > usize::from(MAX_SIDE) {
            return Err(PositionError::TooLarge);
        }
        let height = rows.len() as u8;
        let mut setup = Setup {
            width: 0,
            height,
            marbles: [0; 2],
            markers: [None; 2],
        };
        for (r, row) in rows.iter().enumerate() {
            let row_number = height - 1 - r as u8;
            let mut col: usize = 0;
            let mut run: usize = 0;
            for c in row.chars() {
                if let Some(digit) = c.to_digit(10) {
                    run = run * 10 + digit as usize;
                    if run > usize::from(MAX_SIDE) {
                        return Err(PositionError::TooLarge);
                    }
                    continue;
                }
                col += std::mem::take(&mut run);
                let (color, marked) = match c {
                    'x' => (Color::Black, false),
                    'X' => (Color::Black, true),
                    'o' => (Color::Red, false),
                    'O' => (Color::Red, true),
                    _ => return Err(PositionError::BadCharacter(c)),
                };
                if col >= usize::from(MAX_SIDE) {
                    return Err(PositionError::TooLarge);
                }
                let cell = Cell::new(col as u8, row_number);
                setup.marbles[color.index()] |= cell.bit();
                if marked && setup.markers[color.index()].replace(cell).is_some() {
                    return Err(PositionError::TwoMarkers(color));
                }
                col += 1;
            }
            col += run;
            if col > usize::from(MAX_SIDE) {
                return Err(PositionError::TooLarge);
            }
            if r == 0 {
                setup.width = col as u8;
            } else if col != usize::from(setup.width) {
                return Err(PositionError::RaggedRows {
                    row: r + 1,
                    cells: col,
                    expected: setup.width.into(),
                });
            }
        }
        Ok(setup)
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.height).rev() {
            let mut run = 0;
            for col in 0..self.width {
                let cell = Cell::new(col, row);
                let glyph = Color::BOTH.iter().find_map(|&color| {
                    (self.marbles[color.index()] & cell.bit() != 0).then(|| {
                        let marked = self.markers[color.index()] == Some(cell);
                        match (color, marked) {
                            (Color::Black, false) => 'x',
                            (Color::Black, true) => 'X',
                            (Color::Red, false) => 'o',
                            (Color::Red, true) => 'O',
                        }
                    })
                });
                match glyph {
                    None => run += 1,
                    Some(glyph) => {
                        if run > 0 {
                            write!(f, "{run}")?;
                            run = 0;
                        }
                        write!(f, "{glyph}")?;
                    }
                }
            }
            if run > 0 {
                write!(f, "{run}")?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}
