//! `--log-protocol`: each game's conversation with each engine, one file a game and bot
//! under `logs/protocol/`, every line timed and marked `>` (sent) or `<` (read), a bot's
//! garbage kept escaped, and the game's viewer page linking its two files; `hamle
//! regress --log-protocol FILE` keeps one file a run. Engines: hamle's Mangala and Go at
//! node budgets.

use std::process::Command;

use crate::support::arena::{bot, broken, hamle_match, mangala_engine, ok, scratch};

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

/// Every line but the heading is `SECONDS > LINE` or `SECONDS < LINE`, times never
/// going back.
fn check_lines(text: &str) {
    let line = regex::Regex::new(r"^ *(\d+\.\d{6}) ([<>]) ").expect("regex");
    let mut last = 0.0;
    for entry in text.lines().filter(|l| !l.starts_with('#')) {
        let found = line.captures(entry).unwrap_or_else(|| panic!("{entry:?}"));
        let time: f64 = found[1].parse().expect("a time");
        assert!(time >= last, "{entry}");
        last = time;
    }
}

#[test]
fn a_match_keeps_each_games_conversation_with_each_engine() {
    let dir = scratch("arena", "protocol-log");
    bot(&dir, "steady", "mangala", &mangala_engine("300"));
    broken(
        &dir,
        "noisy",
        "mangala",
        "garbage",
        3,
        &mangala_engine("300")[1..],
    );
    let out = dir.join("out");
    ok(&hamle_match(
        &dir,
        &[
            "steady",
            "noisy",
            "--pairs",
            "1",
            "--log-protocol",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    let logs = out.join("logs/protocol");
    for game in ["0001", "0002"] {
        for name in ["steady", "noisy"] {
            let path = logs.join(format!("{game}-{name}.log"));
            let text = std::fs::read_to_string(&path).expect("a protocol log");
            assert!(text.starts_with(&format!("# {name}: ")), "{text}");
            check_lines(&text);
            assert!(text.contains(" > 1 mangala-rules"), "{text}");
            assert!(text.contains(" genmove "), "{text}");
        }
        let page = std::fs::read_to_string(out.join(format!("games/{game}.html"))).expect("page");
        assert!(
            page.contains(&format!(
                "<a href=\"../logs/protocol/{game}-steady.log\">steady's protocol log</a>"
            )),
            "{page}"
        );
    }
    // What lost the game is in the log, as the engine wrote it.
    let noisy = std::fs::read_to_string(logs.join("0001-noisy.log")).expect("log");
    assert!(
        noisy.contains(" < I think I will play somewhere nice"),
        "{noisy}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn regress_keeps_the_conversation_of_its_run() {
    let dir = scratch("arena", "protocol-regress");
    let log = dir.join("talk.log");
    let suite =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/regress/rules.tst");
    let output = Command::new(HAMLE)
        .args(["regress", "hamle go --playouts 10"])
        .arg(&suite)
        .arg("--log-protocol")
        .arg(&log)
        .output()
        .expect("run hamle regress");
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(&log).expect("the log");
    assert!(text.starts_with("# "), "{text}");
    assert!(text.contains("rules.tst"), "{text}");
    check_lines(&text);
    assert!(text.contains(" > 1 boardsize 9"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `hamle match merge` copies each game's protocol logs from its shard, and the merged
/// game's page links them as the shard's did.
#[test]
fn a_merge_keeps_each_shards_protocol_logs() {
    let dir = scratch("arena", "protocol-log-merge");
    bot(&dir, "m1", "mangala", &mangala_engine("200"));
    bot(&dir, "m2", "mangala", &mangala_engine("300"));
    let mut shards = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.join(format!("shard{}", &shard[..1]));
        ok(&hamle_match(
            &dir,
            &[
                "m1",
                "m2",
                "--pairs",
                "2",
                "--shard",
                shard,
                "--log-protocol",
                "--quiet",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        ));
        shards.push(out);
    }
    let merged = dir.join("merged");
    let output = Command::new(HAMLE)
        .args(["match", "merge"])
        .arg(&merged)
        .args(&shards)
        .current_dir(&dir)
        .output()
        .expect("run hamle match merge");
    assert!(output.status.success(), "{output:?}");
    for game in ["0001", "0002", "0003", "0004"] {
        for name in ["m1", "m2"] {
            let path = merged.join(format!("logs/protocol/{game}-{name}.log"));
            let text = std::fs::read_to_string(&path).expect("a merged protocol log");
            assert!(text.starts_with(&format!("# {name}: ")), "{text}");
        }
        let page = std::fs::read_to_string(merged.join(format!("games/{game}.html")))
            .expect("the merged game's page");
        assert!(
            page.contains(&format!("href=\"../logs/protocol/{game}-m1.log\"")),
            "{game}"
        );
    }
}
