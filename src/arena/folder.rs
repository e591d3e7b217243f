//! What a run may do with its `--out` folder, before it writes anything there: the lock
//! that keeps a second process out for the whole run, and the check that a folder given
//! for a new run is empty (or new), not someone's other files.
//!
//! The lock is an OS lock (`flock`, through `File::try_lock`) on `DIR/.lock`, which holds
//! the pid of the process that has it: the kernel drops it when that process ends, however
//! it ends, so a killed run never leaves its folder locked, while a pid file alone would.
//! The file itself stays; only the lock on it counts. Engines do not inherit it (Rust opens
//! every file close-on-exec).

use std::fmt;
use std::fs::{self, File, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Why a run may not use a folder.
#[derive(Debug)]
pub enum FolderError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// Another process holds the folder's lock (`pid` as it wrote it).
    Locked { dir: PathBuf, pid: Option<u32> },
    /// A new run given a folder that holds other files (`found`, some of them).
    Foreign {
        dir: PathBuf,
        found: Vec<String>,
        marker: &'static str,
        kind: &'static str,
    },
}

impl fmt::Display for FolderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FolderError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            FolderError::Locked { dir, pid } => write!(
                f,
                "{} is in use by another hamle process ({}, holding {}): wait for it to end or stop it; two runs on one folder would record games twice",
                dir.display(),
                pid.map_or_else(
                    || "pid not written yet".to_owned(),
                    |pid| format!("pid {pid}")
                ),
                lock_path(dir).display()
            ),
            FolderError::Foreign {
                dir,
                found,
                marker,
                kind,
            } => write!(
                f,
                "{} is not empty and holds no {kind} ({marker} is missing; found {}): give --out an empty or new folder, or --resume a {kind} folder",
                dir.display(),
                found.join(", ")
            ),
        }
    }
}

impl std::error::Error for FolderError {}

/// The lock file in a match or ladder folder.
pub const LOCK_FILE: &str = ".lock";

/// How many of a foreign folder's entries a refusal names.
const NAMES_SHOWN: usize = 5;

/// What a folder must hold to be a run's: its settings file (`match.txt`, `ladder.txt`) and
/// the kind of run, for messages.
#[derive(Copy, Clone, Debug)]
pub struct FolderKind {
    pub marker: &'static str,
    /// `match`, `ladder`.
    pub kind: &'static str,
}

/// The folder's lock, held by this process until dropped (or until it ends).
#[derive(Debug)]
pub struct FolderLock {
    _file: File,
}

impl FolderLock {
    /// Creates `dir` if needed and takes its lock, writing this process's pid into the
    /// lock file; another process holding it is an error naming its pid.
    pub fn take(dir: &Path) -> Result<FolderLock, FolderError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| FolderError::Io { path, source }
        };
        fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(LOCK_FILE);
        let mut file = crate::files::open_to_update(&path).map_err(|e| FolderError::Io {
            path: e.path,
            source: e.problem.into(),
        })?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                return Err(FolderError::Locked {
                    dir: dir.to_owned(),
                    pid: holder_pid(&mut file),
                });
            }
            Err(TryLockError::Error(source)) => return Err(io(&path)(source)),
        }
        file.set_len(0).map_err(io(&path))?;
        file.write_all(format!("{}\n", std::process::id()).as_bytes())
            .map_err(io(&path))?;
        Ok(FolderLock { _file: file })
    }
}

/// The refusal for `dir` when another process holds its lock (a run that is starting up
/// may not have written its settings yet: "in use" is then the truth, not "no match
/// here"); `None` when no lock file exists or nobody holds it. Creates nothing.
pub fn in_use(dir: &Path) -> Option<FolderError> {
    // Read only, and never waiting: a FIFO planted as the lock is no lock.
    let (mut file, _) = crate::files::open_regular(&dir.join(LOCK_FILE), u64::MAX).ok()?;
    match file.try_lock() {
        Err(TryLockError::WouldBlock) => Some(FolderError::Locked {
            dir: dir.to_owned(),
            pid: holder_pid(&mut file),
        }),
        // Taken here only to look: dropping the file lets it go at once.
        Ok(()) | Err(TryLockError::Error(_)) => None,
    }
}

/// The pid the lock's holder wrote (`None` when it wrote none within a second).
fn holder_pid(file: &mut File) -> Option<u32> {
    // The holder writes its pid just after it takes the lock: a refusal that comes in
    // between waits a moment for it rather than name no one.
    for _ in 0..50 {
        if let Some(pid) = written_pid(file) {
            return Some(pid);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    None
}

fn written_pid(file: &mut File) -> Option<u32> {
    let mut text = String::new();
    file.rewind().ok()?;
    // A pid is a few bytes; a longer file is not one of ours.
    Read::by_ref(file).take(64).read_to_string(&mut text).ok()?;
    text.trim().parse().ok()
}

/// Checks that `dir` may take a new run of `kind`: it does not exist, or is a folder
/// holding nothing but a lock file (and the temporary files of a run interrupted while
/// writing its settings), or holds `kind`'s settings file (then the caller refuses it as a
/// run already there, or the lock as one running). Anything else is someone's other files,
/// which a run would mix with its own or overwrite: refused, naming what was found.
pub fn check_new(dir: &Path, kind: FolderKind) -> Result<(), FolderError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(FolderError::Io {
                path: dir.to_owned(),
                source,
            });
        }
    };
    let mut found: Vec<String> = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|source| FolderError::Io {
            path: dir.to_owned(),
            source,
        })?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == kind.marker {
            return Ok(());
        }
        let ours = name == LOCK_FILE || (name.starts_with('.') && name.ends_with(".tmp"));
        if !ours {
            found.push(name);
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    found.sort();
    let count = found.len();
    found.truncate(NAMES_SHOWN);
    if count > NAMES_SHOWN {
        found.push(format!("and {} more", count - NAMES_SHOWN));
    }
    Err(FolderError::Foreign {
        dir: dir.to_owned(),
        found,
        marker: kind.marker,
        kind: kind.kind,
    })
}

/// The path of `dir`'s lock file, for messages.
pub fn lock_path(dir: &Path) -> PathBuf {
    dir.join(LOCK_FILE)
}

/// The most a file of a match or ladder folder (settings, `results.tsv`, a record, a log)
/// may hold when the arena reads it back: far beyond what a million games write, and a
/// bound on what a forged or damaged folder can make the arena allocate.
pub const MAX_FOLDER_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// Reads back a file of a run's folder: a regular file of at most
/// [`MAX_FOLDER_FILE_BYTES`] (a FIFO or a device put there is refused, not waited on).
pub fn read_bytes(path: &Path) -> std::io::Result<Vec<u8>> {
    crate::files::read_capped(path, MAX_FOLDER_FILE_BYTES).map_err(|error| error.problem.into())
}

/// [`read_bytes`] as UTF-8 text.
pub fn read_text(path: &Path) -> std::io::Result<String> {
    crate::files::read_capped_to_string(path, MAX_FOLDER_FILE_BYTES)
        .map_err(|error| error.problem.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("hamle-folder-unit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        dir
    }

    const MATCH: FolderKind = FolderKind {
        marker: "match.txt",
        kind: "match",
    };

    #[test]
    fn a_second_lock_on_one_folder_is_refused_naming_the_holder() {
        let dir = scratch("lock");
        let first = FolderLock::take(&dir).expect("the first takes it");
        match FolderLock::take(&dir) {
            Err(FolderError::Locked { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected the lock refused, got {other:?}"),
        }
        // What a run checks before its own lock (a resume or a new run while the first is
        // still starting up) names the holder too, and creates nothing.
        match in_use(&dir) {
            Some(FolderError::Locked { pid, .. }) => assert_eq!(pid, Some(std::process::id())),
            other => panic!("expected the folder in use, got {other:?}"),
        }
        drop(first);
        assert!(in_use(&dir).is_none(), "nobody holds it now");
        FolderLock::take(&dir).expect("free again once dropped");
        let _ = fs::remove_dir_all(&dir);
        assert!(in_use(&dir).is_none());
        assert!(!dir.exists(), "in_use creates nothing");
    }

    #[test]
    fn only_empty_new_or_own_folders_take_a_new_run() {
        let dir = scratch("new");
        check_new(&dir, MATCH).expect("a new folder");
        fs::create_dir_all(&dir).expect("create");
        fs::write(dir.join(LOCK_FILE), "1\n").expect("write");
        fs::write(dir.join(".match.txt.tmp"), "").expect("write");
        check_new(&dir, MATCH).expect("only a lock and a temporary");
        fs::write(dir.join("notes.txt"), "mine").expect("write");
        let refused = check_new(&dir, MATCH).expect_err("someone's file");
        assert!(refused.to_string().contains("notes.txt"), "{refused}");
        fs::write(dir.join("match.txt"), "").expect("write");
        check_new(&dir, MATCH).expect("a match folder is the caller's to judge");
        let _ = fs::remove_dir_all(&dir);
    }
}
