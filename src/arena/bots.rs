//! Bot definitions: one TOML file per bot in a folder (`bots/` by default).
//!
//! ```toml
//! name = "gnugo-l0"            # how matches and records name it (unique in the folder)
//! game = "go"                  # go, tavla, abalone, kulami or mangala
//! command = ["/usr/games/gnugo", "--mode", "gtp", "--chinese-rules"]  # never run through a shell
//! working_dir = "."            # optional; relative to this file's folder
//! seed_arg = "--seed"          # optional; the arena appends `--seed N` with a per-game seed
//! startup = ["komi 7.5"]       # optional GTP commands sent after start
//!
//! [options]                    # optional; each becomes `--key value` after the command
//! level = 0
//! ```
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
pub use crate::games::GameKind;

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
    startup: Vec<String>,
    #[serde(default)]
    options: BTreeMap<String, OptionValue>,
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
    pub startup: Vec<String>,
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
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::Io { path, source } => write!(f, "{}: {source}", path.display()),
            BotError::Parse { path, message } => write!(f, "{}: {message}", path.display()),
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
        }
    }
}

impl std::error::Error for BotError {}

impl Bot {
    /// Reads one bot file.
    pub fn from_file(path: &Path) -> Result<Bot, BotError> {
        let text = std::fs::read_to_string(path).map_err(|source| BotError::Io {
            path: path.to_owned(),
            source,
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
        if file.name.trim().is_empty() || file.name.chars().any(|c| c.is_whitespace()) {
            return Err(invalid(format!(
                "field `name`: '{}' must be non-empty and hold no spaces",
                file.name
            )));
        }
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
            startup: file.startup,
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
        let name = Path::new(&program)
            .file_name()
            .map_or_else(|| program.clone(), |n| n.to_string_lossy().into_owned());
        Ok(Bot {
            name,
            game,
            program,
            args: words.collect(),
            working_dir: None,
            seed_arg: None,
            startup: Vec::new(),
            options: BTreeMap::new(),
            source: PathBuf::new(),
        })
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

/// `NAME=SPEC`: the name a person gives a bot on the command line, and the rest. NAME is
/// one word of letters, digits and `-_.+` (it names folders and log files); a `=` later in
/// a command (`gnugo --mode=gtp`) is not one.
pub fn split_given_name(spec: &str) -> Option<(&str, &str)> {
    let (name, rest) = spec.split_once('=')?;
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
    (valid && !rest.trim().is_empty()).then_some((name, rest))
}

/// A bot by name from `dir` when one is defined there, else `spec` as a command line;
/// `NAME=SPEC` names either (two command lines running the same program, or one bot file
/// played against itself, need names of their own).
pub fn bot_or_command(dir: &Path, spec: &str, game: GameKind) -> Result<Bot, BotError> {
    if let Some((name, rest)) = split_given_name(spec)
        && !(dir.is_dir() && BotRegistry::load(dir).is_ok_and(|r| r.get(spec).is_ok()))
    {
        let mut bot = find_bot_or_command(dir, rest, game)?;
        name.clone_into(&mut bot.name);
        return Ok(bot);
    }
    find_bot_or_command(dir, spec, game)
}

/// A missing or broken `dir` only matters when `spec` is a single word, which must then
/// be a bot's name or an installed program.
fn find_bot_or_command(dir: &Path, spec: &str, game: GameKind) -> Result<Bot, BotError> {
    let single_word = split_words(spec).map(|w| w.len() == 1).unwrap_or(false);
    if single_word && dir.is_dir() {
        let registry = BotRegistry::load(dir)?;
        match registry.get(spec) {
            Ok(bot) => return Ok(bot.clone()),
            // Neither a bot nor a program: the bot name is the likelier intent.
            Err(unknown)
                if spec != "hamle" && resolve_program(spec, Path::new(""), None).is_none() =>
            {
                return Err(unknown);
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
    fn a_name_can_be_given_before_the_command() {
        assert_eq!(
            split_given_name("weak=hamle go --playouts 10"),
            Some(("weak", "hamle go --playouts 10"))
        );
        assert_eq!(split_given_name("gnugo --mode=gtp"), None);
        assert_eq!(split_given_name("/usr/bin/x=y"), None);
        assert_eq!(split_given_name("weak="), None);
        let bot = bot_or_command(Path::new("/nonexistent"), "w-1=hamle go", GameKind::Go)
            .expect("a command line");
        assert_eq!((bot.name.as_str(), bot.program.as_str()), ("w-1", "hamle"));
        assert_eq!(bot.args, ["go"]);
    }
}
