//! The net's weights file: our own format, little-endian.
//!
//! ```text
//! magic    8 bytes  "HMLGONET"
//! version  u32      1
//! planes   u32      the input planes the net was trained on (features::PLANES)
//! blocks   u32      residual blocks
//! channels u32      channels of the tower
//! hidden   u32      value head's hidden units
//! count    u32      how many weights follow (checked against the shape)
//! weights  count × f32
//! ```
//!
//! Read through the capped reader (`crate::files`); anything wrong is one error naming the
//! file and what is wrong with it.

use std::fmt;
use std::path::{Path, PathBuf};

use super::features::PLANES;
use super::model::{Layout, MAX_BLOCKS, MAX_CHANNELS, MAX_VALUE_HIDDEN, Net, Shape};
use crate::files::{self, FileError};

pub const MAGIC: &[u8; 8] = b"HMLGONET";
pub const VERSION: u32 = 1;
const HEADER_BYTES: usize = 8 + 6 * 4;
/// The largest weights file read: far above any net a CPU can run a move with.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Why a weights file was not loaded.
#[derive(Debug)]
pub enum WeightsError {
    File(FileError),
    Format { path: PathBuf, problem: String },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::File(error) => write!(f, "Go net weights {error}"),
            WeightsError::Format { path, problem } => {
                write!(f, "Go net weights {}: {problem}", path.display())
            }
        }
    }
}

impl std::error::Error for WeightsError {}

/// The file's bytes for `net`.
pub fn encode(net: &Net) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_BYTES + 4 * net.weights.len());
    out.extend_from_slice(MAGIC);
    for n in [
        VERSION as usize,
        PLANES,
        net.shape.blocks,
        net.shape.channels,
        net.shape.value_hidden,
        net.weights.len(),
    ] {
        // Shapes are checked against MAX_* before a net exists: they fit u32.
        out.extend_from_slice(&(n as u32).to_le_bytes());
    }
    for w in &net.weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

/// Reads a net from bytes; the error says what is wrong (without the path).
pub fn decode(bytes: &[u8]) -> Result<Net, String> {
    if bytes.len() < 8 || &bytes[..8] != MAGIC {
        return Err("not a hamle Go net (no HMLGONET header); name a file that \
                    `hamle go train-net` wrote"
            .into());
    }
    if bytes.len() < HEADER_BYTES {
        return Err(format!(
            "truncated: {} bytes, shorter than the header",
            bytes.len()
        ));
    }
    let field = |i: usize| {
        let at = 8 + 4 * i;
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize
    };
    if field(0) != VERSION as usize {
        return Err(format!(
            "format version {}, this hamle reads version {VERSION}",
            field(0)
        ));
    }
    if field(1) != PLANES {
        return Err(format!(
            "made for {} input planes, this hamle gives {PLANES}",
            field(1)
        ));
    }
    let shape = Shape {
        blocks: field(2),
        channels: field(3),
        value_hidden: field(4),
    };
    if shape.blocks > MAX_BLOCKS
        || !(1..=MAX_CHANNELS).contains(&shape.channels)
        || !(1..=MAX_VALUE_HIDDEN).contains(&shape.value_hidden)
    {
        return Err(format!("a shape out of range ({shape:?})"));
    }
    let count = Layout::of(shape).total;
    if field(5) != count {
        return Err(format!("says {} weights, its shape has {count}", field(5)));
    }
    let expected = HEADER_BYTES + 4 * count;
    if bytes.len() != expected {
        let what = if bytes.len() < expected {
            "truncated"
        } else {
            "trailing bytes"
        };
        return Err(format!(
            "{what}: {} bytes, its shape needs {expected}",
            bytes.len()
        ));
    }
    let weights: Vec<f32> = bytes[HEADER_BYTES..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    if let Some(at) = weights.iter().position(|w| !w.is_finite()) {
        return Err(format!("weight {at} is not a finite number"));
    }
    Ok(Net { shape, weights })
}

/// Loads the net in the file at `path`.
pub fn load(path: &Path) -> Result<Net, WeightsError> {
    let bytes = files::read_capped(path, MAX_FILE_BYTES).map_err(WeightsError::File)?;
    decode(&bytes).map_err(|problem| WeightsError::Format {
        path: path.to_owned(),
        problem,
    })
}

/// Writes `bytes` to `path` through the ground floor's writer: a new file beside it, then a
/// rename, so a reader (or a crash) never sees half a file, and never through a link or onto
/// a device or FIFO.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::files::write_atomic(path, bytes).map_err(std::io::Error::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Net {
        Net::random(
            Shape {
                blocks: 1,
                channels: 2,
                value_hidden: 3,
            },
            1,
        )
    }

    #[test]
    fn a_net_survives_the_file() {
        let net = net();
        assert_eq!(decode(&encode(&net)), Ok(net));
    }

    #[test]
    fn foreign_truncated_and_oversized_files_say_what_is_wrong() {
        let bytes = encode(&net());
        let error = |b: &[u8]| decode(b).expect_err("refused");
        assert!(error(b"(;GM[1]FF[4])").contains("not a hamle Go net"));
        assert!(error(&bytes[..bytes.len() - 1]).contains("truncated"));
        assert!(error(&bytes[..20]).contains("truncated"));
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(error(&longer).contains("trailing bytes"));
        let mut version = bytes.clone();
        version[8] = 9;
        assert!(error(&version).contains("version 9"));
        let mut nan = bytes.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(error(&nan).contains("not a finite"));
    }

    #[test]
    fn a_missing_file_names_itself() {
        let error = load(Path::new("no/such/net.bin")).expect_err("missing");
        assert!(error.to_string().contains("no/such/net.bin"), "{error}");
    }
}
