//! A move entered one cell at a time, for GoGui (`hamle abalone --gogui`).
//!
//! GoGui's moves are single points, while an Abalone move names two or three cells. Under
//! `--gogui` a move is therefore made of clicks, and the side to move keeps the turn until
//! its move is complete:
//!
//! 1. Click each marble that moves (one to three of your own, in a straight contiguous line,
//!    in any order).
//! 2. Click where they go. For an in-line move that is the cell in front of the line (empty
//!    or an opponent's marble, which is pushed); for a broadside it is the cell the **first
//!    marble clicked** steps to.
//!
//! The last click is never one of the mover's own marbles (an in-line move's front cell and
//! a broadside's destinations hold none), so a click on an own marble always selects it and
//! any other click ends the move. The rule for broadsides settles the one ambiguity: a
//! destination next to two selected marbles (`a1 a2 a3` and `b2`) could be either of two
//! broadsides. The front cell of a line is never a broadside destination of any of its
//! marbles, so the two kinds never collide.
//!
//! GoGui names a cell by its diagonal as a letter (`A`–`H`, `J`) and its row as a number:
//! GoGui's `D3` is our `c4`.

use std::fmt;

use super::board::{Bitboard, Cell, Direction};
use super::moves::Move;
use super::position::{MoveList, Position};

/// GoGui's name of `cell`: the diagonal as a letter (no `I`), the row as a number.
pub fn gogui_vertex(cell: Cell) -> String {
    let column = b"ABCDEFGHJ"[cell.col() as usize] as char;
    format!("{column}{}", cell.row() + 1)
}

/// A cell from GoGui's name of it (either case); `None` when it names no cell of the
/// hexagon.
pub fn parse_gogui_vertex(text: &str) -> Option<Cell> {
    let bytes = text.as_bytes();
    if bytes.len() != 2 {
        return None;
    }
    let col = b"ABCDEFGHJ"
        .iter()
        .position(|&letter| letter == bytes[0].to_ascii_uppercase())?;
    let row = bytes[1].checked_sub(b'1').filter(|row| *row < 9)?;
    Cell::at(row as i8, col as i8)
}

/// The marbles `mv` moves, when it is legal in `position` (empty otherwise).
pub fn moving_marbles(position: &Position, mv: Move) -> Bitboard {
    match mv {
        Move::Inline { tail, direction } => match position.inline_effect(tail, direction) {
            Ok(effect) => {
                let mut bits = 0;
                let mut cell = Some(tail);
                for _ in 0..effect.marbles {
                    if let Some(c) = cell {
                        bits |= c.bit();
                        cell = c.step(direction);
                    }
                }
                bits
            }
            Err(_) => 0,
        },
        Move::Broadside { .. } => mv.broadside_group(),
    }
}

fn bits_of(cells: &[Cell]) -> Bitboard {
    cells.iter().fold(0, |bits, cell| bits | cell.bit())
}

/// The move that clicking `target` completes after the marbles `selected` (in click order),
/// whatever its legality; `None` when no move has that shape.
pub fn completed_move(selected: &[Cell], target: Cell) -> Option<Move> {
    let first = *selected.first()?;
    let group = bits_of(selected);
    if selected.len() == 1 {
        let direction = Direction::between(first, target)?;
        return Some(Move::Inline {
            tail: first,
            direction,
        });
    }
    // The group's line, and its lowest cell along it (the broadside's start).
    let start = Cell::iter(group).next()?;
    let axis = Direction::AXES.into_iter().find(|axis| {
        let mut cell = Some(start);
        let mut line = 0;
        for _ in 0..selected.len() {
            if let Some(c) = cell {
                line |= c.bit();
                cell = c.step(*axis);
            }
        }
        line == group
    })?;
    // In-line: the target is in front of one end, and the line moves towards it.
    for direction in [axis, axis.opposite()] {
        let front_of = selected
            .iter()
            .find(|cell| cell.step(direction) == Some(target))
            .filter(|cell| cell.step(direction).is_some_and(|t| t.bit() & group == 0));
        if front_of.is_some() {
            let tail = selected
                .iter()
                .copied()
                .find(|cell| {
                    cell.step(direction.opposite())
                        .is_none_or(|behind| behind.bit() & group == 0)
                })
                .unwrap_or(first);
            return Some(Move::Inline { tail, direction });
        }
    }
    // Broadside: the target is where the first marble clicked steps.
    let direction = Direction::between(first, target)?;
    if direction.is_along(axis) {
        return None;
    }
    Some(Move::Broadside {
        start,
        axis,
        length: selected.len() as u8,
        direction,
    })
}

/// Why a click was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClickError {
    AlreadySelected(Cell),
    /// An own marble that moves with the selection in no legal move.
    CannotJoin {
        cell: Cell,
        selected: Vec<Cell>,
    },
    /// A cell that ends no legal move of the selection (or, with nothing selected, a cell
    /// that is not one of the mover's marbles that can move).
    NoMove {
        cell: Cell,
        selected: Vec<Cell>,
    },
}

fn cells_text(cells: &[Cell]) -> String {
    cells
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

impl fmt::Display for ClickError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClickError::AlreadySelected(cell) => write!(
                f,
                "{cell} is already selected (undo takes the last click back)"
            ),
            ClickError::CannotJoin { cell, selected } => write!(
                f,
                "{cell} moves with {} in no legal move: select marbles in one straight line, at most 3",
                cells_text(selected)
            ),
            ClickError::NoMove { cell, selected } if selected.is_empty() => write!(
                f,
                "{cell} is not a marble of yours that can move: click a marble to select it first"
            ),
            ClickError::NoMove { cell, selected } => write!(
                f,
                "{cell} ends no legal move of {}: click the cell in front of the line (in-line) or where {} goes (broadside)",
                cells_text(selected),
                selected[0]
            ),
        }
    }
}

impl std::error::Error for ClickError {}

/// What a click did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Click {
    /// The marble joined the selection; the same side clicks again.
    Selected(Cell),
    /// The click completed this legal move.
    Completed(Move),
}

/// The meaning of clicking `cell` after `selected` (click order) in `position`.
pub fn click(position: &Position, selected: &[Cell], cell: Cell) -> Result<Click, ClickError> {
    if selected.contains(&cell) {
        return Err(ClickError::AlreadySelected(cell));
    }
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    let own = position.marbles(position.to_move());
    if own & cell.bit() != 0 {
        let wanted = bits_of(selected) | cell.bit();
        if legal
            .iter()
            .any(|mv| moving_marbles(position, mv) & wanted == wanted)
        {
            return Ok(Click::Selected(cell));
        }
        return Err(if selected.is_empty() {
            ClickError::NoMove {
                cell,
                selected: Vec::new(),
            }
        } else {
            ClickError::CannotJoin {
                cell,
                selected: selected.to_vec(),
            }
        });
    }
    let no_move = || ClickError::NoMove {
        cell,
        selected: selected.to_vec(),
    };
    let mv = completed_move(selected, cell).ok_or_else(no_move)?;
    // The move must move exactly the selection: `completed_move` gives its shape, the
    // legal list and the marbles it moves confirm it.
    if legal.iter().any(|m| m == mv) && moving_marbles(position, mv) == bits_of(selected) {
        Ok(Click::Completed(mv))
    } else {
        Err(no_move())
    }
}

/// Every cell whose click is accepted after `selected`, sorted by cell.
pub fn next_clicks(position: &Position, selected: &[Cell]) -> Vec<Cell> {
    super::board::ALL_CELLS
        .into_iter()
        .filter(|cell| click(position, selected, *cell).is_ok())
        .collect()
}

/// The clicks that make `mv` (legal in `position`), starting with `selected` when they
/// can: the remaining marbles from the tail (in-line) or the start (broadside) on, then the
/// target. `None` when `selected` cannot begin `mv`.
pub fn clicks_for(position: &Position, mv: Move, selected: &[Cell]) -> Option<Vec<Cell>> {
    let marbles = moving_marbles(position, mv);
    if marbles == 0 || bits_of(selected) & !marbles != 0 {
        return None;
    }
    let order: Vec<Cell> = match mv {
        Move::Inline { tail, direction } => {
            let mut cells = vec![tail];
            while let Some(next) = cells.last().and_then(|c| c.step(direction)) {
                if next.bit() & marbles == 0 {
                    break;
                }
                cells.push(next);
            }
            cells
        }
        Move::Broadside { .. } => Cell::iter(marbles).collect(),
    };
    let mut clicks = selected.to_vec();
    clicks.extend(order.into_iter().filter(|c| !selected.contains(c)));
    let target = match mv {
        Move::Inline { tail, direction } => position.inline_effect(tail, direction).ok()?.front,
        Move::Broadside { direction, .. } => clicks[0].step(direction)?,
    };
    clicks.push(target);
    (completed_move(&clicks[..clicks.len() - 1], target) == Some(mv)).then_some(clicks)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use rand::SeedableRng;
    use rand::seq::IndexedRandom;
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::abalone::board::ALL_CELLS;
    use crate::abalone::position::StartPosition;

    fn cell(name: &str) -> Cell {
        name.parse().expect("a cell of the board")
    }

    /// Positions from random games of every start, a few moves apart.
    fn sample_positions() -> Vec<Position> {
        let mut rng = ChaCha8Rng::seed_from_u64(17);
        let mut positions = Vec::new();
        for start in [
            StartPosition::Standard,
            StartPosition::BelgianDaisy,
            StartPosition::GermanDaisy,
        ] {
            for _ in 0..4 {
                let mut position = start.position();
                for ply in 0..80 {
                    let mut list = MoveList::new();
                    position.legal_moves(&mut list);
                    let Some(mv) = list.as_slice().choose(&mut rng) else {
                        break;
                    };
                    position = position.play_unchecked(*mv);
                    if ply % 16 == 0 {
                        positions.push(position);
                    }
                }
            }
        }
        positions
    }

    fn moves_of(position: &Position) -> BTreeSet<String> {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        list.iter().map(|m| m.to_string()).collect()
    }

    /// Every click sequence the accepted clicks allow, depth first: the moves they complete.
    fn reachable(position: &Position, selected: &mut Vec<Cell>, found: &mut BTreeSet<String>) {
        for next in next_clicks(position, selected) {
            match click(position, selected, next) {
                Ok(Click::Selected(cell)) => {
                    selected.push(cell);
                    reachable(position, selected, found);
                    selected.pop();
                }
                Ok(Click::Completed(mv)) => {
                    found.insert(mv.to_string());
                }
                Err(error) => panic!("an accepted click was refused: {error}"),
            }
        }
    }

    #[test]
    fn the_accepted_clicks_reach_exactly_the_legal_moves() {
        for position in sample_positions() {
            let mut found = BTreeSet::new();
            reachable(&position, &mut Vec::new(), &mut found);
            assert_eq!(found, moves_of(&position), "{position}");
        }
    }

    #[test]
    fn every_order_of_the_marbles_enters_the_move() {
        for position in sample_positions() {
            let mut list = MoveList::new();
            position.legal_moves(&mut list);
            for mv in list.iter() {
                let marbles: Vec<Cell> = Cell::iter(moving_marbles(&position, mv)).collect();
                let orders: Vec<Vec<Cell>> = match marbles.as_slice() {
                    [a] => vec![vec![*a]],
                    [a, b] => vec![vec![*a, *b], vec![*b, *a]],
                    [a, b, c] => vec![
                        vec![*a, *b, *c],
                        vec![*a, *c, *b],
                        vec![*b, *a, *c],
                        vec![*b, *c, *a],
                        vec![*c, *a, *b],
                        vec![*c, *b, *a],
                    ],
                    _ => panic!("{mv} moves {} marbles", marbles.len()),
                };
                for order in orders {
                    let clicks = clicks_for(&position, mv, &order)
                        .unwrap_or_else(|| panic!("{mv} cannot start with {order:?}"));
                    assert_eq!(clicks.len(), order.len() + 1);
                    let (target, selection) = clicks.split_last().expect("clicks");
                    for (at, marble) in selection.iter().enumerate() {
                        assert_eq!(
                            click(&position, &selection[..at], *marble),
                            Ok(Click::Selected(*marble))
                        );
                    }
                    assert_eq!(
                        click(&position, selection, *target),
                        Ok(Click::Completed(mv)),
                        "{mv} from {order:?} in {position}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_broadside_goes_where_its_first_marble_steps() {
        // Black's a1 a2 a3 in the standard start can move up to b2 b3 b4 or to b1 b2 b3
        // once row B is clear: b2 is next to both a1 and a2.
        let position: Position = "wwwww/wwwwww/2www2/8/9/8/2bbb2/6/bbbbb b 0 0"
            .parse()
            .expect("a position");
        let a_row = [cell("a1"), cell("a2"), cell("a3")];
        let from_a1 = click(&position, &a_row, cell("b2"));
        let Ok(Click::Completed(up_right)) = from_a1 else {
            panic!("a1 a2 a3 then b2 is a move");
        };
        assert_eq!(up_right.to_string(), "a1a3b2");
        let a2_first = [cell("a2"), cell("a1"), cell("a3")];
        let Ok(Click::Completed(up_left)) = click(&position, &a2_first, cell("b2")) else {
            panic!("a2 a1 a3 then b2 is a move");
        };
        assert_eq!(up_left.to_string(), "a1a3b1");
    }

    #[test]
    fn an_inline_move_ends_in_front_of_the_line_whatever_the_click_order() {
        let position = StartPosition::Standard.position();
        for order in [["c3", "c4"], ["c4", "c3"]] {
            let selected: Vec<Cell> = order.iter().map(|c| cell(c)).collect();
            let Ok(Click::Completed(mv)) = click(&position, &selected, cell("c2")) else {
                panic!("c3 c4 then c2 is the in-line move c4c3");
            };
            assert_eq!(mv.to_string(), "c4c3");
        }
    }

    #[test]
    fn refused_clicks_say_why() {
        let position = StartPosition::Standard.position();
        let error = |selected: &[&str], at: &str| {
            let selected: Vec<Cell> = selected.iter().map(|c| cell(c)).collect();
            click(&position, &selected, cell(at))
                .expect_err("a refused click")
                .to_string()
        };
        assert_eq!(
            error(&[], "e5"),
            "e5 is not a marble of yours that can move: click a marble to select it first"
        );
        assert_eq!(
            error(&[], "i5"),
            "i5 is not a marble of yours that can move: click a marble to select it first"
        );
        assert_eq!(
            error(&["c3"], "c3"),
            "c3 is already selected (undo takes the last click back)"
        );
        assert!(error(&["c3"], "a5").starts_with("a5 moves with c3 in no legal move"));
        assert!(error(&["c3", "c4"], "e5").starts_with("e5 ends no legal move of c3 c4"));
        // A white marble is a push target only in front of a line that outnumbers it.
        assert!(error(&["c3"], "g5").starts_with("g5 ends no legal move of c3"));
    }

    #[test]
    fn gogui_vertices_name_each_cell_once() {
        let names: BTreeSet<String> = ALL_CELLS.iter().map(|c| gogui_vertex(*c)).collect();
        assert_eq!(names.len(), ALL_CELLS.len());
        for cell in ALL_CELLS {
            assert_eq!(parse_gogui_vertex(&gogui_vertex(cell)), Some(cell));
            assert_eq!(
                parse_gogui_vertex(&gogui_vertex(cell).to_ascii_lowercase()),
                Some(cell)
            );
        }
        assert_eq!(gogui_vertex(cell("c4")), "D3");
        assert_eq!(gogui_vertex(cell("i9")), "J9");
        for bad in ["I5", "A6", "J1", "E0", "E10", "", "5E", "pass"] {
            assert_eq!(parse_gogui_vertex(bad), None, "{bad}");
        }
    }
}
