//! The Kulami engine's tests: the rule book, invariants over random games, the searching
//! player and GTP transcripts.

mod gtp;
mod invariants;
mod player;
mod rules;
