//! The living ladder's web page: [`serve`] answers HTTP on a listener the caller opened
//! (loopback or wider is the caller's choice) with pages read from `DIR/ladder.db`:
//!
//! ```text
//! /                    the ladders (reloads when one changes)
//! /ladder/NAME         standings (latest ratings), games in progress, latest games
//! /game/ID             a finished game replayed by today's viewer (its record); a game in
//!                      progress: its moves so far, then each move as it is played
//! /game/ID/moves       its status and moves so far as JSON
//!                      ({"status":"running","moves":[{"ply":1,"text":"D4","ms":12}, …]})
//! /bot/ID              a bot's games, results and rating curve
//! /events              server-sent events: every LiveEvent but moves, as JSON;
//!                      ?ladder=NAME that ladder's, ?game=ID that game's (moves included)
//! ```
//!
//! The database is read on blocking threads through a few pooled connections, so no
//! page ever blocks the runtime the server's other rooms share. Requests are bounded:
//! headers must arrive within [`HEADER_TIME`] and fit [`HEAD_BYTES`], a page is answered
//! within [`PAGE_TIME`] or refused, at most [`CONNECTIONS`] connections are served at once.
//! The only files read are the records the database names, inside DIR.

mod board;
#[cfg(test)]
mod board_tests;
mod db;
mod html;
mod routes;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use super::events::LiveEvents;

/// A request's head (request line and headers) must arrive within this.
pub const HEADER_TIME: Duration = Duration::from_secs(10);
/// ... and fit in this many bytes.
pub const HEAD_BYTES: usize = 16 * 1024;
/// A page not ready by then is answered 503 (the database is busy).
pub const PAGE_TIME: Duration = Duration::from_secs(10);
/// Connections served at once (each live page holds one for its feed); more wait to be
/// accepted.
pub const CONNECTIONS: usize = 256;

/// Serves the live pages of the server folder `dir` on `listener` until the process
/// ends, the feed fed by `events`. Fails at once when `DIR/ladder.db` cannot be opened;
/// after that, a failed connection costs only that connection.
pub async fn serve(listener: TcpListener, dir: PathBuf, events: LiveEvents) -> std::io::Result<()> {
    let pool = db::Pool::open(&dir).await?;
    let app = routes::router(routes::Site::new(dir, pool, events));
    let slots = Arc::new(Semaphore::new(CONNECTIONS));
    loop {
        let Ok(slot) = slots.clone().acquire_owned().await else {
            return Ok(());
        };
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(error) => {
                // Out of file descriptors or a connection reset before it was accepted:
                // pause briefly instead of spinning, and go on.
                tracing::warn!("live page: accepting a connection: {error}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let service = TowerToHyperService::new(app.clone());
        tokio::spawn(async move {
            let _slot = slot;
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(HEADER_TIME)
                .max_buf_size(HEAD_BYTES)
                .max_headers(64)
                .serve_connection(TokioIo::new(stream), service);
            if let Err(error) = connection.await {
                tracing::debug!("live page: connection ended: {error}");
            }
        });
    }
}
