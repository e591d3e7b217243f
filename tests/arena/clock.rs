//! `hamle match --time-control`: engines told the clock stop their search by it (a huge node
//! budget on a tiny clock still ends every game), a slow engine loses on time, the time
//! control is part of the match's settings and of each record, Tavla's clocks are kept
//! without clock commands.
//!
//! No verdict here depends on the machine's speed or load: a game on a tiny clock may end
//! by the score or on time, whichever the load makes it, and only what holds either way is
//! checked; where a move must stay inside its clock, a node or playout budget keeps it a
//! thousand times inside.

use hamle::arena::store::GameResult;

use crate::support::arena::{
    bot, broken, hamle_match, ok, record, resumes_as_is, scratch, sorted_results as results,
};

/// The two thinking times a record's comment gives: `thinking time A s and B s`.
fn thinking_times(record: &str) -> (f64, f64) {
    let seconds = |text: &str| -> f64 {
        text.trim()
            .trim_end_matches(" s")
            .parse()
            .unwrap_or_else(|_| panic!("a time in seconds, got '{text}' in:\n{record}"))
    };
    let (_, rest) = record
        .split_once("thinking time ")
        .unwrap_or_else(|| panic!("no thinking time in:\n{record}"));
    let rest = rest.split(['"', ']', ';', '\n']).next().unwrap_or("");
    let (first, second) = rest
        .split_once(" and ")
        .unwrap_or_else(|| panic!("two thinking times, got '{rest}'"));
    (seconds(first), seconds(second))
}

/// A game between engines that only the clock stops ended legally whatever the load: by the
/// score, both clocks charged, or on time, the loser's clock charged with all of its time.
fn ended_by_score_or_on_time(result: &GameResult, record: &str, seconds: f64) {
    let (first, second) = thinking_times(record);
    if result.result.ends_with("+T") {
        assert!(result.reason.starts_with("loss on time by "), "{result:?}");
        assert!(first.max(second) >= seconds, "{result:?}: {record}");
    } else {
        assert_eq!(result.reason, "score", "{result:?}");
        assert!(result.moves > 0, "{result:?}");
        assert!(
            first > 0.0 && second > 0.0,
            "the clocks were charged: {record}"
        );
    }
}

#[test]
fn kulami_engines_play_on_a_two_second_clock_and_a_slow_one_loses_on_time() {
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
    // How far each game gets on two seconds depends on the machine and its load; that
    // it ends, by the score or on time, with the clock charged, does not.
    for result in results(&out) {
        let text = record(&out, &result);
        assert!(
            text.contains("time control absolute:2, thinking time"),
            "{text}"
        );
        ended_by_score_or_on_time(&result, &text, 2.0);
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

    // An engine that sleeps a second a move from its second move on, at one second a game:
    // by its third move it has slept two seconds, more than the clock and its grace, on any
    // machine. The quick engine's two or three moves of 300 nodes stay far inside a second.
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
    let slow_args = [
        "quick",
        "slow",
        "--games",
        "2",
        "--time-control",
        "absolute:1",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    ok(&hamle_match(&dir, &slow_args));
    // Losses on time replay and resume like any other result.
    resumes_as_is(&dir, &slow_args);
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
            // 300 playouts on 5×5 take milliseconds: thirty-second periods are never at risk.
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
            "byoyomi:0+30x2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    for result in results(&out) {
        assert!(!result.result.ends_with("+T"), "{result:?}");
        assert!(record(&out, &result).contains("time control byoyomi:0+30x2"));
    }
    // Tavla engines are told their clocks as every engine is. The greedy level answers at
    // once: a minute and a minute for ten moves are never at risk.
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
            "canadian:60+60/10",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    for result in results(&out) {
        assert_eq!(result.reason, "score", "{result:?}");
        assert!(record(&out, &result).contains("time control canadian:60+60/10"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
