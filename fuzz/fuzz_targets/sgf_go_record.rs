//! Any bytes: reading a Go record returns without panicking, and a record that
//! reads is written as SGF that reads back as the same record.

#![no_main]

use hamle::go::sgf::GoRecord;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(record) = GoRecord::from_sgf_bytes(data) {
        let written = record.to_sgf();
        match GoRecord::from_sgf(&written) {
            Ok(again) => assert!(again == record, "round trip changed the record:\n{written}"),
            Err(e) => panic!("written record does not read: {e}\n{written}"),
        }
        let _ = record.to_play();
    }
});
