//! Differential test against an independent implementation: the PyPI package
//! `abalone-boai` (`pip install abalone-boai`, done by `.ci/run`) must generate exactly our
//! legal moves on thousands of seeded random positions (games from the three starts with
//! pushes favoured, and random placements).

use crate::support;

use hamle::abalone::{Move, MoveList};
use pretty_assertions::assert_eq;

#[test]
fn same_legal_moves_as_abalone_boai() {
    let positions = support::abalone::random_positions(0xB0A1, 20, 1000);
    assert!(positions.len() >= 2000, "{} positions", positions.len());
    let input: String = positions.iter().map(|p| format!("{p}\n")).collect();
    let answers = support::peers::python_fixture(
        "abalone_boai_moves.py",
        input,
        &support::peers::ABALONE_BOAI,
    );
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), positions.len());
    let mut pushes = 0;
    for (position, line) in positions.iter().zip(lines) {
        let mut theirs: Vec<String> = line
            .split_whitespace()
            .map(|text| {
                text.parse::<Move>()
                    .map(|m| m.to_string())
                    .unwrap_or_else(|e| panic!("{e}"))
            })
            .collect();
        theirs.sort();
        let mut list = MoveList::new();
        position.legal_moves(&mut list);
        let mut ours: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        ours.sort();
        pushes += list
            .iter()
            .filter(|m| match *m {
                Move::Inline { tail, direction } => position
                    .inline_effect(tail, direction)
                    .is_ok_and(|e| e.pushed > 0),
                Move::Broadside { .. } => false,
            })
            .count();
        assert_eq!(ours, theirs, "position {position}");
        let mut unique = ours.clone();
        unique.dedup();
        assert_eq!(unique.len(), ours.len(), "duplicate moves in {position}");
    }
    assert!(pushes > 1000, "only {pushes} pushes were compared");
}
