//! `hamle match` end to end: resuming after SIGKILL, broken engines, failure policies,
//! bad input. Engines are `hamle go` at 10 playouts (instant, seed-dependent) and
//! `tests/fixtures/broken_engine.py` wrapped around it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use crate::support::arena::{
    HAMLE, field, hamle_match, resumes_as_is, scratch, untimed_record, without_times,
};
use crate::support::peers::require_python3;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py")
}

fn instant_bot(dir: &Path, name: &str) {
    let text = format!(
        "name = \"{name}\"\ngame = \"go\"\ncommand = [\"hamle\", \"go\", \"--rules\", \"chinese\"]\nseed_arg = \"--seed\"\n[options]\nplayouts = 10\n"
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

fn broken_bot(dir: &Path, name: &str, mode: &str, k: u32) {
    require_python3();
    let marker = dir.join(format!("{name}.marker"));
    let text = format!(
        "name = \"{name}\"\ngame = \"go\"\ncommand = [\"python3\", {:?}, \"{mode}\", \"{k}\", \"--marker\", {:?}, \"--\", {HAMLE:?}, \"go\", \"--rules\", \"chinese\", \"--playouts\", \"10\"]\n",
        fixture().display().to_string(),
        marker.display().to_string(),
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

/// The lines of `results.tsv` in game order, their times blanked.
fn results(out: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(out.join("results.tsv")).unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(without_times).collect();
    lines.sort_by_key(|line| game_number(line));
    lines
}

/// Games recorded whole: a torn last line is not one.
fn recorded(out: &Path) -> usize {
    results(out)
        .iter()
        .filter(|line| line.contains("\treason="))
        .count()
}

fn game_number(line: &str) -> usize {
    line.strip_prefix("game=")
        .and_then(|rest| rest.split('\t').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or(usize::MAX)
}

/// Processes still running whose command line mentions `marker`.
fn leftover_processes(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(marker) {
                found.push(cmdline);
            }
        }
    }
    found
}

#[test]
fn resume_after_sigkill_equals_an_uninterrupted_run() {
    let dir = scratch("arena", "resume");
    instant_bot(&dir, "alpha");
    instant_bot(&dir, "beta");
    let whole = dir.join("whole");
    let common = [
        "alpha",
        "beta",
        "--pairs",
        "6",
        "--seed",
        "11",
        "--concurrency",
        "2",
        "--quiet",
    ];
    let output = hamle_match(
        &dir,
        &[&common[..], &["--out", whole.to_str().expect("utf-8")]].concat(),
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let expected = results(&whole);
    assert_eq!(expected.len(), 12);
    let distinct: std::collections::BTreeSet<&str> =
        expected.iter().map(|l| field(l, "moves")).collect();
    assert!(
        distinct.len() > 1,
        "games should differ by seed: {expected:?}"
    );

    let interrupted = dir.join("interrupted");
    let out_args = ["--out", interrupted.to_str().expect("utf-8")];
    let mut kills_mid_run = 0;
    let mut torn = false;
    // Each round kills the run at a point of its own progress, not of the clock, so a slow
    // or loaded machine kills at the same places as a fast one: the first as soon as the
    // match's settings are written, the others once one or two more games are recorded.
    // Every round after the first records a game, so twelve rounds finish the match.
    for round in 0..12u32 {
        let done_before = recorded(&interrupted);
        let mut args: Vec<&str> = [&common[..], &out_args[..]].concat();
        if interrupted.join("match.txt").exists() {
            args.push("--resume");
        }
        let mut child = Command::new(HAMLE)
            .arg("match")
            .arg("--bots")
            .arg(dir.join("bots"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start hamle match");
        let target = (done_before + 1 + (round % 2) as usize).min(12);
        let reached = || match round {
            0 => interrupted.join("match.txt").exists(),
            _ => recorded(&interrupted) >= target,
        };
        let mut finished = false;
        while !reached() {
            if child.try_wait().expect("poll").is_some() {
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let done = recorded(&interrupted);
        if !finished && done < 12 {
            kills_mid_run += 1;
        }
        if !torn && (1..12).contains(&done) {
            // A crash in the middle of an append leaves a torn last line.
            use std::io::Write;
            let mut file = std::fs::OpenOptions::new()
                .append(true)
                .open(interrupted.join("results.tsv"))
                .expect("results exist");
            file.write_all(b"game=11\tfirst=be").expect("tear");
            torn = true;
        }
        if done == 12 {
            break;
        }
    }
    assert!(
        kills_mid_run >= 2,
        "only {kills_mid_run} kills landed mid-run"
    );
    let output = hamle_match(&dir, &[&common[..], &out_args[..], &["--resume"]].concat());
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(results(&interrupted), expected, "game for game");
    for line in &expected {
        let record = field(line, "record");
        let a = std::fs::read_to_string(whole.join("games").join(record)).expect("record");
        let b = std::fs::read_to_string(interrupted.join("games").join(record)).expect("record");
        assert_eq!(untimed_record(&a), untimed_record(&b), "{record}");
        assert!(
            a.contains(&format!("seed {}", field(line, "seed"))),
            "seed in the record"
        );
    }
    let pgn = |d: &Path| std::fs::read_to_string(d.join("results.pgn")).expect("pgn");
    assert_eq!(pgn(&whole), pgn(&interrupted));
    assert_eq!(pgn(&whole).matches("[Result ").count(), 12);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn broken_engines_lose_by_the_policy_and_the_run_completes() {
    let dir = scratch("arena", "broken");
    instant_bot(&dir, "good");
    let cases = [
        ("crasher", "crash", 3, "crash of crasher"),
        ("hanger", "hang", 3, "timeout of hanger"),
        ("babbler", "garbage", 3, "garbage of babbler"),
        ("cheater", "illegal", 3, "illegal move by cheater"),
        ("sleeper", "slow-start", 300, "timeout of sleeper"),
    ];
    for (name, mode, k, _) in cases {
        broken_bot(&dir, name, mode, k);
    }
    for (name, _, _, reason) in cases {
        let out = dir.join(name);
        let output = hamle_match(
            &dir,
            &[
                "good",
                name,
                "--games",
                "2",
                "--seed",
                "5",
                "--concurrency",
                "2",
                // Far beyond what the good engine and the python wrapper need on a
                // loaded machine (milliseconds), far below the hang and the 30 s sleep.
                "--move-timeout",
                "5",
                "--start-timeout",
                "10",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        );
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let lines = results(&out);
        assert_eq!(lines.len(), 2, "{name}: {lines:?}");
        for line in &lines {
            assert!(field(line, "reason").starts_with(reason), "{name}: {line}");
            assert!(field(line, "result").ends_with("+F"), "{name}: {line}");
            let winner_seat = field(line, "winner");
            assert_eq!(
                field(line, winner_seat),
                "good",
                "{name}: the good bot wins: {line}"
            );
        }
        assert!(stdout.contains("good 2 - 0"), "{name}: {stdout}");
    }
    let marker = dir.to_string_lossy().into_owned();
    assert_eq!(
        leftover_processes(&marker),
        Vec::<String>::new(),
        "every engine is gone"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn void_policy_and_recovery() {
    let dir = scratch("arena", "policy");
    instant_bot(&dir, "good");
    broken_bot(&dir, "crasher", "crash", 2);
    broken_bot(&dir, "flaky", "crash-once", 2);
    let void = dir.join("void");
    let void_args = [
        "good",
        "crasher",
        "--games",
        "2",
        "--on-failure",
        "void",
        "--out",
        void.to_str().expect("utf-8"),
    ];
    let output = hamle_match(&dir, &void_args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Void games pass the resume checks too.
    resumes_as_is(&dir, &void_args);
    for line in results(&void) {
        assert_eq!(field(&line, "winner"), "void", "{line}");
        assert_eq!(field(&line, "result"), "void", "{line}");
    }
    let pgn = std::fs::read_to_string(void.join("results.pgn")).expect("pgn");
    assert!(!pgn.contains("[Result"), "void games are not rated: {pgn}");

    let recovered = dir.join("recovered");
    let recovered_args = [
        "good",
        "flaky",
        "--games",
        "1",
        "--recover",
        "--out",
        recovered.to_str().expect("utf-8"),
    ];
    let output = hamle_match(&dir, &recovered_args);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    resumes_as_is(&dir, &recovered_args);
    let lines = results(&recovered);
    assert_eq!(lines.len(), 1);
    let reason = field(&lines[0], "reason");
    assert!(
        reason.contains("replayed after: crash of flaky"),
        "{reason}"
    );
    assert!(!field(&lines[0], "result").ends_with("+F"), "{}", lines[0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_gets_clear_errors_and_changes_nothing() {
    let dir = scratch("arena", "badinput");
    instant_bot(&dir, "alpha");
    instant_bot(&dir, "beta");
    let out = dir.join("out");
    let out_arg = out.to_str().expect("utf-8");
    let base = [
        "alpha", "beta", "--games", "2", "--seed", "3", "--quiet", "--out", out_arg,
    ];
    assert!(hamle_match(&dir, &base).status.success());
    let before = std::fs::read(out.join("results.tsv")).expect("results");
    let stderr = |o: Output| String::from_utf8_lossy(&o.stderr).into_owned();

    let again = hamle_match(&dir, &base);
    assert_eq!(again.status.code(), Some(2));
    assert!(stderr(again).contains("already holds a match"));

    let other_seed = hamle_match(
        &dir,
        &[
            "alpha", "beta", "--games", "2", "--seed", "4", "--out", out_arg, "--resume",
        ],
    );
    assert_eq!(other_seed.status.code(), Some(2));
    assert!(stderr(other_seed).contains("seed was '3', now '4'"));
    assert_eq!(
        std::fs::read(out.join("results.tsv")).expect("results"),
        before
    );

    let mut corrupt = before.clone();
    corrupt.splice(0..0, b"game=zero\tnonsense\n".iter().copied());
    std::fs::write(out.join("results.tsv"), &corrupt).expect("write");
    let resumed = hamle_match(&dir, &[&base[..], &["--resume"]].concat());
    assert_eq!(resumed.status.code(), Some(2));
    let message = stderr(resumed);
    assert!(message.contains("results.tsv:1:"), "{message}");
    assert_eq!(
        std::fs::read(out.join("results.tsv")).expect("results"),
        corrupt
    );

    std::fs::write(
        dir.join("bots/nogame.toml"),
        "name = \"x\"\ncommand = [\"hamle\"]\n",
    )
    .expect("write");
    let missing = hamle_match(
        &dir,
        &[
            "alpha",
            "beta",
            "--out",
            dir.join("o2").to_str().expect("utf-8"),
        ],
    );
    let message = stderr(missing);
    assert!(
        message.contains("nogame.toml: line 1: missing field `game`"),
        "{message}"
    );
    std::fs::write(
        dir.join("bots/nogame.toml"),
        "name = \"x\"\ngame = \"chess\"\ncommand = [\"hamle\"]\n",
    )
    .expect("write");
    let unknown = hamle_match(
        &dir,
        &[
            "alpha",
            "beta",
            "--out",
            dir.join("o2").to_str().expect("utf-8"),
        ],
    );
    let message = stderr(unknown);
    assert!(
        message.contains("nogame.toml: line 2") && message.contains("chess"),
        "{message}"
    );
    std::fs::remove_file(dir.join("bots/nogame.toml")).expect("remove");

    std::fs::write(
        dir.join("bots/ghost.toml"),
        "name = \"ghost\"\ngame = \"go\"\ncommand = [\"/nonexistent/ghost-engine\"]\n",
    )
    .expect("write");
    let ghost = hamle_match(
        &dir,
        &[
            "alpha",
            "ghost",
            "--out",
            dir.join("o3").to_str().expect("utf-8"),
        ],
    );
    assert_eq!(ghost.status.code(), Some(2));
    let message = stderr(ghost);
    assert!(
        message.contains("'/nonexistent/ghost-engine' does not exist"),
        "{message}"
    );
    assert!(!dir.join("o3").exists(), "nothing written for a bad bot");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn score_adjudication_ends_a_game_both_engines_count_as_decided() {
    let dir = scratch("arena", "adjudicate");
    // Both engines count Black 40 ahead from the first move on.
    broken_bot(&dir, "sure-a", "count-black", 40);
    broken_bot(&dir, "sure-b", "count-black", 40);
    let out = dir.join("out");
    let run = |margin: &str, out: &Path| {
        hamle_match(
            &dir,
            &[
                "sure-a",
                "sure-b",
                "--games",
                "2",
                "--size",
                "7",
                "--adjudicate",
                margin,
                "--quiet",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        )
    };
    let output = run("30:3", &out);
    assert!(output.status.success(), "{output:?}");
    let lines = results(&out);
    assert_eq!(lines.len(), 2);
    for line in &lines {
        assert_eq!(field(line, "result"), "B+R", "{line}");
        assert_eq!(field(line, "moves"), "3", "{line}");
        assert!(field(line, "reason").starts_with("adjudicated"), "{line}");
    }
    let settings = std::fs::read_to_string(out.join("match.txt")).expect("settings");
    assert!(settings.contains("adjudicate = 30:3"), "{settings}");
    // A lead below the margin is never adjudicated: the games are played out.
    let out = dir.join("out2");
    let output = run("50:3", &out);
    assert!(output.status.success(), "{output:?}");
    for line in results(&out) {
        assert!(!field(&line, "reason").starts_with("adjudicated"), "{line}");
        assert!(
            field(&line, "moves").parse::<usize>().expect("moves") > 3,
            "{line}"
        );
    }
    let bad = run("thirty", &dir.join("out3"));
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("MARGIN:MOVES"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pgn_export_names_the_games_own_colours_beside_the_result() {
    let dir = scratch("arena", "pgn-colours");
    instant_bot(&dir, "alpha");
    instant_bot(&dir, "beta");
    let out = dir.join("out");
    let output = hamle_match(
        &dir,
        &[
            "alpha",
            "beta",
            "--pairs",
            "2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let pgn = std::fs::read_to_string(out.join("results.pgn")).expect("pgn");
    let games: Vec<&str> = pgn.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 4, "{pgn}");
    let tag = |game: &str, key: &str| -> String {
        hamle::contract::record::read_tags(game)
            .into_iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no {key}: {game}"))
    };
    for game in games {
        // PGN's White is the first seat, which is Go's Black: said in a tag, and the PGN
        // result agrees with the game's own result text.
        assert_eq!(tag(game, "WhiteSide"), "Black", "{game}");
        assert_eq!(tag(game, "BlackSide"), "White", "{game}");
        let expected = match &tag(game, "GameResult")[..2] {
            "B+" => "1-0",
            "W+" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(tag(game, "Result"), expected, "{game}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn command_line_bots_of_one_program_are_named_with_name_equals() {
    let dir = scratch("arena", "naming");
    let out = dir.join("out");
    let out_arg = out.to_str().expect("utf-8");
    let weak = "hamle go --rules chinese --playouts 10";
    let strong = "hamle go --rules chinese --playouts 20";
    // Both are named `hamle`: refused, saying how to name them.
    let refused = hamle_match(&dir, &[weak, strong, "--out", out_arg]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains(
            "both bots are named 'hamle': results are kept by name, so name them, NAME=BOT or NAME=COMMAND, e.g. 'hamle-1=hamle go --rules chinese --playouts 10' 'hamle-2=hamle go --rules chinese --playouts 20'"
        ),
        "{message}"
    );
    assert!(!out.exists());
    // Named, they play under their names.
    let named = hamle_match(
        &dir,
        &[
            &format!("weak={weak}"),
            &format!("strong={strong}"),
            "--quiet",
            "--out",
            out_arg,
        ],
    );
    assert!(named.status.success(), "{named:?}");
    let results = crate::support::arena::sorted_results(&out);
    assert_eq!(results.len(), 2);
    assert_eq!(
        (results[0].first.as_str(), results[0].second.as_str()),
        ("weak", "strong")
    );
    let settings = std::fs::read_to_string(out.join("match.txt")).expect("settings");
    assert!(settings.contains("bot1.name = weak"), "{settings}");
    // `hamle match --help` says how.
    let help = Command::new(HAMLE)
        .args(["match", "--help"])
        .output()
        .expect("help");
    assert!(String::from_utf8_lossy(&help.stdout).contains("NAME=COMMAND"));
    let _ = std::fs::remove_dir_all(&dir);
}
