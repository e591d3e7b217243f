//! Counting a finished position: area and territory scoring, given the dead stones.
//!
//! Which stones are dead is not decided here (the player finds them by playouts); this
//! module only counts once they are known.
//!
//! Territory is every empty region bordered by live stones of one colour only. Under
//! territory scoring (the Japanese rules) a region that a group in seki borders is nobody's:
//! eyes in seki are not territory. Which stones are in seki is the dead-stone finder's
//! judgement too; area scoring counts the eyes of a seki as any other.

use std::fmt;

use super::board::{Board, MAX_POINTS, Point};
use super::color::Color;
use super::rules::Scoring;

/// The colour owning each point after dead stones are taken off: a live stone's colour,
/// or for an empty (or dead-stone) point, the one colour whose live stones border its
/// region. Regions bordered by both colours, or by none, belong to nobody.
#[derive(Clone, Debug)]
pub struct Ownership {
    owner: [Option<Color>; MAX_POINTS],
    /// Live stones of each colour.
    pub stones: [u32; 2],
    /// Empty and dead-stone points owned by each colour.
    pub territory: [u32; 2],
    /// Dead stones of each colour.
    pub dead: [u32; 2],
}

impl Ownership {
    /// Counts `board` with the stones on `dead` points taken off (empty points in
    /// `dead` are ignored).
    pub fn new(board: &Board, dead: &[Point]) -> Ownership {
        Ownership::with_seki(board, dead, &[])
    }

    /// As [`Ownership::new`], and a region that a stone on a `seki` point borders is
    /// nobody's, as the Japanese rules count the eyes of a seki.
    pub fn with_seki(board: &Board, dead: &[Point], seki: &[Point]) -> Ownership {
        let mut in_seki = [false; MAX_POINTS];
        for &p in seki {
            if board.is_on_board(p) && board.get(p).is_some() {
                in_seki[p.index()] = true;
            }
        }
        let mut is_dead = [false; MAX_POINTS];
        let mut own = Ownership {
            owner: [None; MAX_POINTS],
            stones: [0; 2],
            territory: [0; 2],
            dead: [0; 2],
        };
        for &p in dead {
            if let Some(c) = board.get(p)
                && board.is_on_board(p)
                && !is_dead[p.index()]
            {
                is_dead[p.index()] = true;
                own.dead[c.index()] += 1;
            }
        }
        let live = |p: Point| board.get(p).filter(|_| !is_dead[p.index()]);
        let mut visited = [false; MAX_POINTS];
        let mut region = Vec::new();
        for p in board.points() {
            if let Some(c) = live(p) {
                own.owner[p.index()] = Some(c);
                own.stones[c.index()] += 1;
                continue;
            }
            if visited[p.index()] {
                continue;
            }
            // Flood the region of non-live points from p, noting the colours beside it.
            region.clear();
            region.push(p);
            visited[p.index()] = true;
            let mut borders = [false; 2];
            let mut borders_seki = false;
            let mut i = 0;
            while i < region.len() {
                let q = region[i];
                i += 1;
                for r in board.neighbors(q) {
                    if !board.is_on_board(r) {
                        continue;
                    }
                    match live(r) {
                        Some(c) => {
                            borders[c.index()] = true;
                            borders_seki |= in_seki[r.index()];
                        }
                        None if !visited[r.index()] => {
                            visited[r.index()] = true;
                            region.push(r);
                        }
                        None => {}
                    }
                }
            }
            let owner = match borders {
                _ if borders_seki => None,
                [true, false] => Some(Color::Black),
                [false, true] => Some(Color::White),
                _ => None,
            };
            if let Some(c) = owner {
                own.territory[c.index()] += region.len() as u32;
                for &q in &region {
                    own.owner[q.index()] = Some(c);
                }
            }
        }
        own
    }

    /// Who owns `p` (see the type's description).
    pub fn owner(&self, p: Point) -> Option<Color> {
        self.owner[p.index()]
    }
}

/// The end-of-game status of stones that counting needs: those taken off as dead and
/// those that live in seki.
#[derive(Copy, Clone, Debug, Default)]
pub struct Status<'a> {
    pub dead: &'a [Point],
    pub seki: &'a [Point],
}

/// Everything that goes into a final score.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreBreakdown {
    pub scoring: Scoring,
    /// Live stones of each colour on the board.
    pub stones: [u32; 2],
    /// Empty (and dead-stone) points surrounded by each colour only.
    pub territory: [u32; 2],
    /// Stones captured by each colour during the game.
    pub prisoners: [u32; 2],
    /// Dead stones of each colour, taken off at the end.
    pub dead: [u32; 2],
    pub komi: f32,
    /// Extra points for White in handicap games (rule dependent).
    pub handicap_compensation: f32,
}

impl ScoreBreakdown {
    /// Counts `board` under `scoring`, the stones on `dead` taken off and, under
    /// territory scoring, the regions that stones on `seki` border left to nobody;
    /// `prisoners[c]` are the stones colour `c` captured.
    pub fn new(
        board: &Board,
        status: Status<'_>,
        scoring: Scoring,
        prisoners: [u32; 2],
        komi: f32,
        handicap_compensation: f32,
    ) -> ScoreBreakdown {
        let seki = match scoring {
            Scoring::Territory => status.seki,
            Scoring::Area => &[],
        };
        let own = Ownership::with_seki(board, status.dead, seki);
        ScoreBreakdown {
            scoring,
            stones: own.stones,
            territory: own.territory,
            prisoners,
            dead: own.dead,
            komi,
            handicap_compensation,
        }
    }

    /// The points of `color`, komi and compensation included for White.
    pub fn points(&self, color: Color) -> f32 {
        let i = color.index();
        let base = match self.scoring {
            Scoring::Area => self.stones[i] + self.territory[i],
            Scoring::Territory => {
                self.territory[i] + self.prisoners[i] + self.dead[color.opponent().index()]
            }
        } as f32;
        match color {
            Color::Black => base,
            Color::White => base + self.komi + self.handicap_compensation,
        }
    }

    /// Black's points minus White's.
    pub fn margin(&self) -> f32 {
        self.points(Color::Black) - self.points(Color::White)
    }

    pub fn result(&self) -> FinalScore {
        FinalScore(self.margin())
    }
}

/// A result from Black's point of view: positive when Black wins.
#[derive(Copy, Clone, Debug, PartialEq, PartialOrd)]
pub struct FinalScore(pub f32);

impl FinalScore {
    pub fn winner(self) -> Option<Color> {
        if self.0 > 0.0 {
            Some(Color::Black)
        } else if self.0 < 0.0 {
            Some(Color::White)
        } else {
            None
        }
    }
}

/// GTP `final_score` form: `B+3.5`, `W+12`, or `0` for a draw.
impl fmt::Display for FinalScore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner() {
            Some(c) => write!(f, "{}+{}", c.letter(), self.0.abs()),
            None => f.write_str("0"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_score_strings() {
        assert_eq!(FinalScore(3.5).to_string(), "B+3.5");
        assert_eq!(FinalScore(-0.5).to_string(), "W+0.5");
        assert_eq!(FinalScore(-12.0).to_string(), "W+12");
        assert_eq!(FinalScore(0.0).to_string(), "0");
        assert_eq!(FinalScore(-0.0).to_string(), "0");
    }
}
