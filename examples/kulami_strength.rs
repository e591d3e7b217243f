//! Strength figures for the Kulami player (issue 7).
//!
//! `cargo run --release --example kulami_strength -- match <games> <nodes>`: the searching
//! player at `nodes` per move against the random and the greedy reference players, and
//! against itself at a tenth of the budget; colours alternate, each pair of games shares a
//! layout drawn by seed (random layouts, the default one for every fifth pair).
//!
//! `cargo run --release --example kulami_strength -- solver [positions]`: how many plies
//! from the end the exact solver finishes within 1 s, on positions of greedy-vs-greedy games.

use std::time::Instant;

use hamle::kulami::layout::Layout;
use hamle::kulami::player::{SearchLimits, greedy_move, plies_left, random_move, search, solve};
use hamle::kulami::rules::{Color, Position};
use hamle::kulami::score::{Scoring, score};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[derive(Copy, Clone)]
enum Player {
    Search(u64),
    Greedy,
    Random,
}

impl Player {
    fn name(self) -> String {
        match self {
            Player::Search(nodes) => format!("search {nodes} nodes"),
            Player::Greedy => "greedy".into(),
            Player::Random => "random".into(),
        }
    }

    fn choose(
        self,
        layout: &Layout,
        position: &Position,
        rng: &mut ChaCha8Rng,
    ) -> Option<hamle::kulami::Cell> {
        let scoring = Scoring::default();
        match self {
            Player::Search(nodes) => {
                search(
                    layout,
                    position,
                    scoring,
                    SearchLimits::nodes(nodes),
                    &|| false,
                )
                .best
            }
            Player::Greedy => greedy_move(layout, position, scoring, rng),
            Player::Random => random_move(layout, position, rng),
        }
    }
}

/// Plays one game; returns black's final margin.
fn play(layout: &Layout, black: Player, red: Player, seed: u64) -> i32 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position = Position::new();
    loop {
        let player = if position.to_move() == Color::Black {
            black
        } else {
            red
        };
        let Some(cell) = player.choose(layout, &position, &mut rng) else {
            break;
        };
        position
            .play(layout, cell)
            .expect("players choose legal moves");
    }
    score(layout, &position, Scoring::default()).margin()
}

fn layout_for(pair: u64) -> Layout {
    if pair.is_multiple_of(5) {
        Layout::standard()
    } else {
        Layout::random(1000 + pair)
    }
}

fn run_match(games: u64, nodes: u64) {
    for opponent in [Player::Random, Player::Greedy, Player::Search(nodes / 10)] {
        let started = Instant::now();
        let (mut wins, mut draws, mut losses, mut margin_sum) = (0, 0, 0, 0i64);
        for game in 0..games {
            let layout = layout_for(game / 2);
            let hamle_black = game.is_multiple_of(2);
            let (black, red) = if hamle_black {
                (Player::Search(nodes), opponent)
            } else {
                (opponent, Player::Search(nodes))
            };
            let margin = play(&layout, black, red, game);
            let mine = if hamle_black { margin } else { -margin };
            margin_sum += i64::from(mine);
            match mine.signum() {
                1 => wins += 1,
                0 => draws += 1,
                _ => losses += 1,
            }
        }
        println!(
            "search {nodes} nodes vs {}: {games} games, +{wins} ={draws} -{losses}, mean margin {:+.1}, {:.0}s",
            opponent.name(),
            margin_sum as f64 / games as f64,
            started.elapsed().as_secs_f64()
        );
    }
}

fn run_solver(positions: u64) {
    for left in (8..=30).step_by(2) {
        let mut times = Vec::new();
        let mut seed = 0;
        while (times.len() as u64) < positions && seed < positions * 20 {
            seed += 1;
            let layout = layout_for(seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut position = Position::new();
            let mut alive = true;
            while plies_left(&position) > left {
                match greedy_move(&layout, &position, Scoring::default(), &mut rng) {
                    Some(cell) => position.play_unchecked(cell),
                    None => {
                        alive = false;
                        break;
                    }
                }
            }
            if !alive || position.is_over(&layout) {
                continue;
            }
            let started = Instant::now();
            let deadline = started + std::time::Duration::from_secs(20);
            let result = solve(&layout, &position, Scoring::default(), &|| {
                Instant::now() > deadline
            });
            let seconds = if result.exact {
                started.elapsed().as_secs_f64()
            } else {
                f64::INFINITY
            };
            times.push(seconds);
        }
        times.sort_by(f64::total_cmp);
        let within = times.iter().filter(|&&t| t <= 1.0).count();
        let median = times.get(times.len() / 2).copied().unwrap_or(f64::NAN);
        let max = times.last().copied().unwrap_or(f64::NAN);
        println!(
            "{left} plies from the end: {} positions, {within} solved within 1 s, median {median:.3}s, max {max:.3}s",
            times.len()
        );
        if within * 2 < times.len() {
            break;
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    match args.first().map(String::as_str) {
        Some("match") => run_match(number(1, 200), number(2, 20_000)),
        Some("solver") => run_solver(number(1, 10)),
        _ => eprintln!("usage: kulami_strength match [games] [nodes] | solver [positions]"),
    }
}
