//! Sabaki's own GTP client (`@sabaki/gtp`, installed in `tests/sabaki` by `.ci/run`) drives
//! `hamle go` through start-up, a sync that uses `undo`, `genmove` and `quit`.

use std::path::Path;
use std::process::Command;

use crate::support::peers::require_sabaki_client;

#[test]
fn sabaki_client_drives_the_go_engine() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sabaki");
    require_sabaki_client(&dir);
    let output = Command::new("node")
        .arg(dir.join("drive.mjs"))
        .arg(env!("CARGO_BIN_EXE_hamle"))
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run node: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "Sabaki client failed:\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("all answered as expected"), "{stdout}");
}
