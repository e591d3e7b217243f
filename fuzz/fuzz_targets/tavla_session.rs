//! Any bytes as a whole GTP session with the Tavla engine: it never panics, answers every
//! command line with exactly one well-framed response, and keeps a legal position.
//! `quit` and `save_mat` are left out (the whole input is read; no files are written).
#![no_main]

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::{Board, Side};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let input: String = text
        .split('\n')
        .filter(|line| !line.contains("quit") && !line.contains("save_mat"))
        .map(|line| format!("{line}\n"))
        .collect();
    let mut engine = TavlaEngine::new(Settings::default());
    let mut output = Vec::new();
    if serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).is_err() {
        return;
    }
    let output = String::from_utf8(output).expect("responses are UTF-8");
    for response in output.split_terminator("\n\n") {
        let first = response.trim_start_matches('\n');
        assert!(
            first.starts_with('=') || first.starts_with('?'),
            "bad response {response:?}"
        );
        assert!(!first.contains("internal error"), "{response}");
    }
    let board = *engine.game().board();
    assert_eq!(Board::from_rows(*board.rows()), Ok(board));
    for side in Side::BOTH {
        assert!(board.on_board(side) <= 15);
    }
    // Every position the engine reaches reads back through its own IDs.
    let key = engine.position_key();
    let mut copy = TavlaEngine::new(Settings::default());
    let mut out = Vec::new();
    let line = format!("set_position {key}\nget_position\n");
    serve(&mut copy, Cursor::new(line.into_bytes()), &mut out).expect("serve");
    let out = String::from_utf8(out).unwrap();
    if !out.starts_with('?')
        && matches!(
            engine.game().phase(),
            hamle::tavla::Phase::ToRoll(_)
                | hamle::tavla::Phase::ToPlay { .. }
                | hamle::tavla::Phase::Doubled { .. }
        )
    {
        assert!(
            out.ends_with(&format!("= {key}\n\n")),
            "{key} read back as {out}"
        );
    }
});
