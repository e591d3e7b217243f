//! Any bytes as a whole GTP session with the Mangala engine: it never panics, answers every
//! command line with exactly one well-framed response, and ends at end of input.
//! Searches run on a tiny budget; `quit` is left out so that the whole input is read, and
//! so is `mangala-solve`: an exact solve is unbounded by design (its node budget is an
//! optional argument), and at the start it runs for hours.
#![no_main]

use hamle::mangala::engine::{MangalaEngine, Settings};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        nodes: 64,
        table_bits: 10,
        ..Settings::default()
    };
    let mut engine = MangalaEngine::new(settings, None);
    if !common::serve_checked(&mut engine, data, &["solve"]) {
        return;
    }
    let position = engine.game().position();
    assert_eq!(position.total_stones(), engine.game().total_stones());
});
