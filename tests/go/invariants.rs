//! Property checks over seeded random games on every board size and rule set:
//! cloning, legal move lists, play/undo, incremental hashing and chain bookkeeping.

use hamle::go::board::Board;
use hamle::go::game::{Game, fixed_handicap_vertices};
use hamle::go::rules::RuleSet;
use hamle::go::{Color, MoveVertex, Vertex};
use pretty_assertions::assert_eq;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;

/// Games per (size, rule set); small boards are cheap and hit ko and suicide often.
fn games_for(size: usize) -> u64 {
    match size {
        0..=5 => 40,
        6..=9 => 12,
        10..=13 => 4,
        _ => 2,
    }
}

fn all_vertices(size: usize) -> impl Iterator<Item = Vertex> {
    let size = size as u8;
    (0..size).flat_map(move |col| (0..size).map(move |row| Vertex::new(col, row)))
}

/// Checks everything that must hold in any reachable state.
fn check_state(game: &Game, ctx: &str) {
    let board: &Board = game.board();
    assert_eq!(board.hash(), board.hash_from_scratch(), "{ctx}: hash");
    if let Err(e) = board.check_consistency() {
        panic!("{ctx}: {e}\n{board}");
    }
    assert_eq!(&game.clone(), game, "{ctx}: clone");
    for color in Color::BOTH {
        let moves = game.legal_moves(color);
        assert_eq!(moves.first(), Some(&MoveVertex::Pass), "{ctx}: pass first");
        assert!(
            moves.windows(2).all(|w| w[0] < w[1]),
            "{ctx}: sorted, unique"
        );
        let expected: Vec<MoveVertex> = std::iter::once(MoveVertex::Pass)
            .chain(all_vertices(game.size()).map(MoveVertex::Play))
            .filter(|&mv| game.is_legal(color, mv))
            .collect();
        assert_eq!(moves, expected, "{ctx}: legal_moves agrees with is_legal");
    }
}

/// A random move for `color` that neither fills one of its own eyes nor repeats a
/// position of this game (so that games end under simple ko too); pass if none.
fn random_move(game: &Game, color: Color, seen: &HashSet<u64>, rng: &mut ChaCha8Rng) -> MoveVertex {
    let board = game.board();
    let candidates: Vec<MoveVertex> = game
        .legal_moves(color)
        .into_iter()
        .filter(|&mv| match mv {
            MoveVertex::Pass => false,
            MoveVertex::Play(v) => {
                let p = board.point(v);
                !board.is_eye_like(color, p) && !seen.contains(&board.hash_after(color, p))
            }
        })
        .collect();
    candidates.choose(rng).copied().unwrap_or(MoveVertex::Pass)
}

fn run_game(size: usize, rules: RuleSet, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(size, rules.rules()).expect("valid size");
    if rng.random_bool(0.2) {
        let n = rng.random_range(2..=9);
        if fixed_handicap_vertices(size, n).is_ok() {
            game.place_fixed_handicap(n).expect("empty board");
            assert_eq!(game.to_move(), Color::White);
            assert!(!game.undo(), "handicap is not undoable");
        }
    }
    let start = game.clone();
    // Tiny boards go through many capture/recapture positions before the no-repeat
    // player runs out of moves, hence the constant slack.
    let cap = size * size * 3 + 64;
    let mut seen = HashSet::from([game.board().hash()]);
    let ctx = |n: usize| format!("size {size} {rules} seed {seed} move {n}");
    let mut plies = 0;
    while !game.is_over() {
        assert!(
            plies < cap,
            "{}: game did not end\n{}",
            ctx(plies),
            game.board()
        );
        check_state(&game, &ctx(plies));

        // An arbitrary attempt, often illegal: it must either play cleanly or change nothing.
        let color = if rng.random_bool(0.5) {
            Color::Black
        } else {
            Color::White
        };
        let v = Vertex::new(
            rng.random_range(0..size as u8),
            rng.random_range(0..size as u8),
        );
        let before = game.clone();
        if game.play(color, MoveVertex::Play(v)).is_ok() {
            check_state(&game, &format!("{} (attempt {color} {v})", ctx(plies)));
            assert!(game.undo());
        }
        assert_eq!(
            game,
            before,
            "{}: attempt {color} {v} then undo",
            ctx(plies)
        );

        // Mostly alternate, sometimes let the same colour move twice as GTP allows.
        let mover = if rng.random_bool(0.05) {
            game.to_move().opponent()
        } else {
            game.to_move()
        };
        let mv = random_move(&game, mover, &seen, &mut rng);
        let before = game.clone();
        game.play(mover, mv).expect("chosen among legal moves");
        assert_eq!(game.to_move(), mover.opponent());
        let after = game.clone();
        assert!(game.undo());
        assert_eq!(game, before, "{}: undo of {mover} {mv}", ctx(plies));
        game = after;
        seen.insert(game.board().hash());
        plies += 1;
    }
    check_state(&game, &ctx(plies));
    // Undo back to the start, one by one.
    while game.undo() {}
    assert_eq!(game, start, "size {size} {rules} seed {seed}: undo all");
    plies
}

#[test]
fn random_games_keep_invariants() {
    let mut total = 0;
    let mut games = 0;
    for size in [2, 3, 5, 7, 9, 13, 19] {
        for (r, rules) in RuleSet::ALL.into_iter().enumerate() {
            for g in 0..games_for(size) {
                let seed = (size as u64) << 32 | (r as u64) << 16 | g;
                total += run_game(size, rules, seed);
                games += 1;
            }
        }
    }
    println!("{games} games, {total} moves checked");
}

#[test]
fn clear_resets_everything_but_rules_and_komi() {
    let mut game = Game::new(9, RuleSet::Chinese.rules()).expect("9x9");
    let fresh = game.clone();
    game.set_komi(0.5);
    game.place_fixed_handicap(4).expect("empty board");
    game.play(Color::White, MoveVertex::Play(Vertex::new(4, 4)))
        .expect("legal");
    game.clear();
    assert_eq!(game.komi(), 0.5);
    game.set_komi(fresh.komi());
    assert_eq!(game, fresh);
}
