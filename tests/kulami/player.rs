//! The searching player: the exact solver agrees with plain minimax, searches are
//! reproducible at a fixed node budget, and the reference players play legal moves.

use hamle::kulami::cell::cells;
use hamle::kulami::layout::Layout;
use hamle::kulami::player::{SearchLimits, greedy_move, plies_left, random_move, search, solve};
use hamle::kulami::rules::{Color, Position};
use hamle::kulami::score::{Scoring, score};
use pretty_assertions::assert_eq;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Minimax without pruning or table: the final margin for the side to move.
fn minimax(layout: &Layout, position: &Position, scoring: Scoring) -> i32 {
    let moves = position.legal_moves(layout);
    if moves == 0 {
        let margin = score(layout, position, scoring).margin();
        return if position.to_move() == Color::Black {
            margin
        } else {
            -margin
        };
    }
    cells(moves)
        .map(|c| -minimax(layout, &position.after(c), scoring))
        .max()
        .unwrap_or(0)
}

/// The position of a seeded random game with `left` marbles still to place (so no line
/// from it lasts more than `left` plies), if the game gets that far.
fn late_position(layout: &Layout, seed: u64, left: u32) -> Option<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = Position::new();
    while plies_left(&position) > left {
        position.play_unchecked(random_move(layout, &position, &mut rng)?);
    }
    Some(position)
}

#[test]
fn the_exact_solver_agrees_with_minimax() {
    let mut checked = 0;
    for seed in 0..120u64 {
        let layout = if seed.is_multiple_of(2) {
            Layout::standard()
        } else {
            Layout::random(seed)
        };
        let scoring = if seed.is_multiple_of(3) {
            Scoring {
                tiles_only: true,
                ..Scoring::default()
            }
        } else {
            Scoring::default()
        };
        let Some(position) = late_position(&layout, seed, 9).filter(|p| !p.is_over(&layout)) else {
            continue;
        };
        let never = || false;
        let solved = solve(&layout, &position, scoring, &never);
        assert!(solved.exact, "seed {seed}");
        assert_eq!(
            solved.value,
            minimax(&layout, &position, scoring),
            "seed {seed}"
        );
        let best = solved.best.expect("a move");
        // The chosen move achieves the value.
        assert_eq!(
            -minimax(&layout, &position.after(best), scoring),
            solved.value,
            "seed {seed} move {best}"
        );
        checked += 1;
    }
    assert!(checked >= 30, "only {checked} positions");
}

#[test]
fn a_node_budget_gives_the_same_move_every_time() {
    let layout = Layout::random(11);
    let position = late_position(&layout, 5, 30).expect("a long enough game");
    let never = || false;
    let a = search(
        &layout,
        &position,
        Scoring::default(),
        SearchLimits::nodes(20_000),
        &never,
    );
    let b = search(
        &layout,
        &position,
        Scoring::default(),
        SearchLimits::nodes(20_000),
        &never,
    );
    assert_eq!(a, b);
    assert!(a.nodes <= 20_000 && a.depth >= 2, "{a:?}");
    assert!(position.legal_moves(&layout) & a.best.expect("a move").bit() != 0);
    assert!(plies_left(&position) >= 30);
}

#[test]
fn reference_players_play_legal_moves_to_the_end() {
    let layout = Layout::standard();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut position = Position::new();
    let mut plies: u32 = 0;
    loop {
        let mv = if plies.is_multiple_of(2) {
            greedy_move(&layout, &position, Scoring::default(), &mut rng)
        } else {
            random_move(&layout, &position, &mut rng)
        };
        let Some(mv) = mv else { break };
        position.play(&layout, mv).expect("legal");
        plies += 1;
    }
    assert!(position.is_over(&layout));
    assert!(plies > 10);
}
