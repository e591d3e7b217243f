//! `hamle regress` end to end, the project's own regression suite and Go records
//! (`tests/data/regress/`, `tests/data/sgf/`), and the bot definitions shipped in `bots/`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use hamle::arena::bots::{BotError, BotRegistry};

use crate::support::peers::require_python3;

const HAMLE: &str = env!("CARGO_BIN_EXE_hamle");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hamle-regress-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("games")).expect("create scratch folder");
    dir
}

fn regress(program: &str, files: &[&Path]) -> Output {
    Command::new(HAMLE)
        .arg("regress")
        // Far beyond what an answer takes on a loaded machine (the python wrapper starts in
        // well under a second), short enough for the hang case to end soon.
        .arg("--timeout")
        .arg("10")
        .arg(program)
        .args(files)
        .output()
        .expect("run hamle regress")
}

const ENGINE: &str = "hamle go --playouts 10";

#[test]
fn verdicts_and_exit_codes_follow_gogui_regress() {
    let dir = scratch("verdicts");
    // loadsgf reads relative to the .tst file's folder.
    std::fs::write(dir.join("games/one.sgf"), "(;GM[1]SZ[9];B[dd];W[ff])").expect("write");
    let good = dir.join("good.tst");
    std::fs::write(
        &good,
        "# every verdict but FAILED\nloadsgf games/one.sgf\n\
         1 list_stones black\n#? [D6]\n\
         2 is_legal w d6\n#? [!1]\n\
         3 komi 7\n\
         4 get_komi\n#? [6.5]*\n\
         5 get_komi\n#? [7]*\n\
         6 get_komi\n#? [8]&\n",
    )
    .expect("write");
    let output = regress(ENGINE, &[&good]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    for expected in [
        "good.tst 1 passed",
        "good.tst 2 passed",
        "good.tst 3 passed",
        "good.tst 4 failed: Correct '6.5', got '7'",
        "good.tst 5 PASSED",
        "good.tst 6 ignored: Correct '8', got '7'",
        "good.tst: 4/5 passed (3 passed, 1 failed, 1 PASSED, 0 FAILED, 1 ignored, 0 command errors)",
    ] {
        assert!(
            stdout.contains(expected),
            "missing '{expected}' in:\n{stdout}"
        );
    }

    let bad = dir.join("bad.tst");
    std::fs::write(&bad, "1 get_komi\n#? [99]\n2 frobnicate\n#? []\n").expect("write");
    let output = regress(ENGINE, &[&good, &bad]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("bad.tst 1 FAILED: Correct '99', got '"),
        "{stdout}"
    );
    assert!(
        stdout.contains("bad.tst 2 FAILED: Correct '', got '? unknown command'"),
        "{stdout}"
    );
    assert!(stdout.contains("total: 4/7 passed"), "{stdout}");

    // The engine dies at the first genmove: exit 2, and the next file still runs.
    require_python3();
    let crash = dir.join("crash.tst");
    std::fs::write(&crash, "1 genmove b\n#? [.*]\n2 get_komi\n#? [.*]\n").expect("write");
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/broken_engine.py");
    let crasher = format!(
        "python3 '{}' crash 1 -- '{HAMLE}' go --playouts 10",
        fixture.display()
    );
    let output = regress(&crasher, &[&crash, &good]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(stdout.contains("crash.tst ENGINE FAILURE: "), "{stdout}");
    assert!(stdout.contains("good.tst 5 PASSED"), "{stdout}");

    // A hung engine is cut off by the timeout.
    let hanger = format!(
        "python3 '{}' hang 1 -- '{HAMLE}' go --playouts 10",
        fixture.display()
    );
    let output = regress(&hanger, &[&crash]);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(2), "{stdout}");
    assert!(
        stdout.contains("no answer to 'genmove b' within 10.0 s"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn invalid_files_and_programs_are_clear_errors() {
    let dir = scratch("invalid");
    let broken = dir.join("broken.tst");
    std::fs::write(&broken, "1 get_komi\n#? [7\n").expect("write");
    let output = regress(ENGINE, &[&broken]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("broken.tst:2: expected ']' to close the pattern"),
        "{stderr}"
    );

    let orphan = dir.join("orphan.tst");
    std::fs::write(&orphan, "1 get_komi\n\n#? [7]\n").expect("write");
    let output = regress(ENGINE, &[&orphan]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("orphan.tst:3: a '#?' line without a command"),
        "{stderr}"
    );

    let good = dir.join("good.tst");
    std::fs::write(&good, "1 get_komi\n#? [.*]\n").expect("write");
    let output = regress("/nonexistent/engine --gtp", &[&good]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("'/nonexistent/engine' does not exist"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shipped_bots_parse_and_launch() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots");
    let registry = BotRegistry::load(&dir).expect("every shipped bot file is valid");
    let names: Vec<&str> = registry.names().collect();
    for name in [
        "hamle-go-200",
        "hamle-go-1000",
        "hamle-go-5000",
        "hamle-go-5000-noreuse",
        "gnugo-l0",
        "gnugo-l10",
        "pachi",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let hamle = Path::new(HAMLE);
    let launch = registry
        .get("hamle-go-200")
        .and_then(|bot| bot.launch(hamle, Some(42)))
        .expect("hamle resolves to the running binary");
    assert_eq!(launch.program, hamle);
    assert_eq!(
        launch.args,
        [
            "go",
            "--rules",
            "chinese",
            "--playouts",
            "200",
            "--seed",
            "42"
        ]
    );
    let gnugo = registry.get("gnugo-l0").expect("defined");
    assert!(
        gnugo
            .args
            .ends_with(&["--level".to_owned(), "0".to_owned()])
    );
    match registry
        .get("pachi")
        .and_then(|bot| bot.launch(hamle, None))
    {
        Ok(launch) => assert!(launch.program.ends_with("pachi")),
        Err(error @ BotError::ProgramNotFound { .. }) => {
            assert!(error.to_string().contains("pachi.toml"), "{error}")
        }
        Err(error) => panic!("{error}"),
    }
    let unknown = registry.get("nobody").expect_err("not defined");
    let message = unknown.to_string();
    assert!(
        message.contains("known: ") && message.contains("gnugo-l0, "),
        "{message}"
    );
}

#[test]
fn abalone_tuning_bots_hand_their_weights_to_the_engine() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("bots/abalone-tuning");
    let registry = BotRegistry::load(&dir).expect("every tuning bot file is valid");
    let names: Vec<String> = registry.names().map(str::to_owned).collect();
    assert!(names.contains(&"ab-base".to_owned()), "{names:?}");
    let base = registry
        .get("ab-base")
        .and_then(|bot| bot.launch(Path::new(HAMLE), Some(42)))
        .expect("ab-base launches");
    assert_eq!(
        base.args,
        [
            "abalone",
            "--nodes",
            "3000",
            "--weights",
            "1000,12,5,14,0",
            "--seed",
            "42"
        ]
    );
    for name in &names {
        let launch = registry
            .get(name)
            .and_then(|bot| bot.launch(Path::new(HAMLE), None))
            .expect("launches");
        let at = launch.args.iter().position(|a| a == "--weights");
        let weights = at
            .and_then(|at| launch.args.get(at + 1))
            .unwrap_or_else(|| panic!("{name} sets no weights: {:?}", launch.args));
        // The engine started as the arena starts it describes the weights it plays with.
        let mut child = Command::new(&launch.program)
            .args(&launch.args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("start the engine");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            stdin
                .write_all(b"gomill-describe_engine\nquit\n")
                .expect("write");
        }
        let output = child.wait_with_output().expect("engine exits");
        let text = String::from_utf8_lossy(&output.stdout);
        assert!(
            text.contains(&format!("weights {weights}")),
            "{name}: {text}"
        );
    }
}

/// The project's own data: `tests/data/`, beside the manifest.
fn data_dir(folder: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(folder)
}

/// The files of `folder` ending in `.extension`, sorted.
fn data_files(folder: &str, extension: &str) -> Vec<PathBuf> {
    let dir = data_dir(folder);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| Some(entry.ok()?.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == extension))
        .collect();
    files.sort();
    assert!(
        !files.is_empty(),
        "no .{extension} files in {}",
        dir.display()
    );
    files
}

#[test]
fn the_projects_regression_suite_passes_with_the_shipped_go_bot() {
    // As README.md runs it, from the checkout: the bot comes from bots/, the files are
    // named relative to the checkout.
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files: Vec<PathBuf> = data_files("regress", "tst")
        .iter()
        .map(|path| path.strip_prefix(root).unwrap_or(path).to_owned())
        .collect();
    let output = Command::new(HAMLE)
        .current_dir(root)
        .arg("regress")
        .arg("hamle-go-1000")
        .args(&files)
        .output()
        .expect("run hamle regress");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    let mut expected: Vec<String> = Vec::new();
    let passed = |file: &str, numbers: &[u32]| -> Vec<String> {
        numbers
            .iter()
            .map(|n| format!("{file} {n} passed"))
            .collect()
    };
    expected.extend(passed(
        "records.tst",
        &[101, 102, 103, 201, 202, 203, 204, 205, 206],
    ));
    // Marked as GNU Go's known failures (territory counting): hamle counts the area.
    expected.extend([
        "records.tst 301 PASSED".to_owned(),
        "records.tst 302 PASSED".to_owned(),
    ]);
    expected.extend(passed("rules.tst", &(1..=14).collect::<Vec<u32>>()));
    expected.extend(passed("tactics.tst", &[101, 102, 201]));
    for line in &expected {
        assert!(
            stdout.lines().any(|l| l == line),
            "missing '{line}' in:\n{stdout}"
        );
    }
    assert!(
        stdout.contains("total: 28/28 passed (26 passed, 0 failed, 2 PASSED, 0 FAILED) in 3 files"),
        "{stdout}"
    );
}

#[test]
fn the_projects_go_records_read_back_replay_and_round_trip() {
    use hamle::go::rules::{RuleSet, Rules};
    use hamle::go::sgf::{self, GoRecord};
    for path in data_files("sgf", "sgf") {
        let name = path.display();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let trees = sgf::parse_collection(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = sgf::parse_collection(&sgf::write_collection(&trees))
            .unwrap_or_else(|e| panic!("{name}: written tree does not parse: {e}"));
        assert_eq!(again, trees, "{name}: tree changed on a round trip");
        let record = GoRecord::from_sgf(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            GoRecord::from_sgf(&record.to_sgf()).as_ref(),
            Ok(&record),
            "{name}: record changed on a round trip"
        );
        assert_eq!(record.rule_set(), Some(RuleSet::Chinese), "{name}");
        // Every move legal, the game over by two passes, and the result the area count.
        let game = record
            .replay(Rules::from(RuleSet::Chinese), 7.5, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            game.move_count() > 50,
            "{name}: {} moves",
            game.move_count()
        );
        assert!(game.is_over(), "{name}: the game did not end");
        assert_eq!(
            Some(game.tromp_taylor_score().result().to_string()),
            record.result,
            "{name}"
        );
    }
}
