//! Hostile input to `hamle go`, through the binary: paths to things that are not SGF
//! files, files over the size limit, long records, out-of-range numbers on the command
//! line and in GTP commands. Each gets a `?` answer (or loads); the engine keeps its
//! state and answers the next command.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use pretty_assertions::assert_eq;

/// Long enough for any machine; an engine that blocks (on a FIFO, say) fails the test
/// instead of hanging it.
const PATIENCE: Duration = Duration::from_secs(300);

/// A running `hamle go`, asked one command at a time.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    answers: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_hamle"))
            .arg("go")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("hamle go starts");
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, answers) = channel();
        std::thread::spawn(move || {
            let mut answer = String::new();
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if line.is_empty() {
                    if sender.send(std::mem::take(&mut answer)).is_err() {
                        break;
                    }
                } else {
                    if !answer.is_empty() {
                        answer.push('\n');
                    }
                    answer.push_str(&line);
                }
            }
        });
        Engine {
            child,
            stdin,
            answers,
        }
    }

    fn ask(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}").expect("engine reads");
        self.stdin.flush().expect("engine reads");
        self.answers
            .recv_timeout(PATIENCE)
            .unwrap_or_else(|_| panic!("no answer to {command:?}"))
    }

    /// The most memory the engine has held so far, in bytes (Linux only).
    fn peak_memory(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|line| line.starts_with("VmHWM:"))?;
        let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kib * 1024)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A scratch folder of this test's own, removed at the end.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("hamle-go-hostile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn loadsgf(path: &Path) -> String {
    format!("loadsgf {}", path.display())
}

/// Passes alternating from Black, `count` of them, on 19×19.
fn passes(count: usize) -> String {
    let mut text = String::with_capacity(16 + 4 * count);
    text.push_str("(;GM[1]SZ[19]");
    for i in 0..count {
        text.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
    }
    text.push_str(")\n");
    text
}

#[test]
fn loadsgf_refuses_what_is_no_sgf_file_and_keeps_the_game() {
    let scratch = Scratch::new("paths");
    let fifo = scratch.path("pipe.sgf");
    let made = Command::new("mkfifo").arg(&fifo).status();
    let have_fifo = made.is_ok_and(|status| status.success());
    let over = scratch.path("over.sgf");
    let file = std::fs::File::create(&over).expect("create");
    // Sparse: one byte over the limit costs no disk.
    file.set_len(hamle::go::sgf::MAX_FILE_BYTES + 1)
        .expect("set_len");
    drop(file);
    let huge = scratch.path("huge.sgf");
    let file = std::fs::File::create(&huge).expect("create");
    file.set_len(100_000_000).expect("set_len");
    drop(file);

    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ask("boardsize 9"), "= ");
    assert_eq!(engine.ask("play b e5"), "= ");
    let board = engine.ask("showboard");

    let mut refusals = vec![
        (
            loadsgf(Path::new("/dev/zero")),
            "? cannot load file: /dev/zero: not a regular file (a device); name a regular file"
                .to_owned(),
        ),
        (
            loadsgf(&scratch.0),
            format!(
                "? cannot load file: {}: not a regular file (a directory); name a regular file",
                scratch.0.display()
            ),
        ),
        (
            loadsgf(&over),
            format!(
                "? cannot load file: {}: 16777217 bytes is over the limit of 16 MiB; \
                 name a smaller file",
                over.display()
            ),
        ),
        (
            loadsgf(&huge),
            format!(
                "? cannot load file: {}: 100000000 bytes is over the limit of 16 MiB; \
                 name a smaller file",
                huge.display()
            ),
        ),
    ];
    if have_fifo {
        refusals.push((
            loadsgf(&fifo),
            format!(
                "? cannot load file: {}: not a regular file (a FIFO); name a regular file",
                fifo.display()
            ),
        ));
    } else {
        eprintln!("mkfifo failed: the FIFO case is left out");
    }
    for (command, refusal) in &refusals {
        assert_eq!(&engine.ask(command), refusal);
        assert_eq!(engine.ask("showboard"), board, "after {command}");
    }
    assert_eq!(engine.ask("name"), "= hamle");
}

#[test]
fn loadsgf_reads_a_long_record_in_little_memory_and_refuses_one_past_the_move_limit() {
    const MOVES: usize = 1_000_000;
    let scratch = Scratch::new("long");
    let long = scratch.path("long.sgf");
    std::fs::write(&long, passes(MOVES)).expect("write");
    let mut engine = Engine::start(&["--playouts", "50"]);
    assert_eq!(engine.ask("boardsize 9"), "= ");
    let board = engine.ask("showboard");
    // Far over the most moves a game keeps (ten times the points: 3610 on 19x19).
    let answer = engine.ask(&loadsgf(&long));
    assert!(
        answer.starts_with("? cannot load file: ")
            && answer.contains("game too long: a game keeps at most 3610 moves"),
        "{answer}"
    );
    assert_eq!(engine.ask("showboard"), board);
    let within = scratch.path("within.sgf");
    std::fs::write(&within, passes(3600)).expect("write");
    assert_eq!(engine.ask(&loadsgf(&within)), "= ");
    let board = engine.ask("showboard");
    assert!(
        board.contains("\n19 ") && board.contains("black to move"),
        "{board}"
    );
    if let Some(peak) = engine.peak_memory() {
        // About 50 bytes a move (the record, then the game's undo history); it was
        // 460 when every node kept its properties as strings.
        let per_move = peak / MOVES as u64;
        assert!(
            per_move < 150,
            "{peak} bytes at the peak, {per_move} a move"
        );
    }
    let answer = engine.ask("genmove b");
    assert!(answer.starts_with("= "), "{answer}");
    assert_eq!(engine.ask("name"), "= hamle");
}

#[test]
fn loadsgf_refuses_a_flood_of_setup_points() {
    let scratch = Scratch::new("setup");
    let flood = scratch.path("flood.sgf");
    let nodes = hamle::go::sgf::MAX_SETUP_POINTS / 361 + 1;
    std::fs::write(
        &flood,
        format!("(;SZ[19]{})", ";AB[aa:ss]AE[aa:ss]".repeat(nodes)),
    )
    .expect("write");
    let mut engine = Engine::start(&[]);
    let board = engine.ask("showboard");
    let answer = engine.ask(&loadsgf(&flood));
    assert!(
        answer.ends_with("takes the record over 1000000 setup points in all"),
        "{answer}"
    );
    assert_eq!(engine.ask("showboard"), board);
}

/// `hamle go ARGS` with empty input: its exit status and standard error.
fn command_line(args: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_hamle"))
        .arg("go")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("hamle runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn numeric_options_are_checked_on_the_command_line() {
    for seconds in ["1e20", "nan", "inf", "-1", "0", "86401", "soon"] {
        let (status, stderr) = command_line(&["--time-per-move", seconds]);
        assert_eq!(status, Some(2), "--time-per-move {seconds}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "expected seconds above 0 and at most 86400 (a day), got '{seconds}'"
            )),
            "--time-per-move {seconds}: {stderr}"
        );
    }
    for threads in ["0", "-3", "1025", "many"] {
        let (status, stderr) = command_line(&["--threads", threads]);
        assert_eq!(status, Some(2), "--threads {threads}: {stderr}");
        assert!(
            stderr.contains(&format!(
                "expected a number of threads from 1 to 1024, got '{threads}'"
            )),
            "--threads {threads}: {stderr}"
        );
    }
    for args in [
        ["--time-per-move", "86400"],
        ["--time-per-move", "0.5"],
        ["--threads", "1024"],
    ] {
        assert_eq!(command_line(&args).0, Some(0), "{args:?}");
    }
    // The longest time a move may take still ends at the playout budget.
    let mut engine = Engine::start(&["--time-per-move", "86400", "--playouts", "30"]);
    let answer = engine.ask("genmove b");
    assert!(answer.starts_with("= ") && answer.len() > 2, "{answer}");
}

#[test]
fn a_time_per_move_set_in_code_never_reaches_a_panic() {
    use hamle::go::engine::{GoEngine, Settings};
    for seconds in [1e20, f64::INFINITY, f64::NAN, -1.0, 0.0, f64::MAX, 1e-300] {
        let mut engine = GoEngine::new(Settings {
            playouts: 30,
            time_per_move: Some(seconds),
            ..Settings::default()
        });
        let mut output = Vec::new();
        hamle::protocol::serve(
            &mut engine,
            std::io::Cursor::new(b"boardsize 9\ngenmove b\ngenmove w\n".to_vec()),
            &mut output,
        )
        .expect("serve");
        let output = String::from_utf8(output).expect("utf-8");
        assert!(!output.contains('?'), "time per move {seconds}: {output}");
    }
}

#[test]
fn numeric_gtp_arguments_out_of_range_are_refused() {
    let mut engine = Engine::start(&["--playouts", "30"]);
    assert_eq!(engine.ask("komi 5.5"), "= ");
    let refused = [
        (
            "komi nan",
            "? syntax error: komi 'nan' is out of range: from -1000 to 1000",
        ),
        (
            "komi 1e300",
            "? syntax error: komi '1e300' is out of range: from -1000 to 1000",
        ),
        (
            "komi -1001",
            "? syntax error: komi '-1001' is out of range: from -1000 to 1000",
        ),
        (
            "komi inf",
            "? syntax error: komi 'inf' is out of range: from -1000 to 1000",
        ),
        (
            "time_settings 1e300 1 1",
            "? syntax error: expected a number of seconds, got '1e300'",
        ),
        (
            "time_settings -5 1 1",
            "? syntax error: expected a number of seconds, got '-5'",
        ),
        (
            "time_settings 10 nan 1",
            "? syntax error: expected a number of seconds, got 'nan'",
        ),
        (
            "time_settings 10 10 -1",
            "? syntax error: expected a number of stones, got '-1'",
        ),
        (
            "time_left b nan 0",
            "? syntax error: expected a number of seconds, got 'nan'",
        ),
        (
            "time_left w -5 0",
            "? syntax error: expected a number of seconds, got '-5'",
        ),
        (
            "time_left b 1e300 0",
            "? syntax error: expected a number of seconds, got '1e300'",
        ),
        (
            "kgs-time_settings byoyomi 10 inf 3",
            "? syntax error: expected a number of seconds, got 'inf'",
        ),
        // One second over a year (365 days, as the arena's `--time` takes it).
        (
            "time_settings 31536001 0 0",
            "? syntax error: expected a number of seconds, got '31536001'",
        ),
        (
            "kgs-time_settings none extra",
            "? syntax error: usage: kgs-time_settings none | absolute <main> | byoyomi <main> \
             <period> <periods> | canadian <main> <period> <stones>",
        ),
    ];
    for (command, answer) in refused {
        assert_eq!(engine.ask(command), answer, "{command}");
    }
    assert_eq!(engine.ask("get_komi"), "= 5.5");
    // A year of main time is the most; the move still comes within its share.
    assert_eq!(engine.ask("time_settings 31536000 0 0"), "= ");
    assert_eq!(engine.ask("time_left b 31536000 0"), "= ");
    let answer = engine.ask("genmove b");
    assert!(answer.starts_with("= ") && answer.len() > 2, "{answer}");
    // A huge analysis interval saturates instead of overflowing.
    let answer = engine.ask("lz-genmove_analyze w 1844674407370955161");
    assert!(answer.contains("play "), "{answer}");
}

#[test]
fn printsgf_refuses_a_fifo_a_link_and_a_device_and_keeps_the_game() {
    use crate::support::files::{WRITE_RULE, assert_untouched, unwritable};
    let scratch = Scratch::new("printsgf");
    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ask("boardsize 9"), "= ");
    assert_eq!(engine.ask("play b e5"), "= ");
    let board = engine.ask("showboard");
    // A FIFO blocked the engine for good before; `ask` fails the test after PATIENCE.
    for (path, reason) in unwritable(&scratch.0) {
        assert_eq!(
            engine.ask(&format!("printsgf {}", path.display())),
            format!("? cannot write {}: {reason}; {WRITE_RULE}", path.display())
        );
        assert_eq!(engine.ask("showboard"), board);
    }
    assert_untouched(&scratch.0);
    let file = scratch.path("game.sgf");
    assert_eq!(engine.ask(&format!("printsgf {}", file.display())), "= ");
    assert!(
        std::fs::read_to_string(&file)
            .expect("written")
            .contains(";B[ee]")
    );
}

#[test]
fn a_flood_of_passes_stops_at_the_move_limit_and_memory_stays_flat() {
    // `yes 'play b pass' | hamle go` grew without bound: now the game keeps ten times the
    // board's points, at least 1000 (1000 on 9x9) and refuses more, keeping what it has.
    const FLOOD: usize = 50_000;
    let mut engine = Engine::start(&[]);
    assert_eq!(engine.ask("boardsize 9"), "= ");
    // The answers are read by their own thread, so the engine never waits on its output
    // while this writes.
    let lines = "play b pass\n".repeat(FLOOD);
    engine
        .stdin
        .write_all(lines.as_bytes())
        .expect("engine reads");
    engine.stdin.flush().expect("engine reads");
    let mut answers = Vec::with_capacity(FLOOD);
    for _ in 0..FLOOD {
        answers.push(
            engine
                .answers
                .recv_timeout(PATIENCE)
                .expect("every play is answered"),
        );
    }
    assert!(answers[..1000].iter().all(|a| a == "= "));
    let refusal = "? game too long: a game keeps at most 1000 moves; start a new one (clear_board)";
    assert!(
        answers[1000..].iter().all(|a| a == refusal),
        "{}",
        answers[1000]
    );
    assert_eq!(engine.ask("genmove w"), refusal);
    // The game is kept: its moves can be taken back, then played again.
    assert_eq!(engine.ask("undo"), "= ");
    assert_eq!(engine.ask("play b pass"), "= ");
    if let Some(peak) = engine.peak_memory() {
        assert!(peak < 200 * 1024 * 1024, "{peak} bytes at the peak");
    }
}
