//! Evaluation and search: the probabilities of a position from the net, the bear-off
//! database or the finished game, and plays chosen by looking 0, 1 or 2 opponent rolls ahead.
//!
//! Plies count the opponent's rolls looked at (gnubg's convention): 0-ply scores the position
//! after each play; 1-ply averages, over the 21 rolls of the opponent, the position after the
//! opponent's best reply (picked at 0-ply); 2-ply does the same with each reply scored at
//! 1-ply. Deeper plies look only at the candidates the shallower ply ranked best.

use super::bearoff::{self, Database};
use super::board::{Board, Side};
use super::dice::Dice;
use super::game::WinKind;
use super::moves::{Candidate, legal_plays};
use super::net::{Net, Probs, equity, invert};
use super::race::{self, RaceNet};

/// Candidates kept for 1-ply, and for 2-ply.
const KEEP_1PLY: usize = 8;
const KEEP_2PLY: usize = 3;
/// Candidates further than this (in equity) behind the best at the shallower ply are dropped.
const MARGIN: f32 = 0.16;

/// The probabilities of a finished game for `side`, which has won.
pub fn won(board: &Board, side: Side) -> Probs {
    let kind = WinKind::of(board, side);
    [
        1.0,
        if kind != WinKind::Single { 1.0 } else { 0.0 },
        if kind == WinKind::Backgammon {
            1.0
        } else {
            0.0
        },
        0.0,
        0.0,
    ]
}

/// Whether the main net judges `board`: both sides still have checkers on it, and it is not a
/// race (the race net's) or a bear-off (the database's).
pub fn is_contact(board: &Board) -> bool {
    board.on_board(Side::White) > 0
        && board.on_board(Side::Black) > 0
        && !race::applies(board)
        && !bearoff::applies(board)
}

/// An evaluator over a net (contact), a race net (races) and the bear-off database (both
/// sides home), counting its static evaluations.
pub struct Evaluator<'a> {
    net: &'a Net,
    /// Races go to this net; without one, the main net judges them too (as before the race
    /// net, and in the main net's self-play training).
    race: Option<&'a RaceNet>,
    /// Static evaluations made (net, database or finished game).
    pub evaluations: u64,
}

impl<'a> Evaluator<'a> {
    /// `net` for contact, the built-in race net for races.
    pub fn new(net: &'a Net) -> Evaluator<'a> {
        Evaluator::with_race(net, Some(RaceNet::builtin()))
    }

    /// `net` for contact and `race` for races (none: `net` for races too).
    pub fn with_race(net: &'a Net, race: Option<&'a RaceNet>) -> Evaluator<'a> {
        Evaluator {
            net,
            race,
            evaluations: 0,
        }
    }

    /// The probabilities of `board` for `on_roll`, without search.
    pub fn static_probs(&mut self, board: &Board, on_roll: Side) -> Probs {
        self.evaluations += 1;
        let other = on_roll.other();
        if board.on_board(other) == 0 {
            return invert(&won(board, other));
        }
        if board.on_board(on_roll) == 0 {
            return won(board, on_roll);
        }
        if bearoff::applies(board) {
            // Built at the first bear-off position (about 0.1 s), so a process whose game
            // never gets there, or not yet, starts at once.
            return Database::get().race(board, on_roll);
        }
        if let Some(race_net) = self.race
            && race::applies(board)
        {
            return race_net.evaluate(board, on_roll);
        }
        self.net.evaluate(board, on_roll)
    }

    /// The probabilities for `mover` of `after`, the position `mover` has just played to,
    /// looking `plies` opponent rolls ahead.
    pub fn after_play(&mut self, after: &Board, mover: Side, plies: u32) -> Probs {
        if after.on_board(mover) == 0 {
            self.evaluations += 1;
            return won(after, mover);
        }
        let opponent = mover.other();
        if plies == 0 {
            return invert(&self.static_probs(after, opponent));
        }
        let mut total = [0.0f32; 5];
        for (dice, weight) in Dice::all_rolls() {
            let replies = legal_plays(after, opponent, dice);
            let (reply, reply_probs) = self.best_static(&replies, opponent);
            let probs = if plies == 1 {
                reply_probs
            } else {
                self.after_play(&replies[reply].after, opponent, plies - 1)
            };
            // `probs` are the opponent's; ours are the inverse.
            let ours = invert(&probs);
            for (t, p) in total.iter_mut().zip(ours) {
                *t += weight as f32 * p;
            }
        }
        total.map(|t| t / 36.0)
    }

    /// The index of the candidate `mover` likes best at 0-ply, and its probabilities.
    fn best_static(&mut self, candidates: &[Candidate], mover: Side) -> (usize, Probs) {
        let mut best = 0;
        let mut best_probs = [0.0; 5];
        let mut best_equity = f32::NEG_INFINITY;
        for (index, candidate) in candidates.iter().enumerate() {
            let probs = self.after_play(&candidate.after, mover, 0);
            let e = equity(&probs);
            if e > best_equity {
                best_equity = e;
                best = index;
                best_probs = probs;
            }
        }
        (best, best_probs)
    }

    /// The play `side` picks with `dice` looking `plies` ahead: the candidate's index in
    /// `candidates` and its probabilities for `side` (at the deepest ply it was looked at).
    pub fn choose(&mut self, candidates: &[Candidate], side: Side, plies: u32) -> (usize, Probs) {
        if candidates.len() == 1 {
            let probs = self.after_play(&candidates[0].after, side, 0);
            return (0, probs);
        }
        let mut ranked = self.ranked(candidates, side);
        for ply in 1..=plies.min(2) {
            sort_best_first(&mut ranked);
            let keep = if ply == 1 { KEEP_1PLY } else { KEEP_2PLY };
            let top = ranked[0].2;
            ranked.truncate(keep);
            ranked.retain(|r| r.2 >= top - MARGIN);
            for entry in &mut ranked {
                entry.1 = self.after_play(&candidates[entry.0].after, side, ply);
                entry.2 = equity(&entry.1);
            }
        }
        sort_best_first(&mut ranked);
        (ranked[0].0, ranked[0].1)
    }

    /// Every candidate `mover` may play: its index, its 0-ply probabilities and equity for
    /// `mover`, best first (equal equities in the move generator's order).
    pub fn ranked(&mut self, candidates: &[Candidate], mover: Side) -> Vec<(usize, Probs, f32)> {
        let mut ranked: Vec<(usize, Probs, f32)> = candidates
            .iter()
            .enumerate()
            .map(|(index, c)| {
                let probs = self.after_play(&c.after, mover, 0);
                (index, probs, equity(&probs))
            })
            .collect();
        sort_best_first(&mut ranked);
        ranked
    }

    /// The probabilities for `on_roll` of `board` before rolling, averaging its best play
    /// (at `plies`) over the 21 rolls; `plies` 0 is the static evaluation.
    pub fn before_roll(&mut self, board: &Board, on_roll: Side, plies: u32) -> Probs {
        if plies == 0 {
            return self.static_probs(board, on_roll);
        }
        let mut total = [0.0f32; 5];
        for (dice, weight) in Dice::all_rolls() {
            let candidates = legal_plays(board, on_roll, dice);
            let (_, probs) = self.choose(&candidates, on_roll, plies - 1);
            for (t, p) in total.iter_mut().zip(probs) {
                *t += weight as f32 * p;
            }
        }
        total.map(|t| t / 36.0)
    }
}

/// Best equity first; equal equities keep the move generator's order.
fn sort_best_first(ranked: &mut [(usize, Probs, f32)]) {
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finished_and_bear_off_positions() {
        let mut evaluator = Evaluator::new(Net::builtin());
        // White has borne everything off; black still has 15 with some in white's home.
        let mut rows = [[0u8; 25]; 2];
        rows[1][20] = 15;
        let board = Board::from_rows(rows).expect("board");
        assert_eq!(
            evaluator.after_play(&board, Side::White, 2),
            [1.0, 1.0, 1.0, 0.0, 0.0]
        );
        // A one-checker race at 1-ply: white (one on its 2-point) just moved; black, one on
        // its 6-point, misses with 9 of 36 rolls, then white is sure to finish.
        let mut rows = [[0u8; 25]; 2];
        rows[0][1] = 1;
        rows[1][5] = 1;
        let board = Board::from_rows(rows).expect("board");
        for plies in 0..=2 {
            let p = evaluator.after_play(&board, Side::White, plies);
            assert!((p[0] - 0.25).abs() < 1e-5, "{plies}-ply: {p:?}");
        }
    }

    #[test]
    fn deeper_search_picks_a_legal_play() {
        let mut evaluator = Evaluator::new(Net::builtin());
        let board = Board::start();
        let dice = Dice::new(6, 2).expect("dice");
        let candidates = legal_plays(&board, Side::Black, dice);
        for plies in 0..=2 {
            let (index, probs) = evaluator.choose(&candidates, Side::Black, plies);
            assert!(index < candidates.len());
            assert!(probs[0] > 0.3 && probs[0] < 0.7, "{plies}-ply: {probs:?}");
        }
        assert!(evaluator.evaluations > 1000);
    }
}
