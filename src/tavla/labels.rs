//! Label files: contact positions with the probabilities a lookahead of our own engine gave
//! them (`hamle tavla label`), read back by `hamle tavla train --contact --labels`.
//!
//! Labelling is the costly half of supervised training (a 2-ply label takes tens of
//! milliseconds, fitting one a few microseconds), so it is kept apart: many cores, or many
//! machines, label once, and the fit is tried as often as wanted on the same files.
//!
//! One position a line, `SIDE POSITION_ID P0 P1 P2 P3 P4`: the side on roll (`white` or
//! `black`), gnubg's Position ID with that side on roll, and the five probabilities for that
//! side (win, win a gammon, win a backgammon, lose a gammon, lose a backgammon). Lines
//! beginning with `#` say how the file was made.

use std::io::{self, Read, Write};
use std::path::Path;

use crate::files::{read_capped, size_text, utf8_text};

use super::board::{Board, Side};
use super::ids::{parse_position_id, position_id};
use super::net::Probs;

/// The largest label file read (about three million positions).
pub const MAX_LABELS_BYTES: u64 = 256 * 1024 * 1024;

/// A position with its side on roll and its label.
#[derive(Clone, Debug, PartialEq)]
pub struct Labelled {
    pub board: Board,
    pub side: Side,
    pub probs: Probs,
}

/// Writes `labelled` as one line.
pub fn write_line(out: &mut impl Write, labelled: &Labelled) -> io::Result<()> {
    let [p0, p1, p2, p3, p4] = labelled.probs;
    let id = position_id(&labelled.board, labelled.side);
    writeln!(
        out,
        "{} {id} {p0:.6} {p1:.6} {p2:.6} {p3:.6} {p4:.6}",
        labelled.side
    )
}

/// Reads one line of a label file.
pub fn parse_line(line: &str) -> Result<Labelled, String> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [side, id, probs @ ..] = fields.as_slice() else {
        return Err("expected SIDE POSITION_ID and five probabilities".to_owned());
    };
    let side: Side = side
        .parse()
        .map_err(|_| format!("'{side}' is not a side (white or black)"))?;
    let board = parse_position_id(id, side).map_err(|e| e.to_string())?;
    if probs.len() != 5 {
        return Err(format!("{} probabilities, expected 5", probs.len()));
    }
    let mut parsed = [0.0f32; 5];
    for (slot, text) in parsed.iter_mut().zip(probs) {
        *slot = text
            .parse()
            .ok()
            .filter(|p: &f32| (0.0..=1.0).contains(p))
            .ok_or_else(|| format!("'{text}' is not a probability from 0 to 1"))?;
    }
    Ok(Labelled {
        board,
        side,
        probs: parsed,
    })
}

/// The labelled positions of the file at `path` (a regular file of at most
/// [`MAX_LABELS_BYTES`], gzip-compressed or not); an error names the file and, for a bad
/// line, its number.
pub fn read_file(path: &Path) -> io::Result<Vec<Labelled>> {
    let text = read_text(path, MAX_LABELS_BYTES)?;
    let mut labelled = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = parse_line(line).map_err(|e| {
            let message = format!("{} line {}: {e}", path.display(), number + 1);
            io::Error::new(io::ErrorKind::InvalidData, message)
        })?;
        labelled.push(parsed);
    }
    Ok(labelled)
}

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// The text of the label file at `path`, unpacked if it is gzip (told by its first bytes, not
/// its name): a shared teacher's file is read in place, and its unpacked text is held to the
/// same limit as a plain file's (`max_bytes`), so a small archive cannot flood memory.
fn read_text(path: &Path, max_bytes: u64) -> io::Result<String> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidData, message);
    let mut bytes = read_capped(path, max_bytes).map_err(|e| invalid(e.to_string()))?;
    if bytes.starts_with(&GZIP_MAGIC) {
        let mut unpacked = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .take(max_bytes + 1)
            .read_to_end(&mut unpacked)
            .map_err(|e| {
                invalid(format!(
                    "{}: not a readable gzip file ({e})",
                    path.display()
                ))
            })?;
        if unpacked.len() as u64 > max_bytes {
            let limit = size_text(max_bytes);
            let path = path.display();
            return Err(invalid(format!(
                "{path}: unpacks to over {limit}, the limit of a label file; split it"
            )));
        }
        bytes = unpacked;
    }
    utf8_text(path, bytes).map_err(|e| invalid(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_round_trips() {
        let labelled = Labelled {
            board: Board::start(),
            side: Side::Black,
            probs: [0.5, 0.125, 0.0625, 0.25, 0.0],
        };
        let mut text = Vec::new();
        write_line(&mut text, &labelled).expect("written");
        let text = String::from_utf8(text).expect("text");
        assert_eq!(parse_line(&text), Ok(labelled));
    }

    #[test]
    fn a_bad_line_says_what_is_wrong() {
        let id = position_id(&Board::start(), Side::White);
        let refused = |line: &str| parse_line(line).expect_err(line);
        assert!(refused("white").contains("expected SIDE"));
        assert!(refused(&format!("red {id} 0 0 0 0 0")).contains("'red' is not a side"));
        assert!(refused(&format!("white {id} 0 0 0 0")).contains("4 probabilities"));
        assert!(refused(&format!("white {id} 0 0 1.5 0 0")).contains("'1.5' is not a prob"));
        assert!(refused(&format!("white {id} 0 0 NaN 0 0")).contains("'NaN'"));
        assert!(refused("white 4HPwATDgc/ABM 0 0 0 0 0").contains("Position ID"));
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("hamle-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        dir.join(name)
    }

    fn gzip(text: &str) -> Vec<u8> {
        use flate2::{Compression, write::GzEncoder};
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(text.as_bytes()).expect("packed");
        encoder.finish().expect("packed")
    }

    #[test]
    fn a_gzip_file_reads_as_its_text_and_a_bad_line_is_named() {
        let id = position_id(&Board::start(), Side::White);
        let good = format!("# made by a test\nwhite {id} 0.5 0.1 0 0.1 0\n");
        let path = scratch("good.txt.gz");
        std::fs::write(&path, gzip(&good)).expect("write");
        let read = read_file(&path).expect("a gzip label file");
        assert_eq!(read.len(), 1);
        assert_eq!(read[0].probs, [0.5, 0.1, 0.0, 0.1, 0.0]);
        let bad = format!("{good}white {id} 0.5 0.1 7.5 0.1 0\n");
        std::fs::write(&path, gzip(&bad)).expect("write");
        let refused = read_file(&path).expect_err("a bad line").to_string();
        assert!(refused.contains("good.txt.gz line 3: '7.5'"), "{refused}");
    }

    #[test]
    fn a_gzip_file_is_held_to_the_limit_unpacked_and_garbage_is_refused() {
        let path = scratch("big.txt.gz");
        std::fs::write(&path, gzip(&"#".repeat(5000))).expect("write");
        let refused = read_text(&path, 4096)
            .expect_err("over the limit")
            .to_string();
        assert!(refused.contains("unpacks to over 4 KiB"), "{refused}");
        assert!(read_text(&path, 5000).is_ok());
        let mut broken = gzip(&"#".repeat(5000));
        broken.truncate(broken.len() / 2);
        std::fs::write(&path, broken).expect("write");
        let refused = read_text(&path, 4096).expect_err("cut short").to_string();
        assert!(refused.contains("not a readable gzip file"), "{refused}");
    }
}
