//! Abalone in the arena: [`AbaloneReferee`] judges every move by our rules, the match
//! settings (`--start`) build it, and its text records replay.

use crate::contract::record::{find_tag, read_tags, write_tags};
use crate::contract::{IllegalMove, LossKind, Outcome, Referee, Replayed, Seat, SeatColors, Turn};

use super::board::Color;
use super::moves::Move;
use super::position::{MoveList, StartPosition};
use super::rules::{EndReason, EndRules, Game, GameResult};

/// Abalone's match flags, as `hamle match` and `hamle ladder` take them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "abalone-match-flags")]
pub struct MatchFlags {
    /// Abalone: the start position (standard, belgian-daisy, german-daisy).
    #[arg(long, default_value = "standard")]
    pub start: StartPosition,
}

impl MatchFlags {
    /// The settings these flags give (every start parses to a valid one; a `Result` as the
    /// games whose flags can clash return).
    pub fn settings(&self) -> Result<AbaloneMatchRules, String> {
        Ok(AbaloneMatchRules { start: self.start })
    }
}

/// An Abalone match's settings: the start position of every game.
#[derive(Copy, Clone, Debug)]
pub struct AbaloneMatchRules {
    pub start: StartPosition,
}

/// An arena game of Abalone: the first seat plays Black.
#[derive(Clone, Debug)]
pub struct AbaloneReferee {
    game: Game,
    start: StartPosition,
}

impl AbaloneReferee {
    /// `rules.max_plies` is the arena's cap too; [`Referee::adjudicate`] scores like it.
    pub fn new(start: StartPosition, rules: EndRules) -> AbaloneReferee {
        AbaloneReferee {
            game: Game::new(start.position(), rules),
            start,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn outcome(result: GameResult) -> Outcome {
        Outcome {
            winner: result.winner.map(Color::seat),
            result: result.short(),
        }
    }
}

impl Referee for AbaloneReferee {
    fn setup_commands(&self) -> Vec<String> {
        vec![format!("abalone-new_game {}", self.start)]
    }

    fn seat_to_move(&self) -> Seat {
        self.game.to_move().seat()
    }

    fn move_request(&self, seat: Seat) -> String {
        format!("genmove {}", Color::of_seat(seat).letter())
    }

    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove> {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Turn::Resigned);
        }
        let illegal = |reason: String| IllegalMove::new(answer, reason);
        let color = Color::of_seat(seat);
        let mv: Move = answer
            .parse()
            .map_err(|e: super::notation::NotationError| illegal(e.to_string()))?;
        self.game
            .play(color, mv)
            .map_err(|reason| illegal(reason.to_string()))?;
        Ok(Turn::Played {
            forward: format!("play {} {mv}", color.letter()),
        })
    }

    /// As the engine's `gogui-rules_legal_moves` lists them (without `--gogui`): sorted
    /// as text.
    fn legal_moves(&self) -> Option<Vec<String>> {
        if self.game.is_over() {
            return Some(Vec::new());
        }
        let mut list = MoveList::new();
        self.game.position().legal_moves(&mut list);
        let mut moves: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        moves.sort();
        Some(moves)
    }

    fn natural_end(&self) -> Option<Outcome> {
        self.game.result().map(AbaloneReferee::outcome)
    }

    fn adjudicate(&self) -> Outcome {
        AbaloneReferee::outcome(GameResult::adjudicated(
            self.game.position(),
            EndReason::MoveCap,
        ))
    }

    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome {
        Outcome::loss(
            seat,
            how,
            Color::of_seat(seat.other()).letter().to_ascii_uppercase(),
        )
    }

    fn moves_played(&self) -> usize {
        self.game.plies()
    }

    /// A PGN-like text record: tag lines, then the moves numbered by Black's turns.
    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str) {
        let mut text = write_tags(&[
            ("Game", "Abalone".to_owned()),
            ("Black", players[0].to_owned()),
            ("White", players[1].to_owned()),
            ("Start", self.start.to_string()),
            ("Result", result.unwrap_or("*").to_owned()),
            ("Comment", comment.to_owned()),
        ]);
        text.push('\n');
        let moves: Vec<String> = self.game.moves().map(|m| m.to_string()).collect();
        for (number, pair) in moves.chunks(2).enumerate() {
            text.push_str(&format!("{}. {}\n", number + 1, pair.join(" ")));
        }
        text.push_str(result.unwrap_or("*"));
        text.push('\n');
        (text, "txt")
    }
}

/// Reads a record written by [`AbaloneReferee`] and replays every move under the rules
/// (no length cap: a capped game replays to its last move); returns the referee and the
/// `Result` tag, or the first problem.
pub fn replay_record(text: &str) -> Result<Replayed<AbaloneReferee>, String> {
    let tags = read_tags(text);
    let tag = |key: &str| find_tag(&tags, key);
    if tag("Game")? != "Abalone" {
        return Err("not an Abalone record".to_owned());
    }
    let start: StartPosition = tag("Start")?
        .parse()
        .map_err(|_| "bad Start tag".to_owned())?;
    let rules = EndRules {
        max_plies: 0,
        repetition_draw: false,
    };
    let mut referee = AbaloneReferee::new(start, rules);
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        let mut words = line.split_whitespace();
        if !words.next().is_some_and(|w| w.ends_with('.')) {
            continue;
        }
        for answer in words {
            let seat = referee.seat_to_move();
            referee
                .apply(seat, answer)
                .map_err(|illegal| format!("ply {}: {illegal}", referee.moves_played() + 1))?;
        }
    }
    Ok(Replayed {
        referee,
        result: tag("Result")?,
        comment: tag("Comment").unwrap_or_default(),
    })
}

impl SeatColors for Color {
    const BY_SEAT: [Color; 2] = [Color::Black, Color::White];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_moves_ends_and_writes_the_record() {
        let rules = EndRules {
            max_plies: 4,
            repetition_draw: false,
        };
        let mut referee = AbaloneReferee::new(StartPosition::Standard, rules);
        assert_eq!(referee.setup_commands(), ["abalone-new_game standard"]);
        assert_eq!(referee.move_request(Seat::First), "genmove b");
        assert_eq!(
            referee.apply(Seat::First, "C3D4"),
            Ok(Turn::Played {
                forward: "play b c3d4".into()
            })
        );
        assert!(
            referee.apply(Seat::Second, "c3d4").is_err(),
            "not white's marble"
        );
        assert!(referee.apply(Seat::Second, "hello").is_err());
        assert_eq!(referee.seat_to_move(), Seat::Second);
        assert_eq!(referee.apply(Seat::Second, "resign"), Ok(Turn::Resigned));
        assert_eq!(
            referee.loss_of(Seat::Second, LossKind::Resignation).result,
            "B+R"
        );
        assert!(referee.natural_end().is_none());
        for answer in ["i5h5", "d4e5", "h5g5"] {
            let seat = referee.seat_to_move();
            assert!(referee.apply(seat, answer).is_ok(), "{answer}");
        }
        let end = referee.natural_end().expect("the cap ends it");
        assert_eq!((end.winner, end.result.as_str()), (None, "0"));
        assert_eq!(referee.adjudicate(), end);
        let (record, extension) = referee.record(Some("0"), ["a", "b"], "seed 1");
        assert_eq!(extension, "txt");
        assert!(
            record.contains("1. c3d4 i5h5\n2. d4e5 h5g5\n0\n"),
            "{record}"
        );
        let replayed = replay_record(&record).expect("replays");
        assert_eq!(replayed.result, "0");
        assert_eq!(replayed.referee.moves_played(), 4);
        assert!(replay_record(&record.replace("d4e5", "c3c4")).is_err());
    }
}
