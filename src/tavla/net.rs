//! The neural evaluator: one hidden layer of sigmoids over Tesauro-style inputs and a few
//! hand-made features, five sigmoid outputs for the side on roll: win, win a gammon (or
//! more), win a backgammon, lose a gammon (or more), lose a backgammon.
//!
//! Inputs are sparse (a few dozen of the 210 are non-zero), so the forward pass sums the
//! weight rows of the non-zero inputs. Everything lives in fixed-size arrays: evaluating
//! allocates nothing.

use super::board::{BAR, Board, Side};
use super::layers::{Layers, Sparse};
pub use super::layers::{OUTPUTS, Probs};

/// Hidden units.
pub const HIDDEN: usize = 128;
/// Per side: 4 units for each of 24 points, the bar, borne-off checkers.
const PER_SIDE: usize = 24 * 4 + 2;
/// Hand-made features after the two sides' raw inputs (those after the first 12 were added
/// to trained nets by [`Net::from_bytes_widening`], so they come last).
const FEATURES: usize = 22;
/// Input units.
pub const INPUTS: usize = 2 * PER_SIDE + FEATURES;

/// The header of a weights file: magic, then inputs, hidden and outputs as u32 LE.
const MAGIC: &[u8; 4] = b"HTN1";

/// The largest weight a file may hold. Trained weights stay in single digits (the built-in
/// ones within ±6.5); one past this saturates every sigmoid it feeds, so it can only come
/// from a broken or hostile file.
pub const MAX_WEIGHT: f32 = 1000.0;

/// The non-zero inputs of a position.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    sparse: Sparse<INPUTS>,
}

impl Inputs {
    fn push(&mut self, index: usize, value: f32) {
        self.sparse.push(index, value);
    }

    /// The dense input vector (for tests and inspection).
    pub fn dense(&self) -> Vec<f32> {
        let mut out = vec![0.0; INPUTS];
        for (&index, &value) in self.sparse.active().iter().zip(self.sparse.values()) {
            out[usize::from(index)] = value;
        }
        out
    }

    /// Encodes `board` seen by `on_roll`, the side about to roll.
    pub fn encode(board: &Board, on_roll: Side) -> Inputs {
        let mut inputs = Inputs::default();
        for (s, side) in [on_roll, on_roll.other()].into_iter().enumerate() {
            let base = s * PER_SIDE;
            let row = board.row(side);
            for (point, &n) in row[..24].iter().enumerate() {
                if n == 0 {
                    continue;
                }
                inputs.sparse.push_point(base + point * 4, n);
            }
            inputs.push(base + 96, f32::from(row[BAR]) / 2.0);
            inputs.push(base + 97, f32::from(board.borne_off(side)) / 15.0);
        }
        let f = 2 * PER_SIDE;
        let race = board.is_race();
        let me = on_roll;
        let them = on_roll.other();
        let (my_pips, their_pips) = (board.pip_count(me) as f32, board.pip_count(them) as f32);
        inputs.push(f, if race { 1.0 } else { 0.0 });
        inputs.push(f + 1, my_pips / 100.0);
        inputs.push(f + 2, their_pips / 100.0);
        inputs.push(f + 3, ((their_pips - my_pips) / 40.0).clamp(-2.0, 2.0));
        let (my_hits, their_hits) = if race {
            ((0, 0), (0, 0))
        } else {
            (hits(board, me), hits(board, them))
        };
        inputs.push(f + 4, f32::from(my_hits.0) / 36.0);
        inputs.push(f + 5, f32::from(their_hits.0) / 36.0);
        inputs.push(f + 6, f32::from(prime(board.row(me))) / 6.0);
        inputs.push(f + 7, f32::from(prime(board.row(them))) / 6.0);
        inputs.push(f + 8, f32::from(home_points(board.row(me))) / 6.0);
        inputs.push(f + 9, f32::from(home_points(board.row(them))) / 6.0);
        inputs.push(f + 10, f32::from(back_checkers(board.row(me))) / 15.0);
        inputs.push(f + 11, f32::from(back_checkers(board.row(them))) / 15.0);
        if !race {
            inputs.push(f + 12, f32::from(back_escapes(board, me)) / 36.0);
            inputs.push(f + 13, f32::from(back_escapes(board, them)) / 36.0);
            inputs.push(f + 14, containment(board, me));
            inputs.push(f + 15, containment(board, them));
        }
        inputs.push(f + 16, f32::from(blots(board.row(me))) / 5.0);
        inputs.push(f + 17, f32::from(blots(board.row(them))) / 5.0);
        inputs.push(f + 18, if anchored(board.row(me)) { 1.0 } else { 0.0 });
        inputs.push(f + 19, if anchored(board.row(them)) { 1.0 } else { 0.0 });
        // The pips a roll costs the other side (f + 20) and us (f + 21) through hits, on
        // average over the 36 rolls, in units of 12 pips.
        inputs.push(f + 20, f32::from(my_hits.1) / (36.0 * 12.0));
        inputs.push(f + 21, f32::from(their_hits.1) / (36.0 * 12.0));
        inputs
    }
}

/// Of the 36 rolls, how many move a checker of `mover` on its point `from` (25: the bar) by
/// the whole roll past the points the other side holds (gnubg's "escapes"): the landing point
/// is open and the two dice are not both blocked as the first step. Doubles count as two
/// dice; only the 12 points ahead are looked at.
fn escapes(board: &Board, mover: Side, from: usize) -> u8 {
    let blocker = board.row(mover.other());
    // Bit i: the point i + 1 ahead of `from` (in mover's numbering) is held by `blocker`.
    let mut blocked = 0usize;
    for ahead in 1..=from.saturating_sub(1).min(12) {
        if blocker[24 - (from - ahead)] >= 2 {
            blocked |= 1 << (ahead - 1);
        }
    }
    ESCAPES[blocked]
}

/// [`escapes`] for each pattern of the 12 points ahead held or not (bit i: i + 1 ahead),
/// computed at compile time: the features are counted for every evaluation.
const ESCAPES: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut blocked = 0;
    while blocked < 4096 {
        let mut total = 0;
        let mut high = 1;
        while high <= 6 {
            let mut low = 1;
            while low <= high {
                let stopped = held(blocked, high) && held(blocked, low);
                if !held(blocked, high + low) && !stopped {
                    total += if high == low { 1 } else { 2 };
                }
                low += 1;
            }
            high += 1;
        }
        table[blocked] = total;
        blocked += 1;
    }
    table
};

/// Whether the point `ahead` points ahead is held in the pattern `blocked` of [`ESCAPES`].
const fn held(blocked: usize, ahead: usize) -> bool {
    blocked & (1 << (ahead - 1)) != 0
}

/// [`escapes`] of `side`'s rearmost checker (36 when it has none behind the other side).
fn back_escapes(board: &Board, side: Side) -> u8 {
    let row = board.row(side);
    match (1..=25).rev().find(|&point| row[point - 1] > 0) {
        Some(back) => escapes(board, side, back),
        None => 36,
    }
}

/// How well `side`'s points hold a checker of the other side in `side`'s home and outer
/// board: one less the fewest escapes, as a fraction of 36, from the other side's points
/// 15 to 24 (gnubg's "containment").
fn containment(board: &Board, side: Side) -> f32 {
    let fewest = (15..=24)
        .map(|point| escapes(board, side.other(), point))
        .min()
        .unwrap_or(36);
    f32::from(36 - fewest) / 36.0
}

/// Points 1–24 holding exactly one of a side's checkers.
fn blots(row: &[u8; 25]) -> u8 {
    row[..24].iter().filter(|&&n| n == 1).count() as u8
}

/// Whether a side holds a point (two or more) in the other side's home board.
fn anchored(row: &[u8; 25]) -> bool {
    row[18..24].iter().any(|&n| n >= 2)
}

/// Longest run of points 1–24 holding two or more of a side's checkers.
fn prime(row: &[u8; 25]) -> u8 {
    let (mut best, mut run) = (0u8, 0u8);
    for &n in &row[..24] {
        run = if n >= 2 { run + 1 } else { 0 };
        best = best.max(run);
    }
    best
}

fn home_points(row: &[u8; 25]) -> u8 {
    row[..6].iter().filter(|&&n| n >= 2).count() as u8
}

/// Checkers in the opponent's home board or on the bar.
fn back_checkers(row: &[u8; 25]) -> u8 {
    row[18..].iter().sum()
}

/// Of the 36 rolls, how many let `side` hit a blot of the other side (direct or combined
/// shots, intermediate points must be open; a side on the bar shoots only from the bar),
/// and the pips the other side loses to them summed over the 36 rolls (each roll
/// hitting the blot that costs most: a blot on `side`'s point p, the other side's 25 − p,
/// goes back p pips; gnubg's "piploss" is this sum over 36).
fn hits(board: &Board, side: Side) -> (u8, u16) {
    let mine = board.row(side);
    let theirs = board.row(side.other());
    // Bits over `side`'s points 1..=24: an opposing blot there, or a block (two or more).
    let (mut blots, mut blocks) = (0u32, 0u32);
    for point in 1..=24usize {
        match theirs[24 - point] {
            0 => {}
            1 => blots |= 1 << point,
            _ => blocks |= 1 << point,
        }
    }
    if blots == 0 {
        return (0, 0);
    }
    let mut from_points = [0u8; 25];
    let mut count = 0;
    if mine[BAR] > 0 {
        from_points[0] = 25;
        count = 1;
    } else {
        for point in (1..=24u8).rev() {
            if mine[usize::from(point) - 1] > 0 {
                from_points[count] = point;
                count += 1;
            }
        }
    }
    let from_points = &from_points[..count];
    let (mut total, mut pips) = (0u8, 0u16);
    for high in 1..=6i32 {
        for low in 1..=high {
            let hit = from_points
                .iter()
                .map(|&f| farthest_hit(i32::from(f), high, low, blots, blocks))
                .max()
                .unwrap_or(0);
            if hit > 0 {
                let weight = if high == low { 1 } else { 2 };
                total += weight;
                pips += u16::from(weight) * hit as u16;
            }
        }
    }
    (total, pips)
}

/// The highest of `side`'s points (1..=24) a checker on `from` hits a blot on with the roll
/// `high`-`low` (0: none), over the masks of [`hits`].
fn farthest_hit(from: i32, high: i32, low: i32, blots: u32, blocks: u32) -> i32 {
    let lands = |to: i32, mask: u32| to >= 1 && mask & (1 << to) != 0;
    let mut best = 0;
    if high == low {
        let mut at = from;
        for _ in 0..4 {
            at -= high;
            if at < 1 || lands(at, blocks) {
                break;
            }
            if lands(at, blots) {
                best = best.max(at);
            }
        }
        return best;
    }
    for to in [from - high, from - low] {
        if lands(to, blots) {
            best = best.max(to);
        }
    }
    let both = from - high - low;
    let open_way = (!lands(from - high, blocks) || !lands(from - low, blocks))
        && from - high >= 1
        && from - low >= 1;
    if lands(both, blots) && open_way {
        best = best.max(both);
    }
    best
}

/// The weights (the two layers of `Layers`).
#[derive(Clone, PartialEq)]
pub struct Net {
    layers: Layers<HIDDEN>,
}

impl std::fmt::Debug for Net {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Net({INPUTS}x{HIDDEN}x{OUTPUTS})")
    }
}

impl Net {
    /// Small seeded random weights: the start of training.
    pub fn random(seed: u64) -> Net {
        Net {
            layers: Layers::seeded(INPUTS, seed),
        }
    }

    /// The built-in weights, trained by `hamle tavla train` (see protocol.md, Tavla, The player).
    pub fn builtin() -> &'static Net {
        static NET: std::sync::OnceLock<Net> = std::sync::OnceLock::new();
        NET.get_or_init(|| {
            Net::from_bytes(include_bytes!("weights/net.bin")).expect("built-in weights")
        })
    }

    /// The raw outputs for `inputs`.
    pub fn forward(&self, inputs: &Inputs) -> Probs {
        self.layers
            .activate(inputs.sparse.active(), inputs.sparse.values())
            .out
    }

    /// The five probabilities of `board` for `on_roll`, made consistent (a gammon is never
    /// likelier than a win, a backgammon than a gammon).
    pub fn evaluate(&self, board: &Board, on_roll: Side) -> Probs {
        consistent(self.forward(&Inputs::encode(board, on_roll)))
    }

    /// One gradient step of the outputs for `inputs` towards `target` (cross-entropy loss);
    /// returns the outputs before the step.
    pub fn learn(&mut self, inputs: &Inputs, target: &Probs, rate: f32) -> Probs {
        self.layers
            .learn(inputs.sparse.active(), inputs.sparse.values(), target, rate)
    }

    /// The weights as a file: header then every weight as f32 LE (w1 by input, b1, w2 by
    /// output, b2).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.layers.to_bytes(MAGIC)
    }

    /// The net a weights file holds; it must have exactly this build's shape.
    pub fn from_bytes(bytes: &[u8]) -> Result<Net, String> {
        let file = WeightsFile::parse(bytes, |dims| {
            if dims == [INPUTS, HIDDEN, OUTPUTS] {
                return Ok(());
            }
            Err(format!(
                "the file holds a net of {dims:?} inputs, hidden units and outputs; this \
                 build's has {:?} (a weights file from another version of hamle?)",
                [INPUTS, HIDDEN, OUTPUTS]
            ))
        })?;
        Ok(file.widened(0))
    }

    /// The net a weights file holds, where the file may be of a smaller net of the same
    /// outputs: its inputs are this build's first ones and its hidden units the first ones.
    /// The added inputs get zero weights and the added hidden units small random inputs
    /// (seeded by `seed`) and zero outputs, so the widened net evaluates every position as
    /// the file's did; training then puts the new parts to work.
    pub fn from_bytes_widening(bytes: &[u8], seed: u64) -> Result<Net, String> {
        let file = WeightsFile::parse(bytes, |dims| {
            let [inputs, hidden, outputs] = dims;
            if inputs <= INPUTS && hidden <= HIDDEN && outputs == OUTPUTS {
                return Ok(());
            }
            Err(format!(
                "the file holds a net of {dims:?} inputs, hidden units and outputs; this \
                 build's has {:?} and can widen only a smaller one with the same outputs",
                [INPUTS, HIDDEN, OUTPUTS]
            ))
        })?;
        Ok(file.widened(seed))
    }
}

/// A weights file's shape and weights in file order (the race net's files share the main
/// net's format and its checks), once `fits` has accepted the shape.
pub(super) fn parse_weights(
    bytes: &[u8],
    fits: impl FnOnce([usize; 3]) -> Result<(), String>,
) -> Result<([usize; 3], Vec<f32>), String> {
    WeightsFile::parse(bytes, fits).map(|file| (file.dims, file.values))
}

/// A parsed weights file of any shape: its dimensions and its weights in file order.
struct WeightsFile {
    dims: [usize; 3],
    values: Vec<f32>,
}

impl WeightsFile {
    /// The largest number of inputs or hidden units a file may declare: far above any net
    /// here, it keeps a hostile header from asking for a huge allocation.
    const MAX_DIM: usize = 4096;

    /// The file's net, whose shape `fits` must accept before its weights are read.
    fn parse(
        bytes: &[u8],
        fits: impl FnOnce([usize; 3]) -> Result<(), String>,
    ) -> Result<WeightsFile, String> {
        if bytes.len() < 16 || &bytes[..4] != MAGIC {
            return Err(
                "not a hamle Tavla weights file (it must begin with 'HTN1' and the net's shape)"
                    .into(),
            );
        }
        // The first four bytes of a slice: the length was checked above, and `chunks_exact(4)`
        // below gives exactly four.
        let word = |c: &[u8]| [c[0], c[1], c[2], c[3]];
        let dim = |k: usize| u32::from_le_bytes(word(&bytes[4 + 4 * k..])) as usize;
        let dims = [dim(0), dim(1), dim(2)];
        if dims.iter().any(|&d| d == 0 || d > Self::MAX_DIM) {
            return Err(format!("the header's shape {dims:?} is not a net's"));
        }
        fits(dims)?;
        let [inputs, hidden, outputs] = dims;
        let count = inputs * hidden + hidden + outputs * hidden + outputs;
        if bytes.len() != 16 + 4 * count {
            return Err(format!(
                "the file has {} bytes where a net of {dims:?} inputs, hidden units and \
                 outputs takes {} (cut short or not a weights file)",
                bytes.len(),
                16 + 4 * count
            ));
        }
        let mut values = Vec::with_capacity(count);
        for (index, chunk) in bytes[16..].chunks_exact(4).enumerate() {
            let value = f32::from_le_bytes(word(chunk));
            if !value.is_finite() || value.abs() > MAX_WEIGHT {
                return Err(format!(
                    "weight {index} ({}) is {value}: every weight must be a finite number \
                     within ±{MAX_WEIGHT}",
                    weight_name(index, dims)
                ));
            }
            values.push(value);
        }
        Ok(WeightsFile { dims, values })
    }

    /// This build's net holding the file's weights, widened as [`Net::from_bytes_widening`]
    /// says (callers have checked that the file's net is no larger).
    fn widened(&self, seed: u64) -> Net {
        let [inputs, hidden, outputs] = self.dims;
        let mut net = Net::random(seed);
        for row in &mut net.layers.w1[..inputs] {
            row[..hidden].fill(0.0);
        }
        for row in &mut net.layers.w1[inputs..] {
            row.fill(0.0);
        }
        net.layers.b1 = [0.0; HIDDEN];
        net.layers.w2 = [[0.0; HIDDEN]; OUTPUTS];
        net.layers.b2 = [0.0; OUTPUTS];
        let mut values = self.values.iter().copied();
        for row in &mut net.layers.w1[..inputs] {
            for (slot, value) in row[..hidden].iter_mut().zip(&mut values) {
                *slot = value;
            }
        }
        for (slot, value) in net.layers.b1[..hidden].iter_mut().zip(&mut values) {
            *slot = value;
        }
        for row in &mut net.layers.w2[..outputs] {
            for (slot, value) in row[..hidden].iter_mut().zip(&mut values) {
                *slot = value;
            }
        }
        for (slot, value) in net.layers.b2[..outputs].iter_mut().zip(&mut values) {
            *slot = value;
        }
        net
    }
}

/// Where the `index`th weight of a file of a net of `dims` sits, in the order
/// [`Net::to_bytes`] writes them.
fn weight_name(index: usize, [inputs, hidden, outputs]: [usize; 3]) -> String {
    let b1_at = inputs * hidden;
    let w2_at = b1_at + hidden;
    let b2_at = w2_at + outputs * hidden;
    if index < b1_at {
        format!("w1, input {} to hidden {}", index / hidden, index % hidden)
    } else if index < w2_at {
        format!("b1, hidden {}", index - b1_at)
    } else if index < b2_at {
        let at = index - w2_at;
        format!("w2, hidden {} to output {}", at % hidden, at / hidden)
    } else {
        format!("b2, output {}", index - b2_at)
    }
}

/// `p` clipped so that backgammon <= gammon <= win (and the same for losses).
pub fn consistent(mut p: Probs) -> Probs {
    p[0] = p[0].clamp(0.0, 1.0);
    p[1] = p[1].min(p[0]);
    p[2] = p[2].min(p[1]);
    p[3] = p[3].min(1.0 - p[0]);
    p[4] = p[4].min(p[3]);
    p
}

/// The same probabilities for the other side.
pub fn invert(p: &Probs) -> Probs {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// Cubeless money equity of `p` for its side.
pub fn equity(p: &Probs) -> f32 {
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pip_loss_counts_each_hitting_roll_at_the_blots_distance_from_home() {
        // White's lone checker on its 8-point, Black's blot three ahead of it (White's
        // 5-point, Black's 20-point). White hits with the 11 rolls holding a 3, 1-2 either
        // way (both paths open) and 1-1: 14 rolls, each sending the blot back 5 pips.
        // Black, from its 20-point, hits White's 8-point (Black's 17) with the same rolls,
        // 17 pips each.
        let mut rows = [[0u8; 25]; 2];
        rows[0][7] = 1;
        rows[1][19] = 1;
        let board = Board::from_rows(rows).expect("board");
        assert_eq!(hits(&board, Side::White), (14, 14 * 5));
        assert_eq!(hits(&board, Side::Black), (14, 14 * 17));
        // A point made between them stops the 1-2 through it and the 1-1.
        rows[1][17] = 2; // Black's 18-point is White's 7-point.
        let blocked = Board::from_rows(rows).expect("board");
        assert_eq!(hits(&blocked, Side::White).0, 11 + 2);
    }

    #[test]
    fn forward_shape_and_determinism() {
        let net = Net::random(7);
        let board = Board::start();
        let inputs = Inputs::encode(&board, Side::White);
        assert_eq!(inputs.dense().len(), INPUTS);
        let a = net.forward(&inputs);
        let b = net.forward(&inputs);
        assert_eq!(a, b);
        assert!(a.iter().all(|p| (0.0..=1.0).contains(p)));
        assert_eq!(Net::random(7), net);
        assert_ne!(Net::random(8), net);
        // The start is symmetric: both sides see the same inputs.
        assert_eq!(Inputs::encode(&board, Side::Black).dense(), inputs.dense());
    }

    #[test]
    fn weights_round_trip() {
        let net = Net::random(3);
        let bytes = net.to_bytes();
        assert_eq!(Net::from_bytes(&bytes).expect("parse"), net);
        assert!(Net::from_bytes(&bytes[..100]).is_err());
        assert!(bytes.len() < 200_000);
    }

    #[test]
    fn weights_that_are_not_finite_or_sane_are_refused_by_name() {
        let bytes = Net::random(3).to_bytes();
        let with = |index: usize, value: f32| {
            let mut bad = bytes.clone();
            bad[16 + 4 * index..20 + 4 * index].copy_from_slice(&value.to_le_bytes());
            Net::from_bytes(&bad).map(|_| ())
        };
        let refused = |index: usize, value: f32| with(index, value).expect_err("refused");
        assert!(
            refused(5, f32::NAN).starts_with("weight 5 (w1, input 0 to hidden 5) is NaN"),
            "{}",
            refused(5, f32::NAN)
        );
        let b1 = INPUTS * HIDDEN;
        let infinite = refused(b1 + 2, f32::INFINITY);
        assert!(infinite.starts_with(&format!("weight {} (b1, hidden 2) is inf", b1 + 2)));
        let w2 = b1 + HIDDEN;
        assert!(refused(w2 + HIDDEN + 3, -1e30).contains("(w2, hidden 3 to output 1)"));
        assert!(refused(w2 + OUTPUTS * HIDDEN + 4, 1001.0).contains("(b2, output 4) is 1001"));
        assert_eq!(with(7, MAX_WEIGHT), Ok(()));
        assert_eq!(with(7, -MAX_WEIGHT), Ok(()));
    }

    #[test]
    fn learning_moves_outputs_towards_target() {
        let mut net = Net::random(5);
        let inputs = Inputs::encode(&Board::start(), Side::White);
        let target = [1.0, 0.0, 0.0, 0.0, 0.0];
        let before = net.forward(&inputs);
        for _ in 0..50 {
            net.learn(&inputs, &target, 0.1);
        }
        let after = net.forward(&inputs);
        assert!(after[0] > before[0]);
        assert!(after[3] < before[3]);
    }

    #[test]
    fn shot_counts() {
        // White's point on its 8; a black blot on white's 5-point (black's 20).
        let mut rows = [[0u8; 25]; 2];
        rows[0][7] = 2;
        rows[1][19] = 1;
        let board = Board::from_rows(rows).expect("board");
        // A 3 to hit: 11 rolls with a 3, plus 1-2, 2-1, 1-1: 14.
        assert_eq!(hits(&board, Side::White).0, 14);
        assert_eq!(hits(&board, Side::Black).0, 0);
    }

    /// `net`'s weights file with only its first `inputs` inputs and `hidden` hidden units.
    fn cut_down(net: &Net, inputs: usize, hidden: usize) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        for n in [inputs, hidden, OUTPUTS] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        let rows = net.layers.w1[..inputs].iter().map(|row| &row[..hidden]);
        let w2 = net.layers.w2.iter().map(|row| &row[..hidden]);
        let all = rows
            .flatten()
            .chain(&net.layers.b1[..hidden])
            .chain(w2.flatten());
        for w in all.chain(&net.layers.b2) {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    #[test]
    fn a_smaller_net_widened_evaluates_as_before() {
        // A net whose last 8 inputs and 16 hidden units do nothing is the smaller net.
        let mut net = Net::random(4);
        for row in &mut net.layers.w1[INPUTS - 8..] {
            row.fill(0.0);
        }
        for row in &mut net.layers.w2 {
            row[HIDDEN - 16..].fill(0.0);
        }
        let small = cut_down(&net, INPUTS - 8, HIDDEN - 16);
        let widened = Net::from_bytes_widening(&small, 9).expect("widened");
        assert!(Net::from_bytes(&small).is_err(), "only training widens");
        assert_ne!(widened, net, "the new hidden units get seeded weights");
        for board in [Board::start(), Board::start().swapped()] {
            let inputs = Inputs::encode(&board, Side::White);
            assert_eq!(widened.forward(&inputs), net.forward(&inputs));
        }
        // The same shape is read as it is; a larger one is refused.
        let same = Net::from_bytes_widening(&net.to_bytes(), 9).expect("same shape");
        assert_eq!(same, net);
        let mut larger = net.to_bytes();
        larger[8..12].copy_from_slice(&(HIDDEN as u32 + 1).to_le_bytes());
        let refused = Net::from_bytes_widening(&larger, 9).expect_err("larger");
        assert!(
            refused.contains("can widen only a smaller one"),
            "{refused}"
        );
    }

    #[test]
    fn escapes_and_containment() {
        // Nothing in front: every roll escapes; a full prime in front: none.
        let mut rows = [[0u8; 25]; 2];
        rows[0][23] = 1;
        rows[1][17] = 14;
        let board = Board::from_rows(rows).expect("board");
        assert_eq!(back_escapes(&board, Side::White), 36);
        let mut rows = [[0u8; 25]; 2];
        rows[0][23] = 1;
        // Black's points 2 to 7 are white's 18 to 23: a six-prime just in front.
        rows[1][1..=6].fill(2);
        let board = Board::from_rows(rows).expect("board");
        assert_eq!(back_escapes(&board, Side::White), 0);
        assert_eq!(containment(&board, Side::Black), 1.0);
        assert_eq!(containment(&board, Side::White), 0.0);
        // The start: the back checkers on the 24 face points 6, 8 (and 13) of the other
        // side, 7 and 5 away.
        let start = Board::start();
        let at_start = back_escapes(&start, Side::White);
        assert!(at_start > 0 && at_start < 36, "{at_start}");
        assert_eq!(at_start, back_escapes(&start, Side::Black));
    }

    #[test]
    fn builtin_weights_load() {
        let net = Net::builtin();
        let p = net.evaluate(&Board::start(), Side::White);
        assert!(p[0] > 0.3 && p[0] < 0.7, "{p:?}");
    }
}
