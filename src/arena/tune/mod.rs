//! `hamle tune`: SPSA over the numeric options of one bot file, each iteration played as a
//! `hamle match` kept in its own folder.
//!
//! ```text
//! OUT/tune.txt                 the settings (compared on --resume)
//! OUT/iterations/0001/         iteration 1: BOT-plus against BOT-minus, a match folder
//! OUT/iterations/0001-plus/    with --against: BOT-plus against the opponent (and -minus/)
//! OUT/theta.tsv                θ after each iteration, rewritten after each
//! OUT/tune.html                each parameter's path over the iterations
//! OUT/tuned.toml               the bot file with the tuned values (after the last iteration)
//! OUT/verify/                  with --verify GAMES: the tuned bot against the start
//! ```
//!
//! Iteration k perturbs every parameter at once (`spsa`), plays `--pairs` game pairs of
//! θ + c_k·flip against θ − c_k·flip (or each against the `--against` bot, both with the
//! same seeds), and steps θ by the result. Its match seed derives from `--seed` and k, its
//! flips too: θ after k iterations depends only on the seed and the games so far, so
//! `--resume` after a kill (even kill -9) replays the iterations kept, resumes the one
//! cut short exactly as `hamle match --resume` does, and goes on as if never stopped.
//! Iterations depend on each other, so shards (`--shard I/N`, one `--out` on a shared file
//! system) meet at every iteration: each plays its pairs, waits for the others' folders and
//! steps by all the games (`shards`), so that every shard follows the unsharded run's θ.

pub mod cli;
mod output;
mod shards;
mod spec;
mod spsa;

pub use spec::{Param, read_tune};
pub use spsa::{Perturbation, Schedule};

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::bots::{Bot, OptionValue};
use super::folder::{FolderKind, FolderLock};
use super::match_play::{MatchError, MatchSettings, run_match};
use super::shard::{Shard, take_new_folder};
use super::store::{self, GameResult, SETTINGS_FILE, check_settings};
use crate::seed::derive_seed;

/// The tune's settings file.
pub const TUNE_FILE: &str = "tune.txt";

const TUNE_FOLDER: FolderKind = FolderKind {
    marker: TUNE_FILE,
    kind: "tune",
};

/// One tuning run.
pub struct Tune {
    /// The bot tuned, as its file defines it (its `[options]` as a plain match plays them).
    pub bot: Bot,
    /// The bot file's text (the tuned bot file is written from it).
    pub bot_text: String,
    pub params: Vec<Param>,
    pub against: Option<Bot>,
    pub schedule: Schedule,
    /// Game pairs an iteration (each match's, with --against).
    pub pairs: usize,
    /// The settings every iteration's match starts from (bots, folder, seed set per match).
    pub template: MatchSettings,
    pub out_dir: PathBuf,
    /// Games of the verifying match, if any.
    pub verify: Option<usize>,
    /// Stop (resumable) once this iteration is played.
    pub stop_after: Option<usize>,
    /// `--shard I/N`: this process plays pairs k with k mod N = I - 1 of every iteration.
    pub shard: Option<Shard>,
    /// How long a shard waits for the others at an iteration before it gives up.
    pub shard_wait: Duration,
}

/// θ after each iteration, and what it played.
#[derive(Clone, Debug)]
pub struct Step {
    pub iteration: usize,
    pub games: usize,
    /// Wins less losses of the plus side (with --against: plus's less minus's).
    pub result: f64,
    pub theta: Vec<f64>,
}

/// What a finished run leaves.
pub struct Outcome {
    pub steps: Vec<Step>,
    /// `None` when the run stopped early (`--stop-after`).
    pub tuned_file: Option<PathBuf>,
    /// The verifying match's line (`+12 Elo ± 30 (…)`), with --verify.
    pub verified: Option<String>,
}

impl Tune {
    /// What `tune.txt` records: the run's own settings, then every match's but the bots and
    /// the seed (each iteration's match has its own).
    fn settings(&self) -> Vec<(String, String)> {
        let mut settings = vec![
            ("bot".to_owned(), self.bot.name.clone()),
            ("bot.command".to_owned(), command_line(&self.bot)),
            (
                "against".to_owned(),
                self.against.as_ref().map_or_else(
                    || "-".to_owned(),
                    |b| format!("{} ({})", b.name, command_line(b)),
                ),
            ),
            (
                "iterations".to_owned(),
                self.schedule.iterations.to_string(),
            ),
            ("pairs".to_owned(), self.pairs.to_string()),
            ("alpha".to_owned(), self.schedule.alpha.to_string()),
            ("gamma".to_owned(), self.schedule.gamma.to_string()),
            ("a_ratio".to_owned(), self.schedule.a_ratio.to_string()),
            ("r_end".to_owned(), self.schedule.r_end.to_string()),
        ];
        // Every shard writes and checks the same file: the count, not the index.
        if let Some(shard) = self.shard {
            settings.push(("shards".to_owned(), shard.count.to_string()));
        }
        for param in &self.params {
            settings.push((format!("tune.{}", param.name), param.setting()));
        }
        settings.extend(
            self.template
                .decisive()
                .into_iter()
                .filter(|(key, _)| !key.starts_with("bot")),
        );
        settings
    }

    /// Takes the folder's lock; a new run writes `tune.txt` into an empty or new folder, a
    /// resumed one must find it unchanged (each difference named).
    fn open_folder(&self, resume: bool) -> Result<FolderLock, MatchError> {
        let path = self.out_dir.join(TUNE_FILE);
        if let Some(shard) = self.shard {
            return self.open_shard_folder(shard, &path);
        }
        if !resume {
            return take_new_folder(
                &self.out_dir,
                TUNE_FOLDER,
                &store::settings_text(&self.settings()),
            );
        }
        if let Some(in_use) = super::folder::in_use(&self.out_dir) {
            return Err(in_use.into());
        }
        if !path.is_file() {
            return Err(MatchError::Invalid(format!(
                "{} holds no tune to resume ({TUNE_FILE} is missing)",
                self.out_dir.display()
            )));
        }
        let lock = FolderLock::take(&self.out_dir)?;
        check_settings(&self.out_dir, &path, &self.settings())?;
        Ok(lock)
    }

    /// A shard shares the folder with the others: it locks a folder of its own inside
    /// (`shard-I`), writes `tune.txt` if it is the first there, or finds it unchanged. A
    /// shard started again goes on from its folders, `--resume` or not.
    fn open_shard_folder(&self, shard: Shard, path: &Path) -> Result<FolderLock, MatchError> {
        if let Some(in_use) = super::folder::in_use(&self.out_dir) {
            return Err(in_use.into());
        }
        let lock = FolderLock::take(&shards::shard_dir(&self.out_dir, shard))?;
        let text = store::settings_text(&self.settings());
        if !path.is_file() {
            // Shards starting together write the same text; the last rename wins.
            crate::files::write_atomic(path, text.as_bytes())
                .map_err(|error| MatchError::Invalid(format!("{}: {error}", path.display())))?;
        }
        check_settings(&self.out_dir, path, &self.settings())?;
        Ok(lock)
    }

    /// Whether this process writes the run's own files (theta.tsv, the page, the tuned
    /// bot): an unsharded run, or shard 1 of a sharded one (the others compute the same).
    fn writes_outputs(&self) -> bool {
        self.shard.is_none_or(|shard| shard.index == 1)
    }

    /// Plays (or resumes) every iteration, then writes the tuned bot file and, with
    /// --verify, plays the tuned bot against the start.
    pub fn run(&self, resume: bool) -> Result<Outcome, MatchError> {
        let _lock = self.open_folder(resume)?;
        let mut theta: Vec<f64> = self.params.iter().map(|p| p.start).collect();
        let mut steps = Vec::new();
        for k in 1..=self.schedule.iterations {
            let perturbation = self
                .schedule
                .perturb(&self.params, &theta, self.template.seed, k);
            let (games, result) = self.play_iteration(k, &perturbation, resume)?;
            theta = perturbation.step(&self.params, &theta, result);
            steps.push(Step {
                iteration: k,
                games,
                result,
                theta: theta.clone(),
            });
            if self.writes_outputs() {
                output::write_progress(self, &steps)?;
            }
            println!("{}", output::progress_line(self, &steps));
            if self.stop_after == Some(k) && k < self.schedule.iterations {
                return Ok(Outcome {
                    steps,
                    tuned_file: None,
                    verified: None,
                });
            }
        }
        let tuned_file = if self.writes_outputs() {
            Some(output::write_tuned_bot(self, &theta)?)
        } else {
            Some(tuned_path(&self.out_dir))
        };
        let verified = match self.verify {
            Some(games) => Some(self.play_verify(&theta, games, resume)?),
            None => None,
        };
        if self.writes_outputs() {
            output::write_page(self, &steps, verified.as_deref())?;
        }
        Ok(Outcome {
            steps,
            tuned_file,
            verified,
        })
    }

    /// Iteration k's games: (games counted, wins less losses of the plus side).
    fn play_iteration(
        &self,
        k: usize,
        perturbation: &Perturbation,
        resume: bool,
    ) -> Result<(usize, f64), MatchError> {
        let plus = self.with_values(&perturbation.plus, "plus");
        let minus = self.with_values(&perturbation.minus, "minus");
        let label = |what: &str| format!("[iteration {k}/{}{what}] ", self.schedule.iterations);
        let Some(opponent) = &self.against else {
            let dirs = [self.iteration_dir(k, ""), self.iteration_dir(k + 1, "")];
            let results = self.play(&[plus.clone(), minus], dirs, k, label(""), resume)?;
            return Ok((results.len(), wins_less_losses(&results, &plus.name)));
        };
        let mut total = 0.0;
        let mut games = 0;
        for (side, sign) in [(plus, 1.0), (minus, -1.0)] {
            let which = if sign > 0.0 { "plus" } else { "minus" };
            let dir = self.iteration_dir(k, &format!("-{which}"));
            let next = if sign > 0.0 {
                self.iteration_dir(k, "-minus")
            } else {
                self.iteration_dir(k + 1, "-plus")
            };
            let pair = [side.clone(), opponent.clone()];
            let results = self.play(&pair, [dir, next], k, label(&format!(" {which}")), resume)?;
            games += results.len();
            total += sign * wins_less_losses(&results, &side.name);
        }
        Ok((games, total))
    }

    /// One match of iteration k (its seed derived from the run's and k) in `dir`, resumed
    /// when its folder was started. When the match played after it (in `next`) was started,
    /// this one ended whole (results, PGN, pages): on --resume its results are read as
    /// they are, with no engine started, so that a long run resumes in moments.
    fn play(
        &self,
        bots: &[Bot; 2],
        [dir, next]: [PathBuf; 2],
        k: usize,
        label: String,
        resume: bool,
    ) -> Result<Vec<GameResult>, MatchError> {
        let mut settings = self.template.clone();
        settings.bots = bots.clone();
        settings.games = self.pairs * 2;
        settings.seed = derive_seed(self.template.seed, k as u64);
        settings.label = label;
        settings.shard = self.shard;
        let own = self.play_part(&mut settings, &dir, &next, resume)?;
        shards::gather(&settings, &dir, own, self.shard_wait)
    }

    /// This process's games of a match (all, or its shard's) in `dir` (or the shard's
    /// folder in it); a shard resumes its own folder whenever it was started.
    fn play_part(
        &self,
        settings: &mut MatchSettings,
        dir: &Path,
        next: &Path,
        resume: bool,
    ) -> Result<Vec<GameResult>, MatchError> {
        let (dir, next) = match self.shard {
            Some(shard) => (
                shards::shard_dir(dir, shard),
                shards::shard_dir(next, shard),
            ),
            None => (dir.to_owned(), next.to_owned()),
        };
        let resume = resume || self.shard.is_some();
        settings.out_dir = dir;
        let started = settings.out_dir.join(SETTINGS_FILE).is_file();
        if resume && started && next.join(SETTINGS_FILE).is_file() {
            let path = settings.out_dir.join(SETTINGS_FILE);
            check_settings(&settings.out_dir, &path, &settings.decisive())?;
            let results = store::read_results(&settings.out_dir.join(store::RESULTS_FILE))?;
            if results.len() == settings.planned_games() {
                return Ok(results);
            }
        }
        run_match(settings, resume && started)
    }

    fn iteration_dir(&self, k: usize, suffix: &str) -> PathBuf {
        self.out_dir
            .join("iterations")
            .join(format!("{k:04}{suffix}"))
    }

    /// The bot with the tuned options set to `values`, named `NAME-suffix`.
    fn with_values(&self, values: &[OptionValue], suffix: &str) -> Bot {
        let mut bot = self.bot.clone();
        // A bot file's args are its command's words, then `--key value` a option
        // (`Bot::from_toml`): the options are cut and appended again with the new values.
        let fixed = bot.args.len().saturating_sub(2 * bot.options.len());
        bot.args.truncate(fixed);
        for (param, value) in self.params.iter().zip(values) {
            bot.options.insert(param.name.clone(), value.clone());
        }
        for (key, value) in &bot.options {
            bot.args.push(format!("--{key}"));
            bot.args.push(value.to_string());
        }
        bot.name = format!("{}-{suffix}", self.bot.name);
        bot
    }

    /// The tuned bot against the start: `--verify GAMES` games in `OUT/verify`, with the
    /// run's seed; the Elo line.
    fn play_verify(&self, theta: &[f64], games: usize, resume: bool) -> Result<String, MatchError> {
        let values: Vec<OptionValue> = self
            .params
            .iter()
            .zip(theta)
            .map(|(p, &x)| p.engine_value(x))
            .collect();
        let starts: Vec<OptionValue> = self
            .params
            .iter()
            .map(|p| p.engine_value(p.start))
            .collect();
        let tuned = self.with_values(&values, "tuned");
        let start = self.with_values(&starts, "start");
        let mut settings = self.template.clone();
        settings.bots = [tuned.clone(), start.clone()];
        settings.games = games;
        settings.label = "[verify] ".to_owned();
        settings.shard = self.shard;
        let whole = self.out_dir.join("verify");
        let own = self.play_part(&mut settings, &whole, &whole.join("-"), resume)?;
        let results = shards::gather(&settings, &whole, own, self.shard_wait)?;
        settings.out_dir = whole;
        let counts = super::sprt::pentanomial(&results, &tuned.name);
        let measured = super::sprt::measured(&counts)
            .map_or_else(|| "no complete pair".to_owned(), |m| m.to_string());
        Ok(format!(
            "verify: {} against {}: {measured}, {} games in {}",
            tuned.name,
            start.name,
            results.len(),
            settings.out_dir.display()
        ))
    }
}

/// A bot's program and arguments as one line (for `tune.txt`).
fn command_line(bot: &Bot) -> String {
    let mut words = vec![bot.program.clone()];
    words.extend(bot.args.iter().cloned());
    words.join(" ")
}

/// `name`'s wins less its losses (draws and void games count nothing).
fn wins_less_losses(results: &[GameResult], name: &str) -> f64 {
    results
        .iter()
        .filter_map(|r| r.winner_name())
        .map(|winner| if winner == name { 1.0 } else { -1.0 })
        .sum()
}

/// Where the tuned bot file goes.
pub fn tuned_path(dir: &Path) -> PathBuf {
    dir.join("tuned.toml")
}
