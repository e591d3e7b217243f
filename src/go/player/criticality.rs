//! Criticality (Coulom, "Criticality: a Monte-Carlo heuristic for Go programs", 2009):
//! how much owning a point at the end of the search's own playouts goes with winning
//! them. A point whose owner is also the winner far more often than chance would have it
//! is where the game is decided (a capturing race, the group whose life the result hangs
//! on), and the tree should try a move there early, before RAVE has gathered the
//! evidence move by move.

use crate::go::board::{MAX_POINTS, Point};
use crate::go::color::Color;

/// Playouts a tree has to have counted before criticality says anything: below this a
/// few lucky playouts would make any point look critical.
pub(crate) const CRITICALITY_READY: u32 = 256;

/// Criticality at which a move's prior bonus is full: a point owned by the winner in
/// every playout, at even ownership and even chances, measures 0.25.
const FULL_BONUS_AT: f32 = 0.25;

/// Owner-and-winner counts over a tree's playouts, by [`Point::index`].
#[derive(Clone, Debug)]
pub(crate) struct Criticality {
    playouts: u32,
    black_wins: u32,
    white_wins: u32,
    black_owned: Vec<u32>,
    white_owned: Vec<u32>,
    owner_won: Vec<u32>,
}

impl Criticality {
    pub(crate) fn new() -> Criticality {
        Criticality {
            playouts: 0,
            black_wins: 0,
            white_wins: 0,
            black_owned: vec![0; MAX_POINTS],
            white_owned: vec![0; MAX_POINTS],
            owner_won: vec![0; MAX_POINTS],
        }
    }

    /// Counts one finished playout: `owner` tells who owns each of `points` (+1 Black,
    /// -1 White, 0 nobody), `winner` who won (`None`: a draw, which no owner wins).
    pub(crate) fn record(
        &mut self,
        points: &[Point],
        owner: impl Fn(Point) -> i8,
        winner: Option<Color>,
    ) {
        self.playouts += 1;
        match winner {
            Some(Color::Black) => self.black_wins += 1,
            Some(Color::White) => self.white_wins += 1,
            None => {}
        }
        for &p in points {
            let i = p.index();
            let owned_by = match owner(p) {
                1 => Color::Black,
                -1 => Color::White,
                _ => continue,
            };
            match owned_by {
                Color::Black => self.black_owned[i] += 1,
                Color::White => self.white_owned[i] += 1,
            }
            if winner == Some(owned_by) {
                self.owner_won[i] += 1;
            }
        }
    }

    /// Playouts counted so far.
    pub(crate) fn playouts(&self) -> u32 {
        self.playouts
    }

    /// Coulom's criticality of `p`: the share of playouts whose winner owns `p`, less the
    /// share that ownership and winning would give if they were independent. 0 before
    /// [`CRITICALITY_READY`] playouts.
    pub(crate) fn of(&self, p: Point) -> f32 {
        if self.playouts < CRITICALITY_READY {
            return 0.0;
        }
        let n = self.playouts as f32;
        let i = p.index();
        let share = |count: u32| count as f32 / n;
        share(self.owner_won[i])
            - (share(self.black_owned[i]) * share(self.black_wins)
                + share(self.white_owned[i]) * share(self.white_wins))
    }

    /// The virtual wins (and visits) a move at `p` gets as a prior, out of `full`: in
    /// proportion to its criticality, the whole of it from [`FULL_BONUS_AT`] up, nothing
    /// for a point whose ownership goes against the winner or with it by chance.
    pub(crate) fn bonus(&self, p: Point, full: f32) -> f32 {
        full * (self.of(p) / FULL_BONUS_AT).clamp(0.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Board;

    fn two_points() -> (Point, Point) {
        let board = Board::new(9).expect("a 9×9 board");
        let mut points = board.points();
        let a = points.next().expect("a point");
        let b = points.next().expect("a second point");
        (a, b)
    }

    #[test]
    fn a_point_whose_owner_always_wins_is_critical_and_an_independent_one_is_not() {
        let (decisive, idle) = two_points();
        let mut crit = Criticality::new();
        for i in 0..CRITICALITY_READY {
            // Black owns `decisive` and wins in every other playout; `idle` goes to
            // each side every other pair of playouts, whoever wins.
            let black_wins = i % 2 == 0;
            let idle_owner = if (i / 2) % 2 == 0 { 1 } else { -1 };
            let owner = |p: Point| match p {
                p if p == decisive => {
                    if black_wins {
                        1
                    } else {
                        -1
                    }
                }
                p if p == idle => idle_owner,
                _ => 0,
            };
            let winner = if black_wins {
                Color::Black
            } else {
                Color::White
            };
            crit.record(&[decisive, idle], owner, Some(winner));
        }
        assert!(
            (crit.of(decisive) - 0.5).abs() < 1e-6,
            "{}",
            crit.of(decisive)
        );
        assert!(crit.of(idle).abs() < 1e-6, "{}", crit.of(idle));
        assert_eq!(crit.bonus(decisive, 10.0), 10.0);
        assert_eq!(crit.bonus(idle, 10.0), 0.0);
    }

    #[test]
    fn criticality_says_nothing_before_enough_playouts() {
        let (decisive, _) = two_points();
        let mut crit = Criticality::new();
        for _ in 1..CRITICALITY_READY {
            crit.record(&[decisive], |_| 1, Some(Color::Black));
            crit.record(&[decisive], |_| -1, Some(Color::White));
        }
        assert!(crit.playouts() >= CRITICALITY_READY);
        assert!(crit.of(decisive) > 0.4);
        let mut fresh = Criticality::new();
        fresh.record(&[decisive], |_| 1, Some(Color::Black));
        assert_eq!(fresh.of(decisive), 0.0);
        assert_eq!(fresh.bonus(decisive, 10.0), 0.0);
    }
}
