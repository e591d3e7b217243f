use std::io::{self, BufRead, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::mpsc::Receiver;

use super::GtpError;
use super::command::{Command, parse_command};
use super::input::{Input, Signals, spawn_reader};
use super::rules::{self, GoguiRules};
use super::watched::WatchedStdin;
use crate::text::shorten;

/// What a game implements to be served over GTP. The core answers the commands every
/// engine shares (see `CORE_COMMANDS`) and hands every other command to [`Engine::execute`].
pub trait Engine {
    /// The answer to `name`: every hamle engine is `hamle`, whatever the game.
    fn name(&self) -> String {
        "hamle".into()
    }

    /// The answer to `version`: the crate's version.
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    /// The game's own commands, in the order `list_commands` shows them.
    fn commands(&self) -> Vec<&'static str>;

    /// Runs one of [`Engine::commands`]. The returned text is the response body; it may
    /// span lines but must hold no empty line.
    fn execute(&mut self, command: &Command, session: &mut Session<'_>)
    -> Result<String, GtpError>;

    /// The game's answers to GoGui's rules extension, which the core then serves (see
    /// [`super::rules`]); `None` (the default) for a game GoGui knows, such as Go.
    fn gogui_rules(&self) -> Option<&dyn GoguiRules> {
        None
    }

    /// Extra lines for `gogui-analyze_commands` (`type/label/command`).
    fn analyze_commands(&self) -> Vec<String> {
        Vec::new()
    }

    /// The answer to `gomill-describe_engine`: settings a match log should record.
    fn describe(&self) -> String {
        format!("{} {}", self.name(), self.version())
    }

    /// Called after a command has been answered when no other line is waiting: an
    /// engine may think on the opponent's time here (pondering) until
    /// [`Signals::anything_arrived`] says a line, an interrupt or the end of input came.
    /// It must write nothing to the output: the next response must be the next
    /// command's.
    fn ponder(&mut self, _signals: &Signals) {}

    /// Whether the engine takes [`SEED_COMMAND`]; the core lists and answers it only then.
    fn takes_random_seed(&self) -> bool {
        false
    }

    /// [`SEED_COMMAND`]: every random stream and per-game cache starts over from `seed`,
    /// so that what follows plays as a fresh process started with `--seed seed` would
    /// (the arena reseeds an engine it keeps between games this way).
    fn set_random_seed(&mut self, _seed: u64) {}
}

/// GNU Go's name for reseeding an engine, which match runners send between games.
pub const SEED_COMMAND: &str = "set_random_seed";

/// The commands the core answers for every game.
pub const CORE_COMMANDS: [&str; 12] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "stop",
    "cputime",
    "gomill-cpu_time",
    "gomill-describe_engine",
    "gogui-interrupt",
    "gogui-analyze_commands",
];

/// What a running command may see of the connection: the interrupt flags and a way to
/// stream lines (analysis output) before its final answer.
pub struct Session<'a> {
    out: &'a mut dyn Write,
    id: Option<&'a str>,
    signals: &'a Signals,
    streaming: bool,
}

impl<'a> Session<'a> {
    /// True once GoGui's `# interrupt` or a `stop` has arrived: a search should
    /// return its best answer now.
    pub fn interrupted(&self) -> bool {
        self.signals.interrupted()
    }

    /// The flags themselves, for a search running on several threads.
    pub fn signals(&self) -> &'a Signals {
        self.signals
    }

    /// True once any command line is waiting: analysis streams end then.
    pub fn input_pending(&self) -> bool {
        self.signals.input_pending()
    }

    /// Opens a streamed success response with its `=[id] ` line, once. A command whose
    /// final line clients read apart from the header (`play D4` after
    /// `lz-genmove_analyze`) opens it before it may stream anything, so that line never
    /// shares the header's line even when no stream line came first.
    pub fn open_stream(&mut self) -> io::Result<()> {
        if !self.streaming {
            writeln!(self.out, "={} ", self.id.unwrap_or(""))?;
            self.out.flush()?;
            self.streaming = true;
        }
        Ok(())
    }

    /// Writes one line of a streamed success response (e.g. `info move D4 …`), opening the
    /// response with `=[id] ` first. The final text returned by the command follows the
    /// streamed lines and an empty line closes it.
    pub fn stream_line(&mut self, line: &str) -> io::Result<()> {
        self.open_stream()?;
        for part in line.split('\n').filter(|part| !part.trim().is_empty()) {
            writeln!(self.out, "{part}")?;
        }
        self.out.flush()
    }
}

/// Serves `engine` on `input`/`output` until `quit` or end of input.
pub fn serve<E: Engine, R: BufRead + Send + 'static, W: Write>(
    engine: &mut E,
    input: R,
    output: W,
) -> io::Result<()> {
    let signals = Signals::new();
    let receiver = spawn_reader(input, Arc::clone(&signals));
    serve_inputs(engine, &receiver, &signals, output)
}

/// Serves `engine` on the process's stdin and stdout: what `hamle <game>` runs. The command
/// loop reads stdin itself while it waits, and a watcher reads it while a command runs
/// (`WatchedStdin`), so that a command starts without a hand-over between threads.
pub fn serve_stdio<E: Engine>(engine: &mut E) -> io::Result<()> {
    let signals = Signals::new();
    let stdin = WatchedStdin::new(Arc::clone(&signals));
    let running = |busy: bool| {
        if busy {
            stdin.busy();
        } else {
            stdin.idle();
        }
    };
    command_loop(
        engine,
        || stdin.next(),
        running,
        &signals,
        io::stdout().lock(),
    )
}

/// The command loop over lines that a reader (see [`spawn_reader`]) delivers.
pub fn serve_inputs<E: Engine, W: Write>(
    engine: &mut E,
    inputs: &Receiver<Input>,
    signals: &Signals,
    output: W,
) -> io::Result<()> {
    let next = || {
        let input = inputs.recv().ok()?;
        signals.line_taken(&input);
        Some(input)
    };
    command_loop(engine, next, |_| {}, signals, output)
}

/// Answers each line `next` gives until `quit` or the end of input; `running(true)` before
/// a command runs and `running(false)` once it (and its ponder) is over.
fn command_loop<E: Engine, W: Write>(
    engine: &mut E,
    mut next: impl FnMut() -> Option<Input>,
    running: impl Fn(bool),
    signals: &Signals,
    mut output: W,
) -> io::Result<()> {
    while let Some(input) = next() {
        let line = match input {
            Input::Line(line) => line,
            Input::TooLong(id) => {
                respond(&mut output, id.as_deref(), Err(GtpError::LineTooLong))?;
                continue;
            }
        };
        let command = match parse_command(&line) {
            Ok(command) => command,
            Err((id, error)) => {
                respond(&mut output, id.as_deref(), Err(error))?;
                continue;
            }
        };
        tracing::debug!(command = %shorten(&line), "received");
        running(true);
        let mut session = Session {
            out: &mut output,
            id: command.id.as_deref(),
            signals,
            streaming: false,
        };
        let result = run_command(engine, &command, &mut session);
        let streaming = session.streaming;
        let answered = if streaming {
            finish_stream(&mut output, result)
        } else {
            respond(&mut output, command.id.as_deref(), result)
        };
        if command.name != "quit" && answered.is_ok() && !signals.anything_arrived() {
            // A bug while pondering must not take the session down either.
            if catch_unwind(AssertUnwindSafe(|| engine.ponder(signals))).is_err() {
                tracing::error!("internal error while pondering");
            }
        }
        running(false);
        answered?;
        if command.name == "quit" {
            break;
        }
    }
    Ok(())
}

fn run_command<E: Engine>(
    engine: &mut E,
    command: &Command,
    session: &mut Session<'_>,
) -> Result<String, GtpError> {
    if let Some(answer) = core_command(engine, command) {
        return answer;
    }
    if command.name == SEED_COMMAND && engine.takes_random_seed() {
        let seed = parse_seed(command)?;
        engine.set_random_seed(seed);
        return Ok(String::new());
    }
    if !engine.commands().contains(&command.name.as_str()) {
        return Err(GtpError::UnknownCommand);
    }
    // A bug in a game must not take a match down with it: report it and keep serving.
    let dispatch = || match engine
        .gogui_rules()
        .and_then(|rules| rules::answer(rules, command))
    {
        Some(answer) => answer,
        None => engine.execute(command, session),
    };
    match catch_unwind(AssertUnwindSafe(dispatch)) {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!("internal error in {}: {what}", command.name);
            Err(GtpError::other(format!("internal error: {what}")))
        }
    }
}

fn core_command<E: Engine>(engine: &E, command: &Command) -> Option<Result<String, GtpError>> {
    let no_args = |answer: String| command.expect_args(0, "").map(|()| answer);
    let answer = match command.name.as_str() {
        "protocol_version" => no_args("2".into()),
        "name" => no_args(engine.name()),
        "version" => no_args(engine.version()),
        "known_command" => command.expect_args(1, "<command_name>").map(|()| {
            let known = all_commands(engine).iter().any(|c| *c == command.args[0]);
            known.to_string()
        }),
        "list_commands" => no_args(all_commands(engine).join("\n")),
        // `stop` takes effect through the reader's interrupt flag and `quit` in the command
        // loop; both answer success whatever follows them, as a controller closing down
        // expects.
        "quit" | "stop" | "gogui-interrupt" => Ok(String::new()),
        "cputime" | "gomill-cpu_time" => no_args(format!("{:.3}", cpu_seconds())),
        "gomill-describe_engine" => no_args(engine.describe()),
        "gogui-analyze_commands" => no_args(engine.analyze_commands().join("\n")),
        _ => return None,
    };
    Some(answer)
}

fn all_commands<E: Engine>(engine: &E) -> Vec<&'static str> {
    let mut commands: Vec<&'static str> = CORE_COMMANDS.to_vec();
    if engine.takes_random_seed() {
        commands.push(SEED_COMMAND);
    }
    commands.extend(engine.commands());
    commands
}

/// The one argument of [`SEED_COMMAND`]: a seed from 0 to 2^64 - 1.
fn parse_seed(command: &Command) -> Result<u64, GtpError> {
    command.expect_args(1, "<seed>")?;
    command.args[0].parse().map_err(|_| {
        GtpError::syntax(format!(
            "{SEED_COMMAND} takes a whole number from 0 to {}, got '{}'",
            u64::MAX,
            shorten(&command.args[0])
        ))
    })
}

/// CPU time this process has used, from `/proc/self/stat` (user + system, in clock ticks
/// of 1/100 s, the value on every Linux the project runs on).
fn cpu_seconds() -> f64 {
    const TICKS_PER_SECOND: f64 = 100.0;
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // The command name (field 2) may hold spaces, so count fields after its ')'.
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |index: usize| {
        fields
            .get(index)
            .and_then(|f| f.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    (ticks(11) + ticks(12)) / TICKS_PER_SECOND
}

/// Writes one complete response: `=[id] body` or `?[id] message`, then an empty line.
fn respond<W: Write>(
    out: &mut W,
    id: Option<&str>,
    result: Result<String, GtpError>,
) -> io::Result<()> {
    let id = id.unwrap_or("");
    match result {
        Ok(body) => {
            write!(out, "={id} ")?;
            write_body(out, &body)?;
        }
        Err(error) => {
            let message = error.to_string().replace(['\r', '\n'], " ");
            write!(out, "?{id} {message}")?;
        }
    }
    out.write_all(b"\n\n")?;
    out.flush()
}

fn finish_stream<W: Write>(out: &mut W, result: Result<String, GtpError>) -> io::Result<()> {
    match result {
        Ok(body) if !body.trim().is_empty() => {
            write_body(out, &body)?;
            out.write_all(b"\n")?;
        }
        Ok(_) => {}
        // The success header is already out: the error can only be logged.
        Err(error) => tracing::warn!("streamed command failed: {error}"),
    }
    out.write_all(b"\n")?;
    out.flush()
}

/// A body's interior empty lines would end the response early, so they are dropped.
fn write_body<W: Write>(out: &mut W, body: &str) -> io::Result<()> {
    let body = body.trim_end_matches(['\n', '\r']);
    let mut lines = body.split('\n');
    if let Some(first) = lines.next() {
        out.write_all(first.as_bytes())?;
    }
    for line in lines.filter(|line| !line.trim().is_empty()) {
        out.write_all(b"\n")?;
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}
