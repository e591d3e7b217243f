//! Tavla records read back: matches refereed by `TavlaReferee` (random legal plays, random
//! cube actions), written with `Referee::record`, replay through `replay_record` to the
//! same position, score, decisions and result; tampered records are refused naming their
//! line; and the records `hamle match` writes replay to the results it reports.

use std::path::PathBuf;
use std::process::Command;

use hamle::contract::{Referee, Seat};
use hamle::tavla::notation::format_play;
use hamle::tavla::referee::{TavlaMatchRules, TavlaReferee, replay_record};
use hamle::tavla::{Action, Game, Phase};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Drives `referee` as the arena would, with random legal answers, for at most `decisions`
/// answers or to the match's end.
fn drive(referee: &mut TavlaReferee, rng: &mut ChaCha8Rng, decisions: usize) {
    for _ in 0..decisions {
        referee.interlude();
        if referee.natural_end().is_some() {
            return;
        }
        let seat = referee.seat_to_move();
        let answer = match referee.game().phase() {
            Phase::ToRoll(_) if rng.random_bool(0.1) => "double".to_owned(),
            Phase::ToRoll(_) => "no_double".to_owned(),
            Phase::Doubled { .. } if rng.random_bool(0.7) => "take".to_owned(),
            Phase::Doubled { .. } => "drop".to_owned(),
            _ => {
                let (side, dice, legal) = referee.game().legal().expect("to play");
                let pick = legal[rng.random_range(0..legal.len())].play;
                format!(
                    "{dice} {}",
                    format_play(referee.game().board(), side, &pick)
                )
            }
        };
        referee.apply(seat, &answer).expect("a legal answer");
    }
}

/// The actions with each roll's dice high first, as the record writes them.
fn high_first(game: &Game) -> Vec<Action> {
    let order =
        |dice: hamle::tavla::Dice| hamle::tavla::Dice::new(dice.high(), dice.low()).expect("dice");
    game.actions()
        .iter()
        .map(|action| match *action {
            Action::Roll { side, dice } => Action::Roll {
                side,
                dice: order(dice),
            },
            Action::Play { side, dice, play } => Action::Play {
                side,
                dice: order(dice),
                play,
            },
            other => other,
        })
        .collect()
}

fn assert_same(original: &TavlaReferee, replayed: &TavlaReferee) {
    assert_eq!(replayed.game().state(), original.game().state());
    assert_eq!(high_first(replayed.game()), high_first(original.game()));
    assert_eq!(replayed.moves_played(), original.moves_played());
    assert_eq!(replayed.natural_end(), original.natural_end());
}

#[test]
fn refereed_matches_replay_to_the_same_game() {
    let mut doubles = 0;
    let mut drops = 0;
    for seed in 0..24u64 {
        let rules = TavlaMatchRules {
            points: [0, 1, 3, 5][seed as usize % 4],
            cube: seed % 5 != 4,
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut original = TavlaReferee::new(rules, seed);
        drive(&mut original, &mut rng, 100_000);
        let end = original.natural_end().expect("the match ends");
        let (record, _) = original.record(Some(&end.result), ["white bot", "black"], "test");
        let replayed = replay_record(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
        assert_same(&original, &replayed.referee);
        assert_eq!(replayed.result, end.result);
        for action in original.game().actions() {
            doubles += usize::from(matches!(action, Action::Double { .. }));
            drops += usize::from(matches!(action, Action::Drop { .. }));
        }
    }
    assert!(
        doubles > 10 && drops > 3,
        "{doubles} doubles, {drops} drops"
    );
}

#[test]
fn an_unfinished_match_replays_to_where_it_stopped() {
    for (seed, decisions) in [(1u64, 7), (2, 40), (3, 133), (4, 1)] {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut original = TavlaReferee::new(TavlaMatchRules::default(), seed);
        drive(&mut original, &mut rng, decisions);
        let loss = original.loss_of(Seat::First, hamle::contract::LossKind::Forfeit);
        let (record, _) = original.record(Some(&loss.result), ["a", "b"], "forfeit");
        let replayed = replay_record(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
        assert_same(&original, &replayed.referee);
        assert_eq!(replayed.result, "B+F");
        // An unfinished match has no natural result to claim.
        let claimed = record.replace("[Result \"B+F\"]", "[Result \"3-0\"]");
        let refusal = replay_record(&claimed).expect_err("not the score");
        assert!(refusal.contains("tag Result"), "{refusal}");
    }
}

/// The first line of the record's moves and that line with its first play made illegal.
fn tamper(record: &str) -> (usize, String) {
    let (index, line) = record
        .lines()
        .enumerate()
        .find(|(_, line)| line.starts_with("  1) "))
        .expect("a first move line");
    let words: Vec<&str> = line.split_whitespace().collect();
    // The opening play: its roll, then its steps up to the next roll or the end.
    let steps = words[2..]
        .iter()
        .take_while(|w| !w.ends_with(':'))
        .copied()
        .collect::<Vec<_>>()
        .join(" ");
    let play = format!("{} {steps}", words[1]);
    // One checker moved 1 twice: never a play of an opening roll, whose dice differ.
    let tampered_line = line.replacen(&play, &format!("{} 24/23 24/23", words[1]), 1);
    let mut lines: Vec<&str> = record.lines().collect();
    lines[index] = &tampered_line;
    (index + 1, lines.join("\n"))
}

#[test]
fn tampered_records_are_refused_naming_the_line() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut original = TavlaReferee::new(TavlaMatchRules::default(), 5);
    drive(&mut original, &mut rng, 100_000);
    let end = original.natural_end().expect("the match ends");
    let (record, _) = original.record(Some(&end.result), ["a", "b"], "test");
    let (line, tampered) = tamper(&record);
    let refusal = replay_record(&tampered).expect_err("an illegal play");
    assert!(
        refusal.starts_with(&format!("line {line}: ")) && refusal.contains("24/23 24/23"),
        "{refusal}"
    );
    let wrong_result = record.replace(&format!("[Result \"{}\"]", end.result), "[Result \"0-5\"]");
    assert!(replay_record(&wrong_result).is_err());
    let no_hit_marks = record.replace('*', "");
    if no_hit_marks != record {
        let refusal = replay_record(&no_hit_marks).expect_err("hits unmarked");
        assert!(refusal.contains("hit(s) marked"), "{refusal}");
    }
    for garbage in [
        "",
        "; [Cube \"On\"]\n 3 point match\n Game 1\n",
        "\u{a0}\u{a0}",
    ] {
        assert!(replay_record(garbage).is_err());
    }
}

/// `hamle match` with the repository's Tavla bots: each game's record replays to the result
/// and the move count that `results.tsv` reports.
#[test]
fn hamle_match_records_replay() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::temp_dir().join(format!("hamle-tavla-replay-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let output = Command::new(env!("CARGO_BIN_EXE_hamle"))
        .current_dir(&root)
        .args(["match", "hamle-tavla-greedy", "hamle-tavla-pubeval"])
        .args(["--pairs", "1", "--points", "3", "--seed", "3", "--out"])
        .arg(&out)
        .output()
        .expect("run hamle match");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let results = std::fs::read_to_string(out.join("results.tsv")).expect("results.tsv");
    let mut replayed = 0;
    for row in results.lines() {
        let field = |key: &str| {
            row.split('\t')
                .find_map(|f| f.strip_prefix(&format!("{key}=")))
                .expect("a field")
                .to_owned()
        };
        let record =
            std::fs::read_to_string(out.join("games").join(field("record"))).expect("record");
        let replay = replay_record(&record).unwrap_or_else(|e| panic!("{e}\n{record}"));
        assert_eq!(replay.result, field("result"));
        let end = replay.referee.natural_end().expect("the match is over");
        assert_eq!(end.result, field("result"));
        assert_eq!(replay.referee.moves_played().to_string(), field("moves"));
        replayed += 1;
    }
    assert_eq!(replayed, 2);
    let _ = std::fs::remove_dir_all(&out);
}

/// Records cut, with lines dropped, doubled or swapped, or with characters changed, are
/// answered (replayed or refused), never a panic.
#[test]
fn damaged_records_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let mut original = TavlaReferee::new(TavlaMatchRules::default(), 9);
    drive(&mut original, &mut rng, 100_000);
    let end = original.natural_end().expect("the match ends");
    let (record, _) = original.record(Some(&end.result), ["a", "b"], "test");
    assert!(replay_record(&record).is_ok());
    let lines: Vec<&str> = record.lines().collect();
    let mut refused = 0;
    for _ in 0..2000 {
        let mut damaged: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
        let at = rng.random_range(0..damaged.len());
        match rng.random_range(0..4) {
            0 => {
                damaged.remove(at);
            }
            1 => damaged.insert(at, damaged[at].clone()),
            2 => damaged.swap(at, rng.random_range(0..lines.len())),
            _ => {
                let mut chars: Vec<char> = damaged[at].chars().collect();
                if !chars.is_empty() {
                    let i = rng.random_range(0..chars.len());
                    chars[i] =
                        ['9', '0', ' ', '*', '/', ')', '\u{a0}', 'x'][rng.random_range(0..8)];
                }
                damaged[at] = chars.into_iter().collect();
            }
        }
        refused += usize::from(replay_record(&damaged.join("\n")).is_err());
    }
    eprintln!("{refused} of 2000 damaged records refused");
    assert!(refused > 500, "only {refused} damaged records refused");
}
