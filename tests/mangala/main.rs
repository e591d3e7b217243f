//! The Mangala engine's tests: the rule book, invariants over random sets, the solver
//! against brute force and GTP transcripts.

mod gtp;
mod invariants;
mod rules;
mod solver;
