//! Minorization–maximization (Coulom 2007, after Hunter 2004): fits one strength (gamma)
//! per feature so that the move played in each recorded position is as likely as can be
//! under the generalised Bradley–Terry model, where a move's strength is the product of
//! its features' gammas and it is chosen with probability its strength over the sum of
//! every candidate's.
//!
//! Each feature also plays two virtual games against a feature of gamma 1, winning one
//! and losing one: a weak prior that keeps a rarely seen feature near 1 instead of at 0
//! or infinity. The fit is a fixed number of sweeps in a fixed order, so the same data
//! give the same gammas, bit for bit.

use std::ops::Range;

/// A candidate has no feature in a group: its slot holds this.
pub(crate) const NO_FEATURE: u32 = u32::MAX;

/// Recorded positions, each a run of candidates (one feature index a group, or
/// [`NO_FEATURE`]) and the one that was played.
#[derive(Clone, Debug, Default)]
pub(crate) struct Competitions<const G: usize> {
    candidates: Vec<[u32; G]>,
    /// (first candidate, candidates, played candidate's offset).
    positions: Vec<(usize, usize, usize)>,
}

impl<const G: usize> Competitions<G> {
    /// Adds a position with `candidates`, of which `played` (an index into it) was played.
    /// A position with fewer than two candidates or a `played` out of range teaches
    /// nothing and is left out.
    pub(crate) fn push(&mut self, candidates: &[[u32; G]], played: usize) {
        if candidates.len() < 2 || played >= candidates.len() {
            return;
        }
        self.positions
            .push((self.candidates.len(), candidates.len(), played));
        self.candidates.extend_from_slice(candidates);
    }

    /// Adds `by` to every feature index in slot `slot` (features numbered before their
    /// group's place among all features was known).
    pub(crate) fn shift_slot(&mut self, slot: usize, by: u32) {
        for candidate in &mut self.candidates {
            if candidate[slot] != NO_FEATURE {
                candidate[slot] += by;
            }
        }
    }

    pub(crate) fn positions(&self) -> usize {
        self.positions.len()
    }

    pub(crate) fn candidates(&self) -> usize {
        self.candidates.len()
    }
}

/// How the fit runs.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Fit {
    /// Sweeps over all groups.
    pub(crate) sweeps: usize,
    /// Virtual wins (and as many losses) against a gamma of 1, per feature.
    pub(crate) prior: f64,
}

/// The gammas of features `0..features` fitted to `data`. `groups[g]` is the range of
/// feature indices that slot `g` of a candidate draws from; the ranges must not overlap.
pub(crate) fn fit<const G: usize>(
    data: &Competitions<G>,
    groups: &[Range<usize>; G],
    features: usize,
    fit: Fit,
) -> Vec<f64> {
    let mut gammas = vec![1.0f64; features];
    let mut wins = vec![fit.prior; features];
    for &(first, _, played) in &data.positions {
        for &f in &data.candidates[first + played] {
            if f != NO_FEATURE {
                wins[f as usize] += 1.0;
            }
        }
    }
    // Each candidate's strength, kept up to date as gammas change.
    let mut strengths = vec![1.0f64; data.candidates.len()];
    let mut denominators = vec![0.0f64; features];
    for _ in 0..fit.sweeps {
        for (g, range) in groups.iter().enumerate() {
            denominators[range.clone()].fill(0.0);
            for &(first, count, _) in &data.positions {
                let span = first..first + count;
                let total: f64 = strengths[span.clone()].iter().sum();
                for c in span {
                    let f = data.candidates[c][g];
                    if f != NO_FEATURE {
                        // The strength of the candidate's other features, over the total.
                        let f = f as usize;
                        denominators[f] += strengths[c] / gammas[f] / total;
                    }
                }
            }
            let old: Vec<f64> = gammas[range.clone()].to_vec();
            for f in range.clone() {
                let virtual_games = 2.0 * fit.prior / (gammas[f] + 1.0);
                gammas[f] = wins[f] / (denominators[f] + virtual_games);
            }
            for (c, candidate) in data.candidates.iter().enumerate() {
                let f = candidate[g];
                if f != NO_FEATURE {
                    let f = f as usize;
                    strengths[c] *= gammas[f] / old[f - range.start];
                }
            }
        }
    }
    gammas
}

/// A candidate's strength under `gammas`.
fn strength<const G: usize>(candidate: &[u32; G], gammas: &[f64]) -> f64 {
    candidate
        .iter()
        .filter(|&&f| f != NO_FEATURE)
        .map(|&f| gammas[f as usize])
        .product()
}

/// The share of positions whose played move is the strongest under `gammas` (ties
/// counted against it).
pub(crate) fn top_share<const G: usize>(data: &Competitions<G>, gammas: &[f64]) -> f64 {
    let hits = data
        .positions
        .iter()
        .filter(|&&(first, count, played)| {
            let played_strength = strength(&data.candidates[first + played], gammas);
            data.candidates[first..first + count]
                .iter()
                .enumerate()
                .all(|(i, c)| i == played || strength(c, gammas) < played_strength)
        })
        .count();
    hits as f64 / data.positions.len().max(1) as f64
}

/// The mean log-likelihood of the played moves under `gammas`: how well they predict,
/// 0 at best.
pub(crate) fn log_likelihood<const G: usize>(data: &Competitions<G>, gammas: &[f64]) -> f64 {
    let strength = |candidate: &[u32; G]| strength(candidate, gammas);
    let total: f64 = data
        .positions
        .iter()
        .map(|&(first, count, played)| {
            let sum: f64 = data.candidates[first..first + count]
                .iter()
                .map(strength)
                .sum();
            (strength(&data.candidates[first + played]) / sum).ln()
        })
        .sum();
    total / data.positions.len().max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three moves a position, features 0, 1 and 2 of one group and 3 (all), 4 (none) of
    /// another; feature 0's move is played 4 times in 7, 1's twice and 2's once.
    fn synthetic() -> Competitions<2> {
        let mut data = Competitions::default();
        let candidates = [[0, 3], [1, NO_FEATURE], [2, 3]];
        for round in 0..70 {
            let played = match round % 7 {
                0..=3 => 0,
                4 | 5 => 1,
                _ => 2,
            };
            data.push(&candidates, played);
        }
        data
    }

    #[test]
    fn mm_recovers_the_order_of_the_strengths() {
        let data = synthetic();
        let groups = [0..3, 3..5];
        let gammas = fit(
            &data,
            &groups,
            5,
            Fit {
                sweeps: 50,
                prior: 1.0,
            },
        );
        assert!(gammas[0] > gammas[1] && gammas[1] > gammas[2], "{gammas:?}");
        // The model predicts the frequencies: 4/7, 2/7 and 1/7, near enough with a
        // prior of one virtual win and loss in 70 positions.
        let strength = [gammas[0] * gammas[3], gammas[1], gammas[2] * gammas[3]];
        let total: f64 = strength.iter().sum();
        for (s, expected) in strength.iter().zip([4.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0]) {
            assert!((s / total - expected).abs() < 0.03, "{strength:?}");
        }
        // Feature 4 is never seen: it stays at 1.
        assert_eq!(gammas[4], 1.0);
        // The fit beats equal gammas.
        assert!(log_likelihood(&data, &gammas) > log_likelihood(&data, &[1.0; 5]));
    }

    #[test]
    fn a_strong_prior_keeps_gammas_near_one() {
        let data = synthetic();
        let groups = [0..3, 3..5];
        let gammas = fit(
            &data,
            &groups,
            5,
            Fit {
                sweeps: 50,
                prior: 1000.0,
            },
        );
        for g in &gammas {
            assert!((g - 1.0).abs() < 0.1, "{gammas:?}");
        }
    }

    #[test]
    fn positions_that_teach_nothing_are_left_out() {
        let mut data: Competitions<1> = Competitions::default();
        data.push(&[[0]], 0);
        data.push(&[[0], [1]], 2);
        assert_eq!(data.positions(), 0);
        assert_eq!(data.candidates(), 0);
    }
}
