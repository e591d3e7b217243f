//! The static evaluation: marbles off, centre distance, cohesion, edge danger. Everything
//! is bitboard arithmetic over the 61 cells; the value is from the side to move's view.

use std::fmt;
use std::str::FromStr;

use super::board::{ALL_CELLS, BOARD_MASK, Bitboard, Direction, shift};
use super::position::Position;

/// Weights of the evaluation terms (centipawn-like units; a marble off is `marble_off`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A marble pushed off.
    pub marble_off: i32,
    /// Each ring a marble stands nearer the centre than the edge.
    pub centre: i32,
    /// Each pair of touching own marbles.
    pub cohesion: i32,
    /// Each own marble on the edge ring.
    pub edge: i32,
    /// Each own marble that the opponent could push off with its next move.
    pub threat: i32,
}

/// Tuned by arena matches at 3,000 nodes a move (protocol.md, Abalone, *Player*): against
/// the earlier `1000,12,5,14,0`, a lighter edge term and a heavier cohesion term won.
impl Default for Weights {
    fn default() -> Weights {
        Weights {
            marble_off: 1000,
            centre: 12,
            cohesion: 9,
            edge: 8,
            threat: 0,
        }
    }
}

/// `off,centre,cohesion,edge,threat`, as the command line takes it.
impl fmt::Display for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{},{}",
            self.marble_off, self.centre, self.cohesion, self.edge, self.threat
        )
    }
}

impl FromStr for Weights {
    type Err = String;

    fn from_str(text: &str) -> Result<Weights, String> {
        let values: Vec<i32> = text
            .split(',')
            .map(|v| {
                v.trim()
                    .parse::<i32>()
                    .map_err(|_| format!("'{v}' is not a whole number"))
            })
            .collect::<Result<_, _>>()?;
        let [marble_off, centre, cohesion, edge, threat] = values[..] else {
            return Err(format!(
                "expected 5 weights (off,centre,cohesion,edge,threat), got {}",
                values.len()
            ));
        };
        Ok(Weights {
            marble_off,
            centre,
            cohesion,
            edge,
            threat,
        })
    }
}

const fn ring_masks() -> [Bitboard; 5] {
    let mut rings = [0; 5];
    let mut i = 0;
    while i < ALL_CELLS.len() {
        let cell = ALL_CELLS[i];
        rings[cell.centre_distance() as usize] |= cell.bit();
        i += 1;
    }
    rings
}

/// Cells by distance from the centre: `RINGS[4]` is the edge.
pub const RINGS: [Bitboard; 5] = ring_masks();

/// Cells whose neighbour in each direction is off the board.
fn edge_towards(direction: Direction) -> Bitboard {
    BOARD_MASK & !shift(BOARD_MASK, direction.opposite())
}

/// Marbles of `own` that `opponent` can push off in one move (2–1, 3–1 and 3–2 sumitos
/// towards the edge).
pub fn threatened(own: Bitboard, opponent: Bitboard) -> Bitboard {
    let mut threatened = 0;
    for direction in Direction::ALL {
        let edge = own & edge_towards(direction);
        if edge == 0 {
            continue;
        }
        // A bit at cell c of `oppN` means the opponent holds the cell N steps behind c.
        let opp1 = shift(opponent, direction);
        let opp2 = shift(opp1, direction);
        let opp3 = shift(opp2, direction);
        let opp4 = shift(opp3, direction);
        let own1 = shift(own, direction);
        // One marble alone at the edge, two or three pushers behind it.
        let lone = edge & opp1 & opp2;
        // Two at the edge in line, three pushers behind them.
        let pair = edge & own1 & opp2 & opp3 & opp4;
        threatened |= lone | pair;
    }
    threatened
}

fn cohesion(bits: Bitboard) -> i32 {
    Direction::AXES
        .iter()
        .map(|axis| (bits & shift(bits, *axis)).count_ones() as i32)
        .sum()
}

fn centre(bits: Bitboard) -> i32 {
    (0..5)
        .map(|ring| (4 - ring as i32) * (bits & RINGS[ring]).count_ones() as i32)
        .sum()
}

/// The value of `position` for the side to move.
pub fn evaluate(position: &Position, weights: &Weights) -> i32 {
    let me = position.to_move();
    let own = position.marbles(me);
    let opponent = position.marbles(me.opponent());
    let material =
        i32::from(position.marbles_off(me.opponent())) - i32::from(position.marbles_off(me));
    let own_threatened = threatened(own, opponent).count_ones() as i32;
    let their_threatened = threatened(opponent, own).count_ones() as i32;
    // On move, a threat against the opponent is nearly a marble; ours can still be parried.
    weights.marble_off * material
        + weights.centre * (centre(own) - centre(opponent))
        + weights.cohesion * (cohesion(own) - cohesion(opponent))
        - weights.edge
            * ((own & RINGS[4]).count_ones() as i32 - (opponent & RINGS[4]).count_ones() as i32)
        + weights.threat * (2 * their_threatened - own_threatened)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abalone::position::StartPosition;

    #[test]
    fn starts_are_balanced_and_weights_round_trip() {
        for start in StartPosition::ALL {
            assert_eq!(
                evaluate(&start.position(), &Weights::default()),
                0,
                "{start}"
            );
        }
        let weights = Weights::default();
        assert_eq!(weights.to_string().parse::<Weights>(), Ok(weights));
        assert!("1,2,3".parse::<Weights>().is_err());
    }

    #[test]
    fn a_lone_edge_marble_with_two_pushers_is_threatened() {
        // White a1 alone on the edge, black b2 and c3 behind it on the diagonal.
        let position: Position = "5/6/7/8/9/8/2b4/1b4/w4 b 0 0".parse().expect("valid");
        let white = position.marbles(crate::abalone::board::Color::White);
        let black = position.marbles(crate::abalone::board::Color::Black);
        assert_eq!(threatened(white, black), white);
        assert_eq!(threatened(black, white), 0);
    }
}
