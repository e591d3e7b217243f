//! Seeded random Tavla positions for the differential and invariant tests.
#![allow(dead_code)]

use hamle::tavla::ids::position_id;
use hamle::tavla::{Board, Dice, Roller, Side, legal_plays};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A position, the side to move and its roll.
#[derive(Clone, Debug)]
pub struct Case {
    pub board: Board,
    pub side: Side,
    pub dice: Dice,
}

/// Positions met in games of random plays from the start, every ply kept.
pub fn from_random_games(seed: u64, games: usize) -> Vec<Case> {
    let mut roller = Roller::new(seed);
    let mut pick = ChaCha8Rng::seed_from_u64(seed);
    let mut cases = Vec::new();
    for _ in 0..games {
        let mut board = Board::start();
        let mut side = Side::White;
        for _ in 0..2000 {
            let dice = roller.roll();
            cases.push(Case { board, side, dice });
            let plays = legal_plays(&board, side, dice);
            board = plays[pick.random_range(0..plays.len())].after;
            if board.on_board(side) == 0 {
                break;
            }
            side = side.other();
        }
    }
    cases
}

/// Checkers scattered at random, with the bar, bear-offs and crowded home boards that games
/// of random plays seldom reach.
pub fn scattered(seed: u64, count: usize) -> Vec<Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut roller = Roller::new(seed ^ 0x5eed);
    let mut cases = Vec::new();
    while cases.len() < count {
        let mut rows = [[0u8; 25]; 2];
        // A home-heavy spread half of the time, so bear-off rules are exercised.
        let home_bias = rng.random_bool(0.5);
        for side in 0..2 {
            let checkers = rng.random_range(1..=15);
            for _ in 0..checkers {
                for _attempt in 0..20 {
                    let index = if rng.random_bool(0.05) {
                        24
                    } else if home_bias && rng.random_bool(0.8) {
                        rng.random_range(0..6)
                    } else {
                        rng.random_range(0..24)
                    };
                    if index < 24 && rows[1 - side][23 - index] > 0 {
                        continue;
                    }
                    rows[side][index] += 1;
                    break;
                }
            }
        }
        let Ok(board) = Board::from_rows(rows) else {
            continue;
        };
        if board.on_board(Side::White) == 0 || board.on_board(Side::Black) == 0 {
            continue;
        }
        let side = if rng.random_bool(0.5) {
            Side::White
        } else {
            Side::Black
        };
        cases.push(Case {
            board,
            side,
            dice: roller.roll(),
        });
    }
    cases
}

/// The cases as the gnubg fixtures read them: one `POSITION_ID DIE DIE` line each.
pub fn gnubg_input(cases: &[Case]) -> String {
    cases
        .iter()
        .map(|c| {
            format!(
                "{} {} {}\n",
                position_id(&c.board, c.side),
                c.dice.first(),
                c.dice.second()
            )
        })
        .collect()
}
