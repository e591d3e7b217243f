//! Any bytes, read as GTP command lines: preprocessing, the command parser and the Go
//! command parser never panic, and a parsed command's parts never hold a space.
#![no_main]

use hamle::go::engine::GoCommand;
use hamle::protocol::{parse_command, preprocess};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for raw in text.split('\n') {
        let Some(line) = preprocess(raw) else {
            continue;
        };
        assert!(!line.contains('#') && !line.contains('\t') && !line.contains('\r'));
        if let Ok(command) = parse_command(&line) {
            assert!(!command.name.is_empty() && !command.name.contains(' '));
            assert!(
                command
                    .args
                    .iter()
                    .all(|a| !a.is_empty() && !a.contains(' '))
            );
            for size in [2, 9, 19, 25] {
                let _ = GoCommand::parse(&command, size);
            }
        }
    }
});
