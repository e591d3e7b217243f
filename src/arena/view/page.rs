//! One game's page: the header (players, time used, result and why the game ended), every
//! position as an empty `<figure>` (all hidden but one), the controls, the move list, the
//! boards' SVG written compactly (`frames`: each distinct part once, each board as the
//! edits from the one before), and the script (`viewer.js`, which draws every board into
//! its figure) and style (`viewer.css`) inline, so the page is one file that asks for
//! nothing.

use std::fmt::Write;

use super::costs::{cost_text, curve};
use crate::contract::record::MoveCost;
use crate::contract::view::{GameView, escape};

const STYLE: &str = include_str!("viewer.css");
const SCRIPT: &str = include_str!("viewer.js");

/// At most this many boards are printed: one per range of moves.
const PRINTED_BOARDS: usize = 12;

/// Where the page sits: its title and a link back (the match's report), both optional.
#[derive(Clone, Debug, Default)]
pub struct PageLinks {
    /// A link back, relative to the page (`../report.html`), and its words.
    pub back: Option<(String, String)>,
    /// Words before the title (`Game 7`).
    pub label: Option<String>,
    /// Files the page links after its result, relative to the page, with their words
    /// (`--log-protocol`: each engine's conversation in this game).
    pub files: Vec<(String, String)>,
    /// What each move cost and its engine's judgement (the match's `results.tsv`, or the
    /// record's tags), one a move; shown only when there is one for every move.
    pub costs: Vec<MoveCost>,
}

/// What the arena's comment says: why the game ended and each seat's thinking time.
/// The arena writes `hamle match game N (pair P), seed S (match seed M); REASON` and,
/// under a time control, `; time control TC, thinking time A s and B s`.
fn arena_facts(comment: &str) -> (Option<String>, Option<[String; 2]>) {
    if !comment.starts_with("hamle match game") {
        return (None, None);
    }
    let mut parts = comment.split("; ");
    let reason = parts.nth(1).map(str::to_owned);
    let times = comment.split_once("thinking time ").and_then(|(_, rest)| {
        let (first, rest) = rest.split_once(" s and ")?;
        let second = rest.split(" s").next()?;
        Some([format!("{first} s"), format!("{second} s")])
    });
    (reason, times)
}

/// Why a game ended when the record does not say: the loss letter of `W+R`, `B+T`, `B+F`.
fn reason_of_result(result: &str) -> Option<&'static str> {
    match result.split_once('+')?.1 {
        "R" | "Resign" => Some("resignation"),
        "T" | "Time" => Some("time"),
        "F" | "Forfeit" => Some("forfeit"),
        _ => None,
    }
}

/// The words under the board of frame `index`: `Move 7 of 40: ` (but at the start), its
/// [`status_tail`], and the result after the last move. The page's script writes them
/// the same way.
fn status_of(view: &GameView, index: usize, result_line: &str) -> String {
    let total = view.frames.len().saturating_sub(1);
    let mut status = match &view.frames[index].mv {
        None => String::new(),
        Some(_) => format!("Move {index} of {total}: "),
    };
    status.push_str(&status_tail(view, index));
    if index == total {
        let _ = write!(status, ". {result_line}");
    }
    status
}

/// What the status of frame `index` says of it: its mover, its move and its note
/// (`North N2 (set 1)`), or at the start `Start (of 40 moves)`.
fn status_tail(view: &GameView, index: usize) -> String {
    let total = view.frames.len().saturating_sub(1);
    let frame = &view.frames[index];
    let mut status = match &frame.mv {
        None => format!("Start (of {total} moves)"),
        Some(mv) => format!("{} {mv}", frame.mover.as_deref().unwrap_or("")),
    };
    if !frame.note.is_empty() {
        let _ = write!(status, " ({})", frame.note);
    }
    status
}

/// The frames printed: the last of each range of moves, and its range.
fn printed_frames(count: usize) -> Vec<(usize, usize)> {
    let moves = count.saturating_sub(1);
    let per = moves.div_ceil(PRINTED_BOARDS).max(1);
    let mut ranges = Vec::new();
    let mut from = 1;
    while from <= moves {
        let to = (from + per - 1).min(moves);
        ranges.push((from, to));
        from = to + 1;
    }
    if ranges.is_empty() {
        ranges.push((0, 0));
    }
    ranges
}

/// The whole page of `view`.
pub fn game_page(view: &GameView, links: &PageLinks) -> String {
    let header = &view.header;
    let names: Vec<&str> = header.players.iter().map(|(_, n)| n.as_str()).collect();
    let title = format!(
        "{}{}: {}",
        links
            .label
            .as_deref()
            .map(|l| format!("{l}, "))
            .unwrap_or_default(),
        capitalised(view.game),
        names.join(" vs ")
    );
    let (reason, times) = arena_facts(&header.comment);
    let reason = reason.or_else(|| reason_of_result(&header.result).map(str::to_owned));
    let result_line = match &reason {
        Some(reason) => format!("Result: {} ({reason})", header.result),
        None => format!("Result: {}", header.result),
    };
    let mut page = String::with_capacity(64 * 1024);
    let _ = write!(
        page,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>\n{STYLE}</style>\n</head>\n<body data-game=\"{}\">\n",
        escape(&title),
        view.game
    );
    if let Some((href, words)) = &links.back {
        let _ = writeln!(
            page,
            "<p class=\"back\"><a href=\"{}\">{}</a></p>",
            escape(href),
            escape(words)
        );
    }
    let _ = writeln!(page, "<h1>{}</h1>", escape(&title));
    write_players(&mut page, view, times.as_ref());
    let _ = writeln!(
        page,
        "<p class=\"result\" id=\"result\">{}</p>",
        escape(&result_line)
    );
    if !links.files.is_empty() {
        let items: Vec<String> = links
            .files
            .iter()
            .map(|(href, words)| format!("<a href=\"{}\">{}</a>", escape(href), escape(words)))
            .collect();
        let _ = writeln!(page, "<p class=\"files\">{}</p>", items.join(" · "));
    }
    if let Some(problem) = &view.problem {
        let place = match problem.line {
            Some(line) => format!("line {line} of the record could not be read"),
            None => "the record could not be read to its end".to_owned(),
        };
        let _ = writeln!(
            page,
            "<p class=\"problem\" id=\"problem\" role=\"alert\">Damaged record: {place}: {}. The positions before it are shown.</p>",
            escape(&problem.message)
        );
    }
    // The costs match the moves one for one, or they are not shown: a record read with
    // more or fewer moves than were timed would put each time beside the wrong move.
    let costs = (!links.costs.is_empty() && links.costs.len() + 1 == view.frames.len())
        .then_some(links.costs.as_slice());
    let first = view
        .header
        .players
        .first()
        .map_or("the first seat", |(side, _)| side.as_str());
    let words: Vec<String> = match costs {
        Some(costs) => std::iter::once(String::new())
            .chain(costs.iter().map(|cost| cost_text(cost, first)))
            .collect(),
        None => Vec::new(),
    };
    write_viewer(&mut page, view, &result_line, &words);
    if let Some(costs) = costs {
        page.push_str(&curve(costs, view.frames.len(), first));
    }
    write_settings(&mut page, view);
    let svgs: Vec<&str> = view.frames.iter().map(|frame| frame.svg.as_str()).collect();
    let status: Vec<String> = (0..view.frames.len())
        .map(|index| status_tail(view, index))
        .collect();
    let _ = write!(
        page,
        "<script type=\"application/json\" id=\"boards\">{}</script>\n<script type=\"application/json\" id=\"costs\">{}</script>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        super::frames::encode(&svgs, &status),
        super::frames::strings_json(&words)
    );
    page
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn write_players(page: &mut String, view: &GameView, times: Option<&[String; 2]>) {
    page.push_str("<table class=\"players\">\n");
    for (seat, (side, name)) in view.header.players.iter().enumerate() {
        let time = times
            .and_then(|t| t.get(seat))
            .map(|t| format!("<td class=\"time\">thinking time {}</td>", escape(t)))
            .unwrap_or_default();
        let _ = writeln!(
            page,
            "<tr><th>{}</th><td class=\"name\">{}</td>{time}</tr>",
            escape(side),
            escape(name)
        );
    }
    page.push_str("</table>\n");
}

/// The boards, the controls and the move list.
/// `words` (one a frame, or none) go beside each move in the list.
fn write_viewer(page: &mut String, view: &GameView, result_line: &str, words: &[String]) {
    page.push_str("<main class=\"viewer\">\n<section class=\"boards\">\n");
    if view.frames.is_empty() {
        page.push_str("<p class=\"empty\">No position could be read from the record.</p>\n");
    }
    let last = view.frames.len().saturating_sub(1);
    let printed = printed_frames(view.frames.len());
    for index in 0..view.frames.len() {
        let range = printed.iter().find(|(_, to)| *to == index);
        let class = if range.is_some() {
            "frame print"
        } else {
            "frame"
        };
        // Empty: the script draws every board (`frames`).
        let hidden = if index == last { "" } else { " hidden" };
        let _ = write!(
            page,
            "<figure class=\"{class}\" data-move=\"{index}\"{hidden}>"
        );
        if let Some((from, to)) = range {
            let moves: Vec<String> = view.frames[*from..=*to]
                .iter()
                .filter_map(|f| f.mv.as_ref().map(|mv| format!("{} {mv}", initial(f))))
                .collect();
            let _ = write!(
                page,
                "<figcaption class=\"range\">Moves {from}–{to}: {}</figcaption>",
                escape(&moves.join(", "))
            );
        }
        page.push_str("</figure>\n");
    }
    let _ = write!(
        page,
        "<nav class=\"controls\" aria-label=\"moves\">\n<button type=\"button\" id=\"first\" title=\"start (Home)\">&laquo;</button>\n<button type=\"button\" id=\"prev\" title=\"back (&#x2190;)\">&lsaquo;</button>\n<button type=\"button\" id=\"next\" title=\"forward (&#x2192;)\">&rsaquo;</button>\n<button type=\"button\" id=\"last\" title=\"end (End)\">&raquo;</button>\n</nav>\n<p class=\"status\" id=\"status\" aria-live=\"polite\">{}</p>\n</section>\n",
        escape(
            &view
                .frames
                .get(last)
                .map(|_| status_of(view, last, result_line))
                .unwrap_or_default()
        )
    );
    page.push_str("<ol class=\"moves\" id=\"moves\">\n");
    for (index, frame) in view.frames.iter().enumerate().skip(1) {
        let mv = frame.mv.as_deref().unwrap_or("");
        let current = if index == last {
            " class=\"current\""
        } else {
            ""
        };
        let cost = words
            .get(index)
            .filter(|words| !words.is_empty())
            .map(|words| format!(" <span class=\"cost\">{}</span>", escape(words)))
            .unwrap_or_default();
        let _ = writeln!(
            page,
            "<li data-move=\"{index}\"{current}><a href=\"#move={index}\">{index}. {} {}{cost}</a></li>",
            escape(&initial(frame)),
            escape(mv)
        );
    }
    page.push_str("</ol>\n</main>\n");
}

/// The mover's initial (`B`, `W`, `S`): the move list's short form.
fn initial(frame: &crate::contract::view::Frame) -> String {
    frame
        .mover
        .as_deref()
        .and_then(|m| m.chars().next())
        .map(String::from)
        .unwrap_or_default()
}

fn write_settings(page: &mut String, view: &GameView) {
    let header = &view.header;
    if header.settings.is_empty() && header.comment.is_empty() {
        return;
    }
    page.push_str("<table class=\"settings\">\n");
    for (key, value) in &header.settings {
        let _ = writeln!(
            page,
            "<tr><th>{}</th><td>{}</td></tr>",
            escape(key),
            escape(value)
        );
    }
    if !header.comment.is_empty() {
        let _ = writeln!(
            page,
            "<tr><th>Comment</th><td>{}</td></tr>",
            escape(&header.comment)
        );
    }
    page.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arena_comment_gives_the_reason_and_the_times() {
        let comment = "hamle match game 3 (pair 2), seed 9 (match seed 1); resignation; time control 10+0.1, thinking time 1.25 s and 3.50 s";
        let (reason, times) = arena_facts(comment);
        assert_eq!(reason.as_deref(), Some("resignation"));
        assert_eq!(times, Some(["1.25 s".to_owned(), "3.50 s".to_owned()]));
        assert_eq!(arena_facts("from GoGui"), (None, None));
        assert_eq!(reason_of_result("W+R"), Some("resignation"));
    }

    #[test]
    fn print_ranges_cover_every_move_once() {
        assert_eq!(printed_frames(1), [(0, 0)]);
        assert_eq!(printed_frames(4), [(1, 1), (2, 2), (3, 3)]);
        let ranges = printed_frames(101);
        assert!(ranges.len() <= PRINTED_BOARDS);
        assert_eq!(ranges.first(), Some(&(1, 9)));
        assert_eq!(ranges.last().map(|r| r.1), Some(100));
    }
}
