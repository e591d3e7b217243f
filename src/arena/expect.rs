//! `hamle match --expect DIR`: a golden match replayed and compared, game by game.
//!
//! DIR is a finished match folder (kept in a bot's repository, say). Its `match.txt` says
//! everything that decides the games; this module reads it back into a match's settings,
//! plays that match again into a scratch folder (never DIR: nothing in DIR is written), and
//! compares each game's moves, read through the game's own record viewer (so a comment or
//! a time in a record is no change), and its result. It is what a bot author runs before a
//! commit: exit 0 when every game is as DIR has it, 1 when play changed (each departing
//! game is named with its first departure), 2 when the replay could not be run or broke
//! (DIR unreadable or not a finished match, a bot missing, an engine failure DIR did not
//! have).
//!
//! The settings are read back without naming any of them: each line of `match.txt` is
//! matched by trying the options of `hamle match` until the settings they make write that
//! line, and the whole file must come out the same, so a setting this hamle cannot play is
//! refused by name rather than ignored. Only the bots' names are taken as they are: each
//! name is looked up in the bots folders as `hamle match` does (a bot file changed since
//! DIR was played is what the comparison is for), or DIR's recorded command plays it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, FromArgMatches};

use super::bots::{Bot, BotFolders, bot_or_command};
use super::match_play::{MatchSettings, run_match};
use super::options::{ArenaOptions, bot_clocks, hamle_exe, match_bots, match_settings};
use super::shard::{SHARD_KEY, Shard, settings_lines};
use super::sprt::SprtSpec;
use super::store::{self, BUILD_KEY, GAMES_DIR, GameResult, RESULTS_FILE, SETTINGS_FILE};
use crate::games::GameKind;

/// What the replay found, and the exit code it means.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every game as DIR has it: exit 0.
    Unchanged,
    /// Play changed: exit 1.
    Changed,
    /// The replay could not be run or broke: exit 2.
    Broke,
}

impl Verdict {
    pub fn exit_code(self) -> ExitCode {
        ExitCode::from(match self {
            Verdict::Unchanged => 0,
            Verdict::Changed => 1,
            Verdict::Broke => 2,
        })
    }
}

/// What `hamle match --expect DIR` was given besides DIR.
pub struct ExpectRequest<'a> {
    pub dir: &'a Path,
    /// BOT1 and BOT2 when given: they must carry DIR's names.
    pub bots: Option<[&'a str; 2]>,
    /// Where the replay is written (new or empty); a temporary folder otherwise, removed
    /// when nothing changed.
    pub out: Option<PathBuf>,
    pub options: &'a ArenaOptions,
}

/// A refusal or a failure: one line on stderr, exit 2.
fn broke(message: String) -> Verdict {
    eprintln!("hamle match --expect: {message}");
    Verdict::Broke
}

/// Runs `hamle match --expect DIR`.
pub fn run(request: &ExpectRequest<'_>) -> Verdict {
    match replay(request) {
        Ok(verdict) => verdict,
        Err(message) => broke(message),
    }
}

/// DIR read, its match played again and compared; `Err` is a refusal before anything ran.
fn replay(request: &ExpectRequest<'_>) -> Result<Verdict, String> {
    let dir = request.dir;
    check_no_deciding_options(request.options)?;
    let golden = Golden::read(dir)?;
    let (out, temporary) = match &request.out {
        Some(out) => (out.clone(), false),
        None => (scratch_folder(), true),
    };
    if same_folder(&out, dir) {
        return Err(format!(
            "--out {} is DIR itself: the replay goes elsewhere, DIR is only read",
            out.display()
        ));
    }
    let settings = golden.settings(request, out.clone())?;
    let results = match run_match(&settings, false) {
        Ok(results) => results,
        Err(error) => {
            if temporary {
                let _ = std::fs::remove_dir_all(&out);
            }
            return Err(format!("the replay did not run: {error}"));
        }
    };
    let report = compare(&golden, &settings, &results, &out);
    for line in &report.lines {
        println!("{line}");
    }
    let verdict = report.verdict();
    let build = golden.setting(BUILD_KEY).unwrap_or("not recorded");
    let summary = match verdict {
        Verdict::Unchanged => format!(
            "expect: nothing changed: {} games as in {}",
            golden.results.len(),
            dir.display()
        ),
        Verdict::Changed => format!(
            "expect: play changed: {} of {} games depart from {} ({}); the replay is in {}",
            report.departed.len(),
            golden.results.len().max(results.len()),
            dir.display(),
            report.departed_list(),
            out.display()
        ),
        Verdict::Broke => format!(
            "expect: the replay broke (above); it is in {}",
            out.display()
        ),
    };
    println!(
        "{summary} (DIR played by hamle {build}, replayed by {})",
        store::build_id()
    );
    if temporary && verdict == Verdict::Unchanged {
        let _ = std::fs::remove_dir_all(&out);
    }
    Ok(verdict)
}

/// Whether two paths name one folder (the second may not exist yet).
fn same_folder(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// A new folder under the system's temporary folder for the replay.
fn scratch_folder() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!("hamle-expect-{}-{nanos}", std::process::id()))
}

/// The options `hamle match` shares with the ladder, as clap makes them from `args`.
fn parse_options(args: &[String]) -> Result<ArenaOptions, String> {
    let command = ArenaOptions::augment_args(clap::Command::new("hamle"));
    command
        .try_get_matches_from(args)
        .and_then(|matches| ArenaOptions::from_arg_matches(&matches))
        .map_err(|error| error.to_string())
}

/// DIR decides the games: an option that would decide them too is refused rather than
/// silently overruled. Only where bots are found and how the replay runs may be given.
fn check_no_deciding_options(given: &ArenaOptions) -> Result<(), String> {
    let mut defaults = parse_options(&["hamle".to_owned()])?;
    defaults.bots.clone_from(&given.bots);
    defaults.game.clone_from(&given.game);
    defaults.concurrency = given.concurrency;
    defaults.quiet = given.quiet;
    defaults.restart = given.restart;
    if format!("{defaults:?}") == format!("{given:?}") {
        Ok(())
    } else {
        Err("--expect plays the settings DIR's match.txt holds: leave out the options that decide games (with --expect only --bots, --concurrency, --restart, --quiet and --out go)".to_owned())
    }
}

/// The golden match: DIR's settings, in file order, and its saved games.
struct Golden {
    dir: PathBuf,
    settings: Vec<(String, String)>,
    results: BTreeMap<usize, GameResult>,
    kind: GameKind,
}

impl Golden {
    /// Reads DIR, which must be a finished match folder no run holds.
    fn read(dir: &Path) -> Result<Golden, String> {
        let path = dir.join(SETTINGS_FILE);
        if !dir.is_dir() {
            return Err(format!(
                "{} is not a folder: give a match folder (the --out of a finished hamle match)",
                dir.display()
            ));
        }
        if !path.is_file() {
            return Err(format!(
                "{} is not a match folder ({SETTINGS_FILE} is missing): give the --out of a finished hamle match",
                dir.display()
            ));
        }
        if let Some(in_use) = super::folder::in_use(dir) {
            return Err(format!("{in_use} (wait for that run to finish)"));
        }
        let text =
            super::folder::read_text(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let settings = settings_lines(&text);
        let kind: GameKind = settings
            .iter()
            .find(|(key, _)| key == "game")
            .map_or("go", |(_, value)| value.as_str())
            .parse()
            .map_err(|why| format!("{}: {why}", path.display()))?;
        let results = read_results(&dir.join(RESULTS_FILE))?;
        Ok(Golden {
            dir: dir.to_owned(),
            settings,
            results,
            kind,
        })
    }

    fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn path(&self) -> PathBuf {
        self.dir.join(SETTINGS_FILE)
    }

    /// The settings of the replay: DIR's, played into `out`.
    fn settings(&self, request: &ExpectRequest<'_>, out: PathBuf) -> Result<MatchSettings, String> {
        let bots = self.bots(request)?;
        let games: usize = self
            .setting("games")
            .ok_or_else(|| format!("{}: no games line", self.path().display()))?
            .parse()
            .map_err(|_| format!("{}: games is not a number", self.path().display()))?;
        let sprt = self
            .setting("sprt")
            .map(str::parse::<SprtSpec>)
            .transpose()?;
        let shard = self
            .setting(SHARD_KEY)
            .map(str::parse::<Shard>)
            .transpose()?;
        let build = |options: &ArenaOptions| {
            let mut bots = bots.clone();
            bot_clocks(options, &mut bots)?;
            let mut settings = match_settings(options, bots, self.kind, games, out.clone())?;
            settings.sprt = sprt;
            settings.shard = shard;
            Ok::<MatchSettings, String>(settings)
        };
        let options = self.options(request.options, &build)?;
        let mut settings = build(&options)?;
        settings.concurrency = request.options.concurrency.max(1);
        settings.progress = !request.options.quiet;
        let planned = settings.planned_games();
        let saved: Vec<GameResult> = self.results.values().cloned().collect();
        if self.results.len() < planned && !settings.sprt_decided(&saved) {
            return Err(format!(
                "{} holds {} of its {planned} games: finish it (its hamle match command with --resume) before replaying it",
                self.dir.display(),
                self.results.len()
            ));
        }
        Ok(settings)
    }

    /// DIR's bots by name: the ones given (which must carry DIR's names), else each name
    /// from the bots folders, else DIR's recorded command under that name.
    fn bots(&self, request: &ExpectRequest<'_>) -> Result<[Bot; 2], String> {
        let names = ["bot1", "bot2"].map(|key| {
            self.setting(&format!("{key}.name"))
                .unwrap_or("")
                .to_owned()
        });
        if names.iter().any(String::is_empty) {
            return Err(format!(
                "{}: the bots' names are missing",
                self.path().display()
            ));
        }
        let folders = BotFolders::search(request.options.bots.as_deref(), &hamle_exe());
        let bots = match request.bots {
            Some(given) => {
                let (bots, _) = match_bots(&folders, &given, Some(self.kind.name()))?;
                let given_names = [bots[0].name.as_str(), bots[1].name.as_str()];
                if given_names != [names[0].as_str(), names[1].as_str()] {
                    return Err(format!(
                        "the bots given are {} and {}, but {} was played by {} and {}: give bots of those names (NAME=BOT), or none to use the bots folders",
                        given_names[0],
                        given_names[1],
                        self.dir.display(),
                        names[0],
                        names[1]
                    ));
                }
                [bots[0].clone(), bots[1].clone()]
            }
            None => [
                self.bot(&folders, &names[0], "bot1")?,
                self.bot(&folders, &names[1], "bot2")?,
            ],
        };
        for (index, bot) in bots.iter().enumerate() {
            let key = format!("bot{}.command", index + 1);
            let now = command_line(bot);
            if let Some(was) = self.setting(&key).filter(|was| *was != now) {
                eprintln!(
                    "hamle match --expect: note: {} is now '{now}', DIR played '{was}'",
                    bot.name
                );
            }
        }
        Ok(bots)
    }

    /// One bot of DIR by name: its bot file, else the command DIR recorded.
    fn bot(&self, folders: &BotFolders, name: &str, key: &str) -> Result<Bot, String> {
        if let Ok(bot) = bot_or_command(folders, name, self.kind)
            && !bot.source.as_os_str().is_empty()
        {
            return Ok(bot);
        }
        let command = self
            .setting(&format!("{key}.command"))
            .filter(|c| !c.trim().is_empty())
            .ok_or_else(|| {
                format!(
                    "bot '{name}' of {} is in no bots folder and {} records no command for it",
                    self.dir.display(),
                    self.path().display()
                )
            })?;
        // `NAME=BOT` named a bot file's bot anew: the file whose command DIR recorded gives
        // it back with what the command line does not show (its seed flag, its folder).
        if let Some(mut bot) = bot_with_command(folders, command) {
            name.clone_into(&mut bot.name);
            return Ok(bot);
        }
        let mut bot = bot_or_command(folders, &format!("{name}={command}"), self.kind)
            .map_err(|error| format!("bot '{name}' of {}: no bot file defines it, and its recorded command does not run: {error}", self.dir.display()))?;
        bot.game = self.kind;
        if let Some(startup) = self
            .setting(&format!("{key}.startup"))
            .filter(|s| !s.is_empty())
        {
            bot.startup = startup.split(" | ").map(str::to_owned).collect();
        }
        Ok(bot)
    }

    /// The options that make settings writing DIR's `match.txt` (see the module's doc).
    fn options(
        &self,
        given: &ArenaOptions,
        build: &dyn Fn(&ArenaOptions) -> Result<MatchSettings, String>,
    ) -> Result<ArenaOptions, String> {
        let mut args = vec!["hamle".to_owned()];
        if let Some(bots) = &given.bots {
            args.extend(["--bots".to_owned(), bots.display().to_string()]);
        }
        args.extend(self.own_clock_flags());
        let wanted: Vec<&(String, String)> = self
            .settings
            .iter()
            .filter(|(key, _)| !is_taken_as_is(key))
            .collect();
        let writes = |args: &[String]| -> Option<BTreeMap<String, String>> {
            let settings = build(&parse_options(args).ok()?).ok()?;
            Some(settings.decisive().into_iter().collect())
        };
        let candidates = option_candidates();
        for (done, (key, value)) in wanted.iter().enumerate() {
            let agrees = |written: &BTreeMap<String, String>| {
                wanted[..=done]
                    .iter()
                    .all(|(k, v)| written.get(k.as_str()) == Some(v))
            };
            if writes(&args).is_some_and(|w| agrees(&w)) {
                continue;
            }
            let spelled = format!("--{}", key.replace('_', "-"));
            let mut tries: Vec<&(String, bool)> = candidates
                .iter()
                .filter(|(flag, _)| *flag == spelled)
                .collect();
            tries.extend(candidates.iter().filter(|(flag, _)| *flag != spelled));
            let found = tries.into_iter().find_map(|(flag, takes_value)| {
                let mut trial = args.clone();
                trial.push(flag.clone());
                if *takes_value {
                    trial.push(value.clone());
                }
                writes(&trial).is_some_and(|w| agrees(&w)).then_some(trial)
            });
            args = found.ok_or_else(|| {
                format!(
                    "{}: {key} = '{value}': no option of this hamle plays it, so DIR's match cannot be replayed",
                    self.path().display()
                )
            })?;
        }
        let options = parse_options(&args)?;
        self.check_written(&build(&options)?)?;
        Ok(options)
    }

    /// `--time-control NAME=TC` for each bot DIR's `match.txt` gives a clock of its own.
    fn own_clock_flags(&self) -> Vec<String> {
        ["bot1", "bot2"]
            .iter()
            .filter_map(|key| {
                let own = self.setting(&format!("{key}.time_control"))?;
                let name = self.setting(&format!("{key}.name"))?;
                Some(["--time-control".to_owned(), format!("{name}={own}")])
            })
            .flatten()
            .collect()
    }

    /// The replay's settings must write DIR's `match.txt` line for line (its bots' commands
    /// and its build aside): nothing of DIR left out or added.
    fn check_written(&self, settings: &MatchSettings) -> Result<(), String> {
        let keep = |(key, _): &&(String, String)| {
            !key.ends_with(".command") && !key.ends_with(".startup") && key != BUILD_KEY
        };
        let now = settings.decisive();
        let now: Vec<&(String, String)> = now.iter().filter(keep).collect();
        let was: Vec<&(String, String)> = self.settings.iter().filter(keep).collect();
        if let Some((index, _)) = was.iter().zip(&now).enumerate().find(|(_, (a, b))| a != b) {
            return Err(format!(
                "{}: line '{} = {}' is played as '{} = {}' by this hamle, so DIR's match cannot be replayed",
                self.path().display(),
                was[index].0,
                was[index].1,
                now[index].0,
                now[index].1
            ));
        }
        if was.len() != now.len() {
            let extra = if was.len() > now.len() {
                &was[now.len()]
            } else {
                &now[was.len()]
            };
            return Err(format!(
                "{}: the settings differ at '{} = {}' (this hamle writes {} lines, DIR has {}), so DIR's match cannot be replayed",
                self.path().display(),
                extra.0,
                extra.1,
                now.len(),
                was.len()
            ));
        }
        Ok(())
    }
}

/// The program and arguments a bot runs, as `match.txt` records them.
fn command_line(bot: &Bot) -> String {
    let mut command = vec![bot.program.clone()];
    command.extend(bot.args.iter().cloned());
    command.join(" ")
}

/// The first bot file in the bots folders whose command is `command`.
fn bot_with_command(folders: &BotFolders, command: &str) -> Option<Bot> {
    folders.folders().find_map(|dir| {
        let registry = super::bots::BotRegistry::load(dir).ok()?;
        let names: Vec<String> = registry.names().map(str::to_owned).collect();
        names
            .iter()
            .filter_map(|name| registry.get(name).ok())
            .find(|bot| command_line(bot) == command)
            .cloned()
    })
}

/// DIR's saved games by number. Not `store::read_results`, which cuts off a torn last line:
/// DIR is only read, so a torn line is refused instead.
fn read_results(path: &Path) -> Result<BTreeMap<usize, GameResult>, String> {
    let text = match super::folder::read_text(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(format!("{}: {error}", path.display())),
    };
    if !text.is_empty() && !text.ends_with('\n') {
        return Err(format!(
            "{} ends in a torn line (a game interrupted while it was saved): finish the match (its hamle match command with --resume) before replaying it",
            path.display()
        ));
    }
    let mut results = BTreeMap::new();
    for (index, line) in text.lines().enumerate() {
        let at = |why: String| format!("{}:{}: {why}", path.display(), index + 1);
        let result = GameResult::from_line(line).map_err(at)?;
        if results.insert(result.game, result).is_some() {
            return Err(at("a game recorded twice".to_owned()));
        }
    }
    Ok(results)
}

/// Lines of `match.txt` not read back through the options: the game, the game count, the
/// SPRT and the shard (`hamle match`'s own flags), the bots and the build.
fn is_taken_as_is(key: &str) -> bool {
    ["game", "games", "sprt", SHARD_KEY, BUILD_KEY].contains(&key)
        || key.starts_with("bot1.")
        || key.starts_with("bot2.")
}

/// The long options of `hamle match`'s shared options that may decide games, with whether
/// each takes a value.
fn option_candidates() -> Vec<(String, bool)> {
    let command = ArenaOptions::augment_args(clap::Command::new("hamle"));
    command
        .get_arguments()
        .filter_map(|arg| {
            let long = arg.get_long()?;
            let skip = ["bots", "game", "concurrency", "quiet", "help"].contains(&long);
            (!skip).then(|| (format!("--{long}"), arg.get_action().takes_values()))
        })
        .collect()
}

/// One game's comparison with DIR's.
struct Report {
    lines: Vec<String>,
    /// Games (from 1) whose play changed.
    departed: Vec<usize>,
    /// An engine failure DIR's game did not have, or a record that cannot be read.
    broke: bool,
}

impl Report {
    fn verdict(&self) -> Verdict {
        if self.broke {
            Verdict::Broke
        } else if self.departed.is_empty() {
            Verdict::Unchanged
        } else {
            Verdict::Changed
        }
    }

    fn departed_list(&self) -> String {
        const SHOWN: usize = 10;
        let listed: Vec<String> = self
            .departed
            .iter()
            .take(SHOWN)
            .map(|g| format!("game {g}"))
            .collect();
        let more = self.departed.len().saturating_sub(SHOWN);
        if more > 0 {
            format!("{}, … ({more} more)", listed.join(", "))
        } else {
            listed.join(", ")
        }
    }
}

/// The prefix of the reason an engine failure gives its game (`crash of m2: …`).
const FAILURE_KINDS: [&str; 4] = ["spawn of ", "timeout of ", "crash of ", "garbage of "];

fn engine_failure(reason: &str) -> Option<&str> {
    FAILURE_KINDS
        .iter()
        .find(|kind| reason.starts_with(*kind))
        .map(|_| reason)
}

/// Every game of DIR and of the replay, compared in game order.
fn compare(golden: &Golden, settings: &MatchSettings, played: &[GameResult], out: &Path) -> Report {
    let played: BTreeMap<usize, &GameResult> = played.iter().map(|r| (r.game, r)).collect();
    let mut games: Vec<usize> = golden
        .results
        .keys()
        .chain(played.keys())
        .copied()
        .collect();
    games.sort_unstable();
    games.dedup();
    let mut report = Report {
        lines: Vec::new(),
        departed: Vec::new(),
        broke: false,
    };
    let viewer = golden.kind.viewer();
    for game in games {
        let number = game + 1;
        let (expected, now) = (golden.results.get(&game), played.get(&game));
        let line = match (expected, now) {
            (Some(_), None) => Some(format!(
                "game {number}: in DIR, not played now (the replay stopped sooner{})",
                sprt_note(settings)
            )),
            (None, Some(_)) => Some(format!(
                "game {number}: played now, not in DIR (the replay went on{})",
                sprt_note(settings)
            )),
            (Some(expected), Some(now)) => {
                if let (Some(failure), None) = (
                    engine_failure(&now.reason),
                    engine_failure(&expected.reason),
                ) {
                    report.broke = true;
                    report.lines.push(format!(
                        "game {number}: the replay failed, DIR's game did not: {failure}"
                    ));
                    continue;
                }
                let texts = (read_record(&golden.dir, expected), read_record(out, now));
                match texts {
                    (Ok(was), Ok(is)) => departure(viewer, &was, &is, expected, now).map(|why| {
                        format!("game {number} ({GAMES_DIR}/{}): {why}", expected.record)
                    }),
                    (Err(why), _) | (_, Err(why)) => {
                        report.broke = true;
                        report.lines.push(format!("game {number}: {why}"));
                        continue;
                    }
                }
            }
            (None, None) => None,
        };
        if let Some(line) = line {
            report.lines.push(line);
            report.departed.push(number);
        }
    }
    report
}

fn sprt_note(settings: &MatchSettings) -> &'static str {
    if settings.sprt.is_some() {
        ": the SPRT decided at another pair"
    } else {
        ""
    }
}

fn read_record(dir: &Path, result: &GameResult) -> Result<String, String> {
    let path = dir.join(GAMES_DIR).join(&result.record);
    super::folder::read_text(&path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Where a replayed game first departs from DIR's: the first move that differs, a game
/// that ended sooner or went on, or the same moves with another result. `None`: the same.
fn departure(
    viewer: &dyn crate::contract::view::Viewer,
    was: &str,
    is: &str,
    expected: &GameResult,
    now: &GameResult,
) -> Option<String> {
    let (was_moves, is_moves) = (moves(viewer, was), moves(viewer, is));
    let first = was_moves.iter().zip(&is_moves).position(|(a, b)| a != b);
    let ended = |moves: &[String], at: usize| {
        moves
            .get(at)
            .cloned()
            .unwrap_or_else(|| "the end of the game".to_owned())
    };
    if let Some(at) = first.or_else(|| {
        (was_moves.len() != is_moves.len()).then(|| was_moves.len().min(is_moves.len()))
    }) {
        return Some(format!(
            "departs at move {}: expected {}, played {}",
            at + 1,
            ended(&was_moves, at),
            ended(&is_moves, at)
        ));
    }
    (expected.result != now.result || expected.winner != now.winner).then(|| {
        format!(
            "the same {} moves, but the result was {} ({}), now {} ({})",
            was_moves.len(),
            expected.result,
            expected.reason,
            now.result,
            now.reason
        )
    })
}

/// A record's moves as its game's viewer reads them: who moved, the move, and what else
/// the record says of it (Tavla's dice, Mangala's set).
fn moves(viewer: &dyn crate::contract::view::Viewer, text: &str) -> Vec<String> {
    viewer
        .view(text)
        .frames
        .iter()
        .filter_map(|frame| {
            let mv = frame.mv.as_ref()?;
            let about: Vec<&str> = [frame.mover.as_deref().unwrap_or(""), frame.note.as_str()]
                .into_iter()
                .filter(|part| !part.is_empty())
                .collect();
            Some(if about.is_empty() {
                mv.clone()
            } else {
                format!("{mv} ({})", about.join(", "))
            })
        })
        .collect()
}
