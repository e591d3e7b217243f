//! The page's inline SVG chart: each bot's Elo, re-estimated after every completed pairing,
//! against the games played so far. First the series is computed from the results, then a
//! scale fitted to it, then the axes, and last one line (with its legend entry) per bot.

use std::fmt::Write;

use super::super::rating::Tally;
use super::{PairingResults, colour, escape, ratings_of};

/// The canvas, in pixels.
const WIDTH: f64 = 760.0;
const HEIGHT: f64 = 360.0;
/// The margins around the plot: the Elo labels on the left, the legend on the right, the
/// games labels below.
const LEFT: f64 = 60.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 20.0;
const BOTTOM: f64 = 40.0;
/// The plot inside the margins.
const PLOT_W: f64 = WIDTH - LEFT - RIGHT;
const PLOT_H: f64 = HEIGHT - TOP - BOTTOM;

/// One point of the chart per bot: the games played so far, and every bot's Elo then (in
/// `names` order).
type Sample = (usize, Vec<f64>);

/// The SVG chart: one line per bot, Elo against games played.
pub(super) fn chart(names: &[String], pairings: &[PairingResults], anchor: Option<&str>) -> String {
    let samples = rating_series(names, pairings, anchor);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        svg,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{PLOT_W}\" height=\"{PLOT_H}\" fill=\"#fafafa\" stroke=\"#999\"/>"
    );
    if samples.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no ratings yet</text>\n</svg>",
            LEFT + PLOT_W / 2.0,
            TOP + PLOT_H / 2.0
        );
        return svg;
    }
    let scale = Scale::fit(&samples);
    write_elo_axis(&mut svg, &scale);
    write_games_axis(&mut svg, &scale);
    for (b, name) in names.iter().enumerate() {
        write_bot_line(&mut svg, b, name, &samples, &scale);
    }
    svg.push_str("</svg>\n");
    svg
}

/// A sample after each pairing that can be rated (once every bot has played), the tally
/// growing pairing by pairing.
fn rating_series(
    names: &[String],
    pairings: &[PairingResults],
    anchor: Option<&str>,
) -> Vec<Sample> {
    let mut samples: Vec<Sample> = Vec::new();
    let mut tally = Tally::new(names);
    let mut games = 0;
    for pairing in pairings {
        tally.add_results(&pairing.results);
        games += pairing.results.len();
        if let Some(ratings) = ratings_of(&tally, anchor).filter(|r| r.unrated.is_empty()) {
            let elos = names
                .iter()
                .map(|name| {
                    ratings
                        .ratings
                        .iter()
                        .find(|r| r.name == *name)
                        .map_or(0.0, |r| r.elo)
                })
                .collect();
            samples.push((games, elos));
        }
    }
    samples
}

/// Games and Elo mapped onto the plot: games from 0 to the last sample's, Elo over round
/// ticks spanning every sample (at least 100 Elo).
struct Scale {
    max_games: f64,
    low: f64,
    high: f64,
    /// Elo between two horizontal grid lines.
    step: f64,
}

impl Scale {
    /// The scale for `samples` (not empty).
    fn fit(samples: &[Sample]) -> Scale {
        let max_games = samples.last().map_or(1, |p| p.0).max(1) as f64;
        let all = samples.iter().flat_map(|p| p.1.iter().copied());
        let (mut low, mut high) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), e| {
            (lo.min(e), hi.max(e))
        });
        if high - low < 100.0 {
            let middle = (high + low) / 2.0;
            low = middle - 50.0;
            high = middle + 50.0;
        }
        let step = tick_step(high - low, 6.0);
        low = (low / step).floor() * step;
        high = (high / step).ceil() * step;
        Scale {
            max_games,
            low,
            high,
            step,
        }
    }

    fn x(&self, games: f64) -> f64 {
        LEFT + PLOT_W * games / self.max_games
    }

    fn y(&self, elo: f64) -> f64 {
        TOP + PLOT_H * (self.high - elo) / (self.high - self.low)
    }
}

/// A round step for about `target` ticks over `span`.
pub(crate) fn tick_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1e-9);
    let magnitude = 10f64.powf(raw.log10().floor());
    for factor in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if factor * magnitude >= raw {
            return factor * magnitude;
        }
    }
    10.0 * magnitude
}

/// Horizontal grid lines with their Elo labels, bottom to top.
fn write_elo_axis(svg: &mut String, scale: &Scale) {
    let mut tick = scale.low;
    while tick <= scale.high + scale.step / 2.0 {
        let label = if tick.abs() < 0.5 {
            "0".to_owned()
        } else {
            format!("{tick:+.0}")
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{LEFT}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/><text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{label}</text>",
            scale.y(tick),
            LEFT + PLOT_W,
            LEFT - 6.0,
            scale.y(tick) + 4.0
        );
        tick += scale.step;
    }
}

/// The games labels below the plot, and the axis title.
fn write_games_axis(svg: &mut String, scale: &Scale) {
    let game_step = tick_step(scale.max_games, 8.0).max(1.0);
    let mut tick = 0.0;
    while tick <= scale.max_games + game_step / 2.0 {
        if tick <= scale.max_games {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{tick:.0}</text>",
                scale.x(tick),
                TOP + PLOT_H + 16.0
            );
        }
        tick += game_step;
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">games</text>",
        LEFT + PLOT_W / 2.0,
        HEIGHT - 6.0
    );
}

/// Bot `b`'s line with a dot at each sample, then its legend entry (name and last Elo).
fn write_bot_line(svg: &mut String, b: usize, name: &str, samples: &[Sample], scale: &Scale) {
    let colour = colour(b);
    let path: Vec<String> = samples
        .iter()
        .map(|(g, elos)| format!("{:.1},{:.1}", scale.x(*g as f64), scale.y(elos[b])))
        .collect();
    let _ = writeln!(
        svg,
        "<polyline fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" points=\"{}\"/>",
        path.join(" ")
    );
    for point in &path {
        let (px, py) = point.split_once(',').unwrap_or(("0", "0"));
        let _ = writeln!(
            svg,
            "<circle cx=\"{px}\" cy=\"{py}\" r=\"3\" fill=\"{colour}\"/>"
        );
    }
    let legend_y = TOP + 14.0 + 18.0 * b as f64;
    let last = samples.last().map_or(0.0, |p| p.1[b]);
    let _ = writeln!(
        svg,
        "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{} ({last:+.0})</text>",
        LEFT + PLOT_W + 12.0,
        legend_y - 10.0,
        LEFT + PLOT_W + 30.0,
        legend_y,
        escape(name)
    );
}

#[cfg(test)]
mod tests {
    use super::tick_step;

    #[test]
    fn tick_steps_are_round() {
        assert_eq!(tick_step(380.0, 6.0), 100.0);
        assert_eq!(tick_step(12.0, 8.0), 2.0);
    }
}
