//! Go's opening suites (`hamle match --openings`): a text file of move lists, one opening a
//! line (`E5 C3 pass`, Black first), or an SGF collection, each game tree one opening: its
//! root's `AB` stones a handicap (White then moves first), then its main line's moves.
//!
//! Engines are told a handicap with `set_free_handicap` (GTP's own command, which GNU Go
//! answers) and the moves with `play`, after `boardsize`, `clear_board` and `komi`.

use crate::contract::Referee;
use crate::contract::opening::{first_plies, play_opening, split_lines};

use super::referee::GoReferee;
use super::sgf::{Event, GoRecord};

/// The built-in suite (`--openings default`): 9×9 openings made by `hamle match openings`.
pub const DEFAULT: &str = include_str!("../../openings/go.txt");

/// A suite's openings: an SGF collection (the text's first character, after blank and `#`
/// lines, is `(`), each tree on one line; otherwise one move list a line.
pub fn split(text: &str) -> Result<Vec<(usize, String)>, (usize, String)> {
    let body = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'));
    if !body.is_some_and(|line| line.starts_with('(')) {
        return Ok(split_lines(text));
    }
    let mut openings = Vec::new();
    for (line, tree) in game_trees(text)? {
        GoRecord::from_sgf(tree).map_err(|error| {
            let at = error.position.map_or(0, |p| p.line.saturating_sub(1));
            (line + at, format!("bad SGF: {}", error.kind))
        })?;
        openings.push((line, tree.split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    Ok(openings)
}

/// The top-level game trees of an SGF collection, each with the line it starts on; `#`
/// comment lines between trees are skipped.
fn game_trees(text: &str) -> Result<Vec<(usize, &str)>, (usize, String)> {
    let mut trees = Vec::new();
    let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
    let (mut line, mut start) = (1usize, (0usize, 1usize));
    let mut comment = false;
    for (offset, c) in text.char_indices() {
        if c == '\n' {
            line += 1;
            comment = false;
        }
        if comment {
            continue;
        }
        if in_value {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, ']') => in_value = false,
                _ => {}
            }
            continue;
        }
        match c {
            '[' if depth > 0 => in_value = true,
            '(' => {
                if depth == 0 {
                    start = (offset, line);
                }
                depth += 1;
            }
            ')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    trees.push((start.1, &text[start.0..=offset]));
                }
            }
            '#' if depth == 0 => comment = true,
            c if depth == 0 && !c.is_whitespace() => {
                return Err((line, format!("'{c}' outside a game tree: expected '('")));
            }
            _ => {}
        }
    }
    if depth > 0 {
        return Err((
            start.1,
            "the game tree starting here is not closed: ')' missing".to_owned(),
        ));
    }
    Ok(trees)
}

/// A referee whose game starts from `opening` (a move list or a one-line SGF tree) on the
/// match's board (`start`).
pub fn referee(start: &GoReferee, opening: &str) -> Result<Box<dyn Referee>, String> {
    if opening.starts_with('(') {
        return from_sgf(start, opening);
    }
    let moves: Vec<&str> = opening.split_whitespace().collect();
    play_opening(Box::new(start.clone()), Vec::new(), &moves)
}

fn from_sgf(start: &GoReferee, text: &str) -> Result<Box<dyn Referee>, String> {
    let record = GoRecord::from_sgf(text).map_err(|error| format!("bad SGF: {error}"))?;
    let size = start.game().size();
    if record.size != size {
        return Err(format!(
            "SZ[{}], but the match plays on {size}x{size} (--size)",
            record.size
        ));
    }
    let mut referee = start.clone();
    let mut commands = Vec::new();
    let mut moves = Vec::new();
    for event in &record.events {
        match event {
            Event::Setup(setup) if moves.is_empty() && referee.game().handicap() == 0 => {
                if !setup.white.is_empty() || !setup.empty.is_empty() {
                    return Err(
                        "AW or AE setup: engines can be told only handicap stones (AB in the root)"
                            .to_owned(),
                    );
                }
                if setup.black.is_empty() {
                    continue;
                }
                referee
                    .place_handicap(&setup.black)
                    .map_err(|error| format!("AB handicap: {error}"))?;
                let stones: Vec<String> = setup.black.iter().map(|v| v.to_string()).collect();
                commands.push(format!("set_free_handicap {}", stones.join(" ")));
            }
            Event::Setup(_) => {
                return Err(
                    "setup stones after the root: an opening holds a handicap and moves only"
                        .to_owned(),
                );
            }
            Event::Move(color, mv) => moves.push((*color, mv.to_string())),
        }
    }
    let mut to_move = referee.game().to_move();
    for (number, (color, mv)) in moves.iter().enumerate() {
        if *color != to_move {
            return Err(format!(
                "move {} is {color:?}'s ({mv}), but {to_move:?} is to move: an opening's moves alternate",
                number + 1
            ));
        }
        to_move = to_move.opponent();
    }
    let answers: Vec<&str> = moves.iter().map(|(_, mv)| mv.as_str()).collect();
    play_opening(Box::new(referee), commands, &answers)
}

/// The first `plies` moves of an SGF record as a move list (a record with a handicap is
/// written as the SGF of its handicap and moves).
pub fn of_record(record: &str, plies: usize) -> Result<String, String> {
    let record = GoRecord::from_sgf(record).map_err(|error| error.to_string())?;
    if record.handicap > 0 {
        return Err("a handicap game: write its opening as SGF".to_owned());
    }
    first_plies(record.moves().map(|(_, mv)| mv), plies, "the record")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::Color;
    use crate::go::rules::RuleSet;

    fn start() -> GoReferee {
        GoReferee::new(9, 7.5, RuleSet::Chinese).expect("9x9")
    }

    #[test]
    fn move_lists_and_handicaps_become_setup_commands() {
        let referee = referee(&start(), "E5 c3 pass").expect("legal");
        let setup = referee.setup_commands();
        assert_eq!(&setup[3..], ["play b E5", "play w C3", "play b PASS"]);
        let sgf = "(;SZ[9]HA[2]AB[cc][gg];W[ee];B[dd])";
        let referee = super::referee(&start(), sgf).expect("handicap");
        assert_eq!(
            &referee.setup_commands()[3..],
            ["set_free_handicap C7 G3", "play w E5", "play b D6"]
        );
        assert_eq!(referee.seat_to_move(), crate::contract::Seat::Second);
        assert_eq!(Color::White.opponent(), Color::Black);
    }

    #[test]
    fn illegal_openings_are_refused() {
        assert!(super::referee(&start(), "E5 E5").is_err());
        assert!(super::referee(&start(), "Z9").is_err());
        assert!(super::referee(&start(), "pass pass").is_err(), "game over");
        assert!(super::referee(&start(), "(;SZ[19];B[dd])").is_err());
        assert!(super::referee(&start(), "(;SZ[9];W[dd])").is_err());
    }

    #[test]
    fn collections_split_by_tree_with_their_lines() {
        let text = "# suite\n(;SZ[9]\n;B[ee]C[a ) in a comment])\n\n(;SZ[9];B[cc])\n";
        let trees = split(text).expect("two trees");
        assert_eq!(trees.len(), 2);
        assert_eq!((trees[0].0, trees[1].0), (2, 5));
        assert_eq!(split("(;SZ[9];B[ee]").expect_err("open").0, 1);
        assert_eq!(split("(;SZ[9])\nx").expect_err("junk").0, 2);
    }
}
