//! Move ordering: the table move, push-offs, pushes, the two killers of the ply, then the
//! history of quiet moves that caused cut-offs and the centre gain.
//!
//! Killers are kept per search; history decays between searches and is cleared with the
//! table for a new game.

use super::MAX_PLY;
use crate::abalone::board::{Cell, Direction};
use crate::abalone::moves::Move;
use crate::abalone::position::{MAX_MOVES, MoveList, Position};

/// History slots: one per padded cell index and direction.
const HISTORY_SLOTS: usize = 128 * 6;

/// What the search has learnt about which moves cause cut-offs.
pub(super) struct MoveOrder {
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Vec<i32>,
}

impl MoveOrder {
    pub(super) fn new() -> MoveOrder {
        MoveOrder {
            killers: [[None; 2]; MAX_PLY],
            history: vec![0; HISTORY_SLOTS],
        }
    }

    /// Forgets everything (a new game).
    pub(super) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// A search starts: the killers are forgotten and the history decays.
    pub(super) fn new_search(&mut self) {
        self.killers = [[None; 2]; MAX_PLY];
        for h in &mut self.history {
            *h /= 8;
        }
    }

    /// The quiet move `mv` caused a cut-off at `ply` in a search of `depth`.
    pub(super) fn record_cutoff(&mut self, mv: Move, ply: usize, depth: i32) {
        let killers = &mut self.killers[ply];
        if killers[0] != Some(mv) {
            killers[1] = killers[0];
            killers[0] = Some(mv);
        }
        let slot = history_slot(mv);
        self.history[slot] += depth * depth;
    }

    /// Table move, push-offs, pushes, killers, then by history and centre gain.
    pub(super) fn order(
        &self,
        position: &Position,
        moves: &mut MoveList,
        table_move: Option<Move>,
        ply: usize,
    ) {
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        let mut scores = [0i32; MAX_MOVES];
        let slice = moves.as_mut_slice();
        for (score, &mv) in scores.iter_mut().zip(slice.iter()) {
            *score = if Some(mv) == table_move {
                i32::MAX
            } else if let Move::Inline { tail, direction } = mv
                && let Ok(effect) = position.inline_effect(tail, direction)
                && effect.pushed > 0
            {
                if effect.push_off {
                    1 << 29
                } else {
                    (1 << 28) + i32::from(effect.marbles)
                }
            } else if killers[0] == Some(mv) {
                1 << 27
            } else if killers[1] == Some(mv) {
                (1 << 27) - 1
            } else {
                self.history[history_slot(mv)] + centre_gain(position, mv) * 4
            };
        }
        // Insertion sort, stable: lists are short and mostly ordered already.
        for i in 1..slice.len() {
            let (score, mv) = (scores[i], slice[i]);
            let mut j = i;
            while j > 0 && scores[j - 1] < score {
                scores[j] = scores[j - 1];
                slice[j] = slice[j - 1];
                j -= 1;
            }
            scores[j] = score;
            slice[j] = mv;
        }
    }
}

fn history_slot(mv: Move) -> usize {
    let cell: Cell = match mv {
        Move::Inline { tail, .. } => tail,
        Move::Broadside { start, .. } => start,
    };
    let direction: Direction = mv.direction();
    cell.index() * 6 + direction.index()
}

/// Rings gained towards the centre by the moving marbles (a cheap ordering hint).
fn centre_gain(position: &Position, mv: Move) -> i32 {
    let gain = |from: Cell, direction: Direction| {
        from.step(direction).map_or(0, |to| {
            i32::from(from.centre_distance()) - i32::from(to.centre_distance())
        })
    };
    match mv {
        Move::Inline { tail, direction } => {
            let front = position
                .inline_effect(tail, direction)
                .map(|e| e.front)
                .ok();
            front.map_or(0, |front| {
                i32::from(tail.centre_distance()) - i32::from(front.centre_distance())
            })
        }
        Move::Broadside { direction, .. } => Cell::iter(mv.broadside_group())
            .map(|cell| gain(cell, direction))
            .sum(),
    }
}
