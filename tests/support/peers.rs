//! Test helpers over the arena's GTP controller (`hamle::arena::gtp`): every read has a
//! timeout and every response's framing is checked there; here a fault fails the test.

#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use hamle::arena::gtp::{BlockingEngine, Launch};

pub const GNUGO: &str = "/usr/games/gnugo";

/// Long enough for any genmove the tests ask for; short enough that a hung engine fails.
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// Fails the test with an actionable message when GNU Go is missing.
pub fn require_gnugo() {
    assert!(
        Path::new(GNUGO).exists(),
        "GNU Go is not installed: run `apt-get install -y gnugo` (.ci/run does)"
    );
}

pub struct GtpProcess {
    engine: BlockingEngine,
}

impl GtpProcess {
    pub fn spawn(label: &str, program: &str, args: &[&str]) -> GtpProcess {
        GtpProcess::spawn_in(label, program, args, None)
    }

    pub fn spawn_in(label: &str, program: &str, args: &[&str], dir: Option<&Path>) -> GtpProcess {
        let mut launch = Launch::new(label, program, args.iter().map(|a| a.to_string()).collect());
        launch.working_dir = dir.map(Path::to_owned);
        let engine = BlockingEngine::spawn(&launch, READ_TIMEOUT)
            .unwrap_or_else(|e| panic!("cannot start {program}: {e}"));
        GtpProcess { engine }
    }

    /// Sends one command and returns `Ok(body)` or `Err(message)`, panicking on any
    /// framing fault, timeout or crash.
    pub fn send(&mut self, command: &str) -> Result<String, String> {
        self.engine.send(command).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Sends a command that must succeed.
    pub fn ok(&mut self, command: &str) -> String {
        match self.send(command) {
            Ok(body) => body,
            Err(message) => panic!("{}: '{command}' failed: {message}", self.engine.label()),
        }
    }

    pub fn quit(self) {
        self.engine.shutdown();
    }
}

/// Runs `tests/fixtures/SCRIPT` under python3 with `input` on its stdin and returns what it
/// printed; `package` is the PyPI package the script needs (`.ci/run` installs it), named
/// when the script fails.
pub fn python_fixture(script: &str, input: String, package: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(script);
    let mut child = Command::new("python3")
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 must be installed (see .ci/run)");
    let mut stdin = child.stdin.take().expect("stdin");
    // A thread writes while this one reads, so neither pipe fills up and blocks.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python3 ran");
    writer.join().expect("writer").expect("wrote the input");
    assert!(
        output.status.success(),
        "{script} failed (pip install {package}, see .ci/run): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("utf-8")
}

pub const GNUBG: &str = "/usr/games/gnubg";

/// True (with a note on stderr) when GNU Backgammon is not installed: gnubg checks skip.
pub fn gnubg_missing() -> bool {
    if Path::new(GNUBG).exists() {
        return false;
    }
    eprintln!("note: {GNUBG} is missing (apt-get install gnubg): gnubg checks skipped");
    true
}

/// Runs gnubg in tty mode on `commands`, killed after two minutes; stdout then stderr.
pub fn gnubg(commands: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new("timeout")
        .args(["120", GNUBG, "-t", "-q"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gnubg");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(commands.as_bytes())
        .expect("write to gnubg");
    let output = child.wait_with_output().expect("gnubg output");
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}
