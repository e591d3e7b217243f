//! The one-sided bear-off database: for every way of having up to 15 checkers on the six home
//! points (54,264 positions), the probability of bearing them all off in exactly n rolls when
//! playing to minimise the expected number of rolls, and, with all 15 still in play, of
//! bearing off the first checker in exactly n rolls. Built in memory at first use, in about
//! 0.1 s (`build.rs`); never stored, so nothing can go stale.
//!
//! Two such one-sided distributions give a race's winning and gammon chances: the side on
//! roll wins when it needs no more rolls than the other side.

use std::sync::OnceLock;

use super::board::{Board, Side};

mod build;

/// Rolls a distribution covers (no position needs more; the tail is folded into the last).
pub const ROLLS: usize = 32;
/// Positions in the database: C(21, 6).
pub const POSITIONS: usize = 54_264;

/// `COUNT[p][c]`: ways to put at most `c` checkers on `p` points, C(c + p, p).
const fn counts() -> [[u32; 16]; 7] {
    let mut table = [[0u32; 16]; 7];
    let mut c = 0;
    while c < 16 {
        table[0][c] = 1;
        c += 1;
    }
    let mut p = 1;
    while p < 7 {
        let mut c = 0;
        while c < 16 {
            // Vectors of length p with sum <= c: the last entry takes 0..=c.
            let mut sum = 0;
            let mut last = 0;
            while last <= c {
                sum += table[p - 1][c - last];
                last += 1;
            }
            table[p][c] = sum;
            c += 1;
        }
        p += 1;
    }
    table
}

const COUNT: [[u32; 16]; 7] = counts();

/// `SKIPPED[p][left][n]`: positions ranked before those with `n` checkers on point p + 1 when
/// `left` checkers remain for points 1 to p + 1, the sum of `COUNT[p][left - fewer]` for
/// fewer < n (the build and every race evaluation rank positions, so it is a table).
const fn skipped() -> [[[u32; 16]; 16]; 6] {
    let mut table = [[[0u32; 16]; 16]; 6];
    let mut point = 0;
    while point < 6 {
        let mut left = 0;
        while left < 16 {
            let mut n = 1;
            while n <= left {
                table[point][left][n] = table[point][left][n - 1] + COUNT[point][left - (n - 1)];
                n += 1;
            }
            left += 1;
        }
        point += 1;
    }
    table
}

const SKIPPED: [[[u32; 16]; 16]; 6] = skipped();

/// The database index of checkers `home[i]` on point i + 1 (at most 15 in all).
pub fn rank(home: &[u8; 6]) -> usize {
    let mut left = 15usize;
    let mut index = 0u32;
    for point in (0..6).rev() {
        let n = usize::from(home[point]);
        index += SKIPPED[point][left][n];
        left -= n;
    }
    index as usize
}

/// The position of database index `index`.
pub fn unrank(mut index: usize) -> [u8; 6] {
    let mut home = [0u8; 6];
    let mut left = 15usize;
    for point in (0..6).rev() {
        let mut n = 0;
        while index >= COUNT[point][left - n] as usize {
            index -= COUNT[point][left - n] as usize;
            n += 1;
        }
        home[point] = n as u8;
        left -= n;
    }
    home
}

/// One side's bear-off chances.
pub struct Database {
    /// `off[i][n]`: probability of bearing everything off in exactly n rolls.
    off: Vec<[f32; ROLLS]>,
    /// Expected rolls to bear everything off.
    mean: Vec<f32>,
    /// `first[i][n]`, for positions with 15 checkers: probability of the first checker off in
    /// exactly n rolls (0 rolls for positions that have borne one off already).
    first: Vec<[f32; ROLLS]>,
}

impl Database {
    /// The database, built on first use (about 0.1 s) and shared afterwards.
    pub fn get() -> &'static Database {
        static DB: OnceLock<Database> = OnceLock::new();
        DB.get_or_init(build::build)
    }

    /// Expected rolls to bear off `home`.
    pub fn expected_rolls(&self, home: &[u8; 6]) -> f32 {
        self.mean[rank(home)]
    }

    /// Probability of bearing off `home` in exactly `n` rolls.
    pub fn rolls(&self, home: &[u8; 6]) -> &[f32; ROLLS] {
        &self.off[rank(home)]
    }

    /// A race with every checker of both sides home: the five probabilities (win, win gammon,
    /// win backgammon, lose gammon, lose backgammon) for `on_roll`.
    pub fn race(&self, board: &Board, on_roll: Side) -> [f32; 5] {
        let me = rank(&home_of_side(board, on_roll));
        let them = rank(&home_of_side(board, on_roll.other()));
        let (a, b) = (&self.off[me], &self.off[them]);
        let (fa, fb) = (&self.first[me], &self.first[them]);
        // Tails: P(B needs at least n rolls), cumulative from the top.
        let mut b_at_least = [0f32; ROLLS + 1];
        let mut fa_more = [0f32; ROLLS + 1];
        let mut fb_at_least = [0f32; ROLLS + 1];
        for n in (0..ROLLS).rev() {
            b_at_least[n] = b_at_least[n + 1] + b[n];
            fb_at_least[n] = fb_at_least[n + 1] + fb[n];
            fa_more[n] = fa_more[n + 1] + fa[n];
        }
        let (mut win, mut gammon, mut lose_gammon) = (0f32, 0f32, 0f32);
        for n in 1..ROLLS {
            // The side on roll finishes on its n-th roll; the other side has had n - 1.
            win += a[n] * b_at_least[n];
            gammon += a[n] * fb_at_least[n];
            // The other side finishes on its n-th roll, after n rolls of the side on roll.
            lose_gammon += b[n] * fa_more[n + 1];
        }
        let win = win.min(1.0);
        [win, gammon.min(win), 0.0, lose_gammon.min(1.0 - win), 0.0]
    }
}

fn expectation(dist: &[f32; ROLLS]) -> f32 {
    dist.iter().enumerate().map(|(n, &p)| n as f32 * p).sum()
}

/// `side`'s checkers on its six home points.
pub fn home_of_side(board: &Board, side: Side) -> [u8; 6] {
    let mut home = [0u8; 6];
    home.copy_from_slice(&board.row(side)[..6]);
    home
}

/// Whether the database answers `board`: both sides bearing off (every checker home).
pub fn applies(board: &Board) -> bool {
    board.all_home(Side::White) && board.all_home(Side::Black)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::tavla::dice::Dice;
    use crate::tavla::moves::legal_plays;

    fn one_sided(home: &[u8; 6]) -> Board {
        let mut rows = [[0u8; 25]; 2];
        rows[0][..6].copy_from_slice(home);
        Board::from_rows(rows).expect("at most 15 checkers")
    }

    fn home_of(board: &Board) -> [u8; 6] {
        home_of_side(board, Side::White)
    }

    /// FNV-1a over every value's bits, position by position.
    fn checksum(db: &Database) -> u64 {
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for index in 0..POSITIONS {
            let values = db.off[index]
                .iter()
                .chain(&db.first[index])
                .chain(std::iter::once(&db.mean[index]));
            for value in values {
                for byte in value.to_bits().to_le_bytes() {
                    hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
                }
            }
        }
        hash
    }

    /// The database as the generic build made it (checksum taken before the fast build).
    #[test]
    fn pinned_checksum() {
        assert_eq!(checksum(Database::get()), PINNED);
    }

    #[test]
    fn fast_build_equals_the_generic_build() {
        let (fast, generic) = (Database::get(), generic_build());
        for index in 0..POSITIONS {
            let home = unrank(index);
            let bits = |values: &[f32]| values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(
                bits(&fast.off[index]),
                bits(&generic.off[index]),
                "{home:?}"
            );
            assert_eq!(
                bits(&fast.first[index]),
                bits(&generic.first[index]),
                "{home:?}"
            );
            assert_eq!(
                fast.mean[index].to_bits(),
                generic.mean[index].to_bits(),
                "{home:?}"
            );
        }
        assert_eq!(checksum(&generic), PINNED);
    }

    const PINNED: u64 = 4_178_813_860_588_505_847;

    /// The build as it was before `plays.rs`: the generic move generator on full boards.
    fn generic_build() -> Database {
        let mut order: Vec<usize> = (0..POSITIONS).collect();
        let pips = |i: usize| -> u32 {
            unrank(i)
                .iter()
                .enumerate()
                .map(|(p, &n)| (p as u32 + 1) * u32::from(n))
                .sum()
        };
        order.sort_by_key(|&i| (pips(i), i));
        let mut off = vec![[0f32; ROLLS]; POSITIONS];
        let mut mean = vec![0f32; POSITIONS];
        let mut first = vec![[0f32; ROLLS]; POSITIONS];
        let mut first_mean = vec![0f32; POSITIONS];
        let rolls: Vec<(Dice, u32)> = Dice::all_rolls().collect();
        for &index in &order {
            let home = unrank(index);
            let total: u8 = home.iter().sum();
            if total == 0 {
                off[index][0] = 1.0;
                first[index][0] = 1.0;
                continue;
            }
            let board = one_sided(&home);
            let mut dist = [0f32; ROLLS];
            let mut first_dist = [0f32; ROLLS];
            for &(dice, weight) in &rolls {
                let p = weight as f32 / 36.0;
                let mut best = usize::MAX;
                let mut best_first = usize::MAX;
                let mut bore_one = false;
                for candidate in legal_plays(&board, Side::White, dice) {
                    let next = home_of(&candidate.after);
                    let next_index = rank(&next);
                    if best == usize::MAX || mean[next_index] < mean[best] {
                        best = next_index;
                    }
                    if next.iter().sum::<u8>() < total {
                        bore_one = true;
                    } else if best_first == usize::MAX
                        || first_mean[next_index] < first_mean[best_first]
                    {
                        best_first = next_index;
                    }
                }
                for n in 0..ROLLS {
                    dist[(n + 1).min(ROLLS - 1)] += p * off[best][n];
                }
                if total == 15 {
                    if bore_one {
                        first_dist[1] += p;
                    } else {
                        for n in 0..ROLLS {
                            first_dist[(n + 1).min(ROLLS - 1)] += p * first[best_first][n];
                        }
                    }
                }
            }
            if total < 15 {
                first_dist[0] = 1.0;
            }
            mean[index] = expectation(&dist);
            first_mean[index] = expectation(&first_dist);
            off[index] = dist;
            first[index] = first_dist;
        }
        Database { off, mean, first }
    }

    #[test]
    fn rank_is_a_bijection() {
        assert_eq!(COUNT[6][15] as usize, POSITIONS);
        for index in (0..POSITIONS).step_by(7) {
            assert_eq!(rank(&unrank(index)), index);
        }
        assert_eq!(rank(&[0; 6]), 0);
        assert_eq!(rank(&[0, 0, 0, 0, 0, 15]), POSITIONS - 1);
    }

    #[test]
    fn known_bear_offs() {
        let db = Database::get();
        // One checker on the 1-point: always exactly one roll.
        let close = |a: f32, b: f32| (a - b).abs() < 1e-5;
        assert!(close(db.rolls(&[1, 0, 0, 0, 0, 0])[1], 1.0));
        assert!(close(db.expected_rolls(&[1, 0, 0, 0, 0, 0]), 1.0));
        // Two checkers on the 1-point: one roll, any dice.
        assert!(close(db.expected_rolls(&[2, 0, 0, 0, 0, 0]), 1.0));
        // Three on the 1-point: only doubles (6/36) take them in one roll.
        let three = db.rolls(&[3, 0, 0, 0, 0, 0]);
        assert!((three[1] - 1.0 / 6.0).abs() < 1e-6);
        assert!((three[2] - 5.0 / 6.0).abs() < 1e-6);
        // One checker on the 6-point fails to get off only with 1-1 (4 pips) and the eight
        // non-double rolls summing to 3, 4 or 5: 27 of 36 succeed.
        let six = db.rolls(&[0, 0, 0, 0, 0, 1]);
        assert!((six[1] - 27.0 / 36.0).abs() < 1e-6, "{}", six[1]);
        // 15 on the 6-point needs many rolls; every distribution sums to 1.
        for home in [[0, 0, 0, 0, 0, 15], [3, 2, 4, 1, 3, 2], [0, 1, 0, 0, 0, 0]] {
            let total: f32 = db.rolls(&home).iter().sum();
            assert!((total - 1.0).abs() < 1e-4, "{home:?}: {total}");
        }
        assert!(db.expected_rolls(&[0, 0, 0, 0, 0, 15]) > 7.0);
    }

    #[test]
    fn race_probabilities() {
        let db = Database::get();
        let mut rows = [[0u8; 25]; 2];
        rows[0][0] = 1; // white: one checker on its 1-point
        rows[1][5] = 1; // black: one on its 6-point
        let board = Board::from_rows(rows).expect("board");
        let close = |a: f32, b: f32| (a - b).abs() < 1e-5;
        // White on roll always wins.
        assert!(close(db.race(&board, Side::White)[0], 1.0));
        // Black on roll wins with 27 of 36.
        let black = db.race(&board, Side::Black);
        assert!((black[0] - 0.75).abs() < 1e-6);
        assert_eq!(black[1], 0.0);
        // Fifteen checkers still home: a gammon is possible.
        rows[1][5] = 15;
        let board = Board::from_rows(rows).expect("board");
        let white = db.race(&board, Side::White);
        assert!(close(white[0], 1.0));
        assert!(close(white[1], 1.0));
        // Black, on roll with fifteen on its 6-point against one checker, is gammoned unless
        // its roll bears one off: a 6 (11 rolls), 5-1, 4-2 (2 each), 3-3 and 2-2: 17 of 36.
        let black = db.race(&board, Side::Black);
        assert!(black[0] < 1e-6);
        assert!(close(black[3], 19.0 / 36.0), "{black:?}");
    }
}
