//! Our pubeval against gnubg's (PyPI `gnubg-nn`, installed by `.ci/run`): on thousands of
//! seeded random positions and rolls, the play gnubg's `pub_best_move` picks is one our
//! pubeval scores best (ties between different positions are allowed either way).

use crate::support;

use hamle::tavla::ids::position_id;
use hamle::tavla::legal_plays;
use hamle::tavla::player::{Level, Player};
use hamle::tavla::pubeval;

#[test]
fn same_plays_as_gnubg_pubeval() {
    let mut cases = support::tavla::from_random_games(0x9EB, 40);
    cases.truncate(3000);
    cases.extend(support::tavla::scattered(0x9EB2, 1000));
    let input = support::tavla::gnubg_input(&cases);
    let answers =
        support::peers::python_fixture("gnubg_pubeval.py", input, &support::peers::GNUBG_NN);
    let lines: Vec<&str> = answers.lines().collect();
    assert_eq!(lines.len(), cases.len());
    let (mut choices, mut same) = (0usize, 0usize);
    let mut player = Player::new(Level::Pubeval);
    for (case, theirs) in cases.iter().zip(lines) {
        let legal = legal_plays(&case.board, case.side, case.dice);
        if legal.len() < 2 {
            continue;
        }
        choices += 1;
        let race = case.board.is_race();
        let scored: Vec<(String, f32)> = legal
            .iter()
            .map(|c| {
                (
                    position_id(&c.after, case.side),
                    pubeval::score(&c.after, case.side, race),
                )
            })
            .collect();
        let best = scored.iter().map(|s| s.1).fold(f32::NEG_INFINITY, f32::max);
        let Some(gnubg) = scored.iter().find(|s| s.0 == theirs) else {
            panic!(
                "gnubg's play {theirs} is not legal for {} {} in {}",
                case.side,
                case.dice,
                position_id(&case.board, case.side)
            );
        };
        assert!(
            gnubg.1 >= best - 1e-4 * best.abs().max(1.0),
            "{} to play {} in {}: gnubg's {} scores {}, our best {}",
            case.side,
            case.dice,
            position_id(&case.board, case.side),
            theirs,
            gnubg.1,
            best
        );
        let play = player.choose_play(&case.board, case.side, case.dice);
        let ours = legal
            .iter()
            .find(|c| c.play == play)
            .expect("our play is legal");
        if position_id(&ours.after, case.side) == theirs {
            same += 1;
        }
    }
    assert!(choices > 3000, "only {choices} positions with a choice");
    // Exact ties between different positions are rare: nearly every choice is identical.
    assert!(
        same * 1000 >= choices * 995,
        "same play in only {same} of {choices}"
    );
}
