//! Any bytes as a whole GTP session with the Abalone engine, with and without `--gogui` (the
//! first byte chooses): it never panics, answers every command line with exactly one
//! well-framed response, and its position stays one the rules can hold. Searches run on a
//! tiny budget; `quit` is left out so that the whole input is read.
#![no_main]

use std::io::Cursor;

use hamle::abalone::engine::{AbaloneEngine, Settings};
use hamle::abalone::Position;
use hamle::protocol::serve;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((mode, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let input: String = text
        .split('\n')
        .filter(|line| !line.contains("quit"))
        .map(|line| format!("{line}\n"))
        .collect();
    let settings = Settings {
        nodes: 64,
        table_bits: 10,
        gogui: mode % 2 == 1,
        ..Settings::default()
    };
    let mut engine = AbaloneEngine::new(settings);
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
    let reparsed: Position = position.to_string().parse().expect("a valid position");
    assert_eq!(reparsed.to_string(), position.to_string());
});
