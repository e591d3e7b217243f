//! `hamle match --expect DIR`: a golden match replayed and compared game by game. The
//! same bots replay it unchanged (exit 0, DIR untouched); a bot file whose budget changed
//! changes play (exit 1, each departing game named with its first different move); a
//! folder that holds no finished match, or options that would overrule DIR's, are refused
//! in one line (exit 2); games one side has and the other not are named. Bots: hamle's
//! Mangala engine at a few thousand nodes (instant, deterministic at a node budget).

use std::path::Path;
use std::process::Output;

use pretty_assertions::assert_eq;

use crate::support::arena::{bot, folder_files, hamle_match, mangala_engine, ok, scratch};

/// Writes the bots `a` (at `nodes_a`) and `b` (at 2,000 nodes) into DIR's `bots/`.
fn bots(dir: &Path, nodes_a: &'static str) {
    bot(dir, "a", "mangala", &mangala_engine(nodes_a));
    bot(dir, "b", "mangala", &mangala_engine("2000"));
}

/// Plays the golden match `a` against `b` into `dir/golden` with `extra`.
fn golden(dir: &Path, extra: &[&str]) -> std::path::PathBuf {
    let out = dir.join("golden");
    let out_text = out.to_str().expect("a UTF-8 path");
    ok(&hamle_match(
        dir,
        &[&["a", "b", "--out", out_text, "--quiet"], extra].concat(),
    ));
    out
}

fn expect(dir: &Path, golden: &Path, extra: &[&str]) -> Output {
    let golden = golden.to_str().expect("a UTF-8 path");
    hamle_match(dir, &[&["--expect", golden, "--quiet"], extra].concat())
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn the_same_bots_replay_a_golden_match_unchanged_and_leave_it_untouched() {
    let dir = scratch("expect", "same");
    bots(&dir, "2000");
    let golden = golden(&dir, &["--pairs", "2"]);
    let before = folder_files(&golden);
    let replay = dir.join("replay");
    let output = expect(
        &dir,
        &golden,
        &[
            "--out",
            replay.to_str().expect("UTF-8"),
            "--concurrency",
            "2",
        ],
    );
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        stdout(&output),
        stderr(&output)
    );
    let said = stdout(&output);
    assert!(
        said.contains("expect: nothing changed: 4 games as in"),
        "{said}"
    );
    assert!(said.contains("DIR played by hamle 0."), "{said}");
    assert_eq!(folder_files(&golden), before, "DIR is only read");
    // The replay is a match of its own, with DIR's settings but the scratch folder.
    let settings = |d: &Path| std::fs::read_to_string(d.join("match.txt")).expect("match.txt");
    assert_eq!(settings(&replay), settings(&golden));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_changed_budget_changes_play_and_names_each_games_first_departure() {
    let dir = scratch("expect", "changed");
    bots(&dir, "2000");
    let golden = golden(&dir, &["--pairs", "2"]);
    // The bot author's change: a's bot file now searches 3,000 nodes a move.
    bots(&dir, "3000");
    let replay = dir.join("replay");
    let output = expect(&dir, &golden, &["--out", replay.to_str().expect("UTF-8")]);
    let said = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{said}{}", stderr(&output));
    let departure = regex::Regex::new(
        r"(?m)^game (\d) \(games/000\d\.txt\): departs at move (\d+): expected (\S+) \((South|North), set \d\), played (\S+) \((South|North), set \d\)$",
    )
    .expect("regex");
    let departed: Vec<_> = departure.captures_iter(&said).collect();
    assert!(!departed.is_empty(), "{said}");
    for found in &departed {
        assert_ne!(found[3], found[5], "the moves differ: {said}");
    }
    assert!(
        said.contains(&format!(
            "expect: play changed: {} of 4 games depart from {} ({}); the replay is in {}",
            departed.len(),
            golden.display(),
            departed
                .iter()
                .map(|found| format!("game {}", &found[1]))
                .collect::<Vec<_>>()
                .join(", "),
            replay.display()
        )),
        "{said}"
    );
    // The bot's command changed since DIR: said, not taken for an error.
    assert!(
        stderr(&output).contains("note: a is now"),
        "{}",
        stderr(&output)
    );
    // Bots given on the command line must carry DIR's names.
    let renamed = expect(&dir, &golden, &["c=a", "b"]);
    assert_eq!(renamed.status.code(), Some(2));
    assert!(
        stderr(&renamed).contains("played by a and b"),
        "{}",
        stderr(&renamed)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A refusal: exit 2, one line on stderr holding `words`.
fn refused(output: &Output, words: &str) {
    let stderr = stderr(output);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(words), "'{words}' in: {stderr}");
}

#[test]
fn a_folder_without_a_finished_match_or_overruling_options_is_refused() {
    let dir = scratch("expect", "refused");
    bots(&dir, "2000");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    refused(
        &expect(&dir, &empty, &[]),
        "is not a match folder (match.txt is missing)",
    );
    refused(&expect(&dir, &dir.join("nowhere"), &[]), "is not a folder");
    let golden = golden(&dir, &["--pairs", "2"]);
    refused(
        &expect(&dir, &golden, &["--seed", "3"]),
        "leave out the options that decide games",
    );
    // An unfinished match: its last game's line lost.
    let results = golden.join("results.tsv");
    let text = std::fs::read_to_string(&results).expect("results");
    let cut: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, cut).expect("write");
    refused(
        &expect(&dir, &golden, &[]),
        "holds 3 of its 4 games: finish it",
    );
    // A torn last line is refused, not cut off: DIR is only read.
    let torn = text.trim_end_matches('\n');
    std::fs::write(&results, torn).expect("write");
    refused(&expect(&dir, &golden, &[]), "ends in a torn line");
    assert_eq!(std::fs::read_to_string(&results).expect("results"), torn);
    // A setting this hamle cannot play is named, not ignored.
    std::fs::write(&results, &text).expect("restore");
    let settings = golden.join("match.txt");
    let original = std::fs::read_to_string(&settings).expect("match.txt");
    std::fs::write(&settings, original.replace("stones = 4", "stones = 4x")).expect("write");
    refused(
        &expect(&dir, &golden, &[]),
        "stones = '4x': no option of this hamle plays it",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn games_only_one_side_has_are_named() {
    let dir = scratch("expect", "count");
    bots(&dir, "2000");
    // Equal bots split their pairs: the SPRT accepts H0 after 2 pairs of the 6 allowed.
    let golden = golden(&dir, &["--pairs", "6", "--sprt", "elo0=0,elo1=400"]);
    assert_eq!(
        std::fs::read_to_string(golden.join("results.tsv"))
            .expect("results")
            .lines()
            .count(),
        4
    );
    // A much stronger a wins its pairs: the replay's SPRT needs more of them.
    bots(&dir, "20000");
    let replay = dir.join("replay");
    let output = expect(&dir, &golden, &["--out", replay.to_str().expect("UTF-8")]);
    let said = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{said}{}", stderr(&output));
    assert!(
        said.contains(
            "game 5: played now, not in DIR (the replay went on: the SPRT decided at another pair)"
        ),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--opening-plies` drew its moves from the engines' `gogui-rules_legal_moves` until our
/// rules listed them instead: matches saved by the old arena (tests/data/golden-openings,
/// played by hamle 0.1.0+59d8886f with openings of 3 or 4 random plies) replay move for
/// move, so the rules list the moves in the engines' order and the seeded draw is the same.
#[test]
fn random_openings_drawn_by_our_rules_replay_matches_opened_from_the_engines_lists() {
    let saved = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/golden-openings");
    let bots_of = [
        (
            "mangala",
            ["ma", "mb"],
            [["--nodes", "2000"], ["--nodes", "3000"]],
        ),
        (
            "kulami",
            ["ka", "kb"],
            [["--nodes", "300"], ["--nodes", "500"]],
        ),
        (
            "abalone",
            ["aa", "ab"],
            [["--nodes", "300"], ["--nodes", "500"]],
        ),
    ];
    for (game, names, budgets) in bots_of {
        let dir = scratch("expect", &format!("openings-{game}"));
        for (name, budget) in names.iter().zip(budgets) {
            let mut command = vec!["hamle", game];
            command.extend(budget);
            if game == "mangala" {
                command.extend(["--table-bits", "12", "--db-stones", "0"]);
            }
            bot(&dir, name, game, &command);
        }
        let output = expect(&dir, &saved.join(game), &[]);
        assert_eq!(
            output.status.code(),
            Some(0),
            "{game}: {}{}",
            stdout(&output),
            stderr(&output)
        );
        assert!(
            stdout(&output).contains("expect: nothing changed: 4 games as in"),
            "{}",
            stdout(&output)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
