//! The worker pool of a match: checks the bots, opens (or resumes) the result store, then
//! lets `concurrency` workers take the pending games in order, save each result as it
//! comes, print progress, and stop starting games once the SPRT decides. Each worker keeps
//! its engines from game to game (`--restart on-failure`) and asks them to quit when the
//! games run out.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::MatchError;
use super::game::play_game;
use super::kept::KeptEngines;
use super::publish::Publisher;
use super::settings::MatchSettings;
use crate::arena::progress::Progress;
use crate::arena::sprt;
use crate::arena::store::{GameResult, ResultStore, StoreError};

/// Runs (or resumes) a match; returns every finished game, old and new.
pub fn run_match(settings: &MatchSettings, resume: bool) -> Result<Vec<GameResult>, MatchError> {
    check_bots(settings)?;
    let check =
        |result: &GameResult| super::verify::check_result(settings, &settings.out_dir, result);
    let (store, finished) =
        ResultStore::open(&settings.out_dir, &settings.decisive(), resume, &check)?;
    let done: std::collections::BTreeSet<usize> = finished.iter().map(|r| r.game).collect();
    let decided = settings.sprt_decided(&finished);
    let pending: std::collections::VecDeque<usize> = (0..settings.games)
        .filter(|&g| settings.plays_game(g) && !done.contains(&g) && !decided)
        .collect();
    let workers = settings.concurrency.max(1).min(pending.len().max(1));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(runtime_threads(workers))
        .enable_all()
        .build()
        .map_err(|error| MatchError::Invalid(format!("cannot start the async runtime: {error}")))?;
    let progress = Progress::new(
        settings.progress,
        &settings.label,
        &settings.bots[0].name,
        finished.len() + pending.len(),
        finished.len(),
    );
    let shared = Arc::new(Shared {
        progress: Mutex::new(progress),
        settings: settings.clone(),
        pending: Mutex::new(pending),
        store: Mutex::new(store),
        results: Mutex::new(finished),
        failure: Mutex::new(None),
        stopped: std::sync::atomic::AtomicBool::new(decided),
        publisher: Mutex::new(Publisher::start(settings.out_dir.clone())),
    });
    lock(&shared.publisher).publish_missing(&settings.out_dir, &lock(&shared.results));
    runtime.block_on(async {
        let mut tasks = Vec::new();
        for _ in 0..workers {
            let shared = Arc::clone(&shared);
            tasks.push(tokio::spawn(async move { shared.work().await }));
        }
        for task in tasks {
            let _ = task.await;
        }
    });
    lock(&shared.publisher).finish();
    lock(&shared.progress).finish();
    if let Some(error) = lock(&shared.failure).take() {
        return Err(MatchError::Store(error));
    }
    let results = lock(&shared.results).clone();
    lock(&shared.store).export_pgn(
        &results,
        &format!("{} vs {}", settings.bots[0].name, settings.bots[1].name),
        &crate::arena::store::seat_sides(settings.game.as_ref()),
    )?;
    Ok(results)
}

/// Both bots play the match's game under different names that are safe file names (they
/// name the logs), and every command exists: all checked before anything is written.
fn check_bots(settings: &MatchSettings) -> Result<(), MatchError> {
    for bot in &settings.bots {
        crate::arena::bots::check_name(&bot.name).map_err(MatchError::Invalid)?;
    }
    let kind = settings.game.game();
    if settings.bots.iter().any(|bot| bot.game.name() != kind) {
        return Err(MatchError::Invalid(format!(
            "both bots must play the match's game ({kind}); {} plays {} and {} plays {}",
            settings.bots[0].name,
            settings.bots[0].game,
            settings.bots[1].name,
            settings.bots[1].game
        )));
    }
    if settings.bots[0].name == settings.bots[1].name {
        return Err(MatchError::Invalid(format!(
            "both bots are named '{}': results are kept by name, so name them, NAME=BOT or NAME=COMMAND, e.g. {}",
            settings.bots[0].name,
            crate::arena::bots::naming_example(&settings.bots)
        )));
    }
    for bot in &settings.bots {
        bot.launch(&settings.hamle_exe, None)?;
    }
    Ok(())
}

/// Locks, shrugging off a poisoned lock (a panicked worker leaves consistent data here:
/// every update is a single push or pop).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// What the workers share: the queue of pending games, the store, the results so far.
struct Shared {
    /// The live progress line on stderr (`crate::arena::progress`).
    progress: Mutex<Progress>,
    settings: MatchSettings,
    pending: Mutex<std::collections::VecDeque<usize>>,
    store: Mutex<ResultStore>,
    results: Mutex<Vec<GameResult>>,
    /// The first error saving a result: the run stops, as going on would lose games.
    failure: Mutex<Option<StoreError>>,
    /// The SPRT has decided: no new game starts.
    stopped: std::sync::atomic::AtomicBool,
    /// Writes each saved game's viewer page, and the report, off the workers' path.
    publisher: Mutex<Publisher>,
}

impl Shared {
    /// One worker: plays games with engines it keeps between them (see [`KeptEngines`]),
    /// then asks them to quit.
    async fn work(self: Arc<Self>) {
        let mut kept = KeptEngines::new(self.store_logs());
        Arc::clone(&self).play_games(&mut kept).await;
        kept.shut_down().await;
    }

    /// Takes the next pending game, plays it, saves it; until the queue is empty, a save
    /// fails or the SPRT decides.
    async fn play_games(self: Arc<Self>, kept: &mut KeptEngines) {
        loop {
            if lock(&self.failure).is_some()
                || self.stopped.load(std::sync::atomic::Ordering::SeqCst)
            {
                return;
            }
            let Some(game) = lock(&self.pending).pop_front() else {
                return;
            };
            let started = Instant::now();
            let (result, record) = play_game(&self.settings, game, kept).await;
            let shared = Arc::clone(&self);
            let saved = tokio::task::spawn_blocking(move || {
                let mut store = lock(&shared.store);
                let saved = store.append(&result, &record);
                drop(store);
                if saved.is_ok() {
                    if let Some(observer) = &shared.settings.observer {
                        observer.0.game_saved(&result);
                    }
                    lock(&shared.publisher).publish(result.clone(), record);
                }
                (shared, result, saved)
            })
            .await;
            let Ok((shared, result, saved)) = saved else {
                return;
            };
            if let Err(error) = saved {
                lock(&shared.failure).get_or_insert(error);
                return;
            }
            shared.finish(result, started);
        }
    }

    /// A saved game: its progress line, then into the results, then the SPRT, which may
    /// stop the run.
    fn finish(&self, result: GameResult, started: Instant) {
        if self.settings.progress {
            lock(&self.progress).clear();
            println!(
                "{}game {}/{}: {} (first) vs {} (second): {} by {}, {} moves, {:.1} s",
                self.settings.label,
                result.game + 1,
                self.settings.games,
                result.first,
                result.second,
                result.result,
                result.reason,
                result.moves,
                started.elapsed().as_secs_f64()
            );
        }
        let mut results = lock(&self.results);
        results.push(result);
        lock(&self.progress).update(&results);
        // A shard's pairs are not the first ones: only the merge counts them.
        if let (Some(spec), None) = (&self.settings.sprt, self.settings.shard) {
            let (pairs, counts, status) =
                sprt::sequential(spec, &results, &self.settings.bots[0].name);
            if self.settings.progress {
                println!(
                    "{}sprt: {pairs} pairs {counts:?}: {status}",
                    self.settings.label
                );
            }
            if status.verdict.is_some() {
                self.stopped
                    .store(true, std::sync::atomic::Ordering::SeqCst);
            }
        }
    }

    /// Each bot's stderr log, in bot order.
    fn store_logs(&self) -> [PathBuf; 2] {
        let store = lock(&self.store);
        [
            store.log_path(&self.settings.bots[0].name),
            store.log_path(&self.settings.bots[1].name),
        ]
    }
}

/// Games a runtime thread serves. Relaying lines between engines is a few microseconds of
/// work a line: one thread keeps many games going, and a thread a game would only add
/// wake-ups across threads (at `--concurrency 2` between instant engines one thread
/// played 12 % more games a second than two). Saves and pages run on threads of their own.
const GAMES_PER_RUNTIME_THREAD: usize = 8;

fn runtime_threads(workers: usize) -> usize {
    workers.div_ceil(GAMES_PER_RUNTIME_THREAD).max(1)
}
