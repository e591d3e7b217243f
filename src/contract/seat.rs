//! The two seats of a game and their mapping to each game's colours.

/// The two seats of a game: `First` moves first (Go's and Abalone's Black, Kulami's
/// Black); in Mangala `First` is South, and the draw decides who starts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// A game's two colours (or sides) in seat order, so that each referee maps seats to
/// colours and back in one place.
pub trait SeatColors: Copy + PartialEq {
    /// The colour of [`Seat::First`], then of [`Seat::Second`].
    const BY_SEAT: [Self; 2];

    fn of_seat(seat: Seat) -> Self {
        Self::BY_SEAT[seat.index()]
    }

    fn seat(self) -> Seat {
        if self == Self::BY_SEAT[0] {
            Seat::First
        } else {
            Seat::Second
        }
    }
}
