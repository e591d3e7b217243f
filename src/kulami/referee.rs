//! Kulami refereed by our rules for the arena: [`KulamiReferee`] implements the arena's
//! [`Referee`] and writes a text record holding the layout, which [`replay_record`] reads
//! back and replays under the rules.
//!
//! The record (`games/0001.txt`):
//!
//! ```text
//! [Game "Kulami"]
//! [Black "hamle-kulami-weak"]
//! [Red "hamle-kulami-strong"]
//! [Layout "AABBCCDD/EEBBFFFG/EEHHFFFG/EEHHIIIJ/KKHHIIIJ/KKLMNNNJ/OOLMPPQQ/OOLMPPQQ"]
//! [Scoring "tournament"]
//! [RowBonus "length"]
//! [Result "B+5"]
//! [Score "B+5 (black 38: rows 5, area 12, tiles 21; red 33: rows 0, area 11, tiles 22)"]
//! [Comment "hamle match game 1 (pair 1), seed …"]
//!
//! 1. D5 E5
//! 2. H5 C5
//! B+5
//! ```

use crate::contract::record::{find_tag, read_tags, write_tags};
use crate::contract::{IllegalMove, LossKind, Outcome, Referee, Replayed, Seat, SeatColors, Turn};

use super::cell::Cell;
use super::layout::Layout;
use super::rules::{Color, Game};
use super::score::{RowBonus, Scoring, score};

/// Kulami's match flags, as `hamle match` and `hamle ladder` take them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "kulami-match-flags")]
pub struct MatchFlags {
    /// Kulami: `random` (a layout drawn from each pair's seed, the same for both games of
    /// the pair), `default` (the rule book's), or a layout text (rows separated by `/`).
    #[arg(long, default_value = "random")]
    pub layout: String,
    /// Kulami: `tournament` (rows + largest area + tiles) or `standard` (tiles only).
    #[arg(long, default_value = "tournament", value_parser = ["tournament", "standard"])]
    pub scoring: String,
    /// Kulami: the row bonus, `length` or points per row.
    #[arg(long, default_value = "length")]
    pub row_bonus: RowBonus,
}

impl MatchFlags {
    /// The settings these flags give, checked.
    pub fn settings(&self) -> Result<KulamiMatchRules, String> {
        Ok(KulamiMatchRules {
            layouts: self.layout.parse()?,
            scoring: Scoring {
                tiles_only: self.scoring == "standard",
                row_bonus: self.row_bonus,
            },
        })
    }
}

/// Where Kulami games' layouts come from.
#[derive(Clone, Debug, PartialEq)]
pub enum KulamiLayouts {
    /// A layout drawn from each pair's seed: the same for both games of a pair.
    Random,
    /// One layout for every game (`default` is the rule book's).
    Fixed(Box<Layout>),
}

impl std::str::FromStr for KulamiLayouts {
    type Err = String;

    /// `--layout`: `random`, `default` or a layout text.
    fn from_str(text: &str) -> Result<KulamiLayouts, String> {
        Ok(match text {
            "random" => KulamiLayouts::Random,
            "default" => KulamiLayouts::Fixed(Box::new(Layout::standard())),
            other => KulamiLayouts::Fixed(Box::new(
                other
                    .parse()
                    .map_err(|error| format!("--layout: invalid layout: {error}"))?,
            )),
        })
    }
}

impl std::fmt::Display for KulamiLayouts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KulamiLayouts::Random => f.write_str("random"),
            KulamiLayouts::Fixed(layout) => write!(f, "{layout}"),
        }
    }
}

/// A Kulami match's settings: the layouts and the scoring.
#[derive(Clone, Debug)]
pub struct KulamiMatchRules {
    pub layouts: KulamiLayouts,
    pub scoring: Scoring,
}

/// An arena game of Kulami: the first seat plays Black.
#[derive(Clone, Debug)]
pub struct KulamiReferee {
    game: Game,
    scoring: Scoring,
    moves: Vec<Cell>,
}

impl KulamiReferee {
    pub fn new(layout: Layout, scoring: Scoring) -> KulamiReferee {
        KulamiReferee {
            game: Game::new(layout),
            scoring,
            moves: Vec::new(),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    fn counted(&self) -> Outcome {
        let score = score(self.game.layout(), self.game.position(), self.scoring);
        let winner = match score.margin() {
            0 => None,
            m if m > 0 => Some(Seat::First),
            _ => Some(Seat::Second),
        };
        Outcome {
            winner,
            result: score.result(),
        }
    }
}

pub(super) fn scoring_words(scoring: Scoring) -> (&'static str, String) {
    (
        if scoring.tiles_only {
            "standard"
        } else {
            "tournament"
        },
        scoring.row_bonus.to_string(),
    )
}

impl Referee for KulamiReferee {
    fn setup_commands(&self) -> Vec<String> {
        vec![format!("kulami-new_game {}", self.game.layout())]
    }

    fn seat_to_move(&self) -> Seat {
        self.game.to_move().seat()
    }

    fn move_request(&self, seat: Seat) -> String {
        format!("genmove {}", Color::of_seat(seat))
    }

    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove> {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Turn::Resigned);
        }
        let illegal = |reason: String| IllegalMove::new(answer, reason);
        let color = Color::of_seat(seat);
        let cell: Cell = answer
            .parse()
            .map_err(|_| illegal("not a cell (expected e.g. D5)".to_owned()))?;
        self.game
            .play(color, cell)
            .map_err(|reason| illegal(reason.to_string()))?;
        self.moves.push(cell);
        Ok(Turn::Played {
            forward: format!("play {color} {cell}"),
        })
    }

    /// As the engine's `gogui-rules_legal_moves` lists them: the game's order of cells.
    fn legal_moves(&self) -> Option<Vec<String>> {
        Some(
            self.game
                .legal_moves()
                .iter()
                .map(Cell::to_string)
                .collect(),
        )
    }

    fn natural_end(&self) -> Option<Outcome> {
        self.game.is_over().then(|| self.counted())
    }

    fn adjudicate(&self) -> Outcome {
        self.counted()
    }

    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome {
        Outcome::loss(seat, how, Color::of_seat(seat.other()).letter())
    }

    fn moves_played(&self) -> usize {
        self.moves.len()
    }

    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str) {
        let (scoring, bonus) = scoring_words(self.scoring);
        let score = score(self.game.layout(), self.game.position(), self.scoring);
        let mut text = write_tags(&[
            ("Game", "Kulami".to_owned()),
            ("Black", players[0].to_owned()),
            ("Red", players[1].to_owned()),
            ("Layout", self.game.layout().to_string()),
            ("Scoring", scoring.to_owned()),
            ("RowBonus", bonus),
            ("Result", result.unwrap_or("*").to_owned()),
            ("Score", score.to_string()),
            ("Comment", comment.to_owned()),
        ]);
        text.push('\n');
        for (number, pair) in self.moves.chunks(2).enumerate() {
            let pair: Vec<String> = pair.iter().map(Cell::to_string).collect();
            text.push_str(&format!("{}. {}\n", number + 1, pair.join(" ")));
        }
        text.push_str(result.unwrap_or("*"));
        text.push('\n');
        (text, "txt")
    }
}

/// Reads a record written by [`KulamiReferee`] and replays every move under the rules;
/// fails naming the first problem (a bad tag, an illegal move).
pub fn replay_record(text: &str) -> Result<Replayed<KulamiReferee>, String> {
    let tags = read_tags(text);
    let tag = |key: &str| find_tag(&tags, key);
    if tag("Game")? != "Kulami" {
        return Err("not a Kulami record".to_owned());
    }
    let layout: Layout = tag("Layout")?
        .parse()
        .map_err(|error| format!("bad layout: {error}"))?;
    let scoring = Scoring {
        tiles_only: tag("Scoring")? == "standard",
        row_bonus: tag("RowBonus")?.parse::<RowBonus>()?,
    };
    let mut referee = KulamiReferee::new(layout, scoring);
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else { continue };
        if !first.ends_with('.') {
            continue; // the result line
        }
        for cell in words {
            let seat = referee.seat_to_move();
            referee
                .apply(seat, cell)
                .map_err(|illegal| format!("move {}: {illegal}", referee.moves.len() + 1))?;
        }
    }
    Ok(Replayed {
        referee,
        result: tag("Result")?,
        comment: tag("Comment").unwrap_or_default(),
    })
}

impl SeatColors for Color {
    const BY_SEAT: [Color; 2] = [Color::Black, Color::Red];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judges_moves_scores_and_records_the_layout() {
        let mut referee = KulamiReferee::new(Layout::standard(), Scoring::default());
        assert_eq!(
            referee.setup_commands(),
            [format!("kulami-new_game {}", Layout::standard())]
        );
        assert_eq!(referee.move_request(Seat::First), "genmove black");
        assert_eq!(
            referee.apply(Seat::First, "d5"),
            Ok(Turn::Played {
                forward: "play black D5".into()
            })
        );
        // C5 is on tile H, which holds black's marker.
        assert!(referee.apply(Seat::Second, "c5").is_err());
        assert!(referee.apply(Seat::Second, "pass").is_err());
        assert!(
            referee.apply(Seat::First, "e5").is_err(),
            "not black's turn"
        );
        assert_eq!(referee.move_request(Seat::Second), "genmove red");
        assert!(referee.apply(Seat::Second, "E5").is_ok());
        assert_eq!(referee.moves_played(), 2);
        assert_eq!(
            referee.loss_of(Seat::Second, LossKind::Forfeit).result,
            "B+F"
        );
        assert!(referee.natural_end().is_none());
        let (record, extension) = referee.record(Some("R+F"), ["a", "b"], "seed 1");
        assert_eq!(extension, "txt");
        assert!(record.contains("[Layout \"AABBCCDD/"), "{record}");
        assert!(record.contains("\n1. D5 E5\nR+F\n"), "{record}");
        let replayed = replay_record(&record).expect("replays");
        assert_eq!(replayed.referee.moves(), referee.moves());
        assert_eq!(replayed.result, "R+F");
        let broken = record.replace("1. D5 E5", "1. D5 C5");
        assert!(replay_record(&broken).is_err());
    }

    #[test]
    fn a_played_out_game_ends_and_replays_to_its_score() {
        let layout = Layout::random(3);
        let mut referee = KulamiReferee::new(layout, Scoring::default());
        while referee.natural_end().is_none() {
            let cell = referee.game().legal_moves()[0];
            let seat = referee.seat_to_move();
            referee.apply(seat, &cell.to_string()).expect("legal");
        }
        let end = referee.natural_end().expect("over");
        let (record, _) = referee.record(Some(&end.result), ["a", "b"], "");
        let replayed = replay_record(&record).expect("replays");
        assert_eq!(replayed.referee.natural_end(), Some(end));
    }
}
