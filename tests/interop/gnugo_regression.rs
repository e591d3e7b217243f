//! Runs GNU Go's regression suites (`../shared/gnugo-regression/*.tst`, read in place)
//! against `hamle go` through the product's runner (`hamle::arena::regress`, what
//! `hamle regress` runs): every command must get a well-formed answer in time and every
//! `loadsgf` must load. The pass counts are printed (`cargo test --release --test
//! interop gnugo_regression -- --nocapture`); they measure strength, which tests do not assert.
//! The suites are GNU Go's, not the project's: without them the test passes with a note
//! (the project's own suite, `tests/data/regress/`, runs in `tests/arena/regress.rs`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use hamle::arena::bots::{Bot, GameKind};
use hamle::arena::regress::{Regress, Verdict};

use crate::support::peers::gnugo_regression_data;

fn suites(dir: &Path) -> Vec<PathBuf> {
    let mut suites: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("list suites")
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "tst"))
        .collect();
    suites.sort();
    suites
}

#[test]
fn gnugo_regression_suites_run() {
    let Some(dir) = gnugo_regression_data("gnugo_regression_suites_run") else {
        return;
    };
    let playouts = std::env::var("HAMLE_REGRESS_PLAYOUTS").unwrap_or_else(|_| "1000".into());
    let line = format!("hamle go --rules japanese --playouts {playouts} --seed 1");
    let bot = Bot::from_command_line(&line, GameKind::Go).expect("a valid command line");
    let files = Regress::read_files(&suites(&dir)).expect("GNU Go's suites are valid .tst files");
    let regress = Regress {
        bot: &bot,
        hamle_exe: Path::new(env!("CARGO_BIN_EXE_hamle")),
        timeout: Duration::from_secs(120),
        stderr_log: None,
        protocol_log: None,
    };
    let mut printed = Vec::new();
    let (reports, _) = regress.run(&files, &mut printed).expect("write to memory");
    for line in String::from_utf8_lossy(&printed).lines() {
        if !line.ends_with(" passed") {
            println!("{line}");
        }
    }
    let (mut passed, mut total) = (0, 0);
    for report in &reports {
        assert_eq!(
            report.fatal,
            None,
            "{}: the engine failed",
            report.path.display()
        );
        for error in &report.command_errors {
            assert!(
                !error.contains("loadsgf"),
                "{}: {error}",
                report.path.display()
            );
        }
        passed += report.passes();
        total += report.counted();
        assert!(report.tests.iter().all(|t| t.verdict != Verdict::Ignored));
    }
    println!("all suites: {passed}/{total} passed at {playouts} playouts a move");
    assert!(
        total > 150,
        "expected the suites' checks to run, ran {total}"
    );
}
