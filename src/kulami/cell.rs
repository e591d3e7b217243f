//! Cells and bitboards: a cell of the field, its bit, its row and column, and the cells
//! of a board. Their text (`d5`) is in [`super::notation`].

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
}

/// Iterates over the cells of a bitboard, lowest bit first.
pub fn cells(mut board: u128) -> impl Iterator<Item = Cell> {
    std::iter::from_fn(move || {
        let cell = Cell::lowest(board)?;
        board &= board - 1;
        Some(cell)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
