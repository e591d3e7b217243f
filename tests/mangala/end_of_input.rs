//! `mangala-solve` and the end of input: a solve without a node budget (hours from the
//! start position) ends when the input does, as an analysis stream does, since its
//! controller can ask nothing more; a solve with a budget runs it whole, as a piped script
//! expects. The verdicts read the answer (bounds or exact, the nodes searched); the time
//! bound only turns a hang into a failure.

use std::process::Command;

use crate::support::files::run_patiently;

/// `hamle mangala` with `script` piped in whole (the input ends at once); its stdout. The
/// run's patience (minutes) is far longer than a solve stopped by the end of
/// input takes on any machine, far shorter than the whole solve of the start position.
fn run_piped(script: &str) -> String {
    let output = run_patiently(
        Command::new(env!("CARGO_BIN_EXE_hamle")).args(["mangala", "--db-stones", "0"]),
        script,
    );
    assert!(output.status.success(), "{}", output.status);
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The nodes an answer `= bounds south -48 +48 nodes N` reports.
fn nodes(answer: &str) -> u64 {
    answer
        .split_whitespace()
        .last()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in {answer:?}"))
}

#[test]
fn a_solve_without_budget_ends_with_the_input() {
    let stdout = run_piped("mangala-solve\n");
    let answer = stdout.trim_end();
    // The start position is far from solved: only bounds could have been proved.
    assert!(answer.starts_with("= bounds "), "{answer}");
}

#[test]
fn a_budgeted_solve_runs_its_budget_after_the_input_ended() {
    let stdout = run_piped("mangala-solve 50000\n");
    let answer = stdout.trim_end();
    assert!(answer.starts_with("= bounds "), "{answer}");
    assert!(nodes(answer) >= 50_000, "the solve was cut short: {answer}");
}
