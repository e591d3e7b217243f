//! No process a bot started outlives the run.
//!
//! Each engine is started through this very binary as a small supervisor (the hidden
//! subcommand [`SHIM_COMMAND`]: `hamle __exec-bot -- PROGRAM ARGS…`, see [`exec_bot`]),
//! which leads the engine's process group, starts the bot in it, and is a child subreaper:
//! whatever the bot starts and leaves (a child it forks and forgets, one that called
//! `setsid`) becomes the supervisor's child when its parent dies. The supervisor ends when
//! the bot does, or when the arena is gone (it watches its parent, so a `kill -9` of
//! `hamle match` is noticed within [`WATCH_EVERY`]); either way it first ends the bot's
//! group and every process handed to it ([`end_strays`]: TERM, then KILL after a grace).
//!
//! The arena itself is a child subreaper too ([`install`]): what escapes a supervisor that
//! was killed (a timed-out engine's group is killed whole, supervisor included) comes to
//! the arena, which ends it at every end of the run, normal or by a signal.
//!
//! The parent-death signal (`PR_SET_PDEATHSIG`) is not used: it fires when the *thread*
//! that started the process exits, and the arena starts engines from its runtime's worker
//! threads; watching the parent process is exact and needs no signal handler.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use rustix::process::{
    Pid, Signal, WaitOptions, getpgid, getpid, getppid, kill_process, kill_process_group,
    set_child_subreaper, waitpid,
};

/// The hidden subcommand that starts a bot under a supervisor.
pub const SHIM_COMMAND: &str = "__exec-bot";

/// The supervisor's flag that names the run's cgroup (see [`super::cgroup`]).
const CGROUP_FLAG: &str = "--cgroup";

/// How often a supervisor looks whether the arena is still there.
pub const WATCH_EVERY: Duration = Duration::from_millis(100);

/// How long a stray is given to end on SIGTERM before it is killed.
pub const GRACE: Duration = Duration::from_millis(500);

/// This binary, when it supervises its engines ([`install`]).
static SHIM: OnceLock<PathBuf> = OnceLock::new();

/// Makes this process a child subreaper and has its engines started under the supervisor
/// (this binary). Called by the binary's arena commands; a library user that does not call
/// it starts engines directly.
pub fn install() {
    // The kernel's link to the running binary: it stays valid when the file is rebuilt or
    // removed during a long run.
    let exe = Path::new("/proc/self/exe");
    let exe = if exe.exists() {
        Some(exe.to_owned())
    } else {
        std::env::current_exe().ok()
    };
    if let Some(exe) = exe {
        let _ = SHIM.set(exe);
    }
    // Without it (not Linux, an old kernel) orphans go to init as before.
    let _ = set_child_subreaper(Some(getpid()));
    // Where cgroup v2 can be written, one cgroup an engine as well.
    let _ = super::cgroup::open_run();
}

/// Ends whatever the run's engines left, at any end of the run: the run's cgroup (where
/// there is one) with all it holds, then every process handed to us.
pub fn end_run() {
    super::cgroup::close_run();
    end_strays(false, GRACE);
}

/// The program and arguments that start `program args…` under the supervisor, or `None`
/// when engines are started directly.
pub fn supervised(program: &Path, args: &[String]) -> Option<(PathBuf, Vec<OsString>)> {
    let shim = SHIM.get()?;
    let mut words: Vec<OsString> = vec![SHIM_COMMAND.into()];
    if let Some(run) = super::cgroup::run() {
        words.extend([CGROUP_FLAG.into(), run.into()]);
    }
    words.extend(["--".into(), program.into()]);
    words.extend(args.iter().map(OsString::from));
    Some((shim.clone(), words))
}

/// `hamle __exec-bot -- PROGRAM ARGS…`: runs the bot as a child in this process's group
/// (the arena made it the group's leader), ends it and everything it left when it exits or
/// the arena goes, and exits as the bot did.
pub fn exec_bot(args: &[OsString]) -> i32 {
    let arena = getppid();
    let _ = set_child_subreaper(Some(getpid()));
    let (run, args) = match args {
        [flag, run, rest @ ..] if flag == CGROUP_FLAG => (Some(Path::new(run)), rest),
        _ => (None, args),
    };
    let words = match args.first() {
        Some(first) if first == "--" => &args[1..],
        _ => args,
    };
    let Some((program, rest)) = words.split_first() else {
        eprintln!(
            "hamle {SHIM_COMMAND}: no program given (usage: hamle {SHIM_COMMAND} -- PROGRAM ARGS…)"
        );
        return 2;
    };
    // Entered before the bot starts, so that the bot and all it starts are born in it.
    let group = run.and_then(super::cgroup::enter_engine_group);
    let mut child = match Command::new(program).args(rest).spawn() {
        Ok(child) => child,
        Err(error) => {
            eprintln!(
                "hamle: cannot start '{}': {error}",
                program.to_string_lossy()
            );
            if let Some(group) = &group {
                super::cgroup::leave_and_kill(group);
            }
            return 127;
        }
    };
    release_stdio();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = done.send(child.wait());
    });
    let status = loop {
        match finished.recv_timeout(WATCH_EVERY) {
            Ok(status) => break status.ok(),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) if getppid() == arena => {}
            // The arena is gone (its pid is no longer our parent): end the bot too.
            Err(_) => break None,
        }
    };
    if let Some(group) = &group {
        super::cgroup::leave_and_kill(group);
    }
    end_strays(true, GRACE);
    exit_code(status)
}

/// The bot's status as this process's: its exit code, or its signal raised again.
fn exit_code(status: Option<std::process::ExitStatus>) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    let Some(status) = status else {
        return 1;
    };
    if let Some(code) = status.code() {
        return code;
    }
    let signal = status.signal().unwrap_or(0);
    if let Some(raised) = Signal::from_named_raw(signal) {
        let _ = kill_process(getpid(), raised);
    }
    128 + signal
}

/// The supervisor holds no end of the engine's pipes once the bot has them, so that the
/// arena sees the bot's output close when the bot closes it.
fn release_stdio() {
    if let Ok(null) = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
    {
        let _ = rustix::stdio::dup2_stdin(&null);
        let _ = rustix::stdio::dup2_stdout(&null);
        let _ = rustix::stdio::dup2_stderr(&null);
    }
}

/// One process as `/proc/PID/stat` shows it.
struct Process {
    pid: i32,
    parent: i32,
    group: i32,
    state: char,
}

/// Ends every process left to this one: each child of ours (as a subreaper, the orphans of
/// what we started) and, with `own_group` (the supervisor, which leads its engine's group),
/// every other process of our group; a process leading a group of its own (it called
/// `setsid`) takes its group with it. SIGTERM first, SIGKILL to what is still there after
/// `grace`; repeated while ending a process hands its children to us. Reaps the children
/// that ended. Returns how many processes it signalled.
pub fn end_strays(own_group: bool, grace: Duration) -> usize {
    let me = getpid().as_raw_nonzero().get();
    let my_group = getpgid(None).map_or(0, |group| group.as_raw_nonzero().get());
    let started = Instant::now();
    let mut termed: Vec<i32> = Vec::new();
    // Bounded: a process that forks faster than it is killed cannot hold the run.
    while started.elapsed() < grace + Duration::from_secs(5) {
        let strays: Vec<Process> = processes()
            .into_iter()
            .filter(|p| p.pid != me && (p.parent == me || (own_group && p.group == my_group)))
            .filter(|p| {
                if p.state != 'Z' {
                    return true;
                }
                if p.parent == me {
                    let _ = Pid::from_raw(p.pid).map(|pid| waitpid(Some(pid), WaitOptions::NOHANG));
                }
                false
            })
            .collect();
        if strays.is_empty() {
            break;
        }
        let kill = started.elapsed() >= grace;
        let signal = if kill { Signal::KILL } else { Signal::TERM };
        for stray in &strays {
            if !kill && termed.contains(&stray.pid) {
                continue;
            }
            if !termed.contains(&stray.pid) {
                termed.push(stray.pid);
            }
            let Some(pid) = Pid::from_raw(stray.pid) else {
                continue;
            };
            let _ = kill_process(pid, signal);
            if stray.group == stray.pid && stray.group != my_group {
                let _ = kill_process_group(pid, signal);
            }
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    termed.len()
}

/// Every process as `/proc/PID/stat` shows it.
fn processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // `pid (comm) state ppid pgrp …`, where comm may hold spaces and parentheses.
            let (_, rest) = stat.rsplit_once(')')?;
            let mut fields = rest.split_whitespace();
            let state = fields.next()?.chars().next()?;
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some(Process {
                pid,
                parent,
                group,
                state,
            })
        })
        .collect()
}
