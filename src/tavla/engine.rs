//! `hamle tavla`: the Tavla engine on the shared GTP core.
//!
//! Commands are parsed into [`TavlaCommand`] first (typed arguments, typed errors), then run
//! against the match; a command that fails leaves the match, the roller and the record as
//! they were.

use std::fmt::Write as _;

use super::board::{Board, Side};
use super::dice::{Dice, Roller};
use super::fibs::{FibsBoard, format_fibs, parse_fibs};
use super::game::{Game, GameEnd, MatchRules, Phase, State};
use super::ids::{GameState, parse_match_id, parse_position_id, position_id};
use super::mat::write_mat;
use super::moves::Candidate;
use super::notation::{format_play, parse_play};
use super::player::{Level, Player};
use crate::protocol::{Command, Engine, GtpError, Session};
use crate::text::shorten;

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    pub level: Level,
    /// Points to win; 0 is money play.
    pub match_length: u32,
    pub crawford: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seed: 0,
            level: Level::default(),
            match_length: 0,
            crawford: true,
        }
    }
}

/// A Tavla command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum TavlaCommand {
    NewMatch(u32),
    NewGame(Option<(u8, u8)>),
    Crawford(Option<bool>),
    Seed(u64),
    Roll(Option<Side>),
    SetDice(Option<Side>, Dice),
    /// Side (default: the side to act), dice to roll first, the play's text.
    Play(Option<Side>, Option<Dice>, String),
    Genmove(Option<Side>),
    Double(Option<Side>),
    Take(Option<Side>),
    Drop(Option<Side>),
    GenmoveCube(Option<Side>),
    Undo,
    Showboard,
    AllLegal,
    SetPosition(String, Option<String>),
    GetPosition,
    FibsBoard(Side),
    SetFibsBoard(String, Side),
    FinalResult,
    MatchStatus,
    PipCount,
    SaveMat(String),
}

/// The Tavla commands in `list_commands` order.
pub const TAVLA_COMMANDS: [&str; 24] = [
    "new_match",
    "new_game",
    "crawford",
    "seed",
    "roll",
    "dice",
    "play",
    "genmove",
    "double",
    "take",
    "drop",
    "genmove_cube",
    "undo",
    "showboard",
    "all_legal",
    "set_position",
    "get_position",
    "fibs_board",
    "set_fibs_board",
    "final_result",
    "match_status",
    "pip_count",
    "save_mat",
    "tavla-level",
];

fn parse_side(text: &str) -> Result<Side, GtpError> {
    text.parse().map_err(|_| {
        GtpError::syntax(format!(
            "expected a side (white or black), got '{}'",
            shorten(text)
        ))
    })
}

fn optional_side(command: &Command) -> Result<Option<Side>, GtpError> {
    command.expect_args_between(0, 1, "[white|black]")?;
    command.args.first().map(|t| parse_side(t)).transpose()
}

fn parse_die(text: &str) -> Result<u8, GtpError> {
    match text.parse::<u8>() {
        Ok(d) if (1..=6).contains(&d) => Ok(d),
        _ => Err(GtpError::syntax(format!(
            "expected a die 1-6, got '{}'",
            shorten(text)
        ))),
    }
}

fn parse_dice_args(args: &[String]) -> Result<Dice, GtpError> {
    match args {
        [both] => both
            .parse::<Dice>()
            .map_err(|e| GtpError::syntax(shorten(&e))),
        [a, b] => Dice::new(parse_die(a)?, parse_die(b)?).map_err(GtpError::syntax),
        _ => Err(GtpError::syntax("expected two dice, as in '6 3' or '63'")),
    }
}

/// A token that may be a side: a side's name without digits (moves and dice hold digits).
fn side_token(text: &str) -> Option<Side> {
    (!text.bytes().any(|b| b.is_ascii_digit() || b == b'/'))
        .then(|| text.parse().ok())
        .flatten()
}

/// A token that may be a roll: no `/` and two dice.
fn dice_token(text: &str) -> Option<Dice> {
    (!text.contains('/') && text.len() <= 3)
        .then(|| text.parse().ok())
        .flatten()
}

impl TavlaCommand {
    pub fn parse(command: &Command) -> Result<TavlaCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "new_match" => {
                c.expect_args_between(0, 1, "[length (0 = money)]")?;
                match c.args.first() {
                    Some(_) => {
                        let length: u32 = c.parse_arg(0, "a match length (0 = money)")?;
                        if length > 32_767 {
                            return Err(GtpError::syntax(
                                "a match length is at most 32767 (the Match ID's 15 bits)",
                            ));
                        }
                        TavlaCommand::NewMatch(length)
                    }
                    None => TavlaCommand::NewMatch(u32::MAX),
                }
            }
            "new_game" => match c.args.len() {
                0 => TavlaCommand::NewGame(None),
                2 => TavlaCommand::NewGame(Some((parse_die(&c.args[0])?, parse_die(&c.args[1])?))),
                _ => return Err(c.usage_error("[white_die black_die]")),
            },
            "crawford" => {
                c.expect_args_between(0, 1, "[on|off]")?;
                match c.args.first().map(|t| t.to_ascii_lowercase()) {
                    None => TavlaCommand::Crawford(None),
                    Some(t) if t == "on" || t == "true" || t == "1" => {
                        TavlaCommand::Crawford(Some(true))
                    }
                    Some(t) if t == "off" || t == "false" || t == "0" => {
                        TavlaCommand::Crawford(Some(false))
                    }
                    Some(_) => return Err(c.usage_error("[on|off]")),
                }
            }
            "seed" => {
                c.expect_args(1, "<seed>")?;
                TavlaCommand::Seed(c.parse_arg(0, "a seed (an unsigned integer)")?)
            }
            "roll" => TavlaCommand::Roll(optional_side(c)?),
            "dice" => {
                let (side, rest) = match c.args.first().and_then(|t| side_token(t)) {
                    Some(side) => (Some(side), &c.args[1..]),
                    None => (None, &c.args[..]),
                };
                TavlaCommand::SetDice(side, parse_dice_args(rest)?)
            }
            "play" => {
                let mut rest = &c.args[..];
                let side = rest.first().and_then(|t| side_token(t));
                if side.is_some() {
                    rest = &rest[1..];
                }
                let dice = rest.first().and_then(|t| dice_token(t));
                if dice.is_some() {
                    rest = &rest[1..];
                } else if let Some(first) = rest.first()
                    && first.len() == 2
                    && first.bytes().all(|b| b.is_ascii_digit())
                {
                    return Err(GtpError::syntax(format!(
                        "'{first}' is not a roll: dice are 1-6"
                    )));
                }
                if rest.is_empty() {
                    return Err(c.usage_error("[side] [dice] <move…> (e.g. play black 63 24/18 13/10; 'pass' when no checker can move)"));
                }
                TavlaCommand::Play(side, dice, rest.join(" "))
            }
            "genmove" => TavlaCommand::Genmove(optional_side(c)?),
            "double" => TavlaCommand::Double(optional_side(c)?),
            "take" => TavlaCommand::Take(optional_side(c)?),
            "drop" => TavlaCommand::Drop(optional_side(c)?),
            "genmove_cube" => TavlaCommand::GenmoveCube(optional_side(c)?),
            "undo" => c.no_args(TavlaCommand::Undo)?,
            "showboard" => c.no_args(TavlaCommand::Showboard)?,
            "all_legal" => c.no_args(TavlaCommand::AllLegal)?,
            "set_position" => {
                c.expect_args_between(1, 2, "<position_id>[:<match_id>] [match_id]")?;
                let first = c.arg(0)?;
                match (first.split_once(':'), c.args.get(1)) {
                    (Some(_), Some(_)) => {
                        return Err(c.usage_error("<position_id>[:<match_id>] [match_id]"));
                    }
                    (Some((p, m)), None) => {
                        TavlaCommand::SetPosition(p.to_string(), Some(m.to_string()))
                    }
                    (None, m) => TavlaCommand::SetPosition(first.to_string(), m.cloned()),
                }
            }
            "get_position" => c.no_args(TavlaCommand::GetPosition)?,
            "fibs_board" => TavlaCommand::FibsBoard(optional_side(c)?.unwrap_or(Side::Black)),
            "set_fibs_board" => {
                c.expect_args_between(1, 2, "<board:…> [you: white|black]")?;
                let you = match c.args.get(1) {
                    Some(t) => parse_side(t)?,
                    None => Side::Black,
                };
                TavlaCommand::SetFibsBoard(c.arg(0)?.to_string(), you)
            }
            "final_result" => c.no_args(TavlaCommand::FinalResult)?,
            "match_status" => c.no_args(TavlaCommand::MatchStatus)?,
            "pip_count" => c.no_args(TavlaCommand::PipCount)?,
            "save_mat" => {
                c.expect_args(1, "<path>")?;
                TavlaCommand::SaveMat(c.arg(0)?.to_string())
            }
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}

/// The engine behind `hamle tavla`.
pub struct TavlaEngine {
    settings: Settings,
    roller: Roller,
    game: Game,
    player: Player,
    /// The match was set up from a position: its record does not start at an opening roll.
    set_up: bool,
}

fn refused(error: impl std::fmt::Display) -> GtpError {
    GtpError::other(error.to_string())
}

impl TavlaEngine {
    pub fn new(settings: Settings) -> TavlaEngine {
        TavlaEngine {
            roller: Roller::new(settings.seed),
            game: Game::new(MatchRules {
                length: settings.match_length,
                crawford: settings.crawford,
                cube: true,
            }),
            player: Player::new(settings.level),
            set_up: false,
            settings,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// `POSITION_ID:MATCH_ID`, gnubg's pair.
    pub fn position_key(&self) -> String {
        let key = self.game.match_key();
        format!(
            "{}:{}",
            position_id(self.game.board(), key.dice_owner),
            super::ids::match_id(&key)
        )
    }

    /// The match so far as a Jellyfish `.mat` file.
    pub fn mat_record(&self) -> Result<String, String> {
        if self.set_up {
            return Err("the match was set up from a position: no record from its start".into());
        }
        write_mat(&self.game, ["White", "Black"])
    }

    /// Runs one parsed command.
    pub fn run(&mut self, command: TavlaCommand) -> Result<String, GtpError> {
        match command {
            TavlaCommand::NewMatch(length) => {
                if length != u32::MAX {
                    self.settings.match_length = length;
                }
                self.game = Game::new(MatchRules {
                    length: self.settings.match_length,
                    crawford: self.settings.crawford,
                    cube: true,
                });
                self.set_up = false;
                Ok(String::new())
            }
            TavlaCommand::NewGame(dice) => {
                let mut roller = self.roller.clone();
                let (white, black) = match dice {
                    Some(pair) => pair,
                    None => roller.opening(),
                };
                self.game.start_game(white, black).map_err(refused)?;
                self.roller = roller;
                let side = if white > black {
                    Side::White
                } else {
                    Side::Black
                };
                Ok(format!("{side} {}{}", white.max(black), white.min(black)))
            }
            TavlaCommand::Crawford(None) => Ok(if self.game.rules().crawford {
                "on"
            } else {
                "off"
            }
            .into()),
            TavlaCommand::Crawford(Some(on)) => {
                self.settings.crawford = on;
                self.game.set_crawford(on);
                Ok(String::new())
            }
            TavlaCommand::Seed(seed) => {
                self.settings.seed = seed;
                self.roller = Roller::new(seed);
                Ok(String::new())
            }
            TavlaCommand::Roll(side) => {
                let side = self.roller_side(side)?;
                let mut roller = self.roller.clone();
                let dice = roller.roll();
                self.game.roll(side, dice).map_err(refused)?;
                self.roller = roller;
                Ok(dice.to_string())
            }
            TavlaCommand::SetDice(side, dice) => {
                let side = self.roller_side(side)?;
                self.game.roll(side, dice).map_err(refused)?;
                Ok(String::new())
            }
            TavlaCommand::Play(side, dice, text) => self.play(side, dice, &text),
            TavlaCommand::Genmove(side) => self.genmove(side),
            TavlaCommand::Double(side) => {
                let side = self.actor(side)?;
                self.game.double(side).map_err(refused)?;
                Ok(String::new())
            }
            TavlaCommand::Take(side) => {
                let side = self.actor(side)?;
                self.game.take(side).map_err(refused)?;
                Ok(String::new())
            }
            TavlaCommand::Drop(side) => {
                let side = self.actor(side)?;
                self.game.drop_cube(side).map_err(refused)?;
                Ok(String::new())
            }
            TavlaCommand::GenmoveCube(side) => self.genmove_cube(side),
            TavlaCommand::Undo => self
                .game
                .undo()
                .map_err(|_| GtpError::CannotUndo)
                .map(|()| String::new()),
            TavlaCommand::Showboard => Ok(self.showboard()),
            TavlaCommand::AllLegal => {
                let (side, _, legal) = self.game.legal().map_err(refused)?;
                let board = *self.game.board();
                Ok(legal
                    .iter()
                    .map(|c| format_play(&board, side, &c.play))
                    .collect::<Vec<_>>()
                    .join("\n"))
            }
            TavlaCommand::SetPosition(position, match_id) => {
                self.set_position(&position, match_id.as_deref())?;
                Ok(String::new())
            }
            TavlaCommand::GetPosition => Ok(self.position_key()),
            TavlaCommand::FibsBoard(you) => Ok(format_fibs(&self.game, you)),
            TavlaCommand::SetFibsBoard(text, you) => {
                let fibs = parse_fibs(&text, you)
                    .map_err(|e| GtpError::syntax(format!("bad FIBS board: {e}")))?;
                self.set_fibs(&fibs)?;
                Ok(String::new())
            }
            TavlaCommand::FinalResult => match self.game.phase() {
                Phase::Over(end) => Ok(self.result_text(end)),
                _ => Err(GtpError::CannotScore),
            },
            TavlaCommand::MatchStatus => Ok(self.match_status()),
            TavlaCommand::PipCount => {
                let board = self.game.board();
                Ok(format!(
                    "white {} black {}",
                    board.pip_count(Side::White),
                    board.pip_count(Side::Black)
                ))
            }
            TavlaCommand::SaveMat(path) => {
                let text = self.mat_record().map_err(GtpError::other)?;
                std::fs::write(&path, text).map_err(|e| {
                    GtpError::other(format!("cannot write {}: {e}", shorten(&path)))
                })?;
                Ok(String::new())
            }
        }
    }

    /// The side a command names, checked against the side the game waits for.
    fn actor(&self, side: Option<Side>) -> Result<Side, GtpError> {
        match (side, self.game.to_act()) {
            (Some(side), _) => Ok(side),
            (None, Some(side)) => Ok(side),
            (None, None) => Err(GtpError::other(match self.game.phase() {
                Phase::Over(_) => "the game is over (new_game starts the next)",
                _ => "no game started (new_game)",
            })),
        }
    }

    /// The side to roll: only a side whose turn it is to roll may.
    fn roller_side(&self, side: Option<Side>) -> Result<Side, GtpError> {
        match self.game.phase() {
            Phase::ToRoll(s) if side.is_none_or(|x| x == s) => Ok(s),
            _ => self.actor(side),
        }
    }

    fn play(
        &mut self,
        side: Option<Side>,
        dice: Option<Dice>,
        text: &str,
    ) -> Result<String, GtpError> {
        let side = self.actor(side)?;
        let mut game = self.game.clone();
        match (game.phase(), dice) {
            (Phase::ToRoll(s), Some(d)) if s == side => game.roll(side, d).map_err(refused)?,
            (
                Phase::ToPlay {
                    side: s,
                    dice: current,
                },
                Some(d),
            ) if s == side && (current.high(), current.low()) != (d.high(), d.low()) => {
                return Err(GtpError::other(format!(
                    "{side} is to play {current}, not {d}"
                )));
            }
            _ => {}
        }
        let (_, legal) = plays_of(&game, side)?;
        let board = *game.board();
        let play = parse_play(text, &board, side, &legal).map_err(|e| {
            tracing::warn!("play {side} {text}: {e}");
            GtpError::other(format!("illegal move: {e}"))
        })?;
        game.play(side, play).map_err(refused)?;
        self.game = game;
        Ok(String::new())
    }

    fn genmove(&mut self, side: Option<Side>) -> Result<String, GtpError> {
        let side = self.actor(side)?;
        let mut game = self.game.clone();
        let mut roller = self.roller.clone();
        match game.phase() {
            Phase::ToRoll(s) if s == side => {
                game.roll(side, roller.roll()).map_err(refused)?;
            }
            Phase::Doubled { by } if by.other() == side => {
                return Err(GtpError::other(format!(
                    "{side} must answer the double first (take, drop or genmove_cube)"
                )));
            }
            _ => {}
        }
        let (dice, _) = plays_of(&game, side)?;
        let board = *game.board();
        let play = self.player.choose_play(&board, side, dice);
        game.play(side, play).map_err(|e| {
            GtpError::other(format!(
                "internal error: the player chose an illegal play ({e})"
            ))
        })?;
        self.game = game;
        self.roller = roller;
        Ok(format!("{dice} {}", format_play(&board, side, &play)))
    }

    fn genmove_cube(&mut self, side: Option<Side>) -> Result<String, GtpError> {
        let side = self.actor(side)?;
        let state = *self.game.state();
        match state.phase {
            Phase::ToRoll(s) if s == side => {
                if self.game.may_double(side).is_ok() && self.player.should_double(&state, side) {
                    self.game.double(side).map_err(refused)?;
                    Ok("double".into())
                } else {
                    Ok("no_double".into())
                }
            }
            Phase::Doubled { by } if by.other() == side => {
                if self.player.should_take(&state, side) {
                    self.game.take(side).map_err(refused)?;
                    Ok("take".into())
                } else {
                    self.game.drop_cube(side).map_err(refused)?;
                    Ok("drop".into())
                }
            }
            _ => Err(GtpError::other(format!(
                "{side} has no cube decision now: the cube is decided before rolling or when doubled"
            ))),
        }
    }

    fn set_position(&mut self, position: &str, match_id: Option<&str>) -> Result<(), GtpError> {
        let bad = |e: &dyn std::fmt::Display| GtpError::syntax(format!("bad position: {e}"));
        let (rules, key) = match match_id {
            Some(text) => {
                let key = parse_match_id(text).map_err(|e| bad(&e))?;
                let rules = MatchRules {
                    length: key.match_length,
                    ..self.game.rules()
                };
                (rules, key)
            }
            None => {
                let mut key = self.game.match_key();
                if key.state != GameState::Playing {
                    key.state = GameState::Playing;
                    key.doubled = false;
                    key.dice = None;
                    key.turn = key.dice_owner;
                }
                (self.game.rules(), key)
            }
        };
        let board = parse_position_id(position, key.dice_owner).map_err(|e| bad(&e))?;
        let phase = match key.state {
            GameState::NoGame => Phase::Opening,
            GameState::Playing => match (key.doubled, key.dice) {
                (true, Some(_)) => return Err(bad(&"a Match ID with both a double and dice")),
                (true, None) => {
                    if key.turn == key.dice_owner {
                        return Err(bad(&"the doubler cannot be the side to answer the double"));
                    }
                    Phase::Doubled { by: key.dice_owner }
                }
                (false, Some(dice)) => Phase::ToPlay {
                    side: key.dice_owner,
                    dice,
                },
                (false, None) => Phase::ToRoll(key.dice_owner),
            },
            _ => {
                return Err(bad(
                    &"set_position takes a game in play or before its opening roll",
                ));
            }
        };
        if phase != Phase::Opening && Side::BOTH.iter().any(|&s| board.on_board(s) == 0) {
            return Err(bad(
                &"a side has borne off every checker: that game is over",
            ));
        }
        let at_point = rules.length > 0 && key.score.iter().any(|&p| p + 1 == rules.length);
        let state = State {
            board: if phase == Phase::Opening {
                Board::start()
            } else {
                board
            },
            phase,
            cube: key.cube,
            cube_owner: key.cube_owner,
            score: key.score,
            crawford_game: key.crawford,
            crawford_done: key.crawford || (rules.crawford && at_point),
            games: 0,
        };
        let mut game = Game::new(rules);
        game.set_state(state);
        self.game = game;
        self.set_up = true;
        Ok(())
    }

    fn set_fibs(&mut self, fibs: &FibsBoard) -> Result<(), GtpError> {
        let bad = |e: &str| GtpError::syntax(format!("bad FIBS board: {e}"));
        if fibs.match_length > 0 && fibs.score.iter().any(|&s| s >= fibs.match_length) {
            return Err(bad("a score reaches the match length"));
        }
        let Some(turn) = fibs.turn else {
            return Err(bad("no side is on roll (turn 0)"));
        };
        if Side::BOTH.iter().any(|&s| fibs.board.on_board(s) == 0) {
            return Err(bad("a side has borne off every checker: that game is over"));
        }
        let phase = match (fibs.doubled, fibs.dice) {
            (true, Some(_)) => return Err(bad("both a double and dice")),
            (true, None) => Phase::Doubled { by: turn },
            (false, Some(dice)) => Phase::ToPlay { side: turn, dice },
            (false, None) => Phase::ToRoll(turn),
        };
        let rules = MatchRules {
            length: fibs.match_length,
            ..self.game.rules()
        };
        let at_point = rules.length > 0 && fibs.score.iter().any(|&p| p + 1 == rules.length);
        let state = State {
            board: fibs.board,
            phase,
            cube: fibs.cube,
            cube_owner: fibs.cube_owner,
            score: fibs.score,
            crawford_game: fibs.crawford,
            crawford_done: fibs.crawford || (rules.crawford && at_point),
            games: 0,
        };
        let mut game = Game::new(rules);
        game.set_state(state);
        self.game = game;
        self.set_up = true;
        Ok(())
    }

    fn result_text(&self, end: GameEnd) -> String {
        let state = self.game.state();
        let how = match end.kind {
            Some(kind) => format!("{} {}", end.winner, kind.name()),
            None => format!("{} drop", end.winner),
        };
        let mut text = format!(
            "{how} {} points; score white {} black {}",
            end.points, state.score[0], state.score[1]
        );
        if let Some(winner) = self.game.match_winner() {
            let _ = write!(text, "; {winner} wins the match");
        }
        text
    }

    fn match_status(&self) -> String {
        let state = self.game.state();
        let rules = self.game.rules();
        let mut text = if rules.length == 0 {
            "money".to_string()
        } else {
            format!("match to {}", rules.length)
        };
        let _ = write!(
            text,
            "; score white {} black {}; games {}; cube {}",
            state.score[0], state.score[1], state.games, state.cube
        );
        match state.cube_owner {
            Some(owner) => {
                let _ = write!(text, " owned by {owner}");
            }
            None => text.push_str(" centred"),
        }
        if rules.length > 0 {
            text.push_str(if state.crawford_game {
                "; crawford game"
            } else if state.crawford_done {
                "; post-crawford"
            } else if rules.crawford {
                "; crawford rule on"
            } else {
                "; crawford rule off"
            });
        }
        text.push_str("; ");
        text.push_str(&self.phase_text());
        text
    }

    fn phase_text(&self) -> String {
        match self.game.phase() {
            Phase::Opening => match self.game.match_winner() {
                Some(winner) => format!("{winner} won the match"),
                None => "no game started (new_game)".into(),
            },
            Phase::ToRoll(side) => format!("{side} to roll"),
            Phase::Doubled { by } => format!("{by} doubled, {} to take or drop", by.other()),
            Phase::ToPlay { side, dice } => format!("{side} to play {dice}"),
            Phase::Over(end) => match self.game.match_winner() {
                Some(winner) => format!("game over, {winner} won the match"),
                None => format!("game over, {} won {} points", end.winner, end.points),
            },
        }
    }

    /// gnubg's text board: Black (X) plays from the top right round to the bottom right.
    fn showboard(&self) -> String {
        let state = self.game.state();
        let board = &state.board;
        // Column k (0-based) of each half: top from black's 13 to 24, bottom from 12 to 1.
        let cell = |point: usize, depth: u8| -> char {
            // `point` is black's own point.
            let black = board.at(Side::Black, point);
            let white = board.at(Side::White, 25 - point);
            let (n, c) = if black > 0 {
                (black, 'X')
            } else {
                (white, 'O')
            };
            if depth < 4 {
                if n > depth { c } else { ' ' }
            } else if n > 5 {
                std::char::from_digit(u32::from(n), 16).map_or('?', |d| d.to_ascii_uppercase())
            } else if n == 5 {
                c
            } else {
                ' '
            }
        };
        let bar_cell = |side: Side, depth: u8| -> char {
            let n = board.bar(side);
            let c = if side == Side::White { 'O' } else { 'X' };
            if depth < 4 {
                if n > depth { c } else { ' ' }
            } else if n > 5 {
                std::char::from_digit(u32::from(n), 16).map_or('?', |d| d.to_ascii_uppercase())
            } else if n == 5 {
                c
            } else {
                ' '
            }
        };
        let off = |side: Side, row: u8| -> String {
            let n = board.borne_off(side);
            let c = if side == Side::White { 'O' } else { 'X' };
            (0..3u8)
                .map(|col| if n > 5 * col + row { c } else { ' ' })
                .collect()
        };
        let key = self.position_key();
        let (pid, mid) = key.split_once(':').unwrap_or((&key, ""));
        let mut lines = vec![
            format!(" Position ID: {pid}"),
            format!(" Match ID   : {mid}"),
            " +13-14-15-16-17-18------19-20-21-22-23-24-+".to_string(),
        ];
        let row = |points_left: [usize; 6], points_right: [usize; 6], depth: u8, bar: char| {
            let mut line = String::from(" |");
            for p in points_left {
                line.push(' ');
                line.push(cell(p, depth));
                line.push(' ');
            }
            line.push_str("| ");
            line.push(bar);
            line.push_str(" |");
            for p in points_right {
                line.push(' ');
                line.push(cell(p, depth));
                line.push(' ');
            }
            line.push('|');
            line
        };
        let top_left = [13, 14, 15, 16, 17, 18];
        let top_right = [19, 20, 21, 22, 23, 24];
        let bottom_left = [12, 11, 10, 9, 8, 7];
        let bottom_right = [6, 5, 4, 3, 2, 1];
        for depth in 0..5u8 {
            let off_row = if depth < 4 { depth } else { 4 };
            lines.push(format!(
                "{} {}",
                row(top_left, top_right, depth, bar_cell(Side::White, depth)),
                off(Side::White, off_row)
            ));
        }
        lines.push(" |                  |BAR|                  |".to_string());
        for depth in (0..5u8).rev() {
            lines.push(format!(
                "{} {}",
                row(
                    bottom_left,
                    bottom_right,
                    depth,
                    bar_cell(Side::Black, depth)
                ),
                off(Side::Black, depth)
            ));
        }
        lines.push(" +12-11-10--9--8--7-------6--5--4--3--2--1-+".to_string());
        let rules = self.game.rules();
        let length = if rules.length == 0 {
            "money".to_string()
        } else {
            format!("{} point match", rules.length)
        };
        let owner = state
            .cube_owner
            .map_or_else(|| "centred".to_string(), |s| format!("owned by {s}"));
        lines.push(format!(
            " O: white  score {}  pips {}  off {}",
            state.score[0],
            board.pip_count(Side::White),
            board.borne_off(Side::White)
        ));
        lines.push(format!(
            " X: black  score {}  pips {}  off {}",
            state.score[1],
            board.pip_count(Side::Black),
            board.borne_off(Side::Black)
        ));
        lines.push(format!(
            " {length}; cube {} {owner}; {}",
            state.cube,
            self.phase_text()
        ));
        format!("\n{}", lines.join("\n"))
    }
}

impl Engine for TavlaEngine {
    fn commands(&self) -> Vec<&'static str> {
        TAVLA_COMMANDS.to_vec()
    }

    fn execute(
        &mut self,
        command: &Command,
        _session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        if command.name == "tavla-level" {
            command.expect_args_between(0, 1, "[greedy]")?;
            return match command.args.first() {
                None => Ok(format!("{:?}", self.player.level()).to_ascii_lowercase()),
                Some(text) => {
                    let level: Level = text.parse().map_err(GtpError::syntax)?;
                    self.settings.level = level;
                    self.player = Player::new(level);
                    Ok(String::new())
                }
            };
        }
        let parsed = TavlaCommand::parse(command)?;
        self.run(parsed)
    }

    fn analyze_commands(&self) -> Vec<String> {
        vec![
            "string/Board/showboard".into(),
            "string/Position/get_position".into(),
            "string/Match/match_status".into(),
            "string/Legal plays/all_legal".into(),
        ]
    }

    fn describe(&self) -> String {
        format!(
            "hamle {} tavla: level {:?}, seed {}, match length {}, crawford {}",
            self.version(),
            self.settings.level,
            self.settings.seed,
            self.settings.match_length,
            self.settings.crawford
        )
    }
}

/// The dice and legal plays of `side`, which must be the side to play.
fn plays_of(game: &Game, side: Side) -> Result<(Dice, Vec<Candidate>), GtpError> {
    let (mover, dice, legal) = game.legal().map_err(refused)?;
    if mover != side {
        return Err(GtpError::other(format!(
            "it is {mover}'s turn to play, not {side}'s"
        )));
    }
    Ok((dice, legal))
}
