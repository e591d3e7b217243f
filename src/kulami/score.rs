//! The tournament sheet's scoring: the row bonus, the largest area and the tile majorities,
//! each kept apart so that a person can check the referee's sum.

use std::fmt;
use std::str::FromStr;

use super::cell::STRIDE;
use super::layout::{Layout, grow};
use super::rules::{Color, Position};

/// What a row of five or more marbles scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RowBonus {
    /// A maximal line of n ≥ 5 marbles scores n (the rule book's default).
    Length,
    /// Every maximal line of 5 or more scores this many points.
    PerRow(u32),
}

impl FromStr for RowBonus {
    type Err = String;

    fn from_str(s: &str) -> Result<RowBonus, String> {
        if s.eq_ignore_ascii_case("length") {
            return Ok(RowBonus::Length);
        }
        s.parse::<u32>()
            .ok()
            .filter(|&points| points <= 1000)
            .map(RowBonus::PerRow)
            .ok_or_else(|| format!("expected 'length' or points per row (0-1000), got '{s}'"))
    }
}

impl fmt::Display for RowBonus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowBonus::Length => f.write_str("length"),
            RowBonus::PerRow(points) => write!(f, "{points}"),
        }
    }
}

/// Which bonuses count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// Tiles only, as the standard (non-tournament) Kulami rules count.
    pub tiles_only: bool,
    pub row_bonus: RowBonus,
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            tiles_only: false,
            row_bonus: RowBonus::Length,
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tiles_only {
            f.write_str("standard (tiles only)")
        } else {
            write!(f, "tournament (row bonus {})", self.row_bonus)
        }
    }
}

/// One colour's points, bonus by bonus.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Breakdown {
    pub rows: u32,
    pub area: u32,
    pub tiles: u32,
}

impl Breakdown {
    pub fn total(&self) -> u32 {
        self.rows + self.area + self.tiles
    }
}

/// Both colours' points.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub black: Breakdown,
    pub red: Breakdown,
}

impl Score {
    pub fn of(&self, color: Color) -> Breakdown {
        match color {
            Color::Black => self.black,
            Color::Red => self.red,
        }
    }

    /// Black's total minus red's.
    pub fn margin(&self) -> i32 {
        self.black.total() as i32 - self.red.total() as i32
    }

    /// `B+5`, `R+3` or `0`.
    pub fn result(&self) -> String {
        match self.margin() {
            0 => "0".into(),
            m if m > 0 => format!("B+{m}"),
            m => format!("R+{}", -m),
        }
    }
}

/// `B+5 (black 38: rows 5, area 12, tiles 21; red 33: rows 0, area 11, tiles 22)`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let part = |b: Breakdown| {
            format!(
                "{}: rows {}, area {}, tiles {}",
                b.total(),
                b.rows,
                b.area,
                b.tiles
            )
        };
        write!(
            f,
            "{} (black {}; red {})",
            self.result(),
            part(self.black),
            part(self.red)
        )
    }
}

/// Scores `position` as it stands (at the end of a game, the final score).
pub fn score(layout: &Layout, position: &Position, scoring: Scoring) -> Score {
    let black = position.marbles(Color::Black);
    let red = position.marbles(Color::Red);
    let (black_tiles, red_tiles) = tile_points(layout, black, red);
    let breakdown = |mine: u128, tiles: u32| {
        if scoring.tiles_only {
            Breakdown {
                rows: 0,
                area: 0,
                tiles,
            }
        } else {
            Breakdown {
                rows: row_points(mine, scoring.row_bonus),
                area: largest_area(mine),
                tiles,
            }
        }
    };
    Score {
        black: breakdown(black, black_tiles),
        red: breakdown(red, red_tiles),
    }
}

/// Each tile goes to the colour with more marbles on it, for as many points as it has holes.
pub fn tile_points(layout: &Layout, black: u128, red: u128) -> (u32, u32) {
    let mut points = (0, 0);
    for &tile in layout.tiles() {
        let (b, r) = ((black & tile).count_ones(), (red & tile).count_ones());
        if b > r {
            points.0 += tile.count_ones();
        } else if r > b {
            points.1 += tile.count_ones();
        }
    }
    points
}

/// Shifts between neighbours along a line: east, north, north-east, north-west.
const DIRECTIONS: [u32; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

/// The row bonus of one colour's marbles: every maximal line of 5 or more in any of the four
/// directions. The padding column is never set, so no line wraps round the field.
pub fn row_points(marbles: u128, bonus: RowBonus) -> u32 {
    let mut points = 0;
    for d in DIRECTIONS {
        // Cells that start five in a row along d, then every cell such a five covers.
        let starts =
            marbles & marbles >> d & marbles >> (2 * d) & marbles >> (3 * d) & marbles >> (4 * d);
        if starts == 0 {
            continue;
        }
        let covered =
            starts | starts << d | starts << (2 * d) | starts << (3 * d) | starts << (4 * d);
        points += match bonus {
            RowBonus::Length => covered.count_ones(),
            // A line begins where a covered cell has no covered neighbour behind it.
            RowBonus::PerRow(each) => (covered & !(covered << d)).count_ones() * each,
        };
    }
    points
}

/// The size of the largest group of marbles joined horizontally or vertically.
pub fn largest_area(marbles: u128) -> u32 {
    let mut left = marbles;
    let mut largest = 0;
    while left != 0 {
        let mut group = left & left.wrapping_neg();
        loop {
            let next = grow(group) & marbles;
            if next == group {
                break;
            }
            group = next;
        }
        largest = largest.max(group.count_ones());
        left &= !group;
    }
    largest
}
