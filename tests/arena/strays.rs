//! No process a bot started outlives the run: a bot whose children ignore SIGTERM, one in
//! the bot's process group and one that called `setsid`, leaves neither behind after a
//! normal end of the match, nor after `kill -9` of `hamle match` itself (each engine's
//! supervisor sees the arena gone and ends what the bot started).
//!
//! The strays carry a token unique to the test among their arguments; the test looks for
//! it in `/proc`, and kills whatever it finds when it ends, failing or not.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::arena::{HAMLE, bot, hamle_match, ok, scratch};
use crate::support::peers::require_python3;

/// The processes whose command line holds a token; killed when dropped.
struct Strays(String);

impl Strays {
    fn new(name: &str) -> Strays {
        Strays(format!("hamle-stray-{name}-{}", std::process::id()))
    }

    /// The pids of live processes (not zombies) with the token among their arguments.
    fn alive(&self) -> Vec<i32> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            let zombie = std::fs::read_to_string(entry.path().join("stat"))
                .ok()
                .and_then(|stat| Some(stat.rsplit_once(')')?.1.trim_start().starts_with('Z')))
                .unwrap_or(true);
            let holds = cmdline
                .split(|&b| b == 0)
                .any(|arg| arg == self.0.as_bytes());
            if holds && !zombie {
                found.push(pid);
            }
        }
        found
    }

    /// Waits (up to 20 s: ending them takes a grace and a signal's delivery) until none
    /// is left; fails naming them otherwise.
    fn assert_none_left(&self, after: &str) {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let alive = self.alive();
            if alive.is_empty() {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{after}: processes the bot started are still running: {alive:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Strays {
    fn drop(&mut self) {
        for pid in self.alive() {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
    }
}

fn stray_bot(dir: &Path, name: &str, strays: &Strays, marker: &Path) {
    require_python3();
    let fixture =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/stray_children.py");
    let (fixture, marker) = (fixture.display().to_string(), marker.display().to_string());
    let command = [
        "python3",
        &fixture,
        &strays.0,
        &marker,
        "--",
        HAMLE,
        "go",
        "--playouts",
        "10",
    ];
    bot(dir, name, "go", &command);
}

fn plain_bot(dir: &Path, name: &str) {
    bot(dir, name, "go", &["hamle", "go", "--playouts", "10"]);
}

#[test]
fn a_bots_children_that_ignore_sigterm_or_left_its_group_end_with_the_match() {
    let dir = scratch("strays", "normal");
    let strays = Strays::new("normal");
    stray_bot(&dir, "stray", &strays, &dir.join("started"));
    plain_bot(&dir, "alpha");
    let out = dir.join("m");
    let args = ["stray", "alpha", "--games", "2", "--quiet", "--out"];
    ok(&hamle_match(
        &dir,
        &[&args[..], &[out.to_str().expect("utf-8")]].concat(),
    ));
    assert!(dir.join("started").exists(), "the bot started its strays");
    strays.assert_none_left("after a normal end");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bots_children_end_after_kill_9_of_the_arena() {
    let dir = scratch("strays", "killed");
    let strays = Strays::new("killed");
    let marker = dir.join("started");
    stray_bot(&dir, "stray", &strays, &marker);
    plain_bot(&dir, "alpha");
    let out = dir.join("m");
    // Far more games than the test waits for: only the kill ends this run.
    let mut run = Command::new(HAMLE)
        .args(["match", "--bots"])
        .arg(dir.join("bots"))
        .args(["stray", "alpha", "--games", "5000", "--quiet", "--out"])
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hamle match");
    let deadline = Instant::now() + Duration::from_secs(120);
    while !marker.exists() {
        if Instant::now() > deadline {
            let _ = run.kill();
            panic!("the bot never started its strays");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(
        !strays.alive().is_empty(),
        "the strays run while the match does"
    );
    run.kill().expect("kill -9 hamle match");
    run.wait().expect("reaped");
    strays.assert_none_left("after kill -9 of hamle match");
    let _ = std::fs::remove_dir_all(&dir);
}
