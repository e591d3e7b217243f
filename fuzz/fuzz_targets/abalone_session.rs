//! Any bytes as a whole GTP session with the Abalone engine, with and without `--gogui` (the
//! first byte chooses): it never panics, answers every command line with exactly one
//! well-framed response, and its position stays one the rules can hold. Searches run on a
//! tiny budget; `quit` is left out so that the whole input is read.
#![no_main]

use hamle::abalone::Position;
use hamle::abalone::engine::{AbaloneEngine, Settings};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let Some((mode, rest)) = data.split_first() else {
        return;
    };
    let settings = Settings {
        nodes: 64,
        table_bits: 10,
        gogui: mode % 2 == 1,
        ..Settings::default()
    };
    let mut engine = AbaloneEngine::new(settings);
    if !common::serve_checked(&mut engine, rest, &[]) {
        return;
    }
    let position = engine.game().position();
    let reparsed: Position = position.to_string().parse().expect("a valid position");
    assert_eq!(reparsed.to_string(), position.to_string());
});
