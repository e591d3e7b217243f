//! `hamle check`: every hamle engine and GNU Go pass; each kind of broken engine in
//! `tests/fixtures/broken_engine.py` fails, naming the right item, and leaves no process.
//! Small budgets and short games (`--plies`), never clocks.

use std::path::PathBuf;
use std::process::{Command, Output};

use crate::support::arena::{HAMLE, mangala_engine};
use crate::support::peers::{GNUGO, require_gnugo, require_python3};

/// `hamle check ARGS --json` with short games.
fn check(args: &[&str]) -> (Output, serde_json::Value) {
    let output = Command::new(HAMLE)
        .arg("check")
        .args(args)
        // Python starts slowly on a loaded machine: the handshake and setup get a minute;
        // the answers after them (where the broken bots break) a few seconds.
        .args(["--json", "--timeout", "4", "--start-timeout", "60"])
        .args(["--plies", "10"])
        .output()
        .expect("run hamle check");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "not JSON ({error}): {}\n{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output, report)
}

/// The status of `item` in a report.
fn status<'a>(report: &'a serde_json::Value, item: &str) -> &'a str {
    report["items"]
        .as_array()
        .and_then(|items| items.iter().find(|i| i["item"] == item))
        .and_then(|i| i["status"].as_str())
        .unwrap_or_else(|| panic!("no item {item} in {report:#}"))
}

fn failed(report: &serde_json::Value) -> Vec<String> {
    report["items"]
        .as_array()
        .map(|items| {
            items
                .iter()
                .filter(|i| i["status"] == "fail")
                .map(|i| format!("{}: {}", i["item"], i["detail"]))
                .collect()
        })
        .unwrap_or_default()
}

/// Checks that the bot `args` name passes; its report.
fn passes(args: &[&str]) -> serde_json::Value {
    let (output, report) = check(args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{args:?}: {:?}",
        failed(&report)
    );
    assert_eq!(report["match_can_run"], true);
    for item in ["moves, first seat", "moves, second seat", "framing", "quit"] {
        assert_eq!(
            status(&report, item),
            "pass",
            "{args:?}: {item} in {report:#}"
        );
    }
    report
}

#[test]
fn every_hamle_engine_passes() {
    let mangala = mangala_engine("200").join(" ");
    let engines = [
        ("go", "hamle go --playouts 20 --rules chinese".to_owned()),
        ("tavla", "hamle tavla --level greedy".to_owned()),
        ("abalone", "hamle abalone --nodes 200".to_owned()),
        ("kulami", "hamle kulami --nodes 200".to_owned()),
        ("mangala", mangala),
    ];
    for (game, command) in &engines {
        let report = passes(&[command, "--game", game]);
        assert_eq!(status(&report, "illegal move refused"), "pass", "{game}");
        if *game == "tavla" {
            // The illegal play comes with the dice the side holds: refused for the play.
            let detail = report["items"]
                .as_array()
                .and_then(|items| items.iter().find(|i| i["item"] == "illegal move refused"))
                .and_then(|i| i["detail"].as_str())
                .unwrap_or_default();
            assert!(detail.contains("is not a legal"), "{detail}");
        }
    }
}

#[test]
fn gnu_go_passes() {
    // A missing peer is a failure, never a skip (`.ci/run` installs GNU Go).
    require_gnugo();
    passes(&[&format!(
        "{GNUGO} --mode gtp --level 0 --chinese-rules --capture-all-dead"
    )]);
}

/// Whether a process whose command line holds `token` runs.
fn running(token: &str) -> bool {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return false;
    };
    entries.filter_map(Result::ok).any(|entry| {
        std::fs::read(entry.path().join("cmdline"))
            .is_ok_and(|line| String::from_utf8_lossy(&line).contains(token))
    })
}

#[test]
fn each_broken_engine_fails_on_its_item_and_leaves_nothing_running() {
    require_python3();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py");
    let cases = [
        ("crash", "moves, first seat"),
        ("hang", "moves, first seat"),
        ("garbage", "moves, first seat"),
        ("babble", "moves, first seat"),
        ("no-id", "framing"),
        ("no-blank", "framing"),
        ("accept-illegal", "illegal move refused"),
        ("ignore-quit", "quit"),
        ("junk-crash", "junk line"),
    ];
    for (mode, item) in cases {
        // The marker names the processes of this bot: none may be left afterwards.
        let token = format!("hamle-check-{mode}-{}", std::process::id());
        let marker = std::env::temp_dir().join(&token);
        let command = format!(
            "python3 {} {mode} 1 --marker {} -- {HAMLE} go --playouts 10",
            fixture.display(),
            marker.display()
        );
        let (output, report) = check(&[&command]);
        assert_eq!(output.status.code(), Some(1), "{mode}: {report:#}");
        assert_eq!(report["match_can_run"], false, "{mode}");
        assert_eq!(status(&report, item), "fail", "{mode}: {report:#}");
        assert!(
            !running(&token),
            "{mode}: a process of the bot outlived the check"
        );
    }
}

#[test]
fn a_failure_shows_its_exchange_and_protocol_md_section_in_the_table() {
    require_python3();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py");
    let command = format!(
        "python3 {} accept-illegal 1 -- {HAMLE} kulami --nodes 50",
        fixture.display()
    );
    let output = Command::new(HAMLE)
        .args(["check", &command, "--game", "kulami", "--plies", "10"])
        .output()
        .expect("run hamle check");
    let text = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(text.contains("FAIL illegal move refused: 'play"), "{text}");
    assert!(text.contains("    < ="), "the exchange is shown: {text}");
    assert!(text.contains("protocol.md: 1. Framing › Errors"), "{text}");
    assert!(
        text.contains("a match cannot run: 1 failed (illegal move refused)"),
        "{text}"
    );
}

/// `examples/bots/NAME`.
fn example(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples/bots")
        .join(name);
    format!("python3 {} --seed 5", path.display())
}

/// The example bots pass `hamle check` and play a match against a hamle engine to its end,
/// with the game's default random openings (drawn by our referee: the bots list no moves).
#[test]
fn the_example_bots_pass_and_play_a_match() {
    require_python3();
    let bots = [
        (
            "go",
            "go_random.py",
            "hamle go --playouts 20 --rules chinese".to_owned(),
        ),
        (
            "kulami",
            "kulami_random.py",
            "hamle kulami --nodes 200".to_owned(),
        ),
        (
            "mangala",
            "mangala_random.py",
            mangala_engine("200").join(" "),
        ),
        (
            "tavla",
            "tavla_random.py",
            "hamle tavla --level greedy".to_owned(),
        ),
    ];
    for (game, file, opponent) in &bots {
        let bot = example(file);
        passes(&[&bot, "--game", game]);
        let out =
            std::env::temp_dir().join(format!("hamle-check-example-{game}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let output = Command::new(HAMLE)
            .args([
                "match",
                &format!("random={bot}"),
                &format!("engine={opponent}"),
            ])
            .args(["--game", game, "--games", "2", "--sets", "1"])
            .arg("--out")
            .arg(&out)
            .output()
            .expect("run hamle match");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "{game}: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let results = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
        assert_eq!(results.lines().count(), 2, "{game}: two games: {results}");
        for line in results.lines() {
            assert!(
                !line.contains("illegal move by random") && !line.contains("of random"),
                "{game}: {line}"
            );
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// `--log-protocol FILE`: the whole conversation with the bot, what was sent and what was
/// read, timed and marked by direction.
#[test]
fn the_conversation_is_kept_with_log_protocol() {
    let log = std::env::temp_dir().join(format!("hamle-check-log-{}.log", std::process::id()));
    let log_arg = log.display().to_string();
    passes(&[
        "hamle kulami --nodes 200",
        "--game",
        "kulami",
        "--log-protocol",
        &log_arg,
    ]);
    let text = std::fs::read_to_string(&log).expect("the protocol log");
    let _ = std::fs::remove_file(&log);
    for expected in [
        "> 1 protocol_version",
        "< =1 2",
        "> 2 name",
        "< =2 hamle",
        "quit",
    ] {
        assert!(text.contains(expected), "{expected:?} in\n{text}");
    }
}
