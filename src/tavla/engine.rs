//! `hamle tavla`: the Tavla engine on the shared GTP core.
//!
//! Commands are parsed into [`TavlaCommand`] first (typed arguments, typed errors; see
//! `command.rs`), then run against the match; a command that fails leaves the match, the
//! roller and the record as they were. The texts about the match come from `report.rs`,
//! positions set up from outside from `setup.rs`.

use super::board::Side;
use super::command::{TAVLA_COMMANDS, TavlaCommand};
use super::dice::{Dice, Roller};
use super::fibs::{format_fibs, parse_fibs};
use super::game::{Game, MatchRules, Phase};
use super::mat::write_mat;
use super::moves::Candidate;
use super::notation::{format_play, parse_play};
use super::player::{Level, Player};
use super::report;
use super::setup::{game_from_fibs, game_from_ids};
use super::timing::LevelCosts;
use crate::protocol::{CLOCK_COMMANDS, Clock, Command, Engine, GtpError, Session};
use std::time::Instant;

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

/// The engine behind `hamle tavla`.
pub struct TavlaEngine {
    settings: Settings,
    roller: Roller,
    game: Game,
    player: Player,
    /// The match was set up from a position: its record does not start at an opening roll.
    set_up: bool,
    /// Both sides' clocks (seat 0 white); unlimited until a clock command sets one.
    clock: Clock,
    /// What checker plays and cube decisions took at each net level, for the clock.
    play_costs: LevelCosts,
    cube_costs: LevelCosts,
    /// The level of the last decision generated.
    last_level: Option<Level>,
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
            clock: Clock::default(),
            play_costs: LevelCosts::default(),
            cube_costs: LevelCosts::default(),
            last_level: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The level the last generated play or cube decision was made at (under a clock, the
    /// deepest its allotment allowed); `None` before the first.
    pub fn last_level(&self) -> Option<Level> {
        self.last_level
    }

    /// `POSITION_ID:MATCH_ID`, gnubg's pair.
    pub fn position_key(&self) -> String {
        report::position_key(&self.game)
    }

    /// The match so far as a Jellyfish `.mat` file.
    pub fn mat_record(&self) -> Result<String, String> {
        if self.set_up {
            return Err("the match was set up from a position: no record from its start".into());
        }
        write_mat(&self.game, ["White", "Black"])
    }

    /// Runs one parsed command.
    ///
    /// One arm a command, only dispatching: the commands that do more than one call have
    /// their own method below.
    pub fn run(&mut self, command: TavlaCommand) -> Result<String, GtpError> {
        match command {
            TavlaCommand::NewMatch(length) => {
                self.new_match(length);
                Ok(String::new())
            }
            TavlaCommand::NewGame(dice) => self.new_game(dice),
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
                self.reseed(seed);
                Ok(String::new())
            }
            TavlaCommand::Roll(side) => self.roll(side),
            TavlaCommand::SetDice(side, dice) => {
                let side = self.roller_side(side)?;
                self.game.roll(side, dice).map_err(refused)?;
                Ok(String::new())
            }
            TavlaCommand::Play(side, dice, text) => self.play(side, dice, &text),
            TavlaCommand::Genmove(side) => self.genmove(side, false),
            TavlaCommand::GenmoveAnalyze(side) => self.genmove(side, true),
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
            TavlaCommand::Showboard => Ok(report::showboard(&self.game)),
            TavlaCommand::AllLegal => self.all_legal(),
            TavlaCommand::SetPosition(position, match_id) => {
                self.game = game_from_ids(&self.game, &position, match_id.as_deref())?;
                self.set_up = true;
                Ok(String::new())
            }
            TavlaCommand::GetPosition => Ok(self.position_key()),
            TavlaCommand::FibsBoard(you) => Ok(format_fibs(&self.game, you)),
            TavlaCommand::SetFibsBoard(text, you) => {
                let fibs = parse_fibs(&text, you)
                    .map_err(|e| GtpError::syntax(format!("bad FIBS board: {e}")))?;
                self.game = game_from_fibs(&self.game, &fibs)?;
                self.set_up = true;
                Ok(String::new())
            }
            TavlaCommand::FinalResult => match self.game.phase() {
                Phase::Over(end) => Ok(report::result_text(&self.game, end)),
                _ => Err(GtpError::CannotScore),
            },
            TavlaCommand::MatchStatus => Ok(report::match_status(&self.game)),
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
                crate::files::write_atomic(std::path::Path::new(&path), text.as_bytes()).map_err(
                    |e| {
                        // Any real path whole (PATH_MAX), a runaway argument cut.
                        let shown = crate::text::shorten_to(&path, 4096);
                        GtpError::other(format!("cannot write {shown}: {}", e.problem))
                    },
                )?;
                Ok(String::new())
            }
            TavlaCommand::Clock(command) => Ok(self.clock.apply(command)),
        }
    }

    /// The dice start over from `seed` (`seed`, `set_random_seed`); the player keeps
    /// nothing between plays but the match rules, which `new_match` sets.
    fn reseed(&mut self, seed: u64) {
        self.settings.seed = seed;
        self.roller = Roller::new(seed);
    }

    /// A new match of `length` points (`u32::MAX`: the current length) under the current
    /// Crawford setting; the record starts over.
    fn new_match(&mut self, length: u32) {
        if length != u32::MAX {
            self.settings.match_length = length;
        }
        self.game = Game::new(MatchRules {
            length: self.settings.match_length,
            crawford: self.settings.crawford,
            cube: true,
        });
        self.set_up = false;
        // A match is what a clock is set for: both accounts start afresh.
        self.clock.restart();
    }

    /// The next game with the opening roll given or thrown; answers who moves first with
    /// which roll. The roller advances only when the game starts.
    fn new_game(&mut self, dice: Option<(u8, u8)>) -> Result<String, GtpError> {
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

    /// Throws the dice for the side to roll; the roller advances only when the roll stands.
    fn roll(&mut self, side: Option<Side>) -> Result<String, GtpError> {
        let side = self.roller_side(side)?;
        let mut roller = self.roller.clone();
        let dice = roller.roll();
        self.game.roll(side, dice).map_err(refused)?;
        self.roller = roller;
        Ok(dice.to_string())
    }

    /// The legal plays of the side to play, one a line.
    fn all_legal(&self) -> Result<String, GtpError> {
        let (side, _, legal) = self.game.legal().map_err(refused)?;
        let board = *self.game.board();
        Ok(legal
            .iter()
            .map(|c| format_play(&board, side, &c.play))
            .collect::<Vec<_>>()
            .join("\n"))
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
        let rolled = match (self.game.phase(), dice) {
            (Phase::ToRoll(s), Some(d)) if s == side => {
                self.game.roll(side, d).map_err(refused)?;
                true
            }
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
            _ => false,
        };
        let played = self.play_rolled(side, text);
        // A refused play leaves the game as it was, roll included. Taken back rather than
        // tried on a copy: a copy of a long session's record on every play made a stream of
        // plays quadratic.
        if played.is_err() && rolled {
            let _ = self.game.undo();
        }
        played.map(|()| String::new())
    }

    /// `side` plays `text` with the dice already rolled.
    fn play_rolled(&mut self, side: Side, text: &str) -> Result<(), GtpError> {
        let (_, legal) = plays_of(&self.game, side)?;
        let board = *self.game.board();
        let play = parse_play(text, &board, side, &legal).map_err(|e| {
            tracing::warn!("play {side} {text}: {e}");
            GtpError::other(format!("illegal move: {e}"))
        })?;
        self.game.play(side, play).map_err(refused)
    }

    /// `genmove` (`analyze`: `genmove_analyze`, whose answer adds an `equity` line).
    fn genmove(&mut self, side: Option<Side>, analyze: bool) -> Result<String, GtpError> {
        let side = self.actor(side)?;
        let mut roller = self.roller.clone();
        let rolled = match self.game.phase() {
            Phase::ToRoll(s) if s == side => {
                self.game.roll(side, roller.roll()).map_err(refused)?;
                true
            }
            Phase::Doubled { by } if by.other() == side => {
                return Err(GtpError::other(format!(
                    "{side} must answer the double first (take, drop or genmove_cube)"
                )));
            }
            _ => false,
        };
        let chosen = self.timed(side, false, |engine| engine.choose_and_play(side, analyze));
        match chosen {
            // The roll is kept only with the play it was for.
            Ok(_) => self.roller = roller,
            Err(_) if rolled => {
                let _ = self.game.undo();
            }
            Err(_) => {}
        }
        chosen
    }

    /// The player's choice for `side` with the dice already rolled, played; `analyze` adds
    /// the line `equity E` (the mover's cubeless equity after the play, three decimals)
    /// where the level's search computed one.
    fn choose_and_play(&mut self, side: Side, analyze: bool) -> Result<String, GtpError> {
        let (dice, _) = plays_of(&self.game, side)?;
        let board = *self.game.board();
        let (play, equity) = if analyze {
            self.player.choose_judged(&board, side, dice)
        } else {
            (self.player.choose_play(&board, side, dice), None)
        };
        self.game.play(side, play).map_err(|e| {
            GtpError::other(format!(
                "internal error: the player chose an illegal play ({e})"
            ))
        })?;
        let answer = format!("{dice} {}", format_play(&board, side, &play));
        Ok(match equity {
            Some(equity) => format!("{answer}\nequity {equity:.3}"),
            None => answer,
        })
    }

    fn genmove_cube(&mut self, side: Option<Side>) -> Result<String, GtpError> {
        let side = self.actor(side)?;
        self.timed(side, true, |engine| engine.decide_cube(side))
    }

    /// `side`'s cube decision, made.
    fn decide_cube(&mut self, side: Side) -> Result<String, GtpError> {
        let state = *self.game.state();
        self.player.set_match_rules(self.game.rules());
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
}

impl TavlaEngine {
    /// Makes `side`'s decision (`cube`: a cube decision) with `decide` at the level the
    /// clock allows (without a clock, the configured level), measures it for the next
    /// choice and charges it to `side`'s clock.
    fn timed(
        &mut self,
        side: Side,
        cube: bool,
        decide: impl FnOnce(&mut TavlaEngine) -> Result<String, GtpError>,
    ) -> Result<String, GtpError> {
        let start = Instant::now();
        let allotment = self.clock.allotment(side.index(), self.moves_left(side));
        let costs = if cube {
            &self.cube_costs
        } else {
            &self.play_costs
        };
        let level = costs.choose(self.settings.level, allotment);
        self.player.set_level(level);
        let evaluations = self.player.evaluations();
        let decided = decide(self);
        self.player.set_level(self.settings.level);
        let took = start.elapsed();
        if let Some(allotment) = allotment {
            tracing::info!(
                "{side} {}: level {level} in {:.3} s of {:.3} s allotted",
                if cube { "cube" } else { "play" },
                took.as_secs_f64(),
                allotment.as_secs_f64()
            );
        }
        if decided.is_ok() {
            let costs = if cube {
                &mut self.cube_costs
            } else {
                &mut self.play_costs
            };
            // A decision that evaluated nothing (a forced play, a cube that cannot turn)
            // says nothing of what the level costs.
            if self.player.evaluations() > evaluations {
                costs.record(level, took);
            }
            self.clock.charge(side.index(), took);
            self.last_level = Some(level);
        }
        decided
    }

    /// Decisions `side` still has to make this game, for the clock: its rolls left at about
    /// 8 pips a roll, one more for the cube.
    fn moves_left(&self, side: Side) -> u32 {
        self.game.board().pip_count(side).div_ceil(8) + 1
    }
}

impl Engine for TavlaEngine {
    fn commands(&self) -> Vec<&'static str> {
        TAVLA_COMMANDS
            .iter()
            .chain(&CLOCK_COMMANDS)
            .copied()
            .collect()
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

    fn takes_random_seed(&self) -> bool {
        true
    }

    fn set_random_seed(&mut self, seed: u64) {
        self.reseed(seed);
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
