//! The Abalone engine's tests: perft counts, invariants against a naive reading of the rule
//! book, and GTP transcripts. The test against abalone-boai is in `tests/interop/`.

#[path = "../support/mod.rs"]
mod support;

mod gtp;
mod invariants;
mod perft;
