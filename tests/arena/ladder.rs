//! `hamle ladder` and `hamle match --sprt` end to end, with Kulami engines at tiny node
//! budgets (instant, deterministic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hamle-ladder-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bots")).expect("create scratch folder");
    for (name, nodes) in [("k100", 100), ("k500", 500), ("k3000", 3000)] {
        let text = format!(
            "name = \"{name}\"\ngame = \"kulami\"\ncommand = [\"hamle\", \"kulami\", \"--nodes\", \"{nodes}\"]\n"
        );
        std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
    }
    dir
}

fn hamle(dir: &Path, command: &str, args: &[&str]) -> Output {
    Command::new(HAMLE)
        .arg(command)
        .arg("--bots")
        .arg(dir.join("bots"))
        .args(args)
        .output()
        .expect("run hamle")
}

/// `hamle ladder report|merge …`: subcommands of their own, without the ladder's options.
fn ladder_tool(args: &[&str]) -> Output {
    Command::new(HAMLE)
        .arg("ladder")
        .args(args)
        .output()
        .expect("run hamle")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rating list's rows: (name, elo, games, points).
fn rows(ratings: &str) -> Vec<(String, f64, f64, f64)> {
    ratings
        .lines()
        .skip(1)
        .take_while(|line| !line.starts_with('('))
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let number = |i: usize| {
                words[i]
                    .trim_end_matches('%')
                    .parse::<f64>()
                    .expect("number")
            };
            (words[1].to_owned(), number(2), number(4), number(5))
        })
        .collect()
}

#[test]
fn round_robin_rates_every_bot_and_resumes_to_the_same_table() {
    let dir = scratch("rr");
    let whole = dir.join("whole");
    let args = |out: &Path| -> Vec<String> {
        [
            "k100", "k500", "k3000", "--pairs", "2", "--seed", "5", "--quiet", "--out",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .chain([out.display().to_string()])
        .collect()
    };
    let words = args(&whole);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let text = stdout(&hamle(&dir, "ladder", &words));
    assert!(text.contains("crosstable"), "{text}");
    // Each bot's mean time a move, over its 8 games, before the rating list.
    let thinking = text
        .lines()
        .find(|line| line.starts_with("thinking: "))
        .unwrap_or_else(|| panic!("a thinking line: {text}"));
    for bot in ["k100 ", ", k500 ", ", k3000 "] {
        assert!(thinking.contains(bot), "{thinking}");
    }
    assert_eq!(thinking.matches(" a move (").count(), 3, "{thinking}");
    let ratings = read(&whole.join("ratings.txt"));
    let table = rows(&ratings);
    assert_eq!(table.len(), 3, "{ratings}");
    // Three pairings of four games: each bot plays 8, and the points add up to the games.
    for (name, _, games, _) in &table {
        assert_eq!(*games, 8.0, "{name}: {ratings}");
    }
    let points: f64 = table.iter().map(|row| row.3).sum();
    assert_eq!(points, 12.0, "{ratings}");
    let mean: f64 = table.iter().map(|row| row.1).sum::<f64>() / 3.0;
    assert!(mean.abs() < 1.5, "the mean is 0 (rounded): {ratings}");
    let pgn = read(&whole.join("results.pgn"));
    assert_eq!(pgn.matches("[Result ").count(), 12);
    // Kulami's first seat is Black, its second Red.
    assert_eq!(
        pgn.matches("[WhiteSide \"Black\"]\n[BlackSide \"Red\"]")
            .count(),
        12
    );
    let pairings: Vec<_> = std::fs::read_dir(whole.join("pairings"))
        .expect("pairings")
        .collect();
    assert_eq!(pairings.len(), 3);

    // An interrupted copy: the last pairing lost its last two games; --resume plays them
    // again and ends with the same table.
    let copy = dir.join("copy");
    let words = args(&copy);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    stdout(&hamle(&dir, "ladder", &words));
    let last = copy.join("pairings/03-k500-vs-k3000/results.tsv");
    let kept: Vec<String> = read(&last)
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&last, kept.concat()).expect("truncate");
    let mut resumed = words.clone();
    resumed.push("--resume");
    stdout(&hamle(&dir, "ladder", &resumed));
    assert_eq!(read(&copy.join("ratings.txt")), ratings);
    assert_eq!(read(&copy.join("results.pgn")), pgn);

    // Resuming with other settings is refused, naming the difference.
    let mut other: Vec<&str> = resumed.clone();
    other[4] = "3";
    let refused = hamle(&dir, "ladder", &other);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("games was '4', now '6'"), "{message}");

    // The HTML report: the bots, the tables, the chart; the same after a resume, and
    // `hamle ladder report` writes it again byte for byte.
    let report = read(&whole.join("report.html"));
    assert!(report.starts_with("<!DOCTYPE html>") && report.ends_with("</html>\n"));
    for needle in [
        "k100",
        "k500",
        "k3000",
        "<table class=\"ratings\">",
        "<table class=\"crosstable\">",
        "<svg",
        "<polyline",
        "</svg>",
        "3 pairings of 3 played, 12 games",
    ] {
        assert!(report.contains(needle), "{needle}: {report}");
    }
    // Standalone: no script, no linked file; its only links are to the viewer pages of
    // the games, inside the folder.
    for needle in ["<script", "src=", "<link"] {
        assert!(!report.contains(needle), "{needle}");
    }
    let links: Vec<&str> = report.split("href=\"").skip(1).collect();
    assert_eq!(
        links.len(),
        3 + 12,
        "each pairing's report and each game's page"
    );
    for link in links {
        assert!(
            link.starts_with("pairings/") && !link.contains(".."),
            "{link}"
        );
    }
    // The bots' thinking times (the Bots table) are the machine's: blanked to compare.
    let untimed = crate::support::arena::untimed_page;
    assert_eq!(untimed(&read(&copy.join("report.html"))), untimed(&report));
    std::fs::remove_file(whole.join("report.html")).expect("remove");
    let regenerated = ladder_tool(&["report", whole.to_str().expect("utf-8")]);
    stdout(&regenerated);
    assert_eq!(read(&whole.join("report.html")), report);
    assert_eq!(read(&whole.join("ratings.txt")), ratings);

    // Two shards, merged, equal the whole ladder.
    let mut shards = Vec::new();
    for shard in ["1/2", "2/2"] {
        let out = dir.join(format!("shard{}", &shard[..1]));
        let words = args(&out);
        let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
        words.extend(["--shard", shard]);
        stdout(&hamle(&dir, "ladder", &words));
        shards.push(out);
    }
    let count = |dir: &Path| {
        std::fs::read_dir(dir.join("pairings"))
            .expect("pairings")
            .count()
    };
    assert_eq!((count(&shards[0]), count(&shards[1])), (2, 1));
    assert!(read(&shards[0].join("ladder.txt")).contains("shard = 1/2"));
    let merged = dir.join("merged");
    let merge = |out: &Path, from: &[&Path]| -> Output {
        let mut words = vec!["merge".to_owned(), out.display().to_string()];
        words.extend(from.iter().map(|p| p.display().to_string()));
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        ladder_tool(&words)
    };
    stdout(&merge(&merged, &[&shards[0], &shards[1]]));
    assert_eq!(read(&merged.join("ratings.txt")), ratings);
    assert_eq!(read(&merged.join("results.pgn")), pgn);
    assert_eq!(
        untimed(&read(&merged.join("report.html"))),
        untimed(&report)
    );
    assert_eq!(
        read(&merged.join("ladder.txt")),
        read(&whole.join("ladder.txt"))
    );
    // Refused: an existing ladder as OUT, the same pairing twice, other settings.
    assert_eq!(merge(&merged, &[&shards[0]]).status.code(), Some(2));
    let twice = merge(&dir.join("twice"), &[&shards[0], &shards[0]]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("is in both"));
    let other_seed = dir.join("other-seed");
    let words = args(&other_seed);
    let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
    words[6] = "6";
    words.extend(["--shard", "2/2"]);
    stdout(&hamle(&dir, "ladder", &words));
    let refused = merge(&dir.join("mixed"), &[&shards[0], &other_seed]);
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains("not a shard of the same ladder: seed"),
        "{message}"
    );
    assert!(!dir.join("mixed").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gauntlet_with_an_anchor_and_bad_input() {
    let dir = scratch("gauntlet");
    let out = dir.join("out");
    let text = stdout(&hamle(
        &dir,
        "ladder",
        &[
            "k3000",
            "k100",
            "k500",
            "--format",
            "gauntlet",
            "--anchor",
            "k100",
            "--pairs",
            "2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    assert!(text.contains("(Elo relative to k100, held at 0)"), "{text}");
    let table = rows(&read(&out.join("ratings.txt")));
    let games = |name: &str| table.iter().find(|r| r.0 == name).expect("rated").2;
    assert_eq!(games("k3000"), 8.0);
    assert_eq!(
        (games("k100"), games("k500")),
        (4.0, 4.0),
        "no k100-k500 games"
    );
    let anchor = table.iter().find(|r| r.0 == "k100").expect("rated");
    assert_eq!(anchor.1, 0.0);

    std::fs::write(
        dir.join("bots/m.toml"),
        "name = \"m\"\ngame = \"mangala\"\ncommand = [\"hamle\", \"mangala\"]\n",
    )
    .expect("write");
    let mixed = hamle(
        &dir,
        "ladder",
        &[
            "k100",
            "k500",
            "m",
            "--out",
            dir.join("o2").to_str().expect("utf-8"),
        ],
    );
    assert_eq!(mixed.status.code(), Some(2));
    let message = String::from_utf8_lossy(&mixed.stderr);
    assert!(message.contains("bots of different games"), "{message}");
    let anchor = hamle(
        &dir,
        "ladder",
        &[
            "k100",
            "k500",
            "--anchor",
            "nobody",
            "--out",
            dir.join("o3").to_str().expect("utf-8"),
        ],
    );
    assert!(String::from_utf8_lossy(&anchor.stderr).contains("--anchor 'nobody'"));
    assert!(!dir.join("o2").exists() && !dir.join("o3").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn swiss_rounds_pair_by_score_without_rematches() {
    let dir = scratch("swiss");
    std::fs::write(
        dir.join("bots/k200.toml"),
        "name = \"k200\"\ngame = \"kulami\"\ncommand = [\"hamle\", \"kulami\", \"--nodes\", \"200\"]\n",
    )
    .expect("write");
    let out = dir.join("out");
    let args = [
        "k100",
        "k200",
        "k500",
        "k3000",
        "--format",
        "swiss",
        "--rounds",
        "2",
        "--pairs",
        "1",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    let printed = stdout(&hamle(&dir, "ladder", &args));
    assert!(printed.contains("round 1 pairings: "), "{printed}");
    let mut folders: Vec<String> = std::fs::read_dir(out.join("pairings"))
        .expect("pairings")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert_eq!(folders.len(), 4, "{folders:?}");
    // Round 1 pairs the sheet's starting order, alphabetical (k100, k200, k3000, k500):
    // 1-2, 3-4, colours drawn by the seed.
    let unordered = |folder: &str| {
        let mut pair: Vec<String> = folder[3..].split("-vs-").map(str::to_owned).collect();
        pair.sort();
        pair
    };
    assert_eq!(unordered(&folders[0]), ["k100", "k200"]);
    assert_eq!(unordered(&folders[1]), ["k3000", "k500"]);
    let meetings: std::collections::BTreeSet<Vec<String>> = folders
        .iter()
        .map(|f| {
            let mut pair: Vec<String> = f[3..].split("-vs-").map(str::to_owned).collect();
            pair.sort();
            pair
        })
        .collect();
    assert_eq!(meetings.len(), 4, "no rematch: {folders:?}");
    let ratings = read(&out.join("ratings.txt"));
    assert_eq!(rows(&ratings).len(), 4, "{ratings}");
    // Resuming the finished ladder changes nothing.
    let mut resumed = args.to_vec();
    resumed.push("--resume");
    stdout(&hamle(&dir, "ladder", &resumed));
    assert_eq!(read(&out.join("ratings.txt")), ratings);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_stops_the_match_with_the_same_verdict_at_any_concurrency() {
    let dir = scratch("sprt");
    let mut lines = Vec::new();
    for concurrency in ["1", "3"] {
        let out = dir.join(format!("c{concurrency}"));
        let text = stdout(&hamle(
            &dir,
            "match",
            &[
                "k3000",
                "k100",
                "--pairs",
                "40",
                "--sprt",
                "elo0=0,elo1=100,alpha=0.1,beta=0.1",
                "--concurrency",
                concurrency,
                "--quiet",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        ));
        let line = text
            .lines()
            .find(|l| l.starts_with("SPRT "))
            .unwrap_or_else(|| panic!("no SPRT line: {text}"))
            .to_owned();
        assert!(line.contains("H1 accepted"), "{line}");
        let games = read(&out.join("results.tsv")).lines().count();
        assert!(games < 80, "stopped early: {games} games");
        // Resuming a decided match plays nothing more.
        let again = stdout(&hamle(
            &dir,
            "match",
            &[
                "k3000",
                "k100",
                "--pairs",
                "40",
                "--sprt",
                "elo0=0,elo1=100,alpha=0.1,beta=0.1",
                "--concurrency",
                concurrency,
                "--quiet",
                "--resume",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        ));
        assert!(again.contains(&line), "{again}");
        assert_eq!(read(&out.join("results.tsv")).lines().count(), games);
        lines.push(line);
    }
    assert_eq!(lines[0], lines[1]);
    let bad = hamle(
        &dir,
        "match",
        &[
            "k3000",
            "k100",
            "--sprt",
            "elo0=5,elo1=0",
            "--out",
            "/nonexistent/x",
        ],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("elo0 must be below elo1"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_verdict_reports_the_measured_elo_not_the_hypothesis() {
    let dir = scratch("sprt-verdict");
    let out = dir.join("out");
    let text = stdout(&hamle(
        &dir,
        "match",
        &[
            "k3000",
            "k100",
            "--pairs",
            "40",
            "--sprt",
            "elo0=0,elo1=50",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    let line = text
        .lines()
        .find(|l| l.starts_with("SPRT "))
        .unwrap_or_else(|| panic!("no SPRT line: {text}"));
    assert!(
        line.contains("H1 accepted (elo1=50): k3000 is better than k100; measured +"),
        "{line}"
    );
    assert!(!line.contains("better by about"), "{line}");
    // The measured Elo is the pairs' mean score in Elo, not elo1: recomputed from the
    // pentanomial counts the line prints.
    let counts: Vec<f64> = line
        .split_once("pentanomial [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .expect("counts")
        .0
        .split(", ")
        .map(|c| c.parse().expect("count"))
        .collect();
    let pairs: f64 = counts.iter().sum();
    let score: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * i as f64 / 4.0)
        .sum::<f64>()
        / pairs;
    let measured = line
        .split_once("measured ")
        .expect("measured")
        .1
        .split_whitespace()
        .next()
        .expect("number")
        .to_owned();
    if score < 1.0 {
        let elo = -400.0 * (1.0 / score - 1.0).log10();
        assert_eq!(measured, format!("{elo:+.0}"), "{line}");
        assert!(line.contains(&format!("of {pairs} pairs)")), "{line}");
    } else {
        assert_eq!(measured, "every", "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn short_swiss_ladders_rate_what_they_played_and_say_who_is_unrated() {
    let dir = scratch("swiss-short");
    std::fs::write(
        dir.join("bots/k200.toml"),
        "name = \"k200\"\ngame = \"kulami\"\ncommand = [\"hamle\", \"kulami\", \"--nodes\", \"200\"]\n",
    )
    .expect("write");
    // One round of four bots: two pairings, two groups that never met. Both the ladder and
    // `ladder report` on its folder say so, with the same exit code, and point to no
    // ratings file.
    let out = dir.join("four");
    let text = stdout(&hamle(
        &dir,
        "ladder",
        &[
            "k100",
            "k200",
            "k500",
            "k3000",
            "--format",
            "swiss",
            "--rounds",
            "1",
            "--pairs",
            "1",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    let why = "no ratings: the bots form groups that never met, directly or through others: {k100, k200} and {k3000, k500}";
    assert!(text.contains(why), "{text}");
    assert!(text.contains("4 games in"), "{text}");
    assert!(!text.contains("ratings in"), "{text}");
    assert!(!out.join("ratings.txt").exists());
    let report = ladder_tool(&["report", out.to_str().expect("utf-8")]);
    let again = stdout(&report);
    assert!(again.contains(why), "{again}");
    assert!(!again.contains("ratings in"), "{again}");
    assert!(!out.join("ratings.txt").exists());
    assert!(read(&out.join("report.html")).contains("No ratings: the bots form groups"));

    // One round of three bots: one pairing is played, the third bot has a bye. The two
    // that played are rated (with the virtual draws when one won every game), the third is
    // named as unrated.
    let out = dir.join("three");
    let text = stdout(&hamle(
        &dir,
        "ladder",
        &[
            "k100",
            "k3000",
            "k500",
            "--format",
            "swiss",
            "--rounds",
            "1",
            "--pairs",
            "1",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    ));
    assert!(text.contains("round 1: k500 has a bye"), "{text}");
    let ratings = read(&out.join("ratings.txt"));
    assert!(text.contains(&ratings), "{text}");
    let rated: Vec<String> = rows(&ratings).into_iter().map(|row| row.0).collect();
    assert_eq!(rated.len(), 2, "{ratings}");
    assert!(!rated.contains(&"k500".to_owned()), "{ratings}");
    assert!(
        ratings.contains("(not rated, no rated game yet: k500)"),
        "{ratings}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn report_and_merge_are_subcommands_with_their_own_help() {
    for (tool, usage) in [
        ("report", "Usage: hamle ladder report [OPTIONS] <DIR>"),
        (
            "merge",
            "Usage: hamle ladder merge [OPTIONS] <OUT> <DIRS>...",
        ),
    ] {
        let help = stdout(&ladder_tool(&[tool, "--help"]));
        assert!(help.contains(usage), "{help}");
        assert!(help.contains("--anchor"), "{help}");
    }
    let help = stdout(&ladder_tool(&["--help"]));
    assert!(help.contains("hamle ladder <COMMAND>"), "{help}");
    // Missing arguments are clap's errors naming them, not a ladder of two bots.
    let missing = ladder_tool(&["report"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("<DIR>"));
    let missing = ladder_tool(&["merge", "out"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("<DIRS>"));
    // A ladder still needs --out and two bots.
    let no_out = ladder_tool(&["k100", "k500"]);
    assert_eq!(no_out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&no_out.stderr).contains("--out <OUT>"));
    // A folder that holds no ladder: exit 2, naming the file.
    let dir = scratch("tools");
    let nothing = ladder_tool(&["report", dir.to_str().expect("utf-8")]);
    assert_eq!(nothing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nothing.stderr).contains("ladder.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_texts_match_the_code() {
    let help = |args: &[&str]| -> String {
        let output = Command::new(HAMLE).args(args).output().expect("run hamle");
        assert!(output.status.success(), "{args:?}: {output:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // No rustdoc link or bracketed path leaks into any arena help.
    for args in [
        &["match", "--help"][..],
        &["ladder", "--help"],
        &["ladder", "report", "--help"],
        &["ladder", "merge", "--help"],
        &["regress", "--help"],
    ] {
        let text = help(args);
        assert!(
            !text.contains("[`") && !text.contains("`]"),
            "{args:?}: {text}"
        );
    }
    // Swiss: the starting order is alphabetical, as the code sorts it.
    let ladder = help(&["ladder", "--help"]);
    assert!(
        ladder.contains("the starting order is alphabetical by name"),
        "{ladder}"
    );
    assert!(!ladder.contains("order on the command line"), "{ladder}");
    // The summary names all three formats.
    let top = help(&["--help"]);
    let line = top
        .lines()
        .find(|l| l.trim_start().starts_with("ladder"))
        .expect("ladder line");
    assert!(
        line.contains("Swiss") && line.contains("gauntlet"),
        "{line}"
    );
    // --max-moves: each game's own default, as its GameSettings gives it.
    let text = help(&["match", "--help"])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let defaults = {
        use clap::{Args, FromArgMatches};
        let command = hamle::games::MatchFlags::augment_args(clap::Command::new("hamle"));
        let matches = command.try_get_matches_from(["hamle"]).expect("defaults");
        hamle::games::MatchFlags::from_arg_matches(&matches).expect("defaults")
    };
    for (kind, said) in [
        (
            hamle::games::GameKind::Go,
            "Go 3 × the board's points ({} on 9×9)",
        ),
        (hamle::games::GameKind::Abalone, "Abalone {} plies"),
        (hamle::games::GameKind::Kulami, "Kulami {}"),
        (hamle::games::GameKind::Mangala, "({} for 5 sets)"),
        (hamle::games::GameKind::Tavla, "({} to 5)"),
    ] {
        let cap = hamle::games::settings(kind, &defaults)
            .expect("default settings")
            .default_max_moves();
        let said = said.replace("{}", &cap.to_string());
        assert!(text.contains(&said), "{kind:?}: '{said}' in {text}");
    }
}
