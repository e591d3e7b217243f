//! The Go GTP engine: the protocol adapter that runs every Go command, from
//! `boardsize` to `kata-get-rules`, against the game.
//!
//! Commands are parsed into [`GoCommand`] first (`command.rs`: typed arguments, typed
//! errors), then run here against the game; a command that fails leaves the game exactly
//! as it was. The searches are asked for through `search.rs`, the dead-stone judgement
//! comes from `status.rs`.

use std::path::Path;
use std::time::{Duration, Instant};

use super::thinking::{position_request, run_search};
use crate::go::analysis::AnalyzeRequest;
use crate::go::board::Point;
use crate::go::game::{Game, HandicapError, IllegalMove};
use crate::go::player::{
    self, Decision, DynamicKomi, KeptTrees, NetSearch, ResignPolicy, SearchLimits, SearchRequest,
    SearchResult,
};
use crate::go::rules::{RuleSet, Rules};
use crate::go::sgf::{self, GoRecord};
use crate::go::status::Judgement;
use crate::go::{Color, MoveVertex, Vertex};
use crate::protocol::{Clock, Command, Engine, GtpError, Session, Signals};

pub use crate::go::command::{GO_COMMANDS, GoCommand};
pub use crate::go::status::StoneStatus;

/// Playouts per move when the command line does not say.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub rules: RuleSet,
    pub seed: u64,
    /// Playouts per move; 0 leaves the budget to the clock alone.
    pub playouts: u64,
    pub threads: usize,
    /// Seconds per move when no game clock is set (the first of this and the playouts
    /// ends the search).
    pub time_per_move: Option<f64>,
    /// Start with GoGui's live graphics on.
    pub live_gfx: bool,
    /// Keep the search tree from one move to the next (`--reuse on|off`).
    pub reuse: bool,
    /// Start with pondering on (`--ponder`; needs `reuse`).
    pub ponder: bool,
    /// Playouts one ponder may spend at most: an opponent may leave the engine waiting
    /// for hours, and the tree's counts need not grow without end.
    pub ponder_limit: u64,
    /// Search handicap games with a dynamic komi (`--dynkomi on|off`, see
    /// [`DynamicKomi`]); even games are searched with the real komi either way.
    pub dynamic_komi: bool,
    /// Adapt each move's playouts to the move (`--budget adaptive|fixed`): stop once no
    /// playout left can change the move; at a playout budget on one thread the same moves.
    pub adaptive_budget: bool,
    /// The network the searches consult (`--net`), and how; `None`: the classical engine.
    pub net: Option<NetSearch>,
}

/// The longest time a move may be given by `time_per_move`: a day, as no game clock gives
/// a move more.
pub const MAX_SECONDS_PER_MOVE: f64 = 86_400.0;

/// `seconds` as the time a move may take: none for zero, negative or NaN seconds (as if no
/// time were set), at most [`MAX_SECONDS_PER_MOVE`]. The command line refuses such values;
/// this keeps a [`Settings`] built in code from reaching a panic in the conversion.
fn move_time(seconds: f64) -> Option<Duration> {
    if seconds.is_nan() || seconds <= 0.0 {
        return None;
    }
    Duration::try_from_secs_f64(seconds.min(MAX_SECONDS_PER_MOVE)).ok()
}

/// Playouts a ponder spends at most by default: minutes of thinking on any board.
pub const DEFAULT_PONDER_LIMIT: u64 = 10_000_000;

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rules: RuleSet::default(),
            seed: 0,
            playouts: DEFAULT_PLAYOUTS,
            threads: 1,
            time_per_move: None,
            live_gfx: false,
            reuse: true,
            adaptive_budget: true,
            ponder: false,
            ponder_limit: DEFAULT_PONDER_LIMIT,
            dynamic_komi: true,
            net: None,
        }
    }
}

/// The Go engine behind `hamle go`.
pub struct GoEngine {
    settings: Settings,
    game: Game,
    clock: Clock,
    judgement: Option<Judgement>,
    /// Searches run so far: mixed into the seed so that each move has its own stream of
    /// random numbers while the whole session stays reproducible.
    searches: u64,
    /// GoGui's live graphics during genmove (`hamle-live_gfx on`).
    live_gfx: bool,
    /// The last search's trees and the moves played since (empty with reuse off).
    kept: KeptTrees,
    /// Think on the opponent's time (`hamle-ponder on`).
    ponder: bool,
    /// The last command was a genmove that played a move: the next wait is the
    /// opponent's time.
    ponder_ready: bool,
    /// Visits the last search inherited from the one before.
    reused: u64,
    /// The game's dynamic komi, learnt from its searches (with `--dynkomi on`).
    dynkomi: DynamicKomi,
}

impl GoEngine {
    pub fn new(settings: Settings) -> GoEngine {
        let rules = Rules::from(settings.rules);
        let mut game = match Game::new(19, rules) {
            Ok(game) => game,
            Err(_) => unreachable!("19x19 is a valid board"),
        };
        game.set_komi(rules.default_komi);
        if settings.ponder && !settings.reuse {
            tracing::warn!("pondering keeps its work in the tree: --ponder needs --reuse on");
        }
        GoEngine {
            live_gfx: settings.live_gfx,
            ponder: settings.ponder,
            dynkomi: DynamicKomi::new(settings.dynamic_komi),
            settings,
            game,
            clock: Clock::default(),
            judgement: None,
            searches: 0,
            kept: KeptTrees::new(),
            ponder_ready: false,
            reused: 0,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Visits the last search (genmove, analysis or ponder) started with, kept from the
    /// searches before it: 0 when it started from scratch.
    pub fn reused_visits(&self) -> u64 {
        self.reused
    }

    /// Whether a search tree is kept for the next search.
    pub fn keeps_a_tree(&self) -> bool {
        !self.kept.is_empty()
    }

    /// Runs one parsed command. One arm a command: the match only dispatches, to the
    /// helpers below grouped by theme (setup, play and genmove, scoring, SGF, queries),
    /// so that the whole command set reads at a glance.
    fn run(&mut self, command: GoCommand, session: &mut Session<'_>) -> Result<String, GtpError> {
        self.ponder_ready = false;
        if starts_afresh(&command) {
            self.kept.clear();
            self.dynkomi.forget();
        }
        match command {
            // Setup: the board, komi, rules, handicap and clock.
            GoCommand::Boardsize(size) => self.new_game(size).map(|()| String::new()),
            GoCommand::RectangularBoardsize(columns, rows) => {
                self.rectangular_boardsize(columns, rows)
            }
            GoCommand::ClearBoard => {
                self.game.clear();
                self.clock.restart();
                self.forget_the_game();
                Ok(String::new())
            }
            GoCommand::Komi(komi) => {
                self.game.set_komi(komi);
                Ok(String::new())
            }
            GoCommand::GetKomi => Ok(self.game.komi().to_string()),
            GoCommand::FixedHandicap(stones) => self.fixed_handicap(stones),
            GoCommand::PlaceFreeHandicap(stones) => self.place_free_handicap(stones),
            GoCommand::SetFreeHandicap(vertices) => self.set_free_handicap(&vertices),
            GoCommand::Clock(command) => Ok(self.clock.apply(command)),
            GoCommand::KgsRules(name) => Ok(self.kgs_rules(&name)),
            GoCommand::KataSetRules(rules) => {
                self.game.set_rules(rules);
                Ok(String::new())
            }
            GoCommand::KataGetRules => Ok(kata_rules_json(self.game.rules())),
            // Moves: played, generated, taken back.
            GoCommand::Play(color, mv) => self.play(color, mv),
            GoCommand::Genmove(color) => self.generate(color, session, Generate::Play, None),
            GoCommand::RegGenmove(color) => {
                self.generate(color, session, Generate::Regression, None)
            }
            GoCommand::GenmoveCleanup(color) => {
                self.generate(color, session, Generate::Cleanup, None)
            }
            GoCommand::Undo => self.undo(),
            // Analysis and thinking.
            GoCommand::Analyze(request) => {
                self.search_keeping_turn(request.color, session, Generate::Analyze, Some(&request))
            }
            GoCommand::GenmoveAnalyze(request) => self.genmove_analyze(&request, session),
            GoCommand::PrincipalVariation(color) => {
                self.search_keeping_turn(color, session, Generate::Variation, None)
            }
            GoCommand::LiveGfx(on) => {
                self.live_gfx = on;
                Ok(String::new())
            }
            GoCommand::Ponder(on) => self.set_ponder(on),
            // The end of the game.
            GoCommand::FinalScore => Ok(self.final_score()),
            GoCommand::FinalStatusList(status) => Ok(self.final_status_list(status)),
            GoCommand::Ownership => Ok(self.ownership_board()),
            GoCommand::GameOver => Ok(String::new()),
            // SGF.
            GoCommand::LoadSgf(path, move_number) => {
                self.load_sgf(&path, move_number)?;
                Ok(String::new())
            }
            GoCommand::PrintSgf(path) => self.print_sgf(path.as_deref()),
            // Questions about the position.
            GoCommand::Showboard => Ok(self.showboard()),
            GoCommand::IsLegal(color, mv) => Ok(if self.game.is_legal(color, mv) {
                "1"
            } else {
                "0"
            }
            .into()),
            GoCommand::AllLegal(color) => Ok(self.all_legal(color)),
            GoCommand::ListStones(color) => Ok(self.list_stones(color)),
            GoCommand::Captures(color) => Ok(self.game.prisoners(color).to_string()),
        }
    }
}

/// Commands that replace the game or take moves back start the next search afresh, and
/// free the tree's memory now. The search also checks by itself that a kept tree fits
/// the position exactly (stones, ko, side to move, superko history, komi, rules), so a
/// `komi` or `kgs-rules` that changes nothing (as controllers resend them) keeps the
/// tree, and one that changes something not.
fn starts_afresh(command: &GoCommand) -> bool {
    matches!(
        command,
        GoCommand::Boardsize(_)
            | GoCommand::RectangularBoardsize(..)
            | GoCommand::ClearBoard
            | GoCommand::Undo
            | GoCommand::FixedHandicap(_)
            | GoCommand::PlaceFreeHandicap(_)
            | GoCommand::SetFreeHandicap(_)
            | GoCommand::LoadSgf(..)
    )
}

/// Setup: the board, the rules and the handicap.
impl GoEngine {
    fn new_game(&mut self, size: usize) -> Result<(), GtpError> {
        let mut game =
            Game::new(size, *self.game.rules()).map_err(|_| GtpError::UnacceptableSize)?;
        game.set_komi(self.game.komi());
        self.game = game;
        Ok(())
    }

    fn rectangular_boardsize(&mut self, columns: usize, rows: usize) -> Result<String, GtpError> {
        if columns != rows {
            return Err(GtpError::other(
                "rectangular boards are not supported: columns and rows must be equal",
            ));
        }
        self.new_game(columns)?;
        Ok(String::new())
    }

    fn fixed_handicap(&mut self, stones: usize) -> Result<String, GtpError> {
        let vertices = self
            .game
            .place_fixed_handicap(stones)
            .map_err(handicap_error)?;
        Ok(join(&vertices))
    }

    fn place_free_handicap(&mut self, stones: usize) -> Result<String, GtpError> {
        let vertices = self
            .game
            .free_handicap_vertices(stones)
            .map_err(handicap_error)?;
        self.game
            .place_handicap(&vertices)
            .map_err(handicap_error)?;
        Ok(join(&vertices))
    }

    fn set_free_handicap(&mut self, vertices: &[Vertex]) -> Result<String, GtpError> {
        self.game
            .place_handicap(vertices)
            .map_err(|error| match error {
                HandicapError::BoardNotEmpty => GtpError::BoardNotEmpty,
                _ => GtpError::BadVertexList,
            })?;
        Ok(String::new())
    }

    /// KGS's rule names; an unknown one keeps the rules (KGS must never see a failure).
    fn kgs_rules(&mut self, name: &str) -> String {
        let rule_set = match name.to_ascii_lowercase().as_str() {
            "japanese" => Some(RuleSet::Japanese),
            "chinese" => Some(RuleSet::Chinese),
            "aga" => Some(RuleSet::Aga),
            "new_zealand" | "new-zealand" => Some(RuleSet::NewZealand),
            _ => None,
        };
        match rule_set {
            Some(rule_set) => self.game.set_rules(Rules::from(rule_set)),
            None => tracing::warn!(
                "kgs-rules {name}: unknown rules, keeping {}",
                describe_rules(self.game.rules())
            ),
        }
        String::new()
    }
}

/// Moves: played by the controller, generated by the search, taken back.
impl GoEngine {
    fn play(&mut self, color: Color, mv: MoveVertex) -> Result<String, GtpError> {
        self.game.play(color, mv).map_err(|reason| {
            tracing::warn!("play {} {mv}: illegal ({reason})", color.letter());
            match reason {
                IllegalMove::TooLong { .. } => GtpError::other(reason.to_string()),
                _ => GtpError::IllegalMove,
            }
        })?;
        self.kept_advance(color, mv);
        Ok(String::new())
    }

    fn undo(&mut self) -> Result<String, GtpError> {
        if self.game.undo() {
            Ok(String::new())
        } else {
            Err(GtpError::CannotUndo)
        }
    }

    fn genmove_analyze(
        &mut self,
        request: &AnalyzeRequest,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        let color = request.color.unwrap_or(self.game.to_move());
        self.generate(color, session, Generate::Play, Some(request))
            .map(|answer| format!("play {answer}"))
    }

    fn set_ponder(&mut self, on: bool) -> Result<String, GtpError> {
        if on && !self.settings.reuse {
            return Err(GtpError::other(
                "pondering keeps its work in the tree: start with --reuse on",
            ));
        }
        self.ponder = on;
        Ok(String::new())
    }

    /// Tells the kept tree that `color` played `mv`.
    fn kept_advance(&mut self, color: Color, mv: MoveVertex) {
        let point = match mv {
            MoveVertex::Play(v) => Some(self.game.board().point(v)),
            MoveVertex::Pass => None,
        };
        self.kept.advance(color, point);
    }

    /// What a game leaves behind besides its position (the move count of the seeds, the
    /// kept tree, the dead-stone judgement): forgotten at `clear_board` and reseeding, so
    /// that the next game plays as the first game of a fresh process with this seed.
    fn forget_the_game(&mut self) {
        self.searches = 0;
        self.kept.clear();
        self.judgement = None;
        self.reused = 0;
        self.ponder_ready = false;
        self.dynkomi.forget();
    }

    fn seed(&mut self) -> u64 {
        self.searches += 1;
        self.settings
            .seed
            .wrapping_mul(crate::seed::GOLDEN_GAMMA)
            .wrapping_add(self.searches)
    }

    /// Moves `color` may still have to make, for the clock: half the empty points,
    /// but never fewer than a short endgame.
    fn moves_left(&self) -> u32 {
        let board = self.game.board();
        let empty = board.empty_points().len() as u32;
        (empty / 3).max(15)
    }

    /// A search that plays nothing (analysis, the principal variation) for `color`, by
    /// default the side to move; the side to move is the same afterwards.
    fn search_keeping_turn(
        &mut self,
        color: Option<Color>,
        session: &mut Session<'_>,
        kind: Generate,
        analysis: Option<&AnalyzeRequest>,
    ) -> Result<String, GtpError> {
        let before = self.game.to_move();
        let result = self.generate(color.unwrap_or(before), session, kind, analysis);
        self.game.set_to_move(before);
        result
    }

    /// Searches for `color` as `kind` asks, streaming `analysis` if given, and answers
    /// (and plays, for the kinds that play) what the search decided.
    fn generate(
        &mut self,
        color: Color,
        session: &mut Session<'_>,
        kind: Generate,
        analysis: Option<&AnalyzeRequest>,
    ) -> Result<String, GtpError> {
        let limit = self.game.move_limit();
        if kind != Generate::Regression && self.game.move_count() >= limit {
            // Refused before searching: the move could not be kept.
            return Err(GtpError::other(IllegalMove::TooLong { limit }.to_string()));
        }
        self.game.set_to_move(color);
        let start = Instant::now();
        let limits = self.limits(color, kind, start);
        let seed = self.seed();
        let game = &self.game;
        let root_allowed =
            |p: Point| game.is_legal(color, MoveVertex::Play(game.board().vertex(p)));
        let history = game.superko_keys();
        let signals = session.signals();
        // An analysis stream runs until the client says something: a line, an interrupt,
        // or the end of its input (a client that closed its pipes has gone for good).
        let stop = || {
            signals.interrupted()
                || (kind == Generate::Analyze
                    && (signals.input_pending() || signals.input_closed()))
        };
        let mut request = SearchRequest {
            limits,
            seed,
            threads: self.settings.threads,
            stop: &stop,
            // Only `genmove` resigns: a regression test (`reg_genmove`) asks for the best
            // move, which `resign` never matches, as GNU Go's own answers show.
            resign: if kind == Generate::Play {
                ResignPolicy::default()
            } else {
                ResignPolicy::never()
            },
            cleanup: kind == Generate::Cleanup,
            net: self.settings.net.as_ref(),
            ..position_request(game, color, &root_allowed, &history)
        };
        let plan = self.dynkomi.plan(&request, game.handicap(), color);
        request.search_komi = plan.map(|plan| plan.search);
        let kept = self.settings.reuse.then_some(&mut self.kept);
        let result = run_search(request, kept, color, analysis, self.live_gfx, session);
        self.reused = result.reused;
        // Only the game's own moves teach the dynamic komi: analysis leaves it alone.
        if let Some(plan) = plan
            && matches!(kind, Generate::Play | Generate::Cleanup)
        {
            self.dynkomi.learn(&plan, &result);
        }
        let answer = self.answer(color, kind, &result, start);
        if matches!(kind, Generate::Play | Generate::Cleanup) {
            // The move is on `color`'s clock: a controller that sends no `time_left`
            // leaves the account to the engine.
            self.clock.charge(color.index(), start.elapsed());
        }
        answer
    }

    /// The search's budget: the clock's allotment or the time per move, and the playouts
    /// of the command line; analysis goes on until the next command arrives.
    fn limits(&self, color: Color, kind: Generate, start: Instant) -> SearchLimits {
        let deadline = self
            .clock
            .allotment(color.index(), self.moves_left())
            .or(self.settings.time_per_move.and_then(move_time))
            .and_then(|d| start.checked_add(d));
        let (playouts, deadline) = match (kind, self.settings.playouts, deadline) {
            // Analysis goes on until the next command arrives.
            (Generate::Analyze, _, _) => (Some(u64::MAX), None),
            (_, 0, None) => (Some(DEFAULT_PLAYOUTS), None),
            (_, 0, Some(_)) => (None, deadline),
            (_, n, _) => (Some(n), deadline),
        };
        SearchLimits {
            playouts,
            deadline,
            // Analysis shows the search's numbers as they grow; it has no move to decide.
            stop_when_decided: self.settings.adaptive_budget && kind != Generate::Analyze,
        }
    }

    /// What a search of `kind` for `color` answers: nothing for analysis, the expected
    /// line for the principal variation, else the move (played, but for `reg_genmove`)
    /// or `resign`.
    fn answer(
        &mut self,
        color: Color,
        kind: Generate,
        result: &SearchResult,
        start: Instant,
    ) -> Result<String, GtpError> {
        if kind == Generate::Analyze {
            return Ok(String::new());
        }
        if kind == Generate::Variation {
            let board = self.game.board();
            return Ok(match result.decision {
                Decision::Play(_) => {
                    let line: Vec<Vertex> = result
                        .principal_variation
                        .iter()
                        .map(|&p| board.vertex(p))
                        .collect();
                    join(&line)
                }
                Decision::Pass | Decision::Resign => "pass".into(),
            });
        }
        let answer = match result.decision {
            Decision::Resign if kind != Generate::Cleanup => return Ok("resign".into()),
            Decision::Resign | Decision::Pass => MoveVertex::Pass,
            Decision::Play(p) => MoveVertex::Play(self.game.board().vertex(p)),
        };
        tracing::info!(
            "genmove {}: {answer} after {} playouts ({} visits kept, {} net evaluations) in {:.2}s, win rate {:.2}",
            color.letter(),
            result.playouts,
            result.reused,
            result.net_evaluations,
            start.elapsed().as_secs_f64(),
            result.win_rate
        );
        if kind != Generate::Regression {
            self.game.play(color, answer).map_err(|reason| {
                GtpError::other(format!(
                    "internal error: the search chose an illegal move {answer} ({reason})"
                ))
            })?;
            self.kept_advance(color, answer);
            self.ponder_ready = !self.game.is_over();
        }
        Ok(answer.to_string())
    }
}

/// The end of the game: the dead-stone judgement and what is read from it.
impl GoEngine {
    /// The judgement of the current position (see [`Judgement::of`]), kept so that
    /// `final_score`, `final_status_list` and `hamle-ownership` agree and do not repeat
    /// the playouts.
    fn judge(&mut self) -> &Judgement {
        let key = Judgement::key_of(&self.game);
        if let Some(judgement) = self.judgement.take_if(|j| j.key == key) {
            return self.judgement.insert(judgement);
        }
        let judgement = Judgement::of(&self.game, self.settings.seed);
        self.judgement.insert(judgement)
    }

    fn final_score(&mut self) -> String {
        let judgement = self.judge().clone();
        judgement.final_score(&self.game).to_string()
    }

    fn final_status_list(&mut self, status: StoneStatus) -> String {
        let judgement = self.judge().clone();
        join(&judgement.stones_with(status, self.game.board()))
    }

    /// GoGui's `dboard` of the dead-stone judgement's ownership.
    fn ownership_board(&mut self) -> String {
        let judgement = self.judge().clone();
        judgement.ownership_board(self.game.board())
    }
}

/// SGF: loading a game and writing the one played.
impl GoEngine {
    fn load_sgf(&mut self, path: &Path, move_number: Option<usize>) -> Result<(), GtpError> {
        let cannot = |why: String| GtpError::CannotLoadFile(format!("{}: {why}", path.display()));
        // The file error names the path itself.
        let bytes =
            sgf::read_file(path).map_err(|error| GtpError::CannotLoadFile(error.to_string()))?;
        let record = GoRecord::from_sgf_bytes(&bytes).map_err(|error| cannot(error.to_string()))?;
        self.game = record
            .replay(*self.game.rules(), self.game.komi(), move_number)
            .map_err(|error| cannot(error.to_string()))?;
        Ok(())
    }

    /// `printsgf`: the record as the answer, or written to `path`.
    fn print_sgf(&mut self, path: Option<&Path>) -> Result<String, GtpError> {
        let text = self.record().to_sgf();
        match path {
            None => Ok(text),
            Some(path) => {
                crate::files::write_atomic(path, text.as_bytes())
                    .map_err(|error| GtpError::other(format!("cannot write {error}")))?;
                Ok(String::new())
            }
        }
    }

    /// The game so far as an SGF record, with the result once two passes have ended it.
    fn record(&mut self) -> GoRecord {
        let result = if self.game.is_over() {
            let judgement = self.judge().clone();
            Some(judgement.final_score(&self.game).to_string())
        } else {
            None
        };
        GoRecord::from_game(&self.game, result)
    }
}

/// Questions about the position.
impl GoEngine {
    fn showboard(&self) -> String {
        let game = &self.game;
        let mut text = String::from("\n");
        text.push_str(&game.board().to_string());
        text.push_str(&format!(
            "\nBlack (X) captured {}, White (O) captured {}; komi {}; {} to move; rules {}",
            game.prisoners(Color::Black),
            game.prisoners(Color::White),
            game.komi(),
            game.to_move(),
            describe_rules(game.rules()),
        ));
        text
    }

    fn all_legal(&self, color: Color) -> String {
        let moves: Vec<String> = self
            .game
            .legal_moves(color)
            .into_iter()
            .filter_map(|mv| match mv {
                MoveVertex::Play(v) => Some(v.to_string()),
                MoveVertex::Pass => None,
            })
            .collect();
        moves.join(" ")
    }

    fn list_stones(&self, color: Color) -> String {
        let board = self.game.board();
        let stones: Vec<Vertex> = board
            .stone_vertices()
            .into_iter()
            .filter(|&v| board.stone_at(v) == Some(color))
            .collect();
        join(&stones)
    }
}

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

fn describe_rules(rules: &Rules) -> String {
    match rules.rule_set() {
        Some(rule_set) => rule_set.to_string(),
        None => format!(
            "custom (ko {}, scoring {}, suicide {})",
            rules.ko, rules.scoring, rules.suicide_allowed
        ),
    }
}

/// KataGo's `kata-get-rules` JSON.
fn kata_rules_json(rules: &Rules) -> String {
    format!(
        "{{\"friendlyPassOk\":false,\"hasButton\":false,\"ko\":\"{}\",\"scoring\":\"{}\",\"suicide\":{},\"tax\":\"NONE\",\"whiteHandicapBonus\":\"{}\"}}",
        rules.ko, rules.scoring, rules.suicide_allowed, rules.handicap_bonus
    )
}

fn handicap_error(error: HandicapError) -> GtpError {
    match error {
        HandicapError::InvalidNumberOfStones => GtpError::InvalidNumberOfStones,
        HandicapError::BoardNotEmpty => GtpError::BoardNotEmpty,
        HandicapError::BadVertexList => GtpError::BadVertexList,
    }
}

fn join(vertices: &[Vertex]) -> String {
    vertices
        .iter()
        .map(Vertex::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Generate {
    /// `genmove`: choose and play.
    Play,
    /// `reg_genmove`: choose without playing.
    Regression,
    /// `kgs-genmove_cleanup`: choose and play, passing only once dead stones are gone.
    Cleanup,
    /// `lz-analyze` and friends: search until the next command, choose nothing.
    Analyze,
    /// `hamle-principal_variation`: search as genmove would, answer the expected line.
    Variation,
}

/// Mixed into the seed of ponder searches.
const PONDER_SALT: u64 = 0x706F_6E64_6572; // "ponder"

impl Engine for GoEngine {
    fn commands(&self) -> Vec<&'static str> {
        GO_COMMANDS.to_vec()
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        let parsed = GoCommand::parse(command, self.game.size())?;
        self.run(parsed, session)
    }

    fn analyze_commands(&self) -> Vec<String> {
        vec![
            "string/Final Score/final_score".into(),
            "plist/Dead Stones/final_status_list dead".into(),
            "plist/Legal Moves (Black)/all_legal black".into(),
            "plist/Legal Moves (White)/all_legal white".into(),
            "dboard/Ownership/hamle-ownership".into(),
            "varc/Principal Variation/hamle-principal_variation %c".into(),
            "none/Live Graphics On/hamle-live_gfx on".into(),
            "none/Live Graphics Off/hamle-live_gfx off".into(),
            "none/Ponder On/hamle-ponder on".into(),
            "none/Ponder Off/hamle-ponder off".into(),
        ]
    }

    /// After a genmove that played, searches the position with the opponent to move
    /// until anything arrives, leaving the tree for the next search (which the
    /// opponent's move then enters). Nothing is written; the moves played afterwards
    /// depend on how long the opponent took, so pondering is not reproducible.
    fn ponder(&mut self, signals: &Signals) {
        if !std::mem::take(&mut self.ponder_ready) || !self.ponder || !self.settings.reuse {
            return;
        }
        let color = self.game.to_move();
        // Its own stream of random numbers, so that the seeds of the moves stay those a
        // session without pondering would use.
        let seed = self.settings.seed ^ PONDER_SALT ^ self.searches;
        let game = &self.game;
        let root_allowed =
            |p: Point| game.is_legal(color, MoveVertex::Play(game.board().vertex(p)));
        let history = game.superko_keys();
        let stop = || signals.anything_arrived();
        let mut request = SearchRequest {
            limits: SearchLimits {
                playouts: Some(self.settings.ponder_limit),
                deadline: None,
                stop_when_decided: false,
            },
            seed,
            threads: self.settings.threads,
            stop: &stop,
            net: self.settings.net.as_ref(),
            ..position_request(game, color, &root_allowed, &history)
        };
        request.search_komi = self
            .dynkomi
            .plan(&request, game.handicap(), color.opponent())
            .map(|plan| plan.search);
        let result = player::search_keeping(&request, &mut self.kept);
        self.reused = result.reused;
        tracing::info!(
            "pondered {} playouts for {} ({} visits kept)",
            result.playouts,
            color.letter(),
            result.reused
        );
    }

    fn takes_random_seed(&self) -> bool {
        true
    }

    fn set_random_seed(&mut self, seed: u64) {
        self.settings.seed = seed;
        self.forget_the_game();
    }

    fn describe(&self) -> String {
        format!(
            "hamle {} go: rules {}, komi {}, seed {}, playouts {}, threads {}, reuse {}, budget {}, ponder {}, dynkomi {}",
            self.version(),
            describe_rules(self.game.rules()),
            self.game.komi(),
            self.settings.seed,
            self.settings.playouts,
            self.settings.threads,
            on_off(self.settings.reuse),
            if self.settings.adaptive_budget {
                "adaptive"
            } else {
                "fixed"
            },
            on_off(self.ponder),
            on_off(self.settings.dynamic_komi),
        )
    }
}
