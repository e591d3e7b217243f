//! `hamle tavla` tools: `train` (self-play TD(λ) for the net's weights), `duel` (two
//! levels in-process, cubeless money, mirrored dice) and `choose` (a filter).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};

use crate::protocol::{LineReader, RawLine};

use super::board::Side;
use super::contact_train::{self, ContactOptions, Harvest, LabelOptions, Lookahead};
use super::dice::{Dice, Roller};
use super::game::WinKind;
use super::ids::{parse_position_id, position_id};
use super::labels;
use super::moves::legal_plays;
use super::net::Net;
use super::player::{Level, Player};
use super::race::RaceNet;
use super::race_train::{self, RaceOptions};
use super::rollout::Rollout;
use super::teacher::{self, Teacher, TeacherSpec};
use super::train::{self, Options};

#[derive(Subcommand, Debug)]
pub enum TavlaTool {
    /// Train the net by self-play TD(λ) and write its weights.
    Train(TrainArgs),
    /// Play two levels against each other: cubeless money games, each dice sequence twice
    /// with the colours swapped; prints points per game for the first with a 95% interval.
    Duel(DuelArgs),
    /// Label contact positions of the net's self-play by a lookahead, for `train --contact
    /// --labels`: one line a position, written as it goes (see protocol.md, Training).
    Label(LabelArgs),
    /// A filter for outside referees: reads lines `POSITION_ID DIE DIE` (the side on roll as
    /// gnubg's player 1) and writes the Position ID after the level's play.
    Choose(ChooseArgs),
}

#[derive(Args, Debug)]
pub struct ChooseArgs {
    /// The level that plays.
    pub level: Level,
    /// Weights file for the net levels (default: the built-in weights).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Race net weights file (default: the built-in race net).
    #[arg(long)]
    pub race_weights: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct TrainArgs {
    /// Self-play games.
    #[arg(long, default_value_t = 100_000)]
    pub games: u64,
    /// Seed of the initial weights and of the dice: the same seed gives the same weights.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the weights.
    #[arg(long)]
    pub out: PathBuf,
    /// Start from these weights instead of random ones (a smaller net's are widened: see
    /// protocol.md, Training).
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// TD(λ) trace decay.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Initial learning rate.
    #[arg(long, default_value_t = 0.05)]
    pub rate: f32,
    /// Games over which the learning rate halves (rate / (1 + games / decay)).
    #[arg(long, default_value_t = 100_000.0)]
    pub decay: f32,
    /// Write the weights every this many games as well (0: only at the end).
    #[arg(long, default_value_t = 10_000)]
    pub checkpoint: u64,
    /// Train the race net instead (supervised on 1-ply labels grounded in the bear-off
    /// database; --games self-play games give its positions, --start a race net to go on
    /// from, --rate its learning rate): see protocol.md, Training.
    #[arg(long)]
    pub race: bool,
    /// Train the main net on lookahead labels instead of by TD(λ) (supervised; --games
    /// self-play games give its contact positions, --start the net to go on from, default
    /// the built-in one): see protocol.md, Training.
    #[arg(long, conflicts_with = "race")]
    pub contact: bool,
    /// With --race or --contact: label-and-fit rounds.
    #[arg(long, default_value_t = 10)]
    pub generations: u32,
    /// With --race or --contact: passes over the positions in each round.
    #[arg(long, default_value_t = 4)]
    pub epochs: u32,
    /// With --contact: rolls a label looks ahead (1 or 2).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub plies: u32,
    /// With --contact: chance that a harvesting side plays one of its three best plays at
    /// random.
    #[arg(long, default_value_t = 0.1)]
    pub explore: f64,
    /// With --contact: threads that harvest and label (the weights do not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// With --contact: fit to these label files (`hamle tavla label`) instead of harvesting
    /// and labelling: --epochs passes at --rate, one position in 20 held out to report.
    #[arg(long, requires = "contact", num_args = 1..)]
    pub labels: Vec<PathBuf>,
}

#[derive(Args, Debug)]
pub struct LabelArgs {
    /// Self-play games the positions are harvested from.
    #[arg(long, default_value_t = 1_000)]
    pub games: u64,
    /// Seed of the games' dice, their exploration and the order positions are labelled in.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most positions labelled (a random sample of the harvest, in random order).
    #[arg(long, default_value_t = usize::MAX)]
    pub limit: usize,
    /// Rolls a label looks ahead (1 or 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=2))]
    pub plies: u32,
    /// Label by a truncated rollout of this many games a position at 0-ply instead (a multiple
    /// of 36 stratifies the first roll), each stopped after --horizon plays.
    #[arg(
        long,
        conflicts_with = "plies",
        value_parser = clap::value_parser!(u32).range(1..=1_000_000)
    )]
    pub rollout: Option<u32>,
    /// With --rollout: plays made in a trial (both sides) before the net judges it; a trial
    /// stops sooner where the game ends or contact is broken.
    #[arg(
        long,
        default_value_t = 8,
        requires = "rollout",
        value_parser = clap::value_parser!(u32).range(1..=1000)
    )]
    pub horizon: u32,
    /// Label by a teacher outside hamle instead: `gnubg` (GNU Backgammon's net at 2 plies,
    /// PyPI gnubg-nn, run through python3) or `gnubg:PLIES` (0 to 3).
    #[arg(long, conflicts_with_all = ["plies", "rollout"])]
    pub teacher: Option<TeacherSpec>,
    /// With --teacher: the Python interpreter that has gnubg-nn.
    #[arg(long, default_value = "python3", requires = "teacher")]
    pub teacher_python: PathBuf,
    /// Chance that a harvesting side plays one of its three best plays at random.
    #[arg(long, default_value_t = 0.1)]
    pub explore: f64,
    /// Also harvest the positions of each turn's K best plays at 0-ply other than the one
    /// played (the alternatives the player ranks).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=32))]
    pub alternatives: u64,
    /// Threads that harvest and label (the file does not depend on it).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The net that plays and labels (default: the built-in one).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Where to write the labels.
    #[arg(long)]
    pub out: PathBuf,
}

#[derive(Args, Debug)]
pub struct DuelArgs {
    /// The first level (greedy, pubeval, net, net1, net2).
    pub first: Level,
    /// The second level.
    pub second: Level,
    /// Games (rounded up to an even number: pairs with the same dice).
    #[arg(long, default_value_t = 2_000)]
    pub games: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights file for the first player's net levels (default: the built-in weights).
    #[arg(long)]
    pub weights_first: Option<PathBuf>,
    /// Weights file for the second player's net levels.
    #[arg(long)]
    pub weights_second: Option<PathBuf>,
    /// Race net weights file for the first player (default: the built-in race net).
    #[arg(long, conflicts_with = "no_race_first")]
    pub race_weights_first: Option<PathBuf>,
    /// Race net weights file for the second player.
    #[arg(long, conflicts_with = "no_race_second")]
    pub race_weights_second: Option<PathBuf>,
    /// The first player judges races with its main net, as before the race net.
    #[arg(long)]
    pub no_race_first: bool,
    /// The second player judges races with its main net.
    #[arg(long)]
    pub no_race_second: bool,
    /// Every this many pairs, a line on stderr with the score so far and the pair totals
    /// (`pairs N sum S sum_sq Q`, for pooling shards): a run cut short still leaves its
    /// last line. 0: none.
    #[arg(long, default_value_t = 50)]
    pub progress: u64,
}

/// Runs a tool.
pub fn run(tool: TavlaTool) -> io::Result<()> {
    match tool {
        TavlaTool::Train(args) => run_train(&args, &mut io::stdout().lock()),
        TavlaTool::Duel(args) => run_duel(&args, &mut io::stdout().lock()),
        TavlaTool::Label(args) => run_label(&args, &mut io::stdout().lock()),
        TavlaTool::Choose(args) => run_choose(&args),
    }
}

/// The longest line `hamle tavla choose` reads.
const CHOOSE_LINE_BYTES: usize = 4096;

fn run_choose(args: &ChooseArgs) -> io::Result<()> {
    let mut player = player_for(
        args.level,
        &args.weights,
        race_for(&args.race_weights, false)?,
    )?;
    let mut out = io::stdout().lock();
    let invalid = |e: String| io::Error::new(io::ErrorKind::InvalidData, e);
    // A position ID and two dice take a few dozen bytes: a longer line is not one.
    for line in LineReader::with_limit(io::stdin().lock(), CHOOSE_LINE_BYTES) {
        let line = match line? {
            RawLine::Text(line) => line,
            RawLine::TooLong(head) => {
                return Err(invalid(format!(
                    "a line over {CHOOSE_LINE_BYTES} bytes is no 'POSITION_ID DIE DIE': {head}…"
                )));
            }
        };
        let fields: Vec<&str> = line.split_whitespace().collect();
        let [id, first, second] = fields[..] else {
            return Err(invalid(format!("expected 'POSITION_ID DIE DIE': {line}")));
        };
        let side = Side::Black;
        let board = parse_position_id(id, side).map_err(|e| invalid(e.to_string()))?;
        let die = |text: &str| text.parse::<u8>().map_err(|e| invalid(e.to_string()));
        let dice = Dice::new(die(first)?, die(second)?).map_err(invalid)?;
        let play = player.choose_play(&board, side, dice);
        let after = legal_plays(&board, side, dice)
            .into_iter()
            .find(|c| c.play == play)
            .map_or(board, |c| c.after);
        writeln!(out, "{}", position_id(&after, side))?;
        out.flush()?;
    }
    Ok(())
}

/// The largest weights file read: the net's are 111 KiB, so 1 MiB leaves room for a larger
/// net and still refuses a wrong file (or a FIFO, a device) at once.
pub const MAX_WEIGHTS_BYTES: u64 = 1024 * 1024;

/// Reads a weights file, refusing one that is not whole or holds a weight that is not sane
/// ([`Net::from_bytes`]); the error names the file.
fn load(path: &Path) -> io::Result<Net> {
    load_with(path, Net::from_bytes)
}

/// [`load`] through `parse`.
fn load_with<T>(path: &Path, parse: impl FnOnce(&[u8]) -> Result<T, String>) -> io::Result<T> {
    let named = |e: String| format!("{}: {e}", path.display());
    let bytes = crate::files::read_capped(path, MAX_WEIGHTS_BYTES)?;
    parse(&bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, named(e)))
}

pub fn run_train(args: &TrainArgs, out: &mut impl Write) -> io::Result<()> {
    if args.race {
        return run_race_train(args, out);
    }
    if args.contact {
        return run_contact_train(args, out);
    }
    let options = Options {
        games: args.games,
        seed: args.seed,
        lambda: args.lambda,
        rate: args.rate,
        decay: args.decay,
    };
    // A smaller net's weights are widened to this build's net (protocol.md, Training).
    let widen = |bytes: &[u8]| Net::from_bytes_widening(bytes, args.seed);
    let start = (args.start.as_deref())
        .map(|path| load_with(path, widen))
        .transpose()?;
    let begun = Instant::now();
    let mut failure = None;
    let net = train::train(&options, start, |games, net| {
        if games % 1000 == 0 {
            eprintln!("{games} games, {:.0} s", begun.elapsed().as_secs_f64());
        }
        let due = args.checkpoint > 0 && games % args.checkpoint == 0 && games < options.games;
        if due {
            checkpoint(&args.out, net, &mut failure);
        }
    });
    save_weights(&args.out, &net, failure)?;
    writeln!(
        out,
        "trained {} games (seed {}) in {:.1} s; weights in {}",
        args.games,
        args.seed,
        begun.elapsed().as_secs_f64(),
        args.out.display()
    )
}

/// Writes a training run's weights so far to `path`; the first failure is kept in `failure`
/// (training goes on, and the run then ends with it).
fn checkpoint(path: &Path, net: &Net, failure: &mut Option<io::Error>) {
    if let Err(e) = write_weights(path, &net.to_bytes())
        && failure.is_none()
    {
        *failure = Some(e);
    }
}

/// Writes the trained weights to `path`, unless a checkpoint write has already failed.
fn save_weights(path: &Path, net: &Net, failure: Option<io::Error>) -> io::Result<()> {
    match failure {
        Some(e) => Err(e),
        None => write_weights(path, &net.to_bytes()),
    }
}

/// Writes a weights file; an error names the file.
fn write_weights(path: &Path, bytes: &[u8]) -> io::Result<()> {
    crate::files::write_atomic(path, bytes).map_err(|e| {
        let kind = io::Error::from(e.problem);
        io::Error::new(
            kind.kind(),
            format!("{}: cannot write: {kind}", path.display()),
        )
    })
}

/// `hamle tavla train --race`: the race net, from the built-in main net's self-play.
fn run_race_train(args: &TrainArgs, out: &mut impl Write) -> io::Result<()> {
    let options = RaceOptions {
        games: args.games,
        generations: args.generations,
        epochs: args.epochs,
        seed: args.seed,
        rate: args.rate,
    };
    let start = (args.start.as_deref())
        .map(|path| load_with(path, RaceNet::from_bytes))
        .transpose()?;
    let begun = Instant::now();
    let net = race_train::train_race(&options, Net::builtin(), start, |generation| {
        eprintln!(
            "generation {}: {} positions, mean win error {:.4}, {:.0} s",
            generation.number,
            generation.positions,
            generation.win_error,
            begun.elapsed().as_secs_f64()
        );
    });
    write_weights(&args.out, &net.to_bytes())?;
    writeln!(
        out,
        "trained the race net: {} games' races, {} generations (seed {}) in {:.1} s; weights in {}",
        args.games,
        args.generations,
        args.seed,
        begun.elapsed().as_secs_f64(),
        args.out.display()
    )
}

/// Refuses an exploration chance outside 0 to 1.
fn check_explore(explore: f64) -> io::Result<()> {
    if (0.0..=1.0).contains(&explore) {
        return Ok(());
    }
    let message = format!("--explore {explore} is not a chance from 0 to 1");
    Err(io::Error::new(io::ErrorKind::InvalidInput, message))
}

/// The net `path` names, or the built-in one.
fn net_or_builtin(path: Option<&Path>) -> io::Result<Net> {
    match path {
        Some(path) => load(path),
        None => Ok(Net::builtin().clone()),
    }
}

/// `hamle tavla label`: self-play contact positions with their lookahead labels, to a file.
fn run_label(args: &LabelArgs, out: &mut impl Write) -> io::Result<()> {
    check_explore(args.explore)?;
    let net = net_or_builtin(args.weights.as_deref())?;
    let labelling = LabelOptions {
        harvest: Harvest {
            games: args.games,
            explore: args.explore,
            alternatives: args.alternatives as usize,
            threads: args.threads.max(1),
            seed: args.seed,
        },
        lookahead: label_lookahead(args),
        limit: args.limit,
    };
    // A missing or broken teacher fails here, before the file is made.
    let mut teacher = (args.teacher)
        .map(|spec| Teacher::start(spec, &args.teacher_python))
        .transpose()?;
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", args.out.display()));
    // Written as it goes (a long run's labels so far can be read), so not whole at the end.
    let created = crate::files::open_to_write(&args.out).map_err(io::Error::from)?;
    let mut file = io::BufWriter::new(created);
    let (header, how) = label_header(args, labelling.lookahead);
    file.write_all(header.as_bytes()).map_err(named)?;
    let begun = Instant::now();
    let positions = contact_train::harvest(&net, &labelling.harvest);
    let harvested = positions.len();
    eprintln!(
        "{harvested} contact positions harvested in {:.1} s",
        begun.elapsed().as_secs_f64()
    );
    let mut reported = 0;
    let progress = |done: usize| {
        if done >= reported + 1000 {
            reported = done;
            eprintln!("{done} labelled, {:.0} s", begun.elapsed().as_secs_f64());
        }
    };
    let labelled = match teacher.as_mut() {
        Some(teacher) => {
            let positions = contact_train::sample(positions, args.seed, args.limit);
            teacher::label_into(&mut file, &args.out, &positions, teacher, progress)
                // A teacher that fails midway leaves no file of half its labels.
                .inspect_err(|_| drop(std::fs::remove_file(&args.out)))?
        }
        None => contact_train::label_into(&mut file, positions, &net, &labelling, progress)
            .map_err(named)?,
    };
    writeln!(
        out,
        "labelled {labelled} of {harvested} contact positions of {} games by {how} (seed {}) \
         in {:.1} s; labels in {}",
        args.games,
        args.seed,
        begun.elapsed().as_secs_f64(),
        args.out.display()
    )
}

/// The `#` lines that open a label file (how it was made), and how its labels look ahead.
fn label_header(args: &LabelArgs, lookahead: Lookahead) -> (String, String) {
    let how = match (args.teacher, lookahead) {
        (Some(spec), _) => format!("--teacher {spec}"),
        (None, Lookahead::Plies(plies)) => format!("--plies {plies}"),
        (None, Lookahead::Rollout(r)) => format!("--rollout {} --horizon {}", r.trials, r.horizon),
    };
    // Options added after the first label files are named only when given, so those files
    // and files made the same way since read alike.
    let alternatives = match args.alternatives {
        0 => String::new(),
        k => format!(" --alternatives {k}"),
    };
    // The net that played and labelled: a chain of label-and-fit rounds is reproducible
    // only if each file says which round's net made it.
    let weights = (args.weights.as_deref())
        .map(|path| format!(" --weights {}", path.display()))
        .unwrap_or_default();
    let mut header = format!(
        "# hamle tavla label --games {} --seed {} {how} --explore {}{alternatives}{weights}\n",
        args.games, args.seed, args.explore,
    );
    if args.teacher.is_some() {
        // The labels are the teacher's judgement: say whose, and under which licence.
        header.push_str("# labels by GNU Backgammon's net (PyPI gnubg-nn, GPL)\n");
    }
    (header, how)
}

/// The lookahead `hamle tavla label`'s arguments ask for.
fn label_lookahead(args: &LabelArgs) -> Lookahead {
    match args.rollout {
        Some(trials) => Lookahead::Rollout(Rollout {
            trials,
            horizon: args.horizon,
        }),
        None => Lookahead::Plies(args.plies),
    }
}

/// `hamle tavla train --contact --labels`: the main net fitted to label files.
fn run_label_fit(args: &TrainArgs, out: &mut impl Write) -> io::Result<()> {
    let mut labelled = Vec::new();
    for path in &args.labels {
        labelled.extend(labels::read_file(path)?);
    }
    let mut net = net_or_builtin(args.start.as_deref())?;
    let begun = Instant::now();
    let mut failure = None;
    contact_train::train_on_labels(
        &mut net,
        &labelled,
        args.epochs,
        args.rate,
        args.seed,
        |epoch, net| {
            let fitted = (epoch.fitted_equity_error).map_or(String::new(), |e| {
                format!(" (fitted, during the pass: {e:.4})")
            });
            eprintln!(
                "epoch {}: held-out mean win error {:.4}, mean equity error {:.4}{fitted}, {:.0} s",
                epoch.number,
                epoch.held_out_win_error,
                epoch.held_out_equity_error,
                begun.elapsed().as_secs_f64()
            );
            checkpoint(&args.out, net, &mut failure);
        },
    );
    save_weights(&args.out, &net, failure)?;
    writeln!(
        out,
        "fitted the net to {} labelled positions, {} epochs (seed {}) in {:.1} s; weights in {}",
        labelled.len(),
        args.epochs,
        args.seed,
        begun.elapsed().as_secs_f64(),
        args.out.display()
    )
}

/// `hamle tavla train --contact`: the main net on lookahead labels of its own self-play.
fn run_contact_train(args: &TrainArgs, out: &mut impl Write) -> io::Result<()> {
    if !args.labels.is_empty() {
        return run_label_fit(args, out);
    }
    check_explore(args.explore)?;
    let options = ContactOptions {
        games: args.games,
        generations: args.generations,
        epochs: args.epochs,
        plies: args.plies,
        explore: args.explore,
        threads: args.threads.max(1),
        seed: args.seed,
        rate: args.rate,
    };
    let start = net_or_builtin(args.start.as_deref())?;
    let begun = Instant::now();
    let mut failure = None;
    let net = contact_train::train_contact(&options, start, |generation, net| {
        eprintln!(
            "generation {}: {} positions, mean win error {:.4}, mean equity error {:.4}, {:.0} s",
            generation.number,
            generation.positions,
            generation.win_error,
            generation.equity_error,
            begun.elapsed().as_secs_f64()
        );
        checkpoint(&args.out, net, &mut failure);
    });
    save_weights(&args.out, &net, failure)?;
    writeln!(
        out,
        "trained the net on {} games' contact positions, {} generations at {} plies (seed {}) \
         in {:.1} s; weights in {}",
        args.games,
        args.generations,
        args.plies,
        args.seed,
        begun.elapsed().as_secs_f64(),
        args.out.display()
    )
}

/// What a duel found, from the first player's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DuelResult {
    pub games: u64,
    pub points: i64,
    pub wins: u64,
    pub gammons: u64,
    pub backgammons: u64,
    /// Points per game and the half-width of its 95% interval.
    pub ppg: f64,
    pub interval: f64,
    /// The pairs played, and the sum and the sum of squares of their mean points: what
    /// pools the pairs of several runs into one mean and interval.
    pub pairs: u64,
    pub pair_sum: f64,
    pub pair_sum_sq: f64,
}

impl DuelResult {
    fn add_pair(&mut self, mean: f64) {
        self.pairs += 1;
        self.pair_sum += mean;
        self.pair_sum_sq += mean * mean;
        let n = self.pairs as f64;
        self.ppg = self.pair_sum / n;
        let variance = if self.pairs > 1 {
            (self.pair_sum_sq - self.pair_sum * self.pair_sum / n) / (n - 1.0)
        } else {
            0.0
        };
        self.interval = 1.96 * (variance.max(0.0) / n).sqrt();
    }
}

/// Plays `games` (rounded up to even) cubeless money games between two players, each dice
/// sequence twice with the colours swapped. The interval is over the pairs, which share
/// their dice.
pub fn duel(first: &mut Player, second: &mut Player, games: u64, seed: u64) -> DuelResult {
    duel_with_progress(first, second, games, seed, 0, &mut |_| {})
}

/// [`duel`], calling `progress` with the result so far after every `every` pairs (never
/// when `every` is 0).
pub fn duel_with_progress(
    first: &mut Player,
    second: &mut Player,
    games: u64,
    seed: u64,
    every: u64,
    progress: &mut dyn FnMut(&DuelResult),
) -> DuelResult {
    let mut result = DuelResult::default();
    for pair in 0..games.div_ceil(2) {
        let pair_seed = seed
            .wrapping_mul(crate::seed::GOLDEN_GAMMA)
            .wrapping_add(pair.wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut pair_points = 0i64;
        for swap in [false, true] {
            let mut roller = Roller::new(pair_seed);
            let (first_side, points, kind) = if swap {
                let (winner, kind) = play_game(second, first, &mut roller);
                (Side::Black, winner, kind)
            } else {
                let (winner, kind) = play_game(first, second, &mut roller);
                (Side::White, winner, kind)
            };
            let value = kind.points() as i64;
            let signed = if points == first_side { value } else { -value };
            if signed > 0 {
                result.wins += 1;
            }
            match kind {
                WinKind::Gammon => result.gammons += 1,
                WinKind::Backgammon => result.backgammons += 1,
                WinKind::Single => {}
            }
            pair_points += signed;
            result.games += 1;
            result.points += signed;
        }
        result.add_pair(pair_points as f64 / 2.0);
        if every > 0 && result.pairs % every == 0 {
            progress(&result);
        }
    }
    result
}

/// One game, `white` against `black`, dice from `roller`: the winner and how.
pub fn play_game(white: &mut Player, black: &mut Player, roller: &mut Roller) -> (Side, WinKind) {
    let (mut board, mut side, mut dice) = train::first_turn(roller);
    loop {
        let player = if side == Side::White {
            &mut *white
        } else {
            &mut *black
        };
        let play = player.choose_play(&board, side, dice);
        for step in play.steps() {
            board.step(side, usize::from(step.from), usize::from(step.to));
        }
        if board.on_board(side) == 0 {
            return (side, WinKind::of(&board, side));
        }
        side = side.other();
        dice = roller.roll();
    }
}

fn player_for(
    level: Level,
    weights: &Option<PathBuf>,
    race: Option<&'static RaceNet>,
) -> io::Result<Player> {
    let net = match weights {
        Some(path) => Box::leak(Box::new(load(path)?)),
        None => Net::builtin(),
    };
    Ok(Player::with_nets(level, net, race))
}

/// The race net a player uses: none where `off`, else the one `weights` names or the
/// built-in one.
fn race_for(weights: &Option<PathBuf>, off: bool) -> io::Result<Option<&'static RaceNet>> {
    if off {
        return Ok(None);
    }
    Ok(Some(match weights {
        Some(path) => Box::leak(Box::new(load_with(path, RaceNet::from_bytes)?)),
        None => RaceNet::builtin(),
    }))
}

pub fn run_duel(args: &DuelArgs, out: &mut impl Write) -> io::Result<()> {
    let race_first = race_for(&args.race_weights_first, args.no_race_first)?;
    let race_second = race_for(&args.race_weights_second, args.no_race_second)?;
    let mut first = player_for(args.first, &args.weights_first, race_first)?;
    let mut second = player_for(args.second, &args.weights_second, race_second)?;
    let begun = Instant::now();
    let total = args.games.div_ceil(2) * 2;
    let mut report = |r: &DuelResult| {
        eprintln!(
            "{} vs {}: {} of {} games (seed {}), {:+.3} ppg ± {:.3} (95%); pairs {} sum {} sum_sq {}",
            args.first,
            args.second,
            r.games,
            total,
            args.seed,
            r.ppg,
            r.interval,
            r.pairs,
            r.pair_sum,
            r.pair_sum_sq
        );
    };
    let r = duel_with_progress(
        &mut first,
        &mut second,
        args.games,
        args.seed,
        args.progress,
        &mut report,
    );
    writeln!(
        out,
        "{} vs {}: {} games (seed {}), {:+.3} ppg ± {:.3} (95%), {} wins ({:.1}%), {} gammons, {} backgammons, {:.1} s",
        args.first,
        args.second,
        r.games,
        args.seed,
        r.ppg,
        r.interval,
        r.wins,
        100.0 * r.wins as f64 / r.games as f64,
        r.gammons,
        r.backgammons,
        begun.elapsed().as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mirrored_duel_of_equals_is_even() {
        let mut a = Player::new(Level::Pubeval);
        let mut b = Player::new(Level::Pubeval);
        let r = duel(&mut a, &mut b, 20, 3);
        assert_eq!(r.games, 20);
        assert_eq!(r.points, 0);
        assert_eq!(r.interval, 0.0);
    }

    #[test]
    fn duel_is_reproducible() {
        let run = || {
            let mut a = Player::new(Level::Net);
            let mut b = Player::new(Level::Greedy);
            duel(&mut a, &mut b, 10, 5)
        };
        assert_eq!(run(), run());
    }

    #[test]
    fn duel_reports_progress_that_ends_at_its_result() {
        let mut a = Player::new(Level::Pubeval);
        let mut b = Player::new(Level::Greedy);
        let mut seen = Vec::new();
        let r = duel_with_progress(&mut a, &mut b, 12, 4, 2, &mut |p| seen.push(p.clone()));
        // 6 pairs, a report after every second one: the last report is the result.
        assert_eq!(seen.iter().map(|p| p.pairs).collect::<Vec<_>>(), [2, 4, 6]);
        assert_eq!(seen.last(), Some(&r));
        assert_eq!(r.pairs, 6);
        assert_eq!(r.pair_sum, r.points as f64 / 2.0);
        let mut c = Player::new(Level::Pubeval);
        let mut d = Player::new(Level::Greedy);
        assert_eq!(duel(&mut c, &mut d, 12, 4), r);
    }
}
