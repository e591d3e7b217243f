//! Local reading at playout speed: ataris on two-liberty chains that cannot escape, and
//! the vital points of small eye spaces (nakade).
//!
//! Random playouts misjudge both: a chain with two liberties in a capturing race lives or
//! dies by who ataris first, and a three-point eye space lives or dies by who takes its
//! middle, yet a random move hits the one point that matters only by luck. These readers
//! look at the board as it stands, a move or two deep, without copying it and without
//! allocating: each walks a few chains and fills fixed arrays.
//!
//! The playouts can ask the atari reader after every move that no capture or escape
//! answers (`playout.rs`, `Params::playout_reading`: off in play, see there why); the
//! eye-space reader gives the tree a prior (`knowledge.rs`): asked in
//! the playouts as well, it cost a fifth of their speed and won 46 of 100 games at equal
//! playouts (9×9, 1000 playouts) against the policy without it.

use crate::go::board::{Board, Point};
use crate::go::color::Color;

/// Distinct liberties `color` would have at empty `p` after playing there, counting the
/// chains of its own that the stone joins, leaving out `skip` (a point the opponent is
/// about to fill) and stopping at `cap`. Captures are not counted.
pub(crate) fn liberties_after(
    board: &Board,
    color: Color,
    p: Point,
    skip: Point,
    cap: usize,
) -> usize {
    let mut found = [p; 4];
    let mut n = 0;
    let mut add = |q: Point, n: &mut usize| {
        if q != p && q != skip && board.is_empty_point(q) && !found[..*n].contains(&q) {
            found[*n] = q;
            *n += 1;
        }
        *n >= cap
    };
    let neighbors = board.neighbors(p);
    for q in neighbors {
        if add(q, &mut n) {
            return n;
        }
    }
    let mut heads = [p; 4];
    let mut nh = 0;
    for q in neighbors {
        if board.get(q) != Some(color) {
            continue;
        }
        let head = board.chain_head(q);
        if heads[..nh].contains(&head) {
            continue;
        }
        heads[nh] = head;
        nh += 1;
        // A chain with more liberties than `cap` plus the two points left out always
        // reaches the cap: no need to walk it.
        if board.chain_liberties(q) >= cap + 2 {
            return cap;
        }
        for s in board.chain_stones(q) {
            for r in board.neighbors(s) {
                if add(r, &mut n) {
                    return n;
                }
            }
        }
    }
    n
}

/// The two liberties of the chain through `p`, which has exactly two.
fn two_liberties(board: &Board, p: Point) -> Option<[Point; 2]> {
    let mut libs = [p; 2];
    let mut n = 0;
    for s in board.chain_stones(p) {
        for q in board.neighbors(s) {
            if board.is_empty_point(q) && !libs[..n].contains(&q) {
                libs[n] = q;
                n += 1;
                if n == 2 {
                    return Some(libs);
                }
            }
        }
    }
    None
}

/// True if a chain of `color` next to the chain through `p` is in atari: the chain at
/// `p` could then escape by capturing it.
fn touches_atari(board: &Board, p: Point, color: Color) -> bool {
    board.chain_stones(p).any(|s| {
        board
            .neighbors(s)
            .iter()
            .any(|&q| board.get(q) == Some(color) && board.chain_liberties(q) == 1)
    })
}

/// The point where `color` ataris the opponent chain through `prey` (which has two
/// liberties) so that it cannot escape: extending at its last liberty leaves it with at
/// most one and captures nothing, no chain of `color` around it is in atari, and the
/// atari stone itself keeps two liberties after the extension. `None` when neither
/// liberty works (the prey runs, or it needs a ladder to be read out).
pub(crate) fn atari_without_escape(board: &Board, color: Color, prey: Point) -> Option<Point> {
    let opponent = color.opponent();
    if board.get(prey) != Some(opponent) || board.chain_liberties(prey) != 2 {
        return None;
    }
    let [x, y] = two_liberties(board, prey)?;
    // Cheapest refutations first: most chains simply run out of a one-move atari.
    let atari = [(x, y), (y, x)].into_iter().find_map(|(atari, run)| {
        let works = liberties_after(board, opponent, run, atari, 2) <= 1
            && !board.would_capture(opponent, run)
            && liberties_after(board, color, atari, run, 2) >= 2;
        works.then_some(atari)
    })?;
    (!touches_atari(board, prey, color)).then_some(atari)
}

/// Pushes onto `out` the ataris without escape (see [`atari_without_escape`]) on the
/// opponent's chain at `last` and, where the last move left a chain of `color` next to
/// it with two liberties (a capturing race), on the opponent's two-liberty chains
/// touching that chain.
pub(crate) fn two_liberty_attacks(board: &Board, color: Color, last: Point, out: &mut Vec<Point>) {
    let opponent = color.opponent();
    if board.get(last) != Some(opponent) {
        return;
    }
    let mut push = |p: Point| {
        if !out.contains(&p) {
            out.push(p);
        }
    };
    if let Some(p) = atari_without_escape(board, color, last) {
        push(p);
    }
    let last_head = board.chain_head(last);
    let mut own_seen = [last; 4];
    let mut n = 0;
    for q in board.neighbors(last) {
        if board.get(q) != Some(color) || board.chain_liberties(q) != 2 {
            continue;
        }
        let head = board.chain_head(q);
        if own_seen[..n].contains(&head) {
            continue;
        }
        own_seen[n] = head;
        n += 1;
        let mut prey_seen = [last_head; 8];
        let mut m = 1;
        for s in board.chain_stones(q) {
            for r in board.neighbors(s) {
                if board.get(r) != Some(opponent) || board.chain_liberties(r) != 2 {
                    continue;
                }
                let prey = board.chain_head(r);
                if prey_seen[..m].contains(&prey) {
                    continue;
                }
                if m < prey_seen.len() {
                    prey_seen[m] = prey;
                    m += 1;
                }
                if let Some(p) = atari_without_escape(board, color, r) {
                    push(p);
                }
            }
        }
    }
}

/// Largest eye space the nakade reader looks at: up to five points, the largest that a
/// single stone at its vital point can kill.
const MAX_EYE_SPACE: usize = 5;

/// The vital point of the empty region through `p` if it is a small eye space (three to
/// five points, bordered by stones of one colour and the edge) with a single point that
/// decides it: the middle of a straight or bent three, the centre of a pyramid four or a
/// crossed five, the inner point of a bulky five. Whoever plays there first makes two
/// eyes, or prevents them. Square four and the long shapes have no such point.
pub(crate) fn eye_space_vital_point(board: &Board, p: Point) -> Option<Point> {
    if !board.is_empty_point(p) {
        return None;
    }
    let mut region = [p; MAX_EYE_SPACE];
    let mut n = 1;
    let mut borders = 0u8;
    let mut i = 0;
    while i < n {
        for q in board.neighbors(region[i]) {
            match board.get(q) {
                Some(Color::Black) => borders |= 1,
                Some(Color::White) => borders |= 2,
                None if board.is_empty_point(q) && !region[..n].contains(&q) => {
                    if n == MAX_EYE_SPACE {
                        return None;
                    }
                    region[n] = q;
                    n += 1;
                }
                None => {}
            }
        }
        if borders == 3 {
            return None;
        }
        i += 1;
    }
    if n < 3 || borders == 0 {
        return None;
    }
    let inside = |q: Point| region[..n].contains(&q);
    let mut best = p;
    let mut best_degree = 0;
    let mut ties = 0;
    for &q in &region[..n] {
        let degree = board
            .neighbors(q)
            .into_iter()
            .filter(|&r| inside(r))
            .count();
        if degree > best_degree {
            best = q;
            best_degree = degree;
            ties = 1;
        } else if degree == best_degree {
            ties += 1;
        }
    }
    let needed = if n == 3 { 2 } else { 3 };
    (ties == 1 && best_degree >= needed).then_some(best)
}

#[cfg(test)]
mod tests {
    use super::super::knowledge::move_prior;
    use super::super::params::Params;
    use super::super::playout::Playout;
    use super::*;
    use crate::go::notation::Vertex;

    /// A 9×9 board whose bottom rows are given as `.`, `X` (black) and `O` (white), the
    /// last string being row 1.
    fn board(rows: &[&str]) -> Board {
        let mut b = Board::new(9).expect("9x9");
        for (r, line) in rows.iter().rev().enumerate() {
            for (c, ch) in line.chars().filter(|c| !c.is_whitespace()).enumerate() {
                let p = b.point(Vertex::new(c as u8, r as u8));
                match ch {
                    'X' => b.set(p, Some(Color::Black)),
                    'O' => b.set(p, Some(Color::White)),
                    _ => {}
                }
            }
        }
        b
    }

    fn at(b: &Board, text: &str) -> Point {
        b.point(text.parse::<Vertex>().expect("vertex"))
    }

    /// The playout policy with its tactics always on and nothing else that could
    /// answer first (shapes off, no reply tables).
    fn tactical_policy(seed: u64) -> Playout {
        let params = Params {
            tactics_chance: 256,
            pattern_chance: 0,
            last_good_reply: 0,
            playout_reading: true,
            ..Params::default()
        };
        Playout::new(seed, false, &params)
    }

    /// Black's D1-D2 and White's E1 both have two liberties after White's C1: Black
    /// wins the race by the atari at E2 (White's run to F1 leaves it one liberty, G1
    /// being Black's); the atari at F1 would let White run out at E2.
    const RACE: [&str; 3] = [
        ". . . O . . . . .", //
        ". . . X . . . . .",
        ". . O X O . X . .",
    ];

    #[test]
    fn a_two_liberty_race_is_won_by_the_atari_that_leaves_no_escape() {
        let b = board(&RACE);
        assert_eq!(b.chain_liberties(at(&b, "D1")), 2);
        assert_eq!(b.chain_liberties(at(&b, "E1")), 2);
        let e2 = at(&b, "E2");
        assert_eq!(
            atari_without_escape(&b, Color::Black, at(&b, "E1")),
            Some(e2)
        );
        let mut found = Vec::new();
        two_liberty_attacks(&b, Color::Black, at(&b, "C1"), &mut found);
        assert_eq!(found, vec![e2]);
        let mut policy = tactical_policy(7);
        for _ in 0..20 {
            assert_eq!(
                policy.choose(&b, Color::Black, None, Some(at(&b, "C1"))),
                Some(e2)
            );
        }
        // With the reading off the policy plays anywhere.
        let params = Params {
            tactics_chance: 256,
            pattern_chance: 0,
            playout_reading: false,
            ..Params::default()
        };
        let mut plain = Playout::new(7, false, &params);
        let moves: Vec<_> = (0..20)
            .map(|_| plain.choose(&b, Color::Black, None, Some(at(&b, "C1"))))
            .collect();
        assert!(moves.iter().any(|&m| m != Some(e2)), "{moves:?}");
    }

    #[test]
    fn a_chain_that_can_run_is_not_attacked() {
        // White E5 between Black D5 and E6 runs from either atari.
        let b = board(&[
            ". . . . X . . . .",
            ". . . X O . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
        ]);
        assert_eq!(atari_without_escape(&b, Color::Black, at(&b, "E5")), None);
        // The race with a black chain in atari next to White: White escapes by
        // capturing it, so no atari is offered.
        let mut rows = RACE;
        rows[0] = ". . O O . . . . .";
        rows[1] = ". . O X . . . . .";
        let b = board(&rows);
        assert_eq!(b.chain_liberties(at(&b, "D1")), 1);
        assert_eq!(atari_without_escape(&b, Color::Black, at(&b, "E1")), None);
        // Not the opponent's chain, or not two liberties: nothing to read.
        let b = board(&RACE);
        assert_eq!(atari_without_escape(&b, Color::White, at(&b, "E1")), None);
        assert_eq!(atari_without_escape(&b, Color::Black, at(&b, "F2")), None);
    }

    #[test]
    fn straight_and_bent_three_are_killed_at_the_middle() {
        let straight = board(&[
            "O O O O O . . . .", //
            "O . . . O . . . .",
        ]);
        let c1 = at(&straight, "C1");
        assert_eq!(
            eye_space_vital_point(&straight, at(&straight, "B1")),
            Some(c1)
        );
        assert_eq!(eye_space_vital_point(&straight, c1), Some(c1));
        let end = at(&straight, "B1");
        // The prior is off by default (`Params::nakade_prior`): the test turns it on.
        let params = Params {
            nakade_prior: 10.0,
            ..Params::default()
        };
        let last = Some(at(&straight, "E1"));
        let vital = move_prior(&params, &straight, Color::Black, c1, last);
        let other = move_prior(&params, &straight, Color::Black, end, last);
        assert!(vital.1 / vital.0 > other.1 / other.0, "{vital:?} {other:?}");
        let bent = board(&[
            "O . . . . . . . .",
            ". O . . . . . . .",
            ". . O . . . . . .",
        ]);
        assert_eq!(
            eye_space_vital_point(&bent, at(&bent, "B1")),
            Some(at(&bent, "A1"))
        );
    }

    #[test]
    fn pyramid_four_has_a_vital_point_square_four_and_shared_spaces_none() {
        let pyramid = board(&[
            ". . O . . . . . .",
            ". O . O . . . . .",
            "O . . . O . . . .",
        ]);
        assert_eq!(
            eye_space_vital_point(&pyramid, at(&pyramid, "B1")),
            Some(at(&pyramid, "C1"))
        );
        let square = board(&[
            "O O . . . . . . .",
            ". . O . . . . . .",
            ". . O . . . . . .",
        ]);
        assert_eq!(eye_space_vital_point(&square, at(&square, "A1")), None);
        let shared = board(&[
            "O O O O O . . . .", //
            "O . . . X . . . .",
        ]);
        assert_eq!(eye_space_vital_point(&shared, at(&shared, "B1")), None);
        // Open ground is no eye space.
        let open = Board::new(9).expect("9x9");
        assert_eq!(eye_space_vital_point(&open, at(&open, "E5")), None);
    }
}
