//! Ctrl-C and `kill` (SIGINT, SIGTERM: what a terminal and Slurm's `scancel` send) during a
//! match: every engine runs in a process group of its own (so that a wrapper's engine ends
//! with it), which also means the terminal's Ctrl-C no longer reaches the engines. So the
//! arena keeps the groups it started here, and on either signal (heard by a thread of its
//! own, started with the first engine) kills them all before it exits: no engine, hung or
//! not, outlives an interrupted run. Results already saved stay;
//! `--resume` replays the games that were in progress.

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard};

use rustix::process::{Pid, Signal, kill_process_group};

/// The exit code of a run ended by SIGINT, as shells report one killed by it (128 + 2).
pub const INTERRUPTED_EXIT_CODE: i32 = 130;

/// The exit code of a run ended by SIGTERM, as shells report one killed by it (128 + 15).
pub const TERMINATED_EXIT_CODE: i32 = 143;

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

/// Starts, once per process, a thread that waits for SIGINT or SIGTERM and then ends the run
/// ([`stop_after`]). Called before the first engine starts: from then on the signals are
/// handled for the rest of the process (a runtime's own handler would leave the signals
/// ignored once that runtime ended, e.g. between two pairings of a ladder).
pub fn guard() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let (ready, listening) = std::sync::mpsc::channel();
        let spawned = std::thread::Builder::new()
            .name("hamle-signals".to_owned())
            .spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    let _ = ready.send(());
                    return;
                };
                runtime.block_on(async {
                    let signal = interrupted(|| {
                        let _ = ready.send(());
                    });
                    stop_after(signal.await)
                })
            });
        // Wait until the handlers are in place, so that no engine starts before them.
        if spawned.is_ok() {
            let _ = listening.recv();
        }
    });
}

/// Resolves when the process receives SIGINT or SIGTERM (never, if the handlers cannot be
/// installed: the run then goes on as before, and the default actions were kept).
/// `installed` is called once the handlers are in place (or could not be).
async fn interrupted(installed: impl FnOnce()) -> &'static str {
    use tokio::signal::unix::{SignalKind, signal};
    let handlers = (
        signal(SignalKind::interrupt()),
        signal(SignalKind::terminate()),
    );
    installed();
    let (Ok(mut int), Ok(mut term)) = handlers else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = int.recv() => "SIGINT",
        _ = term.recv() => "SIGTERM",
    }
}

/// Held by whichever end of the run comes first: a signal's ([`stop_after`]) or the normal
/// one ([`ending`]). Killing the engines lets the games end, and the run could otherwise
/// end normally (exit 0) while the signal's end still ends the strays.
static ENDING: Mutex<()> = Mutex::new(());

/// The run's normal end: from here a signal no longer ends it (it waits for the exit).
pub fn ending() -> MutexGuard<'static, ()> {
    ENDING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What a run does on a signal before its engines are killed (a living ladder voids its
/// games in progress, so that no game cut by the kill counts as lost).
type StopHook = Box<dyn Fn() + Send>;

static STOP_HOOKS: Mutex<Vec<StopHook>> = Mutex::new(Vec::new());

/// Runs `hook` when a signal ends the run, before the engines are killed.
pub fn on_stop(hook: impl Fn() + Send + 'static) {
    STOP_HOOKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Box::new(hook));
}

/// Ends the run after a signal: runs the stop hooks, kills the engines' groups, says so
/// on stderr and exits.
pub fn stop_after(signal: &str) -> ! {
    let _ending = ending();
    for hook in STOP_HOOKS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
    {
        hook();
    }
    let engines = kill_live_groups();
    // What escaped the groups (setsid) came to us, a subreaper, as its parents died.
    super::reaper::end_run();
    eprintln!(
        "hamle: {signal}: stopped, {engines} engine process group(s) killed; the games saved so far stay, --resume plays the rest"
    );
    std::process::exit(if signal == "SIGTERM" {
        TERMINATED_EXIT_CODE
    } else {
        INTERRUPTED_EXIT_CODE
    })
}
