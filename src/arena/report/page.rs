//! `report.html`, the ladder's standalone page: one function per section, in the order the
//! page shows them (head and summary line, ratings, crosstable, chart, pairings, settings).
//! Every section appends to the same `String`, so the page is their concatenation.

use std::fmt::Write;

use super::super::rating::rate_played;
use super::super::rating::{Ratings, Tally};
use super::super::store::Winner;
use super::chart::chart;
use super::{PairingResults, ReportContext, colour, escape, points_text, ratings_of, tally_of};

/// Everything before the summary line: no script and no external file, so the page can be
/// mailed or archived on its own.
const HEAD: &str = concat!(
    "<!DOCTYPE html>\n",
    "<html lang=\"en\">\n",
    "<head>\n",
    "<meta charset=\"utf-8\">\n",
    "<title>hamle ladder</title>\n",
    "<style>\n",
    "body { font-family: sans-serif; margin: 2em; color: #222; }\n",
    "table { border-collapse: collapse; margin-bottom: 1.5em; }\n",
    "th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }\n",
    "th { background: #f0f0f0; }\n",
    "td.name { text-align: left; }\n",
    "td.self { background: #eee; }\n",
    ".swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; }\n",
    "</style>\n",
    "</head>\n",
    "<body>\n",
    "<h1>hamle ladder</h1>\n",
);

/// The page.
pub fn html(names: &[String], pairings: &[PairingResults], context: &ReportContext<'_>) -> String {
    let tally = tally_of(names, pairings);
    let ratings = ratings_of(&tally, context.anchor);
    let mut page = String::new();
    page.push_str(HEAD);
    write_summary_line(&mut page, names, pairings, context.planned);
    write_ratings(&mut page, names, &tally, context.anchor, ratings.as_ref());
    write_crosstable(&mut page, names, &tally, ratings.as_ref());
    write_totals(&mut page, names, pairings);
    page.push_str("<h2>Ratings over the run</h2>\n<p>Re-estimated after each completed pairing, once every bot has played.</p>\n");
    page.push_str(&chart(names, pairings, context.anchor));
    write_pairings(&mut page, pairings);
    write_settings(&mut page, context.settings);
    page.push_str("</body>\n</html>\n");
    page
}

/// How far the ladder got: bots, pairings (of how many, when known) and games.
fn write_summary_line(
    page: &mut String,
    names: &[String],
    pairings: &[PairingResults],
    planned: usize,
) {
    let games: usize = pairings.iter().map(|p| p.results.len()).sum();
    let planned = if planned > 0 {
        format!(" of {planned}")
    } else {
        String::new()
    };
    let _ = writeln!(
        page,
        "<p>{} bots, {} pairings{planned} played, {games} games.</p>",
        names.len(),
        pairings.len()
    );
}

/// The rating list, best first, with each bot's chart colour; or why there is none yet.
fn write_ratings(
    page: &mut String,
    names: &[String],
    tally: &Tally,
    anchor: Option<&str>,
    ratings: Option<&Ratings>,
) {
    page.push_str("<h2>Ratings</h2>\n");
    let Some(ratings) = ratings else {
        let why = rate_played(tally, anchor).err().unwrap_or_default();
        let _ = writeln!(page, "<p>No ratings: {}.</p>", escape(&why));
        return;
    };
    page.push_str("<table class=\"ratings\">\n<tr><th>rank</th><th>name</th><th>Elo</th><th>95% interval</th><th>games</th><th>points</th><th>score</th></tr>\n");
    for (rank, r) in ratings.ratings.iter().enumerate() {
        let colour = names
            .iter()
            .position(|n| *n == r.name)
            .map_or("#000", colour);
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
    let _ = writeln!(page, "<p>{}</p>", rating_note(ratings));
    if !ratings.unrated.is_empty() {
        let _ = writeln!(
            page,
            "<p>Not rated, no rated game yet: {}.</p>",
            escape(&ratings.unrated.join(", "))
        );
    }
}

/// What the Elo are relative to, and whether virtual draws were needed.
fn rating_note(ratings: &Ratings) -> String {
    let origin = match &ratings.anchor {
        Some(anchor) => format!("Elo relative to {}, held at 0.", escape(anchor)),
        None => "Elo relative to the mean of all bots.".to_owned(),
    };
    let prior = if ratings.prior {
        " One virtual draw added per pairing: some bots scored every point or none, which has no finite maximum."
    } else {
        ""
    };
    format!("{origin}{prior}")
}

/// Indices into `names` in crosstable order: best bot first, or command-line order without
/// ratings.
fn crosstable_order(names: &[String], ratings: Option<&Ratings>) -> Vec<usize> {
    match ratings {
        Some(ratings) => ratings
            .ratings
            .iter()
            .map(|r| &r.name)
            .chain(&ratings.unrated)
            .filter_map(|name| names.iter().position(|n| n == name))
            .collect(),
        None => (0..names.len()).collect(),
    }
}

/// Points and games of every bot against every other, and in all.
fn write_crosstable(page: &mut String, names: &[String], tally: &Tally, ratings: Option<&Ratings>) {
    let order = crosstable_order(names, ratings);
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
}

/// The first bot's points and the void games of one pairing.
fn first_points_and_voids(pairing: &PairingResults) -> (f64, usize) {
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
    (first_points, void)
}

/// Each bot's games, results, failures by kind and thinking over all its pairings.
fn write_totals(page: &mut String, names: &[String], pairings: &[PairingResults]) {
    let results: Vec<_> = pairings
        .iter()
        .flat_map(|pairing| pairing.results.iter().cloned())
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    page.push_str("<h2>Bots</h2>\n");
    page.push_str(&crate::arena::summary::totals_table(
        &results, &names, escape,
    ));
}

/// Every pairing in pairing order, with its score and its void games.
fn write_pairings(page: &mut String, pairings: &[PairingResults]) {
    page.push_str("<h2>Pairings</h2>\n<table class=\"pairings\">\n<tr><th>#</th><th>first</th><th>second</th><th>games</th><th>score</th><th>void</th></tr>\n");
    for (k, pairing) in pairings.iter().enumerate() {
        let (first_points, void) = first_points_and_voids(pairing);
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
}

/// The ladder's settings (`ladder.txt`), when there are any.
fn write_settings(page: &mut String, settings: &[(String, String)]) {
    if settings.is_empty() {
        return;
    }
    page.push_str("<h2>Settings</h2>\n<table class=\"settings\">\n");
    for (key, value) in settings {
        let _ = writeln!(
            page,
            "<tr><th>{}</th><td class=\"name\">{}</td></tr>",
            escape(key),
            escape(value)
        );
    }
    page.push_str("</table>\n");
}
