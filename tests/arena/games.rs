//! `hamle match` for Abalone, Kulami and Mangala: short real matches between our engines at
//! tiny budgets. Every game finishes, results add up, every record replays legally under
//! our rules to the result it states, pairs share their layout or draw, the same seed
//! gives the same games, and mixing games is refused.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use hamle::arena::store::{GameResult, Winner};

use crate::support::arena::{
    bot, broken, field, hamle_match, mangala_engine, ok, record, resumes_as_is, scratch,
    sorted_results, untimed_record,
};

fn tag(record: &str, key: &str) -> String {
    hamle::contract::record::read_tags(record)
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
        .unwrap_or_default()
}

/// Checks what every game of any match must satisfy; returns the results.
fn check_match(out: &Path, games: usize, bots: [&str; 2]) -> Vec<GameResult> {
    let results = sorted_results(out);
    assert_eq!(results.len(), games, "every game finished: {results:?}");
    let mut wins: BTreeMap<String, usize> = BTreeMap::new();
    let mut draws = 0;
    for (index, result) in results.iter().enumerate() {
        assert_eq!(result.game, index);
        let expected_seats = if index % 2 == 0 {
            [bots[0], bots[1]]
        } else {
            [bots[1], bots[0]]
        };
        assert_eq!(
            [result.first.as_str(), result.second.as_str()],
            expected_seats
        );
        match result.winner {
            Winner::First | Winner::Second => {
                let name = result.winner_name().expect("a winner").to_owned();
                *wins.entry(name).or_default() += 1;
            }
            Winner::Draw => draws += 1,
            Winner::Void => panic!("no void games between our engines: {result:?}"),
        }
        let text = record(out, result);
        assert!(
            text.contains(&format!("seed {}", result.seed)),
            "the seed is in the record"
        );
        assert_eq!(tag(&text, "Result"), result.result);
    }
    assert_eq!(wins.values().sum::<usize>() + draws, games, "results sum");
    let pgn = std::fs::read_to_string(out.join("results.pgn")).expect("pgn");
    assert_eq!(pgn.matches("[Result ").count(), games);
    results
}

/// A match's results in game order, the thinking times (and each move's) zeroed: they are the machine's,
/// the move counts are the games'.
fn untimed_results(out: &Path) -> Vec<GameResult> {
    let mut results = sorted_results(out);
    for thinking in results
        .iter_mut()
        .flat_map(|r| r.thinking.iter_mut().flatten())
    {
        thinking.millis = 0;
        thinking.longest = thinking.longest.map(|_| 0);
    }
    for cost in results.iter_mut().flat_map(|r| r.costs.iter_mut()) {
        cost.thinking = cost.thinking.map(|_| 0);
        cost.clock_left = cost.clock_left.map(|_| 0);
    }
    results
}

fn same_games(a: &Path, b: &Path) {
    let (ra, rb) = (untimed_results(a), untimed_results(b));
    assert_eq!(ra, rb, "same seed, same results");
    for result in &ra {
        assert_eq!(
            untimed_record(&record(a, result)),
            untimed_record(&record(b, result)),
            "{}",
            result.record
        );
    }
}

#[test]
fn kulami_matches_share_layouts_in_pairs_replay_and_repeat() {
    let dir = scratch("games", "kulami");
    bot(
        &dir,
        "k-a",
        "kulami",
        &["hamle", "kulami", "--nodes", "300"],
    );
    bot(
        &dir,
        "k-b",
        "kulami",
        &["hamle", "kulami", "--nodes", "1500"],
    );
    let runs: Vec<PathBuf> = ["one", "two"].iter().map(|n| dir.join(n)).collect();
    let mut said = String::new();
    for out in &runs {
        let args = [
            "k-a",
            "k-b",
            "--pairs",
            "3",
            "--seed",
            "21",
            "--concurrency",
            "2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ];
        said = ok(&hamle_match(&dir, &args));
        resumes_as_is(&dir, &args);
    }
    let results = check_match(&runs[0], 6, ["k-a", "k-b"]);
    thinking_is_kept(&runs[1], &said);
    same_games(&runs[0], &runs[1]);
    let mut layouts = Vec::new();
    for result in &results {
        let text = record(&runs[0], result);
        let replayed = hamle::kulami::referee::replay_record(&text).expect("replays legally");
        assert_eq!(replayed.result, result.result);
        assert_eq!(replayed.referee.moves().len(), result.moves);
        assert_eq!(result.reason, "score", "{result:?}");
        use hamle::contract::Referee;
        let end = replayed.referee.natural_end().expect("the game is over");
        assert_eq!(end.result, result.result);
        layouts.push(tag(&text, "Layout"));
    }
    for pair in layouts.chunks(2) {
        assert_eq!(pair[0], pair[1], "one layout a pair");
    }
    assert_ne!(layouts[0], layouts[2], "pairs draw their own layouts");
    assert_ne!(layouts[2], layouts[4]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every game's line keeps both seats' move requests (a game scored with no warnings asks
/// one a move), and the summary gives each bot's mean time a move over them. Times are
/// the machine's: only their presence is checked, never their size.
fn thinking_is_kept(out: &Path, said: &str) {
    let lines = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    for line in lines.lines() {
        for key in ["time_first", "asked_first", "time_second", "asked_second"] {
            assert!(!field(line, key).is_empty(), "{key} in {line}");
        }
    }
    let mut asked = [0, 0];
    for result in sorted_results(out) {
        let [first, second] = result.thinking.map(|t| t.expect("the thinking is kept"));
        assert!(first.asked > 0 && second.asked > 0, "{result:?}");
        assert_eq!(first.asked + second.asked, result.moves, "{result:?}");
        let bot = usize::from(result.first == "k-b");
        asked[bot] += first.asked;
        asked[1 - bot] += second.asked;
    }
    let line = said
        .lines()
        .find(|line| line.starts_with("thinking: "))
        .unwrap_or_else(|| panic!("a thinking line: {said}"));
    let parts: Vec<&str> = line["thinking: ".len()..].split(", ").collect();
    for (part, (name, count)) in parts.iter().zip([("k-a", asked[0]), ("k-b", asked[1])]) {
        let pattern = format!(r"^{name} \d+\.\d{{3}} m?s a move \({count} moves\)$");
        let shape = regex::Regex::new(&pattern).expect("a pattern");
        assert!(shape.is_match(part), "{part} against {pattern} in {said}");
    }
    assert_eq!(parts.len(), 2, "{line}");
    // The standings stay the last line.
    assert!(
        said.lines().last().is_some_and(|l| l.starts_with("k-a ")),
        "{said}"
    );
}

#[test]
fn mangala_five_set_matches_share_the_draw_in_pairs_and_replay() {
    let dir = scratch("games", "mangala");
    let engine = mangala_engine;
    bot(&dir, "m-a", "mangala", &engine("200"));
    bot(&dir, "m-b", "mangala", &engine("3000"));
    let runs: Vec<PathBuf> = ["one", "two"].iter().map(|n| dir.join(n)).collect();
    for out in &runs {
        let args = [
            "m-a",
            "m-b",
            "--pairs",
            "2",
            "--seed",
            "8",
            "--concurrency",
            "2",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ];
        ok(&hamle_match(&dir, &args));
        resumes_as_is(&dir, &args);
    }
    let results = check_match(&runs[0], 4, ["m-a", "m-b"]);
    same_games(&runs[0], &runs[1]);
    let mut draws = Vec::new();
    for result in &results {
        let text = record(&runs[0], result);
        let replayed = hamle::mangala::referee::replay_record(&text).expect("replays legally");
        assert_eq!(replayed.result, result.result);
        assert_eq!(replayed.referee.sets().len(), 5, "five sets");
        use hamle::contract::Referee;
        let end = replayed.referee.natural_end().expect("the match is over");
        assert_eq!(end.result, result.result);
        let (south, north) = result.result.split_once('-').expect("points");
        let total: f64 =
            south.parse::<f64>().expect("south") + north.parse::<f64>().expect("north");
        assert_eq!(total, 5.0, "five sets of one point: {}", result.result);
        draws.push(tag(&text, "Draw"));
    }
    for pair in draws.chunks(2) {
        assert_eq!(pair[0], pair[1], "one draw a pair");
    }
    // One-set games keep the set's notation.
    let single = dir.join("single");
    let single_args = [
        "m-a",
        "m-b",
        "--games",
        "2",
        "--sets",
        "1",
        "--quiet",
        "--out",
        single.to_str().expect("utf-8"),
    ];
    ok(&hamle_match(&dir, &single_args));
    resumes_as_is(&dir, &single_args);
    for result in check_match(&single, 2, ["m-a", "m-b"]) {
        assert!(
            result.result == "0"
                || result.result.starts_with("S+")
                || result.result.starts_with("N+"),
            "{result:?}"
        );
        let text = record(&single, &result);
        let replayed = hamle::mangala::referee::replay_record(&text).expect("replays");
        assert_eq!(replayed.referee.sets().len(), 1);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn abalone_matches_replay_and_repeat() {
    let dir = scratch("games", "abalone");
    bot(
        &dir,
        "a-a",
        "abalone",
        &["hamle", "abalone", "--nodes", "300"],
    );
    bot(
        &dir,
        "a-b",
        "abalone",
        &["hamle", "abalone", "--nodes", "600"],
    );
    let runs: Vec<PathBuf> = ["one", "two"].iter().map(|n| dir.join(n)).collect();
    for out in &runs {
        let args = [
            "a-a",
            "a-b",
            "--pairs",
            "1",
            "--seed",
            "4",
            "--max-moves",
            "60",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ];
        ok(&hamle_match(&dir, &args));
        resumes_as_is(&dir, &args);
    }
    let results = check_match(&runs[0], 2, ["a-a", "a-b"]);
    same_games(&runs[0], &runs[1]);
    for result in &results {
        let text = record(&runs[0], result);
        let hamle::contract::Replayed {
            referee: replayed,
            result: stated,
            ..
        } = hamle::abalone::referee::replay_record(&text).expect("replays legally");
        assert_eq!(stated, result.result);
        use hamle::contract::Referee;
        assert_eq!(replayed.moves_played(), result.moves);
        assert!(result.moves <= 60, "the cap holds: {result:?}");
        match result.reason.as_str() {
            "move cap" => {
                assert_eq!(result.moves, 60);
                assert_eq!(replayed.adjudicate().result, result.result);
            }
            "score" => assert_eq!(
                replayed.natural_end().map(|end| end.result),
                Some(result.result.clone())
            ),
            other => panic!("unexpected end: {other}"),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn kulami_warnings_policy() {
    let dir = scratch("games", "warn");
    let engine = ["kulami", "--nodes", "300"];
    bot(
        &dir,
        "good",
        "kulami",
        &["hamle", "kulami", "--nodes", "300"],
    );
    broken(&dir, "once", "kulami", "illegal-once", 3, &engine);
    broken(&dir, "always", "kulami", "illegal-from", 3, &engine);
    let run = |opponent: &str, policy: &str| -> Vec<GameResult> {
        let out = dir.join(format!("{opponent}-{policy}"));
        ok(&hamle_match(
            &dir,
            &[
                "good",
                opponent,
                "--games",
                "2",
                "--layout",
                "default",
                "--illegal",
                policy,
                "--quiet",
                "--out",
                out.to_str().expect("utf-8"),
            ],
        ));
        sorted_results(&out)
    };
    for result in run("once", "forfeit") {
        assert!(
            result.reason.starts_with("illegal move by once"),
            "{result:?}"
        );
        assert_eq!(result.winner_name(), Some("good"));
    }
    for result in run("once", "warn3") {
        assert!(
            result
                .reason
                .starts_with("score (warnings: first warning to once"),
            "{result:?}"
        );
        assert!(result.moves > 20, "{result:?}");
    }
    for result in run("always", "warn3") {
        assert!(
            result
                .reason
                .starts_with("illegal move by always: third warning"),
            "{result:?}"
        );
        assert_eq!(result.winner_name(), Some("good"));
        assert!(result.result.ends_with("+F"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mixed_or_unknown_games_are_refused() {
    let dir = scratch("games", "mixed");
    bot(&dir, "k", "kulami", &["hamle", "kulami"]);
    bot(&dir, "m", "mangala", &["hamle", "mangala"]);
    let out = dir.join("out");
    let mixed = hamle_match(&dir, &["k", "m", "--out", out.to_str().expect("utf-8")]);
    assert_eq!(mixed.status.code(), Some(2));
    let message = String::from_utf8_lossy(&mixed.stderr);
    assert!(
        message.contains("bots of different games") && message.contains("m plays mangala"),
        "{message}"
    );
    let forced = hamle_match(
        &dir,
        &[
            "k",
            "k",
            "--game",
            "go",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    let message = String::from_utf8_lossy(&forced.stderr);
    assert!(message.contains("k is not go"), "{message}");
    let unknown = hamle_match(
        &dir,
        &[
            "k",
            "k",
            "--game",
            "chess",
            "--out",
            out.to_str().expect("utf-8"),
        ],
    );
    let message = String::from_utf8_lossy(&unknown.stderr);
    assert!(message.contains("unknown game 'chess'"), "{message}");
    assert!(!out.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn opening_plies_vary_pairs_of_deterministic_engines_reproducibly() {
    let dir = scratch("games", "opening");
    let engine = mangala_engine;
    bot(&dir, "m-a", "mangala", &engine("200"));
    bot(&dir, "m-b", "mangala", &engine("2000"));
    let run = |name: &str, extra: &[&str]| -> (PathBuf, String) {
        let out = dir.join(name);
        let mut args = vec!["m-a", "m-b", "--pairs", "4", "--sets", "1", "--quiet"];
        args.extend(extra);
        args.extend(["--out", out.to_str().expect("utf-8")]);
        let text = ok(&hamle_match(&dir, &args));
        (out, text)
    };
    let moves = |out: &Path, result: &GameResult| -> Vec<String> {
        let text = record(out, result);
        let line = text
            .lines()
            .skip_while(|l| !l.starts_with("Set 1"))
            .nth(1)
            .expect("the set's moves")
            .to_owned();
        line.split_whitespace().map(str::to_owned).collect()
    };
    // Deterministic engines, one set, no opening moves: the draw (who starts) is all that
    // varies, so pairs replay earlier ones, and the match says so.
    let (plain, text) = run("plain", &["--opening-plies", "0"]);
    let results = check_match(&plain, 8, ["m-a", "m-b"]);
    assert!(
        text.contains("pairs replayed earlier ones move for move"),
        "{text}"
    );
    assert!(text.contains("--opening-plies N"), "{text}");
    let distinct: std::collections::BTreeSet<Vec<String>> =
        results.iter().map(|r| moves(&plain, r)).collect();
    assert!(distinct.len() < 8, "{distinct:?}");
    // Mangala's default is 4 random opening plies: every pair differs; both games of a
    // pair open alike; the same seed gives the same games as an explicit 4.
    let (opened, text) = run("opened", &[]);
    assert!(!text.contains("replayed earlier"), "{text}");
    let results = check_match(&opened, 8, ["m-a", "m-b"]);
    let games: Vec<Vec<String>> = results.iter().map(|r| moves(&opened, r)).collect();
    let distinct: std::collections::BTreeSet<&Vec<String>> = games.iter().collect();
    assert_eq!(distinct.len(), 8, "{games:?}");
    let openings: std::collections::BTreeSet<Vec<String>> = games
        .chunks(2)
        .map(|pair| {
            assert_eq!(pair[0][..4], pair[1][..4], "one opening a pair: {pair:?}");
            pair[0][..4].to_vec()
        })
        .collect();
    assert!(openings.len() > 1, "{openings:?}");
    for result in &results {
        let text = record(&opened, result);
        assert!(text.contains("the first 4 plies drawn at random"), "{text}");
        let replayed = hamle::mangala::referee::replay_record(&text).expect("replays legally");
        assert_eq!(replayed.result, result.result);
    }
    let settings = std::fs::read_to_string(opened.join("match.txt")).expect("settings");
    assert!(settings.contains("opening_plies = 4"), "{settings}");
    assert!(
        !std::fs::read_to_string(plain.join("match.txt"))
            .expect("settings")
            .contains("opening_plies")
    );
    let (again, _) = run("again", &["--opening-plies", "4", "--concurrency", "2"]);
    same_games(&opened, &again);
    // Engines without a list of legal moves (hamle's Go engine): our rules draw the
    // opening, both games of the pair alike.
    let go = dir.join("go");
    ok(&hamle_match(
        &dir,
        &[
            "a=hamle go --playouts 10",
            "b=hamle go --playouts 10",
            "--pairs",
            "1",
            "--opening-plies",
            "2",
            "--quiet",
            "--out",
            go.to_str().expect("utf-8"),
        ],
    ));
    let results = sorted_results(&go);
    assert_eq!(results.len(), 2, "{results:?}");
    let first_two = |result: &GameResult| -> String {
        let text = record(&go, result);
        let at = text.find(";B[").expect("a first move");
        text[at..].chars().take(12).collect()
    };
    assert_eq!(first_two(&results[0]), first_two(&results[1]));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--opening-plies` draws from the referee's own list of legal moves: in Go and Tavla,
/// whose engines list none, every listed move is one the referee then accepts, over
/// whole random games.
#[test]
fn every_move_the_referee_lists_it_accepts() {
    use hamle::contract::{Referee, Turn};
    let play_out = |referee: &mut dyn Referee, seed: u64| {
        for ply in 0..400u64 {
            let _ = referee.interlude();
            if referee.natural_end().is_some() {
                return;
            }
            let seat = referee.seat_to_move();
            let request = referee.move_request(seat);
            let answer = if request.starts_with("genmove ") {
                let legal = referee.legal_moves().expect("a list");
                if legal.is_empty() {
                    "pass".to_owned()
                } else {
                    let pick = hamle::seed::derive_seed(seed, ply) % legal.len() as u64;
                    legal[pick as usize].clone()
                }
            } else {
                // Tavla's cube decisions: never doubled.
                "no_double".to_owned()
            };
            let turn = referee.apply(seat, &answer);
            assert!(
                matches!(turn, Ok(Turn::Played { .. })),
                "{request} -> {answer}: {turn:?}"
            );
        }
    };
    for seed in 0..3 {
        let mut go = hamle::go::referee::GoReferee::new(9, 7.5, hamle::go::rules::RuleSet::Chinese)
            .expect("a 9x9 referee");
        play_out(&mut go, seed);
        let mut tavla = hamle::tavla::referee::TavlaReferee::new(Default::default(), seed);
        play_out(&mut tavla, seed);
    }
}
