//! Perft from the three start positions to depth 4, fixed here. The depth-1 counts are the
//! published 44 / 52 / 80; depths 2 and 3 were reproduced by abalone-boai's own generator
//! (PyPI, see tests/fixtures/abalone_boai_moves.py), whose legal moves
//! tests/interop/boai_diff.rs compares with ours position by position.

use hamle::abalone::StartPosition;
use hamle::abalone::perft::{divide, perft};
use pretty_assertions::assert_eq;

fn counts(start: StartPosition) -> Vec<u64> {
    (1..=4)
        .map(|depth| perft(&start.position(), depth))
        .collect()
}

#[test]
fn standard_start() {
    assert_eq!(
        counts(StartPosition::Standard),
        [44, 1_936, 98_912, 5_045_110]
    );
}

#[test]
fn belgian_daisy_start() {
    assert_eq!(
        counts(StartPosition::BelgianDaisy),
        [52, 2_692, 149_322, 8_270_666]
    );
}

#[test]
fn german_daisy_start() {
    assert_eq!(
        counts(StartPosition::GermanDaisy),
        [80, 6_244, 493_480, 38_240_570]
    );
}

#[test]
fn divide_adds_up_to_perft() {
    let start = StartPosition::Standard.position();
    let parts = divide(&start, 3);
    assert_eq!(parts.len(), 44);
    assert_eq!(parts.iter().map(|(_, n)| n).sum::<u64>(), 98_912);
}
