//! Input that must reach a running search (GoGui's `# interrupt`, `stop`) and input that
//! must not cut it short (`quit`, end of input).
//! The search budgets here would take hours, and the ponders minutes; each test passes
//! only if the input stopped them. The short sleeps only make a line likely to land in the
//! middle of a search; where it lands earlier the verdict is the same (a queued `stop` or
//! line ends the search it follows), so no verdict depends on the machine's speed.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// A budget no search finishes in the life of a test run.
const ENDLESS: &str = "1000000000";
/// Far longer than an interrupted search takes, far shorter than the budget.
const PATIENCE: Duration = Duration::from_secs(60);

fn start() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_hamle"))
        .args(["go", "--playouts", ENDLESS])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hamle")
}

/// Reads stdout lines on a thread so the test can wait with a bound.
fn lines_of(child: &mut std::process::Child) -> mpsc::Receiver<String> {
    let stdout = child.stdout.take().expect("stdout");
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if sender.send(line).is_err() {
                return;
            }
        }
    });
    receiver
}

/// The engine's exit status, which must come within [`PATIENCE`].
fn exit_status_within_patience(mut child: std::process::Child) -> std::process::ExitStatus {
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        let _ = sender.send(child.wait());
    });
    receiver
        .recv_timeout(PATIENCE)
        .expect("exit within the bound")
        .expect("exit status")
}

fn next_response(lines: &mpsc::Receiver<String>) -> String {
    let mut response = Vec::new();
    loop {
        let line = lines
            .recv_timeout(PATIENCE)
            .expect("a response within the patience bound");
        if line.is_empty() {
            return response.join("\n");
        }
        response.push(line);
    }
}

#[test]
fn gogui_interrupt_ends_genmove_with_a_move() {
    // An interrupt that arrived before the search began would be dropped with the line
    // before it, so the test waits for proof that the search runs: the live graphics it
    // draws on stderr, however long a loaded machine takes to get there.
    let mut child = Command::new(env!("CARGO_BIN_EXE_hamle"))
        .args(["go", "--live-gfx", "--playouts", ENDLESS])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hamle");
    let lines = lines_of(&mut child);
    let (gfx_sender, gfx) = mpsc::channel();
    let stderr = child.stderr.take().expect("stderr");
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.starts_with("gogui-gfx:") && gfx_sender.send(()).is_err() {
                return;
            }
        }
    });
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "boardsize 9\n1 genmove b").expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next_response(&lines), "= ");
    gfx.recv_timeout(PATIENCE)
        .expect("live graphics of the running search");
    writeln!(stdin, "# interrupt").expect("write");
    stdin.flush().expect("flush");
    let answer = next_response(&lines);
    assert!(answer.starts_with("=1 ") && answer.len() > 3, "{answer}");
    // The engine serves on, and the interrupt does not leak into the next search.
    writeln!(stdin, "2 name\n3 quit").expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next_response(&lines), "=2 hamle");
    assert_eq!(next_response(&lines), "=3 ");
    let _ = child.wait();
}

#[test]
fn stop_during_genmove_answers_both() {
    let mut child = start();
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "1 genmove w").expect("write");
    stdin.flush().expect("flush");
    thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "2 stop\n3 quit").expect("write");
    stdin.flush().expect("flush");
    assert!(next_response(&lines).starts_with("=1 "));
    assert_eq!(next_response(&lines), "=2 ");
    assert_eq!(next_response(&lines), "=3 ");
    let status = child.wait().expect("exit");
    assert!(status.success());
}

#[test]
fn a_stop_written_with_the_genmove_interrupts_it() {
    // Both lines come in one write, so the engine has read the `stop` into its buffer
    // with the `genmove` before the search starts: it must still reach the search.
    let mut child = start();
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    write!(stdin, "1 genmove w\n2 stop\n").expect("write");
    stdin.flush().expect("flush");
    assert!(next_response(&lines).starts_with("=1 "));
    assert_eq!(next_response(&lines), "=2 ");
    writeln!(stdin, "3 quit").expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next_response(&lines), "=3 ");
    assert!(exit_status_within_patience(child).success());
}

/// Runs `hamle go --playouts 500` on `script`, piped in whole, and checks that the one
/// search in it ran its full budget; returns stdout.
fn run_piped_script_with_full_search(script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_hamle"))
        .args(["go", "--playouts", "500"])
        .env("HAMLE_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start hamle");
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    write!(stdin, "{script}").expect("write");
    drop(stdin);
    let mut stderr = child.stderr.take().expect("stderr");
    assert!(exit_status_within_patience(child).success());
    let mut log = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut log).expect("read stderr");
    assert!(
        log.contains("after 500 playouts"),
        "the search was cut short: {log}"
    );
    lines.iter().collect::<Vec<_>>().join("\n")
}

#[test]
fn a_queued_quit_lets_the_search_run_its_budget() {
    // A regression script piped in whole ends in `quit`: the search before it must not
    // depend on when the quit arrived.
    let stdout = run_piped_script_with_full_search("boardsize 9\n1 genmove b\n2 quit\n3 name\n");
    assert!(
        stdout.contains("\n=1 ") && stdout.ends_with("\n=2 \n"),
        "{stdout}"
    );
}

#[test]
fn end_of_input_lets_queued_commands_finish_then_quits() {
    // Piped input (`printf 'genmove b' | hamle go`) reaches its end at once: the search
    // must still run its full budget, so end of input does not interrupt it.
    let stdout = run_piped_script_with_full_search("boardsize 9\n1 genmove b\n2 name\n");
    assert!(
        stdout.starts_with("= \n\n=1 ") && stdout.ends_with("\n=2 hamle\n"),
        "{stdout}"
    );
}

/// `hamle go --ponder` with a ponder that would take minutes on its own (ten million
/// playouts): any line must end it at once.
fn start_pondering() -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_hamle"))
        .args(["go", "--ponder", "--playouts", "300", "--rules", "chinese"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start hamle")
}

#[test]
fn a_command_ends_the_ponder_and_is_answered_with_nothing_before_it() {
    let mut child = start_pondering();
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "boardsize 9\n1 genmove b").expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next_response(&lines), "= ");
    let first = next_response(&lines);
    assert!(first.starts_with("=1 ") && first.len() > 3, "{first}");
    // The engine ponders now, on White's time.
    thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "2 name").expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next_response(&lines), "=2 hamle");
    // A ponder after each genmove; the opponent's move and the next genmove follow.
    writeln!(stdin, "3 genmove w").expect("write");
    stdin.flush().expect("flush");
    assert!(next_response(&lines).starts_with("=3 "));
    thread::sleep(Duration::from_millis(300));
    writeln!(stdin, "4 genmove b\n5 quit").expect("write");
    stdin.flush().expect("flush");
    assert!(next_response(&lines).starts_with("=4 "));
    assert_eq!(next_response(&lines), "=5 ");
    let status = child.wait().expect("exit");
    assert!(status.success());
    // Nothing else reached stdout.
    assert!(lines.try_recv().is_err());
}

#[test]
fn end_of_input_ends_the_ponder_and_the_engine() {
    let mut child = start_pondering();
    let lines = lines_of(&mut child);
    let mut stdin = child.stdin.take().expect("stdin");
    writeln!(stdin, "boardsize 9\n1 genmove b").expect("write");
    stdin.flush().expect("flush");
    assert_eq!(next_response(&lines), "= ");
    assert!(next_response(&lines).starts_with("=1 "));
    thread::sleep(Duration::from_millis(300));
    drop(stdin);
    assert!(exit_status_within_patience(child).success());
}
