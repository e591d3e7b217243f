//! `hamle match --shard I/N` and `hamle match merge`: a match played in three shards and
//! merged is the whole match's folder, file for file (with and without `--sprt`); shards
//! of another match, missing, overlapping or unfinished shards, shards of different hamle
//! builds (matches and ladders) and a used OUT are refused with one line, nothing written.
//! Bots: hamle's Mangala engine at 2,000 nodes (instant, deterministic).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use crate::support::arena::{HAMLE, folder_files as files, ok, scratch};

fn bots() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots")
}

/// `hamle match hamle-mangala-2k m2=… --out OUT` with `extra`.
fn play(out: &Path, second: &str, extra: &[&str]) -> Output {
    Command::new(HAMLE)
        .args(["match", "hamle-mangala-2k"])
        .arg(format!("{second}=hamle-mangala-2k"))
        .arg("--bots")
        .arg(bots())
        .arg("--out")
        .arg(out)
        .args(["--quiet", "--concurrency", "1"])
        .args(extra)
        .output()
        .expect("run hamle match")
}

fn merge(out: &Path, dirs: &[&Path], extra: &[&str]) -> Output {
    Command::new(HAMLE)
        .args(["match", "merge"])
        .arg(out)
        .args(dirs)
        .args(extra)
        .output()
        .expect("run hamle match merge")
}

/// The one line a refused merge prints, after checking it wrote nothing.
fn refused(output: &Output, out: &Path) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "refused: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!out.exists(), "nothing written for: {stderr}");
    stderr
}

/// Plays `--pairs 5` (with `extra`) whole and in three shards; returns the folders.
fn whole_and_shards(dir: &Path, extra: &[&str]) -> (PathBuf, Vec<PathBuf>, String) {
    let whole = dir.join("whole");
    let printed = ok(&play(&whole, "m2", &[&["--pairs", "6"], extra].concat()));
    let mut shards = Vec::new();
    for index in 1..=3 {
        let out = dir.join(format!("shard{index}"));
        let shard = format!("{index}/3");
        ok(&play(
            &out,
            "m2",
            &[&["--pairs", "6", "--shard", &shard], extra].concat(),
        ));
        let settings = std::fs::read_to_string(out.join("match.txt")).expect("match.txt");
        assert!(
            settings.contains(&format!("\nshard = {shard}\n")),
            "{settings}"
        );
        shards.push(out);
    }
    (whole, shards, printed)
}

#[test]
fn a_match_sharded_three_ways_and_merged_is_the_whole_match() {
    let dir = scratch("shards", "equal");
    let (whole, shards, printed) = whole_and_shards(&dir, &[]);
    // Pairs 0 and 3 are shard 1's, 1 and 4 shard 2's, 2 and 5 shard 3's.
    let games = |out: &Path| {
        let text = std::fs::read_to_string(out.join("results.tsv")).expect("results");
        let numbers: Vec<String> = text
            .lines()
            .filter_map(|line| line.split('\t').next())
            .map(str::to_owned)
            .collect();
        numbers.join(" ")
    };
    assert_eq!(games(&shards[1]), "game=2 game=3 game=8 game=9");
    let merged = dir.join("merged");
    let paths: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let said = ok(&merge(&merged, &paths, &[]));
    assert_eq!(files(&merged), files(&whole));
    // The standings line, but for the folder's name.
    assert_eq!(
        said.lines().last().map(|l| l.replace("merged", "whole")),
        printed.lines().last().map(str::to_owned)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sprt_match_merged_stops_where_the_whole_run_stopped() {
    let dir = scratch("shards", "sprt");
    // Every pair splits: H1 (the first bot is -100 Elo better than itself) after 4 pairs.
    let sprt = ["--sprt", "elo0=-300,elo1=-100"];
    let (whole, shards, printed) = whole_and_shards(&dir, &sprt);
    let merged = dir.join("merged");
    let paths: Vec<&Path> = shards.iter().map(PathBuf::as_path).collect();
    let said = ok(&merge(&merged, &paths, &[]));
    assert_eq!(files(&merged), files(&whole));
    let verdict = |text: &str| {
        text.lines()
            .find(|l| l.starts_with("SPRT"))
            .map(str::to_owned)
    };
    assert_eq!(verdict(&said), verdict(&printed));
    assert!(said.contains("before 4 games the shards played"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merges_of_what_is_not_one_whole_match_are_refused() {
    let dir = scratch("shards", "refused");
    let shard = |name: &str, second: &str, shard: &str| {
        let out = dir.join(name);
        ok(&play(&out, second, &["--pairs", "3", "--shard", shard]));
        out
    };
    let (one, two) = (shard("one", "m2", "1/2"), shard("two", "m2", "2/2"));
    let out = dir.join("out");
    let other = shard("other", "m3", "2/2");
    let line = refused(&merge(&out, &[&one, &other], &[]), &out);
    assert!(
        line.contains("is not a shard of the same match: bot2.name is 'm2'"),
        "{line}"
    );
    let line = refused(&merge(&out, &[&one], &[]), &out);
    assert!(line.contains("shard 2/2 missing"), "{line}");
    let line = refused(&merge(&out, &[&one, &one, &two], &[]), &out);
    assert!(line.contains("both shard 1/2"), "{line}");
    let thirds = shard("thirds", "m2", "2/3");
    let line = refused(&merge(&out, &[&one, &thirds], &[]), &out);
    assert!(line.contains("is shard 2/3 but"), "{line}");
    // An unfinished shard: its last game's line lost (as if killed before it was saved).
    let results = two.join("results.tsv");
    let text = std::fs::read_to_string(&results).expect("results");
    let kept: Vec<&str> = text.lines().collect();
    std::fs::write(&results, format!("{}\n", kept[..kept.len() - 1].join("\n"))).expect("write");
    let line = refused(&merge(&out, &[&one, &two], &[]), &out);
    assert!(
        line.contains("shard 2/2") && line.contains("has 1 of its 2 games"),
        "{line}"
    );
    let partial = ok(&merge(&out, &[&one, &two], &["--partial"]));
    assert!(partial.contains("1 pairs have a game missing"), "{partial}");
    // A used OUT.
    let line = refused(
        &merge(&dir.join("one"), &[&two], &["--partial"]),
        &dir.join("nothing"),
    );
    assert!(line.contains("exists and is not empty"), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_resumed_shard_refuses_a_line_of_another_shards_pair() {
    let dir = scratch("shards", "resume");
    let out = dir.join("one");
    ok(&play(&out, "m2", &["--pairs", "3", "--shard", "1/2"]));
    // Game 2 (pair 1) is shard 2/2's: a line claiming it here was not written by this run.
    let results = out.join("results.tsv");
    let text = std::fs::read_to_string(&results).expect("results");
    std::fs::write(&results, text.replacen("game=0\t", "game=2\t", 1)).expect("write");
    let output = play(&out, "m2", &["--pairs", "3", "--shard", "1/2", "--resume"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("which is not shard 1/2's"), "{stderr}");
    // Resuming with another shard is a settings difference.
    std::fs::write(&results, text).expect("restore");
    let output = play(&out, "m2", &["--pairs", "3", "--shard", "2/2", "--resume"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("shard was '1/2', now '2/2'"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A folder's settings file with its `hamle_build` line set to `build`; returns the line
/// it had.
fn forge_build(settings: &Path, build: &str) -> String {
    let text = std::fs::read_to_string(settings).expect("settings");
    let line = text
        .lines()
        .find(|l| l.starts_with("hamle_build = "))
        .expect("the build is recorded")
        .to_owned();
    std::fs::write(
        settings,
        text.replace(&line, &format!("hamle_build = {build}")),
    )
    .expect("write");
    line
}

#[test]
fn shards_of_different_hamle_builds_are_refused_naming_both() {
    let dir = scratch("shards", "builds");
    let (one, two) = (dir.join("one"), dir.join("two"));
    ok(&play(&one, "m2", &["--pairs", "2", "--shard", "1/2"]));
    ok(&play(&two, "m2", &["--pairs", "2", "--shard", "2/2"]));
    let ours = forge_build(&two.join("match.txt"), "0.0.1+0123456789abcdef");
    let ours = ours.trim_start_matches("hamle_build = ");
    assert!(
        regex::Regex::new(r"^\d+\.\d+\.\d+\+[0-9a-f]{16}$")
            .expect("regex")
            .is_match(ours),
        "{ours}"
    );
    let out = dir.join("out");
    let line = refused(&merge(&out, &[&one, &two], &[]), &out);
    assert!(
        line.contains(&format!("hamle_build is '{ours}' in"))
            && line.contains("'0.0.1+0123456789abcdef' here")
            && line.contains("different hamle builds"),
        "{line}"
    );
    // Resuming a folder another build started is refused too, naming both builds.
    let output = play(&two, "m2", &["--pairs", "2", "--shard", "2/2", "--resume"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "hamle_build was '0.0.1+0123456789abcdef', now '{ours}'"
        )) && stderr.contains("another hamle build started it"),
        "{stderr}"
    );
    // The ladder's merge compares its shards' builds the same way.
    let ladder = |name: &str, shard: &str| {
        let out = dir.join(name);
        let output = Command::new(HAMLE)
            .args(["ladder", "hamle-mangala-2k", "m2=hamle-mangala-2k"])
            .arg("m3=hamle-mangala-2k")
            .arg("--bots")
            .arg(bots())
            .arg("--out")
            .arg(&out)
            .args(["--pairs", "1", "--quiet", "--shard", shard])
            .output()
            .expect("run hamle ladder");
        ok(&output);
        out
    };
    let (first, second) = (ladder("ladder1", "1/2"), ladder("ladder2", "2/2"));
    forge_build(&second.join("ladder.txt"), "0.0.1+0123456789abcdef");
    let out = dir.join("ladder-out");
    let output = Command::new(HAMLE)
        .args(["ladder", "merge"])
        .arg(&out)
        .args([&first, &second])
        .output()
        .expect("run hamle ladder merge");
    let line = refused(&output, &out);
    assert!(
        line.contains("is not a shard of the same ladder: hamle_build is"),
        "{line}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
