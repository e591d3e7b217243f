//! The learned move prior through the binary: `hamle go learn-patterns` fits the same
//! weights from the same records, the engine plays with them, and every file it cannot
//! use (a missing, malformed, oversized or non-regular record or weights file) is one
//! error line naming the file, never a panic or a hang.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use crate::support::files::{HUGE, Scratch, fifo, run_patiently, sparse};

/// The project's own GNU Go self-play records (`tests/data/README.md`).
fn records() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/go-patterns")
}

fn hamle(args: &[&str], input: &str) -> Output {
    run_patiently(Command::new(env!("CARGO_BIN_EXE_hamle")).args(args), input)
}

/// `hamle go learn-patterns` on `records` (first two moves skipped), with `options` more.
fn learn(records: &Path, out: &Path, options: &[&str]) -> Output {
    let (out, records) = (out.display().to_string(), records.display().to_string());
    let mut args = vec!["go", "learn-patterns", "--skip-moves", "2", "--out", &out];
    args.extend_from_slice(options);
    args.push(&records);
    hamle(&args, "")
}

/// The error a failed run printed: its stderr, which must be one line without a panic.
fn one_error_line(output: &Output) -> String {
    assert!(!output.status.success(), "the run should fail");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn learn_patterns_writes_the_same_weights_from_the_same_records() {
    let scratch = Scratch::new("go", "learn-same");
    let (first, second) = (scratch.0.join("first.txt"), scratch.0.join("second.txt"));
    for out in [&first, &second] {
        let output = learn(&records(), out, &[]);
        assert!(output.status.success(), "{output:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(stdout.starts_with("learned from 4 records:"), "{stdout}");
    }
    let weights = std::fs::read_to_string(&first).expect("weights written");
    assert_eq!(
        weights,
        std::fs::read_to_string(&second).expect("weights written")
    );
    assert!(weights.starts_with("hamle-go-gammas 1\n"), "{weights}");
    // Records make captures and shapes stronger than the uniform guess.
    assert!(weights.contains("\ncapture 1 "), "{weights}");
    assert!(weights.contains("\nshape "), "{weights}");

    // The engine plays with them, and at a fixed budget the same moves.
    let play = || {
        let output = hamle(
            &[
                "go",
                "--playouts",
                "300",
                "--learned-prior",
                "10",
                "--gammas",
                &first.display().to_string(),
            ],
            "boardsize 9\nclear_board\nplay b e5\ngenmove w\ngenmove b\nquit\n",
        );
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let moves = play();
    assert_eq!(moves.matches("= ").count(), 6, "{moves}");
    assert!(!moves.contains('?'), "{moves}");
    assert_eq!(play(), moves);
}

/// The held-out log-likelihood `learn-patterns` printed.
fn held_out_log_likelihood(stdout: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|line| line.starts_with("held out: "))
        .unwrap_or_else(|| panic!("no held-out line: {stdout}"));
    let after = line
        .split("log-likelihood ")
        .nth(1)
        .unwrap_or_else(|| panic!("{line}"));
    after
        .split(';')
        .next()
        .and_then(|number| number.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn large_patterns_are_learned_and_predict_the_records_better() {
    let scratch = Scratch::new("go", "learn-spatial");
    let held_out = records().display().to_string();
    let learn_with = |spatial_min: &str, out: &Path| {
        let options = ["--spatial-min", spatial_min, "--held-out", &held_out];
        let output = learn(&records(), out, &options);
        assert!(output.status.success(), "{output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let (plain, spatial) = (scratch.0.join("plain.txt"), scratch.0.join("spatial.txt"));
    let without = learn_with("0", &plain);
    let with = learn_with("2", &spatial);
    assert!(without.contains(", 0 large patterns;"), "{without}");
    assert!(!with.contains(", 0 large patterns;"), "{with}");
    let weights = std::fs::read_to_string(&spatial).expect("weights written");
    assert!(weights.contains("\nspatial "), "{weights}");
    assert!(
        !std::fs::read_to_string(&plain)
            .expect("weights written")
            .contains("spatial")
    );
    // Judged on the records they were fitted to, the patterns can only help.
    assert!(
        held_out_log_likelihood(&with) > held_out_log_likelihood(&without),
        "{without}\n{with}"
    );
    // The engine reads them back and plays.
    let output = hamle(
        &[
            "go",
            "--playouts",
            "300",
            "--gammas",
            &spatial.display().to_string(),
        ],
        "boardsize 9\nclear_board\nplay b e5\ngenmove w\nquit\n",
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && !stdout.contains('?'),
        "{output:?}"
    );
}

#[test]
fn learn_patterns_names_the_record_it_cannot_read() {
    let scratch = Scratch::new("go", "learn-bad");
    let out = scratch.0.join("weights.txt");
    let missing = scratch.0.join("missing.sgf");
    let malformed = scratch.0.join("malformed.sgf");
    std::fs::write(&malformed, "(;GM[1]SZ[9];B[ee];W[").expect("write");
    let illegal = scratch.0.join("illegal.sgf");
    std::fs::write(&illegal, "(;GM[1]SZ[9];B[ee];W[ee])").expect("write");
    let huge = scratch.0.join("huge.sgf");
    sparse(&huge, HUGE);
    let empty_dir = scratch.0.join("empty");
    std::fs::create_dir(&empty_dir).expect("mkdir");
    let pipe = scratch.0.join("pipe.sgf");
    let mut cases = vec![
        (missing.clone(), missing.display().to_string()),
        (malformed.clone(), malformed.display().to_string()),
        (
            illegal.clone(),
            format!("{}: move 2 (E5) is illegal", illegal.display()),
        ),
        (
            huge.clone(),
            format!("{}: 100000000 bytes is over the limit", huge.display()),
        ),
        (empty_dir.clone(), "no .sgf records found".to_string()),
    ];
    if fifo(&pipe) {
        cases.push((
            pipe.clone(),
            format!("{}: not a regular file (a FIFO)", pipe.display()),
        ));
    }
    for (path, expected) in cases {
        let error = one_error_line(&learn(&path, &out, &[]));
        assert!(error.contains(&expected), "{}: {error}", path.display());
    }
    assert!(!out.exists(), "no weights are written from bad records");
    // Held-out records are read as strictly, before any fitting.
    let bad = malformed.display().to_string();
    let error = one_error_line(&learn(&records(), &out, &["--held-out", &bad]));
    assert!(error.contains(&bad), "{error}");
    assert!(
        !out.exists(),
        "no weights are written with bad held-out records"
    );
}

#[test]
fn the_engine_names_a_weights_file_it_cannot_use() {
    let scratch = Scratch::new("go", "gammas-bad");
    let missing = scratch.0.join("missing.txt");
    let malformed = scratch.0.join("malformed.txt");
    std::fs::write(
        &malformed,
        "hamle-go-gammas 1\ncapture 1 2.5\ncapture 9 2\n",
    )
    .expect("write");
    let wrong_header = scratch.0.join("header.txt");
    std::fs::write(&wrong_header, "(;GM[1]SZ[9])\n").expect("write");
    let huge = scratch.0.join("huge.txt");
    sparse(&huge, HUGE);
    let pipe = scratch.0.join("pipe.txt");
    let mut cases = vec![
        (missing.clone(), missing.display().to_string()),
        (
            malformed.clone(),
            format!(
                "{}: line 3: capture takes values 1 to 3, got 9",
                malformed.display()
            ),
        ),
        (
            wrong_header.clone(),
            format!(
                "{}: line 1: expected the header 'hamle-go-gammas 1'",
                wrong_header.display()
            ),
        ),
        (
            huge.clone(),
            format!("{}: 100000000 bytes is over the limit", huge.display()),
        ),
        (
            scratch.0.clone(),
            format!("{}: not a regular file (a directory)", scratch.0.display()),
        ),
    ];
    if fifo(&pipe) {
        cases.push((
            pipe.clone(),
            format!("{}: not a regular file (a FIFO)", pipe.display()),
        ));
    }
    for (path, expected) in cases {
        let output = hamle(
            &[
                "go",
                "--learned-prior",
                "10",
                "--gammas",
                &path.display().to_string(),
            ],
            "name\nquit\n",
        );
        let error = one_error_line(&output);
        assert!(error.contains(&expected), "{}: {error}", path.display());
        assert!(output.stdout.is_empty(), "the engine must not start");
    }
    for visits in ["-1", "1001", "NaN", "ten"] {
        let output = hamle(&["go", "--learned-prior", visits], "quit\n");
        assert!(!output.status.success(), "--learned-prior {visits}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains("expected virtual visits from 0 to 1000"),
            "{stderr}"
        );
    }
}
