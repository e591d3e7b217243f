//! Reading an SGF file from a path named by a controller (GTP's `loadsgf`): only a
//! regular file, and only up to a size limit, so that a path to a device (`/dev/zero`),
//! a FIFO or a huge file is an error, not an engine that blocks or runs out of memory.

use std::fmt;
use std::io::{self, Read};
use std::path::Path;

/// The largest SGF file read: a 16 MiB record holds millions of moves, hundreds of
/// times the longest real game.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why an SGF file was not read.
#[derive(Debug)]
pub enum FileError {
    /// The path names something other than a regular file; the words say what.
    NotAFile(&'static str),
    /// The file is larger than [`MAX_FILE_BYTES`]: at least `bytes` long.
    TooLarge {
        bytes: u64,
    },
    Io(io::Error),
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileError::NotAFile(what) => write!(f, "not a regular file ({what})"),
            FileError::TooLarge { bytes } => write!(
                f,
                "{bytes} bytes is over the {} MiB limit",
                MAX_FILE_BYTES / (1024 * 1024)
            ),
            FileError::Io(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for FileError {}

/// The bytes of the regular file at `path` (links followed), at most [`MAX_FILE_BYTES`].
///
/// The file's type and length are asked of the file system before it is opened, since
/// opening a FIFO waits for a writer; the read stops one byte past the limit, in case
/// the file grew after that.
pub fn read_file(path: &Path) -> Result<Vec<u8>, FileError> {
    let metadata = std::fs::metadata(path).map_err(FileError::Io)?;
    check_type(&metadata)?;
    if metadata.len() > MAX_FILE_BYTES {
        return Err(FileError::TooLarge {
            bytes: metadata.len(),
        });
    }
    let file = std::fs::File::open(path).map_err(FileError::Io)?;
    // The path may have been replaced since it was looked at: check what was opened.
    check_type(&file.metadata().map_err(FileError::Io)?)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(FileError::Io)?;
    let read = bytes.len() as u64;
    if read > MAX_FILE_BYTES {
        return Err(FileError::TooLarge { bytes: read });
    }
    Ok(bytes)
}

fn check_type(metadata: &std::fs::Metadata) -> Result<(), FileError> {
    let kind = metadata.file_type();
    if kind.is_file() {
        return Ok(());
    }
    Err(FileError::NotAFile(if kind.is_dir() {
        "a directory"
    } else {
        special_kind(&kind)
    }))
}

#[cfg(unix)]
fn special_kind(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(not(unix))]
fn special_kind(_: &std::fs::FileType) -> &'static str {
    "a special file"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_kinds_are_named() {
        assert_eq!(
            FileError::TooLarge { bytes: 62_914_560 }.to_string(),
            "62914560 bytes is over the 16 MiB limit"
        );
        let dir = std::env::temp_dir();
        let error = read_file(&dir).expect_err("a directory is no file");
        assert_eq!(error.to_string(), "not a regular file (a directory)");
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_refused_without_reading() {
        let error = read_file(Path::new("/dev/zero")).expect_err("a device is no file");
        assert_eq!(error.to_string(), "not a regular file (a device)");
    }
}
