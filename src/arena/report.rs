//! A ladder's summary files: `ratings.txt` (the rating list and crosstable), `results.pgn`
//! (every rated game) and `report.html`, a standalone page (no script, no external file)
//! with the ratings and their 95% intervals, the crosstable, every pairing's score and an
//! inline SVG chart of the ratings re-estimated after each completed pairing.
//!
//! Everything is computed from the pairings' results in pairing order, each pairing's games
//! in game order, so the files depend only on the results: a ladder, the same ladder resumed,
//! its shards merged and `hamle ladder report` all write the same bytes.

use std::fmt::Write;
use std::path::Path;

use super::rating::{Ratings, Tally, rate_played, report};
use super::store::{self, GameResult, PGN_FILE, StoreError, Winner, write_atomically};

pub const RATINGS_FILE: &str = "ratings.txt";
pub const REPORT_FILE: &str = "report.html";

/// One completed (or partly played) pairing.
#[derive(Clone, Debug)]
pub struct PairingResults {
    pub first: String,
    pub second: String,
    pub results: Vec<GameResult>,
}

impl PairingResults {
    pub fn new(first: &str, second: &str, mut results: Vec<GameResult>) -> PairingResults {
        results.sort_by_key(|r| r.game);
        PairingResults {
            first: first.to_owned(),
            second: second.to_owned(),
            results,
        }
    }

    fn event(&self) -> String {
        format!("hamle ladder: {} vs {}", self.first, self.second)
    }
}

/// What the page says about the ladder besides its results.
pub struct ReportContext<'a> {
    /// The ladder's settings (`ladder.txt`), shown in a table.
    pub settings: &'a [(String, String)],
    /// Pairings planned (0 when unknown, e.g. a Swiss ladder's later rounds).
    pub planned: usize,
    pub anchor: Option<&'a str>,
    /// The game's names of the seats, for the PGN ([`store::seat_sides`]).
    pub sides: &'a [String; 2],
}

/// The tally of every rated game so far.
pub fn tally_of(names: &[String], pairings: &[PairingResults]) -> Tally {
    let mut tally = Tally::new(names);
    for pairing in pairings {
        tally.add_results(&pairing.results);
    }
    tally
}

/// The ratings of every bot that has played, when they share a scale, else `None`.
pub fn ratings_of(tally: &Tally, anchor: Option<&str>) -> Option<Ratings> {
    rate_played(tally, anchor).ok()
}

/// Writes `ratings.txt` (once the games rate the bots that played), `results.pgn` and `report.html` in
/// `dir`; returns the ratings when there are some.
pub fn write_summary(
    dir: &Path,
    names: &[String],
    pairings: &[PairingResults],
    context: &ReportContext<'_>,
) -> Result<Option<Ratings>, StoreError> {
    let tally = tally_of(names, pairings);
    let ratings = ratings_of(&tally, context.anchor);
    let ratings_path = dir.join(RATINGS_FILE);
    match &ratings {
        Some(ratings) => write_atomically(&ratings_path, report(&tally, ratings).as_bytes())?,
        // An earlier list (fewer games, other bots) must not stand for these results.
        None if ratings_path.exists() => {
            std::fs::remove_file(&ratings_path).map_err(|source| StoreError::Io {
                path: ratings_path.clone(),
                source,
            })?
        }
        None => {}
    }
    let pgn: String = pairings
        .iter()
        .map(|p| store::pgn(&p.results, &p.event(), context.sides))
        .collect();
    write_atomically(&dir.join(PGN_FILE), pgn.as_bytes())?;
    write_atomically(
        &dir.join(REPORT_FILE),
        html(names, pairings, context).as_bytes(),
    )?;
    Ok(ratings)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Half points as text: `7.5`, `3`.
fn points_text(points: f64) -> String {
    if (points - points.round()).abs() < 1e-9 {
        format!("{}", points.round() as i64)
    } else {
        format!("{points:.1}")
    }
}

/// Line colours of the chart (and markers of the tables), cycled.
const PALETTE: [&str; 10] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf",
];

/// The page.
pub fn html(names: &[String], pairings: &[PairingResults], context: &ReportContext<'_>) -> String {
    let tally = tally_of(names, pairings);
    let ratings = ratings_of(&tally, context.anchor);
    let games: usize = pairings.iter().map(|p| p.results.len()).sum();
    let mut page = String::new();
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>hamle ladder</title>\n<style>\nbody {{ font-family: sans-serif; margin: 2em; color: #222; }}\ntable {{ border-collapse: collapse; margin-bottom: 1.5em; }}\nth, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }}\nth {{ background: #f0f0f0; }}\ntd.name {{ text-align: left; }}\ntd.self {{ background: #eee; }}\n.swatch {{ display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; }}\n</style>\n</head>\n<body>\n<h1>hamle ladder</h1>\n"
    );
    let planned = if context.planned > 0 {
        format!(" of {}", context.planned)
    } else {
        String::new()
    };
    let _ = writeln!(
        page,
        "<p>{} bots, {} pairings{planned} played, {games} games.</p>",
        names.len(),
        pairings.len()
    );
    // Ratings.
    page.push_str("<h2>Ratings</h2>\n");
    match &ratings {
        Some(ratings) => {
            page.push_str("<table class=\"ratings\">\n<tr><th>rank</th><th>name</th><th>Elo</th><th>95% interval</th><th>games</th><th>points</th><th>score</th></tr>\n");
            for (rank, r) in ratings.ratings.iter().enumerate() {
                let colour = names
                    .iter()
                    .position(|n| *n == r.name)
                    .map_or("#000", |i| PALETTE[i % PALETTE.len()]);
                let _ = writeln!(
                    page,
                    "<tr><td>{}</td><td class=\"name\"><span class=\"swatch\" style=\"background:{colour}\"></span>{}</td><td>{:+.0}</td><td>{:+.0} … {:+.0} (±{:.0})</td><td>{}</td><td>{}</td><td>{:.1}%</td></tr>",
                    rank + 1,
                    escape(&r.name),
                    r.elo,
                    r.elo - r.error,
                    r.elo + r.error,
                    r.error,
                    points_text(r.games),
                    points_text(r.points),
                    100.0 * r.points / r.games.max(1.0)
                );
            }
            page.push_str("</table>\n");
            let _ = writeln!(
                page,
                "<p>{}{}</p>",
                match &ratings.anchor {
                    Some(anchor) => format!("Elo relative to {}, held at 0.", escape(anchor)),
                    None => "Elo relative to the mean of all bots.".to_owned(),
                },
                if ratings.prior {
                    " One virtual draw added per pairing: some bots scored every point or none, which has no finite maximum."
                } else {
                    ""
                }
            );
            if !ratings.unrated.is_empty() {
                let _ = writeln!(
                    page,
                    "<p>Not rated, no rated game yet: {}.</p>",
                    escape(&ratings.unrated.join(", "))
                );
            }
        }
        None => {
            let why = rate_played(&tally, context.anchor)
                .err()
                .unwrap_or_default();
            let _ = writeln!(page, "<p>No ratings: {}.</p>", escape(&why));
        }
    }
    // Crosstable, best bot first (command-line order without ratings).
    let order: Vec<usize> = match &ratings {
        Some(ratings) => ratings
            .ratings
            .iter()
            .map(|r| &r.name)
            .chain(&ratings.unrated)
            .filter_map(|name| names.iter().position(|n| n == name))
            .collect(),
        None => (0..names.len()).collect(),
    };
    page.push_str("<h2>Crosstable</h2>\n<p>Points of the row's bot against the column's / games.</p>\n<table class=\"crosstable\">\n<tr><th></th><th>name</th>");
    for k in 0..order.len() {
        let _ = write!(page, "<th>{}</th>", k + 1);
    }
    page.push_str("<th>total</th></tr>\n");
    for (k, &i) in order.iter().enumerate() {
        let _ = write!(
            page,
            "<tr><td>{}</td><td class=\"name\">{}</td>",
            k + 1,
            escape(&names[i])
        );
        for &j in &order {
            if i == j {
                page.push_str("<td class=\"self\">–</td>");
            } else if tally.games[i][j] == 0.0 {
                page.push_str("<td>.</td>");
            } else {
                let _ = write!(
                    page,
                    "<td>{}/{}</td>",
                    points_text(tally.points[i][j]),
                    points_text(tally.games[i][j])
                );
            }
        }
        let _ = writeln!(
            page,
            "<td>{}/{}</td></tr>",
            points_text(tally.total_points(i)),
            points_text(tally.total_games(i))
        );
    }
    page.push_str("</table>\n");
    // The chart.
    page.push_str("<h2>Ratings over the run</h2>\n<p>Re-estimated after each completed pairing, once every bot has played.</p>\n");
    page.push_str(&chart(names, pairings, context.anchor));
    // Pairings.
    page.push_str("<h2>Pairings</h2>\n<table class=\"pairings\">\n<tr><th>#</th><th>first</th><th>second</th><th>games</th><th>score</th><th>void</th></tr>\n");
    for (k, pairing) in pairings.iter().enumerate() {
        let mut first_points = 0.0;
        let mut void = 0;
        for result in &pairing.results {
            match result.winner {
                Winner::Void => void += 1,
                Winner::Draw => first_points += 0.5,
                _ if result.winner_name() == Some(pairing.first.as_str()) => first_points += 1.0,
                _ => {}
            }
        }
        let rated = (pairing.results.len() - void) as f64;
        let _ = writeln!(
            page,
            "<tr><td>{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{}</td><td>{}–{}</td><td>{void}</td></tr>",
            k + 1,
            escape(&pairing.first),
            escape(&pairing.second),
            pairing.results.len(),
            points_text(first_points),
            points_text(rated - first_points)
        );
    }
    page.push_str("</table>\n");
    if !context.settings.is_empty() {
        page.push_str("<h2>Settings</h2>\n<table class=\"settings\">\n");
        for (key, value) in context.settings {
            let _ = writeln!(
                page,
                "<tr><th>{}</th><td class=\"name\">{}</td></tr>",
                escape(key),
                escape(value)
            );
        }
        page.push_str("</table>\n");
    }
    page.push_str("</body>\n</html>\n");
    page
}

/// A round step for about `target` ticks over `span`.
fn tick_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1e-9);
    let magnitude = 10f64.powf(raw.log10().floor());
    for factor in [1.0, 2.0, 2.5, 5.0, 10.0] {
        if factor * magnitude >= raw {
            return factor * magnitude;
        }
    }
    10.0 * magnitude
}

/// The SVG chart: one line per bot, Elo against games played.
fn chart(names: &[String], pairings: &[PairingResults], anchor: Option<&str>) -> String {
    // (games so far, Elo per bot in `names` order) after each pairing that can be rated.
    let mut points: Vec<(usize, Vec<f64>)> = Vec::new();
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
            points.push((games, elos));
        }
    }
    let (width, height) = (760.0, 360.0);
    let (left, right, top, bottom) = (60.0, 190.0, 20.0, 40.0);
    let (plot_w, plot_h) = (width - left - right, height - top - bottom);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(
        svg,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"#fafafa\" stroke=\"#999\"/>"
    );
    if points.is_empty() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">no ratings yet</text>\n</svg>",
            left + plot_w / 2.0,
            top + plot_h / 2.0
        );
        return svg;
    }
    let max_games = points.last().map_or(1, |p| p.0).max(1) as f64;
    let all = points.iter().flat_map(|p| p.1.iter().copied());
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
    let x = |g: f64| left + plot_w * g / max_games;
    let y = |e: f64| top + plot_h * (high - e) / (high - low);
    // Horizontal grid and Elo labels.
    let mut tick = low;
    while tick <= high + step / 2.0 {
        let label = if tick.abs() < 0.5 {
            "0".to_owned()
        } else {
            format!("{tick:+.0}")
        };
        let _ = writeln!(
            svg,
            "<line x1=\"{left}\" y1=\"{0:.1}\" x2=\"{1}\" y2=\"{0:.1}\" stroke=\"#ddd\"/><text x=\"{2}\" y=\"{3:.1}\" text-anchor=\"end\">{label}</text>",
            y(tick),
            left + plot_w,
            left - 6.0,
            y(tick) + 4.0
        );
        tick += step;
    }
    // Games axis.
    let game_step = tick_step(max_games, 8.0).max(1.0);
    let mut tick = 0.0;
    while tick <= max_games + game_step / 2.0 {
        if tick <= max_games {
            let _ = writeln!(
                svg,
                "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{tick:.0}</text>",
                x(tick),
                top + plot_h + 16.0
            );
        }
        tick += game_step;
    }
    let _ = writeln!(
        svg,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">games</text>",
        left + plot_w / 2.0,
        height - 6.0
    );
    // A line per bot, and the legend.
    for (b, name) in names.iter().enumerate() {
        let colour = PALETTE[b % PALETTE.len()];
        let path: Vec<String> = points
            .iter()
            .map(|(g, elos)| format!("{:.1},{:.1}", x(*g as f64), y(elos[b])))
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
        let legend_y = top + 14.0 + 18.0 * b as f64;
        let last = points.last().map_or(0.0, |p| p.1[b]);
        let _ = writeln!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{colour}\"/><text x=\"{}\" y=\"{}\">{} ({last:+.0})</text>",
            left + plot_w + 12.0,
            legend_y - 10.0,
            left + plot_w + 30.0,
            legend_y,
            escape(name)
        );
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: usize, first: &str, second: &str, winner: Winner) -> GameResult {
        GameResult {
            game: index,
            first: first.to_owned(),
            second: second.to_owned(),
            seed: 1,
            result: "x".to_owned(),
            winner,
            reason: "score".to_owned(),
            moves: 10,
            record: "0001.txt".to_owned(),
        }
    }

    #[test]
    fn the_page_holds_the_tables_and_the_chart_and_escapes_names() {
        let names: Vec<String> = ["a<b", "c", "d"].iter().map(|s| s.to_string()).collect();
        let pairings = vec![
            PairingResults::new(
                "a<b",
                "c",
                vec![
                    game(1, "c", "a<b", Winner::Second),
                    game(0, "a<b", "c", Winner::First),
                ],
            ),
            PairingResults::new(
                "a<b",
                "d",
                vec![
                    game(0, "a<b", "d", Winner::Draw),
                    game(1, "d", "a<b", Winner::First),
                ],
            ),
            PairingResults::new(
                "c",
                "d",
                vec![
                    game(0, "c", "d", Winner::First),
                    game(1, "d", "c", Winner::Void),
                ],
            ),
        ];
        let context = ReportContext {
            settings: &[("format".to_owned(), "round-robin".to_owned())],
            planned: 3,
            anchor: None,
            sides: &["Black".to_owned(), "White".to_owned()],
        };
        let page = html(&names, &pairings, &context);
        assert!(page.contains("a&lt;b") && !page.contains("a<b"), "{page}");
        assert!(page.contains("<svg") && page.contains("<polyline"));
        assert!(page.contains("3 pairings of 3 played, 6 games"));
        assert!(page.ends_with("</html>\n"));
        assert_eq!(page, html(&names, &pairings, &context));
        assert_eq!(tick_step(380.0, 6.0), 100.0);
        assert_eq!(tick_step(12.0, 8.0), 2.0);
    }
}
