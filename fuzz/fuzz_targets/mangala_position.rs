//! Any bytes as a Mangala position string: reading never panics, and whatever is accepted
//! is a valid position that writes back to a string reading to the same position.
#![no_main]

use hamle::mangala::{EndRule, Position, Side};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(position) = text.parse::<Position>() else {
        return;
    };
    let written = position.to_string();
    assert_eq!(
        written.parse::<Position>().as_ref(),
        Ok(&position),
        "{written}"
    );
    let total = position.total_stones();
    assert!(total < 64);
    assert_eq!(
        Position::parse_with_total(&written, total).as_ref(),
        Ok(&position)
    );
    let south = position.row_stones(Side::South);
    let north = position.row_stones(Side::North);
    assert_eq!(south == 0, north == 0);
    for pit in position.legal_moves() {
        for rule in [EndRule::EmptierTakesAll, EndRule::EachKeepsOwn] {
            let (next, _) = position
                .play(position.to_move(), pit, rule)
                .expect("a listed move is legal");
            assert_eq!(next.total_stones(), total);
        }
    }
});
