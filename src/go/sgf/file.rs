//! Reading an SGF file from a path named by a controller (GTP's `loadsgf`): only a
//! regular file, and only up to a size limit ([`crate::files`]), so that a path to a
//! device (`/dev/zero`), a FIFO or a huge file is an error, not an engine that blocks or
//! runs out of memory.

use std::path::Path;

pub use crate::files::FileError;

/// The largest SGF file read: a 16 MiB record holds millions of moves, hundreds of
/// times the longest real game.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// The bytes of the regular file at `path` (links followed), at most [`MAX_FILE_BYTES`].
pub fn read_file(path: &Path) -> Result<Vec<u8>, FileError> {
    crate::files::read_capped(path, MAX_FILE_BYTES)
}
