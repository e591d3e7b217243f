//! Live analysis for GUIs: Leela Zero's `lz-analyze` / `lz-genmove_analyze` (also spelled
//! `analyze` / `genmove_analyze`, as Sabaki names them) and KataGo's `kata-analyze` /
//! `kata-genmove_analyze`.
//!
//! The engine streams one `info move …` line per interval until the next command arrives;
//! the genmove forms then add `play VERTEX` and play it.

use std::time::Duration;

use crate::go::Color;
use crate::go::board::{Board, Point};
use crate::go::notation::Vertex;
use crate::go::player::{RootMoveStats, Snapshot};
use crate::protocol::{Command, GtpError};

/// Whose spelling of the `info` lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Win rates and priors as integers in 0–10000.
    Leela,
    /// Win rates and priors as fractions in 0–1, ownership on request.
    Kata,
}

/// A parsed analysis command.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeRequest {
    pub dialect: Dialect,
    /// Analyse for this side; `None`: the side to move.
    pub color: Option<Color>,
    pub interval: Duration,
    pub ownership: bool,
    /// Report at most this many moves a line (`maxmoves`); 0 means all.
    pub max_moves: usize,
    /// Report at least this many moves, visited or not (`minmoves`).
    pub min_moves: usize,
}

/// Until told otherwise, report ten times a second.
const DEFAULT_INTERVAL: Duration = Duration::from_millis(100);

/// An interval given in centiseconds; a huge one saturates rather than overflows.
fn centiseconds(interval: u64) -> Duration {
    Duration::from_millis(interval.saturating_mul(10))
}

impl AnalyzeRequest {
    /// `[color] [interval] [key value]…`, the interval in centiseconds, keys `interval`,
    /// `ownership` (kata only), `minmoves`, `maxmoves`. `genmove` commands need the color.
    pub fn parse(
        command: &Command,
        dialect: Dialect,
        genmove: bool,
    ) -> Result<AnalyzeRequest, GtpError> {
        let usage = if genmove {
            "COLOR [INTERVAL] [KEY VALUE]..."
        } else {
            "[COLOR] [INTERVAL] [KEY VALUE]..."
        };
        let mut request = AnalyzeRequest {
            dialect,
            color: None,
            interval: DEFAULT_INTERVAL,
            ownership: false,
            max_moves: 0,
            min_moves: 0,
        };
        let mut args = command.args.iter().map(String::as_str).peekable();
        if let Some(color) = args.peek().and_then(|a| a.parse::<Color>().ok()) {
            request.color = Some(color);
            args.next();
        } else if genmove {
            return Err(command.usage_error(usage));
        }
        if let Some(interval) = args.peek().and_then(|a| a.parse::<u64>().ok()) {
            request.interval = centiseconds(interval);
            args.next();
        }
        while let Some(key) = args.next() {
            let Some(value) = args.next() else {
                return Err(GtpError::syntax(format!(
                    "'{key}' needs a value; usage: {} {usage}",
                    command.name
                )));
            };
            let number = || {
                value.parse::<u64>().map_err(|_| {
                    GtpError::syntax(format!("{key} needs a whole number, got '{value}'"))
                })
            };
            match key {
                "interval" => request.interval = centiseconds(number()?),
                "maxmoves" => request.max_moves = number()? as usize,
                "minmoves" => request.min_moves = number()? as usize,
                "ownership" if dialect == Dialect::Kata => {
                    request.ownership = value.parse::<bool>().map_err(|_| {
                        GtpError::syntax(format!("ownership is true or false, got '{value}'"))
                    })?;
                }
                "pvVisits" | "movesOwnership" | "ownershipStdev" | "rootInfo"
                    if value == "false" => {}
                _ => {
                    return Err(GtpError::syntax(format!(
                        "unsupported analysis option '{key} {value}' (interval, minmoves, maxmoves{})",
                        if dialect == Dialect::Kata {
                            ", ownership"
                        } else {
                            ""
                        }
                    )));
                }
            }
        }
        // A zero interval would flood the GUI: one report per poll at most.
        request.interval = request.interval.max(Duration::from_millis(10));
        Ok(request)
    }

    /// One `info move …` line per reported move, all on one line as Leela Zero and KataGo
    /// write them; `ownership …` last when asked for.
    pub fn info_line(&self, snapshot: &Snapshot, board: &Board) -> String {
        let mut moves: Vec<&RootMoveStats> = snapshot.root_moves.iter().collect();
        moves.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.win_rate.total_cmp(&a.win_rate))
                .then(b.prior.total_cmp(&a.prior))
        });
        let visited = moves.iter().filter(|m| m.visits > 0).count();
        let mut shown = visited.max(self.min_moves).min(moves.len());
        if self.max_moves > 0 {
            shown = shown.min(self.max_moves);
        }
        let mut line = String::new();
        for (order, stats) in moves.iter().take(shown).enumerate() {
            if order > 0 {
                line.push(' ');
            }
            line.push_str(&self.info(order, stats, board));
        }
        if self.ownership {
            line.push_str(" ownership");
            for value in ownership_rows(board, &snapshot.ownership) {
                line.push_str(&format!(" {value:.3}"));
            }
        }
        line
    }

    fn info(&self, order: usize, stats: &RootMoveStats, board: &Board) -> String {
        let spell = |mv: Option<Point>| match mv {
            Some(p) => board.vertex(p).to_string(),
            None => "pass".to_string(),
        };
        let pv: Vec<String> = if stats.principal_variation.is_empty() {
            vec![spell(stats.mv)]
        } else {
            stats
                .principal_variation
                .iter()
                .map(|&p| spell(Some(p)))
                .collect()
        };
        let lcb = lower_confidence_bound(stats.win_rate, stats.visits);
        let (win_rate, prior, lcb) = match self.dialect {
            Dialect::Leela => (
                per_ten_thousand(stats.win_rate),
                per_ten_thousand(stats.prior),
                per_ten_thousand(lcb),
            ),
            Dialect::Kata => (
                format!("{:.6}", stats.win_rate),
                format!("{:.6}", stats.prior),
                format!("{lcb:.6}"),
            ),
        };
        let utility = match self.dialect {
            Dialect::Leela => String::new(),
            Dialect::Kata => format!(" utility {:.6}", 2.0 * stats.win_rate - 1.0),
        };
        // KataGo's score fields, where KataGo puts them (after the win rate). Leela
        // Zero's lines have none, and Lizzie reads those with a Leela parser: only the
        // kata dialect gets them. Both are our mean playout margin: with no model of
        // score spread, the lead that would make the game even is that mean.
        let score = match self.dialect {
            Dialect::Leela => String::new(),
            Dialect::Kata => format!(
                " scoreMean {:.3} scoreLead {:.3}",
                stats.score_lead, stats.score_lead
            ),
        };
        format!(
            "info move {} visits {}{utility} winrate {win_rate}{score} prior {prior} lcb {lcb} order {order} pv {}",
            spell(stats.mv),
            stats.visits,
            pv.join(" ")
        )
    }
}

fn per_ten_thousand(rate: f32) -> String {
    ((rate.clamp(0.0, 1.0) * 10_000.0).round() as u32).to_string()
}

/// The win rate less two standard errors, so that a GUI ranking by it prefers
/// well-visited moves (Leela Zero's `lcb`).
fn lower_confidence_bound(rate: f32, visits: u64) -> f32 {
    if visits == 0 {
        return 0.0;
    }
    let spread = (rate * (1.0 - rate) / visits as f32).sqrt();
    (rate - 2.0 * spread).clamp(0.0, 1.0)
}

/// Ownership for Black (+1) turned to the side to move's view happens in the caller; here
/// the values go row by row from the top (row 19 on 19×19), left to right, as KataGo's do.
fn ownership_rows(board: &Board, ownership: &[f32]) -> Vec<f32> {
    let size = board.size();
    let mut values = Vec::with_capacity(size * size);
    for row in (0..size).rev() {
        for col in 0..size {
            let p = board.point(Vertex::new(col as u8, row as u8));
            values.push(ownership.get(p.index()).copied().unwrap_or(0.0));
        }
    }
    values
}

/// The snapshot's ownership seen by `color` (+1: `color` owns the point).
pub fn ownership_for(snapshot: &mut Snapshot, color: Color) {
    if color == Color::White {
        for value in &mut snapshot.ownership {
            *value = -*value;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse_command;

    fn request(line: &str, dialect: Dialect) -> AnalyzeRequest {
        let command = parse_command(line).unwrap_or_else(|_| panic!("{line}"));
        AnalyzeRequest::parse(&command, dialect, false).expect("a valid request")
    }

    #[test]
    fn kata_lines_carry_the_score_and_leela_lines_do_not() {
        let board = Board::new(9).expect("9x9");
        let e5 = board.point("E5".parse().expect("vertex"));
        let snapshot = Snapshot {
            root_moves: vec![RootMoveStats {
                mv: Some(e5),
                visits: 40,
                win_rate: 0.75,
                amaf_visits: 0,
                amaf_win_rate: 0.5,
                prior: 0.5,
                score_lead: -3.25,
                principal_variation: vec![e5],
            }],
            playouts: 40,
            ownership: Vec::new(),
        };
        let kata = request("kata-analyze b 10", Dialect::Kata).info_line(&snapshot, &board);
        assert_eq!(
            kata,
            "info move E5 visits 40 utility 0.500000 winrate 0.750000 scoreMean -3.250 \
             scoreLead -3.250 prior 0.500000 lcb 0.613069 order 0 pv E5"
        );
        let leela = request("lz-analyze b 10", Dialect::Leela).info_line(&snapshot, &board);
        assert_eq!(
            leela,
            "info move E5 visits 40 winrate 7500 prior 5000 lcb 6131 order 0 pv E5"
        );
    }
}
