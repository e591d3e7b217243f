//! The `hamle go` command line: the GTP engine's settings, the trainer of the learned
//! move prior (`hamle go learn-patterns`) and the network's (`hamle go train-net`).

use std::io;
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::engine::{self, GoEngine, Settings};
use super::net;
use super::player;
use super::rules::RuleSet;
use crate::protocol;
use crate::text::shorten;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct GoArgs {
    #[command(subcommand)]
    pub tool: Option<GoTool>,
    /// Rule set: japanese, chinese, tromp-taylor, aga or new-zealand.
    #[arg(long, default_value = "japanese")]
    pub rules: RuleSet,
    /// Seed of every random choice: the same seed and budget give the same moves.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Playouts per move (a fixed budget, for reproducible matches); 0 leaves it to the clock.
    #[arg(long, default_value_t = engine::DEFAULT_PLAYOUTS)]
    pub playouts: u64,
    /// Search threads, 1 to 1024.
    #[arg(long, default_value_t = 1, value_parser = thread_count, allow_negative_numbers = true)]
    pub threads: usize,
    /// Seconds per move when no game clock is set (above 0, at most 86400); with
    /// --playouts, the first reached ends the search (--playouts 0 leaves it to time alone).
    #[arg(long, value_parser = seconds_per_move, allow_negative_numbers = true)]
    pub time_per_move: Option<f64>,
    /// GoGui live graphics on stderr during genmove (also `hamle-live_gfx on`).
    #[arg(long)]
    pub live_gfx: bool,
    /// Keep the search tree between moves: `on` (default) or `off`, to compare in ladders.
    #[arg(long, default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub reuse: bool,
    /// How a move spends --playouts: `adaptive` (default) ends the search once no playout
    /// left can change the move (on one thread at a fixed --playouts, the moves of the whole
    /// budget in less time); `fixed` spends the budget exactly on every move.
    #[arg(long = "budget", value_name = "KIND", default_value = "adaptive", value_parser = budget_kind, action = clap::ArgAction::Set)]
    pub adaptive_budget: bool,
    /// Think on the opponent's time after genmove, until the next command (also
    /// `hamle-ponder on|off`); moves then depend on timing.
    #[arg(long)]
    pub ponder: bool,
    /// Dynamic komi in handicap games: `on` (default) searches with a komi that makes
    /// the position about even while the game is young; `off` always with the real komi.
    #[arg(long, default_value = "on", value_parser = on_off, action = clap::ArgAction::Set)]
    pub dynkomi: bool,
    /// Virtual visits of the learned move prior (gammas fitted by `learn-patterns`) that
    /// each new tree child gets, its strength over its best sibling's as wins; 0 leaves it
    /// off. The default is the value measured best for the board: 20 on boards of 12 to 15
    /// lines, 4 on the others.
    #[arg(long, value_parser = learned_prior_visits, allow_negative_numbers = true)]
    pub learned_prior: Option<f32>,
    /// The network whose policy is the prior of new tree moves: `off` (the default: the
    /// classical engine), `builtin`, or a weights file written by `train-net`.
    #[arg(long, default_value = "off", value_parser = net_choice)]
    pub net: NetChoice,
    /// Virtual visits of the net's policy prior that each new tree child gets, its
    /// probability over the likeliest move's as wins (with --net).
    #[arg(long, default_value_t = player::DEFAULT_NET_PRIOR_VISITS, value_parser = net_visits)]
    pub net_prior_visits: f32,
    /// Virtual visits of the net's value that a tree node gets when it is expanded, the
    /// net's win probability for the player who moved into it as wins (with --net; 0
    /// leaves the value out).
    #[arg(long, default_value_t = player::DEFAULT_NET_VALUE_VISITS, value_parser = net_visits)]
    pub net_value_visits: f32,
    /// The weight λ of the net's value beside the playouts' results in the tree's means,
    /// (1 − λ)·playouts + λ·value, from 0 to 1 (with --net; 0, the default, the playouts
    /// alone).
    #[arg(long, default_value_t = player::DEFAULT_NET_VALUE_WEIGHT, value_parser = unit_weight)]
    pub net_value_weight: f32,
    /// Real visits a tree node needs before the net judges it (with --net): until then
    /// its children have the classical priors alone. At most 4 (0 included): every node
    /// is judged when it is expanded; `root`: the root alone (always judged). The
    /// default is what measured best for the board: `root` on boards of 12 lines or
    /// more, 0 on the others.
    #[arg(long, value_parser = net_min_visits, allow_negative_numbers = true)]
    pub net_min_visits: Option<u32>,
    /// The learned prior's weights file (from `learn-patterns`) instead of the built-in
    /// ones (learned on 13×13 for boards of 12 to 15 lines, on 9×9 for the others).
    #[arg(long)]
    pub gammas: Option<PathBuf>,
}

/// The Go tools beside the engine.
#[derive(Subcommand, Debug)]
pub enum GoTool {
    /// Fit the learned move prior's gammas (Coulom's minorization-maximization) to SGF
    /// game records and write them as a weights file for `--gammas`.
    LearnPatterns(LearnArgs),
    /// Train the Go network on positions the teacher net labelled (`.jsonl.gz` files, one
    /// game a line) and write its weights; resumable from its checkpoint.
    TrainNet(TrainNetArgs),
}

#[derive(Args, Debug)]
pub struct TrainNetArgs {
    /// Labelled games: gzip'd JSON lines (../shared/go-teacher/labels/teacher-*.jsonl.gz).
    #[arg(required = true)]
    pub labels: Vec<PathBuf>,
    /// The weights file to write (at every epoch's end and at the end).
    #[arg(long)]
    pub out: PathBuf,
    /// The checkpoint to write (default: the weights file's name with `.ckpt` added).
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Continue the run a checkpoint holds (same settings and data).
    #[arg(long, value_name = "CHECKPOINT")]
    pub resume: Option<PathBuf>,
    /// Residual blocks of the tower (0 to 64).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=64))]
    pub blocks: u32,
    /// Channels of the tower (1 to 512).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=512))]
    pub channels: u32,
    /// Hidden units of the value head (1 to 1024).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub value_hidden: u32,
    /// Seed of the initial weights, the order of positions and their symmetries.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Positions a step (1 to 4096).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub batch: u32,
    /// Adam's learning rate.
    #[arg(long, default_value_t = 0.001, value_parser = positive_rate)]
    pub lr: f32,
    /// Decoupled weight decay (AdamW), a step's share of the learning rate.
    #[arg(long, default_value_t = 0.0001, value_parser = decay_rate)]
    pub weight_decay: f32,
    /// Epochs in all (a resumed run counts those done before).
    #[arg(long, default_value_t = 1)]
    pub epochs: u64,
    /// Stop after this many steps in all (a resumed run counts those done before).
    #[arg(long)]
    pub max_steps: Option<u64>,
    /// A checkpoint every this many steps.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every: u64,
    /// A progress line every this many steps (0: none).
    #[arg(long, default_value_t = 100)]
    pub report_every: u64,
    /// Read only the first games of each file.
    #[arg(long, value_name = "GAMES")]
    pub max_games: Option<usize>,
    /// Games held out for measurement, a thousand (by a seeded rule on each file's line).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub hold_out_permille: u64,
    /// The seed of the hold-out rule (kept apart from --seed so that runs share held-out games).
    #[arg(long, default_value_t = 0)]
    pub hold_out_seed: u64,
}

#[derive(Args, Debug)]
pub struct LearnArgs {
    /// SGF records: files, or folders searched for `.sgf` files (in name order).
    #[arg(required = true)]
    pub records: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Moves at the start of each record not learned from (a random opening).
    #[arg(long, default_value_t = 0)]
    pub skip_moves: usize,
    /// Minorization-maximization sweeps over all feature groups (1 to 1000).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub sweeps: u32,
    /// Virtual wins and losses against gamma 1 per feature (above 0, at most 1000): keeps
    /// rare features near 1.
    #[arg(long, default_value_t = 1.0, value_parser = prior_strength)]
    pub prior: f64,
    /// Also learn large patterns (distances 4 to 8 around the move): those played at least
    /// this many times in the records (0: none).
    #[arg(long, default_value_t = 0, value_name = "TIMES")]
    pub spatial_min: usize,
    /// Records (files or folders) kept out of the fit: the fitted gammas are judged on how
    /// well they predict these records' moves. May be given more than once.
    #[arg(long, value_name = "RECORDS")]
    pub held_out: Vec<PathBuf>,
}

/// `--prior`: above 0 and at most 1000.
fn prior_strength(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|&prior| prior > 0.0 && prior <= 1000.0)
        .ok_or_else(|| {
            format!(
                "expected a number above 0 and at most 1000, got '{}'",
                shorten(text)
            )
        })
}

/// `--learned-prior`: 0 to [`player::MAX_LEARNED_PRIOR`] virtual visits.
fn learned_prior_visits(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|&visits| (0.0..=player::MAX_LEARNED_PRIOR).contains(&visits))
        .ok_or_else(|| {
            format!(
                "expected virtual visits from 0 to {}, got '{}'",
                player::MAX_LEARNED_PRIOR,
                shorten(text)
            )
        })
}

/// `--net-prior-visits`, `--net-value-visits`: virtual visits from 0 to
/// [`player::MAX_NET_VISITS`].
fn net_visits(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|&visits| (0.0..=player::MAX_NET_VISITS).contains(&visits))
        .ok_or_else(|| {
            format!(
                "expected virtual visits from 0 to {}, got '{}'",
                player::MAX_NET_VISITS,
                shorten(text)
            )
        })
}

/// `--net-min-visits`: a whole number of visits from 0 to [`player::MAX_NET_MIN_VISITS`],
/// or `root` ([`player::NET_ROOT_ONLY`]).
fn net_min_visits(text: &str) -> Result<u32, String> {
    if text.trim() == "root" {
        return Ok(player::NET_ROOT_ONLY);
    }
    text.trim()
        .parse::<u32>()
        .ok()
        .filter(|&visits| visits <= player::MAX_NET_MIN_VISITS)
        .ok_or_else(|| {
            format!(
                "expected a whole number of visits from 0 to {}, or 'root', got '{}'",
                player::MAX_NET_MIN_VISITS,
                shorten(text)
            )
        })
}

/// `--net-value-weight`: a number from 0 to 1.
fn unit_weight(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|weight| (0.0..=1.0).contains(weight))
        .ok_or_else(|| format!("expected a weight from 0 to 1, got '{}'", shorten(text)))
}

/// Runs `hamle go learn-patterns`: prints what it learned from and how well it fits.
fn learn(args: LearnArgs) -> io::Result<()> {
    let settings = player::LearnSettings {
        records: args.records,
        out: args.out,
        skip_moves: args.skip_moves,
        sweeps: args.sweeps as usize,
        prior: args.prior,
        spatial_min: args.spatial_min,
        held_out: args.held_out,
    };
    let report = player::learn_patterns(&settings).map_err(io::Error::other)?;
    println!(
        "learned from {} records: {} positions, {} candidate moves, {} shapes, {} large patterns; \
         log-likelihood {:.4} (uniform {:.4}); strongest move played in {:.1}%; wrote {}",
        report.records,
        report.positions,
        report.candidates,
        report.shapes,
        report.spatial_patterns,
        report.fitted_log_likelihood,
        report.uniform_log_likelihood,
        100.0 * report.top_move_share,
        settings.out.display()
    );
    if let Some(held_out) = report.held_out {
        println!(
            "held out: {} positions; log-likelihood {:.4}; strongest move played in {:.1}%",
            held_out.positions,
            held_out.log_likelihood,
            100.0 * held_out.top_move_share
        );
    }
    Ok(())
}

/// `--net`: the net chosen, loaded while the command line is read (a bad file is a usage
/// error: exit 2, nothing played).
#[derive(Clone, Debug)]
pub struct NetChoice(Option<Box<net::Net>>);

fn net_choice(text: &str) -> Result<NetChoice, String> {
    net::parse_choice(text).map(|net| NetChoice(net.map(Box::new)))
}

/// `--lr`: above 0 and at most 1.
fn positive_rate(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|&r| r > 0.0 && r <= 1.0)
        .ok_or_else(|| {
            format!(
                "expected a rate above 0 and at most 1, got '{}'",
                shorten(text)
            )
        })
}

/// `--weight-decay`: 0 to 1.
fn decay_rate(text: &str) -> Result<f32, String> {
    text.trim()
        .parse::<f32>()
        .ok()
        .filter(|&r| (0.0..=1.0).contains(&r))
        .ok_or_else(|| format!("expected a rate from 0 to 1, got '{}'", shorten(text)))
}

/// Runs `hamle go train-net`: reads the labels, trains, prints the losses.
fn train_net(args: TrainNetArgs) -> io::Result<()> {
    let hold_out = net::data::HoldOut {
        seed: args.hold_out_seed,
        permille: args.hold_out_permille,
    };
    let mut examples = net::data::Examples::default();
    let mut report = net::data::ReadReport::default();
    for path in &args.labels {
        net::data::read_labels(path, args.max_games, hold_out, &mut examples, &mut report)
            .map_err(io::Error::other)?;
    }
    println!("read {report}");
    let names: Vec<String> = args
        .labels
        .iter()
        .map(|p| {
            p.file_name()
                .unwrap_or(p.as_os_str())
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let checkpoint = args.checkpoint.unwrap_or_else(|| {
        let mut name = args.out.as_os_str().to_owned();
        name.push(".ckpt");
        PathBuf::from(name)
    });
    let settings = net::train::TrainSettings {
        shape: net::Shape {
            blocks: args.blocks as usize,
            channels: args.channels as usize,
            value_hidden: args.value_hidden as usize,
        },
        seed: args.seed,
        batch: args.batch as usize,
        learning_rate: args.lr,
        weight_decay: args.weight_decay,
        epochs: args.epochs,
        max_steps: args.max_steps,
        out: args.out,
        checkpoint,
        checkpoint_every: args.checkpoint_every,
        resume: args.resume,
        report_every: args.report_every,
        data_key: format!("{names:?} {:?} {hold_out:?}", args.max_games),
    };
    net::train::train(&examples, &settings, true).map_err(io::Error::other)?;
    Ok(())
}

/// `on` or `off`, for switches that default to on.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("expected on or off, got '{text}'")),
    }
}

/// `--budget`: true for `adaptive`, false for `fixed`.
fn budget_kind(text: &str) -> Result<bool, String> {
    match text {
        "adaptive" => Ok(true),
        "fixed" => Ok(false),
        _ => Err(format!(
            "expected adaptive or fixed, got '{}'",
            shorten(text)
        )),
    }
}

/// The most search threads: more only costs memory (each thread keeps a tree).
pub const MAX_THREADS: usize = 1024;

/// `--threads`: a whole number from 1 to [`MAX_THREADS`].
fn thread_count(text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|threads| (1..=MAX_THREADS).contains(threads))
        .ok_or_else(|| {
            format!(
                "expected a number of threads from 1 to {MAX_THREADS}, got '{}'",
                shorten(text)
            )
        })
}

/// `--time-per-move`: seconds above 0 and at most [`engine::MAX_SECONDS_PER_MOVE`] (a day);
/// NaN, infinities and negative numbers are refused here rather than met by the clock.
fn seconds_per_move(text: &str) -> Result<f64, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|&seconds| seconds > 0.0 && seconds <= engine::MAX_SECONDS_PER_MOVE)
        .ok_or_else(|| {
            format!(
                "expected seconds above 0 and at most {} (a day), got '{}'",
                engine::MAX_SECONDS_PER_MOVE,
                shorten(text)
            )
        })
}

/// Serves the Go engine on stdin/stdout until `quit` or the end of input.
pub fn run(args: GoArgs) -> io::Result<()> {
    match args.tool {
        Some(GoTool::LearnPatterns(learn_args)) => return learn(learn_args),
        Some(GoTool::TrainNet(train_args)) => return train_net(train_args),
        None => {}
    }
    player::set_learned_prior(args.learned_prior, args.gammas.as_deref())
        .map_err(io::Error::other)?;
    let settings = Settings {
        rules: args.rules,
        seed: args.seed,
        playouts: args.playouts,
        threads: args.threads,
        time_per_move: args.time_per_move,
        live_gfx: args.live_gfx,
        reuse: args.reuse,
        adaptive_budget: args.adaptive_budget,
        ponder: args.ponder,
        dynamic_komi: args.dynkomi,
        net: args.net.0.map(|net| player::NetSearch {
            prior_visits: args.net_prior_visits,
            value_visits: args.net_value_visits,
            value_weight: args.net_value_weight,
            min_visits: args.net_min_visits,
            ..player::NetSearch::new(*net)
        }),
        ..Settings::default()
    };
    let mut engine = GoEngine::new(settings);
    protocol::serve_stdio(&mut engine)
}
