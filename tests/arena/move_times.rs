//! Each move's cost in the records (issue 53): the SGF gives every engine move a thinking
//! time (`C[thinking S s]`) and under a clock the mover's time left (`BL`/`WL`); `results.pgn`
//! gives every move `[%emt H:MM:SS.s]` and under a clock `[%clk H:MM:SS]`. Only the times'
//! presence and form are checked, never their values (the machine's).

use hamle::arena::store::GameResult;
use regex::Regex;

use crate::support::arena::{hamle_match, ok, record, resumes_as_is, scratch, sorted_results};

/// The number of matches of `pattern` in `text`.
fn count(pattern: &str, text: &str) -> usize {
    Regex::new(pattern).expect("regex").find_iter(text).count()
}

/// The game's PGN comments: the lines between its tags and its result line.
fn pgn_game(pgn: &str, result: &GameResult) -> String {
    let round = format!("[Round \"{}\"]", result.game + 1);
    let at = pgn.find(&round).expect("the game in results.pgn");
    let rest = &pgn[at..];
    let end = rest[1..].find("[Event ").map_or(rest.len(), |end| end + 1);
    rest[..end].to_owned()
}

/// Plays a short Go match (node budgets) with `extra` options; returns its folder's results
/// and the text of `results.pgn`.
fn play(name: &str, extra: &[&str]) -> (std::path::PathBuf, Vec<GameResult>, String) {
    let dir = scratch("move_times", name);
    let out = dir.join("out");
    let mut args = vec![
        "a=hamle go --playouts 10",
        "b=hamle go --playouts 10",
        "--size",
        "7",
        "--pairs",
        "1",
        "--quiet",
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    ok(&hamle_match(&dir, &args));
    resumes_as_is(&dir, &args);
    let results = sorted_results(&out);
    assert_eq!(results.len(), 2, "{results:?}");
    let pgn = std::fs::read_to_string(out.join("results.pgn")).expect("results.pgn");
    (out, results, pgn)
}

#[test]
fn every_move_has_its_thinking_time_in_the_sgf_and_the_pgn() {
    let (out, results, pgn) = play("plain", &[]);
    for result in &results {
        let moves = result.moves;
        assert!(moves > 0, "{result:?}");
        let sgf = record(&out, result);
        assert_eq!(count(r"C\[thinking \d+\.\d{3} s\]", &sgf), moves, "{sgf}");
        assert_eq!(count(r"[BW]L\[", &sgf), 0, "no clock, no time left: {sgf}");
        let game = pgn_game(&pgn, result);
        assert_eq!(
            count(r"\{\[%emt \d+:\d\d:\d\d\.\d\]\}", &game),
            moves,
            "{game}"
        );
        assert_eq!(count(r"%clk", &game), 0, "{game}");
        // The record reads back in our SGF reader, every move in it.
        let read = hamle::go::sgf::GoRecord::from_sgf(&sgf).expect("the SGF reads back");
        assert_eq!(read.events.len(), moves, "{sgf}");
    }
}

#[test]
fn under_a_clock_every_move_has_the_time_left() {
    let (out, results, pgn) = play("clock", &["--time-control", "absolute:600"]);
    for result in &results {
        let moves = result.moves;
        let sgf = record(&out, result);
        assert_eq!(
            count(r"[BW]L\[\d+\.\d{3}\]C\[thinking \d+\.\d{3} s\]", &sgf),
            moves,
            "{sgf}"
        );
        let game = pgn_game(&pgn, result);
        let both = r"\{\[%clk \d+:\d\d:\d\d\] \[%emt \d+:\d\d:\d\d\.\d\]\}";
        assert_eq!(count(both, &game), moves, "{game}");
    }
}

/// The `MoveTimes` values of a text record or `.mat` (all its lines, in order).
fn move_times(text: &str) -> Vec<String> {
    let tag = Regex::new(r#"\[MoveTimes "([^"]*)"\]"#).expect("regex");
    tag.captures_iter(text)
        .flat_map(|caps| caps[1].split(' ').map(str::to_owned).collect::<Vec<_>>())
        .collect()
}

#[test]
fn text_records_and_tavla_mat_keep_each_moves_time_in_a_tag() {
    let dir = scratch("move_times", "text");
    let engine = crate::support::arena::mangala_engine("200");
    crate::support::arena::bot(&dir, "m1", "mangala", &engine);
    crate::support::arena::bot(&dir, "m2", "mangala", &engine);
    crate::support::arena::bot(
        &dir,
        "t1",
        "tavla",
        &["hamle", "tavla", "--level", "greedy"],
    );
    crate::support::arena::bot(
        &dir,
        "t2",
        "tavla",
        &["hamle", "tavla", "--level", "greedy"],
    );
    // A time, or `-` for a move drawn by `--opening-plies` (Mangala's default).
    let form = Regex::new(r"^(\d+\.\d{3}|-)$").expect("regex");
    for (bots, extra) in [
        (["m1", "m2"], &[][..]),
        (["t1", "t2"], &["--points", "1"][..]),
    ] {
        let out = dir.join(bots[0]);
        let out_text = out.to_str().expect("utf-8").to_owned();
        let args = [
            &[
                bots[0], bots[1], "--pairs", "1", "--quiet", "--out", &out_text,
            ][..],
            extra,
        ]
        .concat();
        ok(&hamle_match(&dir, &args));
        // The records, with their new tag, replay in `--resume`'s check.
        resumes_as_is(&dir, &args);
        for result in sorted_results(&out) {
            let text = record(&out, &result);
            let times = move_times(&text);
            assert_eq!(times.len(), result.moves, "{text}");
            assert!(times.iter().all(|t| form.is_match(t)), "{text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A suite's opening moves were chosen by no engine: they carry no time, and each move after
/// them carries its own (the times are not shifted onto the opening's moves).
#[test]
fn a_suites_opening_moves_carry_no_time_and_the_rest_their_own() {
    let dir = scratch("move_times", "suite");
    let suite = dir.join("suite.txt");
    std::fs::write(&suite, "D4 C3\n").expect("suite");
    let (out, results, _) = play(
        "suite-match",
        &["--openings", suite.to_str().expect("utf-8")],
    );
    let move_node = Regex::new(r";[BW]\[[a-z]*\][^;]*").expect("regex");
    for result in &results {
        let sgf = record(&out, result);
        // The move nodes (the root's comment holds semicolons of its own): the two opening
        // moves, then the engines' moves.
        let nodes: Vec<&str> = move_node
            .find_iter(&sgf)
            .map(|node| node.as_str())
            .collect();
        assert!(nodes.len() > 2, "{sgf}");
        assert!(
            !nodes[0].contains("thinking") && !nodes[1].contains("thinking"),
            "{sgf}"
        );
        assert!(
            nodes[2..].iter().all(|node| node.contains("C[thinking ")),
            "{sgf}"
        );
    }
}

/// `--record-judgement`: hamle's Go engine lists `kata-genmove_analyze`, so each of its moves
/// is asked through it and keeps its judgement: SGF `SBKV` (Sabaki's win-rate graph) and a
/// comment, PGN `[%eval]`/`[%wr]`, `results.tsv`'s `judgements=`, for every move it
/// searched; the games are the same
/// moves as without the flag (the engine plays the move it would have played).
#[test]
fn judgements_are_kept_beside_each_moves_time_and_change_no_move() {
    let (out, results, pgn) = play("judged", &["--record-judgement"]);
    let (plain_out, plain, _) = play("unjudged", &[]);
    for (result, unjudged) in results.iter().zip(&plain) {
        let moves = result.moves;
        assert_eq!(moves, unjudged.moves, "{result:?} {unjudged:?}");
        let sgf = record(&out, result);
        let node = r"SBKV\[\d+\.\d\d\]C\[thinking \d+\.\d{3} s, win rate B \d+\.\d\d%, lead [BW]\+\d+\.\d\d\]";
        // Every move the engine searched; a pass it chose without a search has none.
        let judged = result
            .costs
            .iter()
            .filter(|c| c.judgement.is_some())
            .count();
        assert!(judged + 2 >= moves && judged > 0, "{result:?}");
        assert_eq!(count(node, &sgf), judged, "{sgf}");
        assert_eq!(
            hamle::contract::record::without_move_times(&sgf),
            hamle::contract::record::without_move_times(&record(&plain_out, unjudged)),
            "the same moves"
        );
        let game = pgn_game(&pgn, result);
        let comment = r"\{\[%emt \d+:\d\d:\d\d\.\d\] \[%eval -?\d+\.\d\d\] \[%wr \d+\.\d\d\]\}";
        assert_eq!(count(comment, &game), judged, "{game}");
    }
}

/// `--record-judgement` for Tavla: hamle's engine lists `genmove_analyze`, so each of its
/// plays keeps its equity (`eq:…`, the first seat's view) in `results.tsv`, in the `.mat`'s
/// `; [MoveJudgements …]` comment lines (one word a decision, as `MoveTimes`), which the
/// viewer reads back (its curve: `view::costs`' unit test); the plays are those of the same
/// match without the flag.
#[test]
fn tavla_plays_keep_their_equity() {
    let dir = scratch("move_times", "tavla_judged");
    let engine = ["hamle", "tavla", "--level", "net"];
    crate::support::arena::bot(&dir, "n1", "tavla", &engine);
    crate::support::arena::bot(&dir, "n2", "tavla", &engine);
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let out_text = out.to_str().expect("utf-8").to_owned();
        let args = [
            &["n1", "n2", "--points", "1", "--pairs", "1", "--quiet"][..],
            &["--out", &out_text],
            extra,
        ]
        .concat();
        ok(&hamle_match(&dir, &args));
        resumes_as_is(&dir, &args);
        (out.clone(), sorted_results(&out))
    };
    let (out, results) = run("judged", &["--record-judgement"]);
    let (plain_out, plain) = run("plain", &[]);
    let word = Regex::new(r"^(eq:-?\d+\.\d{3}|-)$").expect("regex");
    let tag = Regex::new(r#"; \[MoveJudgements "([^"]*)"\]"#).expect("regex");
    for (result, unjudged) in results.iter().zip(&plain) {
        let judged = result.costs.iter().filter(|c| c.judgement.is_some());
        // Every decision of a 1-point match is a play (the cube is dead): each has one.
        assert_eq!(judged.count(), result.moves, "{result:?}");
        let text = record(&out, result);
        let words: Vec<&str> = tag
            .captures_iter(&text)
            .flat_map(|caps| caps.get(1).map_or("", |m| m.as_str()).split(' '))
            .collect();
        assert_eq!(words.len(), result.moves, "{text}");
        assert!(words.iter().all(|w| word.is_match(w)), "{text}");
        assert_eq!(
            hamle::contract::record::without_move_times(&text),
            hamle::contract::record::without_move_times(&record(&plain_out, unjudged)),
            "the same plays"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
