//! The solver against brute force: the exact values of the small sets (1 and 2 stones
//! a pit, both end rules) by plain minimax over whole positions, compared with the
//! alpha-beta solver, the iterative-deepening player and the endgame databases.

use std::collections::HashMap;
use std::sync::Arc;

use hamle::mangala::db::EndgameDb;
use hamle::mangala::player::{Limits, Searcher, margin_for, never};
use hamle::mangala::{EndRule, Position, Side};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The mover's best final margin still to gain, by plain minimax without pruning,
/// memoised on the pits and the mover (the rules never look at the stores, so what is
/// still to win does not depend on them).
fn brute_gain(position: &Position, rule: EndRule, memo: &mut HashMap<Position, i32>) -> i32 {
    if position.is_over() {
        return 0;
    }
    let key = position.without_stores();
    if let Some(&value) = memo.get(&key) {
        return value;
    }
    let mover = position.to_move();
    let banked = position.store_difference(mover);
    let mut best = i32::MIN;
    for pit in position.legal_moves() {
        let (next, _) = position.play_unchecked(pit, rule);
        let gain = next.store_difference(mover) - banked;
        let rest = brute_gain(&next, rule, memo);
        let value = if next.to_move() == mover {
            gain + rest
        } else {
            gain - rest
        };
        best = best.max(value);
    }
    memo.insert(key, best);
    best
}

/// South's final store minus North's under perfect play.
fn brute(position: &Position, rule: EndRule, memo: &mut HashMap<Position, i32>) -> i32 {
    let gain = brute_gain(position, rule, memo);
    margin_for(position, gain, Side::South)
}

fn south_margin_by_solver(position: &Position, rule: EndRule, db: Option<Arc<EndgameDb>>) -> i32 {
    let mut searcher = Searcher::new(rule, 16, db);
    let solution = searcher.solve(position, Limits::default(), &never, &mut |_, _, _| {});
    let gain = solution.exact().expect("no limits: solved");
    margin_for(position, gain, Side::South)
}

fn south_margin_by_player(
    position: &Position,
    rule: EndRule,
    memo: &mut HashMap<Position, i32>,
) -> i32 {
    let mut searcher = Searcher::new(rule, 16, None);
    let result = searcher.search(position, Limits::default(), &never);
    assert!(result.proved, "unlimited search proves its value");
    // The chosen move must be as good as the value it claims.
    let best = result.best.expect("a move");
    let (next, _) = position.play_unchecked(best, rule);
    let after = brute(&next, rule, memo);
    let claimed = margin_for(position, result.value, Side::South);
    assert_eq!(after, claimed, "the chosen pit {best} achieves the value");
    claimed
}

fn check_small_set(stones: u8) {
    for rule in [EndRule::EmptierTakesAll, EndRule::EachKeepsOwn] {
        let db = Arc::new(EndgameDb::build(rule, 8, &mut |_, _| {}));
        for starter in Side::BOTH {
            let start = Position::start(stones, starter);
            let mut memo = HashMap::new();
            let exact = brute(&start, rule, &mut memo);
            assert_eq!(south_margin_by_solver(&start, rule, None), exact);
            assert_eq!(south_margin_by_player(&start, rule, &mut memo), exact);
            assert_eq!(
                south_margin_by_solver(&start, rule, Some(Arc::clone(&db))),
                exact
            );
            println!(
                "{stones} a pit, {rule} rules, {starter} starts: South's margin {exact:+} ({} positions)",
                memo.len()
            );
        }
    }
}

#[test]
fn one_stone_sets_match_brute_force() {
    check_small_set(1);
}

/// Tens of millions of positions and several GB for the brute force: run it by hand,
/// `cargo test --release --test mangala solver::two_stone -- --ignored --nocapture`.
#[test]
#[ignore]
fn two_stone_sets_match_brute_force() {
    check_small_set(2);
}

/// Two stones a pit under the book's rules: South, starting, ends 2 stones ahead. The
/// figure is the entry of the full database to 24 stones (`hamle mangala build-db --stones
/// 24`: every position with 24 stones in the pits, the start among them, by exhaustive
/// minimax), which is too big to build here; the solver must find it from a small one, on
/// one thread and on three.
#[test]
fn two_stone_start_has_the_full_database_value() {
    let rule = EndRule::EmptierTakesAll;
    let db = Arc::new(EndgameDb::build(rule, 12, &mut |_, _| {}));
    let start = Position::start(2, Side::South);
    for threads in [1, 3] {
        let mut searcher = Searcher::new(rule, 20, Some(Arc::clone(&db)));
        searcher.set_solver_threads(threads);
        let solution = searcher.solve(&start, Limits::default(), &never, &mut |_, _, _| {});
        assert_eq!(solution.exact(), Some(2), "{threads} threads");
    }
}

#[test]
fn the_board_is_symmetric() {
    for rule in [EndRule::EmptierTakesAll, EndRule::EachKeepsOwn] {
        let south = brute(&Position::start(1, Side::South), rule, &mut HashMap::new());
        let north = brute(&Position::start(1, Side::North), rule, &mut HashMap::new());
        assert_eq!(
            south, -north,
            "{rule}: the starter's margin does not depend on the chair"
        );
    }
}

/// Random positions with few stones in the pits and stones in the stores.
fn random_endgame(rng: &mut ChaCha8Rng, board: u32) -> Position {
    loop {
        let mut cells = [0u8; 14];
        for _ in 0..board {
            let pit = *[0usize, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12]
                .choose(rng)
                .expect("pits");
            cells[pit] += 1;
        }
        cells[6] = rng.random_range(0..20);
        cells[13] = rng.random_range(0..20);
        let side = if rng.random_bool(0.5) { "s" } else { "n" };
        let text = format!(
            "{}/{}/{side}",
            cells[..7]
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(","),
            cells[7..]
                .iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        if let Ok(position) = text.parse::<Position>() {
            return position;
        }
    }
}

#[test]
fn endgame_database_values_are_exact() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for rule in [EndRule::EmptierTakesAll, EndRule::EachKeepsOwn] {
        let db = EndgameDb::build(rule, 8, &mut |_, _| {});
        assert_eq!(db.max_stones(), 8);
        let mut memo = HashMap::new();
        for _ in 0..300 {
            let board = rng.random_range(2..=8); // one stone leaves a row empty
            let position = random_endgame(&mut rng, board);
            let exact = brute(&position, rule, &mut memo);
            let gain = i32::from(db.value(&position).expect("within the database"));
            assert_eq!(
                margin_for(&position, gain, Side::South),
                exact,
                "{rule} {position}"
            );
        }
        assert!(db.value(&random_endgame(&mut rng, 9)).is_none());
    }
}

/// A root inside the database is answered from it: the player's pit must reach the
/// database's value, not merely be the first legal pit.
#[test]
fn the_player_plays_the_database_move_where_it_reaches() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let rule = EndRule::EmptierTakesAll;
    let db = Arc::new(EndgameDb::build(rule, 8, &mut |_, _| {}));
    let mut memo = HashMap::new();
    let mut first_pit_was_wrong = 0;
    for _ in 0..200 {
        let board = rng.random_range(2..=8);
        let position = random_endgame(&mut rng, board);
        let mut searcher = Searcher::new(rule, 12, Some(Arc::clone(&db)));
        let result = searcher.search(&position, Limits::default(), &never);
        assert!(result.proved);
        let exact = brute(&position, rule, &mut memo);
        assert_eq!(margin_for(&position, result.value, Side::South), exact);
        let pit = result.best.expect("a move");
        let (next, _) = position.play_unchecked(pit, rule);
        assert_eq!(
            brute(&next, rule, &mut memo),
            exact,
            "{position}: pit {pit}"
        );
        let first = position.legal_moves().next().expect("a legal pit");
        let (after_first, _) = position.play_unchecked(first, rule);
        if brute(&after_first, rule, &mut memo) != exact {
            first_pit_was_wrong += 1;
        }
    }
    // The sample must hold positions where the first legal pit loses something.
    assert!(first_pit_was_wrong > 10, "{first_pit_was_wrong}");
}

/// Helper threads share the proof through the table: the value must not change.
#[test]
fn a_solve_on_several_threads_finds_the_exact_value() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let rule = EndRule::EmptierTakesAll;
    let mut memo = HashMap::new();
    for round in 0..8 {
        let position = if round == 0 {
            Position::start(1, Side::South)
        } else {
            random_endgame(&mut rng, 12)
        };
        let mut searcher = Searcher::new(rule, 14, None);
        searcher.set_solver_threads(3);
        let solution = searcher.solve(&position, Limits::default(), &never, &mut |_, _, _| {});
        let gain = solution.exact().expect("solved");
        let exact = brute(&position, rule, &mut memo);
        assert_eq!(
            margin_for(&position, gain, Side::South),
            exact,
            "{position}"
        );
        let best = solution.best.expect("a move");
        let (next, _) = position.play_unchecked(best, rule);
        assert_eq!(
            brute(&next, rule, &mut memo),
            exact,
            "{position}: pit {best}"
        );
    }
}

#[test]
fn searches_with_and_without_database_agree_on_larger_endgames() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let rule = EndRule::EmptierTakesAll;
    let db = Arc::new(EndgameDb::build(rule, 8, &mut |_, _| {}));
    for _ in 0..12 {
        let position = random_endgame(&mut rng, 12);
        let plain = south_margin_by_solver(&position, rule, None);
        let with_db = south_margin_by_solver(&position, rule, Some(Arc::clone(&db)));
        assert_eq!(plain, with_db, "{position}");
    }
}
