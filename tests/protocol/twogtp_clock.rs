//! Clocks under gogui-twogtp: `time_settings` once a game and never `time_left`, one engine
//! process a side, each told the other's moves with `play`. Every engine must then keep its
//! own account of the time it has used, so that the wall time of all its `genmove`s, as
//! the controller measures it, stays within its main time.
//!
//! The engines search by the clock alone (their node budgets are out of reach), and they
//! measure wall time, so a loaded machine makes them think less, not overrun. The main
//! times are short to keep the tests quick; the engines charge every move a margin for what
//! the controller sees and they cannot (pipes, waiting for a core), which is what holds the
//! bound on a loaded machine.

use std::time::{Duration, Instant};

use crate::support::gtp::GtpChild;

/// The longest any one answer may take: far beyond what a move under these clocks takes,
/// so that only a hung engine fails on it.
const PATIENCE: Duration = Duration::from_secs(120);

/// One engine process, spoken to as gogui-twogtp does.
struct Player(GtpChild);

impl Player {
    fn start(args: &[&str]) -> Player {
        Player(GtpChild::start(args))
    }

    /// Sends `command` and returns the body of its success answer.
    fn ask(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|error| panic!("'{command}' failed: {error}"))
    }

    /// Sends `command`: `Ok(body)` or `Err(message)`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        self.0.ask(command, PATIENCE)
    }
}

/// A game as gogui-twogtp plays it.
struct Match<'a> {
    /// The engine's command line, the same for both sides.
    args: &'a [&'a str],
    /// Sent to both engines before the first move.
    setup: &'a [&'a str],
    /// The side words, the first to move first.
    sides: [&'a str; 2],
    /// Consecutive passes that end the game (Go: 2; a game whose engine passes only when
    /// the game is over: 1).
    passes_to_end: usize,
    max_plies: usize,
}

/// What the controller measured: each side's `genmove` wall time, the plies played, and
/// each ply's time (the first side's plies are the even ones).
struct Played {
    used: [Duration; 2],
    plies: usize,
    took: Vec<Duration>,
}

impl Match<'_> {
    fn play(&self) -> Played {
        let mut players = [Player::start(self.args), Player::start(self.args)];
        for player in &mut players {
            for command in self.setup {
                player.ask(command);
            }
        }
        let mut used = [Duration::ZERO; 2];
        let mut passes = 0;
        let mut plies = 0;
        let mut took = Vec::new();
        while plies < self.max_plies {
            let seat = plies % 2;
            let side = self.sides[seat];
            let asked = Instant::now();
            let answer = players[seat].send(&format!("genmove {side}"));
            used[seat] += asked.elapsed();
            took.push(asked.elapsed());
            // A game over before its last pass (Abalone: six marbles off) refuses the move.
            let answer = match answer {
                Ok(answer) => answer,
                Err(error) if error.contains("over") => break,
                Err(error) => panic!("genmove {side} failed: {error}"),
            };
            plies += 1;
            let answer = answer.to_ascii_lowercase();
            if answer == "resign" {
                break;
            }
            passes = if answer == "pass" { passes + 1 } else { 0 };
            if passes == self.passes_to_end {
                break;
            }
            players[1 - seat].ask(&format!("play {side} {answer}"));
        }
        Played { used, plies, took }
    }
}

/// Plays `game` and checks that each side's `genmove`s took less than `main` seconds.
fn assert_within_main_time(game: &Match<'_>, main: u64) {
    let played = game.play();
    let [first, second] = played.used.map(|used| used.as_secs_f64());
    eprintln!(
        "{:?}: {} plies, {first:.2} s and {second:.2} s of {main} s",
        game.args, played.plies
    );
    assert!(
        played.plies >= 10,
        "the game ended after {} plies",
        played.plies
    );
    for (side, used) in game.sides.iter().zip([first, second]) {
        assert!(
            used < main as f64,
            "{side} used {used:.2} s of a {main} s clock in {} plies ({first:.2} s and {second:.2} s)",
            played.plies
        );
    }
}

#[test]
fn go_keeps_within_its_main_time_without_time_left() {
    const MAIN: u64 = 10;
    let settings = format!("time_settings {MAIN} 0 0");
    assert_within_main_time(
        &Match {
            // The clock alone decides how long a move thinks.
            args: &["go", "--playouts", "0"],
            setup: &["boardsize 9", "clear_board", "komi 7", &settings],
            sides: ["b", "w"],
            passes_to_end: 2,
            max_plies: 200,
        },
        MAIN,
    );
}

#[test]
fn kulami_keeps_within_its_main_time_without_time_left() {
    const MAIN: u64 = 4;
    let settings = format!("time_settings {MAIN} 0 0");
    assert_within_main_time(
        &Match {
            args: &["kulami", "--nodes", "1000000000000"],
            setup: &[&settings],
            sides: ["b", "r"],
            passes_to_end: 1,
            max_plies: 200,
        },
        MAIN,
    );
}

#[test]
fn abalone_keeps_within_its_main_time_without_time_left() {
    // Abalone spreads the clock over some 30 moves whatever the game's length: 80 moves a
    // side took nearly 6 s of a 3 s clock before the engine counted its time.
    const MAIN: u64 = 3;
    let settings = format!("time_settings {MAIN} 0 0");
    assert_within_main_time(
        &Match {
            args: &["abalone", "--nodes", "0"],
            setup: &[&settings],
            sides: ["b", "w"],
            passes_to_end: 1,
            max_plies: 160,
        },
        MAIN,
    );
}

/// Plays `game` under a Fischer clock of `main` seconds and `increment` a move and checks
/// that no side's clock, as the controller keeps it, ever ran out.
fn assert_within_fischer_clock(game: &Match<'_>, main: f64, increment: f64) {
    let played = game.play();
    assert!(
        played.plies >= 10,
        "the game ended after {} plies",
        played.plies
    );
    let mut clocks = [main; 2];
    for (ply, took) in played.took.iter().enumerate() {
        let clock = &mut clocks[ply % 2];
        *clock -= took.as_secs_f64();
        assert!(
            *clock >= 0.0,
            "{}: ply {ply} ran the clock out ({took:?}; {clocks:?} left)",
            game.sides[ply % 2]
        );
        *clock += increment;
    }
    eprintln!("{:?}: {} plies, {clocks:?} left", game.args, played.plies);
}

#[test]
fn kulami_keeps_within_a_fischer_clock_without_time_left() {
    // Two seconds and a fifth a move: a game of 28 moves a side would run out in a few
    // moves without the increment, and each move is allotted less than it.
    assert_within_fischer_clock(
        &Match {
            args: &["kulami", "--nodes", "1000000000000"],
            setup: &["kata-time_settings fischer 2 0.2"],
            sides: ["b", "r"],
            passes_to_end: 1,
            max_plies: 200,
        },
        2.0,
        0.2,
    );
}
