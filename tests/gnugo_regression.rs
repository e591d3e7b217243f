//! Runs GNU Go's regression suites (`../shared/gnugo-regression/*.tst`, read in place)
//! against `hamle go`: every command must get a well-formed answer and every `loadsgf`
//! must load. The pass counts are printed (`cargo test --release --test gnugo_regression
//! -- --nocapture`); they measure strength, which tests do not assert.

mod common;

use std::path::PathBuf;

use common::GtpProcess;
use regex::Regex;

fn suite_dir() -> PathBuf {
    let candidates = [
        std::env::var_os("HAMLE_GNUGO_REGRESSION").map(PathBuf::from),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/gnugo-regression")),
        Some(PathBuf::from("/work/shared/gnugo-regression")),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|dir| dir.join("tiny.tst").is_file())
        .expect("GNU Go's regression suites not found: set HAMLE_GNUGO_REGRESSION to the folder holding tiny.tst")
}

/// One numbered check: the command's answer must fully match `pattern` (negated with `!`).
struct Expectation {
    pattern: Regex,
    negated: bool,
    /// GNU Go itself fails this one (`*`): passing it is a gain.
    known_failure: bool,
}

fn parse_expectation(line: &str) -> Option<Expectation> {
    let rest = line.strip_prefix("#?")?.trim();
    let known_failure = rest.ends_with('*');
    let rest = rest.trim_end_matches('*').trim();
    let inner = rest.strip_prefix('[')?.strip_suffix(']')?;
    let (negated, inner) = match inner.strip_prefix('!') {
        Some(inner) => (true, inner),
        None => (false, inner),
    };
    let pattern = Regex::new(&format!("^(?:{inner})$")).ok()?;
    Some(Expectation {
        pattern,
        negated,
        known_failure,
    })
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failed: usize,
    unexpected_passes: usize,
    errors: Vec<String>,
}

fn run_suite(dir: &std::path::Path, name: &str, playouts: &str) -> Tally {
    let text = std::fs::read_to_string(dir.join(name)).expect("read suite");
    let mut engine = GtpProcess::spawn_in(
        name,
        env!("CARGO_BIN_EXE_hamle"),
        &[
            "go",
            "--rules",
            "japanese",
            "--playouts",
            playouts,
            "--seed",
            "1",
        ],
        Some(dir),
    );
    let mut tally = Tally::default();
    let mut last: Option<(String, Result<String, String>)> = None;
    for raw in text.lines() {
        let line = raw.trim();
        if let Some(expectation) = line.strip_prefix("#?").and(parse_expectation(line)) {
            let Some((command, answer)) = last.take() else {
                continue;
            };
            let answer = match answer {
                Ok(body) => body.trim().to_owned(),
                Err(message) => {
                    tally.errors.push(format!("{command}: ? {message}"));
                    tally.failed += 1;
                    continue;
                }
            };
            let matched = expectation.pattern.is_match(&answer) != expectation.negated;
            match (matched, expectation.known_failure) {
                (true, false) => tally.passed += 1,
                (true, true) => {
                    tally.passed += 1;
                    tally.unexpected_passes += 1;
                }
                (false, _) => tally.failed += 1,
            }
            continue;
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let command = line.split('#').next().unwrap_or("").trim().to_owned();
        // Drop the suite's own number: the controller adds ids of its own.
        let mut words = command.split_whitespace().peekable();
        if words
            .peek()
            .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
        {
            words.next();
        }
        let command: String = words.collect::<Vec<_>>().join(" ");
        let answer = engine.send(&command);
        if command.starts_with("loadsgf") {
            assert!(answer.is_ok(), "{name}: '{command}' failed: {answer:?}");
        }
        last = Some((command, answer));
    }
    engine.quit();
    tally
}

#[test]
fn gnugo_regression_suites_run() {
    let dir = suite_dir();
    let playouts = std::env::var("HAMLE_REGRESS_PLAYOUTS").unwrap_or_else(|_| "1000".into());
    let mut suites: Vec<String> = std::fs::read_dir(&dir)
        .expect("list suites")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".tst"))
        .collect();
    suites.sort();
    let (mut passed, mut total) = (0, 0);
    for suite in &suites {
        let tally = run_suite(&dir, suite, &playouts);
        let count = tally.passed + tally.failed;
        println!(
            "{suite:>14}: {:>3}/{count:<3} passed ({} of GNU Go's own failures passed); {} answered with an error",
            tally.passed,
            tally.unexpected_passes,
            tally.errors.len()
        );
        for error in &tally.errors {
            println!("{suite:>14}:   {error}");
        }
        passed += tally.passed;
        total += count;
    }
    println!("all suites: {passed}/{total} passed at {playouts} playouts a move");
    assert!(
        total > 150,
        "expected the suites' checks to run, ran {total}"
    );
}
