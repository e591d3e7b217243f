//! The training loss and its gradient by backpropagation through [`Trace`].
//!
//! Loss per board: the policy's cross-entropy against the teacher's move distribution
//! (soft targets), plus the value's binary cross-entropy against the teacher's win rate,
//! plus [`OWNERSHIP_WEIGHT`] × the ownership's mean squared error per point.

use super::features::PLANES;
use super::layers::{col2im_add, conv_backward};
use super::model::{Layout, Net, Trace, sigmoid, size_scale};

/// The ownership term's weight: an auxiliary target, kept below the two the search uses.
pub const OWNERSHIP_WEIGHT: f32 = 0.5;

/// What one board should make the net say.
#[derive(Clone, Debug)]
pub struct Target {
    /// Move probabilities, one a point and then pass, summing to 1.
    pub policy: Vec<f32>,
    /// The side to move's win probability.
    pub value: f32,
    /// Each point's owner from the side to move's view (−1 to 1), if known.
    pub ownership: Option<Vec<f32>>,
}

/// A batch's summed losses and counts, for reporting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    pub boards: usize,
    pub policy: f64,
    pub value: f64,
    pub value_mse: f64,
    pub ownership: f64,
    /// Boards whose highest logit is the target's most likely move.
    pub top1: usize,
}

impl Losses {
    pub fn add(&mut self, other: &Losses) {
        self.boards += other.boards;
        self.policy += other.policy;
        self.value += other.value;
        self.value_mse += other.value_mse;
        self.ownership += other.ownership;
        self.top1 += other.top1;
    }

    /// The mean total loss a board.
    pub fn mean_total(&self) -> f64 {
        (self.policy + self.value + f64::from(OWNERSHIP_WEIGHT) * self.ownership)
            / self.boards.max(1) as f64
    }
}

fn argmax(xs: &[f32]) -> usize {
    let mut best = 0;
    for (i, &x) in xs.iter().enumerate() {
        if x > xs[best] {
            best = i;
        }
    }
    best
}

/// The losses of a forward pass, and (when `grad` is given) adds the gradient of the
/// batch's mean loss to `grad`.
pub fn loss_and_gradient(
    net: &Net,
    trace: &Trace,
    targets: &[Target],
    grad: Option<&mut [f32]>,
) -> Losses {
    let area = trace.size * trace.size;
    let batch = trace.batch;
    let mut losses = Losses {
        boards: batch,
        ..Losses::default()
    };
    let mut dlogits = vec![0.0; batch * (area + 1)];
    let mut dvalue = vec![0.0; batch];
    let mut down = vec![0.0; batch * area];
    let inv = 1.0 / batch as f32;
    for (b, target) in targets.iter().enumerate() {
        let logits = &trace.logits[b * (area + 1)..(b + 1) * (area + 1)];
        let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = logits.iter().map(|l| (l - max).exp()).sum();
        let log_z = max + sum.ln();
        for (i, (&l, &t)) in logits.iter().zip(&target.policy).enumerate() {
            let p = (l - log_z).exp();
            if t > 0.0 {
                losses.policy -= f64::from(t * (l - log_z));
            }
            dlogits[b * (area + 1) + i] = (p - t) * inv;
        }
        losses.top1 += usize::from(argmax(logits) == argmax(&target.policy));
        let v = sigmoid(trace.value_logits[b]);
        let z = target.value;
        let eps = 1e-6;
        losses.value -= f64::from(z * (v + eps).ln() + (1.0 - z) * (1.0 - v + eps).ln());
        losses.value_mse += f64::from((v - z) * (v - z));
        dvalue[b] = (v - z) * inv;
        if let Some(own_target) = &target.ownership {
            let own = &trace.ownership[b * area..(b + 1) * area];
            let mut sq = 0.0;
            for (i, (&o, &y)) in own.iter().zip(own_target).enumerate() {
                sq += (o - y) * (o - y);
                down[b * area + i] =
                    OWNERSHIP_WEIGHT * 2.0 * (o - y) * (1.0 - o * o) / area as f32 * inv;
            }
            losses.ownership += f64::from(sq / area as f32);
        }
    }
    if let Some(grad) = grad {
        backward(net, trace, &dlogits, &dvalue, &down, grad);
    }
    losses
}

/// Adds the gradient of the heads' outputs (`dlogits`, `dvalue`, `down`) to `grad`.
fn backward(
    net: &Net,
    trace: &Trace,
    dlogits: &[f32],
    dvalue: &[f32],
    down: &[f32],
    grad: &mut [f32],
) {
    let layout = net.layout();
    let dtower = heads_backward(net, &layout, trace, dlogits, dvalue, down, grad);
    tower_backward(net, &layout, trace, dtower, grad);
}

fn heads_backward(
    net: &Net,
    layout: &Layout,
    trace: &Trace,
    dlogits: &[f32],
    dvalue: &[f32],
    down: &[f32],
    grad: &mut [f32],
) -> Vec<f32> {
    let w = &net.weights;
    let (c, hid) = (net.shape.channels, net.shape.value_hidden);
    let area = trace.size * trace.size;
    let width = trace.batch * area;
    let tower = trace.acts.last().expect("the tower's output");
    let mut dtower = vec![0.0; c * width];
    let scale = size_scale(trace.size);
    for b in 0..trace.batch {
        let dl = &dlogits[b * (area + 1)..b * (area + 1) + area];
        let dpass = dlogits[b * (area + 1) + area];
        let dow = &down[b * area..(b + 1) * area];
        let g = &trace.pooled[b * 2 * c..(b + 1) * 2 * c];
        let hv = &trace.hidden[b * hid..(b + 1) * hid];
        grad[layout.policy_b.start] += dl.iter().sum::<f32>();
        grad[layout.own_b.start] += dow.iter().sum::<f32>();
        grad[layout.pass_b.start] += dpass;
        grad[layout.value2_b.start] += dvalue[b];
        let mut dg = vec![0.0; 2 * c];
        for (i, d) in dg.iter_mut().enumerate() {
            grad[layout.pass_w.start + i] += dpass * g[i];
            *d += dpass * w[layout.pass_w.start + i];
        }
        for j in 0..hid {
            grad[layout.value2_w.start + j] += dvalue[b] * hv[j];
            if hv[j] <= 0.0 {
                continue;
            }
            let dh = dvalue[b] * w[layout.value2_w.start + j];
            grad[layout.value1_b.start + j] += dh;
            let row = layout.value1_w.start + j * 2 * c;
            for i in 0..2 * c {
                grad[row + i] += dh * g[i];
                dg[i] += dh * w[row + i];
            }
        }
        for ch in 0..c {
            let at = ch * width + b * area;
            let row = &tower[at..at + area];
            let (wp, wo) = (w[layout.policy_w.start + ch], w[layout.own_w.start + ch]);
            let pooled_grad = (dg[ch] + dg[c + ch] * scale) / area as f32;
            let mut gp = 0.0;
            let mut go = 0.0;
            for (i, (d, &t)) in dtower[at..at + area].iter_mut().zip(row).enumerate() {
                gp += dl[i] * t;
                go += dow[i] * t;
                // The ReLU of the tower's last sum: no gradient where it was cut.
                *d = if t > 0.0 {
                    dl[i] * wp + dow[i] * wo + pooled_grad
                } else {
                    0.0
                };
            }
            grad[layout.policy_w.start + ch] += gp;
            grad[layout.own_w.start + ch] += go;
        }
    }
    dtower
}

/// Backpropagates through the residual blocks and the stem. `dz` is the gradient at the
/// last block's pre-activation sum (the ReLU already applied by the heads' side).
fn tower_backward(net: &Net, layout: &Layout, trace: &Trace, mut dz: Vec<f32>, grad: &mut [f32]) {
    let w = &net.weights;
    let c = net.shape.channels;
    let (size, batch) = (trace.size, trace.batch);
    let width = batch * size * size;
    let mut dcols = vec![0.0; c * 9 * width];
    for (i, block) in layout.blocks.iter().enumerate().rev() {
        let (cols1, h) = (&trace.cols[1 + 2 * i], &trace.acts[1 + 2 * i]);
        let cols2 = &trace.cols[2 + 2 * i];
        let input = &trace.acts[2 * i];
        // The second convolution: its input gradient is the hidden layer's.
        let (gw2, gb2) = split_two(grad, &block[2], &block[3]);
        conv_backward(
            &w[block[2].clone()],
            cols2,
            &dz,
            width,
            (gw2, gb2),
            Some(&mut dcols),
        );
        let mut dh = vec![0.0; c * width];
        col2im_add(&dcols, c, size, batch, &mut dh);
        for (d, &x) in dh.iter_mut().zip(h) {
            if x <= 0.0 {
                *d = 0.0;
            }
        }
        let (gw1, gb1) = split_two(grad, &block[0], &block[1]);
        conv_backward(
            &w[block[0].clone()],
            cols1,
            &dh,
            width,
            (gw1, gb1),
            Some(&mut dcols),
        );
        // The block's input gets the skip's gradient and the first convolution's.
        let mut dinput = dz;
        col2im_add(&dcols, c, size, batch, &mut dinput);
        for (d, &x) in dinput.iter_mut().zip(input) {
            if x <= 0.0 {
                *d = 0.0;
            }
        }
        dz = dinput;
    }
    let (gw, gb) = split_two(grad, &layout.stem_w, &layout.stem_b);
    conv_backward(
        &w[layout.stem_w.clone()],
        &trace.cols[0],
        &dz,
        width,
        (gw, gb),
        None,
    );
    debug_assert_eq!(trace.cols[0].len(), PLANES * 9 * width);
}

/// Two disjoint ranges of `grad`, the first before the second, as two mutable slices.
fn split_two<'a>(
    grad: &'a mut [f32],
    first: &std::ops::Range<usize>,
    second: &std::ops::Range<usize>,
) -> (&'a mut [f32], &'a mut [f32]) {
    let (head, tail) = grad.split_at_mut(second.start);
    (&mut head[first.clone()], &mut tail[..second.len()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::net::model::Shape;

    fn sample(size: usize, batch: usize) -> (Vec<f32>, Vec<Target>) {
        let area = size * size;
        let planes: Vec<f32> = (0..PLANES * area * batch)
            .map(|i| ((i * 7919) % 11) as f32 / 10.0 - 0.3)
            .collect();
        let targets = (0..batch)
            .map(|b| {
                let mut policy = vec![0.0; area + 1];
                policy[(b * 3) % area] = 0.75;
                policy[area] = 0.25;
                Target {
                    policy,
                    value: 0.3,
                    ownership: Some((0..area).map(|i| (i % 3) as f32 - 1.0).collect()),
                }
            })
            .collect();
        (planes, targets)
    }

    fn loss(net: &Net, planes: &[f32], size: usize, targets: &[Target]) -> f64 {
        let trace = net.forward(planes, size, targets.len());
        loss_and_gradient(net, &trace, targets, None).mean_total()
    }

    #[test]
    fn the_gradient_matches_finite_differences() {
        let shape = Shape {
            blocks: 2,
            channels: 3,
            value_hidden: 4,
        };
        let mut net = Net::random(shape, 7);
        // Non-zero biases everywhere so that every path carries gradient.
        for (i, w) in net.weights.iter_mut().enumerate() {
            *w += 0.01 * ((i % 5) as f32 - 2.0);
        }
        let (size, batch) = (3, 2);
        let (planes, targets) = sample(size, batch);
        let trace = net.forward(&planes, size, batch);
        let mut grad = vec![0.0; net.weights.len()];
        loss_and_gradient(&net, &trace, &targets, Some(&mut grad));
        let h = 2e-3;
        let mut checked = 0;
        let mut off = Vec::new();
        for i in (0..net.weights.len()).step_by(7) {
            let mut plus = net.clone();
            plus.weights[i] += h;
            let mut minus = net.clone();
            minus.weights[i] -= h;
            let numeric = (loss(&plus, &planes, size, &targets)
                - loss(&minus, &planes, size, &targets))
                / (2.0 * f64::from(h));
            let analytic = f64::from(grad[i]);
            // A step across a ReLU's kink can miss; anything systematic shows in many.
            if (numeric - analytic).abs() > 2e-3 + 0.05 * numeric.abs() {
                off.push((i, numeric, analytic));
            }
            checked += 1;
        }
        assert!(checked > 50);
        assert!(
            off.len() * 50 <= checked,
            "{} of {checked} off: {off:?}",
            off.len()
        );
    }

    #[test]
    fn losses_by_hand_for_uniform_outputs() {
        // A zero net says uniform over 5 moves (2×2 + pass), value 0.5, ownership 0.
        let shape = Shape {
            blocks: 0,
            channels: 1,
            value_hidden: 1,
        };
        let net = Net {
            shape,
            weights: vec![0.0; Layout::of(shape).total],
        };
        let mut policy = vec![0.0; 5];
        policy[0] = 1.0;
        let target = Target {
            policy,
            value: 1.0,
            ownership: Some(vec![1.0; 4]),
        };
        let trace = net.forward(&vec![0.0; PLANES * 4], 2, 1);
        let l = loss_and_gradient(&net, &trace, &[target], None);
        assert!((l.policy - 5f64.ln()).abs() < 1e-5);
        assert!((l.value - 2f64.ln()).abs() < 1e-4);
        assert!((l.value_mse - 0.25).abs() < 1e-6);
        assert!((l.ownership - 1.0).abs() < 1e-6);
    }
}
