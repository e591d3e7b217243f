//! Mangala's viewer: the arena's text record replayed move by move under our rules, set
//! after set, and a position drawn as the two rows of pits and the two stores with their
//! counts, the last sown pit marked.

use crate::contract::record::{find_tag, read_tags};
use crate::contract::view::{
    RecordHeader, RecordProblem, RecordViewer, Replay, Step, Svg, tag_lines,
};
use crate::contract::{Referee, SeatColors};

use super::referee::{MangalaReferee, replay_record};
use super::rules::{Pit, Position, Side};

/// A Mangala position as the viewer draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct MangalaPicture {
    pub position: Position,
    /// The pit the last move emptied.
    pub last: Option<(Side, Pit)>,
}

/// Mangala's [`RecordViewer`].
pub struct MangalaViewer;

fn header_of(text: &str) -> RecordHeader {
    let tags = read_tags(text);
    let tag = |key: &str| find_tag(&tags, key).unwrap_or_default();
    let mut settings = Vec::new();
    for key in ["Rules", "Stones", "Sets", "Starters", "Draw"] {
        if let Ok(value) = find_tag(&tags, key) {
            settings.push((key.to_owned(), value));
        }
    }
    RecordHeader {
        players: vec![
            ("South".to_owned(), tag("South")),
            ("North".to_owned(), tag("North")),
        ],
        result: find_tag(&tags, "Result").unwrap_or_else(|_| "*".to_owned()),
        comment: tag("Comment"),
        settings,
    }
}

fn current(referee: &MangalaReferee) -> Option<Position> {
    referee.sets().last().map(|game| *game.position())
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::South => "South",
        Side::North => "North",
    }
}

/// Plays one word of a move line (`S3`, `N6`); the problem when it is not a move now.
fn play_word(referee: &mut MangalaReferee, word: &str) -> Result<(Side, Pit), String> {
    let side = match word.as_bytes().first() {
        Some(b'S') => Side::South,
        Some(b'N') => Side::North,
        _ => return Err(format!("'{word}' is not a move (S1 to N6)")),
    };
    if referee.seat_to_move() != side.seat() {
        return Err(format!("{word} out of turn"));
    }
    let answer = word.get(1..).unwrap_or("");
    referee
        .apply(side.seat(), answer)
        .map_err(|illegal| illegal.to_string())?;
    let pit = Pit::parse_for(answer, side).map_err(|_| format!("'{word}' names no pit"))?;
    Ok((side, pit))
}

impl RecordViewer for MangalaViewer {
    type Position = MangalaPicture;

    fn game(&self) -> &'static str {
        "mangala"
    }

    fn recognizes(&self, text: &str, _extension: &str) -> bool {
        find_tag(&read_tags(text), "Game").is_ok_and(|game| game == "Mangala")
    }

    fn replay(&self, text: &str) -> Replay<MangalaPicture> {
        let header = header_of(text);
        let mut referee = match replay_record(&tag_lines(text)) {
            Ok(replayed) => replayed.referee,
            Err(error) => return Replay::unreadable(header, error),
        };
        let mut steps = Vec::new();
        if let Some(position) = current(&referee) {
            steps.push(Step {
                position: MangalaPicture {
                    position,
                    last: None,
                },
                mv: None,
                mover: None,
                note: "set 1".to_owned(),
            });
        }
        let mut set = 0;
        for (index, line) in text.lines().enumerate() {
            if line.starts_with("Set ") {
                set += 1;
                if set > 1 {
                    referee.interlude();
                }
                continue;
            }
            let is_moves = !line.trim().is_empty()
                && line
                    .split_whitespace()
                    .all(|w| (w.starts_with('S') || w.starts_with('N')) && w.len() == 2);
            if line.starts_with('[') || !is_moves {
                continue;
            }
            for word in line.split_whitespace() {
                match play_word(&mut referee, word) {
                    Ok((side, pit)) => steps.push(Step {
                        position: MangalaPicture {
                            position: current(&referee).unwrap_or_else(|| Position::start(0, side)),
                            last: Some((side, pit)),
                        },
                        mv: Some(word.to_owned()),
                        mover: Some(side_name(side).to_owned()),
                        note: format!("set {}", set.max(1)),
                    }),
                    Err(message) => {
                        return Replay {
                            header,
                            steps,
                            problem: Some(RecordProblem::at(index + 1, message)),
                        };
                    }
                }
            }
        }
        Replay {
            header,
            steps,
            problem: None,
        }
    }

    fn svg(&self, picture: &MangalaPicture) -> String {
        draw(picture)
    }
}

/// South's row along the bottom, pit 1 on South's left; North's along the top, pit 1 on
/// North's left (the viewer's right); South's store on the right, North's on the left.
fn pit_centre(side: Side, pit: Pit) -> (f64, f64) {
    let offset = pit.offset() as f64;
    match side {
        Side::South => (2.25 + offset * 1.1, 3.1),
        Side::North => (2.25 + (5.0 - offset) * 1.1, 1.3),
    }
}

fn draw(picture: &MangalaPicture) -> String {
    let mut svg = Svg::new(10.0, 4.4, "Mangala board");
    svg.rect(0.2, 0.2, 9.6, 4.0, "#8d5a2b", "frame");
    let position = &picture.position;
    for side in Side::BOTH {
        let x = match side {
            Side::South => 9.0,
            Side::North => 1.0,
        };
        svg.rect(
            x - 0.5,
            0.6,
            1.0,
            3.2,
            "#6d421c",
            &format!("store {}", side.name()),
        );
        svg.text(
            (x, 2.2),
            0.6,
            "#fff",
            "count store",
            &position.store(side).to_string(),
        );
        let label_y = match side {
            Side::South => 4.02,
            Side::North => 0.4,
        };
        svg.text((x, label_y), 0.28, "#f3e2c7", "side", side.name());
        for pit in Pit::ALL {
            let centre = pit_centre(side, pit);
            svg.circle(
                centre,
                0.45,
                "#6d421c",
                "#4a2c10",
                &format!("pit {}", side.name()),
            );
            let count = position.pit(side, pit);
            svg.text(centre, 0.48, "#fff", "count pit", &count.to_string());
            let below = match side {
                Side::South => centre.1 + 0.72,
                Side::North => centre.1 - 0.72,
            };
            svg.text(
                (centre.0, below),
                0.22,
                "#f3e2c7",
                "coord",
                &pit.number().to_string(),
            );
        }
    }
    if let Some((side, pit)) = picture.last {
        svg.circle(pit_centre(side, pit), 0.5, "none", "#ffd54f", "last");
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::view::Viewer;

    const RECORD: &str = "[Game \"Mangala\"]\n[South \"a\"]\n[North \"b\"]\n[Rules \"turkish\"]\n[Stones \"4\"]\n[Sets \"1\"]\n[Starters \"alternate\"]\n[Draw \"south hides the stone in the left hand, north guesses right: south starts\"]\n[Result \"*\"]\n[Comment \"x\"]\n\nSet 1: south starts\nS1\nunfinished\n*\n";

    fn counts(svg: &str) -> Vec<u32> {
        svg.split("class=\"count ")
            .skip(1)
            .filter_map(|rest| rest.split('>').nth(1)?.split('<').next()?.parse().ok())
            .collect()
    }

    #[test]
    fn every_pit_and_store_shows_its_count() {
        let view = MangalaViewer.view(RECORD);
        assert_eq!(view.problem, None, "{:?}", view.problem);
        assert_eq!(view.frames.len(), 2);
        let start = counts(&view.frames[0].svg);
        assert_eq!(start.len(), 14);
        assert_eq!(start.iter().sum::<u32>(), 48);
        let after = counts(&view.frames[1].svg);
        assert_eq!(after.iter().sum::<u32>(), 48);
        assert_ne!(start, after);
        assert_eq!(view.frames[1].svg.matches("class=\"last\"").count(), 1);
    }
}
