//! `hamle go learn-patterns`: fits the gammas of the move features (`features.rs`) to the
//! moves of game records by minorization–maximization (`mm.rs`) and writes a weights file
//! (`gammas.rs`).
//!
//! Each recorded move (after the first `skip_moves`, which may be a random opening) is a
//! competition: the move played against every move the tree would consider there (legal,
//! not suicide, not filling an own eye). Passes and moves the tree would not consider are
//! left out. No randomness: the same records in the same order give the same file.
//!
//! Large patterns (`spatial.rs`) are learned when asked for: a first pass over the records
//! counts the patterns of the moves played, every size, and those played at least
//! `spatial_min` times become features; each candidate then has the largest of them it
//! matches, if any.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use crate::go::board::{Board, Point};
use crate::go::color::Color;
use crate::go::notation::MoveVertex;
use crate::go::sgf::{self, Event, GoRecord};

use super::features::{GROUPS, Group, MoveFeatures, move_features};
use super::gammas::Gammas;
use super::mm::{self, Competitions, Fit, NO_FEATURE};
use super::spatial::{SpatialMap, spatial_hashes};

/// What the trainer is asked to do.
#[derive(Clone, Debug)]
pub struct LearnSettings {
    /// SGF files, and folders whose `.sgf` files (at any depth) are read in name order.
    pub records: Vec<PathBuf>,
    /// Where the weights file goes.
    pub out: PathBuf,
    /// Moves at the start of every record that are not learned from.
    pub skip_moves: usize,
    /// MM sweeps over all feature groups.
    pub sweeps: usize,
    /// Virtual wins and losses against gamma 1, per feature.
    pub prior: f64,
    /// Large patterns played at least this often in the records are learned (0: none).
    pub spatial_min: usize,
    /// Records kept out of the fit, on which the fitted gammas are judged (none: no check).
    pub held_out: Vec<PathBuf>,
}

/// What the trainer learned from, and how well the fit predicts the moves played.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnReport {
    pub records: usize,
    pub positions: usize,
    pub candidates: usize,
    /// Distinct 3×3 shapes seen.
    pub shapes: usize,
    /// Large patterns learned.
    pub spatial_patterns: usize,
    /// Mean log-likelihood of the moves played: all gammas 1, then the fit.
    pub uniform_log_likelihood: f64,
    pub fitted_log_likelihood: f64,
    /// Share of positions whose played move is the fit's strongest.
    pub top_move_share: f64,
    /// The same on the held-out records, when some were given.
    pub held_out: Option<Prediction>,
}

/// How well gammas predict the moves of records they were not fitted to.
#[derive(Clone, Debug, PartialEq)]
pub struct Prediction {
    pub positions: usize,
    /// Mean log-likelihood of the moves played.
    pub log_likelihood: f64,
    /// Share of positions whose played move is the strongest.
    pub top_move_share: f64,
}

/// The most records read: far more than a fit on one core has time for.
const MAX_RECORDS: usize = 100_000;
/// How deep folders are searched for records.
const MAX_DEPTH: usize = 8;

/// Reads the records, fits the gammas and writes them to `settings.out`. Errors name the
/// file and what is wrong with it.
pub fn learn_patterns(settings: &LearnSettings) -> Result<LearnReport, String> {
    let records = read_records(&settings.records)?;
    let held_out = if settings.held_out.is_empty() {
        Vec::new()
    } else {
        read_records(&settings.held_out)?
    };
    let mut data = TrainingData::default();
    if settings.spatial_min > 0 {
        let counts = count_played_patterns(&records, settings.skip_moves)?;
        data.keep_spatial(&counts, settings.spatial_min);
    }
    for (file, record) in &records {
        replay(
            record,
            settings.skip_moves,
            |board, color, p, last, before_last| {
                data.add_position(board, color, p, last, before_last);
            },
        )
        .map_err(|problem| format!("{}: {problem}", file.display()))?;
    }
    let (groups, features) = data.groups();
    let fit = Fit {
        sweeps: settings.sweeps,
        prior: settings.prior,
    };
    let fitted = mm::fit(&data.competitions, &groups, features, fit);
    let gammas = data.gammas(&fitted);
    let held_out = if held_out.is_empty() {
        None
    } else {
        Some(predict(&gammas, &held_out, settings.skip_moves)?)
    };
    let report = LearnReport {
        records: records.len(),
        positions: data.competitions.positions(),
        candidates: data.competitions.candidates(),
        shapes: data.shapes.len(),
        spatial_patterns: data.spatial.len(),
        uniform_log_likelihood: mm::log_likelihood(&data.competitions, &vec![1.0; features]),
        fitted_log_likelihood: mm::log_likelihood(&data.competitions, &fitted),
        top_move_share: mm::top_share(&data.competitions, &fitted),
        held_out,
    };
    let comment = weights_comment(settings, &report);
    crate::files::write_atomic(&settings.out, gammas.to_text(&comment).as_bytes()).map_err(
        |error| {
            format!(
                "{}: cannot write the weights: {}",
                settings.out.display(),
                error.problem
            )
        },
    )?;
    Ok(report)
}

/// The comment lines of a weights file: how it was learned, and how well it fits.
fn weights_comment(settings: &LearnSettings, report: &LearnReport) -> String {
    format!(
        "learned by `hamle go learn-patterns` ({} sweeps, prior {}, first {} moves skipped, {})\n\
         from {} records: {} positions, {} candidate moves, {} shapes, {} large patterns;\n\
         mean log-likelihood of the moves played {:.4} (all gammas 1: {:.4}); \
         the strongest move was played in {:.1}% of positions",
        settings.sweeps,
        settings.prior,
        settings.skip_moves,
        if settings.spatial_min == 0 {
            "no large patterns".to_string()
        } else {
            format!("large patterns played {}+ times", settings.spatial_min)
        },
        report.records,
        report.positions,
        report.candidates,
        report.shapes,
        report.spatial_patterns,
        report.fitted_log_likelihood,
        report.uniform_log_likelihood,
        100.0 * report.top_move_share,
    )
}

/// How often each large pattern (every size) was played in `records`, after the first
/// `skip` moves of each.
fn count_played_patterns(
    records: &[(PathBuf, GoRecord)],
    skip: usize,
) -> Result<HashMap<u64, usize>, String> {
    let mut counts = HashMap::new();
    for (file, record) in records {
        replay(record, skip, |board, color, p, _, _| {
            for hash in spatial_hashes(board, color, p) {
                *counts.entry(hash).or_insert(0) += 1;
            }
        })
        .map_err(|problem| format!("{}: {problem}", file.display()))?;
    }
    Ok(counts)
}

/// The records at `paths` (files, and folders searched for `.sgf` files), each with its
/// file; at least one.
fn read_records(paths: &[PathBuf]) -> Result<Vec<(PathBuf, GoRecord)>, String> {
    let mut files = Vec::new();
    for path in paths {
        collect_records(path, 0, &mut files)?;
    }
    if files.is_empty() {
        return Err("no .sgf records found in the paths given".to_string());
    }
    let mut records = Vec::with_capacity(files.len());
    for file in files {
        let bytes = sgf::read_file(&file).map_err(|error| error.to_string())?;
        let record = GoRecord::from_sgf_bytes(&bytes)
            .map_err(|error| format!("{}: {error}", file.display()))?;
        records.push((file, record));
    }
    Ok(records)
}

/// How well `gammas` predict the moves of `records` (after the first `skip` of each),
/// each move against the same candidates as in the fit.
fn predict(
    gammas: &Gammas,
    records: &[(PathBuf, GoRecord)],
    skip: usize,
) -> Result<Prediction, String> {
    let (mut positions, mut log_likelihood, mut top) = (0usize, 0.0f64, 0usize);
    let mut strengths = Vec::new();
    for (file, record) in records {
        replay(record, skip, |board, color, played, last, before_last| {
            strengths.clear();
            let mut played_strength = None;
            for p in candidates(board, color) {
                let strength = f64::from(gammas.strength(board, color, p, last, before_last));
                if p == played {
                    played_strength = Some(strength);
                }
                strengths.push(strength);
            }
            let Some(played_strength) = played_strength.filter(|_| strengths.len() >= 2) else {
                return;
            };
            positions += 1;
            log_likelihood += (played_strength / strengths.iter().sum::<f64>()).ln();
            if strengths.iter().filter(|&&s| s >= played_strength).count() == 1 {
                top += 1;
            }
        })
        .map_err(|problem| format!("{}: {problem}", file.display()))?;
    }
    let per_position = |x: f64| {
        if positions == 0 {
            0.0
        } else {
            x / positions as f64
        }
    };
    Ok(Prediction {
        positions,
        log_likelihood: per_position(log_likelihood),
        top_move_share: per_position(top as f64),
    })
}

/// The moves the tree would consider for `color` on `board`: legal, not suicide, not in an
/// own eye.
fn candidates(board: &Board, color: Color) -> impl Iterator<Item = Point> + '_ {
    board.empty_points().iter().copied().filter(move |&p| {
        board.is_legal(color, p, false)
            && !board.is_eye_like(color, p)
            && !board.is_suicide(color, p)
    })
}

/// Adds `path` (an `.sgf` file, or a folder searched for them in name order) to `files`.
fn collect_records(path: &Path, depth: usize, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let meta = fs::metadata(path).map_err(|error| format!("{}: {error}", path.display()))?;
    if !meta.is_dir() {
        if depth == 0 || path.extension().is_some_and(|e| e == "sgf") {
            if files.len() >= MAX_RECORDS {
                return Err(format!(
                    "{}: more than {MAX_RECORDS} records; name fewer",
                    path.display()
                ));
            }
            files.push(path.to_owned());
        }
        return Ok(());
    }
    if depth >= MAX_DEPTH {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = fs::read_dir(path)
        .map_err(|error| format!("{}: {error}", path.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .collect();
    entries.sort();
    for entry in entries {
        collect_records(&entry, depth + 1, files)?;
    }
    Ok(())
}

/// A candidate's feature slots: one per group of [`GROUPS`], then its large pattern.
const SLOTS: usize = GROUPS.len() + 1;
/// The large pattern's slot.
const SPATIAL_SLOT: usize = GROUPS.len();

/// The competitions read so far, with the shapes numbered in the order first seen.
#[derive(Default)]
struct TrainingData {
    competitions: Competitions<SLOTS>,
    /// Canonical shape code → its number among the shapes.
    shapes: BTreeMap<u32, u32>,
    /// Large pattern hash → its number among the large patterns learned.
    spatial: SpatialMap<u32>,
    /// Scratch: the candidates of one position.
    candidates: Vec<[u32; SLOTS]>,
}

/// Where group `g`'s features start among the feature indices: the tactical groups'
/// values in a row, the shapes last.
fn tactical_offset(group: Group) -> u32 {
    GROUPS[1..]
        .iter()
        .take_while(|&&g| g != group)
        .map(|g| g.max_value())
        .sum()
}

/// Replays `record`, calling `visit` with the board, the mover, the move and the two moves
/// before (`None` for a pass or none) for every move after the first `skip` that is not a
/// pass.
fn replay(
    record: &GoRecord,
    skip: usize,
    mut visit: impl FnMut(&Board, Color, Point, Option<Point>, Option<Point>),
) -> Result<(), String> {
    let mut board = Board::new(record.size).map_err(|error| error.to_string())?;
    let (mut last, mut before_last) = (None, None);
    let mut number = 0;
    for event in &record.events {
        let (color, mv) = match event {
            Event::Setup(setup) => {
                for (v, stone) in setup.changes() {
                    board.set(board.point(v), stone);
                }
                continue;
            }
            Event::Move(color, mv) => (*color, *mv),
        };
        number += 1;
        let played = match mv {
            MoveVertex::Pass => None,
            MoveVertex::Play(v) => {
                let p = board
                    .try_point(v)
                    .ok_or_else(|| format!("move {number} is off the board"))?;
                if !board.is_legal(color, p, false) {
                    return Err(format!("move {number} ({v}) is illegal"));
                }
                Some(p)
            }
        };
        if let Some(p) = played
            && number > skip
        {
            visit(&board, color, p, last, before_last);
        }
        match played {
            Some(p) => {
                board.play(color, p);
            }
            None => board.pass(),
        }
        before_last = last;
        last = played;
    }
    Ok(())
}

impl TrainingData {
    /// Makes the large patterns counted at least `min` times in `counts` features,
    /// numbered in hash order (so the numbering does not depend on the map's order).
    fn keep_spatial(&mut self, counts: &HashMap<u64, usize>, min: usize) {
        let mut kept: Vec<u64> = counts
            .iter()
            .filter(|&(_, &count)| count >= min)
            .map(|(&hash, _)| hash)
            .collect();
        kept.sort_unstable();
        self.spatial = (0u32..).zip(kept).map(|(i, hash)| (hash, i)).collect();
    }

    /// A competition for `color` playing `played` on `board`, if the tree would consider it.
    fn add_position(
        &mut self,
        board: &Board,
        color: Color,
        played: Point,
        last: Option<Point>,
        before_last: Option<Point>,
    ) {
        self.candidates.clear();
        let mut played_at = None;
        for p in candidates(board, color) {
            if p == played {
                played_at = Some(self.candidates.len());
            }
            let features = move_features(board, color, p, last, before_last);
            let indexed = self.indices(board, color, p, &features);
            self.candidates.push(indexed);
        }
        if let Some(i) = played_at {
            self.competitions.push(&self.candidates, i);
        }
    }

    /// `color` playing at `p` as feature indices: the tactical groups' by
    /// [`tactical_offset`], the shape's as its number among the shapes, the large pattern's
    /// (the largest learned one it matches) as its number among those (both made absolute
    /// by [`TrainingData::groups`]).
    fn indices(
        &mut self,
        board: &Board,
        color: Color,
        p: Point,
        features: &MoveFeatures,
    ) -> [u32; SLOTS] {
        let mut indices = [NO_FEATURE; SLOTS];
        if !self.spatial.is_empty() {
            let hashes = spatial_hashes(board, color, p);
            if let Some(&i) = hashes.iter().rev().find_map(|h| self.spatial.get(h)) {
                indices[SPATIAL_SLOT] = i;
            }
        }
        for (g, (&group, &value)) in GROUPS.iter().zip(features).enumerate() {
            if value == 0 {
                continue;
            }
            indices[g] = if group == Group::Shape {
                let next = self.shapes.len() as u32;
                *self.shapes.entry(value - 1).or_insert(next)
            } else {
                tactical_offset(group) + value - 1
            };
        }
        indices
    }

    /// The slots' feature ranges and the number of features, with the shapes placed after
    /// the tactical features and the large patterns after the shapes (their slots are
    /// shifted there).
    fn groups(&mut self) -> ([std::ops::Range<usize>; SLOTS], usize) {
        let tactical: u32 = GROUPS[1..].iter().map(|g| g.max_value()).sum();
        let shapes = self.shapes.len();
        let spatial_start = tactical as usize + shapes;
        self.competitions.shift_slot(Group::Shape.index(), tactical);
        self.competitions
            .shift_slot(SPATIAL_SLOT, spatial_start as u32);
        let mut ranges = std::array::from_fn(|_| 0..0);
        ranges[SPATIAL_SLOT] = spatial_start..spatial_start + self.spatial.len();
        for (g, &group) in GROUPS.iter().enumerate() {
            ranges[g] = if group == Group::Shape {
                tactical as usize..tactical as usize + self.shapes.len()
            } else {
                let start = tactical_offset(group) as usize;
                start..start + group.max_value() as usize
            };
        }
        (ranges, spatial_start + self.spatial.len())
    }

    /// The fitted gammas as [`Gammas`].
    fn gammas(&self, fitted: &[f64]) -> Gammas {
        let tactical: u32 = GROUPS[1..].iter().map(|g| g.max_value()).sum();
        let shapes = self
            .shapes
            .iter()
            .map(|(&code, &i)| (Group::Shape, code + 1, fitted[(tactical + i) as usize]));
        let others = GROUPS[1..].iter().flat_map(|&group| {
            (1..=group.max_value()).map(move |value| {
                (
                    group,
                    value,
                    fitted[(tactical_offset(group) + value - 1) as usize],
                )
            })
        });
        let spatial_start = (tactical as usize) + self.shapes.len();
        let spatial = self
            .spatial
            .iter()
            .map(|(&hash, &i)| (hash, fitted[spatial_start + i as usize] as f32));
        Gammas::with_spatial(
            shapes
                .chain(others)
                .map(|(g, v, gamma)| (g, v, gamma as f32)),
            spatial,
        )
    }
}
