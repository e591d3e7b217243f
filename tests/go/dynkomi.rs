//! Dynamic komi (`--dynkomi on|off`) at the engine's level: it changes how handicap games
//! are searched and nothing else: even games play exactly as without it, and scores are
//! counted with the game's komi.

use std::io::Cursor;

use hamle::go::engine::{GoEngine, Settings};
use hamle::protocol::serve;
use pretty_assertions::assert_eq;

fn settings(dynamic_komi: bool) -> Settings {
    Settings {
        playouts: 300,
        seed: 7,
        dynamic_komi,
        ..Settings::default()
    }
}

/// The answers (without `=` and blank lines) of `commands` sent to a fresh engine.
fn answers(dynamic_komi: bool, commands: &[String]) -> Vec<String> {
    let mut engine = GoEngine::new(settings(dynamic_komi));
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output)
        .expect("utf-8 output")
        .split("\n\n")
        .filter(|answer| !answer.is_empty())
        .map(|answer| answer.trim_start_matches("= ").to_owned())
        .collect()
}

/// 9×9, Chinese rules, komi 0.5, `setup` (a handicap or nothing), then `moves`
/// genmoves in turn from `first`.
fn self_play(setup: &[&str], first: char, moves: usize) -> Vec<String> {
    let mut commands: Vec<String> = ["boardsize 9", "komi 0.5", "kgs-rules chinese"]
        .iter()
        .chain(setup)
        .map(|c| c.to_string())
        .collect();
    let mut color = first;
    for _ in 0..moves {
        commands.push(format!("genmove {color}"));
        color = if color == 'b' { 'w' } else { 'b' };
    }
    commands
}

#[test]
fn an_even_game_plays_exactly_as_without_it() {
    let mut commands = self_play(&[], 'b', 12);
    commands.push("final_score".into());
    assert_eq!(answers(true, &commands), answers(false, &commands));
}

#[test]
fn a_handicap_game_is_searched_with_another_komi() {
    // Two stones: Black's search komi starts 12 points above the game's 2.5 (0.5 plus
    // Chinese compensation).
    let commands = self_play(&["fixed_handicap 2"], 'w', 12);
    assert!(answers(true, &commands) != answers(false, &commands));
}

#[test]
fn giving_stones_is_searched_with_the_real_komi() {
    // White's moves are the engine's, Black's are told: the same game on and off (a
    // Black move on an occupied point fails the same way in both).
    let mut commands = self_play(&["fixed_handicap 2"], 'w', 0);
    for black in ["e5", "c7", "g3", "d4", "f6", "e3"] {
        commands.push("genmove w".into());
        commands.push(format!("play b {black}"));
    }
    commands.push("genmove w".into());
    assert_eq!(answers(true, &commands), answers(false, &commands));
}

#[test]
fn a_handicap_game_is_scored_with_the_real_komi() {
    let mut commands = self_play(&["fixed_handicap 2"], 'w', 24);
    commands.extend(["get_komi".into(), "final_score".into()]);
    let played = answers(true, &commands);
    let (setup, rest) = played.split_at(4);
    assert_eq!(setup, ["", "", "", "C3 G7"]);
    // The same moves told to an engine without dynamic komi: the same count, with the
    // game's komi.
    let mut replayed: Vec<String> = commands[..4].to_vec();
    let mut color = 'w';
    for mv in &rest[..24] {
        replayed.push(format!("play {color} {mv}"));
        color = if color == 'b' { 'w' } else { 'b' };
    }
    replayed.extend(["get_komi".into(), "final_score".into()]);
    let counted = answers(false, &replayed);
    assert_eq!(counted[28..], rest[24..]);
    assert_eq!(rest[24], "0.5");
}

#[test]
fn the_switch_reaches_the_engine() {
    let run = |args: &[&str], input: &str| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_hamle"))
            .arg("go")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                let mut stdin = child.stdin.take().expect("stdin");
                stdin.write_all(input.as_bytes())?;
                drop(stdin);
                child.wait_with_output()
            })
            .expect("run hamle");
        (
            output.status.code(),
            String::from_utf8_lossy(&output.stdout).into_owned(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let describe = "gomill-describe_engine\n";
    assert!(run(&[], describe).1.contains("dynkomi on"));
    assert!(
        run(&["--dynkomi", "off"], describe)
            .1
            .contains("dynkomi off")
    );
    let (code, _, error) = run(&["--dynkomi", "maybe"], "");
    assert_eq!(code, Some(2));
    assert!(error.contains("expected on or off, got 'maybe'"), "{error}");
}
