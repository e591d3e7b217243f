//! Tree reuse and pondering in the Go engine, served in-process: which commands keep the
//! last search's tree for the next, which drop it, and what a ponder leaves behind.

use std::io::Cursor;
use std::sync::mpsc;

use hamle::go::engine::{GoEngine, Settings};
use hamle::go::rules::RuleSet;
use hamle::protocol::{Input, Signals, serve, serve_inputs};

fn engine(playouts: u64) -> GoEngine {
    GoEngine::new(Settings {
        rules: RuleSet::Chinese,
        seed: 3,
        playouts,
        ..Settings::default()
    })
}

/// Serves `commands` (one a line) to `engine` and returns its output; the engine keeps
/// its state for the next call.
fn run(engine: &mut GoEngine, commands: &str) -> String {
    let mut output = Vec::new();
    serve(
        engine,
        Cursor::new(commands.as_bytes().to_vec()),
        &mut output,
    )
    .expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

/// The answer of a one-command session: `= D4` gives `D4`.
fn answer(output: &str) -> String {
    output
        .trim()
        .strip_prefix("= ")
        .unwrap_or_else(|| panic!("not a success: {output:?}"))
        .to_owned()
}

#[test]
fn the_next_search_starts_under_the_moves_played() {
    let mut engine = engine(1500);
    run(&mut engine, "boardsize 9\ngenmove b\n");
    assert_eq!(engine.reused_visits(), 0, "the first search starts afresh");
    assert!(engine.keeps_a_tree());
    // The engine's own move is the one its search looked at most: its subtree is kept.
    run(&mut engine, "genmove w\n");
    let after_genmove = engine.reused_visits();
    assert!(after_genmove > 0);
    // The opponent's move: a move the tree expanded (the one reg_genmove picks, which
    // plays nothing), played with `play` as a controller sends it.
    let reply = answer(&run(&mut engine, "reg_genmove b\n"));
    assert!(engine.reused_visits() > 0, "reg_genmove reuses too");
    assert_eq!(run(&mut engine, &format!("play b {reply}\n")), "= \n\n");
    run(&mut engine, "genmove w\n");
    assert!(engine.reused_visits() > 0);
    // A komi sent again unchanged keeps the tree; undo drops it.
    run(&mut engine, "komi 7.5\nreg_genmove b\n");
    assert!(engine.reused_visits() > 0);
    run(&mut engine, "undo\n");
    assert!(!engine.keeps_a_tree());
    run(&mut engine, "genmove w\n");
    assert_eq!(engine.reused_visits(), 0);
}

#[test]
fn new_games_and_changed_komi_or_rules_start_afresh() {
    for (setup, keeps) in [
        ("clear_board", false),
        ("boardsize 9", false),
        ("komi 0.5", true),
        ("kata-set-rules japanese", true),
    ] {
        let mut engine = engine(800);
        run(&mut engine, "boardsize 9\ngenmove b\n");
        run(&mut engine, &format!("{setup}\n"));
        assert_eq!(engine.keeps_a_tree(), keeps, "{setup}");
        // Kept or not, a tree from before does not fit: the search starts afresh.
        run(&mut engine, "genmove w\n");
        assert_eq!(engine.reused_visits(), 0, "{setup}");
    }
}

#[test]
fn reuse_off_keeps_nothing() {
    let mut engine = GoEngine::new(Settings {
        reuse: false,
        rules: RuleSet::Chinese,
        playouts: 800,
        ..Settings::default()
    });
    run(&mut engine, "boardsize 9\ngenmove b\ngenmove w\n");
    assert!(!engine.keeps_a_tree());
    assert_eq!(engine.reused_visits(), 0);
    // Pondering needs the tree.
    assert!(run(&mut engine, "hamle-ponder on\n").starts_with("? "));
}

#[test]
fn same_seed_same_commands_same_moves_with_reuse() {
    let session = "boardsize 9\ngenmove b\ngenmove w\nplay b c3\ngenmove w\ngenmove b\n\
                   undo\ngenmove b\ngenmove w\n";
    let first = run(&mut engine(700), session);
    assert_eq!(first, run(&mut engine(700), session));
    assert_eq!(first.matches("\n\n").count(), 9, "{first}");
}

/// Feeds `lines` to the command loop directly: no reader thread marks them as pending,
/// so the engine sees an opponent that never answers and ponders to its limit.
fn serve_waiting(engine: &mut GoEngine, lines: &[&str]) -> String {
    let (sender, receiver) = mpsc::channel();
    for line in lines {
        sender.send(Input::Line((*line).to_owned())).expect("send");
    }
    drop(sender);
    let mut output = Vec::new();
    serve_inputs(engine, &receiver, &Signals::new(), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

#[test]
fn a_ponder_searches_the_opponent_s_turn_and_leaves_the_tree_for_the_next_search() {
    const LIMIT: u64 = 2000;
    let lines = ["boardsize 9", "genmove b", "reg_genmove w"];
    let settings = |ponder| Settings {
        rules: RuleSet::Chinese,
        seed: 5,
        playouts: 1000,
        ponder,
        ponder_limit: LIMIT,
        ..Settings::default()
    };
    let mut quiet = GoEngine::new(settings(false));
    let quiet_out = serve_waiting(&mut quiet, &lines);
    let mut pondering = GoEngine::new(settings(true));
    let pondering_out = serve_waiting(&mut pondering, &lines);
    // The genmove tree under the move played, plus the ponder's playouts there.
    assert!(quiet.reused_visits() > 0);
    assert_eq!(pondering.reused_visits(), quiet.reused_visits() + LIMIT);
    // Nothing is written while pondering: the same three responses, and the same move.
    let responses = |out: &str| out.split("\n\n").map(str::to_owned).collect::<Vec<_>>();
    let (q, p) = (responses(&quiet_out), responses(&pondering_out));
    assert_eq!(p.len(), 4, "{pondering_out}");
    assert_eq!(q[..2], p[..2]);
    assert!(p[2].starts_with("= ") && p[3].is_empty(), "{pondering_out}");

    // Switched off over GTP, no ponder follows the genmove.
    let mut switched = GoEngine::new(settings(true));
    serve_waiting(
        &mut switched,
        &[
            "boardsize 9",
            "hamle-ponder off",
            "genmove b",
            "reg_genmove w",
        ],
    );
    assert_eq!(switched.reused_visits(), quiet.reused_visits());
}

#[test]
fn the_command_line_switches_reach_the_engine() {
    let describe = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_hamle"))
            .arg("go")
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .and_then(|mut child| {
                use std::io::Write;
                let mut stdin = child.stdin.take().expect("stdin");
                writeln!(stdin, "gomill-describe_engine")?;
                drop(stdin);
                child.wait_with_output()
            })
            .expect("run hamle");
        assert!(output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    assert!(describe(&[]).contains("reuse on, budget adaptive, ponder off"));
    assert!(describe(&["--reuse", "off"]).contains("reuse off, budget adaptive, ponder off"));
    assert!(
        describe(&["--reuse", "on", "--ponder"]).contains("reuse on, budget adaptive, ponder on")
    );
    assert!(describe(&["--budget", "fixed"]).contains("reuse on, budget fixed, ponder off"));
    // A switch's unknown value ends `hamle go` at once with clap's usage error.
    let refusal = |args: &[&str]| {
        let output = std::process::Command::new(env!("CARGO_BIN_EXE_hamle"))
            .arg("go")
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run hamle");
        assert!(!output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    assert!(refusal(&["--reuse", "maybe"]).contains("expected on or off"));
    assert!(refusal(&["--budget", "elastic"]).contains("expected adaptive or fixed"));
}

/// The adaptive budget reads visit counts, never the clock, when no clock is set: a game
/// at a playout budget reruns move for move, as a fixed budget's does.
#[test]
fn an_adaptive_budget_reruns_a_game_move_for_move() {
    let game = |adaptive_budget: bool| {
        let mut engine = GoEngine::new(Settings {
            rules: RuleSet::Chinese,
            seed: 5,
            playouts: 1500,
            adaptive_budget,
            ..Settings::default()
        });
        let mut commands = String::from("boardsize 9\nkomi 7.5\n");
        for _ in 0..8 {
            commands.push_str("genmove b\ngenmove w\n");
        }
        run(&mut engine, &commands)
    };
    let adaptive = game(true);
    assert_eq!(adaptive.matches("= ").count(), 18, "{adaptive}");
    assert_eq!(game(true), adaptive);
    assert_eq!(game(false), game(false));
}
