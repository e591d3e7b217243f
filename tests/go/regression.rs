//! What GNU Go's regression suites (and so `gogui-regress` and `hamle regress`) ask of the
//! engine: `reg_genmove` names the best move, never `resign`; boards down to 1×1, as GNU Go
//! accepts them, where every command answers without a panic.

use std::io::Cursor;

use hamle::go::engine::{GoEngine, Settings};
use hamle::go::rules::RuleSet;
use hamle::protocol::serve;

/// The answers to `commands`, one string each (`= …` or `? …`), from a fresh engine.
fn answers(settings: Settings, commands: &[&str]) -> Vec<String> {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut engine = GoEngine::new(settings);
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    let output = String::from_utf8(output).expect("utf-8 output");
    output
        .split("\n\n")
        .filter(|answer| !answer.is_empty())
        .map(str::to_owned)
        .collect()
}

fn playouts(playouts: u64) -> Settings {
    Settings {
        playouts,
        ..Settings::default()
    }
}

#[test]
fn reg_genmove_names_a_move_where_genmove_resigns() {
    // A komi of 50 on 3×3: Black has lost whatever it plays, and after a move (a pass)
    // and 2000 playouts `genmove` resigns.
    let lost = ["boardsize 3", "komi 50", "play w pass"];
    let mut commands = lost.to_vec();
    commands.extend(["reg_genmove b", "genmove b"]);
    let answers = answers(playouts(2000), &commands);
    assert_eq!(answers.len(), 5, "{answers:?}");
    let best = answers[3].strip_prefix("= ").expect("an answer");
    assert!(
        ["A1", "A2", "A3", "B1", "B2", "B3", "C1", "C2", "C3"].contains(&best),
        "reg_genmove answered {best:?}"
    );
    assert_eq!(answers[4], "= resign");
}

#[test]
fn reg_genmove_passes_only_when_nothing_else_is_legal() {
    // 1×1: the one point is a single-stone suicide, so pass is the only move.
    let answers = answers(playouts(200), &["boardsize 1", "reg_genmove b"]);
    assert_eq!(answers, ["= ", "= PASS"]);
}

#[test]
fn boardsize_1_is_accepted_and_nothing_panics_on_it() {
    let dir = std::env::temp_dir().join(format!("hamle-go-one-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("one.sgf");
    let save = format!("printsgf {}", file.display());
    let load = format!("loadsgf {}", file.display());
    for rules in RuleSet::ALL {
        let settings = Settings {
            rules,
            playouts: 100,
            ..Settings::default()
        };
        let commands = [
            "boardsize 1",
            "showboard",
            "all_legal b",
            "is_legal b a1",
            "play b a1",
            "genmove b",
            "reg_genmove w",
            "kgs-genmove_cleanup w",
            "hamle-principal_variation",
            "genmove b",
            "final_score",
            "final_status_list dead",
            "hamle-ownership",
            "fixed_handicap 2",
            "place_free_handicap 2",
            "set_free_handicap a1 a1",
            "lz-genmove_analyze b 10",
            "kata-genmove_analyze w 10 ownership true",
            &save,
            "clear_board",
            &load,
            "list_stones b",
            "undo",
            "printsgf",
            "rectangular_boardsize 1 1",
            "time_settings 10 0 0",
            "genmove b",
            "boardsize 0",
            "showboard",
        ];
        let answers = answers(settings, &commands);
        assert_eq!(answers.len(), commands.len(), "{rules}: {answers:?}");
        let answer = |command: &str| {
            let i = commands.iter().position(|c| *c == command).expect("asked");
            answers[i].as_str()
        };
        assert_eq!(answer("boardsize 1"), "= ", "{rules}");
        assert!(answer("showboard").contains(" 1  .  1"), "{rules}");
        assert_eq!(answer("all_legal b"), "= ", "{rules}");
        assert_eq!(answer("is_legal b a1"), "= 0", "{rules}");
        assert_eq!(answer("play b a1"), "? illegal move", "{rules}");
        assert_eq!(answer("genmove b"), "= PASS", "{rules}");
        assert_eq!(answer("reg_genmove w"), "= PASS", "{rules}");
        assert_eq!(answer("kgs-genmove_cleanup w"), "= PASS", "{rules}");
        assert_eq!(
            answer("final_score"),
            format!("= W+{}", rules.rules().default_komi),
            "{rules}"
        );
        assert_eq!(answer("fixed_handicap 2"), "? invalid number of stones");
        assert_eq!(
            answer("place_free_handicap 2"),
            "? invalid number of stones"
        );
        assert_eq!(answer("set_free_handicap a1 a1"), "? bad vertex list");
        assert_eq!(answer(&load), "= ", "{rules}");
        assert_eq!(answer("undo"), "= ", "{rules}");
        assert!(answer("printsgf").contains("SZ[1]"), "{rules}");
        assert_eq!(answer("rectangular_boardsize 1 1"), "= ");
        assert_eq!(answer("boardsize 0"), "? unacceptable size");
        assert!(
            answers
                .last()
                .is_some_and(|board| board.contains(" 1  .  1"))
        );
        for (command, answer) in commands.iter().zip(&answers) {
            assert!(
                !answer.contains("internal error"),
                "{rules}: {command}: {answer}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}
