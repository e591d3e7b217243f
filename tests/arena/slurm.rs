//! `examples/slurm/` under a real (one-node) Slurm cluster: `submit.sh` runs a Mangala
//! match as a 4-task job array and a Mangala ladder as a 2-task one, each with its dependent
//! merge; each merged folder must equal a single-process run, file for file. The cluster
//! comes from `.ci/slurm-up` (Debian's slurm-wlm and munge, daemons started by hand), which
//! CI runs before the tests (and sets HAMLE_SLURM=1, so a missing cluster fails there).
//! Elsewhere the test starts it when it can (root, the packages installed), else says why it
//! skipped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;

use crate::support::arena::{HAMLE, folder_files as files, ok, scratch};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Whether the cluster answers: `sinfo` lists a node ready for jobs.
fn cluster_up() -> bool {
    Command::new("sinfo")
        .args(["-h", "-o", "%T"])
        .output()
        .is_ok_and(|out| {
            let text = String::from_utf8_lossy(&out.stdout);
            out.status.success()
                && text
                    .lines()
                    .any(|s| ["idle", "mixed", "allocated"].contains(&s.trim()))
        })
}

/// Brings the cluster up when it can; `Err` says why not.
fn bring_up() -> Result<(), String> {
    if cluster_up() {
        return Ok(());
    }
    let installed = ["/usr/sbin/slurmctld", "/usr/sbin/munged"]
        .iter()
        .all(|p| Path::new(p).is_file());
    let is_root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0");
    if !installed || !is_root {
        return Err(
            "no Slurm cluster answers (sinfo), and this test can start one only as root with slurm-wlm and munge installed: run .ci/slurm-up as root".to_owned(),
        );
    }
    let up = Command::new(root().join(".ci/slurm-up"))
        .output()
        .map_err(|e| format!(".ci/slurm-up: {e}"))?;
    if up.status.success() && cluster_up() {
        Ok(())
    } else {
        Err(format!(
            ".ci/slurm-up failed: {}",
            String::from_utf8_lossy(&up.stderr).trim()
        ))
    }
}

/// Whether Slurm still holds job `id` (pending or running).
fn queued(id: &str) -> bool {
    Command::new("squeue")
        .args(["-h", "-j", id, "-o", "%i"])
        .output()
        .is_ok_and(|out| !String::from_utf8_lossy(&out.stdout).trim().is_empty())
}

/// Whether the test can run: a cluster answers (brought up here when it can). Without one
/// the test says why it skipped, unless HAMLE_SLURM says CI started Slurm: then it fails.
fn slurm_or_skip(test: &str) -> bool {
    // One bring-up at a time: the tests run in parallel, and two starts race for munge's
    // socket.
    static BRINGING_UP: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let brought = {
        let _one = BRINGING_UP
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        bring_up()
    };
    match brought {
        Ok(()) => true,
        Err(why) => {
            assert!(
                std::env::var_os("HAMLE_SLURM").is_none(),
                "HAMLE_SLURM is set (CI started Slurm), but: {why}"
            );
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "note: slurm::{test} skipped: {why}");
            false
        }
    }
}

/// `submit.sh ARGS…` (the run's words, the shard count and the folder first), then waits
/// for the merge job to leave the queue; returns `DIR/merged` and what submit.sh said.
fn submit_and_wait(args: &[&str], dir: &Path) -> (PathBuf, String) {
    let submitted = Command::new(root().join("examples/slurm/submit.sh"))
        .args(args)
        .env("HAMLE", HAMLE)
        .output()
        .expect("run submit.sh");
    let said = ok(&submitted);
    let merge_job = said
        .split("merge job ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .expect("submit.sh names the merge job")
        .to_owned();
    let started = Instant::now();
    // Generous: the array and the merge take seconds on an idle node.
    while queued(&merge_job) {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the merge job {merge_job} did not end in 300 s: {said}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let merged = dir.join("merged");
    let log = std::fs::read_to_string(dir.join("merge.log")).unwrap_or_default();
    assert!(merged.is_dir(), "nothing merged; merge.log: {log}");
    (merged, said)
}

fn bots_dir() -> String {
    root()
        .join("bots")
        .to_str()
        .expect("a UTF-8 path")
        .to_owned()
}

#[test]
fn the_slurm_example_runs_a_sharded_match_and_merges_it() {
    if !slurm_or_skip("the_slurm_example_runs_a_sharded_match_and_merges_it") {
        return;
    }
    let dir = scratch("slurm", "example");
    let bots = bots_dir();
    let match_args = [
        "hamle-mangala-2k",
        "m2=hamle-mangala-2k",
        "--bots",
        &bots,
        "--pairs",
        "6",
        "--quiet",
    ];
    let started = Instant::now();
    let cluster = dir.join("cluster");
    let cluster_text = cluster.to_str().expect("a UTF-8 path");
    let (merged, _) = submit_and_wait(&[&["4", cluster_text], &match_args[..]].concat(), &cluster);
    assert!(merged.join("results.tsv").is_file(), "a merged match");
    for index in 1..=4 {
        let settings =
            std::fs::read_to_string(dir.join(format!("cluster/shard-{index}/match.txt")))
                .expect("each task wrote its shard");
        assert!(
            settings.contains(&format!("\nshard = {index}/4\n")),
            "{settings}"
        );
    }
    let single = dir.join("single");
    let mut command = Command::new(HAMLE);
    command
        .arg("match")
        .args(match_args)
        .arg("--out")
        .arg(&single);
    ok(&command.output().expect("run hamle match"));
    assert_eq!(files(&merged), files(&single));
    let _ = writeln_took("4 shards of a match", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_slurm_example_runs_a_sharded_ladder_and_merges_it() {
    if !slurm_or_skip("the_slurm_example_runs_a_sharded_ladder_and_merges_it") {
        return;
    }
    let dir = scratch("slurm", "ladder");
    let bots = bots_dir();
    // Three bots, three pairings: two shards of two and one pairing.
    let ladder_args = [
        "hamle-mangala-2k",
        "m2=hamle-mangala-2k",
        "m3=hamle-mangala-2k",
        "--bots",
        &bots,
        "--pairs",
        "2",
        "--quiet",
    ];
    let started = Instant::now();
    let cluster = dir.join("cluster");
    let cluster_text = cluster.to_str().expect("a UTF-8 path");
    let (merged, said) = submit_and_wait(
        &[&["ladder", "2", cluster_text], &ladder_args[..]].concat(),
        &cluster,
    );
    assert!(said.contains("the ladder ends in"), "{said}");
    for index in 1..=2 {
        let settings = std::fs::read_to_string(cluster.join(format!("shard-{index}/ladder.txt")))
            .expect("each task wrote its shard");
        assert!(
            settings.contains(&format!("\nshard = {index}/2\n")),
            "{settings}"
        );
    }
    let single = dir.join("single");
    let mut command = Command::new(HAMLE);
    command
        .arg("ladder")
        .args(ladder_args)
        .arg("--out")
        .arg(&single);
    ok(&command.output().expect("run hamle ladder"));
    assert_eq!(files(&merged), files(&single));
    let _ = writeln_took("2 shards of a ladder", started.elapsed());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The test's time, for the record (to stderr, past the capture).
fn writeln_took(what: &str, took: Duration) -> std::io::Result<()> {
    use std::io::Write;
    writeln!(
        std::io::stderr(),
        "slurm: submitted, ran {what} and the merge, compared in {:.1} s",
        took.as_secs_f64()
    )
}
