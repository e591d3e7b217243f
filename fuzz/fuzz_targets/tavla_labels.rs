//! Any text as a line of a Tavla label file (`hamle tavla train --contact --labels`):
//! reading never panics, and a line it accepts writes out as a line that reads back to the
//! same position and writes out the same again.
#![no_main]

use hamle::tavla::labels::{parse_line, write_line};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(labelled) = parse_line(text) {
        let mut written = Vec::new();
        write_line(&mut written, &labelled).expect("written to memory");
        let written = String::from_utf8(written).expect("a line is text");
        let again = parse_line(&written).expect("a written line reads back");
        assert_eq!((again.board, again.side), (labelled.board, labelled.side));
        let mut rewritten = Vec::new();
        write_line(&mut rewritten, &again).expect("written to memory");
        assert_eq!(String::from_utf8(rewritten).expect("text"), written);
    }
});
