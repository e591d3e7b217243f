//! One cgroup (v2) an engine, where the cgroup tree can be written: what a bot starts stays
//! in its engine's cgroup whatever it does (`setsid`, double forks, a killed parent), and
//! `cgroup.kill` ends all of it at once.
//!
//! The arena makes a run group `hamle-PID-START` beside itself (in its own cgroup: PID and
//! its start time in clock ticks, so that a reused pid is not mistaken for a live run) and
//! hands its path to each engine's supervisor (`hamle __exec-bot --cgroup RUN -- …`). The
//! supervisor makes `RUN/engine-PID`, moves itself into it before it starts the bot (so the
//! bot and all it starts are born there), and when the bot ends moves itself back out and
//! kills the group. The arena kills a timed-out engine's group, and the whole run group at
//! every end of the run. A run group left by an arena that was killed with its supervisors
//! (`killall -9 hamle`, the OOM killer) is found by the next arena that starts beside it:
//! its owner is no longer running, so it is killed and removed then.
//!
//! Everything here is best effort: where cgroup v2 is not mounted or not writable (the
//! usual case for a user's session), nothing happens and the reaper alone ends the strays.
//! The files written here are the kernel's interface, not user files, so they are written
//! directly rather than through the ground floor's writer (which refuses non-regular
//! files and writes through a temp file).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The prefix of a run group's name.
const RUN_PREFIX: &str = "hamle-";

/// The prefix of an engine group's name (its supervisor's pid follows).
const ENGINE_PREFIX: &str = "engine-";

/// How long a killed group is given to empty before it is left (and removed later).
const EMPTYING: Duration = Duration::from_secs(2);

/// This arena's run group, once made.
static RUN: OnceLock<PathBuf> = OnceLock::new();

/// Makes this arena's run group (once), after removing run groups of arenas that are gone.
/// Returns its path, or `None` where cgroups cannot be used.
pub fn open_run() -> Option<&'static Path> {
    if let Some(run) = RUN.get() {
        return Some(run);
    }
    let base = own_cgroup()?;
    sweep_stale(&base);
    let me = std::process::id();
    let name = format!("{RUN_PREFIX}{me}-{}", start_time(me)?);
    let run = base.join(name);
    std::fs::create_dir(&run).ok()?;
    Some(RUN.get_or_init(|| run))
}

/// This arena's run group, when one was made.
pub fn run() -> Option<&'static Path> {
    RUN.get().map(PathBuf::as_path)
}

/// The supervisor's side: makes `RUN/engine-PID` and moves this process into it, so that
/// the bot it starts next is born there. Returns the group, or `None` when that failed.
pub fn enter_engine_group(run: &Path) -> Option<PathBuf> {
    let me = std::process::id();
    let group = run.join(format!("{ENGINE_PREFIX}{me}"));
    std::fs::create_dir(&group).ok()?;
    if write_control(&group.join("cgroup.procs"), &me.to_string()).is_err() {
        let _ = std::fs::remove_dir(&group);
        return None;
    }
    Some(group)
}

/// The supervisor's side, when its bot has ended: moves this process back to the run
/// group and kills everything left in the engine's group.
pub fn leave_and_kill(group: &Path) {
    if let Some(run) = group.parent() {
        let _ = write_control(&run.join("cgroup.procs"), &std::process::id().to_string());
    }
    kill_and_remove(group);
}

/// The arena's side: kills the group of the engine whose supervisor is `supervisor` (a
/// timed-out engine: its process group is killed, but what left that group is only here).
/// It does not wait: the emptied group is removed with the run group.
pub fn kill_engine(supervisor: i32) {
    if let Some(run) = run() {
        let group = run.join(format!("{ENGINE_PREFIX}{supervisor}"));
        let _ = write_control(&group.join("cgroup.kill"), "1");
    }
}

/// The arena's side, at every end of the run: kills the run group with all it holds and
/// removes it.
pub fn close_run() {
    if let Some(run) = run() {
        kill_and_remove(run);
    }
}

/// Kills every process in `group` and its descendants, waits (bounded) until it is empty
/// and removes it with its child groups.
fn kill_and_remove(group: &Path) {
    if !group.is_dir() {
        return;
    }
    let _ = write_control(&group.join("cgroup.kill"), "1");
    let started = Instant::now();
    while populated(group) && started.elapsed() < EMPTYING {
        std::thread::sleep(Duration::from_millis(10));
    }
    remove_tree(group);
}

/// Removes a group and its child groups, deepest first (a cgroup directory is removed
/// with `rmdir`, once it holds no process and no child group).
fn remove_tree(group: &Path) {
    for entry in std::fs::read_dir(group).into_iter().flatten().flatten() {
        if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
            remove_tree(&entry.path());
        }
    }
    let _ = std::fs::remove_dir(group);
}

/// Whether a group (or one below it) still holds a process.
fn populated(group: &Path) -> bool {
    std::fs::read_to_string(group.join("cgroup.events"))
        .is_ok_and(|events| events.lines().any(|line| line.trim() == "populated 1"))
}

/// Removes the run groups beside ours whose arena is no longer running.
fn sweep_stale(base: &Path) {
    for entry in std::fs::read_dir(base).into_iter().flatten().flatten() {
        let name = entry.file_name();
        let Some(owner) = name.to_str().and_then(run_owner) else {
            continue;
        };
        let (pid, start) = owner;
        if start_time(pid) != Some(start) {
            kill_and_remove(&entry.path());
        }
    }
}

/// The pid and start time a run group's name holds (`hamle-PID-START`).
fn run_owner(name: &str) -> Option<(u32, u64)> {
    let (pid, start) = name.strip_prefix(RUN_PREFIX)?.split_once('-')?;
    Some((pid.parse().ok()?, start.parse().ok()?))
}

/// A process's start time in clock ticks since boot (`/proc/PID/stat`, field 22), or
/// `None` when it is not running.
fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // `pid (comm) state …`: comm may hold spaces and parentheses; field 22 is the 20th
    // after the closing one.
    let (_, rest) = stat.rsplit_once(')')?;
    rest.split_whitespace().nth(19)?.parse().ok()
}

/// The directory of this process's cgroup v2 (whether it can be written shows when the
/// run group is made in it).
fn own_cgroup() -> Option<PathBuf> {
    let mount = cgroup2_mount()?;
    let listed = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    // The v2 line is `0::PATH`; on a hybrid system it sits beside the v1 lines.
    let path = listed.lines().find_map(|line| line.strip_prefix("0::"))?;
    let dir = mount.join(path.trim_start_matches('/'));
    dir.join("cgroup.procs").is_file().then_some(dir)
}

/// Where the cgroup v2 tree is mounted (`/sys/fs/cgroup`, or `/sys/fs/cgroup/unified` on a
/// hybrid system), from `/proc/self/mountinfo`.
fn cgroup2_mount() -> Option<PathBuf> {
    let mounts = std::fs::read_to_string("/proc/self/mountinfo").ok()?;
    mounts.lines().find_map(|line| {
        // `ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS… - FSTYPE SOURCE SUPEROPTIONS`
        let (fields, tail) = line.split_once(" - ")?;
        let kind = tail.split_whitespace().next()?;
        let mount_point = fields.split_whitespace().nth(4)?;
        (kind == "cgroup2").then(|| PathBuf::from(mount_point))
    })
}

/// Writes one value to a cgroup control file.
fn write_control(path: &Path, value: &str) -> std::io::Result<()> {
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)?
        .write_all(value.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_groups_name_gives_its_owner() {
        assert_eq!(run_owner("hamle-123-456"), Some((123, 456)));
        assert_eq!(run_owner("hamle-123"), None);
        assert_eq!(run_owner("other-1-2"), None);
        assert_eq!(run_owner("hamle-x-2"), None);
    }

    #[test]
    fn this_process_has_a_start_time_and_a_dead_one_none() {
        assert!(start_time(std::process::id()).is_some());
        // Above the kernel's largest pid (2^22).
        assert_eq!(start_time(5_000_000), None);
    }
}
