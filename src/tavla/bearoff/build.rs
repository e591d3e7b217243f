//! The database build: a few tens of milliseconds, where asking the generic move generator
//! (`moves.rs`, full boards, sorted lists) for every position and roll took 1.7 s.
//!
//! Positions are taken in order of pip count, so everything a roll reaches is done already.
//! A roll's best play is found through tables of the best play of k steps with one die from
//! each position done (k = 1 for the second die of a plain roll, k = 3 for the last three
//! steps of a double), so a roll costs at most twelve look-ups instead of up to 126 step
//! sequences. With every checker home a die always moves something while checkers remain, so
//! every sequence plays all its dice or ends with the side borne off (the empty position,
//! however reached): the maximal-use rules drop nothing another sequence does not reach.
//!
//! The values are bit for bit those of the generic build (a unit test compares every
//! position): the same f32 sums in the same order, and the same play where several reach
//! equally good positions. The generic list was sorted by play (steps highest first) and the
//! first of equal means kept, so among equal means the play with the greatest steps wins.
//! Steps are compared through a key (six bits a step, highest first); putting one more step
//! into two keys keeps their order, so the best continuation of each first step, extended,
//! is the best play through that step.

use super::{Database, POSITIONS, ROLLS, expectation, rank, unrank};
use crate::tavla::dice::Dice;

/// Steps of a double after the first, read from the tables.
const TAIL: usize = 3;

/// The best position a sequence of steps reaches, and its play's key.
#[derive(Copy, Clone)]
struct Reach {
    index: u32,
    key: u32,
}

impl Reach {
    /// No sequence (the tables of plays that bear nothing off).
    const NONE: Reach = Reach {
        index: u32::MAX,
        key: 0,
    };

    fn at(index: usize) -> Reach {
        Reach {
            index: index as u32,
            key: 0,
        }
    }

    fn exists(self) -> bool {
        self.index != u32::MAX
    }

    /// This sequence after a first step coded `code`.
    fn after_step(self, code: u32) -> Reach {
        Reach {
            index: self.index,
            key: insert(self.key, code),
        }
    }

    /// Whether `self` is better than `current` by `score` (less), then by the greater key.
    fn beats(self, current: Reach, score: &[f32]) -> bool {
        if !current.exists() {
            return true;
        }
        let (mine, theirs) = (score[self.index as usize], score[current.index as usize]);
        mine < theirs || (mine == theirs && self.key > current.key)
    }
}

/// `key` (at most three step codes, highest in the top bits) with `code` put in its place.
fn insert(key: u32, code: u32) -> u32 {
    let mut codes = [key >> 18 & 63, key >> 12 & 63, key >> 6 & 63, key & 63];
    let mut at = 3;
    while at > 0 && codes[at - 1] < code {
        codes[at] = codes[at - 1];
        at -= 1;
    }
    codes[at] = code;
    codes.iter().fold(0, |key, &c| key << 6 | c)
}

/// One checker moved by one die from a position.
#[derive(Copy, Clone, Default)]
struct Step {
    /// The position it leads to.
    next: u32,
    /// `from * 8 + to` (0 = off): ordered as `moves::Step`.
    code: u32,
    bears_off: bool,
}

/// The steps of each die (index die - 1) from `home`.
fn steps_by_die(home: &[u8; 6]) -> [([Step; 6], usize); 6] {
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
                next: rank(&next) as u32,
                code: (from * 8 + to) as u32,
                bears_off: to == 0,
            };
            *count += 1;
        }
    }
    all
}

/// The build's state: per position done, its expectations, and per die its best sequences of
/// 1 to `TAIL` steps. Tables are by die, then position: a roll reads one die's entries, which
/// then stay in the cache.
struct Builder {
    /// Expected rolls to bear everything off.
    mean: Vec<f32>,
    /// Expected rolls to bear the first checker off (0 with fewer than 15 checkers).
    first_mean: Vec<f32>,
    /// Best by `mean`.
    reach: [Vec<Reach>; TAIL],
    /// Best by `first_mean` among sequences bearing nothing off (filled for positions with
    /// all 15 checkers, the only ones whose first checker is still to come).
    stay: [Vec<Reach>; TAIL],
    /// Whether some sequence bears a checker off (positions with all 15 checkers).
    bears: [Vec<bool>; TAIL],
}

/// What one roll (or one table entry) does best from a position.
struct Best {
    /// The position it leads to, least expected rolls to finish.
    finish: Reach,
    /// The position it leads to, least expected rolls to the first checker off, bearing none.
    first: Reach,
    /// Whether some play bears a checker off.
    bore_one: bool,
}

impl Best {
    const NONE: Best = Best {
        finish: Reach::NONE,
        first: Reach::NONE,
        bore_one: false,
    };
}

impl Builder {
    fn new() -> Builder {
        Builder {
            mean: vec![0.0; POSITIONS],
            first_mean: vec![0.0; POSITIONS],
            reach: std::array::from_fn(|_| vec![Reach::NONE; POSITIONS * 6]),
            stay: std::array::from_fn(|_| vec![Reach::NONE; POSITIONS * 6]),
            bears: std::array::from_fn(|_| vec![false; POSITIONS * 6]),
        }
    }

    /// The best `k` steps of `die` from position `index` (0 steps: the position itself).
    fn reach(&self, k: usize, index: u32, die: usize) -> Reach {
        match k {
            0 => Reach::at(index as usize),
            _ => self.reach[k - 1][(die - 1) * POSITIONS + index as usize],
        }
    }

    /// As `reach`, bearing nothing off.
    fn stay(&self, k: usize, index: u32, die: usize) -> Reach {
        match k {
            0 => Reach::at(index as usize),
            _ => self.stay[k - 1][(die - 1) * POSITIONS + index as usize],
        }
    }

    fn bears(&self, k: usize, index: u32, die: usize) -> bool {
        k > 0 && self.bears[k - 1][(die - 1) * POSITIONS + index as usize]
    }

    /// Folds into `found` the plays of one of `steps`, then `tail` more steps of die `then`.
    /// `full`: the position has all 15 checkers (the first checker is still to come).
    fn best_through(
        &self,
        steps: &[Step],
        (tail, then): (usize, usize),
        full: bool,
        found: &mut Best,
    ) {
        for step in steps {
            let finish = self.reach(tail, step.next, then).after_step(step.code);
            if finish.beats(found.finish, &self.mean) {
                found.finish = finish;
            }
            if !full {
                continue;
            }
            found.bore_one |= step.bears_off || self.bears(tail, step.next, then);
            let stay = self.stay(tail, step.next, then);
            if !step.bears_off && stay.exists() {
                let stay = stay.after_step(step.code);
                if stay.beats(found.first, &self.first_mean) {
                    found.first = stay;
                }
            }
        }
    }

    /// Fills the tables of position `index` (its successors are done).
    fn fill_tables(&mut self, index: usize, steps: &[([Step; 6], usize); 6], full: bool) {
        for k in 1..=TAIL {
            for die in 1..=6 {
                let (die_steps, count) = &steps[die - 1];
                let mut found = Best::NONE;
                self.best_through(&die_steps[..*count], (k - 1, die), full, &mut found);
                let slot = (die - 1) * POSITIONS + index;
                self.reach[k - 1][slot] = found.finish;
                self.stay[k - 1][slot] = found.first;
                self.bears[k - 1][slot] = found.bore_one;
            }
        }
    }

    /// The best plays of the roll `high`-`low` from a position with `steps`.
    fn best_of_roll(&self, steps: &[([Step; 6], usize); 6], dice: Dice, full: bool) -> Best {
        let (high, low) = (usize::from(dice.high()), usize::from(dice.low()));
        let of = |die: usize| &steps[die - 1].0[..steps[die - 1].1];
        let mut found = Best::NONE;
        if high == low {
            self.best_through(of(high), (TAIL, high), full, &mut found);
        } else {
            self.best_through(of(high), (1, low), full, &mut found);
            self.best_through(of(low), (1, high), full, &mut found);
        }
        found
    }
}

/// The database, positions in order of pip count.
pub(super) fn build() -> Database {
    let homes: Vec<[u8; 6]> = (0..POSITIONS).map(unrank).collect();
    let mut order: Vec<usize> = (0..POSITIONS).collect();
    order.sort_by_key(|&i| (pips(&homes[i]), i));
    let mut off = vec![[0f32; ROLLS]; POSITIONS];
    let mut first = vec![[0f32; ROLLS]; POSITIONS];
    let mut builder = Builder::new();
    let rolls: Vec<(Dice, u32)> = Dice::all_rolls().collect();
    for &index in &order {
        let home = homes[index];
        let total: u8 = home.iter().sum();
        if total == 0 {
            off[index][0] = 1.0;
            first[index][0] = 1.0;
            // Nothing moves: every sequence from here ends here.
            for table in &mut builder.reach {
                for die in 0..6 {
                    table[die * POSITIONS + index] = Reach::at(index);
                }
            }
            continue;
        }
        let full = total == 15;
        let steps = steps_by_die(&home);
        let mut dist = [0f32; ROLLS];
        let mut first_dist = [0f32; ROLLS];
        for &(dice, weight) in &rolls {
            let p = weight as f32 / 36.0;
            let best = builder.best_of_roll(&steps, dice, full);
            let finish = best.finish.index as usize;
            add_one_roll_later(&mut dist, p, &off[finish]);
            if full {
                if best.bore_one {
                    first_dist[1] += p;
                } else if best.first.exists() {
                    let next = best.first.index as usize;
                    add_one_roll_later(&mut first_dist, p, &first[next]);
                }
            }
        }
        if !full {
            first_dist[0] = 1.0;
        }
        builder.mean[index] = expectation(&dist);
        builder.first_mean[index] = expectation(&first_dist);
        off[index] = dist;
        first[index] = first_dist;
        builder.fill_tables(index, &steps, full);
    }
    Database {
        off,
        mean: builder.mean,
        first,
    }
}

/// `dist += p * later` shifted by one roll, the last roll holding the tail: the same sums in the
/// same order as one loop over n of `dist[min(n + 1, last)] += p * later[n]`, in a form the
/// compiler vectorises.
fn add_one_roll_later(dist: &mut [f32; ROLLS], p: f32, later: &[f32; ROLLS]) {
    for (sum, &value) in dist[1..].iter_mut().zip(&later[..ROLLS - 1]) {
        *sum += p * value;
    }
    dist[ROLLS - 1] += p * later[ROLLS - 1];
}

/// The pip count of `home`.
fn pips(home: &[u8; 6]) -> u32 {
    home.iter()
        .enumerate()
        .map(|(p, &n)| (p as u32 + 1) * u32::from(n))
        .sum()
}
