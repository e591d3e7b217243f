//! Any bytes as the lines gnubg sends to its external player (`hamle tavla --listen`): each
//! line is framed as the socket reader frames it and answered without panicking, in one
//! line: a play (empty when nothing moves, as gnubg expects), a cube answer or `Error: …`.
//! The player is the greedy level, so that every answer stays quick.
#![no_main]

use std::io::{BufReader, Cursor};

use hamle::protocol::{LineReader, RawLine};
use hamle::tavla::external;
use hamle::tavla::player::{Level, Player};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut player = Player::new(Level::Greedy);
    for line in LineReader::new(BufReader::new(Cursor::new(data))) {
        let Ok(RawLine::Text(text)) = line else {
            continue;
        };
        let text = text.trim_matches(|c: char| c == '\0' || c.is_whitespace());
        if text.is_empty() {
            continue;
        }
        let answer = external::reply(text, &mut player);
        assert!(!answer.contains('\n'), "{answer:?}");
    }
});
