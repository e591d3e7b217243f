//! Kulami's viewer: the arena's text record replayed move by move under our rules, and a
//! position drawn as the layout's tiles with their marbles and the last marble marked.

use std::rc::Rc;

use crate::contract::record::{find_tag, read_tags};
use crate::contract::view::{
    RecordHeader, RecordViewer, Replay, Step, Svg, replay_numbered, tag_lines,
};
use crate::contract::{Referee, Seat};

use super::cell::Cell;
use super::layout::Layout;
use super::referee::{KulamiReferee, replay_record};
use super::rules::{Color, Position};

/// A Kulami position as the viewer draws it; every position of a record shares its layout.
#[derive(Clone, Debug, PartialEq)]
pub struct KulamiPicture {
    pub layout: Rc<Layout>,
    pub position: Position,
    /// The marble the last move placed.
    pub last: Option<Cell>,
}

/// Kulami's [`RecordViewer`].
pub struct KulamiViewer;

fn header_of(text: &str) -> RecordHeader {
    let tags = read_tags(text);
    let tag = |key: &str| find_tag(&tags, key).unwrap_or_default();
    let mut settings = Vec::new();
    for key in ["Scoring", "RowBonus", "Score"] {
        if let Ok(value) = find_tag(&tags, key) {
            settings.push((key.to_owned(), value));
        }
    }
    RecordHeader {
        players: vec![
            ("Black".to_owned(), tag("Black")),
            ("Red".to_owned(), tag("Red")),
        ],
        result: find_tag(&tags, "Result").unwrap_or_else(|_| "*".to_owned()),
        comment: tag("Comment"),
        settings,
    }
}

fn picture(referee: &KulamiReferee, layout: &Rc<Layout>) -> KulamiPicture {
    KulamiPicture {
        layout: Rc::clone(layout),
        position: *referee.game().position(),
        last: referee.moves().last().copied(),
    }
}

impl RecordViewer for KulamiViewer {
    type Position = KulamiPicture;

    fn game(&self) -> &'static str {
        "kulami"
    }

    fn recognizes(&self, text: &str, _extension: &str) -> bool {
        find_tag(&read_tags(text), "Game").is_ok_and(|game| game == "Kulami")
    }

    fn replay(&self, text: &str) -> Replay<KulamiPicture> {
        let header = header_of(text);
        // The tags alone set up the layout; the moves are replayed here, line by line.
        let mut referee = match replay_record(&tag_lines(text)) {
            Ok(replayed) => replayed.referee,
            Err(error) => return Replay::unreadable(header, error),
        };
        let layout = Rc::new(referee.game().layout().clone());
        let start = Step {
            position: picture(&referee, &layout),
            mv: None,
            mover: None,
            note: String::new(),
        };
        replay_numbered(header, start, text, |answer| {
            let seat = referee.seat_to_move();
            referee
                .apply(seat, answer)
                .map_err(|illegal| illegal.to_string())?;
            let mover = if seat == Seat::First { "Black" } else { "Red" };
            Ok(Step {
                position: picture(&referee, &layout),
                mv: Some(answer.to_ascii_uppercase()),
                mover: Some(mover.to_owned()),
                note: String::new(),
            })
        })
    }

    fn svg(&self, picture: &KulamiPicture) -> String {
        draw(picture)
    }
}

/// Wood shades, by tile: neighbouring tiles differ.
const TILE_SHADES: [&str; 5] = ["#c9a26b", "#b08550", "#d8b984", "#a87a45", "#bf9660"];

fn draw(picture: &KulamiPicture) -> String {
    let layout = &picture.layout;
    let (w, h) = (layout.width(), layout.height());
    let mut svg = Svg::new(f64::from(w) + 1.0, f64::from(h) + 1.0, "Kulami board");
    // Cell (col, row) has its top-left corner here: row 1 at the bottom.
    let corner = |col: u8, row: u8| (f64::from(col) + 0.75, f64::from(h - 1 - row) + 0.25);
    let mut labels = Vec::new();
    for col in 0..w {
        let (x, _) = corner(col, 0);
        let letter = Cell::column_letter(col).to_ascii_uppercase().to_string();
        labels.push(((x + 0.5, f64::from(h) + 0.55), letter));
    }
    for row in 0..h {
        let (_, y) = corner(0, row);
        labels.push(((0.35, y + 0.5), (row + 1).to_string()));
    }
    svg.labels(&labels, 0.36, "#333");
    let mut borders = Vec::new();
    for row in 0..h {
        for col in 0..w {
            let cell = Cell::new(col, row);
            let Some(tile) = layout.tile_index(cell) else {
                continue;
            };
            let (x, y) = corner(col, row);
            svg.rect(
                x,
                y,
                1.0,
                1.0,
                TILE_SHADES[tile % TILE_SHADES.len()],
                "hole",
            );
            let other = |c: Option<Cell>| c.and_then(|c| layout.tile_index(c)) != Some(tile);
            let right = (col + 1 < w).then(|| Cell::new(col + 1, row));
            let up = (row + 1 < h).then(|| Cell::new(col, row + 1));
            let left = col.checked_sub(1).map(|c| Cell::new(c, row));
            let down = row.checked_sub(1).map(|r| Cell::new(col, r));
            if other(right) {
                borders.push(((x + 1.0, y), (x + 1.0, y + 1.0)));
            }
            if other(left) {
                borders.push(((x, y), (x, y + 1.0)));
            }
            if other(up) {
                borders.push(((x, y), (x + 1.0, y)));
            }
            if other(down) {
                borders.push(((x, y + 1.0), (x + 1.0, y + 1.0)));
            }
        }
    }
    svg.lines(&borders, 0.08);
    for row in 0..h {
        for col in 0..w {
            let cell = Cell::new(col, row);
            let (x, y) = corner(col, row);
            let centre = (x + 0.5, y + 0.5);
            if picture.position.marbles(Color::Black) & cell.bit() != 0 {
                svg.circle(centre, 0.36, "#151515", "#000", "marble black");
            } else if picture.position.marbles(Color::Red) & cell.bit() != 0 {
                svg.circle(centre, 0.36, "#c62828", "#7f1010", "marble red");
            } else if layout.tile_index(cell).is_some() {
                svg.circle(centre, 0.12, "#5b4126", "#5b4126", "pit");
            }
        }
    }
    if let Some(last) = picture.last {
        let (x, y) = corner(last.col, last.row);
        svg.circle((x + 0.5, y + 0.5), 0.14, "#ffd54f", "#333", "last");
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::view::Viewer;

    fn record() -> String {
        format!(
            "[Game \"Kulami\"]\n[Black \"a\"]\n[Red \"b\"]\n[Layout \"{}\"]\n[Scoring \"standard\"]\n[RowBonus \"0\"]\n[Result \"R+F\"]\n[Comment \"x\"]\n\n1. D5 E5\n2. E3\nR+F\n",
            Layout::standard()
        )
    }

    #[test]
    fn marbles_and_the_marker_are_drawn() {
        let view = KulamiViewer.view(&record());
        assert_eq!(view.problem, None, "{:?}", view.problem);
        assert_eq!(view.frames.len(), 4);
        let last = &view.frames[3].svg;
        assert_eq!(last.matches("class=\"marble black\"").count(), 2, "{last}");
        assert_eq!(last.matches("class=\"marble red\"").count(), 1);
        assert_eq!(last.matches("class=\"last\"").count(), 1);
        assert_eq!(
            last.matches("class=\"hole\"").count(),
            64,
            "the standard layout's holes"
        );
        assert_eq!(view.frames[0].svg.matches("class=\"last\"").count(), 0);
    }

    #[test]
    fn an_illegal_move_names_its_line() {
        let view = KulamiViewer.view(&record().replace("2. E3", "2. D5"));
        assert_eq!(view.frames.len(), 3);
        assert_eq!(view.problem.map(|p| p.line), Some(Some(11)));
    }
}
