//! Playouts: a light but not uniformly random policy, and the area count that ends them.
//!
//! The policy, in order:
//! 1. Near the opponent's last move: capture a chain of theirs in atari, or save one of
//!    ours in atari (by capturing an attacker or by extending when that gains liberties);
//!    failing that, when `Params::playout_reading` is on (it is off in play), atari a
//!    two-liberty chain of theirs (the last move's, or one in a capturing race with ours
//!    next to it) that cannot escape (`tactics.rs`).
//! 2. Around the last move: a point matching one of the 3×3 shape patterns.
//! 3. Otherwise a random empty point, scanning from a random start, skipping illegal
//!    moves, own eye-like points, suicides and self-atari of chains of two or more stones.
//! 4. Pass when nothing is left.
//!
//! Tried and not kept: step 2 drawn among the 8 points around the last move in
//! proportion to their learned shape gammas (`gammas.rs`, a dense table by raw shape
//! code), against the rest of the board at a fixed weight a point. At 2,000 playouts on
//! 9×9 against this policy it won 50 of 100 games (weight 0.6 a point) and 46 of 100
//! (0.1), and it cost a third of the playout speed: the gammas say what GNU Go plays,
//! not what makes a playout judge well.
//!
//! Randomness comes from [`FastRng`], a small generator seeded from ChaCha: the playout
//! loop draws a number per move, and ChaCha's block function would be a visible share
//! of the cost there. The search is still deterministic for a given seed.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::go::board::{Board, MAX_POINTS, Point};
use crate::go::color::Color;

use super::params::Params;
use super::patterns;
use super::tactics;

/// wyrand: one multiply per draw, 64-bit state, good statistical quality for a
/// simulation (not for anything adversarial). Seeded from ChaCha8 so that nearby seeds
/// (seed, seed + 1 for the threads) give unrelated streams.
#[derive(Clone, Debug)]
pub(crate) struct FastRng(u64);

impl FastRng {
    pub(crate) fn from_seed(seed: u64) -> FastRng {
        FastRng(ChaCha8Rng::seed_from_u64(seed).next_u64())
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0xA076_1D64_78BD_642F);
        let t = u128::from(self.0) * u128::from(self.0 ^ 0xE703_7ED1_A0B4_28DB);
        ((t >> 64) as u64) ^ (t as u64)
    }

    /// Uniform in `0..n` (multiply-shift: the bias is below 2^-22 for boards up to
    /// 25×25, irrelevant for playouts).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }

    /// True with probability `num / 256`.
    pub(crate) fn chance(&mut self, num: u32) -> bool {
        ((self.next_u64() >> 56) as u32) < num
    }
}

/// The first time each point was played in the current simulation, for AMAF, and the
/// simulation's moves in order, for the reply tables.
pub(crate) struct Amaf {
    stamp: Vec<u32>,
    color: Vec<Color>,
    ply: Vec<u32>,
    current: u32,
    /// (move, mover, ply): passes are left out, so a gap in the plies marks one.
    moves: Vec<(Point, Color, u32)>,
}

impl Amaf {
    pub(crate) fn new() -> Amaf {
        Amaf {
            stamp: vec![0; MAX_POINTS],
            color: vec![Color::Black; MAX_POINTS],
            ply: vec![0; MAX_POINTS],
            current: 0,
            moves: Vec::with_capacity(4 * MAX_POINTS),
        }
    }

    /// Forgets the previous simulation (in O(1): entries of older stamps are ignored).
    pub(crate) fn start(&mut self) {
        self.moves.clear();
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
    }

    pub(crate) fn record(&mut self, p: Point, color: Color, ply: u32) {
        self.moves.push((p, color, ply));
        let i = p.index();
        if self.stamp[i] != self.current {
            self.stamp[i] = self.current;
            self.color[i] = color;
            self.ply[i] = ply;
        }
    }

    /// The simulation's moves so far: (move, mover, ply), passes left out.
    pub(crate) fn moves(&self) -> &[(Point, Color, u32)] {
        &self.moves
    }

    /// True if `color` was the first to play at `p`, at ply `from` or later.
    pub(crate) fn played_first(&self, p: Point, color: Color, from: u32) -> bool {
        let i = p.index();
        self.stamp[i] == self.current && self.color[i] == color && self.ply[i] >= from
    }
}

/// Last good reply with forgetting (Baier and Drake, "The Power of Forgetting: Improving
/// the Last-Good-Reply Policy in Monte Carlo Go", 2010): for each colour and each
/// previous move (LGRF-1), or pair of previous moves (LGRF-2), the reply that colour
/// made in the last simulation it won; a lost simulation forgets the replies it made.
/// The fixed policy answers a local fight the same way in every playout, right or
/// wrong; the tables let the playouts pick up what the simulations found to work, and
/// forgetting drops a reply as soon as the opponent has found its refutation.
pub(crate) struct Replies {
    /// Per colour and previous move's index; `Point::default()` (a corner of the
    /// padding, never a move) when there is none.
    one: Vec<Point>,
    /// Per colour, move before the previous one and previous move; empty when LGRF-2
    /// is off.
    two: Vec<Point>,
}

/// What a reply table holds where it has no reply.
const NO_REPLY: Point = Point::NONE;

impl Replies {
    pub(crate) fn new(two: bool) -> Replies {
        Replies {
            one: vec![NO_REPLY; 2 * MAX_POINTS],
            two: if two {
                vec![NO_REPLY; 2 * MAX_POINTS * MAX_POINTS]
            } else {
                Vec::new()
            },
        }
    }

    fn slot_one(color: Color, prev: Point) -> usize {
        color.index() * MAX_POINTS + prev.index()
    }

    fn slot_two(color: Color, prev2: Point, prev: Point) -> usize {
        (color.index() * MAX_POINTS + prev2.index()) * MAX_POINTS + prev.index()
    }

    /// The stored replies of `color` to `prev` after `prev2`: LGRF-2's, then LGRF-1's.
    pub(crate) fn get(
        &self,
        color: Color,
        prev2: Option<Point>,
        prev: Point,
    ) -> [Option<Point>; 2] {
        let found = |p: Point| (p != NO_REPLY).then_some(p);
        let two = match prev2 {
            Some(prev2) if !self.two.is_empty() => {
                found(self.two[Self::slot_two(color, prev2, prev)])
            }
            _ => None,
        };
        [two, found(self.one[Self::slot_one(color, prev)])]
    }

    /// Learns from a finished simulation's `moves` (as [`Amaf::moves`] lists them):
    /// `winner`'s replies are stored, the loser's forgotten where they are the stored
    /// ones. Replies to a pass, and to a move after a pass for LGRF-2, are not kept.
    pub(crate) fn learn(&mut self, moves: &[(Point, Color, u32)], winner: Color) {
        for (i, &(mv, color, ply)) in moves.iter().enumerate().skip(1) {
            let (prev, _, prev_ply) = moves[i - 1];
            if prev_ply + 1 != ply {
                continue;
            }
            let mut slots = [Some(Self::slot_one(color, prev)), None];
            if !self.two.is_empty()
                && let Some(&(prev2, _, prev2_ply)) = i.checked_sub(2).map(|j| &moves[j])
                && prev2_ply + 2 == ply
            {
                slots[1] = Some(Self::slot_two(color, prev2, prev));
            }
            for (table, slot) in [&mut self.one, &mut self.two].into_iter().zip(slots) {
                let Some(slot) = slot else { continue };
                if color == winner {
                    table[slot] = mv;
                } else if table[slot] == mv {
                    table[slot] = NO_REPLY;
                }
            }
        }
    }
}

/// If a `color` stone at empty `p` would leave its chain with fewer than two liberties
/// (captures not considered), that count (0 or 1) and the chain's size; `None` when it
/// keeps two or more. Walks only chains with exactly two liberties, so it is cheap.
pub(crate) fn short_of_liberties(board: &Board, color: Color, p: Point) -> Option<(usize, usize)> {
    let mut found = [p; 2];
    let mut n = 0;
    let neighbors = board.neighbors(p);
    for q in neighbors {
        if board.is_empty_point(q) && !found[..n].contains(&q) {
            found[n] = q;
            n += 1;
            if n == 2 {
                return None;
            }
        }
    }
    let mut heads = [p; 4];
    let mut nh = 0;
    let mut size = 1;
    for q in neighbors {
        if board.get(q) != Some(color) {
            continue;
        }
        let h = board.chain_head(q);
        if heads[..nh].contains(&h) {
            continue;
        }
        heads[nh] = h;
        nh += 1;
        size += board.chain_len(q);
        match board.chain_liberties(q) {
            // Its only liberty is `p` itself: nothing to add.
            1 => {}
            2 => {
                for s in board.chain_stones(q) {
                    for r in board.neighbors(s) {
                        if r != p && board.is_empty_point(r) && !found[..n].contains(&r) {
                            found[n] = r;
                            n += 1;
                            if n == 2 {
                                return None;
                            }
                        }
                    }
                }
            }
            _ => return None,
        }
    }
    Some((n, size))
}

/// True if the move at `p` would put two or more stones of `color` in atari (or kill
/// them by suicide) without capturing anything: almost always a blunder, and playouts
/// full of such moves misjudge life and death.
pub(crate) fn is_bad_self_atari(board: &Board, color: Color, p: Point) -> bool {
    match short_of_liberties(board, color, p) {
        None => false,
        Some((libs, size)) => (libs == 0 || size >= 2) && !board.would_capture(color, p),
    }
}

/// True if `p` is the liberty of a `color` chain in atari next to it and playing there
/// leaves that chain with two or more liberties.
pub(crate) fn saves_atari(board: &Board, color: Color, p: Point) -> bool {
    board
        .neighbors(p)
        .iter()
        .any(|&q| board.get(q) == Some(color) && board.chain_liberties(q) == 1)
        && short_of_liberties(board, color, p).is_none()
}

/// Counts a final position by area: stones plus empty regions bordered by one colour.
pub(crate) struct Scorer {
    stamp: Vec<u32>,
    current: u32,
    /// +1 black, -1 white, 0 nobody: for empty points, valid after `area_margin`.
    empty_owner: Vec<i8>,
    stack: Vec<Point>,
    region: Vec<Point>,
}

impl Scorer {
    pub(crate) fn new() -> Scorer {
        Scorer {
            stamp: vec![0; MAX_POINTS],
            current: 0,
            empty_owner: vec![0; MAX_POINTS],
            stack: Vec::with_capacity(MAX_POINTS),
            region: Vec::with_capacity(MAX_POINTS),
        }
    }

    /// Black's area minus White's, komi not included (Tromp–Taylor: every stone on the
    /// board counts as alive).
    pub(crate) fn area_margin(&mut self, board: &Board) -> i32 {
        self.current = self.current.wrapping_add(1);
        if self.current == 0 {
            self.stamp.fill(0);
            self.current = 1;
        }
        let mut margin =
            board.stone_count(Color::Black) as i32 - board.stone_count(Color::White) as i32;
        for &e in board.empty_points() {
            if self.stamp[e.index()] == self.current {
                continue;
            }
            self.stamp[e.index()] = self.current;
            self.stack.push(e);
            self.region.clear();
            let mut borders = 0u8;
            while let Some(q) = self.stack.pop() {
                self.region.push(q);
                for r in board.neighbors(q) {
                    match board.get(r) {
                        Some(Color::Black) => borders |= 1,
                        Some(Color::White) => borders |= 2,
                        None if board.is_empty_point(r)
                            && self.stamp[r.index()] != self.current =>
                        {
                            self.stamp[r.index()] = self.current;
                            self.stack.push(r);
                        }
                        None => {}
                    }
                }
            }
            let owner: i8 = match borders {
                1 => 1,
                2 => -1,
                _ => 0,
            };
            margin += i32::from(owner) * self.region.len() as i32;
            for &q in &self.region {
                self.empty_owner[q.index()] = owner;
            }
        }
        margin
    }

    /// Adds the owner of each point of the last counted board (+1 black, -1 white) to
    /// `sums`, indexed by point index.
    pub(crate) fn add_ownership(&self, board: &Board, points: &[Point], sums: &mut [i32]) {
        for &p in points {
            sums[p.index()] += i32::from(self.owner(board, p));
        }
    }

    /// The owner of `p` on the last counted board: +1 Black, -1 White, 0 nobody.
    pub(crate) fn owner(&self, board: &Board, p: Point) -> i8 {
        match board.get(p) {
            Some(Color::Black) => 1,
            Some(Color::White) => -1,
            None => self.empty_owner[p.index()],
        }
    }
}

/// Where a playout starts.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Turn {
    pub(crate) color: Color,
    /// Consecutive passes just before.
    pub(crate) passes: u32,
    /// The previous move (`None` after a pass or at the start).
    pub(crate) last: Option<Point>,
    /// The move before it (`None` if that was a pass or there was none).
    pub(crate) before_last: Option<Point>,
    /// The simulation ply of the first move, for AMAF.
    pub(crate) ply: u32,
}

/// The playout policy and its scratch buffers.
pub(crate) struct Playout {
    pub(crate) rng: FastRng,
    candidates: Vec<Point>,
    suicide_allowed: bool,
    /// Probability (out of 256) of looking for a capture or an escape near the last
    /// move first: not 256, so that playouts do not always run the same sequences.
    tactics_chance: u32,
    /// Probability (out of 256) of looking for a shape reply around the last move.
    pattern_chance: u32,
    /// Whether the tactics also read ataris on two-liberty chains (`tactics.rs`).
    reading: bool,
    /// Last good replies, learnt from the simulations (see [`Replies`]); `None` when
    /// the policy does not use them.
    pub(crate) replies: Option<Replies>,
    /// Mercy rule: stop once one side has this many more stones than the other (0:
    /// never). The rest of such a playout cannot change its winner, only its cost.
    pub(crate) mercy: u32,
}

/// How many more stones the side with more has.
fn stone_lead(board: &Board) -> u32 {
    board
        .stone_count(Color::Black)
        .abs_diff(board.stone_count(Color::White)) as u32
}

impl Playout {
    pub(crate) fn new(seed: u64, suicide_allowed: bool, params: &Params) -> Playout {
        Playout {
            rng: FastRng::from_seed(seed),
            candidates: Vec::with_capacity(32),
            suicide_allowed,
            tactics_chance: params.tactics_chance,
            pattern_chance: params.pattern_chance,
            reading: params.playout_reading,
            replies: (params.last_good_reply > 0).then(|| Replies::new(params.last_good_reply > 1)),
            mercy: 0,
        }
    }

    /// Plays `board` out from `turn`, stopping on two passes or after `max_moves`.
    /// Returns the number of moves made (passes included).
    pub(crate) fn run(
        &mut self,
        board: &mut Board,
        turn: Turn,
        max_moves: u32,
        amaf: &mut Amaf,
    ) -> u32 {
        let Turn {
            mut color,
            mut passes,
            mut last,
            mut before_last,
            mut ply,
        } = turn;
        let mut moves = 0;
        while passes < 2 && moves < max_moves {
            let mv = self.choose(board, color, before_last, last);
            match mv {
                Some(p) => {
                    board.play(color, p);
                    amaf.record(p, color, ply);
                    passes = 0;
                }
                None => {
                    board.pass();
                    passes += 1;
                }
            }
            before_last = last;
            last = mv;
            color = color.opponent();
            ply += 1;
            moves += 1;
            if self.mercy > 0 && stone_lead(board) > self.mercy {
                break;
            }
        }
        moves
    }

    /// The policy's move for `color`, or `None` to pass.
    pub(crate) fn choose(
        &mut self,
        board: &Board,
        color: Color,
        before_last: Option<Point>,
        last: Option<Point>,
    ) -> Option<Point> {
        if let Some(last) = last
            && self.rng.chance(self.tactics_chance)
            && let Some(p) = self.tactical(board, color, last)
        {
            return Some(p);
        }
        if let Some(last) = last
            && let Some(replies) = &self.replies
        {
            for p in replies.get(color, before_last, last).into_iter().flatten() {
                if board.is_empty_point(p) && self.acceptable(board, color, p) {
                    return Some(p);
                }
            }
        }
        if let Some(last) = last
            && self.rng.chance(self.pattern_chance)
            && let Some(p) = self.shape_reply(board, color, last)
        {
            return Some(p);
        }
        let empties = board.empty_points();
        let n = empties.len();
        if n == 0 {
            return None;
        }
        let start = self.rng.below(n);
        let (tail, head) = empties.split_at(start);
        head.iter()
            .chain(tail)
            .copied()
            .find(|&p| self.acceptable(board, color, p))
    }

    /// A random move is acceptable when it is legal, not in an own eye, not a suicide
    /// and not a self-atari of two or more stones.
    fn acceptable(&self, board: &Board, color: Color, p: Point) -> bool {
        // Fast paths first (most points, most of the time): with an empty neighbour a
        // move is legal (the ko point has none) and not in an eye; with two it cannot
        // be a self-atari either.
        let empty = board
            .neighbors(p)
            .iter()
            .filter(|&&q| board.is_empty_point(q))
            .count();
        match empty {
            2.. => true,
            1 => !is_bad_self_atari(board, color, p),
            // Late in a playout most such points are eyes: the own-eye test reads only
            // cells, so it goes before the legality test, which reads chains.
            _ => {
                let opponent = Some(color.opponent());
                let neighbors = board.neighbors(p);
                if neighbors
                    .iter()
                    .all(|&q| board.get(q) == opponent || !board.is_on_board(q))
                {
                    // The opponent's eye: playable only to capture, and then fine unless
                    // it is the ko point.
                    return !board.is_ko_banned(color, p)
                        && neighbors
                            .iter()
                            .any(|&q| board.get(q) == opponent && board.chain_liberties(q) == 1);
                }
                !board.is_eye_like(color, p)
                    && board.is_legal(color, p, self.suicide_allowed)
                    && !is_bad_self_atari(board, color, p)
            }
        }
    }

    /// Captures and escapes around the opponent's last move, picked at random.
    fn tactical(&mut self, board: &Board, color: Color, last: Point) -> Option<Point> {
        let opponent = color.opponent();
        self.candidates.clear();
        if board.get(last) == Some(opponent)
            && board.chain_liberties(last) == 1
            && let Some(l) = board.find_liberty(last)
        {
            self.candidates.push(l);
        }
        for q in board.neighbors(last) {
            if board.get(q) == Some(color) && board.chain_liberties(q) == 1 {
                self.escapes(board, color, q);
            }
        }
        if let Some(p) = self.pick_playable(board, color) {
            return Some(p);
        }
        if !self.reading {
            return None;
        }
        tactics::two_liberty_attacks(board, color, last, &mut self.candidates);
        self.pick_playable(board, color)
    }

    /// A random candidate that is legal and not a bad self-atari; the candidates are
    /// used up.
    fn pick_playable(&mut self, board: &Board, color: Color) -> Option<Point> {
        while !self.candidates.is_empty() {
            let i = self.rng.below(self.candidates.len());
            let p = self.candidates.swap_remove(i);
            if board.is_legal(color, p, self.suicide_allowed) && !is_bad_self_atari(board, color, p)
            {
                return Some(p);
            }
        }
        None
    }

    /// A random empty point around `last` where a shape pattern matches.
    fn shape_reply(&mut self, board: &Board, color: Color, last: Point) -> Option<Point> {
        self.candidates.clear();
        for q in board
            .neighbors(last)
            .into_iter()
            .chain(board.diagonals(last))
        {
            if board.is_empty_point(q) && patterns::matches(patterns::code(board, q)) {
                self.candidates.push(q);
            }
        }
        while !self.candidates.is_empty() {
            let i = self.rng.below(self.candidates.len());
            let p = self.candidates.swap_remove(i);
            if self.acceptable(board, color, p) {
                return Some(p);
            }
        }
        None
    }

    /// Candidate moves saving the `color` chain through `q`, which is in atari: capture
    /// a neighbouring enemy chain in atari, or extend at the liberty if that gains.
    fn escapes(&mut self, board: &Board, color: Color, q: Point) {
        let opponent = color.opponent();
        for s in board.chain_stones(q) {
            for r in board.neighbors(s) {
                if board.get(r) == Some(opponent)
                    && board.chain_liberties(r) == 1
                    && let Some(l) = board.find_liberty(r)
                {
                    self.candidates.push(l);
                }
            }
        }
        if let Some(l) = board.find_liberty(q)
            && short_of_liberties(board, color, l).is_none()
        {
            self.candidates.push(l);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::notation::Vertex;
    use crate::go::score::Ownership;

    fn pt(board: &Board, s: &str) -> Point {
        board.point(s.parse::<Vertex>().expect("test vertex"))
    }

    #[test]
    fn rng_stays_in_range_and_depends_on_the_seed() {
        let mut a = FastRng::from_seed(1);
        let mut b = FastRng::from_seed(2);
        assert!((0..1000).all(|_| a.below(7) < 7));
        assert_ne!(a.next_u64(), b.next_u64());
        assert!(!(0..100).any(|_| a.chance(0)));
        assert!((0..100).all(|_| a.chance(256)));
    }

    #[test]
    fn self_atari_of_two_stones_is_bad_of_one_is_not() {
        // Black B1 next to the corner, White A2 and C1 around: Black A1 would leave the
        // two stones A1-B1 with B2 as their one liberty: a bad self-atari.
        let mut board = Board::new(9).expect("9x9");
        board.set(pt(&board, "B1"), Some(Color::Black));
        board.set(pt(&board, "A2"), Some(Color::White));
        board.set(pt(&board, "C1"), Some(Color::White));
        assert_eq!(
            short_of_liberties(&board, Color::Black, pt(&board, "A1")),
            Some((1, 2))
        );
        assert!(is_bad_self_atari(&board, Color::Black, pt(&board, "A1")));
        // A lone stone in atari is allowed (throw-ins and nakade need it).
        assert!(!is_bad_self_atari(&board, Color::White, pt(&board, "A1")));
        assert_eq!(
            short_of_liberties(&board, Color::Black, pt(&board, "E5")),
            None
        );
        // B1 is not in atari (two liberties): nothing to save.
        assert!(!saves_atari(&board, Color::Black, pt(&board, "B2")));

        // B1 in atari under A1 and B2: extending to C1 gains liberties, D1 does nothing.
        let mut board = Board::new(9).expect("9x9");
        board.set(pt(&board, "B1"), Some(Color::Black));
        board.set(pt(&board, "A1"), Some(Color::White));
        board.set(pt(&board, "B2"), Some(Color::White));
        assert!(saves_atari(&board, Color::Black, pt(&board, "C1")));
        assert!(!saves_atari(&board, Color::Black, pt(&board, "D1")));
    }

    #[test]
    fn replies_keep_the_winner_s_and_forget_the_loser_s() {
        let board = Board::new(9).expect("9x9");
        let [a, b, c, d, e] = ["C3", "D4", "E5", "F6", "G7"].map(|v| pt(&board, v));
        let (black, white) = (Color::Black, Color::White);
        let mut replies = Replies::new(true);
        // B a, W b, B c, (W passes), B d, W e.
        let moves = [
            (a, black, 0),
            (b, white, 1),
            (c, black, 2),
            (d, black, 4),
            (e, white, 5),
        ];
        replies.learn(&moves, black);
        assert_eq!(replies.get(black, Some(a), b), [Some(c), Some(c)]);
        assert_eq!(replies.get(black, None, b), [None, Some(c)]);
        // The loser's replies are not stored, and nothing answers across a pass.
        assert_eq!(replies.get(white, None, a), [None, None]);
        assert_eq!(replies.get(white, None, d), [None, None]);
        assert_eq!(replies.get(black, None, c), [None, None]);
        // White wins one with the same moves: Black's replies are forgotten, White's
        // kept.
        replies.learn(&moves, white);
        assert_eq!(replies.get(black, Some(a), b), [None, None]);
        assert_eq!(replies.get(white, None, a), [None, Some(b)]);
        assert_eq!(replies.get(white, None, d), [None, Some(e)]);
        // Losing with another reply leaves a stored one alone.
        replies.learn(&[(a, black, 0), (c, white, 1)], black);
        assert_eq!(replies.get(white, None, a), [None, Some(b)]);
        // Without LGRF-2 only the single-move table answers.
        let mut one = Replies::new(false);
        one.learn(&moves, black);
        assert_eq!(one.get(black, Some(a), b), [None, Some(c)]);
    }

    #[test]
    fn the_policy_plays_a_stored_reply_when_it_is_acceptable() {
        let params = Params {
            last_good_reply: 1,
            tactics_chance: 0,
            pattern_chance: 0,
            ..Params::default()
        };
        let mut board = Board::new(9).expect("9x9");
        let last = pt(&board, "E5");
        board.play(Color::Black, last);
        let reply = pt(&board, "B8");
        let mut playout = Playout::new(3, false, &params);
        if let Some(replies) = &mut playout.replies {
            replies.learn(
                &[(last, Color::Black, 0), (reply, Color::White, 1)],
                Color::White,
            );
        }
        for _ in 0..20 {
            assert_eq!(
                playout.choose(&board, Color::White, None, Some(last)),
                Some(reply)
            );
        }
        // Once the point is taken the reply is passed over for the usual policy.
        board.play(Color::White, reply);
        board.play(Color::Black, pt(&board, "C3"));
        let mut other = 0;
        for _ in 0..20 {
            let p = playout.choose(&board, Color::White, None, Some(last));
            assert!(p.is_some_and(|p| board.is_empty_point(p)));
            other += usize::from(p != Some(reply));
        }
        assert_eq!(other, 20);
        // A reply that would be a self-atari of two stones is not played either.
        let mut board = Board::new(9).expect("9x9");
        board.set(pt(&board, "B1"), Some(Color::White));
        board.set(pt(&board, "A2"), Some(Color::Black));
        board.set(pt(&board, "C1"), Some(Color::Black));
        let last = pt(&board, "C1");
        let corner = pt(&board, "A1");
        let mut playout = Playout::new(3, false, &params);
        if let Some(replies) = &mut playout.replies {
            replies.learn(
                &[(last, Color::Black, 0), (corner, Color::White, 1)],
                Color::White,
            );
        }
        for _ in 0..20 {
            assert_ne!(
                playout.choose(&board, Color::White, None, Some(last)),
                Some(corner)
            );
        }
    }

    #[test]
    fn playouts_end_legally_and_count_like_the_scorer() {
        let params = Params::default();
        let mut playout = Playout::new(9, false, &params);
        let mut amaf = Amaf::new();
        let mut scorer = Scorer::new();
        for size in [5, 9, 13] {
            let start = Board::new(size).expect("board");
            let cap = 3 * start.area() as u32;
            for _ in 0..20 {
                let mut board = start.clone();
                amaf.start();
                let turn = Turn {
                    color: Color::Black,
                    passes: 0,
                    last: None,
                    before_last: None,
                    ply: 0,
                };
                let moves = playout.run(&mut board, turn, cap, &mut amaf);
                assert!(moves <= cap);
                board.check_consistency().expect("consistent");
                let own = Ownership::new(&board, &[]);
                let expected = (own.stones[0] + own.territory[0]) as i32
                    - (own.stones[1] + own.territory[1]) as i32;
                assert_eq!(scorer.area_margin(&board), expected, "{board}");
                if moves == cap {
                    // Cut off (a long capturing fight): not a finished position.
                    continue;
                }
                // Finished: every empty point is an eye of one colour or a shared
                // neutral point, never a point that either side still wants.
                for &p in board.empty_points() {
                    for color in Color::BOTH {
                        assert!(
                            !board.is_legal(color, p, false)
                                || board.is_eye_like(color, p)
                                || is_bad_self_atari(&board, color, p),
                            "{board}"
                        );
                    }
                }
            }
        }
    }
}
