//! Rule fixtures from the book (`../shared/RULES.md`, Mangala): sowing with the first
//! stone back in its pit, the single stone, the store's extra turn, both captures, the
//! skipped opposing store, laps, and the end of a set under both end rules.

use hamle::mangala::{EndRule, Game, IllegalMove, Landing, Pit, Position, Side};
use pretty_assertions::assert_eq;

fn position(text: &str) -> Position {
    text.parse()
        .unwrap_or_else(|e| panic!("fixture {text}: {e}"))
}

fn pit(number: u8) -> Pit {
    Pit::new(number).expect("pit 1-6")
}

/// Plays `number` for the side to move under `rule`; answers the new position string.
fn after_with(text: &str, number: u8, rule: EndRule) -> (String, Landing) {
    let before = position(text);
    let (next, landing) = before
        .play(before.to_move(), pit(number), rule)
        .unwrap_or_else(|e| panic!("{text} pit {number}: {e}"));
    assert_eq!(
        next.total_stones(),
        before.total_stones(),
        "stones are conserved"
    );
    (next.to_string(), landing)
}

fn after(text: &str, number: u8) -> (String, Landing) {
    after_with(text, number, EndRule::EmptierTakesAll)
}

const START_SOUTH: &str = "4,4,4,4,4,4,0/4,4,4,4,4,4,0/s";

#[test]
fn first_stone_goes_back_into_its_pit() {
    assert_eq!(
        after(START_SOUTH, 1),
        ("1,5,5,5,4,4,0/4,4,4,4,4,4,0/n".into(), Landing::Quiet)
    );
    assert_eq!(
        after(START_SOUTH, 3),
        ("4,4,1,5,5,5,0/4,4,4,4,4,4,0/n".into(), Landing::Quiet)
    );
}

#[test]
fn last_stone_in_own_store_moves_again() {
    assert_eq!(
        after(START_SOUTH, 4),
        ("4,4,4,1,5,5,1/4,4,4,4,4,4,0/s".into(), Landing::Store)
    );
    // North's pit 4 sows its pits 4, 5, 6 and then its own store.
    assert_eq!(
        after("4,4,4,4,4,4,0/4,4,4,4,4,4,0/n", 4),
        ("4,4,4,4,4,4,0/4,4,4,1,5,5,1/n".into(), Landing::Store)
    );
}

#[test]
fn a_single_stone_moves_on() {
    assert_eq!(
        after("3,1,2,0,0,0,10/2,2,2,2,2,2,10/s", 2),
        ("3,0,3,0,0,0,10/2,2,2,2,2,2,10/n".into(), Landing::Quiet)
    );
    // From the last pit it goes into the store: another move.
    assert_eq!(
        after("1,0,0,0,0,1,0/1,0,0,0,0,0,0/s", 6),
        ("1,0,0,0,0,0,1/1,0,0,0,0,0,0/s".into(), Landing::Store)
    );
}

#[test]
fn empty_own_pit_captures_the_facing_pit_and_the_last_stone() {
    // A single stone into empty pit 3, facing North's pit 4 (5 stones).
    assert_eq!(
        after("3,1,0,0,0,0,0/2,0,0,5,0,0,0/s", 2),
        (
            "3,0,0,0,0,0,6/2,0,0,0,0,0,0/n".into(),
            Landing::EmptyPitCapture { stones: 5 }
        )
    );
    // Three stones from pit 2 end in empty pit 4, facing North's pit 3 (1 stone).
    assert_eq!(
        after("0,3,0,0,0,0,0/0,0,1,4,0,0,0/s", 2),
        (
            "0,1,1,0,0,0,2/0,0,0,4,0,0,0/n".into(),
            Landing::EmptyPitCapture { stones: 1 }
        )
    );
}

#[test]
fn empty_own_pit_facing_nothing_captures_nothing() {
    assert_eq!(
        after("3,1,0,0,0,0,0/2,0,0,0,5,0,0/s", 2),
        ("3,0,1,0,0,0,0/2,0,0,0,5,0,0/n".into(), Landing::Quiet)
    );
}

#[test]
fn making_an_opponent_pit_even_captures_it() {
    assert_eq!(
        after("0,0,0,0,0,3,0/3,1,0,0,0,0,0/s", 6),
        (
            "0,0,0,0,0,1,5/0,1,0,0,0,0,0/n".into(),
            Landing::EvenCapture { stones: 4 }
        )
    );
    // Odd: nothing.
    assert_eq!(
        after("0,0,0,0,0,3,0/2,1,0,0,0,0,0/s", 6),
        ("0,0,0,0,0,1,1/3,1,0,0,0,0,0/n".into(), Landing::Quiet)
    );
    // North captures on South's row just the same.
    assert_eq!(
        after("1,1,0,0,0,0,0/0,0,0,0,0,3,0/n", 6),
        (
            "0,1,0,0,0,0,0/0,0,0,0,0,1,3/s".into(),
            Landing::EvenCapture { stones: 2 }
        )
    );
}

#[test]
fn the_opponents_store_is_skipped() {
    // Ten stones from South's pit 6: pit 6, the store, North's six pits, (not North's
    // store), South's pits 1 and 2; pit 2 was empty and faces North's pit 5.
    assert_eq!(
        after("0,0,0,0,0,10,0/1,1,1,1,1,1,5/s", 6),
        (
            "1,0,0,0,0,1,4/2,2,2,2,0,2,5/n".into(),
            Landing::EmptyPitCapture { stones: 2 }
        )
    );
}

#[test]
fn a_full_lap_ends_in_the_starting_pit_without_capture() {
    assert_eq!(
        after("14,0,0,0,0,0,0/0,0,0,0,0,1,0/s", 1),
        ("2,1,1,1,1,1,1/1,1,1,1,1,2,0/n".into(), Landing::Quiet)
    );
}

#[test]
fn the_player_whose_row_empties_takes_the_other_row() {
    // South's last stone goes home: South's row is empty, South takes North's 3 stones.
    let text = "0,0,0,0,0,1,20/1,2,0,0,0,0,10/s";
    assert_eq!(
        after(text, 6),
        ("0,0,0,0,0,0,24/0,0,0,0,0,0,10/s".into(), Landing::Store)
    );
    // Kalah's end, an option: each side keeps its own row.
    assert_eq!(
        after_with(text, 6, EndRule::EachKeepsOwn),
        ("0,0,0,0,0,0,21/0,0,0,0,0,0,13/s".into(), Landing::Store)
    );
}

#[test]
fn a_capture_that_empties_the_opponents_row_gives_them_the_movers_row() {
    // South captures North's last 2 stones; North's row emptied first, so North takes
    // South's 3 remaining stones: 13 each, a drawn set.
    let text = "2,0,0,0,0,3,10/1,0,0,0,0,0,10/s";
    let (next, landing) = after(text, 6);
    assert_eq!(
        (next.as_str(), landing),
        (
            "0,0,0,0,0,0,13/0,0,0,0,0,0,13/n",
            Landing::EvenCapture { stones: 2 }
        )
    );
    let ended = position(&next);
    assert!(ended.is_over());
    assert_eq!(ended.winner(), None);
    assert_eq!(
        after_with(text, 6, EndRule::EachKeepsOwn).0,
        "0,0,0,0,0,0,16/0,0,0,0,0,0,10/n"
    );
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    let mut game = Game::new(4, EndRule::EmptierTakesAll, Side::South);
    let fresh = game.clone();
    assert_eq!(
        game.play(Side::North, pit(1)),
        Err(IllegalMove::NotToMove {
            to_move: Side::South
        })
    );
    assert_eq!(game, fresh);
    game.play(Side::South, pit(1)).expect("legal");
    game.play(Side::North, pit(6)).expect("legal");
    let before = game.clone();
    // North's 4 stones from pit 6: pit 6, North's store, South's pits 1 and 2; the last
    // makes South's pit 2 even (6), so North captures it and South's pit 2 is empty.
    assert_eq!(game.position().to_string(), "2,0,5,5,4,4,0/4,4,4,4,4,1,7/s");
    assert_eq!(
        game.play(Side::South, pit(2)),
        Err(IllegalMove::EmptyPit(pit(2)))
    );
    assert_eq!(game, before);
    assert!(game.undo() && game.undo() && !game.undo());
    assert_eq!(game, fresh);
}

#[test]
fn no_move_after_the_set_is_over() {
    let over = position("0,0,0,0,0,0,24/0,0,0,0,0,0,24/s");
    assert!(over.is_over());
    assert_eq!(over.legal_moves().count(), 0);
    assert_eq!(
        over.play(Side::South, pit(1), EndRule::EmptierTakesAll),
        Err(IllegalMove::SetOver)
    );
}
