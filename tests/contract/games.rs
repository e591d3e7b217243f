//! The five engines as rows of one table: how each is started (a tiny budget, a fixed
//! seed), how a game is set up, how a turn is taken and how the end is read. The checks
//! in `main.rs` know nothing else about a game, so a sixth game is one more row.

use crate::engine::{Answer, Engine};

pub struct Game {
    pub name: &'static str,
    /// `hamle` arguments: the subcommand, a budget that answers in milliseconds, a seed.
    pub args: &'static [&'static str],
    /// The commands that set up a fresh game (each must succeed).
    pub new_game: &'static [&'static str],
    pub turns: Turns,
    /// From a fresh game: commands that must succeed, then a last `play` the rules refuse.
    pub illegal: &'static [&'static str],
    /// More plies than any game of the row takes: reaching it means the game is stuck.
    pub max_plies: usize,
}

/// How a turn is taken and how the end of the game is read.
pub enum Turns {
    /// The engine chooses every move: `genmove` for each colour in turn, until two passes
    /// in a row or a resignation; `score` must then be answered. (Go: no command lists
    /// its moves for the side to move, and random Go games take long to end.)
    Genmove {
        colors: [&'static str; 2],
        score: &'static str,
    },
    /// The test chooses, by a seeded pick from the list that `legal` answers (split as
    /// `list` says; an empty list means the only move is `no_move`), and plays it with
    /// `play`, where `{side}` is what `side` answers and `{move}` the pick; `after_play`,
    /// when given, follows every play (Tavla's `roll`). `result` tells the end.
    Pick {
        legal: &'static str,
        list: List,
        side: Option<&'static str>,
        play: &'static str,
        no_move: &'static str,
        after_play: Option<&'static str>,
        result: &'static str,
        running: Running,
    },
}

/// How a legal-move list is split into moves.
#[derive(Clone, Copy)]
pub enum List {
    /// One move a word (GoGui's vertex lists).
    Words,
    /// One move a line (Tavla's plays, which hold spaces).
    Lines,
}

/// What the result command answers while the game runs.
pub enum Running {
    /// This word (GoGui's `unknown`).
    Answers(&'static str),
    /// A refusal (Tavla's `final_result`: `? cannot score`).
    Refused,
}

pub const GAMES: &[Game] = &[
    Game {
        name: "go",
        args: &[
            "go",
            "--rules",
            "chinese",
            "--playouts",
            "20",
            "--seed",
            "1",
        ],
        new_game: &["boardsize 5", "clear_board"],
        turns: Turns::Genmove {
            colors: ["b", "w"],
            score: "final_score",
        },
        illegal: &["play b C3", "play w C3"],
        max_plies: 200,
    },
    Game {
        name: "tavla",
        args: &["tavla", "--level", "greedy", "--seed", "3"],
        new_game: &["new_game"],
        turns: Turns::Pick {
            legal: "all_legal",
            list: List::Lines,
            side: None,
            play: "play {move}",
            no_move: "pass",
            after_play: Some("roll"),
            result: "final_result",
            running: Running::Refused,
        },
        // 23 pips in one checker's move: no roll makes it.
        illegal: &["play 24/1"],
        max_plies: 3000,
    },
    Game {
        name: "abalone",
        args: &["abalone", "--nodes", "50", "--seed", "1"],
        new_game: &["clear_board"],
        turns: GOGUI_RULES,
        illegal: &["play b e5e6"],
        max_plies: 1000,
    },
    Game {
        name: "kulami",
        args: &["kulami", "--nodes", "50", "--seed", "1"],
        new_game: &["clear_board"],
        turns: GOGUI_RULES,
        illegal: &["play b A1", "play w A1"],
        max_plies: 200,
    },
    Game {
        name: "mangala",
        args: &[
            "mangala",
            "--nodes",
            "50",
            "--db-stones",
            "0",
            "--seed",
            "1",
        ],
        new_game: &["clear_board"],
        turns: GOGUI_RULES,
        // White (north) out of turn. Who opens a set is drawn, so the position says it.
        illegal: &["set_position 4,4,4,4,4,4,0/4,4,4,4,4,4,0/s", "play w 1"],
        max_plies: 1000,
    },
];

/// Turns through GoGui's rules extension, which the core answers for every game that has it.
const GOGUI_RULES: Turns = Turns::Pick {
    legal: "gogui-rules_legal_moves",
    list: List::Words,
    side: Some("gogui-rules_side_to_move"),
    play: "play {side} {move}",
    no_move: "pass",
    after_play: None,
    result: "gogui-rules_final_result",
    running: Running::Answers("unknown"),
};

/// The test's own seeded choices (the house SplitMix64), independent of the engine's seed.
pub struct Picker(u64);

impl Picker {
    pub fn new(seed: u64) -> Picker {
        Picker(seed)
    }

    fn index(&mut self, len: usize) -> usize {
        let (state, drawn) = hamle::seed::splitmix64(self.0);
        self.0 = state;
        (drawn % len as u64) as usize
    }
}

/// What a finished game left: every command of its turns with its answer, and the result.
pub struct Finished {
    pub transcript: Vec<String>,
    pub result: String,
}

impl Game {
    pub fn start(&self) -> Engine {
        let mut engine = Engine::start(self);
        for command in self.new_game {
            engine.ok(command);
        }
        engine
    }

    /// Whether the game has ended: `Some(result)` once it has.
    fn result(&self, engine: &mut Engine, passes: usize) -> Option<String> {
        match &self.turns {
            Turns::Genmove { score, .. } => (passes >= 2).then(|| engine.ok(score)),
            Turns::Pick {
                result, running, ..
            } => match (engine.send(result), running) {
                (Ok(answer), Running::Answers(word)) if answer == *word => None,
                (Err(_), Running::Refused) => None,
                (Ok(answer), _) => Some(answer),
                (Err(message), Running::Answers(_)) => {
                    panic!("{}: '{result}' refused: {message}", self.name)
                }
            },
        }
    }

    /// The legal moves of the side to move (`Pick` rows); an empty list is a refusal or an
    /// empty answer.
    pub fn legal_moves(&self, engine: &mut Engine) -> Vec<String> {
        let Turns::Pick { legal, list, .. } = &self.turns else {
            panic!("{}: moves are chosen by the engine", self.name)
        };
        let Ok(body) = engine.send(legal) else {
            return Vec::new();
        };
        let moves = match list {
            List::Words => body.split_whitespace().collect::<Vec<_>>(),
            List::Lines => body
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect(),
        };
        moves.into_iter().map(str::to_owned).collect()
    }

    /// Takes the turn of ply `ply` without what follows a play (`after_play`); returns the
    /// command sent and its answer.
    pub fn play_turn(
        &self,
        engine: &mut Engine,
        ply: usize,
        picker: &mut Picker,
    ) -> (String, Answer) {
        match &self.turns {
            Turns::Genmove { colors, .. } => {
                let command = format!("genmove {}", colors[ply % 2]);
                let answer = engine.send(&command);
                (command, answer)
            }
            Turns::Pick {
                side,
                play,
                no_move,
                ..
            } => {
                let moves = self.legal_moves(engine);
                let pick = if moves.is_empty() {
                    (*no_move).to_owned()
                } else {
                    moves[picker.index(moves.len())].clone()
                };
                let side = side.map(|command| engine.ok(command)).unwrap_or_default();
                let command = play.replace("{side}", &side).replace("{move}", &pick);
                let answer = engine.send(&command);
                (command, answer)
            }
        }
    }

    /// Plays a whole game from a fresh start; every turn must be accepted and the game
    /// must end within `max_plies`.
    pub fn play_to_the_end(&self, seed: u64) -> Finished {
        let mut engine = self.start();
        let mut picker = Picker::new(seed);
        let mut transcript = Vec::new();
        let mut passes = 0;
        for ply in 0..self.max_plies {
            if let Some(result) = self.result(&mut engine, passes) {
                assert!(!result.trim().is_empty(), "{}: an empty result", self.name);
                engine.quit();
                return Finished { transcript, result };
            }
            let (command, answer) = self.play_turn(&mut engine, ply, &mut picker);
            let answer = answer.unwrap_or_else(|message| {
                panic!("{}: ply {ply}: '{command}' refused: {message}", self.name)
            });
            transcript.push(format!("{command} -> {answer}"));
            match &self.turns {
                Turns::Genmove { .. } if answer.eq_ignore_ascii_case("resign") => passes = 2,
                Turns::Genmove { .. } if answer.eq_ignore_ascii_case("pass") => passes += 1,
                Turns::Genmove { .. } => passes = 0,
                Turns::Pick {
                    after_play: Some(command),
                    ..
                } => {
                    // Nothing follows the last play of a game (Tavla: no roll once it is over).
                    if self.result(&mut engine, 0).is_none() {
                        transcript.push(format!("{command} -> {}", engine.ok(command)));
                    }
                }
                Turns::Pick { .. } => {}
            }
        }
        panic!("{}: no result after {} plies", self.name, self.max_plies)
    }
}
