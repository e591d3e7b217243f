//! Match settings that can decide no game are refused before anything is written.

use std::process::Command;

fn refused(args: &[&str]) -> String {
    let out = std::env::temp_dir().join(format!("hamle-bad-settings-{}", std::process::id()));
    let output = Command::new(env!("CARGO_BIN_EXE_hamle"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["match", "hamle-go-200", "hamle-go-1000", "--out"])
        .arg(&out)
        .args(args)
        .output()
        .expect("hamle runs");
    assert_eq!(output.status.code(), Some(2), "{args:?}");
    assert!(!out.exists(), "{args:?} wrote {}", out.display());
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn nan_komi_and_a_zero_move_cap_are_refused() {
    for komi in ["nan", "inf", "1e9"] {
        let message = refused(&["--komi", komi]);
        assert!(
            message.contains("--komi must be a number from -1000 to 1000"),
            "{message}"
        );
    }
    let message = refused(&["--max-moves", "0"]);
    assert!(
        message.contains("--max-moves must be at least 1"),
        "{message}"
    );
}
