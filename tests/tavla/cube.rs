//! Cube decisions: the match equity table against the published Kazaross-XG2 numbers, gammon
//! values by score, and double/take/too-good decisions on clear positions at money and at
//! match scores, from made-up probabilities and through the GTP engine's net.

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::cube::{self, Access, GammonValues, MatchScore, Stage, met};
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::net::Probs;
use hamle::tavla::player::Level;
use pretty_assertions::assert_eq;

fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
    (actual - expected).abs() <= tolerance
}

#[test]
fn table_entries_are_kazaross_xg2() {
    // (away, their away, stage, the published entry)
    let entries = [
        (1, 2, Stage::PreCrawford, 0.67736),
        (2, 3, Stage::PreCrawford, 0.59947),
        (4, 5, Stage::PreCrawford, 0.57732),
        (3, 2, Stage::PreCrawford, 0.40053),
        (25, 1, Stage::PreCrawford, 0.00095),
        (2, 1, Stage::PostCrawford, 0.48803),
        (3, 1, Stage::PostCrawford, 0.32264),
        (5, 1, Stage::PostCrawford, 0.19012),
    ];
    for (away, their, stage, published) in entries {
        assert_eq!(
            (away, their, met::chance(away, their, stage)),
            (away, their, published)
        );
    }
    // The leader post-Crawford, and the ends of a match.
    assert!(close(
        met::chance(1, 2, Stage::PostCrawford),
        0.51197,
        1e-12
    ));
    assert_eq!(met::chance(0, 3, Stage::PreCrawford), 1.0);
    assert_eq!(met::chance(3, 0, Stage::PreCrawford), 0.0);
    assert_eq!(cube::MAX_AWAY, 25);
}

#[test]
fn gammon_values_by_score() {
    // 2-away/2-away, cube 1: a gammon wins the match outright.
    // (1 - 0.67736) / (0.67736 - 0.32264) = 0.9096
    let even = GammonValues::at(2, 2, 1, Stage::PreCrawford);
    assert!(close(even.win_gammon, 0.9096, 1e-3), "{even:?}");
    assert!(close(even.lose_gammon, 0.9096, 1e-3), "{even:?}");
    // The 1-away leader gains nothing from a gammon; the 4-away trailer after the Crawford
    // game gains (0.48803 - 0.32264) / 0.32264 and loses the match either way.
    let trailer = GammonValues::at(4, 1, 1, Stage::PostCrawford);
    assert!(close(trailer.win_gammon, 0.5126, 1e-3), "{trailer:?}");
    assert_eq!(trailer.lose_gammon, 0.0);
    let leader = GammonValues::at(1, 4, 1, Stage::PostCrawford);
    assert_eq!(leader.win_gammon, 0.0);
    // Double match point: nothing but the game counts.
    assert_eq!(
        GammonValues::at(1, 1, 1, Stage::PostCrawford).win_gammon,
        0.0
    );
    // A long match at an even score is close to money play's 0.5.
    let long = GammonValues::at(25, 25, 1, Stage::PreCrawford);
    assert!(close(long.win_gammon, 0.5, 0.05), "{long:?}");
    let score = MatchScore {
        away: 2,
        their_away: 2,
        cube: 1,
        crawford_game: false,
        post_crawford: false,
    };
    assert_eq!(score.gammon_values(), even);
}

fn race(p: f32) -> Probs {
    [p, 0.0, 0.0, 0.0, 0.0]
}

/// (double, take, too good) of a decision.
fn verdict(decision: cube::Decision) -> (bool, bool, bool) {
    (decision.double, decision.take, decision.too_good)
}

#[test]
fn money_decisions_on_clear_positions() {
    // No double: an even game, and a 60% race.
    assert_eq!(verdict(cube::money(&race(0.5), Access::Centered)).0, false);
    assert_eq!(
        verdict(cube::money(&race(0.6), Access::Centered)),
        (false, true, false)
    );
    // Double, take: a 72% race. Double, pass: an 85% race.
    assert_eq!(
        verdict(cube::money(&race(0.72), Access::Centered)),
        (true, true, false)
    );
    assert_eq!(
        verdict(cube::money(&race(0.85), Access::Centered)),
        (true, false, false)
    );
    // Gammonless, the side far ahead always cashes: never too good.
    assert_eq!(
        verdict(cube::money(&race(0.99), Access::Centered)),
        (true, false, false)
    );
    // Too good: a blitz won 90% of the time, half of it gammons.
    let blitz = [0.9, 0.5, 0.05, 0.02, 0.0];
    assert_eq!(
        verdict(cube::money(&blitz, Access::Centered)),
        (false, false, true)
    );
    // Gammonless at x = 0.68 the initial double point is 68.3% and the redouble point
    // 71.8%: a 70% race is an initial double but no redouble.
    assert!(cube::money(&race(0.7), Access::Centered).double);
    assert!(!cube::money(&race(0.7), Access::Owned).double);
}

fn score(away: i64, their_away: i64, post_crawford: bool) -> MatchScore {
    MatchScore {
        away,
        their_away,
        cube: 1,
        crawford_game: false,
        post_crawford,
    }
}

#[test]
fn match_decisions_on_clear_positions() {
    let gammonish = [0.5, 0.13, 0.005, 0.13, 0.005];
    // After the Crawford game the trailer doubles an even game at once (the leader cannot
    // use the cube); at 3-away the leader takes.
    let d = cube::in_match(&gammonish, Access::Centered, &score(3, 1, true));
    assert_eq!(verdict(d), (true, true, false), "{d:?}");
    // The same 66% race that is no double for money is a double for the 3-away trailer.
    assert!(!cube::money(&race(0.66), Access::Centered).double);
    assert!(cube::in_match(&race(0.66), Access::Centered, &score(3, 1, true)).double);
    // The 2-away leader against 4-away keeps the cube at 70% (the trailer's recube would
    // be deadly), but doubles a 90% race out.
    let d = cube::in_match(&race(0.7), Access::Centered, &score(2, 4, false));
    assert_eq!(verdict(d), (false, true, false), "{d:?}");
    let d = cube::in_match(&race(0.9), Access::Centered, &score(2, 4, false));
    assert_eq!(verdict(d), (true, false, false), "{d:?}");
    // 0-0 in a 5-point match: an 85% race is double/pass, 72% double/take.
    let d = cube::in_match(&race(0.85), Access::Centered, &score(5, 5, false));
    assert_eq!(verdict(d), (true, false, false), "{d:?}");
    let d = cube::in_match(&race(0.72), Access::Centered, &score(5, 5, false));
    assert_eq!(verdict(d), (true, true, false), "{d:?}");
    // Too good at 0-0: a blitz with many gammons.
    let blitz = [0.9, 0.55, 0.05, 0.02, 0.0];
    let d = cube::in_match(&blitz, Access::Centered, &score(5, 5, false));
    assert_eq!(verdict(d), (false, false, true), "{d:?}");
    // No double in the Crawford game, nor with a cube that already wins the match.
    let crawford = MatchScore {
        crawford_game: true,
        ..score(3, 1, false)
    };
    assert!(!cube::in_match(&race(0.9), Access::Centered, &crawford).double);
    let dead = MatchScore {
        cube: 2,
        ..score(2, 3, false)
    };
    assert!(!cube::in_match(&race(0.9), Access::Owned, &dead).double);
}

fn engine_answers(commands: &[&str]) -> String {
    let mut engine = TavlaEngine::new(Settings {
        seed: 1,
        level: Level::Net,
        match_length: 0,
        crawford: true,
    });
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

#[test]
fn the_engine_decides_by_the_match_score() {
    // A bear-off race won about two times in three (both sides 2 checkers on each home
    // point, the roller to move): no double for money and at 0-0 of a 5-point match, but a
    // double for the 3-away trailer after the Crawford game (Match IDs: money, 5-point 0-0,
    // 5-point with the opponent 1-away and the roller at 2 points).
    let race = "27YBAGDbNgAAAA";
    let answers = engine_answers(&[
        &format!("set_position {race}:cAkAAAAAAAAE"),
        "genmove_cube",
        &format!("set_position {race}:cAmgAAAAAAAE"),
        "genmove_cube",
        &format!("set_position {race}:cAmgAEAAEAAE"),
        "genmove_cube",
    ]);
    assert_eq!(
        answers,
        "= \n\n= no_double\n\n= \n\n= no_double\n\n= \n\n= double\n\n"
    );
}
