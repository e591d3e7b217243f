//! Any bytes as a Tavla weights file (`--weights`, `train --start`): reading never panics,
//! and weights it accepts write back to the same bytes. With an odd first byte the rest
//! patches the built-in weights instead (six bytes a patch: the weight's index, its four
//! bytes), so that a file of the right shape carrying a bad weight is reached too.
#![no_main]

use hamle::tavla::net::Net;
use libfuzzer_sys::fuzz_target;

const HEADER: usize = 16;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let bytes = if choice % 2 == 0 {
        rest.to_vec()
    } else {
        let mut bytes = Net::builtin().to_bytes();
        let weights = (bytes.len() - HEADER) / 4;
        for patch in rest.chunks_exact(6) {
            let index = usize::from(u16::from_le_bytes([patch[0], patch[1]])) % weights;
            let at = HEADER + 4 * index;
            bytes[at..at + 4].copy_from_slice(&patch[2..]);
        }
        bytes
    };
    if let Ok(net) = Net::from_bytes(&bytes) {
        assert!(net.to_bytes() == bytes, "weights changed on a round trip");
    }
});
