//! `hamle tune` end to end: SPSA finds the known optimum of `tests/fixtures/peaked_bot.py`
//! (its strength peaks at x = 37) from a seed, a run stopped and killed (kill -9) goes on
//! to the very same iterations, `--against` and `--verify` play what they say, and bad
//! `[tune]` tables or a `--resume` of other settings are refused before anything is played.
//! Node budgets only: no clock decides anything here.

#[path = "../support/mod.rs"]
mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use support::arena::{HAMLE, ok, scratch};

const OPTIMUM: f64 = 37.0;
/// How far from the optimum the tuned value may end (the bot's strength falls by a
/// resignation chance of 1/50 a unit of x; the last steps move x by about 3).
const TOLERANCE: f64 = 10.0;
const TUNE: &str = "x = { start = 75, min = 0, max = 100, step = 6, r_end = 0.5 }";

/// Writes the peaked bot's file into `dir` with `tune` as its `[tune]` entry.
fn peaked_bot(dir: &Path, file: &str, name: &str, tune: &str) -> PathBuf {
    support::peers::require_python3();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/peaked_bot.py");
    let mut command = vec![
        "python3".to_owned(),
        fixture.display().to_string(),
        HAMLE.to_owned(),
    ];
    command.extend(
        support::arena::mangala_engine("50")[1..]
            .iter()
            .map(|w| (*w).to_owned()),
    );
    let command: Vec<String> = command.iter().map(|w| format!("{w:?}")).collect();
    let text = format!(
        "# A bot whose strength peaks at x = 37.\nname = \"{name}\"\ngame = \"mangala\"\ncommand = [{}]\nseed_arg = \"--seed\"\nseed_command = \"set_random_seed\"\n\n[options]\nx = 50 # the tuned option\nlabel = \"plain\"\n\n[tune]\n{tune}\n",
        command.join(", ")
    );
    let path = dir.join(file);
    std::fs::write(&path, text).expect("write the bot file");
    path
}

fn tune_command(bot: &Path, out: &Path, extra: &[&str]) -> Command {
    tune_for(bot, out, "20", extra)
}

fn tune_for(bot: &Path, out: &Path, iterations: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(HAMLE);
    command
        .arg("tune")
        .arg(bot)
        .arg("--out")
        .arg(out)
        .args([
            "--iterations",
            iterations,
            "--sets",
            "1",
            "--seed",
            "5",
            "--quiet",
        ])
        .args(extra);
    command
}

fn run(mut command: Command) -> Output {
    command.output().expect("run hamle tune")
}

fn theta_rows(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out.join("theta.tsv"))
        .unwrap_or_default()
        .lines()
        .skip(1)
        .map(str::to_owned)
        .collect()
}

fn last_x(out: &Path) -> f64 {
    let rows = theta_rows(out);
    let last = rows.last().expect("a row an iteration");
    last.split('\t')
        .nth(3)
        .and_then(|x| x.parse().ok())
        .expect("x in theta.tsv")
}

#[test]
fn tuning_ends_near_the_known_optimum_and_a_killed_run_goes_on_identically() {
    let dir = scratch("tune", "optimum");
    let bot = peaked_bot(&dir, "peak.toml", "peak", TUNE);
    let whole = dir.join("whole");
    ok(&run(tune_command(&bot, &whole, &[])));
    let x = last_x(&whole);
    assert!(
        (x - OPTIMUM).abs() <= TOLERANCE,
        "ended at x = {x}, the optimum is {OPTIMUM}"
    );
    let tuned = std::fs::read_to_string(whole.join("tuned.toml")).expect("tuned.toml");
    assert!(tuned.contains("name = \"peak-tuned\""), "{tuned}");
    assert!(
        tuned.contains(&format!("x = {} # the tuned option", x.round())),
        "the author's comments kept: {tuned}"
    );
    assert!(tuned.contains("# A bot whose strength peaks"), "{tuned}");
    let page = std::fs::read_to_string(whole.join("tune.html")).expect("tune.html");
    assert!(
        page.contains("<svg") && page.contains("20 of 20 iterations"),
        "{page}"
    );

    // The same run in slices: stopped after 6, killed (-9) somewhere after, resumed.
    let sliced = dir.join("sliced");
    let stopped = ok(&run(tune_command(&bot, &sliced, &["--stop-after", "6"])));
    assert!(stopped.contains("stopped after iteration 6"), "{stopped}");
    assert_eq!(theta_rows(&sliced).len(), 6);
    let mut child = tune_command(&bot, &sliced, &["--resume"])
        .spawn()
        .expect("start");
    let deadline = Instant::now() + Duration::from_secs(120);
    while theta_rows(&sliced).len() < 9 && Instant::now() < deadline {
        if child.try_wait().expect("poll").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    ok(&run(tune_command(&bot, &sliced, &["--resume"])));
    assert_eq!(
        theta_rows(&sliced),
        theta_rows(&whole),
        "the same iterations"
    );
    let again = std::fs::read_to_string(sliced.join("tuned.toml")).expect("tuned.toml");
    assert_eq!(again, tuned);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn against_a_fixed_bot_and_verify_play_their_matches() {
    let dir = scratch("tune", "against");
    let bot = peaked_bot(&dir, "peak.toml", "peak", TUNE);
    let out = dir.join("out");
    let opponent = format!("plain={HAMLE} mangala --nodes 50 --table-bits 12 --db-stones 0");
    let command = tune_for(&bot, &out, "2", &["--against", &opponent, "--verify", "2"]);
    let text = ok(&run(command));
    for folder in ["iterations/0001-plus", "iterations/0002-minus", "verify"] {
        assert!(
            out.join(folder).join("match.txt").is_file(),
            "{folder}: {text}"
        );
    }
    assert!(
        text.contains("verify: peak-tuned against peak-start"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each bad `[tune]` entry: exit 2, one line naming the file and the line, no folder made.
#[test]
fn bad_tune_tables_are_refused_naming_the_line() {
    let dir = scratch("tune", "bad");
    let cases = [
        (
            "y = { start = 1, min = 0, max = 2, step = 1 }",
            "unknown option",
        ),
        (
            "x = { start = 120, min = 0, max = 100, step = 6 }",
            "excludes the start 120",
        ),
        (
            "x = { start = 70, min = 0, max = 100, step = 0 }",
            "step must be above 0, got 0",
        ),
        (
            "x = { start = 70, min = 0, max = 100, step = -3 }",
            "step must be above 0, got -3",
        ),
        (
            "label = { start = 1, min = 0, max = 2, step = 1 }",
            "not a number",
        ),
    ];
    for (i, (entry, why)) in cases.iter().enumerate() {
        let bot = peaked_bot(&dir, &format!("bad{i}.toml"), "peak", entry);
        let out = dir.join(format!("out{i}"));
        let output = run(tune_command(&bot, &out, &[]));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{entry}: {stderr}");
        assert!(
            stderr.contains("line 13:") && stderr.contains(why),
            "{entry}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(!out.exists(), "nothing played for {entry}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resuming_with_another_bot_or_settings_is_refused_naming_the_difference() {
    let dir = scratch("tune", "resume");
    let bot = peaked_bot(&dir, "peak.toml", "peak", TUNE);
    let out = dir.join("out");
    ok(&run(tune_command(&bot, &out, &["--stop-after", "1"])));
    let moved = peaked_bot(
        &dir,
        "moved.toml",
        "peak",
        &TUNE.replace("step = 6", "step = 4"),
    );
    let other = peaked_bot(&dir, "other.toml", "other", TUNE);
    let refusals = [
        (tune_command(&moved, &out, &["--resume"]), "tune.x was"),
        (
            tune_command(&other, &out, &["--resume"]),
            "bot was 'peak', now 'other'",
        ),
        (
            tune_command(&bot, &out, &["--resume", "--pairs", "2"]),
            "pairs was '1', now '2'",
        ),
    ];
    for (command, why) in refusals {
        let output = run(command);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(why), "{why}: {stderr}");
    }
    assert_eq!(theta_rows(&out).len(), 1, "nothing played");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The shipped example of docs/guide-tuning.md is a valid tune.
#[test]
fn the_shipped_tuning_bot_file_reads() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots/go-tuning/hamle-go-200-prior.toml");
    let text = std::fs::read_to_string(&path).expect("the shipped tuning bot");
    let params = hamle::arena::tune::read_tune(&text).expect("a valid [tune] table");
    assert_eq!(params[0].name, "learned-prior");
    hamle::arena::bots::Bot::from_toml(&text, &path).expect("a valid bot file");
}

/// Two shards started together on one folder play the iterations' pairs between them and
/// follow the very θ the unsharded run follows; only shard 1 writes the run's files. A
/// shard left alone stops after --shard-wait, naming the missing shard, and goes on when
/// started again once the other has played.
#[test]
fn shards_meeting_in_one_folder_follow_the_unsharded_theta() {
    let dir = scratch("tune", "shards");
    let bot = peaked_bot(&dir, "peak.toml", "peak", TUNE);
    let whole = dir.join("whole");
    ok(&run(tune_for(&bot, &whole, "4", &["--pairs", "2"])));
    let sharded = dir.join("sharded");
    let shard = |i: &str| tune_for(&bot, &sharded, "4", &["--pairs", "2", "--shard", i]);
    let mut second = shard("2/2").spawn().expect("start shard 2");
    ok(&run(shard("1/2")));
    assert!(second.wait().expect("shard 2").success());
    assert_eq!(theta_rows(&sharded), theta_rows(&whole), "the same θ");
    for k in ["0001", "0004"] {
        for part in ["shard-1", "shard-2"] {
            let folder = sharded.join("iterations").join(k).join(part);
            assert!(folder.join("match.txt").is_file(), "{}", folder.display());
        }
    }
    assert!(sharded.join("tuned.toml").is_file());

    // Alone, shard 1 waits a second for shard 2, stops naming it, and resumes later.
    let alone = dir.join("alone");
    let lonely = |i: &str| {
        tune_for(
            &bot,
            &alone,
            "2",
            &["--pairs", "2", "--shard", i, "--shard-wait", "1"],
        )
    };
    let output = run(lonely("1/2"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("shard 2/2 has not played"), "{stderr}");
    let mut second = lonely("2/2").spawn().expect("start shard 2");
    ok(&run(lonely("1/2")));
    assert!(second.wait().expect("shard 2").success());
    assert_eq!(theta_rows(&alone).len(), 2, "both iterations, once each");
    let _ = std::fs::remove_dir_all(&dir);
}
