//! The database build: tens of milliseconds, where asking the generic move generator
//! (`moves.rs`: full boards, sorted lists) for every position and roll took 1.7 s.
//!
//! Positions are taken in order of pip count, so everything a roll reaches is done already,
//! and numbered in that order while building ("seq"), so what a position reads (a step lands
//! at most six pips lower) lies close together in memory. A roll's best play is found through
//! tables of the best k steps of one die from every position done (k = 1 for the second die
//! of a plain roll, k = 3 for the last three steps of a double): a roll costs at most twelve
//! look-ups instead of up to 126 step sequences. With every checker home a die always moves
//! something while checkers remain, so every sequence plays all its dice or ends with the side
//! borne off (the empty position, however reached): the maximal-use rules drop no position.
//!
//! The values are bit for bit those of the generic build (a unit test compares every position):
//! the same f32 sums in the same order, and the same play where several reach equally good
//! positions. The generic list was sorted by play (steps, highest first) and the first of
//! equal means kept, so among equal means the play with the greatest steps wins, and that
//! choice does change some values. Plays are compared through keys that keep that order:
//! steps of one die are ordered by their starting point, so k steps of one die are keyed by how
//! many start on each point, highest point first (three bits a point: adding a step is adding
//! its bit), and a plain roll's two steps by their codes, higher first. Adding the same step
//! to two plays keeps their order, so the best continuation of each first step is the best
//! play through that step.

use super::{Database, POSITIONS, ROLLS, expectation, rank, unrank};
use crate::tavla::dice::Dice;

/// Steps of a double after the first, read from the tables.
const TAIL: usize = 3;

/// The best position some steps reach, with its score (expected rolls) and its play's key.
#[derive(Copy, Clone)]
struct Reach {
    seq: u32,
    key: u32,
    score: f32,
}

impl Reach {
    /// No play (scores are finite).
    const NONE: Reach = Reach {
        seq: 0,
        key: 0,
        score: f32::INFINITY,
    };

    fn exists(self) -> bool {
        self.score.is_finite()
    }

    /// Fewer expected rolls, then the greater key.
    fn beats(self, current: Reach) -> bool {
        self.score < current.score || (self.score == current.score && self.key > current.key)
    }

    fn with_key(self, key: u32) -> Reach {
        Reach { key, ..self }
    }
}

/// One checker moved by one die.
#[derive(Copy, Clone, Default)]
struct Step {
    /// The position it leads to.
    next: u32,
    /// The point it starts from, 1–6.
    from: u8,
    bears_off: bool,
}

impl Step {
    /// Its share of the key of steps of one die.
    fn count_key(self) -> u32 {
        1 << (3 * (u32::from(self.from) - 1))
    }
}

/// A step's code as `moves::Step` orders them: `from * 8 + to`, 0 for off.
fn code(from: u32, die: u32) -> u32 {
    from * 8 + from.saturating_sub(die)
}

/// The code of the one step of die `die` keyed `key` by its point (0: no step, the side was
/// borne off already).
fn single_code(key: u32, die: u32) -> u32 {
    match key {
        0 => 0,
        _ => code(key.trailing_zeros() / 3 + 1, die),
    }
}

/// The key of a plain roll's two steps: the higher code first.
fn pair_key(a: u32, b: u32) -> u32 {
    a.max(b) << 6 | a.min(b)
}

/// Every step of each die (index die - 1) from `home`; `seq_of` numbers positions.
fn steps_by_die(home: &[u8; 6], seq_of: &[u32]) -> [([Step; 6], usize); 6] {
    let highest = home.iter().rposition(|&n| n > 0).map_or(0, |p| p + 1);
    let mut all = [([Step::default(); 6], 0); 6];
    for (die, (steps, count)) in (1..=6usize).zip(all.iter_mut()) {
        for from in (1..=highest).rev() {
            if home[from - 1] == 0 {
                continue;
            }
            // Bearing off with a larger die only from the highest point.
            let to = if from > die {
                from - die
            } else if from == die || from == highest {
                0
            } else {
                continue;
            };
            let mut next = *home;
            next[from - 1] -= 1;
            if to > 0 {
                next[to - 1] += 1;
            }
            steps[*count] = Step {
                next: seq_of[rank(&next)],
                from: from as u8,
                bears_off: to == 0,
            };
            *count += 1;
        }
    }
    all
}

/// What a roll, or k steps of one die, does best from a position.
#[derive(Copy, Clone)]
struct Best {
    /// Least expected rolls to bear everything off.
    finish: Reach,
    /// Least expected rolls to bear the first checker off, bearing none now (positions with
    /// all 15 checkers).
    first: Reach,
    /// Whether some play bears a checker off (positions with all 15 checkers).
    bore_one: bool,
}

impl Best {
    const NONE: Best = Best {
        finish: Reach::NONE,
        first: Reach::NONE,
        bore_one: false,
    };

    fn offer(&mut self, finish: Reach) {
        if finish.beats(self.finish) {
            self.finish = finish;
        }
    }

    fn offer_first(&mut self, first: Reach) {
        if first.beats(self.first) {
            self.first = first;
        }
    }
}

/// The build's state, by seq: every position done so far, its expected rolls and its tables,
/// pushed in order.
struct Builder {
    /// Expected rolls to bear everything off.
    mean: Vec<f32>,
    /// Expected rolls to bear the first checker off (0 once one is off).
    first_mean: Vec<f32>,
    /// `reach[k - 1][seq * 6 + die - 1]`: the best k steps of `die`.
    reach: [Vec<Reach>; TAIL],
    /// Positions with all 15 checkers numbered among themselves (`u32::MAX` for the others):
    /// only their first checker is still to come, and steps bearing nothing off keep 15.
    full_of: Vec<u32>,
    /// `stay[k - 1][full * 6 + die - 1]`: the best k steps of `die` bearing nothing off, by
    /// expected rolls to the first checker off.
    stay: [Vec<Reach>; TAIL],
    /// `bears[k - 1][full * 6 + die - 1]`: whether some k steps of `die` bear a checker off.
    bears: [Vec<bool>; TAIL],
}

impl Builder {
    fn reach(&self, k: usize, seq: u32, die: usize) -> Reach {
        match k {
            0 => Reach {
                seq,
                key: 0,
                score: self.mean[seq as usize],
            },
            _ => self.reach[k - 1][seq as usize * 6 + die - 1],
        }
    }

    fn stay(&self, k: usize, seq: u32, die: usize) -> Reach {
        match k {
            0 => Reach {
                seq,
                key: 0,
                score: self.first_mean[seq as usize],
            },
            _ => self.stay[k - 1][self.full_of[seq as usize] as usize * 6 + die - 1],
        }
    }

    fn bears(&self, k: usize, seq: u32, die: usize) -> bool {
        k > 0 && self.bears[k - 1][self.full_of[seq as usize] as usize * 6 + die - 1]
    }

    /// The best of one of `steps` then `tail` more steps, all of `die`. `full`: the
    /// position has all 15 checkers.
    fn best_of_one_die(&self, steps: &[Step], tail: usize, die: usize, full: bool) -> Best {
        let mut found = Best::NONE;
        for &step in steps {
            let finish = self.reach(tail, step.next, die);
            found.offer(finish.with_key(finish.key + step.count_key()));
            if !full {
                continue;
            }
            if step.bears_off || self.bears(tail, step.next, die) {
                found.bore_one = true;
            }
            if !step.bears_off {
                let first = self.stay(tail, step.next, die);
                if first.exists() {
                    found.offer_first(first.with_key(first.key + step.count_key()));
                }
            }
        }
        found
    }

    /// Folds into `found` the plays of one of `steps` of die `one` then a step of `other`.
    fn best_of_two_dice(
        &self,
        steps: &[Step],
        one: usize,
        other: usize,
        full: bool,
        found: &mut Best,
    ) {
        let (one, other32) = (one as u32, other as u32);
        for &step in steps {
            let code = code(u32::from(step.from), one);
            let finish = self.reach(1, step.next, other);
            found.offer(finish.with_key(pair_key(code, single_code(finish.key, other32))));
            if !full {
                continue;
            }
            if step.bears_off || self.bears(1, step.next, other) {
                found.bore_one = true;
            }
            if !step.bears_off {
                let first = self.stay(1, step.next, other);
                if first.exists() {
                    let key = pair_key(code, single_code(first.key, other32));
                    found.offer_first(first.with_key(key));
                }
            }
        }
    }

    /// The best plays of `dice` from a position with `steps`.
    fn best_of_roll(&self, steps: &[([Step; 6], usize); 6], dice: Dice, full: bool) -> Best {
        let (high, low) = (usize::from(dice.high()), usize::from(dice.low()));
        let of = |die: usize| &steps[die - 1].0[..steps[die - 1].1];
        if high == low {
            return self.best_of_one_die(of(high), TAIL, high, full);
        }
        let mut found = Best::NONE;
        self.best_of_two_dice(of(high), high, low, full, &mut found);
        self.best_of_two_dice(of(low), low, high, full, &mut found);
        found
    }

    /// Pushes the tables of the next position (its mean is pushed, its successors done).
    fn push_tables(&mut self, steps: &[([Step; 6], usize); 6], full: bool) {
        for k in 1..=TAIL {
            for (die, (die_steps, count)) in (1..=6).zip(steps) {
                let found = self.best_of_one_die(&die_steps[..*count], k - 1, die, full);
                self.reach[k - 1].push(found.finish);
                if full {
                    self.stay[k - 1].push(found.first);
                    self.bears[k - 1].push(found.bore_one);
                }
            }
        }
    }
}

/// The database.
pub(super) fn build() -> Database {
    let homes: Vec<[u8; 6]> = (0..POSITIONS).map(unrank).collect();
    let total = |index: usize| homes[index].iter().sum::<u8>();
    let mut order: Vec<usize> = (0..POSITIONS).collect();
    order.sort_by_key(|&i| (pips(&homes[i]), i));
    let mut seq_of = vec![0u32; POSITIONS];
    for (seq, &index) in order.iter().enumerate() {
        seq_of[index] = seq as u32;
    }
    let mut full_count = 0;
    let full_of = order
        .iter()
        .map(|&index| match total(index) {
            15 => {
                full_count += 1;
                full_count - 1
            }
            _ => u32::MAX,
        })
        .collect();
    let full_count = full_count as usize;
    let mut builder = Builder {
        mean: Vec::with_capacity(POSITIONS),
        first_mean: Vec::with_capacity(POSITIONS),
        reach: std::array::from_fn(|_| Vec::with_capacity(POSITIONS * 6)),
        full_of,
        stay: std::array::from_fn(|_| Vec::with_capacity(full_count * 6)),
        bears: std::array::from_fn(|_| Vec::with_capacity(full_count * 6)),
    };
    let mut off: Vec<[f32; ROLLS]> = Vec::with_capacity(POSITIONS);
    let mut first: Vec<[f32; ROLLS]> = Vec::with_capacity(POSITIONS);
    let rolls: Vec<(Dice, u32)> = Dice::all_rolls().collect();
    for (seq, &index) in order.iter().enumerate() {
        let checkers = total(index);
        if checkers == 0 {
            // Borne off: no more rolls to either end.
            let mut done = [0f32; ROLLS];
            done[0] = 1.0;
            builder.mean.push(expectation(&done));
            builder.first_mean.push(expectation(&done));
            // Nothing moves: every sequence from here ends here.
            let here = builder.reach(0, seq as u32, 1);
            for table in &mut builder.reach {
                table.extend([here; 6]);
            }
            off.push(done);
            first.push(done);
            continue;
        }
        let full = checkers == 15;
        let steps = steps_by_die(&homes[index], &seq_of);
        let (mut dist, mut first_dist) = (Later::ZERO, Later::ZERO);
        for &(dice, weight) in &rolls {
            let p = weight as f32 / 36.0;
            let best = builder.best_of_roll(&steps, dice, full);
            dist.add_one_roll_later(p, &off[best.finish.seq as usize]);
            if full {
                if best.bore_one {
                    first_dist.body[0] += p;
                } else if best.first.exists() {
                    first_dist.add_one_roll_later(p, &first[best.first.seq as usize]);
                }
            }
        }
        let (dist, mut first_dist) = (dist.rolls(), first_dist.rolls());
        if !full {
            first_dist[0] = 1.0;
        }
        builder.mean.push(expectation(&dist));
        builder.first_mean.push(expectation(&first_dist));
        off.push(dist);
        first.push(first_dist);
        builder.push_tables(&steps, full);
    }
    let by_rank =
        |values: &[[f32; ROLLS]]| seq_of.iter().map(|&seq| values[seq as usize]).collect();
    Database {
        off: by_rank(&off),
        mean: seq_of
            .iter()
            .map(|&seq| builder.mean[seq as usize])
            .collect(),
        first: by_rank(&first),
    }
}

/// A distribution of rolls being summed over the rolls of its position, each adding the
/// distribution where that roll's play leads, one roll later. `body[n]` holds the chance of
/// n + 1 rolls (up to the next to last), `tail` that of the last, which also takes everything
/// later: the same sums in the same order as `dist[min(n + 1, last)] += p * later[n]` for each
/// n, but in a form the compiler vectorises (`body`'s last two entries are never read).
struct Later {
    body: [f32; ROLLS],
    tail: f32,
}

impl Later {
    const ZERO: Later = Later {
        body: [0.0; ROLLS],
        tail: 0.0,
    };

    fn add_one_roll_later(&mut self, p: f32, later: &[f32; ROLLS]) {
        for (sum, &value) in self.body.iter_mut().zip(later) {
            *sum += p * value;
        }
        self.tail += p * later[ROLLS - 2];
        self.tail += p * later[ROLLS - 1];
    }

    /// The distribution, from 0 rolls.
    fn rolls(&self) -> [f32; ROLLS] {
        let mut dist = [0.0; ROLLS];
        dist[1..ROLLS - 1].copy_from_slice(&self.body[..ROLLS - 2]);
        dist[ROLLS - 1] = self.tail;
        dist
    }
}

/// The pip count of `home`.
fn pips(home: &[u8; 6]) -> u32 {
    home.iter()
        .enumerate()
        .map(|(p, &n)| (p as u32 + 1) * u32::from(n))
        .sum()
}
