//! Any bytes as a whole GTP session with the Go engine: it never panics, answers every
//! command line with exactly one well-framed response, and ends at end of input.
//! Commands that touch files or run long searches for scoring are left out.
#![no_main]

use hamle::go::engine::{GoEngine, Settings};
use libfuzzer_sys::fuzz_target;

mod common;

const SLOW_OR_FILE: [&str; 3] = ["sgf", "final_", "ownership"];

fuzz_target!(|data: &[u8]| {
    let mut engine = GoEngine::new(Settings {
        playouts: 2,
        ..Settings::default()
    });
    common::serve_checked(&mut engine, data, &SLOW_OR_FILE);
});
