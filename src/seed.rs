//! Seeds: the one SplitMix64 of the house.
//!
//! Every random choice in hamle is seeded, and every derived seed, hash key table and
//! seed-mixing multiplier comes from here, so that a seed means the same thing in every
//! game, the arena and the tests.

/// SplitMix64's increment (2⁶⁴ divided by the golden ratio): also a good odd multiplier
/// for spreading a seed or key over all 64 bits.
pub const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// SplitMix64's output function: a bijective mix of all 64 bits.
pub const fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One SplitMix64 step: the state after `state` and the number it draws.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let next = state.wrapping_add(GOLDEN_GAMMA);
    (next, mix64(next))
}

/// Independent-looking seeds from one seed and a counter (a match's games, a game's
/// engines, a pair's draw): the `stream + 1`-th number of SplitMix64 started at `seed`.
pub const fn derive_seed(seed: u64, stream: u64) -> u64 {
    mix64(seed.wrapping_add(stream.wrapping_add(1).wrapping_mul(GOLDEN_GAMMA)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_per_stream_and_repeat_per_seed() {
        assert_eq!(derive_seed(5, 0), derive_seed(5, 0));
        assert_ne!(derive_seed(5, 0), derive_seed(5, 1));
        assert_ne!(derive_seed(5, 0), derive_seed(6, 0));
    }

    #[test]
    fn derive_seed_walks_the_splitmix_sequence() {
        let (state, first) = splitmix64(42);
        let (_, second) = splitmix64(state);
        assert_eq!(derive_seed(42, 0), first);
        assert_eq!(derive_seed(42, 1), second);
    }

    #[test]
    fn known_value_of_the_reference_generator() {
        // SplitMix64 seeded with 0: its first output, as published with the algorithm.
        assert_eq!(splitmix64(0).1, 0xE220_A839_7B1D_CDAF);
    }
}
