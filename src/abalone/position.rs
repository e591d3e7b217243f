//! A position: both colours' marbles, the side to move and the marbles pushed off; the
//! rules of a single move (which moves are legal and what they do) and the start positions.

use std::fmt;
use std::str::FromStr;

use super::board::{ALL_CELLS, Bitboard, Cell, Color, Direction, shift};
use super::moves::Move;

/// Marbles a side starts with in every start position.
pub const MARBLES_PER_SIDE: u8 = 14;

/// Pushing this many of the opponent's marbles off wins.
pub const MARBLES_OFF_TO_WIN: u8 = 6;

/// Room for every move of any position: 14 marbles give at most 84 in-line moves and
/// 84 groups of 2 or 3 with 4 sideways directions each.
pub const MAX_MOVES: usize = 84 + 84 * 4;

/// The legal moves of a position, on the stack: the move generator never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    pub fn new() -> MoveList {
        let filler = Move::Inline {
            tail: ALL_CELLS[0],
            direction: Direction::East,
        };
        MoveList {
            moves: [filler; MAX_MOVES],
            len: 0,
        }
    }

    fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }

    /// Keeps the moves for which `keep` holds, in order.
    pub fn retain(&mut self, keep: impl Fn(Move) -> bool) {
        let mut kept = 0;
        for index in 0..self.len {
            let mv = self.moves[index];
            if keep(mv) {
                self.moves[kept] = mv;
                kept += 1;
            }
        }
        self.len = kept;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

/// Why a move may not be played here. Each names the rule that forbids it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    NotYourTurn {
        to_move: Color,
    },
    GameOver,
    /// A cell of the group holds no marble.
    EmptyCell(Cell),
    /// A cell of the group holds an opponent's marble.
    OpponentsMarble(Cell),
    /// Four or more of the mover's marbles stand in line from the trailing marble.
    TooManyMarbles,
    /// The leading marble (or a broadside marble) would leave the board.
    OwnMarbleOff(Cell),
    /// Sumito needs more marbles than the opponent's line: 2–1, 3–1, 3–2.
    NotOutnumbered {
        own: u8,
        opponent: u8,
    },
    /// The mover's own marble stands right behind the opponent's line.
    PushBlocked(Cell),
    /// A broadside destination is taken (broadsides never push).
    BroadsideBlocked(Cell),
    /// The game already keeps [`super::rules::MAX_KEPT_PLIES`] plies.
    TooLong {
        limit: usize,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NotYourTurn { to_move } => write!(f, "it is {to_move}'s turn"),
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::EmptyCell(cell) => write!(f, "{cell} holds no marble"),
            IllegalMove::OpponentsMarble(cell) => {
                write!(f, "{cell} holds an opponent's marble: only your own marbles move")
            }
            IllegalMove::TooManyMarbles => {
                f.write_str("4 or more marbles in line: at most 3 move (a fourth behind them stays where it is)")
            }
            IllegalMove::OwnMarbleOff(cell) => {
                write!(f, "the marble at {cell} would leave the board: never push your own marble off")
            }
            IllegalMove::NotOutnumbered { own, opponent } => write!(
                f,
                "{own} marbles cannot push {opponent}: sumito needs 2 against 1, 3 against 1 or 3 against 2"
            ),
            IllegalMove::PushBlocked(cell) => {
                write!(f, "the push is blocked by your own marble at {cell}")
            }
            IllegalMove::BroadsideBlocked(cell) => {
                write!(f, "a broadside moves only into empty cells, and {cell} is not empty")
            }
            IllegalMove::TooLong { limit } => write!(
                f,
                "game too long: a game keeps at most {limit} plies; start a new one (clear_board)"
            ),
        }
    }
}

impl std::error::Error for IllegalMove {}

/// What an in-line move does: how many of the mover's marbles step and how many of the
/// opponent's are pushed (the last of them off the board when `push_off`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InlineEffect {
    pub marbles: u8,
    pub pushed: u8,
    pub push_off: bool,
    /// The cell the leading marble steps into.
    pub front: Cell,
}

/// The three start positions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum StartPosition {
    /// The rule sheet's layout: Black on rows A, B and C3–C5, White mirrored.
    #[default]
    Standard,
    BelgianDaisy,
    GermanDaisy,
}

impl StartPosition {
    pub const ALL: [StartPosition; 3] = [
        StartPosition::Standard,
        StartPosition::BelgianDaisy,
        StartPosition::GermanDaisy,
    ];

    /// Black's cells, then White's.
    fn cells(self) -> [&'static str; 2] {
        match self {
            StartPosition::Standard => [
                "a1 a2 a3 a4 a5 b1 b2 b3 b4 b5 b6 c3 c4 c5",
                "i5 i6 i7 i8 i9 h4 h5 h6 h7 h8 h9 g5 g6 g7",
            ],
            StartPosition::BelgianDaisy => [
                "a1 a2 b1 b2 b3 c2 c3 g7 g8 h7 h8 h9 i8 i9",
                "a4 a5 b4 b5 b6 c5 c6 g4 g5 h4 h5 h6 i5 i6",
            ],
            StartPosition::GermanDaisy => [
                "b1 b2 c1 c2 c3 d2 d3 f7 f8 g7 g8 g9 h8 h9",
                "b5 b6 c5 c6 c7 d6 d7 f3 f4 g3 g4 g5 h4 h5",
            ],
        }
    }

    pub fn position(self) -> Position {
        let mut marbles = [0; 2];
        for (side, names) in self.cells().into_iter().enumerate() {
            for cell in names
                .split(' ')
                .filter_map(|name| name.parse::<Cell>().ok())
            {
                marbles[side] |= cell.bit();
            }
        }
        Position::from_parts(marbles, Color::Black, [0, 0])
    }
}

impl fmt::Display for StartPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StartPosition::Standard => "standard",
            StartPosition::BelgianDaisy => "belgian-daisy",
            StartPosition::GermanDaisy => "german-daisy",
        })
    }
}

impl FromStr for StartPosition {
    type Err = String;

    fn from_str(text: &str) -> Result<StartPosition, String> {
        StartPosition::ALL
            .into_iter()
            .find(|s| s.to_string().eq_ignore_ascii_case(text))
            .ok_or_else(|| {
                format!(
                    "unknown start position '{}': standard, belgian-daisy or german-daisy",
                    crate::text::shorten(text)
                )
            })
    }
}

const fn zobrist_table() -> [[u64; 128]; 2] {
    let mut table = [[0; 128]; 2];
    let mut i = 0;
    while i < 256 {
        table[i / 128][i % 128] = crate::seed::splitmix64(0xABA1_0E00 + i as u64).1;
        i += 1;
    }
    table
}

const ZOBRIST: [[u64; 128]; 2] = zobrist_table();
const ZOBRIST_WHITE_TO_MOVE: u64 = crate::seed::splitmix64(0x5EED).1;
const ZOBRIST_OFF: [[u64; 8]; 2] = {
    let mut table = [[0; 8]; 2];
    let mut i = 0;
    while i < 16 {
        table[i / 8][i % 8] = crate::seed::splitmix64(0x0FF0_0000 + i as u64).1;
        i += 1;
    }
    table
};

/// A position. Copy-make: playing a move returns a new position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    marbles: [Bitboard; 2],
    to_move: Color,
    off: [u8; 2],
    hash: u64,
}

impl Position {
    fn from_parts(marbles: [Bitboard; 2], to_move: Color, off: [u8; 2]) -> Position {
        let mut position = Position {
            marbles,
            to_move,
            off,
            hash: 0,
        };
        position.hash = position.compute_hash();
        position
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = if self.to_move == Color::White {
            ZOBRIST_WHITE_TO_MOVE
        } else {
            0
        };
        for color in Color::BOTH {
            for cell in Cell::iter(self.marbles[color.index()]) {
                hash ^= ZOBRIST[color.index()][cell.index()];
            }
            hash ^= ZOBRIST_OFF[color.index()][usize::from(self.off[color.index()].min(7))];
        }
        hash
    }

    pub fn start(start: StartPosition) -> Position {
        start.position()
    }

    pub fn marbles(&self, color: Color) -> Bitboard {
        self.marbles[color.index()]
    }

    pub fn occupied(&self) -> Bitboard {
        self.marbles[0] | self.marbles[1]
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// How many of `color`'s marbles have been pushed off the board.
    pub fn marbles_off(&self, color: Color) -> u8 {
        self.off[color.index()]
    }

    /// Zobrist key of marbles, side to move and marbles off.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn color_at(&self, cell: Cell) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.marbles(*c) & cell.bit() != 0)
    }

    /// The side that has pushed six off, if any.
    pub fn winner(&self) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.off[c.opponent().index()] >= MARBLES_OFF_TO_WIN)
    }

    /// What the in-line move of the marble at `tail` towards `direction` does, or why the
    /// rules forbid it.
    pub fn inline_effect(
        &self,
        tail: Cell,
        direction: Direction,
    ) -> Result<InlineEffect, IllegalMove> {
        let own = self.marbles[self.to_move.index()];
        let opponent = self.marbles[self.to_move.opponent().index()];
        if own & tail.bit() == 0 {
            return Err(if opponent & tail.bit() != 0 {
                IllegalMove::OpponentsMarble(tail)
            } else {
                IllegalMove::EmptyCell(tail)
            });
        }
        let mut marbles = 1u8;
        let mut last = tail;
        let front = loop {
            let Some(next) = last.step(direction) else {
                return Err(IllegalMove::OwnMarbleOff(last));
            };
            if own & next.bit() == 0 {
                break next;
            }
            marbles += 1;
            if marbles > 3 {
                return Err(IllegalMove::TooManyMarbles);
            }
            last = next;
        };
        if opponent & front.bit() == 0 {
            return Ok(InlineEffect {
                marbles,
                pushed: 0,
                push_off: false,
                front,
            });
        }
        let mut pushed = 1u8;
        let mut cell = front;
        loop {
            if pushed >= marbles {
                return Err(IllegalMove::NotOutnumbered {
                    own: marbles,
                    opponent: pushed,
                });
            }
            let Some(next) = cell.step(direction) else {
                return Ok(InlineEffect {
                    marbles,
                    pushed,
                    push_off: true,
                    front,
                });
            };
            if own & next.bit() != 0 {
                return Err(IllegalMove::PushBlocked(next));
            }
            if opponent & next.bit() == 0 {
                return Ok(InlineEffect {
                    marbles,
                    pushed,
                    push_off: false,
                    front,
                });
            }
            pushed += 1;
            cell = next;
        }
    }

    /// Whether `mv` is legal for the side to move; the reason when it is not.
    pub fn check(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.winner().is_some() {
            return Err(IllegalMove::GameOver);
        }
        match mv {
            Move::Inline { tail, direction } => self.inline_effect(tail, direction).map(|_| ()),
            Move::Broadside { direction, .. } => {
                let own = self.marbles[self.to_move.index()];
                let opponent = self.marbles[self.to_move.opponent().index()];
                for cell in Cell::iter(mv.broadside_group()) {
                    if own & cell.bit() == 0 {
                        return Err(if opponent & cell.bit() != 0 {
                            IllegalMove::OpponentsMarble(cell)
                        } else {
                            IllegalMove::EmptyCell(cell)
                        });
                    }
                }
                for cell in Cell::iter(mv.broadside_group()) {
                    match cell.step(direction) {
                        None => return Err(IllegalMove::OwnMarbleOff(cell)),
                        Some(to) if self.occupied() & to.bit() != 0 => {
                            return Err(IllegalMove::BroadsideBlocked(to));
                        }
                        Some(_) => {}
                    }
                }
                Ok(())
            }
        }
    }

    /// `mv` played after [`Position::check`]; the reason when it is illegal.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMove> {
        self.check(mv)?;
        Ok(self.play_unchecked(mv))
    }

    /// `mv` played without asking whether it is legal: for moves from [`Position::legal_moves`].
    /// An illegal move gives a position the rules cannot reach (never a panic).
    pub fn play_unchecked(&self, mv: Move) -> Position {
        let me = self.to_move.index();
        let them = 1 - me;
        let mut next = *self;
        match mv {
            Move::Inline { tail, direction } => {
                let Ok(effect) = self.inline_effect(tail, direction) else {
                    return next.pass_turn();
                };
                next.remove(me, tail);
                next.add(me, effect.front);
                if effect.pushed > 0 {
                    next.remove(them, effect.front);
                    let mut end = Some(effect.front);
                    for _ in 0..effect.pushed {
                        end = end.and_then(|c| c.step(direction));
                    }
                    match end {
                        Some(cell) => next.add(them, cell),
                        None => next.push_off(them),
                    }
                }
            }
            Move::Broadside { direction, .. } => {
                let group = mv.broadside_group() & self.marbles[me];
                let moved = shift(group, direction);
                for cell in Cell::iter(group) {
                    next.remove(me, cell);
                }
                for cell in Cell::iter(moved) {
                    next.add(me, cell);
                }
            }
        }
        next.pass_turn()
    }

    fn remove(&mut self, side: usize, cell: Cell) {
        self.marbles[side] &= !cell.bit();
        self.hash ^= ZOBRIST[side][cell.index()];
    }

    fn add(&mut self, side: usize, cell: Cell) {
        self.marbles[side] |= cell.bit();
        self.hash ^= ZOBRIST[side][cell.index()];
    }

    fn push_off(&mut self, side: usize) {
        let before = usize::from(self.off[side].min(7));
        self.off[side] = self.off[side].saturating_add(1);
        let after = usize::from(self.off[side].min(7));
        self.hash ^= ZOBRIST_OFF[side][before] ^ ZOBRIST_OFF[side][after];
    }

    fn pass_turn(mut self) -> Position {
        self.to_move = self.to_move.opponent();
        self.hash ^= ZOBRIST_WHITE_TO_MOVE;
        self
    }

    /// Every legal move of the side to move (none once the game is won).
    pub fn legal_moves(&self, list: &mut MoveList) {
        list.len = 0;
        if self.winner().is_some() {
            return;
        }
        let own = self.marbles[self.to_move.index()];
        let empty = !self.occupied();
        for tail in Cell::iter(own) {
            for direction in Direction::ALL {
                if self.inline_effect(tail, direction).is_ok() {
                    list.push(Move::Inline { tail, direction });
                }
            }
        }
        for axis in Direction::AXES {
            let pairs = own & shift(own, axis.opposite());
            for start in Cell::iter(pairs) {
                let two = start.bit() | shift(start.bit(), axis);
                let three = two | shift(two, axis);
                let has_third = three & own == three && three != two;
                for direction in Direction::ALL {
                    if direction.is_along(axis) {
                        continue;
                    }
                    let to = shift(two, direction);
                    if to.count_ones() != 2 || to & !empty != 0 {
                        continue;
                    }
                    list.push(Move::Broadside {
                        start,
                        axis,
                        length: 2,
                        direction,
                    });
                    if has_third {
                        let to = shift(three, direction);
                        if to.count_ones() == 3 && to & !empty == 0 {
                            list.push(Move::Broadside {
                                start,
                                axis,
                                length: 3,
                                direction,
                            });
                        }
                    }
                }
            }
        }
    }

    /// The in-line moves that push an opponent's marble off the board.
    pub fn push_off_moves(&self, list: &mut MoveList) {
        list.len = 0;
        if self.winner().is_some() {
            return;
        }
        let own = self.marbles[self.to_move.index()];
        let opponent = self.marbles[self.to_move.opponent().index()];
        for direction in Direction::ALL {
            // Only an opponent's marble with the edge right behind it can go off this way.
            let at_edge = opponent & !shift(super::board::BOARD_MASK, direction.opposite());
            if at_edge == 0 {
                continue;
            }
            for tail in Cell::iter(own) {
                if let Ok(effect) = self.inline_effect(tail, direction)
                    && effect.push_off
                {
                    list.push(Move::Inline { tail, direction });
                }
            }
        }
    }

    /// The same marbles with the other side to move (the search's null move).
    pub fn with_turn_passed(&self) -> Position {
        self.pass_turn()
    }

    /// Whether the side to move has any legal move (cheaper than listing them).
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.legal_moves(&mut list);
        !list.is_empty()
    }
}

/// A position string that breaks a rule, with the rule named.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PositionError {}

/// The compact position string: the rows from I down to A separated by `/`, each row by
/// ascending diagonal with `b` black, `w` white and a digit for a run of empty cells; then
/// the side to move (`b` or `w`), then how many black and how many white marbles are off.
/// The standard start is `wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0`.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rows = Vec::with_capacity(9);
        for row in (0..9i8).rev() {
            let mut text = String::new();
            let mut gap = 0;
            for col in 0..9i8 {
                let Some(cell) = Cell::at(row, col) else {
                    continue;
                };
                match self.color_at(cell) {
                    None => gap += 1,
                    Some(color) => {
                        if gap > 0 {
                            text.push_str(&gap.to_string());
                            gap = 0;
                        }
                        text.push(color.letter());
                    }
                }
            }
            if gap > 0 {
                text.push_str(&gap.to_string());
            }
            rows.push(text);
        }
        write!(
            f,
            "{} {} {} {}",
            rows.join("/"),
            self.to_move.letter(),
            self.off[0],
            self.off[1]
        )
    }
}

impl FromStr for Position {
    type Err = PositionError;

    fn from_str(text: &str) -> Result<Position, PositionError> {
        let error = |why: String| PositionError(why);
        let fields: Vec<&str> = text.split_whitespace().collect();
        let [board, side, black_off, white_off] = fields[..] else {
            return Err(error(format!(
                "expected 4 fields (rows, side to move, black marbles off, white marbles off), got {}",
                fields.len()
            )));
        };
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != 9 {
            return Err(error(format!(
                "expected 9 rows separated by '/', got {}",
                rows.len()
            )));
        }
        let mut marbles = [0u128; 2];
        for (row, row_text) in (0..9i8).rev().zip(&rows) {
            let name = (b'a' + row as u8) as char;
            let cells: Vec<Cell> = (0..9).filter_map(|col| Cell::at(row, col)).collect();
            let mut next = 0usize;
            for symbol in row_text.chars() {
                let color = match symbol {
                    'b' | 'B' => Some(Color::Black),
                    'w' | 'W' => Some(Color::White),
                    '1'..='9' => None,
                    other => {
                        return Err(error(format!(
                            "row {name}: '{other}' is not b, w or a digit counting empty cells"
                        )));
                    }
                };
                let count = symbol.to_digit(10).map_or(1, |d| d as usize);
                if next + count > cells.len() {
                    return Err(error(format!(
                        "row {name} has {} cells, the text describes more",
                        cells.len()
                    )));
                }
                if let Some(color) = color {
                    marbles[color.index()] |= cells[next].bit();
                }
                next += count;
            }
            if next != cells.len() {
                return Err(error(format!(
                    "row {name} has {} cells, the text describes {next}",
                    cells.len()
                )));
            }
        }
        let to_move: Color = side.parse().map_err(|_| {
            error(format!(
                "side to move must be b or w, got '{}'",
                crate::text::shorten(side)
            ))
        })?;
        let mut off = [0u8; 2];
        for (color, field) in Color::BOTH.into_iter().zip([black_off, white_off]) {
            let count: u8 = field.parse().map_err(|_| {
                error(format!(
                    "{color} marbles off must be a number, got '{}'",
                    crate::text::shorten(field)
                ))
            })?;
            if count > MARBLES_OFF_TO_WIN {
                return Err(error(format!(
                    "{count} {color} marbles off: the game ends when the sixth is pushed off"
                )));
            }
            let on_board = marbles[color.index()].count_ones() as u8;
            if on_board + count > MARBLES_PER_SIDE {
                return Err(error(format!(
                    "{color} has {on_board} marbles on the board and {count} off: a side has only {MARBLES_PER_SIDE}"
                )));
            }
            off[color.index()] = count;
        }
        if let Some(loser) = Color::BOTH
            .into_iter()
            .find(|c| off[c.index()] == MARBLES_OFF_TO_WIN)
        {
            if off[loser.opponent().index()] == MARBLES_OFF_TO_WIN {
                return Err(error("both sides cannot have lost six marbles".into()));
            }
            if to_move != loser {
                return Err(error(format!(
                    "{} pushed the sixth {loser} marble off, so {loser} must be the side to move",
                    loser.opponent()
                )));
            }
        }
        Ok(Position::from_parts(marbles, to_move, off))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(position: &Position) -> usize {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        list.len()
    }

    #[test]
    fn start_positions_have_the_published_move_counts() {
        assert_eq!(count(&StartPosition::Standard.position()), 44);
        assert_eq!(count(&StartPosition::BelgianDaisy.position()), 52);
        assert_eq!(count(&StartPosition::GermanDaisy.position()), 80);
    }

    #[test]
    fn position_strings_round_trip() {
        let standard = StartPosition::Standard.position();
        assert_eq!(
            standard.to_string(),
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 0 0"
        );
        for start in StartPosition::ALL {
            let position = start.position();
            assert_eq!(position.to_string().parse::<Position>(), Ok(position));
        }
        assert!(
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb x 0 0"
                .parse::<Position>()
                .is_err()
        );
        assert!(
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbbb b 0 0"
                .parse::<Position>()
                .is_err()
        );
        assert!(
            "wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b 1 0"
                .parse::<Position>()
                .is_err()
        );
    }
}
