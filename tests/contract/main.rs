//! One contract for every engine (OpenSpiel's `basic_tests` idea): each game of the table
//! in `games.rs` is started as the real `hamle` binary and driven over stdin and stdout,
//! and must answer the same checks: every listed command is known and nothing else is; a
//! random legal game reaches its end, the same way for the same seeds; `undo` restores the
//! board; a refused play and a malformed line change nothing, and the engine lives on.

mod engine;
mod games;

use games::{GAMES, Game, Picker, Turns};

/// A command no engine has.
const MADE_UP: &str = "hamle-no_such_command";

/// Lines no engine can read: a missing argument, words where numbers belong, a line of
/// 10,000 characters, bytes that are not UTF-8.
fn malformed_lines() -> Vec<Vec<u8>> {
    vec![
        b"play".to_vec(),
        b"boardsize x y z".to_vec(),
        format!("play {}", "x".repeat(9_995)).into_bytes(),
        b"play \xff\xfe \xc3(".to_vec(),
        b"\xc3(\xff".to_vec(),
    ]
}

#[test]
fn every_listed_command_is_known_and_nothing_else() {
    for game in GAMES {
        let mut engine = game.start();
        let listed = engine.ok("list_commands");
        let commands: Vec<&str> = listed.lines().collect();
        for needed in [
            "protocol_version",
            "name",
            "known_command",
            "list_commands",
            "quit",
        ] {
            assert!(
                commands.contains(&needed),
                "{}: {needed} is not listed",
                game.name
            );
        }
        let mut unique = commands.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(
            unique.len(),
            commands.len(),
            "{}: a command is listed twice",
            game.name
        );
        for command in &commands {
            assert_eq!(
                engine.ok(&format!("known_command {command}")),
                "true",
                "{}: {command} is listed but not known",
                game.name
            );
        }
        assert_eq!(
            engine.ok(&format!("known_command {MADE_UP}")),
            "false",
            "{}",
            game.name
        );
        assert_eq!(engine.refused(MADE_UP), "unknown command", "{}", game.name);
        assert_eq!(engine.ok("name"), "hamle", "{}", game.name);
        engine.quit();
    }
}

#[test]
fn a_random_legal_game_reaches_its_end_the_same_way_for_the_same_seeds() {
    for game in GAMES {
        let first = game.play_to_the_end(7);
        let again = game.play_to_the_end(7);
        assert!(
            first.transcript.len() >= 4,
            "{}: a game of {} commands",
            game.name,
            first.transcript.len()
        );
        assert_eq!(
            first.transcript, again.transcript,
            "{}: same seeds, another game",
            game.name
        );
        assert_eq!(first.result, again.result, "{}", game.name);
    }
}

#[test]
fn no_move_is_left_once_the_game_is_over() {
    for game in GAMES
        .iter()
        .filter(|g| matches!(g.turns, Turns::Pick { .. }))
    {
        let mut engine = game.start();
        let mut picker = Picker::new(11);
        let mut ply = 0;
        while !game.legal_moves(&mut engine).is_empty() {
            assert!(
                ply < game.max_plies,
                "{}: no end after {ply} plies",
                game.name
            );
            let (command, answer) = game.play_turn(&mut engine, ply, &mut picker);
            answer.unwrap_or_else(|m| panic!("{}: '{command}' refused: {m}", game.name));
            if let Turns::Pick {
                after_play: Some(after),
                ..
            } = game.turns
            {
                // Refused once the game is over, which the next list then shows.
                let _ = engine.send(after);
            }
            ply += 1;
        }
        let Turns::Pick { result, .. } = game.turns else {
            unreachable!()
        };
        let answer = engine.send(result);
        assert!(
            answer.as_ref().is_ok_and(|r| r != "unknown"),
            "{}: no legal move left after {ply} plies, but '{result}' answers {answer:?}",
            game.name
        );
        engine.quit();
    }
}

#[test]
fn undo_restores_the_board() {
    for game in GAMES {
        let mut engine = game.start();
        let listed = engine.ok("list_commands");
        if !listed.lines().any(|c| c == "undo") {
            continue;
        }
        let before = engine.ok("showboard");
        let (command, answer) = game.play_turn(&mut engine, 0, &mut Picker::new(3));
        answer.unwrap_or_else(|m| panic!("{}: '{command}' refused: {m}", game.name));
        assert_ne!(
            engine.ok("showboard"),
            before,
            "{}: '{command}' changed nothing",
            game.name
        );
        engine.ok("undo");
        assert_eq!(
            engine.ok("showboard"),
            before,
            "{}: undo after '{command}'",
            game.name
        );
        engine.quit();
    }
}

#[test]
fn a_refused_play_changes_nothing() {
    for game in GAMES {
        let mut engine = game.start();
        let (refused, setup) = game.illegal.split_last().expect("an illegal play");
        for command in setup {
            engine.ok(command);
        }
        let before = engine.ok("showboard");
        let message = engine.refused(refused);
        assert!(
            message.contains("illegal"),
            "{}: '{refused}' refused with '{message}'",
            game.name
        );
        assert_eq!(
            engine.ok("showboard"),
            before,
            "{}: after '{refused}'",
            game.name
        );
        engine.quit();
    }
}

#[test]
fn malformed_lines_are_refused_and_the_engine_lives_on() {
    for game in GAMES {
        check_malformed_lines(game);
    }
}

fn check_malformed_lines(game: &Game) {
    let mut engine = game.start();
    let before = engine.ok("showboard");
    for line in malformed_lines() {
        let shown = String::from_utf8_lossy(&line[..line.len().min(40)]).into_owned();
        let answer = engine.send_bytes(&line);
        assert!(
            answer.is_err(),
            "{}: '{shown}…' was accepted: {answer:?}",
            game.name
        );
        assert_eq!(
            engine.ok("name"),
            "hamle",
            "{}: after '{shown}…'",
            game.name
        );
    }
    assert_eq!(engine.ok("showboard"), before, "{}", game.name);
    engine.quit();
}
