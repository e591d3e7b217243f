//! The viewer pages in a real browser: `hamle view` turns a known record of each game into
//! a page, headless chromium runs its script at a chosen move (`#move=N`), and the DOM it
//! dumps shows the expected pieces on the visible board and the recorded result at the end.
//! Then what needs no browser: no request outside the page's folder, damaged records,
//! unknown games, and the pages a match writes beside its records.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use crate::support::arena::{HAMLE, bot, hamle_match, mangala_engine, ok, scratch};
use crate::support::peers::{CHROMIUM, require_chromium};

const GO: &str = "(;GM[1]FF[4]SZ[9]KM[7.5]PB[alpha]PW[beta]RE[W+R]GC[hamle match game 1 (pair 1), seed 1 (match seed 1); resignation]\n;B[ee];W[ce];B[gc];W[])\n";

const ABALONE: &str = "[Game \"Abalone\"]\n[Black \"a\"]\n[White \"b\"]\n[Start \"standard\"]\n[Result \"B+R\"]\n[Comment \"hamle match game 1 (pair 1), seed 1 (match seed 1); resignation\"]\n\n1. c3d4 i5h5\n2. d4e5\nB+R\n";

const TAVLA: &str = "; [Player 1 \"w\"]\n; [Player 2 \"b\"]\n; [Crawford \"On\"]\n; [Cube \"On\"]\n; [Result \"W+R\"]\n; [Comment \"hamle match game 1 (pair 1), seed 1 (match seed 1); resignation\"]\n\n 1 point match\n\n Game 1\n w : 0                               b : 0\n  1)                             31: 8/5 6/5\n  2) 52: 13/8 13/11\n";

const MANGALA: &str = "[Game \"Mangala\"]\n[South \"a\"]\n[North \"b\"]\n[Rules \"turkish\"]\n[Stones \"4\"]\n[Sets \"1\"]\n[Starters \"alternate\"]\n[Draw \"south hides the stone in the left hand, north guesses right: south starts\"]\n[Result \"N+R\"]\n[Comment \"hamle match game 1 (pair 1), seed 1 (match seed 1); resignation\"]\n\nSet 1: south starts\nS1 N1\nunfinished\nN+R\n";

fn kulami() -> String {
    format!(
        "[Game \"Kulami\"]\n[Black \"a\"]\n[Red \"b\"]\n[Layout \"{}\"]\n[Scoring \"standard\"]\n[RowBonus \"0\"]\n[Result \"R+F\"]\n[Comment \"hamle match game 1 (pair 1), seed 1 (match seed 1); illegal move\"]\n\n1. D5 E5\n2. E3\nR+F\n",
        hamle::kulami::layout::Layout::standard()
    )
}

fn view(args: &[&Path]) -> Output {
    Command::new(HAMLE)
        .arg("view")
        .args(args)
        .output()
        .expect("run hamle view")
}

/// Writes `record` as `dir/name` and its page with `hamle view`; returns the page's path.
fn page_of(dir: &Path, name: &str, record: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, record).expect("write record");
    ok(&view(&[&path]));
    path.with_extension("html")
}

/// The DOM after the page's script ran, opened at `fragment`.
fn dom(page: &Path, fragment: &str) -> String {
    require_chromium();
    let profile = page.with_extension("profile");
    let output = Command::new(CHROMIUM)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}{fragment}", page.display()))
        .output()
        .expect("run chromium");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// The one board the script left visible: its move number and its markup.
fn visible_frame(dom: &str) -> (usize, String) {
    let frames: Vec<&str> = dom.split("<figure ").skip(1).collect();
    let visible: Vec<&str> = frames
        .iter()
        .copied()
        .filter(|frame| !frame.split('>').next().unwrap_or("").contains("hidden"))
        .collect();
    assert_eq!(visible.len(), 1, "one board shown of {}", frames.len());
    let frame = visible[0];
    let number = frame
        .split("data-move=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .and_then(|n| n.parse().ok())
        .expect("a move number");
    let markup = frame.split("</figure>").next().unwrap_or("").to_owned();
    (number, markup)
}

/// What the status line under the board says.
fn status(dom: &str) -> String {
    dom.split("id=\"status\"")
        .nth(1)
        .and_then(|rest| rest.split('>').nth(1))
        .and_then(|rest| rest.split('<').next())
        .unwrap_or("")
        .to_owned()
}

fn count(markup: &str, class: &str) -> usize {
    markup.matches(&format!("class=\"{class}\"")).count()
}

/// The highlighted entry of the move list.
fn current_move(dom: &str) -> Option<usize> {
    dom.split("<li ")
        .find(|item| item.split('>').next().unwrap_or("").contains("current"))
        .and_then(|item| item.split("data-move=\"").nth(1))
        .and_then(|rest| rest.split('"').next())
        .and_then(|n| n.parse().ok())
}

#[test]
fn go_shows_the_stones_of_a_chosen_move_and_the_result_at_the_end() {
    let dir = scratch("viewer", "go");
    let page = page_of(&dir, "game.sgf", GO);
    let dom_at_2 = dom(&page, "#move=2");
    let (number, board) = visible_frame(&dom_at_2);
    assert_eq!(number, 2);
    assert_eq!(
        (count(&board, "stone black"), count(&board, "stone white")),
        (1, 1)
    );
    assert_eq!(count(&board, "last"), 1);
    assert_eq!(current_move(&dom_at_2), Some(2));
    assert_eq!(status(&dom_at_2), "Move 2 of 4: White C5");
    let dom_at_end = dom(&page, "#move=end");
    let (number, board) = visible_frame(&dom_at_end);
    assert_eq!(number, 4);
    assert_eq!(
        (count(&board, "stone black"), count(&board, "stone white")),
        (2, 1)
    );
    assert_eq!(
        status(&dom_at_end),
        "Move 4 of 4: White pass. Result: W+R (resignation)"
    );
}

#[test]
fn abalone_shows_every_marble_and_the_result() {
    let dir = scratch("viewer", "abalone");
    let dom = dom(&page_of(&dir, "game.txt", ABALONE), "#move=end");
    let (number, board) = visible_frame(&dom);
    assert_eq!(number, 3);
    assert_eq!(
        (count(&board, "marble black"), count(&board, "marble white")),
        (14, 14)
    );
    assert_eq!(count(&board, "last"), 1);
    assert!(
        status(&dom).ends_with("Result: B+R (resignation)"),
        "{}",
        status(&dom)
    );
}

#[test]
fn kulami_shows_the_marbles_the_marker_and_the_result() {
    let dir = scratch("viewer", "kulami");
    let dom = dom(&page_of(&dir, "game.txt", &kulami()), "#move=end");
    let (number, board) = visible_frame(&dom);
    assert_eq!(number, 3);
    assert_eq!(
        (count(&board, "marble black"), count(&board, "marble red")),
        (2, 1)
    );
    assert_eq!(count(&board, "last"), 1);
    assert!(
        status(&dom).ends_with("Result: R+F (illegal move)"),
        "{}",
        status(&dom)
    );
}

#[test]
fn mangala_shows_every_count_and_the_result() {
    let dir = scratch("viewer", "mangala");
    let dom = dom(&page_of(&dir, "game.txt", MANGALA), "#move=1");
    let (number, board) = visible_frame(&dom);
    assert_eq!(number, 1);
    // South sowed pit 1's four stones from pit 1: 1, 5, 5, 5 and three untouched 4s.
    let counts: Vec<u32> = board
        .split("class=\"count pit\"")
        .skip(1)
        .filter_map(|rest| rest.split('>').nth(1)?.split('<').next()?.parse().ok())
        .collect();
    assert_eq!(counts[..6], [1, 5, 5, 5, 4, 4]);
    assert_eq!(counts.iter().sum::<u32>(), 48);
    assert_eq!(status(&dom), "Move 1 of 2: South S1 (set 1)");
}

#[test]
fn tavla_shows_fifteen_checkers_a_side_the_dice_and_the_result() {
    let dir = scratch("viewer", "tavla");
    let dom = dom(&page_of(&dir, "game.mat", TAVLA), "#move=end");
    let (number, board) = visible_frame(&dom);
    assert_eq!(number, 2);
    assert_eq!(
        (
            count(&board, "checker white"),
            count(&board, "checker black")
        ),
        (15, 15)
    );
    assert_eq!(count(&board, "die"), 2);
    assert_eq!(count(&board, "cube"), 1);
    assert!(
        status(&dom).ends_with("Result: W+R (resignation)"),
        "{}",
        status(&dom)
    );
}

#[test]
fn a_page_asks_for_nothing_outside_itself() {
    let dir = scratch("viewer", "offline");
    let records = [
        ("go.sgf", GO.to_owned()),
        ("abalone.txt", ABALONE.to_owned()),
        ("kulami.txt", kulami()),
        ("mangala.txt", MANGALA.to_owned()),
        ("tavla.mat", TAVLA.to_owned()),
    ];
    for (name, record) in records {
        let page = std::fs::read_to_string(page_of(&dir, name, &record)).expect("page");
        let (markup, script) = page.split_once("<script>").expect("a script");
        for word in ["http:", "https:", "src=", "url(", "@import", "//"] {
            assert!(!markup.contains(word), "{name}: '{word}' in the page");
        }
        for word in ["http", "fetch", "XMLHttpRequest", "import", "src"] {
            assert!(!script.contains(word), "{name}: '{word}' in the script");
        }
        for href in page.split("href=\"").skip(1) {
            assert!(
                href.starts_with('#'),
                "{name}: a link out: {}",
                &href[..20.min(href.len())]
            );
        }
    }
}

#[test]
fn a_damaged_record_says_which_line_and_an_unknown_game_is_an_error() {
    let dir = scratch("viewer", "bad");
    let page = page_of(&dir, "damaged.txt", &ABALONE.replace("d4e5", "c3c4"));
    let page = std::fs::read_to_string(page).expect("page");
    assert!(
        page.contains("line 9 of the record could not be read"),
        "{page}"
    );
    assert_eq!(
        page.matches("<figure ").count(),
        3,
        "the start and two moves"
    );

    let chess = dir.join("chess.txt");
    std::fs::write(&chess, "[Game \"Chess\"]\n1. e4\n").expect("write");
    let output = view(&[&chess]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("unknown game 'Chess'"), "{stderr}");
    assert!(!chess.with_extension("html").exists(), "no empty page");

    let output = view(&[&dir]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));

    let big = dir.join("big.sgf");
    std::fs::write(&big, vec![b' '; 5 << 20]).expect("write");
    let output = view(&[&big]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("more than the"));
}

#[test]
fn a_match_writes_each_games_page_and_links_it_from_its_report() {
    let dir = scratch("viewer", "match");
    let engine = mangala_engine;
    bot(&dir, "m1", "mangala", &engine("300"));
    bot(&dir, "m2", "mangala", &engine("600"));
    let out = dir.join("out");
    let out_text = out.display().to_string();
    ok(&hamle_match(
        &dir,
        &["m1", "m2", "--games", "2", "--out", &out_text],
    ));
    let report = std::fs::read_to_string(out.join("report.html")).expect("the match's report");
    for game in ["0001", "0002"] {
        assert!(
            report.contains(&format!("href=\"games/{game}.html\"")),
            "{report}"
        );
        let page = std::fs::read_to_string(out.join("games").join(format!("{game}.html")))
            .expect("the game's page");
        assert!(page.contains("<figure class=\"frame"), "{game}");
        assert!(page.contains("href=\"../report.html\""));
        assert!(!page.contains("Damaged record"), "{game}");
    }
}

/// Every `.html` file under `dir`, by path relative to it, with its text.
fn pages_under(dir: &Path) -> std::collections::BTreeMap<PathBuf, String> {
    let mut pages = std::collections::BTreeMap::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "html") {
                let text = std::fs::read_to_string(&path).expect("page");
                let relative = path.strip_prefix(dir).expect("under dir").to_path_buf();
                pages.insert(relative, text);
            }
        }
    }
    pages
}

#[test]
fn ladder_report_rebuilds_every_page_of_an_old_run() {
    let dir = scratch("viewer", "ladder");
    let engine = mangala_engine;
    bot(&dir, "m1", "mangala", &engine("200"));
    bot(&dir, "m2", "mangala", &engine("400"));
    bot(&dir, "m3", "mangala", &engine("800"));
    let out = dir.join("out");
    let out_text = out.display().to_string();
    let ladder = Command::new(HAMLE)
        .args(["ladder", "--bots"])
        .arg(dir.join("bots"))
        .args(["m1", "m2", "m3", "--pairs", "1", "--sets", "1", "--quiet"])
        .args(["--out", &out_text])
        .output()
        .expect("run hamle ladder");
    ok(&ladder);
    let written = pages_under(&out);
    let games = written
        .keys()
        .filter(|path| path.components().any(|c| c.as_os_str() == "games"))
        .count();
    assert_eq!(
        games,
        6,
        "a page for each game of 3 pairings: {:?}",
        written.keys()
    );
    let report = &written[Path::new("report.html")];
    assert_eq!(report.matches("/games/").count(), 6, "{report}");
    // An old run: its pages gone; `ladder report` writes them again, the same.
    for page in written.keys() {
        std::fs::remove_file(out.join(page)).expect("remove a page");
    }
    let rebuilt = Command::new(HAMLE)
        .args(["ladder", "report", &out_text])
        .output()
        .expect("run hamle ladder report");
    ok(&rebuilt);
    assert_eq!(pages_under(&out), written);
}

/// The match's game page shows each move's time and clock beside it and under the board,
/// and, under `--record-judgement`, the curve of the engines' win rates with its mark on
/// the shown move, drawn by the page's script in headless chromium.
#[test]
fn a_judged_games_page_shows_each_moves_time_and_the_win_rate_curve() {
    let dir = scratch("viewer", "judged");
    let out = dir.join("out");
    let out_text = out.display().to_string();
    ok(&hamle_match(
        &dir,
        &[
            "a=hamle go --playouts 10",
            "b=hamle go --playouts 10",
            "--size",
            "7",
            "--games",
            "1",
            "--time-control",
            "absolute:600",
            "--record-judgement",
            "--quiet",
            "--out",
            &out_text,
        ],
    ));
    let page_path = out.join("games/0001.html");
    let page = std::fs::read_to_string(&page_path).expect("the game's page");
    let spans =
        regex::Regex::new(r#"<span class="cost">\d+\.\d{3} s, \d+\.\d{3} s left[^<]*</span>"#)
            .expect("regex");
    let moves = page.matches("<li data-move=").count();
    assert_eq!(
        spans.find_iter(&page).count(),
        moves,
        "a time beside every move"
    );
    let points = page
        .split("class=\"judged\" points=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the curve's points");
    assert!(points.split(' ').count() + 2 >= moves, "{points}");
    // The record alone (`hamle view`) gives back the same times and curve.
    let alone = page_of(
        &dir,
        "alone.sgf",
        &std::fs::read_to_string(out.join("games/0001.sgf")).expect("the record"),
    );
    let alone = std::fs::read_to_string(alone).expect("the record's page");
    assert_eq!(
        spans.find_iter(&alone).count(),
        moves,
        "from the record alone"
    );
    assert!(
        alone.contains(&format!("points=\"{points}\"")),
        "the same curve"
    );
    let dom = dom(&page_path, "#move=3");
    let status = status(&dom);
    assert!(
        regex::Regex::new(r"^Move 3 of \d+: Black \S+ \(\d+\.\d{3} s, \d+\.\d{3} s left; Black \d+\.\d\d% lead -?\d+\.\d\d\)$")
            .expect("regex")
            .is_match(&status),
        "{status}"
    );
    // The mark sits on move 3 of the curve (600 wide, the start at 0, the last move at 600).
    let x = format!("{:.1}", 600.0 * 3.0 / moves as f64);
    assert!(
        dom.contains(&format!("id=\"curve-at\" x1=\"{x}\"")),
        "{x}: {}",
        dom.split("id=\"curve-at\"").nth(1).unwrap_or("no mark")
    );
}
