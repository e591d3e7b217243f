//! How one attempt at a game ended, in seat terms: the words the game's conduct and its
//! scoring share.

use crate::arena::gtp::EngineError;
use crate::contract::{Outcome, Seat};

/// A game's end before scoring: an engine's fault, in seat terms.
pub(super) struct Fault {
    pub(super) seat: Seat,
    pub(super) kind: &'static str,
    pub(super) detail: String,
}

impl Fault {
    pub(super) fn of(seat: Seat, error: EngineError) -> Fault {
        let detail = match &error {
            // Only a move the referee has judged legal is told ahead.
            EngineError::Refused {
                command, message, ..
            } => format!("refused the legal '{command}': {message}"),
            _ => error.to_string(),
        };
        Fault {
            seat,
            kind: error.kind(),
            detail,
        }
    }
}

/// How one attempt at a game ended.
pub(super) enum Ending {
    Finished {
        outcome: Outcome,
        reason: String,
    },
    Illegal {
        seat: Seat,
        detail: String,
    },
    /// `seat`'s clock ran out.
    Time {
        seat: Seat,
        detail: String,
    },
    Failed(Fault),
}

impl From<Fault> for Ending {
    fn from(fault: Fault) -> Ending {
        Ending::Failed(fault)
    }
}
