//! Opening suites (`--openings`): each pair starts from its opening in both games, an
//! illegal opening is refused naming FILE:LINE before anything is written, the suite is
//! kept in match.txt and `--resume` refuses another, and each game's format is read.

use pretty_assertions::assert_eq;

use crate::support::arena::{
    bot, hamle_match, mangala_engine, ok, record, resumes_as_is, scratch, sorted_results,
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
    let out = dir.join("m");
    let output = hamle_match(
        &dir,
        &[
            "m1",
            "m2",
            "--openings",
            suite.to_str().expect("path"),
            "--out",
            out.to_str().expect("path"),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("bad.txt:3: move 2: illegal move '9'"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(!out.exists(), "nothing written");
    // A FIFO or a folder is no suite.
    let output = hamle_match(
        &dir,
        &[
            "m1",
            "m2",
            "--openings",
            dir.to_str().expect("path"),
            "--out",
            out.to_str().expect("path"),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("not a regular file"), "{stderr}");
    assert!(!out.exists(), "nothing written");
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
    let output = hamle_match(
        &dir,
        &[
            "g1",
            "g2",
            "--openings",
            lines.to_str().expect("path"),
            "--out",
            dir.join("n").to_str().expect("path"),
        ],
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("l.txt:2: move 2: illegal move 'E5'"),
        "{stderr}"
    );
}

#[test]
fn abalone_and_kulami_play_their_built_in_suites() {
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
    for (bots, game) in [(["a1", "a2"], "abalone"), (["k1", "k2"], "kulami")] {
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
        for result in sorted_results(&out) {
            let text = record(&out, &result);
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
