//! A bot's words that hold control characters (ESC, CR, BEL): its name, its moves, its
//! error answers and its stderr. They reach neither the terminal nor any file of the match
//! folder raw: every one is shown escaped (`\x1b`), and `--resume` takes the lines back.

use std::path::{Path, PathBuf};

use crate::support::arena::{HAMLE, bot, hamle_match, ok, resumes_as_is, scratch};
use crate::support::peers::require_python3;

/// The raw bytes the fixture's words hold, none of which may come out.
const RAW: [u8; 3] = [0x1b, b'\r', 0x07];

fn hostile_bot(dir: &Path, name: &str, mode: &str) {
    require_python3();
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile_text.py");
    let fixture = fixture.display().to_string();
    let command = [
        "python3",
        &fixture,
        mode,
        "--",
        HAMLE,
        "go",
        "--playouts",
        "10",
    ];
    bot(dir, name, "go", &command);
}

/// Every file under `dir`, by path, with its bytes.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).expect("read folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let bytes = std::fs::read(&path).expect("read file");
                found.push((path, bytes));
            }
        }
    }
    found
}

fn assert_clean(what: &str, bytes: &[u8]) {
    if let Some(raw) = bytes.iter().find(|b| RAW.contains(b)) {
        panic!(
            "{what} holds the raw byte {raw:#04x}: {}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn a_bots_control_characters_are_shown_escaped_on_the_terminal_and_in_every_file() {
    let dir = scratch("hostile", "text");
    hostile_bot(&dir, "evil-move", "move");
    hostile_bot(&dir, "evil-error", "error");
    let out = dir.join("m");
    let out_arg = out.to_str().expect("utf-8");
    let args = [
        "evil-move",
        "evil-error",
        "--games",
        "2",
        "--seed",
        "5",
        "--illegal",
        "forfeit",
        "--out",
        out_arg,
    ];
    let output = hamle_match(&dir, &args);
    let printed = ok(&output);
    assert_clean("stdout", &output.stdout);
    assert_clean("stderr", &output.stderr);
    let all = files(&out);
    let names: Vec<String> = all.iter().map(|(p, _)| p.display().to_string()).collect();
    for wanted in [
        "results.tsv",
        "results.pgn",
        "0001.sgf",
        "0002.sgf",
        ".html",
        ".log",
    ] {
        assert!(
            names.iter().any(|name| name.ends_with(wanted)),
            "{wanted} among {names:?}"
        );
    }
    for (path, bytes) in &all {
        assert_clean(&path.display().to_string(), bytes);
    }
    // The words are kept, escaped: the illegal move, the error answer, the stderr.
    let tsv = std::fs::read_to_string(out.join("results.tsv")).expect("results");
    assert!(
        tsv.contains("illegal move '\\x1b[2J\\x1b]0;pwned\\x07\\rD4\\x1b[31m'"),
        "{tsv}"
    );
    assert!(tsv.contains("no\\x1b[2J"), "{tsv}");
    assert!(printed.contains("\\x1b[2J"), "{printed}");
    let log = std::fs::read_to_string(out.join("logs/evil-move.log")).expect("log");
    assert!(log.contains("starting\\x1b[2J\\x0dover\n"), "{log}");
    // Escaped words read back the same from the line and the record's comment.
    resumes_as_is(&dir, &args);
    let _ = std::fs::remove_dir_all(&dir);
}
