//! The trained net, pinned: its 0-ply evaluation of a few positions (so that a weights file
//! swapped by mistake, or an input encoding changed without retraining, fails here), and the
//! trainer's determinism by seed on a tiny run, through `hamle tavla train` as a user runs it.

use std::process::Command;

use hamle::tavla::board::Side;
use hamle::tavla::ids::parse_position_id;
use hamle::tavla::net::{Net, Probs};
use pretty_assertions::assert_eq;

use crate::support::files::{Scratch, run_patiently};

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

/// The committed weights, as the build compiles them in.
const COMMITTED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/tavla/weights/net.bin");

/// Positions (gnubg Position IDs, the side on roll as gnubg's player 1) and the committed
/// net's probabilities for the side on roll: win, win gammon, win backgammon, lose gammon,
/// lose backgammon. gnubg-nn 0-ply's, for a sense of scale only, are in the comments.
// The start's win probability happens to read as π/6 to four places; it is a measurement.
#[allow(clippy::approx_constant)]
const PINNED: [(&str, &str, Probs); 5] = [
    // gnubg 0.521 0.154 0.008 0.130 0.007
    (
        "the start",
        "4HPwATDgc/ABMA",
        [0.5236, 0.1451, 0.0053, 0.1229, 0.0044],
    ),
    // A middle game: our 5, 6, 7 and 8 points made, two back; theirs a blot on the 11.
    // gnubg 0.596 0.207 0.014 0.116 0.006
    (
        "contact",
        "sGfkATCwt8EBMA",
        [0.5965, 0.1915, 0.0085, 0.1112, 0.0049],
    ),
    // Contact broken, 8 pips behind on roll, not yet a bear-off. Races are the race net's:
    // the main net's last trainings (stages 4 to 9, fitted to contact positions only) left its own
    // judgement of them far off, which pins it all the same.
    // gnubg 0.439 0.002 0.000 0.004 0.000
    (
        "race",
        "4OPzAQDgOecDAA",
        [0.8935, 0.0058, 0.0000, 0.0001, 0.0000],
    ),
    // Their bear-in against our anchor on their 5-point, our other 13 checkers far back.
    // gnubg 0.113 0.009 0.000 0.517 0.000
    (
        "bear-in",
        "dzdjAADgc/ABAw",
        [0.0693, 0.0048, 0.0003, 0.5058, 0.0003],
    ),
    // On the bar against a closed board.
    // gnubg 0.026 0.000 0.000 0.915 0.006
    (
        "on the bar",
        "t20zAADgc/BBQA",
        [0.0135, 0.0007, 0.0001, 0.9401, 0.0026],
    ),
];

/// Far below any difference a retrained or swapped net makes (they differ in the second
/// decimal), far above the last-bit differences of another libm's `exp`.
const TOLERANCE: f32 = 1e-4;

/// The probabilities as a table of `name: [win, …]` rows, four decimals.
fn table(rows: impl Iterator<Item = (&'static str, Probs)>) -> Vec<(&'static str, [String; 5])> {
    rows.map(|(name, probs)| (name, probs.map(|p| format!("{p:.4}"))))
        .collect()
}

#[test]
fn the_committed_net_evaluates_the_pinned_positions_as_when_it_was_trained() {
    let net = Net::builtin();
    let actual: Vec<(&str, Probs)> = PINNED
        .iter()
        .map(|&(name, id, _)| {
            let board = parse_position_id(id, Side::Black).expect("a pinned Position ID");
            (name, net.evaluate(&board, Side::Black))
        })
        .collect();
    let off = actual
        .iter()
        .zip(&PINNED)
        .any(|((_, probs), (_, _, expected))| {
            probs
                .iter()
                .zip(expected)
                .any(|(p, e)| (p - e).abs() > TOLERANCE)
        });
    if off {
        // The whole table shows which positions moved and by how much (a difference over
        // the tolerance shows in the fourth decimal).
        let wanted = table(PINNED.iter().map(|&(name, _, probs)| (name, probs)));
        assert_eq!(
            table(actual.into_iter()),
            wanted,
            "the net's evaluations moved"
        );
        panic!("the net's evaluations moved by more than {TOLERANCE}");
    }
}

#[test]
fn the_committed_file_is_the_one_compiled_in() {
    let bytes = std::fs::read(COMMITTED).expect("the committed weights");
    assert_eq!(&Net::from_bytes(&bytes).expect("they load"), Net::builtin());
}

/// `hamle tavla train ARGS… --out FILE` in `scratch`: the file's bytes.
fn trained(scratch: &Scratch, name: &str, args: &[&str]) -> Vec<u8> {
    let out = scratch.0.join(name);
    let output = run_patiently(
        Command::new(HAMLE)
            .args(["tavla", "train", "--checkpoint", "0", "--out"])
            .arg(&out)
            .args(args),
        "",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    std::fs::read(&out).expect("train wrote the weights")
}

#[test]
fn training_is_deterministic_by_seed() {
    let scratch = Scratch::new("tavla-net", "train");
    let first = trained(&scratch, "a.bin", &["--games", "3", "--seed", "5"]);
    let again = trained(&scratch, "b.bin", &["--games", "3", "--seed", "5"]);
    let other = trained(&scratch, "c.bin", &["--games", "3", "--seed", "6"]);
    assert!(first == again, "the same seed gave different weights");
    assert!(first != other, "seeds 5 and 6 gave the same weights");
    assert!(Net::from_bytes(&first).is_ok());
    // Continuing the committed net for no games writes it back byte for byte, and a few
    // games from it are as deterministic as from random weights.
    let kept = trained(&scratch, "d.bin", &["--games", "0", "--start", COMMITTED]);
    assert!(kept == Net::builtin().to_bytes(), "--start changed the net");
    let continued = ["--games", "2", "--seed", "9", "--start", COMMITTED];
    let once = trained(&scratch, "e.bin", &continued);
    assert!(once == trained(&scratch, "f.bin", &continued));
    assert!(once != kept, "two games of training changed nothing");
}

#[test]
fn every_trainer_names_the_weights_file_it_cannot_write() {
    let scratch = Scratch::new("tavla-net", "unwritable");
    let out = scratch.0.join("no-such-folder").join("w.bin");
    let rounds = "--generations 1 --epochs 1 --games 1";
    let trainers: [Vec<&str>; 3] = [
        vec!["--games", "0", "--start", COMMITTED],
        ["--race"].into_iter().chain(rounds.split(' ')).collect(),
        ["--contact"].into_iter().chain(rounds.split(' ')).collect(),
    ];
    for args in trainers {
        let output = run_patiently(
            Command::new(HAMLE)
                .args(["tavla", "train", "--out"])
                .arg(&out)
                .args(&args),
            "",
        );
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        let named = format!("{}: cannot write", out.display());
        assert!(stderr.contains(&named), "{args:?}: {stderr}");
    }
}
