//! Reads every SGF file of GNU Go's regression suite (`../shared/gnugo-regression`, kept
//! outside the repository) with both SGF layers and checks that each round-trips. The data
//! is GNU Go's, not the project's: without it the test passes with a note (the project's own
//! records, `tests/data/sgf/`, round-trip in `tests/arena/regress.rs`).

use std::fs;
use std::path::{Path, PathBuf};

use hamle::go::sgf::{self, GoRecord};

use crate::support::peers::gnugo_regression_data;

fn sgf_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries = fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sgf_files(&path, found);
        } else if path
            .extension()
            .is_some_and(|ext| ext.eq_ignore_ascii_case("sgf"))
        {
            found.push(path);
        }
    }
}

#[test]
fn gnugo_regression_games_parse_and_round_trip() {
    let Some(root) = gnugo_regression_data("gnugo_regression_games_parse_and_round_trip") else {
        return;
    };
    let mut files = Vec::new();
    sgf_files(&root, &mut files);
    files.sort();
    let mut failures = Vec::new();
    let mut moves = 0;
    for path in &files {
        let bytes = fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = sgf::decode(&bytes);
        let name = path.strip_prefix(&root).unwrap_or(path).display();
        let trees = match sgf::parse_collection(&text) {
            Ok(trees) => trees,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        match sgf::parse_collection(&sgf::write_collection(&trees)) {
            Ok(again) if again == trees => {}
            Ok(_) => failures.push(format!("{name}: tree changed on a round trip")),
            Err(e) => failures.push(format!("{name}: written tree does not parse: {e}")),
        }
        let record = match GoRecord::from_sgf(&text) {
            Ok(record) => record,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        moves += record.moves().count();
        match GoRecord::from_sgf(&record.to_sgf()) {
            Ok(again) if again == record => {}
            Ok(_) => failures.push(format!("{name}: Go record changed on a round trip")),
            Err(e) => failures.push(format!("{name}: written record does not read: {e}")),
        }
    }
    println!(
        "{} SGF files, {moves} moves, {} failures",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(!files.is_empty(), "no SGF files under {}", root.display());
}
