//! Any bytes as a whole GTP session with the Go engine: it never panics, answers every
//! command line with exactly one well-framed response, and ends at end of input.
//! Commands that touch files or run long searches for scoring are left out.
#![no_main]

use std::io::Cursor;

use hamle::go::engine::{GoEngine, Settings};
use hamle::protocol::serve;
use libfuzzer_sys::fuzz_target;

const SLOW_OR_FILE: [&str; 4] = ["sgf", "final_", "ownership", "quit"];

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let input: String = text
        .split('\n')
        .filter(|line| !SLOW_OR_FILE.iter().any(|word| line.contains(word)))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut engine = GoEngine::new(Settings { playouts: 2, ..Settings::default() });
    let mut output = Vec::new();
    if serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).is_err() {
        return;
    }
    let output = String::from_utf8(output).expect("responses are UTF-8");
    for response in output.split_terminator("\n\n") {
        let first = response.trim_start_matches('\n');
        assert!(first.starts_with('=') || first.starts_with('?'), "bad response {response:?}");
    }
});
