//! The Tavla player: picks a checker play for a roll and answers cube questions.
//!
//! Levels are evaluators of the position after a play; the player tries every legal play and
//! keeps the one its evaluator likes best for the mover.

use std::str::FromStr;

use super::board::{Board, Side};
use super::cube::{self, Access, MatchScore};
use super::dice::Dice;
use super::eval::Evaluator;
use super::game::{MatchRules, State};
use super::moves::{Candidate, Play, legal_plays};
use super::net::{Net, Probs};
use super::pubeval;
use super::race::RaceNet;

/// Which evaluator plays.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Level {
    /// Pip count, made points and exposed blots: a hand-written baseline.
    Greedy,
    /// Tesauro's published linear evaluator, the usual benchmark opponent.
    Pubeval,
    /// The trained net (with the bear-off database), each play scored where it lands.
    Net,
    /// The net looking one opponent roll ahead (gnubg's 1-ply).
    Net1,
    /// The net looking two rolls ahead (gnubg's 2-ply), on the best few plays.
    #[default]
    Net2,
}

impl Level {
    pub const ALL: [Level; 5] = [
        Level::Greedy,
        Level::Pubeval,
        Level::Net,
        Level::Net1,
        Level::Net2,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Level::Greedy => "greedy",
            Level::Pubeval => "pubeval",
            Level::Net => "net",
            Level::Net1 => "net1",
            Level::Net2 => "net2",
        }
    }

    /// Opponent rolls the net looks ahead, for the net levels.
    pub fn plies(self) -> Option<u32> {
        match self {
            Level::Greedy | Level::Pubeval => None,
            Level::Net => Some(0),
            Level::Net1 => Some(1),
            Level::Net2 => Some(2),
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = String;

    fn from_str(text: &str) -> Result<Level, String> {
        match text {
            "greedy" => Ok(Level::Greedy),
            "pubeval" => Ok(Level::Pubeval),
            "net" | "net0" => Ok(Level::Net),
            "net1" => Ok(Level::Net1),
            "net2" => Ok(Level::Net2),
            _ => Err(format!(
                "unknown level '{text}' (greedy, pubeval, net, net1, net2)"
            )),
        }
    }
}

/// The player at one level.
#[derive(Clone, Debug)]
pub struct Player {
    level: Level,
    net: &'static Net,
    /// The race net; none: the main net judges races too.
    race: Option<&'static RaceNet>,
    rules: MatchRules,
    evaluations: u64,
}

impl Default for Player {
    fn default() -> Player {
        Player::new(Level::default())
    }
}

impl Player {
    pub fn new(level: Level) -> Player {
        Player::with_net(level, Net::builtin())
    }

    /// A player whose net levels use `net` instead of the built-in weights.
    pub fn with_net(level: Level, net: &'static Net) -> Player {
        Player::with_nets(level, net, Some(RaceNet::builtin()))
    }

    /// A player whose net levels use `net` for contact and `race` for races (none: `net`
    /// for races too, as before the race net).
    pub fn with_nets(level: Level, net: &'static Net, race: Option<&'static RaceNet>) -> Player {
        Player {
            level,
            net,
            race,
            rules: MatchRules::default(),
            evaluations: 0,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    /// Plays at `level` from now on, keeping the match rules and the evaluation count (the
    /// engine's time management changes the level decision by decision).
    pub fn set_level(&mut self, level: Level) {
        self.level = level;
    }

    /// The match the cube decisions are for (length 0, the default, is money play).
    pub fn set_match_rules(&mut self, rules: MatchRules) {
        self.rules = rules;
    }

    /// The match the cube decisions are for, from a front end that knows only its length
    /// (0: money play) and whether the Crawford rule holds.
    pub fn set_match(&mut self, length: u32, crawford: bool) {
        self.rules = MatchRules {
            length,
            crawford,
            cube: true,
        };
    }

    /// Static evaluations made so far (net, bear-off database, finished games, pubeval).
    pub fn evaluations(&self) -> u64 {
        self.evaluations
    }

    /// The play `side` makes with `dice`.
    pub fn choose_play(&mut self, board: &Board, side: Side, dice: Dice) -> Play {
        self.choose(board, side, dice, false).0
    }

    /// The play `side` makes with `dice` (the same as [`Player::choose_play`]'s) and, at
    /// the net levels, the mover's cubeless equity after it as the search found it (a
    /// forced play: the net's 0-ply equity of it); `None` at the other levels.
    pub fn choose_judged(&mut self, board: &Board, side: Side, dice: Dice) -> (Play, Option<f32>) {
        self.choose(board, side, dice, true)
    }

    fn choose(
        &mut self,
        board: &Board,
        side: Side,
        dice: Dice,
        judge: bool,
    ) -> (Play, Option<f32>) {
        let plays = legal_plays(board, side, dice);
        let plies = self.level.plies();
        // A forced play needs no search; only its judgement, when asked for, evaluates it.
        if plays.len() == 1 && !(judge && plies.is_some()) {
            return (plays[0].play, None);
        }
        if let Some(plies) = plies {
            let mut evaluator = Evaluator::with_race(self.net, self.race);
            let (index, probs) = evaluator.choose(&plays, side, plies);
            self.evaluations += evaluator.evaluations;
            return (plays[index].play, Some(super::net::equity(&probs)));
        }
        (self.choose_scored(board, side, &plays), None)
    }

    /// The greedy or pubeval levels' play: the candidate of the best static score.
    fn choose_scored(&mut self, board: &Board, side: Side, plays: &[Candidate]) -> Play {
        let race = board.is_race();
        let mut best = plays[0].play;
        let mut best_score = f64::NEG_INFINITY;
        for candidate in plays {
            self.evaluations += 1;
            let score = match self.level {
                Level::Pubeval => f64::from(pubeval::score(&candidate.after, side, race)),
                _ => greedy(&candidate.after, side),
            };
            if score > best_score {
                best_score = score;
                best = candidate.play;
            }
        }
        best
    }

    /// How good `board` is for `side`, `side` having just moved; larger is better.
    pub fn evaluate(&self, board: &Board, side: Side) -> f64 {
        match self.level {
            Level::Greedy => greedy(board, side),
            Level::Pubeval => f64::from(pubeval::score(board, side, board.is_race())),
            Level::Net | Level::Net1 | Level::Net2 => {
                let mut evaluator = Evaluator::with_race(self.net, self.race);
                f64::from(super::net::equity(&evaluator.after_play(board, side, 0)))
            }
        }
    }

    /// The probabilities (win, win gammon, win backgammon, lose gammon, lose backgammon) of
    /// `board` for `on_roll` before its roll, at the level's depth (at most 1-ply, for time).
    pub fn probabilities(&mut self, board: &Board, on_roll: Side) -> Probs {
        let plies = self.level.plies().unwrap_or(0).min(1);
        let mut evaluator = Evaluator::with_race(self.net, self.race);
        let probs = evaluator.before_roll(board, on_roll, plies);
        self.evaluations += evaluator.evaluations;
        probs
    }

    /// The net's cube decision for `doubler` in `state` (double, and whether a take is right).
    fn cube_decision(&mut self, state: &State, doubler: Side) -> cube::Decision {
        let probs = self.probabilities(&state.board, doubler);
        let access = match state.cube_owner {
            None => Access::Centered,
            Some(owner) if owner == doubler => Access::Owned,
            Some(_) => Access::Theirs,
        };
        let length = self.rules.length;
        if length == 0 || length as usize > cube::MAX_AWAY {
            return cube::money(&probs, access);
        }
        let d = doubler.index();
        let score = MatchScore {
            away: i64::from(length) - i64::from(state.score[d]),
            their_away: i64::from(length) - i64::from(state.score[1 - d]),
            cube: i64::from(state.cube),
            crawford_game: state.crawford_game,
            post_crawford: state.crawford_done || !self.rules.crawford,
        };
        cube::in_match(&probs, access, &score)
    }

    /// Whether `side`, to roll, doubles.
    pub fn should_double(&mut self, state: &State, side: Side) -> bool {
        if self.level.plies().is_none() {
            let lead = race_lead(&state.board, side);
            return state.board.is_race() && (0.08..0.20).contains(&lead);
        }
        if state.crawford_game || state.cube_owner == Some(side.other()) {
            return false;
        }
        self.cube_decision(state, side).double
    }

    /// Whether `side`, doubled, takes.
    pub fn should_take(&mut self, state: &State, side: Side) -> bool {
        if self.level.plies().is_none() {
            return !state.board.is_race() || race_lead(&state.board, side.other()) < 0.20;
        }
        // While a double is pending the state still shows the cube before it: the doubler's
        // view of that cube is what the decision needs.
        self.cube_decision(state, side.other()).take
    }
}

/// The doubler's relative pip lead in a race, counting its roll as 8 pips.
fn race_lead(board: &Board, side: Side) -> f64 {
    let mine = f64::from(board.pip_count(side)) - 4.0;
    let theirs = f64::from(board.pip_count(side.other())) + 4.0;
    (theirs - mine) / mine.max(1.0)
}

fn greedy(board: &Board, side: Side) -> f64 {
    let other = side.other();
    let mine = board.row(side);
    let pips = f64::from(board.pip_count(other)) - f64::from(board.pip_count(side));
    let mut score = pips;
    score += 4.0 * f64::from(board.bar(other));
    score += 2.0 * f64::from(board.borne_off(side));
    if board.is_race() {
        return score;
    }
    for point in 1..=24usize {
        let n = mine[point - 1];
        if n >= 2 {
            // Home points and the bar point block best.
            score += if point <= 7 { 3.0 } else { 1.5 };
        } else if n == 1 && exposed(board, side, point) {
            score -= 2.0 + (25 - point) as f64 / 6.0;
        }
    }
    score
}

/// Whether an opposing checker stands within direct range of `side`'s blot on `point`.
fn exposed(board: &Board, side: Side, point: usize) -> bool {
    let theirs = board.row(side.other());
    // The opponent's checker on its point q is on our point 25 - q; it hits our point p
    // from our points above p, i.e. its points below 25 - p, within 12 pips.
    let their_point = 25 - point;
    (their_point + 1..=(their_point + 12).min(25)).any(|q| theirs[q - 1] > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tavla::game::Phase;

    fn state(board: Board) -> State {
        State {
            board,
            phase: Phase::ToRoll(Side::White),
            cube: 1,
            cube_owner: None,
            score: [0, 0],
            crawford_game: false,
            crawford_done: false,
            games: 0,
        }
    }

    fn bear_off(white: [u8; 6], black: [u8; 6]) -> Board {
        let mut rows = [[0u8; 25]; 2];
        rows[0][..6].copy_from_slice(&white);
        rows[1][..6].copy_from_slice(&black);
        Board::from_rows(rows).expect("board")
    }

    #[test]
    fn levels_parse_and_play_legally() {
        for level in Level::ALL {
            assert_eq!(level.name().parse::<Level>(), Ok(level));
            let mut player = Player::new(level);
            let dice = Dice::new(3, 1).expect("dice");
            let play = player.choose_play(&Board::start(), Side::White, dice);
            let legal = legal_plays(&Board::start(), Side::White, dice);
            assert!(legal.iter().any(|c| c.play == play), "{level}");
        }
        assert!("net3".parse::<Level>().is_err());
        assert_eq!("net0".parse::<Level>(), Ok(Level::Net));
    }

    #[test]
    fn net_cube_decisions() {
        let mut player = Player::new(Level::Net);
        // A huge lead in a bear-off (checkers off on both sides, no gammons): double, pass.
        let board = bear_off([0, 2, 2, 0, 0, 0], [0, 0, 2, 3, 3, 3]);
        let s = state(board);
        assert!(player.should_double(&s, Side::White));
        assert!(!player.should_take(&s, Side::Black));
        // A close bear-off: no double, and a take.
        let board = bear_off([0, 0, 2, 2, 2, 2], [0, 0, 2, 2, 2, 2]);
        let s = state(board);
        assert!(!player.should_double(&s, Side::White));
        assert!(player.should_take(&s, Side::Black));
        // The start: no double.
        assert!(!player.should_double(&state(Board::start()), Side::White));
        // No double in the Crawford game, whatever the position.
        player.set_match_rules(MatchRules {
            length: 5,
            ..MatchRules::default()
        });
        let mut crawford = state(bear_off([0, 2, 2, 0, 0, 0], [0, 0, 2, 3, 3, 3]));
        crawford.score = [4, 2];
        crawford.crawford_game = true;
        assert!(!player.should_double(&crawford, Side::White));
        // The same race at 0-0 in a 5-point match: double, and the trailer passes.
        crawford.score = [0, 0];
        crawford.crawford_game = false;
        assert!(player.should_double(&crawford, Side::White));
        assert!(!player.should_take(&crawford, Side::Black));
    }
}
