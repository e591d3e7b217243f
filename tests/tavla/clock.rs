//! The clock commands of `hamle tavla` and its time management by level: under a clock
//! each decision is made at the deepest level its allotment allows, never below the 0-ply
//! net. The verdicts hold on any machine: the clocks are either generous or spent.

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::player::Level;
use pretty_assertions::assert_eq;

fn engine(level: Level) -> TavlaEngine {
    TavlaEngine::new(Settings {
        seed: 7,
        level,
        match_length: 0,
        crawford: true,
    })
}

fn run(engine: &mut TavlaEngine, commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut output = Vec::new();
    serve(engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

#[test]
fn clock_commands_are_listed_accepted_and_checked() {
    let mut tavla = engine(Level::Greedy);
    assert_eq!(
        run(
            &mut tavla,
            &[
                "1 kata-list_time_settings",
                "2 time_settings 600 0 0",
                "3 kata-time_settings fischer 60 2",
                "4 kata-time_settings fischer-capped 60 2 120 -1",
                "5 kgs-time_settings byoyomi 600 30 5",
                "6 time_left white 30 0",
                "7 time_left b 12.5 0",
                "8 time_left pink 10 0",
                "9 time_left white -1 0",
                "10 kata-time_settings fischer 60",
                "11 known_command kata-time_settings",
            ]
        ),
        "=1 none absolute byoyomi canadian fischer fischer-capped\n\n\
         =2 \n\n=3 \n\n=4 \n\n=5 \n\n=6 \n\n=7 \n\n\
         ?8 syntax error: expected a side (white or black), got 'pink'\n\n\
         ?9 syntax error: expected a number of seconds, got '-1'\n\n\
         ?10 syntax error: usage: kata-time_settings none | absolute <main> | byoyomi <main> <period> <periods> | canadian <main> <period> <stones> | fischer <main> <increment> | fischer-capped <main> <increment> <main_cap> <move_cap>\n\n\
         =11 true\n\n"
    );
    let listed = run(&mut tavla, &["list_commands"]);
    for name in [
        "time_settings",
        "time_left",
        "kata-time_settings",
        "kata-list_time_settings",
    ] {
        assert!(listed.lines().any(|line| line == name), "{listed}");
    }
}

/// The level of the decision `command` makes after `before`, on a fresh net2 engine.
fn level_after(before: &[&str], command: &str) -> (Level, String) {
    let mut tavla = engine(Level::Net2);
    let mut commands = vec!["new_game 3 1"];
    commands.extend_from_slice(before);
    commands.push(command);
    let out = run(&mut tavla, &commands);
    assert!(!out.contains('?'), "{out}");
    (tavla.last_level().expect("a decision was made"), out)
}

#[test]
fn a_generous_clock_plays_the_configured_level_a_spent_one_the_0_ply_net() {
    // No clock, and a clock of an hour a move: net2.
    assert_eq!(level_after(&[], "genmove").0, Level::Net2);
    let hour = ["kata-time_settings fischer 3600 3600"];
    assert_eq!(level_after(&hour, "genmove").0, Level::Net2);
    // A spent clock: a play and a cube decision fall back to the 0-ply net.
    let spent = ["kata-time_settings absolute 600", "time_left white 0 0"];
    assert_eq!(level_after(&spent, "genmove").0, Level::Net);
    let cube = [
        "kata-time_settings absolute 600",
        "play 31 8/5 6/5",
        "time_left black 0 0",
    ];
    let (level, out) = level_after(&cube, "genmove_cube");
    assert_eq!(level, Level::Net, "{out}");
    // Black's clock spent does not touch white's.
    let other = ["kata-time_settings absolute 600", "time_left black 0 0"];
    assert_eq!(level_after(&other, "genmove").0, Level::Net2);
}

#[test]
fn clock_none_plays_as_without_a_clock() {
    let moves = ["new_game", "genmove", "genmove_cube", "genmove", "genmove"];
    let plain = run(&mut engine(Level::Net1), &moves);
    let mut with_none = vec!["kata-time_settings none"];
    with_none.extend_from_slice(&moves);
    let none = run(&mut engine(Level::Net1), &with_none);
    assert_eq!(none.strip_prefix("= \n\n"), Some(plain.as_str()));
}
