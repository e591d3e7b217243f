//! The Abalone engine behind `hamle abalone`.
//!
//! Commands are parsed into [`AbaloneCommand`] first (typed arguments, typed errors), then
//! run against the game; a command that fails leaves the game exactly as it was.

use std::time::Duration;

use crate::protocol::{
    CLOCK_COMMANDS, Clock, ClockCommand, Command, Engine, GOGUI_RULES_COMMANDS, GtpError, Session,
};

use super::board::{Cell, Color};
use super::eval::Weights;
use super::moves::Move;
use super::position::{IllegalMove, MoveList, Position, StartPosition};
use super::rules::{EndReason, EndRules, Game, GameResult};
use super::search::{self, Limits, Searcher};

/// Search nodes per move when the command line does not say.
pub const DEFAULT_NODES: u64 = 300_000;

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    /// Search nodes per move (0: no node limit; then the clock or `move_time` decides).
    pub nodes: u64,
    /// Wall time per move when no clock is set.
    pub move_time: Option<Duration>,
    pub start: StartPosition,
    pub end_rules: EndRules,
    pub weights: Weights,
    /// Transposition table of 2^bits entries.
    pub table_bits: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seed: 0,
            nodes: DEFAULT_NODES,
            move_time: None,
            start: StartPosition::Standard,
            end_rules: EndRules::default(),
            weights: Weights::default(),
            table_bits: search::DEFAULT_TABLE_BITS,
        }
    }
}

/// Moves a side is expected still to make, for the clock: a game lasts some 30 more moves
/// of one side.
const MOVES_LEFT: u32 = 30;

/// An Abalone command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum AbaloneCommand {
    Boardsize(u64),
    ClearBoard,
    Komi,
    NewGame(Option<StartPosition>),
    Play(Color, Move),
    Genmove(Color),
    RegGenmove(Color),
    Undo,
    Showboard,
    AllLegal(Option<Color>),
    IsLegal(Color, Move),
    MarblesOff,
    FinalScore,
    GetPosition,
    SetPosition(Box<Position>),
    /// `time_settings`, `time_left` or `kgs-time_settings`.
    Clock(ClockCommand),
    RulesGameId,
    RulesBoardSize,
    RulesBoard,
    RulesLegalMoves,
    RulesSideToMove,
    RulesFinalResult,
}

/// The Abalone commands in `list_commands` order.
pub const ABALONE_COMMANDS: [&str; 18] = [
    "boardsize",
    "clear_board",
    "komi",
    "abalone-new_game",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "all_legal",
    "is_legal",
    "abalone-marbles_off",
    "final_score",
    "abalone-position",
    "abalone-set_position",
    "time_settings",
    "time_left",
    "kgs-time_settings",
];

const COLOR: &str = "a color (b, black, w or white)";

fn color(command: &Command, index: usize) -> Result<Color, GtpError> {
    command.parse_arg(index, COLOR)
}

fn move_arg(command: &Command, index: usize) -> Result<Move, GtpError> {
    command
        .arg(index)?
        .parse::<Move>()
        .map_err(|error| GtpError::syntax(error.to_string()))
}

fn no_args(command: &Command, parsed: AbaloneCommand) -> Result<AbaloneCommand, GtpError> {
    command.expect_args(0, "").map(|()| parsed)
}

impl AbaloneCommand {
    pub fn parse(command: &Command) -> Result<AbaloneCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "boardsize" => {
                c.expect_args(1, "<size>")?;
                AbaloneCommand::Boardsize(c.parse_arg(0, "a board size")?)
            }
            "clear_board" => no_args(c, AbaloneCommand::ClearBoard)?,
            // Controllers send a komi for Go; Abalone has none, so it is accepted and ignored.
            "komi" => {
                c.expect_args(1, "<komi>")?;
                let _: f64 = c.parse_arg(0, "a number")?;
                AbaloneCommand::Komi
            }
            "abalone-new_game" => {
                c.expect_args_between(0, 1, "[standard|belgian-daisy|german-daisy]")?;
                match c.args.first() {
                    None => AbaloneCommand::NewGame(None),
                    Some(name) => {
                        AbaloneCommand::NewGame(Some(name.parse().map_err(GtpError::syntax)?))
                    }
                }
            }
            "play" => {
                c.expect_args(2, "<color> <move>")?;
                AbaloneCommand::Play(color(c, 0)?, move_arg(c, 1)?)
            }
            "genmove" => {
                c.expect_args(1, "<color>")?;
                AbaloneCommand::Genmove(color(c, 0)?)
            }
            "reg_genmove" => {
                c.expect_args(1, "<color>")?;
                AbaloneCommand::RegGenmove(color(c, 0)?)
            }
            "undo" => no_args(c, AbaloneCommand::Undo)?,
            "showboard" => no_args(c, AbaloneCommand::Showboard)?,
            "all_legal" => {
                c.expect_args_between(0, 1, "[<color>]")?;
                AbaloneCommand::AllLegal(if c.args.is_empty() {
                    None
                } else {
                    Some(color(c, 0)?)
                })
            }
            "is_legal" => {
                c.expect_args(2, "<color> <move>")?;
                AbaloneCommand::IsLegal(color(c, 0)?, move_arg(c, 1)?)
            }
            "abalone-marbles_off" => no_args(c, AbaloneCommand::MarblesOff)?,
            "final_score" => no_args(c, AbaloneCommand::FinalScore)?,
            "abalone-position" => no_args(c, AbaloneCommand::GetPosition)?,
            "abalone-set_position" => {
                if c.args.is_empty() {
                    return Err(c.usage_error("<rows> <b|w> <black off> <white off>"));
                }
                let position = c
                    .args
                    .join(" ")
                    .parse::<Position>()
                    .map_err(|error| GtpError::syntax(format!("bad position: {error}")))?;
                AbaloneCommand::SetPosition(Box::new(position))
            }
            name if CLOCK_COMMANDS.contains(&name) => {
                AbaloneCommand::Clock(ClockCommand::parse(c, COLOR, |word| {
                    word.parse::<Color>().ok().map(Color::index)
                })?)
            }
            "gogui-rules_game_id" => no_args(c, AbaloneCommand::RulesGameId)?,
            "gogui-rules_board_size" => no_args(c, AbaloneCommand::RulesBoardSize)?,
            "gogui-rules_board" => no_args(c, AbaloneCommand::RulesBoard)?,
            "gogui-rules_legal_moves" => no_args(c, AbaloneCommand::RulesLegalMoves)?,
            "gogui-rules_side_to_move" => no_args(c, AbaloneCommand::RulesSideToMove)?,
            "gogui-rules_final_result" => no_args(c, AbaloneCommand::RulesFinalResult)?,
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}

fn illegal(reason: &IllegalMove) -> GtpError {
    GtpError::other(format!("illegal move: {reason}"))
}

/// The Abalone engine behind `hamle abalone`.
pub struct AbaloneEngine {
    settings: Settings,
    game: Game,
    searcher: Searcher,
    clock: Clock,
}

impl AbaloneEngine {
    pub fn new(settings: Settings) -> AbaloneEngine {
        let game = Game::new(settings.start.position(), settings.end_rules);
        let searcher = Searcher::new(settings.weights, settings.seed, settings.table_bits);
        AbaloneEngine {
            settings,
            game,
            searcher,
            clock: Clock::default(),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn new_game(&mut self, start: Position) {
        self.game = Game::new(start, self.settings.end_rules);
        self.searcher.clear();
    }

    fn run(&mut self, command: AbaloneCommand, session: &Session<'_>) -> Result<String, GtpError> {
        match command {
            AbaloneCommand::Boardsize(size) => {
                // GoGui and match runners send boardsize before every game: 9 (the cells of
                // the long diagonal) starts a new game, any other size cannot be played.
                if size != 9 {
                    return Err(GtpError::UnacceptableSize);
                }
                self.new_game(self.settings.start.position());
                Ok(String::new())
            }
            AbaloneCommand::ClearBoard => {
                self.new_game(self.settings.start.position());
                Ok(String::new())
            }
            AbaloneCommand::Komi => Ok(String::new()),
            AbaloneCommand::NewGame(start) => {
                if let Some(start) = start {
                    self.settings.start = start;
                }
                self.new_game(self.settings.start.position());
                Ok(self.settings.start.to_string())
            }
            AbaloneCommand::Play(color, mv) => {
                self.game
                    .play(color, mv)
                    .map_err(|reason| illegal(&reason))?;
                Ok(String::new())
            }
            AbaloneCommand::Genmove(color) => self.generate(color, session, true),
            AbaloneCommand::RegGenmove(color) => self.generate(color, session, false),
            AbaloneCommand::Undo => {
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            AbaloneCommand::Showboard => Ok(self.showboard()),
            AbaloneCommand::AllLegal(color) => {
                Ok(self.legal_for(color.unwrap_or(self.game.to_move())))
            }
            AbaloneCommand::IsLegal(color, mv) => {
                let legal = !self.game.is_over()
                    && color == self.game.to_move()
                    && self.game.position().check(mv).is_ok();
                Ok(if legal { "1" } else { "0" }.into())
            }
            AbaloneCommand::MarblesOff => {
                let position = self.game.position();
                Ok(format!(
                    "black {} white {}",
                    position.marbles_off(Color::Black),
                    position.marbles_off(Color::White)
                ))
            }
            AbaloneCommand::FinalScore => Ok(self.standing().short()),
            AbaloneCommand::GetPosition => Ok(self.game.position().to_string()),
            AbaloneCommand::SetPosition(position) => {
                self.new_game(*position);
                Ok(String::new())
            }
            AbaloneCommand::Clock(command) => {
                self.clock.apply(command);
                Ok(String::new())
            }
            AbaloneCommand::RulesGameId => Ok("Abalone".into()),
            AbaloneCommand::RulesBoardSize => Ok("9 9 hex".into()),
            AbaloneCommand::RulesBoard => Ok(self.rules_board()),
            AbaloneCommand::RulesLegalMoves => Ok(self.legal_for(self.game.to_move())),
            AbaloneCommand::RulesSideToMove => Ok(self.game.to_move().to_string()),
            AbaloneCommand::RulesFinalResult => Ok(self
                .game
                .result()
                .map_or("unknown".into(), |result| result.to_string())),
        }
    }

    /// The result when the game is over, else the adjudication of the position as it stands.
    fn standing(&self) -> GameResult {
        self.game
            .result()
            .unwrap_or_else(|| GameResult::adjudicated(self.game.position(), EndReason::MoveCap))
    }

    /// The legal moves of `color`, sorted; empty when it is not `color`'s turn or the game
    /// is over.
    fn legal_for(&self, color: Color) -> String {
        if color != self.game.to_move() || self.game.is_over() {
            return String::new();
        }
        let mut list = MoveList::new();
        self.game.position().legal_moves(&mut list);
        let mut moves: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        moves.sort();
        moves.join(" ")
    }

    fn limits(&self, color: Color) -> Limits {
        // The clock when one is set, else the fixed time a move from the command line.
        let time = self
            .clock
            .allotment(color.index(), MOVES_LEFT)
            .or(self.settings.move_time);
        let nodes = self.settings.nodes;
        Limits {
            nodes,
            time,
            depth: 63,
        }
    }

    fn generate(
        &mut self,
        color: Color,
        session: &Session<'_>,
        play: bool,
    ) -> Result<String, GtpError> {
        if self.game.is_over() {
            return Err(illegal(&IllegalMove::GameOver));
        }
        let to_move = self.game.to_move();
        if color != to_move {
            return Err(illegal(&IllegalMove::NotYourTurn { to_move }));
        }
        let mut limits = self.limits(color);
        if limits.nodes == 0 && limits.time.is_none() {
            limits.nodes = DEFAULT_NODES;
        }
        let stop = || session.interrupted();
        let result = self.searcher.search(&self.game, limits, &stop);
        let Some(mv) = result.best else {
            return Err(GtpError::other("no legal move"));
        };
        tracing::info!(
            "genmove {color}: {mv}, value {} at depth {} after {} nodes in {:.2}s",
            result.value,
            result.depth,
            result.nodes,
            result.elapsed.as_secs_f64()
        );
        if play {
            self.game.play(color, mv).map_err(|reason| {
                GtpError::other(format!(
                    "internal error: the search chose an illegal move {mv} ({reason})"
                ))
            })?;
        }
        Ok(mv.to_string())
    }

    /// GoGui's hex board: the 9×9 rhombus of rows (I at the top) and diagonals, `X` black,
    /// `O` white, `.` empty, `?` outside the hexagon (GoGui draws no cell there).
    fn rules_board(&self) -> String {
        let position = self.game.position();
        let rows: Vec<String> = (0..9i8)
            .rev()
            .map(|row| {
                let glyphs: Vec<&str> = (0..9i8)
                    .map(|col| match Cell::at(row, col) {
                        // GoGui draws no hexagon for a removed cell (`?`), so the 9×9 rhombus
                        // shows as the board's hexagon.
                        None => "?",
                        Some(cell) => match position.color_at(cell) {
                            Some(Color::Black) => "X",
                            Some(Color::White) => "O",
                            None => ".",
                        },
                    })
                    .collect();
                glyphs.join(" ")
            })
            .collect();
        format!("\n{}", rows.join("\n"))
    }

    /// The hexagon as players draw it: row I at the top, each row indented by its distance
    /// from row E, diagonal numbers under row A and to the right of rows D to A.
    fn showboard(&self) -> String {
        let position = self.game.position();
        let mut text = String::from("\n");
        for row in (0..9i8).rev() {
            let indent = (row - 4).unsigned_abs() as usize;
            let mut line = format!("{}{} ", " ".repeat(indent), (b'A' + row as u8) as char);
            let cells: Vec<&str> = (0..9i8)
                .filter_map(|col| Cell::at(row, col))
                .map(|cell| match position.color_at(cell) {
                    Some(Color::Black) => "X",
                    Some(Color::White) => "O",
                    None => ".",
                })
                .collect();
            line.push_str(&cells.join(" "));
            if row < 4 {
                line.push_str(&format!(" {}", row + 6));
            }
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str("       1 2 3 4 5\n");
        let state = match self.game.result() {
            Some(result) => result.to_string(),
            None => format!("{} to move", self.game.to_move()),
        };
        text.push_str(&format!(
            "Black (X) marbles off {}, White (O) marbles off {}; ply {}; {state}",
            position.marbles_off(Color::Black),
            position.marbles_off(Color::White),
            self.game.plies()
        ));
        text
    }
}

impl Engine for AbaloneEngine {
    fn commands(&self) -> Vec<&'static str> {
        [&ABALONE_COMMANDS[..], &GOGUI_RULES_COMMANDS[..]].concat()
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        let parsed = AbaloneCommand::parse(command)?;
        self.run(parsed, session)
    }

    fn analyze_commands(&self) -> Vec<String> {
        vec![
            "string/Final Score/final_score".into(),
            "string/Position/abalone-position".into(),
            "string/Marbles Off/abalone-marbles_off".into(),
            "string/Legal Moves/gogui-rules_legal_moves".into(),
        ]
    }

    fn describe(&self) -> String {
        let rules = self.settings.end_rules;
        format!(
            "hamle {} abalone: start {}, seed {}, nodes {}, max plies {}, repetition draw {}, weights {}",
            self.version(),
            self.settings.start,
            self.settings.seed,
            self.settings.nodes,
            rules.max_plies,
            rules.repetition_draw,
            self.settings.weights
        )
    }
}
