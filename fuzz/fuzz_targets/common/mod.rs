//! What every whole-session fuzz target checks: the engine never panics, answers every
//! command line with exactly one well-framed response (`=` or `?`), never reports an
//! internal error, and reads the whole input.

use std::io::Cursor;

use hamle::protocol::{Engine, preprocess, serve};

/// Serves the lines of `data` that contain none of `left_out` (`quit` always: the whole
/// input must be read) and checks the responses; false when the session could not run.
pub fn serve_checked(engine: &mut impl Engine, data: &[u8], left_out: &[&str]) -> bool {
    let text = String::from_utf8_lossy(data);
    let input: String = text
        .split('\n')
        .filter(|line| {
            // Judged as the engine will see the line: preprocessing drops control characters,
            // so `solv\0e` is `solve`.
            let seen = preprocess(line).unwrap_or_default();
            ![*line, &seen[..]]
                .iter()
                .any(|text| text.contains("quit") || left_out.iter().any(|w| text.contains(w)))
        })
        .map(|line| format!("{line}\n"))
        .collect();
    let mut output = Vec::new();
    if serve(engine, Cursor::new(input.into_bytes()), &mut output).is_err() {
        return false;
    }
    let output = String::from_utf8(output).expect("responses are UTF-8");
    for response in output.split_terminator("\n\n") {
        let first = response.trim_start_matches('\n');
        assert!(
            first.starts_with('=') || first.starts_with('?'),
            "bad response {response:?}"
        );
        assert!(!first.contains("internal error"), "{response}");
    }
    true
}
