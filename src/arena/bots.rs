//! Bot definitions: one TOML file per bot in a folder (`bots/` by default).
//!
//! ```toml
//! name = "gnugo-l0"            # how matches and records name it (unique in the folder;
//!                              # letters, digits and - _ . + : it names files)
//! game = "go"                  # go, tavla, abalone, kulami or mangala
//! command = ["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"]  # never run through a shell
//! working_dir = "."            # optional; relative to this file's folder
//! seed_arg = "--seed"          # optional; the arena appends `--seed N` with a per-game seed
//! seed_command = "set_random_seed"  # optional; how a running engine takes a game's seed
//! startup = ["komi 7.5"]       # optional GTP commands sent after start (and before
//!                              # every game of an engine kept between games)
//! between_games = ["clear_cache"]  # optional GTP commands sent before every game but
//!                              # an engine's first
//! time_control = "absolute:30" # optional; this bot's own clock (time odds), as
//!                              # `--time-control` writes it
//!
//! [options]                    # optional; each becomes `--key value` after the command
//! level = 0
//! ```
//!
//! The arena keeps an engine between games (`--restart on-failure`) unless its bot takes
//! a seed on the command line (`seed_arg`) and has no `seed_command`: such a bot is
//! restarted for every game, so that each game still gets its own seed.
//!
//! A `command` starting with `hamle` runs the hamle binary that runs the arena, so bot
//! files work wherever hamle is installed.
//!
//! TOML rather than a home-made format: arguments are quoted lists, options are typed, and
//! the parser reports the line and field of every mistake.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::gtp::Launch;
use super::time_control::TimeControl;
pub use crate::games::GameKind;

/// The largest bot file read: a few lines of TOML; a FIFO, a device or anything larger
/// is refused at once.
pub const MAX_BOT_FILE_BYTES: u64 = 1024 * 1024;

/// An option value as written in `[options]`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    Bool(bool),
    Integer(i64),
    Float(f64),
    Text(String),
}

impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Integer(n) => write!(f, "{n}"),
            OptionValue::Float(x) => write!(f, "{x}"),
            OptionValue::Text(s) => f.write_str(s),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BotFile {
    name: String,
    game: GameKind,
    command: Vec<String>,
    #[serde(default)]
    working_dir: Option<PathBuf>,
    #[serde(default)]
    seed_arg: Option<String>,
    #[serde(default)]
    seed_command: Option<String>,
    #[serde(default)]
    startup: Vec<String>,
    #[serde(default)]
    between_games: Vec<String>,
    #[serde(default)]
    time_control: Option<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
    /// `hamle tune`'s table (read and checked by `arena::tune`); a match ignores it and
    /// plays `[options]`.
    #[serde(default, rename = "tune")]
    _tune: Option<toml::Table>,
}

/// A bot, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Bot {
    pub name: String,
    pub game: GameKind,
    /// The program as written (`hamle`, a path, or a name looked up on `PATH`).
    pub program: String,
    pub args: Vec<String>,
    /// Absolute, or relative to the process's directory; `None` keeps the caller's.
    pub working_dir: Option<PathBuf>,
    pub seed_arg: Option<String>,
    /// The command that gives a running engine a game's seed (`set_random_seed`): sent
    /// with the seed before each game the engine plays after its first.
    pub seed_command: Option<String>,
    pub startup: Vec<String>,
    /// Commands sent before each game but an engine's first (after `clear_board` and the
    /// seed command, before the startup commands).
    pub between_games: Vec<String>,
    /// The bot's own clock (`time_control` in its file, or `--time-control NAME=TC`);
    /// `None`: the match's.
    pub time_control: Option<TimeControl>,
    pub options: BTreeMap<String, OptionValue>,
    /// The file it came from (for messages); empty for a command line.
    pub source: PathBuf,
}

/// Every way reading or using a bot can fail.
#[derive(Debug)]
pub enum BotError {
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The file is not a valid bot file; `message` names the line and field.
    Parse {
        path: PathBuf,
        message: String,
    },
    Invalid {
        path: PathBuf,
        message: String,
    },
    Duplicate {
        name: String,
        first: PathBuf,
        second: PathBuf,
    },
    Unknown {
        name: String,
        dir: PathBuf,
        known: Vec<String>,
    },
    ProgramNotFound {
        bot: String,
        program: String,
        source: PathBuf,
    },
    /// A single word that no bot folder defines and no program has as its name.
    NotFound {
        name: String,
        /// Each folder looked in, with what was found there.
        looked: Vec<String>,
        /// How to fix it.
        advice: String,
    },
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            BotError::Parse { path, message } => write!(f, "{}: {message}", path.display()),
            // A bot from the command line has no file to name.
            BotError::Invalid { path, message } if path.as_os_str().is_empty() => {
                f.write_str(message)
            }
            BotError::Invalid { path, message } => write!(f, "{}: {message}", path.display()),
            BotError::Duplicate {
                name,
                first,
                second,
            } => write!(
                f,
                "bot '{name}' is defined twice: in {} and in {}",
                first.display(),
                second.display()
            ),
            BotError::Unknown { name, dir, known } => write!(
                f,
                "no bot named '{name}' in {} (known: {})",
                dir.display(),
                if known.is_empty() {
                    "none".to_owned()
                } else {
                    known.join(", ")
                }
            ),
            BotError::ProgramNotFound {
                bot,
                program,
                source,
            } => {
                write!(f, "bot '{bot}': command '{program}' does not exist")?;
                if !source.as_os_str().is_empty() {
                    write!(f, " (defined in {})", source.display())?;
                }
                write!(f, "; install it or fix the command")
            }
            BotError::NotFound {
                name,
                looked,
                advice,
            } => write!(
                f,
                "'{name}' is neither a bot (looked in {}) nor a program on PATH; {advice}",
                looked.join(", ")
            ),
        }
    }
}

impl std::error::Error for BotError {}

impl Bot {
    /// Reads one bot file.
    pub fn from_file(path: &Path) -> Result<Bot, BotError> {
        let text =
            crate::files::read_capped_to_string(path, MAX_BOT_FILE_BYTES).map_err(|error| {
                BotError::Io {
                    path: path.to_owned(),
                    source: error.problem.into(),
                }
            })?;
        Bot::from_toml(&text, path)
    }

    /// Reads a bot from TOML text; `path` names it in errors and anchors `working_dir`.
    pub fn from_toml(text: &str, path: &Path) -> Result<Bot, BotError> {
        let file: BotFile = toml::from_str(text).map_err(|error| BotError::Parse {
            path: path.to_owned(),
            message: describe_toml_error(text, &error),
        })?;
        let invalid = |message: String| BotError::Invalid {
            path: path.to_owned(),
            message,
        };
        check_name(&file.name).map_err(|message| invalid(format!("field `name`: {message}")))?;
        check_commands(&file).map_err(invalid)?;
        let mut command = file.command.into_iter();
        let Some(program) = command.next().filter(|p| !p.is_empty()) else {
            return Err(invalid(
                "field `command`: needs at least the program, e.g. [\"hamle\", \"go\"]".to_owned(),
            ));
        };
        let folder = path.parent().unwrap_or(Path::new(""));
        let working_dir = file.working_dir.map(|dir| folder.join(dir));
        let mut args: Vec<String> = command.collect();
        for (key, value) in &file.options {
            args.push(format!("--{key}"));
            args.push(value.to_string());
        }
        Ok(Bot {
            name: file.name,
            game: file.game,
            program,
            args,
            working_dir,
            seed_arg: file.seed_arg,
            seed_command: file.seed_command,
            startup: file.startup,
            between_games: file.between_games,
            time_control: own_time_control(file.time_control.as_deref()).map_err(invalid)?,
            options: file.options,
            source: path.to_owned(),
        })
    }

    /// A bot from a command line typed by a person (`hamle regress "gnugo --mode gtp" …`):
    /// split into words (quotes group words), run without a shell.
    pub fn from_command_line(line: &str, game: GameKind) -> Result<Bot, BotError> {
        let words = split_words(line).map_err(|message| BotError::Invalid {
            path: PathBuf::new(),
            message: format!("command line `{line}`: {message}"),
        })?;
        let mut words = words.into_iter();
        let Some(program) = words.next() else {
            return Err(BotError::Invalid {
                path: PathBuf::new(),
                message: "the command line is empty".to_owned(),
            });
        };
        let name = safe_name(
            &Path::new(&program)
                .file_name()
                .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned()),
        );
        Ok(Bot {
            name,
            game,
            program,
            args: words.collect(),
            working_dir: None,
            seed_arg: None,
            seed_command: None,
            startup: Vec::new(),
            between_games: Vec::new(),
            time_control: None,
            options: BTreeMap::new(),
            source: PathBuf::new(),
        })
    }

    /// Whether one engine process may serve game after game: not when it takes its seed
    /// on the command line only, as each game's seed would then need a new process.
    pub fn reusable(&self) -> bool {
        self.seed_arg.is_none() || self.seed_command.is_some()
    }

    /// How to start it: `hamle` resolved to `hamle_exe`, the program checked to exist,
    /// `seed` appended after `seed_arg` when the bot takes one.
    pub fn launch(&self, hamle_exe: &Path, seed: Option<u64>) -> Result<Launch, BotError> {
        let program = resolve_program(&self.program, hamle_exe, self.working_dir.as_deref())
            .ok_or_else(|| BotError::ProgramNotFound {
                bot: self.name.clone(),
                program: self.program.clone(),
                source: self.source.clone(),
            })?;
        let mut args = self.args.clone();
        if let (Some(flag), Some(seed)) = (&self.seed_arg, seed) {
            args.push(flag.clone());
            args.push(seed.to_string());
        }
        let mut launch = Launch::new(&self.name, program, args);
        launch.working_dir = self.working_dir.clone();
        Ok(launch)
    }
}

/// The commands a bot file gives the arena to send are one line each (a line break would
/// send two commands where one is answered), and the seed command is not empty.
fn check_commands(file: &BotFile) -> Result<(), String> {
    if let Some(command) = &file.seed_command
        && command.trim().is_empty()
    {
        return Err(
            "field `seed_command`: empty; name the command that takes a seed, e.g. \"set_random_seed\""
                .to_owned(),
        );
    }
    let fields = [
        ("seed_command", file.seed_command.iter().collect::<Vec<_>>()),
        ("startup", file.startup.iter().collect()),
        ("between_games", file.between_games.iter().collect()),
    ];
    for (field, commands) in fields {
        if let Some(bad) = commands.iter().find(|c| c.contains(['\n', '\r'])) {
            return Err(format!(
                "field `{field}`: {:?} holds a line break; give each command as its own string",
                crate::text::shorten_to(bad, 80)
            ));
        }
    }
    Ok(())
}

/// A bot file's `time_control`, read as `--time-control` reads a clock.
fn own_time_control(text: Option<&str>) -> Result<Option<TimeControl>, String> {
    text.map(|text| {
        text.parse()
            .map_err(|why| format!("field `time_control`: {why}"))
    })
    .transpose()
}

fn resolve_program(program: &str, hamle_exe: &Path, working_dir: Option<&Path>) -> Option<PathBuf> {
    if program == "hamle" {
        return Some(hamle_exe.to_owned());
    }
    let path = Path::new(program);
    if program.contains('/') {
        let full = match working_dir {
            Some(dir) if path.is_relative() => dir.join(path),
            _ => path.to_owned(),
        };
        // Absolute, because the engine starts in its working folder: a relative path would
        // then be looked up from there (`--bots some/folder` with `./engine` did not start).
        let full = std::path::absolute(&full).unwrap_or(full);
        return full.is_file().then_some(full);
    }
    let search = std::env::var_os("PATH")?;
    std::env::split_paths(&search)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// Splits a command line into words: whitespace separates, single or double quotes group.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(format!("unclosed {q} quote"));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// TOML's message with the line number first, where a person looks for it.
fn describe_toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim().to_owned();
    match error.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}

/// Every bot of a folder, by name.
#[derive(Clone, Debug)]
pub struct BotRegistry {
    dir: PathBuf,
    bots: BTreeMap<String, Bot>,
}

impl BotRegistry {
    /// Reads every `*.toml` in `dir`. Any bad file is an error naming it.
    pub fn load(dir: &Path) -> Result<BotRegistry, BotError> {
        let entries = std::fs::read_dir(dir).map_err(|source| BotError::Io {
            path: dir.to_owned(),
            source,
        })?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|path| path.extension().is_some_and(|ext| ext == "toml"))
            .collect();
        paths.sort();
        let mut bots: BTreeMap<String, Bot> = BTreeMap::new();
        for path in paths {
            let bot = Bot::from_file(&path)?;
            if let Some(first) = bots.get(&bot.name) {
                return Err(BotError::Duplicate {
                    name: bot.name.clone(),
                    first: first.source.clone(),
                    second: path,
                });
            }
            bots.insert(bot.name.clone(), bot);
        }
        Ok(BotRegistry {
            dir: dir.to_owned(),
            bots,
        })
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.bots.keys().map(String::as_str)
    }

    pub fn get(&self, name: &str) -> Result<&Bot, BotError> {
        self.bots.get(name).ok_or_else(|| BotError::Unknown {
            name: name.to_owned(),
            dir: self.dir.clone(),
            known: self.bots.keys().cloned().collect(),
        })
    }
}

/// The longest bot name: it is part of file and folder names.
pub const MAX_NAME_LENGTH: usize = 64;

/// A bot's name names its log file (`logs/NAME.log`) and, in a ladder, its pairings'
/// folders: so it is a safe file name, never a path. Letters and digits (ASCII), `-`, `_`,
/// `.` and `+`, not starting with `.` (no `..`, no hidden file), at most
/// [`MAX_NAME_LENGTH`] characters.
pub fn check_name(name: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-_.+".contains(c);
    let rule = format!(
        "a bot's name names files, so it may hold only letters, digits and - _ . + (not starting with '.'), at most {MAX_NAME_LENGTH} characters"
    );
    if name.is_empty() {
        return Err(format!("the bot's name is empty: {rule}"));
    }
    let shown = crate::text::shorten_to(name, 80);
    if let Some(bad) = name.chars().find(|&c| !allowed(c)) {
        return Err(format!("bot name '{shown}' holds {bad:?}: {rule}"));
    }
    if name.starts_with('.') {
        return Err(format!("bot name '{shown}' starts with '.': {rule}"));
    }
    if name.chars().count() > MAX_NAME_LENGTH {
        return Err(format!("bot name '{shown}' is too long: {rule}"));
    }
    Ok(())
}

/// A name made safe ([`check_name`]) from a program's file name, which nobody chose as a
/// bot name: other characters become `_`.
fn safe_name(file_name: &str) -> String {
    let mut name: String = file_name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.+".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME_LENGTH)
        .collect();
    if name.is_empty() {
        name.push('_');
    } else if name.starts_with('.') {
        name.replace_range(..1, "_");
    }
    name
}

/// `NAME=SPEC`: the name a person gives a bot on the command line, and the rest. NAME is
/// one word of letters, digits and `-_.+` (it names folders and log files; [`check_name`]
/// judges the rest of the rule); a `=` later in a command (`gnugo --mode=gtp`) is not one.
pub fn split_given_name(spec: &str) -> Option<(&str, &str)> {
    let (name, rest) = spec.split_once('=')?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
    (valid && !rest.trim().is_empty()).then_some((name, rest))
}

/// Where bot names are looked up, in order: `--bots DIR` alone when given; else `./bots`
/// (the repository's, when run from it), the folders of `$HAMLE_BOTS` (separated as in
/// `PATH`), the user's folder (`$XDG_CONFIG_HOME/hamle/bots`, else
/// `~/.config/hamle/bots`) and `bots/` beside the hamle binary. The first folder that
/// defines a name wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotFolders {
    /// (how the folder was chosen, the folder).
    folders: Vec<(String, PathBuf)>,
    /// Only `--bots DIR` is searched.
    given: bool,
    /// `$HAMLE_BOTS` is not set (said when a name is not found).
    variable_unset: bool,
}

impl BotFolders {
    /// `--bots DIR` alone.
    pub fn only(dir: &Path) -> BotFolders {
        BotFolders {
            folders: vec![("--bots".to_owned(), dir.to_owned())],
            given: true,
            variable_unset: false,
        }
    }

    /// The folders for `--bots` (`given`), from this process's environment.
    pub fn search(given: Option<&Path>, hamle_exe: &Path) -> BotFolders {
        BotFolders::search_in(given, hamle_exe, |key| std::env::var_os(key))
    }

    /// The folders for `--bots` (`given`), the environment read through `env`.
    pub fn search_in(
        given: Option<&Path>,
        hamle_exe: &Path,
        env: impl Fn(&str) -> Option<std::ffi::OsString>,
    ) -> BotFolders {
        if let Some(dir) = given {
            return BotFolders::only(dir);
        }
        let mut folders = vec![("./bots".to_owned(), PathBuf::from("bots"))];
        let variable = env(BOTS_VARIABLE).filter(|list| !list.is_empty());
        let variable_unset = variable.is_none();
        if let Some(list) = variable {
            for dir in std::env::split_paths(&list) {
                folders.push((format!("${BOTS_VARIABLE}"), dir));
            }
        }
        if let Some(dir) = user_folder(&env) {
            folders.push(("the user folder".to_owned(), dir));
        }
        if let Some(dir) = hamle_exe.parent() {
            folders.push(("beside hamle".to_owned(), dir.join("bots")));
        }
        BotFolders {
            folders,
            given: false,
            variable_unset,
        }
    }

    /// The folders, in search order.
    pub fn folders(&self) -> impl Iterator<Item = &Path> {
        self.folders.iter().map(|(_, dir)| dir.as_path())
    }

    /// The bot file named `name` in the first folder that defines it; a broken file in a
    /// folder searched is an error naming it. `Ok(None)` with, for messages, each folder
    /// and what it held.
    fn find(&self, name: &str) -> Result<Result<Bot, Vec<String>>, BotError> {
        let mut looked = Vec::new();
        for (how, dir) in &self.folders {
            let shown = if how == "--bots" {
                dir.display().to_string()
            } else if how == "./bots" {
                how.clone()
            } else {
                format!("{} ({how})", dir.display())
            };
            if !dir.is_dir() {
                looked.push(format!("{shown}: no such folder"));
                continue;
            }
            let registry = BotRegistry::load(dir)?;
            if let Ok(bot) = registry.get(name) {
                return Ok(Ok(bot.clone()));
            }
            let known: Vec<&str> = registry.names().collect();
            looked.push(if known.is_empty() {
                format!("{shown}: no bot files")
            } else {
                format!("{shown}: {}", known.join(" "))
            });
        }
        if self.variable_unset {
            // In search order: right after ./bots.
            let at = looked.len().min(1);
            looked.insert(at, format!("${BOTS_VARIABLE}: not set"));
        }
        Ok(Err(looked))
    }

    /// How to make a name found.
    fn advice(&self) -> String {
        if self.given {
            return "check the name against the bot files listed, or give --bots the folder that holds its file".to_owned();
        }
        let user = self
            .folders
            .iter()
            .find(|(how, _)| how == "the user folder")
            .map_or_else(
                || "~/.config/hamle/bots".to_owned(),
                |(_, dir)| dir.display().to_string(),
            );
        format!(
            "give --bots DIR (the hamle repository's bots/ folder holds the shipped bots), set {BOTS_VARIABLE}=DIR, or copy bot files into {user}"
        )
    }
}

/// The environment variable naming bot folders.
pub const BOTS_VARIABLE: &str = "HAMLE_BOTS";

/// `$XDG_CONFIG_HOME/hamle/bots`, else `$HOME/.config/hamle/bots`.
fn user_folder(env: &impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let config = env("XDG_CONFIG_HOME")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            env("HOME")
                .filter(|dir| !dir.is_empty())
                .map(|home| PathBuf::from(home).join(".config"))
        })?;
    Some(config.join("hamle").join("bots"))
}

/// A bot by name from the first of `folders` that defines it, else `spec` as a command
/// line; `NAME=SPEC` names either (two command lines running the same program, or one bot
/// file played against itself, need names of their own).
pub fn bot_or_command(folders: &BotFolders, spec: &str, game: GameKind) -> Result<Bot, BotError> {
    if let Some((name, rest)) = split_given_name(spec)
        && !matches!(folders.find(spec), Ok(Ok(_)))
    {
        check_name(name).map_err(|message| BotError::Invalid {
            path: PathBuf::new(),
            message: format!("`{spec}`: {message}"),
        })?;
        let mut bot = find_bot_or_command(folders, rest, game)?;
        name.clone_into(&mut bot.name);
        return Ok(bot);
    }
    find_bot_or_command(folders, spec, game)
}

/// A single word must be a bot's name or an installed program; anything else is a
/// command line.
fn find_bot_or_command(folders: &BotFolders, spec: &str, game: GameKind) -> Result<Bot, BotError> {
    let single_word = split_words(spec).map(|w| w.len() == 1).unwrap_or(false);
    if single_word {
        match folders.find(spec)? {
            Ok(bot) => return Ok(bot),
            // Neither a bot nor a program: the bot name is the likelier intent.
            Err(looked)
                if spec != "hamle"
                    && !spec.contains('/')
                    && resolve_program(spec, Path::new(""), None).is_none() =>
            {
                return Err(BotError::NotFound {
                    name: spec.to_owned(),
                    looked,
                    advice: folders.advice(),
                });
            }
            Err(_) => {}
        }
    }
    Bot::from_command_line(spec, game)
}

/// How to name `bots` on the command line: `'NAME1=…' 'NAME2=…'` with their own bot name or
/// command line.
pub fn naming_example(bots: &[Bot]) -> String {
    bots.iter()
        .enumerate()
        .map(|(i, bot)| {
            let spec = if bot.source.as_os_str().is_empty() {
                let mut words = vec![bot.program.clone()];
                words.extend(bot.args.iter().map(|word| {
                    if word.contains(char::is_whitespace) {
                        format!("\"{word}\"")
                    } else {
                        word.clone()
                    }
                }));
                words.join(" ")
            } else {
                bot.name.clone()
            };
            format!("'{}-{}={spec}'", bot.name, i + 1)
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_beside_a_relative_working_folder_is_named_absolutely() {
        // The engine starts in its working folder, so the path must not depend on the
        // arena's own: `--bots some/folder` with `./engine` once failed to start.
        let exe = Path::new("/nonexistent/hamle");
        let found = resolve_program("./bots.rs", exe, Some(Path::new("src/arena")));
        let found = found.expect("src/arena/bots.rs is a file");
        assert!(found.is_absolute(), "{}", found.display());
        assert!(found.ends_with("src/arena/bots.rs"));
    }

    #[test]
    fn words_split_on_spaces_and_group_in_quotes() {
        assert_eq!(
            split_words(r#"gnugo --mode gtp  "a b" 'c d'e"#).ok(),
            Some(vec![
                "gnugo".to_owned(),
                "--mode".to_owned(),
                "gtp".to_owned(),
                "a b".to_owned(),
                "c de".to_owned()
            ])
        );
        assert_eq!(split_words("''").ok(), Some(vec![String::new()]));
        assert!(split_words("a 'b").is_err());
    }

    #[test]
    fn bot_folders_are_searched_in_order() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |key: &str| {
                vars.iter()
                    .find(|(k, _)| *k == key)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let exe = Path::new("/opt/hamle/bin/hamle");
        let all = BotFolders::search_in(
            None,
            exe,
            env(&[
                ("HAMLE_BOTS", "/a:/b"),
                ("XDG_CONFIG_HOME", "/xdg"),
                ("HOME", "/home/u"),
            ]),
        );
        let folders: Vec<&Path> = all.folders().collect();
        assert_eq!(
            folders,
            [
                Path::new("bots"),
                Path::new("/a"),
                Path::new("/b"),
                Path::new("/xdg/hamle/bots"),
                Path::new("/opt/hamle/bin/bots")
            ]
        );
        let home = BotFolders::search_in(None, exe, env(&[("HOME", "/home/u")]));
        assert!(
            home.folders()
                .any(|d| d == Path::new("/home/u/.config/hamle/bots"))
        );
        let given = BotFolders::search_in(Some(Path::new("x")), exe, env(&[("HAMLE_BOTS", "/a")]));
        assert_eq!(given.folders().collect::<Vec<_>>(), [Path::new("x")]);
    }

    #[test]
    fn bot_names_are_safe_file_names() {
        for good in ["gnugo-l0", "hamle_go.200+x", "A1"] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        for bad in [
            "",
            "../evil",
            "a/b",
            ".hidden",
            "..",
            "a b",
            "é",
            &"x".repeat(65),
        ] {
            let refused = check_name(bad).expect_err(bad);
            assert!(refused.contains("letters, digits and - _ . +"), "{refused}");
        }
        assert_eq!(safe_name("my engine"), "my_engine");
        assert_eq!(safe_name(".."), "_.");
        assert_eq!(safe_name(""), "_");
        assert_eq!(safe_name(&"y".repeat(100)).len(), MAX_NAME_LENGTH);
        let bot = Bot::from_toml(
            "name = \"../evil\"\ngame = \"go\"\ncommand = [\"hamle\", \"go\"]\n",
            Path::new("bots/evil.toml"),
        );
        let refused = bot.expect_err("a path").to_string();
        assert!(
            refused.starts_with("bots/evil.toml: field `name`: bot name '../evil' holds '/'"),
            "{refused}"
        );
    }

    #[test]
    fn seed_commands_and_commands_between_games_are_read_and_checked() {
        let file = |extra: &str| {
            Bot::from_toml(
                &format!("name = \"x\"\ngame = \"go\"\ncommand = [\"hamle\", \"go\"]\n{extra}"),
                Path::new("bots/x.toml"),
            )
        };
        let bot = file("seed_arg = \"--seed\"\nseed_command = \"set_random_seed\"\nbetween_games = [\"a\", \"b\"]\n")
            .expect("a bot");
        assert_eq!(bot.seed_command.as_deref(), Some("set_random_seed"));
        assert_eq!(bot.between_games, ["a", "b"]);
        assert!(bot.reusable());
        assert!(!file("seed_arg = \"--seed\"\n").expect("a bot").reusable());
        assert!(file("").expect("a bot").reusable());
        let empty = file("seed_command = \" \"\n").expect_err("an empty command");
        assert!(
            empty.to_string().contains("field `seed_command`: empty"),
            "{empty}"
        );
        let broken = file("between_games = [\"a\\nb\"]\n").expect_err("two lines");
        assert!(
            broken
                .to_string()
                .contains("field `between_games`: \"a\\nb\" holds a line break"),
            "{broken}"
        );
    }

    #[test]
    fn a_name_can_be_given_before_the_command() {
        assert_eq!(
            split_given_name("weak=hamle go --playouts 10"),
            Some(("weak", "hamle go --playouts 10"))
        );
        assert_eq!(split_given_name("gnugo --mode=gtp"), None);
        assert_eq!(split_given_name("/usr/bin/x=y"), None);
        assert_eq!(split_given_name("weak="), None);
        let folders = BotFolders::only(Path::new("/nonexistent"));
        let bot = bot_or_command(&folders, "w-1=hamle go", GameKind::Go).expect("a command line");
        assert_eq!((bot.name.as_str(), bot.program.as_str()), ("w-1", "hamle"));
        assert_eq!(bot.args, ["go"]);
    }
}
