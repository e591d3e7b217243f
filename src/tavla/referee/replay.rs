//! Reading an arena record back: [`replay_record`] takes the `.mat` match that
//! [`TavlaReferee::record`] wrote and replays it through a referee under our rules, every
//! roll, play and cube action judged again.
//!
//! The record leaves some things out, which the replay infers:
//! - the opening roll: the first play of a game is the opening winner's, with both opening
//!   dice (the higher is the winner's, so the loser's die is the other one);
//! - the rolls: each play carries its dice (a roll with no legal play is written as its
//!   dice alone, `44:`); a roll made but not yet played when the record stops is lost;
//! - the `no_double` answers: the referee asked the side to roll for its cube decision
//!   whenever the cube was open to it, so a roll without a double before it was one.
//!
//! The dice are taken as the record shows them (the high die first: the order they were
//! rolled in is not written). The record does not name the pair seed, so the replayed
//! referee's roller is not the arena's: it judges the record, it does not go on rolling.

use super::{Referee, TavlaMatchRules, TavlaReferee};
use crate::contract::Replayed;
use crate::contract::record::{find_tag, read_tags};
use crate::tavla::board::Side;
use crate::tavla::dice::Dice;
use crate::tavla::game::Phase;
use crate::tavla::mat::{MatAction, MatEntry, MatGame, read_mat};
use crate::tavla::notation::{PlayError, parse_play};

/// Reads a record written by [`TavlaReferee::record`] and replays it under the rules; fails
/// naming the first problem (a bad tag, an unreadable or illegal entry with its line, a
/// score or a `Result` that the replay does not reach).
pub fn replay_record(text: &str) -> Result<Replayed<TavlaReferee>, String> {
    // The tags are `; [Key "value"]` comment lines of the `.mat` file.
    let tag_lines: Vec<&str> = text
        .lines()
        .filter_map(|line| line.strip_prefix("; "))
        .collect();
    let tags = read_tags(&tag_lines.join("\n"));
    let tag = |key: &str| find_tag(&tags, key);
    let on_off = |key: &str| match tag(key)?.as_str() {
        "On" => Ok(true),
        "Off" => Ok(false),
        other => Err(format!("tag {key} is '{other}', not On or Off")),
    };
    let cube = on_off("Cube")?;
    let crawford = on_off("Crawford")?;
    let result = tag("Result")?;
    if text.lines().any(|line| line == "; no game was started") {
        return Err("the record holds no game: the match never started".into());
    }
    let mat = read_mat(text)?;
    if crawford != (mat.length > 0) {
        return Err(format!(
            "tag Crawford is {} but the referee plays a {} point match with Crawford {}",
            tag("Crawford")?,
            mat.length,
            if mat.length > 0 { "On" } else { "Off" }
        ));
    }
    // The arena's `--points` range.
    if mat.length > 64 {
        return Err(format!(
            "a {} point match: the arena plays matches of 0 to 64 points",
            mat.length
        ));
    }
    let rules = TavlaMatchRules {
        points: mat.length,
        cube,
    };
    let mut replay = Replay {
        referee: TavlaReferee::new(rules, 0),
    };
    for (index, game) in mat.games.iter().enumerate() {
        let last = index + 1 == mat.games.len();
        replay.game(game, last)?;
    }
    check_result(&replay.referee, &result)?;
    Ok(Replayed {
        referee: replay.referee,
        result,
        comment: tag("Comment").unwrap_or_default(),
    })
}

/// The `Result` tag must be the replay's: the natural end when the match is over, else an
/// unfinished match's (`*`, a loss such as `W+F`, or the adjudication at the move cap).
fn check_result(referee: &TavlaReferee, result: &str) -> Result<(), String> {
    if let Some(end) = referee.natural_end() {
        if end.result != result {
            return Err(format!(
                "tag Result is '{result}' but the replayed match ends {}",
                end.result
            ));
        }
        return Ok(());
    }
    let loss = matches!(result.as_bytes(), [b'W' | b'B', b'+', b'R' | b'F' | b'T']);
    if result == "*" || loss || result == referee.adjudicate().result {
        return Ok(());
    }
    Err(format!(
        "tag Result is '{result}' but the replayed match is unfinished at {} (a loss W+F, \
         the adjudication {} or * would fit)",
        referee.score_text(),
        referee.adjudicate().result
    ))
}

/// A referee driven by a record, keeping its bookkeeping as [`Referee::interlude`] and
/// [`Referee::apply`] would have.
struct Replay {
    referee: TavlaReferee,
}

impl Replay {
    /// Replays one game: its score line, its opening, its entries, its end.
    fn game(&mut self, game: &MatGame, last: bool) -> Result<(), String> {
        let score = self.referee.game.state().score;
        if game.score != score {
            return Err(format!(
                "line {}: this game starts at {}-{} but the replay stands at {}-{}",
                game.line, game.score[0], game.score[1], score[0], score[1]
            ));
        }
        let Some(first) = game.actions.first() else {
            // The record stops after the opening roll, which only the seed knew.
            if last {
                return Ok(());
            }
            return Err(format!("line {}: a game with no move", game.line));
        };
        self.start(first)?;
        for action in &game.actions {
            self.action(action).map_err(|why| {
                format!(
                    "line {}: {}'s '{}': {why}",
                    action.line, action.side, action.text
                )
            })?;
        }
        if !last && !matches!(self.referee.game.phase(), Phase::Over(_)) {
            let line = game.actions.last().map_or(game.line, |a| a.line);
            return Err(format!(
                "line {line}: the game is not over but another one follows"
            ));
        }
        Ok(())
    }

    /// Starts the next game with the opening roll that `first`, the game's first entry,
    /// shows: the opening winner's play with both opening dice, the higher one its own.
    fn start(&mut self, first: &MatAction) -> Result<(), String> {
        let at = |why: String| {
            format!(
                "line {}: {}'s '{}': {why}",
                first.line, first.side, first.text
            )
        };
        let MatEntry::Play { dice, .. } = first.entry else {
            return Err(at("a game opens with the opening winner's play".into()));
        };
        if dice.is_double() {
            return Err(at("the opening roll has two different dice".into()));
        }
        let (high, low) = (dice.high(), dice.low());
        let (white, black) = match first.side {
            Side::White => (high, low),
            Side::Black => (low, high),
        };
        let referee = &mut self.referee;
        referee.started += 1;
        referee
            .game
            .start_game(white, black)
            .map_err(|why| at(why.to_string()))?;
        referee.cube_decided = false;
        Ok(())
    }

    /// Judges one entry.
    fn action(&mut self, action: &MatAction) -> Result<(), String> {
        let side = action.side;
        let referee = &mut self.referee;
        match &action.entry {
            MatEntry::Play { dice, steps } => return self.play(side, *dice, steps),
            MatEntry::Double { cube } => {
                let offered = referee.game.state().cube * 2;
                referee.game.double(side).map_err(|e| e.to_string())?;
                if *cube != offered {
                    return Err(format!("the cube goes to {offered}, not {cube}"));
                }
            }
            MatEntry::Take => {
                referee.game.take(side).map_err(|e| e.to_string())?;
                // The doubler rolls next, its cube decision made.
                referee.cube_decided = true;
            }
            MatEntry::Drop => {
                referee.game.drop_cube(side).map_err(|e| e.to_string())?;
            }
            MatEntry::Win { points } => {
                return match referee.game.phase() {
                    Phase::Over(end) if end.winner == side && end.points == *points => Ok(()),
                    Phase::Over(end) => Err(format!(
                        "the replay has {} winning {} point(s)",
                        end.winner, end.points
                    )),
                    _ => Err("the game is not over".into()),
                };
            }
        }
        referee.decisions += 1;
        Ok(())
    }

    /// Rolls `written` for `side` when it is to roll (its unwritten `no_double` first, when
    /// the cube was open to it), then plays `steps`.
    fn play(&mut self, side: Side, written: Dice, steps: &str) -> Result<(), String> {
        let referee = &mut self.referee;
        if referee.game.phase() == Phase::ToRoll(side) {
            // The referee asked for a cube decision first: the answer was no_double.
            if referee.cube_question(side) {
                referee.decisions += 1;
            }
            referee
                .game
                .roll(side, written)
                .map_err(|e| e.to_string())?;
            referee.cube_decided = false;
        }
        let game = &mut referee.game;
        let (mover, dice, legal) = match game.phase() {
            Phase::Over(_) => return Err("the game is over".into()),
            Phase::ToRoll(other) => return Err(format!("{other} is to roll")),
            Phase::Doubled { by } => {
                return Err(format!("{by} doubled, {} takes or drops", by.other()));
            }
            _ => game.legal().map_err(|e| e.to_string())?,
        };
        if mover != side {
            return Err(format!("{mover} is to play, not {side}"));
        }
        if (dice.high(), dice.low()) != (written.high(), written.low()) {
            return Err(format!("{side} is to play {dice}, not {written}"));
        }
        let board = *game.board();
        let play = parse_play(steps, &board, side, &legal).map_err(|e| match e {
            PlayError::NotLegal(_) => format!("not a legal play of {dice}"),
            other => other.to_string(),
        })?;
        game.play(side, play).map_err(|e| e.to_string())?;
        // The `*`s must be the hits: each sends one checker to the bar.
        let opponent = side.other();
        let hits = game
            .board()
            .bar(opponent)
            .saturating_sub(board.bar(opponent));
        let marked = steps.matches('*').count();
        if usize::from(hits) != marked {
            return Err(format!("{marked} hit(s) marked but {hits} made"));
        }
        referee.decisions += 1;
        Ok(())
    }
}
