//! Sabaki's own GTP client (`@sabaki/gtp`, installed in `tests/sabaki` by `.ci/run`) drives
//! `hamle go` through start-up, a sync that uses `undo`, `genmove` and `quit`.

use std::path::Path;
use std::process::Command;

#[test]
fn sabaki_client_drives_the_go_engine() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    assert!(
        dir.join("node_modules/@sabaki/gtp").is_dir(),
        "Sabaki's client is not installed: run `npm ci` in tests/sabaki (.ci/run does)"
    );
    let output = Command::new("node")
        .arg(dir.join("drive.mjs"))
        .arg(env!("CARGO_BIN_EXE_hamle"))
        .current_dir(&dir)
        .output()
        .expect("node must be installed to run Sabaki's client");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "Sabaki client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all answered as expected"), "{stdout}");
}
