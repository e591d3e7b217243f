//! The items that play: the game's setup, then short games against a hamle engine of the
//! same game (a sparring partner at a small budget), one in each seat, refereed by our own
//! rules as `hamle match` referees them: move requests judged, moves forwarded in the same
//! write as the next command, the game's interludes (Tavla's dice, Mangala's sets). Once,
//! when the partner is to move, the bot is told a move our rules refuse and must answer `?`.

use std::time::Duration;

use super::report::{Item, Status};
use super::wire::{Reply, Session, Transcript};
use crate::arena::bots::Bot;
use crate::arena::gtp::{EngineProcess, Launch};
use crate::contract::{GameSettings, Referee, Seat, Turn};
use crate::games::GameKind;

pub const SETUP_REF: &str = "Arena › The game of a match (the setup sent to both engines)";
const MOVES_REF: &str =
    "Arena › The game of a match (move request / forwarded move) and What `hamle match` sends";
const ILLEGAL_REF: &str = "1. Framing › Errors (`illegal move`; a failed command changes nothing)";

/// The hamle engine the bot plays against: fast, seeded, at a small budget.
pub fn sparring_launch(
    kind: GameKind,
    hamle: &std::path::Path,
    settings: &dyn GameSettings,
) -> Launch {
    let words: &[&str] = match kind {
        GameKind::Go => &["go", "--playouts", "30", "--seed", "1"],
        GameKind::Tavla => &["tavla", "--level", "greedy", "--seed", "1"],
        GameKind::Abalone => &["abalone", "--nodes", "300", "--seed", "1"],
        GameKind::Kulami => &["kulami", "--nodes", "300", "--seed", "1"],
        GameKind::Mangala => &[
            "mangala",
            "--nodes",
            "300",
            "--table-bits",
            "16",
            "--db-stones",
            "0",
        ],
    };
    let mut args: Vec<String> = words.iter().map(|w| (*w).to_owned()).collect();
    // The partner plays by the rules the referee judges by (Go's `--rules`).
    if let Some((_, rules)) = settings
        .decisive()
        .into_iter()
        .find(|(key, _)| *key == "rules")
        && kind == GameKind::Go
    {
        args.extend(["--rules".to_owned(), rules]);
    }
    Launch::new("sparring partner", hamle, args)
}

/// What the game items share.
pub struct Table<'a> {
    pub session: &'a mut Session,
    pub settings: &'a dyn GameSettings,
    pub bot: &'a Bot,
    pub partner: Launch,
    pub pair_seed: u64,
    pub plies: usize,
    /// The illegal-move item, once tried.
    pub illegal: Option<Item>,
}

/// How one game went, for its row.
struct Game {
    referee: Box<dyn Referee>,
    partner: EngineProcess,
    /// Every move played: its seat, the answer and the forwarded command.
    history: Vec<(Seat, String, String)>,
    /// Moves told to the bot, written with its next command.
    told: Vec<String>,
    bot_seat: Seat,
}

type Step = Result<(), Item>;

impl Table<'_> {
    /// The setup item: the bot file's startup commands and the game's setup, as a fresh
    /// engine of a match gets them.
    pub async fn setup(&mut self) -> Item {
        let referee = self.settings.referee(self.pair_seed);
        let commands: Vec<String> = self
            .bot
            .startup
            .iter()
            .cloned()
            .chain(referee.setup_commands())
            .collect();
        let timeout = self.session.start_timeout;
        let (replies, transcript) = self.session.ask_all(&commands, timeout).await;
        if let Some(item) = refusal("setup", &commands, &replies, &transcript, SETUP_REF) {
            return item;
        }
        Item::new(
            "setup",
            Status::Pass,
            format!("answered {}", commands.join(", ")),
        )
    }

    /// One short game with the bot in `seat`; its row.
    pub async fn game(&mut self, seat: Seat, name: &str) -> Item {
        let partner = match EngineProcess::spawn(&self.partner) {
            Ok(engine) => engine,
            Err(error) => {
                return Item::new(
                    name,
                    Status::Skip,
                    format!("the partner did not start: {error}"),
                );
            }
        };
        let mut game = Game {
            referee: self.settings.referee(self.pair_seed),
            partner,
            history: Vec::new(),
            told: Vec::new(),
            bot_seat: seat,
        };
        let result = self.play(&mut game).await;
        game.partner.kill().await;
        match result {
            Ok(()) => {
                let end = match game.referee.natural_end() {
                    Some(outcome) => format!("the game ended, {}", outcome.result),
                    None if game.history.len() < self.plies => "stopped".to_owned(),
                    None => format!("stopped at {} moves (--plies)", self.plies),
                };
                let moves = game.history.iter().filter(|(s, ..)| *s == seat).count();
                Item::new(
                    name,
                    Status::Pass,
                    format!("{moves} moves of the bot judged legal; {end}"),
                )
            }
            Err(item) => item,
        }
    }

    async fn play(&mut self, game: &mut Game) -> Step {
        self.game_setup(game).await?;
        loop {
            for command in game.referee.interlude() {
                self.tell_bot(game, &command).await?;
                let name = game_name(game.bot_seat);
                send_partner(&mut game.partner, &command, self.session.timeout, &name).await?;
            }
            if game.referee.natural_end().is_some() || game.referee.moves_played() >= self.plies {
                break;
            }
            let seat = game.referee.seat_to_move();
            let done = if seat == game.bot_seat {
                self.bot_turn(game).await?
            } else {
                self.partner_turn(game).await?
            };
            if done {
                break;
            }
        }
        self.flush(game).await
    }

    /// The setup for both; the bot, when it played a game before, gets `clear_board`
    /// first (its error ignored), as an engine kept between games does.
    async fn game_setup(&mut self, game: &mut Game) -> Step {
        if self.session.running() {
            let _ = self
                .session
                .ask("clear_board", self.session.start_timeout)
                .await;
        }
        let mut commands: Vec<String> = self.bot.startup.clone();
        commands.extend(game.referee.setup_commands());
        let timeout = self.session.start_timeout;
        let (replies, transcript) = self.session.ask_all(&commands, timeout).await;
        let name = game_name(game.bot_seat);
        if let Some(item) = refusal(&name, &commands, &replies, &transcript, SETUP_REF) {
            return Err(item);
        }
        for command in game.referee.setup_commands() {
            send_partner(&mut game.partner, &command, timeout, &name).await?;
        }
        Ok(())
    }

    /// `command` to the bot after what it was told; every answer must be `=`.
    async fn tell_bot(&mut self, game: &mut Game, command: &str) -> Result<String, Item> {
        let mut commands = std::mem::take(&mut game.told);
        commands.push(command.to_owned());
        let (replies, transcript) = self.session.ask_all(&commands, self.session.timeout).await;
        let name = game_name(game.bot_seat);
        if let Some(item) = refusal(&name, &commands, &replies, &transcript, MOVES_REF) {
            return Err(item);
        }
        match replies.into_iter().last() {
            Some(Ok(Ok(body))) => Ok(body),
            _ => Err(Item::new(&name, Status::Fail, "no answer")),
        }
    }

    /// The bot's move, judged; `Ok(true)` when it resigned.
    async fn bot_turn(&mut self, game: &mut Game) -> Result<bool, Item> {
        let seat = game.bot_seat;
        let request = game.referee.move_request(seat);
        let mut commands = std::mem::take(&mut game.told);
        commands.push(request.clone());
        let (replies, transcript) = self.session.ask_all(&commands, self.session.timeout).await;
        let name = game_name(seat);
        if let Some(item) = refusal(&name, &commands, &replies, &transcript, MOVES_REF) {
            return Err(item);
        }
        let Some(Ok(Ok(answer))) = replies.into_iter().last() else {
            return Err(Item::new(&name, Status::Fail, "no answer"));
        };
        match game.referee.apply(seat, &answer) {
            Ok(Turn::Played { forward }) => {
                game.history.push((seat, answer, forward.clone()));
                if !forward.is_empty() {
                    game.partner.tell(&forward);
                }
                Ok(false)
            }
            Ok(Turn::Resigned) => Ok(true),
            Err(illegal) => Err(Item::new(
                &name,
                Status::Fail,
                format!(
                    "move {}: {illegal} (a match forfeits the game)",
                    game.history.len() + 1
                ),
            )
            .with(&transcript, MOVES_REF)),
        }
    }

    /// The partner's move (after the illegal-move item, once), told to the bot.
    async fn partner_turn(&mut self, game: &mut Game) -> Result<bool, Item> {
        let seat = game.bot_seat.other();
        let request = game.referee.move_request(seat);
        if self.illegal.is_none()
            && let Some(forward) = self.illegal_forward(game, &request)
        {
            let accepted = self.try_illegal(game, &forward).await?;
            if accepted {
                return Ok(true);
            }
        }
        let name = game_name(game.bot_seat);
        let answer = send_partner(&mut game.partner, &request, self.session.timeout, &name).await?;
        match game.referee.apply(seat, &answer) {
            Ok(Turn::Played { forward }) => {
                game.history.push((seat, answer, forward.clone()));
                if !forward.is_empty() {
                    game.told.push(forward);
                }
                Ok(false)
            }
            Ok(Turn::Resigned) => Ok(true),
            Err(illegal) => Err(Item::new(
                &game_name(game.bot_seat),
                Status::Skip,
                format!("the partner's move was refused: {illegal}"),
            )),
        }
    }

    /// A `play` our rules refuse for the side to move: an earlier move played again,
    /// judged by a fresh referee replaying the game. Where every legal answer starts with
    /// the same word (Tavla's dice), the earlier moves are tried first with that word in
    /// place of their own, so that the refusal is for the move, not for that word. `None`
    /// when the game's forwarded moves are no `play SIDE MOVE` or no earlier move is
    /// illegal now.
    fn illegal_forward(&self, game: &Game, request: &str) -> Option<String> {
        let mut words = request.split_whitespace();
        if words.next() != Some("genmove") {
            return None;
        }
        let side = words.next()?;
        let seat = game.referee.seat_to_move();
        let earlier: Vec<&str> = game
            .history
            .iter()
            .rev()
            .filter_map(|(_, _, forward)| {
                let mut parts = forward.splitn(3, ' ');
                match (parts.next(), parts.next(), parts.next()) {
                    (Some("play"), Some(_), Some(text)) if !text.eq_ignore_ascii_case("pass") => {
                        Some(text)
                    }
                    _ => None,
                }
            })
            .collect();
        let lead = common_first_word(game.referee.legal_moves().unwrap_or_default());
        let with_lead = earlier.iter().filter_map(|text| {
            let (_, rest) = text.split_once(' ')?;
            Some(format!("{} {rest}", lead.as_deref()?))
        });
        let candidates: Vec<String> = with_lead
            .chain(earlier.iter().map(|text| (*text).to_owned()))
            .collect();
        let mut tried: Vec<&str> = Vec::new();
        for text in &candidates {
            if tried.contains(&text.as_str()) {
                continue;
            }
            tried.push(text);
            if self.refused(game, seat, text) {
                return Some(format!("play {side} {text}"));
            }
        }
        None
    }

    /// Whether our rules refuse `answer` by `seat` after the game's moves so far.
    fn refused(&self, game: &Game, seat: Seat, answer: &str) -> bool {
        let mut referee = self.settings.referee(self.pair_seed);
        for (mover, played, _) in &game.history {
            referee.interlude();
            if referee.apply(*mover, played).is_err() {
                return false;
            }
        }
        referee.interlude();
        referee.apply(seat, answer).is_err()
    }

    /// Tells the bot `forward`; sets the illegal-move item. `Ok(true)`: the bot took the
    /// move, so its game is no longer ours and stops.
    async fn try_illegal(&mut self, game: &mut Game, forward: &str) -> Result<bool, Item> {
        let mut commands = std::mem::take(&mut game.told);
        commands.push(forward.to_owned());
        let (replies, transcript) = self.session.ask_all(&commands, self.session.timeout).await;
        let name = game_name(game.bot_seat);
        let (told, last) = replies.split_at(replies.len().saturating_sub(1));
        let told_commands = &commands[..commands.len() - 1];
        if let Some(item) = refusal(&name, told_commands, told, &transcript, MOVES_REF) {
            return Err(item);
        }
        let (item, accepted) = match last.first() {
            Some(Ok(Err(message))) => (
                Item::new(
                    "illegal move refused",
                    Status::Pass,
                    format!(
                        "'{forward}' answered '? {}'",
                        crate::text::shorten_to(message, 40)
                    ),
                ),
                false,
            ),
            Some(Ok(Ok(_))) => (
                Item::new(
                    "illegal move refused",
                    Status::Fail,
                    format!("'{forward}', which our rules refuse, was accepted with '='"),
                )
                .with(&transcript, ILLEGAL_REF),
                true,
            ),
            Some(Err(problem)) => (
                Item::new(
                    "illegal move refused",
                    Status::Fail,
                    format!("'{forward}': {problem}"),
                )
                .with(&transcript, ILLEGAL_REF),
                true,
            ),
            None => (
                Item::new("illegal move refused", Status::Fail, "no answer"),
                true,
            ),
        };
        self.illegal = Some(item);
        Ok(accepted)
    }

    /// The moves still told ahead, written and answered: the bot has heard the whole game.
    async fn flush(&mut self, game: &mut Game) -> Step {
        let commands = std::mem::take(&mut game.told);
        if commands.is_empty() {
            return Ok(());
        }
        let (replies, transcript) = self.session.ask_all(&commands, self.session.timeout).await;
        match refusal(
            &game_name(game.bot_seat),
            &commands,
            &replies,
            &transcript,
            MOVES_REF,
        ) {
            Some(item) => Err(item),
            None => Ok(()),
        }
    }
}

/// The row of a game item.
pub fn game_name(seat: Seat) -> String {
    match seat {
        Seat::First => "moves, first seat".to_owned(),
        Seat::Second => "moves, second seat".to_owned(),
    }
}

/// The first reply among `replies` that is not `=`, as a failed row naming its command.
fn refusal(
    name: &str,
    commands: &[String],
    replies: &[Reply],
    transcript: &Transcript,
    reference: &str,
) -> Option<Item> {
    for (command, reply) in commands.iter().zip(replies) {
        let detail = match reply {
            Ok(Ok(_)) => continue,
            Ok(Err(message)) => format!(
                "'{command}' answered '? {}' (a match forfeits the game)",
                crate::text::shorten_to(message, 60)
            ),
            Err(problem) => {
                let item = super::items::failed(name, problem, transcript, reference);
                return Some(Item {
                    detail: format!("'{command}': {}", item.detail),
                    ..item
                });
            }
        };
        return Some(Item::new(name, Status::Fail, detail).with(transcript, reference));
    }
    if replies.len() < commands.len() {
        return Some(Item::new(name, Status::Fail, "unanswered").with(transcript, reference));
    }
    None
}

/// `command` to the partner; its failure skips the row (it is not the bot's).
async fn send_partner(
    partner: &mut EngineProcess,
    command: &str,
    timeout: Duration,
    name: &str,
) -> Result<String, Item> {
    match partner.send(command, timeout).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(message)) => Err(Item::new(
            name,
            Status::Skip,
            format!("the partner refused '{command}': {message}"),
        )),
        Err(error) => Err(Item::new(
            name,
            Status::Skip,
            format!("the partner failed: {error}"),
        )),
    }
}

/// The first word every answer of `moves` shares, where each has more words after it
/// (Tavla's dice before the play); `None` otherwise.
fn common_first_word(moves: Vec<String>) -> Option<String> {
    let mut firsts = moves.iter().map(|mv| match mv.split_once(' ') {
        Some((first, rest)) if !rest.trim().is_empty() => Some(first),
        _ => None,
    });
    let first = firsts.next()??;
    firsts
        .all(|other| other == Some(first))
        .then(|| first.to_owned())
}
