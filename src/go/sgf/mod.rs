//! SGF (`FF[4]`) reading and writing.
//!
//! Two layers: [`parse_collection`] and [`write_collection`] handle SGF's generic
//! tree of nodes and properties for any game; [`GoRecord`] reads and writes a Go
//! game's information, setup and moves on top of it. [`read_file`] reads a file named
//! by a controller, within limits.

mod error;
mod file;
mod locate;
mod parse;
mod read;
mod record;
mod replay;
mod tree;
mod write;

use std::borrow::Cow;

pub use error::{Position, SgfError, SgfErrorKind};
pub use file::{FileError, MAX_FILE_BYTES, read_file};
pub use locate::main_line_move_position;
pub use parse::MAX_DEPTH;
pub use read::MAX_SETUP_POINTS;
pub use record::{Event, GoRecord, Setup};
pub use replay::ReplayError;
pub use tree::{GameTree, Node, parse_collection, write_collection};

/// The text of an SGF file: its bytes as UTF-8 when they are valid UTF-8, else as
/// ISO-8859-1, the charset `FF[4]` assumes without `CA` and one that maps every byte
/// to a character, so no file is refused for its encoding.
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}
