//! Legal plays: every resulting position reachable with the dice, by the maximal-use rule.
//!
//! A play is what a position becomes, so plays that end in the same position are one play
//! (gnubg and the tournament sheet agree). The steps kept for a position are the greatest in
//! [`Play`]'s order, which makes the list independent of generation order.

use std::fmt;

use super::board::{BAR, Board, Side};
use super::dice::Dice;

/// One checker moved by one die: from the mover's point `from` (25 = bar) to `to` (0 = off).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Step {
    pub from: u8,
    pub to: u8,
}

/// Up to four steps, stored highest `from` first (then highest `to`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Play {
    steps: [Step; 4],
    len: u8,
}

impl Play {
    /// No checker moves: the play when the dice cannot be used at all.
    pub const NONE: Play = Play {
        steps: [Step { from: 0, to: 0 }; 4],
        len: 0,
    };

    pub fn from_steps(steps: &[Step]) -> Play {
        let mut play = Play::NONE;
        for &step in steps.iter().take(4) {
            play.steps[play.len as usize] = step;
            play.len += 1;
        }
        play.steps[..play.len as usize].sort_unstable_by(|a, b| b.cmp(a));
        play
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn push(&mut self, step: Step) {
        self.steps[self.len as usize] = step;
        self.len += 1;
    }

    fn canonical(mut self) -> Play {
        self.steps[..self.len as usize].sort_unstable_by(|a, b| b.cmp(a));
        self
    }
}

/// A legal play with the position it leaves.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub play: Play,
    pub after: Board,
}

/// Where the die `die` takes a checker of `side` from its point `from`, if it may go:
/// `Some(0)` bears it off.
pub fn destination(board: &Board, side: Side, from: usize, die: u8) -> Option<usize> {
    let row = board.row(side);
    if row[from - 1] == 0 {
        return None;
    }
    if row[BAR] > 0 && from != BAR + 1 {
        return None;
    }
    let die = usize::from(die);
    if from > die {
        let to = from - die;
        return board.open_for(side, to).then_some(to);
    }
    // Bearing off: everything home, and the die exact or larger than the highest point.
    if !board.all_home(side) {
        return None;
    }
    if from == die || row[from..6].iter().all(|&n| n == 0) {
        Some(0)
    } else {
        None
    }
}

/// Every legal play of `side` with `dice` on `board`, sorted and unique by resulting
/// position. With no legal step the list holds one empty play.
pub fn legal_plays(board: &Board, side: Side, dice: Dice) -> Vec<Candidate> {
    let mut found = Vec::with_capacity(32);
    let mut most = 0usize;
    let (high, low) = (dice.high(), dice.low());
    if dice.is_double() {
        extend(
            board,
            side,
            &[high; 4],
            true,
            Play::NONE,
            &mut found,
            &mut most,
        );
    } else {
        extend(
            board,
            side,
            &[high, low],
            false,
            Play::NONE,
            &mut found,
            &mut most,
        );
        extend(
            board,
            side,
            &[low, high],
            false,
            Play::NONE,
            &mut found,
            &mut most,
        );
        if most == 1 {
            // Only one die fits: the larger one when it can be played.
            let uses_high = |c: &Candidate| {
                let step = c.play.steps()[0];
                step_uses(board, side, step, high)
            };
            if found.iter().any(uses_high) {
                found.retain(uses_high);
            }
        }
    }
    found.retain(|c| c.play.len as usize == most);
    if found.is_empty() {
        found.push(Candidate {
            play: Play::NONE,
            after: *board,
        });
        return found;
    }
    for candidate in &mut found {
        candidate.play = candidate.play.canonical();
    }
    // One play per resulting position, the greatest steps kept.
    found.sort_unstable_by(|a, b| a.after.cmp(&b.after).then(b.play.cmp(&a.play)));
    found.dedup_by(|later, first| later.after == first.after);
    found.sort_unstable_by_key(|c| std::cmp::Reverse(c.play));
    found
}

/// Whether a single step moved by `die` (exact, or a bear-off with a larger die).
fn step_uses(board: &Board, side: Side, step: Step, die: u8) -> bool {
    destination(board, side, usize::from(step.from), die) == Some(usize::from(step.to))
}

/// `ordered`: with doubles every die is the same, so steps taken from non-increasing points
/// reach every resulting position (moving the higher checker first never blocks the lower
/// one, and only helps a bear-off), and the search skips the other orders.
fn extend(
    board: &Board,
    side: Side,
    dice: &[u8],
    ordered: bool,
    play: Play,
    found: &mut Vec<Candidate>,
    most: &mut usize,
) {
    let Some((&die, rest)) = dice.split_first() else {
        record(board, play, found, most);
        return;
    };
    let row = board.row(side);
    let mut moved = false;
    let last_from = play.steps().last().map(|s| usize::from(s.from));
    for from in (1..=BAR + 1).rev() {
        if row[from - 1] == 0 {
            continue;
        }
        if ordered && last_from.is_some_and(|last| from > last) {
            continue;
        }
        let Some(to) = destination(board, side, from, die) else {
            continue;
        };
        moved = true;
        let mut next = *board;
        next.step(side, from, to);
        let mut longer = play;
        longer.push(Step {
            from: from as u8,
            to: to as u8,
        });
        extend(&next, side, rest, ordered, longer, found, most);
    }
    if !moved {
        record(board, play, found, most);
    }
}

fn record(board: &Board, play: Play, found: &mut Vec<Candidate>, most: &mut usize) {
    let used = play.len as usize;
    if used == 0 || used < *most {
        return;
    }
    *most = used;
    found.push(Candidate {
        play,
        after: *board,
    });
}

/// Whether `side` can move at all with `dice`.
pub fn can_move(board: &Board, side: Side, dice: Dice) -> bool {
    [dice.high(), dice.low()]
        .into_iter()
        .any(|die| (1..=BAR + 1).any(|from| destination(board, side, from, die).is_some()))
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let point = |p: u8| match p {
            0 => "off".to_string(),
            25 => "bar".to_string(),
            p => p.to_string(),
        };
        write!(f, "{}/{}", point(self.from), point(self.to))
    }
}
