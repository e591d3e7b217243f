//! The Abalone engine behind `hamle abalone`.
//!
//! Commands are parsed into [`AbaloneCommand`] first (typed arguments, typed errors, see
//! [`super::command`]), then run against the game; a command that fails leaves the game
//! exactly as it was. GoGui's rules extension is answered by the core from the engine's
//! [`GoguiRules`].

use std::time::{Duration, Instant};

use crate::protocol::{
    Clock, Command, Engine, GOGUI_RULES_COMMANDS, GoguiRules, GtpError, Session,
};

use super::board::{Cell, Color};
use super::clicks::{self, Click, clicks_for, gogui_vertex};
use super::command::{ABALONE_COMMANDS, AbaloneCommand};
use super::eval::Weights;
use super::gogui;
use super::moves::Move;
use super::player::{self, Limits, SearchResult, Searcher};
use super::position::{IllegalMove, MoveList, Position, StartPosition};
use super::rules::{EndReason, EndRules, Game, GameResult, MAX_KEPT_PLIES};

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
    /// GoGui's single-point moves: a move is entered click by click, cells are GoGui
    /// vertices (see [`super::clicks`]).
    pub gogui: bool,
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
            table_bits: player::DEFAULT_TABLE_BITS,
            gogui: false,
        }
    }
}

/// Moves a side is expected still to make, for the clock: a game lasts some 30 more moves
/// of one side.
const MOVES_LEFT: u32 = 30;

fn log_search(color: Color, mv: Move, result: &SearchResult) {
    tracing::info!(
        "genmove {color}: {mv}, value {} at depth {} after {} nodes in {:.2}s",
        result.value,
        result.depth,
        result.nodes,
        result.elapsed.as_secs_f64()
    );
}

fn illegal(reason: &IllegalMove) -> GtpError {
    match reason {
        // Not the move's fault: the answer says what is wrong first (`? game too long: …`).
        IllegalMove::TooLong { .. } => GtpError::other(reason.to_string()),
        _ => GtpError::other(format!("illegal move: {reason}")),
    }
}

/// The Abalone engine behind `hamle abalone`.
pub struct AbaloneEngine {
    settings: Settings,
    game: Game,
    searcher: Searcher,
    clock: Clock,
    /// `--gogui`: the marbles clicked so far of the move being entered, in click order.
    selected: Vec<Cell>,
    /// `--gogui`: the clicks of each move of the game, so that `undo` takes back one click.
    move_clicks: Vec<Vec<Cell>>,
    /// `--gogui`: the clicks of the move the last search chose, and the (plies, hash) of
    /// the position it was chosen in; later `genmove`s answer its next clicks.
    plan: Option<((usize, u64), Vec<Cell>)>,
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
            selected: Vec::new(),
            move_clicks: Vec::new(),
            plan: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn new_game(&mut self, start: Position) {
        self.game = Game::new(start, self.settings.end_rules);
        self.clock.restart();
        self.searcher.clear();
        self.selected.clear();
        self.move_clicks.clear();
        self.plan = None;
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
                if !self.selected.is_empty() {
                    return Err(GtpError::other(format!(
                        "a move is half entered ({} selected): click where it goes, or undo the clicks",
                        self.selected_text()
                    )));
                }
                // Under GoGui the move is remembered as its clicks, for a click-wise undo.
                let clicks = self
                    .settings
                    .gogui
                    .then(|| clicks_for(self.game.position(), mv, &[]).unwrap_or_default());
                self.game
                    .play(color, mv)
                    .map_err(|reason| illegal(&reason))?;
                if let Some(clicks) = clicks {
                    self.move_clicks.push(clicks);
                }
                Ok(String::new())
            }
            AbaloneCommand::Click(color, cell) => self.click(color, cell),
            AbaloneCommand::Genmove(color) if self.settings.gogui => {
                self.next_click(color, session, true)
            }
            AbaloneCommand::RegGenmove(color) if self.settings.gogui => {
                self.next_click(color, session, false)
            }
            AbaloneCommand::Genmove(color) => self.generate(color, session, true),
            AbaloneCommand::RegGenmove(color) => self.generate(color, session, false),
            AbaloneCommand::Undo => {
                if self.selected.pop().is_some() {
                    return Ok(String::new());
                }
                if !self.game.undo() {
                    return Err(GtpError::CannotUndo);
                }
                // GoGui takes back one click: the move's marbles are selected again.
                if let Some(mut clicks) = self.move_clicks.pop() {
                    clicks.pop();
                    self.selected = clicks;
                }
                Ok(String::new())
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
            AbaloneCommand::Clock(command) => Ok(self.clock.apply(command)),
            AbaloneCommand::BoardGfx => Ok(gogui::board_gfx(
                &self.game,
                &self.selected,
                self.settings.gogui,
            )),
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

    /// The game is running and it is `color`'s turn.
    fn check_turn(&self, color: Color) -> Result<(), GtpError> {
        if self.game.is_over() {
            return Err(illegal(&IllegalMove::GameOver));
        }
        let to_move = self.game.to_move();
        if color != to_move {
            return Err(illegal(&IllegalMove::NotYourTurn { to_move }));
        }
        Ok(())
    }

    /// The limits of a move's search: the node budget, the clock or `--movetime`, and the
    /// default budget when none of them limits it.
    fn search_limits(&self, color: Color) -> Limits {
        let mut limits = self.limits(color);
        if limits.nodes == 0 && limits.time.is_none() {
            limits.nodes = DEFAULT_NODES;
        }
        limits
    }

    fn generate(
        &mut self,
        color: Color,
        session: &Session<'_>,
        play: bool,
    ) -> Result<String, GtpError> {
        self.check_turn(color)?;
        if play && self.game.plies() >= MAX_KEPT_PLIES {
            // Refused before searching: the move could not be kept.
            return Err(illegal(&IllegalMove::TooLong {
                limit: MAX_KEPT_PLIES,
            }));
        }
        let start = Instant::now();
        let limits = self.search_limits(color);
        let stop = || session.interrupted();
        let result = self.searcher.search(&self.game, limits, &stop);
        if play {
            // The move is on `color`'s clock (what is left to do takes microseconds): a
            // controller that sends no `time_left` leaves the account to the engine.
            self.clock.charge(color.index(), start.elapsed());
        }
        let Some(mv) = result.best else {
            return Err(GtpError::other("no legal move"));
        };
        log_search(color, mv, &result);
        if play {
            self.game.play(color, mv).map_err(|reason| {
                GtpError::other(format!(
                    "internal error: the search chose an illegal move {mv} ({reason})"
                ))
            })?;
        }
        Ok(mv.to_string())
    }

    /// `--gogui`: one click of the move being entered (see [`super::clicks`]).
    fn click(&mut self, color: Color, cell: Cell) -> Result<String, GtpError> {
        self.check_turn(color)?;
        match clicks::click(self.game.position(), &self.selected, cell) {
            Err(error) => Err(GtpError::other(format!("illegal move: {error}"))),
            Ok(Click::Selected(cell)) => {
                self.selected.push(cell);
                Ok(String::new())
            }
            Ok(Click::Completed(mv)) => {
                self.game
                    .play(color, mv)
                    .map_err(|reason| illegal(&reason))?;
                let mut clicks = std::mem::take(&mut self.selected);
                clicks.push(cell);
                self.move_clicks.push(clicks);
                Ok(String::new())
            }
        }
    }

    /// `--gogui`'s `genmove`: the next click of the best move, searched at the move's
    /// first click (among the moves the clicks so far can still become) and then
    /// answered click by click.
    fn next_click(
        &mut self,
        color: Color,
        session: &Session<'_>,
        play: bool,
    ) -> Result<String, GtpError> {
        self.check_turn(color)?;
        let here = (self.game.plies(), self.game.position().hash());
        let planned = self.plan.as_ref().and_then(|(at, clicks)| {
            (*at == here
                && clicks.len() > self.selected.len()
                && clicks.starts_with(&self.selected))
            .then(|| clicks[self.selected.len()])
        });
        let next = match planned {
            Some(next) => next,
            None => {
                let position = *self.game.position();
                let selected = self.selected.clone();
                let limits = self.search_limits(color);
                let stop = || session.interrupted();
                let allowed = |mv| clicks_for(&position, mv, &selected).is_some();
                let result = self
                    .searcher
                    .search_among(&self.game, limits, &stop, &allowed);
                let mv = result
                    .best
                    .ok_or_else(|| GtpError::other("no legal move"))?;
                log_search(color, mv, &result);
                let clicks = clicks_for(&position, mv, &selected).ok_or_else(|| {
                    GtpError::other(format!(
                        "internal error: the search chose {mv}, which the clicks {} cannot become",
                        self.selected_text()
                    ))
                })?;
                let next = clicks[selected.len()];
                self.plan = Some((here, clicks));
                next
            }
        };
        if play {
            self.click(color, next)?;
        }
        Ok(gogui_vertex(next))
    }

    /// `--gogui`'s legal moves: the cells whose click is accepted next, as GoGui vertices.
    fn legal_clicks(&self) -> String {
        if self.game.is_over() {
            return String::new();
        }
        clicks::next_clicks(self.game.position(), &self.selected)
            .into_iter()
            .map(gogui_vertex)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The selected marbles in our notation.
    fn selected_text(&self) -> String {
        self.selected
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
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
        if !self.selected.is_empty() {
            text.push_str(&format!(
                "\nSelected (move half entered): {}",
                self.selected_text()
            ));
        }
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
        let parsed = AbaloneCommand::parse(command, self.settings.gogui)?;
        self.run(parsed, session)
    }

    fn gogui_rules(&self) -> Option<&dyn GoguiRules> {
        Some(self)
    }

    fn analyze_commands(&self) -> Vec<String> {
        vec![
            "string/Final Score/final_score".into(),
            "string/Position/abalone-position".into(),
            "string/Marbles Off/abalone-marbles_off".into(),
            "string/Legal Moves/gogui-rules_legal_moves".into(),
        ]
    }

    fn takes_random_seed(&self) -> bool {
        true
    }

    /// The evaluation's noise comes from the seed; the table and move order learnt so far
    /// are forgotten, as in a fresh process.
    fn set_random_seed(&mut self, seed: u64) {
        self.settings.seed = seed;
        self.searcher.set_seed(seed);
        self.searcher.clear();
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

/// GoGui's view of the game: the hexagon inside a 9×9 rhombus; under `--gogui` the legal
/// moves are the cells that may be clicked next.
impl GoguiRules for AbaloneEngine {
    fn game_id(&self) -> String {
        "Abalone".into()
    }

    fn board_size(&self) -> String {
        "9 9 hex".into()
    }

    fn board(&self) -> String {
        gogui::board(&self.game)
    }

    fn legal_moves(&self) -> String {
        if self.settings.gogui {
            self.legal_clicks()
        } else {
            self.legal_for(self.game.to_move())
        }
    }

    fn side_to_move(&self) -> String {
        self.game.to_move().to_string()
    }

    fn final_result(&self) -> Option<String> {
        self.game.result().map(|result| result.to_string())
    }
}
