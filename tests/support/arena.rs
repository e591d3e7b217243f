//! What the arena's integration tests share: a scratch folder with a `bots/` directory, bot
//! files written on the fly (plain or wrapped in the broken-engine fixture), `hamle match`
//! run on them, and the results and records read back.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hamle::arena::store::{GameResult, read_results};

pub const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

/// A fresh folder for one test, `kind` and `name` telling the tests apart.
pub fn scratch(kind: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hamle-{kind}-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("bots")).expect("create scratch folder");
    dir
}

/// Writes `bots/NAME.toml` for a bot of `game` run as `command` (seeded with `--seed`).
pub fn bot(dir: &Path, name: &str, game: &str, command: &[&str]) {
    let command: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
    let text = format!(
        "name = \"{name}\"\ngame = \"{game}\"\ncommand = [{}]\nseed_arg = \"--seed\"\n",
        command.join(", ")
    );
    std::fs::write(dir.join("bots").join(format!("{name}.toml")), text).expect("write bot");
}

/// A bot whose engine (`hamle ENGINE…`) is wrapped in `tests/fixtures/broken_engine.py`,
/// misbehaving as `mode` says at its `k`-th move. Fails the test when python3 is missing.
pub fn broken(dir: &Path, name: &str, game: &str, mode: &str, k: u32, engine: &[&str]) {
    super::peers::require_python3();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py");
    let mut command = vec![
        "python3".to_owned(),
        fixture.display().to_string(),
        mode.to_owned(),
        k.to_string(),
        "--".to_owned(),
        HAMLE.to_owned(),
    ];
    command.extend(engine.iter().map(|w| (*w).to_owned()));
    let words: Vec<&str> = command.iter().map(String::as_str).collect();
    bot(dir, name, game, &words);
}

pub fn hamle_match(dir: &Path, args: &[&str]) -> Output {
    Command::new(HAMLE)
        .arg("match")
        .arg("--bots")
        .arg(dir.join("bots"))
        .args(args)
        .output()
        .expect("run hamle match")
}

/// The command line of a quick, deterministic hamle Mangala bot at `nodes` a move: a small
/// table and no endgame database, so that a game takes milliseconds.
pub fn mangala_engine(nodes: &'static str) -> [&'static str; 8] {
    [
        "hamle",
        "mangala",
        "--nodes",
        nodes,
        "--table-bits",
        "12",
        "--db-stones",
        "0",
    ]
}

/// `hamle match ARGS --resume` on a finished match: every saved line passes the resume
/// checks (the record replayed, the result and winner it allows, the seed), nothing is
/// played and `results.tsv` is left as it was.
pub fn resumes_as_is(dir: &Path, args: &[&str]) {
    let out = args
        .iter()
        .position(|arg| *arg == "--out")
        .and_then(|at| args.get(at + 1))
        .map(PathBuf::from)
        .expect("--out in the arguments");
    let before = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    ok(&hamle_match(dir, &[args, &["--resume"]].concat()));
    let after = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    assert_eq!(before, after, "nothing played again");
}

/// Fails the test unless the run succeeded; returns what it printed (stdout then stderr).
pub fn ok(output: &Output) -> String {
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.success(), "{text}");
    text
}

/// The match's results in game order.
pub fn sorted_results(out: &Path) -> Vec<GameResult> {
    let mut results = read_results(&out.join("results.tsv")).expect("results");
    results.sort_by_key(|r| r.game);
    results
}

/// The game record a result points to.
pub fn record(out: &Path, result: &GameResult) -> String {
    std::fs::read_to_string(out.join("games").join(&result.record)).expect("record")
}

/// Every file under `dir` (but the lock), by path, with its text, in path order: two run
/// folders compared whole (`tests/arena/shards.rs`, `slurm.rs`), the times in each
/// `results.tsv` blanked ([`without_times`]), and each move's times in the records ([`untimed_record`]).
pub fn folder_files(dir: &Path) -> Vec<(String, String)> {
    fn walk(root: &Path, dir: &Path, found: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("read folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(root, &path, found);
            } else if path.file_name().is_some_and(|name| name != ".lock") {
                let name = path
                    .strip_prefix(root)
                    .expect("inside")
                    .display()
                    .to_string();
                let text = std::fs::read_to_string(&path).expect("read file");
                let text = if name.ends_with("results.tsv") {
                    without_times(&text)
                } else if name.ends_with(".html") {
                    untimed_record(&untimed_page(&text))
                } else {
                    untimed_record(&text)
                };
                found.push((name, text));
            }
        }
    }
    let mut found = Vec::new();
    walk(dir, dir, &mut found);
    found.sort();
    found
}

/// The value of `key=` in one `results.tsv` line (empty when the line has none).
pub fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split('\t')
        .find_map(|f| f.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
        .unwrap_or("")
}

/// A record (or a page showing one) with each move's times blanked: SGF's `BL[~]`, `WL[~]`
/// and `C[thinking ~]`, PGN's `[%emt ~]` and `[%clk ~]`, the text records' and `.mat`'s
/// `[MoveTimes "~ ~@~"]`, the machine's.
pub fn untimed_record(text: &str) -> String {
    let tags = regex::Regex::new(r#"\[MoveTimes "[^"]*"\]"#).expect("regex");
    let digits = regex::Regex::new(r"[0-9.]+").expect("regex");
    let text = tags.replace_all(text, |caps: &regex::Captures| {
        digits.replace_all(&caps[0], "~").into_owned()
    });
    let times =
        regex::Regex::new(r"\b([BW]L)\[[^\]]*\]|C\[thinking [^\]]*\]|\[%(emt|clk) [^\]]*\]")
            .expect("regex");
    times
        .replace_all(&text, |caps: &regex::Captures| {
            match (caps.get(1), caps.get(2)) {
                (Some(side), _) => format!("{}[~]", side.as_str()),
                (None, Some(kind)) => format!("[%{} ~]", kind.as_str()),
                (None, None) => "C[thinking ~]".to_owned(),
            }
        })
        .into_owned()
}

/// A report or game page with the bots' thinking times (cells `class="time"`, the
/// machine's) and each move's time (`class="cost"` and the script's `costs` data) blanked.
pub fn untimed_page(text: &str) -> String {
    let time = regex::Regex::new(r#"<td class="time">[^<]*</td>"#).expect("regex");
    let text = time.replace_all(text, r#"<td class="time">~</td>"#);
    // Each move's time beside it, and the same words for the script.
    let cost = regex::Regex::new(r#"<span class="cost">[^<]*</span>"#).expect("regex");
    let text = cost.replace_all(&text, r#"<span class="cost">~</span>"#);
    let costs = regex::Regex::new(r#"<script type="application/json" id="costs">[^<]*</script>"#)
        .expect("regex");
    costs
        .replace_all(
            &text,
            r#"<script type="application/json" id="costs">~</script>"#,
        )
        .into_owned()
}

/// `results.tsv` text (or one line of it) with each engine's thinking times blanked
/// (`time_first=~`, `longest_first=~`): the times are the machine's, so two runs of the same games differ in
/// them and in nothing else (the `asked_` counts are kept: the same games ask the same).
pub fn without_times(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            let (line, end) = match line.strip_suffix('\n') {
                Some(line) => (line, "\n"),
                None => (line, ""),
            };
            let fields: Vec<String> = line
                .split('\t')
                .map(|field| match field.split_once('=') {
                    Some((key, _)) if key.starts_with("time_") || key.starts_with("longest_") => {
                        format!("{key}=~")
                    }
                    // Each move's times blanked, the moves' count and clocks' presence kept.
                    Some(("costs", value)) => {
                        let digits = regex::Regex::new(r"[0-9.]+").expect("regex");
                        format!("costs={}", digits.replace_all(value, "~"))
                    }
                    _ => field.to_owned(),
                })
                .collect();
            format!("{}{end}", fields.join("\t"))
        })
        .collect()
}
