//! One game of a match, from its seed to its result line: the engines for each attempt
//! (`play_once`, from the worker's [`KeptEngines`]), a replay under `--recover` when an
//! engine fails, and the failure policy, the reason and the record once the game is over.

use super::conduct::conduct;
use super::ending::Ending;
use super::kept::{After, KeptEngines};
use super::settings::{FailurePolicy, MatchSettings, RECOVERY_ATTEMPTS, opening_seed};
use crate::arena::store::{GameResult, Thinking, Winner, protocol_log_path};
use crate::arena::time_control::PlayerClock;
use crate::contract::record::MoveCost;
use crate::contract::{LossKind, Outcome, Referee, Seat};
use crate::seed::derive_seed;

/// How a game is counted: its outcome (`None`: void) and the reason for the record.
struct Verdict {
    outcome: Option<Outcome>,
    reason: String,
}

/// What each seat's engine spent in one attempt, in seat order: its clock's charge (under
/// a time control) and its thinking (always).
#[derive(Clone, Default)]
struct Spent {
    used: [f64; 2],
    thinking: [Thinking; 2],
    /// What each move played cost, in order.
    costs: Vec<MoveCost>,
}

/// Plays game `index` to the end, replaying it under `--recover`; returns its result line
/// and record.
pub(super) async fn play_game(
    settings: &MatchSettings,
    index: usize,
    kept: &mut KeptEngines,
) -> (GameResult, String) {
    let seat_bots = MatchSettings::seating(index);
    let seed = derive_seed(settings.seed, index as u64);
    let attempts = if settings.recover {
        1 + RECOVERY_ATTEMPTS
    } else {
        1
    };
    let name = |seat: Seat| settings.bots[seat_bots[seat.index()]].name.clone();
    start_protocol_logs(settings, index);
    let mut recovered = Vec::new();
    let mut attempt = 0;
    loop {
        attempt += 1;
        if let Some(observer) = &settings.observer {
            observer.0.game_started(index, seat_bots);
        }
        let referee = settings.referee(index);
        let opening = opening_seed(settings.seed, (index / 2) as u64);
        let (referee, ending, spent) =
            play_once(settings, referee, (index, seat_bots), seed, opening, kept).await;
        if let Ending::Failed(fault) = &ending
            && attempt < attempts
        {
            recovered.push(format!("{} of {}", fault.kind, name(fault.seat)));
            continue;
        }
        let mut verdict = judge(settings, referee.as_ref(), ending, name);
        if !recovered.is_empty() {
            verdict.reason = format!(
                "{} (replayed after: {})",
                verdict.reason,
                recovered.join(", ")
            );
        }
        let players = [name(Seat::First), name(Seat::Second)];
        return game_result(
            settings,
            index,
            seed,
            players,
            referee.as_ref(),
            verdict,
            spent,
        );
    }
}

/// The last attempt's ending as the match counts it: illegal moves and lost clocks lose,
/// an engine failure costs what `--on-failure` says.
fn judge(
    settings: &MatchSettings,
    referee: &dyn Referee,
    ending: Ending,
    name: impl Fn(Seat) -> String,
) -> Verdict {
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
    Verdict { outcome, reason }
}

/// The result line and the game record of a finished game (the thinking is the last
/// attempt's, the one the record holds: a `--recover` replay starts the game again).
fn game_result(
    settings: &MatchSettings,
    index: usize,
    seed: u64,
    players: [String; 2],
    referee: &dyn Referee,
    verdict: Verdict,
    spent: Spent,
) -> (GameResult, String) {
    let Verdict { outcome, reason } = verdict;
    // A bot's words in it (an error answer) are shown escaped, the same in the line, the
    // record's comment and every page, so that `--resume` can compare them.
    let reason = crate::text::printable(&reason).into_owned();
    let used = spent.used;
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
    let clock = clock_note(settings, MatchSettings::seating(index), used);
    let opening = if settings.opening_plies > 0 {
        format!(
            "; the first {} plies drawn at random from the pair's seed (--opening-plies)",
            settings.opening_plies
        )
    } else {
        String::new()
    };
    let moves = referee.moves_played();
    let comment = format!(
        "{}; {reason}{clock}{opening}{}",
        comment_head(index, seed, settings.seed, moves),
        settings.opening_note(index)
    );
    let (record, extension) = referee.timed_record(
        outcome.as_ref().map(|o| o.result.as_str()),
        [&players[0], &players[1]],
        &comment,
        &spent.costs,
    );
    let [first, second] = players;
    let result = GameResult {
        game: index,
        first,
        second,
        seed,
        result: result_text,
        winner,
        reason,
        moves,
        record: format!("{:04}.{extension}", index + 1),
        thinking: spent.thinking.map(Some),
        costs: spent.costs,
    };
    (result, record)
}

/// What a record's comment says of the clocks: `; time control TC, thinking time A s and
/// B s` (the first seat's, then the second's), `; time controls TC1 and TC2, …` when the
/// seats' clocks differ (time odds, in seat order), nothing without a clock.
fn clock_note(settings: &MatchSettings, seat_bots: [usize; 2], used: [f64; 2]) -> String {
    let [first, second] = seat_bots.map(|bot| settings.clock_of(bot));
    let controls = if first == second {
        if first.is_none() {
            return String::new();
        }
        format!("time control {first}")
    } else {
        format!("time controls {first} and {second}")
    };
    format!(
        "; {controls}, thinking time {:.2} s and {:.2} s",
        used[0], used[1]
    )
}

/// How a game's record comment starts: the game (from 1), its pair, its seed and the
/// match's, and its move count as `results.tsv` has it, which `--resume` checks.
pub(super) fn comment_head(index: usize, seed: u64, match_seed: u64, moves: usize) -> String {
    format!(
        "hamle match game {} (pair {}), seed {seed} (match seed {match_seed}), {moves} moves",
        index + 1,
        index / 2 + 1
    )
}

/// `--log-protocol`: game `index`'s conversations start empty (a game replayed by
/// `--resume` is logged anew; `--recover`'s attempts follow one another in them).
fn start_protocol_logs(settings: &MatchSettings, index: usize) {
    if !settings.log_protocol {
        return;
    }
    for bot in &settings.bots {
        let path = protocol_log_path(&settings.out_dir, index, &bot.name);
        let emptied = path
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .map_err(|error| error.to_string())
            .and_then(|()| {
                crate::files::open_to_write(&path)
                    .map(drop)
                    .map_err(|error| error.to_string())
            });
        if let Err(error) = emptied {
            tracing::warn!("--log-protocol: {}: {error}", path.display());
        }
    }
}

/// One attempt at a game with the worker's kept engines (reset for this game) or fresh
/// ones; afterwards each engine is kept for the next game, shut down, or killed when it
/// failed or lost on time.
async fn play_once(
    settings: &MatchSettings,
    mut referee: Box<dyn Referee>,
    (index, seat_bots): (usize, [usize; 2]),
    seed: u64,
    opening: u64,
    kept: &mut KeptEngines,
) -> (Box<dyn Referee>, Ending, Spent) {
    let first = match kept
        .engine_for(settings, Seat::First, (index, seat_bots[0]), seed)
        .await
    {
        Ok(engine) => engine,
        Err(fault) => return (referee, Ending::Failed(fault), Spent::default()),
    };
    let second = match kept
        .engine_for(settings, Seat::Second, (index, seat_bots[1]), seed)
        .await
    {
        Ok(engine) => engine,
        Err(fault) => {
            kept.release(settings, seat_bots[0], first, After::Played)
                .await;
            return (referee, Ending::Failed(fault), Spent::default());
        }
    };
    let mut engines = [first, second];
    let mut clocks = seat_bots.map(|bot| PlayerClock::new(settings.clock_of(bot)));
    let (ending, thinking, costs) = conduct(
        settings,
        referee.as_mut(),
        &mut engines,
        (index, seat_bots),
        &mut clocks,
        opening,
    )
    .await;
    // An engine that lost on time may still be thinking: it is killed, not asked to quit.
    // One that lost by an illegal move may have lost track of the game: it is not kept.
    let (faulty, illegal) = match &ending {
        Ending::Failed(fault) => (Some(fault.seat), None),
        Ending::Time { seat, .. } => (Some(*seat), None),
        Ending::Illegal { seat, .. } => (None, Some(*seat)),
        Ending::Finished { .. } => (None, None),
    };
    for (seat, engine) in [Seat::First, Seat::Second].into_iter().zip(engines) {
        let after = if faulty == Some(seat) {
            After::Failed
        } else if illegal == Some(seat) {
            After::Illegal
        } else {
            After::Played
        };
        kept.release(settings, seat_bots[seat.index()], engine, after)
            .await;
    }
    let used = clocks.map(|clock| clock.used);
    (
        referee,
        ending,
        Spent {
            used,
            thinking,
            costs,
        },
    )
}
