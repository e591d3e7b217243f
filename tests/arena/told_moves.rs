//! Moves told ahead: the arena writes the opponent's move with the next command an engine
//! gets (one wake-up for both) and reads its answer first. A refused move is still the
//! refuser's fault, and every engine hears the opponent's moves to the game's last.

use std::path::{Path, PathBuf};

use crate::support::arena::{HAMLE, field, hamle_match, scratch};
use crate::support::peers::require_python3;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py")
}

/// A Go bot at 10 playouts: `wrapper` (broken_engine.py's mode, k and options) around it
/// when given, `hamle go` itself otherwise.
fn go_bot(dir: &Path, name: &str, wrapper: Option<(&str, u32, &Path)>) {
    let engine = format!("{HAMLE:?}, \"go\", \"--rules\", \"chinese\", \"--playouts\", \"10\"");
    let command = match wrapper {
        Some((mode, k, marker)) => format!(
            "\"python3\", {:?}, \"{mode}\", \"{k}\", \"--marker\", {:?}, \"--\", {engine}",
            fixture().display().to_string(),
            marker.display().to_string()
        ),
        None => engine,
    };
    let text = format!("name = \"{name}\"\ngame = \"go\"\ncommand = [{command}]\n");
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

fn play(dir: &Path, second: &str, games: &str, out: &Path) -> Vec<String> {
    let output = hamle_match(
        dir,
        &[
            "good",
            second,
            "--games",
            games,
            "--seed",
            "5",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let text = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    text.lines().map(str::to_owned).collect()
}

#[test]
fn a_refused_move_told_ahead_loses_the_refusers_game() {
    require_python3();
    let dir = scratch("arena", "told-refused");
    go_bot(&dir, "good", None);
    go_bot(
        &dir,
        "refuser",
        Some(("refuse-play", 3, &dir.join("unused"))),
    );
    let lines = play(&dir, "refuser", "2", &dir.join("out"));
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        assert!(
            field(line, "reason").starts_with("rejected of refuser: refused the legal 'play "),
            "{line}"
        );
        assert_eq!(field(line, field(line, "winner")), "good", "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_engine_hears_the_opponents_moves_to_the_last() {
    require_python3();
    let dir = scratch("arena", "told-transcript");
    let transcript = dir.join("scribe.log");
    go_bot(&dir, "good", None);
    go_bot(&dir, "scribe", Some(("transcript", 0, &transcript)));
    let lines = play(&dir, "scribe", "4", &dir.join("out"));
    let moves: usize = lines
        .iter()
        .map(|line| field(line, "moves").parse::<usize>().expect("moves"))
        .sum();
    let heard = std::fs::read_to_string(&transcript).expect("transcript");
    let commands: Vec<&str> = heard
        .lines()
        .map(|line| line.split_whitespace().nth(1).unwrap_or(""))
        .collect();
    let count = |name: &str| commands.iter().filter(|c| **c == name).count();
    // Each move of the four games was either the scribe's answer or told to it.
    assert_eq!(
        (count("play") + count("genmove"), lines.len()),
        (moves, 4),
        "{heard}"
    );

    // A game that ends with a move told to the scribe: a bot that refuses that move (its
    // k-th `play`, counted over the games its one kept engine served) loses that game,
    // not the next one's reset.
    let games: Vec<&[&str]> = commands
        .split(|c| *c == "clear_board")
        .filter(|section| section.contains(&"genmove"))
        .collect();
    let g = games
        .iter()
        .position(|game| game.last() == Some(&"play"))
        .expect("a game that ends with the opponent's move");
    let plays = |game: &&[&str]| game.iter().filter(|c| **c == "play").count();
    let k: usize = games[..=g].iter().map(plays).sum();
    go_bot(
        &dir,
        "refuser",
        Some((
            "refuse-play",
            u32::try_from(k).expect("k"),
            &dir.join("unused"),
        )),
    );
    let refused = play(&dir, "refuser", "4", &dir.join("refused"));
    let game = |list: &[String]| {
        list.iter()
            .find(|line| field(line, "game") == g.to_string())
            .cloned()
            .expect("game g")
    };
    let (scribed, refused) = (game(&lines), game(&refused));
    assert_eq!(
        field(&refused, "moves"),
        field(&scribed, "moves"),
        "{refused}"
    );
    assert_eq!(
        field(&refused, field(&refused, "winner")),
        "good",
        "{refused}"
    );
    assert!(
        field(&refused, "reason").starts_with("rejected of refuser: refused the legal 'play "),
        "{refused}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
