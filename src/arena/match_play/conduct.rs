//! One attempt at a game over the wire, between two running engines: the setup commands
//! and the clocks, then turn after turn the game's interlude, the end checks (natural end,
//! move cap, score adjudication), the move request under its clock, the referee's judgement
//! (with warnings under `--illegal warn3`), and the move forwarded to the opponent.

use std::time::{Duration, Instant};

use super::ending::{Ending, Fault};
use super::settings::{IllegalPolicy, MatchSettings, WARNINGS_TO_LOSE};
use crate::arena::adjudication::Adjudication;
use crate::arena::gtp::{EngineError, EngineProcess};
use crate::arena::store::Thinking;
use crate::arena::time_control::{GRACE, PlayerClock, TimeControl};
use crate::contract::record::MoveCost;
use crate::contract::{IllegalMove, LossKind, Referee, Seat, Turn};
use crate::seed::derive_seed;

/// A step of the game: `Err` carries how the game ended (not only by failure), so that `?`
/// ends it from any phase.
type Step<T> = Result<T, Ending>;

/// Sets both engines up and plays game `index` out (each move told to the settings'
/// observer, if any); returns how it ended, each seat's
/// thinking (its move requests answered and their time), in seat order, and what each move
/// played cost, in order (an opening ply's cost is empty).
pub(super) async fn conduct(
    settings: &MatchSettings,
    referee: &mut dyn Referee,
    engines: &mut [EngineProcess; 2],
    (index, seat_bots): (usize, [usize; 2]),
    clocks: &mut [PlayerClock; 2],
    opening_seed: u64,
) -> (Ending, [Thinking; 2], Vec<MoveCost>) {
    let mut table = Table {
        settings,
        index,
        referee,
        engines,
        seat_bots,
        clocks,
        warnings: [Vec::new(), Vec::new()],
        scores: ScoreWatch::default(),
        answered: [Answered::default(); 2],
        decimal_time_left: [false; 2],
        costs: Vec::new(),
        judged: [None; 2],
        taken_back: [0; 2],
    };
    let ending = table.play(opening_seed).await;
    (ending, table.answered.map(Answered::thinking), table.costs)
}

/// One seat's move requests answered so far and their total time, kept exact until the
/// game's end (each request rounded to the millisecond would lose fast engines' time).
#[derive(Clone, Copy, Default)]
struct Answered {
    requests: usize,
    took: Duration,
    longest: Duration,
}

impl Answered {
    fn thinking(self) -> Thinking {
        Thinking::of(self.requests, self.took, self.longest)
    }
}

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

/// The standard command in place of `command`, which the engine refused (`message`) or
/// does not know: Japanese byo-yomi as Canadian overtime of one stone a period (GNU Go, as
/// KGS does), Fischer time as absolute time. No fallback: the refusal is the engine's fault.
async fn send_fallback(
    engine: &mut EngineProcess,
    seat: Seat,
    control: TimeControl,
    command: &str,
    message: &str,
    timeout: Duration,
) -> Result<(), Fault> {
    let Some(fallback) = control.fallback_command() else {
        return Err(Fault {
            seat,
            kind: "error",
            detail: format!("'{command}' failed: {message}"),
        });
    };
    send(engine, seat, &fallback, timeout, "error").await?;
    Ok(())
}

/// Score adjudication's memory: the side both engines put ahead, for how many moves in a
/// row, and the move count last checked (each position is asked about once).
#[derive(Default)]
struct ScoreWatch {
    leader: Option<Seat>,
    streak: usize,
    checked: usize,
}

impl ScoreWatch {
    /// Takes both engines' counts of one position; returns the leader once both engines
    /// have put the same side ahead by the margin for enough moves in a row.
    fn observe(
        &mut self,
        counts: [Option<(Option<Seat>, f64)>; 2],
        adjudication: Adjudication,
    ) -> Option<Seat> {
        let agreed = match counts {
            [Some((Some(a), x)), Some((Some(b), y))]
                if a == b && x.min(y) >= adjudication.margin =>
            {
                Some(a)
            }
            _ => None,
        };
        self.streak = if agreed.is_some() && agreed == self.leader {
            self.streak + 1
        } else {
            usize::from(agreed.is_some())
        };
        self.leader = agreed;
        self.leader.filter(|_| self.streak >= adjudication.moves)
    }
}

/// Everything one attempt plays with: the referee, both engines (in seat order) and their
/// clocks, and what the game has noted so far.
struct Table<'a> {
    settings: &'a MatchSettings,
    /// The game's index in the match, for the observer.
    index: usize,
    referee: &'a mut dyn Referee,
    engines: &'a mut [EngineProcess; 2],
    seat_bots: [usize; 2],
    clocks: &'a mut [PlayerClock; 2],
    /// Each seat's warnings for illegal moves, in order.
    warnings: [Vec<String>; 2],
    scores: ScoreWatch,
    /// Each seat's move requests answered, and their time.
    answered: [Answered; 2],
    /// Each seat's engine took KataGo's `kata-time_settings`, so `time_left` may give it
    /// decimals.
    decimal_time_left: [bool; 2],
    /// What each move played cost, in order, for the records.
    costs: Vec<MoveCost>,
    /// `--record-judgement`: the command each seat's engine gives its judgement with.
    judged: [Option<&'static str>; 2],
    /// Each seat's thinking, in milliseconds, on moves taken back since its last move.
    taken_back: [u64; 2],
}

impl Table<'_> {
    /// The setup, the opening plies, then turn after turn until the game ends.
    async fn play(&mut self, opening_seed: u64) -> Ending {
        if let Err(fault) = self.set_up().await {
            return Ending::Failed(fault);
        }
        if let Err(ending) = self.opening(opening_seed).await {
            return self.flush_told(ending).await;
        }
        loop {
            if let Err(ending) = self.turn().await {
                return self.flush_told(ending).await;
            }
        }
    }

    /// Each engine in seat order: its bot's startup commands, the game's setup commands,
    /// then the clock.
    async fn set_up(&mut self) -> Result<(), Fault> {
        let settings = self.settings;
        for seat in [Seat::First, Seat::Second] {
            let bot = &settings.bots[self.seat_bots[seat.index()]];
            let commands = bot
                .startup
                .iter()
                .cloned()
                .chain(self.referee.setup_commands());
            for command in commands {
                let engine = &mut self.engines[seat.index()];
                send(engine, seat, &command, settings.start_timeout, "error").await?;
            }
            self.set_clock(seat).await?;
            self.judged[seat.index()] = self.judgement_command(seat).await?;
        }
        Ok(())
    }

    /// Under `--record-judgement`, the first of the game's judgement commands that
    /// `seat`'s engine knows (`known_command`; an engine that refuses that question knows
    /// none of them).
    async fn judgement_command(&mut self, seat: Seat) -> Result<Option<&'static str>, Fault> {
        if !self.settings.record_judgement {
            return Ok(None);
        }
        let engine = &mut self.engines[seat.index()];
        for &command in self.referee.judgement_commands() {
            let question = format!("known_command {command}");
            match engine.send(&question, self.settings.start_timeout).await {
                Ok(Ok(answer)) if answer.trim() == "true" => return Ok(Some(command)),
                Ok(_) => {}
                Err(error) => return Err(Fault::of(seat, error)),
            }
        }
        Ok(None)
    }

    /// The seat's clock, to engines that take clock commands: the settings command, or
    /// its standard fallback to an engine that lacks the extension (`known_command` says
    /// so, or the command is refused).
    async fn set_clock(&mut self, seat: Seat) -> Result<(), Fault> {
        let control = self.control(seat);
        let timeout = self.settings.start_timeout;
        self.decimal_time_left[seat.index()] = false;
        let (Some(command), Some(_)) = (control.settings_command(), self.referee.clock_side(seat))
        else {
            return Ok(());
        };
        let engine = &mut self.engines[seat.index()];
        if let Some(extension) = control.extension() {
            // An engine that does not answer `known_command` does not know it either.
            let known = match engine
                .send(&format!("known_command {extension}"), timeout)
                .await
            {
                Ok(Ok(answer)) => answer.trim() == "true",
                Ok(Err(_)) => false,
                Err(error) => return Err(Fault::of(seat, error)),
            };
            if !known {
                return send_fallback(engine, seat, control, &command, "unknown", timeout).await;
            }
        }
        match engine.send(&command, timeout).await {
            Ok(Ok(_)) => {
                // KataGo's extension promises decimals in `time_left` too.
                self.decimal_time_left[seat.index()] = control.extension().is_some();
                Ok(())
            }
            Ok(Err(message)) => {
                send_fallback(engine, seat, control, &command, &message, timeout).await
            }
            Err(error) => Err(Fault::of(seat, error)),
        }
    }

    /// The clock of `seat`'s bot.
    fn control(&self, seat: Seat) -> TimeControl {
        self.settings.clock_of(self.seat_bots[seat.index()])
    }

    /// `--opening-plies`: random legal moves before the engines choose. Our referee lists
    /// the side to move's legal moves ([`Referee::legal_moves`], in the order hamle's
    /// engines answer `gogui-rules_legal_moves`, so games played when the engines listed
    /// them replay alike); ply p takes the one at SplitMix64(`seed`, p) modulo their
    /// number, the referee plays it and both engines are told. The same position gives the
    /// same list, so both games of a pair (one seed) open alike. It stops early at the
    /// game's end or when the move request is not a plain `genmove` (Tavla's cube: its
    /// dice vary games).
    async fn opening(&mut self, seed: u64) -> Step<()> {
        for ply in 0..self.settings.opening_plies {
            self.interlude().await?;
            if self.referee.natural_end().is_some() {
                return Ok(());
            }
            let seat = self.referee.seat_to_move();
            let request = self.referee.move_request(seat);
            if request.split_whitespace().next() != Some("genmove") {
                return Ok(());
            }
            let moves = self.referee.legal_moves().unwrap_or_default();
            if moves.is_empty() {
                return Ok(());
            }
            let pick = derive_seed(seed, ply as u64) % moves.len() as u64;
            let chosen = &moves[pick as usize];
            let forward = match self.referee.apply(seat, chosen) {
                Ok(Turn::Played { forward }) => forward,
                Ok(Turn::Resigned) => return Ok(()),
                Err(illegal) => {
                    // Our rules listed a move they then refuse: a bug, said; the engines
                    // choose from here.
                    eprintln!(
                        "hamle: bug: --opening-plies drew '{chosen}' from our rules' list of legal moves, which they refuse: {illegal}"
                    );
                    return Ok(());
                }
            };
            self.played(chosen, MoveCost::default());
            // Neither engine chose the move: both are told.
            for seat in [Seat::First, Seat::Second] {
                self.forward(seat, &forward).await?;
            }
        }
        Ok(())
    }

    /// One turn: the interlude, the end checks, one move asked for, judged and forwarded.
    /// `Ok` means the game goes on (a warned move is asked again on the next turn).
    async fn turn(&mut self) -> Step<()> {
        self.interlude().await?;
        if let Some(ending) = self.natural_end_or_cap() {
            return Err(ending);
        }
        self.check_scores().await?;
        let seat = self.referee.seat_to_move();
        let (answer, mut cost) = self.request_move(seat).await?;
        let Some(forward) = self.judge(seat, &answer).await? else {
            // A move taken back (`--illegal warn3`) is no move of the record: its time
            // counts in the move the engine then plays, which it thought about all along.
            self.taken_back[seat.index()] += cost.thinking.unwrap_or(0);
            return Ok(());
        };
        let taken_back = std::mem::take(&mut self.taken_back[seat.index()]);
        cost.thinking = cost.thinking.map(|took| took + taken_back);
        self.played(&answer, cost);
        if forward.is_empty() {
            // Nothing to tell the opponent (Tavla's `no_double`).
            return Ok(());
        }
        self.forward(seat.other(), &forward).await?;
        Ok(())
    }

    /// A move played: its cost noted for the record, and the observer told.
    fn played(&mut self, text: &str, cost: MoveCost) {
        let thinking = cost.thinking;
        self.costs.push(cost);
        if let Some(observer) = &self.settings.observer {
            observer
                .0
                .moved(self.index, self.costs.len(), text.trim(), thinking);
        }
    }

    /// The game's interlude commands (e.g. Tavla's dice), to both engines in seat order.
    async fn interlude(&mut self) -> Result<(), Fault> {
        for command in self.referee.interlude() {
            for seat in [Seat::First, Seat::Second] {
                let engine = &mut self.engines[seat.index()];
                send(engine, seat, &command, self.settings.start_timeout, "error").await?;
            }
        }
        Ok(())
    }

    /// The game over by its rules (scored), or at the move cap (counted as it stands).
    fn natural_end_or_cap(&self) -> Option<Ending> {
        if let Some(outcome) = self.referee.natural_end() {
            return Some(Ending::Finished {
                outcome,
                reason: self.noted("score"),
            });
        }
        if self.referee.moves_played() >= self.settings.max_moves {
            return Some(Ending::Finished {
                outcome: self.referee.adjudicate(),
                reason: self.noted("move cap"),
            });
        }
        None
    }

    /// Score adjudication: asks both engines for their count of a new position and ends
    /// the game once they have agreed on a clear leader for long enough.
    async fn check_scores(&mut self) -> Step<()> {
        let (Some(adjudication), Some(query)) =
            (self.settings.adjudication, self.referee.score_query())
        else {
            return Ok(());
        };
        if self.referee.moves_played() <= self.scores.checked {
            return Ok(());
        }
        self.scores.checked = self.referee.moves_played();
        let mut counts = [None, None];
        for seat in [Seat::First, Seat::Second] {
            let engine = &mut self.engines[seat.index()];
            let answer = send(engine, seat, query, self.settings.move_timeout, "error").await?;
            counts[seat.index()] = self.referee.read_score(&answer);
        }
        let Some(leader) = self.scores.observe(counts, adjudication) else {
            return Ok(());
        };
        Err(Ending::Finished {
            outcome: self.referee.loss_of(leader.other(), LossKind::Resignation),
            reason: self.noted(&format!(
                "adjudicated: both engines counted a lead of {} or more for {} moves",
                adjudication.margin, adjudication.moves
            )),
        })
    }

    /// Asks `seat` for its move (after `time_left` when a clock runs) and charges the
    /// thinking time to its clock; no answer in time is a loss on time under a clock.
    /// Every answer is counted with its time in the seat's thinking, whatever the referee
    /// then makes of it (a pass, a resignation, an illegal move taken back: each was
    /// thought about); a request never answered (a crash, a timeout, `?`) is not. Returns
    /// the answer and what it cost: its time, and the clock left after it under a clock.
    async fn request_move(&mut self, seat: Seat) -> Step<(String, MoveCost)> {
        let judged = self.judged[seat.index()]
            .and_then(|command| Some((command, self.referee.judged_request(seat, command)?)));
        let request = match &judged {
            Some((_, request)) => request.clone(),
            None => self.referee.move_request(seat),
        };
        let control = self.control(seat);
        let clock = &mut self.clocks[seat.index()];
        let timeout = if control.is_none() {
            self.settings.move_timeout
        } else {
            // What the clock allows and the grace; a bit more so that a move answered
            // right at the limit is judged by the clock, not by the read.
            let available = clock.available(control).clamp(0.0, 31_536_000.0);
            Duration::from_secs_f64(available) + GRACE + Duration::from_millis(100)
        };
        if !control.is_none()
            && let Some(side) = self.referee.clock_side(seat)
        {
            let (seconds, stones) = clock.time_left();
            let seconds = if self.decimal_time_left[seat.index()] {
                // Milliseconds, rounded down: KataGo's extension takes decimals.
                (seconds * 1000.0).floor() / 1000.0
            } else {
                // GTP's time_left takes whole seconds (GNU Go refuses decimals): rounded down.
                seconds.floor()
            };
            let command = format!("time_left {side} {seconds} {stones}");
            let engine = &mut self.engines[seat.index()];
            send(engine, seat, &command, self.settings.move_timeout, "error").await?;
        }
        let engine = &mut self.engines[seat.index()];
        if !control.is_none() {
            // The opponent's move told ahead is not thinking time: under a clock it goes
            // out, and is answered, before the request is timed.
            engine
                .flush_told(self.settings.move_timeout)
                .await
                .map_err(|error| Fault::of(seat, error))?;
        }
        let asked = Instant::now();
        let sent = engine.send(&request, timeout).await;
        let elapsed = asked.elapsed();
        let took = elapsed.as_secs_f64();
        let answer = match sent {
            Ok(Ok(answer)) => {
                let answered = &mut self.answered[seat.index()];
                answered.requests += 1;
                answered.took += elapsed;
                answered.longest = answered.longest.max(elapsed);
                answer
            }
            Ok(Err(message)) => {
                return Err(Ending::Failed(Fault {
                    seat,
                    kind: "error",
                    detail: format!("'{request}' failed: {message}"),
                }));
            }
            Err(EngineError::Timeout { .. }) if !control.is_none() => {
                let allowed = clock.available(control);
                clock.used += took;
                return Err(Ending::Time {
                    seat,
                    detail: format!(
                        "no answer to '{request}' within {:.2} s, {allowed:.2} s were left ({control})",
                        took
                    ),
                });
            }
            Err(error) => return Err(Ending::Failed(Fault::of(seat, error))),
        };
        if let Err(loss) = clock.charge(control, took) {
            return Err(Ending::Time {
                seat,
                detail: format!("{loss} ({control})"),
            });
        }
        // The engine's judgement is the mover's; the records keep the first seat's.
        let (answer, judgement) = match judged {
            Some((command, _)) => self.referee.read_judged(command, &answer),
            None => (answer, None),
        };
        let judgement = judgement.map(|judgement| match seat {
            Seat::First => judgement,
            Seat::Second => judgement.flipped(),
        });
        let millis = |seconds: f64| (seconds.max(0.0) * 1000.0).round() as u64;
        let cost = MoveCost {
            judgement,
            // Rounded to the millisecond, as the seat's total (`Thinking::of`) is.
            thinking: Some(
                u64::try_from(elapsed.as_micros().saturating_add(500) / 1000).unwrap_or(u64::MAX),
            ),
            clock_left: (!control.is_none()).then(|| millis(clock.time_left().0)),
        };
        Ok((answer, cost))
    }

    /// The referee's judgement of `seat`'s answer: `Some(forward)` for a move played (the
    /// command that tells the opponent), `None` for a warned move the engine took back.
    async fn judge(&mut self, seat: Seat, answer: &str) -> Step<Option<String>> {
        match self.referee.apply(seat, answer) {
            Ok(Turn::Played { forward }) => Ok(Some(forward)),
            Ok(Turn::Resigned) => Err(Ending::Finished {
                outcome: self.referee.loss_of(seat, LossKind::Resignation),
                reason: self.noted("resignation"),
            }),
            Err(illegal) => {
                self.warn(seat, illegal).await?;
                Ok(None)
            }
        }
    }

    /// An illegal move: it loses under `--illegal forfeit` or at the third warning;
    /// otherwise it is a warning, and the engine takes its move back (`undo`).
    async fn warn(&mut self, seat: Seat, illegal: IllegalMove) -> Step<()> {
        let name = &self.settings.bots[self.seat_bots[seat.index()]].name;
        let list = &mut self.warnings[seat.index()];
        list.push(format!("{} to {name}: {illegal}", ordinal(list.len() + 1)));
        let forfeit = self.settings.illegal == IllegalPolicy::Forfeit;
        if forfeit || list.len() >= WARNINGS_TO_LOSE {
            let detail = if forfeit {
                illegal.to_string()
            } else {
                format!("third warning: {}", list.join("; "))
            };
            return Err(Ending::Illegal { seat, detail });
        }
        let engine = &mut self.engines[seat.index()];
        send(engine, seat, "undo", self.settings.move_timeout, "rejected").await?;
        Ok(())
    }

    /// Tells `seat`'s engine the opponent's move, in the same write as the next command
    /// it is sent ([`EngineProcess::tell`]); refusing a legal move is its fault, found
    /// when that command is sent or at the game's end ([`Table::flush_told`]).
    async fn forward(&mut self, seat: Seat, forward: &str) -> Result<(), Fault> {
        self.engines[seat.index()].tell(forward);
        Ok(())
    }

    /// The moves still told ahead at the game's end, written and answered, so that each
    /// engine has heard the whole game. A refusal or a silence among them came before
    /// whatever ended the game (every command sent after a move was told would have
    /// carried it), so it is how the game ended.
    async fn flush_told(&mut self, ending: Ending) -> Ending {
        for seat in [Seat::First, Seat::Second] {
            let engine = &mut self.engines[seat.index()];
            if let Err(error) = engine.flush_told(self.settings.move_timeout).await {
                return Ending::Failed(Fault::of(seat, error));
            }
        }
        ending
    }

    /// `reason`, followed by the game's warnings if there were any.
    fn noted(&self, reason: &str) -> String {
        let all: Vec<String> = self.warnings.iter().flatten().cloned().collect();
        if all.is_empty() {
            reason.to_owned()
        } else {
            format!("{reason} (warnings: {})", all.join("; "))
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
