//! The pages of a match or ladder folder: each game's page beside its record
//! (`games/0007.html`), the match's `report.html` listing every game with a link to its
//! page, and the section of the ladder's `report.html` that links every pairing's games.
//!
//! A match writes a game's page and its report right after the game's record is saved,
//! so a running match or ladder can be watched by reloading; `hamle ladder report DIR`
//! rebuilds every page from the records. A page that cannot be written never stops a
//! match: it is a warning, and the next rebuild writes it.

use std::fmt::Write;
use std::path::Path;

use crate::arena::store::{
    self, GAMES_DIR, GameResult, LOGS_DIR, PROTOCOL_DIR, RESULTS_FILE, SETTINGS_FILE,
    write_atomically,
};
use crate::contract::view::escape;

use super::page::PageLinks;
use super::{page_of_record, read_record};

/// The match folder's page: every game, linked to its viewer page.
pub const MATCH_REPORT_FILE: &str = "report.html";

/// The page's name for the record `0007.sgf`: `0007.html`.
pub fn page_name(record: &str) -> String {
    let stem = Path::new(record)
        .file_stem()
        .map_or_else(|| record.to_owned(), |s| s.to_string_lossy().into_owned());
    format!("{stem}.html")
}

/// A path segment of a link (a bot's name in a pairing folder): every byte but letters,
/// digits and `-._` percent-encoded, so a name never breaks out of its `href`.
fn href_segment(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// Writes the page of game `result` of `match_dir` from its record `text`.
pub fn write_game_page(match_dir: &Path, result: &GameResult, text: &str) -> Result<(), String> {
    let extension = Path::new(&result.record)
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let links = PageLinks {
        back: Some((
            format!("../{MATCH_REPORT_FILE}"),
            "all games of the match".to_owned(),
        )),
        label: Some(format!("Game {}", result.game + 1)),
        files: protocol_links(match_dir, result),
        costs: result.costs.clone(),
    };
    let page = page_of_record(text, &extension, &links)?;
    let path = match_dir.join(GAMES_DIR).join(page_name(&result.record));
    write_atomically(&path, page.as_bytes()).map_err(|error| error.to_string())
}

/// The game's conversations kept by `--log-protocol`, as the page in `games/` links them.
fn protocol_links(match_dir: &Path, result: &GameResult) -> Vec<(String, String)> {
    [&result.first, &result.second]
        .into_iter()
        .filter_map(|bot| {
            let path = store::protocol_log_path(match_dir, result.game, bot);
            let name = path.file_name()?.to_string_lossy().into_owned();
            path.is_file().then(|| {
                (
                    format!("../{LOGS_DIR}/{PROTOCOL_DIR}/{name}"),
                    format!("{bot}'s protocol log"),
                )
            })
        })
        .collect()
}

fn results_of(match_dir: &Path) -> Result<Vec<GameResult>, String> {
    let path = match_dir.join(RESULTS_FILE);
    if !path.is_file() {
        return Ok(Vec::new());
    }
    let mut results = store::read_saved_results(&path).map_err(|error| error.to_string())?;
    results.sort_by_key(|r| r.game);
    Ok(results)
}

/// Rewrites the page of every game of `match_dir` from its record, then its report.
pub fn rebuild_match_pages(match_dir: &Path) -> Result<(), String> {
    for result in results_of(match_dir)? {
        let path = match_dir.join(GAMES_DIR).join(&result.record);
        let text = read_record(&path)?;
        write_game_page(match_dir, &result, &text)?;
    }
    write_match_report(match_dir)
}

/// The `key = value` lines of `match.txt`.
fn match_settings(match_dir: &Path) -> Vec<(String, String)> {
    crate::arena::folder::read_text(&match_dir.join(SETTINGS_FILE))
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split_once(" = "))
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Writes the match's `report.html`: its games in order, each linked to its page.
pub fn write_match_report(match_dir: &Path) -> Result<(), String> {
    let settings = match_settings(match_dir);
    let setting = |key: &str| {
        settings
            .iter()
            .find(|(k, _)| k == key)
            .map_or("?", |(_, v)| v.as_str())
    };
    let title = format!(
        "hamle match ({}): {} vs {}",
        setting("game"),
        setting("bot1.name"),
        setting("bot2.name")
    );
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{0}</title>\n<style>\nbody {{ font-family: sans-serif; margin: 1em auto; max-width: 60rem; padding: 0 0.8em; color: #222; }}\ntable {{ border-collapse: collapse; margin-bottom: 1.5em; }}\nth, td {{ border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }}\nth {{ background: #f0f0f0; }}\n</style>\n</head>\n<body>\n<h1>{0}</h1>\n",
        escape(&title)
    );
    let results = results_of(match_dir)?;
    let names = [setting("bot1.name"), setting("bot2.name")];
    page.push_str(&crate::arena::summary::totals_table(
        &results, &names, escape,
    ));
    let _ = writeln!(
        page,
        "<p>{} of {} games played.</p>\n<table class=\"games\">\n<tr><th>Game</th><th>First</th><th>Second</th><th>Result</th><th>Why</th><th>Moves</th></tr>",
        results.len(),
        escape(setting("games"))
    );
    for result in &results {
        let _ = writeln!(
            page,
            "<tr><td><a href=\"{GAMES_DIR}/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            href_segment(&page_name(&result.record)),
            result.game + 1,
            escape(&result.first),
            escape(&result.second),
            escape(&result.result),
            escape(&result.reason),
            result.moves
        );
    }
    page.push_str("</table>\n<h2>Settings</h2>\n<table class=\"settings\">\n");
    for (key, value) in &settings {
        let _ = writeln!(
            page,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(key),
            escape(value)
        );
    }
    page.push_str("</table>\n</body>\n</html>\n");
    write_atomically(&match_dir.join(MATCH_REPORT_FILE), page.as_bytes())
        .map_err(|error| error.to_string())
}

/// The pairing folders of a ladder (those holding a `match.txt`), in pairing order.
fn pairing_folders(ladder_dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(ladder_dir.join("pairings")) else {
        return Vec::new();
    };
    let mut folders: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join(SETTINGS_FILE).is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    folders
}

/// The ladder report's section linking every pairing's report and every game's page.
pub fn ladder_games_section(ladder_dir: &Path) -> String {
    let mut section = String::from("<h2>Games</h2>\n");
    for folder in pairing_folders(ladder_dir) {
        let base = format!("pairings/{}", href_segment(&folder));
        let _ = writeln!(
            section,
            "<h3><a href=\"{base}/{MATCH_REPORT_FILE}\">{}</a></h3>\n<p class=\"games\">",
            escape(&folder)
        );
        let results = results_of(&ladder_dir.join("pairings").join(&folder)).unwrap_or_default();
        let links: Vec<String> = results
            .iter()
            .map(|result| {
                format!(
                    "<a href=\"{base}/{GAMES_DIR}/{}\">{}: {}</a>",
                    href_segment(&page_name(&result.record)),
                    result.game + 1,
                    escape(&result.result)
                )
            })
            .collect();
        section.push_str(&links.join(" &middot;\n"));
        section.push_str("</p>\n");
    }
    section
}

/// Rewrites the pages of every pairing of a ladder folder (`hamle ladder report`).
pub fn rebuild_ladder_pages(ladder_dir: &Path) -> Result<(), String> {
    for folder in pairing_folders(ladder_dir) {
        rebuild_match_pages(&ladder_dir.join("pairings").join(folder))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_links() {
        assert_eq!(page_name("0007.sgf"), "0007.html");
        assert_eq!(href_segment("01-a b\"<"), "01-a%20b%22%3C");
    }
}
