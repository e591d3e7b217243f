//! GNU Go plays whole games against `hamle go` over GTP: no protocol error, every move
//! accepted by the other side, and the final scores compared.

use crate::support::peers::{GNUGO, GtpProcess, require_gnugo};

fn play_game(size: usize, hamle_is_black: bool, seed: u64) -> (String, String, usize) {
    let hamle_args = [
        "go",
        "--rules",
        "chinese",
        "--playouts",
        "400",
        "--seed",
        &seed.to_string(),
    ];
    let mut hamle = GtpProcess::spawn("hamle", env!("CARGO_BIN_EXE_hamle"), &hamle_args);
    let mut gnugo = GtpProcess::spawn(
        "gnugo",
        GNUGO,
        &["--mode", "gtp", "--level", "0", "--chinese-rules"],
    );
    for engine in [&mut hamle, &mut gnugo] {
        engine.ok(&format!("boardsize {size}"));
        engine.ok("clear_board");
        engine.ok("komi 7.5");
    }
    let mut passes = 0;
    let mut moves = 0;
    let mut to_move_black = true;
    let mut winner_by_resign = None;
    while passes < 2 && moves < size * size * 3 {
        let color = if to_move_black { "b" } else { "w" };
        let hamle_moves = to_move_black == hamle_is_black;
        let (mover, other) = if hamle_moves {
            (&mut hamle, &mut gnugo)
        } else {
            (&mut gnugo, &mut hamle)
        };
        let reply = mover.ok(&format!("genmove {color}")).to_ascii_lowercase();
        if reply == "resign" {
            winner_by_resign = Some(if to_move_black { "W+R" } else { "B+R" });
            break;
        }
        passes = if reply == "pass" { passes + 1 } else { 0 };
        other.ok(&format!("play {color} {reply}"));
        moves += 1;
        to_move_black = !to_move_black;
    }
    let (hamle_score, gnugo_score) = match winner_by_resign {
        Some(result) => (result.to_owned(), result.to_owned()),
        None => (hamle.ok("final_score"), gnugo.ok("final_score")),
    };
    // Both boards must agree stone for stone.
    for color in ["black", "white"] {
        let mut ours: Vec<String> = hamle
            .ok(&format!("list_stones {color}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        let mut theirs: Vec<String> = gnugo
            .ok(&format!("list_stones {color}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        ours.sort();
        theirs.sort();
        assert_eq!(ours, theirs, "{color} stones differ after the game");
    }
    hamle.quit();
    gnugo.quit();
    (hamle_score, gnugo_score, moves)
}

#[test]
fn gnugo_plays_whole_games_against_hamle() {
    require_gnugo();
    for (game, hamle_is_black) in [(0, true), (1, false)] {
        let (ours, theirs, moves) = play_game(9, hamle_is_black, game);
        println!(
            "game {game}: hamle {} — {moves} moves, hamle scores {ours}, GNU Go scores {theirs}",
            if hamle_is_black { "black" } else { "white" }
        );
        assert!(moves > 0);
    }
}
