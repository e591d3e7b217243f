//! `hamle match --time-control`: engines told the clock manage it (nobody loses on time at
//! a tiny clock and a huge node budget), a slow engine loses on time, the time control is
//! part of the match's settings and of each record, Tavla's clocks are kept without
//! clock commands.

use crate::support::arena::{
    bot, broken, hamle_match, ok, record, scratch, sorted_results as results,
};

#[test]
fn kulami_engines_manage_a_two_second_clock_and_a_slow_one_loses_on_time() {
    let dir = scratch("clock", "kulami");
    // A budget no move could finish: only the clock stops the search.
    bot(
        &dir,
        "deep-a",
        "kulami",
        &["hamle", "kulami", "--nodes", "1000000000"],
    );
    bot(
        &dir,
        "deep-b",
        "kulami",
        &["hamle", "kulami", "--nodes", "1000000000"],
    );
    let out = dir.join("deep");
    let out_text = out.to_str().expect("utf-8");
    ok(&hamle_match(
        &dir,
        &[
            "deep-a",
            "deep-b",
            "--games",
            "2",
            "--time-control",
            "absolute:2",
            "--quiet",
            "--out",
            out_text,
        ],
    ));
    for result in results(&out) {
        assert_eq!(result.reason, "score", "{result:?}");
        assert!(result.moves > 20, "{result:?}");
        assert!(!result.result.ends_with("+T"), "{result:?}");
        let text = record(&out, &result);
        assert!(
            text.contains("time control absolute:2, thinking time"),
            "{text}"
        );
    }
    let settings = std::fs::read_to_string(out.join("match.txt")).expect("match.txt");
    assert!(settings.contains("time_control = absolute:2"), "{settings}");
    // --resume with another clock is refused, naming it.
    let refused = hamle_match(
        &dir,
        &[
            "deep-a",
            "deep-b",
            "--games",
            "2",
            "--time-control",
            "absolute:3",
            "--resume",
            "--out",
            out_text,
        ],
    );
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("time_control"));

    // An engine that sleeps a second a move from its second move on, at one second a game.
    broken(
        &dir,
        "slow",
        "kulami",
        "slow",
        2,
        &["kulami", "--nodes", "300"],
    );
    bot(
        &dir,
        "quick",
        "kulami",
        &["hamle", "kulami", "--nodes", "300"],
    );
    let out = dir.join("slow-match");
    ok(&hamle_match(
        &dir,
        &[
            "quick",
            "slow",
            "--games",
            "2",
            "--time-control",
            "absolute:1",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    let expected = ["B+T", "R+T"];
    for (result, expected) in results(&out).iter().zip(expected) {
        assert_eq!(result.result, expected, "{result:?}");
        assert_eq!(result.winner_name(), Some("quick"));
        assert!(
            result.reason.starts_with("loss on time by slow"),
            "{result:?}"
        );
    }
    // The same engine without a clock is merely slow.
    let out = dir.join("no-clock");
    ok(&hamle_match(
        &dir,
        &[
            "quick",
            "slow",
            "--games",
            "1",
            "--max-moves",
            "6",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    assert_eq!(results(&out)[0].reason, "move cap");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn go_byoyomi_and_tavla_clocks() {
    let dir = scratch("clock", "go-tavla");
    for name in ["go-a", "go-b"] {
        bot(
            &dir,
            name,
            "go",
            // A playout cap keeps each move far inside its period on a loaded machine.
            &["hamle", "go", "--rules", "chinese", "--playouts", "300"],
        );
    }
    let out = dir.join("go");
    ok(&hamle_match(
        &dir,
        &[
            "go-a",
            "go-b",
            "--games",
            "2",
            "--size",
            "5",
            "--time-control",
            "byoyomi:0+1x2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    for result in results(&out) {
        assert!(!result.result.ends_with("+T"), "{result:?}");
        assert!(record(&out, &result).contains("time control byoyomi:0+1x2"));
    }
    // Tavla engines get no clock commands; the arena keeps their clocks all the same. The
    // greedy level answers at once, so a loaded machine cannot make the test lose on time.
    for name in ["tavla-a", "tavla-b"] {
        bot(
            &dir,
            name,
            "tavla",
            &["hamle", "tavla", "--level", "greedy"],
        );
    }
    let out = dir.join("tavla");
    ok(&hamle_match(
        &dir,
        &[
            "tavla-a",
            "tavla-b",
            "--games",
            "2",
            "--points",
            "0",
            "--time-control",
            "canadian:5+5/10",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    for result in results(&out) {
        assert_eq!(result.reason, "score", "{result:?}");
        assert!(record(&out, &result).contains("time control canadian:5+5/10"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
