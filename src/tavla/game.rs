//! A Tavla match: games to N points (or money play), the cube, Crawford, and every
//! action in order so the match can be undone, written out and replayed.

use std::fmt;

use super::board::{Board, Side};
use super::dice::Dice;
use super::ids::{GameState, MatchKey};
use super::moves::{Candidate, Play, legal_plays};

/// The cube's highest value (the sheet's cap).
pub const MAX_CUBE: u32 = 64;

/// How a game was won, before the cube multiplies it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum WinKind {
    /// "oyun": 1 point.
    Single = 1,
    /// "mars": the loser bore off no checker; 2 points.
    Gammon = 2,
    /// "katmerli mars": no checker off and one still on the bar or in the winner's home; 3.
    Backgammon = 3,
}

impl WinKind {
    pub fn points(self) -> u32 {
        self as u32
    }

    pub fn name(self) -> &'static str {
        match self {
            WinKind::Single => "single",
            WinKind::Gammon => "gammon",
            WinKind::Backgammon => "backgammon",
        }
    }

    /// How `winner`, having borne everything off, won against what is left of the loser.
    pub fn of(board: &Board, winner: Side) -> WinKind {
        let loser = winner.other();
        if board.borne_off(loser) > 0 {
            WinKind::Single
        } else if board.row(loser)[18..].iter().any(|&n| n > 0) {
            // The loser's points 19–24 are the winner's home board; index 24 is the bar.
            WinKind::Backgammon
        } else {
            WinKind::Gammon
        }
    }
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Before the opening roll.
    Opening,
    /// `side` is to roll (and may double first, when the cube allows).
    ToRoll(Side),
    /// `by` has doubled; the other side takes or drops.
    Doubled { by: Side },
    /// `side` is to play `dice`.
    ToPlay { side: Side, dice: Dice },
    /// The game is over.
    Over(GameEnd),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    pub winner: Side,
    /// `None` when the loser dropped a double.
    pub kind: Option<WinKind>,
    pub points: u32,
}

/// The options of a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchRules {
    /// Points to win; 0 is money play (one game after another, no end).
    pub length: u32,
    pub crawford: bool,
    pub cube: bool,
}

impl Default for MatchRules {
    fn default() -> MatchRules {
        MatchRules {
            length: 0,
            crawford: true,
            cube: true,
        }
    }
}

/// One thing that happened, in order.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The opening roll: white's die and black's die.
    Opening {
        white: u8,
        black: u8,
    },
    Roll {
        side: Side,
        dice: Dice,
    },
    Play {
        side: Side,
        dice: Dice,
        play: Play,
    },
    Double {
        side: Side,
    },
    Take {
        side: Side,
    },
    Drop {
        side: Side,
    },
    Win(GameEnd),
}

/// What a side tried to do when it was not its turn to do it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TurnAction {
    Roll,
    Play,
}

impl fmt::Display for TurnAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TurnAction::Roll => "roll",
            TurnAction::Play => "play",
        })
    }
}

/// Why the rules refuse an action (an opening, a roll, a play, a cube action, an undo).
///
/// The texts are the engine's wire answers: `Display` must not change them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    NothingToUndo,
    /// A new game was asked for after the match was won.
    MatchOver {
        winner: Side,
    },
    GameInProgress,
    /// The sheet throws equal opening dice again.
    EqualOpeningDice,
    /// An opening die outside 1–6; the text is [`Dice::new`]'s.
    BadOpeningDie(String),
    /// Doubling is only done before rolling, on one's own turn.
    DoubleOutOfTurn {
        side: Side,
    },
    CubeNotInUse,
    CrawfordGame,
    CubeOwnedBy {
        owner: Side,
    },
    CubeAtCap,
    NoDoubleToTake,
    NoDoubleToDrop,
    /// The doubler tried to answer its own double.
    DoublerAnswers {
        doubler: Side,
    },
    /// `side` tried to roll or play while the game waits for something else (`phase`).
    NotYourTurn {
        side: Side,
        action: TurnAction,
        phase: Phase,
    },
    /// Nobody has dice to play.
    NoDiceRolled,
    /// `play` is not among the legal plays of `dice`.
    IllegalPlay {
        play: Play,
        dice: Dice,
    },
    /// The match already keeps [`MAX_KEPT_ACTIONS`] actions.
    TooLong,
}

/// The most actions (rolls, plays, cube actions, set-ups) a match or money session keeps,
/// for undo and its record: a real game takes about 150, a 25-point match a few thousand,
/// so this is far past any real match, and it keeps a stream of actions from growing
/// memory without bound (about 100 bytes an action).
pub const MAX_KEPT_ACTIONS: usize = 200_000;

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::NothingToUndo => f.write_str("nothing to undo"),
            IllegalMove::MatchOver { winner } => write!(f, "the match is over: {winner} won it"),
            IllegalMove::GameInProgress => f.write_str("a game is in progress"),
            IllegalMove::EqualOpeningDice => f.write_str("equal opening dice are thrown again"),
            IllegalMove::BadOpeningDie(text) => f.write_str(text),
            IllegalMove::DoubleOutOfTurn { side } => {
                write!(f, "{side} may double only before rolling on its own turn")
            }
            IllegalMove::CubeNotInUse => f.write_str("the cube is not in use"),
            IllegalMove::CrawfordGame => f.write_str("no doubling in the Crawford game"),
            IllegalMove::CubeOwnedBy { owner } => write!(f, "the cube belongs to {owner}"),
            IllegalMove::CubeAtCap => write!(f, "the cube is at its cap of {MAX_CUBE}"),
            IllegalMove::NoDoubleToTake => f.write_str("no double to take"),
            IllegalMove::NoDoubleToDrop => f.write_str("no double to drop"),
            IllegalMove::DoublerAnswers { doubler } => {
                write!(f, "{doubler} doubled; {} takes or drops", doubler.other())
            }
            IllegalMove::NotYourTurn {
                side,
                action,
                phase,
            } => write_turn_refusal(f, *side, *action, *phase),
            IllegalMove::NoDiceRolled => f.write_str("nobody is to play: roll first"),
            IllegalMove::IllegalPlay { .. } => f.write_str("not a legal play with these dice"),
            IllegalMove::TooLong => write!(
                f,
                "game too long: a match keeps at most {MAX_KEPT_ACTIONS} actions; start a new one (new_match)"
            ),
        }
    }
}

/// "`side` cannot `action`: " and what the game waits for instead.
fn write_turn_refusal(
    f: &mut fmt::Formatter<'_>,
    side: Side,
    action: TurnAction,
    phase: Phase,
) -> fmt::Result {
    write!(f, "{side} cannot {action}: ")?;
    match phase {
        Phase::Opening => f.write_str("no game started (new_game)"),
        Phase::ToRoll(s) => write!(f, "{s} is to roll"),
        Phase::Doubled { by } => write!(f, "{by} doubled, {} takes or drops", by.other()),
        Phase::ToPlay { side: s, dice } => write!(f, "{s} is to play {dice}"),
        Phase::Over(_) => f.write_str("the game is over"),
    }
}

impl std::error::Error for IllegalMove {}

/// The state that undo restores, copied whole before each action.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub board: Board,
    pub phase: Phase,
    pub cube: u32,
    pub cube_owner: Option<Side>,
    pub score: [u32; 2],
    /// This game is the Crawford game: nobody may double.
    pub crawford_game: bool,
    /// The Crawford game has been played in this match.
    pub crawford_done: bool,
    /// Games finished in this match.
    pub games: u32,
}

/// A match (or money session) in progress.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    rules: MatchRules,
    state: State,
    undo: Vec<(State, usize)>,
    actions: Vec<Action>,
}

impl Game {
    pub fn new(rules: MatchRules) -> Game {
        Game {
            rules,
            state: State {
                board: Board::start(),
                phase: Phase::Opening,
                cube: 1,
                cube_owner: None,
                score: [0, 0],
                crawford_game: false,
                crawford_done: false,
                games: 0,
            },
            undo: Vec::new(),
            actions: Vec::new(),
        }
    }

    /// A game set up from outside (a Position ID, a FIBS board): `side` to roll or play.
    pub fn set_state(&mut self, state: State) -> Result<(), IllegalMove> {
        self.remember()?;
        self.state = state;
        Ok(())
    }

    pub fn rules(&self) -> MatchRules {
        self.rules
    }

    /// Turns the Crawford rule on or off for the games still to start.
    pub fn set_crawford(&mut self, on: bool) {
        self.rules.crawford = on;
    }

    pub fn state(&self) -> &State {
        &self.state
    }

    pub fn board(&self) -> &Board {
        &self.state.board
    }

    pub fn phase(&self) -> Phase {
        self.state.phase
    }

    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    /// The match is won: a score reached the length.
    pub fn match_winner(&self) -> Option<Side> {
        if self.rules.length == 0 {
            return None;
        }
        Side::BOTH
            .into_iter()
            .find(|s| self.state.score[s.index()] >= self.rules.length)
    }

    /// Keeps the state for undo before an action; refused once the match keeps
    /// [`MAX_KEPT_ACTIONS`].
    fn remember(&mut self) -> Result<(), IllegalMove> {
        if self.undo.len() >= MAX_KEPT_ACTIONS || self.actions.len() >= MAX_KEPT_ACTIONS {
            return Err(IllegalMove::TooLong);
        }
        self.undo.push((self.state, self.actions.len()));
        Ok(())
    }

    /// Takes back the last action (a roll, a play, a double, a take or drop, the opening).
    pub fn undo(&mut self) -> Result<(), IllegalMove> {
        let Some((state, actions)) = self.undo.pop() else {
            return Err(IllegalMove::NothingToUndo);
        };
        self.state = state;
        self.actions.truncate(actions);
        Ok(())
    }

    /// Starts the next game of the match with the opening roll: the higher die moves first
    /// and plays both numbers. Ties are refused (the sheet throws them again).
    pub fn start_game(&mut self, white: u8, black: u8) -> Result<(), IllegalMove> {
        if let Some(winner) = self.match_winner() {
            return Err(IllegalMove::MatchOver { winner });
        }
        match self.state.phase {
            Phase::Opening | Phase::Over(_) => {}
            _ => return Err(IllegalMove::GameInProgress),
        }
        if white == black {
            return Err(IllegalMove::EqualOpeningDice);
        }
        // The winner's die first, as gnubg lists an opening roll.
        let dice =
            Dice::new(white.max(black), white.min(black)).map_err(IllegalMove::BadOpeningDie)?;
        self.remember()?;
        let side = if white > black {
            Side::White
        } else {
            Side::Black
        };
        let s = &mut self.state;
        s.board = Board::start();
        s.cube = 1;
        s.cube_owner = None;
        let target = self.rules.length;
        let someone_at_match_point = target > 0 && s.score.iter().any(|&p| p + 1 == target);
        s.crawford_game = self.rules.crawford && !s.crawford_done && someone_at_match_point;
        if s.crawford_game {
            s.crawford_done = true;
        }
        s.phase = Phase::ToPlay { side, dice };
        self.actions.push(Action::Opening { white, black });
        Ok(())
    }

    /// Whether `side` may double now.
    pub fn may_double(&self, side: Side) -> Result<(), IllegalMove> {
        let s = &self.state;
        if s.phase != Phase::ToRoll(side) {
            return Err(IllegalMove::DoubleOutOfTurn { side });
        }
        if !self.rules.cube {
            return Err(IllegalMove::CubeNotInUse);
        }
        if s.crawford_game {
            return Err(IllegalMove::CrawfordGame);
        }
        if s.cube_owner == Some(side.other()) {
            return Err(IllegalMove::CubeOwnedBy {
                owner: side.other(),
            });
        }
        if s.cube >= MAX_CUBE {
            return Err(IllegalMove::CubeAtCap);
        }
        Ok(())
    }

    pub fn double(&mut self, side: Side) -> Result<(), IllegalMove> {
        self.may_double(side)?;
        self.remember()?;
        self.state.phase = Phase::Doubled { by: side };
        self.actions.push(Action::Double { side });
        Ok(())
    }

    pub fn take(&mut self, side: Side) -> Result<(), IllegalMove> {
        let Phase::Doubled { by } = self.state.phase else {
            return Err(IllegalMove::NoDoubleToTake);
        };
        if by == side {
            return Err(IllegalMove::DoublerAnswers { doubler: side });
        }
        self.remember()?;
        let s = &mut self.state;
        s.cube *= 2;
        s.cube_owner = Some(side);
        s.phase = Phase::ToRoll(by);
        self.actions.push(Action::Take { side });
        Ok(())
    }

    pub fn drop_cube(&mut self, side: Side) -> Result<(), IllegalMove> {
        let Phase::Doubled { by } = self.state.phase else {
            return Err(IllegalMove::NoDoubleToDrop);
        };
        if by == side {
            return Err(IllegalMove::DoublerAnswers { doubler: side });
        }
        self.remember()?;
        self.actions.push(Action::Drop { side });
        let end = GameEnd {
            winner: by,
            kind: None,
            points: self.state.cube,
        };
        self.finish(end);
        Ok(())
    }

    /// `side` rolls `dice` (from the arena, the user or the engine's roller).
    pub fn roll(&mut self, side: Side, dice: Dice) -> Result<(), IllegalMove> {
        if self.state.phase != Phase::ToRoll(side) {
            return Err(IllegalMove::NotYourTurn {
                side,
                action: TurnAction::Roll,
                phase: self.state.phase,
            });
        }
        self.remember()?;
        self.state.phase = Phase::ToPlay { side, dice };
        self.actions.push(Action::Roll { side, dice });
        Ok(())
    }

    /// The legal plays of the side to play, or an error when nobody is to play.
    pub fn legal(&self) -> Result<(Side, Dice, Vec<Candidate>), IllegalMove> {
        match self.state.phase {
            Phase::ToPlay { side, dice } => {
                Ok((side, dice, legal_plays(&self.state.board, side, dice)))
            }
            _ => Err(IllegalMove::NoDiceRolled),
        }
    }

    /// Plays `play`, which must be one of [`Game::legal`]'s.
    pub fn play(&mut self, side: Side, play: Play) -> Result<(), IllegalMove> {
        let (mover, dice, legal) = self.legal()?;
        if mover != side {
            return Err(IllegalMove::NotYourTurn {
                side,
                action: TurnAction::Play,
                phase: self.state.phase,
            });
        }
        let Some(candidate) = legal.iter().find(|c| c.play == play) else {
            return Err(IllegalMove::IllegalPlay { play, dice });
        };
        self.remember()?;
        self.state.board = candidate.after;
        self.actions.push(Action::Play { side, dice, play });
        if self.state.board.on_board(side) == 0 {
            let kind = WinKind::of(&self.state.board, side);
            let end = GameEnd {
                winner: side,
                kind: Some(kind),
                points: kind.points() * self.state.cube,
            };
            self.finish(end);
        } else {
            self.state.phase = Phase::ToRoll(side.other());
        }
        Ok(())
    }

    fn finish(&mut self, end: GameEnd) {
        let s = &mut self.state;
        s.score[end.winner.index()] += end.points;
        s.games += 1;
        s.crawford_game = false;
        s.phase = Phase::Over(end);
        self.actions.push(Action::Win(end));
    }

    /// The side whose decision the game waits for, if any.
    pub fn to_act(&self) -> Option<Side> {
        match self.state.phase {
            Phase::ToRoll(side) | Phase::ToPlay { side, .. } => Some(side),
            Phase::Doubled { by } => Some(by.other()),
            Phase::Opening | Phase::Over(_) => None,
        }
    }

    /// gnubg's view of the match, for the Match ID.
    pub fn match_key(&self) -> MatchKey {
        let s = &self.state;
        let (state, dice_owner, turn, doubled, dice) = match s.phase {
            Phase::Opening => (GameState::NoGame, Side::White, Side::White, false, None),
            Phase::ToRoll(side) => (GameState::Playing, side, side, false, None),
            Phase::Doubled { by } => (GameState::Playing, by, by.other(), true, None),
            Phase::ToPlay { side, dice } => (GameState::Playing, side, side, false, Some(dice)),
            Phase::Over(end) => {
                let state = if end.kind.is_none() {
                    GameState::Dropped
                } else {
                    GameState::Over
                };
                (state, end.winner, end.winner, false, None)
            }
        };
        MatchKey {
            cube: s.cube,
            cube_owner: s.cube_owner,
            dice_owner,
            crawford: s.crawford_game,
            state,
            turn,
            doubled,
            resigned: 0,
            dice,
            match_length: self.rules.length,
            score: s.score,
            jacoby: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_keeps_at_most_its_limit_of_actions() {
        let mut game = Game::new(MatchRules {
            length: 0,
            ..MatchRules::default()
        });
        game.start_game(3, 1).expect("opening");
        // As if the actions had been taken: no real match comes near the limit.
        let filler = game.undo[0];
        game.undo.resize(MAX_KEPT_ACTIONS, filler);
        let before = game.clone();
        let (side, _, legal) = game.legal().expect("to play");
        let refused = game.play(side, legal[0].play);
        assert_eq!(
            refused.map_err(|e| e.to_string()),
            Err(format!(
                "game too long: a match keeps at most {MAX_KEPT_ACTIONS} actions; start a new one (new_match)"
            ))
        );
        assert_eq!(game, before, "a refused action changes nothing");
        assert!(game.undo().is_ok());
    }

    /// The refusals are wire answers of `hamle tavla`: their texts are pinned here.
    #[test]
    fn refusal_texts_are_the_wire_answers() {
        let dice = Dice::new(2, 1).expect("dice");
        let cases = [
            (IllegalMove::NothingToUndo, "nothing to undo"),
            (
                IllegalMove::MatchOver {
                    winner: Side::Black,
                },
                "the match is over: black won it",
            ),
            (IllegalMove::GameInProgress, "a game is in progress"),
            (
                IllegalMove::EqualOpeningDice,
                "equal opening dice are thrown again",
            ),
            (
                IllegalMove::DoubleOutOfTurn { side: Side::White },
                "white may double only before rolling on its own turn",
            ),
            (IllegalMove::CubeNotInUse, "the cube is not in use"),
            (
                IllegalMove::CrawfordGame,
                "no doubling in the Crawford game",
            ),
            (
                IllegalMove::CubeOwnedBy { owner: Side::White },
                "the cube belongs to white",
            ),
            (IllegalMove::CubeAtCap, "the cube is at its cap of 64"),
            (IllegalMove::NoDoubleToTake, "no double to take"),
            (IllegalMove::NoDoubleToDrop, "no double to drop"),
            (
                IllegalMove::DoublerAnswers {
                    doubler: Side::Black,
                },
                "black doubled; white takes or drops",
            ),
            (
                IllegalMove::NotYourTurn {
                    side: Side::White,
                    action: TurnAction::Roll,
                    phase: Phase::Opening,
                },
                "white cannot roll: no game started (new_game)",
            ),
            (
                IllegalMove::NotYourTurn {
                    side: Side::White,
                    action: TurnAction::Play,
                    phase: Phase::ToRoll(Side::Black),
                },
                "white cannot play: black is to roll",
            ),
            (
                IllegalMove::NotYourTurn {
                    side: Side::Black,
                    action: TurnAction::Roll,
                    phase: Phase::Doubled { by: Side::White },
                },
                "black cannot roll: white doubled, black takes or drops",
            ),
            (
                IllegalMove::NotYourTurn {
                    side: Side::White,
                    action: TurnAction::Roll,
                    phase: Phase::ToPlay {
                        side: Side::Black,
                        dice,
                    },
                },
                "white cannot roll: black is to play 21",
            ),
            (
                IllegalMove::NotYourTurn {
                    side: Side::White,
                    action: TurnAction::Play,
                    phase: Phase::Over(GameEnd {
                        winner: Side::Black,
                        kind: None,
                        points: 1,
                    }),
                },
                "white cannot play: the game is over",
            ),
            (IllegalMove::NoDiceRolled, "nobody is to play: roll first"),
            (
                IllegalMove::IllegalPlay {
                    play: Play::default(),
                    dice,
                },
                "not a legal play with these dice",
            ),
        ];
        for (refusal, text) in cases {
            assert_eq!(refusal.to_string(), text);
        }
    }

    #[test]
    fn an_opening_die_out_of_range_keeps_the_dice_text() {
        let mut game = Game::new(MatchRules::default());
        let refusal = game.start_game(7, 1).expect_err("die 7");
        assert_eq!(
            refusal,
            IllegalMove::BadOpeningDie("die 7 is out of range 1-6".into())
        );
        assert_eq!(refusal.to_string(), "die 7 is out of range 1-6");
    }
}
