//! The live page's routes: each page a query on a blocking thread, the feed a broadcast
//! receiver turned into server-sent events.

use std::convert::Infallible;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures_util::Stream;
use rusqlite::Connection;
use serde::Deserialize;
use tokio::sync::broadcast::error::RecvError;

use super::board;
use super::db::{self, Pool};
use super::html::{self, Live, segment};
use super::{PAGE_TIME, db::GameRow};
use crate::arena::live::events::{LiveEvent, LiveEvents};
use crate::arena::view::{PageLinks, page_of_record, read_record};

/// What every handler shares.
#[derive(Clone)]
pub struct Site {
    dir: Arc<PathBuf>,
    pool: Arc<Pool>,
    events: LiveEvents,
}

impl Site {
    pub fn new(dir: PathBuf, pool: Arc<Pool>, events: LiveEvents) -> Site {
        Site {
            dir: Arc::new(dir),
            pool,
            events,
        }
    }
}

/// Latest games a ladder's page lists, and a bot's.
const LATEST_GAMES: i64 = 50;
const BOT_GAMES: i64 = 200;
/// How often an idle feed sends a comment, so that proxies and browsers keep it open.
const FEED_KEEP_ALIVE: Duration = Duration::from_secs(15);

pub fn router(site: Site) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/ladder/{name}", get(ladder))
        .route("/game/{id}", get(game))
        .route("/game/{id}/moves", get(moves))
        .route("/game/{id}/board.svg", get(board))
        .route("/bot/{id}", get(bot))
        .route("/events", get(feed))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(1024))
        .with_state(site)
}

/// A response with the headers every answer carries: no caching (the pages are live), no
/// content sniffing, and a policy that lets a page load nothing from elsewhere.
fn respond(status: StatusCode, content_type: &'static str, body: String) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-store"),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (
                header::CONTENT_SECURITY_POLICY,
                "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                 img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'",
            ),
        ],
        body,
    )
        .into_response()
}

const HTML: &str = "text/html; charset=utf-8";

async fn not_found() -> Response {
    respond(
        StatusCode::NOT_FOUND,
        HTML,
        html::problem("Not found", "No such page on this ladder server."),
    )
}

/// Runs `job` on a pooled connection within [`PAGE_TIME`]: `Some` page is the answer,
/// `None` a 404.
async fn read_page(
    site: &Site,
    content_type: &'static str,
    job: impl FnOnce(&Connection) -> Result<Option<String>, String> + Send + 'static,
) -> Response {
    match tokio::time::timeout(PAGE_TIME, site.pool.read(job)).await {
        Ok(Ok(Some(page))) => respond(StatusCode::OK, content_type, page),
        Ok(Ok(None)) => not_found().await,
        Ok(Err(message)) => respond(
            StatusCode::INTERNAL_SERVER_ERROR,
            HTML,
            html::problem("The ladder database could not be read", &message),
        ),
        Err(_) => respond(
            StatusCode::SERVICE_UNAVAILABLE,
            HTML,
            html::problem(
                "Busy",
                "The ladder database did not answer in time; try again.",
            ),
        ),
    }
}

async fn index(State(site): State<Site>) -> Response {
    read_page(&site, HTML, |db| {
        let ladders = db::ladders(db)?;
        Ok(Some(html::page(
            "Ladders",
            &html::index(&ladders),
            &Live::Reload("/events".to_owned()),
        )))
    })
    .await
}

async fn ladder(
    State(site): State<Site>,
    axum::extract::Path(name): axum::extract::Path<String>,
) -> Response {
    read_page(&site, HTML, move |db| {
        let Some(ladder) = db::ladder(db, &name)? else {
            return Ok(None);
        };
        let standings = db::standings(db, &name)?;
        let running = db::games(db, &name, "running", LATEST_GAMES)?;
        let recent = db::games(db, &name, "finished", LATEST_GAMES)?;
        Ok(Some(html::page(
            &format!("Ladder {name}"),
            &html::ladder(&ladder, &standings, &running, &recent),
            &Live::Reload(format!("/events?ladder={}", segment(&name))),
        )))
    })
    .await
}

/// An id from the path; anything else is no page.
fn id_of(text: &str) -> Option<i64> {
    text.parse().ok().filter(|id| *id > 0)
}

async fn game(
    State(site): State<Site>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Response {
    let Some(id) = id_of(&id) else {
        return not_found().await;
    };
    let dir = site.dir.clone();
    read_page(&site, HTML, move |db| {
        let Some(game) = db::game(db, id)? else {
            return Ok(None);
        };
        let note = match game.status.as_str() {
            "finished" => match viewer_page(&dir, &game) {
                Ok(page) => return Ok(Some(page)),
                Err(why) => format!("This game's record cannot be shown ({why}); its moves:"),
            },
            "void" => "This game was voided (cut short); the moves it had:".to_owned(),
            _ => String::new(),
        };
        let moves = db::moves(db, id)?;
        let drawn = match game.status.as_str() {
            "running" => board::board(db, &dir, id)?,
            _ => None,
        };
        let live = if game.status == "running" {
            Live::Game {
                feed: format!("/events?game={id}"),
                moves: format!("/game/{id}/moves"),
            }
        } else {
            Live::Still
        };
        Ok(Some(html::page(
            &format!("Game {id}"),
            &html::game(&game, &moves, &note, drawn.as_ref()),
            &live,
        )))
    })
    .await
}

/// The finished game's record as today's viewer shows it, with a link back to its ladder.
fn viewer_page(dir: &Path, game: &GameRow) -> Result<String, String> {
    let path = record_path(dir, &game.record)?;
    let text = read_record(&path)?;
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().into_owned())
        .unwrap_or_default();
    let links = PageLinks {
        back: Some((
            format!("/ladder/{}", segment(&game.ladder)),
            format!("Ladder {}", game.ladder),
        )),
        label: Some(format!("Game {}", game.id)),
        files: Vec::new(),
        costs: crate::arena::view::costs_in_record(&text),
    };
    page_of_record(&text, &extension, &links)
}

/// Where the record `record` (relative to `dir`, as `games.record` keeps it) lies, if it
/// stays inside `dir`: no absolute path, no `..`, and no link leading out of it.
pub fn record_path(dir: &Path, record: &str) -> Result<PathBuf, String> {
    let relative = Path::new(record);
    if record.is_empty() {
        return Err("no record was written".to_owned());
    }
    if !relative
        .components()
        .all(|part| matches!(part, Component::Normal(_)))
    {
        return Err("its path would leave the server's folder".to_owned());
    }
    let missing = |error: std::io::Error| format!("{record}: {error}");
    let root = dir.canonicalize().map_err(missing)?;
    let full = root.join(relative).canonicalize().map_err(missing)?;
    if !full.starts_with(&root) {
        return Err("its path leads out of the server's folder".to_owned());
    }
    Ok(full)
}

/// What `/game/ID/moves` answers: the game's status and its moves so far.
#[derive(serde::Serialize)]
struct GameMoves {
    status: String,
    moves: Vec<db::MoveRow>,
}

async fn moves(
    State(site): State<Site>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Response {
    let Some(id) = id_of(&id) else {
        return not_found().await;
    };
    read_page(&site, "application/json", move |db| {
        let Some(game) = db::game(db, id)? else {
            return Ok(None);
        };
        let moves = db::moves(db, id)?;
        let answer = GameMoves {
            status: game.status,
            moves,
        };
        serde_json::to_string(&answer)
            .map(Some)
            .map_err(|e| e.to_string())
    })
    .await
}

/// The board of a game as it stands (`image/svg+xml`); a board that cannot be rebuilt is
/// a 422 whose text says why, for the page to show instead.
async fn board(
    State(site): State<Site>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Response {
    let Some(id) = id_of(&id) else {
        return not_found().await;
    };
    let dir = site.dir.clone();
    let job = move |db: &Connection| board::board(db, &dir, id);
    match tokio::time::timeout(PAGE_TIME, site.pool.read(job)).await {
        Ok(Ok(Some(Ok(svg)))) => respond(StatusCode::OK, "image/svg+xml", svg),
        Ok(Ok(Some(Err(note)))) => respond(StatusCode::UNPROCESSABLE_ENTITY, TEXT, note),
        Ok(Ok(None)) => not_found().await,
        Ok(Err(message)) => respond(StatusCode::INTERNAL_SERVER_ERROR, TEXT, message),
        Err(_) => respond(
            StatusCode::SERVICE_UNAVAILABLE,
            TEXT,
            "busy; try again".into(),
        ),
    }
}

const TEXT: &str = "text/plain; charset=utf-8";

async fn bot(
    State(site): State<Site>,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> Response {
    let Some(id) = id_of(&id) else {
        return not_found().await;
    };
    read_page(&site, HTML, move |db| {
        let Some(bot) = db::bot(db, id)? else {
            return Ok(None);
        };
        let history = db::rating_history(db, &bot)?;
        let games = db::games_of_bot(db, &bot, BOT_GAMES)?;
        Ok(Some(html::page(
            &bot.bot.name,
            &html::bot(&bot, &history, &games),
            &Live::Reload(format!("/events?ladder={}", segment(&bot.ladder))),
        )))
    })
    .await
}

/// Which events a feed sends: a game's (moves included), a ladder's, or every event but
/// moves.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct Filter {
    game: Option<i64>,
    ladder: Option<String>,
}

impl Filter {
    fn wants(&self, event: &LiveEvent) -> bool {
        use LiveEvent::*;
        match (self.game, event) {
            (Some(id), Move { game, .. } | GameStarted { game, .. } | GameEnded { game, .. }) => {
                *game == id
            }
            (Some(_), _) | (None, Move { .. }) => false,
            (
                None,
                GameStarted { ladder, .. }
                | GameEnded { ladder, .. }
                | Ratings { ladder }
                | BotJoined { ladder, .. }
                | BotLeft { ladder, .. },
            ) => self.ladder.as_ref().is_none_or(|wanted| wanted == ladder),
        }
    }
}

/// The feed: each wanted event as one `data:` line of JSON. A listener that fell behind
/// the channel's backlog gets `{"type":"lagged"}` and the end of its feed: its page
/// reloads from the database instead of stalling the channel or showing a gap.
async fn feed(
    State(site): State<Site>,
    Query(filter): Query<Filter>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let receiver = site.events.subscribe();
    let stream = futures_util::stream::unfold(Some((receiver, filter)), |state| async move {
        let (mut receiver, filter) = state?;
        loop {
            match receiver.recv().await {
                Ok(event) if filter.wants(&event) => {
                    let sent = Event::default().data(event.to_json());
                    return Some((Ok(sent), Some((receiver, filter))));
                }
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => {
                    let sent = Event::default().data(r#"{"type":"lagged"}"#);
                    return Some((Ok(sent), None));
                }
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(FEED_KEEP_ALIVE))
}
