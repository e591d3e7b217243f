//! The manual's tests: shell completions and man pages generated from the command line's one
//! definition, as `hamle completions` and `hamle man` print them; protocol.md's command tables
//! against what the engines list (`commands`); every relative link of the manual (`links`).

mod commands;
mod links;

use std::io::Write;
use std::process::{Command, Output, Stdio};

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

fn hamle(args: &[&str]) -> Output {
    Command::new(HAMLE)
        .args(args)
        .output()
        .expect("the hamle binary runs")
}

/// Runs `program args` with `input` on its stdin.
fn fed(program: &str, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!("{program} is missing ({error}): apt-get install -y {program}")
        });
    child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(input)
        .expect("the input is written");
    child.wait_with_output().expect("the program ends")
}

#[test]
fn bash_accepts_the_completion_script_and_completes_subcommands() {
    let script = hamle(&["completions", "bash"]);
    assert!(script.status.success(), "{script:?}");
    let text = String::from_utf8(script.stdout).expect("the script is UTF-8");
    assert!(text.contains("complete -F _hamle"), "{text}");
    let checked = fed("bash", &["-n"], text.as_bytes());
    assert!(
        checked.status.success(),
        "bash -n: {}",
        String::from_utf8_lossy(&checked.stderr)
    );
    // Source it and ask bash what `hamle ma<TAB>` completes to.
    let probe = format!(
        "{text}\nCOMP_WORDS=(hamle ma); COMP_CWORD=1; COMP_LINE='hamle ma'; COMP_POINT=8\n\
         _hamle hamle ma hamle\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n"
    );
    let completed = fed("bash", &[], probe.as_bytes());
    let words = String::from_utf8_lossy(&completed.stdout).to_string();
    assert!(words.lines().any(|w| w == "match"), "{words}");
    assert!(words.lines().any(|w| w == "mangala"), "{words}");
}

#[test]
fn zsh_and_fish_scripts_name_every_subcommand() {
    for shell in ["zsh", "fish"] {
        let script = hamle(&["completions", shell]);
        assert!(script.status.success(), "{shell}: {script:?}");
        let text = String::from_utf8_lossy(&script.stdout);
        for sub in [
            "go",
            "tavla",
            "match",
            "ladder",
            "tune",
            "view",
            "completions",
            "man",
        ] {
            assert!(text.contains(sub), "{shell}: no {sub}");
        }
    }
}

#[test]
fn an_unknown_shell_lists_the_shells_and_exits_2() {
    let refused = hamle(&["completions", "tcsh"]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    for shell in ["bash", "zsh", "fish"] {
        assert!(said.contains(shell), "{said}");
    }
    assert!(refused.stdout.is_empty());
}

/// `man -l -` renders the page as a reader sees it.
fn rendered(page: &[u8]) -> String {
    let shown = fed("man", &["-l", "-"], page);
    assert!(
        shown.status.success(),
        "man -l: {}",
        String::from_utf8_lossy(&shown.stderr)
    );
    String::from_utf8_lossy(&shown.stdout).to_string()
}

#[test]
fn man_pages_render_for_hamle_and_its_subcommands() {
    let page = hamle(&["man"]);
    assert!(page.status.success());
    let shown = rendered(&page.stdout);
    assert!(shown.contains("NAME"), "{shown}");
    assert!(shown.contains("match"), "{shown}");

    let page = hamle(&["man", "go", "learn-patterns"]);
    assert!(page.status.success());
    let shown = rendered(&page.stdout);
    assert!(shown.contains("hamle-go-learn-patterns"), "{shown}");
    assert!(shown.contains("--out"), "{shown}");
}

#[test]
fn a_man_page_of_an_unknown_subcommand_names_the_known_ones() {
    let refused = hamle(&["man", "match", "nope"]);
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("'hamle-match' has no subcommand 'nope'"),
        "{said}"
    );
    let refused = hamle(&["man", "nope"]);
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("match") && said.contains("tavla"), "{said}");
}

#[test]
fn a_completion_script_read_only_in_part_ends_quietly() {
    // `hamle completions bash | head -1`: the reader closes the pipe early.
    let mut child = Command::new(HAMLE)
        .args(["completions", "bash"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hamle binary runs");
    drop(child.stdout.take());
    let output = child.wait_with_output().expect("hamle ends");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(!said.contains("panicked"), "{said}");
    assert!(output.status.success(), "{output:?}");
}
