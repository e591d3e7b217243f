//! Any bytes as a bot file (`bots/*.toml`): reading never panics, a refusal is one line
//! naming the file, and a bot it accepts has a name without spaces and a program.
#![no_main]

use std::path::Path;

use hamle::arena::bots::Bot;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match Bot::from_toml(text, Path::new("bots/fuzz.toml")) {
        Ok(bot) => {
            assert!(!bot.name.is_empty() && !bot.name.contains(char::is_whitespace));
        }
        Err(error) => {
            let message = error.to_string();
            assert!(message.starts_with("bots/fuzz.toml: "), "{message}");
        }
    }
});
