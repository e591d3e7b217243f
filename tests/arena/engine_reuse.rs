//! Engines kept between games (`--restart on-failure`, the default) against fresh engines
//! for every game (`--restart per-game`): for deterministic bots both write the same
//! folder, file for file; an engine that crashes under reuse is replaced and the run
//! completes with the right counts; every hamle engine takes `set_random_seed`; `hamle
//! bench arena` runs and prints its lines.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use pretty_assertions::assert_eq;

use crate::support::arena::{HAMLE, folder_files, hamle_match, mangala_engine, ok, scratch};
use crate::support::gtp::GtpChild;
use crate::support::peers::require_python3;

/// Writes `bots/NAME.toml`: `command`, seeded per game (`--seed`, `set_random_seed`).
fn seeded_bot(dir: &Path, name: &str, game: &str, command: &[&str]) {
    let words: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
    let text = format!(
        "name = \"{name}\"\ngame = \"{game}\"\ncommand = [{}]\nseed_arg = \"--seed\"\nseed_command = \"set_random_seed\"\n",
        words.join(", ")
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

/// Plays the match `args` into `DIR/kept` and `DIR/fresh`, the engines kept and restarted;
/// both folders must hold the same files.
fn same_folder_both_ways(dir: &Path, args: &[&str]) {
    let mut folders = Vec::new();
    for (name, restart) in [("kept", "on-failure"), ("fresh", "per-game")] {
        let out = dir.join(name);
        let out = out.to_str().expect("utf-8");
        ok(&hamle_match(
            dir,
            &[args, &["--restart", restart, "--quiet", "--out", out]].concat(),
        ));
        folders.push(folder_files(&dir.join(name)));
    }
    let names = |files: &[(String, String)]| files.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    assert_eq!(names(&folders[0]), names(&folders[1]), "the same files");
    // File by file, the first line that differs: a page is too long for a whole diff.
    for ((name, kept), (_, fresh)) in folders[0].iter().zip(&folders[1]) {
        let differs = kept.lines().zip(fresh.lines()).find(|(a, b)| a != b);
        let (kept_line, fresh_line) = differs.unwrap_or_default();
        assert_eq!(
            (kept_line, kept.len()),
            (fresh_line, fresh.len()),
            "{name}: kept engines play the games fresh ones do"
        );
    }
}

#[test]
fn kept_engines_play_mangala_as_fresh_ones_do() {
    let dir = scratch("arena", "reuse-mangala");
    seeded_bot(&dir, "quick", "mangala", &mangala_engine("300"));
    seeded_bot(&dir, "deeper", "mangala", &mangala_engine("1500"));
    same_folder_both_ways(&dir, &["quick", "deeper", "--games", "8", "--seed", "3"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kept_engines_play_go_as_fresh_ones_do() {
    let dir = scratch("arena", "reuse-go");
    let go = |playouts| ["hamle", "go", "--rules", "chinese", "--playouts", playouts];
    seeded_bot(&dir, "g20", "go", &go("20"));
    seeded_bot(&dir, "g40", "go", &go("40"));
    let args = ["g20", "g40", "--games", "4", "--seed", "9", "--size", "9"];
    same_folder_both_ways(&dir, &[&args[..], &["--max-moves", "40"]].concat());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kept_engines_play_abalone_and_kulami_as_fresh_ones_do() {
    let dir = scratch("arena", "reuse-abalone");
    // Abalone's evaluation mixes in seeded noise: the reseed between games matters.
    seeded_bot(
        &dir,
        "a3",
        "abalone",
        &["hamle", "abalone", "--nodes", "300"],
    );
    seeded_bot(
        &dir,
        "a6",
        "abalone",
        &["hamle", "abalone", "--nodes", "600"],
    );
    let args = [
        "a3",
        "a6",
        "--games",
        "4",
        "--seed",
        "4",
        "--max-moves",
        "30",
    ];
    same_folder_both_ways(&dir, &args);
    let _ = std::fs::remove_dir_all(&dir);
    let dir = scratch("arena", "reuse-kulami");
    seeded_bot(&dir, "k3", "kulami", &["hamle", "kulami", "--nodes", "300"]);
    seeded_bot(&dir, "k6", "kulami", &["hamle", "kulami", "--nodes", "600"]);
    same_folder_both_ways(&dir, &["k3", "k6", "--games", "4", "--seed", "2"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A relay to a real engine that appends its pid to STARTS when it starts and exits
/// without answering at the first `genmove` of its CRASH-th game (games counted by the
/// `clear_board`s a kept engine gets between games; 0: never).
const GAME_CRASHER: &str = r#"import os, subprocess, sys
starts, crash = sys.argv[1], int(sys.argv[2])
with open(starts, "a") as out:
    out.write("%d\n" % os.getpid())
child = subprocess.Popen(sys.argv[4:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
game = 1
for line in sys.stdin:
    words = line.split()
    command = words[1:] if words and words[0].isdigit() else words
    if command and command[0] == "clear_board":
        game += 1
    if command and command[0] == "genmove" and game == crash:
        sys.exit(3)
    child.stdin.write(line)
    child.stdin.flush()
    while True:
        answer = child.stdout.readline()
        if not answer:
            sys.exit(4)
        sys.stdout.write(answer)
        if answer.strip() == "":
            break
    sys.stdout.flush()
    if command and command[0] == "quit":
        break
"#;

/// `bots/NAME.toml`: a quick Mangala engine behind [`GAME_CRASHER`]; returns the file its
/// starts are counted in.
fn crasher_bot(dir: &Path, name: &str, crash_game: u32) -> std::path::PathBuf {
    let script = dir.join("crasher.py");
    std::fs::write(&script, GAME_CRASHER).expect("write the relay");
    let starts = dir.join(format!("{name}.starts"));
    let mut command = vec![
        "python3".to_owned(),
        script.display().to_string(),
        starts.display().to_string(),
        crash_game.to_string(),
        "--".to_owned(),
        HAMLE.to_owned(),
    ];
    command.extend(
        mangala_engine("300")
            .iter()
            .skip(1)
            .map(|w| (*w).to_owned()),
    );
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    seeded_bot(dir, name, "mangala", &words);
    starts
}

fn started(starts: &Path) -> usize {
    std::fs::read_to_string(starts)
        .unwrap_or_default()
        .lines()
        .count()
}

#[test]
fn a_kept_engine_that_crashes_is_replaced_and_the_run_completes() {
    require_python3();
    let dir = scratch("arena", "reuse-crash");
    let crasher = crasher_bot(&dir, "crasher", 3);
    let steady = crasher_bot(&dir, "steady", 0);
    let out = dir.join("kept");
    let output = hamle_match(
        &dir,
        &[
            "steady",
            "crasher",
            "--games",
            "10",
            "--seed",
            "1",
            // Every move the engines' own: the crasher counts the moves it is asked for.
            "--opening-plies",
            "0",
            "--quiet",
            "--start-timeout",
            "60",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    let text = ok(&output);
    let results = crate::support::arena::sorted_results(&out);
    assert_eq!(results.len(), 10, "{text}");
    // Each crasher process plays two games and crashes in its third: games 3, 6 and 9
    // (from 1) are forfeits, and four processes were started; the steady engine is kept.
    let crashed: Vec<usize> = results
        .iter()
        .filter(|r| r.reason.starts_with("crash of crasher"))
        .map(|r| r.game + 1)
        .collect();
    assert_eq!(crashed, [3, 6, 9], "{results:#?}");
    assert_eq!((started(&crasher), started(&steady)), (4, 1));
    // Fresh engines for every game: the relay never sees a clear_board, never crashes.
    let _ = std::fs::remove_file(&crasher);
    let _ = std::fs::remove_file(&steady);
    let fresh = dir.join("fresh");
    ok(&hamle_match(
        &dir,
        &[
            "steady",
            "crasher",
            "--games",
            "4",
            "--opening-plies",
            "0",
            "--quiet",
            "--restart",
            "per-game",
            "--out",
            fresh.to_str().expect("utf-8"),
        ],
    ));
    let results = crate::support::arena::sorted_results(&fresh);
    assert!(results.iter().all(|r| r.reason == "score"), "{results:#?}");
    assert_eq!((started(&crasher), started(&steady)), (4, 4));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_hamle_engine_takes_set_random_seed() {
    let patience = Duration::from_secs(60);
    for game in ["go", "tavla", "abalone", "kulami", "mangala"] {
        let mut engine = GtpChild::start(&[game]);
        assert_eq!(
            engine.ask("known_command set_random_seed", patience),
            Ok("true".to_owned()),
            "{game}"
        );
        assert_eq!(
            engine.ask("set_random_seed 18446744073709551615", patience),
            Ok(String::new())
        );
        let refused = engine
            .ask("set_random_seed -1", patience)
            .expect_err("a negative seed");
        assert!(refused.contains("whole number from 0"), "{game}: {refused}");
        engine.quit();
    }
}

/// The moves of `hamle go --playouts 30`, seeded `seed` on the command line or, after a
/// game with another seed, by `set_random_seed` and `clear_board`.
fn go_moves(seed: u64, reseeded: bool) -> Vec<String> {
    let patience = Duration::from_secs(120);
    let start_seed = if reseeded { seed + 1 } else { seed }.to_string();
    let mut engine = GtpChild::start(&["go", "--playouts", "30", "--seed", &start_seed]);
    let mut ask = |command: &str| engine.ask(command, patience).expect(command);
    ask("boardsize 9");
    ask("clear_board");
    if reseeded {
        for color in ["b", "w", "b"] {
            ask(&format!("genmove {color}"));
        }
        ask(&format!("set_random_seed {seed}"));
        ask("clear_board");
    }
    let moves = ["b", "w", "b", "w"].map(|c| ask(&format!("genmove {c}")));
    engine.quit();
    moves.to_vec()
}

#[test]
fn a_reseeded_go_engine_plays_as_a_fresh_one() {
    assert_eq!(go_moves(11, true), go_moves(11, false));
}

#[test]
fn bench_arena_prints_both_rates_and_the_check() {
    let output = Command::new(HAMLE)
        .args(["bench", "arena", "--games", "4", "--concurrency", "1"])
        .output()
        .expect("run hamle bench arena");
    let text = ok(&output);
    for line in [
        "kept engines (--restart on-failure): 4 games in ",
        "fresh engines (--restart per-game): 4 games in ",
        "ratio: ",
        "same games: yes",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }
}

/// The viewer pages are written on a thread of their own (`match_play/publish.rs`): a run
/// waits for them, and a resumed run writes the pages a stopped run left unwritten.
#[test]
fn a_resumed_match_writes_the_pages_a_stopped_run_left_unwritten() {
    let dir = scratch("arena", "reuse-pages");
    seeded_bot(&dir, "quick", "mangala", &mangala_engine("300"));
    seeded_bot(&dir, "deeper", "mangala", &mangala_engine("600"));
    let out = dir.join("m");
    let args = ["quick", "deeper", "--games", "2", "--quiet", "--out"];
    let args = [&args[..], &[out.to_str().expect("utf-8")]].concat();
    ok(&hamle_match(&dir, &args));
    let page = out.join("games").join("0001.html");
    let written = std::fs::read_to_string(&page).expect("the page of game 1");
    std::fs::remove_file(&page).expect("remove the page");
    ok(&hamle_match(&dir, &[&args[..], &["--resume"]].concat()));
    assert_eq!(std::fs::read_to_string(&page).ok(), Some(written));
    let _ = std::fs::remove_dir_all(&dir);
}
