//! The AbaPro / Abalone Online notation of moves: [`Move`]'s `Display` and `FromStr`.
//!
//! - In-line: two cells, the trailing marble and the cell it steps to: `a1b2`. The group is
//!   the line of the mover's marbles that starts at the trailing marble and runs in the
//!   direction of the step; a single marble is written the same way.
//! - Broadside: three cells, the two ends of the group and the cell the first-written end
//!   steps to: `c6c7d6` (c6 and c7 move to d6 and d7). The ends may come in either order:
//!   `c7c6d7` is the same move. The canonical spelling puts the lower end first (row A
//!   before I, then the lower diagonal).
//!
//! Moves are written in lower case and read in either case. Cells (`a1` … `i9`) are named
//! by [`super::board::Cell`]'s own text.

use std::fmt;
use std::str::FromStr;

use super::board::{Cell, Direction};
use super::moves::Move;
use crate::text::shorten;

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Inline { tail, direction } => match tail.step(direction) {
                Some(to) => write!(f, "{tail}{to}"),
                // Never legal, but still written so that a log can show it.
                None => write!(f, "{tail}{direction:?}"),
            },
            Move::Broadside {
                start,
                axis,
                length,
                direction,
            } => {
                let end = Move::broadside_end(start, axis, length);
                // The lower end comes first unless its destination is off the board (an
                // illegal move, but one the notation can still name from the other end).
                match (start.step(direction), end.step(direction)) {
                    (Some(to), _) => write!(f, "{start}{end}{to}"),
                    (None, Some(to)) => write!(f, "{end}{start}{to}"),
                    (None, None) => write!(f, "{start}{end}{direction:?}"),
                }
            }
        }
    }
}

/// Move text that does not describe a move, whatever the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotationError(pub String);

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NotationError {}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Move, NotationError> {
        let shown = shorten(text);
        let malformed = || {
            NotationError(format!(
                "malformed move '{shown}': write an in-line move as the trailing marble and its \
                 destination (a1b2), a broadside as its two ends and the first end's destination (c6c7d6)"
            ))
        };
        if !text.is_ascii() || !(text.len() == 4 || text.len() == 6) {
            return Err(malformed());
        }
        let cells: Vec<Cell> = (0..text.len() / 2)
            .map(|i| text[2 * i..2 * i + 2].parse::<Cell>())
            .collect::<Result<_, _>>()
            .map_err(|error| NotationError(format!("malformed move '{shown}': {error}")))?;
        let error = |why: &str| NotationError(format!("malformed move '{shown}': {why}"));
        match cells[..] {
            [tail, to] => {
                let direction = Direction::between(tail, to)
                    .ok_or_else(|| error("the two cells of an in-line move must be neighbours"))?;
                Ok(Move::Inline { tail, direction })
            }
            [first, second, to] => {
                let direction = Direction::between(first, to).ok_or_else(|| {
                    error("the third cell must be the neighbour the first end moves to")
                })?;
                let (low, high) = if first < second {
                    (first, second)
                } else {
                    (second, first)
                };
                let (axis, length) = Direction::AXES
                    .into_iter()
                    .find_map(|axis| {
                        let one = low.step(axis)?;
                        if one == high {
                            return Some((axis, 2));
                        }
                        (one.step(axis)? == high).then_some((axis, 3))
                    })
                    .ok_or_else(|| {
                        error("the two ends of a broadside must be 1 or 2 steps apart in a straight line")
                    })?;
                if direction.is_along(axis) {
                    return Err(error(
                        "a broadside moves sideways; a group moving along its own line is an in-line move",
                    ));
                }
                Ok(Move::Broadside {
                    start: low,
                    axis,
                    length,
                    direction,
                })
            }
            _ => Err(malformed()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_normalises_the_broadside_ends() {
        for text in ["a1b2", "c3c4", "e5d5", "c6c7d6", "a1a3b1", "b2d4b3"] {
            let mv: Move = text.parse().expect(text);
            assert_eq!(mv.to_string(), text);
        }
        let reversed: Move = "C7C6D7".parse().expect("upper case, reversed ends");
        assert_eq!(reversed.to_string(), "c6c7d6");
        // The lower end b1 would step off the board: the move is named from b2.
        let off: Move = "b2b1a1".parse().expect("named from the end that stays on");
        assert_eq!(off.to_string(), "b2b1a1");
        assert!("a1c3".parse::<Move>().is_err());
        assert!("a1a2a3".parse::<Move>().is_err(), "sideways only");
        assert!("a1a4b1".parse::<Move>().is_err(), "too long");
        assert!("a1b3b1".parse::<Move>().is_err(), "not in line");
        assert!("a1".parse::<Move>().is_err());
        assert!("a1z2".parse::<Move>().is_err());
        assert!("a1b2é".parse::<Move>().is_err());
    }
}
