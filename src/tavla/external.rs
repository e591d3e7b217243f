//! gnubg's external player: `hamle tavla --listen PORT` waits on localhost:PORT; in gnubg,
//! `set player 1 external localhost:PORT` connects, and on each of that player's decisions
//! gnubg sends one FIBS board line (see [`super::fibs`]) and reads one answer line: a play
//! (`24/18 13/11`, from the mover's own points, `25` the bar, `0` off; an empty line when no
//! checker can move), `double` or `roll` before rolling, `take` or `drop` when doubled.
//!
//! gnubg writes the board with gnubg's player 1 as "you" (the positive checkers) whichever
//! player is external, ends each line with a NUL after the newline, and puts player 0's
//! score first unless a double is pending; all three are handled here.

use std::io::{self, BufReader, Write};
use std::net::{TcpListener, TcpStream};

use super::board::Side;
use super::fibs::parse_fibs;
use super::game::{MAX_CUBE, Phase, State};
use super::player::{Level, Player};
use crate::protocol::{LineReader, MAX_LINE_BYTES, RawLine};
use crate::text::shorten;

/// The answer to one line from gnubg.
pub fn reply(line: &str, player: &mut Player) -> String {
    let line = line.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    let mut fibs = match parse_fibs(line, Side::Black) {
        Ok(fibs) => fibs,
        Err(error) => return format!("Error: badly formed board ({error})"),
    };
    if !fibs.doubled {
        fibs.score.swap(0, 1);
    }
    let Some(turn) = fibs.turn else {
        return "Error: no side is on roll".into();
    };
    let phase = match (fibs.doubled, fibs.dice) {
        (true, _) => Phase::Doubled { by: turn },
        (false, Some(dice)) => Phase::ToPlay { side: turn, dice },
        (false, None) => Phase::ToRoll(turn),
    };
    let at_point = fibs.match_length > 0 && fibs.score.iter().any(|&p| p + 1 == fibs.match_length);
    let state = State {
        board: fibs.board,
        phase,
        cube: fibs.cube,
        cube_owner: fibs.cube_owner,
        score: fibs.score,
        crawford_game: fibs.crawford,
        crawford_done: fibs.crawford || at_point,
        games: 0,
    };
    player.set_match(fibs.match_length, true);
    match phase {
        Phase::Doubled { by } => {
            if player.should_take(&state, by.other()) {
                "take".into()
            } else {
                "drop".into()
            }
        }
        Phase::ToRoll(side) => {
            let may =
                !fibs.crawford && fibs.cube_owner != Some(side.other()) && fibs.cube < MAX_CUBE;
            if may && player.should_double(&state, side) {
                "double".into()
            } else {
                "roll".into()
            }
        }
        Phase::ToPlay { side, dice } => {
            let play = player.choose_play(&fibs.board, side, dice);
            play.steps()
                .iter()
                .map(|s| format!("{}/{}", s.from, s.to))
                .collect::<Vec<_>>()
                .join(" ")
        }
        Phase::Opening | Phase::Over(_) => "Error: no decision to make".into(),
    }
}

/// Answers one connection until gnubg closes it. A line over
/// [`MAX_LINE_BYTES`] is answered `Error: line too long …` and skipped; bytes that are not
/// UTF-8 are replaced, so that the board they garble is refused as badly formed.
pub fn serve_connection(stream: TcpStream, level: Level) -> io::Result<()> {
    let mut player = Player::new(level);
    let mut writer = stream.try_clone()?;
    for line in LineReader::new(BufReader::new(stream)) {
        let answer = match line? {
            RawLine::Text(text) => {
                let text = text.trim_matches(|c: char| c == '\0' || c.is_whitespace());
                if text.is_empty() {
                    continue;
                }
                let answer = reply(text, &mut player);
                tracing::debug!(board = %shorten(text), %answer, "external");
                answer
            }
            RawLine::TooLong(_) => {
                format!(
                    "Error: line too long (a board line may hold at most {MAX_LINE_BYTES} bytes)"
                )
            }
        };
        writer.write_all(answer.as_bytes())?;
        writer.write_all(b"\n")?;
        writer.flush()?;
    }
    Ok(())
}

/// Listens on localhost:`port`, serves the first connection, and returns when gnubg closes
/// it (a new `set player … external` needs a new `hamle tavla --listen`).
pub fn listen(port: u16, level: Level) -> io::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port))?;
    tracing::info!("waiting for gnubg on localhost:{port}");
    serve_listener(&listener, level)
}

/// Serves the first connection `listener` accepts.
pub fn serve_listener(listener: &TcpListener, level: Level) -> io::Result<()> {
    let (stream, peer) = listener.accept()?;
    tracing::info!("gnubg connected from {peer}");
    serve_connection(stream, level)
}
