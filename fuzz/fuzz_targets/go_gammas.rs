//! Any text as a Go learned-prior weights file (`hamle go --gammas`): reading never panics,
//! and a file it accepts writes out as text that reads back to the same text.
#![no_main]

use hamle::go::player::gammas::Gammas;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(gammas) = Gammas::parse(text) {
        let written = gammas.to_text("");
        let again = Gammas::parse(&written).expect("written gammas read back");
        assert_eq!(again.to_text(""), written, "gammas changed on a round trip");
    }
});
