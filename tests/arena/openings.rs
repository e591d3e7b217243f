//! Opening suites (`--openings`): each pair starts from its opening in both games, an
//! illegal opening is refused naming FILE:LINE before anything is written, the suite is
//! kept in match.txt and `--resume` refuses another, and each game's format is read.

use std::path::Path;

use pretty_assertions::assert_eq;

use crate::support::arena::{
    bot, hamle_match, mangala_engine, ok, record, resumes_as_is, scratch, sorted_results,
    untimed_record,
};

/// Set 1's moves of a Mangala record, as pit numbers (the side letters dropped).
fn first_set_pits(record: &str) -> Vec<String> {
    let after = record
        .split("Set 1: ")
        .nth(1)
        .and_then(|rest| rest.lines().nth(1))
        .expect("set 1's moves");
    after
        .split_whitespace()
        .map(|mv| mv.trim_start_matches(['S', 'N']).to_owned())
        .collect()
}

/// An opening told to the engines must leave them in the referee's position: no game may
/// end by an engine's error or an illegal move.
fn assert_played_out(results: &[hamle::arena::store::GameResult]) {
    for result in results {
        assert!(
            !result.reason.contains("error") && !result.reason.contains("illegal"),
            "game {}: {}",
            result.game + 1,
            result.reason
        );
    }
}

/// A match of `bots` with `suite` is refused before anything is written: exit 2 and one
/// line on stderr that says `why`.
fn assert_suite_refused(dir: &Path, bots: [&str; 2], suite: &Path, why: &str) {
    let out = dir.join("refused");
    let output = hamle_match(
        dir,
        &[
            bots[0],
            bots[1],
            "--openings",
            suite.to_str().expect("path"),
            "--out",
            out.to_str().expect("path"),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(why), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!out.exists(), "nothing written");
}

fn mangala_match(dir: &std::path::Path) {
    bot(dir, "m1", "mangala", &mangala_engine("300"));
    bot(dir, "m2", "mangala", &mangala_engine("600"));
}

#[test]
fn openings_are_applied_to_both_games_of_a_pair() {
    let dir = scratch("openings", "pairs");
    mangala_match(&dir);
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, "# two openings\n3 6\n\n1 2 4\n").expect("suite");
    let out = dir.join("m");
    let args = [
        "m1",
        "m2",
        "--pairs",
        "3",
        "--sets",
        "1",
        "--openings",
        suite.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
    ];
    ok(&hamle_match(&dir, &args));
    let results = sorted_results(&out);
    assert_eq!(results.len(), 6);
    assert_played_out(&results);
    let wanted = [["3", "6"].as_slice(), &["1", "2", "4"], &["3", "6"]];
    for result in &results {
        let text = record(&out, result);
        let opening = wanted[result.game / 2];
        assert_eq!(&first_set_pits(&text)[..opening.len()], opening, "{text}");
        let line = if result.game / 2 == 1 { 4 } else { 2 };
        assert!(
            text.contains(&format!(
                "of suite.txt (line {line}, --openings-order sequential)"
            )),
            "{text}"
        );
    }
    let settings = std::fs::read_to_string(out.join("match.txt")).expect("match.txt");
    assert!(settings.contains("openings = suite.txt\n"), "{settings}");
    assert!(settings.contains("opening.2 = 4: 1 2 4\n"), "{settings}");
    resumes_as_is(&dir, &args);
    // Another suite: refused on --resume, naming the opening that differs.
    std::fs::write(&suite, "3 6\n1 2 5\n").expect("suite");
    let output = hamle_match(&dir, &[args.as_slice(), &["--resume"]].concat());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "{stderr}");
    assert!(
        stderr.contains("opening.2 was '4: 1 2 4', now '2: 1 2 5'"),
        "{stderr}"
    );
}

#[test]
fn an_illegal_opening_is_refused_naming_its_line_and_nothing_is_written() {
    let dir = scratch("openings", "illegal");
    mangala_match(&dir);
    let suite = dir.join("bad.txt");
    std::fs::write(&suite, "3 6\n# fine so far\n2 9\n").expect("suite");
    assert_suite_refused(
        &dir,
        ["m1", "m2"],
        &suite,
        "bad.txt:3: move 2: illegal move '9'",
    );
    // A FIFO or a folder is no suite.
    assert_suite_refused(&dir, ["m1", "m2"], &dir, "not a regular file");
}

#[test]
fn the_random_order_is_drawn_from_the_seed() {
    let dir = scratch("openings", "random");
    mangala_match(&dir);
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, "1\n2\n3\n4\n5\n6\n").expect("suite");
    let opening_of = |seed: &str, name: &str| -> Vec<String> {
        let out = dir.join(name);
        ok(&hamle_match(
            &dir,
            &[
                "m1",
                "m2",
                "--pairs",
                "6",
                "--sets",
                "1",
                "--seed",
                seed,
                "--openings-order",
                "random",
                "--openings",
                suite.to_str().expect("path"),
                "--out",
                out.to_str().expect("path"),
            ],
        ));
        sorted_results(&out)
            .iter()
            .step_by(2)
            .map(|result| first_set_pits(&record(&out, result))[0].clone())
            .collect()
    };
    let first = opening_of("3", "a");
    assert_eq!(first, opening_of("3", "b"), "the same seed, the same order");
    let mut sorted = first.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        ["1", "2", "3", "4", "5", "6"],
        "each opening once a round"
    );
    assert_ne!(first, ["1", "2", "3", "4", "5", "6"], "shuffled");
}

#[test]
fn go_reads_move_lists_and_sgf_handicaps() {
    let dir = scratch("openings", "go");
    bot(&dir, "g1", "go", &["hamle", "go", "--playouts", "8"]);
    bot(&dir, "g2", "go", &["hamle", "go", "--playouts", "16"]);
    let suite = dir.join("h.sgf");
    std::fs::write(&suite, "(;FF[4]SZ[9]HA[2]\nAB[cc][gg];W[ee])\n").expect("suite");
    let out = dir.join("m");
    ok(&hamle_match(
        &dir,
        &[
            "g1",
            "g2",
            "--size",
            "9",
            "--max-moves",
            "12",
            "--openings",
            suite.to_str().expect("path"),
            "--out",
            out.to_str().expect("path"),
        ],
    ));
    for result in sorted_results(&out) {
        let sgf = record(&out, &result);
        assert!(sgf.contains("HA[2]") && sgf.contains("AB[cc][gg]"), "{sgf}");
        assert!(sgf.contains(";W[ee]"), "{sgf}");
    }
    let lines = dir.join("l.txt");
    std::fs::write(&lines, "E5 C3\nE5 E5\n").expect("suite");
    assert_suite_refused(
        &dir,
        ["g1", "g2"],
        &lines,
        "l.txt:2: move 2: illegal move 'E5'",
    );
}

#[test]
fn abalone_kulami_and_mangala_play_their_built_in_suites() {
    let dir = scratch("openings", "default");
    bot(
        &dir,
        "a1",
        "abalone",
        &["hamle", "abalone", "--nodes", "50"],
    );
    bot(
        &dir,
        "a2",
        "abalone",
        &["hamle", "abalone", "--nodes", "80"],
    );
    bot(&dir, "k1", "kulami", &["hamle", "kulami", "--nodes", "50"]);
    bot(&dir, "k2", "kulami", &["hamle", "kulami", "--nodes", "80"]);
    mangala_match(&dir);
    let games = [
        (["a1", "a2"], "abalone"),
        (["k1", "k2"], "kulami"),
        (["m1", "m2"], "mangala"),
    ];
    for (bots, game) in games {
        let out = dir.join(game);
        ok(&hamle_match(
            &dir,
            &[
                bots[0],
                bots[1],
                "--max-moves",
                "10",
                "--openings",
                "default",
                "--out",
                out.to_str().expect("path"),
            ],
        ));
        let suite = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("openings/{game}.txt")),
        )
        .expect("suite");
        let first = suite
            .lines()
            .find(|line| !line.starts_with('#'))
            .expect("an opening");
        let moves: Vec<&str> = first
            .split_whitespace()
            .filter(|w| !w.contains('/'))
            .collect();
        let results = sorted_results(&out);
        assert_played_out(&results);
        for result in results {
            let text = record(&out, &result);
            if game == "mangala" {
                assert_eq!(first_set_pits(&text)[..moves.len()], moves, "{text}");
                continue;
            }
            let body = text.split("\n\n").nth(1).expect("moves");
            let played: Vec<&str> = body
                .split_whitespace()
                .filter(|w| !w.ends_with('.'))
                .take(moves.len())
                .collect();
            assert_eq!(played, moves, "{text}");
        }
    }
}

/// The moves of a Tavla record's first game as one line, words parted by one space
/// (`31: 8/5 6/5 64: 24/18 13/9 …`): the move lines without their numbers.
fn tavla_first_game(record: &str) -> String {
    let game = record
        .split(" Game 1\n")
        .nth(1)
        .and_then(|rest| rest.split(" Game 2\n").next())
        .expect("game 1");
    let words: Vec<&str> = game
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(") "))
        .flat_map(|(_, entries)| entries.split_whitespace())
        .collect();
    words.join(" ")
}

/// The dice of a game's rolls, in order (`64` of `64: 24/18 13/9`).
fn tavla_dice(moves: &str) -> Vec<&str> {
    moves
        .split(' ')
        .filter_map(|word| word.strip_suffix(':'))
        .filter(|dice| dice.len() == 2 && dice.bytes().all(|b| (b'1'..=b'6').contains(&b)))
        .collect()
}

fn tavla_match(dir: &std::path::Path) {
    bot(dir, "t1", "tavla", &["hamle", "tavla", "--level", "greedy"]);
    bot(
        dir,
        "t2",
        "tavla",
        &["hamle", "tavla", "--level", "pubeval"],
    );
}

#[test]
fn tavla_openings_start_both_games_of_a_pair_and_the_pair_dice_go_on() {
    let dir = scratch("openings", "tavla");
    tavla_match(&dir);
    let suite = dir.join("t.txt");
    std::fs::write(
        &suite,
        "# two openings\n31: 8/5 6/5; 64: 24/18 13/9\n\n42: 8/4 6/4; 21: 13/11 6/5;\n",
    )
    .expect("suite");
    let out = dir.join("m");
    let args = [
        "t1",
        "t2",
        "--points",
        "0",
        "--pairs",
        "3",
        "--openings",
        suite.to_str().expect("path"),
        "--out",
        out.to_str().expect("path"),
    ];
    ok(&hamle_match(&dir, &args));
    let results = sorted_results(&out);
    assert_eq!(results.len(), 6);
    let wanted = [
        "31: 8/5 6/5 64: 24/18 13/9 ",
        "42: 8/4 6/4 21: 13/11 6/5 ",
        "31: 8/5 6/5 64: 24/18 13/9 ",
    ];
    for pair in results.chunks(2) {
        let games: Vec<String> = pair
            .iter()
            .map(|result| tavla_first_game(&record(&out, result)))
            .collect();
        let opening = wanted[pair[0].game / 2];
        for game in &games {
            assert!(game.starts_with(opening), "{opening} {game}");
        }
        // After the opening both games roll the pair seed's dice, one sequence: the
        // shorter game's dice are the longer one's first.
        let dice = [tavla_dice(&games[0]), tavla_dice(&games[1])];
        let shorter = dice[0].len().min(dice[1].len());
        assert!(shorter > 4, "{dice:?}");
        assert_eq!(dice[0][..shorter], dice[1][..shorter]);
    }
    let text = record(&out, &results[2]);
    assert!(
        text.contains(
            "opening 2 of t.txt (line 4, --openings-order sequential): 42: 8/4 6/4; 21: 13/11 6/5;"
        ),
        "{text}"
    );
    let settings = std::fs::read_to_string(out.join("match.txt")).expect("match.txt");
    assert!(
        settings.contains("opening.1 = 2: 31: 8/5 6/5; 64: 24/18 13/9\n"),
        "{settings}"
    );
    resumes_as_is(&dir, &args);
    // The last game lost: --resume plays it again from its opening, the same game.
    let last = results.last().expect("a game");
    let kept = record(&out, last);
    let lines = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    let cut: Vec<&str> = lines
        .lines()
        .filter(|line| !line.starts_with("game=5\t"))
        .collect();
    std::fs::write(out.join("results.tsv"), cut.join("\n") + "\n").expect("results");
    std::fs::remove_file(out.join("games").join(&last.record)).expect("record");
    ok(&hamle_match(
        &dir,
        &[args.as_slice(), &["--resume"]].concat(),
    ));
    // The same game; each move's time is the machine's.
    assert_eq!(untimed_record(&record(&out, last)), untimed_record(&kept));
}

#[test]
fn an_illegal_tavla_opening_is_refused_naming_its_line_and_the_default_suite_plays() {
    let dir = scratch("openings", "tavla-bad");
    tavla_match(&dir);
    let out = dir.join("m");
    let cases = [
        (
            "31: 8/5 6/5\n# fine so far\n31: 8/5 6/5; 64: 24/18 13/8\n",
            "bad.txt:3: ply 2: '24/18 13/8' is not a legal play of 64 for black",
        ),
        ("33: 8/5(2)\n", "bad.txt:1: ply 1: 33 is no opening roll"),
        (
            "31: 8/5 6/5; 7: 24/18\n",
            "bad.txt:1: ply 2: '7' is not two dice",
        ),
    ];
    for (text, why) in cases {
        let suite = dir.join("bad.txt");
        std::fs::write(&suite, text).expect("suite");
        assert_suite_refused(&dir, ["t1", "t2"], &suite, why);
    }
    ok(&hamle_match(
        &dir,
        &[
            "t1",
            "t2",
            "--points",
            "0",
            "--openings",
            "default",
            "--out",
            out.to_str().expect("path"),
        ],
    ));
    let suite = hamle::tavla::opening::DEFAULT;
    let first = suite
        .lines()
        .find(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .expect("an opening");
    let opening: Vec<&str> = first
        .split([';', ' '])
        .filter(|word| !word.is_empty())
        .collect();
    for result in sorted_results(&out) {
        let game = tavla_first_game(&record(&out, &result));
        assert!(game.starts_with(&opening.join(" ")), "{first}: {game}");
    }
}
