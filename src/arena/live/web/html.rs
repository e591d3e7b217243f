//! The live pages' HTML: the index of ladders, a ladder's standings and games, a game in
//! progress, a bot's games and rating curve. Every word that came from the database (bot
//! names, versions, settings, reasons, moves) goes through [`escape`]; the style and
//! script are our own and inline, so a page asks for nothing but the server's own feed.

use std::fmt::Write;

use super::db::{BotRow, GameRow, LadderRow, MoveRow, RatingPoint, Standing};
use crate::contract::view::{escape, num};

const STYLE: &str = include_str!("live.css");
const SCRIPT: &str = include_str!("live.js");

/// How a page keeps itself current: the feed it listens to and what it does with it.
pub enum Live {
    /// A still page (a finished or voided game whose record is unavailable).
    Still,
    /// Reloads (at most every few seconds) when the feed says something changed.
    Reload(String),
    /// A game in progress: appends each move the feed sends; `moves` is where the moves
    /// so far are fetched again when the feed (re)connects.
    Game { feed: String, moves: String },
}

/// A whole page: `title` (plain text), `body` (HTML), how it stays live.
pub fn page(title: &str, body: &str, live: &Live) -> String {
    let data = match live {
        Live::Still => String::new(),
        Live::Reload(feed) => format!(" data-live=\"reload\" data-feed=\"{}\"", escape(feed)),
        Live::Game { feed, moves } => format!(
            " data-live=\"game\" data-feed=\"{}\" data-moves=\"{}\"",
            escape(feed),
            escape(moves)
        ),
    };
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body{data}>\n<nav class=\"top\"><a href=\"/\">Ladders</a></nav>\n{body}<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        escape(title)
    )
}

/// A URL path segment: everything but unreserved characters percent-encoded, so that any
/// ladder name makes a link that leads back to it.
pub fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~".contains(&byte) {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

pub fn ladder_link(name: &str) -> String {
    format!("<a href=\"/ladder/{}\">{}</a>", segment(name), escape(name))
}

fn bot_link(bot: &super::db::BotName) -> String {
    let version = if bot.version.is_empty() {
        String::new()
    } else {
        format!(" <span class=\"version\">{}</span>", escape(&bot.version))
    };
    format!(
        "<a href=\"/bot/{}\">{}</a>{version}",
        bot.id,
        escape(&bot.name)
    )
}

pub fn index(ladders: &[LadderRow]) -> String {
    let mut body = String::from("<h1>Ladders</h1>\n");
    if ladders.is_empty() {
        body.push_str("<p class=\"empty\">No ladder yet.</p>\n");
        return body;
    }
    body.push_str("<table class=\"ladders\">\n<tr><th>Ladder</th><th>Game</th><th>Settings</th><th>Bots</th><th>Games</th><th>Playing</th></tr>\n");
    for ladder in ladders {
        let paused = if ladder.paused { " (paused)" } else { "" };
        let _ = writeln!(
            body,
            "<tr><td>{}{paused}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            ladder_link(&ladder.name),
            escape(&ladder.game),
            escape(&ladder.settings),
            ladder.bots,
            ladder.finished,
            ladder.running
        );
    }
    body.push_str("</table>\n");
    body
}

/// A ladder's page: its standings, its games in progress and its latest games.
pub fn ladder(
    ladder: &LadderRow,
    standings: &[Standing],
    running: &[GameRow],
    recent: &[GameRow],
) -> String {
    let paused = if ladder.paused { " (paused)" } else { "" };
    let mut body = format!(
        "<h1>Ladder {}{paused}</h1>\n<p class=\"about\">{}: {}</p>\n<h2>Standings</h2>\n",
        escape(&ladder.name),
        escape(&ladder.game),
        escape(&ladder.settings)
    );
    standings_table(&mut body, standings);
    let _ = writeln!(body, "<h2>Playing now ({})</h2>", running.len());
    games_table(&mut body, running, None);
    let _ = writeln!(body, "<h2>Latest games</h2>");
    games_table(&mut body, recent, None);
    body
}

fn standings_table(body: &mut String, standings: &[Standing]) {
    if standings.is_empty() {
        body.push_str("<p class=\"empty\">No bot yet.</p>\n");
        return;
    }
    body.push_str("<table class=\"standings\">\n<tr><th>#</th><th>Bot</th><th>Elo</th><th>Games</th><th>Score</th></tr>\n");
    for (rank, standing) in standings.iter().enumerate() {
        let removed = if standing.removed { " (removed)" } else { "" };
        let score = if standing.played == 0 {
            "–".to_owned()
        } else {
            format!(
                "{} / {} ({}%)",
                num(standing.points),
                standing.played,
                num(100.0 * standing.points / standing.played as f64)
            )
        };
        let _ = writeln!(
            body,
            "<tr><td>{}</td><td>{}{removed}</td><td>{}</td><td>{}</td><td>{score}</td></tr>",
            rank + 1,
            bot_link(&standing.bot),
            elo_text(standing.rating.as_ref()),
            standing.played
        );
    }
    body.push_str("</table>\n");
}

/// `1520 ± 35` with the interval itself as its tooltip; `–` before the first rating.
fn elo_text(rating: Option<&RatingPoint>) -> String {
    match rating {
        None => "–".to_owned(),
        Some(r) => format!(
            "<span title=\"{}–{} after {} games (game {})\">{} ± {}</span>",
            num(r.low.round()),
            num(r.high.round()),
            r.games,
            r.after_game,
            num(r.elo.round()),
            num(((r.high - r.low) / 2.0).round())
        ),
    }
}

/// The result from the first bot's score, or the game's state.
fn result_text(game: &GameRow) -> &'static str {
    match (game.status.as_str(), game.score) {
        ("running", _) => "playing",
        ("void", _) => "void",
        (_, Some(score)) if score > 0.75 => "1–0",
        (_, Some(score)) if score < 0.25 => "0–1",
        (_, Some(_)) => "½–½",
        (_, None) => "?",
    }
}

/// Games as rows; with `seen_by`, each from that bot's side (its colour and result).
fn games_table(body: &mut String, games: &[GameRow], seen_by: Option<i64>) {
    if games.is_empty() {
        body.push_str("<p class=\"empty\">None.</p>\n");
        return;
    }
    body.push_str("<table class=\"games\">\n<tr><th>Game</th><th>First</th><th>Second</th><th>Result</th><th>Why</th><th>Ended</th></tr>\n");
    for game in games {
        let mut result = result_text(game).to_owned();
        if let (Some(bot), Some(score)) = (seen_by, game.score) {
            let own = if game.first.id == bot {
                score
            } else {
                1.0 - score
            };
            let word = match own {
                s if s > 0.75 => "win",
                s if s < 0.25 => "loss",
                _ => "draw",
            };
            let _ = write!(result, " ({word})");
        }
        let _ = writeln!(
            body,
            "<tr class=\"{}\"><td><a href=\"/game/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&game.status),
            game.id,
            game.id,
            bot_link(&game.first),
            bot_link(&game.second),
            escape(&result),
            escape(&game.reason),
            escape(game.ended.as_deref().unwrap_or(""))
        );
    }
    body.push_str("</table>\n");
}

/// A game without its viewer page: in progress (its moves so far, the next ones appended
/// by the script as they are played), or finished without a readable record (`note`).
pub fn game(
    game: &GameRow,
    moves: &[MoveRow],
    note: &str,
    board: Option<&Result<String, String>>,
) -> String {
    let mut body = format!(
        "<h1>Game {}: {} vs {}</h1>\n<p class=\"about\">{} · seed {} · started {}</p>\n<p class=\"result\" id=\"state\">{}</p>\n",
        game.id,
        bot_link(&game.first),
        bot_link(&game.second),
        ladder_link(&game.ladder),
        game.seed,
        escape(&game.started),
        escape(result_text(game))
    );
    if !note.is_empty() {
        let _ = writeln!(body, "<p class=\"note\">{}</p>", escape(note));
    }
    if let Some(board) = board {
        body.push_str(&board_section(game.id, board));
    }
    let _ = writeln!(
        body,
        "<h2>Moves (<span id=\"count\">{}</span>)</h2>\n<ol class=\"moves\" id=\"moves\">",
        moves.len()
    );
    for mv in moves {
        let _ = writeln!(
            body,
            "<li data-ply=\"{}\">{}. {} <span class=\"ms\">{} ms</span></li>",
            mv.ply,
            mv.ply,
            escape(&mv.text),
            mv.ms
        );
    }
    body.push_str("</ol>\n");
    body
}

/// A running game's board (our viewer's SVG, inline: the page's policy loads no image from
/// a URL), or the note saying why there is none; the script redraws it from `data-src` as
/// moves arrive.
fn board_section(id: i64, board: &Result<String, String>) -> String {
    let (svg, note) = match board {
        Ok(svg) => (svg.as_str(), ""),
        Err(note) => ("", note.as_str()),
    };
    format!(
        "<div class=\"board\" id=\"board\" data-src=\"/game/{id}/board.svg\">{svg}</div>\n<p class=\"note\" id=\"board-note\">{}</p>\n",
        escape(note)
    )
}

/// A bot's page: who it is, its rating curve, its latest games.
pub fn bot(bot: &BotRow, history: &[RatingPoint], games: &[GameRow]) -> String {
    let removed = if bot.removed { " (removed)" } else { "" };
    let mut body = format!(
        "<h1>{}{removed}</h1>\n<p class=\"about\">{} · {} bot · joined {} · rating {}</p>\n<h2>Rating</h2>\n",
        bot_link(&bot.bot),
        ladder_link(&bot.ladder),
        escape(&bot.kind),
        escape(&bot.joined),
        elo_text(history.last())
    );
    body.push_str(&rating_curve(history));
    let _ = writeln!(body, "<h2>Games</h2>");
    games_table(&mut body, games, Some(bot.bot.id));
    body
}

/// The most points a curve draws: a long history is thinned evenly, its last point kept.
const CURVE_POINTS: usize = 400;

/// The bot's Elo after each game as a line over its interval's band, an inline SVG.
pub fn rating_curve(history: &[RatingPoint]) -> String {
    if history.is_empty() {
        return "<p class=\"empty\">Not rated yet.</p>\n".to_owned();
    }
    let step = history.len().div_ceil(CURVE_POINTS).max(1);
    let mut points: Vec<&RatingPoint> = history.iter().step_by(step).collect();
    if !(history.len() - 1).is_multiple_of(step)
        && let Some(last) = history.last()
    {
        points.push(last);
    }
    let (width, height, margin) = (600.0, 200.0, 40.0);
    let low = points.iter().map(|p| p.low).fold(f64::INFINITY, f64::min);
    let high = points
        .iter()
        .map(|p| p.high)
        .fold(f64::NEG_INFINITY, f64::max);
    let span = (high - low).max(1.0);
    let last_index = (points.len() - 1).max(1) as f64;
    let x = |i: usize| margin + (width - 2.0 * margin) * i as f64 / last_index;
    let y = |elo: f64| margin / 2.0 + (height - margin) * (high - elo) / span;
    let path = |values: &mut dyn Iterator<Item = (usize, f64)>| {
        values
            .map(|(i, v)| format!("{},{}", num(x(i)), num(y(v))))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let line = path(&mut points.iter().enumerate().map(|(i, p)| (i, p.elo)));
    let band = format!(
        "{} {}",
        path(&mut points.iter().enumerate().map(|(i, p)| (i, p.high))),
        path(&mut points.iter().enumerate().rev().map(|(i, p)| (i, p.low)))
    );
    let first_games = points.first().map_or(0, |p| p.games);
    let last_games = points.last().map_or(0, |p| p.games);
    format!(
        "<svg class=\"curve\" viewBox=\"0 0 {width} {height}\" role=\"img\" aria-label=\"Elo after each game\">\
<polygon class=\"band\" points=\"{band}\" fill=\"#cfe0f5\"/>\
<polyline class=\"elo\" points=\"{line}\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>\
<g font-size=\"12\" fill=\"#444\" font-family=\"sans-serif\">\
<text x=\"2\" y=\"{}\">{}</text><text x=\"2\" y=\"{}\">{}</text>\
<text x=\"{}\" y=\"{}\" text-anchor=\"start\">{first_games} games</text>\
<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{last_games} games</text></g></svg>\n",
        num(y(high) + 4.0),
        num(high.round()),
        num(y(low)),
        num(low.round()),
        num(margin),
        num(height - 2.0),
        num(width - margin),
        num(height - 2.0),
    )
}

/// A short page saying what went wrong (`message` is plain text).
pub fn problem(heading: &str, message: &str) -> String {
    page(
        heading,
        &format!(
            "<h1>{}</h1>\n<p class=\"problem\">{}</p>\n",
            escape(heading),
            escape(message)
        ),
        &Live::Still,
    )
}
