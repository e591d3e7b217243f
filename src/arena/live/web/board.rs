//! The board of a game in progress, as it stands after the moves so far: its referee
//! rebuilt from the ladder's settings and the game's seed, the moves applied as the match
//! applied them, and the last position of the record drawn by the game's viewer.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension};

use super::db::{self, MoveRow};
use crate::arena::bots::Bot;
use crate::arena::live::config::LadderConfig;
use crate::contract::{Referee, Turn};
use crate::seed::derive_seed;

/// What rebuilds a game: its ladder's stored game and settings, its folder (which names
/// its pairing) and its seed.
struct Stored {
    ladder: String,
    game: String,
    settings: String,
    folder: String,
    seed: i64,
}

/// The game's board as SVG (`Ok`), or why it cannot be drawn (`Err`, a note for the
/// page); `None` when there is no such game.
pub fn board(
    db: &Connection,
    dir: &Path,
    id: i64,
) -> Result<Option<Result<String, String>>, String> {
    let stored = db
        .query_row(
            "SELECT l.name, l.game, l.settings, g.folder, g.seed
             FROM games g JOIN ladders l ON l.name = g.ladder WHERE g.id = ?1",
            [id],
            |row| {
                Ok(Stored {
                    ladder: row.get(0)?,
                    game: row.get(1)?,
                    settings: row.get(2)?,
                    folder: row.get(3)?,
                    seed: row.get(4)?,
                })
            },
        )
        .optional()
        .map_err(|e| e.to_string())?;
    let Some(stored) = stored else {
        return Ok(None);
    };
    let moves = db::moves(db, id)?;
    Ok(Some(rebuild(dir, &stored, &moves)))
}

/// The note shown instead of a board that cannot be rebuilt.
fn cannot(why: impl std::fmt::Display) -> String {
    format!("The board cannot be drawn ({why}); the moves so far:")
}

fn rebuild(dir: &Path, stored: &Stored, moves: &[MoveRow]) -> Result<String, String> {
    let ladder = LadderConfig::stored(dir, &stored.ladder, &stored.game, &stored.settings)
        .map_err(cannot)?;
    let mut referee = referee(&ladder, stored)?;
    for mv in moves {
        for _ in referee.interlude() {}
        if referee.natural_end().is_some() {
            return Err(cannot(format!("the game was over before move {}", mv.ply)));
        }
        let seat = referee.seat_to_move();
        match referee.apply(seat, &mv.text) {
            Ok(Turn::Played { .. }) => {}
            Ok(Turn::Resigned) => break,
            Err(illegal) => {
                return Err(cannot(format!("move {} is refused: {illegal}", mv.ply)));
            }
        }
    }
    let (record, _) = referee.record(None, ["first", "second"], "");
    let view = ladder.game.viewer().view(&record);
    if let Some(problem) = view.problem {
        return Err(cannot(format!(
            "its record reads badly: {}",
            problem.message
        )));
    }
    view.frames
        .last()
        .map(|frame| frame.svg.clone())
        .ok_or_else(|| cannot("no position"))
}

/// The game's referee at its start, built as its pairing's match built it: the match seed
/// from the ladder's seed and the pairing's number (in its folder's name), the game's index
/// in the pairing the one whose seed is the stored one.
fn referee(ladder: &LadderConfig, stored: &Stored) -> Result<Box<dyn Referee>, String> {
    let number = pairing_number(&stored.folder).ok_or_else(|| {
        cannot(format!(
            "no pairing number in its folder '{}'",
            stored.folder
        ))
    })?;
    let match_seed = derive_seed(ladder.options.seed, number);
    // SQLite keeps the seed's bits as i64.
    let index = (0..2)
        .find(|&index| derive_seed(match_seed, index as u64) as i64 == stored.seed)
        .ok_or_else(|| cannot("its seed is not its ladder's: were the settings changed?"))?;
    let probe = Bot::from_command_line("hamle go", ladder.game).map_err(cannot)?;
    let mut settings = ladder
        .match_settings([probe.clone(), probe], PathBuf::new())
        .map_err(cannot)?;
    settings.seed = match_seed;
    Ok(settings.referee(index))
}

/// The pairing's number in its match folder's name (`…/000012-a-vs-b`).
fn pairing_number(folder: &str) -> Option<u64> {
    let name = Path::new(folder).file_name()?.to_str()?;
    name.split('-').next()?.parse().ok()
}
