//! The one way the program writes a file. A path is written only where nothing is yet, or
//! where a regular file is: a symbolic link (at the last component), a directory, a FIFO, a
//! device or a socket there is refused by name, never followed, opened or replaced. Opens
//! never wait (a FIFO would wait for a reader) and are checked again on the opened handle,
//! since a name can change hands between the look and the open.
//!
//! A whole file is written to a temporary name beside it (`.NAME.PID-N.tmp`, so two writers
//! never share one), fsync'd and renamed over the path, then the folder fsync'd: a crash
//! leaves the old file or the new one. The temporary file is removed on every error path,
//! a full disk included (a guard removes it unless the rename happened).

use super::{FileError, FileProblem, kind_name};
use std::fs::{self, File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `contents` to `path` whole (see the module's comment).
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    write_atomic_with(path, |out| out.write_all(contents))
}

/// Writes to `path` whole what `fill` writes (buffered); an error from `fill` leaves the
/// old file, if any, and no temporary file.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), FileError> {
    let error = |problem| FileError {
        path: path.to_owned(),
        problem,
    };
    let io_error = |e| error(FileProblem::Io(e));
    let existing = writable_target(path).map_err(error)?;
    let mut temporary = Temporary::create(path).map_err(io_error)?;
    if let Some(permissions) = existing {
        // The file keeps its mode: a rename would otherwise give it the new file's.
        temporary
            .file
            .set_permissions(permissions)
            .map_err(io_error)?;
    }
    let mut out = BufWriter::new(&temporary.file);
    fill(&mut out).map_err(io_error)?;
    out.flush().map_err(io_error)?;
    drop(out);
    temporary.file.sync_all().map_err(io_error)?;
    // Looked at again just before the rename: a link or a FIFO put there meanwhile is
    // refused rather than replaced.
    writable_target(path).map_err(error)?;
    temporary.rename_onto(path).map_err(io_error)?;
    sync_folder(&folder_of(path)).map_err(io_error)
}

/// Copies the regular file `from` to `to` whole (as [`write_atomic`] writes).
pub fn copy_regular(from: &Path, to: &Path) -> Result<(), FileError> {
    let (mut file, _) = super::open_regular(from, u64::MAX)?;
    write_atomic_with(to, |out| io::copy(&mut file, out).map(drop))
}

/// Removes what writers of `path` that were killed left beside it (their temporary files,
/// and `also`): for large files that an interrupted run would otherwise leave twice. Only
/// names are removed, never what a link points to. Not for a folder another process
/// writes to at the same time: its temporary file would go.
pub fn remove_left_temporaries(path: &Path, also: &[PathBuf]) -> io::Result<()> {
    let Some(name) = path.file_name() else {
        return Ok(());
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut left: Vec<PathBuf> = also.to_vec();
    for entry in fs::read_dir(folder_of(path))? {
        let entry = entry?;
        let entry_name = entry.file_name();
        let entry_name = entry_name.to_string_lossy();
        if entry_name.starts_with(&prefix) && entry_name.ends_with(".tmp") {
            left.push(entry.path());
        }
    }
    for path in left {
        match fs::remove_file(&path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
            _ => {}
        }
    }
    Ok(())
}

/// `path` opened to append to (created when missing): a log, `results.tsv`.
pub fn open_to_append(path: &Path) -> Result<File, FileError> {
    open_checked(path, OpenOptions::new().create(true).append(true))
}

/// `path` opened to write from its start (created when missing, emptied when not): a file
/// written as it goes, which readers may look at before it ends.
pub fn open_to_write(path: &Path) -> Result<File, FileError> {
    open_checked(
        path,
        OpenOptions::new().write(true).create(true).truncate(true),
    )
}

/// `path` opened to read and write in place (created when missing, never truncated): a
/// lock file.
pub fn open_to_update(path: &Path) -> Result<File, FileError> {
    open_checked(
        path,
        OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false),
    )
}

/// The permissions of the regular file at `path`, `None` where nothing is there; an error
/// for anything else there, a link included.
fn writable_target(path: &Path) -> Result<Option<Permissions>, FileProblem> {
    match fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(FileProblem::Io(e)),
        Ok(metadata) if metadata.file_type().is_file() => {
            if metadata.permissions().readonly() {
                // Replacing it by a rename would get past the mode meant to protect it.
                return Err(FileProblem::Io(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    "a read-only file; make it writable or name another path",
                )));
            }
            Ok(Some(metadata.permissions()))
        }
        Ok(metadata) => Err(FileProblem::NotWritable(kind_name(metadata.file_type()))),
    }
}

fn open_checked(path: &Path, options: &mut OpenOptions) -> Result<File, FileError> {
    let error = |problem| FileError {
        path: path.to_owned(),
        problem,
    };
    writable_target(path).map_err(error)?;
    let file = no_follow_no_wait(options)
        .open(path)
        .map_err(|e| error(open_problem(e)))?;
    let kind = file
        .metadata()
        .map_err(|e| error(FileProblem::Io(e)))?
        .file_type();
    if !kind.is_file() {
        return Err(error(FileProblem::NotWritable(kind_name(kind))));
    }
    Ok(file)
}

/// O_NOFOLLOW: a link at the last component fails the open (ELOOP) instead of being
/// followed; O_NONBLOCK: a FIFO fails or opens at once instead of waiting for a reader
/// (on a regular file it changes nothing); O_NOCTTY: a terminal never becomes ours.
#[cfg(unix)]
fn no_follow_no_wait(options: &mut OpenOptions) -> &mut OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_NOCTTY)
}

#[cfg(not(unix))]
fn no_follow_no_wait(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// A link met by O_NOFOLLOW is said as one; other errors as they are.
fn open_problem(error: io::Error) -> FileProblem {
    #[cfg(unix)]
    if error.raw_os_error() == Some(libc::ELOOP) {
        return FileProblem::NotWritable("a symbolic link");
    }
    FileProblem::Io(error)
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.to_owned(),
        _ => PathBuf::from("."),
    }
}

fn sync_folder(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// A temporary file beside its target, removed when dropped unless renamed onto it.
struct Temporary {
    path: PathBuf,
    file: File,
    renamed: bool,
}

impl Temporary {
    fn create(target: &Path) -> io::Result<Temporary> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = target.file_name().ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "names no file; name a file")
        })?;
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut temporary = std::ffi::OsString::from(".");
        temporary.push(name);
        temporary.push(format!(".{}-{n}.tmp", std::process::id()));
        let path = folder_of(target).join(temporary);
        // `create_new` (O_EXCL) never opens what is already there, a link included.
        let file = no_follow_no_wait(OpenOptions::new().write(true).create_new(true))
            .open(&path)
            .map_err(|e| {
                // Said of the folder: what fails here is making a file in it.
                let text = format!("cannot make a temporary file beside it: {e}");
                io::Error::new(e.kind(), text)
            })?;
        Ok(Temporary {
            path,
            file,
            renamed: false,
        })
    }

    fn rename_onto(&mut self, target: &Path) -> io::Result<()> {
        fs::rename(&self.path, target)?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = fs::remove_file(&self.path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;
    use std::sync::mpsc;
    use std::time::Duration;

    /// A folder of this test's own, removed at the end.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let dir = std::env::temp_dir()
                .join(format!("hamle-files-write-{name}-{}", std::process::id()));
            let _ = fs::remove_dir_all(&dir);
            fs::create_dir_all(&dir).expect("scratch folder");
            Scratch(dir)
        }

        /// The names in the folder, sorted.
        fn names(&self) -> Vec<String> {
            let mut names: Vec<String> = fs::read_dir(&self.0)
                .expect("list")
                .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
                .collect();
            names.sort();
            names
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = fs::remove_dir_all(&self.0);
        }
    }

    /// The refusal's text, from a thread, so that a write that blocks fails the test.
    fn refusal(path: &Path) -> String {
        let (sender, receiver) = mpsc::channel();
        let owned = path.to_owned();
        std::thread::spawn(move || {
            let _ = sender.send(write_atomic(&owned, b"page"));
        });
        match receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(Err(error)) => error.to_string(),
            Ok(Ok(())) => panic!("{} written", path.display()),
            Err(_) => panic!("writing {} blocked", path.display()),
        }
    }

    #[test]
    fn a_new_path_is_written_and_a_regular_file_replaced_keeping_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let scratch = Scratch::new("replace");
        let path = scratch.0.join("page.html");
        write_atomic(&path, b"one").expect("new");
        fs::set_permissions(&path, Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&path, b"two").expect("over");
        assert_eq!(fs::read(&path).expect("read"), b"two");
        let mode = fs::metadata(&path).expect("metadata").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
        assert_eq!(scratch.names(), ["page.html"]);
    }

    #[test]
    fn a_link_a_fifo_a_device_and_a_folder_are_refused_untouched() {
        let scratch = Scratch::new("refused");
        let target = scratch.0.join("target");
        fs::write(&target, "kept").expect("write");
        let link = scratch.0.join("link");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        let rule = "hamle writes only to a new path or over a regular file";
        assert_eq!(
            refusal(&link),
            format!("{}: a symbolic link; {rule}", link.display())
        );
        assert_eq!(fs::read(&target).expect("read"), b"kept");
        assert_eq!(
            refusal(Path::new("/dev/null")),
            format!("/dev/null: a device; {rule}")
        );
        assert_eq!(
            refusal(&scratch.0),
            format!("{}: a directory; {rule}", scratch.0.display())
        );
        let fifo = scratch.0.join("pipe");
        if Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            assert_eq!(
                refusal(&fifo),
                format!("{}: a FIFO; {rule}", fifo.display())
            );
            let error = open_to_append(&fifo).expect_err("a FIFO");
            assert_eq!(
                error.to_string(),
                format!("{}: a FIFO; {rule}", fifo.display())
            );
        }
        let error = open_to_append(&link).expect_err("a link");
        assert_eq!(
            error.to_string(),
            format!("{}: a symbolic link; {rule}", link.display())
        );
        assert!(scratch.names().iter().all(|n| !n.ends_with(".tmp")));
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_file() {
        let scratch = Scratch::new("failed");
        let path = scratch.0.join("0001.html");
        fs::write(&path, "old").expect("write");
        let error = write_atomic_with(&path, |out| {
            out.write_all(b"half a page")?;
            Err(io::Error::from_raw_os_error(libc::ENOSPC))
        })
        .expect_err("no space");
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: ", path.display()))
        );
        assert_eq!(fs::read(&path).expect("read"), b"old");
        assert_eq!(scratch.names(), ["0001.html"]);
    }

    #[test]
    fn what_killed_writers_left_is_removed_and_nothing_else() {
        let scratch = Scratch::new("left");
        let path = scratch.0.join("level.db");
        for name in [
            ".level.db.41-0.tmp",
            "level.db.partial",
            "level.db",
            ".other.1-0.tmp",
        ] {
            fs::write(scratch.0.join(name), "x").expect("write");
        }
        remove_left_temporaries(&path, &[scratch.0.join("level.db.partial")]).expect("removed");
        assert_eq!(scratch.names(), [".other.1-0.tmp", "level.db"]);
    }

    #[test]
    fn a_file_is_appended_to_and_created_when_missing() {
        let scratch = Scratch::new("append");
        let path = scratch.0.join("bot.log");
        open_to_append(&path)
            .expect("create")
            .write_all(b"one\n")
            .expect("append");
        open_to_append(&path)
            .expect("open")
            .write_all(b"two\n")
            .expect("append");
        assert_eq!(fs::read(&path).expect("read"), b"one\ntwo\n");
    }
}
