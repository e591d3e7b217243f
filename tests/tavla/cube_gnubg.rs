//! gnubg as the judge of the cube: the match equity table against the file GNU Backgammon
//! ships (`met/Kazaross-XG2.xml`), and our engine's cube actions (double or not, take or
//! pass) against gnubg 1.07's `hint` at 2 ply on clear positions, at money and at match
//! scores. "Clear" means gnubg's verdict is far from its borderline (the positions were
//! picked so; the net's probabilities differ from gnubg's, so close calls may differ).

use std::io::Cursor;

use hamle::protocol::serve;
use hamle::tavla::cube::{Stage, met};
use hamle::tavla::engine::{Settings, TavlaEngine};
use hamle::tavla::player::Level;
use pretty_assertions::assert_eq;

use crate::support::peers::{gnubg, require_file};

const MET_FILE: &str = "/usr/share/gnubg/met/Kazaross-XG2.xml";

/// The numbers of `<me>` cells between `start` and `end` tags of the file.
fn cells(text: &str, start: &str, end: &str) -> Vec<f64> {
    let from = text.find(start).expect("table start");
    let to = from + text[from..].find(end).expect("table end");
    text[from..to]
        .split("<me>")
        .skip(1)
        .map(|cell| {
            let number = cell.split("</me>").next().expect("cell");
            number.trim().parse().expect("number")
        })
        .collect()
}

#[test]
fn table_equals_gnubgs_file() {
    require_file(
        MET_FILE,
        "GNU Backgammon's match equity tables",
        "apt-get install -y gnubg",
    );
    let text = std::fs::read_to_string(MET_FILE).expect("read the MET file");
    let pre = cells(&text, "<pre-crawford-table", "</pre-crawford-table>");
    let post = cells(&text, "<post-crawford-table", "</post-crawford-table>");
    assert_eq!((pre.len(), post.len()), (625, 25));
    for a in 1..=25i64 {
        for b in 1..=25i64 {
            let published = pre[(a as usize - 1) * 25 + b as usize - 1];
            assert_eq!(
                (a, b, met::chance(a, b, Stage::PreCrawford)),
                (a, b, published)
            );
        }
        if a > 1 {
            let published = post[a as usize - 1];
            assert_eq!((a, met::chance(a, 1, Stage::PostCrawford)), (a, published));
        }
    }
}

/// Clear positions (Position ID of the side to roll, gnubg Match ID with no dice) and what
/// they are.
const POSITIONS: [(&str, &str, &str); 16] = [
    ("bear-off won, money", "7O4AAGADAAAAAA", "cAkAAAAAAAAE"),
    ("blitz, money", "4Dn4AHDbtjkAAA", "cAkAAAAAAAAE"),
    ("start, money", "4HPwATDgc/ABMA", "cAkAAAAAAAAE"),
    ("race ahead, money", "trsPAABtdw8AAA", "cAkAAAAAAAAE"),
    ("race far ahead, money", "bXcPAADbtgEAAA", "cAkAAAAAAAAE"),
    ("race ahead, 0-0 of 5", "trsPAABtdw8AAA", "cAmgAAAAAAAE"),
    (
        "race ahead, 3-away/1-away post",
        "trsPAABtdw8AAA",
        "cAmgAEAAEAAE",
    ),
    (
        "race ahead, 2-away/4-away",
        "trsPAABtdw8AAA",
        "cAmgABAAGAAE",
    ),
    (
        "even race, 3-away/1-away post",
        "27YBAGDbNgAAAA",
        "cAmgAEAAEAAE",
    ),
    ("even race, 2-away/4-away", "27YBAGDbNgAAAA", "cAmgABAAGAAE"),
    ("race far ahead, 0-0 of 5", "bXcPAADbtgEAAA", "cAmgAAAAAAAE"),
    (
        "race far ahead, 2-away/4-away",
        "bXcPAADbtgEAAA",
        "cAmgABAAGAAE",
    ),
    (
        "race far ahead, 4-away/2-away",
        "bXcPAADbtgEAAA",
        "cAmgADAACAAE",
    ),
    (
        "start, 4-away/1-away post",
        "4HPwATDgc/ABMA",
        "cAmgAEAACAAE",
    ),
    ("blitz, 0-0 of 5", "4Dn4AHDbtjkAAA", "cAmgAAAAAAAE"),
    ("blitz, 2-away/2-away", "4Dn4AHDbtjkAAA", "cAmgADAAGAAE"),
];

/// gnubg's proper cube action for each position, as our `genmove_cube` words: the doubler's
/// (`double`/`no_double`) and the taker's (`take`/`drop`).
fn gnubg_actions() -> Vec<(String, String)> {
    let mut script = String::from(
        "set display off\nset player 0 human\nset player 1 human\n\
         set evaluation cubedecision evaluation plies 2\nnew session\n",
    );
    for (_, position, match_id) in POSITIONS {
        script.push_str(&format!(
            "set matchid {match_id}\nset board {position}\nhint\n"
        ));
    }
    let output = gnubg(&script);
    let actions: Vec<(String, String)> = output
        .lines()
        .filter_map(|line| line.strip_prefix("Proper cube action: "))
        .map(|action| {
            let doubles = ["Double", "Redouble", "Optional"]
                .iter()
                .any(|word| action.starts_with(word));
            let passes = action.ends_with("pass") || action.contains("pass (");
            let double = if doubles { "double" } else { "no_double" };
            let take = if passes { "drop" } else { "take" };
            (double.to_owned(), take.to_owned())
        })
        .collect();
    assert_eq!(actions.len(), POSITIONS.len(), "gnubg's output:\n{output}");
    actions
}

/// Our engine's answers at its default level: `genmove_cube` before rolling, and after a
/// `double`.
fn our_actions() -> Vec<(String, String)> {
    let mut engine = TavlaEngine::new(Settings {
        seed: 1,
        level: Level::default(),
        match_length: 0,
        crawford: true,
    });
    let mut input = String::new();
    for (_, position, match_id) in POSITIONS {
        let set = format!("set_position {position}:{match_id}\n");
        input.push_str(&format!("{set}genmove_cube\n{set}double\ngenmove_cube\n"));
    }
    let mut output = Vec::new();
    serve(&mut engine, Cursor::new(input.into_bytes()), &mut output).expect("serve");
    let text = String::from_utf8(output).expect("utf-8 output");
    let answers: Vec<String> = text
        .split("\n\n")
        .filter_map(|answer| answer.strip_prefix("= "))
        .filter(|answer| !answer.is_empty())
        .map(str::to_owned)
        .collect();
    assert_eq!(answers.len(), 2 * POSITIONS.len(), "{text}");
    answers
        .chunks(2)
        .map(|pair| (pair[0].clone(), pair[1].clone()))
        .collect()
}

#[test]
fn cube_actions_agree_with_gnubg_on_clear_positions() {
    let judged: Vec<(&str, (String, String))> = POSITIONS
        .iter()
        .map(|(name, _, _)| *name)
        .zip(gnubg_actions())
        .collect();
    let ours: Vec<(&str, (String, String))> = POSITIONS
        .iter()
        .map(|(name, _, _)| *name)
        .zip(our_actions())
        .collect();
    assert_eq!(ours, judged);
}
