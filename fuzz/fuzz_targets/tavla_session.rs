//! Any bytes as a whole GTP session with the Tavla engine: it never panics, answers every
//! command line with exactly one well-framed response, and keeps a legal position.
//! `quit` and `save_mat` are left out (the whole input is read; no files are written). The
//! player is the greedy level, so that a session stays quick (at the default level, two
//! rolls deep, a session took 40 ms and more under the fuzzer's instrumentation).
#![no_main]

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::player::Level;
use hamle::tavla::{Board, Side};
use libfuzzer_sys::fuzz_target;

mod common;

fuzz_target!(|data: &[u8]| {
    let mut engine = TavlaEngine::new(Settings {
        level: Level::Greedy,
        ..Settings::default()
    });
    if !common::serve_checked(&mut engine, data, &["save_mat"]) {
        return;
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
