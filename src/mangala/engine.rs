//! `hamle mangala`: the Mangala engine on the shared GTP core.
//!
//! Commands are parsed into [`MangalaCommand`] first (typed arguments, typed errors, see
//! [`super::command`]), then run against the set; a command that fails leaves everything
//! as it was. GoGui's rules extension is answered by the core from the engine's
//! [`GoguiRules`].

use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::command::{MANGALA_COMMANDS, MangalaCommand};
use super::db::EndgameDb;
use super::draw::Draw;
use super::game::{Game, MAX_SET_MOVES};
use super::gogui;
use super::notation::{GOGUI_SIZE, score_text};
use super::player::{Limits, Searcher, margin_for};
use super::rules::{EndRule, IllegalMove, PITS, Pit, STANDARD_STONES_PER_PIT, Side};
use super::set_match::{Match, SetResult, StarterOrder};
use crate::protocol::{
    Clock, Command, Engine, GOGUI_RULES_COMMANDS, GoguiRules, GtpError, Session,
};

/// Nodes a move may search when the command line does not say.
pub const DEFAULT_NODES: u64 = 2_000_000;
/// Moves a side is expected still to make, for the clock: a set rarely lasts longer.
const MOVES_LEFT: u32 = 20;
/// Table entries (as a power of two) when the command line does not say: 64 MiB.
pub const DEFAULT_TABLE_BITS: u32 = 22;

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    pub rule: EndRule,
    pub stones_per_pit: u8,
    pub order: StarterOrder,
    /// Nodes per `genmove` (with a clock set, the first of this and the clock's allotment
    /// ends the search).
    pub nodes: u64,
    pub table_bits: u32,
    /// Answer `genmove` with GoGui vertices (`C1`) instead of pit numbers.
    pub gogui_vertices: bool,
    /// GoGui's `clear_board`: start the current set over instead of moving on to the next
    /// set, so that GoGui's replay of the game (`clear_board`, then every move) rebuilds it,
    /// also once the set is over.
    pub clear_restarts_set: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seed: 0,
            rule: EndRule::default(),
            stones_per_pit: STANDARD_STONES_PER_PIT,
            order: StarterOrder::default(),
            nodes: DEFAULT_NODES,
            table_bits: DEFAULT_TABLE_BITS,
            gogui_vertices: false,
            clear_restarts_set: false,
        }
    }
}

/// The engine behind `hamle mangala`.
pub struct MangalaEngine {
    settings: Settings,
    rng: ChaCha8Rng,
    game: Game,
    set_match: Match,
    last_draw: Option<Draw>,
    searcher: Searcher,
    db: Option<Arc<EndgameDb>>,
    clock: Clock,
}

impl MangalaEngine {
    /// A new engine; the first set is started by a draw from the seed. `db` is used when
    /// it was built for the engine's rules.
    pub fn new(settings: Settings, db: Option<Arc<EndgameDb>>) -> MangalaEngine {
        let (rng, draw) = Self::first_draw(settings.seed);
        let starter = draw.starter();
        let searcher = Searcher::new(settings.rule, settings.table_bits, db.clone());
        MangalaEngine {
            game: Game::new(settings.stones_per_pit, settings.rule, starter),
            set_match: Match::new(starter, settings.order),
            last_draw: Some(draw),
            searcher,
            db,
            rng,
            settings,
            clock: Clock::default(),
        }
    }

    /// The random numbers of `seed` and the draw that starts the first set with them.
    fn first_draw(seed: u64) -> (ChaCha8Rng, Draw) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let draw = Draw::run(Side::South, &mut rng);
        (rng, draw)
    }

    /// `set_random_seed`: the engine as a fresh process with this seed starts, under the
    /// rules and set size chosen so far: the draw of the first set, an empty table.
    fn reseed(&mut self, seed: u64) {
        let (rng, draw) = Self::first_draw(seed);
        self.settings.seed = seed;
        self.rng = rng;
        self.last_draw = Some(draw);
        self.set_match = Match::new(draw.starter(), self.settings.order);
        self.game = self.fresh_game(draw.starter());
        self.searcher.table().clear();
        self.clock = Clock::default();
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn set_match(&self) -> &Match {
        &self.set_match
    }

    pub fn last_draw(&self) -> Option<Draw> {
        self.last_draw
    }

    fn run(&mut self, command: MangalaCommand, session: &Session<'_>) -> Result<String, GtpError> {
        match command {
            MangalaCommand::Boardsize(size) => {
                if size != GOGUI_SIZE {
                    return Err(GtpError::UnacceptableSize);
                }
                self.clear_board();
                Ok(String::new())
            }
            MangalaCommand::ClearBoard => {
                self.clear_board();
                Ok(String::new())
            }
            MangalaCommand::Draw(hider) => {
                let draw = Draw::run(hider, &mut self.rng);
                self.last_draw = Some(draw);
                self.set_match = Match::new(draw.starter(), self.settings.order);
                self.game = self.fresh_game(draw.starter());
                Ok(draw.to_string())
            }
            MangalaCommand::MatchStatus => Ok(self.set_match.to_string()),
            MangalaCommand::Rules(None) => Ok(self.settings.rule.to_string()),
            MangalaCommand::Rules(Some(rule)) => {
                if rule != self.settings.rule {
                    self.settings.rule = rule;
                    self.searcher = Searcher::new(rule, self.settings.table_bits, self.db.clone());
                    self.restart_set();
                }
                Ok(String::new())
            }
            MangalaCommand::Stones(None) => Ok(self.settings.stones_per_pit.to_string()),
            MangalaCommand::Stones(Some(stones)) => {
                self.settings.stones_per_pit = stones;
                self.restart_set();
                Ok(String::new())
            }
            MangalaCommand::Play(side, pit) => {
                self.game.play(side, pit).map_err(|reason| {
                    tracing::warn!("play {side} {pit}: illegal ({reason})");
                    match reason {
                        IllegalMove::TooLong { .. } => GtpError::other(reason.to_string()),
                        _ => GtpError::IllegalMove,
                    }
                })?;
                Ok(String::new())
            }
            MangalaCommand::Genmove(side) => self.genmove(side, session),
            MangalaCommand::Undo => {
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            MangalaCommand::Showboard => Ok(self.showboard()),
            MangalaCommand::AllLegal(side) => {
                let position = self.game.position();
                if side != position.to_move() {
                    return Ok(String::new());
                }
                Ok(join(position.legal_moves().map(|p| p.to_string())))
            }
            MangalaCommand::FinalScore => {
                let position = self.game.position();
                if !position.is_over() {
                    return Err(GtpError::CannotScore);
                }
                Ok(score_text(position))
            }
            MangalaCommand::GetPosition => Ok(self.game.position().to_string()),
            MangalaCommand::SetPosition(position) => {
                self.game =
                    Game::from_position(position, self.settings.stones_per_pit, self.settings.rule)
                        .map_err(|error| GtpError::syntax(format!("bad position: {error}")))?;
                Ok(String::new())
            }
            MangalaCommand::Solve(max_nodes) => self.solve(max_nodes, session),
            MangalaCommand::Clock(command) => Ok(self.clock.apply(command)),
            MangalaCommand::BoardGfx => Ok(gogui::board_gfx(self.game.position())),
        }
    }

    fn fresh_game(&self, starter: Side) -> Game {
        Game::new(self.settings.stones_per_pit, self.settings.rule, starter)
    }

    /// `clear_board` (and `boardsize`): the next set, or with `clear_restarts_set` (GoGui)
    /// the current set from its start.
    /// The table is emptied too: what the searches of one game left there would change
    /// the next game's moves at a node budget, which then would not be those of a fresh
    /// process.
    fn clear_board(&mut self) {
        if self.settings.clear_restarts_set {
            self.restart_set();
        } else {
            self.new_set();
        }
        self.searcher.table().clear();
    }

    /// A new set of the match: a finished set is recorded first; after the fifth set a
    /// new match begins with the same first starter.
    fn new_set(&mut self) {
        let position = *self.game.position();
        if position.is_over() && !self.game.moves().is_empty() {
            let result = match position.winner() {
                Some(side) => SetResult::Won(side),
                None => SetResult::Drawn,
            };
            self.set_match.record(result);
        }
        if self.set_match.is_over() {
            self.set_match = Match::new(self.set_match.first_starter(), self.settings.order);
        }
        let starter = self.set_match.starter_of(self.set_match.current_set());
        self.game = self.fresh_game(starter);
    }

    /// The current set again from its start, after a change of rules or set size.
    fn restart_set(&mut self) {
        let starter = self.set_match.starter_of(self.set_match.current_set());
        self.game = self.fresh_game(starter);
    }

    fn genmove(&mut self, side: Side, session: &Session<'_>) -> Result<String, GtpError> {
        let position = *self.game.position();
        if position.is_over() {
            return Err(GtpError::other("the set is over"));
        }
        if self.game.moves().len() >= MAX_SET_MOVES {
            // Refused before searching: the move could not be kept.
            let limit = MAX_SET_MOVES;
            return Err(GtpError::other(IllegalMove::TooLong { limit }.to_string()));
        }
        if side != position.to_move() {
            return Err(GtpError::other(format!(
                "it is {}'s turn, not {side}'s",
                position.to_move()
            )));
        }
        let start = Instant::now();
        let limits = Limits {
            nodes: Some(self.settings.nodes.max(1)),
            deadline: self
                .clock
                .allotment(side.index(), MOVES_LEFT)
                .map(|allotment| start + allotment),
            ..Limits::default()
        };
        let signals = session.signals();
        let stop = || signals.interrupted();
        let result = self.searcher.search(&position, limits, &stop);
        // The move is on `side`'s clock (what is left to do takes microseconds): a
        // controller that sends no `time_left` leaves the account to the engine.
        self.clock.charge(side.index(), start.elapsed());
        let pit = result
            .best
            .ok_or_else(|| GtpError::other("internal error: no move found"))?;
        tracing::info!(
            "genmove {side}: pit {pit}, value {:+}{} at depth {} after {} nodes in {:.2}s",
            result.value,
            if result.proved { " (proved)" } else { "" },
            result.depth,
            result.nodes,
            start.elapsed().as_secs_f64()
        );
        self.game.play(side, pit).map_err(|reason| {
            GtpError::other(format!(
                "internal error: the search chose pit {pit} ({reason})"
            ))
        })?;
        Ok(if self.settings.gogui_vertices {
            pit.gogui_vertex(side)
        } else {
            pit.to_string()
        })
    }

    fn solve(&mut self, max_nodes: Option<u64>, session: &Session<'_>) -> Result<String, GtpError> {
        let position = *self.game.position();
        let limits = Limits {
            nodes: max_nodes,
            ..Limits::default()
        };
        let signals = session.signals();
        // A solve without a node budget may take hours: like an analysis stream, it ends
        // with the input (a controller that closed it can never ask for anything again),
        // answering the bounds proved so far. A budgeted solve runs its budget, as genmove
        // does, so that a piped script (`printf 'mangala-solve 1000000' | hamle mangala`)
        // still gets its full answer.
        let endless = max_nodes.is_none();
        let stop = || signals.interrupted() || (endless && signals.input_closed());
        let solution = self
            .searcher
            .solve(&position, limits, &stop, &mut |_, _, _| {});
        let mover = position.to_move();
        let best = solution
            .best
            .map_or_else(|| "none".to_owned(), |p| p.to_string());
        Ok(match solution.exact() {
            Some(gain) => format!(
                "exact {mover} {:+} best {best} nodes {}",
                margin_for(&position, gain, mover),
                solution.nodes
            ),
            None => format!(
                "bounds {mover} {:+} {:+} nodes {}",
                margin_for(&position, solution.lower, mover),
                margin_for(&position, solution.upper, mover),
                solution.nodes
            ),
        })
    }

    fn showboard(&self) -> String {
        let position = self.game.position();
        let row = |side: Side, pits: &mut dyn Iterator<Item = Pit>| -> String {
            pits.map(|p| format!("{:>3}", position.pit(side, p)))
                .collect()
        };
        let north_numbers: String = Pit::ALL
            .iter()
            .rev()
            .map(|p| format!("{:>3}", p.number()))
            .collect();
        let south_numbers: String = Pit::ALL
            .iter()
            .map(|p| format!("{:>3}", p.number()))
            .collect();
        let mut text = String::from("\n");
        text.push_str(&format!("north  {north_numbers}\n"));
        text.push_str(&format!(
            "      ({} )\n",
            row(Side::North, &mut Pit::ALL.into_iter().rev())
        ));
        text.push_str(&format!(
            "  {:>3}{}{:>3}\n",
            position.store(Side::North),
            " ".repeat(3 * PITS + 4),
            position.store(Side::South)
        ));
        text.push_str(&format!(
            "      ({} )\n",
            row(Side::South, &mut Pit::ALL.into_iter())
        ));
        text.push_str(&format!("south  {south_numbers}\n"));
        let status = if position.is_over() {
            format!("set over: {}", score_text(position))
        } else {
            format!("{} to move", position.to_move())
        };
        text.push_str(&format!(
            "stores: north {} (left), south {} (right); {status}; rules {}; set {} of 5",
            position.store(Side::North),
            position.store(Side::South),
            self.settings.rule,
            self.set_match.current_set()
        ));
        text
    }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(" ")
}

impl Engine for MangalaEngine {
    fn commands(&self) -> Vec<&'static str> {
        [&MANGALA_COMMANDS[..], &GOGUI_RULES_COMMANDS[..]].concat()
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        let parsed = MangalaCommand::parse(command, self.game.total_stones())?;
        self.run(parsed, session)
    }

    fn gogui_rules(&self) -> Option<&dyn GoguiRules> {
        Some(self)
    }

    fn analyze_commands(&self) -> Vec<String> {
        vec![
            "string/Board/showboard".into(),
            "string/Position/get_position".into(),
            "string/Solve/mangala-solve 2000000".into(),
            "string/Match/mangala-match".into(),
        ]
    }

    fn takes_random_seed(&self) -> bool {
        true
    }

    fn set_random_seed(&mut self, seed: u64) {
        self.reseed(seed);
    }

    fn describe(&self) -> String {
        format!(
            "hamle {} mangala: rules {}, stones per pit {}, seed {}, nodes {}, starters {:?}, database {}",
            self.version(),
            self.settings.rule,
            self.settings.stones_per_pit,
            self.settings.seed,
            self.settings.nodes,
            self.settings.order,
            self.searcher
                .db_stones()
                .map_or_else(|| "none".to_owned(), |n| format!("to {n} stones")),
        )
    }
}

/// GoGui's view of the set: a 6×6 board whose rows 1 and 6 are the pits (see
/// [`super::gogui`]), South shown as Black.
impl GoguiRules for MangalaEngine {
    fn game_id(&self) -> String {
        "Mangala".into()
    }

    fn board_size(&self) -> String {
        GOGUI_SIZE.to_string()
    }

    fn board(&self) -> String {
        gogui::board(self.game.position())
    }

    fn legal_moves(&self) -> String {
        let position = self.game.position();
        let side = position.to_move();
        join(position.legal_moves().map(|p| p.gogui_vertex(side)))
    }

    fn side_to_move(&self) -> String {
        self.game.to_move().gogui_color().into()
    }

    /// GoGui shows this text in its "game finished" dialog.
    fn final_result(&self) -> Option<String> {
        let position = self.game.position();
        if !position.is_over() {
            return None;
        }
        let (south, north) = (position.store(Side::South), position.store(Side::North));
        Some(match position.winner() {
            Some(side) => format!(
                "{} wins by {}, {south} to {north}",
                match side {
                    Side::South => "South (Black)",
                    Side::North => "North (White)",
                },
                position.store_difference(side)
            ),
            None => format!("Draw, {south} to {north}"),
        })
    }
}
