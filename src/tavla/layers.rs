//! The two layers both Tavla nets are made of (the main net in `net.rs`, the race net in
//! `race.rs`): sparse inputs, one hidden layer of sigmoids, five sigmoid outputs
//! ([`Probs`]). The forward pass, the gradient step and the weights in file order are
//! written once here; each net keeps its own inputs, start and file checks.
//!
//! The forward pass sums the weight rows of the non-zero inputs only, into fixed-size
//! arrays: evaluating allocates nothing.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// Outputs: win, win gammon, win backgammon, lose gammon, lose backgammon.
pub const OUTPUTS: usize = 5;

/// The probabilities of one position for the side on roll.
pub type Probs = [f32; OUTPUTS];

#[inline]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The non-zero inputs of a position (at most `N`): their numbers and values, in the order
/// pushed.
#[derive(Clone, Debug)]
pub struct Sparse<const N: usize> {
    index: [u16; N],
    value: [f32; N],
    len: usize,
}

impl<const N: usize> Default for Sparse<N> {
    fn default() -> Sparse<N> {
        Sparse {
            index: [0; N],
            value: [0.0; N],
            len: 0,
        }
    }
}

impl<const N: usize> Sparse<N> {
    /// Input `index` at `value`; a zero is left out.
    pub(super) fn push(&mut self, index: usize, value: f32) {
        if value != 0.0 {
            self.index[self.len] = index as u16;
            self.value[self.len] = value;
            self.len += 1;
        }
    }

    /// Tesauro's four units, from `at`, of a point holding `n` checkers of one side: one,
    /// two or more, three or more, and half of each checker past three.
    pub(super) fn push_point(&mut self, at: usize, n: u8) {
        self.push(at, if n == 1 { 1.0 } else { 0.0 });
        self.push(at + 1, if n >= 2 { 1.0 } else { 0.0 });
        self.push(at + 2, if n >= 3 { 1.0 } else { 0.0 });
        self.push(at + 3, if n > 3 { f32::from(n - 3) / 2.0 } else { 0.0 });
    }

    /// The non-zero inputs' numbers.
    pub(super) fn active(&self) -> &[u16] {
        &self.index[..self.len]
    }

    /// Their values, in the same order.
    pub(super) fn values(&self) -> &[f32] {
        &self.value[..self.len]
    }
}

/// The weights of a net of `HIDDEN` hidden units.
#[derive(Clone, PartialEq)]
pub struct Layers<const HIDDEN: usize> {
    /// One row of `HIDDEN` weights per input.
    pub(super) w1: Vec<[f32; HIDDEN]>,
    pub(super) b1: [f32; HIDDEN],
    pub(super) w2: [[f32; HIDDEN]; OUTPUTS],
    pub(super) b2: [f32; OUTPUTS],
}

/// A forward pass, kept for a learning step.
pub struct Activations<const HIDDEN: usize> {
    pub(super) hidden: [f32; HIDDEN],
    pub(super) out: Probs,
}

impl<const HIDDEN: usize> Layers<HIDDEN> {
    /// Small random weights for `inputs` inputs, uniform in ±0.1 from ChaCha20 seeded by
    /// `seed`: the start of training.
    pub(super) fn seeded(inputs: usize, seed: u64) -> Layers<HIDDEN> {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        Layers::drawn(inputs, || {
            let unit = (rng.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
            (unit * 2.0 - 1.0) * 0.1
        })
    }

    /// `inputs` rows of first-layer weights and then the second layer's, each from `draw`
    /// in that order (by input, then by output); biases zero.
    fn drawn(inputs: usize, mut draw: impl FnMut() -> f32) -> Layers<HIDDEN> {
        let mut w1 = vec![[0.0; HIDDEN]; inputs];
        w1.iter_mut().flatten().for_each(|w| *w = draw());
        let mut w2 = [[0.0; HIDDEN]; OUTPUTS];
        w2.iter_mut().flatten().for_each(|w| *w = draw());
        Layers {
            w1,
            b1: [0.0; HIDDEN],
            w2,
            b2: [0.0; OUTPUTS],
        }
    }

    /// The forward pass over the non-zero inputs `index` with their `value`s.
    pub(super) fn activate(&self, index: &[u16], value: &[f32]) -> Activations<HIDDEN> {
        let mut hidden = self.b1;
        for (&input, &v) in index.iter().zip(value) {
            let row = &self.w1[usize::from(input)];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += v * w;
            }
        }
        hidden.iter_mut().for_each(|h| *h = sigmoid(*h));
        let mut out = [0.0; OUTPUTS];
        for (o, (row, b)) in out.iter_mut().zip(self.w2.iter().zip(&self.b2)) {
            let sum: f32 = row.iter().zip(&hidden).map(|(w, h)| w * h).sum();
            *o = sigmoid(sum + b);
        }
        Activations { hidden, out }
    }

    /// One gradient step of the outputs for the inputs towards `target` (cross-entropy
    /// loss); returns the outputs before the step.
    pub(super) fn learn(
        &mut self,
        index: &[u16],
        value: &[f32],
        target: &Probs,
        rate: f32,
    ) -> Probs {
        let act = self.activate(index, value);
        let delta: Probs = std::array::from_fn(|k| target[k] - act.out[k]);
        let mut grad = [0.0f32; HIDDEN];
        for (j, g) in grad.iter_mut().enumerate() {
            let back: f32 = (0..OUTPUTS).map(|k| delta[k] * self.w2[k][j]).sum();
            let h = act.hidden[j];
            *g = back * h * (1.0 - h) * rate;
        }
        for ((row, b), d) in self.w2.iter_mut().zip(&mut self.b2).zip(&delta) {
            let step = rate * d;
            for (w, h) in row.iter_mut().zip(&act.hidden) {
                *w += step * h;
            }
            *b += step;
        }
        for (&input, &v) in index.iter().zip(value) {
            let row = &mut self.w1[usize::from(input)];
            for (w, g) in row.iter_mut().zip(&grad) {
                *w += v * g;
            }
        }
        for (b, g) in self.b1.iter_mut().zip(&grad) {
            *b += g;
        }
        act.out
    }

    /// The weights file: `magic`, the shape (inputs, hidden, outputs as u32 LE), then every
    /// weight as f32 LE in file order (w1 by input, b1, w2 by output, b2).
    pub(super) fn to_bytes(&self, magic: &[u8; 4]) -> Vec<u8> {
        let count = self.w1.len() * HIDDEN + HIDDEN + OUTPUTS * HIDDEN + OUTPUTS;
        let mut out = Vec::with_capacity(16 + 4 * count);
        out.extend_from_slice(magic);
        for n in [self.w1.len(), HIDDEN, OUTPUTS] {
            out.extend_from_slice(&(n as u32).to_le_bytes());
        }
        let all = self
            .w1
            .iter()
            .flatten()
            .chain(&self.b1)
            .chain(self.w2.iter().flatten())
            .chain(&self.b2);
        for w in all {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Every weight in file order, to be set from a file of exactly this shape.
    pub(super) fn weights_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.w1
            .iter_mut()
            .flatten()
            .chain(&mut self.b1)
            .chain(self.w2.iter_mut().flatten())
            .chain(&mut self.b2)
    }
}
