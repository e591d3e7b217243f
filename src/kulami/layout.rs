//! Layouts: where the 17 tiles lie. The rule book's default 8×8 arrangement, any valid
//! arrangement given as text, or a seeded random one.
//!
//! Text form: one row a line (or rows separated by `/`), top row first, one letter a hole
//! naming its tile, `.` where there is no hole; spaces inside a row are ignored. Empty rows
//! and columns at the border are dropped, so cell names always start at `a1`.

use std::fmt;
use std::str::FromStr;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::cell::{Cell, FIELD, MAX_SIDE, STRIDE, cells};

/// Tiles on a Kulami board.
pub const TILE_COUNT: usize = 17;

/// Tile kinds: (holes, long side, short side, how many a board has).
pub const TILE_KINDS: [(u32, u8, u8, usize); 4] =
    [(6, 3, 2, 4), (4, 2, 2, 5), (3, 3, 1, 4), (2, 2, 1, 4)];

/// The rule book's default arrangement (RULES.md, Kulami).
pub const DEFAULT_TEXT: &str =
    "AABBCCDD/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ";

const NO_TILE: u8 = u8::MAX;

/// A validated arrangement of the 17 tiles.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    width: u8,
    height: u8,
    holes: u128,
    /// Tile masks, in the order of their letters.
    tiles: [u128; TILE_COUNT],
    letters: [u8; TILE_COUNT],
    /// The tile of every bit index, `NO_TILE` off the board.
    tile_of: [u8; 128],
}

/// Why a layout text is not a Kulami board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    Empty,
    BadCharacter(char),
    RaggedRows {
        row: usize,
        cells: usize,
        expected: usize,
    },
    TooLarge {
        width: usize,
        height: usize,
    },
    NotRectangle(char),
    BadShape {
        letter: char,
        width: u8,
        height: u8,
    },
    WrongCount {
        holes: u32,
        found: usize,
        expected: usize,
    },
    Disconnected,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LayoutError::Empty => f.write_str("the layout has no holes"),
            LayoutError::BadCharacter(c) => write!(
                f,
                "'{}' is not a tile letter: use A-Z for holes and '.' for no hole",
                c.escape_default()
            ),
            LayoutError::RaggedRows {
                row,
                cells,
                expected,
            } => write!(
                f,
                "row {row} from the top has {cells} cells, the first row {expected}: pad with '.'"
            ),
            LayoutError::TooLarge { width, height } => write!(
                f,
                "the tiles span {width}x{height}: they must fit inside 10x10"
            ),
            LayoutError::NotRectangle(letter) => {
                write!(f, "tile {letter} is not one filled rectangle")
            }
            LayoutError::BadShape {
                letter,
                width,
                height,
            } => write!(
                f,
                "tile {letter} is {width}x{height}: tiles are 2x3, 2x2, 1x3 or 1x2 (either way round)"
            ),
            LayoutError::WrongCount {
                holes,
                found,
                expected,
            } => write!(
                f,
                "{found} tiles of {holes} holes: a Kulami board has {expected} (4 of 6, 5 of 4, 4 of 3, 4 of 2)"
            ),
            LayoutError::Disconnected => f.write_str(
                "the tiles do not form one board: every hole must connect to the others",
            ),
        }
    }
}

impl std::error::Error for LayoutError {}

impl Layout {
    /// The rule book's default 8×8 arrangement.
    pub fn standard() -> Layout {
        match DEFAULT_TEXT.parse() {
            Ok(layout) => layout,
            Err(error) => unreachable!("the default layout is valid: {error}"),
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// The side of the square board GoGui draws: the longer side.
    pub fn board_size(&self) -> u8 {
        self.width.max(self.height)
    }

    /// Every hole, as a bitboard.
    pub fn holes(&self) -> u128 {
        self.holes
    }

    pub fn is_hole(&self, cell: Cell) -> bool {
        cell.col < MAX_SIDE && cell.row < MAX_SIDE && self.holes & cell.bit() != 0
    }

    /// The tile masks, in letter order.
    pub fn tiles(&self) -> &[u128; TILE_COUNT] {
        &self.tiles
    }

    /// The index of the tile holding `cell`, if it is a hole.
    pub fn tile_index(&self, cell: Cell) -> Option<usize> {
        let tile = *self.tile_of.get(cell.index() as usize)?;
        (tile != NO_TILE).then_some(usize::from(tile))
    }

    /// The mask of the tile holding `cell` (empty off the board).
    pub fn tile_mask(&self, cell: Cell) -> u128 {
        self.tile_index(cell).map_or(0, |t| self.tiles[t])
    }

    pub fn tile_letter(&self, tile: usize) -> char {
        self.letters.get(tile).map_or('?', |&b| b as char)
    }

    /// The letter of the tile at `cell`, `None` where there is no hole.
    pub fn letter_at(&self, cell: Cell) -> Option<char> {
        self.tile_index(cell).map(|t| self.tile_letter(t))
    }

    /// The layout as text, one row a line, top row first.
    pub fn to_grid(&self) -> String {
        self.rows().join("\n")
    }

    fn rows(&self) -> Vec<String> {
        (0..self.height)
            .rev()
            .map(|row| {
                (0..self.width)
                    .map(|col| self.letter_at(Cell::new(col, row)).unwrap_or('.'))
                    .collect()
            })
            .collect()
    }

    /// A random valid layout inside 10×10 drawn from `seed`: the tiles, largest first, each
    /// turned at random and put at a random free place touching the tiles already down.
    pub fn random(seed: u64) -> Layout {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        loop {
            if let Some(layout) = Layout::try_random(&mut rng) {
                return layout;
            }
        }
    }

    fn try_random(rng: &mut ChaCha8Rng) -> Option<Layout> {
        let mut shapes: Vec<(u8, u8)> = Vec::new();
        for &(_, long, short, count) in &TILE_KINDS {
            for _ in 0..count {
                shapes.push(if rng.random_bool(0.5) {
                    (long, short)
                } else {
                    (short, long)
                });
            }
        }
        // Largest first packs well; the order within a size is shuffled for variety.
        shapes.shuffle(rng);
        shapes.sort_by_key(|&(w, h)| std::cmp::Reverse(u32::from(w) * u32::from(h)));
        let mut occupied = 0u128;
        let mut grid = [[b'.'; MAX_SIDE as usize]; MAX_SIDE as usize];
        for (tile, &(w, h)) in shapes.iter().enumerate() {
            let grown = grow(occupied);
            let mut places = Vec::new();
            for row in 0..=(MAX_SIDE - h) {
                for col in 0..=(MAX_SIDE - w) {
                    let mask = rectangle(col, row, w, h);
                    let touches = occupied == 0 || mask & grown != 0;
                    if mask & occupied == 0 && touches {
                        places.push((col, row, mask));
                    }
                }
            }
            if places.is_empty() {
                return None;
            }
            let (col, row, mask) = places[rng.random_range(0..places.len())];
            occupied |= mask;
            for cell in cells(mask) {
                grid[usize::from(MAX_SIDE - 1 - cell.row)][usize::from(cell.col)] =
                    b'A' + tile as u8;
            }
            let _ = (col, row);
        }
        let text: Vec<String> = grid
            .iter()
            .map(|row| row.iter().map(|&b| b as char).collect())
            .collect();
        text.join("/").parse().ok()
    }
}

fn rectangle(col: u8, row: u8, width: u8, height: u8) -> u128 {
    let mut mask = 0u128;
    for r in row..row + height {
        for c in col..col + width {
            mask |= Cell::new(c, r).bit();
        }
    }
    mask
}

/// The cells orthogonally next to `board`, and `board` itself.
pub fn grow(board: u128) -> u128 {
    (board | board << 1 | board >> 1 | board << STRIDE | board >> STRIDE) & FIELD
}

impl FromStr for Layout {
    type Err = LayoutError;

    fn from_str(text: &str) -> Result<Layout, LayoutError> {
        let mut rows: Vec<Vec<char>> = text
            .split(['\n', '/'])
            .map(|row| {
                row.chars()
                    .filter(|c| !c.is_whitespace())
                    .collect::<Vec<char>>()
            })
            .collect();
        // Blank lines (a trailing newline, say) carry nothing.
        rows.retain(|row| !row.is_empty());
        if let Some(c) = rows
            .iter()
            .flatten()
            .find(|c| !c.is_ascii_alphabetic() && **c != '.')
        {
            return Err(LayoutError::BadCharacter(*c));
        }
        let expected = rows.first().map_or(0, Vec::len);
        if let Some((row, cells)) = rows.iter().enumerate().find(|(_, r)| r.len() != expected) {
            return Err(LayoutError::RaggedRows {
                row: row + 1,
                cells: cells.len(),
                expected,
            });
        }
        // Drop empty border rows and columns so that the board starts at a1.
        let has_hole = |c: &char| *c != '.';
        while rows.first().is_some_and(|r| !r.iter().any(has_hole)) {
            rows.remove(0);
        }
        while rows.last().is_some_and(|r| !r.iter().any(has_hole)) {
            rows.pop();
        }
        if rows.is_empty() {
            return Err(LayoutError::Empty);
        }
        let column_used = |col: usize| rows.iter().any(|r| r[col] != '.');
        let first = (0..expected).find(|&c| column_used(c)).unwrap_or(0);
        let last = (0..expected).rev().find(|&c| column_used(c)).unwrap_or(0);
        let (width, height) = (last + 1 - first, rows.len());
        if width > usize::from(MAX_SIDE) || height > usize::from(MAX_SIDE) {
            return Err(LayoutError::TooLarge { width, height });
        }
        let mut by_letter = [0u128; 26];
        for (r, row) in rows.iter().enumerate() {
            for (c, &ch) in row[first..=last].iter().enumerate() {
                if ch != '.' {
                    let cell = Cell::new(c as u8, (height - 1 - r) as u8);
                    by_letter[usize::from(ch.to_ascii_uppercase() as u8 - b'A')] |= cell.bit();
                }
            }
        }
        let mut tiles = Vec::new();
        let mut letters = Vec::new();
        let mut found = [0usize; TILE_KINDS.len()];
        for (i, &mask) in by_letter.iter().enumerate().filter(|(_, m)| **m != 0) {
            let letter = (b'A' + i as u8) as char;
            let (w, h) = bounding_box(mask);
            if mask != rectangle(min_col(mask), (mask.trailing_zeros() / STRIDE) as u8, w, h) {
                return Err(LayoutError::NotRectangle(letter));
            }
            let (long, short) = (w.max(h), w.min(h));
            let kind = TILE_KINDS
                .iter()
                .position(|&(_, l, s, _)| (l, s) == (long, short))
                .ok_or(LayoutError::BadShape {
                    letter,
                    width: w,
                    height: h,
                })?;
            found[kind] += 1;
            tiles.push(mask);
            letters.push(letter as u8);
        }
        for (kind, &(holes, _, _, expected)) in TILE_KINDS.iter().enumerate() {
            if found[kind] != expected {
                return Err(LayoutError::WrongCount {
                    holes,
                    found: found[kind],
                    expected,
                });
            }
        }
        let holes = tiles.iter().fold(0u128, |all, t| all | t);
        let mut reached = 1u128 << holes.trailing_zeros();
        loop {
            let next = grow(reached) & holes;
            if next == reached {
                break;
            }
            reached = next;
        }
        if reached != holes {
            return Err(LayoutError::Disconnected);
        }
        let mut layout = Layout {
            width: width as u8,
            height: height as u8,
            holes,
            tiles: [0; TILE_COUNT],
            letters: [0; TILE_COUNT],
            tile_of: [NO_TILE; 128],
        };
        for (t, (&mask, &letter)) in tiles.iter().zip(&letters).enumerate() {
            layout.tiles[t] = mask;
            layout.letters[t] = letter;
            for cell in cells(mask) {
                layout.tile_of[cell.index() as usize] = t as u8;
            }
        }
        Ok(layout)
    }
}

fn min_col(mask: u128) -> u8 {
    cells(mask).map(|c| c.col).min().unwrap_or(0)
}

fn bounding_box(mask: u128) -> (u8, u8) {
    let (mut cols, mut rows) = ((u8::MAX, 0u8), (u8::MAX, 0u8));
    for cell in cells(mask) {
        cols = (cols.0.min(cell.col), cols.1.max(cell.col));
        rows = (rows.0.min(cell.row), rows.1.max(cell.row));
    }
    (cols.1 + 1 - cols.0, rows.1 + 1 - rows.0)
}

/// The compact form: rows separated by `/`, top row first (one GTP argument).
impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rows().join("/"))
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_layout_matches_the_rule_book() {
        let layout = Layout::standard();
        assert_eq!((layout.width(), layout.height()), (8, 8));
        assert_eq!(layout.holes().count_ones(), 64);
        let size = |letter: char| {
            let t = layout
                .letters
                .iter()
                .position(|&l| l as char == letter)
                .expect("letter");
            layout.tiles()[t].count_ones()
        };
        for (letters, holes) in [("EFHI", 6), ("BKOPQ", 4), ("JLMN", 3), ("ACDG", 2)] {
            for letter in letters.chars() {
                assert_eq!(size(letter), holes, "tile {letter}");
            }
        }
        assert_eq!(layout.letter_at("d5".parse().expect("cell")), Some('H'));
        assert_eq!(layout.letter_at("h1".parse().expect("cell")), Some('Q'));
        assert_eq!(layout.to_string(), DEFAULT_TEXT);
    }

    #[test]
    fn random_layouts_are_valid_and_seeded() {
        for seed in 0..200 {
            let layout = Layout::random(seed);
            assert_eq!(layout.holes().count_ones(), 64);
            assert_eq!(layout.to_string().parse::<Layout>().as_ref(), Ok(&layout));
            assert_eq!(Layout::random(seed), layout);
        }
        assert_ne!(Layout::random(1), Layout::random(2));
    }
}
