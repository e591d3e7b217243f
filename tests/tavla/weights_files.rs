//! Weights files that are not weights, where a user names them (`hamle tavla choose
//! --weights`, `train --start`, `duel --weights-first`): a FIFO, a device and a 100 MB file
//! are refused at once with one line naming the file and the limit; a missing, cut-short or
//! corrupt one with one line naming the file and what is wrong; nothing blocks or panics.

use std::process::Command;

use pretty_assertions::assert_eq;

use crate::support::files::{HUGE, Scratch, fifo, run_patiently, sparse};

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

/// `hamle tavla ARGS…`: refused with exit status 1 and one line on stderr, which is returned.
fn refused(args: &[&str]) -> String {
    let output = run_patiently(Command::new(HAMLE).arg("tavla").args(args), "");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "", "{args:?}");
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    stderr.trim_end().to_owned()
}

#[test]
fn weights_that_are_a_fifo_a_device_or_huge_are_refused_at_once() {
    let scratch = Scratch::new("tavla-weights", "refused");
    let huge = scratch.0.join("huge.bin");
    sparse(&huge, HUGE);
    let huge = huge.display().to_string();
    let out = scratch.0.join("out.bin").display().to_string();
    let too_large =
        format!("{huge}: 100000000 bytes is over the limit of 1 MiB; name a smaller file");
    let device = "/dev/zero: not a regular file (a device); name a regular file";
    for (args, expected) in [
        (vec!["choose", "net", "--weights", &huge], &too_large[..]),
        (vec!["choose", "net", "--weights", "/dev/zero"], device),
        (
            vec!["train", "--games", "1", "--start", &huge, "--out", &out],
            &too_large,
        ),
        (
            vec![
                "duel",
                "net",
                "net",
                "--games",
                "2",
                "--weights-first",
                "/dev/zero",
            ],
            device,
        ),
    ] {
        let stderr = refused(&args);
        assert!(stderr.ends_with(expected), "{args:?}: {stderr}");
    }
    let pipe = scratch.0.join("pipe.bin");
    if fifo(&pipe) {
        let pipe = pipe.display().to_string();
        let stderr = refused(&["choose", "net", "--weights", &pipe]);
        assert!(
            stderr.ends_with(&format!(
                "{pipe}: not a regular file (a FIFO); name a regular file"
            )),
            "{stderr}"
        );
    }
    assert!(!std::path::Path::new(&out).exists(), "train wrote weights");
}

/// Writes `bytes` as `name` in `scratch`; its path.
fn written(scratch: &Scratch, name: &str, bytes: &[u8]) -> String {
    let path = scratch.0.join(name);
    std::fs::write(&path, bytes).expect("write");
    path.display().to_string()
}

#[test]
fn weights_missing_cut_short_or_corrupt_are_one_line_naming_the_file() {
    let scratch = Scratch::new("tavla-weights", "corrupt");
    let good = hamle::tavla::net::Net::builtin().to_bytes();
    let missing = scratch.0.join("missing.bin").display().to_string();
    let short = written(&scratch, "short.bin", &good[..good.len() - 4]);
    let text = written(&scratch, "text.bin", b"these are not weights\n");
    let mut nan = good.clone();
    nan[16..20].copy_from_slice(&f32::NAN.to_le_bytes());
    let nan = written(&scratch, "nan.bin", &nan);
    // A larger net's header: 300 inputs where this build has fewer.
    let mut larger = good.clone();
    larger[4..8].copy_from_slice(&300u32.to_le_bytes());
    let larger = written(&scratch, "larger.bin", &larger);
    let out = scratch.0.join("out.bin").display().to_string();
    let cases = [
        (&missing, "No such file or directory"),
        (&short, "cut short or not a weights file"),
        (&text, "not a hamle Tavla weights file"),
        (&nan, "weight 0 (w1, input 0 to hidden 0) is NaN"),
        (&larger, "inputs, hidden units and outputs"),
    ];
    for (path, problem) in cases {
        for args in [
            vec!["choose", "net", "--weights", path],
            vec![
                "duel",
                "net2",
                "net",
                "--games",
                "2",
                "--weights-second",
                path,
            ],
            vec!["train", "--games", "1", "--start", path, "--out", &out],
        ] {
            let stderr = refused(&args);
            assert!(
                stderr.starts_with(&format!("hamle: ERROR {path}: ")),
                "{stderr}"
            );
            assert!(stderr.contains(problem), "{args:?}: {stderr}");
        }
    }
    assert!(!std::path::Path::new(&out).exists(), "train wrote weights");
}
