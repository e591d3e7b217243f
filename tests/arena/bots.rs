//! Where bot names are looked up: `--bots DIR` alone, else `./bots`, `$HAMLE_BOTS`, the user
//! folder (`$XDG_CONFIG_HOME/hamle/bots`, else `~/.config/hamle/bots`) and `bots/` beside
//! the binary; a name found nowhere says where it was looked for and how to fix it.

use std::path::Path;
use std::process::{Command, Output};

use crate::support::arena::{HAMLE, scratch};

/// A Kulami bot file at a tiny budget.
fn kulami_bot(folder: &Path, name: &str, nodes: u32) {
    std::fs::create_dir_all(folder).expect("create the folder");
    let text = format!(
        "name = \"{name}\"\ngame = \"kulami\"\ncommand = [\"hamle\", \"kulami\", \"--nodes\", \"{nodes}\"]\n"
    );
    std::fs::write(folder.join(format!("{name}.toml")), text).expect("write bot");
}

/// `hamle match` run in `cwd` with only the environment given (and `PATH`).
fn run_in(cwd: &Path, env: &[(&str, &Path)], args: &[&str]) -> Output {
    let mut command = Command::new(HAMLE);
    command
        .arg("match")
        .args(args)
        .current_dir(cwd)
        .env_remove("HAMLE_BOTS")
        .env_remove("XDG_CONFIG_HOME")
        .env("HOME", cwd.join("home"));
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("run hamle")
}

fn settings(out: &Path) -> String {
    std::fs::read_to_string(out.join("match.txt")).expect("match.txt")
}

#[test]
fn bot_files_are_found_from_anywhere_and_a_miss_says_where_it_looked() {
    let dir = scratch("arena", "bot-folders");
    let cwd = dir.join("elsewhere");
    std::fs::create_dir_all(&cwd).expect("cwd");
    let match_in = |cwd: &Path, env: &[(&str, &Path)], out: &str, extra: &[&str]| {
        let out = dir.join(out);
        let mut args = vec![
            "k100",
            "k500",
            "--quiet",
            "--out",
            out.to_str().expect("utf-8"),
        ];
        args.extend(extra);
        (run_in(cwd, env, &args), out)
    };

    // Nowhere: one line naming every folder looked in and how to fix it.
    let (missed, out) = match_in(&cwd, &[], "missed", &[]);
    assert_eq!(missed.status.code(), Some(2));
    let message = String::from_utf8_lossy(&missed.stderr);
    assert_eq!(message.lines().count(), 1, "{message}");
    let user = cwd.join("home/.config/hamle/bots");
    for needle in [
        "'k100' is neither a bot (looked in ./bots: no such folder, $HAMLE_BOTS: not set, "
            .to_owned(),
        format!("{} (the user folder): no such folder", user.display()),
        "(beside hamle): no such folder) nor a program on PATH".to_owned(),
        format!(
            "give --bots DIR (the hamle repository's bots/ folder holds the shipped bots), set HAMLE_BOTS=DIR, or copy bot files into {}",
            user.display()
        ),
    ] {
        assert!(message.contains(&needle), "{needle}: {message}");
    }
    assert!(!out.exists());

    // $HAMLE_BOTS.
    let shared = dir.join("shared");
    kulami_bot(&shared, "k100", 100);
    kulami_bot(&shared, "k500", 500);
    let (found, out) = match_in(&cwd, &[("HAMLE_BOTS", &shared)], "variable", &[]);
    assert!(found.status.success(), "{found:?}");
    assert!(settings(&out).contains("bot2.command = hamle kulami --nodes 500"));

    // The user folder, under $XDG_CONFIG_HOME.
    let xdg = dir.join("xdg");
    kulami_bot(&xdg.join("hamle/bots"), "k100", 100);
    kulami_bot(&xdg.join("hamle/bots"), "k500", 500);
    let (found, _) = match_in(&cwd, &[("XDG_CONFIG_HOME", &xdg)], "user", &[]);
    assert!(found.status.success(), "{found:?}");

    // ./bots comes first: its k500 (at 600 nodes) over $HAMLE_BOTS's.
    kulami_bot(&cwd.join("bots"), "k500", 600);
    let (found, out) = match_in(&cwd, &[("HAMLE_BOTS", &shared)], "local", &[]);
    assert!(found.status.success(), "{found:?}");
    let text = settings(&out);
    assert!(
        text.contains("bot2.command = hamle kulami --nodes 600"),
        "{text}"
    );
    assert!(
        text.contains("bot1.command = hamle kulami --nodes 100"),
        "{text}"
    );

    // --bots DIR is searched alone.
    let only = dir.join("only");
    kulami_bot(&only, "k500", 500);
    let (refused, _) = match_in(
        &cwd,
        &[("HAMLE_BOTS", &shared)],
        "given",
        &["--bots", only.to_str().expect("utf-8")],
    );
    assert_eq!(refused.status.code(), Some(2));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(
        message.contains(&format!(
            "'k100' is neither a bot (looked in {}: k500) nor a program on PATH; check the name",
            only.display()
        )),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
