//! protocol.md's command tables against the engines: every command an engine lists in
//! `list_commands` is documented (in backticks) in its game's section or in the framing
//! section every engine shares, and every command a game's `### Commands` tables name is one
//! the engine lists.

use std::collections::BTreeSet;
use std::io::Write;
use std::process::{Command, Stdio};

use regex::Regex;

use crate::HAMLE;

const GAMES: [&str; 5] = ["go", "tavla", "abalone", "kulami", "mangala"];

/// protocol.md's `## ` sections, each with its heading line first.
fn sections() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/protocol.md");
    let text = std::fs::read_to_string(path).expect("protocol.md is read");
    let mut sections = vec![String::new()];
    for line in text.lines() {
        if line.starts_with("## ") {
            sections.push(String::new());
        }
        let last = sections.last_mut().expect("one section at least");
        last.push_str(line);
        last.push('\n');
    }
    sections
}

fn section<'a>(sections: &'a [String], heading_part: &str) -> &'a str {
    sections
        .iter()
        .find(|s| s.lines().next().is_some_and(|h| h.contains(heading_part)))
        .unwrap_or_else(|| panic!("protocol.md has no section whose heading holds {heading_part}"))
}

/// Every word written as code (`name` or `name …`) in `text`.
fn in_backticks(text: &str) -> BTreeSet<String> {
    let code = Regex::new(r"`([a-z][a-z0-9_-]*)[ `]").expect("a valid pattern");
    code.captures_iter(text).map(|c| c[1].to_owned()).collect()
}

/// The first cell's command of every table row under a `### Commands` heading.
fn table_commands(text: &str) -> BTreeSet<String> {
    let row = Regex::new(r"^\|\s*`([a-z][a-z0-9_-]*)").expect("a valid pattern");
    let mut in_commands = false;
    let mut commands = BTreeSet::new();
    for line in text.lines() {
        if line.starts_with("### ") {
            in_commands = line.starts_with("### Commands");
        } else if in_commands && let Some(c) = row.captures(line) {
            commands.insert(c[1].to_owned());
        }
    }
    commands
}

fn listed_commands(game: &str) -> BTreeSet<String> {
    let mut child = Command::new(HAMLE)
        .arg(game)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().expect("a piped stdin");
    stdin
        .write_all(b"list_commands\nquit\n")
        .expect("the commands are sent");
    drop(stdin);
    let output = child.wait_with_output().expect("the engine ends");
    let answer = String::from_utf8_lossy(&output.stdout);
    let listed: BTreeSet<String> = answer
        .split_whitespace()
        .filter(|w| *w != "=")
        .map(str::to_owned)
        .collect();
    assert!(listed.contains("list_commands"), "{game}: {answer}");
    listed
}

#[test]
fn every_listed_command_is_documented_and_every_documented_command_is_listed() {
    let sections = sections();
    let shared = in_backticks(section(&sections, "Framing"));
    for game in GAMES {
        let own = section(&sections, &format!("(`hamle {game}`"));
        let listed = listed_commands(game);
        let documented = in_backticks(own);
        let missing: Vec<&String> = listed
            .iter()
            .filter(|c| !documented.contains(*c) && !shared.contains(*c))
            .collect();
        assert!(
            missing.is_empty(),
            "hamle {game} lists commands protocol.md does not document: {missing:?}"
        );
        let unknown: Vec<String> = table_commands(own).difference(&listed).cloned().collect();
        assert!(
            unknown.is_empty(),
            "protocol.md's {game} tables name commands hamle {game} does not list: {unknown:?}"
        );
    }
}

#[test]
fn the_table_reader_finds_rows_only_under_commands_headings() {
    let text = "### Rules\n| `chinese` | x |\n### Commands\n| `play <m>` | x |\n| `undo` | x |\n";
    let found: Vec<String> = table_commands(text).into_iter().collect();
    assert_eq!(found, ["play", "undo"]);
    assert!(in_backticks("say `genmove b` or `quit`.").contains("genmove"));
}
