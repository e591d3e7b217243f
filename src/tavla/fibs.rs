//! The FIBS `board:` string, as gnubg writes and reads it (`FIBSBoard`/`ParseFIBSBoard`,
//! gnubg's external player protocol).
//!
//! Fields, `:`-separated: `board`, your name, the opponent's, match length (0 = money), your
//! score, the opponent's, then 26 point counts (index 0 the opponent's bar, 1–24 your own
//! points 1–24, 25 your bar; yours positive, the opponent's negative), turn (1 you, -1 the
//! opponent, 0 nobody), your dice, the opponent's dice, the cube, you may double, the opponent
//! may double, was doubled, colour, direction, home, bar, borne off (yours, theirs), on the bar
//! (yours, theirs), can move, forced move, did Crawford, redoubles. gnubg writes colour 1,
//! direction -1, home 0 and bar 25 and ignores them on input; so do we.

use super::board::{Board, CHECKERS, Side};
use super::dice::Dice;
use super::game::{Game, MAX_CUBE, Phase};
use crate::text::shorten;

/// Everything a FIBS board string says, with "you" mapped onto one of our sides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FibsBoard {
    pub you: Side,
    /// Indexed by [`Side::index`].
    pub names: [String; 2],
    pub match_length: u32,
    /// Indexed by [`Side::index`].
    pub score: [u32; 2],
    pub board: Board,
    /// The side on roll (the doubler while a double is offered); `None` when the string says 0.
    pub turn: Option<Side>,
    pub dice: Option<Dice>,
    pub cube: u32,
    pub cube_owner: Option<Side>,
    pub doubled: bool,
    pub crawford: bool,
}

/// The fields before the ones gnubg reads last (did Crawford is field 51).
const MIN_FIELDS: usize = 52;

/// The FIBS board of `game` seen by `you`.
pub fn format_fibs(game: &Game, you: Side) -> String {
    let state = game.state();
    let opp = you.other();
    let board = &state.board;
    let mut fields: Vec<String> = vec![
        "board".into(),
        you.name().into(),
        opp.name().into(),
        game.rules().length.to_string(),
        state.score[you.index()].to_string(),
        state.score[opp.index()].to_string(),
    ];
    fields.push((-i32::from(board.bar(opp))).to_string());
    for point in 1..=24usize {
        let theirs = board.at(opp, 25 - point);
        let value = if theirs > 0 {
            -i32::from(theirs)
        } else {
            i32::from(board.at(you, point))
        };
        fields.push(value.to_string());
    }
    fields.push(board.bar(you).to_string());
    let (turn, dice, doubled) = match state.phase {
        Phase::ToRoll(side) => (Some(side), None, false),
        Phase::ToPlay { side, dice } => (Some(side), Some(dice), false),
        Phase::Doubled { by } => (Some(by), None, true),
        Phase::Opening | Phase::Over(_) => (None, None, false),
    };
    fields.push(
        match turn {
            Some(side) if side == you => "1",
            Some(_) => "-1",
            None => "0",
        }
        .into(),
    );
    let (mine, theirs) = match (turn, dice) {
        (Some(side), Some(d)) if side == you => ((d.first(), d.second()), (0, 0)),
        (Some(_), Some(d)) => ((0, 0), (d.first(), d.second())),
        _ => ((0, 0), (0, 0)),
    };
    for die in [mine.0, mine.1, theirs.0, theirs.1] {
        fields.push(die.to_string());
    }
    fields.push(state.cube.to_string());
    let may_double = |side: Side| {
        game.rules().cube && !state.crawford_game && state.cube_owner != Some(side.other())
    };
    fields.push(u8::from(may_double(you)).to_string());
    fields.push(u8::from(may_double(opp)).to_string());
    fields.push(u8::from(doubled).to_string());
    for fixed in ["1", "-1", "0", "25"] {
        fields.push(fixed.into());
    }
    fields.push(board.borne_off(you).to_string());
    fields.push(board.borne_off(opp).to_string());
    fields.push(board.bar(you).to_string());
    fields.push(board.bar(opp).to_string());
    fields.push("0".into());
    fields.push("0".into());
    fields.push(u8::from(state.crawford_game).to_string());
    fields.push("0".into());
    fields.join(":")
}

/// Reads a FIBS board string with "you" (the positive checkers) as `you`.
pub fn parse_fibs(text: &str, you: Side) -> Result<FibsBoard, String> {
    let text = text.trim();
    let fields: Vec<&str> = text.split(':').collect();
    if fields.first() != Some(&"board") {
        return Err("a FIBS board starts with 'board:'".into());
    }
    if fields.len() < MIN_FIELDS {
        return Err(format!(
            "a FIBS board has at least {MIN_FIELDS} ':'-separated fields; this one has {}",
            fields.len()
        ));
    }
    let int = |index: usize| -> Result<i64, String> {
        fields[index]
            .trim()
            .parse::<i64>()
            .map_err(|_| format!("field {index} '{}' is not a number", shorten(fields[index])))
    };
    let count = |index: usize| -> Result<u8, String> {
        let n = int(index)?.unsigned_abs();
        u8::try_from(n)
            .ok()
            .filter(|&n| n <= CHECKERS)
            .ok_or_else(|| format!("field {index}: {n} checkers on one point"))
    };
    let small = |index: usize| -> Result<u32, String> {
        u32::try_from(int(index)?)
            .ok()
            .filter(|&n| n < 1 << 15)
            .ok_or_else(|| format!("field {index} '{}' is out of range", shorten(fields[index])))
    };
    let opp = you.other();
    let match_length = small(3)?;
    let mut score = [0u32; 2];
    score[you.index()] = small(4)?;
    score[opp.index()] = small(5)?;
    let mut rows = [[0u8; 25]; 2];
    rows[opp.index()][24] = count(6)?;
    for point in 1..=24usize {
        let value = int(6 + point)?;
        let n = count(6 + point)?;
        if value < 0 {
            rows[opp.index()][24 - point] = n;
        } else {
            rows[you.index()][point - 1] = n;
        }
    }
    rows[you.index()][24] = count(31)?;
    let board = Board::from_rows(rows).map_err(|e| e.to_string())?;
    let turn = match int(32)? {
        0 => None,
        t if t > 0 => Some(you),
        _ => Some(opp),
    };
    let die = |index: usize| -> Result<u8, String> {
        u8::try_from(int(index)?)
            .ok()
            .filter(|&d| d <= 6)
            .ok_or_else(|| {
                format!(
                    "field {index}: die '{}' is out of range",
                    shorten(fields[index])
                )
            })
    };
    let (mine, theirs) = ((die(33)?, die(34)?), (die(35)?, die(36)?));
    // gnubg's reading: the side on roll's pair, else the other pair.
    let pair = match turn {
        Some(side) if side == you && mine != (0, 0) => mine,
        Some(_) if theirs != (0, 0) => theirs,
        _ => mine,
    };
    let dice = match pair {
        (0, 0) => None,
        (a, b) => Some(Dice::new(a, b)?),
    };
    let cube = small(37)?;
    if !cube.is_power_of_two() || cube > MAX_CUBE {
        return Err(format!("cube {cube} is not 1, 2, 4, … {MAX_CUBE}"));
    }
    let cube_owner = match (int(38)? != 0, int(39)? != 0) {
        (true, false) => Some(you),
        (false, true) => Some(opp),
        _ => None,
    };
    let doubled = int(40)? != 0;
    let crawford = int(51)? != 0;
    let names = {
        let mut names = [String::new(), String::new()];
        names[you.index()] = fields[1].to_string();
        names[opp.index()] = fields[2].to_string();
        names
    };
    Ok(FibsBoard {
        you,
        names,
        match_length,
        score,
        board,
        turn,
        dice,
        cube,
        cube_owner,
        doubled,
        crawford,
    })
}
