//! Abalone's viewer: the arena's text record replayed move by move under our rules, and a
//! position drawn as the hexagon with its marbles, the last move's marbles ringed and the
//! marbles pushed off counted below.

use crate::contract::record::{find_tag, read_tags};
use crate::contract::view::{
    RecordHeader, RecordViewer, Replay, Step, Svg, replay_numbered, tag_lines,
};
use crate::contract::{Referee, Seat};

use super::board::{Cell, Color};
use super::position::{MARBLES_OFF_TO_WIN, Position};
use super::referee::{AbaloneReferee, replay_record};

/// An Abalone position as the viewer draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct AbalonePicture {
    pub position: Position,
    /// The cells the last move's marbles moved to.
    pub moved: Vec<Cell>,
}

/// Abalone's [`RecordViewer`].
pub struct AbaloneViewer;

fn header_of(text: &str) -> RecordHeader {
    let tags = read_tags(text);
    let tag = |key: &str| find_tag(&tags, key).unwrap_or_default();
    RecordHeader {
        players: vec![
            ("Black".to_owned(), tag("Black")),
            ("White".to_owned(), tag("White")),
        ],
        result: find_tag(&tags, "Result").unwrap_or_else(|_| "*".to_owned()),
        comment: tag("Comment"),
        settings: vec![("Start".to_owned(), tag("Start"))],
    }
}

fn picture(referee: &AbaloneReferee, before: Option<&Position>) -> AbalonePicture {
    let position = *referee.game().position();
    let moved = match before {
        Some(before) => {
            let mover = before.to_move();
            let new = position.marbles(mover) & !before.marbles(mover);
            Cell::iter(new).collect()
        }
        None => Vec::new(),
    };
    AbalonePicture { position, moved }
}

impl RecordViewer for AbaloneViewer {
    type Position = AbalonePicture;

    fn game(&self) -> &'static str {
        "abalone"
    }

    fn recognizes(&self, text: &str, _extension: &str) -> bool {
        find_tag(&read_tags(text), "Game").is_ok_and(|game| game == "Abalone")
    }

    fn replay(&self, text: &str) -> Replay<AbalonePicture> {
        let header = header_of(text);
        // The tags alone set up the start; the moves are replayed here, line by line.
        let mut referee = match replay_record(&tag_lines(text)) {
            Ok(replayed) => replayed.referee,
            Err(error) => return Replay::unreadable(header, error),
        };
        let start = Step {
            position: picture(&referee, None),
            mv: None,
            mover: None,
            note: String::new(),
        };
        replay_numbered(header, start, text, |answer| {
            let seat = referee.seat_to_move();
            let before = *referee.game().position();
            referee
                .apply(seat, answer)
                .map_err(|illegal| illegal.to_string())?;
            let mover = if seat == Seat::First {
                "Black"
            } else {
                "White"
            };
            Ok(Step {
                position: picture(&referee, Some(&before)),
                mv: Some(answer.to_ascii_lowercase()),
                mover: Some(mover.to_owned()),
                note: String::new(),
            })
        })
    }

    fn svg(&self, picture: &AbalonePicture) -> String {
        draw(picture)
    }
}

const ROW_HEIGHT: f64 = 0.866;

/// The centre of the cell at `row` (0 = A, the bottom) and diagonal `col`.
fn centre(row: i8, col: i8) -> (f64, f64) {
    (
        f64::from(col) - 0.5 * f64::from(row) + 3.7,
        f64::from(8 - row) * ROW_HEIGHT + 1.0,
    )
}

fn draw(picture: &AbalonePicture) -> String {
    let (width, height) = (10.7, 10.6);
    let mut svg = Svg::new(width, height, "Abalone board");
    let corners = [(0, 0), (0, 4), (4, 8), (8, 8), (8, 4), (4, 0)];
    let hexagon: Vec<(f64, f64)> = corners
        .iter()
        .map(|&(r, c)| {
            let (x, y) = centre(r, c);
            let (cx, cy) = centre(4, 4);
            (cx + (x - cx) * 1.16, cy + (y - cy) * 1.16)
        })
        .collect();
    svg.polygon(&hexagon, "#6b4f36", "frame");
    let position = &picture.position;
    let mut labels = Vec::new();
    for row in 0..9i8 {
        let first = (row - 4).max(0);
        let (x, y) = centre(row, first);
        labels.push(((x - 0.95, y), char::from(b'A' + row as u8).to_string()));
    }
    for col in 0..9i8 {
        let row = (col - 4).max(0);
        let (x, y) = centre(row - 1, col);
        labels.push(((x + 0.1, y - 0.15), (col + 1).to_string()));
    }
    svg.labels(&labels, 0.36, "#333");
    for row in 0..9i8 {
        for col in 0..9i8 {
            let Some(cell) = Cell::at(row, col) else {
                continue;
            };
            let at = centre(row, col);
            let bit = cell.bit();
            if position.marbles(Color::Black) & bit != 0 {
                svg.circle(at, 0.42, "#151515", "#000", "marble black");
            } else if position.marbles(Color::White) & bit != 0 {
                svg.circle(at, 0.42, "#f4f4f4", "#555", "marble white");
            } else {
                svg.circle(at, 0.36, "#4a3422", "#3a281a", "hole");
            }
        }
    }
    for cell in &picture.moved {
        svg.circle(centre(cell.row(), cell.col()), 0.18, "none", "#e33", "last");
    }
    // The marbles pushed off, in a tray under the board.
    for (line, color) in Color::BOTH.into_iter().enumerate() {
        let y = 9.4 + line as f64 * 0.6;
        let (fill, class, word) = match color {
            Color::Black => ("#151515", "off black", "Black off"),
            Color::White => ("#f4f4f4", "off white", "White off"),
        };
        svg.text((2.0, y), 0.34, "#333", "tray", word);
        let off = position.marbles_off(color).min(MARBLES_OFF_TO_WIN + 8);
        for k in 0..off {
            svg.circle((3.6 + f64::from(k) * 0.55, y), 0.24, fill, "#555", class);
        }
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::view::Viewer;

    const RECORD: &str = "[Game \"Abalone\"]\n[Black \"a\"]\n[White \"b\"]\n[Start \"standard\"]\n[Result \"B+R\"]\n[Comment \"hamle match game 1 (pair 1), seed 1 (match seed 1); resignation\"]\n\n1. c3d4 i5h5\n2. d4e5\nB+R\n";

    #[test]
    fn the_start_has_fourteen_marbles_a_side_and_moves_are_ringed() {
        let view = AbaloneViewer.view(RECORD);
        assert_eq!(view.problem, None);
        assert_eq!(view.frames.len(), 4);
        for frame in &view.frames {
            assert_eq!(frame.svg.matches("class=\"marble black\"").count(), 14);
            assert_eq!(frame.svg.matches("class=\"marble white\"").count(), 14);
            assert_eq!(frame.svg.matches("class=\"hole\"").count(), 61 - 28);
        }
        assert_eq!(view.frames[0].svg.matches("class=\"last\"").count(), 0);
        assert_eq!(view.frames[1].svg.matches("class=\"last\"").count(), 1);
        assert_eq!(view.frames[3].mover.as_deref(), Some("Black"));
    }

    #[test]
    fn an_illegal_move_names_its_line() {
        let view = AbaloneViewer.view(&RECORD.replace("d4e5", "c3c4"));
        assert_eq!(view.frames.len(), 3);
        assert_eq!(view.problem.map(|p| p.line), Some(Some(9)));
    }
}
