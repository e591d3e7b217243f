//! The player's tests: repetition draws, the length cap's adjudication and win distances
//! through the transposition table.

use super::*;
use crate::abalone::board::Cell;

/// A position from its marbles (cell names), the side to move and the marbles off.
fn position(black: &str, white: &str, to_move: char, off: [u8; 2]) -> Position {
    let has = |list: &str, cell: Cell| list.split_whitespace().any(|n| n == cell.to_string());
    let rows: Vec<String> = (0..9i8)
        .rev()
        .map(|row| {
            (0..9i8)
                .filter_map(|col| Cell::at(row, col))
                .map(|cell| {
                    if has(black, cell) {
                        'b'
                    } else if has(white, cell) {
                        'w'
                    } else {
                        '1'
                    }
                })
                .collect()
        })
        .collect();
    format!("{} {to_move} {} {}", rows.join("/"), off[0], off[1])
        .parse()
        .expect("a valid test position")
}

fn mv(text: &str) -> Move {
    text.parse().expect("a valid test move")
}

fn search(searcher: &mut Searcher, game: &Game, depth: u32) -> SearchResult {
    let limits = Limits {
        nodes: 5_000_000,
        time: None,
        depth,
    };
    searcher.search(game, limits, &|| false)
}

fn searcher() -> Searcher {
    Searcher::new(Weights::default(), 1, 16)
}

fn rules(max_plies: u32, repetition_draw: bool) -> EndRules {
    EndRules {
        max_plies,
        repetition_draw,
    }
}

/// A game from `start` with `moves` played.
fn game(start: Position, rules: EndRules, moves: &[&str]) -> Game {
    let mut game = Game::new(start, rules);
    for text in moves {
        let mover = game.to_move();
        game.play(mover, mv(text)).expect("a legal test move");
    }
    game
}

/// Black to move; White has lost five and its marble on a2 can be pushed off by b2 c2.
/// Black's c3d3 and d3c3 and White's a2a3 and a3a2 go round a cycle back to it: with
/// the marble on c3 Black pushes a3 off from b3 c3, with it on d3 nothing threatens a3.
fn cycle_start() -> Position {
    position("b2 c2 b3 c3 a4 b4", "a2 i7", 'b', [0, 5])
}

const CYCLE: [&str; 4] = ["c3d3", "a2a3", "d3c3", "a3a2"];

/// The cycle's moves, `plies` of them.
fn cycle(plies: usize) -> Vec<&'static str> {
    CYCLE.iter().copied().cycle().take(plies).collect()
}

#[test]
fn a_third_occurrence_saves_the_side_that_is_otherwise_lost() {
    // White to move, a3 attacked from b3 c3: a3a2 is its only defence and brings back
    // the cycle's start, seen twice already.
    let drawn = game(cycle_start(), rules(200, true), &cycle(7));
    let result = search(&mut searcher(), &drawn, 8);
    assert_eq!(result.best, Some(mv("a3a2")));
    assert_eq!(result.value, 0, "{result:?}");
    let mut played = drawn.clone();
    played.play(Color::White, mv("a3a2")).expect("legal");
    assert_eq!(
        played.result().map(|r| r.reason),
        Some(EndReason::Repetition)
    );

    // Without the rule, or with the start seen only once before, a3a2 loses the
    // marble on a2 (and every other move the one on a3).
    for lost in [
        game(cycle_start(), rules(200, false), &cycle(7)),
        game(cycle_start(), rules(200, true), &cycle(3)),
    ] {
        let result = search(&mut searcher(), &lost, 8);
        assert_eq!(result.value, -(WIN - 2), "{result:?}");
    }
}

#[test]
fn a_draw_that_needs_the_game_before_the_root_is_not_kept_in_the_table() {
    // Black to move at the cycle's third position, seen once before: d3c3 lets White
    // draw by a3a2 (a third occurrence), and that draw belongs to this game only.
    let with_history = game(cycle_start(), rules(200, true), &cycle(6));
    let after_d3c3 = with_history.position().play(mv("d3c3")).expect("legal");
    let mut searcher = searcher();
    search(&mut searcher, &with_history, 4);
    assert_eq!(searcher.table_value(&after_d3c3), None);

    // The same position as a new game: d3c3 wins, and the table says so.
    let fresh = Game::new(*with_history.position(), rules(200, true));
    let result = search(&mut searcher, &fresh, 4);
    assert_eq!(result.best, Some(mv("d3c3")));
    assert_eq!(result.value, WIN - 3, "{result:?}");
    let kept = searcher.table_value(&after_d3c3);
    assert!(kept.is_some_and(|v| v <= -WON), "{kept:?}");
}

#[test]
fn repetitions_count_once_after_the_root_and_thrice_with_the_game() {
    // Hashes by index; the root is index 4 (two positions of each side before it).
    let path = [7, 8, 7, 8, 9, 8, 7, 8, 9, 1, 9];
    // 9 at index 8 repeats the root (index 4) once: not yet a draw.
    assert_eq!(repetition(&path, 4, 0, 8), None);
    // 9 at index 10 repeats index 8, strictly after the root: a draw needing ply 4.
    assert_eq!(repetition(&path, 4, 0, 10), Some(4));
    // 7 at index 6 (ply 2) is the third 7: a draw needing index 0 (ply -4)...
    assert_eq!(repetition(&path, 4, 0, 6), Some(-4));
    // ...unless a marble went off after index 1, which hides index 0.
    assert_eq!(repetition(&path, 4, 1, 6), None);
    // 8 at index 5 repeats index 3 and 1, both before the root: the third 8.
    assert_eq!(repetition(&path, 4, 0, 5), Some(-3));
    assert_eq!(repetition(&path, 4, 2, 5), None);
}

/// Black to move, two marbles off each: g7 h7 push i7 off, nothing else can push.
fn grab_position() -> Position {
    position("a1 a2 a3 g7 h7", "i7 e5 e6", 'b', [2, 2])
}

#[test]
fn a_marble_pushed_off_just_before_the_cap_wins_by_adjudication() {
    // Four plies of shuffling, cap at five: Black's move is the game's last.
    let shuffles = ["a1b1", "e6f7", "b1a1", "f7e6"];
    let capped = game(grab_position(), rules(5, false), &shuffles);
    let result = search(&mut searcher(), &capped, 8);
    assert_eq!(result.best, Some(mv("g7h7")));
    assert_eq!(result.value, WIN - 1, "{result:?}");
    let mut played = capped.clone();
    played.play(Color::Black, mv("g7h7")).expect("legal");
    let end = played.result().expect("the cap ends the game");
    assert_eq!(
        (end.reason, end.winner),
        (EndReason::MoveCap, Some(Color::Black))
    );

    // Far from the cap the same marble is only a marble.
    let open = game(grab_position(), rules(200, false), &shuffles);
    let result = search(&mut searcher(), &open, 8);
    assert!(result.value.abs() < WON, "{result:?}");
}

#[test]
fn at_the_cap_equal_marbles_draw_whatever_the_evaluation() {
    // Black holds the centre but cannot push anything off; White has lost one more.
    let centre = position("d4 d5 e5 e6 e4 f5", "a1 i9 a5", 'b', [2, 2]);
    let open = search(&mut searcher(), &Game::new(centre, rules(0, false)), 6);
    assert!(open.value > 100 && open.value < WON, "{open:?}");
    let capped = search(&mut searcher(), &Game::new(centre, rules(1, false)), 6);
    assert_eq!(capped.value, 0, "{capped:?}");
    let behind = position("d4 d5 e5 e6 e4 f5", "a1 i9 a5", 'b', [3, 2]);
    let capped = search(&mut searcher(), &Game::new(behind, rules(1, false)), 6);
    assert_eq!(capped.value, -(WIN - 1), "{capped:?}");
}

#[test]
fn table_values_from_far_from_the_cap_are_not_used_near_it() {
    let mut searcher = searcher();
    let open = search(
        &mut searcher,
        &Game::new(grab_position(), rules(0, false)),
        6,
    );
    assert!(open.value.abs() < WON, "{open:?}");
    // Two plies left: Black pushes off, White cannot answer, the cap gives Black the game.
    let capped = search(
        &mut searcher,
        &Game::new(grab_position(), rules(2, false)),
        6,
    );
    assert_eq!(capped.value, WIN - 2, "{capped:?}");
    assert_eq!(capped.best, Some(mv("g7h7")));
    // One ply is enough: White's quiet answers end the game at the cap as it stands.
    let shallow = search(
        &mut Searcher::new(Weights::default(), 1, 16),
        &Game::new(grab_position(), rules(2, false)),
        1,
    );
    assert_eq!(shallow.value, WIN - 2, "{shallow:?}");
}

/// Black to move; White has lost five, its a3 is hemmed in by a2 a4 b3 b4 and falls to
/// b3 c3 once a black marble reaches c3: e3 needs two moves, White cannot stop it.
fn trap() -> Position {
    position("a2 a4 b3 b4 e3", "a3 i7", 'b', [0, 5])
}

#[test]
fn the_fastest_win_is_played_with_a_warm_table() {
    // The trap with d3 already one step from c3 (a win in 3), and g7 h7 under i7 (a win
    // in 1).
    let both = position("a2 a4 b3 b4 d3 g7 h7", "a3 i7", 'b', [0, 5]);
    let mut searcher = searcher();
    search(&mut searcher, &Game::new(trap(), EndRules::default()), 63);
    for _ in 0..2 {
        let result = search(&mut searcher, &Game::new(both, EndRules::default()), 63);
        assert_eq!(result.best, Some(mv("g7h7")));
        assert_eq!(result.value, WIN - 1, "{result:?}");
    }
}

#[test]
fn win_distances_stay_right_when_the_table_is_reused_a_move_later() {
    let mut black = searcher();
    let mut game = Game::new(trap(), EndRules::default());
    let first = search(&mut black, &game, 63);
    assert_eq!(first.value, WIN - 5, "{first:?}");
    game.play(Color::Black, first.best.expect("a move"))
        .expect("legal");
    let reply = search(&mut searcher(), &game, 63);
    assert_eq!(reply.value, -(WIN - 4), "{reply:?}");
    game.play(Color::White, reply.best.expect("a move"))
        .expect("legal");
    // Three plies of search see the whole win; the table's entries from the first
    // search must not stretch it to the five plies they were found at.
    let again = search(&mut black, &game, 3);
    assert_eq!(again.value, WIN - 3, "{again:?}");
    assert_eq!(search(&mut searcher(), &game, 3).value, WIN - 3);
}
