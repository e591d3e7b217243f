//! The outside programs the tests talk to. Each has a `require_*` check that fails the test
//! with one line, `<peer> is missing: <install command> (.ci/run installs it)`, before
//! anything is sent to it ([`peer_missing`]). GTP peers are driven through the arena's
//! controller (`hamle::arena::gtp`): every read has a timeout and every response's framing is
//! checked there; here a fault fails the test.

#![allow(dead_code)]

use std::path::Path;
use std::time::Duration;

use hamle::arena::gtp::{BlockingEngine, Launch};

/// Where Debian's `gnugo` package puts GNU Go.
pub const GNUGO: &str = "/usr/games/gnugo";

/// Where Debian's `gnubg` package puts GNU Backgammon 1.07.
pub const GNUBG: &str = "/usr/games/gnubg";

/// Long enough for any genmove the tests ask for; short enough that a hung engine fails.
pub const READ_TIMEOUT: Duration = Duration::from_secs(120);

/// Fails the test because a peer it talks to is not installed, in the one format every
/// missing-peer check of the suite uses: `<peer> is missing: <install> (.ci/run installs it)`.
/// A missing peer is a failure, never a skip: CI installs every peer, so a test that passes
/// without its peer would hide a broken CI.
pub fn peer_missing(peer: &str, install: &str) -> ! {
    panic!("{peer} is missing: {install} (.ci/run installs it)")
}

/// Fails the test unless `path` exists, naming `peer` and how to install it.
pub fn require_file(path: &str, peer: &str, install: &str) {
    if !Path::new(path).exists() {
        peer_missing(&format!("{peer} ({path})"), install);
    }
}

/// Fails the test unless GNU Go is installed.
pub fn require_gnugo() {
    require_file(GNUGO, "GNU Go", "apt-get install -y gnugo");
}

/// Fails the test unless GNU Backgammon is installed.
pub fn require_gnubg() {
    require_file(GNUBG, "GNU Backgammon", "apt-get install -y gnubg");
}

/// True when `program ARGS…` starts and exits with success (output discarded).
fn runs(program: &str, args: &[&str]) -> bool {
    std::process::Command::new(program)
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// Fails the test unless `python3` runs: the fixtures in `tests/fixtures/` need it.
pub fn require_python3() {
    if !runs("python3", &["--version"]) {
        peer_missing("python3", "apt-get install -y python3");
    }
}

/// A PyPI package a python fixture imports.
pub struct PythonPackage {
    /// The name `pip install` takes.
    pub pypi: &'static str,
    /// A module the fixture imports, which exists once the package is installed.
    pub module: &'static str,
}

/// An independent Abalone move generator, for `tests/interop/boai_diff.rs`.
pub const ABALONE_BOAI: PythonPackage = PythonPackage {
    pypi: "abalone-boai",
    module: "abalone.game",
};

/// gnubg's own move generator and evaluators, for `tests/interop/gnubg_*.rs`.
pub const GNUBG_NN: PythonPackage = PythonPackage {
    pypi: "gnubg-nn",
    module: "gnubg_nn",
};

/// Fails the test unless python3 can import `package`.
pub fn require_python_package(package: &PythonPackage) {
    require_python3();
    if !runs("python3", &["-c", &format!("import {}", package.module)]) {
        peer_missing(
            &format!(
                "the python package {} (module {})",
                package.pypi, package.module
            ),
            &format!("python3 -m pip install {}", package.pypi),
        );
    }
}

/// Fails the test unless Node.js and Sabaki's GTP client (`npm ci` in `dir`) are there.
pub fn require_sabaki_client(dir: &Path) {
    if !runs("node", &["--version"]) {
        peer_missing("Node.js", "apt-get install -y nodejs npm");
    }
    if !dir.join("node_modules/@sabaki/gtp").is_dir() {
        peer_missing(
            "Sabaki's GTP client (@sabaki/gtp)",
            "cd tests/sabaki && npm ci",
        );
    }
}

/// Fails the test unless Node.js and Sabaki's SGF parser (`npm ci` in `dir`) are there.
pub fn require_sabaki_sgf(dir: &Path) {
    if !runs("node", &["--version"]) {
        peer_missing("Node.js", "apt-get install -y nodejs npm");
    }
    if !dir.join("node_modules/@sabaki/sgf").is_dir() {
        peer_missing(
            "Sabaki's SGF parser (@sabaki/sgf)",
            "cd tests/sabaki && npm ci",
        );
    }
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
/// printed; `package` is the PyPI package the script imports, checked before the script
/// starts so that a missing one fails with its install line.
pub fn python_fixture(script: &str, input: String, package: &PythonPackage) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    require_python_package(package);
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(script);
    let mut child = Command::new("python3")
        .arg(&path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start python3 {script}: {e}"));
    let mut stdin = child.stdin.take().expect("stdin");
    // A thread writes while this one reads, so neither pipe fills up and blocks.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("python3 ran");
    let written = writer.join().expect("writer");
    // The script's own error first: a script that died also closed its stdin.
    assert!(
        output.status.success(),
        "{script} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    if let Err(error) = written {
        panic!("{script} exited before reading all its input: {error}");
    }
    String::from_utf8(output.stdout).expect("utf-8")
}

/// Runs gnubg in tty mode on `commands`, killed after two minutes; stdout then stderr.
pub fn gnubg(commands: &str) -> String {
    use std::io::Write;
    use std::process::{Command, Stdio};
    require_gnubg();
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

/// GNU Go's regression suites (`*.tst` and the SGF games they load), read in place from
/// `../shared/gnugo-regression` beside the checkout, or from the folder `HAMLE_GNUGO_REGRESSION`
/// names. They are an optional extra, not the project's data (the project's own suite is
/// `tests/data/regress/`): where they are absent, `None`, and one line on stderr says that
/// `test` is skipped and why. Written past the test harness's capture, so it shows.
pub fn gnugo_regression_data(test: &str) -> Option<std::path::PathBuf> {
    use std::io::Write;
    if let Some(dir) = std::env::var_os("HAMLE_GNUGO_REGRESSION") {
        let dir = std::path::PathBuf::from(dir);
        assert!(
            dir.join("tiny.tst").is_file(),
            "HAMLE_GNUGO_REGRESSION={} holds no tiny.tst: point it at GNU Go's regression folder",
            dir.display()
        );
        return Some(dir);
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/gnugo-regression");
    if beside.join("tiny.tst").is_file() {
        return Some(beside);
    }
    let _ = writeln!(
        std::io::stderr(),
        "note: {test} skipped: GNU Go's regression suites are not in ../shared/gnugo-regression \
         (an optional extra, not the project's data; HAMLE_GNUGO_REGRESSION may name their folder)"
    );
    None
}

/// Debian's `chromium`, headless: the browser the viewer pages are checked in
/// (`tests/arena/viewer.rs`).
pub const CHROMIUM: &str = "chromium";

/// Fails the test unless `chromium` runs.
pub fn require_chromium() {
    if !runs(CHROMIUM, &["--version"]) {
        peer_missing("chromium", "apt-get install -y chromium");
    }
}
