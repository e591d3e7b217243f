//! Differential test against GNU Go over GTP.
//!
//! Seeded random games, with deliberate illegal attempts (occupied points, suicides, ko
//! recaptures, repeated positions), are played on our `Game` and in GNU Go side by side.
//! After every attempt GNU Go's acceptance (`=` or `? illegal move`) must match our
//! legality; after every move the stones (`list_stones`) and capture counts (`captures`)
//! must match. Games end when neither side has a move left that does not fill its own
//! eye, so every stone on the board is alive: when GNU Go agrees that no stone is dead,
//! its `final_score` under Chinese rules must match our area count.
//!
//! `HAMLE_DIFF_GAMES` sets the games per variant on 5×5, 7×7 and 9×9 (half as many
//! on 13×13, a quarter on 19×19; default 100);
//! `HAMLE_GNUGO` the GNU Go binary (default: where Debian's `gnugo` package puts it).

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use hamle::go::board::Board;
use hamle::go::game::{Game, IllegalMove, fixed_handicap_vertices};
use hamle::go::rules::{HandicapBonus, KoRule, Rules, Scoring};
use hamle::go::{Color, MoveVertex, Vertex};
use rand::seq::IndexedRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::peers::{GNUGO, require_file};

const SIZES: [usize; 5] = [5, 7, 9, 13, 19];
const DEFAULT_GAMES: usize = 100;

fn games_per_size(size: usize) -> usize {
    let base = std::env::var("HAMLE_DIFF_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(DEFAULT_GAMES);
    // 19×19 games are long and GNU Go's scoring of them slow: fewer of them.
    match size {
        19 => base.div_ceil(4),
        13 => base.div_ceil(2),
        _ => base,
    }
}

fn gnugo_path() -> String {
    std::env::var("HAMLE_GNUGO").unwrap_or_else(|_| GNUGO.to_owned())
}

/// A GNU Go process in GTP mode.
struct GnuGo {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl GnuGo {
    fn start(options: &[&str]) -> GnuGo {
        let path = gnugo_path();
        require_file(
            &path,
            "GNU Go",
            "apt-get install -y gnugo, or point HAMLE_GNUGO at the binary",
        );
        let mut child = Command::new(&path)
            .args(["--mode", "gtp"])
            .args(options)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot run GNU Go at {path}: {e}"));
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = BufReader::new(child.stdout.take().expect("piped stdout"));
        GnuGo {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one command; Ok(answer) for `=`, Err(message) for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").expect("write to GNU Go");
        self.stdin.flush().expect("flush to GNU Go");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read from GNU Go");
            assert!(n > 0, "GNU Go closed its output after `{command}`");
            let line = line.trim_end_matches(['\r', '\n']);
            if line.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(line);
        }
        let (status, rest) = answer.split_at(1);
        let rest = rest.trim().to_owned();
        match status {
            "=" => Ok(rest),
            _ => Err(rest),
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.send(command)
            .unwrap_or_else(|e| panic!("GNU Go refused `{command}`: {e}"))
    }
}

impl Drop for GnuGo {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// One pairing of our rules with GNU Go options.
struct Variant {
    name: &'static str,
    rules: Rules,
    options: &'static [&'static str],
}

fn variant_rules(ko: KoRule, suicide_allowed: bool) -> Rules {
    Rules {
        // GNU Go's Chinese counting gives White one point a handicap stone.
        handicap_bonus: HandicapBonus::N,
        ..Rules::custom(ko, Scoring::Area, suicide_allowed)
    }
}

#[derive(Default)]
struct Tally {
    games: usize,
    moves: usize,
    attempts: usize,
    illegal_attempts: usize,
    scores_compared: usize,
    scores_skipped: usize,
    capped: usize,
    /// Suicides that repeat a position: GNU Go misses these superko violations.
    gnugo_suicide_superko: usize,
    /// Our reasons for the attempts both sides refused.
    reasons: std::collections::BTreeMap<String, usize>,
    disagreements: Vec<String>,
}

fn stones_of(board: &Board, color: Color) -> Vec<String> {
    let mut v: Vec<Vertex> = board
        .points()
        .filter(|&p| board.get(p) == Some(color))
        .map(|p| board.vertex(p))
        .collect();
    v.sort();
    v.iter().map(ToString::to_string).collect()
}

fn parse_list(answer: &str) -> Vec<String> {
    let mut v: Vec<Vertex> = answer
        .split_whitespace()
        .map(|s| s.parse().expect("GNU Go vertex"))
        .collect();
    v.sort();
    v.iter().map(ToString::to_string).collect()
}

/// Parses `B+3.5`, `W+0.5` or `0` into Black's margin.
fn parse_score(answer: &str) -> Option<f32> {
    if answer == "0" {
        return Some(0.0);
    }
    let (who, points) = answer.split_once('+')?;
    let points: f32 = points.parse().ok()?;
    match who {
        "B" => Some(points),
        "W" => Some(-points),
        _ => None,
    }
}

/// Plays games until done; records every disagreement.
struct Match<'a> {
    gnugo: &'a mut GnuGo,
    game: Game,
    seen: HashSet<u64>,
    record: Vec<String>,
    rng: ChaCha8Rng,
}

impl Match<'_> {
    fn describe(&self, what: &str) -> String {
        format!(
            "{what}\nmoves: {}\n{}",
            self.record.join(" "),
            self.game.board()
        )
    }

    /// Sends `color mv` to GNU Go and compares its verdict with ours. Returns whether the
    /// move was played (by both), or Err on disagreement.
    fn attempt(&mut self, color: Color, mv: MoveVertex, tally: &mut Tally) -> Result<bool, String> {
        tally.attempts += 1;
        let ours = self.game.legality(color, mv);
        let theirs = self.gnugo.send(&format!("play {color} {mv}"));
        match (ours, theirs) {
            (Ok(()), Ok(_)) => {
                self.game.play(color, mv).map_err(|e| e.to_string())?;
                self.record.push(format!("{}{mv}", color.letter()));
                self.seen.insert(self.game.board().hash());
                tally.moves += 1;
                self.compare_position()?;
                Ok(true)
            }
            (Err(reason), Err(_)) => {
                tally.illegal_attempts += 1;
                *tally.reasons.entry(reason.to_string()).or_default() += 1;
                Ok(false)
            }
            (Ok(()), Err(e)) => {
                Err(self.describe(&format!("{color} {mv}: legal for us, GNU Go says `{e}`")))
            }
            (Err(IllegalMove::Superko), Ok(_)) if self.is_suicide(color, mv) => {
                // GNU Go 3.8 checks superko by trying the move with `do_play_move`,
                // which assumes no suicide: the suicided stones stay in the hash it
                // compares, so a suicide that repeats a position passes. The rule
                // (and GNU Go's own description of it) forbids the repetition.
                tally.gnugo_suicide_superko += 1;
                self.gnugo.ok("undo");
                self.compare_position()?;
                Ok(false)
            }
            (Err(reason), Ok(_)) => Err(self.describe(&format!(
                "{color} {mv}: illegal for us ({reason}), GNU Go played it"
            ))),
        }
    }

    fn is_suicide(&self, color: Color, mv: MoveVertex) -> bool {
        let board = self.game.board();
        match mv {
            MoveVertex::Play(v) => board.is_suicide(color, board.point(v)),
            MoveVertex::Pass => false,
        }
    }

    fn compare_position(&mut self) -> Result<(), String> {
        for color in Color::BOTH {
            let theirs = parse_list(&self.gnugo.ok(&format!("list_stones {color}")));
            let ours = stones_of(self.game.board(), color);
            if theirs != ours {
                return Err(self.describe(&format!(
                    "{color} stones differ: GNU Go {theirs:?}, ours {ours:?}"
                )));
            }
            let captures: u32 = self
                .gnugo
                .ok(&format!("captures {color}"))
                .parse()
                .map_err(|_| "bad captures answer".to_owned())?;
            if captures != self.game.prisoners(color) {
                return Err(self.describe(&format!(
                    "{color} captures: GNU Go {captures}, ours {}",
                    self.game.prisoners(color)
                )));
            }
        }
        Ok(())
    }

    /// A move that does not fill the mover's own eye; positions seen before are avoided
    /// (so that simple-ko games end) except now and then.
    fn policy_moves(&mut self, color: Color) -> Vec<MoveVertex> {
        let board = self.game.board();
        let allow_repeat = self.rng.random_bool(0.05);
        self.game
            .legal_moves(color)
            .into_iter()
            .filter(|&mv| match mv {
                MoveVertex::Pass => false,
                MoveVertex::Play(v) => {
                    let p = board.point(v);
                    !board.is_eye_like(color, p)
                        && (allow_repeat || !self.seen.contains(&board.hash_after(color, p)))
                }
            })
            .collect()
    }

    /// Moves worth trying because the rules have something to say about them.
    fn interesting_attempts(&mut self, color: Color) -> Vec<MoveVertex> {
        let board = self.game.board();
        let mut out = Vec::new();
        if let Some((banned, v)) = self.game.ko()
            && banned == color
        {
            out.push(MoveVertex::Play(v));
        }
        for p in board.points() {
            let v = board.vertex(p);
            let interesting = if board.is_empty_point(p) {
                board.is_suicide(color, p) || self.seen.contains(&board.hash_after(color, p))
            } else {
                self.rng.random_bool(0.01)
            };
            if interesting {
                out.push(MoveVertex::Play(v));
            }
        }
        out
    }

    fn play_game(&mut self, tally: &mut Tally) -> Result<(), String> {
        let size = self.game.size();
        let cap = size * size * 4;
        let mut plies = 0;
        while !self.game.is_over() {
            if plies >= cap {
                tally.capped += 1;
                return Ok(());
            }
            // GTP lets a colour move twice in a row; try that now and then. Not under
            // situational superko, where "the player to move" then means different
            // things: the opponent of the last mover for us, whoever happened to move
            // next for GNU Go.
            // Never right after a pass, so that the game still ends with both passing.
            let color = if self.game.rules().ko != KoRule::SituationalSuperko
                && self.game.consecutive_passes() == 0
                && self.rng.random_bool(0.03)
            {
                self.game.to_move().opponent()
            } else {
                self.game.to_move()
            };
            let mut played = false;
            let attempts = self.interesting_attempts(color);
            for _ in 0..self.rng.random_range(0..=3) {
                let Some(&mv) = attempts.choose(&mut self.rng) else {
                    break;
                };
                // Legal attempts become the move only when they suit the policy; legal
                // ones that do not are not sent (they would derail the game).
                if self.game.is_legal(color, mv) && !self.policy_moves(color).contains(&mv) {
                    continue;
                }
                if self.attempt(color, mv, tally)? {
                    played = true;
                    break;
                }
            }
            if !played {
                let mv = self
                    .policy_moves(color)
                    .choose(&mut self.rng)
                    .copied()
                    .unwrap_or(MoveVertex::Pass);
                if !self.attempt(color, mv, tally)? {
                    return Err(self.describe(&format!("{color} {mv} refused by both")));
                }
            }
            plies += 1;
        }
        self.compare_score(tally)
    }

    fn compare_score(&mut self, tally: &mut Tally) -> Result<(), String> {
        let dead = self.gnugo.ok("final_status_list dead");
        if !dead.is_empty() {
            tally.scores_skipped += 1;
            return Ok(());
        }
        let answer = self.gnugo.ok("final_score");
        let theirs = parse_score(&answer).ok_or_else(|| format!("bad final_score `{answer}`"))?;
        // All stones are alive: the rules' scoring with no dead stones.
        let ours = self.game.score(&[]);
        tally.scores_compared += 1;
        if (ours.margin() - theirs).abs() > 1e-3 {
            return Err(self.describe(&format!(
                "final score: GNU Go {answer}, ours {} ({ours:?})",
                ours.result()
            )));
        }
        Ok(())
    }
}

fn run_variant(variant: &Variant, seed_base: u64) -> Tally {
    let started = Instant::now();
    let mut gnugo = GnuGo::start(variant.options);
    let mut tally = Tally::default();
    for (s, &size) in SIZES.iter().enumerate() {
        for g in 0..games_per_size(size) {
            let seed = seed_base ^ (s as u64) << 40 ^ g as u64;
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut game = Game::new(size, variant.rules).expect("size");
            game.set_komi(7.5);
            gnugo.ok(&format!("boardsize {size}"));
            gnugo.ok("clear_board");
            gnugo.ok("komi 7.5");
            let mut record = Vec::new();
            // A quarter of the games on boards that have them start with fixed handicap.
            let handicap = rng.random_range(2..=9);
            if rng.random_bool(0.25) && fixed_handicap_vertices(size, handicap).is_ok() {
                let ours = game.place_fixed_handicap(handicap).expect("empty board");
                let ours = parse_list(&ours.iter().map(|v| format!("{v} ")).collect::<String>());
                let theirs = parse_list(&gnugo.ok(&format!("fixed_handicap {handicap}")));
                if ours != theirs {
                    tally.disagreements.push(format!(
                        "fixed_handicap {handicap} on {size}: GNU Go {theirs:?}, ours {ours:?}"
                    ));
                }
                record.push(format!("handicap {handicap}"));
            }
            let seen = HashSet::from([game.board().hash()]);
            let mut m = Match {
                gnugo: &mut gnugo,
                game,
                seen,
                record,
                rng,
            };
            if let Err(e) = m.play_game(&mut tally) {
                tally
                    .disagreements
                    .push(format!("[{} size {size} seed {seed}] {e}", variant.name));
            }
            tally.games += 1;
        }
    }
    println!(
        "{}: {} games, {} moves and {} attempts ({} illegal) compared, {} final scores \
         compared ({} skipped: GNU Go saw dead stones; {} games capped), {} disagreements, {} suicides repeating a \
         position (GNU Go misses that superko), {:.1?}; refusals by reason: {:?}",
        variant.name,
        tally.games,
        tally.moves,
        tally.attempts,
        tally.illegal_attempts,
        tally.scores_compared,
        tally.scores_skipped,
        tally.capped,
        tally.disagreements.len(),
        tally.gnugo_suicide_superko,
        started.elapsed(),
        tally.reasons
    );
    tally
}

fn check(variant: Variant, seed_base: u64) {
    let tally = run_variant(&variant, seed_base);
    let shown: Vec<&String> = tally.disagreements.iter().take(5).collect();
    assert!(
        tally.disagreements.is_empty(),
        "{} disagreements with GNU Go, first ones:\n{}",
        tally.disagreements.len(),
        shown
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

#[test]
fn simple_ko_no_suicide() {
    check(
        Variant {
            name: "simple ko, no suicide",
            rules: variant_rules(KoRule::Simple, false),
            options: &["--chinese-rules"],
        },
        0x5eed_0001,
    );
}

#[test]
fn simple_ko_suicide_allowed() {
    check(
        Variant {
            name: "simple ko, multi-stone suicide",
            rules: variant_rules(KoRule::Simple, true),
            // GNU Go's --allow-suicide forbids single-stone suicide, as we do.
            options: &["--chinese-rules", "--allow-suicide"],
        },
        0x5eed_0002,
    );
}

#[test]
fn positional_superko() {
    check(
        Variant {
            name: "positional superko",
            rules: variant_rules(KoRule::PositionalSuperko, false),
            options: &["--chinese-rules", "--positional-superko"],
        },
        0x5eed_0003,
    );
}

#[test]
fn situational_superko_suicide_allowed() {
    check(
        Variant {
            name: "situational superko, multi-stone suicide",
            rules: variant_rules(KoRule::SituationalSuperko, true),
            options: &[
                "--chinese-rules",
                "--situational-superko",
                "--allow-suicide",
            ],
        },
        0x5eed_0004,
    );
}

#[test]
fn positional_superko_suicide_allowed() {
    check(
        Variant {
            name: "positional superko, multi-stone suicide",
            rules: variant_rules(KoRule::PositionalSuperko, true),
            options: &["--chinese-rules", "--positional-superko", "--allow-suicide"],
        },
        0x5eed_0005,
    );
}

#[test]
fn situational_superko() {
    check(
        Variant {
            name: "situational superko, no suicide",
            rules: variant_rules(KoRule::SituationalSuperko, false),
            options: &["--chinese-rules", "--situational-superko"],
        },
        0x5eed_0006,
    );
}

#[test]
fn japanese_territory_scoring() {
    check(
        Variant {
            name: "simple ko, territory scoring",
            rules: Rules {
                handicap_bonus: HandicapBonus::Zero,
                ..Rules::custom(KoRule::Simple, Scoring::Territory, false)
            },
            options: &["--japanese-rules"],
        },
        0x5eed_0007,
    );
}
