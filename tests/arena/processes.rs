//! The engines' processes under `hamle match`, end to end: an engine flooding stderr gets at
//! most the cap a game in its log, with a note, and is never blocked by it; a bot started
//! through a wrapper whose engine hangs leaves no process of its group behind, whether the
//! arena gives up on it or is itself stopped by Ctrl-C (SIGINT) or SIGTERM.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::support::arena::{HAMLE, hamle_match, ok, scratch, sorted_results};
use crate::support::peers::require_python3;

/// The cap of `hamle::arena::gtp`, as the note states it.
const CAP: u64 = hamle::arena::gtp::MAX_LOG_BYTES_PER_RUN;

fn fixture() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/broken_engine.py")
        .display()
        .to_string()
}

fn go_bot(dir: &Path, name: &str) {
    let text = format!(
        "name = \"{name}\"\ngame = \"go\"\ncommand = [\"hamle\", \"go\", \"--rules\", \"chinese\"]\nseed_arg = \"--seed\"\n[options]\nplayouts = 10\n"
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

/// `hamle go` behind the broken-engine fixture.
fn wrapped_bot(dir: &Path, name: &str, mode: &str, k: u32, marker: &Path) {
    require_python3();
    let text = format!(
        "name = \"{name}\"\ngame = \"go\"\ncommand = [\"python3\", {:?}, \"{mode}\", \"{k}\", \"--marker\", {:?}, \"--\", {HAMLE:?}, \"go\", \"--rules\", \"chinese\", \"--playouts\", \"10\"]\n",
        fixture(),
        marker.display().to_string(),
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

#[test]
fn an_engine_flooding_stderr_is_capped_per_game_and_never_blocked() {
    let dir = scratch("processes", "flood");
    // Three MiB before it answers anything: far past a pipe's buffer, so an arena that
    // stopped reading would leave it blocked, unanswering, until the timeout.
    wrapped_bot(&dir, "flood", "flood", 3, &dir.join("unused"));
    go_bot(&dir, "alpha");
    let out = dir.join("m");
    let output = hamle_match(
        &dir,
        &[
            "flood",
            "alpha",
            "--games",
            "2",
            "--start-timeout",
            "300",
            "--quiet",
            // The wrapper floods as it starts: a process a game, each capped.
            "--restart",
            "per-game",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    ok(&output);
    for result in sorted_results(&out) {
        assert!(
            !result.reason.contains("timeout") && !result.reason.contains("crash"),
            "the flood blocked nothing: {result:?}"
        );
    }
    let log = std::fs::read(out.join("logs").join("flood.log")).expect("the log");
    let note = format!("[hamle: flood wrote more than {CAP} bytes to stderr in this run");
    let text = String::from_utf8_lossy(&log);
    assert_eq!(text.matches(&note).count(), 2, "one note a game");
    let notes: u64 = text
        .lines()
        .filter(|line| line.contains(&note))
        .map(|line| line.len() as u64 + 1)
        .sum();
    assert_eq!(log.len() as u64 - notes, 2 * CAP, "the cap, a game");
}

/// Waits until `group` has no live process; kills what is left and fails after 20 s.
fn assert_group_ends(group: i32, child: i32) {
    // SIGKILL is sent before hamle exits; its delivery is the kernel's, so allow a moment.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let alive = alive_in_group(group);
        if alive.is_empty() {
            return;
        }
        if Instant::now() > deadline {
            for stat in &alive {
                if let Some(pid) = stat.split_whitespace().next() {
                    let _ = std::process::Command::new("kill")
                        .args(["-9", pid])
                        .status();
                }
            }
            panic!("left running in the bot's group (engine pid {child}): {alive:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The hung child's pid and its group, from the wrapper's marker file.
fn hung_ids(marker: &Path) -> (i32, i32) {
    let written = std::fs::read_to_string(marker).expect("the wrapper started its engine");
    let ids: Vec<i32> = written
        .split_whitespace()
        .filter_map(|word| word.parse().ok())
        .collect();
    let [child, group] = ids[..] else {
        panic!("pid and group in {written:?}")
    };
    (child, group)
}

/// The processes of group `group` still alive (zombies are dead, only not yet reaped).
fn alive_in_group(group: i32) -> Vec<String> {
    let mut alive = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid pgrp …: comm may hold spaces, so read after its ')'.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        if fields.len() > 2 && fields[2] == group.to_string() && fields[0] != "Z" {
            alive.push(stat);
        }
    }
    alive
}

#[test]
fn a_wrapper_whose_engine_hangs_leaves_no_process_of_its_group() {
    let dir = scratch("processes", "group");
    let marker = dir.join("hung");
    wrapped_bot(&dir, "wrapped", "hang-child", 1, &marker);
    go_bot(&dir, "alpha");
    let out = dir.join("m");
    let output = hamle_match(
        &dir,
        &[
            "wrapped",
            "alpha",
            "--games",
            "1",
            "--move-timeout",
            "5",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    ok(&output);
    let results = sorted_results(&out);
    assert!(
        results[0].reason.contains("timeout of wrapped"),
        "the arena gave up on it: {results:?}"
    );
    let (child, group) = hung_ids(&marker);
    assert_group_ends(group, child);
}

#[test]
fn a_signal_to_the_arena_ends_every_engine_group_it_started() {
    for signal in ["INT", "TERM"] {
        let dir = scratch("processes", &format!("signal-{signal}"));
        let marker = dir.join("hung");
        wrapped_bot(&dir, "wrapped", "hang-child", 1, &marker);
        go_bot(&dir, "alpha");
        let out = dir.join("m");
        // A move timeout far beyond the test: only the signal can end this run.
        let run = std::process::Command::new(HAMLE)
            .args(["match", "--bots"])
            .arg(dir.join("bots"))
            .args(["wrapped", "alpha", "--games", "1", "--move-timeout", "3600"])
            .args(["--quiet", "--out", out.to_str().expect("utf-8")])
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("start hamle match");
        let deadline = Instant::now() + Duration::from_secs(120);
        while !marker.exists() {
            assert!(Instant::now() < deadline, "the wrapper never hung");
            std::thread::sleep(Duration::from_millis(50));
        }
        let (child, group) = hung_ids(&marker);
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), run.id().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success());
        let output = run.wait_with_output().expect("hamle match ends");
        let stderr = String::from_utf8_lossy(&output.stderr);
        // As shells report a process killed by the signal: 128 + its number.
        let code = if signal == "TERM" { 143 } else { 130 };
        assert_eq!(output.status.code(), Some(code), "{stderr}");
        assert!(
            stderr.contains(&format!("SIG{signal}: stopped")) && stderr.contains("--resume"),
            "{stderr}"
        );
        assert_group_ends(group, child);
    }
}
