//! OpenSpiel-style invariants over seeded random positions: the bitboard move generator and
//! move application agree with a naive cell-by-cell reading of the rule book; every legal
//! move passes the checked path, every other geometric move is refused with the state
//! kept; hashes, position strings, notation and undo are consistent in every state.

use crate::support;

use std::collections::{BTreeMap, HashSet};

use hamle::abalone::board::ALL_CELLS;
use hamle::abalone::{Cell, Color, Direction, EndRules, Game, Move, MoveList, Position};
use pretty_assertions::assert_eq;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

type Board = BTreeMap<(i8, i8), Color>;

const STEPS: [(i8, i8); 6] = [(0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)];

fn on_board((r, c): (i8, i8)) -> bool {
    (0..9).contains(&r) && (0..9).contains(&c) && (r - c).abs() <= 4
}

fn name((r, c): (i8, i8)) -> String {
    format!("{}{}", (b'a' + r as u8) as char, c + 1)
}

fn board_of(position: &Position) -> Board {
    ALL_CELLS
        .iter()
        .filter_map(|cell| {
            position
                .color_at(*cell)
                .map(|color| ((cell.row(), cell.col()), color))
        })
        .collect()
}

/// The position string of a naive board, written the way the rule book's figure reads.
fn text_of(board: &Board, to_move: Color, off: [u8; 2]) -> String {
    let rows: Vec<String> = (0..9i8)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut gap = 0;
            for c in (0..9i8).filter(|c| on_board((r, *c))) {
                match board.get(&(r, c)) {
                    None => gap += 1,
                    Some(color) => {
                        if gap > 0 {
                            row += &gap.to_string();
                            gap = 0;
                        }
                        row.push(color.letter());
                    }
                }
            }
            if gap > 0 {
                row += &gap.to_string();
            }
            row
        })
        .collect();
    format!(
        "{} {} {} {}",
        rows.join("/"),
        to_move.letter(),
        off[0],
        off[1]
    )
}

fn add((r, c): (i8, i8), (dr, dc): (i8, i8), times: i8) -> (i8, i8) {
    (r + dr * times, c + dc * times)
}

/// Every legal move with the position it leads to, by the book, one cell at a time.
fn naive_moves(position: &Position) -> BTreeMap<String, String> {
    let board = board_of(position);
    let me = position.to_move();
    let off = [
        position.marbles_off(Color::Black),
        position.marbles_off(Color::White),
    ];
    let mut result = BTreeMap::new();
    if off.iter().any(|o| *o >= 6) {
        return result;
    }
    let mine = |cell: (i8, i8)| board.get(&cell) == Some(&me);
    let theirs = |cell: (i8, i8)| board.get(&cell) == Some(&me.opponent());
    for &tail in board.keys().filter(|c| mine(**c)) {
        for (d, &step) in STEPS.iter().enumerate() {
            // In-line: k of my marbles from `tail` along `step`, the cell in front not mine.
            for k in 1..=3i8 {
                if !(0..k).all(|i| mine(add(tail, step, i))) {
                    break;
                }
                let front = add(tail, step, k);
                if !on_board(front) || mine(front) {
                    continue;
                }
                let mut pushed = 0;
                while theirs(add(front, step, pushed)) {
                    pushed += 1;
                }
                let behind = add(front, step, pushed);
                if pushed >= k || (pushed > 0 && mine(behind)) {
                    continue;
                }
                let mut next = board.clone();
                for i in (0..pushed).rev() {
                    next.remove(&add(front, step, i));
                    let to = add(front, step, i + 1);
                    if on_board(to) {
                        next.insert(to, me.opponent());
                    }
                }
                let mut next_off = off;
                if pushed > 0 && !on_board(behind) {
                    next_off[me.opponent().index()] += 1;
                }
                next.remove(&tail);
                next.insert(front, me);
                result.insert(
                    format!("{}{}", name(tail), name(add(tail, step, 1))),
                    text_of(&next, me.opponent(), next_off),
                );
            }
            // Broadside: 2 or 3 of mine from `tail` along the first three steps (each line
            // once), moved sideways into empty cells.
            if d >= 3 {
                continue;
            }
            for k in 2..=3i8 {
                let group: Vec<(i8, i8)> = (0..k).map(|i| add(tail, step, i)).collect();
                if !group.iter().all(|c| mine(*c)) {
                    break;
                }
                for (s, &side) in STEPS.iter().enumerate() {
                    if s % 3 == d {
                        continue;
                    }
                    let to: Vec<(i8, i8)> = group.iter().map(|c| add(*c, side, 1)).collect();
                    if !to.iter().all(|c| on_board(*c) && !board.contains_key(c)) {
                        continue;
                    }
                    let mut next = board.clone();
                    for c in &group {
                        next.remove(c);
                    }
                    for c in &to {
                        next.insert(*c, me);
                    }
                    result.insert(
                        format!(
                            "{}{}{}",
                            name(group[0]),
                            name(group[group.len() - 1]),
                            name(to[0])
                        ),
                        text_of(&next, me.opponent(), off),
                    );
                }
            }
        }
    }
    result
}

/// Every move the notation can write, legal or not.
fn all_geometric_moves() -> Vec<Move> {
    let mut moves = Vec::new();
    for tail in ALL_CELLS {
        for direction in Direction::ALL {
            if tail.step(direction).is_some() {
                moves.push(Move::Inline { tail, direction });
            }
        }
        for axis in Direction::AXES {
            let mut end = tail;
            for length in 2..=3u8 {
                let Some(next) = end.step(axis) else { break };
                end = next;
                for direction in Direction::ALL {
                    if !direction.is_along(axis) && tail.step(direction).is_some() {
                        moves.push(Move::Broadside {
                            start: tail,
                            axis,
                            length,
                            direction,
                        });
                    }
                }
            }
        }
    }
    moves
}

#[test]
fn generator_and_application_agree_with_the_naive_book() {
    let positions = support::abalone::random_positions(0x1A7E, 30, 600);
    let mut pushes_off = 0;
    for position in &positions {
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let ours: BTreeMap<String, String> = list
            .iter()
            .map(|mv| (mv.to_string(), position.play_unchecked(mv).to_string()))
            .collect();
        assert_eq!(ours.len(), list.len(), "duplicates in {position}");
        let naive = naive_moves(position);
        assert_eq!(ours, naive, "position {position}");
        pushes_off += naive
            .values()
            .filter(|next| {
                let p: Position = next.parse().expect("naive position parses");
                p.marbles_off(position.to_move().opponent())
                    > position.marbles_off(position.to_move().opponent())
            })
            .count();
    }
    assert!(
        pushes_off > 100,
        "only {pushes_off} moves pushed a marble off"
    );
}

#[test]
fn checked_and_unchecked_paths_hashes_strings_and_refusals_agree() {
    let everything = all_geometric_moves();
    let positions = support::abalone::random_positions(0x5EED, 12, 150);
    for position in &positions {
        let text = position.to_string();
        let reparsed: Position = text.parse().expect("position string parses");
        assert_eq!(reparsed, *position);
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let legal: HashSet<Move> = list.iter().collect();
        for mv in &everything {
            let mv = *mv;
            match position.play(mv) {
                Ok(next) => {
                    assert!(legal.contains(&mv), "{mv} accepted in {position}");
                    assert_eq!(next, position.play_unchecked(mv));
                    // The incremental hash equals the hash of the same position built afresh.
                    let fresh: Position = next.to_string().parse().expect("next parses");
                    assert_eq!(fresh.hash(), next.hash(), "{mv} in {position}");
                    for color in Color::BOTH {
                        let on = next.marbles(color).count_ones() as u8;
                        let before = position.marbles(color).count_ones() as u8;
                        assert_eq!(
                            on + next.marbles_off(color),
                            before + position.marbles_off(color)
                        );
                    }
                    assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
                }
                Err(reason) => {
                    assert!(
                        !legal.contains(&mv),
                        "{mv} refused ({reason}) in {position}"
                    );
                    assert!(!reason.to_string().is_empty());
                }
            }
        }
    }
}

#[test]
fn games_undo_to_their_start_and_refuse_without_changing() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    for start in hamle::abalone::StartPosition::ALL {
        let mut game = Game::new(
            start.position(),
            EndRules {
                max_plies: 120,
                repetition_draw: false,
            },
        );
        let mut seen = vec![*game.position()];
        while !game.is_over() {
            let position = *game.position();
            // A move by the wrong colour and an illegal move change nothing.
            let mover = game.to_move();
            let Some(mv) = support::abalone::random_move(&position, &mut rng) else {
                break;
            };
            assert!(game.play(mover.opponent(), mv).is_err());
            let bad = Move::Inline {
                tail: first_empty(&position),
                direction: Direction::East,
            };
            assert!(game.play(mover, bad).is_err());
            assert_eq!(*game.position(), position);
            game.play(mover, mv).expect("a generated move is legal");
            seen.push(*game.position());
        }
        let result = game.result().expect("over");
        assert_eq!(game.plies() + 1, seen.len());
        if game.position().winner().is_none() {
            assert_eq!(game.plies(), 120, "only the cap ends these games");
        }
        assert!(result.to_string().contains("pushed off"));
        while game.undo() {
            seen.pop();
            assert_eq!(Some(game.position()), seen.last());
        }
        assert_eq!(*game.position(), start.position());
    }
}

fn first_empty(position: &Position) -> Cell {
    ALL_CELLS
        .into_iter()
        .find(|c| position.color_at(*c).is_none())
        .expect("an empty cell")
}
