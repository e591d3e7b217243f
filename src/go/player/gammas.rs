//! Learned move-feature strengths (gammas, `features.rs`): the weights file's text, its
//! reading (every line checked, never a panic), and a move's strength as the tree's prior
//! uses it, and the process-wide switch that turns the prior on for play
//! ([`set_learned_prior`], from `--learned-prior` and `--gammas`).
//!
//! The file is plain text, one feature a line: `GROUP VALUE GAMMA`, e.g. `capture 1 3.2`
//! or `shape 1234 0.8` (a shape's value is its canonical code) or `spatial 1234567 2.5`
//! (a large pattern's value is its canonical hash, `spatial.rs`), after a first line
//! `hamle-go-gammas 1`; `#` starts a comment. A feature not listed has gamma 1.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::go::board::{Board, Point};
use crate::go::color::Color;

use super::features::{GROUPS, Group, MoveFeatures, canonical_shape, move_features};
use super::params::Params;
use super::spatial::{SpatialHashes, SpatialMap, spatial_hashes};

/// The first line of a weights file: its format and version.
const HEADER: &str = "hamle-go-gammas 1";

/// The largest weights file read: a few hundred thousand features, far more than the 3×3
/// shapes there are and the large patterns a fit keeps.
pub(crate) const MAX_WEIGHTS_BYTES: u64 = 8 * 1024 * 1024;

/// The gammas learned from GNU Go's 9×9 self-play (protocol.md, "Learned move priors",
/// says how they were made): the built-in ones but on [`MIDDLE_BOARDS`].
const BUILTIN: &str = include_str!("gammas-9x9.txt");

/// The gammas learned, with large patterns, from Pachi's self-play on 13×13 (protocol.md,
/// "Learned move priors"): the built-in ones on [`MIDDLE_BOARDS`].
const BUILTIN_13: &str = include_str!("gammas-13x13.txt");

/// The board sizes that play with [`BUILTIN_13`] and [`MIDDLE_BOARD_LEARNED_PRIOR`] (which
/// says what they won on 13×13); the sizes next to 13 are nearer to it than to 9×9 or
/// 19×19, which were not measured with them.
const MIDDLE_BOARDS: std::ops::RangeInclusive<usize> = 12..=15;

/// Every feature's gamma.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gammas {
    /// By canonical shape code.
    shapes: HashMap<u32, f32>,
    /// By group (in [`GROUPS`] order) and value (from 1); shapes' row is empty.
    tactical: [Vec<f32>; GROUPS.len()],
    /// Large patterns, by canonical hash (`spatial.rs`); a move uses its largest one here.
    spatial: SpatialMap<f32>,
}

/// The word that names the large patterns in a weights file (not a [`Group`]: a move's
/// large pattern is looked up by hash, not read into its [`MoveFeatures`]).
const SPATIAL: &str = "spatial";

/// One line of a weights file.
#[derive(Debug, PartialEq)]
enum Line {
    Feature(Group, u32, f32),
    Spatial(u64, f32),
}

impl Gammas {
    /// The gammas with `features` (each feature's group and value, the shape's value its
    /// canonical code plus 1 as in [`MoveFeatures`]) set to `gamma`; every other is 1.
    pub(crate) fn from_features(features: impl IntoIterator<Item = (Group, u32, f32)>) -> Self {
        let mut gammas = Gammas::default();
        for (group, value, gamma) in features {
            gammas.set(group, value, gamma);
        }
        gammas
    }

    fn set(&mut self, group: Group, value: u32, gamma: f32) {
        if value == 0 {
            return;
        }
        if group == Group::Shape {
            self.shapes.insert(value - 1, gamma);
        } else {
            let row = &mut self.tactical[group.index()];
            let i = value as usize - 1;
            if row.len() <= i {
                row.resize(i + 1, 1.0);
            }
            row[i] = gamma;
        }
    }

    /// The gamma of `value` in `group` (0: no feature, gamma 1).
    pub(crate) fn gamma(&self, group: Group, value: u32) -> f32 {
        if value == 0 {
            return 1.0;
        }
        if group == Group::Shape {
            return self.shapes.get(&(value - 1)).copied().unwrap_or(1.0);
        }
        self.tactical[group.index()]
            .get(value as usize - 1)
            .copied()
            .unwrap_or(1.0)
    }

    /// The gammas of `features` as [`Gammas::from_features`] and of the large patterns
    /// `spatial` (canonical hash, gamma).
    pub(crate) fn with_spatial(
        features: impl IntoIterator<Item = (Group, u32, f32)>,
        spatial: impl IntoIterator<Item = (u64, f32)>,
    ) -> Self {
        let mut gammas = Gammas::from_features(features);
        gammas.spatial.extend(spatial);
        gammas
    }

    /// The gamma of the largest of a move's patterns `hashes` that has one, else 1.
    pub(crate) fn spatial_gamma(&self, hashes: &SpatialHashes) -> f32 {
        hashes
            .iter()
            .rev()
            .find_map(|hash| self.spatial.get(hash).copied())
            .unwrap_or(1.0)
    }

    /// A move's strength from its features alone (its large pattern left out).
    pub(crate) fn strength_of(&self, features: &MoveFeatures) -> f32 {
        GROUPS
            .iter()
            .zip(features)
            .map(|(&group, &value)| self.gamma(group, value))
            .product()
    }

    /// `color` playing at `p`: its strength (`last` and `before_last` as for
    /// [`move_features`]).
    pub(crate) fn strength(
        &self,
        board: &Board,
        color: Color,
        p: Point,
        last: Option<Point>,
        before_last: Option<Point>,
    ) -> f32 {
        let features = self.strength_of(&move_features(board, color, p, last, before_last));
        if self.spatial.is_empty() {
            // Weights without large patterns need not hash the move's surroundings.
            return features;
        }
        features * self.spatial_gamma(&spatial_hashes(board, color, p))
    }

    /// The weights file's text: header, `comment` lines, then the features in a fixed
    /// order (groups as in `GROUPS`, shapes by code, then large patterns by hash), gammas
    /// 1 left out.
    pub fn to_text(&self, comment: &str) -> String {
        let mut text = format!("{HEADER}\n");
        for line in comment.lines() {
            let _ = writeln!(text, "# {line}");
        }
        for group in GROUPS {
            if group == Group::Shape {
                let mut codes: Vec<_> = self.shapes.iter().collect();
                codes.sort_by_key(|&(&code, _)| code);
                for (code, gamma) in codes {
                    if *gamma != 1.0 {
                        let _ = writeln!(text, "shape {code} {gamma}");
                    }
                }
            } else {
                for (i, gamma) in self.tactical[group.index()].iter().enumerate() {
                    if *gamma != 1.0 {
                        let _ = writeln!(text, "{} {} {gamma}", group.name(), i + 1);
                    }
                }
            }
        }
        let mut hashes: Vec<_> = self.spatial.iter().collect();
        hashes.sort_by_key(|&(&hash, _)| hash);
        for (hash, gamma) in hashes {
            if *gamma != 1.0 {
                let _ = writeln!(text, "{SPATIAL} {hash} {gamma}");
            }
        }
        text
    }

    /// Reads a weights file's text; the error names the line and what is wrong with it.
    pub fn parse(text: &str) -> Result<Gammas, String> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.split('#').next().unwrap_or("").trim()))
            .filter(|(_, line)| !line.is_empty());
        match lines.next() {
            Some((_, HEADER)) => {}
            Some((n, line)) => {
                return Err(format!(
                    "line {n}: expected the header '{HEADER}', got '{}'",
                    crate::text::shorten(line)
                ));
            }
            None => return Err(format!("empty: expected the header '{HEADER}'")),
        }
        let mut gammas = Gammas::default();
        for (n, line) in lines {
            match parse_line(line).map_err(|problem| format!("line {n}: {problem}"))? {
                Line::Feature(group, value, gamma) => gammas.set(group, value, gamma),
                Line::Spatial(hash, gamma) => {
                    gammas.spatial.insert(hash, gamma);
                }
            }
        }
        Ok(gammas)
    }

    /// Reads the weights file at `path` (a regular file of at most [`MAX_WEIGHTS_BYTES`]);
    /// the error names the file.
    pub(crate) fn load(path: &Path) -> Result<Gammas, String> {
        let text = crate::files::read_capped_to_string(path, MAX_WEIGHTS_BYTES)
            .map_err(|error| error.to_string())?;
        Gammas::parse(&text).map_err(|problem| format!("{}: {problem}", path.display()))
    }

    /// The gammas the tree uses on a board of `size`: those [`Gammas::install`]ed, else
    /// the built-in ones for that size.
    pub(crate) fn active(size: usize) -> &'static Gammas {
        INSTALLED.get().unwrap_or_else(|| Gammas::builtin(size))
    }

    /// Makes `self` the gammas the tree uses for the rest of the process (`--gammas`);
    /// false, and nothing changes, if some were installed before.
    pub(crate) fn install(self) -> bool {
        INSTALLED.set(self).is_ok()
    }

    /// The gammas built into the engine. Their text is checked by a test; were it ever
    /// unreadable, every gamma would be 1 (no learned prior) rather than a panic.
    pub(crate) fn builtin(size: usize) -> &'static Gammas {
        static BUILT: OnceLock<Gammas> = OnceLock::new();
        static BUILT_13: OnceLock<Gammas> = OnceLock::new();
        if MIDDLE_BOARDS.contains(&size) {
            BUILT_13.get_or_init(|| Gammas::parse(BUILTIN_13).unwrap_or_default())
        } else {
            BUILT.get_or_init(|| Gammas::parse(BUILTIN).unwrap_or_default())
        }
    }
}

/// The gammas of a weights file named on the command line, when one was.
static INSTALLED: OnceLock<Gammas> = OnceLock::new();

/// One feature line: group, value (a shape's: its canonical code, returned plus 1; a
/// large pattern's: its hash) and a positive, finite gamma.
fn parse_line(line: &str) -> Result<Line, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let [name, value, gamma] = words[..] else {
        return Err(format!(
            "expected 'GROUP VALUE GAMMA', got '{}'",
            crate::text::shorten(line)
        ));
    };
    let gamma = parse_gamma(gamma)?;
    if name == SPATIAL {
        let hash: u64 = value
            .parse()
            .map_err(|_| format!("'{}' is not a pattern hash", crate::text::shorten(value)))?;
        return Ok(Line::Spatial(hash, gamma));
    }
    let group = Group::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = GROUPS.iter().map(|g| g.name()).collect();
        format!(
            "unknown group '{}' (one of {}, {SPATIAL})",
            crate::text::shorten(name),
            names.join(", ")
        )
    })?;
    let value: u32 = value
        .parse()
        .map_err(|_| format!("'{}' is not a whole number", crate::text::shorten(value)))?;
    let value = if group == Group::Shape {
        if value > group.max_value() || canonical_shape(value) != value {
            return Err(format!("{value} is not a canonical shape code"));
        }
        value + 1
    } else {
        if !(1..=group.max_value()).contains(&value) {
            return Err(format!(
                "{} takes values 1 to {}, got {value}",
                group.name(),
                group.max_value()
            ));
        }
        value
    };
    Ok(Line::Feature(group, value, gamma))
}

/// A gamma: a positive, finite number.
fn parse_gamma(gamma: &str) -> Result<f32, String> {
    gamma
        .parse()
        .ok()
        .filter(|g: &f32| g.is_finite() && *g > 0.0)
        .ok_or_else(|| {
            format!(
                "gamma '{}' is not a positive number",
                crate::text::shorten(gamma)
            )
        })
}

/// The learned prior's virtual visits in play (`Params::learned_prior`), as `f32` bits:
/// set once from the command line, before any search; [`BY_BOARD_SIZE`] until then, or
/// when the command line left it to the board's size.
static LEARNED_PRIOR_BITS: AtomicU32 = AtomicU32::new(BY_BOARD_SIZE);

/// Not an `f32` the command line can give (a NaN): the visits measured for the board's
/// size ([`measured_learned_prior`]).
const BY_BOARD_SIZE: u32 = u32::MAX;

/// The learned prior's virtual visits on [`MIDDLE_BOARDS`], with their own gammas: on
/// 13×13 against Pachi (5,000 playouts against `-t =2000`), 21 of 80 games at 20 visits,
/// 2 of 20 at 4 and 2 of 20 at 50; the 9×9 gammas won 8 of 60 at 4 visits and 4 of 20 at
/// 20 (protocol.md).
pub(crate) const MIDDLE_BOARD_LEARNED_PRIOR: f32 = 20.0;

/// The learned prior's virtual visits that `hamle go` plays with on a board of `size`
/// unless `--learned-prior` says otherwise.
pub(crate) fn measured_learned_prior(size: usize) -> f32 {
    if MIDDLE_BOARDS.contains(&size) {
        MIDDLE_BOARD_LEARNED_PRIOR
    } else {
        MEASURED_LEARNED_PRIOR
    }
}

/// The learned prior's virtual visits that won most in self-play, `hamle go`'s default
/// but on `MIDDLE_BOARDS`: at 2,000 playouts on 9×9 against the engine without it it
/// won 63 of 100 games, 60 of 100 at about equal time, 62 of 100 on 13×13 (protocol.md,
/// "Learned move prior").
pub const MEASURED_LEARNED_PRIOR: f32 = 4.0;

/// The most virtual visits `--learned-prior` takes: beyond, the prior would drown the
/// playouts of any search.
pub const MAX_LEARNED_PRIOR: f32 = 1000.0;

/// Turns the learned move prior on for play in this process with `visits` virtual visits
/// (0: off; `None`: `measured_learned_prior` of the board), its gammas read from
/// `gammas_file` if one is named (else the built-in ones for the board's size).
/// The error names the file and what is wrong with it, or the visits out of range.
pub fn set_learned_prior(visits: Option<f32>, gammas_file: Option<&Path>) -> Result<(), String> {
    if let Some(visits) = visits
        && !(0.0..=MAX_LEARNED_PRIOR).contains(&visits)
    {
        return Err(format!(
            "the learned prior takes 0 to {MAX_LEARNED_PRIOR} virtual visits, got {visits}"
        ));
    }
    if let Some(path) = gammas_file {
        let gammas = Gammas::load(path)?;
        if !gammas.install() {
            return Err("the learned gammas were already chosen".to_string());
        }
    }
    LEARNED_PRIOR_BITS.store(
        visits.map_or(BY_BOARD_SIZE, f32::to_bits),
        Ordering::Relaxed,
    );
    Ok(())
}

/// The params of play on a board of `size`: the defaults, with the learned prior the
/// command line chose (or the one measured for the size).
pub(super) fn playing_params(size: usize) -> Params {
    let bits = LEARNED_PRIOR_BITS.load(Ordering::Relaxed);
    let learned_prior = if bits == BY_BOARD_SIZE {
        measured_learned_prior(size)
    } else {
        f32::from_bits(bits)
    };
    Params {
        learned_prior,
        ..Params::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_weights_parse_and_say_something() {
        let gammas = Gammas::parse(BUILTIN).expect("the built-in weights parse");
        assert!(!gammas.shapes.is_empty());
        assert!(gammas.gamma(Group::Capture, 1) > 1.0);
        assert!(gammas.gamma(Group::SelfAtari, 1) < 1.0);
    }

    #[test]
    fn the_middle_boards_have_their_own_weights_and_prior() {
        let gammas = Gammas::parse(BUILTIN_13).expect("the 13x13 weights parse");
        assert!(!gammas.shapes.is_empty());
        assert!(!gammas.spatial.is_empty(), "large patterns");
        assert!(gammas.gamma(Group::SelfAtari, 1) < 1.0);
        assert!(gammas.gamma(Group::Escape, 1) > 1.0);
        assert_eq!(Gammas::builtin(13), &gammas);
        assert_ne!(Gammas::builtin(9), &gammas);
        assert_ne!(Gammas::builtin(19), &gammas);
        assert_eq!(measured_learned_prior(13), MIDDLE_BOARD_LEARNED_PRIOR);
        assert_eq!(measured_learned_prior(9), MEASURED_LEARNED_PRIOR);
        assert_eq!(measured_learned_prior(19), MEASURED_LEARNED_PRIOR);
    }

    #[test]
    fn a_move_takes_the_gamma_of_its_largest_known_pattern() {
        let mut board = Board::new(9).expect("9x9");
        board.set(
            board.point("D4".parse().expect("vertex")),
            Some(Color::Black),
        );
        let p = board.point("E5".parse().expect("vertex"));
        let hashes = spatial_hashes(&board, Color::Black, p);
        let both = Gammas::with_spatial([], [(hashes[0], 2.0), (hashes[2], 5.0)]);
        assert_eq!(both.strength(&board, Color::Black, p, None, None), 5.0);
        let small = Gammas::with_spatial([], [(hashes[0], 2.0)]);
        assert_eq!(small.strength(&board, Color::Black, p, None, None), 2.0);
        // White sees other patterns at the same point.
        assert_eq!(small.strength(&board, Color::White, p, None, None), 1.0);
        let shape = canonical_shape(super::super::features::raw_shape(&board, Color::Black, p));
        let with_shape = Gammas::with_spatial([(Group::Shape, shape + 1, 3.0)], [(hashes[4], 0.5)]);
        assert_eq!(
            with_shape.strength(&board, Color::Black, p, None, None),
            1.5
        );
    }

    #[test]
    fn text_round_trips() {
        let gammas = Gammas::with_spatial(
            [
                (Group::Capture, 2, 7.5),
                (Group::Shape, 1 + canonical_shape(0x12345), 0.25),
                (Group::Line, 1, 0.5),
            ],
            [(u64::MAX, 3.5), (12345, 0.125)],
        );
        let text = gammas.to_text("made by a test");
        assert_eq!(Gammas::parse(&text), Ok(gammas));
    }

    #[test]
    fn bad_lines_are_named() {
        for (text, problem) in [
            ("", "empty"),
            ("weights\n", "line 1: expected the header"),
            (
                "hamle-go-gammas 1\ncapture 1\n",
                "line 2: expected 'GROUP VALUE GAMMA'",
            ),
            (
                "hamle-go-gammas 1\n\nfoo 1 2\n",
                "line 3: unknown group 'foo'",
            ),
            (
                "hamle-go-gammas 1\ncapture 4 2\n",
                "line 2: capture takes values 1 to 3",
            ),
            (
                "hamle-go-gammas 1\nline x 2\n",
                "line 2: 'x' is not a whole",
            ),
            (
                "hamle-go-gammas 1\nline 1 -2\n",
                "line 2: gamma '-2' is not",
            ),
            (
                "hamle-go-gammas 1\nline 1 NaN\n",
                "line 2: gamma 'NaN' is not",
            ),
            (
                "hamle-go-gammas 1\nshape 1048576 1\n",
                "line 2: 1048576 is not a canonical shape",
            ),
            (
                "hamle-go-gammas 1\nspatial -3 1\n",
                "line 2: '-3' is not a pattern hash",
            ),
            (
                "hamle-go-gammas 1\nspatial 18446744073709551616 1\n",
                "line 2: '18446744073709551616' is not a pattern hash",
            ),
            (
                "hamle-go-gammas 1\nspatial 7 0\n",
                "line 2: gamma '0' is not",
            ),
        ] {
            let error = Gammas::parse(text).expect_err(text);
            assert!(error.starts_with(problem), "{text:?}: {error}");
        }
    }
}
