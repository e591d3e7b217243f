//! The rules: each marble goes in the row or column of the opponent's last marble, never on
//! the tile of either player's last marble (the markers); the game ends when all 56 marbles
//! are placed or the player to move has no legal hole.

use std::fmt;
use std::str::FromStr;

use super::cell::Cell;
use super::layout::Layout;

/// Marbles each player has.
pub const MARBLES_PER_PLAYER: u32 = 28;

/// A player's colour. Black moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    Red,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::Red];

    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::Red,
            Color::Red => Color::Black,
        }
    }

    /// 0 for black, 1 for red: for tables indexed by colour.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The result letter (`B`, `R`).
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::Red => 'R',
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError;

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid color")
    }
}

impl std::error::Error for ParseColorError {}

/// `b`, `black`, `r`, `red`, and GTP's `w`/`white` for red so that Go tools can drive the
/// engine; any case.
impl FromStr for Color {
    type Err = ParseColorError;

    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Color::Black),
            "r" | "red" | "w" | "white" => Ok(Color::Red),
            _ => Err(ParseColorError),
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::Red => "red",
        })
    }
}

/// Why a move is refused: each names the rule it breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    GameOver,
    NotYourTurn {
        to_move: Color,
    },
    NotAHole(Cell),
    Occupied(Cell),
    OutsideLines {
        cell: Cell,
        last: Cell,
    },
    MarkedTile {
        cell: Cell,
        tile: char,
        owner: Color,
        marker: Cell,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::NotYourTurn { to_move } => write!(f, "it is {to_move}'s turn"),
            IllegalMove::NotAHole(cell) => write!(f, "{cell} is not a hole of this layout"),
            IllegalMove::Occupied(cell) => write!(f, "{cell} is occupied"),
            IllegalMove::OutsideLines { cell, last } => write!(
                f,
                "{cell} is not in the row or column of the opponent's last marble {last}"
            ),
            IllegalMove::MarkedTile {
                cell,
                tile,
                owner,
                marker,
            } => write!(
                f,
                "{cell} is on tile {tile}, which holds {owner}'s marker on {marker}"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

const NO_CELL: u8 = u8::MAX;

/// Marbles and markers, without the layout: small and `Copy`, for copy-make search.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    marbles: [u128; 2],
    /// Bit index of each colour's last marble (its marker), `NO_CELL` before its first.
    last: [u8; 2],
}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The empty board, black to move.
    pub fn new() -> Position {
        Position {
            marbles: [0; 2],
            last: [NO_CELL; 2],
        }
    }

    /// A position from its parts, unchecked; [`super::position`] validates untrusted text.
    pub(crate) fn from_parts(marbles: [u128; 2], last: [Option<Cell>; 2]) -> Position {
        let index = |c: Option<Cell>| c.map_or(NO_CELL, |c| c.index() as u8);
        Position {
            marbles,
            last: [index(last[0]), index(last[1])],
        }
    }

    pub fn marbles(&self, color: Color) -> u128 {
        self.marbles[color.index()]
    }

    pub fn occupied(&self) -> u128 {
        self.marbles[0] | self.marbles[1]
    }

    pub fn placed(&self) -> u32 {
        self.occupied().count_ones()
    }

    /// The cell of `color`'s last marble, where its marker sits.
    pub fn last(&self, color: Color) -> Option<Cell> {
        let index = self.last[color.index()];
        if index == NO_CELL {
            None
        } else {
            Cell::from_index(u32::from(index))
        }
    }

    /// Black moves when both have placed as many marbles, red otherwise.
    pub fn to_move(&self) -> Color {
        if self.marbles[0].count_ones() > self.marbles[1].count_ones() {
            Color::Red
        } else {
            Color::Black
        }
    }

    /// The holes the side to move may fill, as a bitboard; empty when the game is over.
    pub fn legal_moves(&self, layout: &Layout) -> u128 {
        let me = self.to_move();
        if self.marbles(me).count_ones() >= MARBLES_PER_PLAYER {
            return 0;
        }
        let mut allowed = layout.holes() & !self.occupied();
        if let Some(last) = self.last(me.opponent()) {
            allowed &= last.lines() & !layout.tile_mask(last);
        }
        if let Some(own) = self.last(me) {
            allowed &= !layout.tile_mask(own);
        }
        allowed
    }

    pub fn is_over(&self, layout: &Layout) -> bool {
        self.legal_moves(layout) == 0
    }

    /// Plays `cell` for the side to move after checking every rule.
    pub fn play(&mut self, layout: &Layout, cell: Cell) -> Result<(), IllegalMove> {
        self.check(layout, cell)?;
        self.play_unchecked(cell);
        Ok(())
    }

    /// Why `cell` is illegal for the side to move, if it is.
    pub fn check(&self, layout: &Layout, cell: Cell) -> Result<(), IllegalMove> {
        let me = self.to_move();
        if self.is_over(layout) {
            return Err(IllegalMove::GameOver);
        }
        if !layout.is_hole(cell) {
            return Err(IllegalMove::NotAHole(cell));
        }
        if self.occupied() & cell.bit() != 0 {
            return Err(IllegalMove::Occupied(cell));
        }
        if let Some(last) = self.last(me.opponent())
            && last.lines() & cell.bit() == 0
        {
            return Err(IllegalMove::OutsideLines { cell, last });
        }
        for owner in [me.opponent(), me] {
            if let Some(marker) = self.last(owner)
                && layout.tile_mask(marker) & cell.bit() != 0
            {
                let tile = layout.letter_at(cell).unwrap_or('?');
                return Err(IllegalMove::MarkedTile {
                    cell,
                    tile,
                    owner,
                    marker,
                });
            }
        }
        debug_assert!(self.legal_moves(layout) & cell.bit() != 0);
        Ok(())
    }

    /// Plays `cell` for the side to move; the caller vouches that it is legal.
    pub fn play_unchecked(&mut self, cell: Cell) {
        let me = self.to_move().index();
        self.marbles[me] |= cell.bit();
        self.last[me] = cell.index() as u8;
    }

    /// The position after `cell`, for copy-make search.
    pub fn after(mut self, cell: Cell) -> Position {
        self.play_unchecked(cell);
        self
    }
}

/// A game: the layout, the position and the history for `undo`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    layout: Layout,
    position: Position,
    history: Vec<Position>,
}

impl Game {
    pub fn new(layout: Layout) -> Game {
        Game {
            layout,
            position: Position::new(),
            history: Vec::new(),
        }
    }

    /// A game that starts from a set position (which `undo` cannot take back).
    pub fn from_position(layout: Layout, position: Position) -> Game {
        Game {
            layout,
            position,
            history: Vec::new(),
        }
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn to_move(&self) -> Color {
        self.position.to_move()
    }

    pub fn is_over(&self) -> bool {
        self.position.is_over(&self.layout)
    }

    pub fn legal_moves(&self) -> Vec<Cell> {
        let mut moves: Vec<Cell> =
            super::cell::cells(self.position.legal_moves(&self.layout)).collect();
        moves.sort_unstable();
        moves
    }

    /// Plays `cell` for `color`, which must be the side to move. A refused move changes nothing.
    pub fn play(&mut self, color: Color, cell: Cell) -> Result<(), IllegalMove> {
        let to_move = self.to_move();
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if color != to_move {
            return Err(IllegalMove::NotYourTurn { to_move });
        }
        let mut next = self.position;
        next.play(&self.layout, cell)?;
        self.history.push(self.position);
        self.position = next;
        Ok(())
    }

    /// Takes back the last move; false when there is none.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(previous) => {
                self.position = previous;
                true
            }
            None => false,
        }
    }

    pub fn moves_played(&self) -> usize {
        self.history.len()
    }
}
