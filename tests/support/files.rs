//! Hostile files for the readers' tests: a FIFO, a sparse file of any size (no disk used),
//! and a run of the binary that fails the test, instead of hanging it, when a read blocks.
#![allow(dead_code)]

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Long enough for any machine, however loaded: a refusal comes at once, a read that
/// blocks never does.
pub const PATIENCE: Duration = Duration::from_secs(300);

/// 100 MB: far over every reader's limit.
pub const HUGE: u64 = 100 * 1000 * 1000;

/// A scratch folder of one test's own, removed at the end.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// `hamle-KIND-NAME-PID` in the temporary folder, made empty.
    pub fn new(kind: &str, name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hamle-{kind}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Makes a FIFO at `path`; false (and says so) where `mkfifo` is missing.
pub fn fifo(path: &Path) -> bool {
    let made = Command::new("mkfifo").arg(path).status();
    let ok = made.is_ok_and(|status| status.success());
    if !ok {
        eprintln!("mkfifo failed: the FIFO case is left out");
    }
    ok
}

/// A file of `bytes` zero bytes that takes no disk (a hole).
pub fn sparse(path: &Path, bytes: u64) {
    let file = std::fs::File::create(path).expect("create");
    file.set_len(bytes).expect("set_len");
}

/// Runs `command` with stdin from `input`, killing it and failing the test after
/// [`PATIENCE`].
pub fn run_patiently(command: &mut Command, input: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_owned();
    // A child that never reads must not block the test on a full pipe.
    std::thread::spawn(move || {
        let _ = std::io::Write::write_all(&mut stdin, input.as_bytes());
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > PATIENCE {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{command:?} still runs after {PATIENCE:?}: a read blocks");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    }
}

/// Paths that no writer may write through, with the reason the refusal gives: a FIFO (where
/// `mkfifo` works), a symbolic link to the file `kept` (which must stay as it is) and a
/// device (`/dev/null`, refused before anything is opened, so nothing is written to it).
pub fn unwritable(dir: &Path) -> Vec<(PathBuf, &'static str)> {
    let mut paths = Vec::new();
    let pipe = dir.join("pipe.out");
    if fifo(&pipe) {
        paths.push((pipe, "a FIFO"));
    }
    let kept = dir.join("kept");
    std::fs::write(&kept, "kept").expect("write");
    let link = dir.join("link.out");
    std::os::unix::fs::symlink(&kept, &link).expect("symlink");
    paths.push((link, "a symbolic link"));
    paths.push((PathBuf::from("/dev/null"), "a device"));
    paths
}

/// What every refusal of [`unwritable`]'s paths says after the reason.
pub const WRITE_RULE: &str = "hamle writes only to a new path or over a regular file";

/// `dir` as [`unwritable`] left it: the link's target unchanged, no temporary file.
pub fn assert_untouched(dir: &Path) {
    assert_eq!(
        std::fs::read_to_string(dir.join("kept")).expect("kept"),
        "kept"
    );
    for entry in std::fs::read_dir(dir).expect("list") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        assert!(!name.ends_with(".tmp"), "{name} left behind");
    }
    assert!(
        std::fs::symlink_metadata(dir.join("link.out"))
            .expect("link")
            .file_type()
            .is_symlink()
    );
}
