//! OpenSpiel-style invariants on seeded random Tavla matches: at every step a copy equals
//! the original, the IDs round-trip, undo restores the exact state, the legal list is
//! sorted, unique and agrees with the notation reader, and every game ends within its cap.

use hamle::tavla::game::MatchRules;
use hamle::tavla::ids::{match_id, parse_match_id, parse_position_id, position_id};
use hamle::tavla::notation::{format_play, parse_play};
use hamle::tavla::{Game, Phase, Roller, Side};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// No game of backgammon lasts this many plies (each side needs at least 167 pips / 24).
const PLY_CAP: usize = 3000;

#[test]
fn random_matches_keep_every_invariant() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7A71A);
    let mut roller = Roller::new(7);
    let mut games = 0;
    let mut plies = 0;
    for length in [0u32, 1, 3, 5, 7].into_iter().cycle().take(40) {
        let mut game = Game::new(MatchRules {
            length,
            crawford: true,
            cube: true,
        });
        for _ in 0..if length == 0 { 20 } else { 200 } {
            if game.match_winner().is_some() {
                break;
            }
            let (white, black) = roller.opening();
            game.start_game(white, black).expect("opening");
            games += 1;
            let mut ply = 0;
            while !matches!(game.phase(), Phase::Over(_)) {
                ply += 1;
                assert!(ply < PLY_CAP, "a game passed {PLY_CAP} plies");
                let copy = game.clone();
                assert_eq!(copy, game);
                check_ids(&game);
                match game.phase() {
                    Phase::ToRoll(side) => {
                        if game.may_double(side).is_ok() && rng.random_bool(0.02) {
                            game.double(side).expect("may double");
                        } else {
                            game.roll(side, roller.roll()).expect("roll");
                        }
                    }
                    Phase::Doubled { by } => {
                        if rng.random_bool(0.8) {
                            game.take(by.other()).expect("take");
                        } else {
                            game.drop_cube(by.other()).expect("drop");
                        }
                    }
                    Phase::ToPlay { side, .. } => {
                        plies += 1;
                        check_plays(&game, side);
                        let (_, _, legal) = game.legal().expect("legal");
                        let pick = legal[rng.random_range(0..legal.len())].play;
                        game.play(side, pick).expect("a listed play is legal");
                    }
                    Phase::Opening | Phase::Over(_) => unreachable!(),
                }
                let mut undone = game.clone();
                undone.undo().expect("undo");
                assert_eq!(undone.state(), copy.state(), "undo restores the state");
                assert_eq!(undone.actions(), copy.actions(), "undo restores the record");
                let total: u8 = Side::BOTH.iter().map(|&s| game.board().on_board(s)).sum();
                assert!(total <= 30);
            }
        }
        if length > 0 {
            let winner = game.match_winner().expect("the match ends");
            assert!(game.state().score[winner.index()] >= length);
        }
    }
    assert!(games > 100, "{games} games");
    assert!(plies > 10_000, "{plies} plies");
}

fn check_ids(game: &Game) {
    let key = game.match_key();
    let on_roll = key.turn;
    let id = position_id(game.board(), on_roll);
    assert_eq!(parse_position_id(&id, on_roll).as_ref(), Ok(game.board()));
    let mid = match_id(&key);
    assert_eq!(parse_match_id(&mid), Ok(key), "match id {mid}");
}

fn check_plays(game: &Game, side: Side) {
    let (_, _, legal) = game.legal().expect("legal");
    for pair in legal.windows(2) {
        assert!(pair[0].play > pair[1].play, "sorted and unique plays");
    }
    for (i, a) in legal.iter().enumerate() {
        for b in &legal[i + 1..] {
            assert_ne!(a.after, b.after, "one play per resulting position");
        }
        let text = format_play(game.board(), side, &a.play);
        let read = parse_play(&text, game.board(), side, &legal);
        assert_eq!(read, Ok(a.play), "'{text}' reads back as itself");
        let mut probe = game.clone();
        probe.play(side, a.play).expect("listed plays are legal");
    }
}
