//! The referee: our own rules library judging every move of an arena game.
//!
//! A game plugs into `hamle match` by implementing [`Referee`]: the commands that set up
//! both engines, the command asking for a move, how an answer becomes a move (or a
//! resignation, or an illegal move), what to tell the opponent, when the game is over and
//! how it is scored, and the game record.

use std::fmt;

use super::Seat;
use super::record::{Judgement, MoveCost, with_move_times};

/// How an engine's answer to the move request was judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// A legal move, now played; `forward` is the command that tells the opponent.
    Played {
        forward: String,
    },
    Resigned,
}

/// An answer that is not a legal move, with the reason for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalMove {
    pub answer: String,
    pub reason: String,
}

impl IllegalMove {
    /// `answer` refused for `reason` (an error of the game's rules or notation).
    pub fn new(answer: &str, reason: impl fmt::Display) -> IllegalMove {
        IllegalMove {
            answer: answer.to_owned(),
            reason: reason.to_string(),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move '{}': {}", self.answer, self.reason)
    }
}

/// The end of a game as the rules see it.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Seat>,
    /// The game's own notation of the result, e.g. Go's `B+3.5`, `W+R`, `0`.
    pub result: String,
}

impl Outcome {
    /// `loser` loses outside the board: the result is the winner's letter in the game's
    /// notation (`B`, `W`, `S`, `N`), a plus and the loss's letter (`W+R`, `B+F`, `S+T`).
    pub fn loss(loser: Seat, how: LossKind, winner_letter: char) -> Outcome {
        Outcome {
            winner: Some(loser.other()),
            result: format!("{winner_letter}+{}", how.letter()),
        }
    }
}

/// One game's rules, as the arena needs them.
pub trait Referee: Send {
    /// Commands both engines get before the first move (board size, komi, …).
    fn setup_commands(&self) -> Vec<String>;
    /// Commands both engines get before the next move request, asked before every move
    /// (Mangala: the next set's start once a set of the match is over). Default: none.
    fn interlude(&mut self) -> Vec<String> {
        Vec::new()
    }
    fn seat_to_move(&self) -> Seat;
    /// The command that asks `seat`'s engine for its move.
    fn move_request(&self, seat: Seat) -> String;
    /// Judges `seat`'s answer to the move request and plays it when legal.
    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove>;
    /// The result once the rules end the game (Go: two passes), else `None`.
    fn natural_end(&self) -> Option<Outcome>;
    /// The result when the arena stops the game at its move cap.
    fn adjudicate(&self) -> Outcome;
    /// The result when `seat` loses outside the board (resignation, forfeit).
    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome;
    fn moves_played(&self) -> usize;
    /// The word naming `seat` in `time_left`, or `None` when the game's engines take no
    /// clock commands (the arena then still keeps the clocks). Default: the side word of
    /// the move request (`genmove black` → `black`).
    fn clock_side(&self, seat: Seat) -> Option<String> {
        self.move_request(seat)
            .split_whitespace()
            .nth(1)
            .map(str::to_owned)
    }
    /// The command asking an engine for its count of the game so far (Go: `final_score`),
    /// for score adjudication; `None` when the game's engines report no score.
    fn score_query(&self) -> Option<&'static str> {
        None
    }
    /// An engine's answer to [`Referee::score_query`]: who leads (`None`: level) and by how
    /// much; `None` when the answer is not a score.
    fn read_score(&self, _answer: &str) -> Option<(Option<Seat>, f64)> {
        None
    }
    /// The answers the side to move may give to a plain `genmove` now, in the order
    /// hamle's engine lists them (`gogui-rules_legal_moves`), for `--opening-plies`: the
    /// arena draws random openings from this list, so no bot needs to list its moves.
    /// `None` (the default) when the game offers no list; empty at the game's end.
    fn legal_moves(&self) -> Option<Vec<String>> {
        None
    }
    /// The commands, best first, by which an engine may give its own judgement of the game
    /// with its move (Go: `kata-genmove_analyze`, `lz-genmove_analyze`), for the arena's
    /// `--record-judgement`: each engine is asked `known_command` for them. Default: none
    /// (the game's protocol gives no judgement).
    fn judgement_commands(&self) -> &'static [&'static str] {
        &[]
    }
    /// The move request for `seat` through `command` (one of
    /// [`Referee::judgement_commands`]), or `None` when this request has no judged form.
    fn judged_request(&self, _seat: Seat, _command: &str) -> Option<String> {
        None
    }
    /// The answer to a [`Referee::judged_request`] through `command`: the move, as the
    /// plain request's answer would give it, and the engine's judgement from the mover's
    /// side (`None` when it reported none). An answer without a move comes back whole, for
    /// [`Referee::apply`] to refuse.
    fn read_judged(&self, _command: &str, answer: &str) -> (String, Option<Judgement>) {
        (answer.to_owned(), None)
    }
    /// The game record and its file extension, `result` included.
    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str);
    /// The game record with what each move cost (`costs`, one a move played, in order) where
    /// the game's format has a place for it. Default: our text record (`txt`, tag lines)
    /// gets a `MoveTimes` tag ([`with_move_times`]); another format is written without
    /// them unless its game says where they go.
    fn timed_record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
        costs: &[MoveCost],
    ) -> (String, &'static str) {
        let (text, extension) = self.record(result, players, comment);
        if extension == "txt" {
            (with_move_times(text, costs), extension)
        } else {
            (text, extension)
        }
    }
}

/// Ways to lose outside the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LossKind {
    Resignation,
    /// Illegal move, crash, timeout, garbage: SGF's "forfeit".
    Forfeit,
    /// The clock ran out (`--time-control`): SGF's "time".
    Time,
}

impl LossKind {
    /// The letter of results such as `W+R`, `B+F`, `B+T`.
    pub fn letter(self) -> char {
        match self {
            LossKind::Resignation => 'R',
            LossKind::Forfeit => 'F',
            LossKind::Time => 'T',
        }
    }
}
