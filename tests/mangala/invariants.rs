//! Property checks over seeded random sets (OpenSpiel-style): every reachable position
//! keeps its stones, round-trips through its string, agrees with its legal-move list,
//! survives clone and undo, and ends exactly when the pits are empty.

use hamle::mangala::{EndRule, Game, IllegalMove, Pit, Position, Side};
use pretty_assertions::assert_eq;
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn check_position(position: &Position, total: u32, ctx: &str) {
    assert_eq!(position.total_stones(), total, "{ctx}: stones conserved");
    let text = position.to_string();
    let back = Position::parse_with_total(&text, total)
        .unwrap_or_else(|e| panic!("{ctx}: {text} does not read back: {e}"));
    assert_eq!(&back, position, "{ctx}: string round trip");
    let south = position.row_stones(Side::South);
    let north = position.row_stones(Side::North);
    assert_eq!(
        south == 0,
        north == 0,
        "{ctx}: one row empty means the set swept both"
    );
    assert_eq!(
        position.is_over(),
        south == 0,
        "{ctx}: over exactly when pits are empty"
    );
    let legal: Vec<Pit> = position.legal_moves().collect();
    let expected: Vec<Pit> = Pit::ALL
        .into_iter()
        .filter(|&p| !position.is_over() && position.pit(position.to_move(), p) > 0)
        .collect();
    assert_eq!(legal, expected, "{ctx}: legal list");
}

fn run_set(stones: u8, rule: EndRule, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let starter = if rng.random_bool(0.5) {
        Side::South
    } else {
        Side::North
    };
    let mut game = Game::new(stones, rule, starter);
    let start = game.clone();
    let total = game.total_stones();
    let mut plies = 0;
    while !game.is_over() {
        let ctx = format!("stones {stones} {rule} seed {seed} ply {plies}");
        assert!(plies < 2_000, "{ctx}: set did not end");
        check_position(game.position(), total, &ctx);
        // An arbitrary attempt: it plays cleanly (then is undone) or changes nothing.
        let side = if rng.random_bool(0.5) {
            Side::South
        } else {
            Side::North
        };
        let pit = Pit::ALL[rng.random_range(0..6)];
        let before = game.clone();
        match game.play(side, pit) {
            Ok(_) => {
                check_position(game.position(), total, &format!("{ctx} attempt"));
                assert!(game.undo());
            }
            Err(IllegalMove::NotToMove { to_move }) => {
                assert_eq!(to_move, before.to_move());
                assert_ne!(side, to_move);
            }
            Err(IllegalMove::EmptyPit(p)) => assert_eq!(before.position().pit(side, p), 0),
            Err(IllegalMove::SetOver) => panic!("{ctx}: set over while it runs"),
            Err(IllegalMove::TooLong { .. }) => panic!("{ctx}: a real set is never this long"),
        }
        assert_eq!(game, before, "{ctx}: attempt then undo");

        let mover = game.to_move();
        let legal: Vec<Pit> = game.position().legal_moves().collect();
        let &pit = legal
            .choose(&mut rng)
            .expect("a running set has a legal move");
        let before = game.clone();
        let landing = game.play(mover, pit).expect("chosen among legal moves");
        let stores_before =
            before.position().store(Side::South) + before.position().store(Side::North);
        let stores_after = game.position().store(Side::South) + game.position().store(Side::North);
        assert!(stores_after >= stores_before, "{ctx}: stores never shrink");
        if !game.is_over() {
            let again = landing == hamle::mangala::Landing::Store;
            assert_eq!(
                game.to_move() == mover,
                again,
                "{ctx}: extra turn iff the store"
            );
        }
        let after = game.clone();
        assert_eq!(after.clone(), after, "{ctx}: clone");
        assert!(game.undo());
        assert_eq!(game, before, "{ctx}: undo of {mover} {pit}");
        game = after;
        plies += 1;
    }
    check_position(game.position(), total, "final");
    let position = game.position();
    assert_eq!(
        u32::from(position.store(Side::South)) + u32::from(position.store(Side::North)),
        total
    );
    while game.undo() {}
    assert_eq!(game, start, "undo to the start");
    plies
}

#[test]
fn random_sets_keep_invariants() {
    let mut plies = 0;
    let mut sets = 0;
    for stones in 1..=5u8 {
        for rule in [EndRule::EmptierTakesAll, EndRule::EachKeepsOwn] {
            for game in 0..60u64 {
                plies += run_set(
                    stones,
                    rule,
                    u64::from(stones) << 32 | game << 1 | rule as u64,
                );
                sets += 1;
            }
        }
    }
    assert!(
        plies > sets * 10,
        "sets are not trivially short: {plies} plies in {sets} sets"
    );
    println!("{sets} sets, {plies} plies checked");
}

#[test]
fn malformed_positions_are_refused() {
    let cases = [
        ("4,4,4,4,4,4,0/4,4,4,4,4,4,0", "expected south pits"),
        ("4,4,4,4,4,4,0/4,4,4,4,4,4,0/x", "expected south pits"),
        ("4,4,4,4,4,0/4,4,4,4,4,4,0/s", "expected south pits"),
        ("4,4,4,4,4,-4,0/4,4,4,4,4,4,8/s", "negative"),
        ("4,4,4,4,4,4,1/4,4,4,4,4,4,0/s", "holds 49 stones"),
        ("0,0,0,0,0,0,20/4,4,4,4,4,4,4/s", "would have ended"),
        ("4,4,4,4,4,4,0/4,4,4,4,4,x,0/s", "stone count"),
        ("4,4,4,4,4,4,0/4,4,4,4,4,999,0/s", "do not fit"),
    ];
    for (text, needle) in cases {
        let error = Position::parse_with_total(text, 48)
            .expect_err(text)
            .to_string();
        assert!(error.contains(needle), "{text}: '{error}' lacks '{needle}'");
    }
}
