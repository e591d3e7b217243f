//! The teacher's labelled games (`../shared/go-teacher/labels/*.jsonl.gz`: gzip'd JSON
//! lines, one game a line, every position judged by the teacher net) read into training
//! examples.
//!
//! Each game is replayed through our own rules (Chinese), so the input planes are our own
//! board's. A malformed line is skipped, counted and reported by file and line; a move our
//! rules refuse stops that game's positions at the move before it (counted too). Whole games
//! are held out for measurement: line `n` of a file is held out when
//! `derive_seed(hold_out_seed, n) % 1000 < hold_out_permille`, a rule that does not depend
//! on the training seed, so runs with different seeds are judged on the same games.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use flate2::read::MultiGzDecoder;
use serde::Deserialize;

use super::backprop::Target;
use super::features::{SYMMETRIES, Snapshot, index_of, transform};
use crate::files;
use crate::go::game::Game;
use crate::go::notation::MoveVertex;
use crate::go::rules::RuleSet;
use crate::seed::derive_seed;

/// The largest labels file read (compressed).
pub const MAX_FILE_BYTES: u64 = 4 << 30;
/// The longest line (one game) read, decompressed: a 19×19 game of 1083 moves with full
/// labels is about 1 MB.
const MAX_LINE_BYTES: usize = 16 << 20;
/// How many malformed lines are quoted in the report (all are counted).
const QUOTED_PROBLEMS: usize = 10;
/// The ownership characters: index k stands for k / 30.5 − 1 (White's view).
const OWN_CHARS: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub snapshot: Snapshot,
    /// The teacher's move probabilities (point index, or `area` for pass), summing to 1.
    pub policy: Vec<(u16, f32)>,
    /// The teacher's win probability for the side to move.
    pub value: f32,
    /// The teacher's ownership, White's view, as `OWN_CHARS` indices (empty if none).
    pub white_own: Vec<u8>,
}

impl Example {
    /// The training target under symmetry `sym`.
    pub fn target(&self, sym: usize) -> Target {
        let area = self.snapshot.area();
        let size = usize::from(self.snapshot.size);
        let mut policy = vec![0.0; area + 1];
        for &(at, p) in &self.policy {
            let at = usize::from(at);
            let to = if at == area {
                area
            } else {
                transform(at, size, sym)
            };
            policy[to] = p;
        }
        let white = self.snapshot.to_move == crate::go::color::Color::White;
        let ownership = (!self.white_own.is_empty()).then(|| {
            let mut own = vec![0.0; area];
            for (i, &k) in self.white_own.iter().enumerate() {
                let v = f32::from(k) / 30.5 - 1.0;
                own[transform(i, size, sym)] = if white { v } else { -v };
            }
            own
        });
        Target {
            policy,
            value: self.value,
            ownership,
        }
    }
}

/// How games are held out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldOut {
    pub seed: u64,
    /// Games held out a thousand.
    pub permille: u64,
}

impl HoldOut {
    pub fn holds(self, line: usize) -> bool {
        derive_seed(self.seed, line as u64) % 1000 < self.permille
    }
}

/// What was read, what was skipped and why.
#[derive(Clone, Debug, Default)]
pub struct ReadReport {
    pub games: usize,
    pub held_out_games: usize,
    pub positions: usize,
    pub malformed: usize,
    /// Games cut short at a move our rules refuse.
    pub illegal: usize,
    /// The first problems, `file:line: what`.
    pub problems: Vec<String>,
}

impl fmt::Display for ReadReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} games ({} held out), {} positions; {} malformed lines skipped, {} games cut at an \
             illegal move",
            self.games, self.held_out_games, self.positions, self.malformed, self.illegal
        )?;
        for problem in &self.problems {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

/// Training and held-out examples.
#[derive(Clone, Debug, Default)]
pub struct Examples {
    pub train: Vec<Example>,
    pub held_out: Vec<Example>,
}

#[derive(Deserialize)]
struct GameLine {
    size: usize,
    komi: f32,
    moves: Vec<String>,
    labels: Vec<LabelLine>,
}

#[derive(Deserialize)]
struct LabelLine {
    white_win: f32,
    policy: BTreeMap<String, f32>,
    #[serde(default)]
    white_own: Option<String>,
}

/// Reads the first `max_games` games (all if `None`) of a labels file into `examples`.
pub fn read_labels(
    path: &Path,
    max_games: Option<usize>,
    hold_out: HoldOut,
    examples: &mut Examples,
    report: &mut ReadReport,
) -> Result<(), String> {
    let (file, _) = files::open_regular(path, MAX_FILE_BYTES).map_err(|e| e.to_string())?;
    let mut reader = BufReader::new(MultiGzDecoder::new(file));
    let mut line = Vec::new();
    let mut number = 0;
    let first_game = report.games;
    while max_games.is_none_or(|max| report.games - first_game < max) {
        number += 1;
        line.clear();
        let read =
            read_line(&mut reader, &mut line).map_err(|e| format!("{}: {e}", path.display()))?;
        let Some(complete) = read else { break };
        let mut problem = |what: String| {
            report.malformed += 1;
            if report.problems.len() < QUOTED_PROBLEMS {
                report
                    .problems
                    .push(format!("{}:{number}: {what}", path.display()));
            }
        };
        if !complete {
            problem(format!("longer than {MAX_LINE_BYTES} bytes"));
            continue;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let game: GameLine = match serde_json::from_slice(&line) {
            Ok(game) => game,
            Err(e) => {
                problem(format!("not a game's JSON ({e})"));
                continue;
            }
        };
        let held = hold_out.holds(number);
        let into = if held {
            &mut examples.held_out
        } else {
            &mut examples.train
        };
        let before = into.len();
        match replay(&game, into) {
            Ok(cut) => {
                report.games += 1;
                report.held_out_games += usize::from(held);
                report.positions += into.len() - before;
                if let Some(refused) = cut {
                    report.illegal += 1;
                    if report.problems.len() < QUOTED_PROBLEMS {
                        report
                            .problems
                            .push(format!("{}:{number}: {refused}", path.display()));
                    }
                }
            }
            Err(what) => {
                into.truncate(before);
                problem(what);
            }
        }
    }
    Ok(())
}

/// One line into `line` (without its newline), at most [`MAX_LINE_BYTES`]: `Some(true)`
/// for a whole line, `Some(false)` for a line too long (its rest skipped), `None` at the end.
fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    let read = reader
        .by_ref()
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Ok(Some(true));
    }
    if line.len() <= MAX_LINE_BYTES {
        return Ok(Some(true)); // the last line, without a newline
    }
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let n = reader.by_ref().take(1 << 20).read_until(b'\n', &mut rest)?;
        if n == 0 || rest.last() == Some(&b'\n') {
            return Ok(Some(false));
        }
    }
}

/// Replays one game, adding an example a labelled position; `Ok(Some(why))` when a refused
/// move cut it short, `Err` for a line that says something impossible.
fn replay(game: &GameLine, into: &mut Vec<Example>) -> Result<Option<String>, String> {
    let size = game.size;
    if !(5..=19).contains(&size) {
        return Err(format!("board size {size} (5 to 19 are read)"));
    }
    if game.labels.len() != game.moves.len() {
        return Err(format!(
            "{} labels for {} moves",
            game.labels.len(),
            game.moves.len()
        ));
    }
    if !game.komi.is_finite() || game.komi.abs() > 150.0 {
        return Err(format!("komi {}", game.komi));
    }
    let mut board = Game::new(size, RuleSet::Chinese.rules()).map_err(|e| e.to_string())?;
    board.set_komi(game.komi);
    for (i, (text, label)) in game.moves.iter().zip(&game.labels).enumerate() {
        let mv = MoveVertex::parse_on(text, size)
            .map_err(|e| format!("move {}: {e} '{text}'", i + 1))?;
        into.push(example(&board, label, size).map_err(|e| format!("label {}: {e}", i + 1))?);
        let color = board.to_move();
        if let Err(refused) = board.play(color, mv) {
            // The position before the refused move stays: its label is still the teacher's.
            return Ok(Some(format!(
                "move {} {text} refused ({refused}): game cut there",
                i + 1
            )));
        }
    }
    Ok(None)
}

fn example(game: &Game, label: &LabelLine, size: usize) -> Result<Example, String> {
    let area = size * size;
    let snapshot = Snapshot::of_game(game);
    let mut policy = Vec::with_capacity(label.policy.len());
    for (text, &p) in &label.policy {
        let at = match MoveVertex::parse_on(text, size).map_err(|e| format!("{e} '{text}'"))? {
            MoveVertex::Pass => area as u16,
            MoveVertex::Play(v) => index_of(v, size),
        };
        if !(p.is_finite() && p >= 0.0) {
            return Err(format!("probability {p}"));
        }
        policy.push((at, p));
    }
    let sum: f32 = policy.iter().map(|(_, p)| p).sum();
    if sum <= 0.0 {
        return Err("an empty policy".into());
    }
    for (_, p) in &mut policy {
        *p /= sum;
    }
    if !(0.0..=1.0).contains(&label.white_win) {
        return Err(format!("white_win {}", label.white_win));
    }
    let black = snapshot.to_move == crate::go::color::Color::Black;
    let value = if black {
        1.0 - label.white_win
    } else {
        label.white_win
    };
    let white_own = match &label.white_own {
        None => Vec::new(),
        Some(text) => {
            let own: Option<Vec<u8>> = text
                .bytes()
                .map(|c| OWN_CHARS.iter().position(|&o| o == c).map(|k| k as u8))
                .collect();
            match own {
                Some(own) if own.len() == area => rows_from_top(&own, size),
                _ => return Err("white_own is not one ownership character a point".into()),
            }
        }
    };
    Ok(Example {
        snapshot,
        policy,
        value,
        white_own,
    })
}

/// The file gives ownership from the top row down; ours is row 0 (the bottom) first.
fn rows_from_top(own: &[u8], size: usize) -> Vec<u8> {
    own.chunks_exact(size).rev().flatten().copied().collect()
}

/// The symmetry of example `index` in its `epoch` (seeded, one of [`SYMMETRIES`]).
pub fn symmetry(seed: u64, epoch: u64, index: usize) -> usize {
    (derive_seed(derive_seed(seed, epoch), index as u64) % SYMMETRIES as u64) as usize
}
