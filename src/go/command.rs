//! The Go commands as typed values: [`GoCommand`] and its parsing from a protocol
//! [`Command`] (arguments checked, errors typed), and the names `list_commands` answers.
//!
//! Parsing needs only the board size; running a command is the engine's (`engine.rs`),
//! so a command that fails to parse never touches the game.

use std::path::PathBuf;

use crate::go::analysis::{AnalyzeRequest, Dialect};
use crate::go::board::MIN_BOARD_SIZE;
use crate::go::notation::{MAX_BOARD_SIZE, ParseVertexError};
use crate::go::rules::{KoRule, MAX_KOMI, RuleSet, Rules, Scoring};
use crate::go::status::StoneStatus;
use crate::go::{Color, MoveVertex, Vertex};
use crate::protocol::{CLOCK_COMMANDS, ClockCommand, Command, GtpError};

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
    /// A clock command (`time_settings`, `time_left`, `kgs-`/`kata-time_settings`, …).
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
pub const GO_COMMANDS: [&str; 41] = [
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
    "kata-time_settings",
    "kata-list_time_settings",
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
        Ok(size) if (MIN_BOARD_SIZE..=MAX_BOARD_SIZE).contains(&size) => Ok(size),
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
    ///
    /// One arm a command name: the match only dispatches to the argument parsers above,
    /// and reads best as the one table of every command's arguments, so it stays whole.
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
                if !komi.is_finite() || komi.abs() > MAX_KOMI {
                    return Err(GtpError::syntax(format!(
                        "komi '{}' is out of range: from -{MAX_KOMI} to {MAX_KOMI}",
                        crate::text::shorten(&c.args[0])
                    )));
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
