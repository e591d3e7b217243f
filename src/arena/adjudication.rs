//! Score adjudication (`--adjudicate MARGIN:MOVES`).

use std::fmt;

/// Score adjudication (`--adjudicate MARGIN:MOVES`): the game ends as a resignation of the
/// side both engines count behind by at least `margin` after each of `moves` moves in a
/// row.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Adjudication {
    pub margin: f64,
    pub moves: usize,
}

impl std::str::FromStr for Adjudication {
    type Err = String;

    fn from_str(text: &str) -> Result<Adjudication, String> {
        let usage = || format!("'{text}' is not MARGIN:MOVES (e.g. 30:4)");
        let (margin, moves) = text.split_once(':').ok_or_else(usage)?;
        let margin: f64 = margin.parse().map_err(|_| usage())?;
        let moves: usize = moves.parse().map_err(|_| usage())?;
        if !(margin.is_finite() && margin > 0.0) || moves == 0 {
            return Err(format!(
                "'{text}': the margin must be above 0 and the moves at least 1"
            ));
        }
        Ok(Adjudication { margin, moves })
    }
}

impl fmt::Display for Adjudication {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.margin, self.moves)
    }
}
