//! Moves as geometry: an in-line move (a marble and the line in front of it stepping
//! along it) or a broadside (two or three marbles in a row stepping sideways). Their text,
//! the AbaPro notation, is in [`super::notation`].

use super::board::{Bitboard, Cell, Direction};

/// A move, as geometry only: whether it is legal depends on the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// The marble at `tail` and the line of the mover's marbles in front of it step in
    /// `direction`, pushing what the rules allow.
    Inline { tail: Cell, direction: Direction },
    /// `length` (2 or 3) marbles from `start` along `axis` (one of [`Direction::AXES`], so
    /// `start` is the group's lowest cell) step sideways in `direction`.
    Broadside {
        start: Cell,
        axis: Direction,
        length: u8,
        direction: Direction,
    },
}

impl Move {
    pub fn direction(self) -> Direction {
        match self {
            Move::Inline { direction, .. } | Move::Broadside { direction, .. } => direction,
        }
    }

    /// The cells of a broadside group; empty for an in-line move (its group depends on
    /// the position).
    pub fn broadside_group(self) -> Bitboard {
        match self {
            Move::Inline { .. } => 0,
            Move::Broadside {
                start,
                axis,
                length,
                ..
            } => {
                let mut bits = 0;
                let mut cell = Some(start);
                for _ in 0..length {
                    if let Some(c) = cell {
                        bits |= c.bit();
                        cell = c.step(axis);
                    }
                }
                bits
            }
        }
    }

    /// The other end of a broadside group of `length` marbles from `start` along `axis`.
    pub(super) fn broadside_end(start: Cell, axis: Direction, length: u8) -> Cell {
        let mut end = start;
        for _ in 1..length {
            end = end.step(axis).unwrap_or(end);
        }
        end
    }
}
