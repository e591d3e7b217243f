//! `hamle regress`: GNU Go's `.tst` regression files, run as gogui-regress runs them.
//!
//! A `.tst` file is GTP commands and comments. A command whose line starts with a number
//! is a test; the `#? [pattern]` line after it says what its answer must be:
//! the whole answer must match the regular expression `pattern` (`.` matches newlines),
//! `[!pattern]` must not match, a trailing `*` marks a known failure (passing it is a gain,
//! failing it is expected) and a trailing `&` marks a check that is reported but not counted.
//! A numbered command without a `#?` line passes unless the engine answers with an error.
//!
//! Each file gets a fresh engine started in the file's folder, so `loadsgf` paths are
//! relative to the file. Results are printed as GNU Go's `eval.sh` prints them:
//! `passed`, `failed` (expected failure), `PASSED` (unexpected pass), `FAILED`
//! (unexpected failure).

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::Regex;

use super::bots::Bot;
use super::gtp::{BlockingEngine, EngineError};

/// A mistake in a `.tst` file, with its place.
#[derive(Debug)]
pub struct TstError {
    pub path: PathBuf,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for TstError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.path.display(), self.message)
        } else {
            write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)
        }
    }
}

impl std::error::Error for TstError {}

/// What the answer to a test must be.
#[derive(Clone, Debug)]
pub struct Expectation {
    /// As written between the brackets, for reports.
    pub written: String,
    pattern: Regex,
    pub negated: bool,
    /// `*`: the reference engine fails this one.
    pub expected_failure: bool,
    /// `&`: reported, not counted.
    pub ignored: bool,
}

impl Expectation {
    /// Reads what follows `#?`: `[pattern]`, `[!pattern]`, then optional `*` and `&`.
    pub fn parse(text: &str) -> Result<Expectation, String> {
        let mut rest = text.trim();
        let mut expected_failure = false;
        let mut ignored = false;
        loop {
            if let Some(r) = rest.strip_suffix('*') {
                expected_failure = true;
                rest = r.trim_end();
            } else if let Some(r) = rest.strip_suffix('&') {
                ignored = true;
                rest = r.trim_end();
            } else {
                break;
            }
        }
        let Some(inner) = rest.strip_prefix('[') else {
            return Err(format!("expected '[' to open the pattern in '#? {text}'"));
        };
        let Some(inner) = inner.strip_suffix(']') else {
            return Err(format!("expected ']' to close the pattern in '#? {text}'"));
        };
        let written = inner.trim().to_owned();
        let (negated, body) = match written.strip_prefix('!') {
            Some(body) => (true, body),
            None => (false, written.as_str()),
        };
        // Java's `matches()` with MULTILINE | DOTALL, as gogui-regress compiles it.
        let pattern = Regex::new(&format!(r"(?ms)\A(?:{body})\z"))
            .map_err(|error| format!("invalid pattern [{written}]: {error}"))?;
        Ok(Expectation {
            written,
            pattern,
            negated,
            expected_failure,
            ignored,
        })
    }

    /// Whether `answer` (trimmed) satisfies the pattern.
    pub fn accepts(&self, answer: &str) -> bool {
        self.pattern.is_match(answer.trim()) != self.negated
    }
}

/// One command of a `.tst` file.
#[derive(Clone, Debug)]
pub struct TstCommand {
    pub line: usize,
    /// The test number, for numbered commands.
    pub number: Option<u64>,
    /// The GTP command without its number.
    pub text: String,
    pub expectation: Option<Expectation>,
}

/// The largest `.tst` file read: a suite is a few thousand lines of text, far below it.
pub const MAX_TST_BYTES: u64 = 16 * 1024 * 1024;

/// A parsed `.tst` file.
#[derive(Clone, Debug)]
pub struct TstFile {
    pub path: PathBuf,
    pub commands: Vec<TstCommand>,
}

impl TstFile {
    pub fn read(path: &Path) -> Result<TstFile, TstError> {
        let text =
            crate::files::read_capped_to_string(path, MAX_TST_BYTES).map_err(|error| TstError {
                path: path.to_owned(),
                line: 0,
                message: error.problem.to_string(),
            })?;
        TstFile::parse(&text, path)
    }

    pub fn parse(text: &str, path: &Path) -> Result<TstFile, TstError> {
        let mut commands: Vec<TstCommand> = Vec::new();
        // Whether the last non-blank line was a command awaiting its `#?`.
        let mut awaiting = false;
        for (index, raw) in text.lines().enumerate() {
            let line_number = index + 1;
            let error = |message: String| TstError {
                path: path.to_owned(),
                line: line_number,
                message,
            };
            let line = raw.trim();
            if let Some(rest) = line.strip_prefix("#?") {
                let command = commands
                    .last_mut()
                    .filter(|_| awaiting)
                    .ok_or_else(|| error("a '#?' line without a command before it".to_owned()))?;
                if command.number.is_none() {
                    return Err(error(format!(
                        "a '#?' line after the unnumbered command '{}': number the command",
                        command.text
                    )));
                }
                command.expectation = Some(Expectation::parse(rest).map_err(error)?);
                awaiting = false;
                continue;
            }
            if line.is_empty() || line.starts_with('#') {
                awaiting = false;
                continue;
            }
            // GTP drops everything from '#' on.
            let line = line.split('#').next().unwrap_or("").replace('\t', " ");
            let line = line.trim();
            let (number, text) = match line.split_once(' ') {
                Some((first, rest)) if first.bytes().all(|b| b.is_ascii_digit()) => {
                    let number = first
                        .parse::<u64>()
                        .map_err(|_| error(format!("test number '{first}' is too large")))?;
                    (Some(number), rest.trim().to_owned())
                }
                _ if line.bytes().all(|b| b.is_ascii_digit()) => {
                    return Err(error(format!("test number '{line}' without a command")));
                }
                _ => (None, line.to_owned()),
            };
            commands.push(TstCommand {
                line: line_number,
                number,
                text,
                expectation: None,
            });
            awaiting = true;
        }
        if !commands.iter().any(|c| c.number.is_some()) {
            return Err(TstError {
                path: path.to_owned(),
                line: 0,
                message: "no numbered test command: is this a .tst file?".to_owned(),
            });
        }
        Ok(TstFile {
            path: path.to_owned(),
            commands,
        })
    }
}

/// How one test ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Passed as expected.
    Passed,
    /// Failed, as its `*` expected.
    Failed,
    /// Passed although marked `*`.
    UnexpectedPass,
    /// Failed although expected to pass.
    UnexpectedFail,
    /// Marked `&`: not counted.
    Ignored,
}

impl Verdict {
    /// The word gogui-regress's long output and GNU Go's `eval.sh` print.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Passed => "passed",
            Verdict::Failed => "failed",
            Verdict::UnexpectedPass => "PASSED",
            Verdict::UnexpectedFail => "FAILED",
            Verdict::Ignored => "ignored",
        }
    }
}

/// One test's outcome.
#[derive(Clone, Debug)]
pub struct TestOutcome {
    pub number: u64,
    pub command: String,
    pub verdict: Verdict,
    /// The answer (or the engine's error message, prefixed `? `).
    pub answer: String,
    pub expected: Option<String>,
}

/// A file's outcome.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    pub path: PathBuf,
    pub tests: Vec<TestOutcome>,
    /// Unnumbered commands that failed (such as a `loadsgf` that could not load).
    pub command_errors: Vec<String>,
    /// The engine crashed, hung or talked garbage: the file's remaining tests did not run.
    pub fatal: Option<String>,
}

impl FileReport {
    pub fn count(&self, verdict: Verdict) -> usize {
        self.tests.iter().filter(|t| t.verdict == verdict).count()
    }

    /// Tests that passed, expected or not.
    pub fn passes(&self) -> usize {
        self.count(Verdict::Passed) + self.count(Verdict::UnexpectedPass)
    }

    /// Tests counted (all but the ignored).
    pub fn counted(&self) -> usize {
        self.tests.len() - self.count(Verdict::Ignored)
    }

    pub fn unexpected_failures(&self) -> usize {
        self.count(Verdict::UnexpectedFail) + self.command_errors.len()
    }
}

/// gogui-regress's exit codes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RegressStatus {
    /// Every test as expected.
    AsExpected = 0,
    /// At least one unexpected failure.
    UnexpectedFailure = 1,
    /// The engine crashed, hung or broke the protocol.
    EngineFailure = 2,
}

/// Runs every file with a fresh engine each and writes per-test lines and per-file
/// summaries to `out`. Files are all read first: an invalid one stops the run before
/// any engine starts.
pub struct Regress<'a> {
    pub bot: &'a Bot,
    pub hamle_exe: &'a Path,
    /// Bound on every read from the engine.
    pub timeout: Duration,
    /// Where engine stderr goes (appended); `None` discards it.
    pub stderr_log: Option<PathBuf>,
    /// `--log-protocol FILE`: every line to and from each file's engine, emptied when the
    /// run starts, each file's conversation after a `# FILE` line.
    pub protocol_log: Option<PathBuf>,
}

impl Regress<'_> {
    pub fn read_files(paths: &[PathBuf]) -> Result<Vec<TstFile>, TstError> {
        paths.iter().map(|p| TstFile::read(p)).collect()
    }

    /// Runs one file on a fresh engine started in the file's folder.
    pub fn run_file(&self, file: &TstFile) -> FileReport {
        let mut report = FileReport {
            path: file.path.clone(),
            ..FileReport::default()
        };
        let folder = match file.path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
            _ => PathBuf::from("."),
        };
        let mut launch = match self.bot.launch(self.hamle_exe, None) {
            Ok(launch) => launch,
            Err(error) => {
                report.fatal = Some(error.to_string());
                return report;
            }
        };
        // The engine runs in the file's folder; a relative program path must still
        // name the same file.
        if launch.program.is_relative() && launch.program.components().count() > 1 {
            launch.program = absolute(&launch.program);
        }
        launch.working_dir = Some(match &launch.working_dir {
            Some(dir) if dir.is_absolute() => dir.clone(),
            _ => absolute(&folder),
        });
        launch.stderr_log = self.stderr_log.clone();
        if let Some(path) = &self.protocol_log {
            let heading = format!(
                "# {}\n",
                crate::text::printable(&file.path.display().to_string())
            );
            let _ = crate::files::open_to_append(path)
                .map(|mut log| std::io::Write::write_all(&mut log, heading.as_bytes()));
            launch.protocol_log = Some(path.clone());
        }
        let mut engine = match BlockingEngine::spawn(&launch, self.timeout) {
            Ok(engine) => engine,
            Err(error) => {
                report.fatal = Some(error.to_string());
                return report;
            }
        };
        for command in self.bot.startup.iter() {
            match engine.send(command) {
                Ok(Ok(_)) => {}
                Ok(Err(message)) => {
                    report.fatal = Some(format!("startup command '{command}' failed: {message}"));
                    return report;
                }
                Err(error) => {
                    report.fatal = Some(error.to_string());
                    return report;
                }
            }
        }
        for command in &file.commands {
            let answer = match engine.send(&command.text) {
                Ok(answer) => answer,
                Err(error) => {
                    report.fatal = Some(fatal_message(file, command, &error));
                    return report;
                }
            };
            let Some(number) = command.number else {
                if let Err(message) = answer {
                    report.command_errors.push(format!(
                        "line {}: '{}' failed: {message}",
                        command.line, command.text
                    ));
                }
                continue;
            };
            let (failed, shown) = match (&answer, &command.expectation) {
                (Err(message), _) => (true, format!("? {message}")),
                (Ok(body), Some(expectation)) => {
                    (!expectation.accepts(body), body.trim().to_owned())
                }
                (Ok(body), None) => (false, body.trim().to_owned()),
            };
            let expectation = command.expectation.as_ref();
            let verdict = match (
                failed,
                expectation.is_some_and(|e| e.expected_failure),
                expectation.is_some_and(|e| e.ignored),
            ) {
                (_, _, true) => Verdict::Ignored,
                (false, false, _) => Verdict::Passed,
                (false, true, _) => Verdict::UnexpectedPass,
                (true, true, _) => Verdict::Failed,
                (true, false, _) => Verdict::UnexpectedFail,
            };
            report.tests.push(TestOutcome {
                number,
                command: command.text.clone(),
                verdict,
                answer: shown,
                expected: expectation.map(|e| e.written.clone()),
            });
        }
        engine.shutdown();
        report
    }

    /// Runs all files, printing as it goes; returns the reports and the exit status.
    pub fn run(
        &self,
        files: &[TstFile],
        out: &mut dyn Write,
    ) -> std::io::Result<(Vec<FileReport>, RegressStatus)> {
        if let Some(path) = &self.protocol_log {
            crate::files::open_to_write(path).map_err(std::io::Error::other)?;
        }
        let mut reports = Vec::new();
        for file in files {
            let report = self.run_file(file);
            print_report(&report, out)?;
            reports.push(report);
        }
        let status = status_of(&reports);
        print_total(&reports, out)?;
        Ok((reports, status))
    }
}

fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_owned();
    }
    std::env::current_dir()
        .map(|cwd| cwd.join(path))
        .unwrap_or_else(|_| path.to_owned())
}

fn fatal_message(file: &TstFile, command: &TstCommand, error: &EngineError) -> String {
    format!(
        "{}:{}: {error}; the file's remaining tests did not run",
        file.path.display(),
        command.line
    )
}

/// The exit status of a run: 2 on any engine failure, else 1 on any unexpected failure.
pub fn status_of(reports: &[FileReport]) -> RegressStatus {
    if reports.iter().any(|r| r.fatal.is_some()) {
        RegressStatus::EngineFailure
    } else if reports.iter().any(|r| r.unexpected_failures() > 0) {
        RegressStatus::UnexpectedFailure
    } else {
        RegressStatus::AsExpected
    }
}

fn file_label(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// One line per test, then the file's summary.
pub fn print_report(report: &FileReport, out: &mut dyn Write) -> std::io::Result<()> {
    let label = file_label(&report.path);
    for test in &report.tests {
        match (test.verdict, &test.expected) {
            (Verdict::Failed | Verdict::UnexpectedFail | Verdict::Ignored, Some(expected)) => {
                writeln!(
                    out,
                    "{label} {} {}: Correct '{expected}', got '{}'",
                    test.number,
                    test.verdict.word(),
                    test.answer
                )?
            }
            (Verdict::Failed | Verdict::UnexpectedFail, None) => writeln!(
                out,
                "{label} {} {}: '{}' answered '{}'",
                test.number,
                test.verdict.word(),
                test.command,
                test.answer
            )?,
            _ => writeln!(out, "{label} {} {}", test.number, test.verdict.word())?,
        }
    }
    for error in &report.command_errors {
        writeln!(out, "{label} error: {error}")?;
    }
    if let Some(fatal) = &report.fatal {
        writeln!(out, "{label} ENGINE FAILURE: {fatal}")?;
    }
    writeln!(
        out,
        "{label}: {}/{} passed ({} passed, {} failed, {} PASSED, {} FAILED, {} ignored, {} command errors){}",
        report.passes(),
        report.counted(),
        report.count(Verdict::Passed),
        report.count(Verdict::Failed),
        report.count(Verdict::UnexpectedPass),
        report.count(Verdict::UnexpectedFail),
        report.count(Verdict::Ignored),
        report.command_errors.len(),
        if report.fatal.is_some() {
            ", engine failure"
        } else {
            ""
        }
    )
}

fn print_total(reports: &[FileReport], out: &mut dyn Write) -> std::io::Result<()> {
    let passes: usize = reports.iter().map(FileReport::passes).sum();
    let counted: usize = reports.iter().map(FileReport::counted).sum();
    let sum = |v: Verdict| -> usize { reports.iter().map(|r| r.count(v)).sum() };
    writeln!(
        out,
        "total: {passes}/{counted} passed ({} passed, {} failed, {} PASSED, {} FAILED) in {} files",
        sum(Verdict::Passed),
        sum(Verdict::Failed),
        sum(Verdict::UnexpectedPass),
        sum(Verdict::UnexpectedFail),
        reports.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expectations_read_negation_and_markers() {
        let e = Expectation::parse(" [A1|B2]*").expect("valid");
        assert!(e.expected_failure && !e.negated && !e.ignored);
        assert!(e.accepts("B2") && !e.accepts("B22") && !e.accepts("xA1"));
        let e = Expectation::parse("[!PASS]&").expect("valid");
        assert!(e.negated && e.ignored && !e.expected_failure);
        assert!(e.accepts("D4") && !e.accepts("PASS"));
        let e = Expectation::parse("[W\\+.*]").expect("valid");
        assert!(e.accepts("W+3.5\nmore"), "dot matches newlines");
        assert!(Expectation::parse("A1").is_err());
        assert!(Expectation::parse("[A1").is_err());
        assert!(Expectation::parse("[(]").is_err());
    }

    #[test]
    fn files_parse_with_places_in_errors() {
        let path = Path::new("x.tst");
        let file = TstFile::parse(
            "boardsize 9\n# note\n12 reg_genmove b # why\n#? [E5]\n13 final_score\n",
            path,
        )
        .expect("valid");
        assert_eq!(file.commands.len(), 3);
        assert_eq!(file.commands[1].number, Some(12));
        assert_eq!(file.commands[1].text, "reg_genmove b");
        assert!(file.commands[1].expectation.is_some());
        assert!(file.commands[2].expectation.is_none());
        let error = TstFile::parse("#? [A1]\n", path).expect_err("no command");
        assert_eq!(error.line, 1);
        let error = TstFile::parse("1 genmove b\n\n#? [A1]\n", path).expect_err("blank between");
        assert_eq!(error.line, 3);
        let error = TstFile::parse("1 genmove b\n#? A1\n", path).expect_err("no brackets");
        assert!(error.to_string().starts_with("x.tst:2: "), "{error}");
        assert!(TstFile::parse("boardsize 9\n", path).is_err());
    }
}
