//! Differential test against gnubg's own move generator (PyPI `gnubg-nn`, installed by
//! `.ci/run`): the same resulting positions for every roll of thousands of seeded random
//! positions, and the same Position IDs.

use crate::support;

use hamle::tavla::ids::position_id;
use hamle::tavla::legal_plays;
use pretty_assertions::assert_eq;

#[test]
fn same_legal_plays_as_gnubg() {
    let mut cases = support::tavla::from_random_games(0x7A71A, 60);
    cases.truncate(6000);
    cases.extend(support::tavla::scattered(0xBA5E, 6000));
    assert!(cases.len() >= 10_000, "{} positions", cases.len());
    let input = support::tavla::gnubg_input(&cases);
    let answers =
        support::peers::python_fixture("gnubg_moves.py", input, &support::peers::GNUBG_NN);
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), cases.len());
    let (mut plays, mut blocked, mut partial) = (0usize, 0usize, 0usize);
    for (case, line) in cases.iter().zip(lines) {
        let legal = legal_plays(&case.board, case.side, case.dice);
        let mut ours: Vec<String> = legal
            .iter()
            .map(|c| position_id(&c.after, case.side))
            .collect();
        ours.sort();
        let theirs: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        assert_eq!(
            ours,
            theirs,
            "{} to play {} in {}",
            case.side,
            case.dice,
            position_id(&case.board, case.side)
        );
        plays += legal.len();
        if legal[0].play.is_empty() {
            blocked += 1;
        } else if legal[0].play.steps().len() < if case.dice.is_double() { 4 } else { 2 } {
            partial += 1;
        }
    }
    // The comparison must have met the rules' corners, not only easy rolls.
    assert!(blocked > 50, "only {blocked} positions without a play");
    assert!(
        partial > 200,
        "only {partial} positions where not every die fits"
    );
    assert!(plays > 100_000, "only {plays} plays compared");
}
