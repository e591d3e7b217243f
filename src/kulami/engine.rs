//! The Kulami GTP engine behind `hamle kulami`.
//!
//! Commands are parsed into [`KulamiCommand`] first (typed arguments, typed errors, see
//! [`super::command`]), then run against the game; a command that fails leaves the game
//! exactly as it was. GoGui's rules extension is answered by the core from the engine's
//! [`GoguiRules`].

use std::time::Instant;

use crate::protocol::{
    Clock, Command, Engine, GOGUI_RULES_COMMANDS, GoguiRules, GtpError, Session,
};

use super::cell::Cell;
use super::command::{KULAMI_COMMANDS, KulamiCommand, LayoutChoice, MoveArg};
use super::gogui;
use super::layout::Layout;
use super::player::{self, SearchLimits};
use super::position::Setup;
use super::rules::{Color, Game, IllegalMove};
use super::score::{Scoring, score};

/// Search nodes per move when the command line does not say.
pub const DEFAULT_NODES: u64 = 200_000;

/// Settings from the command line.
#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    /// Search nodes per move (with a clock set, the first of this and the clock's
    /// allotment ends the search).
    pub nodes: u64,
    pub scoring: Scoring,
    /// The layout of the first game (and of `clear_board` until another is chosen).
    pub layout: Layout,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            seed: 0,
            nodes: DEFAULT_NODES,
            scoring: Scoring::default(),
            layout: Layout::standard(),
        }
    }
}

fn illegal(reason: &IllegalMove) -> GtpError {
    GtpError::other(format!("illegal move: {reason}"))
}

/// The Kulami engine behind `hamle kulami`.
pub struct KulamiEngine {
    settings: Settings,
    game: Game,
    /// Searches and random layouts drawn so far: mixed into the seed so that each has its
    /// own stream while the whole session stays reproducible.
    draws: u64,
    clock: Clock,
}

impl KulamiEngine {
    pub fn new(settings: Settings) -> KulamiEngine {
        let game = Game::new(settings.layout.clone());
        KulamiEngine {
            settings,
            game,
            draws: 0,
            clock: Clock::default(),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    fn next_seed(&mut self) -> u64 {
        self.draws += 1;
        self.settings
            .seed
            .wrapping_mul(crate::seed::GOLDEN_GAMMA)
            .wrapping_add(self.draws)
    }

    fn run(&mut self, command: KulamiCommand, session: &Session<'_>) -> Result<String, GtpError> {
        let layout = self.game.layout();
        match command {
            KulamiCommand::Boardsize(size) => {
                // GoGui and match runners send boardsize before every game: the layout's own
                // size starts a new game on it, any other size cannot be played.
                if size != u64::from(layout.board_size()) {
                    return Err(GtpError::UnacceptableSize);
                }
                self.game = Game::new(layout.clone());
                Ok(String::new())
            }
            KulamiCommand::ClearBoard => {
                self.game = Game::new(layout.clone());
                self.clock.restart();
                Ok(String::new())
            }
            KulamiCommand::NewGame(choice) => {
                let layout = match choice {
                    LayoutChoice::Default => Layout::standard(),
                    LayoutChoice::Random(Some(seed)) => Layout::random(seed),
                    LayoutChoice::Random(None) => Layout::random(self.next_seed()),
                    LayoutChoice::Given(layout) => *layout,
                };
                let text = layout.to_string();
                self.game = Game::new(layout);
                self.clock.restart();
                Ok(text)
            }
            KulamiCommand::GetLayout => Ok(layout.to_string()),
            KulamiCommand::Tiles => Ok(gogui::tiles_gfx(&self.game)),
            KulamiCommand::BoardGfx => Ok(gogui::board_gfx(&self.game)),
            KulamiCommand::Play(color, MoveArg::Pass) => if self.game.is_over() {
                Ok(String::new())
            } else {
                Err(GtpError::other(format!(
                    "illegal move: {} has a legal hole, and Kulami has no passing",
                    self.game.to_move()
                )))
            }
            .inspect(|_| tracing::debug!("play {color} pass after the end: nothing changes")),
            KulamiCommand::Play(color, MoveArg::Cell(cell)) => {
                self.game
                    .play(color, cell)
                    .map_err(|reason| illegal(&reason))?;
                Ok(String::new())
            }
            KulamiCommand::Genmove(color) => self.generate(color, session, true),
            KulamiCommand::RegGenmove(color) => self.generate(color, session, false),
            KulamiCommand::Undo => {
                if self.game.undo() {
                    Ok(String::new())
                } else {
                    Err(GtpError::CannotUndo)
                }
            }
            KulamiCommand::Showboard => Ok(self.showboard()),
            KulamiCommand::AllLegal(color) => Ok(self.legal_for(color)),
            KulamiCommand::IsLegal(color, cell) => {
                let legal = color == self.game.to_move()
                    && self.game.position().check(layout, cell).is_ok();
                Ok(if legal { "1" } else { "0" }.into())
            }
            KulamiCommand::FinalScore => {
                Ok(score(layout, self.game.position(), self.settings.scoring).to_string())
            }
            KulamiCommand::GetPosition => Ok(Setup::of(layout, self.game.position()).to_string()),
            KulamiCommand::SetPosition(setup) => {
                let position = setup
                    .validate(layout)
                    .map_err(|error| GtpError::syntax(format!("bad position: {error}")))?;
                self.game = Game::from_position(layout.clone(), position);
                Ok(String::new())
            }
            KulamiCommand::Komi => Ok(String::new()),
            KulamiCommand::Clock(command) => Ok(self.clock.apply(command)),
        }
    }

    /// The legal holes of `color`, sorted, upper case; empty when it is not `color`'s turn
    /// or the game is over.
    fn legal_for(&self, color: Color) -> String {
        if color != self.game.to_move() {
            return String::new();
        }
        let moves: Vec<String> = self
            .game
            .legal_moves()
            .iter()
            .map(Cell::to_string)
            .collect();
        moves.join(" ")
    }

    /// Moves the side to move may still make, for the clock: half the empty holes (no
    /// more than the marbles left can fill), rounded up.
    fn moves_left(&self) -> u32 {
        let position = self.game.position();
        let empty = (self.game.layout().holes() & !position.occupied()).count_ones();
        empty.min(player::plies_left(position)).div_ceil(2).max(1)
    }

    fn generate(
        &mut self,
        color: Color,
        session: &Session<'_>,
        play: bool,
    ) -> Result<String, GtpError> {
        if self.game.is_over() {
            return Ok("pass".into());
        }
        let to_move = self.game.to_move();
        if color != to_move {
            return Err(illegal(&IllegalMove::NotYourTurn { to_move }));
        }
        let start = Instant::now();
        let stop = || session.interrupted();
        let limits = SearchLimits {
            deadline: self
                .clock
                .allotment(color.index(), self.moves_left())
                .map(|allotment| start + allotment),
            ..SearchLimits::nodes(self.settings.nodes.max(1))
        };
        let result = player::search(
            self.game.layout(),
            self.game.position(),
            self.settings.scoring,
            limits,
            &stop,
        );
        if play {
            // The move is on `color`'s clock (what is left to do takes microseconds): a
            // controller that sends no `time_left` leaves the account to the engine.
            self.clock.charge(color.index(), start.elapsed());
        }
        let Some(cell) = result.best else {
            return Ok("pass".into());
        };
        tracing::info!(
            "genmove {color}: {cell}, value {} at depth {}{} after {} nodes in {:.2}s",
            result.value,
            result.depth,
            if result.exact { " (exact)" } else { "" },
            result.nodes,
            start.elapsed().as_secs_f64()
        );
        if play {
            self.game.play(color, cell).map_err(|reason| {
                GtpError::other(format!(
                    "internal error: the search chose an illegal move {cell} ({reason})"
                ))
            })?;
        }
        Ok(cell.to_string())
    }

    /// The board with its tiles drawn: `|` and `---` mark tile edges, `X`/`O` are black and
    /// red marbles, `[X]`/`[O]` the marked last marbles, `.` an empty hole.
    fn showboard(&self) -> String {
        let layout = self.game.layout();
        let position = self.game.position();
        let (width, height) = (i32::from(layout.width()), i32::from(layout.height()));
        let tile = |col: i32, row: i32| -> Option<usize> {
            if (0..width).contains(&col) && (0..height).contains(&row) {
                layout.tile_index(Cell::new(col as u8, row as u8))
            } else {
                None
            }
        };
        let columns: String = (0..width)
            .map(|c| format!("  {} ", Cell::column_letter(c as u8)))
            .collect();
        let mut text = format!("\n    {}\n", columns.trim_end());
        for row in (-1..height).rev() {
            // The edge line below row `row + 1`: dashes where the tiles above and below differ.
            let mut edge = String::from("    ");
            for col in 0..=width {
                let corner = [
                    (col - 1, row),
                    (col, row),
                    (col - 1, row + 1),
                    (col, row + 1),
                ];
                let ids: Vec<Option<usize>> = corner.iter().map(|&(c, r)| tile(c, r)).collect();
                let any_hole = ids.iter().any(Option::is_some);
                let split = ids.iter().any(|t| *t != ids[0]);
                edge.push(if any_hole && split { '+' } else { ' ' });
                if col < width {
                    let (above, below) = (tile(col, row + 1), tile(col, row));
                    edge.push_str(if above != below { "---" } else { "   " });
                }
            }
            text.push_str(edge.trim_end());
            text.push('\n');
            if row < 0 {
                break;
            }
            let mut line = format!("{:>2}  ", row + 1);
            for col in 0..width {
                line.push(if tile(col - 1, row) != tile(col, row) {
                    '|'
                } else {
                    ' '
                });
                let cell = Cell::new(col as u8, row as u8);
                let glyph = match Color::BOTH
                    .iter()
                    .find(|c| position.marbles(**c) & cell.bit() != 0)
                {
                    Some(&color) => {
                        let mark = if color == Color::Black { 'X' } else { 'O' };
                        if position.last(color) == Some(cell) {
                            format!("[{mark}]")
                        } else {
                            format!(" {mark} ")
                        }
                    }
                    None if tile(col, row).is_some() => " . ".into(),
                    None => "   ".into(),
                };
                line.push_str(&glyph);
            }
            line.push(if tile(width - 1, row).is_some() {
                '|'
            } else {
                ' '
            });
            text.push_str(&format!("{line}  {}\n", row + 1));
        }
        let left =
            |color: Color| super::rules::MARBLES_PER_PLAYER - position.marbles(color).count_ones();
        let marker = |color: Color| {
            position
                .last(color)
                .map_or("none".to_string(), |c| c.to_string())
        };
        let state = if self.game.is_over() {
            "game over".to_string()
        } else {
            format!("{} to move", self.game.to_move())
        };
        text.push_str(&format!(
            "Black (X) {} marbles left, marker {}; Red (O) {} left, marker {}; {state}; scoring {}",
            left(Color::Black),
            marker(Color::Black),
            left(Color::Red),
            marker(Color::Red),
            self.settings.scoring
        ));
        text
    }
}

impl Engine for KulamiEngine {
    fn commands(&self) -> Vec<&'static str> {
        [&KULAMI_COMMANDS[..], &GOGUI_RULES_COMMANDS[..]].concat()
    }

    fn execute(
        &mut self,
        command: &Command,
        session: &mut Session<'_>,
    ) -> Result<String, GtpError> {
        let parsed = KulamiCommand::parse(command)?;
        self.run(parsed, session)
    }

    fn gogui_rules(&self) -> Option<&dyn GoguiRules> {
        Some(self)
    }

    fn analyze_commands(&self) -> Vec<String> {
        vec![
            "string/Final Score/final_score".into(),
            "string/Position/kulami-position".into(),
            "string/Layout/kulami-layout".into(),
            "gfx/Tiles/kulami-tiles".into(),
            "plist/Legal Moves/gogui-rules_legal_moves".into(),
        ]
    }

    fn takes_random_seed(&self) -> bool {
        true
    }

    /// The random layouts start over from `seed` (the search draws no random numbers and
    /// keeps nothing between moves).
    fn set_random_seed(&mut self, seed: u64) {
        self.settings.seed = seed;
        self.draws = 0;
    }

    fn describe(&self) -> String {
        format!(
            "hamle {} kulami: layout {}, scoring {}, seed {}, nodes {}",
            self.version(),
            self.game.layout(),
            self.settings.scoring,
            self.settings.seed,
            self.settings.nodes
        )
    }
}

/// GoGui's view of the game: the layout's square, the marbles, and the side to move.
impl GoguiRules for KulamiEngine {
    fn game_id(&self) -> String {
        "Kulami".into()
    }

    fn board_size(&self) -> String {
        self.game.layout().board_size().to_string()
    }

    fn board(&self) -> String {
        gogui::board(&self.game)
    }

    fn legal_moves(&self) -> String {
        self.legal_for(self.game.to_move())
    }

    fn side_to_move(&self) -> String {
        self.game.to_move().to_string()
    }

    fn final_result(&self) -> Option<String> {
        if !self.game.is_over() {
            return None;
        }
        let score = score(
            self.game.layout(),
            self.game.position(),
            self.settings.scoring,
        );
        Some(match score.margin() {
            0 => format!("Draw, {} to {}", score.black.total(), score.red.total()),
            m if m > 0 => format!(
                "Black wins by {m}, {} to {}",
                score.black.total(),
                score.red.total()
            ),
            m => format!(
                "Red wins by {}, {} to {}",
                -m,
                score.red.total(),
                score.black.total()
            ),
        })
    }
}

impl Settings {
    /// Settings from the command line's values; `layout` is `default` or a layout text.
    pub fn from_args(
        seed: u64,
        nodes: u64,
        row_bonus: super::RowBonus,
        tiles_only: bool,
        layout: &str,
    ) -> Result<Settings, String> {
        let layout = if layout.eq_ignore_ascii_case("default") {
            Layout::standard()
        } else {
            layout
                .parse::<Layout>()
                .map_err(|error| format!("invalid layout: {error}"))?
        };
        Ok(Settings {
            seed,
            nodes,
            scoring: Scoring {
                tiles_only,
                row_bonus,
            },
            layout,
        })
    }
}
