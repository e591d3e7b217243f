//! `hamle match`: two bots play a series of games, refereed by our rules library.
//!
//! Games 2k and 2k+1 form pair k: the first bot takes the first seat (Go: Black) in the
//! even game and the second seat in the odd one. Every game starts fresh engine processes,
//! so a game depends only on its own seed: game i's seed derives from the match seed and
//! i, and each engine that takes a seed (`seed_arg` in its bot file) gets one derived from
//! it. The same seed at fixed budgets gives the same games, in any order, on any number of
//! workers, and after any number of interruptions.
//!
//! Failure policy (every engine read has a timeout):
//! - an illegal move (unparsable, occupied, suicide, ko, superko) loses the game (`B+F`/`W+F`);
//! - a crash, a hang (no answer within the timeout), garbage, an error answer to the move
//!   request, or an opponent's move refused: under `--on-failure forfeit` (the default) the
//!   faulty engine loses the game, under `--on-failure void` the game is recorded as void and
//!   not counted; with `--recover`, the game is first replayed from the start with fresh
//!   engines (twice at most) and the policy applies only if it fails again;
//! - the run goes on in every case; every engine is asked to quit, killed if it lingers, and
//!   reaped.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::adjudication::Adjudication;
use super::bots::{Bot, BotError};
use super::gtp::{EngineError, EngineProcess};
use super::sprt::{self, SprtSpec};
use super::store::{GameResult, ResultStore, StoreError, Winner};
use super::time_control::{GRACE, PlayerClock, TimeControl};
use crate::contract::{GameSettings, LossKind, Outcome, Referee, Seat, Turn};
use crate::seed::derive_seed;

/// How many times `--recover` replays a game whose engine failed.
pub const RECOVERY_ATTEMPTS: usize = 2;

/// What an engine failure costs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum FailurePolicy {
    /// The faulty engine loses the game.
    Forfeit,
    /// The game is recorded as void and not counted.
    Void,
}

impl FailurePolicy {
    fn word(self) -> &'static str {
        match self {
            FailurePolicy::Forfeit => "forfeit",
            FailurePolicy::Void => "void",
        }
    }
}

/// What an illegal move costs.
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum IllegalPolicy {
    /// The first illegal move loses the game.
    Forfeit,
    /// The Kulami sheet's rule: a warning, the engine takes the move back (`undo`) and is
    /// asked again; the third warning in a game loses it.
    Warn3,
}

impl IllegalPolicy {
    fn word(self) -> &'static str {
        match self {
            IllegalPolicy::Forfeit => "forfeit",
            IllegalPolicy::Warn3 => "warn3",
        }
    }
}

/// Warnings that lose the game under [`IllegalPolicy::Warn3`].
pub const WARNINGS_TO_LOSE: usize = 3;

/// Pair k's seed, for what both games of the pair share (Kulami's layout, Mangala's draw).
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    derive_seed(seed ^ PAIR_SEED_MASK, pair)
}

/// "pairseed" in ASCII: keeps pair seeds apart from game seeds.
pub const PAIR_SEED_MASK: u64 = 0x7061_6972_7365_6564;

/// Everything that decides a match.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    pub bots: [Bot; 2],
    pub games: usize,
    /// The game and the settings that decide its games.
    pub game: Arc<dyn GameSettings>,
    pub seed: u64,
    /// A game reaching this many moves is counted as it stands.
    pub max_moves: usize,
    pub move_timeout: Duration,
    /// For the startup and setup commands, so slow starters are not taken for hung.
    pub start_timeout: Duration,
    pub on_failure: FailurePolicy,
    pub illegal: IllegalPolicy,
    pub recover: bool,
    pub concurrency: usize,
    pub out_dir: PathBuf,
    pub hamle_exe: PathBuf,
    /// Print a line per finished game.
    pub progress: bool,
    /// Stop once the SPRT of the first bot against the second decides (`games` is then the
    /// most that are played).
    pub sprt: Option<SprtSpec>,
    /// Put before every progress line (the ladder names the pairing).
    pub label: String,
    /// The game clocks (`--time-control`): told to the engines, charged, loss on time.
    pub time_control: TimeControl,
    /// End a game both engines count as clearly decided (engines that report scores).
    pub adjudication: Option<Adjudication>,
}

impl MatchSettings {
    /// The settings `--resume` must find unchanged (not concurrency: it changes no game).
    pub fn decisive(&self) -> Vec<(String, String)> {
        let mut settings = vec![
            ("game".to_owned(), self.game.game().to_owned()),
            ("games".to_owned(), self.games.to_string()),
        ];
        settings.extend(
            self.game
                .decisive()
                .into_iter()
                .map(|(key, value)| (key.to_owned(), value)),
        );
        settings.extend([
            ("seed".to_owned(), self.seed.to_string()),
            ("max_moves".to_owned(), self.max_moves.to_string()),
            (
                "move_timeout".to_owned(),
                format!("{}", self.move_timeout.as_secs_f64()),
            ),
            (
                "start_timeout".to_owned(),
                format!("{}", self.start_timeout.as_secs_f64()),
            ),
            ("on_failure".to_owned(), self.on_failure.word().to_owned()),
            ("recover".to_owned(), self.recover.to_string()),
        ]);
        // Only a non-default policy is written, so older Go matches resume unchanged.
        if self.illegal != IllegalPolicy::Forfeit {
            settings.push(("illegal".to_owned(), self.illegal.word().to_owned()));
        }
        if let Some(spec) = &self.sprt {
            settings.push(("sprt".to_owned(), spec.to_string()));
        }
        // Only a clock is written, so matches without one resume unchanged.
        if !self.time_control.is_none() {
            settings.push(("time_control".to_owned(), self.time_control.to_string()));
        }
        if let Some(adjudication) = &self.adjudication {
            settings.push(("adjudicate".to_owned(), adjudication.to_string()));
        }
        for (index, bot) in self.bots.iter().enumerate() {
            let key = format!("bot{}", index + 1);
            settings.push((format!("{key}.name"), bot.name.clone()));
            let mut command = vec![bot.program.clone()];
            command.extend(bot.args.iter().cloned());
            settings.push((format!("{key}.command"), command.join(" ")));
            settings.push((format!("{key}.startup"), bot.startup.join(" | ")));
        }
        settings
    }

    /// True when `--sprt` is on and `results` already decide it.
    pub fn sprt_decided(&self, results: &[GameResult]) -> bool {
        self.sprt.as_ref().is_some_and(|spec| {
            sprt::sequential(spec, results, &self.bots[0].name)
                .2
                .verdict
                .is_some()
        })
    }

    /// Game `index`'s seats: bot indexes of the first and second seat.
    pub fn seating(index: usize) -> [usize; 2] {
        if index.is_multiple_of(2) {
            [0, 1]
        } else {
            [1, 0]
        }
    }
}

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    Bot(BotError),
    Store(StoreError),
    Invalid(String),
}

impl std::fmt::Display for MatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MatchError::Bot(error) => error.fmt(f),
            MatchError::Store(error) => error.fmt(f),
            MatchError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for MatchError {}

impl From<BotError> for MatchError {
    fn from(error: BotError) -> MatchError {
        MatchError::Bot(error)
    }
}

impl From<StoreError> for MatchError {
    fn from(error: StoreError) -> MatchError {
        MatchError::Store(error)
    }
}

/// The standings after a match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Standings {
    /// Wins per bot name.
    pub wins: BTreeMap<String, usize>,
    pub draws: usize,
    pub voids: usize,
    /// Complete pairs: won by bot 1 (both games or one and a draw), split, won by bot 2.
    pub pairs: [usize; 3],
}

impl Standings {
    pub fn of(results: &[GameResult], bots: [&str; 2]) -> Standings {
        let mut standings = Standings::default();
        for bot in bots {
            standings.wins.insert(bot.to_owned(), 0);
        }
        let mut by_game: BTreeMap<usize, &GameResult> = BTreeMap::new();
        for result in results {
            by_game.insert(result.game, result);
            match result.winner_name() {
                Some(name) => *standings.wins.entry(name.to_owned()).or_insert(0) += 1,
                None if result.winner == Winner::Draw => standings.draws += 1,
                None => standings.voids += 1,
            }
        }
        let points = |result: &GameResult, bot: &str| -> Option<f64> {
            match result.winner {
                Winner::Void => None,
                Winner::Draw => Some(0.5),
                _ => Some(if result.winner_name() == Some(bot) {
                    1.0
                } else {
                    0.0
                }),
            }
        };
        for (&game, &even) in by_game.iter().filter(|(g, _)| g.is_multiple_of(2)) {
            let Some(odd) = by_game.get(&(game + 1)) else {
                continue;
            };
            if let (Some(a), Some(b)) = (points(even, bots[0]), points(odd, bots[0])) {
                let total = a + b;
                let slot = if total > 1.0 {
                    0
                } else if total < 1.0 {
                    2
                } else {
                    1
                };
                standings.pairs[slot] += 1;
            }
        }
        standings
    }
}

/// A game's end before scoring: an engine's fault, in seat terms.
struct Fault {
    seat: Seat,
    kind: &'static str,
    detail: String,
}

impl Fault {
    fn of(seat: Seat, error: EngineError) -> Fault {
        Fault {
            seat,
            kind: error.kind(),
            detail: error.to_string(),
        }
    }
}

/// How one attempt at a game ended.
enum Ending {
    Finished {
        outcome: Outcome,
        reason: String,
    },
    Illegal {
        seat: Seat,
        detail: String,
    },
    /// `seat`'s clock ran out.
    Time {
        seat: Seat,
        detail: String,
    },
    Failed(Fault),
}

/// Runs (or resumes) a match; returns every finished game, old and new.
pub fn run_match(settings: &MatchSettings, resume: bool) -> Result<Vec<GameResult>, MatchError> {
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
            "both bots are named '{}': results are kept by name, so give them different names",
            settings.bots[0].name
        )));
    }
    // Every command must exist before anything is written.
    for bot in &settings.bots {
        bot.launch(&settings.hamle_exe, None)?;
    }
    let (store, finished) = ResultStore::open(&settings.out_dir, &settings.decisive(), resume)?;
    let done: std::collections::BTreeSet<usize> = finished.iter().map(|r| r.game).collect();
    let decided = settings.sprt_decided(&finished);
    let pending: std::collections::VecDeque<usize> = (0..settings.games)
        .filter(|g| !done.contains(g) && !decided)
        .collect();
    let workers = settings.concurrency.max(1).min(pending.len().max(1));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .build()
        .map_err(|error| MatchError::Invalid(format!("cannot start the async runtime: {error}")))?;
    let shared = Arc::new(Shared {
        settings: settings.clone(),
        pending: Mutex::new(pending),
        store: Mutex::new(store),
        results: Mutex::new(finished),
        failure: Mutex::new(None),
        stopped: std::sync::atomic::AtomicBool::new(decided),
    });
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
    if let Some(error) = lock(&shared.failure).take() {
        return Err(MatchError::Store(error));
    }
    let results = lock(&shared.results).clone();
    lock(&shared.store).export_pgn(
        &results,
        &format!("{} vs {}", settings.bots[0].name, settings.bots[1].name),
    )?;
    Ok(results)
}

/// Locks, shrugging off a poisoned lock (a panicked worker leaves consistent data here:
/// every update is a single push or pop).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

struct Shared {
    settings: MatchSettings,
    pending: Mutex<std::collections::VecDeque<usize>>,
    store: Mutex<ResultStore>,
    results: Mutex<Vec<GameResult>>,
    /// The first error saving a result: the run stops, as going on would lose games.
    failure: Mutex<Option<StoreError>>,
    /// The SPRT has decided: no new game starts.
    stopped: std::sync::atomic::AtomicBool,
}

impl Shared {
    async fn work(self: Arc<Self>) {
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
            let (result, record) = play_game(&self.settings, game, &self.store_logs()).await;
            let shared = Arc::clone(&self);
            let saved = tokio::task::spawn_blocking(move || {
                let saved = lock(&shared.store).append(&result, &record);
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
            if shared.settings.progress {
                println!(
                    "{}game {}/{}: {} (first) vs {} (second): {} by {}, {} moves, {:.1} s",
                    shared.settings.label,
                    result.game + 1,
                    shared.settings.games,
                    result.first,
                    result.second,
                    result.result,
                    result.reason,
                    result.moves,
                    started.elapsed().as_secs_f64()
                );
            }
            let mut results = lock(&shared.results);
            results.push(result);
            if let Some(spec) = &shared.settings.sprt {
                let (pairs, counts, status) =
                    sprt::sequential(spec, &results, &shared.settings.bots[0].name);
                if shared.settings.progress {
                    println!(
                        "{}sprt: {pairs} pairs {counts:?}: {status}",
                        shared.settings.label
                    );
                }
                if status.verdict.is_some() {
                    shared
                        .stopped
                        .store(true, std::sync::atomic::Ordering::SeqCst);
                }
            }
        }
    }

    fn store_logs(&self) -> [PathBuf; 2] {
        let store = lock(&self.store);
        [
            store.log_path(&self.settings.bots[0].name),
            store.log_path(&self.settings.bots[1].name),
        ]
    }
}

/// Plays game `index` to the end, replaying it under `--recover`; returns its result line
/// and record.
async fn play_game(
    settings: &MatchSettings,
    index: usize,
    logs: &[PathBuf; 2],
) -> (GameResult, String) {
    let seat_bots = MatchSettings::seating(index);
    let seed = derive_seed(settings.seed, index as u64);
    let attempts = if settings.recover {
        1 + RECOVERY_ATTEMPTS
    } else {
        1
    };
    let mut recovered = Vec::new();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let referee = settings
            .game
            .referee(pair_seed(settings.seed, (index / 2) as u64));
        let (referee, ending, used) = play_once(settings, referee, seat_bots, seed, logs).await;
        let name = |seat: Seat| settings.bots[seat_bots[seat.index()]].name.clone();
        let (outcome, reason) = match ending {
            Ending::Finished { outcome, reason } => (Some(outcome), reason),
            Ending::Illegal { seat, detail } => (
                Some(referee.loss_of(seat, LossKind::Forfeit)),
                format!("illegal move by {}: {detail}", name(seat)),
            ),
            Ending::Time { seat, detail } => (
                Some(referee.loss_of(seat, LossKind::Time)),
                format!("loss on time by {}: {detail}", name(seat)),
            ),
            Ending::Failed(fault) if attempt < attempts => {
                recovered.push(format!("{} of {}", fault.kind, name(fault.seat)));
                continue;
            }
            Ending::Failed(fault) => {
                let reason = format!("{} of {}: {}", fault.kind, name(fault.seat), fault.detail);
                match settings.on_failure {
                    FailurePolicy::Forfeit => {
                        (Some(referee.loss_of(fault.seat, LossKind::Forfeit)), reason)
                    }
                    FailurePolicy::Void => (None, reason),
                }
            }
        };
        let reason = if recovered.is_empty() {
            reason
        } else {
            format!("{reason} (replayed after: {})", recovered.join(", "))
        };
        let players = [name(Seat::First), name(Seat::Second)];
        let (result_text, winner) = match &outcome {
            Some(outcome) => (
                outcome.result.clone(),
                match outcome.winner {
                    Some(Seat::First) => Winner::First,
                    Some(Seat::Second) => Winner::Second,
                    None => Winner::Draw,
                },
            ),
            None => ("void".to_owned(), Winner::Void),
        };
        let clock = if settings.time_control.is_none() {
            String::new()
        } else {
            format!(
                "; time control {}, thinking time {:.2} s and {:.2} s",
                settings.time_control, used[0], used[1]
            )
        };
        let comment = format!(
            "hamle match game {} (pair {}), seed {seed} (match seed {}); {reason}{clock}",
            index + 1,
            index / 2 + 1,
            settings.seed
        );
        let (record, extension) = referee.record(
            outcome.as_ref().map(|o| o.result.as_str()),
            [&players[0], &players[1]],
            &comment,
        );
        let result = GameResult {
            game: index,
            first: players[0].clone(),
            second: players[1].clone(),
            seed,
            result: result_text,
            winner,
            reason,
            moves: referee.moves_played(),
            record: format!("{:04}.{extension}", index + 1),
        };
        return (result, record);
    }
}

/// One attempt at a game with fresh engines; both are shut down and reaped before it
/// returns.
async fn play_once(
    settings: &MatchSettings,
    mut referee: Box<dyn Referee>,
    seat_bots: [usize; 2],
    seed: u64,
    logs: &[PathBuf; 2],
) -> (Box<dyn Referee>, Ending, [f64; 2]) {
    let spawn = |seat: Seat| -> Result<EngineProcess, Fault> {
        let bot_index = seat_bots[seat.index()];
        let engine_seed = derive_seed(seed, 1 + seat.index() as u64);
        let mut launch = settings.bots[bot_index]
            .launch(&settings.hamle_exe, Some(engine_seed))
            .map_err(|error| Fault {
                seat,
                kind: "spawn",
                detail: error.to_string(),
            })?;
        launch.stderr_log = Some(logs[bot_index].clone());
        EngineProcess::spawn(&launch).map_err(|error| Fault::of(seat, error))
    };
    let first = match spawn(Seat::First) {
        Ok(engine) => engine,
        Err(fault) => return (referee, Ending::Failed(fault), [0.0; 2]),
    };
    let second = match spawn(Seat::Second) {
        Ok(engine) => engine,
        Err(fault) => {
            first.shutdown().await;
            return (referee, Ending::Failed(fault), [0.0; 2]);
        }
    };
    let mut engines = [first, second];
    let mut clocks = [PlayerClock::new(settings.time_control); 2];
    let ending = conduct(
        settings,
        referee.as_mut(),
        &mut engines,
        seat_bots,
        &mut clocks,
    )
    .await;
    // An engine that lost on time may still be thinking: it is killed, not asked to quit.
    let faulty = match &ending {
        Ending::Failed(fault) => Some(fault.seat.index()),
        Ending::Time { seat, .. } => Some(seat.index()),
        _ => None,
    };
    for (index, engine) in engines.into_iter().enumerate() {
        if faulty == Some(index) {
            engine.kill().await;
        } else {
            engine.shutdown().await;
        }
    }
    (referee, ending, clocks.map(|clock| clock.used))
}

/// Sets both engines up and plays the game out.
async fn conduct(
    settings: &MatchSettings,
    referee: &mut dyn Referee,
    engines: &mut [EngineProcess; 2],
    seat_bots: [usize; 2],
    clocks: &mut [PlayerClock; 2],
) -> Ending {
    /// Sends `command` to `seat`'s engine; an error answer is the engine's fault.
    async fn send(
        engine: &mut EngineProcess,
        seat: Seat,
        command: &str,
        timeout: Duration,
        kind: &'static str,
    ) -> Result<String, Fault> {
        match engine.send(command, timeout).await {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(message)) => Err(Fault {
                seat,
                kind,
                detail: format!("'{command}' failed: {message}"),
            }),
            Err(error) => Err(Fault::of(seat, error)),
        }
    }
    for seat in [Seat::First, Seat::Second] {
        let bot = &settings.bots[seat_bots[seat.index()]];
        let commands = bot.startup.iter().cloned().chain(referee.setup_commands());
        for command in commands {
            let engine = &mut engines[seat.index()];
            if let Err(fault) = send(engine, seat, &command, settings.start_timeout, "error").await
            {
                return Ending::Failed(fault);
            }
        }
        // The clock, to engines that take clock commands.
        let control = settings.time_control;
        if let (Some(command), Some(_)) = (control.settings_command(), referee.clock_side(seat)) {
            let engine = &mut engines[seat.index()];
            match engine.send(&command, settings.start_timeout).await {
                Ok(Ok(_)) => {}
                // Engines without `kgs-time_settings` (GNU Go) get byo-yomi as Canadian
                // overtime of one stone a period, as KGS does.
                Ok(Err(message)) => {
                    let fallback = match control {
                        TimeControl::Byoyomi { main, period, .. } => {
                            format!("time_settings {main} {period} 1")
                        }
                        _ => {
                            return Ending::Failed(Fault {
                                seat,
                                kind: "error",
                                detail: format!("'{command}' failed: {message}"),
                            });
                        }
                    };
                    if let Err(fault) =
                        send(engine, seat, &fallback, settings.start_timeout, "error").await
                    {
                        return Ending::Failed(fault);
                    }
                }
                Err(error) => return Ending::Failed(Fault::of(seat, error)),
            }
        }
    }
    let mut warnings: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    // Score adjudication: the side both engines put ahead, for how many moves in a row, and
    // the move count last checked (each position is asked about once).
    let (mut decided_leader, mut decided_streak, mut decided_checked) = (None, 0usize, 0usize);
    let noted = |warnings: &[Vec<String>; 2], reason: &str| -> String {
        let all: Vec<String> = warnings.iter().flatten().cloned().collect();
        if all.is_empty() {
            reason.to_owned()
        } else {
            format!("{reason} (warnings: {})", all.join("; "))
        }
    };
    loop {
        for command in referee.interlude() {
            for seat in [Seat::First, Seat::Second] {
                let engine = &mut engines[seat.index()];
                if let Err(fault) =
                    send(engine, seat, &command, settings.start_timeout, "error").await
                {
                    return Ending::Failed(fault);
                }
            }
        }
        if let Some(outcome) = referee.natural_end() {
            return Ending::Finished {
                outcome,
                reason: noted(&warnings, "score"),
            };
        }
        if referee.moves_played() >= settings.max_moves {
            return Ending::Finished {
                outcome: referee.adjudicate(),
                reason: noted(&warnings, "move cap"),
            };
        }
        if let (Some(adjudication), Some(query)) = (settings.adjudication, referee.score_query())
            && referee.moves_played() > decided_checked
        {
            decided_checked = referee.moves_played();
            let mut counts = [None, None];
            for seat in [Seat::First, Seat::Second] {
                let engine = &mut engines[seat.index()];
                match send(engine, seat, query, settings.move_timeout, "error").await {
                    Ok(answer) => counts[seat.index()] = referee.read_score(&answer),
                    Err(fault) => return Ending::Failed(fault),
                }
            }
            let agreed = match counts {
                [Some((Some(a), x)), Some((Some(b), y))]
                    if a == b && x.min(y) >= adjudication.margin =>
                {
                    Some(a)
                }
                _ => None,
            };
            decided_streak = if agreed.is_some() && agreed == decided_leader {
                decided_streak + 1
            } else {
                usize::from(agreed.is_some())
            };
            decided_leader = agreed;
            if let Some(leader) = decided_leader
                && decided_streak >= adjudication.moves
            {
                return Ending::Finished {
                    outcome: referee.loss_of(leader.other(), LossKind::Resignation),
                    reason: noted(
                        &warnings,
                        &format!(
                            "adjudicated: both engines counted a lead of {} or more for {} moves",
                            adjudication.margin, adjudication.moves
                        ),
                    ),
                };
            }
        }
        let seat = referee.seat_to_move();
        let request = referee.move_request(seat);
        let control = settings.time_control;
        let clock = &mut clocks[seat.index()];
        let timeout = if control.is_none() {
            settings.move_timeout
        } else {
            // What the clock allows and the grace; a bit more so that a move answered
            // right at the limit is judged by the clock, not by the read.
            let available = clock.available(control).clamp(0.0, 31_536_000.0);
            Duration::from_secs_f64(available) + GRACE + Duration::from_millis(100)
        };
        if !control.is_none()
            && let Some(side) = referee.clock_side(seat)
        {
            // GTP's time_left takes whole seconds (GNU Go refuses decimals): rounded down.
            let (seconds, stones) = clock.time_left();
            let command = format!("time_left {side} {} {stones}", seconds.floor() as u64);
            let engine = &mut engines[seat.index()];
            if let Err(fault) = send(engine, seat, &command, settings.move_timeout, "error").await {
                return Ending::Failed(fault);
            }
        }
        let engine = &mut engines[seat.index()];
        let asked = Instant::now();
        let sent = engine.send(&request, timeout).await;
        let took = asked.elapsed().as_secs_f64();
        let answer = match sent {
            Ok(Ok(answer)) => answer,
            Ok(Err(message)) => {
                return Ending::Failed(Fault {
                    seat,
                    kind: "error",
                    detail: format!("'{request}' failed: {message}"),
                });
            }
            Err(super::gtp::EngineError::Timeout { .. }) if !control.is_none() => {
                let allowed = clock.available(control);
                clock.used += took;
                return Ending::Time {
                    seat,
                    detail: format!(
                        "no answer to '{request}' within {:.2} s, {allowed:.2} s were left ({control})",
                        took
                    ),
                };
            }
            Err(error) => return Ending::Failed(Fault::of(seat, error)),
        };
        if let Err(loss) = clocks[seat.index()].charge(control, took) {
            return Ending::Time {
                seat,
                detail: format!("{loss} ({control})"),
            };
        }
        let forward = match referee.apply(seat, &answer) {
            Ok(Turn::Played { forward }) => forward,
            Ok(Turn::Resigned) => {
                return Ending::Finished {
                    outcome: referee.loss_of(seat, LossKind::Resignation),
                    reason: noted(&warnings, "resignation"),
                };
            }
            Err(illegal) => {
                let name = &settings.bots[seat_bots[seat.index()]].name;
                let list = &mut warnings[seat.index()];
                list.push(format!("{} to {name}: {illegal}", ordinal(list.len() + 1)));
                if settings.illegal == IllegalPolicy::Forfeit || list.len() >= WARNINGS_TO_LOSE {
                    let detail = if settings.illegal == IllegalPolicy::Forfeit {
                        illegal.to_string()
                    } else {
                        format!("third warning: {}", list.join("; "))
                    };
                    return Ending::Illegal { seat, detail };
                }
                // A warning: the engine takes its move back and is asked again.
                let engine = &mut engines[seat.index()];
                if let Err(fault) =
                    send(engine, seat, "undo", settings.move_timeout, "rejected").await
                {
                    return Ending::Failed(fault);
                }
                continue;
            }
        };
        if forward.is_empty() {
            // Nothing to tell the opponent (Tavla's `no_double`).
            continue;
        }
        let other = seat.other();
        let engine = &mut engines[other.index()];
        match engine.send(&forward, settings.move_timeout).await {
            Ok(Ok(_)) => {}
            Ok(Err(message)) => {
                return Ending::Failed(Fault {
                    seat: other,
                    kind: "rejected",
                    detail: format!("refused the legal '{forward}': {message}"),
                });
            }
            Err(error) => return Ending::Failed(Fault::of(other, error)),
        }
    }
}

fn ordinal(n: usize) -> &'static str {
    match n {
        1 => "first warning",
        2 => "second warning",
        _ => "third warning",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours() {
        assert_eq!(MatchSettings::seating(0), [0, 1]);
        assert_eq!(MatchSettings::seating(1), [1, 0]);
    }
}
