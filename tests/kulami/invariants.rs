//! OpenSpiel-style invariants over seeded random games on random layouts: the bitboard
//! rules and scoring agree with a naive cell-by-cell reading of the rule book; play/undo,
//! refused moves, the position string and the game's end behave in every reachable state.

use hamle::kulami::cell::Cell;
use hamle::kulami::layout::Layout;
use hamle::kulami::position::Setup;
use hamle::kulami::rules::{Color, Game, Position};
use hamle::kulami::score::{RowBonus, Scoring, score};
use pretty_assertions::assert_eq;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn all_cells() -> impl Iterator<Item = Cell> {
    (0..10u8).flat_map(|row| (0..10u8).map(move |col| Cell::new(col, row)))
}

fn color_at(position: &Position, cell: Cell) -> Option<Color> {
    Color::BOTH
        .into_iter()
        .find(|&c| position.marbles(c) & cell.bit() != 0)
}

/// The rule book read literally, one cell at a time.
fn naive_legal(layout: &Layout, position: &Position) -> Vec<Cell> {
    let me = position.to_move();
    if position.marbles(me).count_ones() >= 28 {
        return Vec::new();
    }
    let tile = |c: Cell| layout.tile_index(c);
    let mut legal: Vec<Cell> = all_cells()
        .filter(|&c| layout.is_hole(c) && color_at(position, c).is_none())
        .filter(|&c| match position.last(me.opponent()) {
            Some(last) => (last.row == c.row || last.col == c.col) && tile(last) != tile(c),
            None => true,
        })
        .filter(|&c| position.last(me).is_none_or(|own| tile(own) != tile(c)))
        .collect();
    legal.sort_unstable();
    legal
}

/// The sheet's three bonuses counted by walking the board.
fn naive_score(
    layout: &Layout,
    position: &Position,
    color: Color,
    bonus: RowBonus,
) -> (u32, u32, u32) {
    let mine = |col: i32, row: i32| {
        (0..10).contains(&col)
            && (0..10).contains(&row)
            && color_at(position, Cell::new(col as u8, row as u8)) == Some(color)
    };
    let mut rows = 0;
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
        for cell in all_cells() {
            let (c, r) = (i32::from(cell.col), i32::from(cell.row));
            // Start of a maximal line: mine here, not mine behind.
            if !mine(c, r) || mine(c - dc, r - dr) {
                continue;
            }
            let mut length = 0;
            while mine(c + length * dc, r + length * dr) {
                length += 1;
            }
            if length >= 5 {
                rows += match bonus {
                    RowBonus::Length => length as u32,
                    RowBonus::PerRow(each) => each,
                };
            }
        }
    }
    let mut seen = [[false; 10]; 10];
    let mut area = 0;
    for cell in all_cells() {
        let (c, r) = (i32::from(cell.col), i32::from(cell.row));
        if !mine(c, r) || seen[c as usize][r as usize] {
            continue;
        }
        let mut stack = vec![(c, r)];
        seen[c as usize][r as usize] = true;
        let mut size = 0;
        while let Some((c, r)) = stack.pop() {
            size += 1;
            for (nc, nr) in [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)] {
                if mine(nc, nr) && !seen[nc as usize][nr as usize] {
                    seen[nc as usize][nr as usize] = true;
                    stack.push((nc, nr));
                }
            }
        }
        area = area.max(size);
    }
    let mut tiles = 0;
    for &tile in layout.tiles() {
        let count = |c: Color| (position.marbles(c) & tile).count_ones();
        if count(color) > count(color.opponent()) {
            tiles += tile.count_ones();
        }
    }
    (rows, area, tiles)
}

fn check_state(game: &Game, ctx: &str) {
    let layout = game.layout();
    let position = game.position();
    assert_eq!(
        game.legal_moves(),
        naive_legal(layout, position),
        "{ctx}: legal moves"
    );
    assert_eq!(game.is_over(), game.legal_moves().is_empty(), "{ctx}: over");
    for bonus in [RowBonus::Length, RowBonus::PerRow(2)] {
        let s = score(
            layout,
            position,
            Scoring {
                tiles_only: false,
                row_bonus: bonus,
            },
        );
        for color in Color::BOTH {
            let b = s.of(color);
            assert_eq!(
                (b.rows, b.area, b.tiles),
                naive_score(layout, position, color, bonus),
                "{ctx}: {color} score"
            );
        }
    }
    let text = Setup::of(layout, position).to_string();
    let back = text.parse::<Setup>().and_then(|s| s.validate(layout));
    assert_eq!(back, Ok(*position), "{ctx}: position string {text}");
    assert_eq!(Setup::of(layout, position).to_string(), text);
}

fn run_game(layout: Layout, seed: u64) -> usize {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(layout);
    let start = game.clone();
    let mut plies = 0;
    loop {
        let ctx = format!("seed {seed} ply {plies} layout {}", game.layout());
        check_state(&game, &ctx);
        // An arbitrary attempt, often illegal: it plays cleanly or changes nothing.
        let attempt = Cell::new(rng.random_range(0..10), rng.random_range(0..10));
        let color = if rng.random_bool(0.5) {
            Color::Black
        } else {
            Color::Red
        };
        let before = game.clone();
        match game.play(color, attempt) {
            Ok(()) => {
                assert!(game.undo());
                assert_eq!(game, before, "{ctx}: undo of {color} {attempt}");
            }
            Err(_) => assert_eq!(
                game, before,
                "{ctx}: refused {color} {attempt} changed the game"
            ),
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.random_range(0..moves.len())];
        let mover = game.to_move();
        game.play(mover, mv).expect("a listed move is legal");
        assert_eq!(game.to_move(), mover.opponent(), "{ctx}: turn passes");
        assert_eq!(
            game.position().last(mover),
            Some(mv),
            "{ctx}: marker follows the marble"
        );
        plies += 1;
        assert!(plies <= 56, "{ctx}: more than 56 marbles");
    }
    let total = game.moves_played();
    while game.undo() {}
    assert_eq!(game, start, "seed {seed}: undo all");
    total
}

#[test]
fn random_games_on_random_layouts_keep_invariants() {
    let mut plies = 0;
    let mut lengths = Vec::new();
    for seed in 0..300u64 {
        let layout = if seed.is_multiple_of(5) {
            Layout::standard()
        } else {
            Layout::random(seed)
        };
        let n = run_game(layout, seed);
        plies += n;
        lengths.push(n);
    }
    // Random games stop well before the end often, but some must run long.
    assert!(lengths.iter().any(|&n| n >= 40), "no long game in 300");
    println!("300 games, {plies} plies checked");
}
