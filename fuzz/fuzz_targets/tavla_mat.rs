//! Any bytes as a `.mat` match record: the reader and the arena's replay of a record never
//! panic, and a record the replay accepts also reads as a `.mat` match.
#![no_main]

use hamle::tavla::mat::read_mat;
use hamle::tavla::referee::replay_record;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let read = read_mat(&text);
    if replay_record(&text).is_ok() {
        assert!(
            read.is_ok(),
            "replayed a record that does not read: {read:?}"
        );
    }
});
