//! The network: a residual tower of 3×3 convolutions (ReLU, no normalisation: the second
//! convolution of each block starts small, so each block starts near the identity), and
//! three heads on the tower's output:
//!
//! - policy: a 1×1 convolution gives one logit a point; the pass logit comes from the
//!   board's pooled features, so the net has no fixed board size;
//! - value: pooled features → a hidden layer → the win probability of the side to move;
//! - ownership: a 1×1 convolution → tanh, each point's owner (+1 the side to move's), an
//!   auxiliary target that teaches the tower whole-board judgement cheaply.
//!
//! Pooling is each channel's mean over the board and the same mean scaled by
//! `(size − 14) / 10`, so the heads can tell small boards from large ones.
//!
//! All weights live in one flat vector ([`Layout`] says where), so that the optimiser, the
//! weights file and the checkpoint treat them as one array.

use std::ops::Range;

use rand::SeedableRng;
use rand::distr::{Distribution, Uniform};
use rand_chacha::ChaCha8Rng;

use super::features::PLANES;
use super::layers::{conv_forward, im2col};

/// The net's dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// Residual blocks (two convolutions each).
    pub blocks: usize,
    /// Channels of the tower.
    pub channels: usize,
    /// Units of the value head's hidden layer.
    pub value_hidden: usize,
}

/// The most blocks and channels a file may declare: far above what a CPU can run.
pub const MAX_BLOCKS: usize = 64;
pub const MAX_CHANNELS: usize = 512;
pub const MAX_VALUE_HIDDEN: usize = 1024;

/// Where each weight tensor lives in the flat vector.
#[derive(Clone, Debug)]
pub struct Layout {
    pub stem_w: Range<usize>,
    pub stem_b: Range<usize>,
    /// Per block: first conv's weights and bias, second conv's weights and bias.
    pub blocks: Vec<[Range<usize>; 4]>,
    pub policy_w: Range<usize>,
    pub policy_b: Range<usize>,
    pub pass_w: Range<usize>,
    pub pass_b: Range<usize>,
    pub value1_w: Range<usize>,
    pub value1_b: Range<usize>,
    pub value2_w: Range<usize>,
    pub value2_b: Range<usize>,
    pub own_w: Range<usize>,
    pub own_b: Range<usize>,
    pub total: usize,
}

impl Layout {
    pub fn of(shape: Shape) -> Layout {
        let c = shape.channels;
        let h = shape.value_hidden;
        let mut at = 0;
        let mut take = |n: usize| {
            at += n;
            at - n..at
        };
        let stem_w = take(c * PLANES * 9);
        let stem_b = take(c);
        let blocks = (0..shape.blocks)
            .map(|_| [take(c * c * 9), take(c), take(c * c * 9), take(c)])
            .collect();
        Layout {
            stem_w,
            stem_b,
            blocks,
            policy_w: take(c),
            policy_b: take(1),
            pass_w: take(2 * c),
            pass_b: take(1),
            value1_w: take(h * 2 * c),
            value1_b: take(h),
            value2_w: take(h),
            value2_b: take(1),
            own_w: take(c),
            own_b: take(1),
            total: at,
        }
    }
}

/// A network: its shape and its weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub shape: Shape,
    pub weights: Vec<f32>,
}

/// What the net says of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Eval {
    /// Move probabilities: one a point (`row * size + col`), then pass.
    pub policy: Vec<f32>,
    /// The side to move's win probability.
    pub value: f32,
    /// Each point's expected owner, +1 the side to move's, −1 the opponent's.
    pub ownership: Vec<f32>,
}

/// The working memory of [`Net::evaluate_with`]: the columns of a convolution's input and
/// three activations (the block's input, its middle and its output).
#[derive(Debug, Default)]
pub struct Scratch {
    cols: Vec<f32>,
    x: Vec<f32>,
    h: Vec<f32>,
    z: Vec<f32>,
}

/// The heads' outputs over a batch (see [`Trace`]).
struct Heads {
    pooled: Vec<f32>,
    hidden: Vec<f32>,
    logits: Vec<f32>,
    value_logits: Vec<f32>,
    ownership: Vec<f32>,
}

/// The intermediate values of a forward pass over a batch, which the gradient needs.
pub struct Trace {
    pub size: usize,
    pub batch: usize,
    /// Each convolution's input columns, in order: stem, then two a block.
    pub cols: Vec<Vec<f32>>,
    /// Each convolution's output after its ReLU (a block's second: after the sum).
    pub acts: Vec<Vec<f32>>,
    /// Pooled features, `batch × 2·channels`.
    pub pooled: Vec<f32>,
    /// The value head's hidden units after ReLU, `batch × hidden`.
    pub hidden: Vec<f32>,
    /// Policy logits, `batch × (area + 1)`.
    pub logits: Vec<f32>,
    /// Value logits (before the sigmoid), one a board.
    pub value_logits: Vec<f32>,
    /// Ownership after tanh, `batch × area`.
    pub ownership: Vec<f32>,
}

fn relu(xs: &mut [f32]) {
    for x in xs {
        *x = x.max(0.0);
    }
}

/// The pooled features' scale for a board: 0 for 14 lines, −0.5 for 9, +0.5 for 19.
pub fn size_scale(size: usize) -> f32 {
    (size as f32 - 14.0) / 10.0
}

impl Net {
    /// A new net with random weights (He initialisation; each block's second convolution
    /// a tenth of that, so the tower starts near the identity).
    pub fn random(shape: Shape, seed: u64) -> Net {
        let layout = Layout::of(shape);
        let mut weights = vec![0.0; layout.total];
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut fill = |range: &Range<usize>, fan_in: usize, gain: f32| {
            // A uniform with the variance of He's normal: limit sqrt(3) · std.
            let limit = gain * (6.0 / fan_in as f32).sqrt();
            let dist = Uniform::new_inclusive(-limit, limit).expect("a finite limit");
            for w in &mut weights[range.clone()] {
                *w = dist.sample(&mut rng);
            }
        };
        let c = shape.channels;
        fill(&layout.stem_w, PLANES * 9, 1.0);
        for block in &layout.blocks {
            fill(&block[0], c * 9, 1.0);
            fill(&block[2], c * 9, 0.1);
        }
        fill(&layout.policy_w, c, 0.5);
        fill(&layout.pass_w, 2 * c, 0.5);
        fill(&layout.value1_w, 2 * c, 1.0);
        fill(&layout.value2_w, shape.value_hidden, 0.5);
        fill(&layout.own_w, c, 0.5);
        Net { shape, weights }
    }

    pub fn layout(&self) -> Layout {
        Layout::of(self.shape)
    }

    /// The net's judgement of one position's planes (`PLANES × size²`, from
    /// [`super::features::Snapshot::planes`]).
    pub fn evaluate(&self, planes: &[f32], size: usize) -> Eval {
        self.evaluate_with(planes, size, &mut Scratch::default())
    }

    /// [`Net::evaluate`] with its working memory in `scratch`, kept from one call to the
    /// next: a search evaluates thousands of positions, and keeps no trace for a gradient.
    pub fn evaluate_with(&self, planes: &[f32], size: usize, scratch: &mut Scratch) -> Eval {
        let layout = self.layout();
        self.tower_into(&layout, planes, size, scratch);
        let heads = self.head_outputs(&layout, size, 1, &scratch.x);
        let area = size * size;
        let logits = &heads.logits;
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut policy: Vec<f32> = logits.iter().map(|l| (l - max).exp()).collect();
        let sum: f32 = policy.iter().sum();
        for p in &mut policy {
            *p /= sum;
        }
        debug_assert_eq!(policy.len(), area + 1);
        Eval {
            policy,
            value: sigmoid(heads.value_logits[0]),
            ownership: heads.ownership,
        }
    }

    /// The tower's output for one board into `scratch.x`, reusing its buffers.
    fn tower_into(&self, layout: &Layout, planes: &[f32], size: usize, scratch: &mut Scratch) {
        let w = &self.weights;
        let c = self.shape.channels;
        let width = size * size;
        let Scratch { cols, x, h, z } = scratch;
        let mut conv = |input: &[f32],
                        in_ch: usize,
                        wr: &Range<usize>,
                        br: &Range<usize>,
                        out: &mut Vec<f32>| {
            cols.resize(in_ch * 9 * width, 0.0);
            im2col(input, in_ch, size, 1, cols);
            out.resize(c * width, 0.0);
            conv_forward(&w[wr.clone()], &w[br.clone()], cols, width, out);
        };
        conv(planes, PLANES, &layout.stem_w, &layout.stem_b, x);
        relu(x);
        for block in &layout.blocks {
            conv(x, c, &block[0], &block[1], h);
            relu(h);
            conv(h, c, &block[2], &block[3], z);
            for (z, x) in z.iter_mut().zip(x.iter()) {
                *z += x;
            }
            relu(z);
            std::mem::swap(x, z);
        }
    }

    /// A forward pass over `batch` boards of `size` lines whose planes lie side by side
    /// (`PLANES × batch·size²`, as `layers.rs` lays tensors).
    pub fn forward(&self, planes: &[f32], size: usize, batch: usize) -> Trace {
        let layout = self.layout();
        let w = &self.weights;
        let c = self.shape.channels;
        let width = batch * size * size;
        let conv = |input: &[f32], in_ch: usize, wr: &Range<usize>, br: &Range<usize>| {
            let mut cols = vec![0.0; in_ch * 9 * width];
            im2col(input, in_ch, size, batch, &mut cols);
            let mut out = vec![0.0; c * width];
            conv_forward(&w[wr.clone()], &w[br.clone()], &cols, width, &mut out);
            (cols, out)
        };
        let (cols0, mut a) = conv(planes, PLANES, &layout.stem_w, &layout.stem_b);
        relu(&mut a);
        let mut cols = vec![cols0];
        let mut acts = vec![a];
        for block in &layout.blocks {
            let input = acts.last().expect("the stem's output");
            let (cols1, mut h) = conv(input, c, &block[0], &block[1]);
            relu(&mut h);
            let (cols2, mut z) = conv(&h, c, &block[2], &block[3]);
            for (z, x) in z.iter_mut().zip(input) {
                *z += x;
            }
            relu(&mut z);
            cols.push(cols1);
            acts.push(h);
            cols.push(cols2);
            acts.push(z);
        }
        self.heads(&layout, size, batch, cols, acts)
    }

    /// The three heads on the tower's output, with the trace the gradient needs.
    fn heads(
        &self,
        layout: &Layout,
        size: usize,
        batch: usize,
        cols: Vec<Vec<f32>>,
        acts: Vec<Vec<f32>>,
    ) -> Trace {
        let tower = acts.last().expect("the tower's output");
        let heads = self.head_outputs(layout, size, batch, tower);
        Trace {
            size,
            batch,
            cols,
            acts,
            pooled: heads.pooled,
            hidden: heads.hidden,
            logits: heads.logits,
            value_logits: heads.value_logits,
            ownership: heads.ownership,
        }
    }

    /// The three heads on the tower's output (`channels × batch·size²`), board by board.
    fn head_outputs(&self, layout: &Layout, size: usize, batch: usize, tower: &[f32]) -> Heads {
        let w = &self.weights;
        let (c, hid) = (self.shape.channels, self.shape.value_hidden);
        let area = size * size;
        let width = batch * area;
        let mut pooled = vec![0.0; batch * 2 * c];
        let mut logits = vec![0.0; batch * (area + 1)];
        let mut ownership = vec![0.0; batch * area];
        let mut hidden = vec![0.0; batch * hid];
        let mut value_logits = vec![0.0; batch];
        let scale = size_scale(size);
        for b in 0..batch {
            let point_logits = &mut logits[b * (area + 1)..b * (area + 1) + area];
            let own = &mut ownership[b * area..(b + 1) * area];
            point_logits.fill(w[layout.policy_b.start]);
            own.fill(w[layout.own_b.start]);
            let g = &mut pooled[b * 2 * c..(b + 1) * 2 * c];
            for ch in 0..c {
                let row = &tower[ch * width + b * area..ch * width + (b + 1) * area];
                let (wp, wo) = (w[layout.policy_w.start + ch], w[layout.own_w.start + ch]);
                for ((l, o), &t) in point_logits.iter_mut().zip(own.iter_mut()).zip(row) {
                    *l += wp * t;
                    *o += wo * t;
                }
                let mean = row.iter().sum::<f32>() / area as f32;
                g[ch] = mean;
                g[c + ch] = mean * scale;
            }
            for o in own.iter_mut() {
                *o = o.tanh();
            }
            logits[b * (area + 1) + area] =
                w[layout.pass_b.start] + dot(&w[layout.pass_w.clone()], g);
            let hv = &mut hidden[b * hid..(b + 1) * hid];
            for (j, h) in hv.iter_mut().enumerate() {
                let row =
                    &w[layout.value1_w.start + j * 2 * c..layout.value1_w.start + (j + 1) * 2 * c];
                *h = (w[layout.value1_b.start + j] + dot(row, g)).max(0.0);
            }
            value_logits[b] = w[layout.value2_b.start] + dot(&w[layout.value2_w.clone()], hv);
        }
        Heads {
            pooled,
            hidden,
            logits,
            value_logits,
            ownership,
        }
    }
}

pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny() -> Shape {
        Shape {
            blocks: 1,
            channels: 2,
            value_hidden: 2,
        }
    }

    #[test]
    fn the_layout_counts_every_weight_once() {
        let layout = Layout::of(tiny());
        let c = 2;
        let expected = c * PLANES * 9
            + c
            + 2 * (c * c * 9 + c)
            + c
            + 1
            + 2 * c
            + 1
            + 2 * 2 * c
            + 2
            + 2
            + 1
            + c
            + 1;
        assert_eq!(layout.total, expected);
        assert_eq!(layout.own_b.end, layout.total);
    }

    #[test]
    fn heads_by_hand_on_a_zero_tower() {
        // All weights zero but the heads' biases: every point logit equal to the policy
        // bias, the pass logit its bias, the value sigmoid(value bias), ownership tanh(bias).
        let shape = tiny();
        let layout = Layout::of(shape);
        let mut net = Net {
            shape,
            weights: vec![0.0; layout.total],
        };
        net.weights[layout.pass_b.start] = (4.0f32).ln();
        net.weights[layout.value2_b.start] = 1.0;
        net.weights[layout.own_b.start] = 0.5;
        let size = 2;
        let eval = net.evaluate(&vec![1.0; PLANES * 4], size);
        // Four points of weight 1 and pass of weight 4: 1/8 each, pass 1/2.
        for p in &eval.policy[..4] {
            assert!((p - 0.125).abs() < 1e-6);
        }
        assert!((eval.policy[4] - 0.5).abs() < 1e-6);
        assert!((eval.value - sigmoid(1.0)).abs() < 1e-6);
        assert!((eval.ownership[0] - 0.5f32.tanh()).abs() < 1e-6);
    }

    #[test]
    fn a_stem_and_pooling_by_hand() {
        // Stem channel 0 copies the on-board plane (centre tap 1), bias 0; no blocks.
        // The tower is then 1 on every point of channel 0; pooled = [1, 0, s, 0].
        let shape = Shape {
            blocks: 0,
            channels: 2,
            value_hidden: 1,
        };
        let layout = Layout::of(shape);
        let mut net = Net {
            shape,
            weights: vec![0.0; layout.total],
        };
        net.weights[layout.stem_w.start + 4] = 1.0;
        net.weights[layout.policy_w.start] = 2.0;
        net.weights[layout.value1_w.start] = 3.0;
        net.weights[layout.value1_w.start + 2] = 1.0;
        net.weights[layout.value2_w.start] = 1.0;
        let size = 9;
        let mut planes = vec![0.0; PLANES * 81];
        planes[..81].fill(1.0);
        let trace = net.forward(&planes, size, 1);
        assert_eq!(trace.pooled, vec![1.0, 0.0, size_scale(9), 0.0]);
        assert!(trace.logits[..81].iter().all(|&l| (l - 2.0).abs() < 1e-6));
        // hidden = relu(3 · 1 + 1 · (−0.5)) = 2.5; value logit = 2.5.
        assert!((trace.value_logits[0] - 2.5).abs() < 1e-6);
    }
}
