//! Go's viewer: an SGF record (ours, GoGui's, Sabaki's) replayed move by move under our
//! rules, and a position drawn as stones on the grid with the last move marked.

use crate::contract::view::{RecordHeader, RecordProblem, RecordViewer, Replay, Step, Svg};

use super::game::Game;
use super::rules::RuleSet;
use super::sgf::{Event, GoRecord, main_line_move_position, parse_collection};
use super::{Color, MoveVertex, Vertex};

/// A Go position as the viewer draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct GoPicture {
    pub size: usize,
    pub stones: Vec<(Vertex, Color)>,
    /// The point of the move that led here (none for a pass or the start).
    pub last: Option<Vertex>,
}

/// Go's [`RecordViewer`].
pub struct GoViewer;

impl RecordViewer for GoViewer {
    type Position = GoPicture;

    fn game(&self) -> &'static str {
        "go"
    }

    fn recognizes(&self, text: &str, extension: &str) -> bool {
        extension == "sgf" || text.trim_start().starts_with("(;")
    }

    fn replay(&self, text: &str) -> Replay<GoPicture> {
        let record = match GoRecord::from_sgf(text) {
            Ok(record) => record,
            Err(error) => {
                return Replay {
                    header: RecordHeader::default(),
                    steps: Vec::new(),
                    problem: Some(match error.position {
                        Some(at) => RecordProblem::at(at.line, error.to_string()),
                        None => RecordProblem::whole(error.to_string()),
                    }),
                };
            }
        };
        let header = header_of(text, &record);
        let (steps, problem) = replay_steps(&record, text);
        Replay {
            header,
            steps,
            problem,
        }
    }

    fn svg(&self, position: &GoPicture) -> String {
        draw(position)
    }
}

/// Players, result, the game comment (`GC`, where the arena writes why the game ended)
/// and the settings.
fn header_of(text: &str, record: &GoRecord) -> RecordHeader {
    let comment = parse_collection(text)
        .ok()
        .and_then(|trees| {
            let root = trees.first()?.main_line().next()?.first("GC")?.to_owned();
            Some(root)
        })
        .unwrap_or_default();
    let name = |player: &Option<String>| player.clone().unwrap_or_else(|| "?".to_owned());
    let mut settings = vec![("Size".to_owned(), record.size.to_string())];
    if let Some(komi) = record.komi {
        settings.push(("Komi".to_owned(), komi.to_string()));
    }
    if let Some(rules) = &record.rules {
        settings.push(("Rules".to_owned(), rules.clone()));
    }
    if record.handicap > 0 {
        settings.push(("Handicap".to_owned(), record.handicap.to_string()));
    }
    RecordHeader {
        players: vec![
            ("Black".to_owned(), name(&record.player_black)),
            ("White".to_owned(), name(&record.player_white)),
        ],
        result: record.result.clone().unwrap_or_else(|| "*".to_owned()),
        comment,
        settings,
    }
}

fn picture(game: &Game, last: Option<Vertex>) -> GoPicture {
    let board = game.board();
    let stones = board
        .points()
        .filter_map(|p| board.get(p).map(|color| (board.vertex(p), color)))
        .collect();
    GoPicture {
        size: game.size(),
        stones,
        last,
    }
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The start (after the root's setup) and the position after each move, up to the first
/// event the rules refuse: a refused move is named with the line of `text` it is on.
fn replay_steps(record: &GoRecord, text: &str) -> (Vec<Step<GoPicture>>, Option<RecordProblem>) {
    let rules = record.rule_set().unwrap_or(RuleSet::Chinese).rules();
    let mut game = match Game::new(record.size, rules) {
        Ok(game) => game,
        Err(error) => return (Vec::new(), Some(RecordProblem::whole(error.to_string()))),
    };
    let mut steps = Vec::new();
    let mut number = 0;
    for event in &record.events {
        match event {
            Event::Setup(setup) => {
                if let Err(error) = game.setup(&setup.changes()) {
                    let message = format!("setup before move {}: {error}", number + 1);
                    return (steps, Some(RecordProblem::whole(message)));
                }
            }
            Event::Move(color, mv) => {
                if steps.is_empty() {
                    steps.push(start_step(&game));
                }
                number += 1;
                if let Err(error) = game.play(*color, *mv) {
                    let message = format!(
                        "move {number} ({} {mv}) is illegal: {error}",
                        color.letter()
                    );
                    let problem = match main_line_move_position(text, number) {
                        Some(at) => RecordProblem::at(at.line, message),
                        None => RecordProblem::whole(message),
                    };
                    return (steps, Some(problem));
                }
                let last = match mv {
                    MoveVertex::Play(vertex) => Some(*vertex),
                    MoveVertex::Pass => None,
                };
                steps.push(Step {
                    position: picture(&game, last),
                    mv: Some(match mv {
                        MoveVertex::Pass => "pass".to_owned(),
                        MoveVertex::Play(vertex) => vertex.to_string(),
                    }),
                    mover: Some(color_name(*color).to_owned()),
                    note: String::new(),
                });
            }
        }
    }
    if steps.is_empty() {
        steps.push(start_step(&game));
    }
    (steps, None)
}

fn start_step(game: &Game) -> Step<GoPicture> {
    Step {
        position: picture(game, None),
        mv: None,
        mover: None,
        note: String::new(),
    }
}

/// The star points of the usual sizes.
fn star_points(size: usize) -> Vec<(usize, usize)> {
    let lines: Vec<usize> = match size {
        19 => vec![3, 9, 15],
        13 => vec![3, 6, 9],
        9 => vec![2, 4, 6],
        _ => Vec::new(),
    };
    let mut points = Vec::new();
    for &x in &lines {
        for &y in &lines {
            if size != 9 || (x == y) || (x != 4 && y != 4) {
                points.push((x, y));
            }
        }
    }
    points
}

/// The board: one unit a line, coordinates in the margin, stones, the last move ringed.
fn draw(position: &GoPicture) -> String {
    let n = position.size;
    let side = n as f64 + 1.0;
    let mut svg = Svg::new(side, side, &format!("Go board {n}×{n}"));
    svg.rect(0.0, 0.0, side, side, "#dcb35c", "wood");
    let at = |col: usize, row: usize| (col as f64 + 1.0, (n - row) as f64);
    let mut edges = Vec::new();
    let mut inner = Vec::new();
    let mut labels = Vec::new();
    for k in 0..n {
        let lines = if k == 0 || k + 1 == n {
            &mut edges
        } else {
            &mut inner
        };
        lines.push((at(k, 0), at(k, n - 1)));
        lines.push((at(0, k), at(n - 1, k)));
        labels.push((
            (k as f64 + 1.0, side - 0.45),
            Vertex::column_letter(k as u8).to_string(),
        ));
        labels.push(((0.45, (n - k) as f64), (k + 1).to_string()));
    }
    svg.lines(&inner, 0.03);
    svg.lines(&edges, 0.05);
    svg.labels(&labels, 0.38, "#333");
    for (x, y) in star_points(n) {
        svg.circle(at(x, y), 0.09, "#222", "#222", "star");
    }
    for (vertex, color) in &position.stones {
        let (fill, stroke, class) = match color {
            Color::Black => ("#111", "#000", "stone black"),
            Color::White => ("#f8f8f8", "#333", "stone white"),
        };
        svg.circle(
            at(vertex.col as usize, vertex.row as usize),
            0.47,
            fill,
            stroke,
            class,
        );
    }
    if let Some(last) = position.last {
        let mark = match position.stones.iter().find(|(v, _)| *v == last) {
            Some((_, Color::Black)) => "#f8f8f8",
            _ => "#111",
        };
        svg.circle(
            at(last.col as usize, last.row as usize),
            0.18,
            "none",
            mark,
            "last",
        );
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::view::Viewer;

    const GAME: &str = "(;GM[1]FF[4]SZ[9]KM[7.5]PB[alpha]PW[beta]RE[W+R]GC[hamle match game 1; resignation]\n;B[ee];W[ce];B[gc];W[])";

    #[test]
    fn a_record_becomes_one_picture_a_move() {
        let view = GoViewer.view(GAME);
        assert_eq!(view.problem, None);
        assert_eq!(view.frames.len(), 5, "the start and four moves");
        assert_eq!(view.header.result, "W+R");
        assert_eq!(view.header.players[0], ("Black".into(), "alpha".into()));
        assert!(view.header.comment.ends_with("resignation"));
        let third = &view.frames[3].svg;
        assert_eq!(third.matches("class=\"stone black\"").count(), 2, "{third}");
        assert_eq!(third.matches("class=\"stone white\"").count(), 1);
        assert_eq!(third.matches("class=\"last\"").count(), 1);
        assert_eq!(view.frames[3].mv.as_deref(), Some("G7"));
        assert_eq!(view.frames[4].mv.as_deref(), Some("pass"));
        assert!(!view.frames[4].svg.contains("class=\"last\""));
    }

    #[test]
    fn a_damaged_record_keeps_what_it_could_read() {
        let view = GoViewer.view("(;SZ[9]\n;B[ee]\n;W[ee]\n;B[cc])");
        assert_eq!(view.frames.len(), 2);
        let problem = view.problem.expect("move 2 is refused");
        assert!(
            problem.message.starts_with("move 2 (W E5) is illegal"),
            "{problem:?}"
        );
        assert_eq!(problem.line, Some(3), "the line the refused move is on");
        let broken = GoViewer.view("(;SZ[9]\n;B[ee\n");
        assert!(broken.frames.is_empty());
        assert!(broken.problem.is_some_and(|p| p.line.is_some()));
    }
}
