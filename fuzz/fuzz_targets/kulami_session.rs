//! Any bytes as a whole GTP session with the Kulami engine: it never panics, answers every
//! command line with exactly one well-framed response, and its position stays one its
//! layout can hold. Searches run on a tiny budget; `quit` is left out so that the whole
//! input is read.
#![no_main]

use hamle::kulami::engine::{KulamiEngine, Settings};
use hamle::kulami::position::Setup;
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let settings = Settings {
        nodes: 64,
        ..Settings::default()
    };
    let mut engine = KulamiEngine::new(settings);
    if !common::serve_checked(&mut engine, data, &[]) {
        return;
    }
    let game = engine.game();
    let setup = Setup::of(game.layout(), game.position());
    assert_eq!(setup.validate(game.layout()).as_ref(), Ok(game.position()));
});
