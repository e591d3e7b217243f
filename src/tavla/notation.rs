//! Move notation: `24/18 13/11`, `bar/22`, `6/off`, `*` on hits, and gnubg's compact forms
//! (`8/5(2)`, `13/7*/2`) on input.
//!
//! Points are the mover's own (1–24), `bar` is 25 and `off` is 0. Input is read as the
//! position it leads to: any spelling that ends in the position of a legal play is that play.

use std::fmt;

use super::board::{Board, Side};
use super::moves::{Candidate, Play, Step};

/// Why a play's text was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    Syntax(String),
    NoChecker { point: u8 },
    NotLegal(String),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Syntax(detail) => write!(f, "cannot read the play: {detail}"),
            PlayError::NoChecker { point } => {
                let name = if *point == 25 {
                    "the bar".to_string()
                } else {
                    format!("point {point}")
                };
                write!(f, "no checker of yours on {name} to move")
            }
            PlayError::NotLegal(text) => write!(
                f,
                "'{text}' is not a legal play with these dice (see all_legal for the list)"
            ),
        }
    }
}

impl std::error::Error for PlayError {}

/// A checker's path as written: `from` then each point it stops on, and how many checkers
/// take that path.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Segment {
    points: Vec<u8>,
    count: u8,
}

fn point_name(point: u8) -> String {
    match point {
        0 => "off".to_string(),
        25 => "bar".to_string(),
        p => p.to_string(),
    }
}

fn parse_point(text: &str) -> Result<u8, PlayError> {
    match text.to_ascii_lowercase().as_str() {
        "bar" | "b" | "25" => Ok(25),
        "off" | "o" | "0" => Ok(0),
        digits => match digits.parse::<u8>() {
            Ok(p) if (1..=24).contains(&p) => Ok(p),
            _ => Err(PlayError::Syntax(format!(
                "'{text}' is not a point (1-24, bar or off)"
            ))),
        },
    }
}

fn parse_segments(text: &str) -> Result<Vec<Segment>, PlayError> {
    let mut segments = Vec::new();
    for token in text.split_whitespace() {
        let (path, count) = match token.find('(') {
            Some(open) => {
                let inner = token[open + 1..]
                    .strip_suffix(')')
                    .ok_or_else(|| PlayError::Syntax(format!("'{token}' has an unclosed '('")))?;
                let count = inner
                    .parse::<u8>()
                    .ok()
                    .filter(|n| (1..=4).contains(n))
                    .ok_or_else(|| {
                        PlayError::Syntax(format!("'({inner})' is not a count from 1 to 4"))
                    })?;
                (&token[..open], count)
            }
            None => (token, 1),
        };
        let points = path
            .split('/')
            .map(|p| parse_point(p.trim_end_matches('*')))
            .collect::<Result<Vec<u8>, PlayError>>()?;
        if points.len() < 2 {
            return Err(PlayError::Syntax(format!(
                "'{token}' needs a start and an end point, as in 13/7"
            )));
        }
        if points.windows(2).any(|w| w[0] <= w[1]) || points[1..].contains(&25) {
            return Err(PlayError::Syntax(format!(
                "'{token}' does not move towards home"
            )));
        }
        if points[..points.len() - 1].contains(&0) {
            return Err(PlayError::Syntax(format!(
                "'{token}' continues after 'off'"
            )));
        }
        segments.push(Segment { points, count });
    }
    if segments.iter().map(|s| usize::from(s.count)).sum::<usize>() > 4 {
        return Err(PlayError::Syntax(format!(
            "'{text}' moves more than four checkers"
        )));
    }
    Ok(segments)
}

/// Reads `text` as one of `legal` (the plays of `side` on `board`). `""`, `pass` and
/// `none` name the empty play.
pub fn parse_play(
    text: &str,
    board: &Board,
    side: Side,
    legal: &[Candidate],
) -> Result<Play, PlayError> {
    let trimmed = text.trim();
    let after = if trimmed.is_empty()
        || ["pass", "none", "-"].contains(&trimmed.to_ascii_lowercase().as_str())
    {
        *board
    } else {
        let mut after = *board;
        for segment in parse_segments(trimmed)? {
            for _ in 0..segment.count {
                for pair in segment.points.windows(2) {
                    if after.at(side, usize::from(pair[0])) == 0 {
                        return Err(PlayError::NoChecker { point: pair[0] });
                    }
                    if pair[1] != 0 && !after.open_for(side, usize::from(pair[1])) {
                        return Err(PlayError::NotLegal(trimmed.to_string()));
                    }
                    after.step(side, usize::from(pair[0]), usize::from(pair[1]));
                }
            }
        }
        after
    };
    legal
        .iter()
        .find(|c| c.after == after)
        .map(|c| c.play)
        .ok_or_else(|| PlayError::NotLegal(trimmed.to_string()))
}

/// The standard spelling of `play` by `side` from `board`: one checker's consecutive steps
/// joined (`24/13`, with a stop shown where it hits: `13/7*/2`), equal moves counted
/// (`8/5(2)`), highest start first; the empty play is `none`.
pub fn format_play(board: &Board, side: Side, play: &Play) -> String {
    if play.is_empty() {
        return "none".to_string();
    }
    // Replay the steps to learn which ones hit.
    let mut scratch = *board;
    let mut steps: Vec<(Step, bool)> = Vec::with_capacity(4);
    for &step in play.steps() {
        let hit = scratch.step(side, usize::from(step.from), usize::from(step.to));
        steps.push((step, hit));
    }
    // Chain a checker's steps: a step that starts where another ended continues it (which
    // checker moved on does not change the position, so the shorter spelling is as good).
    let mut paths: Vec<Vec<(u8, bool)>> = Vec::new();
    let mut used = vec![false; steps.len()];
    for i in 0..steps.len() {
        if used[i] {
            continue;
        }
        used[i] = true;
        let (first, hit) = steps[i];
        let mut path = vec![(first.from, false), (first.to, hit)];
        loop {
            let end = path.last().map_or(0, |&(p, _)| p);
            if end == 0 {
                break;
            }
            let next = (0..steps.len()).find(|&j| !used[j] && steps[j].0.from == end);
            let Some(j) = next else { break };
            used[j] = true;
            path.push((steps[j].0.to, steps[j].1));
        }
        paths.push(path);
    }
    // A stop is shown only where it hit; the end always.
    let spell = |path: &Vec<(u8, bool)>| {
        let mut text = point_name(path[0].0);
        for (index, &(point, hit)) in path.iter().enumerate().skip(1) {
            let last = index == path.len() - 1;
            if hit || last {
                text.push('/');
                text.push_str(&point_name(point));
                if hit {
                    text.push('*');
                }
            }
        }
        text
    };
    let mut spelled: Vec<(u8, u8, String)> = paths
        .iter()
        .map(|p| (p[0].0, p.last().map_or(0, |&(q, _)| q), spell(p)))
        .collect();
    spelled.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let mut out: Vec<String> = Vec::new();
    let mut index = 0;
    while index < spelled.len() {
        let mut count = 1;
        while index + count < spelled.len() && spelled[index + count].2 == spelled[index].2 {
            count += 1;
        }
        if count > 1 {
            out.push(format!("{}({count})", spelled[index].2));
        } else {
            out.push(spelled[index].2.clone());
        }
        index += count;
    }
    out.join(" ")
}
