//! `hamle tavla` attached to GoGui: GoGui starts every program with `boardsize` and
//! `clear_board`, and shows the answer of the first that fails in a dialog. Tavla has no
//! GoGui board, so that answer must say so and name what to use, instead of `unknown command`.

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::gogui::NO_GOGUI_BOARD;
use hamle::tavla::player::Level;
use pretty_assertions::assert_eq;

fn transcript(commands: &[&str]) -> String {
    let input: String = commands.iter().map(|c| format!("{c}\n")).collect();
    let mut engine = TavlaEngine::new(Settings {
        seed: 1,
        level: Level::default(),
        match_length: 0,
        crawford: true,
    });
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    String::from_utf8(output).expect("utf-8 output")
}

#[test]
fn gogui_start_sequence_is_answered_with_what_to_use_instead() {
    let refusal = format!("? {NO_GOGUI_BOARD}\n\n");
    assert_eq!(
        transcript(&[
            "protocol_version",
            "new_game 3 5",
            "get_position",
            "boardsize 19",
            "boardsize 9",
            "clear_board",
            "get_position",
            "gogui-rules_game_id",
        ]),
        format!(
            "= 2\n\n= black 53\n\n= 4HPwATDgc/ABMA:cIkOAAAAAAAE\n\n\
             {refusal}{refusal}{refusal}\
             = 4HPwATDgc/ABMA:cIkOAAAAAAAE\n\n\
             ? unknown command\n\n"
        )
    );
}

#[test]
fn the_refusal_names_gnubg_and_ubgi_on_one_line() {
    for needed in [
        "no Go board",
        "GoGui",
        "hamle tavla --listen",
        "set player 1 external localhost:",
        "--protocol ubgi",
    ] {
        assert!(
            NO_GOGUI_BOARD.contains(needed),
            "{needed}: {NO_GOGUI_BOARD}"
        );
    }
    assert!(!NO_GOGUI_BOARD.contains('\n'));
}
