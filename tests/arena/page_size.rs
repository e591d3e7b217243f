//! Viewer pages stay small: the page of a 250-move game (or the longest a game reaches at
//! these budgets) of each of the five games is at most 100 KB, since each board is written
//! as its edits from the one before (a Mangala page was 850 KB when every board was written
//! out). The boards drawn from them are checked in Chromium by `viewer.rs`.

use std::path::Path;

use crate::support::arena::{bot, hamle_match, mangala_engine, ok, scratch, sorted_results};

/// A game, its two engines' command lines, its match flags and the moves its longest game
/// must reach.
type Case<'a> = (&'a str, [&'a [&'a str]; 2], &'a [&'a str], usize);

/// The largest page allowed.
const MAX_PAGE_BYTES: u64 = 100_000;

/// Plays two games of `game` between `engines` at a move cap of 250 and returns the longest
/// game's move count and the largest page's size.
fn longest(dir: &Path, game: &str, engines: [&[&str]; 2], flags: &[&str]) -> (usize, u64) {
    bot(dir, &format!("{game}-a"), game, engines[0]);
    bot(dir, &format!("{game}-b"), game, engines[1]);
    let out = dir.join(game);
    let (a, b) = (format!("{game}-a"), format!("{game}-b"));
    let out_text = out.display().to_string();
    let mut args = vec![a.as_str(), b.as_str(), "--games", "2", "--max-moves", "250"];
    // A seed of the case's own, else 3.
    if !flags.contains(&"--seed") {
        args.extend_from_slice(&["--seed", "3"]);
    }
    args.extend_from_slice(flags);
    args.extend_from_slice(&["--quiet", "--out", &out_text]);
    ok(&hamle_match(dir, &args));
    let results = sorted_results(&out);
    let moves = results.iter().map(|r| r.moves).max().unwrap_or(0);
    let largest = results
        .iter()
        .map(|r| {
            let page = out
                .join("games")
                .join(Path::new(&r.record).with_extension("html"));
            std::fs::metadata(&page)
                .map(|m| m.len())
                .unwrap_or(u64::MAX)
        })
        .max()
        .unwrap_or(0);
    (moves, largest)
}

#[test]
fn the_page_of_a_250_move_game_of_each_game_is_at_most_100_kb() {
    let dir = scratch("page-size", "all");
    let go = |playouts| ["hamle", "go", "--playouts", playouts];
    let nodes = |game, n| ["hamle", game, "--nodes", n];
    let tavla = |level| ["hamle", "tavla", "--level", level];
    let cases: [Case; 5] = [
        ("go", [&go("5"), &go("8")], &["--size", "19"], 250),
        (
            "abalone",
            [&nodes("abalone", "50"), &nodes("abalone", "60")],
            &[],
            150,
        ),
        (
            "kulami",
            [&nodes("kulami", "50"), &nodes("kulami", "60")],
            &[],
            50,
        ),
        (
            "tavla",
            [&tavla("greedy"), &tavla("pubeval")],
            &["--points", "25"],
            250,
        ),
        (
            "mangala",
            [&mangala_engine("30"), &mangala_engine("40")],
            &["--sets", "5", "--seed", "4"],
            250,
        ),
    ];
    let mut sizes = Vec::new();
    for (game, engines, flags, at_least) in cases {
        let (moves, bytes) = longest(&dir, game, engines, flags);
        assert!(moves >= at_least, "{game}: a game of {moves} moves only");
        sizes.push(format!("{game}: {moves} moves, {bytes} bytes"));
        assert!(bytes <= MAX_PAGE_BYTES, "{sizes:?}");
    }
    eprintln!("largest pages: {}", sizes.join("; "));
    let _ = std::fs::remove_dir_all(&dir);
}
