//! Any bytes as a whole GTP session with the Mangala engine: it never panics, answers every
//! command line with exactly one well-framed response, and ends at end of input.
//! Searches run on a tiny budget; `quit` is left out so that the whole input is read.
#![no_main]

use std::io::Cursor;

use hamle::mangala::engine::{MangalaEngine, Settings};
use hamle::protocol::serve;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let input: String = text
        .split('\n')
        .filter(|line| !line.contains("quit"))
        .map(|line| format!("{line}\n"))
        .collect();
    let settings = Settings {
        nodes: 64,
        table_bits: 10,
        ..Settings::default()
    };
    let mut engine = MangalaEngine::new(settings, None);
    let mut output = Vec::new();
    if serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).is_err() {
        return;
    }
    let output = String::from_utf8(output).expect("responses are UTF-8");
    for response in output.split_terminator("\n\n") {
        let first = response.trim_start_matches('\n');
        assert!(first.starts_with('=') || first.starts_with('?'), "bad response {response:?}");
        assert!(!first.contains("internal error"), "{response}");
    }
    let position = engine.game().position();
    assert_eq!(position.total_stones(), engine.game().total_stones());
});
