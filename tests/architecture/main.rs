//! Which way the dependencies point, read from the source tree: a game knows only itself
//! and the ground floor; the arena reaches the games only through the registry
//! (`src/games.rs`); the ground floor (protocol, contract, seed, text, files, bench) knows no game
//! and no arena. A file that breaks a rule is named with its line, so the failure says
//! what to move.
//!
//! A module is "named" where a line of code (not a comment) holds `crate::NAME`, or lists
//! `NAME` in a `crate::{…}` group.

use std::fs;
use std::path::{Path, PathBuf};

const GAMES: [&str; 5] = ["go", "tavla", "abalone", "kulami", "mangala"];

/// The ground floor: everything above may use it, it uses nothing above.
const GROUND_FLOOR: [&str; 7] = [
    "protocol", "contract", "seed.rs", "text.rs", "files.rs", "files", "bench.rs",
];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The `.rs` files at `path` (a file, or a folder read recursively), sorted; none when the
/// path does not exist.
fn rust_files(path: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    if path.is_file() {
        files.push(path.to_owned());
    } else if let Ok(entries) = fs::read_dir(path) {
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                files.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Every `crate::` module named in `text`, with its line number (from 1).
fn named_modules(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut named = Vec::new();
    for (index, line) in lines.iter().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            // `$crate::` in a macro is the crate itself, as well; an identifier that merely
            // ends in `crate` is not.
            let before = rest[..at].chars().next_back();
            let after = &rest[at + "crate::".len()..];
            rest = after;
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            if after.starts_with('{') {
                // A group may run over several lines: read on to its closing brace.
                let group = lines[index..]
                    .iter()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .collect::<Vec<_>>()
                    .join("\n");
                // The group's first line is `code`, so `{` sits where `after` starts in it.
                let brace = code.len() - after.len();
                for name in group_heads(&group[brace + 1..]) {
                    named.push((index + 1, name));
                }
            } else {
                named.push((index + 1, identifier(after)));
            }
        }
    }
    named
}

/// The first path segment of every item of a `{…}` group, `text` starting after its `{`.
fn group_heads(text: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut at_item_start = true;
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => at_item_start = true,
            c if at_item_start && depth == 0 && (c.is_alphanumeric() || c == '_') => {
                heads.push(identifier(&text[i..]));
                at_item_start = false;
            }
            _ => {}
        }
    }
    heads
}

fn identifier(text: &str) -> String {
    text.chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Every place under `paths` (relative to `src/`) that names one of `forbidden`, as
/// `src/FILE:LINE names crate::NAME`.
fn offences(paths: &[String], forbidden: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found = Vec::new();
    for path in paths {
        for file in rust_files(&src().join(path)) {
            let text = fs::read_to_string(&file).expect("a readable source file");
            let shown = file
                .strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .unwrap_or(&file)
                .display()
                .to_string();
            for (line, name) in named_modules(&text) {
                if forbidden(&name) {
                    found.push(format!("{shown}:{line} names crate::{name}"));
                }
            }
        }
    }
    found
}

fn assert_none(rule: &str, found: Vec<String>) {
    assert!(found.is_empty(), "{rule}:\n  {}", found.join("\n  "));
}

#[test]
fn the_source_tree_is_where_the_rules_expect_it() {
    for game in GAMES {
        assert!(
            !rust_files(&src().join(game)).is_empty(),
            "src/{game}/ has no source file"
        );
    }
    assert!(
        !rust_files(&src().join("arena")).is_empty(),
        "src/arena/ has no source file"
    );
    assert!(
        !rust_files(&src().join("protocol")).is_empty(),
        "src/protocol/ is missing"
    );
}

#[test]
fn a_game_names_no_other_game_nor_the_arena_nor_the_registry() {
    let mut found = Vec::new();
    for game in GAMES {
        found.extend(offences(&[game.to_owned()], &|name| {
            name == "arena" || name == "games" || (name != game && GAMES.contains(&name))
        }));
    }
    assert_none(
        "a game may use only itself and the ground floor (protocol, contract, seed, text, files, bench)",
        found,
    );
}

#[test]
fn the_arena_reaches_the_games_only_through_the_registry() {
    let found = offences(&["arena".to_owned()], &|name| GAMES.contains(&name));
    assert_none(
        "the arena names a game (use the registry, crate::games)",
        found,
    );
}

#[test]
fn the_ground_floor_names_no_game_nor_the_arena_nor_the_registry() {
    let floor: Vec<String> = GROUND_FLOOR.iter().map(|p| (*p).to_owned()).collect();
    let found = offences(&floor, &|name| {
        name == "arena" || name == "games" || GAMES.contains(&name)
    });
    assert_none("the ground floor names a module above it", found);
}

#[test]
fn the_reader_finds_single_paths_groups_and_skips_comments() {
    let text = "use crate::protocol::Engine;\n\
                use crate::{\n    arena::referee::Seat,\n    go::{Color, Vertex},\n    seed,\n};\n\
                // crate::mangala in a comment\n\
                let x = crate::kulami::Layout::standard(); // crate::tavla\n\
                let y = my_crate::abalone::x;\n\
                $crate::text::shorten(t);\n";
    assert_eq!(
        named_modules(text),
        [
            (1, "protocol".to_owned()),
            (2, "arena".to_owned()),
            (2, "go".to_owned()),
            (2, "seed".to_owned()),
            (8, "kulami".to_owned()),
            (10, "text".to_owned()),
        ]
    );
}
