//! The checkers: where each side's fifteen stand, seen from that side's own home.
//!
//! Each side counts points from its own ace point (1) to its 24-point; its bar is point 25 and
//! borne-off checkers are off the board (point 0). A side's point `p` is the other side's
//! point `25 - p`. This is gnubg's `anBoard` layout, so Position IDs and gnubg's own boards map
//! onto ours without arithmetic.

use std::fmt;

/// Checkers a side has in play at the start and at most.
pub const CHECKERS: u8 = 15;
/// Index of the bar in a side's row (its point 25).
pub const BAR: usize = 24;
/// Points on the board.
pub const POINTS: usize = 24;

/// The two sides. `White` is gnubg's player 0 and the FIBS `O`; `Black` is player 1 and `X`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White,
    Black,
}

impl Side {
    pub const BOTH: [Side; 2] = [Side::White, Side::Black];

    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    pub fn from_index(index: usize) -> Side {
        if index == 0 { Side::White } else { Side::Black }
    }

    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Side {
    type Err = String;

    fn from_str(text: &str) -> Result<Side, String> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" | "o" | "0" | "beyaz" => Ok(Side::White),
            "black" | "b" | "x" | "1" | "siyah" => Ok(Side::Black),
            _ => Err(format!("unknown side '{text}' (white or black)")),
        }
    }
}

/// Why a set of checker counts is not a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    TooManyCheckers { side: Side, count: u32 },
    BothOnPoint { point: usize },
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::TooManyCheckers { side, count } => {
                write!(
                    f,
                    "{side} has {count} checkers on the board; at most {CHECKERS}"
                )
            }
            BoardError::BothOnPoint { point } => write!(
                f,
                "both sides have checkers on white's point {point} (black's point {})",
                25 - point
            ),
        }
    }
}

impl std::error::Error for BoardError {}

/// Both sides' checkers; `rows[side][p - 1]` is what `side` has on its own point `p`, and
/// `rows[side][BAR]` its checkers on the bar.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    rows: [[u8; 25]; 2],
}

impl Default for Board {
    fn default() -> Board {
        Board::start()
    }
}

impl Board {
    /// The start: 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6, for each side.
    pub fn start() -> Board {
        let mut row = [0u8; 25];
        row[23] = 2;
        row[12] = 5;
        row[7] = 3;
        row[5] = 5;
        Board { rows: [row; 2] }
    }

    pub fn empty() -> Board {
        Board { rows: [[0; 25]; 2] }
    }

    /// Checks untrusted counts: at most 15 a side, never both sides on one point.
    pub fn from_rows(rows: [[u8; 25]; 2]) -> Result<Board, BoardError> {
        for side in Side::BOTH {
            let count: u32 = rows[side.index()].iter().map(|&n| u32::from(n)).sum();
            if count > u32::from(CHECKERS) {
                return Err(BoardError::TooManyCheckers { side, count });
            }
        }
        for index in 0..POINTS {
            if rows[0][index] > 0 && rows[1][POINTS - 1 - index] > 0 {
                return Err(BoardError::BothOnPoint { point: index + 1 });
            }
        }
        Ok(Board { rows })
    }

    pub fn rows(&self) -> &[[u8; 25]; 2] {
        &self.rows
    }

    pub fn row(&self, side: Side) -> &[u8; 25] {
        &self.rows[side.index()]
    }

    /// Checkers `side` has on its own point `point` (1–24, 25 = bar).
    pub fn at(&self, side: Side, point: usize) -> u8 {
        self.rows[side.index()][point - 1]
    }

    pub fn bar(&self, side: Side) -> u8 {
        self.rows[side.index()][BAR]
    }

    pub fn on_board(&self, side: Side) -> u8 {
        self.rows[side.index()].iter().sum()
    }

    pub fn borne_off(&self, side: Side) -> u8 {
        CHECKERS - self.on_board(side)
    }

    /// Pips `side` needs to bear everything off.
    pub fn pip_count(&self, side: Side) -> u32 {
        self.rows[side.index()]
            .iter()
            .enumerate()
            .map(|(index, &n)| (index as u32 + 1) * u32::from(n))
            .sum()
    }

    /// True when every checker of `side` still in play is in its home board.
    pub fn all_home(&self, side: Side) -> bool {
        self.rows[side.index()][6..].iter().all(|&n| n == 0)
    }

    /// No checker of either side can reach the other: a pure race.
    pub fn is_race(&self) -> bool {
        let white = &self.rows[0];
        let black = &self.rows[1];
        if white[BAR] > 0 || black[BAR] > 0 {
            return false;
        }
        // White's furthest-back checker on its point w meets black's on black's point b
        // while w + b > 25 (they still have to pass each other).
        let back = |row: &[u8; 25]| (0..POINTS).rev().find(|&i| row[i] > 0).map(|i| i + 1);
        match (back(white), back(black)) {
            (Some(w), Some(b)) => w + b <= 25,
            _ => true,
        }
    }

    /// The same checkers with the sides' roles exchanged.
    pub fn swapped(&self) -> Board {
        Board {
            rows: [self.rows[1], self.rows[0]],
        }
    }

    /// Moves one checker of `side` from its point `from` (25 = bar) to `to` (0 = off),
    /// hitting a lone opposing checker there. Returns whether it hit. Trusts the caller.
    pub(crate) fn step(&mut self, side: Side, from: usize, to: usize) -> bool {
        let me = side.index();
        self.rows[me][from - 1] -= 1;
        if to == 0 {
            return false;
        }
        self.rows[me][to - 1] += 1;
        let them = 1 - me;
        let their_index = POINTS - to;
        if self.rows[them][their_index] == 1 {
            self.rows[them][their_index] = 0;
            self.rows[them][BAR] += 1;
            true
        } else {
            false
        }
    }

    /// Whether `side` may land a checker on its own point `to` (1–24): not two or more
    /// opposing checkers there.
    pub fn open_for(&self, side: Side, to: usize) -> bool {
        self.rows[1 - side.index()][POINTS - to] < 2
    }
}
