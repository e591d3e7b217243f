//! Ratings by maximum likelihood, as BayesElo and Ordo report them: Elo on the logistic
//! model, draws counted as half a win and half a loss, with 95% intervals from the Fisher
//! information, and a crosstable.
//!
//! The model: bot i scores against bot j with expectation
//! `E(i, j) = 1 / (1 + 10^((r_j − r_i) / 400))`. The log-likelihood of the points `s_ij` in
//! `n_ij` games, `Σ s_ij ln E(i, j) + (n_ij − s_ij) ln (1 − E(i, j))`, is concave; Newton's
//! method on it (one rating held at 0, then shifted) converges in a few steps. The
//! covariance of the ratings is the inverse of the negative Hessian; the 95% interval is
//! ±1.96 standard deviations, of each rating relative to the mean of all (or to the anchor).
//!
//! A finite maximum exists only when no group of bots scored every point (or none) against
//! the rest. Otherwise (a 100% score, say) every pairing that played gets one virtual draw,
//! BayesElo's prior in spirit, and the report says so.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::store::{GameResult, Winner};

/// Elo per natural-log unit of the odds: 400 / ln 10.
const ELO_PER_NAT: f64 = 400.0 / std::f64::consts::LN_10;
/// The 95% two-sided normal quantile.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Points and games between every two bots.
#[derive(Clone, Debug, PartialEq)]
pub struct Tally {
    pub names: Vec<String>,
    /// `points[i][j]`: what bot i scored against bot j.
    pub points: Vec<Vec<f64>>,
    /// `games[i][j] == games[j][i]`.
    pub games: Vec<Vec<f64>>,
}

impl Tally {
    pub fn new(names: &[String]) -> Tally {
        let n = names.len();
        Tally {
            names: names.to_vec(),
            points: vec![vec![0.0; n]; n],
            games: vec![vec![0.0; n]; n],
        }
    }

    fn index(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }

    /// One game: `a` scored `points_a` (1, ½ or 0) against `b`. Unknown names are ignored.
    pub fn add(&mut self, a: &str, b: &str, points_a: f64) {
        let (Some(i), Some(j)) = (self.index(a), self.index(b)) else {
            return;
        };
        if i == j {
            return;
        }
        self.points[i][j] += points_a;
        self.points[j][i] += 1.0 - points_a;
        self.games[i][j] += 1.0;
        self.games[j][i] += 1.0;
    }

    /// Every rated (not void) game of `results`.
    pub fn add_results(&mut self, results: &[GameResult]) {
        for result in results {
            let points_first = match result.winner {
                Winner::First => 1.0,
                Winner::Second => 0.0,
                Winner::Draw => 0.5,
                Winner::Void => continue,
            };
            self.add(&result.first, &result.second, points_first);
        }
    }

    pub fn total_games(&self, i: usize) -> f64 {
        self.games[i].iter().sum()
    }

    pub fn total_points(&self, i: usize) -> f64 {
        self.points[i].iter().sum()
    }

    /// True when every bot both scored and conceded points along a chain to every other:
    /// the directed graph "i scored against j" is strongly connected.
    fn finite_maximum_exists(&self) -> bool {
        let n = self.names.len();
        let reach = |forward: bool| {
            let mut seen = vec![false; n];
            let mut stack = vec![0];
            seen[0] = true;
            while let Some(i) = stack.pop() {
                for (j, seen_j) in seen.iter_mut().enumerate() {
                    let scored = if forward {
                        self.points[i][j]
                    } else {
                        self.points[j][i]
                    };
                    if !*seen_j && scored > 0.0 {
                        *seen_j = true;
                        stack.push(j);
                    }
                }
            }
            seen.into_iter().all(|s| s)
        };
        n <= 1 || (reach(true) && reach(false))
    }
}

/// One bot's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub name: String,
    pub elo: f64,
    /// Half-width of the 95% interval.
    pub error: f64,
    pub games: f64,
    pub points: f64,
}

/// The ratings of all bots, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    pub ratings: Vec<Rating>,
    /// One virtual draw per pairing was added (no finite maximum without it).
    pub prior: bool,
    /// The bot held at 0, or `None` when the mean is 0.
    pub anchor: Option<String>,
    /// Bots left out of the ratings because they have no rated game yet (a bye, a shard
    /// that has not reached them), in the tally's order.
    pub unrated: Vec<String>,
}

/// Maximum-likelihood Elo ratings of `tally`; `anchor` names the bot held at 0 (default:
/// the mean is 0). Fails when a bot has no games or the anchor is unknown.
pub fn rate(tally: &Tally, anchor: Option<&str>) -> Result<Ratings, String> {
    let n = tally.names.len();
    if n < 2 {
        return Err("ratings need at least two bots".to_owned());
    }
    for (i, name) in tally.names.iter().enumerate() {
        if tally.total_games(i) == 0.0 {
            return Err(format!("{name} has no rated games"));
        }
    }
    let fixed = match anchor {
        Some(name) => tally
            .index(name)
            .ok_or_else(|| format!("the anchor '{name}' is not one of the bots"))?,
        None => 0,
    };
    let prior = !tally.finite_maximum_exists();
    let mut data = tally.clone();
    if prior {
        for i in 0..n {
            for j in 0..n {
                if i != j && tally.games[i][j] > 0.0 {
                    data.points[i][j] += 0.5;
                    data.games[i][j] += 1.0;
                }
            }
        }
    }
    // Connectivity: with the prior every pairing links both ways, so only a bot group
    // that never met the others is left, which has no finite maximum either.
    if !data.finite_maximum_exists() {
        return Err("the bots form groups that never met: no common rating scale".to_owned());
    }
    let free: Vec<usize> = (0..n).filter(|&i| i != fixed).collect();
    let mut elo = vec![0.0; n];
    let mut hessian = vec![vec![0.0; n - 1]; n - 1];
    for _ in 0..100 {
        let (gradient, h) = derivatives(&data, &elo, &free);
        hessian = h;
        let step = solve(&hessian, &gradient)
            .ok_or_else(|| "the likelihood has no unique maximum".to_owned())?;
        let mut largest: f64 = 0.0;
        for (k, &i) in free.iter().enumerate() {
            // Newton: r − H⁻¹ g, with H negative definite; steps capped for safety.
            let delta = (-step[k]).clamp(-400.0, 400.0);
            elo[i] += delta;
            largest = largest.max(delta.abs());
        }
        if largest < 1e-10 {
            break;
        }
    }
    let (_, h) = derivatives(&data, &elo, &free);
    hessian = h;
    // Covariance of the free ratings (the fixed one is exact by definition).
    let m = free.len();
    let mut covariance = vec![vec![0.0; n]; n];
    for k in 0..m {
        let mut unit = vec![0.0; m];
        unit[k] = -1.0;
        let column = solve(&hessian, &unit)
            .ok_or_else(|| "the likelihood has no unique maximum".to_owned())?;
        for (l, &value) in column.iter().enumerate() {
            covariance[free[l]][free[k]] = value;
        }
    }
    if anchor.is_none() {
        // Ratings relative to their mean: x = (I − J/n) r, Cov(x) = P Σ P.
        let mean = elo.iter().sum::<f64>() / n as f64;
        for r in &mut elo {
            *r -= mean;
        }
        let row_means: Vec<f64> = covariance
            .iter()
            .map(|row| row.iter().sum::<f64>() / n as f64)
            .collect();
        let all_mean = row_means.iter().sum::<f64>() / n as f64;
        let centred: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..n)
                    .map(|j| covariance[i][j] - row_means[i] - row_means[j] + all_mean)
                    .collect()
            })
            .collect();
        covariance = centred;
    }
    let mut ratings: Vec<Rating> = (0..n)
        .map(|i| Rating {
            name: tally.names[i].clone(),
            elo: elo[i],
            error: Z95 * covariance[i][i].max(0.0).sqrt(),
            games: tally.total_games(i),
            points: tally.total_points(i),
        })
        .collect();
    ratings.sort_by(|a, b| b.elo.total_cmp(&a.elo).then_with(|| a.name.cmp(&b.name)));
    Ok(Ratings {
        ratings,
        prior,
        anchor: anchor.map(str::to_owned),
        unrated: Vec::new(),
    })
}

/// The ratings of what was played: every bot with at least one rated game, on one scale
/// (with the virtual draws of [`rate`] where some bot scored every point or none); bots
/// without a game are left out and named in [`Ratings::unrated`]. Fails, naming the bots
/// and the reason, when no common scale exists: no game yet, or groups of bots that never
/// met one another, directly or through others (a one-round Swiss ladder, say).
pub fn rate_played(tally: &Tally, anchor: Option<&str>) -> Result<Ratings, String> {
    let n = tally.names.len();
    let (played, unplayed): (Vec<usize>, Vec<usize>) =
        (0..n).partition(|&i| tally.total_games(i) > 0.0);
    let unrated: Vec<String> = unplayed.iter().map(|&i| tally.names[i].clone()).collect();
    let unplayed_note = if unrated.is_empty() {
        String::new()
    } else {
        format!("; no rated game yet for {}", unrated.join(", "))
    };
    if played.is_empty() {
        return Err("no rated game yet".to_owned());
    }
    let groups = groups(tally, &played);
    if groups.len() > 1 {
        let listed: Vec<String> = groups
            .iter()
            .map(|group| {
                let names: Vec<&str> = group.iter().map(|&i| tally.names[i].as_str()).collect();
                format!("{{{}}}", names.join(", "))
            })
            .collect();
        return Err(format!(
            "the bots form groups that never met, directly or through others: {}, so their Elo has no common scale (more games between the groups link them, e.g. more Swiss rounds){unplayed_note}",
            listed.join(" and ")
        ));
    }
    if let Some(name) = anchor
        && unrated.iter().any(|u| u == name)
    {
        return Err(format!(
            "the anchor {name} has no rated game to be held at 0{unplayed_note}"
        ));
    }
    let names: Vec<String> = played.iter().map(|&i| tally.names[i].clone()).collect();
    let mut sub = Tally::new(&names);
    for (a, &i) in played.iter().enumerate() {
        for (b, &j) in played.iter().enumerate() {
            sub.points[a][b] = tally.points[i][j];
            sub.games[a][b] = tally.games[i][j];
        }
    }
    let mut ratings = rate(&sub, anchor)?;
    ratings.unrated = unrated;
    Ok(ratings)
}

/// The bots of `members` grouped by who met whom (directly or through others), each group
/// in the tally's order, groups by their first bot.
fn groups(tally: &Tally, members: &[usize]) -> Vec<Vec<usize>> {
    let mut group_of: Vec<Option<usize>> = vec![None; tally.names.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &start in members {
        if group_of[start].is_some() {
            continue;
        }
        let id = groups.len();
        let mut group = vec![start];
        group_of[start] = Some(id);
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            for &j in members {
                if group_of[j].is_none() && tally.games[i][j] > 0.0 {
                    group_of[j] = Some(id);
                    group.push(j);
                    stack.push(j);
                }
            }
        }
        group.sort_unstable();
        groups.push(group);
    }
    groups
}

/// The expected score of a bot `difference` Elo above its opponent.
pub fn expected_score(difference: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-difference / 400.0))
}

/// The Elo difference that gives the expected score `score` (0 < score < 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The gradient and the Hessian of the log-likelihood in Elo, over the `free` ratings.
fn derivatives(data: &Tally, elo: &[f64], free: &[usize]) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = elo.len();
    let c = 1.0 / ELO_PER_NAT;
    let mut gradient = vec![0.0; n];
    let mut full = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            let games = data.games[i][j];
            if i == j || games == 0.0 {
                continue;
            }
            let p = expected_score(elo[i] - elo[j]);
            gradient[i] += c * (data.points[i][j] - games * p);
            let curvature = c * c * games * p * (1.0 - p);
            full[i][i] -= curvature;
            full[i][j] += curvature;
        }
    }
    let reduced_gradient = free.iter().map(|&i| gradient[i]).collect();
    let reduced = free
        .iter()
        .map(|&i| free.iter().map(|&j| full[i][j]).collect())
        .collect();
    (reduced_gradient, reduced)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &rhs)| {
            let mut row = row.clone();
            row.push(rhs);
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs()))?;
        if m[pivot][col].abs() < 1e-300 {
            return None;
        }
        m.swap(col, pivot);
        let pivot_row = m[col].clone();
        for row in m.iter_mut().skip(col + 1) {
            let factor = row[col] / pivot_row[col];
            for (value, above) in row.iter_mut().zip(&pivot_row).skip(col) {
                *value -= factor * above;
            }
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let tail: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (m[row][n] - tail) / m[row][row];
    }
    Some(x)
}

/// Half points as text: `7.5`, `3`.
fn points_text(points: f64) -> String {
    if (points - points.round()).abs() < 1e-9 {
        format!("{}", points.round() as i64)
    } else {
        format!("{points:.1}")
    }
}

/// The rating list and the crosstable as text.
pub fn report(tally: &Tally, ratings: &Ratings) -> String {
    let width = ratings
        .ratings
        .iter()
        .map(|r| r.name.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let mut text = String::new();
    let _ = writeln!(
        text,
        "{:>4}  {:<width$}  {:>6}  {:>6}  {:>6}  {:>7}  {:>6}",
        "rank", "name", "elo", "±95%", "games", "points", "score"
    );
    for (rank, r) in ratings.ratings.iter().enumerate() {
        let _ = writeln!(
            text,
            "{:>4}  {:<width$}  {:>+6.0}  {:>6.0}  {:>6}  {:>7}  {:>5.1}%",
            rank + 1,
            r.name,
            r.elo,
            r.error,
            points_text(r.games),
            points_text(r.points),
            100.0 * r.points / r.games.max(1.0)
        );
    }
    match &ratings.anchor {
        Some(anchor) => {
            let _ = writeln!(text, "(Elo relative to {anchor}, held at 0)");
        }
        None => {
            let _ = writeln!(text, "(Elo relative to the mean of all bots)");
        }
    }
    if ratings.prior {
        let _ = writeln!(
            text,
            "(one virtual draw added per pairing: some bots scored every point or none, which has no finite maximum)"
        );
    }
    let order: BTreeMap<&str, usize> = tally
        .names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    if !ratings.unrated.is_empty() {
        let _ = writeln!(
            text,
            "(not rated, no rated game yet: {})",
            ratings.unrated.join(", ")
        );
    }
    // The rated bots best first, then the unrated ones.
    let rows: Vec<usize> = ratings
        .ratings
        .iter()
        .map(|r| r.name.as_str())
        .chain(ratings.unrated.iter().map(String::as_str))
        .filter_map(|name| order.get(name).copied())
        .collect();
    let _ = writeln!(
        text,
        "\ncrosstable (points of the row's bot against the column's / games):"
    );
    let _ = write!(text, "{:>4}  {:<width$}", "", "");
    for k in 0..rows.len() {
        let _ = write!(text, "  {:>9}", k + 1);
    }
    text.push('\n');
    for (k, &i) in rows.iter().enumerate() {
        let _ = write!(text, "{:>4}  {:<width$}", k + 1, tally.names[i]);
        for &j in &rows {
            let cell = if i == j {
                "-".to_owned()
            } else if tally.games[i][j] == 0.0 {
                ".".to_owned()
            } else {
                format!(
                    "{}/{}",
                    points_text(tally.points[i][j]),
                    points_text(tally.games[i][j])
                )
            };
            let _ = write!(text, "  {cell:>9}");
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| (*s).to_owned()).collect()
    }

    fn games(tally: &mut Tally, a: &str, b: &str, wins: u32, draws: u32, losses: u32) {
        for _ in 0..wins {
            tally.add(a, b, 1.0);
        }
        for _ in 0..draws {
            tally.add(a, b, 0.5);
        }
        for _ in 0..losses {
            tally.add(a, b, 0.0);
        }
    }

    fn elo_of(ratings: &Ratings, name: &str) -> (f64, f64) {
        let r = ratings
            .ratings
            .iter()
            .find(|r| r.name == name)
            .expect("rated");
        (r.elo, r.error)
    }

    #[test]
    fn symmetric_results_give_equal_ratings() {
        let mut tally = Tally::new(&names(&["a", "b", "c"]));
        for (x, y) in [("a", "b"), ("b", "c"), ("c", "a")] {
            games(&mut tally, x, y, 3, 4, 3);
        }
        let ratings = rate(&tally, None).expect("rates");
        for r in &ratings.ratings {
            assert!(r.elo.abs() < 1e-6, "{r:?}");
        }
        assert!(!ratings.prior);
        // A cycle a > b > c > a of equal margins is symmetric too.
        let mut cycle = Tally::new(&names(&["a", "b", "c"]));
        for (x, y) in [("a", "b"), ("b", "c"), ("c", "a")] {
            games(&mut cycle, x, y, 7, 0, 3);
        }
        let ratings = rate(&cycle, None).expect("rates");
        for r in &ratings.ratings {
            assert!(r.elo.abs() < 1e-6, "{r:?}");
        }
    }

    #[test]
    fn a_75_percent_score_is_191_elo() {
        let mut tally = Tally::new(&names(&["strong", "weak"]));
        games(&mut tally, "strong", "weak", 60, 30, 10); // 75 points of 100
        let anchored = rate(&tally, Some("weak")).expect("rates");
        let (elo, error) = elo_of(&anchored, "strong");
        let expected = 400.0 * 3f64.log10(); // 190.85
        assert!((elo - expected).abs() < 1e-6, "{elo}");
        assert!((expected - 190.85).abs() < 0.01);
        // Fisher information of 100 games at p = 0.75: sd = 1 / (c sqrt(100 · 0.1875)).
        let sd = ELO_PER_NAT / (100.0f64 * 0.75 * 0.25).sqrt();
        assert!((error - Z95 * sd).abs() < 1e-6, "{error} vs {}", Z95 * sd);
        assert!((error - 78.6).abs() < 0.1, "{error}");
        assert_eq!(elo_of(&anchored, "weak"), (0.0, 0.0));
        let centred = rate(&tally, None).expect("rates");
        let (elo, error) = elo_of(&centred, "strong");
        assert!((elo - expected / 2.0).abs() < 1e-6);
        assert!((error - Z95 * sd / 2.0).abs() < 1e-6, "{error}");
        assert_eq!(centred.ratings[0].name, "strong");
        assert!((elo_of_score(0.75) - expected).abs() < 1e-9);
        assert!((expected_score(expected) - 0.75).abs() < 1e-12);
    }

    #[test]
    fn transitive_results_order_and_add_up() {
        // a beats b by 64%, b beats c by 64%, a beats c by 76%: a chain of ~100 Elo steps.
        let mut tally = Tally::new(&names(&["a", "b", "c"]));
        games(&mut tally, "a", "b", 64, 0, 36);
        games(&mut tally, "b", "c", 64, 0, 36);
        games(&mut tally, "a", "c", 76, 0, 24);
        let ratings = rate(&tally, Some("c")).expect("rates");
        let names: Vec<&str> = ratings.ratings.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a", "b", "c"]);
        let (a, _) = elo_of(&ratings, "a");
        let (b, _) = elo_of(&ratings, "b");
        assert!(
            (b - 100.0).abs() < 10.0 && (a - 2.0 * b).abs() < 10.0,
            "{a} {b}"
        );
        // At the maximum the expected points equal the points scored, bot by bot.
        let elo: BTreeMap<&str, f64> = ratings
            .ratings
            .iter()
            .map(|r| (r.name.as_str(), r.elo))
            .collect();
        for (i, x) in tally.names.iter().enumerate() {
            let expected: f64 = (0..3)
                .map(|j| {
                    tally.games[i][j]
                        * expected_score(elo[x.as_str()] - elo[tally.names[j].as_str()])
                })
                .sum();
            assert!((expected - tally.total_points(i)).abs() < 1e-6);
        }
    }

    #[test]
    fn what_was_played_is_rated_and_the_rest_named() {
        let mut tally = Tally::new(&names(&["a", "b", "c", "d"]));
        games(&mut tally, "a", "b", 2, 0, 0);
        // d has no game: a, b and c are rated, d named.
        games(&mut tally, "b", "c", 1, 0, 1);
        let ratings = rate_played(&tally, None).expect("rates a, b, c");
        assert_eq!(ratings.ratings.len(), 3);
        assert_eq!(ratings.unrated, ["d"]);
        assert!(report(&tally, &ratings).contains("(not rated, no rated game yet: d)"));
        assert!(rate_played(&tally, Some("d")).is_err());
        // Two groups that never met: no common scale, both named.
        let mut split = Tally::new(&names(&["a", "b", "c", "d"]));
        games(&mut split, "a", "b", 1, 0, 1);
        games(&mut split, "c", "d", 1, 0, 1);
        let why = rate_played(&split, None).expect_err("no common scale");
        assert!(why.contains("{a, b} and {c, d}"), "{why}");
        assert_eq!(
            rate_played(&Tally::new(&names(&["a", "b"])), None).err(),
            Some("no rated game yet".to_owned())
        );
    }

    #[test]
    fn perfect_scores_get_the_prior_and_bad_input_fails() {
        let mut tally = Tally::new(&names(&["a", "b"]));
        games(&mut tally, "a", "b", 10, 0, 0);
        let ratings = rate(&tally, Some("b")).expect("rates with the prior");
        assert!(ratings.prior);
        // 10.5 of 11 with the virtual draw.
        let (elo, _) = elo_of(&ratings, "a");
        assert!((elo - elo_of_score(10.5 / 11.0)).abs() < 1e-6, "{elo}");
        assert!(report(&tally, &ratings).contains("virtual draw"));
        assert!(rate(&tally, Some("zed")).is_err());
        let lonely = Tally::new(&names(&["a", "b"]));
        assert!(rate(&lonely, None).is_err());
    }

    #[test]
    fn report_has_the_crosstable() {
        let mut tally = Tally::new(&names(&["a", "b", "c"]));
        games(&mut tally, "a", "b", 2, 1, 1);
        games(&mut tally, "a", "c", 1, 0, 1);
        games(&mut tally, "b", "c", 1, 1, 0);
        let ratings = rate(&tally, None).expect("rates");
        let text = report(&tally, &ratings);
        assert!(text.contains("2.5/4"), "{text}");
        assert!(text.contains("1.5/4"), "{text}");
        assert!(text.contains("crosstable"), "{text}");
    }
}
