//! The UBGI v0.1 dialect (`hamle tavla --protocol ubgi`): the Universal Backgammon Interface
//! as gnubg's UBGI fork speaks it. One command a line; most set state silently, `go` answers
//! `bestmove …`, failures answer `error <code> <detail>`.
//!
//! The position is always seen by the side on roll, called `p0` (`setscore p0 p1`,
//! `setcube … owner p0|p1|center`).

use std::io::{self, BufRead, Write};

use super::board::{Board, Side};
use super::dice::Dice;
use super::game::{MAX_CUBE, Phase, State};
use super::ids::{MatchKey, parse_match_id, parse_position_id};
use super::player::{Level, Player};
use crate::protocol::{LineReader, RawLine};
use crate::text::shorten;

/// The side on roll in our frame (UBGI's `p0`).
const P0: Side = Side::White;

#[derive(Clone, Debug)]
struct Context {
    board: Option<Board>,
    dice: Option<Dice>,
    match_length: u32,
    score: [u32; 2],
    cube: u32,
    cube_owner: Option<Side>,
    /// The session's Crawford rule (`newsession … crawford on|off`).
    crawford: bool,
    /// This game is the Crawford game: the flag of a Match ID (`position gnubgid ID:MATCH`).
    crawford_game: bool,
}

impl Default for Context {
    fn default() -> Context {
        Context {
            board: None,
            dice: None,
            match_length: 0,
            score: [0, 0],
            cube: 1,
            cube_owner: None,
            crawford: false,
            crawford_game: false,
        }
    }
}

fn on_off(text: &str) -> Option<bool> {
    match text {
        "on" | "true" | "1" => Some(true),
        "off" | "false" | "0" => Some(false),
        _ => None,
    }
}

/// A UBGI failure: one line, `error <code> <detail>`.
fn error(code: &str, detail: &str) -> Vec<String> {
    vec![format!("error {code} {detail}")]
}

/// The value after `key` in `words`.
fn value_after<'a>(words: &[&'a str], key: &str) -> Option<&'a str> {
    words
        .iter()
        .position(|w| *w == key)
        .and_then(|i| words.get(i + 1).copied())
}

/// One UBGI session: reads commands until `quit` or end of input.
pub struct Session {
    player: Player,
    context: Context,
    session: Context,
}

impl Session {
    pub fn new(level: Level) -> Session {
        Session {
            player: Player::new(level),
            context: Context::default(),
            session: Context::default(),
        }
    }

    /// The reply lines to one command line; `None` for `quit`.
    ///
    /// One arm a command, only dispatching: the commands that read more than a word have
    /// their own method below.
    pub fn handle(&mut self, line: &str) -> Option<Vec<String>> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(&name) = words.first() else {
            return Some(Vec::new());
        };
        Some(match name {
            "ubgi" => self.identify(),
            "isready" => vec!["readyok".into()],
            "quit" => return None,
            "newgame" => {
                self.context = self.session.clone();
                Vec::new()
            }
            "newsession" => self.new_session(&words),
            "setscore" => self.set_score(&words),
            "setcube" => self.set_cube(&words),
            "setturn" => match words.get(1) {
                Some(&"p0") if words.len() == 2 => Vec::new(),
                _ => error("bad_argument", "setturn"),
            },
            "setoption" => self.set_option(&words),
            "position" => self.set_position(&words),
            "dice" => self.set_dice(&words),
            "go" => vec![self.go(&words)],
            "stop" => Vec::new(),
            _ => error("unknown_command", &shorten(name)),
        })
    }

    /// The answer to `ubgi`: who we are, the Level option, `ubgiok`.
    fn identify(&self) -> Vec<String> {
        vec![
            "id name hamle".into(),
            "id author the hamle authors".into(),
            format!("id version {}", env!("CARGO_PKG_VERSION")),
            format!(
                "option name Level type combo default {} {}",
                self.player.level().name(),
                Level::ALL
                    .iter()
                    .map(|l| format!("var {}", l.name()))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            "ubgiok".into(),
        ]
    }

    /// `newsession [type money|match] [length N] [crawford on|off] [jacoby on|off]`: the
    /// session's rules, which each `newgame` starts from; the score starts at 0–0.
    fn new_session(&mut self, words: &[&str]) -> Vec<String> {
        let mut session = self.session.clone();
        if let Some(kind) = value_after(words, "type") {
            match kind {
                "money" => session.match_length = 0,
                "match" => session.match_length = session.match_length.max(1),
                _ => return error("bad_argument", "newsession"),
            }
        }
        if let Some(length) = value_after(words, "length") {
            match length.parse::<u32>() {
                Ok(n) if (1..32_768).contains(&n) => session.match_length = n,
                _ => return error("bad_argument", "newsession"),
            }
        }
        if let Some(flag) = value_after(words, "crawford") {
            match on_off(flag) {
                Some(on) => session.crawford = on,
                None => return error("bad_argument", "newsession"),
            }
        }
        if let Some(flag) = value_after(words, "jacoby")
            && on_off(flag).is_none()
        {
            return error("bad_argument", "newsession");
        }
        session.score = [0, 0];
        self.session = session.clone();
        self.context = session;
        Vec::new()
    }

    /// `setscore p0 p1`.
    fn set_score(&mut self, words: &[&str]) -> Vec<String> {
        match words[1..] {
            [a, b] => match (a.parse::<u32>(), b.parse::<u32>()) {
                (Ok(a), Ok(b)) if a < 32_768 && b < 32_768 => {
                    self.context.score = [a, b];
                    Vec::new()
                }
                _ => error("bad_argument", "setscore"),
            },
            _ => error("bad_argument", "setscore"),
        }
    }

    /// `setcube value V owner p0|p1|center`.
    fn set_cube(&mut self, words: &[&str]) -> Vec<String> {
        let value = value_after(words, "value").and_then(|v| v.parse::<u32>().ok());
        let owner = match value_after(words, "owner") {
            Some("center" | "centre") => Some(None),
            Some("p0") => Some(Some(P0)),
            Some("p1") => Some(Some(P0.other())),
            _ => None,
        };
        match (value, owner) {
            (Some(v), Some(owner)) if v.is_power_of_two() && v <= MAX_CUBE => {
                self.context.cube = v;
                self.context.cube_owner = owner;
                Vec::new()
            }
            _ => error("bad_argument", "setcube"),
        }
    }

    /// `setoption name Level value L`: the only option.
    fn set_option(&mut self, words: &[&str]) -> Vec<String> {
        let name = value_after(words, "name");
        let value = value_after(words, "value");
        match (name, value) {
            (Some(n), Some(v)) if n.eq_ignore_ascii_case("level") => match v.parse::<Level>() {
                Ok(level) => {
                    self.player = Player::new(level);
                    Vec::new()
                }
                Err(_) => error("bad_argument", "setoption"),
            },
            _ => error("bad_argument", "setoption"),
        }
    }

    /// `position gnubgid POSITIONID[:MATCHID]`; XGIDs are not read.
    fn set_position(&mut self, words: &[&str]) -> Vec<String> {
        match words[1..] {
            ["gnubgid", id] => {
                // `POSITIONID` or gnubg's `POSITIONID:MATCHID`; the Match ID brings the
                // dice, score, match length and cube.
                let (id, match_id) = id.split_once(':').unwrap_or((id, ""));
                let key = match match_id {
                    "" => None,
                    text => match parse_match_id(text) {
                        Ok(key) => Some(key),
                        Err(_) => return error("bad_argument", "invalid_match_id"),
                    },
                };
                match parse_position_id(id, P0) {
                    Ok(board) => {
                        self.context.board = Some(board);
                        if let Some(key) = key {
                            self.take_match_key(&key);
                        }
                        Vec::new()
                    }
                    Err(_) => error("bad_argument", "invalid_position"),
                }
            }
            ["xgid", ..] => error("unsupported_feature", "position_xgid"),
            _ => error("bad_argument", "invalid_position"),
        }
    }

    /// The dice, score, match length, cube and Crawford flag of a Match ID.
    fn take_match_key(&mut self, key: &MatchKey) {
        // The Position ID is read with the side on roll as P0; the Match ID names gnubg's
        // players 0 and 1 absolutely.
        let flip = key.turn != P0;
        let mut score = key.score;
        if flip {
            score.swap(0, 1);
        }
        self.context.dice = key.dice.or(self.context.dice);
        self.context.match_length = key.match_length;
        self.context.score = score;
        self.context.cube = key.cube;
        self.context.cube_owner = key.cube_owner.map(|o| if flip { o.other() } else { o });
        // The Match ID's flag marks the Crawford game itself; the rule stays the
        // session's, except that a Crawford game means the rule is in force.
        self.context.crawford_game = key.crawford;
        self.context.crawford |= key.crawford;
    }

    /// `dice D1 D2`: the roll for the next `go`.
    fn set_dice(&mut self, words: &[&str]) -> Vec<String> {
        match words[1..] {
            [a, b] => match (a.parse::<u8>(), b.parse::<u8>()) {
                (Ok(a), Ok(b)) => match Dice::new(a, b) {
                    Ok(dice) => {
                        self.context.dice = Some(dice);
                        Vec::new()
                    }
                    Err(_) => error("bad_argument", "dice"),
                },
                _ => error("bad_argument", "dice"),
            },
            _ => error("bad_argument", "dice"),
        }
    }

    fn state(&self, board: Board, phase: Phase) -> State {
        let c = &self.context;
        let at_point = c.match_length > 0 && c.score.iter().any(|&p| p + 1 == c.match_length);
        State {
            board,
            phase,
            cube: c.cube,
            cube_owner: c.cube_owner,
            score: c.score,
            crawford_game: c.crawford_game,
            crawford_done: !c.crawford || at_point,
            games: 0,
        }
    }

    fn go(&mut self, words: &[&str]) -> String {
        self.player
            .set_match(self.context.match_length, self.context.crawford);
        let role = match words[1..] {
            [] => "chequer",
            ["role", role] => role,
            _ => return "error bad_argument go".into(),
        };
        let Some(board) = self.context.board else {
            return "error missing_context position".into();
        };
        match role {
            "chequer" => {
                let Some(dice) = self.context.dice.take() else {
                    return "error missing_context dice".into();
                };
                let play = self.player.choose_play(&board, P0, dice);
                if play.is_empty() {
                    return "bestmove pass".into();
                }
                let name = |p: u8| match p {
                    25 => "bar".to_string(),
                    0 => "off".to_string(),
                    p => p.to_string(),
                };
                let steps: Vec<String> = play
                    .steps()
                    .iter()
                    .map(|s| format!("{}/{}", name(s.from), name(s.to)))
                    .collect();
                format!("bestmove {}", steps.join(" "))
            }
            "cube" => {
                let state = self.state(board, Phase::ToRoll(P0));
                let may =
                    self.context.cube_owner != Some(P0.other()) && self.context.cube < MAX_CUBE;
                if may && self.player.should_double(&state, P0) {
                    "bestmove double".into()
                } else {
                    "bestmove roll".into()
                }
            }
            "take" => {
                let state = self.state(board, Phase::Doubled { by: P0.other() });
                if self.player.should_take(&state, P0) {
                    "bestmove take".into()
                } else {
                    "bestmove drop".into()
                }
            }
            _ => "error bad_argument go".into(),
        }
    }
}

/// Serves UBGI on `input`/`output` until `quit` or end of input. A line over
/// [`MAX_LINE_BYTES`](crate::protocol::MAX_LINE_BYTES) is answered
/// `error bad_argument line_too_long` and skipped; bytes that are not UTF-8 are replaced
/// (the command they garble is then refused like any other); neither changes the context.
pub fn serve<R: BufRead, W: Write>(level: Level, input: R, output: &mut W) -> io::Result<()> {
    let mut session = Session::new(level);
    for line in LineReader::new(input) {
        let replies = match line? {
            RawLine::Text(text) => match session.handle(text.trim()) {
                Some(replies) => replies,
                None => break,
            },
            RawLine::TooLong(_) => error("bad_argument", "line_too_long"),
        };
        for reply in replies {
            writeln!(output, "{reply}")?;
        }
        output.flush()?;
    }
    Ok(())
}
