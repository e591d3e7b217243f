//! Any bytes, read as Abalone move notation: the parser never panics, a parsed move's
//! canonical spelling parses back to the same move, and checking or playing it in the
//! three start positions never panics and refuses exactly what the generator omits.
#![no_main]

use hamle::abalone::{Move, MoveList, StartPosition};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(mv) = text.parse::<Move>() else { return };
    let spelled = mv.to_string();
    assert_eq!(spelled.parse::<Move>(), Ok(mv), "{spelled}");
    assert_eq!(spelled, spelled.to_ascii_lowercase());
    for start in StartPosition::ALL {
        let position = start.position();
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        let listed = legal.iter().any(|m| m == mv);
        assert_eq!(position.play(mv).is_ok(), listed, "{spelled} in {start}");
    }
});
