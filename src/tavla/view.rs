//! Tavla's viewer: a `.mat` match (the arena's, or gnubg's export) replayed entry by entry
//! under our rules, and a position drawn as the board with its points, the bar, the
//! checkers borne off, the dice, the cube and the score.

use crate::contract::record::{find_tag, read_tags};
use crate::contract::view::{RecordHeader, RecordProblem, RecordViewer, Replay, Step, Svg};

use super::board::{Board, Side};
use super::dice::Dice;
use super::game::{Game, MatchRules, Phase};
use super::mat::{MatAction, MatEntry, MatMatch, read_mat};
use super::notation::parse_play;

/// A Tavla position as the viewer draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct TavlaPicture {
    pub board: Board,
    /// The dice of the last play, if the last entry was one.
    pub dice: Option<Dice>,
    pub cube: u32,
    pub cube_owner: Option<Side>,
    pub score: [u32; 2],
    /// Points to win; 0 for money play.
    pub length: u32,
}

/// Tavla's [`RecordViewer`].
pub struct TavlaViewer;

/// The arena's tags (`; [Key "value"]` comment lines), if any.
fn tags_of(text: &str) -> Vec<(String, String)> {
    let lines: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("; ")).collect();
    read_tags(&lines.join("\n"))
}

fn header_of(text: &str, mat: Option<&MatMatch>) -> RecordHeader {
    let tags = tags_of(text);
    let names = mat.and_then(|m| m.games.first()).map(|g| g.names.clone());
    let player = |key: &str, index: usize| {
        find_tag(&tags, key)
            .ok()
            .or_else(|| names.as_ref().map(|n| n[index].clone()))
            .unwrap_or_else(|| "?".to_owned())
    };
    let mut settings = Vec::new();
    if let Some(mat) = mat {
        let length = match mat.length {
            0 => "money game".to_owned(),
            n => format!("{n} point match"),
        };
        settings.push(("Length".to_owned(), length));
    }
    for key in ["Cube", "Crawford"] {
        if let Ok(value) = find_tag(&tags, key) {
            settings.push((key.to_owned(), value));
        }
    }
    RecordHeader {
        players: vec![
            ("White".to_owned(), player("Player 1", 0)),
            ("Black".to_owned(), player("Player 2", 1)),
        ],
        result: find_tag(&tags, "Result").unwrap_or_else(|_| "*".to_owned()),
        comment: find_tag(&tags, "Comment").unwrap_or_default(),
        settings,
    }
}

fn picture(game: &Game, dice: Option<Dice>, length: u32) -> TavlaPicture {
    let state = game.state();
    TavlaPicture {
        board: state.board,
        dice,
        cube: state.cube,
        cube_owner: state.cube_owner,
        score: state.score,
        length,
    }
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

/// Plays one entry on `game`; the first entry of a game also makes its opening roll.
fn play_entry(game: &mut Game, action: &MatAction, opens: bool) -> Result<Option<Dice>, String> {
    let side = action.side;
    match &action.entry {
        MatEntry::Play { dice, steps } => {
            if opens {
                let (high, low) = (dice.high(), dice.low());
                let (white, black) = match side {
                    Side::White => (high, low),
                    Side::Black => (low, high),
                };
                game.start_game(white, black).map_err(|e| e.to_string())?;
            } else if game.phase() == Phase::ToRoll(side) {
                game.roll(side, *dice).map_err(|e| e.to_string())?;
            }
            let (mover, _, legal) = game.legal().map_err(|e| e.to_string())?;
            if mover != side {
                return Err(format!("{mover} is to play, not {side}"));
            }
            let board = *game.board();
            let play = parse_play(steps, &board, side, &legal).map_err(|e| e.to_string())?;
            game.play(side, play).map_err(|e| e.to_string())?;
            Ok(Some(*dice))
        }
        MatEntry::Double { .. } => game.double(side).map(|()| None).map_err(|e| e.to_string()),
        MatEntry::Take => game.take(side).map(|()| None).map_err(|e| e.to_string()),
        MatEntry::Drop => game
            .drop_cube(side)
            .map(|()| None)
            .map_err(|e| e.to_string()),
        MatEntry::Win { .. } => Ok(None),
    }
}

/// The match read as far as `read_mat` can: a line it cannot read ends the text there.
fn readable_mat(text: &str) -> (Option<MatMatch>, Option<RecordProblem>) {
    match read_mat(text) {
        Ok(mat) => (Some(mat), None),
        Err(message) => {
            let line = message
                .strip_prefix("line ")
                .and_then(|rest| rest.split(':').next())
                .and_then(|n| n.parse::<usize>().ok());
            let problem = match line {
                Some(line) => RecordProblem::at(line, message.clone()),
                None => RecordProblem::whole(message.clone()),
            };
            let before = line.map(|line| {
                text.lines()
                    .take(line.saturating_sub(1))
                    .map(|l| format!("{l}\n"))
                    .collect::<String>()
            });
            (before.and_then(|t| read_mat(&t).ok()), Some(problem))
        }
    }
}

impl RecordViewer for TavlaViewer {
    type Position = TavlaPicture;

    fn game(&self) -> &'static str {
        "tavla"
    }

    fn recognizes(&self, text: &str, extension: &str) -> bool {
        extension == "mat"
            || text.lines().take(40).any(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                matches!(words.as_slice(), [n, "point", "match"] if n.parse::<u32>().is_ok())
            })
    }

    fn replay(&self, text: &str) -> Replay<TavlaPicture> {
        let (mat, mut problem) = readable_mat(text);
        let header = header_of(text, mat.as_ref());
        let Some(mat) = mat else {
            return Replay {
                header,
                steps: Vec::new(),
                problem,
            };
        };
        let cube = find_tag(&tags_of(text), "Cube").map_or(true, |v| v != "Off");
        let mut game = Game::new(MatchRules {
            length: mat.length,
            crawford: mat.length > 0,
            cube,
        });
        let mut steps = vec![Step {
            position: picture(&game, None, mat.length),
            mv: None,
            mover: None,
            note: String::new(),
        }];
        'games: for (number, record) in mat.games.iter().enumerate() {
            for (index, action) in record.actions.iter().enumerate() {
                match play_entry(&mut game, action, index == 0) {
                    Ok(dice) => steps.push(Step {
                        position: picture(&game, dice, mat.length),
                        mv: Some(action.text.clone()),
                        mover: Some(side_name(action.side).to_owned()),
                        note: format!("game {}", number + 1),
                    }),
                    Err(why) => {
                        problem = Some(RecordProblem::at(
                            action.line,
                            format!("{}'s '{}': {why}", action.side, action.text),
                        ));
                        break 'games;
                    }
                }
            }
        }
        Replay {
            header,
            steps,
            problem,
        }
    }

    fn svg(&self, picture: &TavlaPicture) -> String {
        draw(picture)
    }
}

const HALF: f64 = 5.6;
const BOTTOM: f64 = 12.0;

/// The centre x of White's point `p` (1–24): White's home (1–6) bottom right, 13–24 along
/// the top from the left.
fn point_x(p: usize) -> f64 {
    let column = if p <= 12 { 12 - p } else { p - 13 };
    let bar = if column >= 6 { 1.0 } else { 0.0 };
    0.5 + column as f64 + bar + 0.5
}

fn draw(picture: &TavlaPicture) -> String {
    let mut svg = Svg::new(15.8, BOTTOM + 0.8, "Tavla board");
    svg.rect(0.3, 0.3, 13.4, BOTTOM - 0.1, "#2e6b3f", "frame");
    svg.rect(6.5, 0.3, 1.0, BOTTOM - 0.1, "#5a3a1e", "bar");
    svg.rect(13.9, 0.3, 1.6, BOTTOM - 0.1, "#5a3a1e", "tray");
    let mut labels = Vec::new();
    for p in 1..=24usize {
        let x = point_x(p);
        let fill = if p % 2 == 0 { "#e8d5a9" } else { "#a33a2a" };
        let (tip, base) = if p <= 12 {
            (BOTTOM - HALF, BOTTOM - 0.2)
        } else {
            (HALF + 0.6, 0.4)
        };
        svg.polygon(&[(x - 0.5, base), (x + 0.5, base), (x, tip)], fill, "point");
        let label_y = if p <= 12 { BOTTOM + 0.35 } else { 0.12 };
        labels.push(((x, label_y), p.to_string()));
    }
    svg.labels(&labels, 0.32, "#333");
    let board = &picture.board;
    for p in 1..=24usize {
        let white = board.at(Side::White, p);
        let black = board.at(Side::Black, 25 - p);
        let (count, side) = if white > 0 {
            (white, Side::White)
        } else {
            (black, Side::Black)
        };
        stack(&mut svg, point_x(p), p <= 12, count, side);
    }
    // The bar: White enters at the top (Black's home), Black at the bottom.
    stack_from(
        &mut svg,
        7.0,
        HALF,
        -1.0,
        board.bar(Side::White),
        Side::White,
    );
    stack_from(
        &mut svg,
        7.0,
        BOTTOM - HALF + 0.2,
        1.0,
        board.bar(Side::Black),
        Side::Black,
    );
    for side in Side::BOTH {
        let off = board.borne_off(side);
        for k in 0..off {
            let y = match side {
                Side::White => BOTTOM - 0.45 - f64::from(k) * 0.3,
                Side::Black => 0.45 + f64::from(k) * 0.3,
            };
            let (fill, class) = checker_look(side);
            svg.rect(
                14.1,
                y - 0.12,
                1.2,
                0.24,
                fill,
                &class.replace("checker", "off"),
            );
        }
    }
    if let Some(dice) = picture.dice {
        for (k, die) in [dice.high(), dice.low()].into_iter().enumerate() {
            let x = 9.6 + k as f64 * 1.1;
            svg.rect(x - 0.4, BOTTOM / 2.0 - 0.4 + 0.3, 0.8, 0.8, "#fff", "die");
            svg.text(
                (x, BOTTOM / 2.0 + 0.3),
                0.55,
                "#111",
                "pips",
                &die.to_string(),
            );
        }
    }
    let cube_y = match picture.cube_owner {
        None => BOTTOM / 2.0 + 0.3,
        Some(Side::White) => BOTTOM - 1.4,
        Some(Side::Black) => 1.4,
    };
    svg.rect(14.3, cube_y - 0.4, 0.8, 0.8, "#f7f1e3", "cube");
    let cube = if picture.cube_owner.is_none() && picture.cube == 1 {
        64
    } else {
        picture.cube
    };
    svg.text(
        (14.7, cube_y),
        0.42,
        "#111",
        "cube-value",
        &cube.to_string(),
    );
    let length = match picture.length {
        0 => "money".to_owned(),
        n => format!("to {n}"),
    };
    let score = format!(
        "White {} - Black {} ({length})",
        picture.score[0], picture.score[1]
    );
    svg.text((3.5, BOTTOM / 2.0 + 0.3), 0.42, "#fff", "score", &score);
    svg.finish()
}

fn checker_look(side: Side) -> (&'static str, &'static str) {
    match side {
        Side::White => ("#f5f0e6", "checker white"),
        Side::Black => ("#1b1b1b", "checker black"),
    }
}

/// `count` checkers on a point: from its base, squeezed to fit the half when many.
fn stack(svg: &mut Svg, x: f64, bottom: bool, count: u8, side: Side) {
    if bottom {
        stack_from(svg, x, BOTTOM - 0.65, -1.0, count, side);
    } else {
        stack_from(svg, x, 0.85, 1.0, count, side);
    }
}

fn stack_from(svg: &mut Svg, x: f64, first: f64, direction: f64, count: u8, side: Side) {
    let step = if count > 5 {
        4.0 * 0.9 / f64::from(count - 1)
    } else {
        0.9
    };
    let (fill, class) = checker_look(side);
    let stroke = if side == Side::White { "#555" } else { "#000" };
    for k in 0..count {
        let y = first + direction * f64::from(k) * step;
        svg.circle((x, y), 0.45, fill, stroke, class);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::view::Viewer;

    const MATCH: &str = "; [Player 1 \"w\"]\n; [Player 2 \"b\"]\n; [Result \"*\"]\n\n 1 point match\n\n Game 1\n w : 0                               b : 0\n  1)                             31: 8/5 6/5\n  2) 52: 13/8 13/11\n";

    #[test]
    fn fifteen_checkers_a_side_are_drawn_with_the_dice() {
        let view = TavlaViewer.view(MATCH);
        assert_eq!(view.problem, None, "{:?}", view.problem);
        assert_eq!(view.frames.len(), 3);
        for frame in &view.frames {
            assert_eq!(frame.svg.matches("class=\"checker white\"").count(), 15);
            assert_eq!(frame.svg.matches("class=\"checker black\"").count(), 15);
        }
        assert_eq!(view.frames[1].svg.matches("class=\"die\"").count(), 2);
        assert_eq!(
            view.frames[1].mover.as_deref(),
            Some("Black"),
            "the right column"
        );
        assert_eq!(view.frames[2].mover.as_deref(), Some("White"));
        assert_eq!(view.header.players[0], ("White".into(), "w".into()));
    }

    #[test]
    fn an_unreadable_line_keeps_the_moves_before_it() {
        let view = TavlaViewer.view(&MATCH.replace("52: 13/8 13/11", "52: 13/8 13/11 zz"));
        assert_eq!(view.frames.len(), 2, "{:?}", view.problem);
        assert_eq!(view.problem.and_then(|p| p.line), Some(10));
    }
}
