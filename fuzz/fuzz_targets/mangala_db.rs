//! Any bytes as a Mangala endgame database level (`turkish-NN.hmdb`): decoding never panics,
//! and what it accepts holds only values the level's stones allow. The first byte picks the
//! rules and a level from 0 to 3, and whether the checksum is set right, so that the checks
//! behind it are reached too.
#![no_main]

use hamle::mangala::EndRule;
use hamle::mangala::db::file::{decode_level, fnv1a};
use libfuzzer_sys::fuzz_target;

const HEADER: usize = 32;

/// Entries of a level: the ways to put `level` stones into twelve pits, C(level + 11, 11).
fn level_len(level: u64) -> u64 {
    (1..=11).fold(1, |c, k| c * (level + k) / k)
}

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let rule = if choice & 1 == 0 {
        EndRule::EmptierTakesAll
    } else {
        EndRule::EachKeepsOwn
    };
    let level = u32::from(choice >> 1 & 3);
    let len = level_len(u64::from(level));
    let mut bytes = rest.to_vec();
    if choice & 8 != 0 && bytes.len() >= HEADER {
        let checksum = fnv1a(&bytes[HEADER..]);
        bytes[16..24].copy_from_slice(&checksum.to_le_bytes());
    }
    if let Ok(values) = decode_level(&bytes, rule, level, len) {
        assert_eq!(values.len() as u64, len);
        let limit = level as i32;
        assert!(values.iter().all(|&v| i32::from(v).abs() <= limit));
    }
});
