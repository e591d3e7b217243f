//! Any bytes, read as a Tavla Position ID, Match ID and play (split at `:` and `|`): the
//! readers never panic, a decoded ID encodes back to an ID that decodes the same, and a
//! play read in a position is one of its legal plays and spells back to itself.
#![no_main]

use hamle::tavla::ids::{match_id, parse_match_id, parse_position_id, position_id};
use hamle::tavla::notation::{format_play, parse_play};
use hamle::tavla::{Board, Dice, Side, legal_plays};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut parts = text.splitn(3, '|');
    let ids = parts.next().unwrap_or("");
    let dice_text = parts.next().unwrap_or("31");
    let play_text = parts.next().unwrap_or("");
    let (pos, mid) = ids.split_once(':').unwrap_or((ids, ""));
    let board = match parse_position_id(pos, Side::White) {
        Ok(board) => {
            let again = position_id(&board, Side::White);
            assert_eq!(parse_position_id(&again, Side::White), Ok(board));
            board
        }
        Err(_) => Board::start(),
    };
    if let Ok(key) = parse_match_id(mid) {
        assert_eq!(parse_match_id(&match_id(&key)), Ok(key));
    }
    let Ok(dice) = dice_text.parse::<Dice>() else {
        return;
    };
    let legal = legal_plays(&board, Side::White, dice);
    if let Ok(play) = parse_play(play_text, &board, Side::White, &legal) {
        assert!(legal.iter().any(|c| c.play == play));
        let spelled = format_play(&board, Side::White, &play);
        assert_eq!(
            parse_play(&spelled, &board, Side::White, &legal),
            Ok(play),
            "{spelled}"
        );
    }
});
