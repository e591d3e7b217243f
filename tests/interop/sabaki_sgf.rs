//! Sabaki's own SGF parser (`@sabaki/sgf`, installed in `tests/sabaki` by `.ci/run`) reads a
//! timed and judged record of a match: every move, each with its time left (`BL`/`WL`), its
//! comment and its win rate (`SBKV`, which Sabaki's graph draws) as we wrote them.

use std::path::Path;
use std::process::Command;

use crate::support::arena::{hamle_match, ok, record, scratch, sorted_results};
use crate::support::peers::require_sabaki_sgf;

#[test]
fn sabakis_parser_reads_our_timed_and_judged_sgf() {
    let sabaki = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    require_sabaki_sgf(&sabaki);
    let dir = scratch("sabaki_sgf", "match");
    let out = dir.join("out");
    let out_text = out.display().to_string();
    ok(&hamle_match(
        &dir,
        &[
            "a=hamle go --playouts 10",
            "b=hamle go --playouts 10",
            "--size",
            "7",
            "--games",
            "1",
            "--time-control",
            "absolute:600",
            "--record-judgement",
            "--quiet",
            "--out",
            &out_text,
        ],
    ));
    let result = &sorted_results(&out)[0];
    let sgf = record(&out, result);
    let path = out.join("games").join(&result.record);
    let output = Command::new("node")
        .arg(sabaki.join("read_sgf.mjs"))
        .arg(&path)
        .current_dir(&sabaki)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    let read: serde_json::Value = serde_json::from_str(&stdout).expect("JSON");
    assert_eq!(read["root"]["PB"], "a", "{stdout}");
    let moves = read["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), result.moves, "every move: {stdout}");
    let mut judged = 0;
    for (mv, cost) in moves.iter().zip(&result.costs) {
        let left = cost.clock_left.map(hamle::contract::record::seconds_text);
        assert_eq!(mv["left"].as_str(), left.as_deref(), "{mv}");
        let took = hamle::contract::record::seconds_text(cost.thinking.expect("timed"));
        let comment = mv["comment"].as_str().unwrap_or("");
        assert!(comment.starts_with(&format!("thinking {took} s")), "{mv}");
        if let Some(rate) = cost.judgement.and_then(|j| j.win_rate) {
            judged += 1;
            let percent = format!("{}.{:02}", rate / 100, rate % 100);
            assert_eq!(mv["winrate"].as_str(), Some(percent.as_str()), "{mv}");
        }
    }
    assert!(judged > 0, "{sgf}");
}
