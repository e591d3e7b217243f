//! What `hamle tavla` tells about the match: gnubg's text board (`showboard`), the
//! `match_status` line, the `final_result` line and gnubg's `POSITION_ID:MATCH_ID` pair.
//! Read-only views of a [`Game`]; the engine only forwards them.

use std::fmt::Write as _;

use super::board::{Board, Side};
use super::game::{Game, GameEnd, Phase};
use super::ids::{match_id, position_id};

/// `POSITION_ID:MATCH_ID`, gnubg's pair.
pub fn position_key(game: &Game) -> String {
    let key = game.match_key();
    format!(
        "{}:{}",
        position_id(game.board(), key.dice_owner),
        match_id(&key)
    )
}

/// The `final_result` line of a finished game, with the score and the match's winner.
pub fn result_text(game: &Game, end: GameEnd) -> String {
    let state = game.state();
    let how = match end.kind {
        Some(kind) => format!("{} {}", end.winner, kind.name()),
        None => format!("{} drop", end.winner),
    };
    let mut text = format!(
        "{how} {} points; score white {} black {}",
        end.points, state.score[0], state.score[1]
    );
    if let Some(winner) = game.match_winner() {
        let _ = write!(text, "; {winner} wins the match");
    }
    text
}

/// The `match_status` line: length, score, games, cube, Crawford state and the phase.
pub fn match_status(game: &Game) -> String {
    let state = game.state();
    let rules = game.rules();
    let mut text = if rules.length == 0 {
        "money".to_string()
    } else {
        format!("match to {}", rules.length)
    };
    let _ = write!(
        text,
        "; score white {} black {}; games {}; cube {}",
        state.score[0], state.score[1], state.games, state.cube
    );
    match state.cube_owner {
        Some(owner) => {
            let _ = write!(text, " owned by {owner}");
        }
        None => text.push_str(" centred"),
    }
    if rules.length > 0 {
        text.push_str(if state.crawford_game {
            "; crawford game"
        } else if state.crawford_done {
            "; post-crawford"
        } else if rules.crawford {
            "; crawford rule on"
        } else {
            "; crawford rule off"
        });
    }
    text.push_str("; ");
    text.push_str(&phase_text(game));
    text
}

/// What the game waits for, in words (the end of `match_status` and of the text board).
fn phase_text(game: &Game) -> String {
    match game.phase() {
        Phase::Opening => match game.match_winner() {
            Some(winner) => format!("{winner} won the match"),
            None => "no game started (new_game)".into(),
        },
        Phase::ToRoll(side) => format!("{side} to roll"),
        Phase::Doubled { by } => format!("{by} doubled, {} to take or drop", by.other()),
        Phase::ToPlay { side, dice } => format!("{side} to play {dice}"),
        Phase::Over(end) => match game.match_winner() {
            Some(winner) => format!("game over, {winner} won the match"),
            None => format!("game over, {} won {} points", end.winner, end.points),
        },
    }
}

/// gnubg's text board: Black (X) plays from the top right round to the bottom right.
pub fn showboard(game: &Game) -> String {
    let board = game.board();
    let key = position_key(game);
    let (pid, mid) = key.split_once(':').unwrap_or((&key, ""));
    let mut lines = vec![
        format!(" Position ID: {pid}"),
        format!(" Match ID   : {mid}"),
        " +13-14-15-16-17-18------19-20-21-22-23-24-+".to_string(),
    ];
    // Columns of each half, as black numbers its points: top from 13 to 24, bottom from 12
    // to 1. Each half shows five rows, the top one growing down, the bottom one up.
    let top_left = [13, 14, 15, 16, 17, 18];
    let top_right = [19, 20, 21, 22, 23, 24];
    let bottom_left = [12, 11, 10, 9, 8, 7];
    let bottom_right = [6, 5, 4, 3, 2, 1];
    for depth in 0..5u8 {
        lines.push(format!(
            "{} {}",
            board_row(board, top_left, top_right, depth, Side::White),
            off_cells(board, Side::White, depth)
        ));
    }
    lines.push(" |                  |BAR|                  |".to_string());
    for depth in (0..5u8).rev() {
        lines.push(format!(
            "{} {}",
            board_row(board, bottom_left, bottom_right, depth, Side::Black),
            off_cells(board, Side::Black, depth)
        ));
    }
    lines.push(" +12-11-10--9--8--7-------6--5--4--3--2--1-+".to_string());
    lines.extend(board_footer(game));
    format!("\n{}", lines.join("\n"))
}

fn glyph(side: Side) -> char {
    if side == Side::White { 'O' } else { 'X' }
}

/// The cell at row `depth` (0 nearest the edge) of a stack of `n` checkers drawn as `c`:
/// rows 0–3 show a checker each, row 4 shows the fifth, or the count (in hex) above five.
fn stack_cell(n: u8, c: char, depth: u8) -> char {
    if depth < 4 {
        if n > depth { c } else { ' ' }
    } else if n > 5 {
        std::char::from_digit(u32::from(n), 16).map_or('?', |d| d.to_ascii_uppercase())
    } else if n == 5 {
        c
    } else {
        ' '
    }
}

/// The cell of black's own `point` at row `depth`: black's checkers or white's.
fn point_cell(board: &Board, point: usize, depth: u8) -> char {
    let black = board.at(Side::Black, point);
    let white = board.at(Side::White, 25 - point);
    let (n, c) = if black > 0 {
        (black, 'X')
    } else {
        (white, 'O')
    };
    stack_cell(n, c, depth)
}

/// One row of the board: six points, the bar (with `bar_side`'s checkers), six points.
fn board_row(
    board: &Board,
    points_left: [usize; 6],
    points_right: [usize; 6],
    depth: u8,
    bar_side: Side,
) -> String {
    let mut line = String::from(" |");
    for p in points_left {
        line.push(' ');
        line.push(point_cell(board, p, depth));
        line.push(' ');
    }
    line.push_str("| ");
    line.push(stack_cell(board.bar(bar_side), glyph(bar_side), depth));
    line.push_str(" |");
    for p in points_right {
        line.push(' ');
        line.push(point_cell(board, p, depth));
        line.push(' ');
    }
    line.push('|');
    line
}

/// Row `row` of `side`'s borne-off checkers beside the board: three columns of five.
fn off_cells(board: &Board, side: Side, row: u8) -> String {
    let n = board.borne_off(side);
    let c = glyph(side);
    (0..3u8)
        .map(|col| if n > 5 * col + row { c } else { ' ' })
        .collect()
}

/// The lines under the board: each side's score, pips and checkers off, then the match.
fn board_footer(game: &Game) -> [String; 3] {
    let state = game.state();
    let board = &state.board;
    let rules = game.rules();
    let length = if rules.length == 0 {
        "money".to_string()
    } else {
        format!("{} point match", rules.length)
    };
    let owner = state
        .cube_owner
        .map_or_else(|| "centred".to_string(), |s| format!("owned by {s}"));
    [
        format!(
            " O: white  score {}  pips {}  off {}",
            state.score[0],
            board.pip_count(Side::White),
            board.borne_off(Side::White)
        ),
        format!(
            " X: black  score {}  pips {}  off {}",
            state.score[1],
            board.pip_count(Side::Black),
            board.borne_off(Side::Black)
        ),
        format!(
            " {length}; cube {} {owner}; {}",
            state.cube,
            phase_text(game)
        ),
    ]
}
