//! Counting finished positions on small boards, detail by detail: dame, eyes in seki,
//! dead stones taken off as prisoners, a stone added inside one's own territory (teire)
//! and AGA's pass stones, under Japanese (territory) and area counting. Each expected
//! score is worked out by hand in the comment above it.
//!
//! The counts with given dead stones and seki run in-process through `Game`; those where
//! the engine judges the stones itself ask `hamle go` over GTP in-process, with its seed
//! and fixed playout budgets, so the verdicts are the same on every machine.

use std::io::Cursor;

use hamle::go::engine::{GoEngine, Settings};
use hamle::go::game::Game;
use hamle::go::rules::RuleSet;
use hamle::go::{Color, MoveVertex, Vertex};
use hamle::protocol::serve;

use crate::rules::stones_of;
use pretty_assertions::assert_eq;

fn v(s: &str) -> Vertex {
    s.parse().expect("test vertex")
}

fn vertices(list: &str) -> Vec<Vertex> {
    list.split_whitespace().map(v).collect()
}

/// A game set up from a diagram under `rules`, with `komi`.
fn position(rules: RuleSet, komi: f32, diagram: &str) -> Game {
    let (size, stones) = stones_of(diagram);
    let mut game = Game::new(size, rules.rules()).expect("diagram size");
    game.setup_stones(&stones).expect("diagram position");
    game.set_komi(komi);
    game
}

/// `hamle go` under `rules` (seed 0, its default judging budgets) given the diagram's
/// stones as `play` commands and then `commands`; the answers, one a line.
fn judged(rules: RuleSet, komi: f32, diagram: &str, commands: &[&str]) -> Vec<String> {
    let (size, stones) = stones_of(diagram);
    let mut input = format!("boardsize {size}\nclear_board\nkomi {komi}\n");
    for (color, vertex) in stones {
        let color = if color == Color::Black { "b" } else { "w" };
        input.push_str(&format!("play {color} {vertex}\n"));
    }
    for command in commands {
        input.push_str(&format!("{command}\n"));
    }
    let mut engine = GoEngine::new(Settings {
        rules,
        playouts: 200,
        ..Settings::default()
    });
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    let answers: Vec<String> = String::from_utf8(output)
        .expect("utf-8 output")
        .split("\n\n")
        .filter(|a| !a.is_empty())
        .map(|a| {
            a.trim_start_matches("= ")
                .trim_start_matches('=')
                .to_owned()
        })
        .collect();
    answers[answers.len() - commands.len()..].to_vec()
}

/// Column C touches both colours: its five points are dame, nobody's under either count.
const DAME: &str = "
    . X . O .
    . X . O .
    . X . O .
    . X . O .
    . X . O .";

#[test]
fn dame_count_for_nobody() {
    // Japanese: Black's territory A1–A5 (5), White's E1–E5 (5) and komi 0.5: W+0.5.
    let japanese = position(RuleSet::Japanese, 0.5, DAME);
    let score = japanese.score(&[]);
    assert_eq!(score.territory, [5, 5]);
    assert_eq!(score.result().to_string(), "W+0.5");
    // Area: 5 stones and 5 points each, the dame still nobody's: W+0.5.
    let chinese = position(RuleSet::Chinese, 0.5, DAME);
    let score = chinese.score(&[]);
    assert_eq!((score.stones, score.territory), ([5, 5], [5, 5]));
    assert_eq!(score.result().to_string(), "W+0.5");
}

/// A seki along the top edge: Black's inner group (A8–D8, B9–D9) has the eye A9 and
/// White's (E8–J8, F9–H9) the eye J9; they share E9, and whoever fills it is captured.
/// Below, White's wall (A7–D7, D1–D6) holds A1–C6 (18 points) and Black's (E7–J7, E1–E6)
/// holds F1–J6 (24 points).
const SEKI: &str = "
    . X X X . O O O .
    X X X X O O O O O
    O O O O X X X X X
    . . . O X . . . .
    . . . O X . . . .
    . . . O X . . . .
    . . . O X . . . .
    . . . O X . . . .
    . . . O X . . . .";

const SEKI_STONES: &str = "A8 B8 B9 C8 C9 D8 D9 E8 F8 F9 G8 G9 H8 H9 J8";

#[test]
fn eyes_in_seki_are_nobodys_territory_under_japanese_rules() {
    let seki = vertices(SEKI_STONES);
    // Japanese: the eyes A9 and J9 are left out: Black 24, White 18 + 0.5: B+5.5.
    let japanese = position(RuleSet::Japanese, 0.5, SEKI);
    let score = japanese.score_judged(&[], &seki);
    assert_eq!(score.territory, [24, 18]);
    assert_eq!(score.result().to_string(), "B+5.5");
    // Without the seki the eyes would count: 25 and 19.
    assert_eq!(japanese.score(&[]).territory, [25, 19]);
    // Area counts the eyes of a seki: Black 18 stones + 25, White 18 + 19 + 0.5: B+5.5.
    let chinese = position(RuleSet::Chinese, 0.5, SEKI);
    let score = chinese.score_judged(&[], &seki);
    assert_eq!((score.stones, score.territory), ([18, 18], [25, 19]));
    assert_eq!(score.result().to_string(), "B+5.5");
}

#[test]
fn the_engine_finds_the_seki_and_leaves_its_eyes_uncounted() {
    let answers = judged(
        RuleSet::Japanese,
        0.5,
        SEKI,
        &[
            "final_status_list seki",
            "final_status_list dead",
            "final_score",
        ],
    );
    // As counted by hand in the test above: B+5.5.
    assert_eq!(answers, [SEKI_STONES, "", "B+5.5"]);
}

/// A white stone left at B5 in Black's three columns: dead, since Black to move takes it.
const INVADER: &str = "
    . . . X O . .
    . . . X O . .
    . O . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .
    . . . X O . .";

#[test]
fn dead_stones_inside_territory_are_taken_off_as_prisoners() {
    // Japanese: Black's 21 points (B5 among them) and the dead stone as a prisoner, 22;
    // White's 14 and komi 0.5: B+7.5.
    let answers = judged(
        RuleSet::Japanese,
        0.5,
        INVADER,
        &["final_status_list dead", "final_score"],
    );
    assert_eq!(answers, ["B5", "B+7.5"]);
    // Area: Black 7 stones + 21 points, White 7 + 14 + 0.5: B+6.5 (no prisoners).
    let answers = judged(RuleSet::Chinese, 0.5, INVADER, &["final_score"]);
    assert_eq!(answers, ["B+6.5"]);
}

/// Black and White split the 5×5 board: Black owns columns A–C, White D–E.
const SPLIT: &str = "
    . . X O .
    . . X O .
    . . X O .
    . . X O .
    . . X O .";

#[test]
fn a_stone_inside_ones_own_territory_costs_a_point_under_japanese_rules_only() {
    let mut japanese = position(RuleSet::Japanese, 0.5, SPLIT);
    let mut chinese = position(RuleSet::Chinese, 0.5, SPLIT);
    // Before: Japanese Black 10, White 5 + 0.5: B+4.5; area Black 15, White 10.5: B+4.5.
    assert_eq!(japanese.final_score(&[]).to_string(), "B+4.5");
    assert_eq!(chinese.final_score(&[]).to_string(), "B+4.5");
    // Black adds a stone at A3 (a teire that was not needed) and White passes.
    for game in [&mut japanese, &mut chinese] {
        game.play(Color::Black, MoveVertex::Play(v("A3")))
            .expect("legal");
        game.play(Color::White, MoveVertex::Pass).expect("legal");
    }
    // Japanese: Black's territory is 9: B+3.5. Area: the stone replaces the point: B+4.5.
    assert_eq!(japanese.final_score(&[]).to_string(), "B+3.5");
    assert_eq!(chinese.final_score(&[]).to_string(), "B+4.5");
}

#[test]
fn aga_counts_by_area_as_territory_with_pass_stones_would() {
    // Both sides build the SPLIT walls (C for Black, D for White, five stones each),
    // then Black passes and White passes last, as AGA rules ask.
    let mut aga = Game::new(5, RuleSet::Aga.rules()).expect("5x5");
    aga.set_komi(7.5);
    for row in 1..=5 {
        for (color, column) in [(Color::Black, 'C'), (Color::White, 'D')] {
            let vertex = v(&format!("{column}{row}"));
            aga.play(color, MoveVertex::Play(vertex)).expect("legal");
        }
    }
    aga.play(Color::Black, MoveVertex::Pass).expect("legal");
    aga.play(Color::White, MoveVertex::Pass).expect("legal");
    // Area: Black 5 stones + 10 points = 15, White 5 + 5 + 7.5 = 17.5: W+2.5.
    // Territory with pass stones gives the same: Black 10 + White's pass stone = 11,
    // White 5 + Black's pass stone + 7.5 = 13.5: W+2.5.
    assert_eq!(aga.final_score(&[]).to_string(), "W+2.5");
    let answers = judged(RuleSet::Aga, 7.5, SPLIT, &["final_score"]);
    assert_eq!(answers, ["W+2.5"]);
}
