//! Go in the arena: the referee judging every move by our rules, the match settings
//! (`--size`, `--komi`, `--rules`) and the SGF record.

use crate::contract::{IllegalMove, LossKind, Outcome, Referee, Replayed, Seat, SeatColors, Turn};

use super::color::Color;
use super::game::Game;
use super::notation::MoveVertex;
use super::rules::RuleSet;
use super::sgf::{Event, GoRecord};
use crate::contract::record::{Judgement, MoveCost, hundredths_of, seconds_text};

/// Go's match flags, as `hamle match` and `hamle ladder` take them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "go-match-flags")]
pub struct MatchFlags {
    /// Go board size.
    #[arg(long, default_value_t = 9)]
    pub size: usize,
    /// Komi.
    #[arg(long, default_value_t = 7.5, allow_negative_numbers = true)]
    pub komi: f32,
    /// The rules the arena referees by: japanese, chinese, tromp-taylor, aga or new-zealand.
    /// Set the bots' own rules in their bot files to match.
    #[arg(long, default_value = "chinese")]
    pub rules: RuleSet,
}

impl MatchFlags {
    /// The settings these flags give, checked.
    pub fn settings(&self) -> Result<GoMatchRules, String> {
        if !(self.komi.is_finite() && self.komi.abs() <= super::rules::MAX_KOMI) {
            return Err(format!(
                "--komi must be a number from -{max} to {max}, got {}",
                self.komi,
                max = super::rules::MAX_KOMI
            ));
        }
        GoMatchRules::new(self.size, self.komi, self.rules)
    }
}

/// A Go match's settings: every game starts from the same empty board.
#[derive(Clone, Debug)]
pub struct GoMatchRules {
    pub(super) rules: RuleSet,
    pub(super) start: GoReferee,
}

impl GoMatchRules {
    pub fn new(size: usize, komi: f32, rules: RuleSet) -> Result<GoMatchRules, String> {
        Ok(GoMatchRules {
            rules,
            start: GoReferee::new(size, komi, rules)?,
        })
    }
}

/// Reads an SGF record (as [`GoReferee`] writes them) and replays it under the rules:
/// its own `RU` and `KM`, else `rules` and `komi`.
pub fn replay_record(text: &str, rules: RuleSet, komi: f32) -> Result<Replayed<GoReferee>, String> {
    let record = GoRecord::from_sgf(text).map_err(|error| error.to_string())?;
    let game = record
        .replay(rules.rules(), komi, None)
        .map_err(|error| error.to_string())?;
    Ok(Replayed {
        referee: GoReferee {
            size: record.size,
            game,
        },
        result: record.result.unwrap_or_else(|| "*".to_owned()),
        comment: root_comment(text),
    })
}

/// The root's game comment (`GC`), where [`GoReferee`]'s records keep the arena's comment;
/// empty when there is none.
fn root_comment(text: &str) -> String {
    super::sgf::parse_collection(text)
        .ok()
        .and_then(|trees| {
            let tree = trees.into_iter().next()?;
            let root = tree.main_line().next()?;
            root.first("GC").map(str::to_owned)
        })
        .unwrap_or_default()
}

impl SeatColors for Color {
    const BY_SEAT: [Color; 2] = [Color::Black, Color::White];
}

/// Go, refereed by `hamle::go::game::Game`.
///
/// The game ends after two consecutive passes and is then counted as it stands (area
/// scoring, every stone on the board alive, komi added): bots must capture dead stones
/// before passing (GNU Go: `--capture-all-dead`).
#[derive(Clone, Debug)]
pub struct GoReferee {
    pub(super) game: Game,
    pub(super) size: usize,
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

    /// Handicap stones on the empty board (an opening's `AB`); White then moves.
    pub fn place_handicap(&mut self, stones: &[super::Vertex]) -> Result<(), String> {
        self.game
            .place_handicap(stones)
            .map_err(|error| error.to_string())
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
        let illegal = |reason: String| IllegalMove::new(answer, reason);
        let color = Color::of_seat(seat);
        let mv = MoveVertex::parse_on(answer, self.size).map_err(|e| illegal(e.to_string()))?;
        self.game
            .play(color, mv)
            .map_err(|reason| illegal(reason.to_string()))?;
        Ok(Turn::Played {
            forward: format!("play {} {mv}", letter(color)),
        })
    }

    /// The vertices of `all_legal` (hamle's Go engine lists no `gogui-rules_legal_moves`):
    /// column by column, from A1 up; no pass, so that a random opening places stones.
    fn legal_moves(&self) -> Option<Vec<String>> {
        let color = self.game.to_move();
        let moves = self.game.legal_moves(color).into_iter();
        Some(
            moves
                .filter_map(|mv| match mv {
                    MoveVertex::Play(vertex) => Some(vertex.to_string()),
                    MoveVertex::Pass => None,
                })
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
        Outcome::loss(
            seat,
            how,
            letter(Color::of_seat(seat.other())).to_ascii_uppercase(),
        )
    }

    fn moves_played(&self) -> usize {
        self.game.move_count()
    }

    fn judgement_commands(&self) -> &'static [&'static str] {
        &["kata-genmove_analyze", "lz-genmove_analyze"]
    }

    /// `genmove` through the analysis command: a report every tenth of a second (Lizzie's
    /// and Sabaki's pace), the best move only (the line stays short).
    fn judged_request(&self, seat: Seat, command: &str) -> Option<String> {
        let color = letter(Color::of_seat(seat));
        Some(format!("{command} {color} interval 10 maxmoves 1"))
    }

    fn read_judged(&self, command: &str, answer: &str) -> (String, Option<Judgement>) {
        read_analysed_move(command.starts_with("lz-"), answer)
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
        (with_comment(record.to_sgf(), comment), "sgf")
    }

    /// The record with each move's time: a comment `C[thinking 1.234 s]` and, under a
    /// clock, the mover's time left (`BL`/`WL`, seconds).
    fn timed_record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
        costs: &[MoveCost],
    ) -> (String, &'static str) {
        let mut record = GoRecord::from_game(&self.game, result.map(str::to_owned));
        record.player_black = Some(players[0].to_owned());
        record.player_white = Some(players[1].to_owned());
        let colors = record.events.iter().filter_map(|event| match event {
            Event::Move(color, _) => Some(*color),
            Event::Setup(_) => None,
        });
        let notes: Vec<String> = colors
            .zip(costs)
            .map(|(color, cost)| move_note(color, cost))
            .collect();
        (
            with_comment(record.to_sgf_annotated(&notes), comment),
            "sgf",
        )
    }
}

/// One move's SGF time properties: its time left under a clock (`BL`/`WL`) and a comment
/// with its thinking time; nothing for a move no engine chose.
fn move_note(color: Color, cost: &MoveCost) -> String {
    let Some(took) = cost.thinking else {
        return String::new();
    };
    let left = cost
        .clock_left
        .map(|left| format!("{}L[{}]", color.letter(), seconds_text(left)))
        .unwrap_or_default();
    let judged = cost.judgement.map(judgement_note).unwrap_or_default();
    format!(
        "{left}{judged}C[thinking {} s{}]",
        seconds_text(took),
        judgement_comment(cost)
    )
}

/// Sabaki's win-rate property, `SBKV[52.34]` (Black's, in percent: its graph reads it),
/// where the engine gave a win rate. The judgement is the first seat's, which is Black's.
fn judgement_note(judgement: Judgement) -> String {
    judgement
        .win_rate
        .map(|rate| format!("SBKV[{}.{:02}]", rate / 100, rate % 100))
        .unwrap_or_default()
}

/// The judgement in words for the move's comment: `, win rate B 52.34%, lead W+3.50`
/// (the win rate Black's, the lead the leader's).
fn judgement_comment(cost: &MoveCost) -> String {
    let Some(judgement) = cost.judgement else {
        return String::new();
    };
    let mut text = String::new();
    if let Some(rate) = judgement.win_rate {
        text.push_str(&format!(", win rate B {}.{:02}%", rate / 100, rate % 100));
    }
    if let Some(lead) = judgement.lead {
        let (side, lead) = if lead < 0 { ('W', -lead) } else { ('B', lead) };
        text.push_str(&format!(
            ", lead {side}+{}",
            crate::contract::record::hundredths_text(lead)
        ));
    }
    text
}

/// `sgf` with `comment` in its root: the record type has no comment field, so the root
/// gets a GC (game comment) property.
fn with_comment(sgf: String, comment: &str) -> String {
    let comment = comment.replace('\\', "\\\\").replace(']', "\\]");
    match sgf.strip_prefix("(;") {
        Some(rest) => format!("(;GC[{comment}]{rest}"),
        None => sgf,
    }
}

fn letter(color: Color) -> char {
    match color {
        Color::Black => 'b',
        Color::White => 'w',
    }
}

/// The move and judgement of a `…-genmove_analyze` answer: its `play VERTEX` line, and the
/// win rate (Leela's `leela`: 0–10000; KataGo's: 0–1) and `scoreLead` of its last `info`
/// line's first move, the one the engine ranks best (the mover's side, as both engines
/// report by default). An answer without a `play` line comes back whole.
fn read_analysed_move(leela: bool, answer: &str) -> (String, Option<Judgement>) {
    let lines = answer.lines().map(str::trim);
    let Some(played) = lines
        .clone()
        .rev()
        .find_map(|line| line.strip_prefix("play "))
    else {
        return (answer.to_owned(), None);
    };
    let info = lines.rev().find(|line| line.starts_with("info "));
    let judgement = info.and_then(|info| {
        // The first move's fields: they end where the second move's `info` begins.
        let first = info.split(" info ").next().unwrap_or(info);
        let value = |key: &str| {
            let mut words = first.split_whitespace();
            words.find(|word| *word == key)?;
            words.next()
        };
        let win_rate = value("winrate").and_then(|rate| {
            let rate: f64 = rate.parse().ok()?;
            let fraction = if leela { rate / 10_000.0 } else { rate };
            (0.0..=1.0)
                .contains(&fraction)
                .then(|| (fraction * 10_000.0).round() as u32)
        });
        let lead = value("scoreLead").and_then(hundredths_of);
        (win_rate.is_some() || lead.is_some()).then_some(Judgement {
            win_rate,
            lead,
            equity: None,
        })
    });
    (played.trim().to_owned(), judgement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::GameSettings;

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

    #[test]
    fn a_written_record_replays_to_the_same_game() {
        let settings = GoMatchRules::new(5, 0.5, RuleSet::Chinese).expect("5x5");
        let mut referee = settings.referee(0);
        for (seat, answer) in [
            (Seat::First, "c3"),
            (Seat::Second, "d4"),
            (Seat::First, "b2"),
        ] {
            assert!(referee.apply(seat, answer).is_ok());
        }
        let (sgf, _) = referee.record(Some("W+R"), ["a", "b"], "a comment");
        let replayed = settings.replay_record(&sgf).expect("replays");
        assert_eq!(replayed.result, "W+R");
        assert_eq!(replayed.referee.moves_played(), 3);
        assert_eq!(replayed.referee.seat_to_move(), Seat::Second);
        let broken = sgf.replace("B[bd]", "B[cc]");
        assert_ne!(broken, sgf, "the record holds b2 as B[bd]");
        assert!(settings.replay_record(&broken).is_err(), "C3 twice");
    }

    #[test]
    fn an_analysed_move_gives_its_play_and_the_last_lines_first_move() {
        let kata = "\ninfo move D4 visits 3 winrate 0.400000 scoreLead -1.0 order 0 pv D4\n\
                    info move C3 visits 9 utility 0.1 winrate 0.612345 scoreMean 2.5 scoreLead 2.25 order 0 pv C3 info move D4 visits 1 winrate 0.1 scoreLead -9 order 1\n\
                    play C3";
        let (mv, judgement) = read_analysed_move(false, kata);
        assert_eq!(mv, "C3");
        assert_eq!(
            judgement,
            Some(Judgement {
                win_rate: Some(6123),
                lead: Some(225),
                equity: None,
            })
        );
        let leela = "\ninfo move Q16 visits 5 winrate 4870 prior 120 order 0 pv Q16\nplay Q16";
        let (mv, judgement) = read_analysed_move(true, leela);
        assert_eq!(
            (mv.as_str(), judgement.and_then(|j| j.win_rate)),
            ("Q16", Some(4870))
        );
        assert_eq!(judgement.and_then(|j| j.lead), None);
        // No info line (a search shorter than the interval): the move, no judgement.
        assert_eq!(
            read_analysed_move(false, "\nplay pass"),
            ("pass".to_owned(), None)
        );
        // No play line: the answer whole, for the referee to refuse.
        assert_eq!(read_analysed_move(false, "D4"), ("D4".to_owned(), None));
        let referee = GoReferee::new(5, 0.5, RuleSet::Chinese).expect("5x5");
        assert_eq!(
            referee
                .judged_request(Seat::Second, "lz-genmove_analyze")
                .as_deref(),
            Some("lz-genmove_analyze w interval 10 maxmoves 1")
        );
    }
}
