//! The engine's side of a search: a game's position as a [`SearchRequest`] for the
//! player, and searches that show their progress while they run (analysis lines to the
//! controller, GoGui's live graphics on stderr).
//!
//! The player (`player/`) knows boards, not games or sessions; this room joins the two
//! so that `engine.rs`, the dead-stone judgement (`status.rs`) and pondering ask for a
//! search the same way.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::go::analysis::{AnalyzeRequest, ownership_for};
use crate::go::board::{Board, Point};
use crate::go::game::Game;
use crate::go::net::features::HISTORY;
use crate::go::player::{
    self, KeptTrees, Progress, ResignPolicy, SearchLimits, SearchRequest, SearchResult, Snapshot,
};
use crate::go::{Color, MoveVertex};
use crate::protocol::Session;

/// How often GoGui's live graphics are redrawn during a search.
const GFX_INTERVAL: Duration = Duration::from_millis(500);

/// The parts of a search request that describe `game`'s position with `color` to move;
/// the caller sets the budget, the stop test and the policies.
pub(crate) fn position_request<'a>(
    game: &'a Game,
    color: Color,
    root_allowed: &'a (dyn Fn(Point) -> bool + Sync),
    history: &'a [u64],
) -> SearchRequest<'a> {
    SearchRequest {
        board: game.board(),
        to_move: color,
        rules: game.rules(),
        komi: game.komi() + game.rules().white_handicap_compensation(game.handicap()),
        search_komi: None,
        root_allowed,
        history,
        opponent_passed: game
            .last_move()
            .is_some_and(|(c, mv)| c != color && mv == MoveVertex::Pass),
        recent_moves: recent_moves(game),
        move_number: game.move_count() as u32,
        limits: SearchLimits::default(),
        seed: 0,
        threads: 1,
        stop: &never,
        resign: ResignPolicy::never(),
        cleanup: false,
        progress: None,
        net: None,
    }
}

/// `game`'s last [`HISTORY`] moves, the latest first, `None` for a pass or a move not
/// played.
fn recent_moves(game: &Game) -> [Option<Point>; HISTORY] {
    let skip = game.moves().len().saturating_sub(HISTORY);
    let mut recent = [None; HISTORY];
    // Oldest first: the last move ends in slot 0.
    for (_, mv) in game.moves().skip(skip) {
        recent.rotate_right(1);
        recent[0] = match mv {
            MoveVertex::Play(v) => Some(game.board().point(v)),
            MoveVertex::Pass => None,
        };
    }
    recent
}

fn never() -> bool {
    false
}

/// Runs `request` for `color`: with `analysis`, streaming its info lines to the session;
/// else with `live_gfx`, drawing GoGui's live graphics on stderr; else quietly. With
/// `kept`, the search starts from and leaves its trees there.
pub(crate) fn run_search(
    request: SearchRequest<'_>,
    kept: Option<&mut KeptTrees>,
    color: Color,
    analysis: Option<&AnalyzeRequest>,
    live_gfx: bool,
    session: &mut Session<'_>,
) -> SearchResult {
    let board = request.board;
    match analysis {
        Some(analysis) => {
            // A client that can no longer read (its end of the pipe closed) ends the
            // stream's search too: nobody is left to see it.
            let client_gone = AtomicBool::new(session.open_stream().is_err());
            let outer_stop = request.stop;
            let stop = || outer_stop() || client_gone.load(Ordering::Relaxed);
            let request = SearchRequest {
                stop: &stop,
                ..request
            };
            search_reporting(request, kept, analysis.interval, &mut |mut snapshot| {
                if !client_gone.load(Ordering::Relaxed) {
                    ownership_for(&mut snapshot, color);
                    let line = analysis.info_line(&snapshot, board);
                    if session.stream_line(&line).is_err() {
                        client_gone.store(true, Ordering::Relaxed);
                    }
                }
            })
        }
        None if live_gfx => search_reporting(request, kept, GFX_INTERVAL, &mut |snapshot| {
            use std::io::Write;
            let block = gfx_block(&snapshot, board, color);
            let mut err = std::io::stderr().lock();
            // Live graphics are a courtesy: a closed stderr must not stop the search.
            let _ = err.write_all(block.as_bytes()).and_then(|()| err.flush());
        }),
        None => match kept {
            Some(kept) => player::search_keeping(&request, kept),
            None => player::search(&request),
        },
    }
}

/// Runs the search on a scoped thread and hands its snapshots, every `interval`, to `emit`
/// on this thread: the session's writer stays on the thread that owns it. With `kept`,
/// the search starts from and leaves its trees there.
fn search_reporting(
    request: SearchRequest<'_>,
    kept: Option<&mut KeptTrees>,
    interval: Duration,
    emit: &mut dyn FnMut(Snapshot),
) -> SearchResult {
    let (sender, receiver) = std::sync::mpsc::channel::<Snapshot>();
    let report = move |snapshot: Snapshot| {
        // The receiver outlives the search; a failed send only means nobody listens.
        let _ = sender.send(snapshot);
    };
    let request = SearchRequest {
        progress: Some(Progress {
            interval,
            report: &report,
        }),
        ..request
    };
    std::thread::scope(|scope| {
        let search = scope.spawn(|| match kept {
            Some(kept) => player::search_keeping(&request, kept),
            None => player::search(&request),
        });
        // The sender lives as long as the request, so the search's end is watched for.
        while !search.is_finished() {
            if let Ok(snapshot) = receiver.recv_timeout(Duration::from_millis(5)) {
                emit(snapshot);
            }
        }
        let result = match search.join() {
            Ok(result) => result,
            Err(panic) => std::panic::resume_unwind(panic),
        };
        // The reports sent as the search ended (its last state among them) are shown too.
        while let Ok(snapshot) = receiver.try_recv() {
            emit(snapshot);
        }
        result
    })
}

/// GoGui's live graphics (`gogui-gfx:` then gfx commands up to an empty line, on stderr):
/// the best line as variation stones, ownership as influence, a one-line summary.
fn gfx_block(snapshot: &Snapshot, board: &Board, color: Color) -> String {
    let best = snapshot.root_moves.iter().max_by_key(|m| m.visits);
    let mut block = String::from("gogui-gfx:\n");
    if let Some(best) = best {
        let mut var = String::from("VAR");
        let mut mover = color;
        for &p in &best.principal_variation {
            var.push_str(&format!(
                " {} {}",
                mover.letter().to_ascii_lowercase(),
                board.vertex(p)
            ));
            mover = mover.opponent();
        }
        block.push_str(&var);
        block.push('\n');
    }
    let mut influence = String::from("INFLUENCE");
    for p in board.points() {
        let value = snapshot.ownership.get(p.index()).copied().unwrap_or(0.0);
        if value.abs() >= 0.2 {
            influence.push_str(&format!(" {} {value:.2}", board.vertex(p)));
        }
    }
    block.push_str(&influence);
    block.push('\n');
    if let Some(best) = best {
        let mv = best
            .mv
            .map_or_else(|| "pass".to_string(), |p| board.vertex(p).to_string());
        block.push_str(&format!(
            "TEXT {} playouts, best {mv} ({} visits, win rate {:.1}%)\n",
            snapshot.playouts,
            best.visits,
            100.0 * best.win_rate
        ));
    }
    block.push('\n');
    block
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::RuleSet;

    #[test]
    fn recent_moves_are_the_last_five_played_and_a_pass_is_none() {
        let mut game = Game::new(9, RuleSet::Chinese.rules()).expect("9x9");
        assert_eq!(recent_moves(&game), [None; HISTORY]);
        let play = |game: &mut Game, color, v: &str| {
            let mv = MoveVertex::Play(v.parse().expect("test vertex"));
            game.play(color, mv).expect("legal");
        };
        let point = |game: &Game, v: &str| Some(game.board().point(v.parse().expect("vertex")));
        play(&mut game, Color::Black, "D4");
        assert_eq!(
            recent_moves(&game),
            [point(&game, "D4"), None, None, None, None]
        );
        play(&mut game, Color::White, "E5");
        play(&mut game, Color::Black, "C3");
        let (d4, e5, c3) = (point(&game, "D4"), point(&game, "E5"), point(&game, "C3"));
        assert_eq!(recent_moves(&game), [c3, e5, d4, None, None]);
        game.play(Color::White, MoveVertex::Pass).expect("a pass");
        play(&mut game, Color::Black, "F6");
        play(&mut game, Color::White, "G7");
        let (f6, g7) = (point(&game, "F6"), point(&game, "G7"));
        assert_eq!(recent_moves(&game), [g7, f6, None, c3, e5]);
    }
}
