//! Interop with GNU Backgammon 1.07 (`/usr/games/gnubg`, Debian's `gnubg`): gnubg imports
//! our `.mat` record with the same final score, and plays a whole match against our
//! external-player socket. Without gnubg they fail, saying how to install it.

use std::io::Cursor;
use std::net::TcpListener;

use hamle::protocol::serve;
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::player::Level;

use crate::support::peers::{gnubg, require_gnubg};

/// A match of the engine against itself; `openings[i]` is sent first in game i (cube actions).
fn self_play_match(seed: u64, length: u32, openings: &[&str]) -> TavlaEngine {
    let mut engine = TavlaEngine::new(Settings {
        seed,
        level: Level::default(),
        match_length: length,
        crawford: true,
    });
    let mut input = String::new();
    for game in 0..40 {
        input.push_str("new_game\n");
        input.push_str(openings.get(game).copied().unwrap_or(""));
        for _ in 0..200 {
            input.push_str("genmove_cube\ngenmove_cube\ngenmove\n");
        }
    }
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    assert!(engine.game().match_winner().is_some(), "the match ended");
    engine
}

#[test]
fn gnubg_imports_our_mat_record_with_the_same_score() {
    require_gnubg();
    let cube = [
        "genmove\ndouble\ndrop\n",
        "genmove\ngenmove\ndouble\ntake\n",
    ];
    for (seed, length, openings) in [(5, 3, &[][..]), (11, 5, &[][..]), (2, 9, &cube[..])] {
        let engine = self_play_match(seed, length, openings);
        let score = engine.game().state().score;
        let games = engine.game().state().games;
        let dir =
            std::env::temp_dir().join(format!("hamle-tavla-mat-{}-{seed}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("match.mat");
        std::fs::write(&path, engine.mat_record().expect("record")).unwrap();
        let output = gnubg(&format!("import mat {}\nshow score\n", path.display()));
        let expected = format!(
            "The score (after {games} game{}) is: White {}, Black {} (match to {length} points",
            if games == 1 { "" } else { "s" },
            score[0],
            score[1]
        );
        assert!(
            output.contains(&expected),
            "gnubg read {}:\n{output}\nexpected '{expected}'",
            path.display()
        );
        std::fs::remove_dir_all(&dir).ok();
    }
}

#[test]
fn gnubg_plays_a_match_against_our_external_player() {
    require_gnubg();
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = listener.local_addr().unwrap().port();
    let server = std::thread::spawn(move || {
        hamle::tavla::external::serve_listener(&listener, Level::default())
    });
    let output = gnubg(&format!(
        "set player 1 external localhost:{port}\nset player 0 gnubg\n\
         set player 0 chequerplay evaluation plies 0\nset player 0 cubedecision evaluation plies 0\n\
         set seed 7\nnew match 3\nshow score\n"
    ));
    server.join().expect("server thread").expect("served gnubg");
    assert!(output.contains("has won the match"), "{output}");
    for bad in ["Warning", "badly formed", "Illegal", "illegal"] {
        assert!(!output.contains(bad), "gnubg complained ({bad}):\n{output}");
    }
}
