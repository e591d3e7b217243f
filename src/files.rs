//! Reading a file that a user or a controller names (an SGF for `loadsgf`, a bot file, a
//! `.tst` suite, Tavla weights, a Mangala database): only a regular file, and only up to a
//! size limit, so that a FIFO, a device (`/dev/zero`), a directory or a huge file is a
//! clear error at once, never an engine that blocks or runs out of memory.
//!
//! The checks are made on what was opened, not on the path: a name can change hands
//! between a look and an open. The open itself never waits: it is non-blocking, since
//! opening a FIFO for reading would otherwise wait for a writer.
//!
//! Writing every file the program writes (pages, records, match files, `printsgf`,
//! `save_mat`, weights, logs) goes through here as well: only to a new path or over a
//! regular file, never through a symbolic link or onto a device, FIFO or socket, never
//! waiting on the open, and whole files by way of a temporary file beside the target that
//! is removed on every error (see `write`).

mod write;

pub use write::{
    copy_regular, open_to_append, open_to_update, open_to_write, remove_left_temporaries,
    write_atomic, write_atomic_with,
};

use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a file was not read: the path and the problem.
#[derive(Debug)]
pub struct FileError {
    pub path: PathBuf,
    pub problem: FileProblem,
}

/// What was wrong with a file, in words that say what to do (without the path).
#[derive(Debug)]
pub enum FileProblem {
    /// A FIFO, a device, a socket or a directory: refused without reading.
    NotRegular(&'static str),
    /// A symbolic link, FIFO, device, socket or directory where a file is to be written:
    /// refused without writing.
    NotWritable(&'static str),
    /// Larger than `limit`: at least `at_least` bytes (the size may still be growing).
    TooLarge { at_least: u64, limit: u64 },
    /// Not UTF-8 text: the first bad byte is at `offset`, on `line` (from 1).
    NotUtf8 { offset: usize, line: usize },
    /// The machine cannot hold the file's `bytes`.
    OutOfMemory { bytes: u64 },
    /// The file could not be opened or read (missing, no permission, …).
    Io(io::Error),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.problem)
    }
}

impl std::error::Error for FileError {}

impl fmt::Display for FileProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileProblem::NotRegular(kind) => {
                write!(f, "not a regular file ({kind}); name a regular file")
            }
            FileProblem::NotWritable(kind) => write!(
                f,
                "{kind}; hamle writes only to a new path or over a regular file"
            ),
            FileProblem::TooLarge { at_least, limit } => write!(
                f,
                "{at_least} bytes is over the limit of {}; name a smaller file",
                size_text(*limit)
            ),
            FileProblem::NotUtf8 { offset, line } => write!(
                f,
                "not UTF-8 text (a bad byte at offset {offset}, line {line}); save it as UTF-8"
            ),
            FileProblem::OutOfMemory { bytes } => {
                write!(f, "no memory for its {bytes} bytes")
            }
            FileProblem::Io(error) => error.fmt(f),
        }
    }
}

/// For callers whose errors hold an `io::Error` and name the path themselves.
impl From<FileProblem> for io::Error {
    fn from(problem: FileProblem) -> io::Error {
        let kind = match problem {
            FileProblem::Io(error) => return error,
            FileProblem::NotRegular(_) | FileProblem::NotWritable(_) => io::ErrorKind::InvalidInput,
            FileProblem::TooLarge { .. } => io::ErrorKind::FileTooLarge,
            FileProblem::NotUtf8 { .. } => io::ErrorKind::InvalidData,
            FileProblem::OutOfMemory { .. } => io::ErrorKind::OutOfMemory,
        };
        io::Error::new(kind, problem.to_string())
    }
}

/// For callers that answer with an `io::Error`: the whole text, path included.
impl From<FileError> for io::Error {
    fn from(error: FileError) -> io::Error {
        let text = error.to_string();
        io::Error::new(io::Error::from(error.problem).kind(), text)
    }
}

/// A limit in the largest unit that writes it whole: `16 MiB`, `64 KiB`, `100 bytes`.
pub fn size_text(bytes: u64) -> String {
    const KIB: u64 = 1024;
    match bytes {
        0 => "0 bytes".to_owned(),
        b if b.is_multiple_of(KIB * KIB) => format!("{} MiB", b / (KIB * KIB)),
        b if b.is_multiple_of(KIB) => format!("{} KiB", b / KIB),
        b => format!("{b} bytes"),
    }
}

/// The regular file at `path` (links followed), opened for reading, with its length, which
/// is at most `max_bytes`. The caller reads it through `take`, since a length can lie
/// (`/proc` files say 0) or grow after it was asked.
pub fn open_regular(path: &Path, max_bytes: u64) -> Result<(File, u64), FileError> {
    let error = |problem| FileError {
        path: path.to_owned(),
        problem,
    };
    // Looked at before opening too: opening some devices has effects of its own (a tape
    // rewinds, a terminal may become the controlling one).
    check_regular(&std::fs::metadata(path).map_err(|e| error(FileProblem::Io(e)))?)
        .map_err(error)?;
    let file = open_without_waiting(path).map_err(|e| error(FileProblem::Io(e)))?;
    let metadata = file.metadata().map_err(|e| error(FileProblem::Io(e)))?;
    check_regular(&metadata).map_err(error)?;
    if metadata.len() > max_bytes {
        return Err(error(FileProblem::TooLarge {
            at_least: metadata.len(),
            limit: max_bytes,
        }));
    }
    Ok((file, metadata.len()))
}

/// The bytes of the regular file at `path`, at most `max_bytes` of them.
pub fn read_capped(path: &Path, max_bytes: u64) -> Result<Vec<u8>, FileError> {
    let error = |problem| FileError {
        path: path.to_owned(),
        problem,
    };
    let (file, len) = open_regular(path, max_bytes)?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(len).unwrap_or(usize::MAX))
        .map_err(|_| error(FileProblem::OutOfMemory { bytes: len }))?;
    // One byte past the limit tells a file that grew since it was measured.
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| error(FileProblem::Io(e)))?;
    let read = bytes.len() as u64;
    if read > max_bytes {
        return Err(error(FileProblem::TooLarge {
            at_least: read,
            limit: max_bytes,
        }));
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, at most `max_bytes` long, which must be UTF-8:
/// for formats where a bad byte means the wrong file (TOML, test suites).
pub fn read_capped_to_string(path: &Path, max_bytes: u64) -> Result<String, FileError> {
    utf8_text(path, read_capped(path, max_bytes)?)
}

/// `bytes` read from `path` (unpacked, say) as text, or the offset and line of the first
/// byte that is not UTF-8.
pub fn utf8_text(path: &Path, bytes: Vec<u8>) -> Result<String, FileError> {
    String::from_utf8(bytes).map_err(|e| {
        let offset = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..offset]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        FileError {
            path: path.to_owned(),
            problem: FileProblem::NotUtf8 { offset, line },
        }
    })
}

#[cfg(unix)]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    // O_NONBLOCK: a FIFO swapped in after the look above opens at once (and is then
    // refused) instead of waiting for a writer; on a regular file it changes nothing.
    // O_NOCTTY: a terminal swapped in never becomes the process's controlling terminal.
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_waiting(path: &Path) -> io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

fn check_regular(metadata: &Metadata) -> Result<(), FileProblem> {
    let kind = metadata.file_type();
    if kind.is_file() {
        Ok(())
    } else {
        Err(FileProblem::NotRegular(kind_name(kind)))
    }
}

fn kind_name(kind: std::fs::FileType) -> &'static str {
    if kind.is_symlink() {
        return "a symbolic link";
    }
    if kind.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    "a special file"
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
            let dir =
                std::env::temp_dir().join(format!("hamle-files-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).expect("scratch folder");
            Scratch(dir)
        }

        /// A FIFO named `pipe` in the folder; `None` (and says so) where `mkfifo` fails.
        fn fifo(&self) -> Option<PathBuf> {
            let fifo = self.0.join("pipe");
            let made = Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|status| status.success()) {
                return Some(fifo);
            }
            eprintln!("mkfifo failed: the FIFO case is left out");
            None
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// The error's text, from a thread, so that a read that blocks fails the test.
    fn refusal(path: &Path, max_bytes: u64) -> String {
        let (sender, receiver) = mpsc::channel();
        let owned = path.to_owned();
        std::thread::spawn(move || {
            let _ = sender.send(read_capped(&owned, max_bytes).map(|b| b.len()));
        });
        match receiver.recv_timeout(Duration::from_secs(60)) {
            Ok(Err(error)) => error.to_string(),
            Ok(Ok(len)) => panic!("{} read: {len} bytes", path.display()),
            Err(_) => panic!("reading {} blocked", path.display()),
        }
    }

    #[test]
    fn limits_are_written_in_their_largest_whole_unit() {
        assert_eq!(size_text(16 * 1024 * 1024), "16 MiB");
        assert_eq!(size_text(64 * 1024), "64 KiB");
        assert_eq!(size_text(1000), "1000 bytes");
        assert_eq!(size_text(0), "0 bytes");
    }

    #[test]
    fn a_file_at_the_limit_reads_and_one_byte_more_is_refused() {
        let scratch = Scratch::new("limit");
        let path = scratch.0.join("ten");
        std::fs::write(&path, b"0123456789").expect("write");
        assert_eq!(read_capped(&path, 10).expect("at the limit"), b"0123456789");
        assert_eq!(
            refusal(&path, 9),
            format!(
                "{}: 10 bytes is over the limit of 9 bytes; name a smaller file",
                path.display()
            )
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_whose_size_lies_is_read_only_to_one_byte_past_the_limit() {
        // `/proc` files say they hold 0 bytes.
        let path = Path::new("/proc/self/status");
        assert_eq!(std::fs::metadata(path).expect("status").len(), 0);
        assert_eq!(
            refusal(path, 16),
            "/proc/self/status: 17 bytes is over the limit of 16 bytes; name a smaller file"
        );
    }

    #[test]
    fn a_directory_and_a_missing_file_are_refused_by_name() {
        let scratch = Scratch::new("kinds");
        assert_eq!(
            refusal(&scratch.0, 1024),
            format!(
                "{}: not a regular file (a directory); name a regular file",
                scratch.0.display()
            )
        );
        let missing = scratch.0.join("missing");
        let error = read_capped(&missing, 1024).expect_err("missing");
        assert!(
            matches!(&error.problem, FileProblem::Io(e) if e.kind() == io::ErrorKind::NotFound)
        );
        assert!(
            error
                .to_string()
                .starts_with(&format!("{}: ", missing.display()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn devices_and_fifos_are_refused_without_waiting() {
        assert_eq!(
            refusal(Path::new("/dev/zero"), 1024),
            "/dev/zero: not a regular file (a device); name a regular file"
        );
        let scratch = Scratch::new("fifo");
        let Some(fifo) = scratch.fifo() else { return };
        assert_eq!(
            refusal(&fifo, 1024),
            format!(
                "{}: not a regular file (a FIFO); name a regular file",
                fifo.display()
            )
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_opened_without_the_look_first_does_not_wait() {
        let scratch = Scratch::new("fifo-open");
        let Some(fifo) = scratch.fifo() else { return };
        // As if the FIFO had been swapped in after the path was looked at.
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = sender.send(open_without_waiting(&fifo).map(|file| file.metadata()));
        });
        let opened = receiver
            .recv_timeout(Duration::from_secs(60))
            .expect("opening a FIFO does not wait for a writer")
            .expect("opens");
        assert!(matches!(
            check_regular(&opened.expect("metadata")),
            Err(FileProblem::NotRegular("a FIFO"))
        ));
    }

    #[test]
    fn text_must_be_utf8_and_the_bad_byte_is_placed() {
        let scratch = Scratch::new("utf8");
        let path = scratch.0.join("latin1");
        std::fs::write(&path, b"one\ntw\xf6\n").expect("write");
        let error = read_capped_to_string(&path, 1024).expect_err("not UTF-8");
        assert_eq!(
            error.to_string(),
            format!(
                "{}: not UTF-8 text (a bad byte at offset 6, line 2); save it as UTF-8",
                path.display()
            )
        );
        std::fs::write(&path, "één\n").expect("write");
        assert_eq!(read_capped_to_string(&path, 1024).expect("UTF-8"), "één\n");
    }

    #[test]
    fn problems_become_io_errors_of_the_matching_kind() {
        let error: io::Error = FileProblem::TooLarge {
            at_least: 11,
            limit: 10,
        }
        .into();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        assert_eq!(
            error.to_string(),
            "11 bytes is over the limit of 10 bytes; name a smaller file"
        );
    }
}
