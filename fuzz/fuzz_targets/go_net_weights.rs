//! Any bytes as a Go net weights file (`hamle go --net FILE`): reading never panics, and
//! weights it accepts write back to the same bytes. With an odd first byte the rest patches
//! the built-in net's file instead (six bytes a patch: the byte's index, a u32 to write
//! there), so that a file of the right shape with a bad header field or weight is reached too.
#![no_main]

use hamle::go::net::{self, weights};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let bytes = if choice % 2 == 0 {
        rest.to_vec()
    } else {
        let Ok(builtin) = net::builtin() else {
            return;
        };
        let mut bytes = weights::encode(&builtin);
        for patch in rest.chunks_exact(6) {
            let at = usize::from(u16::from_le_bytes([patch[0], patch[1]])) % (bytes.len() - 3);
            bytes[at..at + 4].copy_from_slice(&patch[2..]);
        }
        bytes
    };
    if let Ok(net) = weights::decode(&bytes) {
        assert!(
            weights::encode(&net) == bytes,
            "weights changed on a round trip"
        );
    }
});
