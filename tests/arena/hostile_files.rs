//! Files that are not what the arena expects, given where a user gives them: a FIFO, a
//! 100 MB file and text that is not UTF-8 as a bot file (`hamle match --bots`) and as a
//! `.tst` suite (`hamle regress`). Each is refused at once with one line naming the file
//! and what to do; nothing blocks, nothing is read whole, no output folder is made.

use std::path::Path;
use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use crate::support::arena::{HAMLE, scratch};
use crate::support::files::{HUGE, fifo, run_patiently, sparse};

/// The one line a refused run writes on stderr, checked to be the only output.
fn refusal(output: &Output) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    stderr.trim_end().to_owned()
}

fn hamle_match(bots: &Path, out: &Path) -> String {
    let output = run_patiently(
        Command::new(HAMLE)
            .args(["match", "gnugo", "hamle-go", "--bots"])
            .arg(bots)
            .arg("--out")
            .arg(out),
        "",
    );
    refusal(&output)
}

fn hamle_regress(tst: &Path) -> String {
    let output = run_patiently(
        Command::new(HAMLE)
            .args(["regress", "hamle go --playouts 10"])
            .arg(tst),
        "",
    );
    refusal(&output)
}

#[test]
fn a_bot_file_that_is_a_fifo_or_huge_is_refused_at_once() {
    let dir = scratch("hostile-files", "bots");
    let bots = dir.join("bots");
    let out = dir.join("out");
    let pipe = bots.join("pipe.toml");
    if fifo(&pipe) {
        assert_eq!(
            hamle_match(&bots, &out),
            format!(
                "hamle match: {}: not a regular file (a FIFO); name a regular file",
                pipe.display()
            )
        );
        std::fs::remove_file(&pipe).expect("remove the FIFO");
    }
    let huge = bots.join("huge.toml");
    sparse(&huge, HUGE);
    assert_eq!(
        hamle_match(&bots, &out),
        format!(
            "hamle match: {}: 100000000 bytes is over the limit of 1 MiB; name a smaller file",
            huge.display()
        )
    );
    std::fs::write(&huge, b"name = \"caf\xe9\"\n").expect("write");
    assert_eq!(
        hamle_match(&bots, &out),
        format!(
            "hamle match: {}: not UTF-8 text (a bad byte at offset 11, line 1); save it as UTF-8",
            huge.display()
        )
    );
    assert!(!out.exists(), "a refused match wrote its folder");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tst_file_that_is_a_fifo_or_huge_is_refused_at_once() {
    let dir = scratch("hostile-files", "tst");
    let pipe = dir.join("pipe.tst");
    if fifo(&pipe) {
        assert_eq!(
            hamle_regress(&pipe),
            format!(
                "hamle regress: {}: not a regular file (a FIFO); name a regular file",
                pipe.display()
            )
        );
    }
    let huge = dir.join("huge.tst");
    sparse(&huge, HUGE);
    assert_eq!(
        hamle_regress(&huge),
        format!(
            "hamle regress: {}: 100000000 bytes is over the limit of 16 MiB; name a smaller file",
            huge.display()
        )
    );
    let latin1 = dir.join("latin1.tst");
    std::fs::write(&latin1, b"# ok\n1 name\n#? [hamle] # caf\xe9\n").expect("write");
    assert_eq!(
        hamle_regress(&latin1),
        format!(
            "hamle regress: {}: not UTF-8 text (a bad byte at offset 28, line 3); save it as UTF-8",
            latin1.display()
        )
    );
    assert_eq!(
        hamle_regress(&dir),
        format!(
            "hamle regress: {}: not a regular file (a directory); name a regular file",
            dir.display()
        )
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A short Go record for `hamle view`.
const GO_RECORD: &str = "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gg])\n";

fn view_out(record: &Path, out: &Path) -> Output {
    run_patiently(
        Command::new(HAMLE)
            .arg("view")
            .arg(record)
            .arg("--out")
            .arg(out),
        "",
    )
}

#[test]
fn view_refuses_to_write_through_a_fifo_a_link_or_onto_a_device() {
    use crate::support::files::{WRITE_RULE, assert_untouched, unwritable};
    let dir = scratch("hostile-files", "view-out");
    let record = dir.join("game.sgf");
    std::fs::write(&record, GO_RECORD).expect("write");
    for (out, reason) in unwritable(&dir) {
        let output = view_out(&record, &out);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{stderr}");
        assert_eq!(
            stderr.trim_end(),
            format!("hamle view: {}: {reason}; {WRITE_RULE}", out.display())
        );
    }
    assert_untouched(&dir);
    // A new path and a regular file are written.
    let page = dir.join("page.html");
    for _ in 0..2 {
        let output = view_out(&record, &page);
        assert_eq!(output.status.code(), Some(0));
    }
    assert!(
        std::fs::read_to_string(&page)
            .expect("page")
            .contains("<html")
    );
}

#[test]
fn a_write_that_fails_for_room_leaves_the_old_page_and_no_temporary_file() {
    let dir = scratch("hostile-files", "view-full");
    let record = dir.join("game.sgf");
    std::fs::write(&record, GO_RECORD).expect("write");
    let page = dir.join("game.html");
    std::fs::write(&page, "old").expect("write");
    // A file size limit of one block stands in for a full disk: the write fails part way
    // (EFBIG rather than ENOSPC, with SIGXFSZ ignored), as it would on a full one.
    let output = run_patiently(
        Command::new("sh")
            .arg("-c")
            .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" view \"$1\" --out \"$2\"")
            .arg(HAMLE)
            .arg(&record)
            .arg(&page),
        "",
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.starts_with(&format!("hamle view: {}: ", page.display())),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&page).expect("page"), "old");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["bots", "game.html", "game.sgf"]);
}
