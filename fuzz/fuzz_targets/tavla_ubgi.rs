//! Any bytes as a whole UBGI session (`hamle tavla --protocol ubgi`): it never panics nor
//! stops early (a bad byte or line is answered, not fatal), and every answer is a line of
//! text. `quit` is left out so that the whole input is read; the player is the greedy level,
//! so that `go` stays quick.
#![no_main]

use std::io::Cursor;

use hamle::tavla::player::Level;
use hamle::tavla::ubgi;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let input: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|line| !line.windows(4).any(|w| w == b"quit"))
        .flat_map(|line| line.iter().copied().chain([b'\n']))
        .collect();
    let mut output = Vec::new();
    ubgi::serve(Level::Greedy, Cursor::new(input), &mut output).expect("UBGI reads on");
    let output = String::from_utf8(output).expect("answers are UTF-8");
    for line in output.lines() {
        assert!(!line.is_empty(), "an empty answer line in {output:?}");
    }
});
