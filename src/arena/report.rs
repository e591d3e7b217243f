//! A ladder's summary files: `ratings.txt` (the rating list and crosstable), `results.pgn`
//! (every rated game) and `report.html`, a standalone page (no script, no external file)
//! with the ratings and their 95% intervals, the crosstable, every pairing's score and an
//! inline SVG chart of the ratings re-estimated after each completed pairing; its last section
//! links every game's viewer page in the pairing folders (`super::view`).
//!
//! Everything is computed from the pairings' results in pairing order, each pairing's games
//! in game order, so the files depend only on the results: a ladder, the same ladder resumed,
//! its shards merged and `hamle ladder report` all write the same bytes.
//!
//! This room writes the files; the page's sections are in `page`, its chart in `chart`, and
//! `report/golden/` holds whole pages the tests compare with byte for byte.

mod chart;
pub(crate) use chart::tick_step;
mod page;

use std::path::Path;

use super::rating::{Ratings, Tally, rate_played, report};
use super::store::{self, GameResult, PGN_FILE, StoreError, write_atomically};

pub use page::html;

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
    // The games section links the viewer pages the pairings' folders hold.
    let page = html(names, pairings, context).replace(
        "</body>\n",
        &format!("{}</body>\n", super::view::ladder_games_section(dir)),
    );
    write_atomically(&dir.join(REPORT_FILE), page.as_bytes())?;
    Ok(ratings)
}

pub(crate) fn escape(text: &str) -> String {
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

/// The colour of the bot at `index` in `names`, the same in the chart and the tables.
pub(crate) fn colour(index: usize) -> &'static str {
    PALETTE[index % PALETTE.len()]
}

#[cfg(test)]
mod tests {
    use super::super::store::Winner;
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
            thinking: [None; 2],
            costs: Vec::new(),
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
    }

    fn names_of(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    /// A pairing of `first` and `second` whose games, in order, end as `winners` (games
    /// alternate the seats, as a ladder plays them).
    fn pairing(first: &str, second: &str, winners: &[Winner]) -> PairingResults {
        let results = winners
            .iter()
            .enumerate()
            .map(|(index, &winner)| {
                if index % 2 == 0 {
                    game(index, first, second, winner)
                } else {
                    game(index, second, first, winner)
                }
            })
            .collect();
        PairingResults::new(first, second, results)
    }

    /// Three bots (names to escape), wins both ways, draws and voids, two rounds of
    /// pairings so the chart has several points per line.
    fn three_bot_ladder() -> (Vec<String>, Vec<PairingResults>) {
        use Winner::{Draw, First, Second, Void};
        let names = names_of(&["a<b & \"q\"", "gnu", "kata"]);
        let pairings = vec![
            pairing(&names[0], &names[1], &[First, Second, Draw, First]),
            pairing(&names[0], &names[2], &[Second, First, Second, Void]),
            pairing(&names[1], &names[2], &[Draw, Draw, Second, First]),
            pairing(&names[0], &names[1], &[First, First, Void, Second]),
            pairing(&names[0], &names[2], &[Draw, Second, First, Second]),
            pairing(&names[1], &names[2], &[Second, Void, First, Draw]),
        ];
        (names, pairings)
    }

    /// The page as the code wrote it before `html` and `chart` were split into helpers: any
    /// change of a byte is a change of behaviour.
    #[test]
    fn the_page_is_byte_for_byte_the_golden_page() {
        let (names, pairings) = three_bot_ladder();
        let settings = [
            ("format".to_owned(), "round-robin".to_owned()),
            ("bots".to_owned(), "a<b & \"q\", gnu, kata".to_owned()),
            ("games".to_owned(), "4".to_owned()),
        ];
        let unanchored = ReportContext {
            settings: &settings,
            planned: 9,
            anchor: None,
            sides: &["Black".to_owned(), "White".to_owned()],
        };
        pretty_assertions::assert_eq!(
            html(&names, &pairings, &unanchored),
            include_str!("report/golden/three_bots.html")
        );
        let anchored = ReportContext {
            settings: &[],
            planned: 0,
            anchor: Some("gnu"),
            sides: &["Black".to_owned(), "White".to_owned()],
        };
        pretty_assertions::assert_eq!(
            html(&names, &pairings, &anchored),
            include_str!("report/golden/three_bots_anchored.html")
        );
    }

    /// The other shapes of the page: a bot that has not played (no ratings, no chart), a
    /// clean sweep (the virtual draws), ratings closer than 100 Elo (the widened axis) and
    /// more bots than colours.
    #[test]
    fn the_other_shapes_of_the_page_are_the_golden_pages() {
        use Winner::{Draw, First, Second};
        let context = ReportContext {
            settings: &[("format".to_owned(), "swiss".to_owned())],
            planned: 0,
            anchor: None,
            sides: &["Black".to_owned(), "White".to_owned()],
        };
        let names = names_of(&["a", "b", "c"]);
        let unrated = vec![pairing("a", "b", &[First, Draw])];
        pretty_assertions::assert_eq!(
            html(&names, &unrated, &context),
            include_str!("report/golden/unrated.html")
        );
        let sweep = vec![
            pairing("a", "b", &[First, Second]),
            pairing("a", "c", &[First, Second, First]),
            pairing("b", "c", &[Draw, Draw]),
        ];
        pretty_assertions::assert_eq!(
            html(&names, &sweep, &context),
            include_str!("report/golden/sweep.html")
        );
        let even = vec![
            pairing("a", "b", &[Draw, Draw]),
            pairing("b", "c", &[First, First]),
            pairing("a", "c", &[Draw, First]),
        ];
        pretty_assertions::assert_eq!(
            html(&names, &even, &context),
            include_str!("report/golden/even.html")
        );
        let many: Vec<String> = (0..12).map(|k| format!("bot{k}")).collect();
        let mut round_robin = Vec::new();
        for i in 0..many.len() {
            for j in i + 1..many.len() {
                let winners = match (i + 2 * j) % 3 {
                    0 => [First, Draw],
                    1 => [Second, First],
                    _ => [Draw, Second],
                };
                round_robin.push(pairing(&many[i], &many[j], &winners));
            }
        }
        pretty_assertions::assert_eq!(
            html(&many, &round_robin, &context),
            include_str!("report/golden/twelve_bots.html")
        );
    }
}
