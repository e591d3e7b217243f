//! Mangala refereed by our rules for the arena: [`MangalaReferee`] implements the arena's
//! [`Referee`] for a match of one to five sets (the sheet's match is five, scored 1 / ½ / 0
//! a set, kept by [`Match`]), and writes a text record that [`replay_record`] reads back.
//!
//! The first seat is South. The draw (kura) decides who starts set 1; sets 2–5 follow the
//! starter order (alternating by default). Every set starts with `set_position` of the
//! start position with the starter to move, sent to both engines.
//!
//! The record (`games/0001.txt`):
//!
//! ```text
//! [Game "Mangala"]
//! [South "a"]
//! [North "b"]
//! [Rules "turkish"]
//! [Stones "4"]
//! [Sets "5"]
//! [Starters "alternate"]
//! [Draw "south hides the stone in the left hand, north guesses right: north starts"]
//! [Result "3.5-1.5"]
//! [Comment "…"]
//!
//! Set 1: north starts
//! N3 N6 S2 …
//! S+6 (south 27, north 21)
//! Set 2: south starts
//! …
//! 3.5-1.5
//! ```
//!
//! Moves are the mover's letter and pit number; an extra turn is simply the same letter
//! again. A one-set match's result is the set's (`S+6`, `N+2`, `0`); a longer match's is
//! South's points, a dash, North's (`3.5-1.5`).

use crate::contract::record::{find_tag, read_tags, write_tags};
use crate::contract::{IllegalMove, LossKind, Outcome, Referee, Replayed, Seat, SeatColors, Turn};

use super::draw::Draw;
use super::game::Game;
use super::notation::score_text;
use super::rules::{EndRule, Pit, Side};
use super::set_match::{Match, SetResult, StarterOrder, points_text};

/// Mangala's match flags, as `hamle match` and `hamle ladder` take them.
#[derive(clap::Args, Debug, Clone)]
#[group(id = "mangala-match-flags")]
pub struct MatchFlags {
    /// Mangala: sets a game (a match of the sheet is 5, scored 1 / ½ / 0 a set).
    #[arg(long, default_value_t = 5)]
    pub sets: usize,
    /// Mangala: stones a pit at the start of a set (1-5).
    #[arg(long, default_value_t = 4)]
    pub stones: u8,
    /// Mangala: the end rule, `turkish` (the sheet's) or `kalah`.
    #[arg(long, default_value = "turkish")]
    pub mangala_rules: EndRule,
    /// Mangala: who starts sets 2-5, `alternate` or `fixed` (the draw's winner).
    #[arg(long, default_value = "alternate")]
    pub starters: StarterOrder,
}

impl MatchFlags {
    /// The settings these flags give, checked.
    pub fn settings(&self) -> Result<MangalaMatchRules, String> {
        if !(1..=super::set_match::SETS).contains(&self.sets) {
            return Err(format!("--sets must be 1 to 5, got {}", self.sets));
        }
        if !(1..=super::rules::MAX_STONES_PER_PIT).contains(&self.stones) {
            return Err(format!("--stones must be 1 to 5, got {}", self.stones));
        }
        Ok(MangalaMatchRules {
            stones: self.stones,
            rule: self.mangala_rules,
            sets: self.sets,
            order: self.starters,
        })
    }
}

/// Settings of a refereed match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MangalaMatchRules {
    pub stones: u8,
    pub rule: EndRule,
    /// 1 to 5.
    pub sets: usize,
    pub order: StarterOrder,
}

/// An arena game of Mangala: a match of `sets` sets, South in the first seat.
#[derive(Clone, Debug)]
pub struct MangalaReferee {
    rules: MangalaMatchRules,
    draw: Draw,
    set_match: Match,
    /// Finished sets, then the one being played.
    sets: Vec<Game>,
}

pub(super) fn starter_order_word(order: StarterOrder) -> &'static str {
    match order {
        StarterOrder::Alternate => "alternate",
        StarterOrder::Fixed => "fixed",
    }
}

fn side_letter(side: Side) -> char {
    match side {
        Side::South => 'S',
        Side::North => 'N',
    }
}

impl MangalaReferee {
    pub fn new(rules: MangalaMatchRules, draw: Draw) -> MangalaReferee {
        let set_match = Match::new(draw.starter(), rules.order);
        let first = Game::new(rules.stones, rules.rule, draw.starter());
        MangalaReferee {
            rules,
            draw,
            set_match,
            sets: vec![first],
        }
    }

    pub fn draw(&self) -> Draw {
        self.draw
    }

    /// The sets so far, the one being played last.
    pub fn sets(&self) -> &[Game] {
        &self.sets
    }

    pub fn set_match(&self) -> &Match {
        &self.set_match
    }

    fn current(&self) -> &Game {
        match self.sets.last() {
            Some(game) => game,
            None => unreachable!("a match always holds a set"),
        }
    }

    /// The current set's start: an opening's moves are told to the engines after it, so
    /// the engines must not be set to the position the opening already reached.
    fn start_command(&self) -> String {
        let mut start = self.current().clone();
        while start.undo() {}
        format!("set_position {}", start.position())
    }

    /// Results of the finished sets (the current one included once over).
    fn results(&self) -> Vec<SetResult> {
        self.sets
            .iter()
            .filter(|game| game.is_over())
            .map(|game| match game.position().winner() {
                Some(side) => SetResult::Won(side),
                None => SetResult::Drawn,
            })
            .collect()
    }

    /// The match result from the sets played: a one-set match keeps the set's notation.
    fn counted(&self) -> Outcome {
        if self.rules.sets == 1 {
            let position = self.current().position();
            return Outcome {
                winner: position.winner().map(Side::seat),
                result: score_text(position),
            };
        }
        let mut tally = Match::new(self.draw.starter(), self.rules.order);
        for result in self.results() {
            tally.record(result);
        }
        let (south, north) = (
            tally.half_points(Side::South),
            tally.half_points(Side::North),
        );
        Outcome {
            winner: match south.cmp(&north) {
                std::cmp::Ordering::Greater => Some(Seat::First),
                std::cmp::Ordering::Less => Some(Seat::Second),
                std::cmp::Ordering::Equal => None,
            },
            result: format!("{}-{}", points_text(south), points_text(north)),
        }
    }
}

impl Referee for MangalaReferee {
    fn setup_commands(&self) -> Vec<String> {
        vec![
            format!("mangala-rules {}", self.rules.rule),
            format!("mangala-stones {}", self.rules.stones),
            self.start_command(),
        ]
    }

    fn interlude(&mut self) -> Vec<String> {
        if !self.current().is_over() || self.sets.len() >= self.rules.sets {
            return Vec::new();
        }
        let result = match self.current().position().winner() {
            Some(side) => SetResult::Won(side),
            None => SetResult::Drawn,
        };
        self.set_match.record(result);
        let starter = self.set_match.starter_of(self.sets.len() + 1);
        self.sets
            .push(Game::new(self.rules.stones, self.rules.rule, starter));
        vec![self.start_command()]
    }

    fn seat_to_move(&self) -> Seat {
        self.current().to_move().seat()
    }

    fn move_request(&self, seat: Seat) -> String {
        format!("genmove {}", Side::of_seat(seat))
    }

    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove> {
        let answer = answer.trim();
        if answer.eq_ignore_ascii_case("resign") {
            return Ok(Turn::Resigned);
        }
        let illegal = |reason: String| IllegalMove::new(answer, reason);
        let side = Side::of_seat(seat);
        let pit = Pit::parse_for(answer, side)
            .map_err(|_| illegal(format!("not a pit of {side}'s row (1 to 6)")))?;
        let Some(game) = self.sets.last_mut() else {
            unreachable!("a match always holds a set")
        };
        game.play(side, pit)
            .map_err(|reason| illegal(reason.to_string()))?;
        Ok(Turn::Played {
            forward: format!("play {side} {pit}"),
        })
    }

    /// As the engine's `gogui-rules_legal_moves` lists them: GoGui vertices of the side
    /// to move's row, which [`Referee::apply`] takes as it takes pit numbers.
    fn legal_moves(&self) -> Option<Vec<String>> {
        let position = self.current().position();
        let side = position.to_move();
        Some(
            position
                .legal_moves()
                .map(|p| p.gogui_vertex(side))
                .collect(),
        )
    }

    fn natural_end(&self) -> Option<Outcome> {
        (self.current().is_over() && self.sets.len() >= self.rules.sets).then(|| self.counted())
    }

    /// At the move cap the sets finished so far count (a set cut short counts as drawn).
    fn adjudicate(&self) -> Outcome {
        if self.rules.sets == 1 {
            let position = self.current().position();
            let winner = match position.store_difference(Side::South) {
                0 => None,
                d if d > 0 => Some(Seat::First),
                _ => Some(Seat::Second),
            };
            return Outcome {
                winner,
                result: score_text(position),
            };
        }
        let mut outcome = self.counted();
        if !self.current().is_over() {
            // The unfinished set is half a point each.
            let mut tally = Match::new(self.draw.starter(), self.rules.order);
            for result in self.results() {
                tally.record(result);
            }
            tally.record(SetResult::Drawn);
            let (south, north) = (
                tally.half_points(Side::South),
                tally.half_points(Side::North),
            );
            outcome.result = format!("{}-{}", points_text(south), points_text(north));
        }
        outcome
    }

    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome {
        Outcome::loss(seat, how, side_letter(Side::of_seat(seat.other())))
    }

    fn moves_played(&self) -> usize {
        self.sets.iter().map(|game| game.moves().len()).sum()
    }

    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str) {
        let mut text = write_tags(&[
            ("Game", "Mangala".to_owned()),
            ("South", players[0].to_owned()),
            ("North", players[1].to_owned()),
            ("Rules", self.rules.rule.to_string()),
            ("Stones", self.rules.stones.to_string()),
            ("Sets", self.rules.sets.to_string()),
            ("Starters", starter_order_word(self.rules.order).to_owned()),
            ("Draw", self.draw.to_string()),
            ("Result", result.unwrap_or("*").to_owned()),
            ("Comment", comment.to_owned()),
        ]);
        text.push('\n');
        for (index, game) in self.sets.iter().enumerate() {
            let starter = if game.moves().is_empty() {
                game.to_move()
            } else {
                game.moves()[0].0
            };
            text.push_str(&format!("Set {}: {starter} starts\n", index + 1));
            let moves: Vec<String> = game
                .moves()
                .iter()
                .map(|(side, pit, _)| format!("{}{pit}", side_letter(*side)))
                .collect();
            if !moves.is_empty() {
                text.push_str(&moves.join(" "));
                text.push('\n');
            }
            let position = game.position();
            if position.is_over() {
                text.push_str(&format!(
                    "{} (south {}, north {})\n",
                    score_text(position),
                    position.store(Side::South),
                    position.store(Side::North)
                ));
            } else {
                text.push_str("unfinished\n");
            }
        }
        text.push_str(result.unwrap_or("*"));
        text.push('\n');
        (text, "txt")
    }
}

/// Reads a record written by [`MangalaReferee`] and replays every set under the rules,
/// checking each set's announced starter; fails naming the first problem.
pub fn replay_record(text: &str) -> Result<Replayed<MangalaReferee>, String> {
    let tags = read_tags(text);
    let tag = |key: &str| find_tag(&tags, key);
    if tag("Game")? != "Mangala" {
        return Err("not a Mangala record".to_owned());
    }
    let number = |key: &str| -> Result<usize, String> {
        let value = tag(key)?;
        value
            .parse()
            .map_err(|_| format!("tag {key} is not a number: '{value}'"))
    };
    let rules = MangalaMatchRules {
        stones: u8::try_from(number("Stones")?).map_err(|_| "bad Stones".to_owned())?,
        rule: tag("Rules")?.parse()?,
        sets: number("Sets")?,
        order: tag("Starters")?.parse()?,
    };
    // The draw is re-created from its text: hider, hand hidden, guess.
    let draw_text = tag("Draw")?;
    let words: Vec<&str> = draw_text.split_whitespace().collect();
    let hand = |word: &str| match word {
        "left" => Ok(super::draw::Hand::Left),
        "right" => Ok(super::draw::Hand::Right),
        _ => Err(format!("bad draw: '{draw_text}'")),
    };
    let (Some(hider), Some(hidden), Some(guess)) = (words.first(), words.get(6), words.get(10))
    else {
        return Err(format!("bad draw: '{draw_text}'"));
    };
    let draw = Draw {
        hider: hider.parse()?,
        hidden_in: hand(hidden)?,
        guess: hand(guess.trim_end_matches(':'))?,
    };
    let mut referee = MangalaReferee::new(rules, draw);
    let mut set = 0;
    for line in text.lines().filter(|l| !l.starts_with('[')) {
        if let Some(rest) = line.strip_prefix("Set ") {
            set += 1;
            if set > 1 {
                referee.interlude();
            }
            let announced = rest.split_whitespace().nth(1).unwrap_or("");
            let starter = referee.current().to_move();
            if referee.sets.len() != set || announced != starter.to_string() {
                return Err(format!(
                    "set {set}: the record says '{rest}', the match says {starter} starts"
                ));
            }
            continue;
        }
        let is_moves = line
            .split_whitespace()
            .all(|w| (w.starts_with('S') || w.starts_with('N')) && w.len() == 2);
        if line.trim().is_empty() || !is_moves {
            continue;
        }
        for word in line.split_whitespace() {
            let side = if word.starts_with('S') {
                Side::South
            } else {
                Side::North
            };
            let seat = side.seat();
            if referee.seat_to_move() != seat {
                return Err(format!("set {set}: {word} out of turn"));
            }
            referee
                .apply(seat, &word[1..])
                .map_err(|illegal| format!("set {set}: {illegal}"))?;
        }
    }
    Ok(Replayed {
        referee,
        result: tag("Result")?,
        comment: tag("Comment").unwrap_or_default(),
    })
}

impl SeatColors for Side {
    const BY_SEAT: [Side; 2] = [Side::South, Side::North];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mangala::draw::Hand;

    fn draw(starter_north: bool) -> Draw {
        Draw {
            hider: Side::South,
            hidden_in: Hand::Left,
            guess: if starter_north {
                Hand::Left
            } else {
                Hand::Right
            },
        }
    }

    fn rules(sets: usize) -> MangalaMatchRules {
        MangalaMatchRules {
            stones: 4,
            rule: EndRule::default(),
            sets,
            order: StarterOrder::Alternate,
        }
    }

    /// Plays the lowest legal pit until the match ends, asking for interludes like the arena.
    fn play_out(referee: &mut MangalaReferee) -> (Outcome, usize) {
        let mut interludes = 0;
        loop {
            if !referee.interlude().is_empty() {
                interludes += 1;
            }
            if let Some(end) = referee.natural_end() {
                return (end, interludes);
            }
            let seat = referee.seat_to_move();
            let pit = referee
                .current()
                .position()
                .legal_moves()
                .next()
                .expect("a move");
            referee.apply(seat, &pit.to_string()).expect("legal");
        }
    }

    #[test]
    fn the_draw_decides_who_starts_and_moves_are_judged() {
        let mut referee = MangalaReferee::new(rules(1), draw(true));
        assert_eq!(referee.seat_to_move(), Seat::Second);
        assert_eq!(
            referee.setup_commands().last().map(String::as_str),
            Some("set_position 4,4,4,4,4,4,0/4,4,4,4,4,4,0/n")
        );
        assert_eq!(referee.move_request(Seat::Second), "genmove north");
        assert!(referee.apply(Seat::First, "1").is_err(), "not south's turn");
        assert!(referee.apply(Seat::Second, "7").is_err());
        assert!(referee.apply(Seat::Second, "x").is_err());
        assert_eq!(
            referee.apply(Seat::Second, "3"),
            Ok(Turn::Played {
                forward: "play north 3".into()
            })
        );
        assert_eq!(
            referee.loss_of(Seat::Second, LossKind::Forfeit).result,
            "S+F"
        );
        let south_starts = MangalaReferee::new(rules(1), draw(false));
        assert_eq!(south_starts.seat_to_move(), Seat::First);
    }

    #[test]
    fn five_sets_alternate_starters_and_replay_from_the_record() {
        let mut referee = MangalaReferee::new(rules(5), draw(true));
        let (end, interludes) = play_out(&mut referee);
        assert_eq!(interludes, 4);
        assert_eq!(referee.sets().len(), 5);
        let starters: Vec<Side> = referee.sets().iter().map(|g| g.moves()[0].0).collect();
        assert_eq!(
            starters,
            [
                Side::North,
                Side::South,
                Side::North,
                Side::South,
                Side::North
            ]
        );
        let (south, north) = end
            .result
            .split_once('-')
            .map(|(s, n)| (s.parse::<f64>().expect("s"), n.parse::<f64>().expect("n")))
            .expect("points");
        assert_eq!(south + north, 5.0, "{}", end.result);
        let (record, extension) = referee.record(Some(&end.result), ["a", "b"], "seed 9");
        assert_eq!(extension, "txt");
        let replayed = replay_record(&record).expect("replays");
        assert_eq!(replayed.result, end.result);
        assert_eq!(replayed.referee.natural_end(), Some(end));
        assert_eq!(replayed.referee.moves_played(), referee.moves_played());
        let tampered = record.replacen("Set 2: south", "Set 2: north", 1);
        assert!(replay_record(&tampered).is_err());
    }

    #[test]
    fn one_set_keeps_the_set_notation() {
        let mut referee = MangalaReferee::new(rules(1), draw(false));
        let (end, interludes) = play_out(&mut referee);
        assert_eq!(interludes, 0);
        assert!(
            end.result == "0" || end.result.starts_with("S+") || end.result.starts_with("N+"),
            "{}",
            end.result
        );
    }
}
