//! Rule fixtures for Go: captures, suicide, ko and superko, tiny and huge boards,
//! handicap placement and scoring, each checked against the rule book
//! (`../shared/RULES.md`) and the named rule sets.

use hamle::go::board::Board;
use hamle::go::game::{Game, HandicapError, IllegalMove, SetupError, fixed_handicap_vertices};
use hamle::go::rules::{KoRule, RuleSet, Rules, Scoring};
use hamle::go::score::FinalScore;
use hamle::go::{Color, MoveVertex, Vertex};
use pretty_assertions::assert_eq;

fn v(s: &str) -> Vertex {
    s.parse().expect("test vertex")
}

fn at(s: &str) -> MoveVertex {
    MoveVertex::Play(v(s))
}

/// The stones of a diagram (rows from the top, `X` black, `O` white, `.` empty) and its
/// size; the counting tests set their positions from it too.
pub(crate) fn stones_of(diagram: &str) -> (usize, Vec<(Color, Vertex)>) {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| {
            l.chars()
                .filter(|c| !c.is_whitespace())
                .collect::<Vec<char>>()
        })
        .filter(|r| !r.is_empty())
        .collect();
    let size = rows.len();
    let mut stones = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), size, "diagram must be square");
        for (col, &c) in row.iter().enumerate() {
            let vertex = Vertex::new(col as u8, (size - 1 - i) as u8);
            match c {
                'X' => stones.push((Color::Black, vertex)),
                'O' => stones.push((Color::White, vertex)),
                '.' => {}
                other => panic!("bad diagram character {other:?}"),
            }
        }
    }
    (size, stones)
}

/// A game set up from a diagram: rows from the top, `X` black, `O` white, `.` empty.
fn position(rules: RuleSet, diagram: &str) -> Game {
    let (size, stones) = stones_of(diagram);
    let mut game = Game::new(size, rules.rules()).expect("diagram size");
    game.setup_stones(&stones).expect("diagram position");
    game
}

/// Plays a list like `"B C3 W pass B D4"`, every move required to be legal.
fn play_all(game: &mut Game, moves: &str) {
    let words: Vec<&str> = moves.split_whitespace().collect();
    for pair in words.chunks(2) {
        let color: Color = pair[0].parse().expect("colour");
        let mv = MoveVertex::parse_on(pair[1], game.size()).expect("move");
        if let Err(e) = game.play(color, mv) {
            panic!("{color} {mv} illegal ({e}) in\n{}", game.board());
        }
    }
}

fn stone(game: &Game, s: &str) -> Option<Color> {
    game.board().stone_at(v(s))
}

// ---------------------------------------------------------------- captures

#[test]
fn single_stone_capture_in_the_middle() {
    let mut game = position(
        RuleSet::Japanese,
        "
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .",
    );
    let board = game.board();
    assert!(board.in_atari(board.point(v("C3"))));
    play_all(&mut game, "B C2");
    assert_eq!(stone(&game, "C3"), None);
    assert_eq!(game.prisoners(Color::Black), 1);
    assert_eq!(game.prisoners(Color::White), 0);
    let board = game.board();
    assert_eq!(board.chain_liberties(board.point(v("C2"))), 4);
}

#[test]
fn one_move_captures_two_chains() {
    let mut game = position(
        RuleSet::Chinese,
        "
        . . . . .
        . X . X .
        X O . O X
        . X . X .
        . . . . .",
    );
    play_all(&mut game, "B C3");
    assert_eq!(stone(&game, "B3"), None);
    assert_eq!(stone(&game, "D3"), None);
    assert_eq!(game.prisoners(Color::Black), 2);
    let board = game.board();
    assert_eq!(board.chain_liberties(board.point(v("C3"))), 4);
}

#[test]
fn chain_captured_on_the_edge() {
    let mut game = position(
        RuleSet::Japanese,
        "
        . . . . .
        . . . . .
        . . . . .
        . X X X .
        X O O O .",
    );
    play_all(&mut game, "B E1");
    for s in ["B1", "C1", "D1"] {
        assert_eq!(stone(&game, s), None, "{s}");
    }
    assert_eq!(game.prisoners(Color::Black), 3);
}

#[test]
fn capture_takes_precedence_over_suicide() {
    for rules in RuleSet::ALL {
        let mut game = position(
            rules,
            "
            . . . .
            . . . .
            O X . .
            . O X .",
        );
        // Black A1: no liberty of its own, but it takes B1's last liberty first.
        assert_eq!(game.legality(Color::Black, at("A1")), Ok(()), "{rules}");
        play_all(&mut game, "B A1");
        assert_eq!(stone(&game, "B1"), None, "{rules}");
        assert_eq!(stone(&game, "A1"), Some(Color::Black), "{rules}");
        assert_eq!(game.prisoners(Color::Black), 1, "{rules}");
    }
}

#[test]
fn corner_capture() {
    let mut game = Game::new(9, RuleSet::Japanese.rules()).expect("9x9");
    play_all(&mut game, "W A1 B B1");
    let board = game.board();
    assert!(board.in_atari(board.point(v("A1"))));
    play_all(&mut game, "B A2");
    assert_eq!(stone(&game, "A1"), None);
    assert_eq!(game.prisoners(Color::Black), 1);
}

// ---------------------------------------------------------------- suicide

/// Black B1 would leave A1–B1 without liberties and capture nothing.
const MULTI_STONE_SUICIDE: &str = "
    . . . .
    . . . .
    O O . .
    X . O .";

#[test]
fn multi_stone_suicide_by_rule_set() {
    for rules in RuleSet::ALL {
        let mut game = position(rules, MULTI_STONE_SUICIDE);
        let allowed = matches!(rules, RuleSet::TrompTaylor | RuleSet::NewZealand);
        assert_eq!(rules.rules().suicide_allowed, allowed);
        if !allowed {
            assert_eq!(
                game.legality(Color::Black, at("B1")),
                Err(IllegalMove::Suicide)
            );
            let before = game.clone();
            assert_eq!(game.play(Color::Black, at("B1")), Err(IllegalMove::Suicide));
            assert_eq!(game, before, "an illegal move changes nothing");
            continue;
        }
        play_all(&mut game, "B B1");
        assert_eq!(stone(&game, "A1"), None, "{rules}: own chain removed");
        assert_eq!(stone(&game, "B1"), None, "{rules}");
        assert_eq!(
            game.prisoners(Color::White),
            2,
            "{rules}: suicided stones are prisoners"
        );
        assert_eq!(game.to_move(), Color::White);
        assert!(game.undo());
        assert_eq!(stone(&game, "A1"), Some(Color::Black));
        assert_eq!(game.prisoners(Color::White), 0);
    }
}

#[test]
fn single_stone_suicide_is_illegal_everywhere() {
    for rules in RuleSet::ALL {
        let game = position(
            rules,
            "
            . . .
            O . .
            . O .",
        );
        assert_eq!(
            game.legality(Color::Black, at("A1")),
            Err(IllegalMove::Suicide),
            "{rules}"
        );
        assert!(!game.legal_moves(Color::Black).contains(&at("A1")));
        assert!(
            game.is_legal(Color::White, at("A1")),
            "{rules}: own eye fill"
        );
    }
}

// ---------------------------------------------------------------- ko

/// Black C3 takes B3; White retaking at B3 at once would repeat the position.
const KO: &str = "
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . .";

#[test]
fn simple_ko_take_retake_and_threat() {
    for rules in RuleSet::ALL {
        let mut game = position(rules, KO);
        play_all(&mut game, "B C3");
        assert_eq!(stone(&game, "B3"), None);
        assert_eq!(game.ko(), Some((Color::White, v("B3"))));
        assert_eq!(
            game.legality(Color::White, at("B3")),
            Err(IllegalMove::Ko),
            "{rules}: immediate retake"
        );
        assert!(!game.legal_moves(Color::White).contains(&at("B3")));
        // Black may fill the ko itself.
        assert!(game.is_legal(Color::Black, at("B3")));
        // A ko threat and its answer lift the ban.
        play_all(&mut game, "W E1 B E2");
        assert_eq!(game.ko(), None);
        play_all(&mut game, "W B3");
        assert_eq!(stone(&game, "C3"), None, "{rules}: retake captures");
        assert_eq!(game.ko(), Some((Color::Black, v("C3"))));
    }
}

#[test]
fn a_pass_lifts_the_ko_ban_under_simple_ko() {
    let mut game = position(RuleSet::Japanese, KO);
    play_all(&mut game, "B C3 W pass B pass");
    assert!(game.is_legal(Color::White, at("B3")));
}

#[test]
fn capturing_two_stones_is_not_a_ko() {
    let mut game = position(
        RuleSet::Japanese,
        "
        . . . . .
        . X O . .
        X O . O .
        X O . O .
        . X O . .",
    );
    play_all(&mut game, "B C3");
    assert_eq!(game.ko(), None, "C3 captures nothing yet");
    play_all(&mut game, "W pass B C2");
    assert_eq!(game.prisoners(Color::Black), 2);
    assert_eq!(game.ko(), None);
}

/// Two independent kos: Black can take the left one at C3, White the right one at H3.
const DOUBLE_KO: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . O X .
    X O . O . O X . X
    . X O . . . O X .
    . . . . . . . . .";

/// Black takes ko 1, White ko 2, Black passes, White retakes ko 1: Black retaking ko 2
/// would bring back the starting position, which had Black to move; now White would be
/// to move.
const DOUBLE_KO_CYCLE: &str = "B C3 W H3 B pass W B3";

#[test]
fn positional_and_situational_superko_differ() {
    for rules in RuleSet::ALL {
        let mut game = position(rules, DOUBLE_KO);
        let start = game.board().clone();
        play_all(&mut game, DOUBLE_KO_CYCLE);
        let expected = match rules.rules().ko {
            KoRule::PositionalSuperko => Err(IllegalMove::Superko),
            KoRule::SituationalSuperko | KoRule::Simple => Ok(()),
        };
        assert_eq!(game.legality(Color::Black, at("G3")), expected, "{rules}");
        if expected.is_ok() {
            play_all(&mut game, "B G3");
            // Same stones (the boards differ in the ko ban the last capture left).
            assert_eq!(
                game.board().hash(),
                start.hash(),
                "{rules}: the cycle is closed"
            );
        }
    }
}

#[test]
fn situational_superko_forbids_the_same_situation() {
    // After the cycle closes and White passes, Black taking ko 1 again would bring back
    // the position after Black's first move, with White to move as it was then.
    for rules in [RuleSet::Aga, RuleSet::NewZealand] {
        let mut game = position(rules, DOUBLE_KO);
        play_all(&mut game, DOUBLE_KO_CYCLE);
        play_all(&mut game, "B G3 W pass");
        assert_eq!(
            game.legality(Color::Black, at("C3")),
            Err(IllegalMove::Superko),
            "{rules}"
        );
    }
    // Under simple ko the same cycle goes on for ever.
    let mut game = position(RuleSet::Japanese, DOUBLE_KO);
    for _ in 0..3 {
        play_all(&mut game, DOUBLE_KO_CYCLE);
        play_all(&mut game, "B G3 W pass");
    }
    assert_eq!(
        game.board().hash(),
        position(RuleSet::Japanese, DOUBLE_KO).board().hash()
    );
}

#[test]
fn superko_reports_plain_ko_as_ko() {
    for rules in [RuleSet::Chinese, RuleSet::Aga, RuleSet::TrompTaylor] {
        let mut game = position(rules, KO);
        play_all(&mut game, "B C3");
        assert_eq!(game.legality(Color::White, at("B3")), Err(IllegalMove::Ko));
    }
}

// ---------------------------------------------------------------- tiny and huge boards

#[test]
fn two_by_two_capture() {
    let mut game = Game::new(2, RuleSet::Japanese.rules()).expect("2x2");
    play_all(&mut game, "B A1 W B2 B B1");
    let board = game.board();
    assert_eq!(board.chain_liberties(board.point(v("A1"))), 1);
    play_all(&mut game, "W A2");
    assert_eq!(stone(&game, "A1"), None);
    assert_eq!(stone(&game, "B1"), None);
    assert_eq!(game.prisoners(Color::White), 2);
    // Both empty points are now suicide for Black? A1 touches B1 (empty): legal.
    assert!(game.is_legal(Color::Black, at("A1")));
}

#[test]
fn two_by_two_whole_board_suicide() {
    // Black fills the board: its chain dies. Tromp-Taylor: the empty board again
    // (positional repeat). New Zealand: the empty board with White to move is new.
    let expect = |rules: RuleSet| match rules {
        RuleSet::TrompTaylor => Err(IllegalMove::Superko),
        RuleSet::NewZealand => Ok(()),
        _ => Err(IllegalMove::Suicide),
    };
    for rules in RuleSet::ALL {
        let mut game = Game::new(2, rules.rules()).expect("2x2");
        play_all(&mut game, "B A1 W pass B B1 W pass B A2 W pass");
        assert_eq!(
            game.legality(Color::Black, at("B2")),
            expect(rules),
            "{rules}"
        );
        if expect(rules).is_ok() {
            play_all(&mut game, "B B2");
            assert_eq!(game.board().empty_points().len(), 4);
            assert_eq!(game.prisoners(Color::White), 4);
        }
    }
}

#[test]
fn twenty_five_corners() {
    let mut game = Game::new(25, RuleSet::Chinese.rules()).expect("25x25");
    for corner in ["A1", "A25", "Z1", "Z25"] {
        assert!(game.is_legal(Color::White, at(corner)), "{corner}");
    }
    play_all(
        &mut game,
        "W A1 W A25 W Z1 W Z25 W M13 B B1 B A2 B Y25 B Z24 B Z2 B Y1 B A24 B B25",
    );
    for corner in ["A1", "A25", "Z1", "Z25"] {
        assert_eq!(stone(&game, corner), None, "{corner} captured");
    }
    assert_eq!(game.prisoners(Color::Black), 4);
    let board = game.board();
    assert_eq!(board.chain_liberties(board.point(v("M13"))), 4);
    assert_eq!(board.chain_liberties(board.point(v("B1"))), 3);
    assert_eq!(board.vertex(board.point(v("Z25"))), v("Z25"));
    assert_eq!(
        game.legality(Color::Black, MoveVertex::Play(Vertex::new(25, 0))),
        Err(IllegalMove::OffBoard)
    );
}

#[test]
fn board_sizes() {
    assert!(Game::new(0, Rules::default()).is_err());
    assert!(Game::new(26, Rules::default()).is_err());
    assert!(Board::new(1).is_ok());
    assert!(Board::new(25).is_ok());
}

// ---------------------------------------------------------------- GTP behaviour

#[test]
fn any_colour_may_move_and_the_turn_follows() {
    let mut game = Game::new(9, RuleSet::Japanese.rules()).expect("9x9");
    assert_eq!(game.to_move(), Color::Black);
    play_all(&mut game, "W E5");
    assert_eq!(game.to_move(), Color::Black);
    play_all(&mut game, "B E4 B D4");
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(
        game.legality(Color::White, at("E5")),
        Err(IllegalMove::Occupied)
    );
}

#[test]
fn two_passes_end_the_game() {
    let mut game = Game::new(9, RuleSet::Japanese.rules()).expect("9x9");
    play_all(&mut game, "B pass W E5 B pass");
    assert!(!game.is_over());
    play_all(&mut game, "W pass");
    assert!(game.is_over());
    assert!(game.undo());
    assert!(!game.is_over());
}

#[test]
fn undo_back_to_the_setup_position_only() {
    let mut game = position(RuleSet::Chinese, KO);
    let setup = game.clone();
    assert!(!game.undo(), "setup stones are not undoable");
    play_all(&mut game, "B C3 W E1 B E2 W B3 B pass W D1");
    assert_eq!(game.move_count(), 6);
    while game.undo() {}
    assert_eq!(game, setup);
}

#[test]
fn setup_rejects_chains_without_liberties() {
    let mut game = Game::new(3, RuleSet::Japanese.rules()).expect("3x3");
    let before = game.clone();
    let result = game.setup_stones(&[
        (Color::Black, v("A1")),
        (Color::White, v("A2")),
        (Color::White, v("B1")),
    ]);
    assert_eq!(result, Err(SetupError::NoLiberties(v("A1"))));
    assert_eq!(game, before);
    assert_eq!(
        game.setup_stones(&[(Color::Black, v("D4"))]),
        Err(SetupError::OffBoard(v("D4")))
    );
    // Clearing a point (SGF AE).
    game.setup(&[(v("B2"), Some(Color::Black))]).expect("setup");
    game.setup(&[(v("B2"), None)]).expect("clear");
    assert_eq!(stone(&game, "B2"), None);
}

// ---------------------------------------------------------------- handicap

fn names(size: usize, n: usize) -> Vec<String> {
    fixed_handicap_vertices(size, n)
        .expect("valid handicap")
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn fixed_handicap_placements() {
    let table: [(usize, [&str; 9]); 3] = [
        (9, ["C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7", "E5"]),
        (
            13,
            ["D4", "K10", "D10", "K4", "D7", "K7", "G4", "G10", "G7"],
        ),
        (
            19,
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"],
        ),
    ];
    for (size, order) in table {
        let centre = order[8];
        for n in 2..=9 {
            let mut expected: Vec<&str> = match n {
                2..=4 => order[..n].to_vec(),
                _ => order[..n - n % 2].to_vec(),
            };
            if n >= 5 && n % 2 == 1 {
                expected.push(centre);
            }
            assert_eq!(names(size, n), expected, "{size}x{size} with {n}");
        }
    }
    assert_eq!(names(7, 4), ["C3", "E5", "C5", "E3"]);
    assert_eq!(names(8, 4), ["C3", "F6", "C6", "F3"]);
    assert_eq!(names(12, 2), ["D4", "J9"]);
    assert_eq!(names(25, 9).last().map(String::as_str), Some("N13"));
    for (size, n) in [
        (19, 0),
        (19, 1),
        (19, 10),
        (7, 5),
        (8, 5),
        (10, 6),
        (6, 2),
        (2, 2),
    ] {
        assert_eq!(
            fixed_handicap_vertices(size, n),
            Err(HandicapError::InvalidNumberOfStones),
            "{size}x{size} with {n}"
        );
    }
}

#[test]
fn handicap_setup() {
    let mut game = Game::new(19, RuleSet::Japanese.rules()).expect("19x19");
    let placed = game.place_fixed_handicap(4).expect("handicap");
    assert_eq!(placed.len(), 4);
    assert_eq!(game.handicap(), 4);
    assert_eq!(game.to_move(), Color::White);
    assert_eq!(game.board().stone_count(Color::Black), 4);
    assert!(!game.undo());
    assert_eq!(
        game.place_fixed_handicap(2),
        Err(HandicapError::BoardNotEmpty)
    );

    let mut game = Game::new(9, RuleSet::Chinese.rules()).expect("9x9");
    assert_eq!(
        game.place_handicap(&[v("A1")]),
        Err(HandicapError::InvalidNumberOfStones)
    );
    assert_eq!(
        game.place_handicap(&[v("A1"), v("A1")]),
        Err(HandicapError::BadVertexList)
    );
    game.place_handicap(&[v("A1"), v("J9"), v("E5")])
        .expect("free handicap");
    assert_eq!(game.handicap(), 3);
}

// ---------------------------------------------------------------- scoring

/// Black owns columns A–C, White D–E.
const SPLIT: &str = "
    . . X O .
    . . X O .
    . . X O .
    . . X O .
    . . X O .";

#[test]
fn area_and_territory_of_a_split_board() {
    let chinese = position(RuleSet::Chinese, SPLIT);
    let score = chinese.score(&[]);
    assert_eq!(score.stones, [5, 5]);
    assert_eq!(score.territory, [10, 5]);
    assert_eq!(score.margin(), 15.0 - 17.5);
    assert_eq!(chinese.final_score(&[]).to_string(), "W+2.5");

    let japanese = position(RuleSet::Japanese, SPLIT);
    assert_eq!(japanese.final_score(&[]).to_string(), "W+1.5");
}

#[test]
fn dead_stones_count_for_the_owner_of_the_area() {
    let diagram = "
        . . X O .
        . . X O .
        O . X O .
        . . X O .
        . . X O .";
    let chinese = position(RuleSet::Chinese, diagram);
    // Tromp–Taylor: the white stone makes Black's side neutral.
    let tt = chinese.tromp_taylor_score();
    assert_eq!((tt.stones, tt.territory), ([5, 6], [0, 5]));
    assert_eq!(tt.result().to_string(), "W+13.5");
    // With A3 dead, Black's area is whole again.
    assert_eq!(chinese.final_score(&[v("A3")]).to_string(), "W+2.5");
    // Territory: 10 points + 1 dead stone against 5 + 6.5.
    let japanese = position(RuleSet::Japanese, diagram);
    let score = japanese.score(&[v("A3")]);
    assert_eq!(score.dead, [0, 1]);
    assert_eq!(score.result().to_string(), "W+0.5");
    // Empty points and off-board vertices in the dead list are ignored.
    assert_eq!(japanese.score(&[v("A3"), v("A1"), v("A3"), v("Z9")]), score);
}

#[test]
fn prisoners_count_under_territory_scoring_only() {
    let mut japanese = position(RuleSet::Japanese, SPLIT);
    let mut chinese = position(RuleSet::Chinese, SPLIT);
    // White throws a stone into Black's area and Black captures it.
    for game in [&mut japanese, &mut chinese] {
        play_all(game, "W A3 B B3 W pass B A2 W pass B A4");
        assert_eq!(game.prisoners(Color::Black), 1);
    }
    // Black filled 3 points of its own territory with stones: area unchanged (15),
    // territory down to 7 + 1 prisoner.
    assert_eq!(chinese.final_score(&[]).to_string(), "W+2.5");
    assert_eq!(japanese.score(&[]).points(Color::Black), 8.0);
    assert_eq!(japanese.final_score(&[]).to_string(), "W+3.5");
}

#[test]
fn handicap_compensation_and_draws() {
    let mut chinese = Game::new(9, RuleSet::Chinese.rules()).expect("9x9");
    chinese.place_fixed_handicap(4).expect("handicap");
    chinese.set_komi(0.5);
    // 81 points of area for Black, minus 4 compensation and 0.5 komi.
    assert_eq!(chinese.final_score(&[]).to_string(), "B+76.5");
    let mut aga = Game::new(9, RuleSet::Aga.rules()).expect("9x9");
    aga.place_fixed_handicap(4).expect("handicap");
    aga.set_komi(0.5);
    assert_eq!(aga.final_score(&[]).to_string(), "B+77.5");

    let mut draw = position(
        RuleSet::Chinese,
        "
        . X O .
        . X O .
        . X O .
        . X O .",
    );
    draw.set_komi(0.0);
    assert_eq!(draw.final_score(&[]), FinalScore(0.0));
    assert_eq!(draw.final_score(&[]).to_string(), "0");
    assert_eq!(draw.final_score(&[]).winner(), None);
    draw.set_komi(-3.0);
    assert_eq!(draw.final_score(&[]).to_string(), "B+3");
}

#[test]
fn custom_rules_components() {
    let rules = Rules::custom(KoRule::SituationalSuperko, Scoring::Territory, true);
    assert_eq!(rules.default_komi, 6.5);
    assert_eq!(rules.rule_set(), None);
    let mut game = position(RuleSet::Japanese, MULTI_STONE_SUICIDE);
    game.set_rules(rules);
    assert!(game.is_legal(Color::Black, at("B1")));
    assert_eq!(
        "POSITIONAL".parse::<KoRule>(),
        Ok(KoRule::PositionalSuperko)
    );
    assert_eq!("area".parse::<Scoring>(), Ok(Scoring::Area));
}
