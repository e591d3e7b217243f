//! Viewer pages: every game record becomes a static HTML page that replays it in the
//! browser (the board of every position as inline SVG, a small script of our own to step
//! through them, no request outside the page's folder).
//!
//! The page generator names no game: the registry (`crate::games`) hands out each game's
//! [`Viewer`], which reads the record and draws the positions. `page` writes one game's
//! page, `folder` the pages of a match or ladder folder (`games/0007.html`, the match's
//! `report.html`, the ladder's links), `cli` is `hamle view RECORD`.

pub mod cli;
mod costs;
mod folder;
mod frames;
mod page;

use std::io::Read;
use std::path::Path;

use crate::contract::record::read_tags;
use crate::contract::view::Viewer;
use crate::games::GameKind;

pub use costs::costs_in_record;
pub use folder::{
    MATCH_REPORT_FILE, ladder_games_section, page_name, rebuild_ladder_pages, rebuild_match_pages,
    write_game_page, write_match_report,
};
pub use page::{PageLinks, game_page};

/// The largest record a page is made from: far above any game the arena plays (a 19×19
/// Go game of 1000 moves is 10 KB), far below what would flood memory.
pub const MAX_RECORD_BYTES: u64 = 4 << 20;

/// Reads a record file: a regular file of at most [`MAX_RECORD_BYTES`], its bytes as UTF-8
/// or else as ISO-8859-1 (old SGF and `.mat` files), so that no record is refused for its
/// encoding.
pub fn read_record(path: &Path) -> Result<String, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|error| format!("{shown}: {error}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    if meta.len() > MAX_RECORD_BYTES {
        return Err(format!(
            "{shown}: {} bytes, more than the {MAX_RECORD_BYTES} a record may have",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|file| file.take(MAX_RECORD_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|error| format!("{shown}: {error}"))?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => error.into_bytes().iter().map(|&b| char::from(b)).collect(),
    })
}

/// The viewer of the game `text` records: a `Game` tag names it, else the first game
/// whose viewer recognizes the text or the file's `extension`. A `Game` tag naming a game
/// we do not play, or a text no viewer recognizes, is an error naming it.
pub fn viewer_for(text: &str, extension: &str) -> Result<&'static dyn Viewer, String> {
    let extension = extension.to_ascii_lowercase();
    let tag_lines: Vec<&str> = text
        .lines()
        .take(64)
        .map(|line| line.strip_prefix("; ").unwrap_or(line))
        .collect();
    let tags = read_tags(&tag_lines.join("\n"));
    if let Some((_, game)) = tags.iter().find(|(key, _)| key == "Game") {
        let kind: GameKind = game
            .parse()
            .map_err(|error| format!("the record's Game tag: {error}"))?;
        return Ok(kind.viewer());
    }
    GameKind::ALL
        .into_iter()
        .map(GameKind::viewer)
        .find(|viewer| viewer.recognizes(text, &extension))
        .ok_or_else(|| {
            let names: Vec<&str> = GameKind::ALL.iter().map(|kind| kind.name()).collect();
            format!(
                "not a record of any game hamle views ({}): no Game tag, not SGF, not a .mat match",
                names.join(", ")
            )
        })
}

/// The page of the record `text` (read from a file ending in `extension`), or why there
/// is none (the game is unknown).
pub fn page_of_record(text: &str, extension: &str, links: &PageLinks) -> Result<String, String> {
    let viewer = viewer_for(text, extension)?;
    Ok(game_page(&viewer.view(text), links))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_game_comes_from_the_tag_or_the_text() {
        let go = viewer_for("(;SZ[9];B[ee])", "").expect("SGF");
        assert_eq!(go.game(), "go");
        let Err(error) = viewer_for("[Game \"Chess\"]\n1. e4\n", "txt") else {
            panic!("not ours");
        };
        assert!(error.contains("unknown game 'Chess'"), "{error}");
        assert!(viewer_for("hello\n", "txt").is_err());
    }

    #[test]
    fn a_record_must_be_a_small_regular_file() {
        let dir = std::env::temp_dir();
        let error = read_record(&dir).expect_err("a folder");
        assert!(error.ends_with("not a regular file"), "{error}");
    }
}
