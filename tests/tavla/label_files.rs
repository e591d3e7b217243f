//! Label files (`hamle tavla label`, read by `train --contact --labels`): what `label`
//! writes is what the fit reads, the same seed gives the same file on any number of threads
//! and the same fit gives the same weights; a file that is not labels is one line naming the
//! file (and the line), never a panic or a net trained on nothing.

use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use hamle::tavla::labels;
use hamle::tavla::net::Net;

use crate::support::files::{HUGE, Scratch, fifo, run_patiently, sparse};

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

fn tavla(args: &[&str]) -> Output {
    run_patiently(Command::new(HAMLE).arg("tavla").args(args), "")
}

/// `hamle tavla ARGS…`, which must succeed; its stdout.
fn succeeds(args: &[&str]) -> String {
    let output = tavla(args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{args:?}: {stderr}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Labels 12 positions of 2 games at 1 ply on `threads` into `out`; the file's text.
fn label(out: &str, threads: &str) -> String {
    label_by(&["--plies", "1"], "12", out, threads)
}

/// Labels the first `limit` positions of 2 games by `lookahead` on `threads` into `out`; the
/// file's text.
fn label_by(lookahead: &[&str], limit: &str, out: &str, threads: &str) -> String {
    let mut args = vec!["label", "--games", "2", "--limit", limit, "--seed", "7"];
    args.extend(lookahead);
    args.extend(["--threads", threads, "--out", out]);
    let said = succeeds(&args);
    assert!(said.starts_with(&format!("labelled {limit} of ")), "{said}");
    std::fs::read_to_string(out).expect("the labels were written")
}

/// The label lines of a file's text, without its header.
fn label_lines(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with('#')).collect()
}

#[test]
fn rollout_labels_do_not_depend_on_threads_or_on_the_limit() {
    let scratch = Scratch::new("tavla-labels", "rollout");
    let path = |name: &str| scratch.0.join(name).display().to_string();
    let rollout = ["--rollout", "36", "--horizon", "4"];
    let one = label_by(&rollout, "8", &path("one.txt"), "1");
    assert!(
        one.starts_with("# hamle tavla label --games 2 --seed 7 --rollout 36 --horizon 4 "),
        "{one}"
    );
    assert_eq!(label_by(&rollout, "8", &path("three.txt"), "3"), one);
    let fewer = label_by(&rollout, "5", &path("five.txt"), "2");
    assert_eq!(label_lines(&fewer), label_lines(&one)[..5]);
    // The same positions, judged by a rollout and not by one ply.
    let plies = label_by(&["--plies", "1"], "8", &path("plies.txt"), "1");
    let (rolled, searched) = (label_lines(&one), label_lines(&plies));
    for (a, b) in rolled.iter().zip(&searched) {
        let position = |line: &str| line.split_whitespace().take(2).collect::<String>();
        assert_eq!(position(a), position(b));
    }
    assert_ne!(rolled, searched);
}

#[test]
fn labels_are_reproducible_by_seed_and_fit_a_net_reproducibly() {
    let scratch = Scratch::new("tavla-labels", "fit");
    let path = |name: &str| scratch.0.join(name).display().to_string();
    let one = label(&path("one.txt"), "1");
    assert_eq!(label(&path("three.txt"), "3"), one);
    let lines = label_lines(&one);
    assert_eq!(lines.len(), 12);
    let read = labels::read_file(std::path::Path::new(&path("one.txt"))).expect("read back");
    assert_eq!(read.len(), 12);
    for (labelled, line) in read.iter().zip(&lines) {
        assert_eq!(&labels::parse_line(line).expect("a label"), labelled);
        assert!(labelled.board.on_board(labelled.side) > 0);
    }
    let fit = |out: &str| {
        let args = [
            "train",
            "--contact",
            "--labels",
            &path("one.txt"),
            "--epochs",
            "3",
            "--rate",
            "0.05",
            "--out",
            out,
        ];
        let said = succeeds(&args);
        assert!(
            said.starts_with("fitted the net to 12 labelled positions, 3 epochs"),
            "{said}"
        );
        std::fs::read(out).expect("weights written")
    };
    let weights = fit(&path("a.bin"));
    assert_eq!(fit(&path("b.bin")), weights);
    let net = Net::from_bytes(&weights).expect("a weights file");
    assert_ne!(&net, Net::builtin());
    // Labels made by the fitted net say so in their header, and differ.
    assert!(
        !one.lines().next().unwrap_or("").contains("--weights"),
        "{one}"
    );
    let fitted = path("a.bin");
    let relabelled = label_by(
        &["--plies", "1", "--weights", &fitted],
        "12",
        &path("again.txt"),
        "1",
    );
    let header = relabelled.lines().next().unwrap_or("");
    assert!(
        header.ends_with(&format!(" --weights {fitted}")),
        "{header}"
    );
    assert_ne!(label_lines(&relabelled), lines);
}

/// `hamle tavla train --contact --labels FILE`: refused with one line on stderr.
fn refused(labels: &str, out: &str) -> String {
    let args = ["train", "--contact", "--labels", labels, "--out", out];
    let output = tavla(&args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(1), "{labels}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "{labels}: {stderr}");
    assert!(
        !std::path::Path::new(out).exists(),
        "{labels}: weights written"
    );
    stderr.trim_end().to_owned()
}

#[test]
fn a_label_file_that_is_not_labels_is_one_line_naming_it() {
    let scratch = Scratch::new("tavla-labels", "refused");
    let path = |name: &str| scratch.0.join(name).display().to_string();
    let out = path("out.bin");
    let good = succeeds(&[
        "label",
        "--games",
        "1",
        "--limit",
        "3",
        "--plies",
        "1",
        "--out",
        &path("good.txt"),
    ]);
    assert!(good.starts_with("labelled 3 of"), "{good}");
    let text = std::fs::read_to_string(path("good.txt")).expect("labels");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[2] = lines[2].replacen(" 0.", " 7.", 1);
    std::fs::write(path("bad.txt"), lines.join("\n")).expect("write");
    let bad = refused(&path("bad.txt"), &out);
    assert!(
        bad.contains(&format!("{} line 3: '7.", path("bad.txt"))),
        "{bad}"
    );
    assert!(bad.ends_with("is not a probability from 0 to 1"), "{bad}");
    let missing = refused(&path("missing.txt"), &out);
    assert!(missing.contains(&path("missing.txt")), "{missing}");
    let device = refused("/dev/zero", &out);
    assert!(device.ends_with("/dev/zero: not a regular file (a device); name a regular file"));
    sparse(&scratch.0.join("huge.txt"), HUGE * 3);
    let huge = refused(&path("huge.txt"), &out);
    assert!(
        huge.ends_with("is over the limit of 256 MiB; name a smaller file"),
        "{huge}"
    );
    if fifo(&scratch.0.join("pipe.txt")) {
        let pipe = refused(&path("pipe.txt"), &out);
        assert!(
            pipe.ends_with("not a regular file (a FIFO); name a regular file"),
            "{pipe}"
        );
    }
}

/// gnubg's 2-ply labels (`../shared/tavla-teacher/`, beside the checkout; never copied into
/// the repository) read in place, gzip and all, as `train --contact --labels` reads them.
#[test]
fn the_shared_teacher_labels_read_in_place() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/tavla-teacher");
    let path = dir.join("gnubg-2ply-labels.txt.gz");
    if !path.is_file() {
        eprintln!(
            "skipped: {} is absent (the shared teacher labels sit beside the checkout)",
            path.display()
        );
        return;
    }
    let read = labels::read_file(&path).expect("the teacher's labels");
    assert_eq!(read.len(), 210_516);
    assert!(
        read.iter()
            .all(|l| l.probs[1] <= l.probs[0] && l.probs[3] <= 1.0 - l.probs[0])
    );
}

/// `hamle tavla label --teacher gnubg:0 --teacher-python PYTHON` into `out`.
fn label_by_teacher(python: &str, out: &str) -> Output {
    let args = [
        "label",
        "--games",
        "1",
        "--limit",
        "5",
        "--teacher",
        "gnubg:0",
    ];
    let python = ["--teacher-python", python, "--out", out];
    tavla(&[&args[..], &python[..]].concat())
}

#[test]
fn a_missing_or_garbled_teacher_is_one_error_with_its_install_command_and_no_file() {
    let scratch = Scratch::new("tavla-labels", "teacher");
    let out = scratch.0.join("labels.txt").display().to_string();
    let fixtures = format!("{}/tests/fixtures", env!("CARGO_MANIFEST_DIR"));
    let cases = [
        ("/nonexistent/python3".to_owned(), "did not start"),
        (
            format!("{fixtures}/teacher_missing.sh"),
            "gnubg-nn is not installed",
        ),
        (
            format!("{fixtures}/teacher_garbage.sh"),
            "not-a-probability",
        ),
    ];
    for (python, said) in cases {
        let output = label_by_teacher(&python, &out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{python}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{python}: {stderr}");
        assert!(stderr.contains("teacher gnubg (PyPI gnubg-nn"), "{stderr}");
        assert!(stderr.contains(said), "{python}: {stderr}");
        assert!(
            stderr.trim_end().ends_with("pip install gnubg-nn"),
            "{stderr}"
        );
        assert!(
            !std::path::Path::new(&out).exists(),
            "{python}: a file was written"
        );
    }
}

/// With gnubg-nn installed, its labels are what `train --contact --labels` reads, the
/// teacher credited in the file's header.
#[test]
fn gnubg_labels_harvested_positions_when_it_is_installed() {
    let installed = Command::new("python3")
        .args(["-c", "import gnubg_nn"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("skipped: gnubg-nn is not installed (pip install gnubg-nn)");
        return;
    }
    let scratch = Scratch::new("tavla-labels", "gnubg");
    let out = scratch.0.join("labels.txt");
    let output = label_by_teacher("python3", &out.display().to_string());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    let text = std::fs::read_to_string(&out).expect("the labels were written");
    assert!(text.contains("--teacher gnubg:0"), "{text}");
    assert!(
        text.contains("GNU Backgammon's net (PyPI gnubg-nn, GPL)"),
        "{text}"
    );
    assert_eq!(labels::read_file(&out).expect("labels").len(), 5);
}
