//! The Mangala engine's tests: the rule book, invariants over random sets, the solver
//! against brute force, GTP transcripts and the endgame databases through the binary.

#[path = "../support/mod.rs"]
mod support;

mod db;
mod end_of_input;
mod gtp;
mod invariants;
mod rules;
mod solver;
