//! The sequential probability ratio test on game pairs, with fishtest's formulas: the
//! generalized SPRT (GSPRT) of logistic Elo on the pentanomial distribution of pair scores.
//!
//! A pair (two games, colours swapped) scores 0, ½, 1, 3⁄2 or 2 points for the tested bot:
//! counts `[LL, LD+DL, LW+DD+WL, DW+WD, WW]`. Each count that is 0 becomes 10⁻³ (fishtest's
//! regularization). With the empirical distribution p̂ over the values aᵢ = 0, ¼, ½, ¾, 1
//! (points per game), the maximum-likelihood distribution with expected score s is
//! pᵢ = p̂ᵢ / (1 + x (aᵢ − s)), where x solves Σ p̂ᵢ (aᵢ − s) / (1 + x (aᵢ − s)) = 0 (the
//! secular equation). With s₀, s₁ the expected scores of elo0 and elo1,
//! `LLR = N Σ p̂ᵢ ln(p¹ᵢ / p⁰ᵢ)`, N the number of pairs. The test stops when the LLR leaves
//! `(ln(β / (1 − α)), ln((1 − β) / α))`: below accepts H0 (elo = elo0), above accepts H1.

use std::fmt;
use std::str::FromStr;

use super::rating::{Z95, elo_of_score, expected_score};
use super::store::{GameResult, Winner};

/// Which Elo the bounds are in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EloModel {
    /// Logistic Elo (the rating list's): fishtest's `LLR_logistic`.
    Logistic,
    /// Normalized Elo (fishtest's default since 2020: the score's t-value, so the bounds do
    /// not depend on the draw rate): fishtest's `LLR_normalized`.
    Normalized,
}

/// `elo0=0,elo1=5,alpha=0.05,beta=0.05[,model=logistic|normalized]`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: EloModel,
}

impl FromStr for SprtSpec {
    type Err = String;

    fn from_str(text: &str) -> Result<SprtSpec, String> {
        let mut spec = SprtSpec {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
            model: EloModel::Logistic,
        };
        for part in text.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| format!("--sprt: '{part}' is not key=value"))?;
            if key.trim() == "model" {
                spec.model = match value.trim() {
                    "logistic" => EloModel::Logistic,
                    "normalized" => EloModel::Normalized,
                    other => {
                        return Err(format!(
                            "--sprt: model must be logistic or normalized, got '{other}'"
                        ));
                    }
                };
                continue;
            }
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("--sprt: {key} is not a number: '{value}'"))?;
            match key.trim() {
                "elo0" => spec.elo0 = value,
                "elo1" => spec.elo1 = value,
                "alpha" => spec.alpha = value,
                "beta" => spec.beta = value,
                other => {
                    return Err(format!(
                        "--sprt: unknown key '{other}' (elo0, elo1, alpha, beta, model)"
                    ));
                }
            }
        }
        if spec.elo0.is_nan() || spec.elo1.is_nan() {
            return Err("--sprt needs elo0 and elo1, e.g. elo0=0,elo1=5".to_owned());
        }
        if spec.elo0 >= spec.elo1 || spec.elo0.abs() >= 1000.0 || spec.elo1.abs() >= 1000.0 {
            return Err(format!(
                "--sprt: elo0 must be below elo1 (and both within ±1000), got {} and {}",
                spec.elo0, spec.elo1
            ));
        }
        for (name, p) in [("alpha", spec.alpha), ("beta", spec.beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(format!("--sprt: {name} must be between 0 and 0.5, got {p}"));
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for SprtSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )?;
        if self.model == EloModel::Normalized {
            f.write_str(",model=normalized")?;
        }
        Ok(())
    }
}

impl SprtSpec {
    /// The LLR's lower and upper stopping bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn status(&self, pentanomial: &[u64; 5]) -> SprtStatus {
        let llr = match self.model {
            EloModel::Logistic => llr_logistic(self.elo0, self.elo1, pentanomial),
            EloModel::Normalized => llr_normalized(self.elo0, self.elo1, pentanomial),
        };
        let (lower, upper) = self.bounds();
        let verdict = if llr <= lower {
            Some(Verdict::H0)
        } else if llr >= upper {
            Some(Verdict::H1)
        } else {
            None
        };
        SprtStatus {
            llr,
            lower,
            upper,
            verdict,
        }
    }
}

/// Which hypothesis the test accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Elo is elo0 (the tested bot is not better by elo1).
    H0,
    /// Elo is elo1.
    H1,
}

#[derive(Copy, Clone, Debug, PartialEq)]
pub struct SprtStatus {
    pub llr: f64,
    pub lower: f64,
    pub upper: f64,
    pub verdict: Option<Verdict>,
}

impl fmt::Display for SprtStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "LLR {:.3} ({:.3}, {:.3})",
            self.llr, self.lower, self.upper
        )?;
        match self.verdict {
            Some(Verdict::H0) => f.write_str(": H0 accepted"),
            Some(Verdict::H1) => f.write_str(": H1 accepted"),
            None => Ok(()),
        }
    }
}

/// The Elo difference the games measured, with its 95% interval: from the pentanomial
/// counts (the same pairs the test used), the mean score per game and the standard error of
/// the pair scores (which counts the pairing of colours), turned into logistic Elo. Not the
/// hypotheses' elo0 or elo1: what was played.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Measured {
    pub pairs: u64,
    /// Points per game of the tested bot, 0 to 1.
    pub score: f64,
    pub elo: f64,
    /// The 95% interval's ends (infinite where the score's interval reaches 0 or 1).
    pub low: f64,
    pub high: f64,
}

/// What pentanomial `counts` measure; `None` without a complete pair.
pub fn measured(counts: &[u64; 5]) -> Option<Measured> {
    let pairs: u64 = counts.iter().sum();
    if pairs == 0 {
        return None;
    }
    let n = pairs as f64;
    let value = |i: usize| i as f64 / 4.0;
    let score: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 * value(i))
        .sum::<f64>()
        / n;
    let variance: f64 = counts
        .iter()
        .enumerate()
        .map(|(i, &c)| c as f64 * (value(i) - score).powi(2))
        .sum::<f64>()
        / n;
    let half = Z95 * (variance / n).sqrt();
    let elo = |s: f64| {
        if s <= 0.0 {
            f64::NEG_INFINITY
        } else if s >= 1.0 {
            f64::INFINITY
        } else {
            elo_of_score(s)
        }
    };
    Some(Measured {
        pairs,
        score,
        elo: elo(score),
        low: elo(score - half),
        high: elo(score + half),
    })
}

/// An Elo figure as the reports print it: `+279`, `-26`, `+∞`; a figure that rounds to
/// nothing is `0`, never the `-0` that rounding a hair below an even score prints.
pub fn signed_elo(elo: f64) -> String {
    if elo.is_finite() && elo.round() == 0.0 {
        "0".to_owned()
    } else if elo.is_finite() {
        format!("{elo:+.0}")
    } else if elo > 0.0 {
        "+∞".to_owned()
    } else {
        "-∞".to_owned()
    }
}

impl fmt::Display for Measured {
    /// `+279 Elo ± 120 (95%, …)`, or the interval's ends when one is infinite.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = signed_elo;
        let source = format!(
            "95%, from the pentanomial counts of {} pair{}",
            self.pairs,
            if self.pairs == 1 { "" } else { "s" }
        );
        if !self.elo.is_finite() {
            let points = if self.elo > 0.0 { "every" } else { "no" };
            write!(
                f,
                "{points} point won, Elo {} ({source}: {} to {})",
                end(self.elo),
                end(self.low),
                end(self.high)
            )
        } else if self.low.is_finite() && self.high.is_finite() {
            write!(
                f,
                "{} Elo ± {:.0} ({source})",
                end(self.elo),
                (self.high - self.low) / 2.0
            )
        } else {
            write!(
                f,
                "{} Elo ({source}: {} to {})",
                end(self.elo),
                end(self.low),
                end(self.high)
            )
        }
    }
}

/// What the test concluded, in words, with what the games measured: `H1 accepted
/// (elo1=50): a is better than b; measured +279 Elo ± 120 (…)`. The hypotheses' Elo are
/// the test's thresholds, never reported as a measurement.
pub fn conclusion(
    spec: &SprtSpec,
    status: &SprtStatus,
    counts: &[u64; 5],
    names: [&str; 2],
) -> String {
    let [tested, other] = names;
    let unit = match spec.model {
        EloModel::Logistic => "",
        EloModel::Normalized => " normalized",
    };
    let verdict = match status.verdict {
        Some(Verdict::H1) => format!(
            "H1 accepted (elo1={}{unit}): {tested} is better than {other}",
            spec.elo1
        ),
        Some(Verdict::H0) => format!(
            "H0 accepted (elo0={}{unit}): {tested} is not better than {other} by elo1={}",
            spec.elo0, spec.elo1
        ),
        None => "undecided".to_owned(),
    };
    match measured(counts) {
        Some(measured) => format!("{verdict}; measured {measured}"),
        None => format!("{verdict}; no complete pair measured yet"),
    }
}

/// The pentanomial counts of complete, rated pairs (games 2k and 2k+1) from `bot`'s side.
pub fn pentanomial(results: &[GameResult], bot: &str) -> [u64; 5] {
    let mut by_game = std::collections::BTreeMap::new();
    for result in results {
        by_game.insert(result.game, result);
    }
    let points = |result: &GameResult| -> Option<u32> {
        match result.winner {
            Winner::Void => None,
            Winner::Draw => Some(1),
            _ if result.winner_name() == Some(bot) => Some(2),
            _ => Some(0),
        }
    };
    let mut counts = [0u64; 5];
    for (&game, &even) in by_game.iter().filter(|(g, _)| g.is_multiple_of(2)) {
        if let Some(odd) = by_game.get(&(game + 1))
            && let (Some(a), Some(b)) = (points(even), points(odd))
        {
            counts[(a + b) as usize] += 1;
        }
    }
    counts
}

/// The test run in pair order: pairs 0, 1, … are added while both their games are
/// finished (a void game's pair counts for nothing), and the test stops at the first pair
/// whose LLR leaves the bounds. Returns the pairs used, their counts and the status, so the
/// verdict does not depend on the order in which parallel games finished.
pub fn sequential(
    spec: &SprtSpec,
    results: &[GameResult],
    bot: &str,
) -> (usize, [u64; 5], SprtStatus) {
    let by_game: std::collections::BTreeMap<usize, &GameResult> =
        results.iter().map(|r| (r.game, r)).collect();
    let mut counts = [0u64; 5];
    let mut pairs = 0;
    let mut status = spec.status(&counts);
    while let (Some(even), Some(odd)) = (by_game.get(&(2 * pairs)), by_game.get(&(2 * pairs + 1))) {
        let pair = pentanomial(&[(*even).clone(), (*odd).clone()], bot);
        for (total, add) in counts.iter_mut().zip(pair) {
            *total += add;
        }
        pairs += 1;
        status = spec.status(&counts);
        if status.verdict.is_some() {
            break;
        }
    }
    (pairs, counts, status)
}

/// fishtest's `LLR_logistic`: the GSPRT log-likelihood ratio of elo1 against elo0 (logistic
/// Elo) for pentanomial counts.
pub fn llr_logistic(elo0: f64, elo1: f64, counts: &[u64; 5]) -> f64 {
    let (pairs, pdf) = pdf_of(counts);
    if pairs == 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    let p0 = mle_expected(&pdf, s0);
    let p1 = mle_expected(&pdf, s1);
    pairs
        * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>()
}

/// Normalized Elo per unit of t-value: 800 / ln 10.
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// fishtest's `LLR_normalized`: the GSPRT log-likelihood ratio of nelo1 against nelo0
/// (normalized Elo) for pentanomial counts. Normalized Elo measures the t-value
/// (mean − ½) / σ of the per-game score (σ per game is √2 times the pair's); the likeliest
/// distribution with t-value t is found by fixed-point iteration on the secular equation.
pub fn llr_normalized(nelo0: f64, nelo1: f64, counts: &[u64; 5]) -> f64 {
    let (pairs, pdf) = pdf_of(counts);
    if pairs == 0.0 {
        return 0.0;
    }
    let t = |nelo: f64| nelo / NELO_PER_T * std::f64::consts::SQRT_2;
    let p0 = mle_t_value(&pdf, 0.5, t(nelo0));
    let p1 = mle_t_value(&pdf, 0.5, t(nelo1));
    pairs
        * pdf
            .iter()
            .zip(p0.iter().zip(&p1))
            .map(|(&(_, p), (q0, q1))| p * (q1.ln() - q0.ln()))
            .sum::<f64>()
}

/// The distribution nearest (in likelihood) to `pdf` whose t-value (mean − reference) / σ
/// is `t` (fishtest's `MLE_t_value`).
fn mle_t_value(pdf: &[(f64, f64)], reference: f64, t: f64) -> Vec<f64> {
    let mut current: Vec<f64> = vec![1.0 / pdf.len() as f64; pdf.len()];
    for _ in 0..10 {
        let mean: f64 = pdf.iter().zip(&current).map(|(&(a, _), q)| a * q).sum();
        let variance: f64 = pdf
            .iter()
            .zip(&current)
            .map(|(&(a, _), q)| q * (a - mean).powi(2))
            .sum();
        let sigma = variance.sqrt();
        let shifted: Vec<(f64, f64)> = pdf
            .iter()
            .map(|&(a, p)| {
                let d = (mean - a) / sigma;
                (a - reference - t * sigma * (1.0 + d * d) / 2.0, p)
            })
            .collect();
        let x = secular(&shifted);
        let next: Vec<f64> = shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect();
        let change = next
            .iter()
            .zip(&current)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        current = next;
        if change < 1e-9 {
            break;
        }
    }
    current
}

/// fishtest's `LLR_alt2`, the Brownian approximation: `N (s₁ − s₀)(2 s − s₀ − s₁) / (2 σ²)`.
pub fn llr_approximate(elo0: f64, elo1: f64, counts: &[u64; 5]) -> f64 {
    let (pairs, pdf) = pdf_of(counts);
    if pairs == 0.0 {
        return 0.0;
    }
    let (s0, s1) = (expected_score(elo0), expected_score(elo1));
    let mean: f64 = pdf.iter().map(|(a, p)| a * p).sum();
    let variance: f64 = pdf.iter().map(|(a, p)| p * (a - mean).powi(2)).sum();
    pairs * (s1 - s0) * (2.0 * mean - s0 - s1) / variance / 2.0
}

/// The regularized empirical distribution: (value, probability), and the number of pairs.
fn pdf_of(counts: &[u64; 5]) -> (f64, Vec<(f64, f64)>) {
    if counts.iter().all(|&c| c == 0) {
        return (0.0, Vec::new());
    }
    let regular: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0 { 1e-3 } else { c as f64 })
        .collect();
    let total: f64 = regular.iter().sum();
    let pdf = regular
        .iter()
        .enumerate()
        .map(|(i, &c)| (i as f64 / 4.0, c / total))
        .collect();
    (total, pdf)
}

/// The distribution nearest (in likelihood) to `pdf` whose expectation is `s`.
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted);
    shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect()
}

/// Solves Σ pᵢ aᵢ / (1 + x aᵢ) = 0 for x in (−1 / max a, −1 / min a), where the sum falls
/// from +∞ to −∞: bisection to full precision.
fn secular(pdf: &[(f64, f64)]) -> f64 {
    let low_value = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let high_value = pdf
        .iter()
        .map(|&(a, _)| a)
        .fold(f64::NEG_INFINITY, f64::max);
    debug_assert!(low_value < 0.0 && high_value > 0.0);
    let f = |x: f64| -> f64 { pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum() };
    let epsilon = 1e-9;
    let (mut lower, mut upper) = (-1.0 / high_value + epsilon, -1.0 / low_value - epsilon);
    for _ in 0..200 {
        let middle = 0.5 * (lower + upper);
        if f(middle) > 0.0 {
            lower = middle;
        } else {
            upper = middle;
        }
        if upper - lower < 1e-15 {
            break;
        }
    }
    0.5 * (lower + upper)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_even_match_measures_zero_elo_without_a_sign() {
        // Every pair split: a score of one half, and no spread between the pairs.
        let m = measured(&[0, 0, 250, 0, 0]).expect("pairs");
        let text = m.to_string();
        assert!(text.starts_with("0 Elo ± 0 ("), "{text}");
        let below = Measured { elo: -0.3, ..m };
        assert!(below.to_string().starts_with("0 Elo"), "{below}");
    }

    #[test]
    fn measured_elo_comes_from_the_pairs() {
        // 35 wins and 7 losses in 21 pairs: 14 WW, 7 WL; score 35/42.
        let m = measured(&[0, 0, 7, 0, 14]).expect("pairs");
        assert_eq!(m.pairs, 21);
        assert!((m.score - 35.0 / 42.0).abs() < 1e-12);
        assert!((m.elo - elo_of_score(35.0 / 42.0)).abs() < 1e-9, "{m:?}");
        assert!(m.low < m.elo && m.elo < m.high, "{m:?}");
        let text = m.to_string();
        assert!(text.starts_with("+280 Elo ± "), "{text}");
        assert!(text.ends_with("(95%, from the pentanomial counts of 21 pairs)"));
        // Every point won: no finite Elo, said so.
        let all = measured(&[0, 0, 0, 0, 3]).expect("pairs");
        assert!(
            all.to_string().starts_with("every point won, Elo +∞"),
            "{all}"
        );
        assert_eq!(measured(&[0; 5]), None);
    }

    #[test]
    fn parses_the_option() {
        let spec: SprtSpec = "elo0=0,elo1=5,alpha=0.05,beta=0.05"
            .parse()
            .expect("parses");
        assert_eq!(
            (spec.elo0, spec.elo1, spec.alpha, spec.beta),
            (0.0, 5.0, 0.05, 0.05)
        );
        let (lower, upper) = spec.bounds();
        assert!((lower - (-2.944_438_979)).abs() < 1e-8, "{lower}");
        assert!((upper - 2.944_438_979).abs() < 1e-8, "{upper}");
        assert!("elo0=5,elo1=0".parse::<SprtSpec>().is_err());
        assert!("elo1=5".parse::<SprtSpec>().is_err());
        assert!("elo0=0,elo1=5,alpha=2".parse::<SprtSpec>().is_err());
        assert!("elo0=0,elo1=5,gamma=1".parse::<SprtSpec>().is_err());
        let normalized: SprtSpec = "elo0=0,elo1=2,model=normalized".parse().expect("parses");
        assert_eq!(normalized.model, EloModel::Normalized);
        assert_eq!(
            normalized.to_string(),
            "elo0=0,elo1=2,alpha=0.05,beta=0.05,model=normalized"
        );
        assert!("elo0=0,elo1=5,model=bayes".parse::<SprtSpec>().is_err());
    }

    #[test]
    fn llr_matches_hand_computed_values() {
        // Only LL and WW pairs (the other cells regularized to 10⁻³): nearly a Bernoulli
        // variable on {0, 1}, whose LLR is N (p̂ ln(s1/s0) + (1 − p̂) ln((1 − s1)/(1 − s0))).
        let counts = [40, 0, 0, 0, 60];
        let (s0, s1) = (expected_score(0.0), expected_score(50.0));
        let bernoulli = 60.0 * (s1 / s0).ln() + 40.0 * ((1.0 - s1) / (1.0 - s0)).ln();
        let llr = llr_logistic(0.0, 50.0, &counts);
        assert!((llr - bernoulli).abs() < 0.01, "{llr} vs {bernoulli}");
        // Values from fishtest's LLR_logistic formulas restated in Python
        // (`tests/fixtures/sprt_reference.py`, the secular equation solved by bisection);
        // counts [LL, LD, DD/WL, DW, WW].
        let cases: [([u64; 5], f64, f64, f64); 3] = [
            ([10, 20, 40, 20, 10], 0.0, 5.0, -0.034_506_9),
            ([5, 20, 40, 25, 10], 0.0, 5.0, 0.374_955_2),
            ([100, 500, 1000, 600, 150], -1.0, 3.0, 4.811_621_5),
        ];
        for (counts, elo0, elo1, expected) in cases {
            let llr = llr_logistic(elo0, elo1, &counts);
            assert!(
                (llr - expected).abs() < 1e-6,
                "{counts:?}: {llr} vs {expected}"
            );
            // The Brownian approximation agrees closely at small Elo.
            let approximate = llr_approximate(elo0, elo1, &counts);
            assert!(
                (llr - approximate).abs() < 0.02 * llr.abs() + 0.01,
                "{llr} vs {approximate}"
            );
        }
        assert_eq!(llr_logistic(0.0, 5.0, &[0; 5]), 0.0);
        // fishtest's LLR_normalized, by the same script.
        let normalized: [([u64; 5], f64, f64, f64); 4] = [
            ([10, 20, 40, 20, 10], 0.0, 5.0, -0.020_709_5),
            ([5, 20, 40, 25, 10], 0.0, 5.0, 0.278_309_6),
            ([100, 500, 1000, 600, 150], -1.0, 3.0, 3.290_665_9),
            ([300, 2000, 5000, 2300, 400], 0.0, 2.0, 4.500_163_0),
        ];
        for (counts, nelo0, nelo1, expected) in normalized {
            let llr = llr_normalized(nelo0, nelo1, &counts);
            assert!(
                (llr - expected).abs() < 1e-6,
                "{counts:?}: {llr} vs {expected}"
            );
        }
    }

    #[test]
    fn status_stops_at_the_bounds() {
        let spec: SprtSpec = "elo0=0,elo1=50".parse().expect("parses");
        assert_eq!(spec.status(&[1, 2, 3, 2, 1]).verdict, None);
        assert_eq!(spec.status(&[0, 5, 20, 40, 60]).verdict, Some(Verdict::H1));
        assert_eq!(spec.status(&[60, 40, 20, 5, 0]).verdict, Some(Verdict::H0));
    }

    #[test]
    fn pentanomial_counts_pairs_from_the_bot_side() {
        let game = GameResult::decided;
        let results = [
            game(0, "a", "b", Winner::First),  // a wins
            game(1, "b", "a", Winner::Second), // a wins: WW
            game(2, "a", "b", Winner::Draw),
            game(3, "b", "a", Winner::First), // a loses: DL
            game(4, "a", "b", Winner::Second),
            game(5, "b", "a", Winner::Second), // LW
            game(6, "a", "b", Winner::Void),
            game(7, "b", "a", Winner::First), // void: not counted
            game(8, "a", "b", Winner::First), // incomplete pair
        ];
        assert_eq!(pentanomial(&results, "a"), [0, 1, 1, 0, 1]);
        assert_eq!(pentanomial(&results, "b"), [1, 0, 1, 1, 0]);
    }

    #[test]
    fn sequential_stops_at_the_first_crossing_in_pair_order() {
        let spec: SprtSpec = "elo0=0,elo1=200,alpha=0.25,beta=0.25"
            .parse()
            .expect("parses");
        let game = |game: usize, a_wins: bool| GameResult {
            game,
            first: if game.is_multiple_of(2) { "a" } else { "b" }.into(),
            second: if game.is_multiple_of(2) { "b" } else { "a" }.into(),
            seed: 0,
            result: String::new(),
            winner: match (a_wins, game.is_multiple_of(2)) {
                (true, true) | (false, false) => Winner::First,
                _ => Winner::Second,
            },
            reason: String::new(),
            moves: 0,
            record: String::new(),
            thinking: [None; 2],
            costs: Vec::new(),
        };
        // Three WW pairs cross the upper bound (LLR ≈ 3 · ln(s1/s0) > ln 3); the losses
        // after them do not change the verdict.
        let mut results: Vec<GameResult> = (0..6).map(|g| game(g, true)).collect();
        results.extend((6..12).map(|g| game(g, false)));
        let (pairs, counts, status) = sequential(&spec, &results, "a");
        assert_eq!((pairs, counts), (3, [0, 0, 0, 0, 3]));
        assert_eq!(status.verdict, Some(Verdict::H1));
        // In any finishing order, and with game 2 missing only one pair counts.
        results.reverse();
        assert_eq!(sequential(&spec, &results, "a").0, 3);
        results.retain(|r| r.game != 2);
        let (pairs, _, status) = sequential(&spec, &results, "a");
        assert_eq!((pairs, status.verdict), (1, None));
    }
}
