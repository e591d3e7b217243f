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

/// `hamle match stray alpha` of far more games than a test waits for (only a kill ends
/// it), returned once the stray bot has started its strays.
fn endless_match(dir: &Path, marker: &Path) -> std::process::Child {
    let mut run = Command::new(HAMLE)
        .args(["match", "--bots"])
        .arg(dir.join("bots"))
        .args(["stray", "alpha", "--games", "5000", "--quiet", "--out"])
        .arg(dir.join("m"))
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
    run
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
    let mut run = endless_match(&dir, &marker);
    assert!(
        !strays.alive().is_empty(),
        "the strays run while the match does"
    );
    run.kill().expect("kill -9 hamle match");
    run.wait().expect("reaped");
    strays.assert_none_left("after kill -9 of hamle match");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The processes whose parent is `parent`.
fn children_of(parent: u32) -> Vec<i32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
        else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let parent_field = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok());
        if parent_field == Some(parent) {
            found.push(pid);
        }
    }
    found
}

/// Whether a process sits in a run cgroup of hamle's (`…/hamle-PID-START/engine-PID`).
fn in_a_run_cgroup(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/cgroup"))
        .unwrap_or_default()
        .lines()
        .any(|line| line.starts_with("0::") && line.contains("/hamle-"))
}

/// The arena and its supervisors all killed at once (`killall -9 hamle`): nothing is left
/// to end the strays then, but where cgroup v2 can be written they stay in the dead run's
/// cgroup, and the next arena that starts beside it ends them.
#[test]
fn strays_of_a_run_killed_whole_end_when_the_next_arena_starts_where_cgroups_can_be_written() {
    let dir = scratch("strays", "killall");
    let strays = Strays::new("killall");
    let marker = dir.join("started");
    stray_bot(&dir, "stray", &strays, &marker);
    plain_bot(&dir, "alpha");
    plain_bot(&dir, "beta");
    let mut run = endless_match(&dir, &marker);
    let alive = strays.alive();
    if !alive.iter().any(|&pid| in_a_run_cgroup(pid)) {
        let _ = run.kill();
        let _ = run.wait();
        eprintln!(
            "skipped: cgroup v2 cannot be written here, so a run killed whole leaves its strays (protocol.md says so)"
        );
        return;
    }
    // Stopped first, so that no supervisor sees its arena gone and ends its bot.
    let arena = run.id();
    let _ = Command::new("kill")
        .args(["-STOP", &arena.to_string()])
        .status();
    for supervisor in children_of(arena) {
        let _ = Command::new("kill")
            .args(["-9", &supervisor.to_string()])
            .status();
    }
    run.kill().expect("kill -9 hamle match");
    run.wait().expect("reaped");
    // Nothing is left to end the strays now but the next arena (without the sweep they
    // run on: checked by hand, 2026-12-07). Another test's arena, started beside this one
    // meanwhile, may be that next arena: so no check here that they still run.
    let args = ["alpha", "beta", "--games", "1", "--quiet", "--out"];
    let next = dir.join("next");
    ok(&hamle_match(
        &dir,
        &[&args[..], &[next.to_str().expect("utf-8")]].concat(),
    ));
    strays.assert_none_left("after the next arena started");
    let _ = std::fs::remove_dir_all(&dir);
}
