//! SPSA in OpenBench's parametrisation (Spall's gains, each parameter's own `c_end` and
//! `r_end`): with N iterations and A = a_ratio · N,
//!
//! ```text
//! c   = c_end · N^γ              c_k = c / k^γ            (at least 0.5 for an integer)
//! a   = r_end · c_end² · (A + N)^α
//! r_k = a / (A + k)^α / c_k²     θ ← θ + r_k · c_k · (W − L) · flip
//! ```
//!
//! for iteration k from 1, where flip is ±1 a parameter and W − L counts θ + c_k·flip's
//! wins less its losses (OpenBench's form). So `c_end` is the perturbation at the last
//! iteration and `r_end · c_end` the step a won pair then moves. α = 0.602, γ = 0.101 and
//! a_ratio = 0.1 are OpenBench's defaults. Every draw (the flips, the rounding of integer
//! values) comes from the run's seed and the iteration: θ after k iterations depends on
//! the seed and the results so far only.

use super::spec::Param;
use crate::arena::bots::OptionValue;
use crate::seed::{derive_seed, splitmix64};

/// The run-wide constants of the gain sequences.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Schedule {
    pub iterations: usize,
    pub alpha: f64,
    pub gamma: f64,
    pub a_ratio: f64,
    /// `r_end` of parameters that name none.
    pub r_end: f64,
}

/// What iteration k plays: each parameter's flip, c_k and r_k, and the two values given to
/// the engines (θ + c_k·flip and θ − c_k·flip, clamped to the range, an integer's rounded
/// at random).
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub flips: Vec<f64>,
    pub c: Vec<f64>,
    pub r: Vec<f64>,
    pub plus: Vec<OptionValue>,
    pub minus: Vec<OptionValue>,
}

/// The stream of the run's seed that draws flips and roundings (not the games' seeds).
const TUNE_STREAM: u64 = 0x7475_6e65_7370_7361;

impl Schedule {
    /// c_k and r_k of `param` at iteration `k` (from 1).
    pub fn gains(&self, param: &Param, k: usize) -> (f64, f64) {
        let n = self.iterations.max(1) as f64;
        let big_a = self.a_ratio * n;
        let r_end = param.r_end.unwrap_or(self.r_end);
        let c_scale = param.step * n.powf(self.gamma);
        let a_scale = r_end * param.step * param.step * (big_a + n).powf(self.alpha);
        let floor = if param.integer { 0.5 } else { 0.0 };
        let c_k = (c_scale / (k as f64).powf(self.gamma)).max(floor);
        let r_k = a_scale / (big_a + k as f64).powf(self.alpha) / (c_k * c_k);
        (c_k, r_k)
    }

    /// Iteration `k`'s (from 1) perturbation of `theta`, drawn from `seed` and k.
    pub fn perturb(&self, params: &[Param], theta: &[f64], seed: u64, k: usize) -> Perturbation {
        let mut state = derive_seed(seed ^ TUNE_STREAM, k as u64);
        let mut draw = || {
            let (next, value) = splitmix64(state);
            state = next;
            (value >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut p = Perturbation {
            flips: Vec::new(),
            c: Vec::new(),
            r: Vec::new(),
            plus: Vec::new(),
            minus: Vec::new(),
        };
        for (param, &value) in params.iter().zip(theta) {
            let flip = if draw() < 0.5 { -1.0 } else { 1.0 };
            let (c_k, r_k) = self.gains(param, k);
            // One uniform for both sides, as OpenBench: their difference stays 2·c_k.
            let u = draw();
            let round = |x: f64| if param.integer { (x + u).floor() } else { x };
            p.plus.push(param.engine_value(round(value + flip * c_k)));
            p.minus.push(param.engine_value(round(value - flip * c_k)));
            p.flips.push(flip);
            p.c.push(c_k);
            p.r.push(r_k);
        }
        p
    }
}

impl Perturbation {
    /// θ after the iteration that scored `wins_less_losses` for the plus side.
    pub fn step(&self, params: &[Param], theta: &[f64], wins_less_losses: f64) -> Vec<f64> {
        params
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let moved = theta[i] + self.r[i] * self.c[i] * wins_less_losses * self.flips[i];
                moved.clamp(param.min, param.max)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn param(integer: bool) -> Param {
        Param {
            name: "x".to_owned(),
            start: 50.0,
            min: 0.0,
            max: 100.0,
            step: 4.0,
            r_end: Some(0.01),
            integer,
        }
    }

    fn schedule() -> Schedule {
        Schedule {
            iterations: 100,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            r_end: 0.002,
        }
    }

    #[test]
    fn the_last_iteration_has_c_end_and_r_end() {
        let (c, r) = schedule().gains(&param(false), 100);
        assert!((c - 4.0).abs() < 1e-9, "{c}");
        assert!((r - 0.01).abs() < 1e-12, "{r}");
        let (c1, _) = schedule().gains(&param(false), 1);
        assert!(c1 > c, "the perturbation shrinks: {c1} then {c}");
    }

    #[test]
    fn perturbations_repeat_by_seed_and_step_along_the_flip() {
        let s = schedule();
        let params = [param(true)];
        let a = s.perturb(&params, &[50.0], 7, 3);
        assert_eq!(a, s.perturb(&params, &[50.0], 7, 3));
        let up = a.step(&params, &[50.0], 2.0);
        assert_eq!(up[0] > 50.0, a.flips[0] > 0.0);
        let (OptionValue::Integer(plus), OptionValue::Integer(minus)) = (&a.plus[0], &a.minus[0])
        else {
            panic!("integers expected: {a:?}");
        };
        assert!((plus - minus).abs() >= 8, "{plus} {minus}");
    }
}
