//! The Go engine's tests: rules, invariants and SGF in-process, GTP transcripts, tree reuse,
//! live analysis and interrupts. Tests against GNU Go and Sabaki are in `tests/interop/`.

#[path = "../support/mod.rs"]
mod support;

mod analysis;
mod counting;
mod dynkomi;
mod gtp;
mod hostile_input;
mod interrupt;
mod invariants;
mod learned_priors;
mod net_options;
mod regression;
mod reuse;
mod rules;
mod score_suite;
mod sgf_roundtrip;
