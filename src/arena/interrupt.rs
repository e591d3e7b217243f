//! Ctrl-C and `kill` (SIGINT, SIGTERM: what a terminal and Slurm's `scancel` send) during a
//! match: every engine runs in a process group of its own (so that a wrapper's engine ends
//! with it), which also means the terminal's Ctrl-C no longer reaches the engines. So the
//! arena keeps the groups it started here, and on either signal kills them all before it
//! exits: no engine, hung or not, outlives an interrupted run. Results already saved stay;
//! `--resume` replays the games that were in progress.

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard};

use rustix::process::{Pid, Signal, kill_process_group};

/// The exit code of a run ended by a signal, as shells report one killed by SIGINT.
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

static LIVE_GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

fn live_groups() -> MutexGuard<'static, BTreeSet<i32>> {
    // A panic elsewhere while holding the set leaves it as it was: still usable.
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Remembers an engine's process group until [`forget`].
pub fn remember(group: Pid) {
    live_groups().insert(group.as_raw_nonzero().get());
}

/// The engine's group was ended and reaped: nothing left to kill on a signal.
pub fn forget(group: Pid) {
    live_groups().remove(&group.as_raw_nonzero().get());
}

/// Kills every group still remembered; returns how many there were.
pub fn kill_live_groups() -> usize {
    let groups = std::mem::take(&mut *live_groups());
    for group in groups.iter().filter_map(|&raw| Pid::from_raw(raw)) {
        // A group already gone is fine: it is what a clean end looks like.
        let _ = kill_process_group(group, Signal::KILL);
    }
    groups.len()
}

/// Resolves when the process receives SIGINT or SIGTERM (never, if the handlers cannot be
/// installed: the run then goes on as before, and the default actions were kept).
pub async fn interrupted() -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut int), Ok(mut term)) = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => "SIGINT",
        _ = term.recv() => "SIGTERM",
    }
}

/// Ends the run after a signal: kills the engines' groups, says so on stderr and exits.
pub fn stop_after(signal: &str) -> ! {
    let engines = kill_live_groups();
    eprintln!(
        "hamle: {signal}: stopped, {engines} engine process group(s) killed; the games saved so far stay, --resume plays the rest"
    );
    std::process::exit(INTERRUPTED_EXIT_CODE)
}
