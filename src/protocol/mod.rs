//! The protocol core shared by every game: GTP v2 framing, input preprocessing,
//! command parsing, the common commands, the game clock, the stdin reader and the line
//! reader every line protocol shares.
//!
//! A game plugs in by implementing [`Engine`]; [`serve`] does the rest.

pub mod clock;
mod command;
mod error;
mod input;
pub mod log;
pub mod rules;
mod server;
mod watched;

pub use clock::{CLOCK_COMMANDS, Clock, ClockCommand, TimeLeft, TimeSystem};
pub use command::{Command, parse_command};
pub use error::GtpError;
pub use input::{
    INPUT_QUEUE_LINES, Input, LINE_HEAD_BYTES, LineReader, MAX_LINE_BYTES, RawLine, Signals,
    preprocess, spawn_reader,
};
pub use rules::{GOGUI_RULES_COMMANDS, GoguiRules};
pub use server::{Engine, SEED_COMMAND, Session, serve, serve_inputs, serve_stdio};
