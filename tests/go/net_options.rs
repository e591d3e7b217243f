//! The network's search options through the binary: `--net-min-visits` plays the same
//! moves at a fixed budget and seed, and a bad value is one usage error, nothing played.

use std::process::{Command, Output};

use crate::support::files::run_patiently;

fn hamle(args: &[&str], input: &str) -> Output {
    run_patiently(Command::new(env!("CARGO_BIN_EXE_hamle")).args(args), input)
}

/// A few moves on 9×9 at a fixed budget with the built-in net judging nodes once they
/// have `min_visits` visits.
fn moves(min_visits: &str) -> String {
    let args = [
        "go",
        "--rules",
        "chinese",
        "--net",
        "builtin",
        "--net-min-visits",
        min_visits,
        "--playouts",
        "200",
        "--budget",
        "fixed",
        "--seed",
        "3",
    ];
    let input = "boardsize 9\nclear_board\nplay b E5\ngenmove w\ngenmove b\ngenmove w\nquit\n";
    let output = hamle(&args, input);
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn net_min_visits_plays_the_same_moves_by_seed() {
    for min_visits in ["32", "root"] {
        let once = moves(min_visits);
        assert_eq!(once, moves(min_visits));
        assert!(once.matches("= ").count() >= 6, "{once}");
    }
}

#[test]
fn bad_net_min_visits_are_refused_before_play() {
    for visits in ["-1", "100001", "1.5", "ten", ""] {
        let output = hamle(&["go", "--net-min-visits", visits], "name\nquit\n");
        assert_eq!(output.status.code(), Some(2), "--net-min-visits '{visits}'");
        assert!(output.stdout.is_empty(), "the engine must not start");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("expected a whole number of visits from 0 to 100000, or 'root'"),
            "{stderr}"
        );
    }
}
