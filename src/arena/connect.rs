//! `hamle connect SERVER BOT --name N --ladder L`: an author's bot on a living ladder,
//! thinking on the author's machine. The client logs in (the password set at the name's
//! first login), then starts the bot (a bot file or a command line, as the arena does)
//! for each game session the server opens and carries its protocol lines both ways
//! (`arena::live::remote::wire`). It answers the server's pings, and when the server goes
//! away it connects again, waiting longer each time (1 s doubling to a minute); a refusal
//! (a wrong password, an unknown ladder) ends it with exit 1.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::{Duration, Instant};

use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::sync::{mpsc, oneshot};

use super::bots::{Bot, BotFolders, GameKind, bot_or_command};
use super::live::remote::wire::{FromClient, HELLO, LineReader, Login, ToClient};

/// The environment variable that holds the password when no `--password-file` is given.
pub const PASSWORD_VARIABLE: &str = "HAMLE_PASSWORD";

/// The longest line taken from the server or from the bot.
const MAX_LINE: usize = 64 * 1024;

/// The longest wait between two connection attempts.
const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// How long a stopped bot has to exit before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(2);

#[derive(clap::Args, Debug)]
pub struct ConnectArgs {
    /// The ladder server's address for bots, HOST:PORT.
    pub server: String,
    /// The bot: a name from the bots folders or a command line (run without a shell),
    /// started on this machine for each game session.
    pub bot: String,
    /// The bot's name on the server (its account: letters, digits and - _ . +).
    #[arg(long)]
    pub name: String,
    /// The bot's version: a new version is a new entry with its own rating.
    #[arg(long)]
    pub version: Option<String>,
    /// The ladder to join (the server's organiser names them).
    #[arg(long)]
    pub ladder: String,
    /// A file whose first line is the password (set at the name's first login); without
    /// it, $HAMLE_PASSWORD.
    #[arg(long, value_name = "FILE")]
    pub password_file: Option<PathBuf>,
    /// The folder of bot files (as `hamle match --bots`).
    #[arg(long, value_name = "DIR")]
    pub bots: Option<PathBuf>,
}

/// Runs `hamle connect`: exit 1 when the server refuses the bot, 2 on bad arguments; it
/// otherwise runs until interrupted.
pub fn run(args: ConnectArgs) -> ExitCode {
    let exe = std::env::current_exe().unwrap_or_else(|_| PathBuf::from("hamle"));
    let prepared = prepare(&args, &exe);
    let (bot, login) = match prepared {
        Ok(found) => found,
        Err(why) => {
            eprintln!("hamle connect: {why}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("hamle connect: cannot start the async runtime: {error}");
            return ExitCode::from(2);
        }
    };
    runtime.block_on(keep_connected(&args.server, &bot, &login, &exe))
}

/// The bot and the login, read and checked before anything is sent.
fn prepare(args: &ConnectArgs, exe: &Path) -> Result<(Bot, Login), String> {
    let folders = BotFolders::search(args.bots.as_deref(), exe);
    // The ladder names the game; a command line's game is not used to start it.
    let bot = bot_or_command(&folders, &args.bot, GameKind::Go).map_err(|e| e.to_string())?;
    bot.launch(exe, None).map_err(|e| e.to_string())?;
    let password = password(args.password_file.as_deref())?;
    let login = Login {
        name: args.name.clone(),
        ladder: args.ladder.clone(),
        version: args.version.clone().unwrap_or_default(),
        password,
    };
    if login.ladder.contains(char::is_whitespace) {
        return Err("--ladder: a ladder's name holds no spaces".to_owned());
    }
    crate::arena::live::remote::accounts::check_fields(&login).map_err(|r| r.reason)?;
    Ok((bot, login))
}

/// The password: the first line of the file, else the environment variable.
fn password(file: Option<&Path>) -> Result<String, String> {
    let text = match file {
        Some(path) => crate::files::read_capped_to_string(path, 4096)
            .map_err(|error| format!("--password-file {}: {}", path.display(), error.problem))?,
        None => std::env::var(PASSWORD_VARIABLE).map_err(|_| {
            format!("give --password-file FILE (its first line is the password) or set ${PASSWORD_VARIABLE}")
        })?,
    };
    let line = text.lines().next().unwrap_or("").to_owned();
    if line.is_empty() {
        return Err("the password is empty".to_owned());
    }
    Ok(line)
}

/// How one connection ended.
enum Outcome {
    /// For good: said why.
    Refused(String),
    /// The server asks to wait.
    Later(Duration, String),
    /// The connection was lost or never made.
    Lost(String),
}

/// Connects, and connects again after each loss, politely, until refused.
async fn keep_connected(server: &str, bot: &Bot, login: &Login, exe: &Path) -> ExitCode {
    let mut backoff = Duration::from_secs(1);
    // Clients started together do not come back together.
    let jitter = Duration::from_millis(u64::from(std::process::id()) % 1000);
    loop {
        let began = Instant::now();
        let wait = match connection(server, bot, login, exe).await {
            Outcome::Refused(why) => {
                eprintln!("hamle connect: the server refused '{}': {why}", login.name);
                return ExitCode::from(1);
            }
            Outcome::Later(wait, why) => {
                eprintln!("hamle connect: the server says: {why}");
                wait.max(backoff)
            }
            Outcome::Lost(why) => {
                eprintln!("hamle connect: {server}: {why}");
                backoff
            }
        };
        if began.elapsed() > MAX_BACKOFF {
            backoff = Duration::from_secs(1);
        } else {
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
        eprintln!(
            "hamle connect: connecting again in {} s",
            (wait + jitter).as_secs()
        );
        tokio::time::sleep(wait + jitter).await;
    }
}

/// One connection: login, then the sessions the server opens, until it ends.
async fn connection(server: &str, bot: &Bot, login: &Login, exe: &Path) -> Outcome {
    let stream =
        match tokio::time::timeout(Duration::from_secs(10), TcpStream::connect(server)).await {
            Ok(Ok(stream)) => stream,
            Ok(Err(error)) => return Outcome::Lost(error.to_string()),
            Err(_) => return Outcome::Lost("no answer within 10 s".to_owned()),
        };
    let _ = stream.set_nodelay(true);
    let (read, mut write) = stream.into_split();
    let mut reader = LineReader::new(read, MAX_LINE);
    let hello = format!("{HELLO}\n{}\n", login.line());
    if let Err(error) = write.write_all(hello.as_bytes()).await {
        return Outcome::Lost(error.to_string());
    }
    let answer = match tokio::time::timeout(Duration::from_secs(60), reader.next_line()).await {
        Ok(Ok(Some(line))) => line,
        Ok(Ok(None)) => return Outcome::Lost("the server closed the connection".to_owned()),
        Ok(Err(error)) => return Outcome::Lost(error.to_string()),
        Err(_) => return Outcome::Lost("no answer to the login within 60 s".to_owned()),
    };
    let ping = match ToClient::parse(&answer) {
        Some(ToClient::Welcome { game, ping, .. }) => {
            if !bot.source.as_os_str().is_empty() && bot.game.to_string() != game {
                return Outcome::Refused(format!(
                    "ladder '{}' plays {game}; the bot file {} plays {}",
                    login.ladder,
                    bot.source.display(),
                    bot.game
                ));
            }
            eprintln!(
                "hamle connect: '{}' joined ladder '{}' ({game}) on {server}; waiting for games",
                login.name, login.ladder
            );
            ping
        }
        Some(ToClient::Refused(why)) => return Outcome::Refused(why),
        Some(ToClient::Later(wait, why)) => return Outcome::Later(wait, why),
        Some(ToClient::Bye(why)) => return Outcome::Lost(why),
        _ => return Outcome::Lost(format!("unexpected answer {answer:?}")),
    };
    serve(&mut reader, &mut write, bot, exe, ping).await
}

/// A bot process playing one session.
struct Running {
    stdin: mpsc::Sender<String>,
    /// Dropped: the bot is stopped (its stdin closed, killed after a grace).
    _stop: oneshot::Sender<()>,
}

/// Carries the sessions' lines until the connection ends.
async fn serve(
    reader: &mut LineReader<tokio::net::tcp::OwnedReadHalf>,
    write: &mut OwnedWriteHalf,
    bot: &Bot,
    exe: &Path,
    ping: Duration,
) -> Outcome {
    let (from_bots, mut heard) = mpsc::channel::<FromClient>(1024);
    let mut sessions: HashMap<u32, Running> = HashMap::new();
    // The server pings every `ping`: three missed, and it is taken for gone.
    let silence = ping * 3;
    loop {
        let said = tokio::select! {
            line = tokio::time::timeout(silence, reader.next_line()) => match line {
                Err(_) => return Outcome::Lost(format!("the server was silent for {} s", silence.as_secs())),
                Ok(Ok(None)) => return Outcome::Lost("the server closed the connection".to_owned()),
                Ok(Err(error)) => return Outcome::Lost(error.to_string()),
                Ok(Ok(Some(line))) => match ToClient::parse(&line) {
                    Some(ToClient::Bye(why)) => return Outcome::Lost(format!("the server said goodbye: {why}")),
                    Some(message) => obey(message, &mut sessions, bot, exe, &from_bots),
                    None => None,
                },
            },
            Some(message) = heard.recv() => {
                if let FromClient::Ended(session) = message {
                    sessions.remove(&session);
                }
                Some(message)
            }
        };
        if let Some(message) = said {
            let line = message.line() + "\n";
            if let Err(error) = write.write_all(line.as_bytes()).await {
                return Outcome::Lost(error.to_string());
            }
        }
    }
}

/// Does what the server says; returns what to answer.
fn obey(
    message: ToClient,
    sessions: &mut HashMap<u32, Running>,
    bot: &Bot,
    exe: &Path,
    from_bots: &mpsc::Sender<FromClient>,
) -> Option<FromClient> {
    match message {
        ToClient::Ping => Some(FromClient::Pong),
        ToClient::Open(session) => match start(bot, exe, session, from_bots.clone()) {
            Ok(running) => {
                eprintln!("hamle connect: game session {session} started");
                sessions.insert(session, running);
                None
            }
            Err(why) => {
                eprintln!("hamle connect: cannot start the bot: {why}");
                Some(FromClient::Ended(session))
            }
        },
        ToClient::To(session, line) => {
            let stuck = sessions
                .get(&session)
                .is_some_and(|running| running.stdin.try_send(line).is_err());
            // A bot that does not read its input loses that game.
            if stuck {
                sessions.remove(&session);
                return Some(FromClient::Ended(session));
            }
            None
        }
        ToClient::Close(session) => {
            if sessions.remove(&session).is_some() {
                eprintln!("hamle connect: game session {session} ended");
            }
            None
        }
        _ => None,
    }
}

/// Starts the bot for one session: its stdin fed from a queue, each line of its stdout
/// sent to the server, `ended` when its stdout closes.
fn start(
    bot: &Bot,
    exe: &Path,
    session: u32,
    from_bots: mpsc::Sender<FromClient>,
) -> Result<Running, String> {
    let launch = bot.launch(exe, None).map_err(|e| e.to_string())?;
    let mut command = tokio::process::Command::new(&launch.program);
    command
        .args(&launch.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true);
    if let Some(dir) = &launch.working_dir {
        command.current_dir(dir);
    }
    let mut child = command
        .spawn()
        .map_err(|error| format!("{}: {error}", launch.program.display()))?;
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        return Err("the bot's pipes could not be made".to_owned());
    };
    let (lines, mut queue) = mpsc::channel::<String>(256);
    tokio::spawn(async move {
        while let Some(mut line) = queue.recv().await {
            line.push('\n');
            if stdin.write_all(line.as_bytes()).await.is_err() || stdin.flush().await.is_err() {
                break;
            }
        }
    });
    tokio::spawn(async move {
        let mut reader = LineReader::new(stdout, MAX_LINE - 64);
        while let Ok(Some(line)) = reader.next_line().await {
            if from_bots
                .send(FromClient::From(session, line))
                .await
                .is_err()
            {
                return;
            }
        }
        let _ = from_bots.send(FromClient::Ended(session)).await;
    });
    let (stop, stopped) = oneshot::channel::<()>();
    tokio::spawn(async move {
        tokio::select! {
            _ = child.wait() => {}
            _ = stopped => {
                if tokio::time::timeout(STOP_GRACE, child.wait()).await.is_err() {
                    let _ = child.kill().await;
                }
            }
        }
    });
    Ok(Running {
        stdin: lines,
        _stop: stop,
    })
}
