//! Every relative link of the manual (README.md, protocol.md, ARCHITECTURE.md and docs/*.md)
//! names a file that exists and, where it has `#anchor`, a heading of that file, by GitHub's
//! anchor rule: so moving a section or renaming a heading cannot leave a reader at a dead end.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use regex::Regex;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The manual's files: the three at the root and every Markdown file of docs/.
fn manual_files() -> Vec<PathBuf> {
    let root = Path::new(ROOT);
    let mut files: Vec<PathBuf> = ["README.md", "protocol.md", "ARCHITECTURE.md"]
        .iter()
        .map(|name| root.join(name))
        .collect();
    let docs = std::fs::read_dir(root.join("docs")).expect("docs/ is read");
    let mut in_docs: Vec<PathBuf> = docs
        .map(|entry| entry.expect("a docs/ entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    in_docs.sort();
    assert!(!in_docs.is_empty(), "docs/ holds no Markdown file");
    files.extend(in_docs);
    files
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The text outside fenced code blocks, line for line (fenced lines become empty), so that
/// neither a `# comment` of a shell block nor a `[x](y)` in code is taken for Markdown.
fn outside_code(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            if line.trim_start().starts_with("```") {
                fenced = !fenced;
                ""
            } else if fenced {
                ""
            } else {
                line
            }
        })
        .collect()
}

/// GitHub's anchor of a heading: lower case, spaces to '-', every other character but
/// letters, digits, '-' and '_' dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .trim_end_matches('#')
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every anchor of a file's headings; a repeated one also as `anchor-1`, `anchor-2`, … as
/// GitHub numbers them.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for line in outside_code(text) {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if !(1..=6).contains(&hashes) || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = anchor(&line[hashes..]);
        let mut name = base.clone();
        let mut n = 0;
        while found.contains(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        found.insert(name);
    }
    found
}

/// The targets of the inline links `[text](target)` outside code (the text may run over
/// lines; code spans are left out).
fn link_targets(text: &str) -> Vec<String> {
    let prose = outside_code(text).join("\n");
    let code_span = Regex::new(r"`[^`]*`").expect("a valid pattern");
    let prose = code_span.replace_all(&prose, "");
    let link = Regex::new(r"\]\(([^)\s]+)\)").expect("a valid pattern");
    link.captures_iter(&prose)
        .map(|c| c[1].to_owned())
        .collect()
}

/// What is wrong with one link of `file`, if anything.
fn broken(file: &Path, target: &str) -> Option<String> {
    if target.contains("://") || target.starts_with("mailto:") {
        return None;
    }
    let (path, fragment) = match target.split_once('#') {
        Some((path, fragment)) => (path, Some(fragment)),
        None => (target, None),
    };
    let linked = if path.is_empty() {
        file.to_path_buf()
    } else {
        file.parent().expect("a file has a folder").join(path)
    };
    if !linked.exists() {
        return Some(format!("{} does not exist", linked.display()));
    }
    let fragment = fragment?;
    if linked.is_dir() {
        return Some(format!("#{fragment} on a folder"));
    }
    let headings = anchors(&read(&linked));
    (!headings.contains(fragment)).then(|| {
        format!(
            "{} has no heading #{fragment} (its anchors: {})",
            linked.display(),
            headings.into_iter().collect::<Vec<_>>().join(" ")
        )
    })
}

#[test]
fn every_relative_link_of_the_manual_resolves_to_a_file_and_heading() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in manual_files() {
        for target in link_targets(&read(&file)) {
            checked += 1;
            if let Some(problem) = broken(&file, &target) {
                problems.push(format!("{}: ({target}): {problem}", file.display()));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} links found: is the parser blind?"
    );
    assert!(
        problems.is_empty(),
        "broken links:\n{}",
        problems.join("\n")
    );
}

#[test]
fn anchors_follow_githubs_rule() {
    assert_eq!(anchor(" 1. Framing (all games)"), "1-framing-all-games");
    assert_eq!(
        anchor("### `hamle match --expect DIR`".trim_start_matches('#')),
        "hamle-match---expect-dir"
    );
    assert_eq!(
        anchor("The learned prior's weights"),
        "the-learned-priors-weights"
    );
    let repeated = anchors("## Bench\n\n```\n# not a heading\n```\n## Bench\n");
    assert!(repeated.contains("bench") && repeated.contains("bench-1"));
    assert!(!repeated.contains("not-a-heading"));
}

#[test]
fn a_missing_file_and_a_missing_heading_are_named() {
    let readme = Path::new(ROOT).join("README.md");
    let missing = broken(&readme, "docs/nowhere.md").expect("a missing file is broken");
    assert!(missing.contains("nowhere.md"), "{missing}");
    let no_heading = broken(&readme, "protocol.md#no-such-heading").expect("broken");
    assert!(no_heading.contains("#no-such-heading"), "{no_heading}");
    assert_eq!(broken(&readme, "https://example.org/#x"), None);
    assert_eq!(broken(&readme, "protocol.md#1-framing-all-games"), None);
}
