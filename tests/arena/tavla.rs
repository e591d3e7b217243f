//! `hamle match` for Tavla: short N-point matches between our engines (and against gnubg
//! through `hamle tavla --gnubg`; without gnubg that test fails saying how to install it). Every game finishes, results add
//! up, the two games of a pair roll the same dice (read back from the `.mat` records), the
//! same seed gives the same games, illegal answers and crashes cost the game, and gnubg
//! imports our records with the same score.

use std::path::{Path, PathBuf};

use hamle::arena::store::Winner;

use crate::support;
use crate::support::arena::{
    hamle_match, ok, record, resumes_as_is, scratch, sorted_results, untimed_record,
};
use crate::support::peers::{gnubg, require_gnubg};

/// A Tavla bot run as `command`.
fn bot(dir: &Path, name: &str, command: &[&str]) {
    support::arena::bot(dir, name, "tavla", command);
}

/// A Tavla bot wrapped in the broken-engine fixture.
fn broken(dir: &Path, name: &str, mode: &str, k: u32) {
    support::arena::broken(dir, name, "tavla", mode, k, &["tavla"]);
}

fn dice_by_game(record: &str) -> Vec<Vec<String>> {
    let mut games: Vec<Vec<String>> = Vec::new();
    for line in record.lines() {
        if line.trim_start().starts_with("Game ") {
            games.push(Vec::new());
            continue;
        }
        if line.starts_with(';') {
            continue;
        }
        if let Some(game) = games.last_mut() {
            for word in line.split_whitespace() {
                let bytes = word.as_bytes();
                if bytes.len() == 3
                    && bytes[2] == b':'
                    && bytes[..2].iter().all(|b| (b'1'..=b'6').contains(b))
                {
                    game.push(word[..2].to_owned());
                }
            }
        }
    }
    games
}

/// `a-b` → (a, b).
fn points(result: &str) -> (u32, u32) {
    let (a, b) = result.split_once('-').expect("a match score");
    (a.parse().expect("points"), b.parse().expect("points"))
}

#[test]
fn tavla_matches_finish_share_dice_in_pairs_and_repeat() {
    let dir = scratch("tavla", "pairs");
    // Two different players (the net at 0 ply against greedy), so the games of a pair part
    // ways while their dice stay the same.
    bot(&dir, "net-a", &["hamle", "tavla", "--level", "net"]);
    bot(&dir, "greedy-b", &["hamle", "tavla", "--level", "greedy"]);
    let out = dir.join("out");
    let out_text = out.display().to_string();
    let started = std::time::Instant::now();
    let args = [
        "net-a", "greedy-b", "--pairs", "3", "--points", "3", "--seed", "9", "--out",
    ];
    let output = hamle_match(&dir, &[&args[..], &[out_text.as_str()]].concat());
    ok(&output);
    resumes_as_is(&dir, &[&args[..], &[out_text.as_str()]].concat());
    eprintln!(
        "6 Tavla 3-point matches in {:.2} s",
        started.elapsed().as_secs_f64()
    );
    let results = sorted_results(&out);
    assert_eq!(results.len(), 6);
    let mut wins = [0, 0];
    for result in &results {
        let (white, black) = points(&result.result);
        assert_eq!(result.reason, "score", "{result:?}");
        match result.winner {
            Winner::First => assert!(white >= 3 && black < 3, "{result:?}"),
            Winner::Second => assert!(black >= 3 && white < 3, "{result:?}"),
            _ => panic!("a match has a winner: {result:?}"),
        }
        let name = result.winner_name().expect("winner");
        wins[usize::from(name == "greedy-b")] += 1;
        let text = record(&out, result);
        assert!(result.record.ends_with(".mat"), "{result:?}");
        assert!(text.contains(" 3 point match"), "{text}");
        assert!(
            text.contains(&format!("; [Result \"{}\"]", result.result)),
            "{text}"
        );
        assert!(text.contains("seed"), "{text}");
    }
    assert_eq!(wins[0] + wins[1], 6);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("net-a"), "{stdout}");
    // The two games of a pair: the same dice in each game of their matches (one game may
    // end sooner: then its dice are the start of the other's).
    for pair in results.chunks(2) {
        let (even, odd) = (
            dice_by_game(&record(&out, &pair[0])),
            dice_by_game(&record(&out, &pair[1])),
        );
        assert!(!even.is_empty() && !odd.is_empty());
        for (a, b) in even.iter().zip(&odd) {
            let n = a.len().min(b.len());
            assert!(n > 0);
            assert_eq!(a[..n], b[..n], "pair {:?}", pair[0].game / 2);
        }
    }
    // Same seed, same games.
    let again = dir.join("again");
    let again_text = again.display().to_string();
    ok(&hamle_match(
        &dir,
        &[&args[..], &[again_text.as_str()]].concat(),
    ));
    let repeated = sorted_results(&again);
    for (a, b) in results.iter().zip(&repeated) {
        assert_eq!(
            (&a.result, &a.winner, a.moves, a.seed),
            (&b.result, &b.winner, b.moves, b.seed)
        );
        // Each decision's time (`MoveTimes`) is the machine's.
        assert_eq!(
            untimed_record(&record(&out, a)),
            untimed_record(&record(&again, b))
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn cubeless_money_games_and_bad_answers() {
    let dir = scratch("tavla", "bad");
    bot(&dir, "greedy", &["hamle", "tavla", "--level", "greedy"]);
    bot(&dir, "greedy-2", &["hamle", "tavla"]);
    broken(&dir, "illegal", "illegal", 3);
    broken(&dir, "cube-garble", "cube-garble", 2);
    broken(&dir, "crash", "crash", 2);
    // Cubeless money games: `W+n`/`B+n`.
    let out = dir.join("money");
    let out_text = out.display().to_string();
    let money_args = [
        "greedy",
        "illegal",
        "--pairs",
        "1",
        "--points",
        "0",
        "--cubeless",
        "--seed",
        "3",
        "--out",
        &out_text,
    ];
    ok(&hamle_match(&dir, &money_args));
    resumes_as_is(&dir, &money_args);
    let results = sorted_results(&out);
    assert_eq!(results.len(), 2);
    for result in &results {
        // The illegal bot's third play is `Z25`: it loses.
        assert_eq!(result.winner_name(), Some("greedy"), "{result:?}");
        assert!(
            result.reason.starts_with("illegal move by illegal"),
            "{result:?}"
        );
        assert!(result.result.ends_with("+F"), "{result:?}");
    }
    let money = dir.join("money-fine");
    let money_text = money.display().to_string();
    let fine_args = [
        "greedy",
        "greedy-2",
        "--pairs",
        "1",
        "--points",
        "0",
        "--cubeless",
        "--seed",
        "3",
        "--out",
        &money_text,
    ];
    ok(&hamle_match(&dir, &fine_args));
    resumes_as_is(&dir, &fine_args);
    for result in sorted_results(&money) {
        let (side, points) = result.result.split_once('+').expect("W+n");
        assert!(side == "W" || side == "B", "{result:?}");
        assert!(
            (1..=3).contains(&points.parse::<u32>().expect("points")),
            "{result:?}"
        );
        assert!(!record(&money, &result).contains("Doubles"));
    }
    // A cube answer the arena does not know, and a crash: the bot loses its match game.
    for (name, reason) in [
        (
            "cube-garble",
            "illegal move by cube-garble: illegal move 'beaver'",
        ),
        ("crash", "crash of crash"),
    ] {
        let out = dir.join(name);
        let out_text = out.display().to_string();
        let args = [
            "greedy", name, "--pairs", "1", "--points", "3", "--seed", "5", "--out", &out_text,
        ];
        ok(&hamle_match(&dir, &args));
        resumes_as_is(&dir, &args);
        for result in sorted_results(&out) {
            assert_eq!(result.winner_name(), Some("greedy"), "{result:?}");
            assert!(result.reason.starts_with(reason), "{result:?}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn gnubg_plays_through_the_adapter_and_imports_the_records() {
    require_gnubg();
    let dir = scratch("tavla", "gnubg");
    // The net level reports its equity (`genmove_analyze`): the `.mat`'s judgement lines too
    // must import in gnubg.
    bot(&dir, "net", &["hamle", "tavla", "--level", "net"]);
    let gnubg_bot = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots/gnubg-0ply.toml");
    std::fs::copy(&gnubg_bot, dir.join("bots/gnubg-0ply.toml")).expect("copy the gnubg bot");
    let out = dir.join("out");
    let started = std::time::Instant::now();
    let output = hamle_match(
        &dir,
        &[
            "net",
            "gnubg-0ply",
            "--record-judgement",
            "--pairs",
            "1",
            "--points",
            "3",
            "--seed",
            "4",
            "--out",
            &out.display().to_string(),
        ],
    );
    ok(&output);
    eprintln!(
        "net vs gnubg-0ply, 2 matches to 3 in {:.1} s:\n{}",
        started.elapsed().as_secs_f64(),
        String::from_utf8_lossy(&output.stdout)
    );
    let results = sorted_results(&out);
    assert_eq!(results.len(), 2);
    for result in &results {
        assert_eq!(result.reason, "score", "{result:?}");
        let (white, black) = points(&result.result);
        assert!(white.max(black) >= 3, "{result:?}");
        // gnubg reads the record back to the same score, its `; [MoveTimes …]` lines
        // (each decision's time) taken as comments.
        let path = out.join("games").join(&result.record);
        let text = record(&out, result);
        assert!(text.contains("; [MoveTimes \""), "{result:?}");
        assert!(text.contains("; [MoveJudgements \"eq:"), "{text}");
        let read = gnubg(&format!("import mat {}\nshow score\n", path.display()));
        let expected = format!(
            "is: {} {white}, {} {black} (match to 3 points",
            result.first, result.second
        );
        assert!(
            read.contains(&expected),
            "expected '{expected}' in:\n{read}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
