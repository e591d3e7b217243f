//! A game of Go as the GTP engine sees it: the board plus whose turn it is, ko and
//! superko history, prisoners, passes, handicap, and undo.

use std::collections::HashMap;
use std::fmt;

use super::board::{Board, BoardSizeError, PlayOutcome, Point, side_to_move_key};
use super::color::Color;
use super::notation::{MoveVertex, Vertex};
use super::rules::{KoRule, Rules, Scoring};
use super::score::{FinalScore, ScoreBreakdown, Status};

/// Why a move is illegal.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The vertex is not on this board.
    OffBoard,
    Occupied,
    /// The move would leave its own chain without liberties (or is a single-stone
    /// suicide, which no rule set allows).
    Suicide,
    /// Immediate recapture of a ko.
    Ko,
    /// The move would repeat an earlier position (or situation) under superko.
    Superko,
    /// The game already holds [`Game::move_limit`] moves.
    TooLong {
        limit: usize,
    },
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let IllegalMove::TooLong { limit } = self {
            return write!(
                f,
                "game too long: a game keeps at most {limit} moves; start a new one (clear_board)"
            );
        }
        f.write_str(match self {
            IllegalMove::TooLong { .. } => "game too long",
            IllegalMove::OffBoard => "off board",
            IllegalMove::Occupied => "occupied",
            IllegalMove::Suicide => "suicide",
            IllegalMove::Ko => "ko",
            IllegalMove::Superko => "superko",
        })
    }
}

impl std::error::Error for IllegalMove {}

/// Why handicap stones cannot be placed. The messages are GTP's error texts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum HandicapError {
    InvalidNumberOfStones,
    BoardNotEmpty,
    BadVertexList,
}

impl fmt::Display for HandicapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            HandicapError::InvalidNumberOfStones => "invalid number of stones",
            HandicapError::BoardNotEmpty => "board not empty",
            HandicapError::BadVertexList => "bad vertex list",
        })
    }
}

impl std::error::Error for HandicapError {}

/// Why a setup position is refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum SetupError {
    OffBoard(Vertex),
    /// The stone at the vertex would be in a chain without liberties.
    NoLiberties(Vertex),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::OffBoard(v) => write!(f, "{v} is off the board"),
            SetupError::NoLiberties(v) => write!(f, "the chain at {v} has no liberties"),
        }
    }
}

impl std::error::Error for SetupError {}

/// The fixed handicap vertices of GTP §4.1.1, in the specification's order (for 19×19:
/// D4 Q16 D16 Q4, then D10 Q10 for 6+, K4 K16 for 8+, and K10 for 5, 7 and 9).
///
/// Defined for boards of 7×7 and larger with 2 to 9 stones; 7×7 and even-sized boards,
/// which have no centre point or side points, take at most 4. The stones go on the third
/// line on boards up to 11×11 and on the fourth from 12×12 up, as the reference
/// implementation (GNU Go) does.
pub fn fixed_handicap_vertices(size: usize, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
    let max = match size {
        0..7 => 0,
        7 => 4,
        _ if size > crate::go::notation::MAX_BOARD_SIZE => 0,
        _ if size.is_multiple_of(2) => 4,
        _ => 9,
    };
    if !(2..=max).contains(&stones) {
        return Err(HandicapError::InvalidNumberOfStones);
    }
    // size <= 25, so these fit in u8.
    let low = if size >= 12 { 3 } else { 2 };
    let (low, high, mid) = (low as u8, (size - 1 - low) as u8, (size / 2) as u8);
    let placed = [
        Vertex::new(low, low),
        Vertex::new(high, high),
        Vertex::new(low, high),
        Vertex::new(high, low),
        Vertex::new(low, mid),
        Vertex::new(high, mid),
        Vertex::new(mid, low),
        Vertex::new(mid, high),
    ];
    let centre = Vertex::new(mid, mid);
    // Beyond four, odd counts are the even count below plus the centre.
    let around = if stones > 4 {
        stones - stones % 2
    } else {
        stones
    };
    let mut out = placed[..around].to_vec();
    if around < stones {
        out.push(centre);
    }
    Ok(out)
}

/// What `undo` needs to restore the state before a move.
#[derive(Copy, Clone, Debug, PartialEq)]
struct UndoRecord {
    color: Color,
    mv: MoveVertex,
    ko: Option<(Color, Point)>,
    to_move: Color,
    consecutive_passes: u32,
    /// Where this move's removed stones start in `Game::removed`.
    removed_from: usize,
    outcome: PlayOutcome,
}

/// The state of a game of Go.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    rules: Rules,
    komi: f32,
    board: Board,
    to_move: Color,
    /// Stones captured by each colour (suicided stones count for the opponent).
    prisoners: [u32; 2],
    consecutive_passes: u32,
    handicap: u32,
    undo: Vec<UndoRecord>,
    /// Stones each move removed, for undo: one flat list indexed from the records.
    removed: Vec<Point>,
    /// How often each position (stones only) occurred since the start or setup.
    positional: HashMap<u64, u32>,
    /// How often each situation (stones and side to move) occurred.
    situational: HashMap<u64, u32>,
}

impl Game {
    /// An empty board of `size` with Black to move and the rules' default komi.
    pub fn new(size: usize, rules: Rules) -> Result<Game, BoardSizeError> {
        let mut game = Game {
            rules,
            komi: rules.default_komi,
            board: Board::new(size)?,
            to_move: Color::Black,
            prisoners: [0; 2],
            consecutive_passes: 0,
            handicap: 0,
            undo: Vec::new(),
            removed: Vec::new(),
            positional: HashMap::new(),
            situational: HashMap::new(),
        };
        game.remember_position();
        Ok(game)
    }

    /// Back to an empty board, Black to move, no history; rules and komi are kept.
    pub fn clear(&mut self) {
        self.board.clear();
        self.to_move = Color::Black;
        self.prisoners = [0; 2];
        self.consecutive_passes = 0;
        self.handicap = 0;
        self.forget_history();
    }

    pub fn size(&self) -> usize {
        self.board.size()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the rules; the komi stays as it is.
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    pub fn komi(&self) -> f32 {
        self.komi
    }

    pub fn set_komi(&mut self, komi: f32) {
        self.komi = komi;
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the side to move (SGF `PL`); the current situation is re-recorded with it.
    pub fn set_to_move(&mut self, color: Color) {
        self.forget_position();
        self.to_move = color;
        self.remember_position();
    }

    /// Stones captured by `color` so far.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners[color.index()]
    }

    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// Two passes in a row end the game.
    pub fn is_over(&self) -> bool {
        self.consecutive_passes >= 2
    }

    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// Records the number of handicap stones (SGF `HA`) without placing any.
    pub fn set_handicap(&mut self, handicap: u32) {
        self.handicap = handicap;
    }

    /// The moves played since the start or the last setup, oldest first.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = (Color, MoveVertex)> + '_ {
        self.undo.iter().map(|r| (r.color, r.mv))
    }

    pub fn move_count(&self) -> usize {
        self.undo.len()
    }

    /// The most moves a game keeps: ten times the board's points, at least 1000 (1000 up
    /// to 10x10, 3610 on 19x19), far past any real game (the arena stops one at three
    /// times; a tiny board's captures and recaptures run long), so that no stream of moves
    /// (`play b pass` forever) grows memory without bound.
    pub fn move_limit(&self) -> usize {
        (10 * self.size() * self.size()).max(1000)
    }

    pub fn last_move(&self) -> Option<(Color, MoveVertex)> {
        self.undo.last().map(|r| (r.color, r.mv))
    }

    /// The simple-ko point and the colour that may not play there now.
    pub fn ko(&self) -> Option<(Color, Vertex)> {
        self.board.ko().map(|(c, p)| (c, self.board.vertex(p)))
    }

    pub fn is_legal(&self, color: Color, mv: MoveVertex) -> bool {
        self.legality(color, mv).is_ok()
    }

    /// Whether `color` may play `mv` now, and if not why. Any colour may be asked
    /// about, not only the side to move (GTP lets either colour play).
    pub fn legality(&self, color: Color, mv: MoveVertex) -> Result<(), IllegalMove> {
        let MoveVertex::Play(v) = mv else {
            return Ok(());
        };
        let board = &self.board;
        let p = board.try_point(v).ok_or(IllegalMove::OffBoard)?;
        if !board.is_empty_point(p) {
            return Err(IllegalMove::Occupied);
        }
        if board.is_suicide(color, p)
            && (!self.rules.suicide_allowed || board.is_single_stone_suicide(color, p))
        {
            return Err(IllegalMove::Suicide);
        }
        let banned = board.is_ko_banned(color, p);
        let repeats = match self.rules.ko {
            KoRule::Simple => false,
            KoRule::PositionalSuperko => self.positional.contains_key(&board.hash_after(color, p)),
            KoRule::SituationalSuperko => {
                let key = board.hash_after(color, p) ^ side_to_move_key(color.opponent());
                self.situational.contains_key(&key)
            }
        };
        // Under superko the ko ban needs no check of its own (retaking always repeats
        // the position), but a plain ko retake is reported as "ko", which players know.
        match (self.rules.ko, banned, repeats) {
            (KoRule::Simple, true, _) | (_, true, true) => Err(IllegalMove::Ko),
            (_, _, true) => Err(IllegalMove::Superko),
            _ => Ok(()),
        }
    }

    /// What the search must not repeat under the rules' superko: the stone hashes of
    /// every position since the start or the last setup (positional superko), those
    /// hashes xor [`side_to_move_key`] of the side to move then (situational), nothing
    /// under simple ko. Sorted, so that searches do not depend on hash-map order.
    pub fn superko_keys(&self) -> Vec<u64> {
        let mut keys: Vec<u64> = match self.rules.ko {
            KoRule::Simple => Vec::new(),
            KoRule::PositionalSuperko => self.positional.keys().copied().collect(),
            KoRule::SituationalSuperko => self.situational.keys().copied().collect(),
        };
        keys.sort_unstable();
        keys
    }

    /// Every legal move of `color`: pass first, then the vertices in `Vertex` order.
    pub fn legal_moves(&self, color: Color) -> Vec<MoveVertex> {
        let size = self.board.size() as u8;
        let mut moves = vec![MoveVertex::Pass];
        for col in 0..size {
            for row in 0..size {
                let mv = MoveVertex::Play(Vertex::new(col, row));
                if self.is_legal(color, mv) {
                    moves.push(mv);
                }
            }
        }
        moves
    }

    /// Plays `mv` for `color` (either colour may play); afterwards the opponent of
    /// `color` is to move. An illegal move changes nothing.
    pub fn play(&mut self, color: Color, mv: MoveVertex) -> Result<(), IllegalMove> {
        let limit = self.move_limit();
        if self.undo.len() >= limit {
            return Err(IllegalMove::TooLong { limit });
        }
        self.legality(color, mv)?;
        let mut record = UndoRecord {
            color,
            mv,
            ko: self.board.ko(),
            to_move: self.to_move,
            consecutive_passes: self.consecutive_passes,
            removed_from: self.removed.len(),
            outcome: PlayOutcome::default(),
        };
        match mv {
            MoveVertex::Pass => {
                self.board.pass();
                self.consecutive_passes += 1;
            }
            MoveVertex::Play(v) => {
                let p = self.board.point(v);
                let outcome = self.board.play_recording(color, p, &mut self.removed);
                self.prisoners[color.index()] += outcome.captured;
                self.prisoners[color.opponent().index()] += outcome.suicided;
                self.consecutive_passes = 0;
                record.outcome = outcome;
            }
        }
        self.to_move = color.opponent();
        self.undo.push(record);
        self.remember_position();
        Ok(())
    }

    /// Takes back the last move; false if there is none (setup stones cannot be undone).
    pub fn undo(&mut self) -> bool {
        let Some(record) = self.undo.pop() else {
            return false;
        };
        self.forget_position();
        match record.mv {
            MoveVertex::Pass => self.board.set_ko(record.ko),
            MoveVertex::Play(v) => {
                let p = self.board.point(v);
                // A suicide removed the mover's stones, which count for the opponent.
                let (removed_color, taker, count) = if record.outcome.suicided > 0 {
                    (
                        record.color,
                        record.color.opponent(),
                        record.outcome.suicided,
                    )
                } else {
                    (
                        record.color.opponent(),
                        record.color,
                        record.outcome.captured,
                    )
                };
                self.board.restore(
                    p,
                    &self.removed[record.removed_from..],
                    removed_color,
                    record.ko,
                );
                self.removed.truncate(record.removed_from);
                self.prisoners[taker.index()] -= count;
            }
        }
        self.to_move = record.to_move;
        self.consecutive_passes = record.consecutive_passes;
        true
    }

    /// Sets up a position: each vertex gets the given stone or is cleared (`None`),
    /// without captures, as SGF `AB`/`AW`/`AE` do. The move history is cleared (setup
    /// is not undoable); the side to move is unchanged. Refused, changing nothing, if a
    /// vertex is off the board or a chain would be left without liberties.
    pub fn setup(&mut self, changes: &[(Vertex, Option<Color>)]) -> Result<(), SetupError> {
        let mut board = self.board.clone();
        let points = changes
            .iter()
            .map(|&(v, stone)| Ok((board.try_point(v).ok_or(SetupError::OffBoard(v))?, stone)))
            .collect::<Result<Vec<_>, SetupError>>()?;
        board.set_many(points);
        if let Some(&p) = board.chains_without_liberties().first() {
            return Err(SetupError::NoLiberties(board.vertex(p)));
        }
        self.board = board;
        self.consecutive_passes = 0;
        self.forget_history();
        Ok(())
    }

    /// [`Game::setup`] adding stones only.
    pub fn setup_stones(&mut self, stones: &[(Color, Vertex)]) -> Result<(), SetupError> {
        let changes: Vec<(Vertex, Option<Color>)> =
            stones.iter().map(|&(c, v)| (v, Some(c))).collect();
        self.setup(&changes)
    }

    /// Free handicap placement (GTP `set_free_handicap`): black stones on an empty board,
    /// at least 2, at most all points but one, no repeats; then White is to move.
    pub fn place_handicap(&mut self, vertices: &[Vertex]) -> Result<(), HandicapError> {
        if self.board.stone_count(Color::Black) + self.board.stone_count(Color::White) > 0 {
            return Err(HandicapError::BoardNotEmpty);
        }
        if vertices.len() < 2 || vertices.len() >= self.board.area() {
            return Err(HandicapError::InvalidNumberOfStones);
        }
        let mut sorted = vertices.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != vertices.len() || !vertices.iter().all(|&v| self.board.contains(v)) {
            return Err(HandicapError::BadVertexList);
        }
        let stones: Vec<(Color, Vertex)> = vertices.iter().map(|&v| (Color::Black, v)).collect();
        // Fewer stones than points on an empty board: every chain keeps a liberty.
        self.setup_stones(&stones)
            .map_err(|_| HandicapError::BadVertexList)?;
        self.handicap = vertices.len() as u32;
        self.set_to_move(Color::White);
        Ok(())
    }

    /// Fixed handicap placement (GTP `fixed_handicap`); returns the vertices used.
    pub fn place_fixed_handicap(&mut self, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
        let vertices = fixed_handicap_vertices(self.board.size(), stones)?;
        self.place_handicap(&vertices)?;
        Ok(vertices)
    }

    /// Where GTP's `place_free_handicap` puts `stones` stones: the fixed points where the
    /// board has them, then the empty points farthest from every stone, so that the
    /// stones stay spread. Places nothing.
    pub fn free_handicap_vertices(&self, stones: usize) -> Result<Vec<Vertex>, HandicapError> {
        let board = &self.board;
        if board.stone_count(Color::Black) + board.stone_count(Color::White) > 0 {
            return Err(HandicapError::BoardNotEmpty);
        }
        if stones < 2 || stones >= board.area() {
            return Err(HandicapError::InvalidNumberOfStones);
        }
        let size = board.size();
        let fixed_max = (2..=9)
            .rev()
            .find(|&n| fixed_handicap_vertices(size, n).is_ok())
            .unwrap_or(0);
        let mut chosen = fixed_handicap_vertices(size, stones.min(fixed_max)).unwrap_or_default();
        let all: Vec<Vertex> = board.points().map(|p| board.vertex(p)).collect();
        while chosen.len() < stones {
            let distance = |v: &Vertex| {
                chosen
                    .iter()
                    .map(|c| u32::from(c.col.abs_diff(v.col)) + u32::from(c.row.abs_diff(v.row)))
                    .min()
                    .unwrap_or(u32::MAX)
            };
            let next = all
                .iter()
                .filter(|v| !chosen.contains(v))
                .max_by_key(|v| (distance(v), std::cmp::Reverse(**v)))
                .copied();
            match next {
                Some(v) => chosen.push(v),
                None => return Err(HandicapError::InvalidNumberOfStones),
            }
        }
        Ok(chosen)
    }

    /// Counts the position under the rules' scoring, with the stones on `dead` taken
    /// off as prisoners (vertices without a stone are ignored).
    pub fn score(&self, dead: &[Vertex]) -> ScoreBreakdown {
        self.score_judged(dead, &[])
    }

    /// As [`Game::score`], and under territory scoring the eyes of the stones on `seki`
    /// count for nobody (the Japanese rules' seki).
    pub fn score_judged(&self, dead: &[Vertex], seki: &[Vertex]) -> ScoreBreakdown {
        self.score_with(self.rules.scoring, dead, seki)
    }

    /// Counts the position under `scoring`, komi and the rules' handicap compensation
    /// included.
    fn score_with(&self, scoring: Scoring, dead: &[Vertex], seki: &[Vertex]) -> ScoreBreakdown {
        let points = |vertices: &[Vertex]| -> Vec<Point> {
            vertices
                .iter()
                .filter_map(|&v| self.board.try_point(v))
                .collect()
        };
        let (dead, seki) = (points(dead), points(seki));
        ScoreBreakdown::new(
            &self.board,
            Status {
                dead: &dead,
                seki: &seki,
            },
            scoring,
            self.prisoners,
            self.komi,
            self.rules.white_handicap_compensation(self.handicap),
        )
    }

    /// Tromp–Taylor: area scoring with every stone on the board counted alive.
    pub fn tromp_taylor_score(&self) -> ScoreBreakdown {
        self.score_with(Scoring::Area, &[], &[])
    }

    /// The result under the rules' scoring, as GTP's `final_score` reports it.
    pub fn final_score(&self, dead: &[Vertex]) -> FinalScore {
        self.score(dead).result()
    }

    fn situation_keys(&self) -> (u64, u64) {
        let h = self.board.hash();
        (h, h ^ side_to_move_key(self.to_move))
    }

    fn remember_position(&mut self) {
        let (positional, situational) = self.situation_keys();
        *self.positional.entry(positional).or_insert(0) += 1;
        *self.situational.entry(situational).or_insert(0) += 1;
    }

    fn forget_position(&mut self) {
        let (positional, situational) = self.situation_keys();
        for (map, key) in [
            (&mut self.positional, positional),
            (&mut self.situational, situational),
        ] {
            if let Some(n) = map.get_mut(&key) {
                *n -= 1;
                if *n == 0 {
                    map.remove(&key);
                }
            }
        }
    }

    /// Starts the move and position history afresh at the current position.
    fn forget_history(&mut self) {
        self.undo.clear();
        self.removed.clear();
        self.positional.clear();
        self.situational.clear();
        self.remember_position();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_handicap_19() {
        let names = |n| -> Vec<String> {
            fixed_handicap_vertices(19, n)
                .expect("valid")
                .iter()
                .map(ToString::to_string)
                .collect()
        };
        assert_eq!(names(2), ["D4", "Q16"]);
        assert_eq!(names(5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            names(9),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
        assert_eq!(
            fixed_handicap_vertices(19, 10),
            Err(HandicapError::InvalidNumberOfStones)
        );
        assert_eq!(
            fixed_handicap_vertices(6, 2),
            Err(HandicapError::InvalidNumberOfStones)
        );
    }
}
