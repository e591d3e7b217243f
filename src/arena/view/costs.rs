//! What each move cost and what its engine judged, on the page: a few words a move (its
//! thinking time, the clock left, the engine's win rate, score lead or equity) beside it in the move
//! list and under the board, and the curve of the game's judgements (the first seat's win
//! rate, else its equity, else its score lead) as an inline SVG with a mark at the shown move. They come from
//! the match's `results.tsv` (`costs=`, `judgements=`) or, for a record alone, from what
//! the record keeps of them.

use std::fmt::Write;

use crate::contract::record::{
    Judgement, MoveCost, hundredths_text, seconds_text, thousandths_text,
};
use crate::contract::view::escape;

/// The curve's drawing box: moves along, 0–100 up.
const WIDTH: f64 = 600.0;

/// One move's words: `0.120 s`, `0.120 s, 59.880 s left`, then the judgement from the first
/// seat's side (`first` names it: `Black 52.34%, lead -3.50`); empty for a move no engine
/// chose.
pub fn cost_text(cost: &MoveCost, first: &str) -> String {
    let Some(took) = cost.thinking else {
        return String::new();
    };
    let mut text = format!("{} s", seconds_text(took));
    if let Some(left) = cost.clock_left {
        let _ = write!(text, ", {} s left", seconds_text(left));
    }
    if let Some(judgement) = cost.judgement {
        let _ = write!(text, "; {first}{}", judgement_words(judgement));
    }
    text
}

fn judgement_words(judgement: Judgement) -> String {
    let mut text = String::new();
    if let Some(rate) = judgement.win_rate {
        let _ = write!(text, " {}.{:02}%", rate / 100, rate % 100);
    }
    if let Some(lead) = judgement.lead {
        let _ = write!(text, " lead {}", hundredths_text(lead));
    }
    if let Some(equity) = judgement.equity {
        let _ = write!(text, " equity {}", thousandths_text(equity));
    }
    text
}

/// What a game's curve draws: the win rate where any move has one, else the equity (Tavla)
/// where any has one, else the score lead.
#[derive(Copy, Clone, PartialEq)]
enum Measure {
    WinRate,
    Equity,
    Lead,
}

impl Measure {
    fn of(costs: &[MoveCost]) -> Measure {
        let any = |has: fn(Judgement) -> bool| costs.iter().any(|c| c.judgement.is_some_and(has));
        if any(|j| j.win_rate.is_some()) {
            Measure::WinRate
        } else if any(|j| j.equity.is_some()) {
            Measure::Equity
        } else {
            Measure::Lead
        }
    }

    fn name(self) -> &'static str {
        match self {
            Measure::WinRate => "win rate",
            Measure::Equity => "equity",
            Measure::Lead => "score lead",
        }
    }

    /// The value drawn, unscaled (an equity or lead against the game's widest).
    fn value(self, judgement: Judgement) -> Option<i64> {
        match self {
            Measure::WinRate => judgement.win_rate.map(i64::from),
            Measure::Equity => judgement.equity,
            Measure::Lead => judgement.lead,
        }
    }
}

/// Each judged move's height on the curve (0 bottom, 100 top) by frame index: the first
/// seat's win rate in percent where any move has one, else its equity (scaled to the
/// game's largest, at least one point) or score lead (scaled to the game's largest), 50
/// being level.
fn heights(costs: &[MoveCost]) -> Vec<(usize, f64)> {
    let measure = Measure::of(costs);
    let floor = if measure == Measure::Equity { 1000 } else { 1 };
    let widest = costs
        .iter()
        .filter_map(|c| measure.value(c.judgement?))
        .map(i64::unsigned_abs)
        .max()
        .unwrap_or(0)
        .max(floor) as f64;
    costs
        .iter()
        .enumerate()
        .filter_map(|(i, cost)| {
            let value = measure.value(cost.judgement?)? as f64;
            let height = match measure {
                Measure::WinRate => value / 100.0,
                _ => 50.0 + 50.0 * value / widest,
            };
            Some((i + 1, height))
        })
        .collect()
}

/// The x of frame `index` of `frames` (the start at the left edge, the last move at the right).
fn x_of(index: usize, frames: usize) -> f64 {
    WIDTH * index as f64 / frames.saturating_sub(1).max(1) as f64
}

/// The curve of the judgements of a game of `frames` boards (`costs` one a move), or
/// nothing when no move has one: a polyline with a point a judged move, the even line, and
/// the mark (`#curve-at`) the script moves to the shown board.
pub fn curve(costs: &[MoveCost], frames: usize, first: &str) -> String {
    let heights = heights(costs);
    if heights.is_empty() {
        return String::new();
    }
    let what = Measure::of(costs).name();
    let points: Vec<String> = heights
        .iter()
        .map(|(index, height)| format!("{:.1},{:.1}", x_of(*index, frames), 100.0 - height))
        .collect();
    let last = x_of(frames.saturating_sub(1), frames);
    format!(
        "<figure class=\"curve\"><svg id=\"curve\" viewBox=\"0 0 {WIDTH} 100\" preserveAspectRatio=\"none\" role=\"img\" aria-label=\"{what} of {first}, move by move\" data-frames=\"{frames}\"><line class=\"even\" x1=\"0\" y1=\"50\" x2=\"{WIDTH}\" y2=\"50\"/><polyline class=\"judged\" points=\"{}\"/><line id=\"curve-at\" x1=\"{last:.1}\" y1=\"0\" x2=\"{last:.1}\" y2=\"100\"/></svg><figcaption>{} of {}, as the engines judged each move (top: {} ahead)</figcaption></figure>\n",
        points.join(" "),
        escape(&capital(what)),
        escape(first),
        escape(first),
    )
}

fn capital(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// The costs a record keeps of its own moves, for a page made from the record alone
/// (`hamle view`): the text records' and `.mat`'s `MoveTimes` and `MoveJudgements` tags, or
/// our SGF's move properties (`BL`/`WL`, `SBKV`, `C[thinking … s, …, lead W+3.50]`). Empty
/// when the record has none or they do not read (a page then shows no times).
pub fn costs_in_record(text: &str) -> Vec<MoveCost> {
    let tagged = tag_costs(text);
    if !tagged.is_empty() {
        return tagged;
    }
    sgf_costs(text).unwrap_or_default()
}

/// The values of every `[NAME "…"]` tag of `text` (at a line's start, after `; ` in a
/// `.mat`), their words in order.
fn tag_words(text: &str, name: &str) -> Vec<String> {
    let prefix = format!("[{name} \"");
    text.lines()
        .map(|line| line.strip_prefix("; ").unwrap_or(line))
        .filter_map(|line| line.strip_prefix(prefix.as_str())?.strip_suffix("\"]"))
        .flat_map(|value| value.split(' ').map(str::to_owned).collect::<Vec<_>>())
        .collect()
}

fn tag_costs(text: &str) -> Vec<MoveCost> {
    let times = tag_words(text, "MoveTimes");
    let Some(mut costs) = crate::arena::game_result::costs_of(&times.join(",")) else {
        return Vec::new();
    };
    let judgements = tag_words(text, "MoveJudgements");
    if judgements.len() == costs.len() {
        for (cost, word) in costs.iter_mut().zip(&judgements) {
            cost.judgement = Judgement::parse(word).ok().flatten();
        }
    }
    costs
}

/// Our SGF's per-move properties; `None` when no move has a thinking time.
fn sgf_costs(text: &str) -> Option<Vec<MoveCost>> {
    let node = regex::Regex::new(r";\s*[BW]\[[a-z]*\]((?:\s*[A-Z]+\[[^\]]*\])*)").ok()?;
    let property = regex::Regex::new(r"([A-Z]+)\[([^\]]*)\]").ok()?;
    let mut timed = false;
    let costs = node
        .captures_iter(text)
        .map(|caps| {
            let mut cost = MoveCost::default();
            let (mut left, mut rate, mut lead) = (None, None, None);
            for prop in property.captures_iter(&caps[1]) {
                match (&prop[1], &prop[2]) {
                    ("BL" | "WL", value) => left = Some(value.to_owned()),
                    ("SBKV", value) => {
                        rate = value
                            .parse::<f64>()
                            .ok()
                            .filter(|r| (0.0..=100.0).contains(r))
                    }
                    ("C", comment) => {
                        // Another comment (a person's) says nothing of the move's cost.
                        let Some(rest) = comment.strip_prefix("thinking ") else {
                            continue;
                        };
                        let (took, words) = rest.split_once(" s").unwrap_or((rest, ""));
                        cost.thinking = crate::arena::game_result::costs_of(took)
                            .and_then(|costs| costs.first()?.thinking);
                        lead = words.split_once(", lead ").and_then(|(_, lead)| {
                            let (side, points) = lead.split_once('+')?;
                            let points = crate::contract::record::hundredths_of(points)?;
                            Some(if side == "W" { -points } else { points })
                        });
                    }
                    _ => {}
                }
            }
            timed |= cost.thinking.is_some();
            cost.clock_left = left.and_then(|left| {
                crate::arena::game_result::costs_of(&left).and_then(|c| c.first()?.thinking)
            });
            let win_rate = rate.map(|rate| (rate * 100.0).round() as u32);
            if win_rate.is_some() || lead.is_some() {
                cost.judgement = Some(Judgement {
                    win_rate,
                    lead,
                    equity: None,
                });
            }
            cost
        })
        .collect::<Vec<_>>();
    timed.then_some(costs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_curve_of_a_judged_game() {
        let judged = |rate| MoveCost {
            thinking: Some(1_250),
            clock_left: Some(58_750),
            judgement: Some(Judgement {
                win_rate: Some(rate),
                lead: Some(-350),
                equity: None,
            }),
        };
        let costs = [MoveCost::default(), judged(5_234), judged(10_000)];
        assert_eq!(cost_text(&costs[0], "Black"), "");
        assert_eq!(
            cost_text(&costs[1], "Black"),
            "1.250 s, 58.750 s left; Black 52.34% lead -3.50"
        );
        let svg = curve(&costs, 4, "Black");
        assert!(svg.contains("points=\"400.0,47.7 600.0,0.0\""), "{svg}");
        assert!(svg.contains("Win rate of Black"), "{svg}");
        assert_eq!(curve(&costs[..1], 2, "Black"), "");
    }

    #[test]
    fn a_record_gives_back_its_own_costs() {
        let sgf = "(;GC[a; b]SZ[7];B[dd]BL[599.994]SBKV[66.67]C[thinking 0.006 s, win rate B 66.67%, lead W+1.50];W[ee]WL[598.000]C[thinking 2.000 s])";
        let costs = costs_in_record(sgf);
        assert_eq!(costs.len(), 2, "{costs:?}");
        assert_eq!(costs[0].thinking, Some(6));
        assert_eq!(costs[0].clock_left, Some(599_994));
        assert_eq!(
            costs[0].judgement,
            Some(Judgement {
                win_rate: Some(6_667),
                lead: Some(-150),
                equity: None,
            })
        );
        assert_eq!((costs[1].thinking, costs[1].judgement), (Some(2_000), None));
        assert!(costs_in_record("(;SZ[7];B[dd];W[ee])").is_empty());
        let text = "[Game \"Kulami\"]\n[MoveTimes \"- 0.120@5.000\"]\n[MoveJudgements \"- wr:0.5000\"]\n\n1. D5 E5\n";
        let costs = costs_in_record(text);
        assert_eq!(costs.len(), 2);
        assert_eq!(costs[1].clock_left, Some(5_000));
        assert_eq!(costs[1].judgement.and_then(|j| j.win_rate), Some(5_000));
        let mat = "; [MoveTimes \"0.001 0.002\"]\n; [MoveTimes \"0.003\"]\n";
        assert_eq!(costs_in_record(mat).len(), 3);
    }

    /// Tavla's equity: in the words, and drawn against the game's widest (at least a point).
    #[test]
    fn an_equity_curve_is_drawn() {
        let mat = "; [MoveTimes \"0.001 0.002 -\"]\n; [MoveJudgements \"eq:0.500 eq:-2.000 -\"]\n";
        let costs = costs_in_record(mat);
        assert_eq!(cost_text(&costs[0], "White"), "0.001 s; White equity 0.500");
        let svg = curve(&costs, 4, "White");
        assert!(svg.contains("points=\"200.0,37.5 400.0,100.0\""), "{svg}");
        assert!(svg.contains("Equity of White"), "{svg}");
    }
}
