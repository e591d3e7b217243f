//! Any bytes as a `.tst` regression file (`hamle regress`): parsing never panics, every
//! error names a line of the file, and every test parsed is a command with a number.
#![no_main]

use std::path::Path;

use hamle::arena::regress::TstFile;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match TstFile::parse(text, Path::new("fuzz.tst")) {
        Ok(file) => {
            for command in &file.commands {
                assert!(!command.text.is_empty());
                assert!(command.expectation.is_none() || command.number.is_some());
                if let Some(expectation) = &command.expectation {
                    let _ = expectation.accepts("= C3");
                }
            }
        }
        Err(error) => assert!(error.line <= text.lines().count().max(1), "{error}"),
    }
});
