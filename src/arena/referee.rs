//! Referees: our own rules library judging every move of an arena game.
//!
//! A game plugs into `hamle match` by implementing [`Referee`]: the commands that set up
//! both engines, the command asking for a move, how an answer becomes a move (or a
//! resignation, or an illegal move), what to tell the opponent, when the game is over and
//! how it is scored, and the game record.

use std::fmt;

use crate::go::color::Color;
use crate::go::game::Game;
use crate::go::rules::RuleSet;
use crate::go::sgf::GoRecord;
use crate::go::vertex::MoveVertex;

/// The two seats of a game: `First` moves first (Go's and Abalone's Black, Kulami's
/// Black); in Mangala `First` is South, and the draw decides who starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// A game's two colours (or sides) in seat order, so that each referee maps seats to
/// colours and back in one place.
pub trait SeatColors: Copy + PartialEq {
    /// The colour of [`Seat::First`], then of [`Seat::Second`].
    const BY_SEAT: [Self; 2];

    fn of_seat(seat: Seat) -> Self {
        Self::BY_SEAT[seat.index()]
    }

    fn seat(self) -> Seat {
        if self == Self::BY_SEAT[0] {
            Seat::First
        } else {
            Seat::Second
        }
    }
}

impl SeatColors for Color {
    const BY_SEAT: [Color; 2] = [Color::Black, Color::White];
}

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
    /// clock commands (Tavla: the arena still keeps its clocks). Default: the side word of
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
    /// The game record and its file extension, `result` included.
    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str);
}

/// Score adjudication (`--adjudicate MARGIN:MOVES`): the game ends as a resignation of the
/// side both engines count behind by at least `margin` after each of `moves` moves in a
/// row.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Adjudication {
    pub margin: f64,
    pub moves: usize,
}

impl std::str::FromStr for Adjudication {
    type Err = String;

    fn from_str(text: &str) -> Result<Adjudication, String> {
        let usage = || format!("'{text}' is not MARGIN:MOVES (e.g. 30:4)");
        let (margin, moves) = text.split_once(':').ok_or_else(usage)?;
        let margin: f64 = margin.parse().map_err(|_| usage())?;
        let moves: usize = moves.parse().map_err(|_| usage())?;
        if !(margin.is_finite() && margin > 0.0) || moves == 0 {
            return Err(format!(
                "'{text}': the margin must be above 0 and the moves at least 1"
            ));
        }
        Ok(Adjudication { margin, moves })
    }
}

impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.margin, self.moves)
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

/// Go, refereed by `hamle::go::game::Game`.
///
/// The game ends after two consecutive passes and is then counted as it stands (area
/// scoring, every stone on the board alive, komi added): bots must capture dead stones
/// before passing (GNU Go: `--capture-all-dead`).
#[derive(Clone, Debug)]
pub struct GoReferee {
    game: Game,
    size: usize,
}

impl GoReferee {
    pub fn new(size: usize, komi: f32, rules: RuleSet) -> Result<GoReferee, String> {
        let mut game = Game::new(size, rules.rules())
            .map_err(|error| format!("board size {size}: {error}"))?;
        game.set_komi(komi);
        Ok(GoReferee { game, size })
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn counted(&self) -> Outcome {
        let score = self.game.tromp_taylor_score().result();
        Outcome {
            winner: score.winner().map(Color::seat),
            result: score.to_string(),
        }
    }
}

impl Referee for GoReferee {
    fn setup_commands(&self) -> Vec<String> {
        vec![
            format!("boardsize {}", self.size),
            "clear_board".to_owned(),
            format!("komi {}", self.game.komi()),
        ]
    }

    fn seat_to_move(&self) -> Seat {
        self.game.to_move().seat()
    }

    fn move_request(&self, seat: Seat) -> String {
        format!("genmove {}", letter(Color::of_seat(seat)))
    }

    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove> {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Turn::Resigned);
        }
        let illegal = |reason: String| IllegalMove {
            answer: answer.to_owned(),
            reason,
        };
        let color = Color::of_seat(seat);
        let mv = MoveVertex::parse_on(answer, self.size).map_err(|e| illegal(e.to_string()))?;
        self.game
            .play(color, mv)
            .map_err(|reason| illegal(reason.to_string()))?;
        Ok(Turn::Played {
            forward: format!("play {} {mv}", letter(color)),
        })
    }

    fn natural_end(&self) -> Option<Outcome> {
        self.game.is_over().then(|| self.counted())
    }

    fn adjudicate(&self) -> Outcome {
        self.counted()
    }

    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome {
        let winner = seat.other();
        let suffix = how.letter();
        Outcome {
            winner: Some(winner),
            result: format!(
                "{}+{suffix}",
                letter(Color::of_seat(winner)).to_ascii_uppercase()
            ),
        }
    }

    fn moves_played(&self) -> usize {
        self.game.move_count()
    }

    fn score_query(&self) -> Option<&'static str> {
        Some("final_score")
    }

    fn read_score(&self, answer: &str) -> Option<(Option<Seat>, f64)> {
        let answer = answer.trim();
        if answer == "0" {
            return Some((None, 0.0));
        }
        let (side, margin) = answer.split_once('+')?;
        let seat = match side.to_ascii_uppercase().as_str() {
            "B" => Seat::First,
            "W" => Seat::Second,
            _ => return None,
        };
        let margin: f64 = margin.parse().ok()?;
        margin.is_finite().then_some((Some(seat), margin))
    }

    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str) {
        let mut record = GoRecord::from_game(&self.game, result.map(str::to_owned));
        record.player_black = Some(players[0].to_owned());
        record.player_white = Some(players[1].to_owned());
        let sgf = record.to_sgf();
        // The record type has no comment field: the root gets a GC (game comment) property.
        let comment = comment.replace('\\', "\\\\").replace(']', "\\]");
        let sgf = match sgf.strip_prefix("(;") {
            Some(rest) => format!("(;GC[{comment}]{rest}"),
            None => sgf,
        };
        (sgf, "sgf")
    }
}

fn letter(color: Color) -> char {
    match color {
        Color::Black => 'b',
        Color::White => 'w',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_referee_judges_moves_and_counts_the_end() {
        let mut referee = GoReferee::new(5, 0.5, RuleSet::Chinese).expect("5x5");
        assert_eq!(referee.seat_to_move(), Seat::First);
        assert_eq!(referee.move_request(Seat::First), "genmove b");
        assert_eq!(
            referee.apply(Seat::First, "c3"),
            Ok(Turn::Played {
                forward: "play b C3".to_owned()
            })
        );
        let illegal = referee.apply(Seat::Second, "C3").expect_err("occupied");
        assert_eq!(illegal.answer, "C3");
        assert!(referee.apply(Seat::Second, "Z9").is_err());
        assert!(referee.apply(Seat::Second, "hello").is_err());
        assert_eq!(referee.apply(Seat::Second, "resign"), Ok(Turn::Resigned));
        assert_eq!(referee.natural_end(), None);
        assert!(referee.apply(Seat::Second, "pass").is_ok());
        assert!(referee.apply(Seat::First, "PASS").is_ok());
        let end = referee.natural_end().expect("two passes end it");
        assert_eq!(end.winner, Some(Seat::First));
        assert_eq!(end.result, "B+24.5");
        assert_eq!(
            referee.loss_of(Seat::First, LossKind::Forfeit).result,
            "W+F"
        );
        let (sgf, ext) = referee.record(Some("B+24.5"), ["a", "b"], "seed 7");
        assert_eq!(ext, "sgf");
        assert!(sgf.starts_with("(;GC[seed 7]"), "{sgf}");
        assert!(sgf.contains("RE[B+24.5]") && sgf.contains("PB[a]"), "{sgf}");
    }
}
