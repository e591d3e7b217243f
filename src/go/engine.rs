//! The Go GTP engine: every Go command, from `boardsize` to `kata-get-rules`.
//!
//! Commands are parsed into [`GoCommand`] first (typed arguments, typed errors), then run
//! against the game; a command that fails leaves the game exactly as it was.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::go::analysis::{AnalyzeRequest, Dialect, ownership_for};
use crate::go::board::{Board, MAX_POINTS, Point};
use crate::go::game::{Game, HandicapError, fixed_handicap_vertices};
use crate::go::player::{
    self, Decision, KeptTrees, Progress, ResignPolicy, SearchLimits, SearchRequest, SearchResult,
    Snapshot,
};
use crate::go::rules::{KoRule, RuleSet, Rules, Scoring};
use crate::go::score::Ownership;
use crate::go::sgf::GoRecord;
use crate::go::vertex::{MAX_BOARD_SIZE, ParseVertexError};
use crate::go::{Color, MoveVertex, Vertex};
use crate::protocol::{
    CLOCK_COMMANDS, Clock, ClockCommand, Command, Engine, GtpError, Session, Signals,
};

/// Playouts per move when the command line does not say.
pub const DEFAULT_PLAYOUTS: u64 = 10_000;

/// Playouts of each of the two searches that judge dead stones for `final_score`,
/// `final_status_list` and `hamle-ownership`: about half a second a search on 19×19.
/// On GNU Go's finished level-1 self-play games (`tests/go_gnugo_scoring.rs`) they agree
/// with GNU Go's score in 195 of 200 on 9×9; 15,000 playouts settled one of twelve
/// disputed 13×13 games and unsettled another, so more would buy little.
const JUDGE_PLAYOUTS: u64 = 5_000;

/// A chain is dead when its opponent owns its points by more than this (ownership from
/// -1 to +1, so in more than 65 % of the playouts).
const JUDGE_MARGIN: f32 = 0.3;

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
            ponder: false,
            ponder_limit: DEFAULT_PONDER_LIMIT,
        }
    }
}

/// A point's status at the end of the game, as `final_status_list` names it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum StoneStatus {
    Alive,
    Dead,
    Seki,
}

/// A Go command with its arguments parsed and checked.
#[derive(Clone, Debug, PartialEq)]
pub enum GoCommand {
    Boardsize(usize),
    RectangularBoardsize(usize, usize),
    ClearBoard,
    Komi(f32),
    GetKomi,
    Play(Color, MoveVertex),
    Genmove(Color),
    RegGenmove(Color),
    GenmoveCleanup(Color),
    Undo,
    Showboard,
    FixedHandicap(usize),
    PlaceFreeHandicap(usize),
    SetFreeHandicap(Vec<Vertex>),
    /// `time_settings`, `time_left` or `kgs-time_settings`.
    Clock(ClockCommand),
    FinalScore,
    FinalStatusList(StoneStatus),
    LoadSgf(PathBuf, Option<usize>),
    PrintSgf(Option<PathBuf>),
    GameOver,
    KgsRules(String),
    KataSetRules(Rules),
    KataGetRules,
    IsLegal(Color, MoveVertex),
    AllLegal(Color),
    ListStones(Color),
    Captures(Color),
    Ownership,
    /// `hamle-principal_variation [color]`: search as genmove would, play nothing, answer
    /// the expected line (GoGui's `varc` analyze type).
    PrincipalVariation(Option<Color>),
    /// `lz-analyze` and friends: stream analysis until the next command.
    Analyze(AnalyzeRequest),
    /// `lz-genmove_analyze` and friends: stream analysis, then choose and play.
    GenmoveAnalyze(AnalyzeRequest),
    /// `hamle-live_gfx on|off`: GoGui live graphics during genmove.
    LiveGfx(bool),
    /// `hamle-ponder on|off`: think on the opponent's time after genmove.
    Ponder(bool),
}

/// The Go commands in `list_commands` order.
pub const GO_COMMANDS: [&str; 39] = [
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "get_komi",
    "play",
    "genmove",
    "reg_genmove",
    "kgs-genmove_cleanup",
    "undo",
    "showboard",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "final_score",
    "final_status_list",
    "loadsgf",
    "printsgf",
    "kgs-game_over",
    "kgs-rules",
    "kata-set-rules",
    "kata-get-rules",
    "is_legal",
    "all_legal",
    "list_stones",
    "captures",
    "hamle-ownership",
    "hamle-principal_variation",
    "lz-analyze",
    "lz-genmove_analyze",
    "analyze",
    "genmove_analyze",
    "kata-analyze",
    "kata-genmove_analyze",
    "hamle-live_gfx",
    "hamle-ponder",
];

const COLOR: &str = "a color (b, black, w or white)";

fn parse_color(command: &Command, index: usize) -> Result<Color, GtpError> {
    command.parse_arg(index, COLOR)
}

fn parse_move(command: &Command, index: usize, size: usize) -> Result<MoveVertex, GtpError> {
    let text = command.arg(index)?;
    MoveVertex::parse_on(text, size).map_err(|error| vertex_error(text, size, &error))
}

fn vertex_error(text: &str, size: usize, error: &ParseVertexError) -> GtpError {
    match error {
        ParseVertexError::Malformed => GtpError::syntax(format!(
            "expected a vertex such as D4 or pass, got '{}'",
            crate::text::shorten(text)
        )),
        ParseVertexError::OffBoard => GtpError::syntax(format!(
            "{} is off the {size}x{size} board",
            text.to_ascii_uppercase()
        )),
    }
}

/// A board size: a number that does not fit any board is `unacceptable size`, not a
/// syntax error, as GTP asks of `boardsize 0` or `boardsize 99999999999`.
fn parse_size(command: &Command, index: usize) -> Result<usize, GtpError> {
    let text = command.arg(index)?;
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GtpError::syntax(format!(
            "expected a board size, got '{}'",
            crate::text::shorten(text)
        )));
    }
    match text.parse::<usize>() {
        Ok(size) if (2..=MAX_BOARD_SIZE).contains(&size) => Ok(size),
        _ => Err(GtpError::UnacceptableSize),
    }
}

/// A handicap count: any integer is a count (a huge or negative one is then refused as
/// `invalid number of stones`, as GTP asks); anything else is a syntax error.
fn parse_stone_count(command: &Command) -> Result<usize, GtpError> {
    let text = command.arg(0)?;
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(GtpError::syntax(format!(
            "expected a number of stones, got '{}'",
            crate::text::shorten(text)
        )));
    }
    Ok(if text.starts_with('-') {
        0
    } else {
        text.parse().unwrap_or(usize::MAX)
    })
}

impl GoCommand {
    /// Parses `command` for a board of `size`.
    pub fn parse(command: &Command, size: usize) -> Result<GoCommand, GtpError> {
        let c = command;
        Ok(match c.name.as_str() {
            "boardsize" => {
                c.expect_args(1, "<size>")?;
                GoCommand::Boardsize(parse_size(c, 0)?)
            }
            "rectangular_boardsize" => {
                c.expect_args(2, "<columns> <rows>")?;
                GoCommand::RectangularBoardsize(parse_size(c, 0)?, parse_size(c, 1)?)
            }
            "clear_board" => c.no_args(GoCommand::ClearBoard)?,
            "komi" => {
                c.expect_args(1, "<komi>")?;
                let komi: f32 = c.parse_arg(0, "a komi such as 6.5")?;
                if !komi.is_finite() || komi.abs() > 1000.0 {
                    return Err(GtpError::syntax(format!("komi {komi} is out of range")));
                }
                GoCommand::Komi(komi)
            }
            "get_komi" => c.no_args(GoCommand::GetKomi)?,
            "play" => {
                c.expect_args(2, "<color> <vertex>")?;
                GoCommand::Play(parse_color(c, 0)?, parse_move(c, 1, size)?)
            }
            "genmove" | "reg_genmove" | "kgs-genmove_cleanup" => {
                c.expect_args(1, "<color>")?;
                let color = parse_color(c, 0)?;
                match c.name.as_str() {
                    "genmove" => GoCommand::Genmove(color),
                    "reg_genmove" => GoCommand::RegGenmove(color),
                    _ => GoCommand::GenmoveCleanup(color),
                }
            }
            "undo" => c.no_args(GoCommand::Undo)?,
            "showboard" => c.no_args(GoCommand::Showboard)?,
            "fixed_handicap" | "place_free_handicap" => {
                c.expect_args(1, "<number_of_stones>")?;
                let stones = parse_stone_count(c)?;
                if c.name == "fixed_handicap" {
                    GoCommand::FixedHandicap(stones)
                } else {
                    GoCommand::PlaceFreeHandicap(stones)
                }
            }
            "set_free_handicap" => {
                let vertices = c
                    .args
                    .iter()
                    .map(|text| Vertex::parse_on(text, size))
                    .collect::<Result<Vec<Vertex>, _>>()
                    .map_err(|_| GtpError::BadVertexList)?;
                GoCommand::SetFreeHandicap(vertices)
            }
            name if CLOCK_COMMANDS.contains(&name) => {
                GoCommand::Clock(ClockCommand::parse(c, COLOR, |word| {
                    word.parse::<Color>().ok().map(Color::index)
                })?)
            }
            "final_score" => c.no_args(GoCommand::FinalScore)?,
            "final_status_list" => {
                c.expect_args(1, "alive | dead | seki")?;
                GoCommand::FinalStatusList(match c.args[0].as_str() {
                    "alive" => StoneStatus::Alive,
                    "dead" => StoneStatus::Dead,
                    "seki" => StoneStatus::Seki,
                    _ => return Err(c.usage_error("alive | dead | seki")),
                })
            }
            "loadsgf" => {
                c.expect_args_between(1, 2, "<file> [move_number]")?;
                let move_number = match c.args.get(1) {
                    Some(_) => Some(c.parse_arg::<usize>(1, "a move number")?),
                    None => None,
                };
                GoCommand::LoadSgf(PathBuf::from(&c.args[0]), move_number)
            }
            "printsgf" => {
                c.expect_args_between(0, 1, "[file]")?;
                GoCommand::PrintSgf(c.args.first().map(PathBuf::from))
            }
            "kgs-game_over" => GoCommand::GameOver,
            // KGS sends its rule names and may add words: never fail on them.
            "kgs-rules" => GoCommand::KgsRules(c.args.first().cloned().unwrap_or_default()),
            "kata-set-rules" => {
                if c.args.is_empty() {
                    return Err(c.usage_error("<rules>"));
                }
                GoCommand::KataSetRules(parse_kata_rules(&c.args.join(" "))?)
            }
            "kata-get-rules" => c.no_args(GoCommand::KataGetRules)?,
            "is_legal" => {
                c.expect_args(2, "<color> <vertex>")?;
                GoCommand::IsLegal(parse_color(c, 0)?, parse_move(c, 1, size)?)
            }
            "all_legal" | "list_stones" | "captures" => {
                c.expect_args(1, "<color>")?;
                let color = parse_color(c, 0)?;
                match c.name.as_str() {
                    "all_legal" => GoCommand::AllLegal(color),
                    "list_stones" => GoCommand::ListStones(color),
                    _ => GoCommand::Captures(color),
                }
            }
            "hamle-ownership" => c.no_args(GoCommand::Ownership)?,
            "hamle-principal_variation" => {
                c.expect_args_between(0, 1, "[color]")?;
                let color = match c.args.first() {
                    Some(_) => Some(parse_color(c, 0)?),
                    None => None,
                };
                GoCommand::PrincipalVariation(color)
            }
            "hamle-live_gfx" => GoCommand::LiveGfx(parse_switch(c)?),
            "hamle-ponder" => GoCommand::Ponder(parse_switch(c)?),
            "lz-analyze" | "analyze" => {
                GoCommand::Analyze(AnalyzeRequest::parse(c, Dialect::Leela, false)?)
            }
            "kata-analyze" => GoCommand::Analyze(AnalyzeRequest::parse(c, Dialect::Kata, false)?),
            "lz-genmove_analyze" | "genmove_analyze" => {
                GoCommand::GenmoveAnalyze(AnalyzeRequest::parse(c, Dialect::Leela, true)?)
            }
            "kata-genmove_analyze" => {
                GoCommand::GenmoveAnalyze(AnalyzeRequest::parse(c, Dialect::Kata, true)?)
            }
            _ => return Err(GtpError::UnknownCommand),
        })
    }
}

/// `on|off` (also `true|false`, `1|0`).
fn parse_switch(command: &Command) -> Result<bool, GtpError> {
    command.expect_args(1, "on|off")?;
    match command.args[0].as_str() {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(command.usage_error("on|off")),
    }
}

/// `kata-set-rules`: a rule-set name (`chinese`, `tromp-taylor`, …, KataGo's `korean` and
/// `stone-scoring` as their nearest equals) or a JSON object of KataGo's fields `ko`,
/// `scoring`, `suicide` and `whiteHandicapBonus` (other fields are refused, not ignored).
fn parse_kata_rules(text: &str) -> Result<Rules, GtpError> {
    let text = text.trim();
    if !text.starts_with('{') {
        let name = match text.to_ascii_lowercase().as_str() {
            "korean" => "japanese".to_owned(),
            "stone-scoring" | "chinese-ogs" | "chinese-kgs" => "chinese".to_owned(),
            other => other.to_owned(),
        };
        return name
            .parse::<RuleSet>()
            .map(Rules::from)
            .map_err(|_| GtpError::syntax(format!("unknown rules '{text}': use japanese, chinese, tromp-taylor, aga, new-zealand or a JSON object")));
    }
    let body = text
        .strip_prefix('{')
        .and_then(|t| t.strip_suffix('}'))
        .ok_or_else(|| GtpError::syntax("rules JSON must be one object {...}"))?;
    let mut rules = Rules::default();
    for field in body.split(',').filter(|f| !f.trim().is_empty()) {
        let (key, value) = field.split_once(':').ok_or_else(|| {
            GtpError::syntax(format!(
                "expected \"key\":value in rules JSON, got '{}'",
                field.trim()
            ))
        })?;
        let key = key.trim().trim_matches('"');
        let value = value.trim().trim_matches('"');
        let bad = |what: &str| GtpError::syntax(format!("bad {what} '{value}' in rules"));
        match key {
            "ko" => rules.ko = value.parse::<KoRule>().map_err(|_| bad("ko"))?,
            "scoring" => rules.scoring = value.parse::<Scoring>().map_err(|_| bad("scoring"))?,
            "suicide" => {
                rules.suicide_allowed = value.parse::<bool>().map_err(|_| bad("suicide"))?
            }
            "whiteHandicapBonus" => {
                rules.handicap_bonus = value.parse().map_err(|_| bad("whiteHandicapBonus"))?;
            }
            "tax" if value.eq_ignore_ascii_case("none") => {}
            "hasButton" | "friendlyPassOk" if value == "false" => {}
            _ => {
                return Err(GtpError::syntax(format!(
                    "unsupported rules field {key}={value}"
                )));
            }
        }
    }
    Ok(rules)
}

/// The dead-stone judgement of one position, kept so that `final_score` and
/// `final_status_list` agree and do not repeat the playouts.
#[derive(Clone, Debug)]
struct Judgement {
    /// The position (stones, side to move, moves played) and what the judgement also
    /// depends on: the rules (Tromp–Taylor takes no stone off) and the komi (the search
    /// plays to win, so the komi steers what it fights for).
    key: (u64, Color, usize, Rules, u32),
    dead: Vec<Vertex>,
    seki: Vec<Vertex>,
    /// By [`Point::index`], +1 where Black owns the point: a stone as its opponent's
    /// search found it, an empty point the mean of both searches.
    ownership: Vec<f32>,
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

    fn run(&mut self, command: GoCommand, session: &mut Session<'_>) -> Result<String, GtpError> {
        self.ponder_ready = false;
        // Commands that replace the game or take moves back start the next search
        // afresh, and free the tree's memory now. The search also checks by itself that
        // a kept tree fits the position exactly (stones, ko, side to move, superko
        // history, komi, rules), so a `komi` or `kgs-rules` that changes nothing (as
        // controllers resend them) keeps the tree, and one that changes something not.
        if matches!(
            command,
            GoCommand::Boardsize(_)
                | GoCommand::RectangularBoardsize(..)
                | GoCommand::ClearBoard
                | GoCommand::Undo
                | GoCommand::FixedHandicap(_)
                | GoCommand::PlaceFreeHandicap(_)
                | GoCommand::SetFreeHandicap(_)
                | GoCommand::LoadSgf(..)
        ) {
            self.kept.clear();
        }
        match command {
            GoCommand::Boardsize(size) => {
                self.new_game(size)?;
                Ok(String::new())
            }
            GoCommand::RectangularBoardsize(columns, rows) => {
                if columns != rows {
                    return Err(GtpError::other(
                        "rectangular boards are not supported: columns and rows must be equal",
                    ));
                }
                self.new_game(columns)?;
                Ok(String::new())
            }
            GoCommand::ClearBoard => {
                self.game.clear();
                Ok(String::new())
            }
            GoCommand::Komi(komi) => {
                self.game.set_komi(komi);
                Ok(String::new())
            }
            GoCommand::GetKomi => Ok(self.game.komi().to_string()),
            GoCommand::Play(color, mv) => {
                self.game.play(color, mv).map_err(|reason| {
                    tracing::warn!("play {} {mv}: illegal ({reason})", color.letter());
                    GtpError::IllegalMove
                })?;
                self.kept_advance(color, mv);
                Ok(String::new())
            }
            GoCommand::Genmove(color) => self.generate(color, session, Generate::Play, None),
            GoCommand::RegGenmove(color) => {
                self.generate(color, session, Generate::Regression, None)
            }
            GoCommand::GenmoveCleanup(color) => {
                self.generate(color, session, Generate::Cleanup, None)
            }
            GoCommand::LiveGfx(on) => {
                self.live_gfx = on;
                Ok(String::new())
            }
            GoCommand::Ponder(on) => {
                if on && !self.settings.reuse {
                    return Err(GtpError::other(
                        "pondering keeps its work in the tree: start with --reuse on",
                    ));
                }
                self.ponder = on;
                Ok(String::new())
            }
            GoCommand::Analyze(request) => {
                self.search_keeping_turn(request.color, session, Generate::Analyze, Some(&request))
            }
            GoCommand::GenmoveAnalyze(request) => {
                let color = request.color.unwrap_or(self.game.to_move());
                self.generate(color, session, Generate::Play, Some(&request))
                    .map(|answer| format!("play {answer}"))
            }
            GoCommand::Undo => {
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            GoCommand::Showboard => Ok(self.showboard()),
            GoCommand::FixedHandicap(stones) => {
                let vertices = self
                    .game
                    .place_fixed_handicap(stones)
                    .map_err(handicap_error)?;
                Ok(join(&vertices))
            }
            GoCommand::PlaceFreeHandicap(stones) => {
                let vertices = self.free_handicap_vertices(stones)?;
                self.game
                    .place_handicap(&vertices)
                    .map_err(handicap_error)?;
                Ok(join(&vertices))
            }
            GoCommand::SetFreeHandicap(vertices) => {
                self.game
                    .place_handicap(&vertices)
                    .map_err(|error| match error {
                        HandicapError::BoardNotEmpty => GtpError::BoardNotEmpty,
                        _ => GtpError::BadVertexList,
                    })?;
                Ok(String::new())
            }
            GoCommand::Clock(command) => {
                self.clock.apply(command);
                Ok(String::new())
            }
            GoCommand::FinalScore => {
                let dead = self.judge().dead.clone();
                Ok(self.game.final_score(&dead).to_string())
            }
            GoCommand::FinalStatusList(status) => {
                let judgement = self.judge().clone();
                let mut vertices: Vec<Vertex> = match status {
                    StoneStatus::Dead => judgement.dead,
                    StoneStatus::Seki => judgement.seki,
                    StoneStatus::Alive => self
                        .stones()
                        .into_iter()
                        .filter(|v| !judgement.dead.contains(v) && !judgement.seki.contains(v))
                        .collect(),
                };
                vertices.sort_unstable();
                Ok(join(&vertices))
            }
            GoCommand::LoadSgf(path, move_number) => {
                self.load_sgf(&path, move_number)?;
                Ok(String::new())
            }
            GoCommand::PrintSgf(path) => {
                let text = self.record().to_sgf();
                match path {
                    None => Ok(text),
                    Some(path) => {
                        std::fs::write(&path, text).map_err(|error| {
                            GtpError::other(format!("cannot write {}: {error}", path.display()))
                        })?;
                        Ok(String::new())
                    }
                }
            }
            GoCommand::GameOver => Ok(String::new()),
            GoCommand::KgsRules(name) => {
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
                Ok(String::new())
            }
            GoCommand::KataSetRules(rules) => {
                self.game.set_rules(rules);
                Ok(String::new())
            }
            GoCommand::KataGetRules => Ok(kata_rules_json(self.game.rules())),
            GoCommand::IsLegal(color, mv) => Ok(if self.game.is_legal(color, mv) {
                "1"
            } else {
                "0"
            }
            .into()),
            GoCommand::AllLegal(color) => {
                let moves: Vec<String> = self
                    .game
                    .legal_moves(color)
                    .into_iter()
                    .filter_map(|mv| match mv {
                        MoveVertex::Play(v) => Some(v.to_string()),
                        MoveVertex::Pass => None,
                    })
                    .collect();
                Ok(moves.join(" "))
            }
            GoCommand::ListStones(color) => {
                let board = self.game.board();
                let stones: Vec<Vertex> = self
                    .stones()
                    .into_iter()
                    .filter(|&v| board.stone_at(v) == Some(color))
                    .collect();
                Ok(join(&stones))
            }
            GoCommand::Captures(color) => Ok(self.game.prisoners(color).to_string()),
            GoCommand::Ownership => Ok(self.ownership_board()),
            GoCommand::PrincipalVariation(color) => {
                self.search_keeping_turn(color, session, Generate::Variation, None)
            }
        }
    }

    fn new_game(&mut self, size: usize) -> Result<(), GtpError> {
        let mut game =
            Game::new(size, *self.game.rules()).map_err(|_| GtpError::UnacceptableSize)?;
        game.set_komi(self.game.komi());
        self.game = game;
        Ok(())
    }

    /// Every stone on the board, in vertex order (column, then row).
    fn stones(&self) -> Vec<Vertex> {
        let board = self.game.board();
        let mut stones: Vec<Vertex> = board
            .points()
            .filter(|&p| board.get(p).is_some())
            .map(|p| board.vertex(p))
            .collect();
        stones.sort_unstable();
        stones
    }

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

    /// GTP's `place_free_handicap`: the fixed points where the board has them, then the
    /// empty points farthest from every stone, so that the stones stay spread.
    fn free_handicap_vertices(&self, stones: usize) -> Result<Vec<Vertex>, GtpError> {
        let board = self.game.board();
        if board.stone_count(Color::Black) + board.stone_count(Color::White) > 0 {
            return Err(GtpError::BoardNotEmpty);
        }
        if stones < 2 || stones >= board.area() {
            return Err(GtpError::InvalidNumberOfStones);
        }
        let size = board.size();
        let fixed_max = (2..=9)
            .rev()
            .find(|&n| fixed_handicap_vertices(size, n).is_ok())
            .unwrap_or(0);
        let mut chosen = fixed_handicap_vertices(size, stones.min(fixed_max)).unwrap_or_default();
        let all: Vec<Vertex> = board.points().map(|p| board.vertex(p)).collect();
        while chosen.len() < stones {
            let distance = |v: &Vertex| {
                chosen
                    .iter()
                    .map(|c| u32::from(c.col.abs_diff(v.col)) + u32::from(c.row.abs_diff(v.row)))
                    .min()
                    .unwrap_or(u32::MAX)
            };
            let next = all
                .iter()
                .filter(|v| !chosen.contains(v))
                .max_by_key(|v| (distance(v), std::cmp::Reverse(**v)))
                .copied();
            match next {
                Some(v) => chosen.push(v),
                None => return Err(GtpError::InvalidNumberOfStones),
            }
        }
        Ok(chosen)
    }

    /// Tells the kept tree that `color` played `mv`.
    fn kept_advance(&mut self, color: Color, mv: MoveVertex) {
        let point = match mv {
            MoveVertex::Play(v) => Some(self.game.board().point(v)),
            MoveVertex::Pass => None,
        };
        self.kept.advance(color, point);
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

    fn generate(
        &mut self,
        color: Color,
        session: &mut Session<'_>,
        kind: Generate,
        analysis: Option<&AnalyzeRequest>,
    ) -> Result<String, GtpError> {
        self.game.set_to_move(color);
        let start = Instant::now();
        let deadline = self
            .clock
            .allotment(color.index(), self.moves_left())
            .or(self.settings.time_per_move.map(Duration::from_secs_f64))
            .map(|d| start + d);
        let (playouts, deadline) = match (kind, self.settings.playouts, deadline) {
            // Analysis goes on until the next command arrives.
            (Generate::Analyze, _, _) => (Some(u64::MAX), None),
            (_, 0, None) => (Some(DEFAULT_PLAYOUTS), None),
            (_, 0, Some(_)) => (None, deadline),
            (_, n, _) => (Some(n), deadline),
        };
        let seed = self.seed();
        let game = &self.game;
        let root_allowed =
            |p: Point| game.is_legal(color, MoveVertex::Play(game.board().vertex(p)));
        let history = game.superko_keys();
        let signals = session.signals();
        let stop =
            || signals.interrupted() || (kind == Generate::Analyze && signals.input_pending());
        let request = SearchRequest {
            limits: SearchLimits { playouts, deadline },
            seed,
            threads: self.settings.threads,
            stop: &stop,
            resign: if matches!(
                kind,
                Generate::Cleanup | Generate::Analyze | Generate::Variation
            ) {
                ResignPolicy::never()
            } else {
                ResignPolicy::default()
            },
            cleanup: kind == Generate::Cleanup,
            ..position_request(game, color, &root_allowed, &history)
        };
        let board = request.board;
        let kept = self.settings.reuse.then_some(&mut self.kept);
        let result = match analysis {
            Some(analysis) => {
                let mut client_gone = session.open_stream().is_err();
                search_reporting(request, kept, analysis.interval, &mut |mut snapshot| {
                    if !client_gone {
                        ownership_for(&mut snapshot, color);
                        let line = analysis.info_line(&snapshot, board);
                        client_gone = session.stream_line(&line).is_err();
                    }
                })
            }
            None if self.live_gfx => {
                search_reporting(request, kept, GFX_INTERVAL, &mut |snapshot| {
                    use std::io::Write;
                    let block = gfx_block(&snapshot, board, color);
                    let mut err = std::io::stderr().lock();
                    // Live graphics are a courtesy: a closed stderr must not stop the search.
                    let _ = err.write_all(block.as_bytes()).and_then(|()| err.flush());
                })
            }
            None => match kept {
                Some(kept) => player::search_keeping(&request, kept),
                None => player::search(&request),
            },
        };
        self.reused = result.reused;
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
            "genmove {}: {answer} after {} playouts ({} visits kept) in {:.2}s, win rate {:.2}",
            color.letter(),
            result.playouts,
            result.reused,
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

    /// Decides which stones are dead and which live in seki; Tromp–Taylor counts every
    /// stone as it stands, and its ownership is that count.
    ///
    /// The search itself judges, not bare playouts: its tree plays the killing (and
    /// saving) moves that random playouts miss, above all against a few stones left in
    /// the opponent's wide area. It runs twice, Black to move first and White, and each
    /// chain is judged by the run in which its opponent moves first, as the Japanese
    /// rules test life: a group that lives only if its owner plays next was not alive
    /// when both passed. A chain's ownership is the mean over its stones, so a chain is
    /// dead or alive as a whole. Live chains next to a shared liberty that neither side
    /// can fill ([`is_seki_liberty`]) are in seki.
    fn judge(&mut self) -> &Judgement {
        let game = &self.game;
        let key = (
            game.board().hash(),
            game.to_move(),
            game.move_count(),
            *game.rules(),
            game.komi().to_bits(),
        );
        if let Some(judgement) = self.judgement.take_if(|j| j.key == key) {
            return self.judgement.insert(judgement);
        }
        let board = game.board();
        if game.rules().rule_set() == Some(RuleSet::TrompTaylor) {
            let count = Ownership::new(board, &[]);
            let mut ownership = vec![0.0; MAX_POINTS];
            for p in board.points() {
                ownership[p.index()] = match count.owner(p) {
                    Some(Color::Black) => 1.0,
                    Some(Color::White) => -1.0,
                    None => 0.0,
                };
            }
            return self.judgement.insert(Judgement {
                key,
                dead: Vec::new(),
                seki: Vec::new(),
                ownership,
            });
        }
        let black_first = self.search_ownership(Color::Black);
        let white_first = self.search_ownership(Color::White);
        let mut ownership: Vec<f32> = black_first
            .iter()
            .zip(&white_first)
            .map(|(b, w)| (b + w) / 2.0)
            .collect();
        let mut is_dead = vec![false; ownership.len()];
        let mut judged = vec![false; ownership.len()];
        for p in board.points() {
            let Some(stone) = board.get(p) else { continue };
            if judged[p.index()] {
                continue;
            }
            let opponent_first = match stone {
                Color::Black => &white_first,
                Color::White => &black_first,
            };
            let chain: Vec<Point> = board.chain_stones(p).collect();
            let mean =
                chain.iter().map(|q| opponent_first[q.index()]).sum::<f32>() / chain.len() as f32;
            let held = if stone == Color::Black { mean } else { -mean };
            for &q in &chain {
                judged[q.index()] = true;
                ownership[q.index()] = mean;
                is_dead[q.index()] = held < -JUDGE_MARGIN;
            }
        }
        let live = |q: Point| board.get(q).filter(|_| !is_dead[q.index()]);
        let mut in_seki = vec![false; ownership.len()];
        for &p in board.empty_points() {
            let touches = |color: Color| {
                board
                    .neighbors(p)
                    .into_iter()
                    .any(|q| live(q) == Some(color))
            };
            if touches(Color::Black) && touches(Color::White) && is_seki_liberty(board, p) {
                for q in board.neighbors(p) {
                    if live(q).is_some() && !in_seki[q.index()] {
                        for stone in board.chain_stones(q) {
                            in_seki[stone.index()] = true;
                        }
                    }
                }
            }
        }
        let listed = |flags: &[bool]| -> Vec<Vertex> {
            board
                .points()
                .filter(|p| flags[p.index()])
                .map(|p| board.vertex(p))
                .collect()
        };
        let dead = listed(&is_dead);
        let seki = listed(&in_seki);
        self.judgement.insert(Judgement {
            key,
            dead,
            seki,
            ownership,
        })
    }

    /// Final-position ownership over a search of [`JUDGE_PLAYOUTS`] from the current
    /// position with `color` to move: one thread and the engine's seed, so the judgement
    /// is the same on every run. Nothing ends the game at the root (a pass there does
    /// not end it, and the search never resigns), so the search plays the position out.
    fn search_ownership(&self, color: Color) -> Vec<f32> {
        let game = &self.game;
        let root_allowed =
            |p: Point| game.is_legal(color, MoveVertex::Play(game.board().vertex(p)));
        let history = game.superko_keys();
        let request = SearchRequest {
            limits: SearchLimits {
                playouts: Some(JUDGE_PLAYOUTS),
                deadline: None,
            },
            seed: self.settings.seed,
            opponent_passed: false,
            ..position_request(game, color, &root_allowed, &history)
        };
        player::search(&request).ownership
    }

    /// GoGui's `dboard`: one row of values per board row, top row first, +1 where Black
    /// owns the point and -1 where White does (the dead-stone judgement's ownership).
    fn ownership_board(&mut self) -> String {
        let size = self.game.board().size();
        let judgement = self.judge().clone();
        let board = self.game.board();
        let mut rows = Vec::with_capacity(size);
        for row in (0..size).rev() {
            let values: Vec<String> = (0..size)
                .map(|col| {
                    let p = board.point(Vertex::new(col as u8, row as u8));
                    format!("{:.2}", judgement.ownership[p.index()])
                })
                .collect();
            rows.push(values.join(" "));
        }
        format!("\n{}", rows.join("\n"))
    }

    fn load_sgf(&mut self, path: &Path, move_number: Option<usize>) -> Result<(), GtpError> {
        let cannot = |why: String| GtpError::CannotLoadFile(format!("{}: {why}", path.display()));
        let bytes = std::fs::read(path).map_err(|error| cannot(error.to_string()))?;
        let record = GoRecord::from_sgf_bytes(&bytes).map_err(|error| cannot(error.to_string()))?;
        self.game = record
            .replay(*self.game.rules(), self.game.komi(), move_number)
            .map_err(|error| cannot(error.to_string()))?;
        Ok(())
    }

    /// The game so far as an SGF record, with the result once two passes have ended it.
    fn record(&mut self) -> GoRecord {
        let result = if self.game.is_over() {
            let dead = self.judge().dead.clone();
            Some(self.game.final_score(&dead).to_string())
        } else {
            None
        };
        GoRecord::from_game(&self.game, result)
    }
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

/// The parts of a search request that describe `game`'s position with `color` to move;
/// the caller sets the budget, the stop test and the policies.
fn position_request<'a>(
    game: &'a Game,
    color: Color,
    root_allowed: &'a (dyn Fn(Point) -> bool + Sync),
    history: &'a [u64],
) -> SearchRequest<'a> {
    SearchRequest {
        board: game.board(),
        to_move: color,
        rules: game.rules(),
        komi: game.komi() + game.rules().white_handicap_compensation(game.handicap()),
        root_allowed,
        history,
        opponent_passed: game
            .last_move()
            .is_some_and(|(c, mv)| c != color && mv == MoveVertex::Pass),
        move_number: game.move_count() as u32,
        limits: SearchLimits::default(),
        seed: 0,
        threads: 1,
        stop: &never,
        resign: ResignPolicy::never(),
        cleanup: false,
        progress: None,
    }
}

fn never() -> bool {
    false
}

/// True when a stone of either colour at empty `p` would capture nothing and leave its
/// own chain with one liberty or none: the shared liberty of a seki, which neither side
/// can fill without giving its group away. (Filling ordinary dame leaves liberties.)
fn is_seki_liberty(board: &Board, p: Point) -> bool {
    [Color::Black, Color::White].into_iter().all(|color| {
        if board.would_capture(color, p) {
            return false;
        }
        if board.is_suicide(color, p) {
            return true;
        }
        let mut after = board.clone();
        after.play(color, p);
        after.chain_liberties(p) <= 1
    })
}

/// Runs the search on a scoped thread and hands its snapshots, every `interval`, to `emit`
/// on this thread: the session's writer stays on the thread that owns it. With `kept`,
/// the search starts from and leaves its trees there.
fn search_reporting(
    request: SearchRequest<'_>,
    kept: Option<&mut KeptTrees>,
    interval: Duration,
    emit: &mut dyn FnMut(Snapshot),
) -> SearchResult {
    let (sender, receiver) = std::sync::mpsc::channel::<Snapshot>();
    let report = move |snapshot: Snapshot| {
        // The receiver outlives the search; a failed send only means nobody listens.
        let _ = sender.send(snapshot);
    };
    let request = SearchRequest {
        progress: Some(Progress {
            interval,
            report: &report,
        }),
        ..request
    };
    std::thread::scope(|scope| {
        let search = scope.spawn(|| match kept {
            Some(kept) => player::search_keeping(&request, kept),
            None => player::search(&request),
        });
        // The sender lives as long as the request, so the search's end is watched for.
        while !search.is_finished() {
            if let Ok(snapshot) = receiver.recv_timeout(Duration::from_millis(5)) {
                emit(snapshot);
            }
        }
        match search.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// Mixed into the seed of ponder searches.
const PONDER_SALT: u64 = 0x706F_6E64_6572; // "ponder"

/// How often GoGui's live graphics are redrawn during a search.
const GFX_INTERVAL: Duration = Duration::from_millis(500);

/// GoGui's live graphics (`gogui-gfx:` then gfx commands up to an empty line, on stderr):
/// the best line as variation stones, ownership as influence, a one-line summary.
fn gfx_block(snapshot: &Snapshot, board: &crate::go::board::Board, color: Color) -> String {
    let best = snapshot.root_moves.iter().max_by_key(|m| m.visits);
    let mut block = String::from("gogui-gfx:\n");
    if let Some(best) = best {
        let mut var = String::from("VAR");
        let mut mover = color;
        for &p in &best.principal_variation {
            var.push_str(&format!(
                " {} {}",
                mover.letter().to_ascii_lowercase(),
                board.vertex(p)
            ));
            mover = mover.opponent();
        }
        block.push_str(&var);
        block.push('\n');
    }
    let mut influence = String::from("INFLUENCE");
    for p in board.points() {
        let value = snapshot.ownership.get(p.index()).copied().unwrap_or(0.0);
        if value.abs() >= 0.2 {
            influence.push_str(&format!(" {} {value:.2}", board.vertex(p)));
        }
    }
    block.push_str(&influence);
    block.push('\n');
    if let Some(best) = best {
        let mv = best
            .mv
            .map_or_else(|| "pass".to_string(), |p| board.vertex(p).to_string());
        block.push_str(&format!(
            "TEXT {} playouts, best {mv} ({} visits, win rate {:.1}%)\n",
            snapshot.playouts,
            best.visits,
            100.0 * best.win_rate
        ));
    }
    block.push('\n');
    block
}

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
        let request = SearchRequest {
            limits: SearchLimits {
                playouts: Some(self.settings.ponder_limit),
                deadline: None,
            },
            seed,
            threads: self.settings.threads,
            stop: &stop,
            ..position_request(game, color, &root_allowed, &history)
        };
        let result = player::search_keeping(&request, &mut self.kept);
        self.reused = result.reused;
        tracing::info!(
            "pondered {} playouts for {} ({} visits kept)",
            result.playouts,
            color.letter(),
            result.reused
        );
    }

    fn describe(&self) -> String {
        format!(
            "hamle {} go: rules {}, komi {}, seed {}, playouts {}, threads {}, reuse {}, ponder {}",
            self.version(),
            describe_rules(self.game.rules()),
            self.game.komi(),
            self.settings.seed,
            self.settings.playouts,
            self.settings.threads,
            if self.settings.reuse { "on" } else { "off" },
            if self.ponder { "on" } else { "off" }
        )
    }
}
