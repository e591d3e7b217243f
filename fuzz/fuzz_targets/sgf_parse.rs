//! Any bytes: the SGF tree parser returns without panicking, and what it accepts
//! survives writing and reading back.

#![no_main]

use hamle::go::sgf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = sgf::decode(data);
    if let Ok(trees) = sgf::parse_collection(&text) {
        let written = sgf::write_collection(&trees);
        match sgf::parse_collection(&written) {
            Ok(again) => assert!(again == trees, "round trip changed the trees:\n{written}"),
            Err(e) => panic!("written collection does not parse: {e}\n{written}"),
        }
    }
});
