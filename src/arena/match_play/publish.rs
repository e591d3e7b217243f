//! The viewer pages of a match's games, written on a thread of their own as the games are
//! saved: no worker waits for a page to be drawn and written, and the match's report is
//! rewritten at most twice a second while games keep coming and once after the last (it
//! lists every game so far, so rewriting it a game costs more the longer the match).
//! `finish` waits for the last page and the report of every game; a resumed run writes
//! the pages that a run stopped by a signal left unwritten.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::arena::store::{GAMES_DIR, GameResult};
use crate::arena::view::{page_name, read_record, write_game_page, write_match_report};

/// A saved game's result line and record text.
type Saved = (GameResult, String);

pub(super) struct Publisher {
    sender: Option<Sender<Saved>>,
    thread: Option<JoinHandle<()>>,
}

impl Publisher {
    /// Starts the thread that writes the pages of the match kept in `dir`.
    pub(super) fn start(dir: PathBuf) -> Publisher {
        let (sender, receiver) = channel();
        let thread = std::thread::Builder::new()
            .name("viewer-pages".to_owned())
            .spawn(move || publish_all(&dir, &receiver))
            .map_err(|error| eprintln!("warning: no viewer pages for this run: {error}"))
            .ok();
        Publisher {
            sender: thread.is_some().then_some(sender),
            thread,
        }
    }

    /// Queues the page of a game the store has saved.
    pub(super) fn publish(&self, result: GameResult, record: String) {
        if let Some(sender) = &self.sender {
            let _ = sender.send((result, record));
        }
    }

    /// Queues the pages of `finished` games (kept in `dir`) that have none: a run stopped
    /// by a signal may have saved games whose pages were still to be written.
    pub(super) fn publish_missing(&self, dir: &Path, finished: &[GameResult]) {
        for result in finished {
            let games = dir.join(GAMES_DIR);
            if games.join(page_name(&result.record)).exists() {
                continue;
            }
            match read_record(&games.join(&result.record)) {
                Ok(record) => self.publish(result.clone(), record),
                Err(error) => warn(result, &error),
            }
        }
    }

    /// Waits until every queued page and the report are written.
    pub(super) fn finish(&mut self) {
        self.sender = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Publisher {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The match report is rewritten at most this often while games keep coming: it lists
/// every game so far, so a long fast match would spend most of its time redrawing it.
const REPORT_EVERY: Duration = Duration::from_millis(500);

/// Until the last sender is gone: the pages of the games waiting, then the report when
/// it is due (and always once the last game is in).
fn publish_all(dir: &Path, receiver: &Receiver<Saved>) {
    let mut report_due: Option<GameResult> = None;
    let mut last_report: Option<Instant> = None;
    loop {
        let wait = match (&report_due, last_report) {
            (Some(_), Some(at)) => REPORT_EVERY.saturating_sub(at.elapsed()),
            (Some(_), None) => Duration::ZERO,
            (None, _) => Duration::from_secs(3600),
        };
        let gone = match receiver.recv_timeout(wait) {
            Ok(first) => {
                let batch: Vec<Saved> = std::iter::once(first).chain(receiver.try_iter()).collect();
                for (result, record) in &batch {
                    if let Err(error) = write_game_page(dir, result, record) {
                        warn(result, &error);
                    }
                }
                report_due = batch.into_iter().last().map(|(result, _)| result);
                false
            }
            Err(RecvTimeoutError::Timeout) => false,
            Err(RecvTimeoutError::Disconnected) => true,
        };
        let due = last_report.is_none_or(|at| at.elapsed() >= REPORT_EVERY);
        if (gone || due)
            && let Some(result) = report_due.take()
        {
            if let Err(error) = write_match_report(dir) {
                warn(&result, &error);
            }
            last_report = Some(Instant::now());
        }
        if gone {
            return;
        }
    }
}

/// A page that could not be written: a warning, the run goes on.
fn warn(result: &GameResult, error: &str) {
    eprintln!(
        "warning: the viewer page of game {}: {error}",
        result.game + 1
    );
}
