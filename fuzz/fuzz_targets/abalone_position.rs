//! Any bytes, read as an Abalone position string: the parser never panics; a parsed
//! position writes back to a string that parses to the same position (hash included);
//! every generated move plays, keeps each side's marble count, and names itself.
#![no_main]

use hamle::abalone::{Color, Move, MoveList, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(position) = text.parse::<Position>() else {
        return;
    };
    let written = position.to_string();
    let again: Position = written.parse().expect("a written position parses");
    assert_eq!(again, position);
    assert_eq!(again.hash(), position.hash());
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    for mv in moves.iter() {
        let next = position.play(mv).expect("generated moves are legal");
        for color in Color::BOTH {
            let count =
                |p: &Position| p.marbles(color).count_ones() + u32::from(p.marbles_off(color));
            assert_eq!(count(&next), count(&position));
        }
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }
});
