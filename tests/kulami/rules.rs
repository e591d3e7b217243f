//! Golden tests for every Kulami rule and bonus of the rule book, the layout validation and
//! the position string.

use hamle::kulami::cell::Cell;
use hamle::kulami::layout::{DEFAULT_TEXT, Layout, LayoutError};
use hamle::kulami::position::{PositionError, Setup};
use hamle::kulami::rules::{Color, Game, IllegalMove, Position};
use hamle::kulami::score::{RowBonus, Score, Scoring, largest_area, row_points, score};
use pretty_assertions::assert_eq;

fn cell(text: &str) -> Cell {
    text.parse().expect("a cell")
}

fn bits(cells: &str) -> u128 {
    cells.split_whitespace().fold(0, |b, c| b | cell(c).bit())
}

/// Plays `moves` alternately from the start on the default layout.
fn game_after(moves: &str) -> Game {
    let mut game = Game::new(Layout::standard());
    for mv in moves.split_whitespace() {
        let color = game.to_move();
        game.play(color, cell(mv))
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    game
}

fn legal(game: &Game) -> String {
    game.legal_moves()
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_first_marble_goes_in_any_hole() {
    let game = Game::new(Layout::standard());
    assert_eq!(game.legal_moves().len(), 64);
    assert_eq!(game.to_move(), Color::Black);
}

#[test]
fn later_marbles_go_in_the_row_or_column_of_the_opponents_last_never_on_its_tile() {
    // Black d5 (tile H: c4-d6). Red: row 5 and column d, minus tile H.
    let game = game_after("d5");
    assert_eq!(legal(&game), "A5 B5 D1 D2 D3 D7 D8 E5 F5 G5 H5");
}

#[test]
fn the_movers_own_marker_tile_is_closed_too() {
    // Black d5 (H), red e5 (I), black must play in row 5 / column e, not on I nor on H.
    let game = game_after("d5 e5");
    assert_eq!(legal(&game), "A5 B5 E1 E2 E3 E6 E7 E8 H5");
    // Once black's marker leaves tile H, H opens again for black's later moves.
    let game = game_after("d5 e5 a5 a4");
    // Red's a4 (K); black's marker is a5 (E): row 4 and column a, minus K and E.
    assert_eq!(legal(&game), "A1 A2 A8 C4 D4 E4 F4 G4 H4");
}

#[test]
fn every_illegal_move_names_its_rule_and_changes_nothing() {
    let mut game = game_after("d5 e5");
    let before = game.clone();
    let cases = [
        (
            Color::Red,
            "a5",
            IllegalMove::NotYourTurn {
                to_move: Color::Black,
            },
        ),
        (Color::Black, "d5", IllegalMove::Occupied(cell("d5"))),
        (
            Color::Black,
            "a1",
            IllegalMove::OutsideLines {
                cell: cell("a1"),
                last: cell("e5"),
            },
        ),
        (
            Color::Black,
            "f5",
            IllegalMove::MarkedTile {
                cell: cell("f5"),
                tile: 'I',
                owner: Color::Red,
                marker: cell("e5"),
            },
        ),
        (
            Color::Black,
            "e4",
            IllegalMove::MarkedTile {
                cell: cell("e4"),
                tile: 'I',
                owner: Color::Red,
                marker: cell("e5"),
            },
        ),
        (
            Color::Black,
            "c5",
            IllegalMove::MarkedTile {
                cell: cell("c5"),
                tile: 'H',
                owner: Color::Black,
                marker: cell("d5"),
            },
        ),
    ];
    for (color, mv, expected) in cases {
        assert_eq!(game.play(color, cell(mv)), Err(expected), "{color} {mv}");
        assert_eq!(game, before, "{color} {mv} changed the game");
    }
    let text = IllegalMove::MarkedTile {
        cell: cell("c5"),
        tile: 'H',
        owner: Color::Black,
        marker: cell("d5"),
    };
    assert_eq!(
        text.to_string(),
        "C5 is on tile H, which holds black's marker on D5"
    );
    // A cell that is not a hole: only layouts with gaps have them.
    let mut gappy = Game::new(Layout::random(3));
    assert_eq!(
        gappy.play(Color::Black, cell("a10")),
        Err(IllegalMove::NotAHole(cell("a10")))
    );
}

#[test]
fn undo_takes_back_one_move_at_a_time() {
    let mut game = game_after("d5 e5 a5");
    assert_eq!(game.moves_played(), 3);
    assert!(game.undo());
    assert_eq!(game, game_after("d5 e5"));
    assert!(game.undo() && game.undo());
    assert!(!game.undo());
    assert_eq!(game, Game::new(Layout::standard()));
}

#[test]
fn the_game_ends_when_the_player_to_move_has_no_hole() {
    // Red's last marble h8 (tile D); black's marker h6 (tile G). Black must play in row 8 or
    // column h: g8 is on D, h7 on G, every other hole there is full.
    let setup: Setup = "xoxoxo1O/8/7X/7o/7x/7o/7x/x6o".parse().expect("syntax");
    let position = setup
        .validate(&Layout::standard())
        .expect("a legal position");
    assert_eq!(position.to_move(), Color::Black);
    assert_eq!(position.placed(), 14);
    let game = Game::from_position(Layout::standard(), position);
    assert!(game.is_over());
    assert_eq!(legal(&game), "");
    assert_eq!(
        position.check(&Layout::standard(), cell("a1")),
        Err(IllegalMove::GameOver)
    );
}

#[test]
fn the_game_ends_when_all_56_marbles_are_placed() {
    // Rows 2-8 filled like a chessboard: 28 marbles each, black to move with none left,
    // although row 1 is empty and in line with nothing that blocks it.
    let layout = Layout::standard();
    let mut marbles = [0u128; 2];
    for row in 1..8u8 {
        for col in 0..8u8 {
            marbles[usize::from((row + col) % 2 == 1)] |= Cell::new(col, row).bit();
        }
    }
    let setup = Setup {
        width: 8,
        height: 8,
        marbles,
        markers: [Some(cell("a7")), Some(cell("a8"))],
    };
    let position = setup.validate(&layout).expect("legal");
    assert_eq!(position.marbles(Color::Black).count_ones(), 28);
    assert_eq!(position.marbles(Color::Red).count_ones(), 28);
    assert!(position.is_over(&layout));
    // One marble fewer for red: red still has one to place, in column a or row 8... row 8 is
    // full, so column a minus tile A and red's own marker tile.
    let mut one_short = setup;
    one_short.marbles[1] &= !cell("c8").bit();
    let position = one_short.validate(&layout).expect("legal");
    assert_eq!(position.to_move(), Color::Red);
    let game = Game::from_position(layout, position);
    assert_eq!(legal(&game), "A1");
}

#[test]
fn row_bonus_counts_every_maximal_line_of_five_or_more_in_four_directions() {
    let bonus = RowBonus::Length;
    assert_eq!(row_points(bits("a1 b1 c1 d1"), bonus), 0);
    assert_eq!(row_points(bits("a1 b1 c1 d1 e1"), bonus), 5);
    assert_eq!(
        row_points(bits("a1 b1 c1 d1 e1 f1"), bonus),
        6,
        "a line of 6 scores 6, not two fives"
    );
    assert_eq!(
        row_points(bits("a1 b1 c1 d1 e1 g1 h1"), bonus),
        5,
        "a gap ends a line"
    );
    assert_eq!(row_points(bits("c1 c2 c3 c4 c5"), bonus), 5, "vertical");
    assert_eq!(row_points(bits("a1 b2 c3 d4 e5"), bonus), 5, "diagonal");
    assert_eq!(
        row_points(bits("h1 g2 f3 e4 d5 c6"), bonus),
        6,
        "anti-diagonal"
    );
    // A marble may belong to several rows: c3 is in a row and a column of five.
    assert_eq!(row_points(bits("a3 b3 c3 d3 e3 c1 c2 c4 c5"), bonus), 10);
    // Lines never wrap from the right edge of a 10-wide field into the next row.
    assert_eq!(row_points(bits("h1 j1 k1 a2 b2"), bonus), 0);
    assert_eq!(
        row_points(
            bits("a1 b1 c1 d1 e1 a3 b3 c3 d3 e3 f3"),
            RowBonus::PerRow(3)
        ),
        6
    );
}

#[test]
fn largest_area_joins_horizontally_and_vertically_only() {
    assert_eq!(largest_area(0), 0);
    assert_eq!(
        largest_area(bits("a1 b2 c3 d4")),
        1,
        "diagonals do not connect"
    );
    assert_eq!(largest_area(bits("a1 a2 b2 b3 h8 h7")), 4);
    // Not joined across the right edge of the field into the next row.
    assert_eq!(largest_area(bits("k1 a2")), 1);
}

#[test]
fn tiles_go_to_the_majority_for_their_holes_and_ties_to_nobody() {
    // Tile E (a5-b7, 6 holes): black a7 a6, red a5 -> black 6. Tile B (c7-d8): black c7,
    // red d8 -> a tie, nobody. Tile A (a8-b8): red a8 -> red 2. Empty tiles: nobody.
    let layout = Layout::standard();
    let setup: Setup = "O2o4/X1x5/x7/o7/8/8/8/8".parse().expect("syntax");
    let position = setup.validate(&layout).expect("legal");
    let tournament = score(&layout, &position, Scoring::default());
    assert_eq!(
        tournament.to_string(),
        "B+5 (black 8: rows 0, area 2, tiles 6; red 3: rows 0, area 1, tiles 2)"
    );
    let standard = Scoring {
        tiles_only: true,
        ..Scoring::default()
    };
    assert_eq!(
        score(&layout, &position, standard).to_string(),
        "B+4 (black 6: rows 0, area 0, tiles 6; red 2: rows 0, area 0, tiles 2)"
    );
}

#[test]
fn results_read_b_r_or_zero() {
    let mut s = Score::default();
    assert_eq!(s.result(), "0");
    s.red.tiles = 3;
    assert_eq!(s.result(), "R+3");
    s.black.rows = 5;
    assert_eq!(s.result(), "B+2");
}

#[test]
fn a_full_board_scores_all_three_bonuses() {
    // Columns a-e black, f-h red, on every row: black has rows of 5 across each of 8 rows,
    // red none across; columns of 8 for both.
    let layout = Layout::standard();
    let mut marbles = [0u128; 2];
    for row in 0..8u8 {
        for col in 0..8u8 {
            marbles[usize::from(col >= 5)] |= Cell::new(col, row).bit();
        }
    }
    let setup = Setup {
        width: 8,
        height: 8,
        marbles,
        markers: [None, None],
    };
    // Not a reachable position (40 against 24), so score the bitboards directly.
    let black = setup.marbles[0];
    let red = setup.marbles[1];
    // Rows: 8 horizontal lines of 5, 5 columns of 8, and the diagonals of 5 or more inside
    // the 5x8 block: 4 diagonals each way (lengths 5, 5, 5, 5).
    assert_eq!(
        row_points(black, RowBonus::Length),
        8 * 5 + 5 * 8 + 2 * 4 * 5
    );
    assert_eq!(row_points(red, RowBonus::Length), 3 * 8);
    assert_eq!(largest_area(black), 40);
    assert_eq!(largest_area(red), 24);
    let (b, r) = hamle::kulami::score::tile_points(&layout, black, red);
    // Black: A B E H K L M O. Red: D G J Q, and the majorities of F, I, N (columns e-g).
    // C (e8 f8) and P (e1-f2) are split evenly: nobody's.
    assert_eq!(
        (b, r),
        (2 + 4 + 6 + 6 + 4 + 3 + 3 + 4, 2 + 2 + 3 + 4 + 6 + 6 + 3)
    );
}

#[test]
fn layouts_are_validated_and_each_error_names_the_rule() {
    let rows: Vec<&str> = DEFAULT_TEXT.split('/').collect();
    let with = |r: usize, row: &str| {
        let mut rows = rows.clone();
        rows[r] = row;
        rows.join("/")
    };
    let cases: Vec<(String, LayoutError)> = vec![
        ("".into(), LayoutError::Empty),
        ("......../........".into(), LayoutError::Empty),
        (with(0, "AABBCC#D"), LayoutError::BadCharacter('#')),
        (
            with(1, "EEBBFFF"),
            LayoutError::RaggedRows {
                row: 2,
                cells: 7,
                expected: 8,
            },
        ),
        // F and G redrawn as two L shapes.
        (with(1, "EEBBFFGG"), LayoutError::NotRectangle('F')),
        (
            with(0, "AABBCCCC"),
            LayoutError::BadShape {
                letter: 'C',
                width: 4,
                height: 1,
            },
        ),
        // Tile A split into two 1x1 letters R and S: two tiles of 1 hole are not Kulami tiles.
        (
            with(0, "RSBBCCDD"),
            LayoutError::BadShape {
                letter: 'R',
                width: 1,
                height: 1,
            },
        ),
        // C and D renamed to the same letter as A...: A becomes two pieces.
        (with(0, "AABBAADD"), LayoutError::NotRectangle('A')),
        // One tile of 2 missing: 3 instead of 4.
        (
            with(0, "..BBCCDD"),
            LayoutError::WrongCount {
                holes: 2,
                found: 3,
                expected: 4,
            },
        ),
        (
            format!("{DEFAULT_TEXT}/...RR...").replace("AABBCCDD", "ZZBBCCDD"),
            LayoutError::WrongCount {
                holes: 2,
                found: 5,
                expected: 4,
            },
        ),
        (
            rows.iter()
                .map(|r| format!("{r}..."))
                .collect::<Vec<_>>()
                .join("/")
                .replace("AABBCCDD...", "AABBCC...DD"),
            LayoutError::TooLarge {
                width: 11,
                height: 8,
            },
        ),
        (
            DEFAULT_TEXT.replace("AABBCCDD", "AABBCC..") + "/......../DD......",
            LayoutError::Disconnected,
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(text.parse::<Layout>(), Err(expected.clone()), "{text}");
    }
    assert_eq!(
        LayoutError::WrongCount {
            holes: 2,
            found: 3,
            expected: 4
        }
        .to_string(),
        "3 tiles of 2 holes: a Kulami board has 4 (4 of 6, 5 of 4, 4 of 3, 4 of 2)"
    );
    // The text form is forgiving about spaces, newlines, case and empty borders.
    let spaced = ".........\n. a a b b c c d d\n. E E B B F F F G\n. EEHHFFFG\n.EEHHIIIJ\n.KKHHIIIJ\n.KKLMNNNJ\n.OOLMPPQQ\n.OOLMPPQQ\n";
    assert_eq!(spaced.parse::<Layout>(), Ok(Layout::standard()));
}

#[test]
fn position_strings_round_trip_and_bad_ones_name_the_rule() {
    let layout = Layout::standard();
    let game = game_after("d5 e5 h5 c5");
    let text = Setup::of(&layout, game.position()).to_string();
    assert_eq!(text, "8/8/8/2Oxo2X/8/8/8/8");
    let setup: Setup = text.parse().expect("syntax");
    assert_eq!(setup.validate(&layout), Ok(*game.position()));
    assert_eq!(
        Setup::of(&layout, &Position::new()).to_string(),
        "8/8/8/8/8/8/8/8"
    );

    let bad = |text: &str| text.parse::<Setup>().and_then(|s| s.validate(&layout));
    assert_eq!(
        bad("8/8/8/3q4/8/8/8/8"),
        Err(PositionError::BadCharacter('q'))
    );
    assert_eq!(
        bad("8/8/8/9/8/8/8/8"),
        Err(PositionError::RaggedRows {
            row: 4,
            cells: 9,
            expected: 8
        })
    );
    assert_eq!(bad("8/8/8/8/8/8/8/8/8/8/8"), Err(PositionError::TooLarge));
    assert_eq!(
        bad("8/8/8/XX6/8/8/8/8"),
        Err(PositionError::TwoMarkers(Color::Black))
    );
    assert_eq!(
        bad("8/8/8/8/8/8/8"),
        Err(PositionError::WrongSize {
            width: 8,
            height: 7,
            layout_width: 8,
            layout_height: 8
        })
    );
    assert_eq!(
        bad("8/8/8/3XO3/8/8/8/8"),
        Ok(game_after("d5 e5").position().to_owned())
    );
    assert_eq!(
        bad("8/8/8/3XOo2/8/8/8/8"),
        Err(PositionError::Counts { black: 1, red: 2 })
    );
    assert_eq!(
        bad("8/8/8/3xO3/8/8/8/8"),
        Err(PositionError::MissingMarker(Color::Black))
    );
    assert_eq!(
        bad("8/8/8/2XO4/8/8/8/8"),
        Err(PositionError::MarkersShareTile('H'))
    );
    assert_eq!(
        bad("8/8/8/3X4/8/8/8/O7"),
        Err(PositionError::MarkerOutOfLine {
            mover: Color::Red,
            marker: cell("a1"),
            other: cell("d5")
        })
    );
    let gappy = Layout::random(3);
    let setup = Setup {
        width: gappy.width(),
        height: gappy.height(),
        marbles: [cell("a10").bit(), 0],
        markers: [Some(cell("a10")), None],
    };
    assert_eq!(
        setup.validate(&gappy),
        Err(PositionError::NotAHole(cell("a10")))
    );
}
