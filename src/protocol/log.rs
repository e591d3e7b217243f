//! Logging to stderr in a shape that GTP controllers cannot mistake for protocol output.
//!
//! Lizzie merges the engine's stderr into its stdout reader and reacts to lines that start
//! with `=`, `?`, `info` or `play` or that contain ` -> `; every log line therefore starts
//! with `hamle:` and has any ` -> ` rewritten.

use std::io::{self, Write};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// Installs the stderr logger. The level comes from `HAMLE_LOG` (e.g. `debug`,
/// `hamle::go=trace`), else `warn`.
pub fn init() {
    let filter = EnvFilter::try_from_env("HAMLE_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(SafeStderr)
        .with_ansi(false)
        .without_time()
        .with_target(false)
        .try_init();
}

struct SafeStderr;

impl<'a> MakeWriter<'a> for SafeStderr {
    type Writer = SafeLine;

    fn make_writer(&'a self) -> SafeLine {
        SafeLine(Vec::new())
    }
}

/// Buffers one event and writes it out sanitised when dropped.
struct SafeLine(Vec<u8>);

impl Write for SafeLine {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Drop for SafeLine {
    fn drop(&mut self) {
        let text = String::from_utf8_lossy(&self.0);
        let safe = sanitize(&text);
        let _ = io::stderr().lock().write_all(safe.as_bytes());
    }
}

/// Prefixes every line with `hamle: ` and rewrites ` -> `.
pub fn sanitize(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 16);
    for line in text.lines() {
        out.push_str("hamle: ");
        out.push_str(&line.replace(" -> ", " => "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn log_lines_cannot_look_like_protocol_output() {
        let text = sanitize("= fake\n?x\ninfo move D4\nplay D4\nA -> B\n");
        for line in text.lines() {
            assert!(line.starts_with("hamle: "), "{line}");
            assert!(!line.contains(" -> "), "{line}");
        }
    }
}
