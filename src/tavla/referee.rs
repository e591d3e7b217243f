//! Tavla refereed by our rules for the arena: [`TavlaReferee`] implements the arena's
//! [`Referee`] for one match to N points with the cube and the Crawford rule (or one
//! money game, cubeless or not), and writes the match as a Jellyfish `.mat` record.
//!
//! The first seat is White (gnubg's player 0), the second Black. The arena rolls every die:
//! game j of the match (from 0) takes its opening roll and then every roll from
//! `Roller::new(SplitMix64(pair seed, j))`, so both arena games of a pair see the same
//! dice in the same order in each game of their matches, colours swapped.
//!
//! What the engines get (both, from [`Referee::interlude`], unless noted):
//! - setup: `new_match N` (0 for money) and `crawford on`;
//! - each game of the match: `new_game W B` (White's and Black's opening dice);
//! - the side to roll, when the cube is open to it, is asked `genmove_cube SIDE` (only it):
//!   `double` is forwarded as `double SIDE` and the opponent is asked `genmove_cube OPP`,
//!   whose `take`/`drop` is forwarded as `take OPP`/`drop OPP`; `no_double` is forwarded to
//!   nobody;
//! - then `dice SIDE D1 D2` (both) and `genmove SIDE` to the side; its answer
//!   `63 24/18 13/10` (the dice must be the ones given) is forwarded as
//!   `play SIDE 63 24/18 13/10`;
//! - under a clock (`--time-control`), to each after the setup its clock's settings, and
//!   `time_left SIDE …` before each of its requests, as to every game's engines.
//!
//! With an opening suite (`--openings`, the `opening` room) game 0 of the match starts with
//! the opening's plies: their dice replace the seeded draws they stand for (the roller still
//! draws them, so every later roll is the one the pair would have had anyway), and the
//! engines are told the plies after the setup commands, as the game would have told them.
//!
//! [`replay_record`] reads a record back and replays it (the `replay` room).

mod replay;

pub use replay::replay_record;

use crate::contract::record::{Judgement, MoveCost, costs_text, judgements_text, thousandths_of};
use crate::contract::{IllegalMove, LossKind, Outcome, Referee, Seat, SeatColors, Turn};
use crate::seed::derive_seed;

use super::board::Side;
use super::dice::{Dice, Roller};
use super::game::{Game, MatchRules, Phase};
use super::mat::write_mat;
use super::notation::{format_play, parse_play};

/// Tavla's match flags, as `hamle match` and `hamle ladder` take them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "tavla-match-flags")]
pub struct MatchFlags {
    /// Tavla: points to win the match an arena game is (with the cube and the Crawford
    /// rule); 0 is one money game.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub points: u32,
    /// Tavla: no doubling cube (with `--points 0`: cubeless money games, for strength tests).
    #[arg(long)]
    pub cubeless: bool,
}

impl MatchFlags {
    /// The settings these flags give (a `Result` as the games whose flags can clash
    /// return).
    pub fn settings(&self) -> Result<TavlaMatchRules, String> {
        Ok(TavlaMatchRules {
            points: self.points,
            cube: !self.cubeless,
        })
    }
}

/// Settings of a refereed Tavla game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TavlaMatchRules {
    /// Points to win the match; 0 is one money game.
    pub points: u32,
    /// The doubling cube is in use.
    pub cube: bool,
}

impl Default for TavlaMatchRules {
    fn default() -> TavlaMatchRules {
        TavlaMatchRules {
            points: 5,
            cube: true,
        }
    }
}

/// One arena game of Tavla: a match to `points` (or one money game), White in the first seat.
#[derive(Clone, Debug)]
pub struct TavlaReferee {
    rules: TavlaMatchRules,
    seed: u64,
    game: Game,
    roller: Roller,
    /// The side to roll has made its cube decision (or has none) this turn.
    cube_decided: bool,
    /// Arena decisions so far: plays and cube actions.
    decisions: usize,
    /// Games of the match started.
    started: u64,
    /// Dice an opening puts in place of the next draw (the opening roll's, high die to
    /// White, or a turn's roll); the roller draws anyway, so later rolls are unchanged.
    forced: Option<Dice>,
    /// What told the engines the opening's plies, after the setup commands.
    opening: Vec<String>,
}

impl SeatColors for Side {
    const BY_SEAT: [Side; 2] = [Side::White, Side::Black];
}

fn letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'B',
    }
}

impl TavlaReferee {
    /// A match whose dice come from `seed` (the arena's pair seed).
    pub fn new(rules: TavlaMatchRules, seed: u64) -> TavlaReferee {
        TavlaReferee {
            rules,
            seed,
            game: Game::new(MatchRules {
                length: rules.points,
                crawford: true,
                cube: rules.cube,
            }),
            roller: Roller::new(derive_seed(seed, 0)),
            cube_decided: false,
            decisions: 0,
            started: 0,
            forced: None,
            opening: Vec::new(),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The match is over: a side reached the length, or the money game is over.
    fn finished(&self) -> bool {
        if self.rules.points == 0 {
            matches!(self.game.phase(), Phase::Over(_))
        } else {
            self.game.match_winner().is_some()
        }
    }

    /// Whether `side`, to roll, is asked for its cube decision first.
    fn cube_question(&self, side: Side) -> bool {
        !self.cube_decided && self.game.may_double(side).is_ok()
    }

    /// The next die roll (or opening roll) is `dice`, not the roller's draw: how an
    /// opening's plies get their dice.
    pub(super) fn force_dice(&mut self, dice: Dice) {
        self.forced = Some(dice);
    }

    /// The commands that told the engines an opening's plies, sent after the setup commands.
    pub(super) fn set_opening_commands(&mut self, commands: Vec<String>) {
        self.opening = commands;
    }

    fn score_text(&self) -> String {
        let score = self.game.state().score;
        format!("{}-{}", score[0], score[1])
    }
}

impl Referee for TavlaReferee {
    fn setup_commands(&self) -> Vec<String> {
        let mut commands = vec![
            format!("new_match {}", self.rules.points),
            "crawford on".to_owned(),
        ];
        commands.extend(self.opening.iter().cloned());
        commands
    }

    fn interlude(&mut self) -> Vec<String> {
        let mut commands = Vec::new();
        if self.finished() {
            return commands;
        }
        if matches!(self.game.phase(), Phase::Opening | Phase::Over(_)) {
            self.roller = Roller::new(derive_seed(self.seed, self.started));
            self.started += 1;
            let drawn = self.roller.opening();
            let (white, black) = self
                .forced
                .take()
                .map_or(drawn, |dice| (dice.high(), dice.low()));
            if self.game.start_game(white, black).is_ok() {
                commands.push(format!("new_game {white} {black}"));
                self.cube_decided = false;
            }
        }
        if let Phase::ToRoll(side) = self.game.phase()
            && !self.cube_question(side)
        {
            let drawn = self.roller.roll();
            let dice = self.forced.take().unwrap_or(drawn);
            if self.game.roll(side, dice).is_ok() {
                commands.push(format!("dice {side} {} {}", dice.first(), dice.second()));
            }
            self.cube_decided = false;
        }
        commands
    }

    fn seat_to_move(&self) -> Seat {
        self.game.to_act().unwrap_or(Side::White).seat()
    }

    fn move_request(&self, seat: Seat) -> String {
        let side = Side::of_seat(seat);
        match self.game.phase() {
            Phase::ToRoll(_) | Phase::Doubled { .. } => format!("genmove_cube {side}"),
            _ => format!("genmove {side}"),
        }
    }

    fn judgement_commands(&self) -> &'static [&'static str] {
        &["genmove_analyze"]
    }

    /// A play's request through `genmove_analyze`; cube decisions have no judged form.
    fn judged_request(&self, seat: Seat, command: &str) -> Option<String> {
        let request = self.move_request(seat);
        let side = request.strip_prefix("genmove ")?;
        Some(format!("{command} {side}"))
    }

    fn read_judged(&self, _command: &str, answer: &str) -> (String, Option<Judgement>) {
        read_analysed_play(answer)
    }

    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove> {
        let answer = answer.trim();
        let side = Side::of_seat(seat);
        let illegal = |reason: String| IllegalMove::new(answer, reason);
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Turn::Resigned);
        }
        let word = answer.to_ascii_lowercase();
        let forward = match self.game.phase() {
            Phase::ToRoll(s) if s == side => match word.as_str() {
                "double" | "redouble" => {
                    self.game.double(side).map_err(|e| illegal(e.to_string()))?;
                    format!("double {side}")
                }
                "no_double" | "no double" | "roll" => {
                    self.cube_decided = true;
                    String::new()
                }
                _ => {
                    return Err(illegal(
                        "the cube decision before rolling is double or no_double".to_owned(),
                    ));
                }
            },
            Phase::Doubled { by } if by.other() == side => match word.as_str() {
                "take" | "accept" => {
                    self.game.take(side).map_err(|e| illegal(e.to_string()))?;
                    // The doubler rolls next, its cube decision made.
                    self.cube_decided = true;
                    format!("take {side}")
                }
                "drop" | "pass" | "reject" => {
                    self.game
                        .drop_cube(side)
                        .map_err(|e| illegal(e.to_string()))?;
                    format!("drop {side}")
                }
                _ => {
                    return Err(illegal("a double is answered take or drop".to_owned()));
                }
            },
            Phase::ToPlay { side: s, dice } if s == side => {
                let (dice_text, play_text) = answer.split_once(' ').unwrap_or((answer, ""));
                let given: Dice = dice_text
                    .parse()
                    .map_err(|e: String| illegal(format!("expected the dice first: {e}")))?;
                if (given.high(), given.low()) != (dice.high(), dice.low()) {
                    return Err(illegal(format!("{side} is to play {dice}, not {given}")));
                }
                let (_, _, legal) = self.game.legal().map_err(|e| illegal(e.to_string()))?;
                let board = *self.game.board();
                let play = parse_play(play_text, &board, side, &legal)
                    .map_err(|e| illegal(e.to_string()))?;
                self.game
                    .play(side, play)
                    .map_err(|e| illegal(e.to_string()))?;
                format!("play {side} {dice} {}", format_play(&board, side, &play))
            }
            _ => {
                return Err(illegal(format!(
                    "{side} has no decision now (the game waits for {})",
                    self.game
                        .to_act()
                        .map_or("nobody".to_owned(), |s| s.to_string())
                )));
            }
        };
        self.decisions += 1;
        Ok(Turn::Played { forward })
    }

    /// The plays of `all_legal` (hamle's Tavla engine lists no `gogui-rules_legal_moves`),
    /// each after its dice as a move answer gives them; none but in a play's turn.
    fn legal_moves(&self) -> Option<Vec<String>> {
        let Phase::ToPlay { .. } = self.game.phase() else {
            return Some(Vec::new());
        };
        let Ok((side, dice, legal)) = self.game.legal() else {
            return Some(Vec::new());
        };
        let board = *self.game.board();
        let moves = legal.iter().map(|candidate| {
            let play = format_play(&board, side, &candidate.play);
            format!("{dice} {play}").trim_end().to_owned()
        });
        Some(moves.collect())
    }

    fn natural_end(&self) -> Option<Outcome> {
        if !self.finished() {
            return None;
        }
        if self.rules.points == 0 {
            let Phase::Over(end) = self.game.phase() else {
                return None;
            };
            return Some(Outcome {
                winner: Some(end.winner.seat()),
                result: format!("{}+{}", letter(end.winner), end.points),
            });
        }
        self.game.match_winner().map(|winner| Outcome {
            winner: Some(winner.seat()),
            result: self.score_text(),
        })
    }

    /// At the move cap: the match leader wins (equal scores, or an unfinished money game,
    /// are a draw).
    fn adjudicate(&self) -> Outcome {
        let score = self.game.state().score;
        let winner = match score[0].cmp(&score[1]) {
            std::cmp::Ordering::Greater => Some(Seat::First),
            std::cmp::Ordering::Less => Some(Seat::Second),
            std::cmp::Ordering::Equal => None,
        };
        Outcome {
            winner,
            result: if self.rules.points == 0 {
                "0".to_owned()
            } else {
                self.score_text()
            },
        }
    }

    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome {
        Outcome::loss(seat, how, letter(Side::of_seat(seat.other())))
    }

    /// The side word, as in the move request: Tavla engines take the clock commands.
    fn clock_side(&self, seat: Seat) -> Option<String> {
        Some(Side::of_seat(seat).to_string())
    }

    fn moves_played(&self) -> usize {
        self.decisions
    }

    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str) {
        // Escaped as every tag value is, so that the comment reads back as it was written.
        let clean = |text: &str| crate::contract::record::quote(text);
        let mut text = format!(
            "; [Site \"hamle match\"]\n; [Player 1 \"{}\"]\n; [Player 2 \"{}\"]\n; [Crawford \"{}\"]\n; [Cube \"{}\"]\n; [Result \"{}\"]\n; [Comment \"{}\"]\n",
            clean(players[0]),
            clean(players[1]),
            if self.rules.points > 0 { "On" } else { "Off" },
            if self.rules.cube { "On" } else { "Off" },
            clean(result.unwrap_or("*")),
            clean(comment)
        );
        // A name with spaces would break the score line's columns: `.mat` names are words.
        let names = players.map(|name| name.replace(char::is_whitespace, "_"));
        match write_mat(&self.game, [&names[0], &names[1]]) {
            Ok(mat) => {
                text.push('\n');
                text.push_str(&mat);
            }
            Err(_) => text.push_str("; no game was started\n"),
        }
        (text, "mat")
    }

    /// The record with each decision's cost (moves and cube answers, in order) in a
    /// `; [MoveTimes "…"]` header lines, ten a line: gnubg reads the `.mat` move columns
    /// strictly, and takes `;` lines as comments, so the times stay out of the columns.
    fn timed_record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
        costs: &[MoveCost],
    ) -> (String, &'static str) {
        let (text, extension) = self.record(result, players, comment);
        if costs.is_empty() {
            return (text, extension);
        }
        let line = cost_lines(costs);
        let text = match text.find("\n\n") {
            Some(at) => format!("{}{line}{}", &text[..=at], &text[at + 1..]),
            None => text + &line,
        };
        (text, extension)
    }
}

/// `; [MoveTimes "…"]` lines, ten decisions a line (a reader's line buffer never cuts one),
/// then `; [MoveJudgements "…"]` lines alike where some decision has a judgement.
fn cost_lines(costs: &[MoveCost]) -> String {
    let mut lines: String = costs
        .chunks(10)
        .map(|ten| format!("; [MoveTimes \"{}\"]\n", costs_text(ten, " ")))
        .collect();
    if judgements_text(costs, " ").is_some() {
        for ten in costs.chunks(10) {
            let words: Vec<String> = ten.iter().map(|c| Judgement::text(c.judgement)).collect();
            lines.push_str(&format!("; [MoveJudgements \"{}\"]\n", words.join(" ")));
        }
    }
    lines
}

/// The play and equity of a `genmove_analyze` answer: its lines but the `equity E` line are
/// the play (as `genmove` answers it), `E` the mover's equity; an answer without that line
/// comes back whole, with no judgement.
fn read_analysed_play(answer: &str) -> (String, Option<Judgement>) {
    let mut equity = None;
    let mut play = Vec::new();
    for line in answer.lines() {
        match line.trim().strip_prefix("equity ") {
            Some(value) => equity = thousandths_of(value.trim()),
            None => play.push(line),
        }
    }
    let judgement = equity.map(|equity| Judgement {
        equity: Some(equity),
        ..Judgement::default()
    });
    (play.join("\n").trim().to_owned(), judgement)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plays a whole match with the first legal play and a fixed cube policy.
    #[test]
    fn a_match_is_refereed_to_its_end() {
        let mut referee = TavlaReferee::new(
            TavlaMatchRules {
                points: 3,
                cube: true,
            },
            11,
        );
        assert_eq!(referee.setup_commands(), ["new_match 3", "crawford on"]);
        let mut rounds = 0;
        loop {
            let commands = referee.interlude();
            for command in &commands {
                assert!(
                    command.starts_with("new_game ") || command.starts_with("dice "),
                    "{command}"
                );
            }
            if let Some(end) = referee.natural_end() {
                assert!(end.winner.is_some());
                let score = referee.game().state().score;
                assert!(score.iter().any(|&p| p >= 3), "{score:?}");
                assert_eq!(end.result, format!("{}-{}", score[0], score[1]));
                break;
            }
            rounds += 1;
            assert!(rounds < 100_000);
            let seat = referee.seat_to_move();
            let request = referee.move_request(seat);
            let answer = if request.starts_with("genmove_cube") {
                match referee.game().phase() {
                    Phase::ToRoll(_) => {
                        if rounds % 7 == 0 {
                            "double".to_owned()
                        } else {
                            "no_double".to_owned()
                        }
                    }
                    _ => "take".to_owned(),
                }
            } else {
                let (side, dice, legal) = referee.game().legal().expect("to play");
                let board = *referee.game().board();
                format!("{dice} {}", format_play(&board, side, &legal[0].play))
            };
            // Out of turn: the other seat's answer is illegal and changes nothing.
            assert!(referee.apply(seat.other(), &answer).is_err());
            referee.apply(seat, &answer).expect("legal");
        }
        let (record, ext) = referee.record(Some("3-1"), ["a", "b"], "seed 11");
        assert_eq!(ext, "mat");
        assert!(record.contains(" 3 point match"), "{record}");
    }

    #[test]
    fn wrong_dice_and_bad_cube_answers_are_illegal() {
        let mut referee = TavlaReferee::new(
            TavlaMatchRules {
                points: 0,
                cube: false,
            },
            3,
        );
        let commands = referee.interlude();
        assert!(commands[0].starts_with("new_game "));
        let seat = referee.seat_to_move();
        assert!(referee.move_request(seat).starts_with("genmove "));
        let Phase::ToPlay { dice, .. } = referee.game().phase() else {
            panic!("the opening winner plays");
        };
        let other = if dice.high() == 6 && dice.low() == 5 {
            "21"
        } else {
            "65"
        };
        assert!(referee.apply(seat, &format!("{other} 24/18")).is_err());
        assert!(referee.apply(seat, "double").is_err());
        assert!(referee.apply(seat, &format!("{dice} 24/1")).is_err());
        assert_eq!(
            referee.loss_of(seat, LossKind::Forfeit).winner,
            Some(seat.other())
        );
    }
}
