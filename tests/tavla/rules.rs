//! Tavla rules from the book (`../shared/RULES.md`, Tavla): plays, the maximal-use rule,
//! bar entry, bear-off, results, the cube, Crawford, and the IDs.

use hamle::tavla::game::{MAX_CUBE, MatchRules};
use hamle::tavla::ids::{GameState, match_id, parse_match_id, parse_position_id, position_id};
use hamle::tavla::notation::{format_play, parse_play};
use hamle::tavla::{Board, Dice, Game, Phase, Side, WinKind, legal_plays};
use pretty_assertions::assert_eq;

fn dice(a: u8, b: u8) -> Dice {
    Dice::new(a, b).expect("dice")
}

/// A board from (point, count) lists for white and black, each on its own points.
fn board(white: &[(usize, u8)], black: &[(usize, u8)]) -> Board {
    let mut rows = [[0u8; 25]; 2];
    for &(p, n) in white {
        rows[0][p - 1] = n;
    }
    for &(p, n) in black {
        rows[1][p - 1] = n;
    }
    Board::from_rows(rows).expect("valid board")
}

fn spelled(board: &Board, side: Side, d: Dice) -> Vec<String> {
    legal_plays(board, side, d)
        .iter()
        .map(|c| format_play(board, side, &c.play))
        .collect()
}

#[test]
fn the_21_rolls_from_the_start_give_447_plays() {
    let total: usize = Dice::all_rolls()
        .map(|(d, _)| legal_plays(&Board::start(), Side::White, d).len())
        .sum();
    assert_eq!(total, 447);
}

#[test]
fn opening_31_plays_are_the_known_sixteen() {
    let plays = spelled(&Board::start(), Side::White, dice(3, 1));
    assert_eq!(plays.len(), 16);
    assert!(plays.contains(&"8/5 6/5".to_string()), "{plays:?}");
    assert!(plays.contains(&"24/20".to_string()), "{plays:?}");
}

#[test]
fn both_dice_must_be_played_when_possible() {
    // White's 4 is held (black's 21): the 6 cannot start, but 2 then 6 uses both dice.
    let b = board(&[(10, 1), (1, 14)], &[(21, 2)]);
    assert_eq!(spelled(&b, Side::White, dice(6, 2)), vec!["10/2"]);
}

#[test]
fn the_larger_die_when_only_one_fits() {
    // Black holds white's 2, 18 and 19: from 13 either die fits, never both; 24 is stuck.
    let b = board(&[(13, 1), (24, 14)], &[(23, 2), (7, 2), (6, 2)]);
    assert_eq!(spelled(&b, Side::White, dice(6, 5)), vec!["13/7"]);
}

#[test]
fn bar_first_and_blocked_entry() {
    // White on the bar; black holds white's 24, 23, 22, 20 and 19: only the 4 enters.
    let b = board(
        &[(25, 1), (6, 14)],
        &[(1, 2), (2, 2), (3, 2), (5, 2), (6, 2)],
    );
    let plays = spelled(&b, Side::White, dice(5, 4));
    assert!(!plays.is_empty());
    assert!(plays.iter().all(|p| p.starts_with("bar/")), "{plays:?}");
    assert!(plays.contains(&"bar/21 6/1".to_string()), "{plays:?}");
    assert!(plays.contains(&"bar/16".to_string()), "{plays:?}");
    let closed = board(
        &[(25, 1), (6, 14)],
        &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2)],
    );
    assert_eq!(spelled(&closed, Side::White, dice(6, 6)), vec!["none"]);
}

#[test]
fn bear_off_with_a_larger_die_only_from_the_highest_point() {
    let b = board(&[(4, 1), (2, 2)], &[(13, 2)]);
    assert_eq!(spelled(&b, Side::White, dice(6, 5)), vec!["4/off 2/off"]);
    let mut plays = spelled(&b, Side::White, dice(5, 1));
    plays.sort();
    assert_eq!(plays, vec!["4/off", "4/off 2/1"]);
    // Not home yet: the 2 cannot bear off before the 7 comes in.
    let away = board(&[(7, 1), (2, 1)], &[(13, 2)]);
    let mut plays = spelled(&away, Side::White, dice(6, 2));
    plays.sort();
    assert_eq!(plays, vec!["7/1 2/off", "7/off"]);
}

#[test]
fn notation_in_every_form_gives_the_same_play() {
    let b = Board::start();
    let legal = legal_plays(&b, Side::White, dice(3, 3));
    let two = parse_play("8/5(2) 6/3(2)", &b, Side::White, &legal).expect("grouped");
    let four = parse_play("8/5 8/5 6/3 6/3", &b, Side::White, &legal).expect("listed");
    assert_eq!(two, four);
    assert_eq!(format_play(&b, Side::White, &two), "8/5(2) 6/3(2)");
    let run = parse_play("24/15 6/3", &b, Side::White, &legal).expect("one checker's run");
    assert_eq!(format_play(&b, Side::White, &run), "24/15 6/3");
    assert!(
        parse_play("24/15", &b, Side::White, &legal).is_err(),
        "all four must be played"
    );
    let legal = legal_plays(&b, Side::White, dice(6, 5));
    let lovers = parse_play("24/13", &b, Side::White, &legal).expect("lover's leap");
    assert_eq!(format_play(&b, Side::White, &lovers), "24/13");
    for bad in ["24/10", "13/14", "24", "bar/20", "24/18(5)", "x/y"] {
        assert!(parse_play(bad, &b, Side::White, &legal).is_err(), "{bad}");
    }
}

#[test]
fn hits_are_marked_and_send_the_checker_to_the_bar() {
    // Black blot on white's 5 (black's 20) and white's 3 (black's 22).
    let b = board(&[(8, 2), (6, 13)], &[(20, 1), (22, 1), (1, 13)]);
    let legal = legal_plays(&b, Side::White, dice(3, 2));
    let play = parse_play("8/5*/3*", &b, Side::White, &legal).expect("double hit");
    assert_eq!(format_play(&b, Side::White, &play), "8/5*/3*");
    let after = legal.iter().find(|c| c.play == play).expect("legal").after;
    assert_eq!(after.bar(Side::Black), 2);
}

#[test]
fn results_single_gammon_backgammon() {
    let single = board(&[], &[(1, 1)]);
    assert_eq!(WinKind::of(&single, Side::White), WinKind::Single);
    let gammon = board(&[], &[(1, 15)]);
    assert_eq!(WinKind::of(&gammon, Side::White), WinKind::Gammon);
    let backgammon = board(&[], &[(1, 14), (19, 1)]);
    assert_eq!(WinKind::of(&backgammon, Side::White), WinKind::Backgammon);
    let on_bar = board(&[], &[(1, 14), (25, 1)]);
    assert_eq!(WinKind::of(&on_bar, Side::White), WinKind::Backgammon);
}

#[test]
fn cube_doubles_to_the_cap_and_only_the_owner_redoubles() {
    let mut game = Game::new(MatchRules::default());
    game.start_game(3, 1).expect("opening");
    let (side, _, legal) = game.legal().expect("white to play");
    assert_eq!(side, Side::White);
    game.play(side, legal[0].play).expect("play");
    let mut doubler = Side::Black;
    let mut cube = 1;
    while cube < MAX_CUBE {
        assert!(game.may_double(doubler.other()).is_err());
        game.double(doubler).expect("double");
        assert!(
            game.roll(doubler, dice(1, 2)).is_err(),
            "no roll while doubled"
        );
        game.take(doubler.other()).expect("take");
        cube *= 2;
        assert_eq!(game.state().cube, cube);
        assert!(game.double(doubler).is_err(), "the taker owns the cube");
        // Pass the turn: roll and play.
        game.roll(doubler, dice(1, 2)).expect("roll");
        let (_, _, legal) = game.legal().expect("legal");
        game.play(doubler, legal[0].play).expect("play");
        doubler = doubler.other();
    }
    assert_eq!(game.state().cube, 64);
    assert!(game.double(doubler).is_err(), "64 is the cap");
    game.roll(doubler, dice(1, 2)).expect("roll");
    let (_, _, legal) = game.legal().expect("legal");
    game.play(doubler, legal[0].play).expect("play");
    assert!(
        game.double(doubler.other()).is_err(),
        "64 is the cap for the owner too"
    );
}

#[test]
fn a_drop_loses_the_cube_value_and_crawford_forbids_doubling() {
    let mut game = Game::new(MatchRules {
        length: 3,
        crawford: true,
        cube: true,
    });
    game.start_game(6, 1).expect("opening");
    let (_, _, legal) = game.legal().expect("legal");
    game.play(Side::White, legal[0].play).expect("play");
    game.double(Side::Black).expect("double");
    game.drop_cube(Side::White).expect("drop");
    assert_eq!(game.state().score, [0, 1]);
    game.start_game(2, 1).expect("second game");
    let (_, _, legal) = game.legal().expect("legal");
    game.play(Side::White, legal[0].play).expect("play");
    game.double(Side::Black).expect("double");
    game.drop_cube(Side::White).expect("drop");
    assert_eq!(game.state().score, [0, 2]);
    // Black at 2-away... 1-away of 3: the Crawford game.
    game.start_game(5, 4).expect("crawford game");
    assert!(game.state().crawford_game);
    let (_, _, legal) = game.legal().expect("legal");
    game.play(Side::White, legal[0].play).expect("play");
    assert!(game.double(Side::Black).is_err(), "Crawford game");
    game.undo().expect("undo the play");
    game.undo().expect("undo the opening");
    assert_eq!(game.state().score, [0, 2]);
    assert!(matches!(game.phase(), Phase::Over(_)));
}

#[test]
fn ids_match_gnubgs_examples() {
    assert_eq!(position_id(&Board::start(), Side::White), "4HPwATDgc/ABMA");
    // gnubg 1.07: `new match 7`, `set dice 3 1` with player 0 (O, our white) on roll.
    let mut game = Game::new(MatchRules {
        length: 7,
        crawford: true,
        cube: true,
    });
    game.start_game(3, 1).expect("white starts");
    assert_eq!(match_id(&game.match_key()), "MIHlAAAAAAAE");
    let key = parse_match_id("MIHlAAAAAAAE").expect("parse");
    assert_eq!(key.state, GameState::Playing);
    assert_eq!(key.match_length, 7);
    assert_eq!(key.dice, Some(dice(3, 1)));
    assert_eq!(
        parse_position_id("4HPwATDgc/ABMA", Side::White),
        Ok(Board::start())
    );
    // gnubg 1.07, `set jacoby off`, `new session`: money play, black opening with 5-2.
    let mut money = Game::new(MatchRules::default());
    money.start_game(2, 5).expect("black starts");
    assert_eq!(match_id(&money.match_key()), "cIkKAAAAAAAE");
}
