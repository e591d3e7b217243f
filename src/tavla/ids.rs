//! gnubg's Position ID (14 characters) and Match ID (12 characters), bit for bit.
//!
//! Both are bit strings packed least significant bit first into bytes, then written in
//! standard Base64 without padding (gnubg manual, "A technical description of the
//! Position ID" and "... of the Match ID").

use std::fmt;

use super::board::{BAR, Board, CHECKERS, Side};
use super::dice::Dice;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Why an ID did not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdError(pub String);

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for IdError {}

struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    fn new(bytes: usize) -> Bits {
        Bits {
            bytes: vec![0; bytes],
            len: 0,
        }
    }

    fn push(&mut self, bit: bool) {
        if bit {
            self.bytes[self.len / 8] |= 1 << (self.len % 8);
        }
        self.len += 1;
    }

    /// `width` bits of `value`, least significant first.
    fn push_value(&mut self, value: u32, width: usize) {
        for i in 0..width {
            self.push(value >> i & 1 == 1);
        }
    }

    fn get(bytes: &[u8], index: usize) -> bool {
        bytes[index / 8] >> (index % 8) & 1 == 1
    }

    fn value(bytes: &[u8], start: usize, width: usize) -> u32 {
        (0..width).fold(0, |acc, i| {
            acc | (u32::from(Bits::get(bytes, start + i)) << i)
        })
    }
}

fn encode(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars);
    for i in 0..chars {
        // Six bits, most significant first, across the byte stream read big-endian.
        let mut sextet = 0u8;
        for j in 0..6 {
            let bit = i * 6 + j;
            let byte = bytes.get(bit / 8).copied().unwrap_or(0);
            sextet = sextet << 1 | (byte >> (7 - bit % 8) & 1);
        }
        out.push(ALPHABET[usize::from(sextet)] as char);
    }
    out
}

fn decode(text: &str, chars: usize, bytes: usize, what: &str) -> Result<Vec<u8>, IdError> {
    if text.len() != chars {
        return Err(IdError(format!(
            "a {what} has {chars} characters; '{text}' has {}",
            text.chars().count()
        )));
    }
    let mut out = vec![0u8; bytes];
    for (i, c) in text.bytes().enumerate() {
        let sextet = ALPHABET.iter().position(|&a| a == c).ok_or_else(|| {
            IdError(format!(
                "'{}' is not a Base64 character in {what} '{text}'",
                c as char
            ))
        })?;
        for j in 0..6 {
            let bit = i * 6 + j;
            if sextet >> (5 - j) & 1 == 1 {
                if bit / 8 < bytes {
                    out[bit / 8] |= 1 << (7 - bit % 8);
                } else {
                    return Err(IdError(format!("{what} '{text}' has bits past its end")));
                }
            }
        }
    }
    Ok(out)
}

/// The Position ID of `board` with `on_roll` to move: the opponent's checkers first, then
/// those of the side on roll (gnubg's `anBoard[0]` then `anBoard[1]`).
pub fn position_id(board: &Board, on_roll: Side) -> String {
    let mut bits = Bits::new(10);
    for side in [on_roll.other(), on_roll] {
        for &count in board.row(side) {
            for _ in 0..count {
                bits.push(true);
            }
            bits.push(false);
        }
    }
    encode(&bits.bytes, 14)
}

/// Reads a Position ID as the board with `on_roll` to move, validating the checker counts.
pub fn parse_position_id(text: &str, on_roll: Side) -> Result<Board, IdError> {
    let bytes = decode(text, 14, 10, "Position ID")?;
    let mut rows = [[0u8; 25]; 2];
    let mut bit = 0;
    for side in [on_roll.other(), on_roll] {
        let row = &mut rows[side.index()];
        let mut point = 0;
        let mut total = 0u32;
        while point <= BAR {
            if bit >= 80 {
                return Err(IdError(format!("Position ID '{text}' ends inside a row")));
            }
            if Bits::get(&bytes, bit) {
                row[point] += 1;
                total += 1;
                if total > u32::from(CHECKERS) {
                    return Err(IdError(format!(
                        "Position ID '{text}' gives {side} more than {CHECKERS} checkers"
                    )));
                }
            } else {
                point += 1;
            }
            bit += 1;
        }
    }
    Board::from_rows(rows).map_err(|e| IdError(format!("Position ID '{text}': {e}")))
}

/// gnubg's game state field.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameState {
    NoGame = 0,
    Playing = 1,
    Over = 2,
    Resigned = 3,
    Dropped = 4,
}

/// Everything a Match ID holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MatchKey {
    pub cube: u32,
    /// `None`: the cube is centred.
    pub cube_owner: Option<Side>,
    /// The side on roll, or that rolled.
    pub dice_owner: Side,
    pub crawford: bool,
    pub state: GameState,
    /// The side to make a decision (differs from the dice owner while a double is offered).
    pub turn: Side,
    pub doubled: bool,
    /// 0 none, 1 single, 2 gammon, 3 backgammon.
    pub resigned: u8,
    /// `None`: not rolled yet.
    pub dice: Option<Dice>,
    /// 0 for money play.
    pub match_length: u32,
    pub score: [u32; 2],
    /// The Jacoby rule is in force (money play only). gnubg 1.07 writes its negation as bit
    /// 66, so every match, and money play without Jacoby, sets that bit.
    pub jacoby: bool,
}

pub fn match_id(key: &MatchKey) -> String {
    let mut bits = Bits::new(9);
    bits.push_value(key.cube.max(1).trailing_zeros(), 4);
    bits.push_value(
        match key.cube_owner {
            Some(side) => side.index() as u32,
            None => 3,
        },
        2,
    );
    bits.push_value(key.dice_owner.index() as u32, 1);
    bits.push_value(u32::from(key.crawford), 1);
    bits.push_value(key.state as u32, 3);
    bits.push_value(key.turn.index() as u32, 1);
    bits.push_value(u32::from(key.doubled), 1);
    bits.push_value(u32::from(key.resigned), 2);
    let (d1, d2) = key.dice.map_or((0, 0), |d| (d.first(), d.second()));
    bits.push_value(u32::from(d1), 3);
    bits.push_value(u32::from(d2), 3);
    bits.push_value(key.match_length, 15);
    bits.push_value(key.score[0], 15);
    bits.push_value(key.score[1], 15);
    bits.push_value(u32::from(!key.jacoby), 1);
    encode(&bits.bytes, 12)
}

pub fn parse_match_id(text: &str) -> Result<MatchKey, IdError> {
    let bytes = decode(text, 12, 9, "Match ID")?;
    let field = |start: usize, width: usize| Bits::value(&bytes, start, width);
    let bad = |what: &str| IdError(format!("Match ID '{text}': {what}"));
    let cube_log = field(0, 4);
    if cube_log > 6 {
        return Err(bad("cube above 64"));
    }
    let cube_owner = match field(4, 2) {
        0 => Some(Side::White),
        1 => Some(Side::Black),
        3 => None,
        _ => return Err(bad("cube owner 2 does not exist")),
    };
    let state = match field(8, 3) {
        0 => GameState::NoGame,
        1 => GameState::Playing,
        2 => GameState::Over,
        3 => GameState::Resigned,
        4 => GameState::Dropped,
        other => return Err(bad(&format!("game state {other} does not exist"))),
    };
    let (d1, d2) = (field(15, 3) as u8, field(18, 3) as u8);
    let dice = match (d1, d2) {
        (0, 0) => None,
        _ => Some(Dice::new(d1, d2).map_err(|e| bad(&e))?),
    };
    let match_length = field(21, 15);
    let score = [field(36, 15), field(51, 15)];
    if match_length > 0
        && (score[0] >= match_length || score[1] >= match_length)
        && state != GameState::Over
    {
        {
            return Err(bad(
                "a score reaches the match length in a match still going",
            ));
        }
    }
    Ok(MatchKey {
        cube: 1 << cube_log,
        cube_owner,
        dice_owner: Side::from_index(field(6, 1) as usize),
        crawford: field(7, 1) == 1,
        state,
        turn: Side::from_index(field(11, 1) as usize),
        doubled: field(12, 1) == 1,
        resigned: field(13, 2) as u8,
        dice,
        match_length,
        score,
        jacoby: field(66, 1) == 0 && match_length == 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_has_the_manuals_id() {
        assert_eq!(position_id(&Board::start(), Side::White), "4HPwATDgc/ABMA");
        assert_eq!(
            parse_position_id("4HPwATDgc/ABMA", Side::Black),
            Ok(Board::start())
        );
    }

    #[test]
    fn bad_ids_are_refused() {
        assert!(parse_position_id("4HPwATDgc/ABM", Side::White).is_err());
        assert!(parse_position_id("4HPwATDgc/AB!A", Side::White).is_err());
        assert!(parse_position_id("//////////////", Side::White).is_err());
        assert!(parse_match_id("cAkAAAAAAAA").is_err());
    }
}
