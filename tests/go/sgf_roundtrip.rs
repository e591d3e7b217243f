//! Random games written as SGF and read back: the replayed game equals the original at
//! its end and, for `loadsgf file n`, at every earlier move.

use hamle::go::game::Game;
use hamle::go::rules::{RuleSet, Rules};
use hamle::go::sgf::GoRecord;
use hamle::go::{Color, MoveVertex};
use pretty_assertions::assert_eq;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Plays a random game: random legal moves (pass one time in thirty), both colours in turn.
fn random_game(size: usize, rule_set: RuleSet, handicap: usize, rng: &mut ChaCha8Rng) -> Game {
    let mut game = Game::new(size, Rules::from(rule_set)).expect("valid size");
    game.set_komi(6.5);
    if handicap >= 2 {
        game.place_fixed_handicap(handicap).expect("valid handicap");
    }
    let moves = rng.random_range(0..size * size * 2);
    for _ in 0..moves {
        let color = game.to_move();
        let legal: Vec<MoveVertex> = game
            .legal_moves(color)
            .into_iter()
            .filter(|&mv| mv != MoveVertex::Pass)
            .collect();
        let mv = if legal.is_empty() || rng.random_range(0..30) == 0 {
            MoveVertex::Pass
        } else {
            legal[rng.random_range(0..legal.len())]
        };
        game.play(color, mv).expect("legal move");
        if game.is_over() {
            break;
        }
    }
    game
}

/// What the SGF must carry: stones, prisoners, turn, komi, rules, handicap, the moves.
#[derive(Debug, PartialEq)]
struct Summary {
    board: String,
    prisoners: [u32; 2],
    to_move: Color,
    komi: f32,
    rules: Rules,
    handicap: u32,
    moves: Vec<(Color, MoveVertex)>,
}

fn summary(game: &Game) -> Summary {
    Summary {
        board: game.board().to_string(),
        prisoners: [game.prisoners(Color::Black), game.prisoners(Color::White)],
        to_move: game.to_move(),
        komi: game.komi(),
        rules: *game.rules(),
        handicap: game.handicap(),
        moves: game.moves().collect(),
    }
}

#[test]
fn random_games_survive_the_sgf_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut games = 0;
    let mut positions = 0;
    for &size in &[2, 5, 9, 13, 19, 25] {
        for rule_set in RuleSet::ALL {
            for handicap in [0, 2, 4] {
                if handicap > 0 && size < 9 {
                    continue;
                }
                let game = random_game(size, rule_set, handicap, &mut rng);
                let text = GoRecord::from_game(&game, None).to_sgf();
                let record = GoRecord::from_sgf(&text).expect("our own SGF parses");
                let replayed = record
                    .replay(Rules::default(), 0.0, None)
                    .expect("our own SGF replays");
                assert_eq!(summary(&replayed), summary(&game), "{text}");
                // `loadsgf file n`: the position before move n, with n's colour to move.
                let total = game.move_count();
                let mut earlier = game.clone();
                for n in (1..=total).rev() {
                    earlier.undo();
                    let partial = record
                        .replay(Rules::default(), 0.0, Some(n))
                        .expect("a prefix replays");
                    assert_eq!(
                        partial.board(),
                        earlier.board(),
                        "before move {n} of {text}"
                    );
                    assert_eq!(
                        partial.prisoners(Color::Black),
                        earlier.prisoners(Color::Black)
                    );
                    assert_eq!(
                        partial.prisoners(Color::White),
                        earlier.prisoners(Color::White)
                    );
                    let mover = game.moves().nth(n - 1).map(|(c, _)| c);
                    assert_eq!(Some(partial.to_move()), mover);
                    positions += 1;
                }
                games += 1;
            }
        }
    }
    println!("{games} games, {positions} loadsgf prefixes compared");
    assert!(games >= 50);
}
