//! Match and ladder folders that cannot be corrupted, end to end through the binary: a
//! second run on a folder in use is refused naming the first's pid (and `ladder report`
//! does not write there), a folder of other files is refused untouched, a forged
//! `results.tsv` line is refused on `--resume` naming its line, and a bot name that is a
//! path is refused with nothing written outside `--out`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;

use crate::support::arena::{HAMLE, field, scratch};
use crate::support::peers::require_python3;

fn fixture() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/broken_engine.py")
        .display()
        .to_string()
}

/// `hamle go` at 10 playouts: instant, seed-dependent.
fn go_bot(dir: &Path, name: &str) {
    let text = format!(
        "name = {name:?}\ngame = \"go\"\ncommand = [\"hamle\", \"go\", \"--rules\", \"chinese\"]\nseed_arg = \"--seed\"\n[options]\nplayouts = 10\n"
    );
    let file = name.replace(['/', '.'], "_");
    std::fs::write(dir.join("bots").join(format!("{file}.toml")), text).expect("write bot");
}

/// `hamle go` behind the broken-engine fixture in `mode`, with its marker file.
fn wrapped_bot(dir: &Path, name: &str, mode: &str, marker: &Path) {
    require_python3();
    let text = format!(
        "name = \"{name}\"\ngame = \"go\"\ncommand = [\"python3\", {:?}, \"{mode}\", \"1\", \"--marker\", {:?}, \"--\", {HAMLE:?}, \"go\", \"--rules\", \"chinese\", \"--playouts\", \"10\"]\n",
        fixture(),
        marker.display().to_string(),
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
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

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Asserts a refusal: exit 2 and one line on stderr holding every one of `words`.
fn refused(output: &Output, words: &[&str]) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{}", text(output));
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    for word in words {
        assert!(stderr.contains(word), "'{word}' in: {stderr}");
    }
}

/// A run in the background, killed if the test fails before it ends.
struct Background(Option<Child>);

impl Background {
    fn start(dir: &Path, command: &str, args: &[&str]) -> Background {
        let child = Command::new(HAMLE)
            .arg(command)
            .arg("--bots")
            .arg(dir.join("bots"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start hamle");
        Background(Some(child))
    }

    fn pid(&self) -> u32 {
        self.0.as_ref().map_or(0, Child::id)
    }

    /// Waits until `lock` names this run's pid (it holds the folder).
    fn wait_for_lock(&mut self, lock: &Path) {
        let deadline = Instant::now() + Duration::from_secs(300);
        let pid = self.pid().to_string();
        while std::fs::read_to_string(lock).ok().as_deref().map(str::trim) != Some(&pid) {
            if let Some(child) = self.0.as_mut()
                && let Ok(Some(status)) = child.try_wait()
            {
                panic!(
                    "the first run ended ({status}) before it locked {}",
                    lock.display()
                );
            }
            assert!(Instant::now() < deadline, "{} never locked", lock.display());
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn finish(mut self) -> Output {
        self.0
            .take()
            .expect("running")
            .wait_with_output()
            .expect("wait")
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(mut child) = self.0.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The arguments of a second run: the first's with a start timeout of 1 s.
fn second_run<'a>(args: &[&'a str]) -> Vec<&'a str> {
    args.iter()
        .map(|&arg| if arg == "600" { "1" } else { arg })
        .collect()
}

#[test]
fn a_second_run_on_a_match_folder_in_use_is_refused_naming_the_first() {
    let dir = scratch("folders", "match-lock");
    let marker = dir.join("go-on");
    wrapped_bot(&dir, "held", "wait-marker", &marker);
    go_bot(&dir, "alpha");
    let out = dir.join("m");
    let out_arg = out.to_str().expect("utf-8");
    // The held bot waits for the marker before answering anything, so the first run holds
    // the folder for as long as the test needs, on any machine.
    let args = [
        "held",
        "alpha",
        "--games",
        "2",
        "--start-timeout",
        "600",
        "--quiet",
        "--out",
        out_arg,
    ];
    let mut first = Background::start(&dir, "match", &args);
    first.wait_for_lock(&out.join(".lock"));
    let pid = format!("pid {}", first.pid());
    // The second runs with another start timeout: were the lock not checked first, they
    // would fail at once for the settings, not wait on the held bot.
    let second = second_run(&args);
    let resumed = hamle(&dir, "match", &[&second[..], &["--resume"]].concat());
    refused(
        &resumed,
        &["in use by another hamle process", &pid, ".lock"],
    );
    let again = hamle(&dir, "match", &second);
    refused(&again, &["in use", &pid]);
    std::fs::write(&marker, "").expect("let the first go on");
    let output = first.finish();
    assert!(output.status.success(), "{}", text(&output));
    let results = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    let games: Vec<&str> = results
        .lines()
        .map(|line| line.split('\t').next().unwrap_or(""))
        .collect();
    let mut sorted = games.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, ["game=0", "game=1"], "each game once: {results}");
    // The lock went with the process: the folder resumes (nothing left to play).
    let resumed = hamle(&dir, "match", &[&args[..], &["--resume"]].concat());
    assert!(resumed.status.success(), "{}", text(&resumed));
}

#[test]
fn a_ladder_folder_in_use_refuses_a_second_run_its_report_and_its_pairings() {
    let dir = scratch("folders", "ladder-lock");
    let marker = dir.join("go-on");
    wrapped_bot(&dir, "held", "wait-marker", &marker);
    go_bot(&dir, "alpha");
    let out = dir.join("l");
    let out_arg = out.to_str().expect("utf-8");
    let args = [
        "held",
        "alpha",
        "--pairs",
        "1",
        "--start-timeout",
        "600",
        "--quiet",
        "--out",
        out_arg,
    ];
    let mut first = Background::start(&dir, "ladder", &args);
    let pairing = out.join("pairings").join("01-held-vs-alpha");
    first.wait_for_lock(&pairing.join(".lock"));
    first.wait_for_lock(&out.join(".lock"));
    let pid = format!("pid {}", first.pid());
    let resumed = hamle(
        &dir,
        "ladder",
        &[&second_run(&args)[..], &["--resume"]].concat(),
    );
    refused(&resumed, &["in use by another hamle process", &pid]);
    let report = Command::new(HAMLE)
        .args(["ladder", "report", out_arg])
        .output()
        .expect("run hamle");
    refused(&report, &["in use", &pid]);
    assert!(
        !out.join("report.html").exists(),
        "the report wrote nothing"
    );
    let pairing_arg = pairing.to_str().expect("utf-8");
    let pairing_match = hamle(
        &dir,
        "match",
        &[
            "held",
            "alpha",
            "--games",
            "2",
            "--start-timeout",
            "1",
            "--out",
            pairing_arg,
            "--resume",
        ],
    );
    refused(&pairing_match, &["in use", &pid]);
    std::fs::write(&marker, "").expect("let the first go on");
    let output = first.finish();
    assert!(output.status.success(), "{}", text(&output));
    let report = Command::new(HAMLE)
        .args(["ladder", "report", out_arg])
        .output()
        .expect("run hamle");
    assert!(report.status.success(), "{}", text(&report));
}

/// Every file under `dir` with its text, for "nothing changed".
fn snapshot(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                files.push((path.clone(), String::new()));
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).unwrap_or_default();
                files.push((path.clone(), String::from_utf8_lossy(&bytes).into_owned()));
            }
        }
    }
    files.sort();
    files
}

#[test]
fn a_folder_of_other_files_is_refused_and_left_untouched() {
    let dir = scratch("folders", "foreign");
    go_bot(&dir, "alpha");
    go_bot(&dir, "beta");
    let mine = dir.join("mine");
    std::fs::create_dir_all(mine.join("games")).expect("create");
    std::fs::write(
        mine.join("games").join("0001.sgf"),
        "(;GM[1]C[my own game])",
    )
    .expect("write");
    std::fs::write(mine.join("results.pgn"), "[Event \"mine\"]\n").expect("write");
    let before = snapshot(&dir);
    let mine_arg = mine.to_str().expect("utf-8");
    let played = hamle(&dir, "match", &["alpha", "beta", "--out", mine_arg]);
    refused(
        &played,
        &[
            "is not empty and holds no match (match.txt is missing; found games, results.pgn)",
            "empty or new folder",
            "--resume a match folder",
        ],
    );
    let laddered = hamle(&dir, "ladder", &["alpha", "beta", "--out", mine_arg]);
    refused(
        &laddered,
        &[
            "holds no ladder (ladder.txt is missing",
            "--resume a ladder folder",
        ],
    );
    let resumed = hamle(
        &dir,
        "match",
        &["alpha", "beta", "--out", mine_arg, "--resume"],
    );
    refused(&resumed, &["holds no match to resume"]);
    assert_eq!(
        snapshot(&dir),
        before,
        "nothing written, not even a lock file"
    );
    // A match folder is no ladder folder, nor the other way round.
    let m = dir.join("m");
    let m_arg = m.to_str().expect("utf-8");
    let played = hamle(&dir, "match", &["alpha", "beta", "--quiet", "--out", m_arg]);
    assert!(played.status.success(), "{}", text(&played));
    let laddered = hamle(&dir, "ladder", &["alpha", "beta", "--out", m_arg]);
    refused(&laddered, &["holds no ladder"]);
}

/// Replaces the value of `key` in line `line` (from 1) of `tsv`.
fn forge(tsv: &str, line: usize, key: &str, value: &str) -> String {
    let mut lines: Vec<String> = tsv.lines().map(str::to_owned).collect();
    let fields: Vec<String> = lines[line - 1]
        .split('\t')
        .map(|field| match field.split_once('=') {
            Some((k, _)) if k == key => format!("{k}={value}"),
            _ => field.to_owned(),
        })
        .collect();
    lines[line - 1] = fields.join("\t");
    lines.join("\n") + "\n"
}

/// Forged records under true lines: another game's record copied over a game's (its
/// comment names the other game and seed), and a record whose comment and line both say
/// `resignation` for a game the move cap ended. Each record is restored after its run.
fn forged_records_are_refused(dir: &Path, args: &[&str], tsv: &str) {
    let games = dir.join("m").join("games");
    let (first, second) = (games.join("0001.sgf"), games.join("0002.sgf"));
    let kept = std::fs::read_to_string(&second).expect("record");
    let resume = [args, &["--resume"]].concat();
    std::fs::copy(&first, &second).expect("copy");
    let line = 1 + tsv
        .lines()
        .position(|l| field(l, "game") == "1")
        .expect("game 1's line");
    let seed = field(tsv.lines().nth(line - 1).expect("line"), "seed");
    refused(
        &hamle(dir, "match", &resume),
        &[
            &format!("results.tsv:{line}:"),
            &format!(
                "record games/0002.sgf is not game 1's with seed {seed}: its comment says 'hamle match game 1 (pair 1)"
            ),
        ],
    );
    std::fs::write(&second, &kept).expect("restore");
    let relabelled = kept.replace("; move cap", "; resignation");
    assert_ne!(relabelled, kept, "the comment gives the reason: {kept}");
    std::fs::write(&second, relabelled).expect("forge");
    let tsv_path = dir.join("m").join("results.tsv");
    std::fs::write(&tsv_path, forge(tsv, line, "reason", "resignation")).expect("forge");
    refused(
        &hamle(dir, "match", &resume),
        &[&format!(
            "results.tsv:{line}: result=0 is not a result of this game ended by 'resignation'"
        )],
    );
    std::fs::write(&second, &kept).expect("restore");
    std::fs::write(&tsv_path, tsv).expect("restore");
}

#[test]
fn forged_results_lines_are_refused_on_resume_naming_the_line() {
    let dir = scratch("folders", "forged");
    go_bot(&dir, "alpha");
    go_bot(&dir, "beta");
    let out = dir.join("m");
    let out_arg = out.to_str().expect("utf-8");
    // One move and a komi of the board's 81 points: Black's one stone owns the empty
    // board, so the game is counted a draw at the move cap.
    let args = [
        "alpha",
        "beta",
        "--games",
        "2",
        "--seed",
        "3",
        "--komi",
        "81",
        "--max-moves",
        "1",
        "--quiet",
        "--out",
        out_arg,
    ];
    let played = hamle(&dir, "match", &args);
    assert!(played.status.success(), "{}", text(&played));
    let tsv_path = out.join("results.tsv");
    let original = std::fs::read_to_string(&tsv_path).expect("results");
    let line = 1 + original
        .lines()
        .position(|l| field(l, "result") == "0")
        .unwrap_or_else(|| panic!("a drawn game: {original}"));
    let drawn = original.lines().nth(line - 1).expect("the line");
    let seed: u64 = field(drawn, "seed").parse().expect("a seed");
    let game: usize = field(drawn, "game").parse().expect("a game");
    let at = format!("results.tsv:{line}:");
    let wrong_seed = (seed ^ 1).to_string();
    let forgeries = [
        (
            "result",
            "banana",
            "result=banana, but record games/".to_owned(),
        ),
        (
            "winner",
            "first",
            "winner=first, but result 0 is a draw".to_owned(),
        ),
        (
            "seed",
            wrong_seed.as_str(),
            format!("seed {wrong_seed} is not game {game}'s"),
        ),
        (
            "game",
            "7",
            "game 7 is out of range: the match has 2 games".to_owned(),
        ),
        (
            "record",
            "../../evil.sgf",
            "record '../../evil.sgf' is not game".to_owned(),
        ),
        // A move count and a reason the record does not have.
        ("moves", "2", "moves=2, but record games/".to_owned()),
        (
            "reason",
            "resignation",
            "reason=resignation, but record games/".to_owned(),
        ),
        // A control character in a field, NUL included: never one our writer wrote.
        (
            "reason",
            "move\0cap",
            "field 'reason=move\\0cap' holds the control character '\\0'".to_owned(),
        ),
        (
            "first",
            "alpha\u{1b}[2J",
            "holds the control character '\\u{1b}'".to_owned(),
        ),
    ];
    // Each run writes its pid into the lock file: all but that must stay as it was.
    let unlocked = |dir: &Path| {
        let mut files = snapshot(dir);
        files.retain(|(path, _)| !path.ends_with(".lock"));
        files
    };
    let before = unlocked(&out);
    for (key, value, message) in &forgeries {
        let forged = forge(&original, line, key, value);
        std::fs::write(&tsv_path, &forged).expect("forge");
        let resumed = hamle(&dir, "match", &[&args[..], &["--resume"]].concat());
        refused(&resumed, &[&at, message]);
        assert_eq!(
            std::fs::read_to_string(&tsv_path).expect("results"),
            forged,
            "nothing rewritten"
        );
    }
    std::fs::write(&tsv_path, &original).expect("restore");
    forged_records_are_refused(&dir, &args, &original);
    assert_eq!(unlocked(&out), before, "nothing else written either");
    let resumed = hamle(&dir, "match", &[&args[..], &["--resume"]].concat());
    assert!(
        resumed.status.success(),
        "the true lines resume: {}",
        text(&resumed)
    );

    // A ladder resumes its pairings as matches do, with the same checks.
    let ladder = dir.join("l");
    let ladder_args = [
        "alpha",
        "beta",
        "--pairs",
        "1",
        "--seed",
        "4",
        "--quiet",
        "--out",
        ladder.to_str().expect("utf-8"),
    ];
    let played = hamle(&dir, "ladder", &ladder_args);
    assert!(played.status.success(), "{}", text(&played));
    let pairing_tsv = ladder.join("pairings/01-alpha-vs-beta/results.tsv");
    let original = std::fs::read_to_string(&pairing_tsv).expect("results");
    let first_line = original.lines().next().expect("a line");
    let flipped = if field(first_line, "winner") == "first" {
        "second"
    } else {
        "first"
    };
    std::fs::write(&pairing_tsv, forge(&original, 1, "winner", flipped)).expect("forge");
    let resumed = hamle(&dir, "ladder", &[&ladder_args[..], &["--resume"]].concat());
    refused(
        &resumed,
        &[
            "pairings/01-alpha-vs-beta/results.tsv:1:",
            &format!("winner={flipped}, but result"),
        ],
    );
    std::fs::write(&pairing_tsv, &original).expect("restore");
    let resumed = hamle(&dir, "ladder", &[&ladder_args[..], &["--resume"]].concat());
    assert!(resumed.status.success(), "{}", text(&resumed));
}

#[test]
fn a_bot_name_that_is_a_path_is_refused_and_nothing_is_written() {
    let dir = scratch("folders", "names");
    go_bot(&dir, "alpha");
    let bad_dir = dir.join("bad");
    std::fs::create_dir_all(bad_dir.join("bots")).expect("create");
    go_bot(&bad_dir, "../evil");
    let before = snapshot(&dir);
    let out = dir.join("out").join("m");
    let out_arg = out.to_str().expect("utf-8");
    let rule = "letters, digits and - _ . + (not starting with '.')";
    for command in ["match", "ladder"] {
        let output = hamle(&bad_dir, command, &["../evil", "alpha", "--out", out_arg]);
        refused(
            &output,
            &["field `name`: bot name '../evil' holds '/'", rule],
        );
    }
    // Named on the command line: a hidden file's name, and one too long.
    let long = format!("{}=hamle go --playouts 10", "x".repeat(65));
    for spec in [".evil=hamle go --playouts 10", long.as_str()] {
        for command in ["match", "ladder"] {
            let output = hamle(&dir, command, &[spec, "alpha", "--out", out_arg]);
            refused(&output, &[rule]);
        }
    }
    assert_eq!(snapshot(&dir), before, "nothing written anywhere");
}
