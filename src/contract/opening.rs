//! Opening suites, in no game's words: an opening is one entry of a suite file, read by its
//! game ([`GameSettings::opening_referee`](super::GameSettings::opening_referee)) into a
//! referee whose game starts from it.
//!
//! Every game writes its openings as moves from its start (Go may add handicap stones): the
//! referee judges each move as if an engine had answered it, and both engines are told the
//! moves right after the game's setup commands, with the same `play` commands a game
//! forwards. So engines need no setup command of their own (GNU Go, gnubg and
//! abalone-boai take them as they take any game), and records show the opening as the
//! game's first moves, which `--resume` replays like any other.

use super::record::MoveCost;
use super::{IllegalMove, LossKind, Outcome, Referee, Seat, Turn};

/// The openings of a suite file's text, each with the line it starts on (from 1): one a
/// line, blank lines and `#` comments skipped, the line trimmed.
pub fn split_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .enumerate()
        .map(|(index, line)| (index + 1, line.trim()))
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(number, line)| (number, line.to_owned()))
        .collect()
}

/// The first `plies` of `moves` as a suite line, words parted by one space (what each
/// game's `of_record` gives `hamle match openings`); fails when `source` (`the record`,
/// `set 1`) has fewer.
pub fn first_plies<M: std::fmt::Display>(
    moves: impl IntoIterator<Item = M>,
    plies: usize,
    source: &str,
) -> Result<String, String> {
    let words: Vec<String> = moves
        .into_iter()
        .take(plies)
        .map(|mv| mv.to_string())
        .collect();
    if words.len() < plies {
        return Err(format!("{source} has only {} moves", words.len()));
    }
    Ok(words.join(" "))
}

/// Plays `moves` on `referee` from its start, each by the side to move as if its engine
/// had answered it, and returns a referee whose setup commands end with `commands` (e.g.
/// Go's `set_free_handicap`) and the forwarded moves. Fails naming the first move the
/// rules refuse, and refuses an opening after which the game is over.
pub fn play_opening(
    mut referee: Box<dyn Referee>,
    commands: Vec<String>,
    moves: &[&str],
) -> Result<Box<dyn Referee>, String> {
    let mut told = commands;
    let before = referee.moves_played();
    for (number, answer) in moves.iter().enumerate() {
        if referee.natural_end().is_some() {
            return Err(format!(
                "the game is over after move {number}, before '{answer}'"
            ));
        }
        let seat = referee.seat_to_move();
        match referee.apply(seat, answer) {
            Ok(Turn::Played { forward }) => {
                if !forward.is_empty() {
                    told.push(forward);
                }
            }
            Ok(Turn::Resigned) => {
                return Err(format!("move {}: '{answer}' is no move", number + 1));
            }
            Err(illegal) => return Err(format!("move {}: {illegal}", number + 1)),
        }
    }
    if referee.natural_end().is_some() {
        return Err(format!(
            "the game is over after its {} moves: an opening must leave a game to play",
            moves.len()
        ));
    }
    let opening_moves = referee.moves_played() - before;
    Ok(Box::new(Opened {
        inner: referee,
        told,
        opening_moves,
    }))
}

/// A referee after an opening: the game's own, whose setup commands are followed by what
/// tells the engines the opening.
struct Opened {
    inner: Box<dyn Referee>,
    told: Vec<String>,
    /// How many of the game's moves the opening played: no engine chose them, so the
    /// arena's costs (one a move it asked for) start after them.
    opening_moves: usize,
}

impl Referee for Opened {
    fn setup_commands(&self) -> Vec<String> {
        let mut commands = self.inner.setup_commands();
        commands.extend(self.told.iter().cloned());
        commands
    }
    fn interlude(&mut self) -> Vec<String> {
        self.inner.interlude()
    }
    fn seat_to_move(&self) -> Seat {
        self.inner.seat_to_move()
    }
    fn move_request(&self, seat: Seat) -> String {
        self.inner.move_request(seat)
    }
    fn apply(&mut self, seat: Seat, answer: &str) -> Result<Turn, IllegalMove> {
        self.inner.apply(seat, answer)
    }
    fn natural_end(&self) -> Option<Outcome> {
        self.inner.natural_end()
    }
    fn adjudicate(&self) -> Outcome {
        self.inner.adjudicate()
    }
    fn loss_of(&self, seat: Seat, how: LossKind) -> Outcome {
        self.inner.loss_of(seat, how)
    }
    fn moves_played(&self) -> usize {
        self.inner.moves_played()
    }
    fn clock_side(&self, seat: Seat) -> Option<String> {
        self.inner.clock_side(seat)
    }
    fn score_query(&self) -> Option<&'static str> {
        self.inner.score_query()
    }
    fn read_score(&self, answer: &str) -> Option<(Option<Seat>, f64)> {
        self.inner.read_score(answer)
    }
    fn legal_moves(&self) -> Option<Vec<String>> {
        self.inner.legal_moves()
    }
    fn record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
    ) -> (String, &'static str) {
        self.inner.record(result, players, comment)
    }
    fn timed_record(
        &self,
        result: Option<&str>,
        players: [&str; 2],
        comment: &str,
        costs: &[MoveCost],
    ) -> (String, &'static str) {
        let mut all = vec![MoveCost::default(); self.opening_moves];
        all.extend_from_slice(costs);
        self.inner.timed_record(result, players, comment, &all)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_lines_skip_blanks_and_comments() {
        let text = "# a suite\n\n  c3 d4  \n#x\ne5\n";
        assert_eq!(
            split_lines(text),
            vec![(3, "c3 d4".to_owned()), (5, "e5".to_owned())]
        );
    }
}
