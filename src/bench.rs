//! The lines every `hamle bench <game>` ends with: `N nodes`, identical on every run of a
//! build, then `N nps`, which varies with the machine.

use std::io::{self, Write};
use std::time::Duration;

/// `count` per second of `time`, or 0 for a time too short to measure.
pub fn per_second(count: u64, time: Duration) -> u64 {
    let seconds = time.as_secs_f64();
    if seconds > 0.0 {
        (count as f64 / seconds) as u64
    } else {
        0
    }
}

/// Writes the two closing lines of a bench report.
pub fn write_totals(out: &mut impl Write, nodes: u64, time: Duration) -> io::Result<()> {
    writeln!(out, "{nodes} nodes")?;
    writeln!(out, "{} nps", per_second(nodes, time))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_lines() {
        let mut out = Vec::new();
        write_totals(&mut out, 3000, Duration::from_millis(1500)).expect("write to a Vec");
        assert_eq!(
            String::from_utf8(out).expect("utf-8"),
            "3000 nodes\n2000 nps\n"
        );
        assert_eq!(per_second(5, Duration::ZERO), 0);
    }
}
