//! A clock per bot (time odds: `time_control` in a bot file, `--time-control NAME=TC`) and
//! Fischer clocks (`--time-control fischer:MAIN+INC`): each engine is told its own clock,
//! an engine that overruns a Fischer clock loses on time, and ours never do.
//!
//! No verdict depends on the machine's speed: where a move must stay inside its clock, a
//! node budget or a clock many times the move's allotment keeps it there; where a move
//! must overrun, the engine sleeps a second against a clock that allows less.

use std::path::{Path, PathBuf};

use crate::support::arena::{
    HAMLE, broken, hamle_match, ok, record, resumes_as_is, scratch, sorted_results as results,
};

/// A Kulami bot at 300 nodes a move (milliseconds) whose every input line is written to
/// `transcript`, with `extra` lines in its bot file.
fn scribe(dir: &Path, name: &str, transcript: &Path, extra: &str) {
    wrapped(dir, name, "transcript", transcript, extra);
}

/// [`scribe`] with another mode of `tests/fixtures/broken_engine.py`.
fn wrapped(dir: &Path, name: &str, mode: &str, transcript: &Path, extra: &str) {
    crate::support::peers::require_python3();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py");
    let command = format!(
        "\"python3\", {:?}, \"{mode}\", \"0\", \"--marker\", {:?}, \"--\", {HAMLE:?}, \"kulami\", \"--nodes\", \"300\"",
        fixture.display().to_string(),
        transcript.display().to_string()
    );
    let text = format!(
        "name = \"{name}\"\ngame = \"kulami\"\ncommand = [{command}]\nseed_arg = \"--seed\"\n{extra}"
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

/// The lines of a transcript that start with `command` (after the arena's id), as words.
fn heard(transcript: &Path, command: &str) -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(transcript).expect("transcript");
    text.lines()
        .map(|line| line.split_whitespace().skip(1).map(str::to_owned).collect())
        .filter(|words: &Vec<String>| words.first().is_some_and(|w| w == command))
        .collect()
}

/// The seconds of every `time_left` a transcript holds.
fn times_left(transcript: &Path) -> Vec<f64> {
    heard(transcript, "time_left")
        .iter()
        .map(|words| words[2].parse().expect("seconds"))
        .collect()
}

#[test]
fn a_bot_with_half_the_time_is_told_half_and_resume_compares_each_clock() {
    let dir = scratch("clock-odds", "half");
    let (full_log, half_log) = (dir.join("full.log"), dir.join("half.log"));
    scribe(&dir, "full", &full_log, "");
    // The bot file gives this one half the match's clock, increment included.
    scribe(&dir, "half", &half_log, "time_control = \"fischer:30+1\"\n");
    let out = dir.join("out");
    let args = [
        "full",
        "half",
        "--games",
        "2",
        "--max-moves",
        "8",
        "--time-control",
        "fischer:60+2",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    ok(&hamle_match(&dir, &args));
    // Each engine heard its own clock: KataGo's Fischer settings (our engines know them),
    // and before each move its own time left, at most its main time plus the increments.
    let settings = |log: &Path| heard(log, "kata-time_settings");
    assert!(
        settings(&full_log)
            .iter()
            .all(|w| w[1..] == ["fischer", "60", "2"]),
        "{:?}",
        settings(&full_log)
    );
    assert!(
        settings(&half_log)
            .iter()
            .all(|w| w[1..] == ["fischer", "30", "1"]),
        "{:?}",
        settings(&half_log)
    );
    assert_eq!(settings(&full_log).len(), 2, "one a game");
    let (full, half) = (times_left(&full_log), times_left(&half_log));
    assert!(!full.is_empty() && !half.is_empty());
    // At most four moves a seat: the main time and three increments at most.
    assert!(full.iter().all(|&s| s > 30.0 && s <= 66.0), "{full:?}");
    assert!(half.iter().all(|&s| s > 15.0 && s <= 33.0), "{half:?}");
    assert_eq!(full[0], 60.0);
    assert_eq!(half[0], 30.0);
    // match.txt keeps both clocks; each record names the seats' clocks in seat order.
    let text = std::fs::read_to_string(out.join("match.txt")).expect("match.txt");
    assert!(text.contains("time_control = fischer:60+2\n"), "{text}");
    assert!(
        text.contains("bot2.time_control = fischer:30+1\n"),
        "{text}"
    );
    let games = results(&out);
    assert!(record(&out, &games[0]).contains("time controls fischer:60+2 and fischer:30+1"));
    assert!(record(&out, &games[1]).contains("time controls fischer:30+1 and fischer:60+2"));
    assert!(games.iter().all(|g| !g.result.ends_with("+T")), "{games:?}");
    resumes_as_is(&dir, &args);
    // The command line's NAME=TC comes before the bot file: another clock, refused.
    let mut other = args.to_vec();
    other.extend(["--time-control", "half=fischer:20+1", "--resume"]);
    let refused = hamle_match(&dir, &other);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("bot2.time_control"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    // A name no bot has, and the clock given twice for every bot, are refused.
    for (bad, said) in [
        ("nobody=absolute:5", "no bot here is named nobody"),
        ("absolute:5", "given twice for every bot"),
    ] {
        let mut wrong = args.to_vec();
        wrong.extend(["--time-control", bad]);
        let output = hamle_match(&dir, &wrong);
        assert_eq!(output.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&output.stderr).contains(said));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_overruns_a_fischer_clock_loses_on_time() {
    let dir = scratch("clock-odds", "fischer-slow");
    // Sleeps a second before every move: its first move leaves at most 0.6 s on a 1.5 s
    // clock (plus 0.1), so its second overruns it by more than the grace on any machine.
    broken(
        &dir,
        "slow",
        "kulami",
        "slow",
        1,
        &["kulami", "--nodes", "300"],
    );
    crate::support::arena::bot(
        &dir,
        "quick",
        "kulami",
        &["hamle", "kulami", "--nodes", "300"],
    );
    let out = dir.join("out");
    let args = [
        "quick",
        "slow",
        "--games",
        "2",
        "--time-control",
        "fischer:1.5+0.1",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    ok(&hamle_match(&dir, &args));
    for result in results(&out) {
        assert_eq!(result.winner_name(), Some("quick"), "{result:?}");
        assert!(
            result.reason.starts_with("loss on time by slow"),
            "{result:?}"
        );
        assert!(record(&out, &result).contains("time control fischer:1.5+0.1, thinking time"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn our_engines_never_lose_on_a_short_fischer_clock() {
    let dir = scratch("clock-odds", "fischer-ours");
    // Budgets no move reaches: the clock alone stops each search. A move is allotted a
    // fraction of a second, less than the increment; only a stall of over a second could
    // lose it.
    let engines: [(&str, &[&str], &[&str]); 5] = [
        (
            "go",
            &[
                "hamle",
                "go",
                "--rules",
                "chinese",
                "--playouts",
                "100000000",
            ],
            &["--size", "5"],
        ),
        ("kulami", &["hamle", "kulami", "--nodes", "1000000000"], &[]),
        (
            "abalone",
            &["hamle", "abalone", "--nodes", "1000000000"],
            &[],
        ),
        (
            "mangala",
            &[
                "hamle",
                "mangala",
                "--nodes",
                "1000000000",
                "--table-bits",
                "12",
                "--db-stones",
                "0",
            ],
            &[],
        ),
        // Tavla at its default level (2-ply): the clock makes it fall back to a shallower
        // net when a 2-ply decision would not fit.
        ("tavla", &["hamle", "tavla"], &["--points", "0"]),
    ];
    for (game, engine, flags) in engines {
        for name in ["a", "b"] {
            crate::support::arena::bot(&dir, &format!("{game}-{name}"), game, engine);
        }
        let out = dir.join(game);
        let mut args = vec![
            format!("{game}-a"),
            format!("{game}-b"),
            "--games".to_owned(),
            "1".to_owned(),
            "--max-moves".to_owned(),
            "16".to_owned(),
            "--time-control".to_owned(),
            "fischer:1+0.2".to_owned(),
            "--quiet".to_owned(),
            "--out".to_owned(),
            out.display().to_string(),
        ];
        args.extend(flags.iter().map(|f| (*f).to_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&hamle_match(&dir, &args));
        for result in results(&out) {
            assert!(!result.result.ends_with("+T"), "{game}: {result:?}");
            assert!(!result.reason.contains("on time"), "{game}: {result:?}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_without_katagos_extension_gets_absolute_time_and_whole_seconds() {
    let dir = scratch("clock-odds", "no-kata");
    let log = dir.join("plain.log");
    wrapped(&dir, "plain", "no-kata", &log, "");
    crate::support::arena::bot(
        &dir,
        "quick",
        "kulami",
        &["hamle", "kulami", "--nodes", "300"],
    );
    let out = dir.join("out");
    ok(&hamle_match(
        &dir,
        &[
            "quick",
            "plain",
            "--games",
            "1",
            "--max-moves",
            "8",
            "--time-control",
            "fischer:60.5+2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    assert!(heard(&log, "kata-time_settings").is_empty());
    let settings = heard(&log, "time_settings");
    assert_eq!(
        settings,
        [["time_settings", "60.5", "0", "0"]],
        "{settings:?}"
    );
    // Whole seconds, rounded down, showing the increments as they come.
    let left = times_left(&log);
    assert_eq!(left[0], 60.0, "{left:?}");
    assert!(
        left.iter().all(|s| s.fract() == 0.0 && *s <= 66.0),
        "{left:?}"
    );
    assert!(!results(&out)[0].result.ends_with("+T"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_with_other_clocks_for_a_bot_do_not_merge() {
    let dir = scratch("clock-odds", "merge");
    for name in ["a", "b"] {
        crate::support::arena::bot(&dir, name, "kulami", &["hamle", "kulami", "--nodes", "300"]);
    }
    let shard = |index: &str, clock: &str| {
        let out = dir.join(format!("shard{index}"));
        ok(&hamle_match(
            &dir,
            &[
                "a",
                "b",
                "--games",
                "4",
                "--shard",
                &format!("{index}/2"),
                "--time-control",
                "absolute:60",
                "--time-control",
                clock,
                "--quiet",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        ));
        out
    };
    let first = shard("1", "b=absolute:30");
    let second = shard("2", "b=absolute:20");
    let output = std::process::Command::new(HAMLE)
        .args(["match", "merge"])
        .arg(dir.join("merged"))
        .args([&first, &second])
        .output()
        .expect("run hamle match merge");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("bot2.time_control"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_ladder_gives_a_bot_its_own_clock_in_every_pairing() {
    let dir = scratch("clock-odds", "ladder");
    for name in ["a", "b", "c"] {
        crate::support::arena::bot(&dir, name, "kulami", &["hamle", "kulami", "--nodes", "300"]);
    }
    let out = dir.join("ladder");
    let output = std::process::Command::new(HAMLE)
        .arg("ladder")
        .args(["a", "b", "c", "--bots"])
        .arg(dir.join("bots"))
        .args(["--pairs", "1", "--quiet", "--time-control", "c=absolute:30"])
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run hamle ladder");
    ok(&output);
    let ladder = std::fs::read_to_string(out.join("ladder.txt")).expect("ladder.txt");
    assert!(
        ladder.contains("time_control.c = absolute:30\n"),
        "{ladder}"
    );
    assert!(!ladder.contains("time_control.a"), "{ladder}");
    let pairing =
        std::fs::read_to_string(out.join("pairings/02-a-vs-c/match.txt")).expect("pairing");
    assert!(
        pairing.contains("bot2.time_control = absolute:30\n"),
        "{pairing}"
    );
    assert!(!pairing.contains("bot1.time_control"), "{pairing}");
    let _ = std::fs::remove_dir_all(&dir);
}
